/* gnn-tensor-attention.c: the attention ops (gnn-attention-private.h) and
 * torch's F.scaled_dot_product_attention over them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-attention-private.h"

/* --- operands ------------------------------------------------------------- */

void
gnn_attn_mat_from_tensor (GnnAttnMat *m,
                          GnnTensor  *t)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  m->data = gnn_tensor_priv_data (p);
  m->sb = p->strides[0];
  m->sh = p->strides[1];
  /* BLAS wants a leading dimension of at least the row length */
  m->sr = p->shape[2] > 1 ? p->strides[2] : MAX (p->shape[3], 1);
}

GnnTensor *
gnn_attention_operand (GnnTensor  *t,
                       GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 rows = p->shape[p->ndim - 2], cols = p->shape[p->ndim - 1];

  if ((p->strides[p->ndim - 1] == 1 || cols <= 1) &&
      (rows <= 1 || p->strides[p->ndim - 2] >= MAX (cols, 1)))
    return g_object_ref (t);
  return gnn_tensor_copy_checked (t, p->dtype, error);
}

GnnTensor *
gnn_attention_empty_like (GnnTensor  *like,
                          GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (like);
  guint order[GNN_MAX_DIMS];
  gint64 strides[GNN_MAX_DIMS], step = 1;
  gboolean plain = FALSE;
  GnnStorage *storage;
  GnnTensor *out;
  gsize nbytes;

  /* dims by decreasing stride (a stable insertion sort: ties keep their
   * order); a zero stride (an expanded view) or two dims of one stride
   * give a plain contiguous tensor */
  for (guint d = 0; d < p->ndim; d++)
    {
      guint i = d;

      while (i > 0 && p->strides[order[i - 1]] < p->strides[d])
        {
          order[i] = order[i - 1];
          i--;
        }
      order[i] = d;
      plain = plain || (p->strides[d] == 0 && p->shape[d] > 1);
    }
  for (guint i = 1; i < p->ndim; i++)
    plain = plain || (p->strides[order[i]] == p->strides[order[i - 1]] &&
                      p->shape[order[i]] > 1 && p->shape[order[i - 1]] > 1);
  if (plain)
    return gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
  for (gint i = (gint) p->ndim - 1; i >= 0; i--)
    {
      strides[order[i]] = step;
      step *= MAX (p->shape[order[i]], 1);
    }
  nbytes = (gsize) p->numel * gnn_dtype_get_size (p->dtype);
  storage = gnn_storage_new (MAX (nbytes, 1), FALSE);
  if (storage == NULL)
    {
      gnn_set_alloc_error (error, nbytes, p->shape, p->ndim);
      return NULL;
    }
  out = gnn_tensor_new_with_storage (storage, p->dtype, p->shape, strides, p->ndim, 0);
  gnn_storage_unref (storage);
  return out;
}

/* --- geometry ------------------------------------------------------------- */

/* The masks as the kernels read them, with the tensors they read (converted
 * where the kernel needs another dtype) held in @keep. */
