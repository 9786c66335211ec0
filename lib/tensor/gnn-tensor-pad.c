/* gnn-tensor-pad.c: padding in torch's four modes (torch.nn.functional.pad)
 *
 * Every mode is a gather through one index table per padded dimension
 * (gnn-gather-tables.c): output position o of a dimension padded by
 * (left, right) reads input position o − left, brought back into the input
 * by the mode — constant: none (the fill value), reflect: mirrored about
 * the edge, replicate: clamped, circular: wrapped. Negative padding crops.
 * The backward adds each output gradient to the position it read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-gather-tables-private.h"

static const char *
mode_name (GnnPaddingMode mode)
{
  switch (mode)
    {
    case GNN_PADDING_MODE_REFLECT: return "reflect";
    case GNN_PADDING_MODE_REPLICATE: return "replicate";
    case GNN_PADDING_MODE_CIRCULAR: return "circular";
    default: return "constant";
    }
}

gint64 *
gnn_pad_tables (GnnPaddingMode   mode,
                GnnGatherTables *t,
                const gint64    *pad_left)
{
  gint64 total = 0, *tables, *at;

  for (guint d = 0; d < t->k; d++)
    total += t->out[d];
  /* sized by the output's dimensions, which may be huge when another is 0 */
  at = tables = g_try_new (gint64, MAX (total, 1));
  if (tables == NULL)
    return NULL;
  for (guint d = 0; d < t->k; d++)
    {
      gint64 in = t->in[d];
      /* circular padding wraps the input after its crops (torch's order) */
      gint64 crop_left = MAX (-pad_left[d], 0);
      gint64 kept = t->out[d] - MAX (pad_left[d], 0) - MAX (t->out[d] - in - pad_left[d], 0);

      for (gint64 o = 0; o < t->out[d]; o++)
        {
          gint64 i = o - pad_left[d];

          switch (mode)
            {
            case GNN_PADDING_MODE_REFLECT:
              i = i < 0 ? -i : i;
              i = i >= in ? 2 * (in - 1) - i : i;
              break;
            case GNN_PADDING_MODE_REPLICATE:
              i = CLAMP (i, 0, in - 1);
              break;
            case GNN_PADDING_MODE_CIRCULAR:
              i = o - MAX (pad_left[d], 0);
              i = kept > 0 ? crop_left + ((i % kept) + kept) % kept : -1;
              break;
            default:
              i = i >= 0 && i < in ? i : -1;
            }
          at[o] = i;
        }
      t->table[d] = at;
      at += t->out[d];
    }
  return tables;
}

/* "[ torch.FloatTensor{1,0,3} ]", as torch prints a tensor in some checks. */
static char *
tensor_text (GnnTensorPrivate *p)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "[ torch.%sTensor{", gnn_torch_scalar_name (p->dtype));
  for (guint d = 0; d < p->ndim; d++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d > 0 ? "," : "", p->shape[d]);
  g_string_append (s, "} ]");
  return g_string_free (s, FALSE);
}

/* "input (D: 3 H: 4, W: 5) is too small. …" when every padded size of a
 * reflection or replication pad is below 1 (torch 1.13's texts, spacing
 * and all). */
static gboolean
check_not_too_small (const gint64   *in,
                     const gint64   *out,
                     guint           k,
                     GnnPaddingMode  mode,
                     GError        **error)
{
  gboolean reflect = mode == GNN_PADDING_MODE_REFLECT;

  for (guint d = 0; d < k; d++)
    if (out[d] >= 1)
      return TRUE;
  if (k == 1)
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "%sinput (W: %" G_GINT64_FORMAT ")%sis too small. Calculated output W: %" G_GINT64_FORMAT,
                 reflect ? "2" : "", in[0], reflect ? "" : " ", out[0]);
  else if (k == 2)
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "input (H: %" G_GINT64_FORMAT ", W: %" G_GINT64_FORMAT "%s)is too small. Calculated "
                 "output H: %" G_GINT64_FORMAT " W: %" G_GINT64_FORMAT,
                 in[0], in[1], reflect ? "" : " ", out[0], out[1]);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "input (D: %" G_GINT64_FORMAT " H: %" G_GINT64_FORMAT ", W: %" G_GINT64_FORMAT ") is "
                 "too small. Calculated output D: %" G_GINT64_FORMAT " H: %" G_GINT64_FORMAT " W: %"
                 G_GINT64_FORMAT, in[0], in[1], in[2], out[0], out[1], out[2]);
  return FALSE;
}

/* The checks of torch's reflection and replication padding (k = 1 to 3
 * padded dimensions on a [C, *] or [N, C, *] input); @in and @out are the
 * padded dimensions' sizes, outermost first. */
