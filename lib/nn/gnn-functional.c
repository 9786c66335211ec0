/* gnn-functional.c: functional losses (torch.nn.functional) built from
 * differentiable tensor ops
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gnn/gnn.h>

#include "tensor/gnn-tensor-private.h"

/* Only the public tensor API: the losses are compositions of
 * differentiable ops, and autograd records them. */

/* A tensor's dtype and shape, read through the public accessors. */
typedef struct
{
  GnnDType      dtype;
  guint         ndim;
  const gint64 *shape;
} Info;

static Info
info_of (GnnTensor *t)
{
  Info info;

  info.dtype = gnn_tensor_get_dtype (t);
  info.shape = gnn_tensor_get_shape (t, &info.ndim);
  return info;
}

/* "[2, 3]", as the tensor messages print shapes. */
static char *
shape_string (const gint64 *shape,
              guint         ndim)
{
  GString *s = g_string_new ("[");

  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (s, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, shape[d]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* A @dtype tensor of @shape from @values (which it frees). */
static GnnTensor *
from_doubles (double        *values,
              const gint64  *shape,
              guint          ndim,
              GnnDType       dtype,
              GError       **error)
{
  g_autofree double *owned = values;
  g_autoptr(GnnTensor) t = NULL;
  gint64 n = 1;

  for (guint d = 0; d < ndim; d++)
    n *= shape[d];
  t = gnn_tensor_new_from_doubles (owned, (gsize) n, shape, ndim, error);
  return t != NULL ? gnn_tensor_to_dtype (t, dtype, error) : NULL;
}

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END
#define TRYB(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

static gboolean
check_reduction (GnnReduction reduction,
                 GError     **error)
{
  if (reduction != GNN_REDUCTION_NONE && reduction != GNN_REDUCTION_MEAN &&
      reduction != GNN_REDUCTION_SUM)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%d is not a valid value for reduction", (int) reduction);
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
reduce (GnnTensor    *loss,
        GnnReduction  reduction,
        GError      **error)
{
  if (reduction == GNN_REDUCTION_NONE)
    return g_object_ref (loss);
  if (reduction == GNN_REDUCTION_SUM)
    return gnn_tensor_sum (loss, NULL, 0, FALSE, error);
  return gnn_tensor_mean (loss, NULL, 0, FALSE, error);
}

/* Class scores as rows: input [N, C, d1...] -> [M, C], target -> [M]. */
typedef struct
{
  GnnTensor *rows;        /* [M, C] */
  GnnTensor *target;      /* [M] int64 */
  gint64     classes;
  gint64     target_shape[GNN_MAX_DIMS];
  guint      target_ndim;
} Flat;

static void
flat_clear (Flat *f)
{
  g_clear_object (&f->rows);
  g_clear_object (&f->target);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Flat, flat_clear)

static gboolean
flatten_classes (const char *op,
                 GnnTensor  *input,
                 GnnTensor  *target,
                 Flat       *f,
                 GError    **error)
{
  Info ii = info_of (input), ti = info_of (target), *ip = &ii, *tp = &ti;
  gint64 expect[GNN_MAX_DIMS];
  guint en = 0;
  g_autoptr(GnnTensor) t64 = NULL;
  gint64 shape2[2];

  if (tp->dtype != GNN_DTYPE_I64 && tp->dtype != GNN_DTYPE_I32 && tp->dtype != GNN_DTYPE_U8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: expected the target to hold class indices (int64), but got dtype %s "
                   "(class probabilities are not supported yet)", op, gnn_dtype_get_name (tp->dtype));
      return FALSE;
    }
  if (ip->ndim == 0 || !gnn_dtype_is_floating (ip->dtype))
    {
      g_set_error (error, GNN_ERROR, ip->ndim == 0 ? GNN_ERROR_SHAPE : GNN_ERROR_DTYPE,
                   "%s: expected a floating-point input of at least 1 dim, got dtype %s with %u dims",
                   op, gnn_dtype_get_name (ip->dtype), ip->ndim);
      return FALSE;
    }
  /* the target has the input's shape without the class dim */
  for (guint d = 0; d < ip->ndim; d++)
    if (d != (ip->ndim == 1 ? 0u : 1u))
      expect[en++] = ip->shape[d];
  if (tp->ndim != en || memcmp (tp->shape, expect, sizeof (gint64) * en) != 0)
    {
      g_autofree char *is = shape_string (ip->shape, ip->ndim);
      g_autofree char *ts = shape_string (tp->shape, tp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected target of shape %s for input of shape %s (class dim %d), got %s",
                   op, en == 0 ? "[]" : "", is, ip->ndim == 1 ? 0 : 1, ts);
      if (en > 0)
        {
          g_autofree char *es = shape_string (expect, en);

          g_clear_error (error);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Expected target size %s, got %s", es, ts);
        }
      return FALSE;
    }
  memcpy (f->target_shape, tp->shape, sizeof (gint64) * tp->ndim);
  f->target_ndim = tp->ndim;
  f->classes = ip->shape[ip->ndim == 1 ? 0 : 1];

  if (ip->ndim <= 2)
    {
      shape2[0] = -1, shape2[1] = f->classes;
      TRYB (f->rows = gnn_tensor_reshape (input, shape2, 2, error));
    }
  else
    {
      gint perm[GNN_MAX_DIMS];
      g_autoptr(GnnTensor) moved = NULL;
      guint k = 0;

      perm[k++] = 0;
      for (guint d = 2; d < ip->ndim; d++)
        perm[k++] = (gint) d;
      perm[k++] = 1;
      TRYB (moved = gnn_tensor_permute (input, perm, ip->ndim, error));
      shape2[0] = -1, shape2[1] = f->classes;
      TRYB (f->rows = gnn_tensor_reshape (moved, shape2, 2, error));
    }
  TRYB (t64 = gnn_tensor_to_dtype (target, GNN_DTYPE_I64, error));
  shape2[0] = -1;
  TRYB (f->target = gnn_tensor_reshape (t64, shape2, 1, error));
  return TRUE;
}

/* Builds the per-row one-hot mask [M, C] (zero rows for ignored targets)
 * and the per-row weight [M] (0 for ignored, weight[target] or 1). */
static gboolean
target_masks (const char *op,
              Flat       *f,
              GnnTensor  *weight,
              gint64      ignore_index,
              GnnDType    dtype,
              GnnTensor **onehot_out,
              GnnTensor **row_weight_out,
              GError    **error)
{
  Info ti = info_of (f->target), *tp = &ti;
  gint64 m = tp->shape[0], c = f->classes;
  const gint64 *t;
  g_autofree double *wv = NULL;
  double *oh, *rw;
  const gint64 mm[2] = { m, c };
  g_autoptr(GnnTensor) tc = gnn_tensor_contiguous_checked (f->target, error);

  if (tc == NULL)
    return FALSE;
  if (weight != NULL)
    {
      Info wi = info_of (weight), *wp = &wi;

      if (wp->ndim != 1 || wp->shape[0] != c)
        {
          g_autofree char *ws = shape_string (wp->shape, wp->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: weight tensor should be defined either for all %" G_GINT64_FORMAT
                       " classes or no classes but got weight tensor of shape: %s", op, c, ws);
          return FALSE;
        }
      wv = gnn_tensor_to_doubles (weight, NULL);
    }
  t = gnn_tensor_get_data (tc);
  oh = g_new0 (double, MAX (m * c, 1));
  rw = g_new0 (double, MAX (m, 1));
  for (gint64 i = 0; i < m; i++)
    {
      if (t[i] == ignore_index)
        continue;
      if (t[i] < 0 || t[i] >= c)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "Target %" G_GINT64_FORMAT " is out of bounds.",
                       t[i]);
          g_free (oh);
          g_free (rw);
          return FALSE;
        }
      oh[i * c + t[i]] = 1.0;
      rw[i] = wv != NULL ? wv[t[i]] : 1.0;
    }
  *onehot_out = from_doubles (oh, mm, 2, dtype, error);
  if (*onehot_out == NULL)
    {
      g_free (rw);
      return FALSE;
    }
  *row_weight_out = from_doubles (rw, &m, 1, dtype, error);
  if (*row_weight_out == NULL)
    {
      g_clear_object (onehot_out);
      return FALSE;
    }
  return TRUE;
}

