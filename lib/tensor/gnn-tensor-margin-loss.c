/* gnn-tensor-margin-loss.c: the multi-class hinge losses over class scores
 * (torch.nn.functional.multi_margin_loss and multilabel_margin_loss), for
 * [C], [N, C] and 0-d inputs, checked in PyTorch's words
 * (aten/src/ATen/native/LossMultiMargin.cpp, LossMultiLabelMargin.cpp);
 * their gradients are in lib/autograd/gnn-backward-margin.c
 *
 * One pass per sample in double: the per-sample sum divided by the number
 * of classes, then reduced (mean over the samples, or sum).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* PyTorch's nframe / dim of an input: 0-d and [C] are one sample. */
static gboolean
frames_of (GnnTensorPrivate *ip,
           gint64           *nframe,
           gint64           *dim,
           GError          **error)
{
  if (!((ip->ndim == 2 && ip->shape[1] != 0) || (ip->ndim == 1 && ip->shape[0] != 0) ||
        ip->ndim == 0))
    {
      g_autofree char *s = gnn_shape_to_string (ip->shape, ip->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
                   s);
      return FALSE;
    }
  *nframe = ip->ndim <= 1 ? 1 : ip->shape[0];
  *dim = ip->ndim == 0 ? 1 : ip->shape[ip->ndim - 1];
  return TRUE;
}

/* float32 / float64 input, int64 target, as the CPU kernels dispatch. */
static gboolean
check_dtypes (const char       *kernel,
              GnnTensorPrivate *ip,
              GnnTensorPrivate *tp,
              GError          **error)
{
  if (ip->dtype != GNN_DTYPE_F32 && ip->dtype != GNN_DTYPE_F64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"%s\" not implemented for '%s'", kernel,
                   gnn_torch_scalar_name (ip->dtype));
      return FALSE;
    }
  if (tp->dtype != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected scalar type Long but found %s", gnn_torch_scalar_name (tp->dtype));
      return FALSE;
    }
  return TRUE;
}

/* The output: one loss per sample ([N]) or a 0-d one. */
static GnnTensor *
new_output (GnnDType dtype,
            gboolean per_sample,
            gint64   nframe,
            GError **error)
{
  return per_sample ? gnn_tensor_new_contiguous_checked (dtype, &nframe, 1, FALSE, error)
                    : gnn_tensor_new_contiguous_checked (dtype, NULL, 0, FALSE, error);
}

/* Writes the per-sample losses @l (nframe) into @out: as they are, or
 * reduced. */
static void
store (GnnTensor    *out,
       const double *l,
       gint64        nframe,
       gboolean      per_sample,
       GnnReduction  reduction)
{
  GnnTensorPrivate *op = gnn_tensor_priv (out);
  double sum = 0;

  if (per_sample)
    {
      for (gint64 t = 0; t < nframe; t++)
        gnn_dtype_write (op->dtype, (char *) gnn_tensor_priv_data (op) + t * gnn_dtype_get_size (op->dtype),
                         l[t]);
      return;
    }
  for (gint64 t = 0; t < nframe; t++)
    sum += l[t];
  gnn_dtype_write (op->dtype, gnn_tensor_priv_data (op),
                   reduction == GNN_REDUCTION_MEAN ? sum / (double) nframe : sum);
}

/* One value per frame, or NULL and a GError when memory is short. */
static gpointer
frame_buffer (gint64   nframe,
              gsize    size,
              GError **error)
{
  gpointer buffer = g_try_malloc_n (MAX (nframe, 1), size);

  if (buffer == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                 "not enough memory for %" G_GINT64_FORMAT " loss values", nframe);
  return buffer;
}