static gboolean
masks_init (GnnAttnGeom       *g,
            const GnnAttnMask *masks,
            guint              n_masks,
            GnnTensor        **keep,
            GError           **error)
{
  const gint64 full[4] = { g->B, g->H, g->L, g->S };

  g->n_masks = 0;
  for (guint i = 0; i < n_masks; i++)
    {
      GnnTensor *m = masks[i].tensor;
      GnnTensorPrivate *mp = gnn_tensor_priv (m);
      GnnAttnMaskView *mv = &g->masks[g->n_masks];
      gint64 shape[GNN_MAX_DIMS], strides[4];
      guint ndim;

      if (!gnn_broadcast_shapes (mp->shape, mp->ndim, full, 4, shape, &ndim, error))
        return FALSE;
      if (ndim != 4 || memcmp (shape, full, sizeof full) != 0)
        {
          g_autofree char *ms = gnn_shape_to_string (mp->shape, mp->ndim);
          g_autofree char *fs = gnn_shape_to_string (full, 4);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "attention mask of shape %s cannot be broadcast to the attention "
                       "weights' shape %s", ms, fs);
          return FALSE;
        }
      if (masks[i].kind == GNN_ATTN_MASK_ADD)
        {
          if (!gnn_dtype_is_floating (mp->dtype))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "an additive attention mask must be floating point, got %s",
                           gnn_dtype_get_name (mp->dtype));
              return FALSE;
            }
          if (mp->dtype != g->dtype)
            m = keep[i] = gnn_tensor_to_dtype (m, g->dtype, error);
        }
      else if (mp->dtype != GNN_DTYPE_BOOL && mp->dtype != GNN_DTYPE_U8 && mp->dtype != g->dtype)
        {
          g_autoptr(GnnTensor) zero = gnn_tensor_new_scalar (0, mp->dtype);

          m = keep[i] = gnn_tensor_ne (m, zero, error);
        }
      if (m == NULL)
        return FALSE;
      mp = gnn_tensor_priv (m);
      gnn_broadcast_strides (m, full, 4, strides);
      mv->data = gnn_tensor_priv_data (mp);
      mv->dtype = mp->dtype;
      mv->kind = masks[i].kind;
      mv->sb = strides[0], mv->sh = strides[1], mv->sl = strides[2], mv->ss = strides[3];
      g->n_masks++;
    }
  return TRUE;
}

static gboolean
check_operand (const char *what,
               GnnTensor  *t,
               GnnDType    dtype,
               GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  if (p->ndim != 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "attention: expected a 4-D %s [batch, heads, sequence, features], got %u-D",
                   what, p->ndim);
      return FALSE;
    }
  if (p->dtype != dtype || (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "attention: expected query, key and value of one dtype, float32 or float64, "
                   "got %s %s", gnn_dtype_get_name (p->dtype), what);
      return FALSE;
    }
  return TRUE;
}

/* Checks q [B, H, L, D], k [B, H, S, D] and v [B, H, S, Dv] (v may be NULL)
 * and fills the dims of @g. */
static gboolean
geom_init (GnnAttnGeom *g,
           GnnTensor   *q,
           GnnTensor   *k,
           GnnTensor   *v,
           double       scale,
           gboolean     causal,
           GError     **error)
{
  GnnTensorPrivate *qp = gnn_tensor_priv (q), *kp = gnn_tensor_priv (k);
  GnnDType dtype = qp->dtype;

  memset (g, 0, sizeof *g);
  if (!check_operand ("query", q, dtype, error) || !check_operand ("key", k, dtype, error) ||
      (v != NULL && !check_operand ("value", v, dtype, error)))
    return FALSE;
  if (kp->shape[0] != qp->shape[0] || kp->shape[1] != qp->shape[1] || kp->shape[3] != qp->shape[3] ||
      (v != NULL && (gnn_tensor_priv (v)->shape[0] != qp->shape[0] ||
                     gnn_tensor_priv (v)->shape[1] != qp->shape[1] ||
                     gnn_tensor_priv (v)->shape[2] != kp->shape[2])))
    {
      g_autofree char *qs = gnn_shape_to_string (qp->shape, 4);
      g_autofree char *ks = gnn_shape_to_string (kp->shape, 4);
      g_autofree char *vs = v != NULL ? gnn_shape_to_string (gnn_tensor_priv (v)->shape, 4)
                                      : g_strdup ("(none)");

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "attention: query %s, key %s and value %s do not fit together", qs, ks, vs);
      return FALSE;
    }
  g->dtype = dtype;
  g->B = qp->shape[0], g->H = qp->shape[1], g->L = qp->shape[2], g->D = qp->shape[3];
  g->S = kp->shape[2];
  g->Dv = v != NULL ? gnn_tensor_priv (v)->shape[3] : 0;
  g->scale = scale;
  g->causal = causal;
  return TRUE;
}

/* --- the ops -------------------------------------------------------------- */

