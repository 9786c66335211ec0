/* gnn-tensor-conv.c: convolutions of 1 to 3 spatial dimensions, plain and
 * transposed (torch's at::convolution), on the im2col/Winograd/direct
 * kernels of gnn-conv-kernels.c
 *
 * A transposed convolution is the input gradient of the plain convolution
 * that maps its output back to its input, with the same weight: its forward
 * runs the kernels' backward-data, its input gradient their forward and its
 * weight gradient their backward-weight (lib/autograd/gnn-backward-conv.c),
 * so both share every kernel.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-parallel-private.h"

/* The settings of one call, each spatial setting expanded to nsp values. */
typedef struct
{
  guint    nsp;
  gboolean transposed;
  gint64   stride[3], padding[3], dilation[3], output_padding[3];
  gint64   groups;
} ConvArgs;

/* "conv2d", "conv_transpose1d", …: the name torch's messages use. */
static const char *
conv_name (const ConvArgs *a)
{
  static const char *const names[2][3] = {
    { "conv1d", "conv2d", "conv3d" },
    { "conv_transpose1d", "conv_transpose2d", "conv_transpose3d" },
  };

  return names[a->transposed ? 1 : 0][a->nsp - 1];
}

/* Checks @t and @other share a dtype ("expected scalar type Float but found Double"). */
static gboolean
check_scalar_type (GnnTensor  *t,
                   GnnTensor  *other,
                   GError    **error)
{
  GnnDType a = gnn_tensor_priv (t)->dtype, b = gnn_tensor_priv (other)->dtype;

  if (a == b)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "expected scalar type %s but found %s", gnn_torch_scalar_name (a), gnn_torch_scalar_name (b));
  return FALSE;
}

/* "(a x b x c)" of @n sizes, as torch prints sizes per channel. */
static char *
sizes_text (const gint64 *v,
            guint         n)
{
  GString *s = g_string_new ("(");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i > 0 ? " x " : "", v[i]);
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

/* torch's slow_conv_transpose checks print 1-d as 2-d with height 1 (or 0
 * for output padding), and name each axis. */
static void
append_named (GString      *s,
              const char   *what,
              const gint64 *v,
              guint         nsp,
              gint64        height_of_1d)
{
  static const char *const axes[3] = { "depth", "height", "width" };

  for (guint i = nsp == 1 ? 1 : 3 - nsp; i < 3; i++)
    {
      gint64 value = nsp == 1 ? (i == 1 ? height_of_1d : v[0]) : v[i - (3 - nsp)];

      g_string_append_printf (s, "%s%s_%s: %" G_GINT64_FORMAT, s->len > 0 ? " " : "", what, axes[i], value);
    }
}

/* The output sizes of a transposed convolution, torch's check on them. */
static gboolean
transposed_out_sizes (const ConvArgs *a,
                      const gint64   *in,
                      const gint64   *kernel,
                      gint64         *out,
                      GError        **error)
{
  gboolean small = FALSE;

  for (guint i = 0; i < a->nsp; i++)
    if (a->output_padding[i] >= a->stride[i] && a->output_padding[i] >= a->dilation[i])
      {
        g_autoptr(GString) s = g_string_new (NULL);

        append_named (s, "output_padding", a->output_padding, a->nsp, 0);
        append_named (s, "stride", a->stride, a->nsp, 1);
        append_named (s, "dilation", a->dilation, a->nsp, 1);
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "output padding must be smaller than either stride or dilation, but got %s", s->str);
        return FALSE;
      }
  for (guint i = 0; i < a->nsp; i++)
    {
      out[i] = (in[i] - 1) * a->stride[i] - 2 * a->padding[i] + a->dilation[i] * (kernel[i] - 1) +
               a->output_padding[i] + 1;
      small = small || out[i] < 1;
    }
  if (small)
    {
      gint64 in2[2] = { 1, in[0] }, out2[2] = { 1, out[0] };
      g_autofree char *is = sizes_text (a->nsp == 1 ? in2 : in, MAX (a->nsp, 2));
      g_autofree char *os = sizes_text (a->nsp == 1 ? out2 : out, MAX (a->nsp, 2));

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Given input size per channel: %s. Calculated output size per channel: %s. "
                   "Output size is too small", is, os);
      return FALSE;
    }
  return TRUE;
}