#define MULTI_MARGIN_LOOP(T)                                                    \
  G_STMT_START {                                                                \
    const T *x = (const T *) gnn_tensor_priv_data (gnn_tensor_priv (xc));       \
    const T *w = wc != NULL ? (const T *) gnn_tensor_priv_data (gnn_tensor_priv (wc)) : NULL; \
    for (gint64 f = 0; f < nframe; f++)                                         \
      {                                                                         \
        const T *row = x + f * dim;                                             \
        gint64 c = t[f];                                                        \
        double sum = 0, xt = (double) row[c];                                   \
        for (gint64 d = 0; d < dim; d++)                                        \
          {                                                                     \
            double z = margin - xt + (double) row[d];                           \
            if (d == c || z <= 0)                                               \
              continue;                                                         \
            sum += (p == 1 ? z : z * z) * (w != NULL ? (double) w[c] : 1.0);    \
          }                                                                     \
        l[f] = sum / (double) dim;                                              \
      }                                                                         \
  } G_STMT_END

GnnTensor *
gnn_tensor_multi_margin_loss (GnnTensor    *input,
                              GnnTensor    *target,
                              gint64        p,
                              double        margin,
                              GnnTensor    *weight,
                              GnnReduction  reduction,
                              GError      **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input), *tp = gnn_tensor_priv (target);
  gint64 nframe, dim;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) tc = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  g_autofree double *l = NULL;
  GnnOpParams params = { .n_ints = 3, .ints = { reduction, p, 0 }, .scalar = margin };
  gboolean per_sample;
  const gint64 *t;
  GnnTensor *out;

  if (p != 1 && p != 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "only p == 1 and p == 2 supported");
      return NULL;
    }
  if (!frames_of (ip, &nframe, &dim, error))
    return NULL;
  if (tp->ndim > 1 || tp->numel != nframe)
    {
      g_autofree char *s = gnn_shape_to_string (tp->shape, tp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "inconsistent target size, got: %s", s);
      return NULL;
    }
  if (weight != NULL)
    {
      GnnTensorPrivate *wp = gnn_tensor_priv (weight);

      if (wp->ndim > 1 || wp->numel != dim)
        {
          g_autofree char *s = gnn_shape_to_string (wp->shape, wp->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "inconsistent weight size, expected %" G_GINT64_FORMAT " but got %s", dim, s);
          return NULL;
        }
    }
  if (!check_dtypes ("multi_margin_loss_cpu_kernel", ip, tp, error))
    return NULL;
  if (weight != NULL && gnn_tensor_priv (weight)->dtype != ip->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected scalar type %s but found %s", gnn_torch_scalar_name (ip->dtype),
                   gnn_torch_scalar_name (gnn_tensor_priv (weight)->dtype));
      return NULL;
    }
  if ((tc = gnn_tensor_contiguous_checked (target, error)) == NULL ||
      (xc = gnn_tensor_contiguous_checked (input, error)) == NULL ||
      (weight != NULL && (wc = gnn_tensor_contiguous_checked (weight, error)) == NULL))
    return NULL;
  t = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (tc));
  for (gint64 f = 0; f < nframe; f++)
    if (t[f] < 0 || t[f] >= dim)
      {
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "target out of range");
        return NULL;
      }
  per_sample = reduction == GNN_REDUCTION_NONE && tp->ndim > 0;
  if ((out = new_output (ip->dtype, per_sample, nframe, error)) == NULL)
    return NULL;
  if ((l = frame_buffer (nframe, sizeof *l, error)) == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  if (ip->dtype == GNN_DTYPE_F32)
    MULTI_MARGIN_LOOP (float);
  else
    MULTI_MARGIN_LOOP (double);
  store (out, l, nframe, per_sample, reduction);
  params.ints[2] = per_sample;
  params.extra[0] = tc;
  params.extra[1] = wc;
  return gnn_tensor_record (GNN_OP_MULTI_MARGIN_LOSS, out, &input, 1, &params);
}

/* Marks the sample's targets (up to the first -1) in @is_target; returns
 * how many there are. */
static gint64
mark_targets (const gint64 *t,
              gint64        dim,
              guint8       *is_target)
{
  gint64 k;

  for (k = 0; k < dim && t[k] >= 0; k++)
    is_target[t[k]] = 1;
  return k;
}