GnnTensor *
gnn_attention_probs (GnnTensor         *query,
                     GnnTensor         *key,
                     const GnnAttnMask *masks,
                     guint              n_masks,
                     gboolean           causal,
                     double             scale,
                     double             dropout_p,
                     GnnGenerator      *generator,
                     GError           **error)
{
  GnnAttnGeom g;
  g_autoptr(GnnTensor) q = NULL;
  g_autoptr(GnnTensor) k = NULL;
  g_autoptr(GnnTensor) p = NULL;
  g_autoptr(GnnTensor) pd = NULL;
  GnnTensor *keep[GNN_ATTN_MAX_MASKS] = { NULL };
  GnnTensor *inputs[2 + GNN_ATTN_MAX_MASKS] = { query, key };
  gint64 shape[4];
  gboolean ok;

  g_return_val_if_fail (n_masks <= GNN_ATTN_MAX_MASKS, NULL);
  GNN_CHECK_STORAGE ("attention", query, error, NULL);
  GNN_CHECK_STORAGE ("attention", key, error, NULL);
  if (!geom_init (&g, query, key, NULL, scale, causal, error) ||
      (q = gnn_attention_operand (query, error)) == NULL ||
      (k = gnn_attention_operand (key, error)) == NULL)
    return NULL;
  gnn_attn_mat_from_tensor (&g.q, q);
  gnn_attn_mat_from_tensor (&g.k, k);
  ok = masks_init (&g, masks, n_masks, keep, error);
  shape[0] = g.B, shape[1] = g.H, shape[2] = g.L, shape[3] = g.S;
  if (ok)
    ok = (p = gnn_tensor_new_contiguous_checked (g.dtype, shape, 4, FALSE, error)) != NULL;
  if (ok && dropout_p > 0)
    {
      GnnGenerator *gen = gnn_generator_acquire (generator);

      g.dropout_p = dropout_p;
      g.dropout_key = gnn_generator_next_u64 (gen);
      gnn_generator_release (generator);
      ok = (pd = gnn_tensor_new_contiguous_checked (g.dtype, shape, 4, FALSE, error)) != NULL;
    }
  if (ok && !gnn_attn_probs_kernel (&g, gnn_tensor_priv_data (gnn_tensor_priv (p)),
                                    pd != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (pd)) : NULL))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY,
                           "attention: cannot allocate the dropout draws");
      ok = FALSE;
    }
  if (ok)
    {
      GnnOpParams params = { .scalar = scale, .scalar2 = dropout_p, .flag = causal };

      /* float masks are inputs (their gradient is dS); bool ones are not */
      for (guint i = 0; i < n_masks; i++)
        if (masks[i].kind == GNN_ATTN_MASK_ADD)
          inputs[2 + i] = keep[i] != NULL ? keep[i] : masks[i].tensor;
      params.extra[0] = pd != NULL ? p : NULL;
      gnn_tensor_record (GNN_OP_ATTENTION_PROBS, pd != NULL ? pd : p, inputs, 2 + n_masks,
                         &params);
    }
  for (guint i = 0; i < GNN_ATTN_MAX_MASKS; i++)
    g_clear_object (&keep[i]);
  if (!ok)
    return NULL;
  return pd != NULL ? g_steal_pointer (&pd) : g_steal_pointer (&p);
}

/* A [B, H, L, Dv] output whose memory holds its dims in @order. */
static GnnTensor *
new_ordered (GnnDType      dtype,
             const gint64 *shape,
             const guint  *order,
             GError      **error)
{
  g_autoptr(GnnTensor) base = NULL;
  gint64 mem_shape[4];
  guint inverse[4];

  if (order == NULL)
    return gnn_tensor_new_contiguous_checked (dtype, shape, 4, FALSE, error);
  for (guint i = 0; i < 4; i++)
    {
      mem_shape[i] = shape[order[i]];
      inverse[order[i]] = i;
    }
  base = gnn_tensor_new_contiguous_checked (dtype, mem_shape, 4, FALSE, error);
  if (base == NULL)
    return NULL;
  {
    GnnTensorPrivate *bp = gnn_tensor_priv (base);
    gint64 strides[4];

    for (guint d = 0; d < 4; d++)
      strides[d] = bp->strides[inverse[d]];
    return gnn_tensor_new_view (base, shape, strides, 4, 0);
  }
}

