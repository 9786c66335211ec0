/* gnn-tensor-sample.c: drawing from distributions a tensor describes —
 * multinomial (categories by weight, with or without replacement) and
 * bernoulli (0/1 by probability, out of place or in place)
 *
 * Draws come from a GnnGenerator (the default one when none is given), so
 * torch.manual_seed makes them repeatable; the streams are Gnn's, not
 * torch's. In the graph the samples carry torch's nodes (BernoulliBackward0
 * and 2), which give the probabilities a zero gradient, as torch does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-tensor-record-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-elementwise-private.h"

typedef struct
{
  double key;
  gint64 index;
} Keyed;

static int
by_key_descending (const void *a,
                   const void *b)
{
  const Keyed *x = a, *y = b;

  if (x->key != y->key)
    return x->key > y->key ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* torch's checks, in its order. */
static gboolean
multinomial_args_ok (GnnTensorPrivate *p,
                     gint64            n_sample,
                     gboolean          replacement,
                     GError          **error)
{
  if (p->ndim < 1 || p->ndim > 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "prob_dist must be 1 or 2 dim");
      return FALSE;
    }
  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "multinomial only supports floating-point dtypes for input, got: %s",
                   gnn_torch_scalar_name (p->dtype));
      return FALSE;
    }
  if (n_sample <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot sample n_sample <= 0 samples");
      return FALSE;
    }
  if (!replacement && n_sample > p->shape[p->ndim - 1])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
      return FALSE;
    }
  return TRUE;
}

/* Every weight finite and not negative, every row's total positive. */
static gboolean
weights_ok (const double *w,
            gint64        rows,
            gint64        k,
            GError      **error)
{
  for (gint64 r = 0; r < rows; r++)
    {
      double total = 0;

      for (gint64 i = 0; i < k; i++)
        {
          double x = w[r * k + i];

          if (!(x >= 0) || isinf (x))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "probability tensor contains either `inf`, `nan` or element < 0");
              return FALSE;
            }
          total += x;
        }
      if (!(total > 0))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "invalid multinomial distribution (sum of probabilities <= 0)");
          return FALSE;
        }
    }
  return TRUE;
}

/* With replacement: each draw is the first category whose running total
 * exceeds a uniform point of the row's total (zero weights never win). */
static void
draw_with_replacement (const double *w,
                       gint64        k,
                       gint64        n_sample,
                       double       *cumulative,
                       GnnGenerator *draw,
                       gint64       *out)
{
  double total = 0;

  for (gint64 i = 0; i < k; i++)
    cumulative[i] = total += w[i];
  for (gint64 s = 0; s < n_sample; s++)
    {
      double u = gnn_generator_next_double (draw) * total;
      gint64 lo = 0, hi = k - 1;

      while (lo < hi)
        {
          gint64 mid = lo + (hi - lo) / 2;

          if (cumulative[mid] > u)
            hi = mid;
          else
            lo = mid + 1;
        }
      out[s] = lo;
    }
}

/* Without replacement: torch's exponential race — each category's weight
 * over an Exp(1) draw, the n largest keys win (in order of key). */
static void
draw_without_replacement (const double *w,
                          gint64        k,
                          gint64        n_sample,
                          Keyed        *keyed,
                          GnnGenerator *draw,
                          gint64       *out)
{
  for (gint64 i = 0; i < k; i++)
    {
      double e = -log1p (-gnn_generator_next_double (draw));

      keyed[i] = (Keyed) { e > 0 ? w[i] / e : (w[i] > 0 ? INFINITY : 0), i };
    }
  qsort (keyed, (size_t) k, sizeof *keyed, by_key_descending);
  for (gint64 s = 0; s < n_sample; s++)
    out[s] = keyed[s].index;
}

/**
 * gnn_tensor_multinomial:
 * @self: a 1-d or 2-d floating-point #GnnTensor of non-negative weights
 *   (each row a distribution over its categories, not necessarily
 *   normalized)
 * @num_samples: how many categories to draw per row
 * @replacement: whether a category may be drawn more than once
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * Category indices drawn by weight (like `torch.multinomial`).
 *
 * Returns: (transfer full): an int64 tensor of [@num_samples] or [rows,
 *   @num_samples] indices, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_multinomial (GnnTensor    *self,
                        gint64        num_samples,
                        gboolean      replacement,
                        GnnGenerator *generator,
                        GError      **error)
{
  GnnTensorPrivate *p;
  g_autofree double *w = NULL;
  g_autofree double *scratch = NULL;
  gint64 rows, k, shape[2];
  GnnGenerator *draw;
  GnnTensor *out;
  gint64 *idx;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  GNN_CHECK_STORAGE ("multinomial", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (!multinomial_args_ok (p, num_samples, replacement, error))
    return NULL;
  k = p->shape[p->ndim - 1];
  rows = p->ndim == 2 ? p->shape[0] : 1;
  if (rows > 0 && k == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "invalid multinomial distribution (sum of probabilities <= 0)");
      return NULL;
    }
  shape[0] = rows;
  shape[1] = num_samples;
  out = gnn_tensor_zeros (p->ndim == 2 ? shape : shape + 1, p->ndim, GNN_DTYPE_I64, error);
  if (out == NULL)
    return NULL;
  w = gnn_tensor_to_doubles (self, NULL);
  if (rows == 0 || w == NULL)
    return out;
  if (!weights_ok (w, rows, k, error))
    {
      g_object_unref (out);
      return NULL;
    }
  scratch = g_try_malloc (k * MAX (sizeof (double), sizeof (Keyed)));
  if (scratch == NULL)
    {
      g_object_unref (out);
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "multinomial: out of memory for %" G_GINT64_FORMAT " categories", k);
      return NULL;
    }
  idx = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  draw = gnn_generator_acquire (generator);
  for (gint64 r = 0; r < rows; r++)
    {
      if (replacement)
        draw_with_replacement (w + r * k, k, num_samples, scratch, draw, idx + r * num_samples);
      else
        draw_without_replacement (w + r * k, k, num_samples, (Keyed *) scratch, draw,
                                  idx + r * num_samples);
    }
  gnn_generator_release (generator);
  return out;
}

/* The draws of bernoulli: element i is 1 with probability @probs[i] (or
 * @p for all when @probs is NULL), written into @out's elements in order. */