#define MULTILABEL_LOOP(T)                                                      \
  G_STMT_START {                                                                \
    const T *x = (const T *) gnn_tensor_priv_data (gnn_tensor_priv (xc));       \
    for (gint64 f = 0; f < nframe; f++)                                         \
      {                                                                         \
        const T *row = x + f * dim;                                             \
        const guint8 *is = mask + f * dim;                                      \
        const gint64 *tr = t + f * dim;                                         \
        double sum = 0;                                                         \
        for (gint64 j = 0; j < n_targets[f]; j++)                               \
          {                                                                     \
            double xt = (double) row[tr[j]];                                    \
            for (gint64 d = 0; d < dim; d++)                                    \
              {                                                                 \
                double z = 1 - xt + (double) row[d];                            \
                if (!is[d] && z > 0)                                            \
                  sum += z;                                                     \
              }                                                                 \
          }                                                                     \
        l[f] = sum / (double) dim;                                              \
      }                                                                         \
  } G_STMT_END

GnnTensor *
gnn_tensor_multilabel_margin_loss (GnnTensor    *input,
                                   GnnTensor    *target,
                                   GnnReduction  reduction,
                                   GError      **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input), *tp = gnn_tensor_priv (target);
  gint64 nframe, dim;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) tc = NULL;
  g_autoptr(GnnTensor) is_target = NULL;
  g_autofree double *l = NULL;
  g_autofree gint64 *n_targets = NULL;
  GnnOpParams params = { .n_ints = 2, .ints = { reduction, 0 } };
  gboolean per_sample, fits;
  const gint64 *t;
  guint8 *mask;
  GnnTensor *out;

  if (!frames_of (ip, &nframe, &dim, error))
    return NULL;
  fits = ip->ndim <= 1 ? tp->ndim <= 1 && tp->numel == dim
                       : tp->ndim == 2 && tp->shape[0] == nframe && tp->shape[1] == dim;
  if (!fits)
    {
      g_autofree char *ts = gnn_shape_to_string (tp->shape, tp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "inconsistent size %s for argument #2 'target'", ts);
      return NULL;
    }
  if (!check_dtypes ("multilabel_margin_loss_forward_out_frame", ip, tp, error))
    return NULL;
  if ((tc = gnn_tensor_contiguous_checked (target, error)) == NULL ||
      (xc = gnn_tensor_contiguous_checked (input, error)) == NULL ||
      (is_target = gnn_tensor_new_contiguous_checked (GNN_DTYPE_U8, &tp->numel, 1, TRUE,
                                                      error)) == NULL)
    return NULL;
  t = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (tc));
  mask = gnn_tensor_priv_data (gnn_tensor_priv (is_target));
  for (gint64 i = 0; i < tp->numel; i++)
    if (t[i] < -1 || t[i] >= dim)
      {
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                             "argument #2 'target' is out of range");
        return NULL;
      }
  if ((n_targets = frame_buffer (nframe, sizeof *n_targets, error)) == NULL)
    return NULL;
  for (gint64 f = 0; f < nframe; f++)
    n_targets[f] = mark_targets (t + f * dim, dim, mask + f * dim);
  per_sample = reduction == GNN_REDUCTION_NONE && tp->ndim > 1;
  if ((out = new_output (ip->dtype, per_sample, nframe, error)) == NULL)
    return NULL;
  if ((l = frame_buffer (nframe, sizeof *l, error)) == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  if (ip->dtype == GNN_DTYPE_F32)
    MULTILABEL_LOOP (float);
  else
    MULTILABEL_LOOP (double);
  store (out, l, nframe, per_sample, reduction);
  params.ints[1] = per_sample;
  params.extra[0] = tc;
  params.extra[1] = is_target;
  return gnn_tensor_record (GNN_OP_MULTILABEL_MARGIN_LOSS, out, &input, 1, &params);
}