/* The output sizes of a plain convolution, torch's check on them. */
static gboolean
conv_out_sizes (const ConvArgs *a,
                const gint64   *in,
                const gint64   *kernel,
                gint64         *out,
                GError        **error)
{
  gint64 padded[3], dilated[3];
  gboolean too_small = FALSE;

  for (guint i = 0; i < a->nsp; i++)
    {
      padded[i] = in[i] + 2 * a->padding[i];
      dilated[i] = a->dilation[i] * (kernel[i] - 1) + 1;
      too_small = too_small || padded[i] < dilated[i];
      out[i] = (padded[i] - dilated[i]) / a->stride[i] + 1;
    }
  if (too_small)
    {
      g_autofree char *ps = sizes_text (padded, a->nsp);
      g_autofree char *ks = sizes_text (dilated, a->nsp);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Calculated padded input size per channel: %s. Kernel size: %s. Kernel size "
                   "can't be greater than actual input size", ps, ks);
      return FALSE;
    }
  return TRUE;
}

/* torch's check_shape_forward, in its order; fills the output shape. */
static gboolean
conv_check (GnnTensor      *input,
            GnnTensor      *weight,
            GnnTensor      *bias,
            const ConvArgs *a,
            gint64         *out_shape,
            GError        **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input), *wp = gnn_tensor_priv (weight);
  g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);
  g_autofree char *ws = gnn_shape_to_string (wp->shape, wp->ndim);
  guint nsp = a->nsp, lead;
  gint64 channels, expected;

  if (ip->ndim != nsp + 1 && ip->ndim != nsp + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected %uD (unbatched) or %uD (batched) input to %s, but got input of size: %s",
                   nsp + 1, nsp + 2, conv_name (a), is);
      return FALSE;
    }
  if (!gnn_check_float_dtype (conv_name (a), input, error) || !check_scalar_type (input, weight, error))
    return FALSE;
  if (bias != NULL && !check_scalar_type (input, bias, error))
    return FALSE;
  for (guint i = 0; i < nsp; i++)
    {
      const char *bad = a->stride[i] <= 0 ? "non-positive stride is not supported"
                        : a->padding[i] < 0 ? "negative padding is not supported"
                        : a->output_padding[i] < 0 ? "negative output_padding is not supported"
                        : NULL;

      if (bad != NULL)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, bad);
          return FALSE;
        }
    }
  for (guint i = 0; i < nsp; i++)
    if (a->dilation[i] <= 0)
      {
        /* torch runs 1-d convolutions as 2-d ones, and prints so */
        gint64 d2[2] = { 1, a->dilation[0] };
        g_autofree char *ds = gnn_shape_to_string (nsp == 1 ? d2 : a->dilation, MAX (nsp, 2));

        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "dilation should be greater than zero, but got %s", ds);
        return FALSE;
      }
  if (a->groups <= 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "non-positive groups is not supported");
      return FALSE;
    }
  if (wp->shape[0] % a->groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Given groups=%" G_GINT64_FORMAT ", expected weight to be divisible by %"
                   G_GINT64_FORMAT " at dimension 0, but got weight of size %s instead",
                   a->groups, a->groups, ws);
      return FALSE;
    }
  lead = ip->ndim - nsp - 1;
  channels = ip->shape[lead];
  expected = a->transposed ? wp->shape[0] : wp->shape[1] * a->groups;
  if (channels != expected)
    {
      if (a->transposed)
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Given transposed=1, weight of size %s, expected input%s to have %" G_GINT64_FORMAT
                     " channels, but got %" G_GINT64_FORMAT " channels instead", ws, is, expected, channels);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Given groups=%" G_GINT64_FORMAT ", weight of size %s, expected input%s to have %"
                     G_GINT64_FORMAT " channels, but got %" G_GINT64_FORMAT " channels instead",
                     a->groups, ws, is, expected, channels);
      return FALSE;
    }
  /* the output channels */
  expected = a->transposed ? wp->shape[1] * a->groups : wp->shape[0];
  if (bias != NULL)
    {
      GnnTensorPrivate *bp = gnn_tensor_priv (bias);

      if (bp->ndim != 1 || bp->shape[0] != expected)
        {
          g_autofree char *bs = gnn_shape_to_string (bp->shape, bp->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Given %sweight of size %s, expected bias to be 1-dimensional with %"
                       G_GINT64_FORMAT " elements, but got bias of size %s instead",
                       a->transposed ? "transposed=1, " : "", ws, expected, bs);
          return FALSE;
        }
    }
  for (guint i = 0; i < nsp; i++)
    if (wp->shape[2 + i] <= 0)
      {
        g_autoptr(GString) s = g_string_new (NULL);

        append_named (s, "kernel", wp->shape + 2, nsp, 1);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "kernel size should be greater than zero, but got %s", s->str);
        return FALSE;
      }
  if (lead == 1)
    out_shape[0] = ip->shape[0];
  out_shape[lead] = expected;
  return a->transposed
         ? transposed_out_sizes (a, ip->shape + lead + 1, wp->shape + 2, out_shape + lead + 1, error)
         : conv_out_sizes (a, ip->shape + lead + 1, wp->shape + 2, out_shape + lead + 1, error);
}