GnnTensor *
gnn_attention_apply (GnnTensor   *probs,
                     GnnTensor   *value,
                     const guint *order,
                     GError     **error)
{
  GnnTensorPrivate *pp = gnn_tensor_priv (probs);
  GnnAttnGeom g;
  GnnAttnMat o;
  g_autoptr(GnnTensor) p = NULL;
  g_autoptr(GnnTensor) v = NULL;
  GnnTensor *out;
  gint64 shape[4];

  GNN_CHECK_STORAGE ("attention", probs, error, NULL);
  GNN_CHECK_STORAGE ("attention", value, error, NULL);
  memset (&g, 0, sizeof g);
  if (!check_operand ("attention weights", probs, gnn_tensor_priv (value)->dtype, error) ||
      !check_operand ("value", value, pp->dtype, error))
    return NULL;
  {
    GnnTensorPrivate *vp = gnn_tensor_priv (value);

    if (vp->shape[0] != pp->shape[0] || vp->shape[1] != pp->shape[1] ||
        vp->shape[2] != pp->shape[3])
      {
        g_autofree char *ps = gnn_shape_to_string (pp->shape, 4);
        g_autofree char *vs = gnn_shape_to_string (vp->shape, 4);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "attention: weights %s and value %s do not fit together", ps, vs);
        return NULL;
      }
    g.dtype = pp->dtype;
    g.B = pp->shape[0], g.H = pp->shape[1], g.L = pp->shape[2], g.S = pp->shape[3];
    g.Dv = vp->shape[3];
  }
  if ((p = gnn_tensor_contiguous_checked (probs, error)) == NULL ||
      (v = gnn_attention_operand (value, error)) == NULL)
    return NULL;
  gnn_attn_mat_from_tensor (&g.v, v);
  shape[0] = g.B, shape[1] = g.H, shape[2] = g.L, shape[3] = g.Dv;
  out = new_ordered (g.dtype, shape, order, error);
  if (out == NULL)
    return NULL;
  gnn_attn_mat_from_tensor (&o, out);
  gnn_attn_apply_kernel (&g, gnn_tensor_priv_data (gnn_tensor_priv (p)), &o);
  return gnn_tensor_record (GNN_OP_ATTENTION_APPLY, out, (GnnTensor *[]) { probs, value }, 2, NULL);
}

GnnTensor *
gnn_attention_fused (GnnTensor         *query,
                     GnnTensor         *key,
                     GnnTensor         *value,
                     const GnnAttnMask *masks,
                     guint              n_masks,
                     gboolean           causal,
                     double             scale,
                     const guint       *order,
                     GError           **error)
{
  GnnAttnGeom g;
  GnnAttnMat o;
  g_autoptr(GnnTensor) q = NULL;
  g_autoptr(GnnTensor) k = NULL;
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *keep[GNN_ATTN_MAX_MASKS] = { NULL };
  gint64 shape[4];
  gboolean ok;

  g_return_val_if_fail (n_masks <= GNN_ATTN_MAX_MASKS, NULL);
  GNN_CHECK_STORAGE ("attention", query, error, NULL);
  GNN_CHECK_STORAGE ("attention", key, error, NULL);
  GNN_CHECK_STORAGE ("attention", value, error, NULL);
  if (!geom_init (&g, query, key, value, scale, causal, error) ||
      (q = gnn_attention_operand (query, error)) == NULL ||
      (k = gnn_attention_operand (key, error)) == NULL ||
      (v = gnn_attention_operand (value, error)) == NULL)
    return NULL;
  gnn_attn_mat_from_tensor (&g.q, q);
  gnn_attn_mat_from_tensor (&g.k, k);
  gnn_attn_mat_from_tensor (&g.v, v);
  ok = masks_init (&g, masks, n_masks, keep, error);
  shape[0] = g.B, shape[1] = g.H, shape[2] = g.L, shape[3] = g.Dv;
  if (ok)
    ok = (out = new_ordered (g.dtype, shape, order, error)) != NULL;
  if (ok)
    {
      gnn_attn_mat_from_tensor (&o, out);
      if (!gnn_attn_fused_kernel (&g, &o))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY,
                               "attention: cannot allocate the attention weights' scratch");
          ok = FALSE;
        }
    }
  for (guint i = 0; i < GNN_ATTN_MAX_MASKS; i++)
    g_clear_object (&keep[i]);
  return ok ? g_steal_pointer (&out) : NULL;
}