static gboolean
check_reflect_replicate (GnnTensorPrivate *p,
                         GnnPaddingMode    mode,
                         guint             k,
                         const gint64     *pad,
                         const gint64     *in,
                         const gint64     *out,
                         GError          **error)
{
  gboolean reflect = mode == GNN_PADDING_MODE_REFLECT;
  /* 1-d and 2-d reflection allow an empty first dimension either way */
  guint first = (reflect && k < 3) || p->ndim == k + 2 ? 1 : 0;
  g_autofree char *shape = gnn_shape_to_string (p->shape, p->ndim);

  for (guint d = first; d < p->ndim; d++)
    if (p->shape[d] == 0)
      {
        g_autofree char *text = tensor_text (p);

        if (reflect && k < 3)
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%uD or %uD (batch mode) tensor expected for input, but got: %s", k + 1, k + 2, text);
        else
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Expected %uD or %uD (batch mode) tensor with possibly 0 batch size and other "
                       "non-zero dimensions for input, but got: %s", k + 1, k + 2, shape);
        return FALSE;
      }
  if (reflect)
    for (guint j = 0; j < k; j++)
      {
        guint d = p->ndim - 1 - j;
        gint64 left = pad[2 * j], right = pad[2 * j + 1];

        if (left >= p->shape[d] || right >= p->shape[d])
          {
            g_autofree char *input = k == 2 ? g_strdup_printf ("%u", p->ndim) : g_strdup (shape);

            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "Argument #%u: Padding size should be less than the corresponding input "
                         "dimension, but got: padding (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                         ") at dimension %u of input %s", 4 + 2 * j, left, right, d, input);
            return FALSE;
          }
      }
  return check_not_too_small (in, out, k, mode, error);
}

/* Circular padding: an input with exactly two more dimensions, and each
 * pad at most its dimension (outermost first, as torch checks). */
static gboolean
check_circular (GnnTensorPrivate *p,
                guint             k,
                guint             n_pad,
                const gint64     *pad,
                GError          **error)
{
  if (p->ndim != k + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "Invalid padding size, expected %u but got %u",
                   2 * (p->ndim - 2), n_pad);
      return FALSE;
    }
  for (guint j = k; j-- > 0;)
    {
      gint64 size = p->shape[p->ndim - 1 - j], left = pad[2 * j], right = pad[2 * j + 1];

      if (left > size || right > size)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                               "Padding value causes wrapping around more than once.");
          return FALSE;
        }
      if (size + left + right < 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                               "Negative padding value is resulting in an empty dimension");
          return FALSE;
        }
    }
  return TRUE;
}

/* Constant padding crops with narrow (the outermost dimension first, the
 * left side first) before it pads: torch's errors of both steps. */
static gboolean
check_constant (GnnTensorPrivate *p,
                guint             k,
                const gint64     *pad,
                GError          **error)
{
  gboolean grows = FALSE;

  for (guint j = k; j-- > 0;)
    {
      gint64 cur = p->shape[p->ndim - 1 - j], left = pad[2 * j], right = pad[2 * j + 1];

      grows = grows || left > 0 || right > 0;
      if (left < 0 && -left != cur && -left > cur - 1)
        {
          /* sic: torch 1.13's narrow wraps its start like a dimension */
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "Dimension out of range (expected to be in range of [%" G_GINT64_FORMAT ", %"
                       G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")", -cur, cur - 1, -left);
          return FALSE;
        }
      for (guint side = 0; side < 2; side++)
        {
          gint64 crop = side == 0 ? left : right;

          if (crop >= 0)
            continue;
          if (cur + crop < 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "start (%" G_GINT64_FORMAT ") + length (%" G_GINT64_FORMAT
                           ") exceeds dimension size (%" G_GINT64_FORMAT ").",
                           side == 0 ? -crop : 0, cur + crop, cur);
              return FALSE;
            }
          cur += crop;
        }
    }
  if (grows)
    for (guint j = k; j-- > 0;)
      {
        guint d = p->ndim - 1 - j;
        gint64 left = pad[2 * j], right = pad[2 * j + 1];

        if (p->shape[d] + left + right <= 0)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "The input size %" G_GINT64_FORMAT ", plus negative padding %" G_GINT64_FORMAT
                         " and %" G_GINT64_FORMAT " resulted in a negative output size, which is "
                         "invalid. Check dimension %u of your input.", p->shape[d], left, right, d);
            return FALSE;
          }
      }
  return TRUE;
}