/* -sum_rows (logp[i, t_i] w_i), reduced like nll_loss. */
static GnnTensor *
nll_rows (Flat        *f,
          GnnTensor   *onehot,
          GnnTensor   *row_weight,
          GnnReduction reduction,
          GError     **error)
{
  gint one = 1;
  g_autoptr(GnnTensor) picked_all = NULL;
  g_autoptr(GnnTensor) picked = NULL;
  g_autoptr(GnnTensor) weighted = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  TRY (picked_all = gnn_tensor_mul (f->rows, onehot, error));
  TRY (picked = gnn_tensor_sum (picked_all, &one, 1, FALSE, error));
  TRY (weighted = gnn_tensor_mul (picked, row_weight, error));
  TRY (loss = gnn_tensor_neg (weighted, error));
  if (reduction == GNN_REDUCTION_NONE)
    return gnn_tensor_reshape (loss, f->target_shape, f->target_ndim, error);
  if (reduction == GNN_REDUCTION_SUM)
    return gnn_tensor_sum (loss, NULL, 0, FALSE, error);
  {
    g_autoptr(GnnTensor) total = NULL;
    g_autoptr(GnnTensor) denom = NULL;

    TRY (total = gnn_tensor_sum (loss, NULL, 0, FALSE, error));
    TRY (denom = gnn_tensor_sum (row_weight, NULL, 0, FALSE, error));
    return gnn_tensor_div (total, denom, error);
  }
}