/* Right-aligns @nsp sizes into (d, h, w), 1 for missing axes. */
static void
to_dhw (const gint64 *v,
        guint         nsp,
        gint64        fill,
        gint64       *dhw)
{
  for (guint i = 0; i < 3; i++)
    dhw[i] = i < 3 - nsp ? fill : v[i - (3 - nsp)];
}

void
gnn_conv_geom_init (GnnConvGeom  *g,
                    guint         nsp,
                    gboolean      transposed,
                    const gint64 *in_shape,
                    guint         in_ndim,
                    const gint64 *w_shape,
                    const gint64 *out_shape,
                    const gint64 *stride,
                    const gint64 *padding,
                    const gint64 *dilation,
                    gint64        groups)
{
  guint lead = in_ndim - nsp - 1;
  /* the plain convolution runs from @src to @dst */
  const gint64 *src = transposed ? out_shape : in_shape;
  const gint64 *dst = transposed ? in_shape : out_shape;
  gint64 v[3];

  g->n = lead == 1 ? in_shape[0] : 1;
  g->cin = src[lead], g->cout = dst[lead];
  g->cin_g = w_shape[1], g->groups = groups, g->cout_g = g->cout / groups;
  to_dhw (src + lead + 1, nsp, 1, v), g->d = v[0], g->h = v[1], g->w = v[2];
  to_dhw (dst + lead + 1, nsp, 1, v), g->od = v[0], g->oh = v[1], g->ow = v[2];
  to_dhw (w_shape + 2, nsp, 1, v), g->kd = v[0], g->kh = v[1], g->kw = v[2];
  to_dhw (stride, nsp, 1, v), g->sd = v[0], g->sh = v[1], g->sw = v[2];
  to_dhw (padding, nsp, 0, v), g->pd = v[0], g->ph = v[1], g->pw = v[2];
  to_dhw (dilation, nsp, 1, v), g->dd = v[0], g->dh = v[1], g->dw = v[2];
}

/* out[:, c] += bias[c] over every position, for the transposed forward. */
#define DEFINE_ADD_BIAS(T, suffix)                                              \
static void                                                                     \
add_bias_##suffix (T *out, const T *bias, gint64 n, gint64 c, gint64 plane)     \
{                                                                               \
  for (gint64 b = 0; b < n; b++)                                                \
    for (gint64 ch = 0; ch < c; ch++)                                           \
      {                                                                         \
        T *row = out + (b * c + ch) * plane, v = bias[ch];                      \
                                                                                \
        for (gint64 p = 0; p < plane; p++)                                      \
          row[p] += v;                                                          \
      }                                                                         \
}