/* Checks @pad for @mode and computes the output shape. */
static gboolean
pad_check (GnnTensorPrivate *p,
           const gint64     *pad,
           guint             n_pad,
           GnnPaddingMode    mode,
           double            value,
           gint64           *out_shape,
           GError          **error)
{
  guint k = n_pad / 2;
  gint64 in[3], out[3];

  if (mode > GNN_PADDING_MODE_CIRCULAR)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "Unrecognised padding mode %d", (int) mode);
      return FALSE;
    }
  if (n_pad % 2 != 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Padding length must be divisible by 2");
      return FALSE;
    }
  if (k > p->ndim)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Padding length too large");
      return FALSE;
    }
  if (mode != GNN_PADDING_MODE_CONSTANT && value != 0.0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Padding mode \"%s\" doesn't take in value argument", mode_name (mode));
      return FALSE;
    }
  memcpy (out_shape, p->shape, sizeof (gint64) * p->ndim);
  for (guint j = 0; j < k; j++)
    out_shape[p->ndim - 1 - j] += pad[2 * j] + pad[2 * j + 1];
  if (mode != GNN_PADDING_MODE_CONSTANT)
    {
      if (!(k >= 1 && k <= 3 && (p->ndim == k + 1 || p->ndim == k + 2)))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                               "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
          return FALSE;
        }
      memcpy (in, p->shape + p->ndim - k, sizeof (gint64) * k);
      memcpy (out, out_shape + p->ndim - k, sizeof (gint64) * k);
    }
  if (!(mode == GNN_PADDING_MODE_CONSTANT ? check_constant (p, k, pad, error)
        : mode == GNN_PADDING_MODE_CIRCULAR ? check_circular (p, k, n_pad, pad, error)
        : check_reflect_replicate (p, mode, k, pad, in, out, error)))
    return FALSE;
  for (guint d = 0; d < p->ndim; d++)
    if (out_shape[d] < 0)
      {
        g_autofree char *os = gnn_shape_to_string (out_shape, p->ndim);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": %s",
                     out_shape[d], os);
        return FALSE;
      }
  return TRUE;
}

void
gnn_pad_geometry (GnnGatherTables *t,
                  const gint64    *in_shape,
                  const gint64    *out_shape,
                  guint            ndim,
                  guint            k)
{
  t->outer = 1;
  for (guint d = 0; d < ndim - k; d++)
    t->outer *= in_shape[d];
  t->k = k;
  for (guint d = 0; d < k; d++)
    {
      t->in[d] = in_shape[ndim - k + d];
      t->out[d] = out_shape[ndim - k + d];
    }
}

/**
 * gnn_tensor_pad:
 * @input: the tensor to pad, any dtype
 * @pad: (array length=n_pad): the padding, in pairs (left, right) starting
 *   from the last dimension: `(left, right)` pads the last one, `(left,
 *   right, top, bottom)` the last two, …; negative values crop
 * @n_pad: the length of @pad (even, at most twice the dimensions of @input)
 * @mode: how to fill the padding
 * @value: the fill value of %GNN_PADDING_MODE_CONSTANT (the other modes
 *   take none: it must be 0)
 * @error: return location for a #GError
 *
 * Pads @input, `torch.nn.functional.pad (input, pad, mode, value)`.
 * Constant padding works on any number of dimensions. Reflection and
 * replication pad the last 1, 2 or 3 dimensions of an input with one or
 * two more (`[C, W]` or `[N, C, W]` for one …); circular padding the last
 * 1 to 3 dimensions of an input with exactly two more. Reflection needs
 * each pad smaller than its dimension, circular padding at most equal.
 *
 * Errors use PyTorch's messages, e.g. "Padding length must be divisible by
 * 2", "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported
 * for now" (%GNN_ERROR_NOT_SUPPORTED) or "Argument #4: Padding size should
 * be less than the corresponding input dimension, but got: padding (3, 3)
 * at dimension 2 of input [1, 2, 3]".
 *
 * Returns: (transfer full): the padded tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pad (GnnTensor      *input,
                const gint64   *pad,
                guint           n_pad,
                GnnPaddingMode  mode,
                double          value,
                GError        **error)
{
  g_autoptr(GnnTensor) xc = NULL;
  g_autofree gint64 *tables = NULL;
  GnnTensorPrivate *p;
  gint64 out_shape[GNN_MAX_DIMS], left[GNN_MAX_DIMS];
  GnnGatherTables t;
  GnnTensor *out;
  guint8 fill[16] = { 0 };
  GnnOpParams params = { .dim = (gint) mode };
  guint k = n_pad / 2;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (pad != NULL || n_pad == 0, NULL);
  GNN_CHECK_STORAGE ("pad", input, error, NULL);

  p = gnn_tensor_priv (input);
  if (!pad_check (p, pad, n_pad, mode, value, out_shape, error))
    return NULL;
  out = gnn_tensor_new_contiguous_checked (p->dtype, out_shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  xc = gnn_tensor_contiguous_checked (input, error);
  if (xc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  /* tables run from the outermost padded dimension, pads from the last */
  for (guint j = 0; j < k; j++)
    left[k - 1 - j] = pad[2 * j];
  gnn_pad_geometry (&t, p->shape, out_shape, p->ndim, k);
  if (gnn_tensor_priv (out)->numel > 0)
    {
      if ((tables = gnn_pad_tables (mode, &t, left)) == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY, "pad: out of memory for the index tables of %u "
                       "dimensions", k);
          g_object_unref (out);
          return NULL;
        }
      gnn_dtype_write (p->dtype, fill, value);
      gnn_gather_tables (&t, gnn_dtype_get_size (p->dtype), gnn_tensor_priv_data (gnn_tensor_priv (xc)),
                         gnn_tensor_priv_data (gnn_tensor_priv (out)), fill);
    }
  memcpy (params.ints, left, sizeof (gint64) * k);
  params.n_ints = k;
  return gnn_tensor_record (GNN_OP_PAD, out, &input, 1, &params);
}