/**
 * gnn_nll_loss:
 * @input: log-probabilities, `[N, C]`, `[C]` or `[N, C, d1, ...]`
 * @target: class indices (int64), `[N]`, `[]` or `[N, d1, ...]`
 * @weight: (nullable): a weight per class, `[C]`
 * @ignore_index: a target value that contributes nothing (PyTorch's default is -100)
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The negative log-likelihood loss, `torch.nn.functional.nll_loss`: the mean
 * (weighted by `weight[target]`), sum or per-element values of
 * `-input[n, target[n]]`. Differentiable with respect to @input.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set for bad
 *   shapes or dtypes or a target out of bounds ("Target 5 is out of bounds.")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_nll_loss (GnnTensor    *input,
              GnnTensor    *target,
              GnnTensor    *weight,
              gint64        ignore_index,
              GnnReduction  reduction,
              GError      **error)
{
  g_auto(Flat) f = { 0, };
  g_autoptr(GnnTensor) onehot = NULL;
  g_autoptr(GnnTensor) row_weight = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  GNN_CHECK_STORAGE ("nll_loss", input, error, NULL);
  GNN_CHECK_STORAGE ("nll_loss", target, error, NULL);
  GNN_CHECK_STORAGE ("nll_loss", weight, error, NULL);
  if (!check_reduction (reduction, error) ||
      !flatten_classes ("nll_loss", input, target, &f, error) ||
      !target_masks ("nll_loss", &f, weight, ignore_index, gnn_tensor_get_dtype (input),
                     &onehot, &row_weight, error))
    return NULL;
  return nll_rows (&f, onehot, row_weight, reduction, error);
}

/**
 * gnn_cross_entropy:
 * @input: unnormalized scores (logits), `[N, C]`, `[C]` or `[N, C, d1, ...]`
 * @target: class indices (int64), `[N]`, `[]` or `[N, d1, ...]`
 * @weight: (nullable): a weight per class, `[C]`
 * @ignore_index: a target value that contributes nothing (PyTorch's default is -100)
 * @reduction: how to reduce the per-element losses
 * @label_smoothing: in [0, 1]: the share of the target mass spread evenly
 *   over all classes
 * @error: return location for a #GError
 *
 * The cross-entropy loss, `torch.nn.functional.cross_entropy` with class
 * indices: log_softmax over the class dim followed by nll_loss, with
 * PyTorch's label smoothing (for the mean reduction the smoothing term is
 * divided by the same total weight of the non-ignored targets as the
 * nll term).
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_cross_entropy (GnnTensor    *input,
                   GnnTensor    *target,
                   GnnTensor    *weight,
                   gint64        ignore_index,
                   GnnReduction  reduction,
                   double        label_smoothing,
                   GError      **error)
{
  g_auto(Flat) f = { 0, };
  g_autoptr(GnnTensor) logp = NULL;
  g_autoptr(GnnTensor) onehot = NULL;
  g_autoptr(GnnTensor) row_weight = NULL;
  g_autoptr(GnnTensor) nll = NULL;
  g_autoptr(GnnTensor) smooth_terms = NULL;
  g_autoptr(GnnTensor) smooth_rows = NULL;
  g_autoptr(GnnTensor) valid = NULL;
  g_autoptr(GnnTensor) smooth_valid = NULL;
  g_autoptr(GnnTensor) smooth = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  GnnTensor *rows;
  gint one = 1;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  GNN_CHECK_STORAGE ("cross_entropy", input, error, NULL);
  GNN_CHECK_STORAGE ("cross_entropy", target, error, NULL);
  GNN_CHECK_STORAGE ("cross_entropy", weight, error, NULL);
  if (!check_reduction (reduction, error))
    return NULL;
  if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "label_smoothing must be between 0.0 and 1.0. Got: %g", label_smoothing);
      return NULL;
    }
  if (gnn_tensor_get_ndim (input) == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "cross_entropy: expected an input of at least 1 dim, got a 0-d tensor");
      return NULL;
    }
  TRY (logp = gnn_tensor_log_softmax (input, gnn_tensor_get_ndim (input) == 1 ? 0 : 1, error));
  if (!flatten_classes ("cross_entropy", logp, target, &f, error) ||
      !target_masks ("cross_entropy", &f, weight, ignore_index, gnn_tensor_get_dtype (input),
                     &onehot, &row_weight, error))
    return NULL;
  TRY (nll = nll_rows (&f, onehot, row_weight, reduction, error));
  if (label_smoothing == 0.0)
    return g_steal_pointer (&nll);

  /* smooth[i] = -sum_c w_c logp[i, c], zero for ignored rows */
  rows = f.rows;
  if (weight != NULL)
    {
      g_autoptr(GnnTensor) wc = gnn_tensor_to_dtype (weight, gnn_tensor_get_dtype (rows), error);

      TRY (wc);
      TRY (smooth_terms = gnn_tensor_mul (rows, wc, error));
    }
  else
    smooth_terms = g_object_ref (rows);
  TRY (smooth_rows = gnn_tensor_sum (smooth_terms, &one, 1, FALSE, error));
  {
    /* valid[i] = 1 unless ignored: the row sum of the one-hot mask */
    TRY (valid = gnn_tensor_sum (onehot, &one, 1, FALSE, error));
  }
  TRY (smooth_valid = gnn_tensor_mul (smooth_rows, valid, error));
  {
    g_autoptr(GnnTensor) neg = NULL;

    TRY (neg = gnn_tensor_neg (smooth_valid, error));
    if (reduction == GNN_REDUCTION_NONE)
      TRY (smooth = gnn_tensor_reshape (neg, f.target_shape, f.target_ndim, error));
    else
      {
        g_autoptr(GnnTensor) total = NULL;

        TRY (total = gnn_tensor_sum (neg, NULL, 0, FALSE, error));
        if (reduction == GNN_REDUCTION_SUM)
          smooth = g_steal_pointer (&total);
        else
          {
            g_autoptr(GnnTensor) denom = NULL;

            TRY (denom = gnn_tensor_sum (row_weight, NULL, 0, FALSE, error));
            TRY (smooth = gnn_tensor_div (total, denom, error));
          }
      }
  }
  TRY (a = gnn_tensor_mul_scalar (nll, 1.0 - label_smoothing, error));
  TRY (b = gnn_tensor_mul_scalar (smooth, label_smoothing / (double) f.classes, error));
  return gnn_tensor_add (a, b, error);
}