DEFINE_ADD_BIAS (float, f32)
DEFINE_ADD_BIAS (double, f64)

/* Checks, computes and records one convolution. */
static GnnTensor *
convolution (GnnTensor      *input,
             GnnTensor      *weight,
             GnnTensor      *bias,
             const ConvArgs *a,
             GError        **error)
{
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  g_autoptr(GnnTensor) bc = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnTensorPrivate *ip, *op;
  gint64 out_shape[5];
  GnnConvGeom g;
  gboolean f32, ok;
  void *o;
  const void *x, *w, *bv;
  GnnOpParams params = { .dim = (gint) a->nsp, .flag = a->transposed, .n_ints = 13 };

  GNN_CHECK_STORAGE (conv_name (a), input, error, NULL);
  GNN_CHECK_STORAGE (conv_name (a), weight, error, NULL);
  GNN_CHECK_STORAGE (conv_name (a), bias, error, NULL);
  if (!conv_check (input, weight, bias, a, out_shape, error))
    return NULL;

  ip = gnn_tensor_priv (input);
  f32 = ip->dtype == GNN_DTYPE_F32;
  /* transposed: the kernels add into the output */
  out = gnn_tensor_new_contiguous_checked (ip->dtype, out_shape, ip->ndim, a->transposed, error);
  if (out == NULL)
    return NULL;
  op = gnn_tensor_priv (out);
  gnn_conv_geom_init (&g, a->nsp, a->transposed, ip->shape, ip->ndim, gnn_tensor_priv (weight)->shape,
                      op->shape, a->stride, a->padding, a->dilation, a->groups);
  if (op->numel > 0)
    {
      if ((xc = gnn_tensor_contiguous_checked (input, error)) == NULL ||
          (wc = gnn_tensor_contiguous_checked (weight, error)) == NULL ||
          (bias != NULL && (bc = gnn_tensor_contiguous_checked (bias, error)) == NULL))
        return NULL;
      x = gnn_tensor_priv_data (gnn_tensor_priv (xc));
      w = gnn_tensor_priv_data (gnn_tensor_priv (wc));
      bv = bc != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (bc)) : NULL;
      o = gnn_tensor_priv_data (op);
      /* an empty kernel (cin_g == 0) gives a GEMM with K = 0: out = bias or 0 */
      if (!a->transposed)
        ok = f32 ? gnn_conv_forward_f32 (&g, x, w, bv, o, error)
                 : gnn_conv_forward_f64 (&g, x, w, bv, o, error);
      else if (gnn_tensor_priv (input)->numel == 0)
        ok = TRUE;
      else
        ok = f32 ? gnn_conv_backward_f32 (&g, NULL, w, x, o, NULL, NULL, error)
                 : gnn_conv_backward_f64 (&g, NULL, w, x, o, NULL, NULL, error);
      if (!ok)
        return NULL;
      if (a->transposed && bv != NULL)
        {
          gint64 plane = gnn_conv_in_size (&g);

          if (f32)
            add_bias_f32 (o, bv, g.n, g.cin, plane);
          else
            add_bias_f64 (o, bv, g.n, g.cin, plane);
        }
    }
  for (guint i = 0; i < a->nsp; i++)
    {
      params.ints[i] = a->stride[i];
      params.ints[3 + i] = a->padding[i];
      params.ints[6 + i] = a->dilation[i];
      params.ints[9 + i] = a->output_padding[i];
    }
  params.ints[12] = a->groups;
  return gnn_tensor_record (GNN_OP_CONVOLUTION, g_steal_pointer (&out),
                            (GnnTensor *[]) { input, weight, bias }, bias ? 3 : 2, &params);
}

/* Expands one setting: @n values (1 repeats, 0 gives @fill) into a->nsp
 * values, or torch's error for another count. */