static void
fill_bernoulli (GnnTensor    *out,
                const double *probs,
                double        p,
                GnnGenerator *generator)
{
  GnnTensorPrivate *o = gnn_tensor_priv (out);
  gsize elsize = gnn_dtype_get_size (o->dtype);
  const gint64 *strides[1] = { o->strides };
  GnnGenerator *draw = gnn_generator_acquire (generator);
  gint64 k = 0;
  GnnNdIter it;

  gnn_nditer_init (&it, o->shape, o->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    for (gint64 i = 0; i < it.inner_size; i++, k++)
      {
        double u = gnn_generator_next_double (draw);

        gnn_dtype_write (o->dtype, gnn_tensor_priv_data (o) +
                         (it.offsets[0] + i * it.inner_strides[0]) * (gint64) elsize,
                         u < (probs != NULL ? probs[k] : p) ? 1.0 : 0.0);
      }
  gnn_generator_release (generator);
}

/**
 * gnn_tensor_bernoulli:
 * @self: a floating-point #GnnTensor of probabilities in [0, 1]
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * 1 with the probability in each element of @self, else 0, in @self's
 * dtype (like `torch.bernoulli`; a BernoulliBackward0 in the graph, whose
 * gradient is zero).
 *
 * Returns: (transfer full): the draws, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bernoulli (GnnTensor    *self,
                      GnnGenerator *generator,
                      GError      **error)
{
  GnnTensorPrivate *p;
  g_autofree double *probs = NULL;
  GnnTensor *out;
  gint64 n;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  GNN_CHECK_STORAGE ("bernoulli", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'",
                   gnn_torch_scalar_name (p->dtype));
      return NULL;
    }
  probs = gnn_tensor_to_doubles (self, NULL);
  n = p->numel;
  for (gint64 i = 0; i < n; i++)
    if (!(probs[i] >= 0 && probs[i] <= 1))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                     "error message be improved?  If so, please report an enhancement request "
                     "to PyTorch.)");
        return NULL;
      }
  out = gnn_tensor_zeros (p->shape, p->ndim, p->dtype, error);
  if (out == NULL)
    return NULL;
  fill_bernoulli (out, probs, 0, generator);
  return gnn_tensor_record (GNN_OP_BERNOULLI, out, &self, 1, NULL);
}

/**
 * gnn_tensor_bernoulli_:
 * @self: a #GnnTensor, overwritten
 * @p: the probability of a 1, in [0, 1]
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * Fills @self with 1 at probability @p, else 0 (like `Tensor.bernoulli_
 * (p)`; in the graph a BernoulliBackward2: the old values get no
 * gradient).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_bernoulli_ (GnnTensor    *self,
                       double        p,
                       GnnGenerator *generator,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);
  GNN_CHECK_STORAGE ("bernoulli_", self, error, FALSE);
  if (!(p >= 0 && p <= 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
      return FALSE;
    }
  if (!gnn_tensor_record_inplace (GNN_OP_BERNOULLI_SCALAR, self, NULL, error))
    return FALSE;
  fill_bernoulli (self, NULL, p, generator);
  return TRUE;
}

/**
 * gnn_tensor_bernoulli_tensor_:
 * @self: a #GnnTensor, overwritten
 * @p: the probabilities of a 1 (floating-point, in [0, 1]), broadcastable
 *   to @self's shape
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * Fills @self with 1 at the probability of the matching element of @p,
 * else 0 (like `Tensor.bernoulli_ (p)` with a tensor; in the graph a
 * BernoulliBackward1 whose gradients are zero).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_bernoulli_tensor_ (GnnTensor    *self,
                              GnnTensor    *p,
                              GnnGenerator *generator,
                              GError      **error)
{
  GnnTensorPrivate *sp;
  g_autoptr(GnnTensor) expanded = NULL;
  g_autoptr(GnnTensor) draws = NULL;
  g_autoptr(GnnTensor) cast = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (p), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);
  GNN_CHECK_STORAGE ("bernoulli_", self, error, FALSE);
  GNN_CHECK_STORAGE ("bernoulli_", p, error, FALSE);
  sp = gnn_tensor_priv (self);
  gnn_no_grad_push ();
  expanded = gnn_tensor_expand (p, sp->shape, sp->ndim, error);
  draws = expanded != NULL ? gnn_tensor_bernoulli (expanded, generator, error) : NULL;
  cast = draws != NULL ? gnn_tensor_to_dtype (draws, sp->dtype, error) : NULL;
  gnn_no_grad_pop ();
  return cast != NULL && gnn_ew_assign_ (self, cast, GNN_OP_BERNOULLI_TENSOR, &p, 1, NULL, error);
}