static gboolean
check_same_shape (GnnTensor *input,
                  GnnTensor *target,
                  GError   **error)
{
  Info ii = info_of (input), ti = info_of (target), *ip = &ii, *tp = &ti;

  if (ip->ndim != tp->ndim || memcmp (ip->shape, tp->shape, sizeof (gint64) * ip->ndim) != 0)
    {
      g_autofree char *is = shape_string (ip->shape, ip->ndim);
      g_autofree char *ts = shape_string (tp->shape, tp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Target size (torch.Size(%s)) must be the same as input size (torch.Size(%s))",
                   ts, is);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_mse_loss:
 * @input: the prediction
 * @target: the target, of the same shape and dtype
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The mean squared error, `torch.nn.functional.mse_loss`:
 * `(input - target)²`, reduced. Differentiable with respect to both.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes or dtypes differ
 *
 * Since: 0.1
 */
GnnTensor *
gnn_mse_loss (GnnTensor    *input,
              GnnTensor    *target,
              GnnReduction  reduction,
              GError      **error)
{
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) sq = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  GNN_CHECK_STORAGE ("mse_loss", input, error, NULL);
  GNN_CHECK_STORAGE ("mse_loss", target, error, NULL);
  if (!check_reduction (reduction, error) || !check_same_shape (input, target, error))
    return NULL;
  TRY (d = gnn_tensor_sub (input, target, error));
  TRY (sq = gnn_tensor_mul (d, d, error));
  return reduce (sq, reduction, error);
}

/* softplus (-x) = m + log (exp (-m) + exp (-x - m)) with m = max (-x, 0):
 * stable for large |x| and with the right slope (-1/2) at 0. */
static GnnTensor *
softplus_neg (GnnTensor *x,
              GError   **error)
{
  g_autoptr(GnnTensor) nx = NULL;
  g_autoptr(GnnTensor) m = NULL;
  g_autoptr(GnnTensor) nm = NULL;
  g_autoptr(GnnTensor) e1 = NULL;
  g_autoptr(GnnTensor) xm = NULL;
  g_autoptr(GnnTensor) e2 = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) l = NULL;

  TRY (nx = gnn_tensor_neg (x, error));
  TRY (m = gnn_tensor_relu (nx, error));
  TRY (nm = gnn_tensor_neg (m, error));
  TRY (e1 = gnn_tensor_exp (nm, error));
  TRY (xm = gnn_tensor_sub (nx, m, error));
  TRY (e2 = gnn_tensor_exp (xm, error));
  TRY (s = gnn_tensor_add (e1, e2, error));
  TRY (l = gnn_tensor_log (s, error));
  return gnn_tensor_add (m, l, error);
}