static gboolean
expand_setting (const char   *name,
                const gint64 *v,
                guint         n,
                gint64        fill,
                guint         nsp,
                gint64       *out,
                GError      **error)
{
  if (n != 0 && n != 1 && n != nsp)
    {
      g_autofree char *vs = gnn_shape_to_string (v, n);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "expected %s to be a single integer value or a list of %u values to match the "
                   "convolution dimensions, but got %s=%s", name, nsp, name, vs);
      return FALSE;
    }
  for (guint i = 0; i < nsp; i++)
    out[i] = n == 0 ? fill : v[n == 1 ? 0 : i];
  return TRUE;
}

/**
 * gnn_tensor_convolution:
 * @input: the input, `[N, C_in, *spatial]` or unbatched `[C_in, *spatial]`,
 *   float32 or float64, with 1, 2 or 3 spatial dimensions
 * @weight: the filters with the dtype of @input: `[C_out, C_in / groups,
 *   *kernel]`, or `[C_in, C_out / groups, *kernel]` when @transposed; its
 *   rank gives the number of spatial dimensions
 * @bias: (nullable): a `[C_out]` bias, or %NULL
 * @stride: (array length=n_stride): the strides (> 0): one per spatial
 *   dimension, or one for all; none means 1
 * @n_stride: the length of @stride
 * @padding: (array length=n_padding): the implicit zero padding on both
 *   sides (>= 0), as @stride; none means 0
 * @n_padding: the length of @padding
 * @dilation: (array length=n_dilation): the spacing between kernel taps
 *   (> 0), as @stride; none means 1
 * @n_dilation: the length of @dilation
 * @transposed: whether to compute the transposed convolution (the gradient
 *   of a convolution with respect to its input, "deconvolution")
 * @output_padding: (array length=n_output_padding): for @transposed, the
 *   size added to one side of each output dimension (smaller than the stride
 *   or the dilation), as @stride; none means 0
 * @n_output_padding: the length of @output_padding
 * @groups: the number of blocked connections from input to output channels
 *   (divides both channel counts)
 * @error: return location for a #GError
 *
 * A convolution of any of torch's kinds, `torch.convolution` (through which
 * `F.conv1d`, `F.conv2d`, `F.conv3d` and `F.conv_transpose1d/2d/3d` run).
 * A plain convolution has `out = (in + 2 padding − dilation (k − 1) − 1) /
 * stride + 1` positions per dimension; a transposed one `(in − 1) stride −
 * 2 padding + dilation (k − 1) + output_padding + 1`.
 *
 * Errors use PyTorch's messages, e.g. "Expected 2D (unbatched) or 3D
 * (batched) input to conv1d, but got input of size: [2]" or "Given
 * transposed=1, weight of size [8, 2, 3, 3], expected input[1, 3, 4, 4] to
 * have 8 channels, but got 3 channels instead".
 *
 * Returns: (transfer full): the output, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_convolution (GnnTensor    *input,
                        GnnTensor    *weight,
                        GnnTensor    *bias,
                        const gint64 *stride,
                        guint         n_stride,
                        const gint64 *padding,
                        guint         n_padding,
                        const gint64 *dilation,
                        guint         n_dilation,
                        gboolean      transposed,
                        const gint64 *output_padding,
                        guint         n_output_padding,
                        gint64        groups,
                        GError      **error)
{
  ConvArgs a = { .transposed = transposed, .groups = groups };
  guint wdim;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  g_return_val_if_fail (stride != NULL || n_stride == 0, NULL);
  g_return_val_if_fail (padding != NULL || n_padding == 0, NULL);
  g_return_val_if_fail (dilation != NULL || n_dilation == 0, NULL);
  g_return_val_if_fail (output_padding != NULL || n_output_padding == 0, NULL);

  wdim = gnn_tensor_priv (weight)->ndim;
  if (wdim < 3 || wdim > 5)
    {
      g_autofree char *ws = gnn_shape_to_string (gnn_tensor_priv (weight)->shape, wdim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "convolution: expected a weight of 3, 4 or 5 dimensions (1 to 3 spatial), but got "
                   "weight of size %s", ws);
      return NULL;
    }
  a.nsp = wdim - 2;
  if (!expand_setting ("stride", stride, n_stride, 1, a.nsp, a.stride, error) ||
      !expand_setting ("padding", padding, n_padding, 0, a.nsp, a.padding, error) ||
      !expand_setting ("dilation", dilation, n_dilation, 1, a.nsp, a.dilation, error) ||
      !expand_setting ("output_padding", output_padding, n_output_padding, 0, a.nsp,
                       a.output_padding, error))
    return NULL;
  if (!transposed && n_output_padding > 0)
    for (guint i = 0; i < a.nsp; i++)
      if (a.output_padding[i] != 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "output_padding is only supported for transposed convolutions");
          return NULL;
        }
  return convolution (input, weight, bias, &a, error);
}

/* The fixed-rank functions: a weight of another rank is refused naming the
 * function, as torch's. */