/* --- F.scaled_dot_product_attention --------------------------------------- */

/* @t expanded to (@batch..., rows, cols) and seen as [B, H, rows, cols]:
 * the batch dims are (1, 1), (1, b0), (b0, b1), or the leading ones merged
 * (a copy when they do not merge as a view). */
static GnnTensor *
as_4d (GnnTensor    *t,
       const gint64 *batch,
       guint         nb,
       GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 shape[GNN_MAX_DIMS], shape4[4];
  g_autoptr(GnnTensor) expanded = NULL;

  memcpy (shape, batch, sizeof (gint64) * nb);
  shape[nb] = p->shape[p->ndim - 2];
  shape[nb + 1] = p->shape[p->ndim - 1];
  expanded = gnn_tensor_expand (t, shape, nb + 2, error);
  if (expanded == NULL)
    return NULL;
  shape4[0] = 1, shape4[1] = 1;
  for (guint d = 0; d < nb; d++)
    {
      if (d + 1 < nb)
        shape4[0] *= batch[d];
      else
        shape4[1] = batch[d];
    }
  shape4[2] = shape[nb];
  shape4[3] = shape[nb + 1];
  return gnn_tensor_reshape (expanded, shape4, 4, error);
}

/**
 * gnn_tensor_scaled_dot_product_attention:
 * @query: the queries, (N..., L, E)
 * @key: the keys, (N..., S, E)
 * @value: the values, (N..., S, Ev)
 * @attn_mask: (nullable): a mask broadcastable to (N..., L, S): bool (%TRUE
 *   where a query may attend to a key) or of @query's floating dtype (added
 *   to the scores), or %NULL
 * @dropout_p: the probability of dropping an attention weight, in [0, 1]
 * @is_causal: whether query i attends only to keys 0 … i (then @attn_mask
 *   must be %NULL)
 * @generator: (nullable): the generator of the dropout draws, or %NULL for
 *   the default generator ([func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * Scaled dot-product attention with PyTorch 2.0's semantics
 * (`torch.nn.functional.scaled_dot_product_attention`):
 * `dropout (softmax (query · keyᵀ / √E + mask)) · value`, with the batch
 * dims (any number, broadcast as `matmul` broadcasts them) shared by the
 * three operands. A query whose keys are all masked gets NaN weights, as
 * in PyTorch. float32 and float64, differentiable with respect to @query,
 * @key, @value and a floating @attn_mask; the weights are computed with one
 * GEMM per (batch, head) and a fused masked softmax.
 *
 * Returns: (transfer full): the attention output, (N..., L, Ev), or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_scaled_dot_product_attention (GnnTensor     *query,
                                         GnnTensor     *key,
                                         GnnTensor     *value,
                                         GnnTensor     *attn_mask,
                                         double         dropout_p,
                                         gboolean       is_causal,
                                         GnnGenerator  *generator,
                                         GError       **error)
{
  GnnTensorPrivate *qp, *kp, *vp;
  gint64 batch[GNN_MAX_DIMS], qkv[GNN_MAX_DIMS];
  guint nb;
  g_autoptr(GnnTensor) q = NULL;
  g_autoptr(GnnTensor) k = NULL;
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) mask = NULL;
  g_autoptr(GnnTensor) probs = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnAttnMask masks[1];

  g_return_val_if_fail (GNN_IS_TENSOR (query), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (key), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (value), NULL);
  g_return_val_if_fail (attn_mask == NULL || GNN_IS_TENSOR (attn_mask), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  qp = gnn_tensor_priv (query), kp = gnn_tensor_priv (key), vp = gnn_tensor_priv (value);

  if (qp->ndim < 2 || kp->ndim < 2 || vp->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected query, key, and value to all be  at least 2 dimensional, but got "
                   "query.dim: %u key.dim: %u and value.dim: %u instead.",
                   qp->ndim, kp->ndim, vp->ndim);
      return NULL;
    }
  if (qp->dtype != kp->dtype || qp->dtype != vp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "Expected query, key, and value to have the same dtype, but got query.dtype: "
                   "%s key.dtype: %s and value.dtype: %s instead.",
                   gnn_dtype_get_name (qp->dtype), gnn_dtype_get_name (kp->dtype),
                   gnn_dtype_get_name (vp->dtype));
      return NULL;
    }
  if (is_causal && attn_mask != NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True");
      return NULL;
    }
  if (!(dropout_p >= 0 && dropout_p <= 1))
    {
      g_autofree char *text = g_strdup_printf ("%g", dropout_p);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "dropout probability has to be between 0 and 1, but got %s", text);
      return NULL;
    }
  if (kp->shape[kp->ndim - 1] != qp->shape[qp->ndim - 1] ||
      vp->shape[vp->ndim - 2] != kp->shape[kp->ndim - 2])
    {
      g_autofree char *qs = gnn_shape_to_string (qp->shape, qp->ndim);
      g_autofree char *ks = gnn_shape_to_string (kp->shape, kp->ndim);
      g_autofree char *vs = gnn_shape_to_string (vp->shape, vp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "scaled_dot_product_attention: query %s, key %s and value %s do not fit "
                   "together (query and key share the last dim, key and value the sequence)",
                   qs, ks, vs);
      return NULL;
    }
  if (!gnn_broadcast_shapes (qp->shape, qp->ndim - 2, kp->shape, kp->ndim - 2, qkv, &nb, error) ||
      !gnn_broadcast_shapes (qkv, nb, vp->shape, vp->ndim - 2, batch, &nb, error))
    return NULL;
  if ((q = as_4d (query, batch, nb, error)) == NULL ||
      (k = as_4d (key, batch, nb, error)) == NULL ||
      (v = as_4d (value, batch, nb, error)) == NULL)
    return NULL;
  if (attn_mask != NULL)
    {
      GnnTensorPrivate *mp = gnn_tensor_priv (attn_mask);

      if (mp->dtype != GNN_DTYPE_BOOL && mp->dtype != qp->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "Expected attn_mask dtype to be bool or to match query dtype, but got "
                       "attn_mask.dtype: %s and  query.dtype: %s instead.",
                       gnn_dtype_get_name (mp->dtype), gnn_dtype_get_name (qp->dtype));
          return NULL;
        }
      if (nb <= 2 || mp->ndim <= 2)
        mask = g_object_ref (attn_mask);
      else
        {
          /* the batch dims merge into two: the mask's must follow */
          gint64 mshape[GNN_MAX_DIMS];
          guint mnd;
          const gint64 full[2] = { qp->shape[qp->ndim - 2], kp->shape[kp->ndim - 2] };

          memcpy (mshape, batch, sizeof (gint64) * nb);
          mshape[nb] = full[0], mshape[nb + 1] = full[1];
          if (!gnn_broadcast_shapes (mp->shape, mp->ndim, mshape, nb + 2, mshape, &mnd, error))
            return NULL;
          mask = as_4d (attn_mask, batch, nb, error);
          if (mask == NULL)
            return NULL;
        }
      masks[0].tensor = mask;
      masks[0].kind = mp->dtype == GNN_DTYPE_BOOL ? GNN_ATTN_MASK_FALSE_MASKED : GNN_ATTN_MASK_ADD;
    }
  probs = gnn_attention_probs (q, k, masks, mask != NULL ? 1 : 0, is_causal,
                               1.0 / sqrt ((double) qp->shape[qp->ndim - 1]), dropout_p,
                               generator, error);
  if (probs == NULL)
    return NULL;
  out = gnn_attention_apply (probs, v, NULL, error);
  if (out == NULL)
    return NULL;
  {
    gint64 shape[GNN_MAX_DIMS];

    memcpy (shape, batch, sizeof (gint64) * nb);
    shape[nb] = qp->shape[qp->ndim - 2];
    shape[nb + 1] = vp->shape[vp->ndim - 1];
    return gnn_tensor_reshape (out, shape, nb + 2, error);
  }
}