/**
 * gnn_binary_cross_entropy_with_logits:
 * @input: logits
 * @target: targets in [0, 1], of the same shape and dtype
 * @weight: (nullable): a rescaling weight broadcast to the loss
 * @pos_weight: (nullable): a weight for positive examples, broadcast along
 *   the last dim (one per class)
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.binary_cross_entropy_with_logits`: sigmoid and binary
 * cross-entropy in one numerically stable expression,
 * `(1 - t) x + (1 + (pos_weight - 1) t) softplus (-x)`, times @weight.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_binary_cross_entropy_with_logits (GnnTensor    *input,
                                      GnnTensor    *target,
                                      GnnTensor    *weight,
                                      GnnTensor    *pos_weight,
                                      GnnReduction  reduction,
                                      GError      **error)
{
  g_autoptr(GnnTensor) one_minus_t = NULL;
  g_autoptr(GnnTensor) lin = NULL;
  g_autoptr(GnnTensor) sp = NULL;
  g_autoptr(GnnTensor) scaled_sp = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GnnTensor) weighted = NULL;
  g_autoptr(GnnTensor) nt = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (pos_weight == NULL || GNN_IS_TENSOR (pos_weight), NULL);
  GNN_CHECK_STORAGE ("binary_cross_entropy_with_logits", input, error, NULL);
  GNN_CHECK_STORAGE ("binary_cross_entropy_with_logits", target, error, NULL);
  GNN_CHECK_STORAGE ("binary_cross_entropy_with_logits", weight, error, NULL);
  GNN_CHECK_STORAGE ("binary_cross_entropy_with_logits", pos_weight, error, NULL);
  if (!check_reduction (reduction, error) || !check_same_shape (input, target, error))
    return NULL;

  TRY (nt = gnn_tensor_neg (target, error));
  TRY (one_minus_t = gnn_tensor_add_scalar (nt, 1.0, error));
  TRY (lin = gnn_tensor_mul (one_minus_t, input, error));
  TRY (sp = softplus_neg (input, error));
  if (pos_weight != NULL)
    {
      g_autoptr(GnnTensor) pw1 = NULL;
      g_autoptr(GnnTensor) pwt = NULL;
      g_autoptr(GnnTensor) log_weight = NULL;

      TRY (pw1 = gnn_tensor_add_scalar (pos_weight, -1.0, error));
      TRY (pwt = gnn_tensor_mul (pw1, target, error));
      TRY (log_weight = gnn_tensor_add_scalar (pwt, 1.0, error));
      TRY (scaled_sp = gnn_tensor_mul (log_weight, sp, error));
    }
  else
    scaled_sp = g_object_ref (sp);
  TRY (loss = gnn_tensor_add (lin, scaled_sp, error));
  if (weight != NULL)
    TRY (weighted = gnn_tensor_mul (loss, weight, error));
  else
    weighted = g_object_ref (loss);
  return reduce (weighted, reduction, error);
}