static gboolean
check_weight_rank (GnnTensor      *weight,
                   const ConvArgs *a,
                   GError        **error)
{
  GnnTensorPrivate *wp = gnn_tensor_priv (weight);

  if (wp->ndim == a->nsp + 2)
    return TRUE;
  {
    g_autofree char *ws = gnn_shape_to_string (wp->shape, wp->ndim);

    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "%s: expected a %u-dimensional weight [%s, %s / groups, *kernel], but got weight of "
                 "size %s", conv_name (a), a->nsp + 2, a->transposed ? "in_channels" : "out_channels",
                 a->transposed ? "out_channels" : "in_channels", ws);
  }
  return FALSE;
}

/**
 * gnn_tensor_conv1d:
 * @input: the input, `[N, C_in, L]` or unbatched `[C_in, L]`, float32 or
 *   float64
 * @weight: the filters, `[C_out, C_in / groups, k]`, with the dtype of @input
 * @bias: (nullable): a `[C_out]` bias, or %NULL
 * @stride: the stride (> 0)
 * @padding: the implicit zero padding on both sides (>= 0)
 * @dilation: the spacing between kernel taps (> 0)
 * @groups: the number of blocked connections from input to output channels
 * @error: return location for a #GError
 *
 * A 1-d cross-correlation, `torch.nn.functional.conv1d`; see
 * [method@Gnn.Tensor.convolution].
 *
 * Returns: (transfer full): the output, `[N, C_out, L_out]` (or `[C_out,
 *   L_out]`), or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_conv1d (GnnTensor *input,
                   GnnTensor *weight,
                   GnnTensor *bias,
                   gint64     stride,
                   gint64     padding,
                   gint64     dilation,
                   gint64     groups,
                   GError   **error)
{
  ConvArgs a = { .nsp = 1, .stride = { stride }, .padding = { padding }, .dilation = { dilation },
                 .groups = groups };

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  if (!check_weight_rank (weight, &a, error))
    return NULL;
  return convolution (input, weight, bias, &a, error);
}

/**
 * gnn_tensor_conv2d:
 * @input: the input, `[N, C_in, H, W]` or unbatched `[C_in, H, W]`, float32
 *   or float64
 * @weight: the filters, `[C_out, C_in / groups, kH, kW]`, with the dtype of
 *   @input
 * @bias: (nullable): a `[C_out]` bias, or %NULL
 * @stride_h: the vertical stride (> 0)
 * @stride_w: the horizontal stride (> 0)
 * @padding_h: the implicit zero padding on the top and bottom (>= 0)
 * @padding_w: the implicit zero padding on the left and right (>= 0)
 * @dilation_h: the vertical spacing between kernel taps (> 0)
 * @dilation_w: the horizontal spacing between kernel taps (> 0)
 * @groups: the number of blocked connections from input to output channels
 *   (divides both C_in and C_out)
 * @error: return location for a #GError
 *
 * A 2-d cross-correlation, `torch.nn.functional.conv2d`. The output has
 * `H_out = (H + 2 × padding_h − dilation_h × (kH − 1) − 1) / stride_h + 1`
 * rows (and likewise columns).
 *
 * The images (and groups) are unfolded into column matrices (im2col) side
 * by side, a chunk of the batch at a time, and multiplied with the filters
 * by one BLAS GEMM per chunk; 3×3 stride-1 filters with enough channels use
 * Winograd's transforms instead.
 *
 * Errors use PyTorch's messages, e.g. "Expected 3D (unbatched) or 4D
 * (batched) input to conv2d, but got input of size: [2, 3]" or "Given
 * groups=1, weight of size [8, 1, 3, 3], expected input[2, 3, 5, 5] to have
 * 1 channels, but got 3 channels instead".
 *
 * Returns: (transfer full): the output, `[N, C_out, H_out, W_out]` (or
 *   `[C_out, H_out, W_out]` for an unbatched input), or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_conv2d (GnnTensor *input,
                   GnnTensor *weight,
                   GnnTensor *bias,
                   gint64     stride_h,
                   gint64     stride_w,
                   gint64     padding_h,
                   gint64     padding_w,
                   gint64     dilation_h,
                   gint64     dilation_w,
                   gint64     groups,
                   GError   **error)
{
  ConvArgs a = { .nsp = 2, .stride = { stride_h, stride_w }, .padding = { padding_h, padding_w },
                 .dilation = { dilation_h, dilation_w }, .groups = groups };

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  if (gnn_tensor_priv (input)->ndim == 3 || gnn_tensor_priv (input)->ndim == 4)
    if (!check_weight_rank (weight, &a, error))
      return NULL;
  return convolution (input, weight, bias, &a, error);
}

/**
 * gnn_tensor_conv_transpose2d:
 * @input: the input, `[N, C_in, H, W]` or unbatched `[C_in, H, W]`, float32
 *   or float64
 * @weight: the filters, `[C_in, C_out / groups, kH, kW]`, with the dtype of
 *   @input
 * @bias: (nullable): a `[C_out]` bias, or %NULL
 * @stride_h: the vertical stride (> 0)
 * @stride_w: the horizontal stride (> 0)
 * @padding_h: the zero padding removed from the top and bottom (>= 0)
 * @padding_w: the zero padding removed from the left and right (>= 0)
 * @output_padding_h: the rows added at the bottom (smaller than @stride_h
 *   or @dilation_h)
 * @output_padding_w: the columns added on the right (smaller than @stride_w
 *   or @dilation_w)
 * @dilation_h: the vertical spacing between kernel taps (> 0)
 * @dilation_w: the horizontal spacing between kernel taps (> 0)
 * @groups: the number of blocked connections from input to output channels
 *   (divides both C_in and C_out)
 * @error: return location for a #GError
 *
 * A 2-d transposed convolution, `torch.nn.functional.conv_transpose2d`
 * (note torch's argument order: output_padding before groups and
 * dilation). The output has `H_out = (H − 1) × stride_h − 2 × padding_h +
 * dilation_h × (kH − 1) + output_padding_h + 1` rows (and likewise
 * columns). See [method@Gnn.Tensor.convolution].
 *
 * Returns: (transfer full): the output, `[N, C_out, H_out, W_out]` (or
 *   `[C_out, H_out, W_out]`), or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_conv_transpose2d (GnnTensor *input,
                             GnnTensor *weight,
                             GnnTensor *bias,
                             gint64     stride_h,
                             gint64     stride_w,
                             gint64     padding_h,
                             gint64     padding_w,
                             gint64     output_padding_h,
                             gint64     output_padding_w,
                             gint64     dilation_h,
                             gint64     dilation_w,
                             gint64     groups,
                             GError   **error)
{
  ConvArgs a = { .nsp = 2, .transposed = TRUE, .stride = { stride_h, stride_w },
                 .padding = { padding_h, padding_w }, .dilation = { dilation_h, dilation_w },
                 .output_padding = { output_padding_h, output_padding_w }, .groups = groups };

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  if (gnn_tensor_priv (input)->ndim == 3 || gnn_tensor_priv (input)->ndim == 4)
    if (!check_weight_rank (weight, &a, error))
      return NULL;
  return convolution (input, weight, bias, &a, error);
}
