/* gnn-mha-forward.c: multi-head attention's forward, step for step torch
 * 1.13's F.multi_head_attention_forward (checks, messages, the order
 * masks are merged in), on Gnn's attention ops
 *
 * Where torch copies, this reads in place: the projections are one GEMM
 * each (self-attention: one for q, k and v), the heads are views of them,
 * batch_first inputs are not transposed, and the heads' outputs are written
 * where the output projection reads them (gnn-attention-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "nn/gnn-mha-private.h"
#include "nn/gnn-nn-private.h"
#include "tensor/gnn-attention-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

static gboolean G_GNUC_PRINTF (3, 4)
fail (GError     **error,
      GnnError     code,
      const char  *format,
      ...)
{
  va_list ap;

  va_start (ap, format);
  g_propagate_error (error, g_error_new_valist (GNN_ERROR, code, format, ap));
  va_end (ap);
  return FALSE;
}

static guint
ndim_of (GnnTensor *t)
{
  return gnn_tensor_get_ndim (t);
}

static gint64
size_of (GnnTensor *t,
         guint      d)
{
  return gnn_tensor_get_shape (t, NULL)[d];
}

/* "torch.Size([3, 2, 8])" of @t, its first two dims swapped when @swap
 * (batch_first inputs appear in torch's messages transposed). */
static char *
torch_size (GnnTensor *t,
            gboolean   swap)
{
  guint n;
  const gint64 *shape = gnn_tensor_get_shape (t, &n);
  gint64 s[GNN_MAX_DIMS];
  g_autofree char *list = NULL;

  memcpy (s, shape, sizeof (gint64) * n);
  if (swap && n >= 2)
    s[0] = shape[1], s[1] = shape[0];
  list = gnn_nn_format_shape (s, n, "[", "]");
  return g_strdup_printf ("torch.Size(%s)", list);
}

/* --- torch's _mha_shape_check ---------------------------------------------- */

static gboolean
shape_check (GnnTensor  *query,
             GnnTensor  *key,
             GnnTensor  *value,
             GnnTensor  *key_padding_mask,
             GnnTensor  *attn_mask,
             gint64      num_heads,
             gboolean   *batched,
             GError    **error)
{
  guint qd = ndim_of (query), kd = ndim_of (key), vd = ndim_of (value);
  const char *which = qd == 3 ? "batched (3-D)" : "unbatched (2-D)";
  guint want = qd == 3 ? 3 : 2;

  if (qd != 3 && qd != 2)
    return fail (error, GNN_ERROR_SHAPE, "query should be unbatched 2D or batched 3D tensor but "
                 "received %u-D query tensor", qd);
  *batched = qd == 3;
  if (kd != want || vd != want)
    return fail (error, GNN_ERROR_SHAPE, "For %s `query`, expected `key` and `value` to be %u-D "
                 "but found %u-D and %u-D tensors respectively", which, want, kd, vd);
  if (key_padding_mask != NULL && ndim_of (key_padding_mask) != want - 1)
    return fail (error, GNN_ERROR_SHAPE, "For %s `query`, expected `key_padding_mask` to be "
                 "`None` or %u-D but found %u-D tensor instead", which, want - 1,
                 ndim_of (key_padding_mask));
  if (attn_mask != NULL && ndim_of (attn_mask) != 2 && ndim_of (attn_mask) != 3)
    return fail (error, GNN_ERROR_SHAPE, "For %s `query`, expected `attn_mask` to be `None`, 2-D "
                 "or 3-D but found %u-D tensor instead", which, ndim_of (attn_mask));
  if (!*batched && attn_mask != NULL && ndim_of (attn_mask) == 3)
    {
      const gint64 expected[3] = { num_heads, size_of (query, 0), size_of (key, 0) };

      if (memcmp (gnn_tensor_get_shape (attn_mask, NULL), expected, sizeof expected) != 0)
        {
          g_autofree char *e = gnn_nn_format_shape (expected, 3, "(", ")");
          g_autofree char *got = torch_size (attn_mask, FALSE);

          return fail (error, GNN_ERROR_SHAPE, "Expected `attn_mask` shape to be %s but got %s",
                       e, got);
        }
    }
  return TRUE;
}

/* --- projections ---------------------------------------------------------- */

/* linear (x, w[row0 : row0 + rows], b[row0 : row0 + rows]): torch's chunk
 * and split of the packed weight, as views. */
static GnnTensor *
project (GnnTensor  *x,
         GnnTensor  *w,
         GnnTensor  *b,
         gint64      row0,
         gint64      rows,
         GError    **error)
{
  g_autoptr(GnnTensor) ws = NULL;
  g_autoptr(GnnTensor) bs = NULL;

  if (row0 == 0 && ndim_of (w) >= 1 && size_of (w, 0) == rows)
    ws = g_object_ref (w);
  else if ((ws = gnn_tensor_narrow (w, 0, row0, rows, error)) == NULL)
    return NULL;
  if (b != NULL)
    {
      if (row0 == 0 && ndim_of (b) >= 1 && size_of (b, 0) == rows)
        bs = g_object_ref (b);
      else if ((bs = gnn_tensor_narrow (b, 0, row0, rows, error)) == NULL)
        return NULL;
    }
  return gnn_tensor_linear (x, ws, bs, error);
}

/* torch's _in_projection asserts for separate weights. */
static gboolean
check_weight (const char *what,
              GnnTensor  *w,
              gint64      rows,
              gint64      cols,
              GError    **error)
{
  const gint64 want[2] = { rows, cols };
  g_autofree char *e = NULL;
  g_autofree char *got = NULL;

  if (w == NULL || (ndim_of (w) == 2 && memcmp (gnn_tensor_get_shape (w, NULL), want, sizeof want) == 0))
    return TRUE;
  e = gnn_nn_format_shape (want, 2, "(", ")");
  got = torch_size (w, FALSE);
  return fail (error, GNN_ERROR_SHAPE, "expecting %s shape of %s, but got %s", what, e, got);
}

static gboolean
check_bias (const char *what,
            GnnTensor  *b,
            gint64      n,
            GError    **error)
{
  g_autofree char *e = NULL;
  g_autofree char *got = NULL;

  if (b == NULL || (ndim_of (b) == 1 && size_of (b, 0) == n))
    return TRUE;
  e = gnn_nn_format_shape (&n, 1, "(", ")");
  got = torch_size (b, FALSE);
  return fail (error, GNN_ERROR_SHAPE, "expecting %s shape of %s, but got %s", what, e, got);
}

/* q, k and v projected, each (seq, batch, E) or (batch, seq, E). */
static gboolean
in_projection (GnnTensor        *query,
               GnnTensor        *key,
               GnnTensor        *value,
               gboolean          key_is_value,
               gboolean          query_is_key,
               const GnnMhaArgs *a,
               GnnTensor       **q,
               GnnTensor       **k,
               GnnTensor       **v,
               GError          **error)
{
  gint64 E = a->embed_dim;

  if (!a->use_separate_proj_weight)
    {
      GnnTensor *w = a->in_proj_weight, *b = a->in_proj_bias;

      if (w == NULL)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT,
                     "use_separate_proj_weight is False but in_proj_weight is None");
      if (key_is_value && query_is_key)
        {
          /* self-attention: one GEMM, q, k and v are views of it */
          g_autoptr(GnnTensor) qkv = project (query, w, b, 0, ndim_of (w) >= 1 ? size_of (w, 0) : 0,
                                              error);

          return qkv != NULL &&
                 (*q = gnn_tensor_narrow (qkv, 2, 0, E, error)) != NULL &&
                 (*k = gnn_tensor_narrow (qkv, 2, E, E, error)) != NULL &&
                 (*v = gnn_tensor_narrow (qkv, 2, 2 * E, E, error)) != NULL;
        }
      if (key_is_value)
        {
          g_autoptr(GnnTensor) kv = NULL;

          return (*q = project (query, w, b, 0, E, error)) != NULL &&
                 (kv = project (key, w, b, E, 2 * E, error)) != NULL &&
                 (*k = gnn_tensor_narrow (kv, 2, 0, E, error)) != NULL &&
                 (*v = gnn_tensor_narrow (kv, 2, E, E, error)) != NULL;
        }
      return (*q = project (query, w, b, 0, E, error)) != NULL &&
             (*k = project (key, w, b, E, E, error)) != NULL &&
             (*v = project (value, w, b, 2 * E, E, error)) != NULL;
    }
  if (a->q_proj_weight == NULL)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT,
                 "use_separate_proj_weight is True but q_proj_weight is None");
  if (a->k_proj_weight == NULL)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT,
                 "use_separate_proj_weight is True but k_proj_weight is None");
  if (a->v_proj_weight == NULL)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT,
                 "use_separate_proj_weight is True but v_proj_weight is None");
  {
    gint64 Eq = size_of (query, 2), Ek = size_of (key, 2), Ev = size_of (value, 2);
    g_autoptr(GnnTensor) bq = NULL;
    g_autoptr(GnnTensor) bk = NULL;
    g_autoptr(GnnTensor) bv = NULL;

    if (a->in_proj_bias != NULL)
      {
        gint64 n = ndim_of (a->in_proj_bias) == 1 ? size_of (a->in_proj_bias, 0) : 0;
        gint64 c = (n + 2) / 3;   /* torch.chunk's sizes */

        TRY (bq = gnn_tensor_narrow (a->in_proj_bias, 0, 0, MIN (c, n), error));
        TRY (bk = gnn_tensor_narrow (a->in_proj_bias, 0, MIN (c, n), MIN (c, n - MIN (c, n)), error));
        TRY (bv = gnn_tensor_narrow (a->in_proj_bias, 0, MIN (2 * c, n), n - MIN (2 * c, n), error));
      }
    if (!check_weight ("query weights", a->q_proj_weight, Eq, Eq, error) ||
        !check_weight ("key weights", a->k_proj_weight, Eq, Ek, error) ||
        !check_weight ("value weights", a->v_proj_weight, Eq, Ev, error) ||
        !check_bias ("query bias", bq, Eq, error) || !check_bias ("key bias", bk, Eq, error) ||
        !check_bias ("value bias", bv, Eq, error))
      return FALSE;
    return (*q = gnn_tensor_linear (query, a->q_proj_weight, bq, error)) != NULL &&
           (*k = gnn_tensor_linear (key, a->k_proj_weight, bk, error)) != NULL &&
           (*v = gnn_tensor_linear (value, a->v_proj_weight, bv, error)) != NULL;
  }
}

/* --- heads and masks ------------------------------------------------------ */

/* (seq, batch, E) or (batch, seq, E) seen as [batch, heads, seq, E / heads]. */
static GnnTensor *
split_heads (GnnTensor  *t,
             gint64      heads,
             gboolean    batch_first,
             GError    **error)
{
  const gint64 *s = gnn_tensor_get_shape (t, NULL);
  const gint64 shape[4] = { s[0], s[1], heads, heads > 0 ? s[2] / heads : 0 };
  const gint perm_seq[4] = { 1, 2, 0, 3 }, perm_batch[4] = { 0, 2, 1, 3 };
  g_autoptr(GnnTensor) r = gnn_tensor_reshape (t, shape, 4, error);

  if (r == NULL)
    return NULL;
  return gnn_tensor_permute (r, batch_first ? perm_batch : perm_seq, 4, error);
}

/* @t with a slice of zeros appended along @dim (torch's pad of masks and
 * add_zero_attn's keys). */
static GnnTensor *
append_zeros (GnnTensor  *t,
              guint       dim,
              GError    **error)
{
  guint n;
  const gint64 *s = gnn_tensor_get_shape (t, &n);
  gint64 shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) zeros = NULL;

  memcpy (shape, s, sizeof (gint64) * n);
  shape[dim] = 1;
  zeros = gnn_tensor_zeros (shape, n, gnn_tensor_get_dtype (t), error);
  if (zeros == NULL)
    return NULL;
  return gnn_tensor_cat ((GnnTensor *[]) { t, zeros }, 2, (gint) dim, error);
}

/* Replaces *@t (owned) by append_zeros (*@t, @dim); NULL stays NULL. */
static gboolean
append_zeros_to (GnnTensor **t,
                 guint       dim,
                 GError    **error)
{
  GnnTensor *padded;

  if (*t == NULL)
    return TRUE;
  padded = append_zeros (*t, dim, error);
  if (padded == NULL)
    return FALSE;
  g_object_unref (*t);
  *t = padded;
  return TRUE;
}

static gboolean
is_floating (GnnTensor *t)
{
  return gnn_dtype_is_floating (gnn_tensor_get_dtype (t));
}

static gboolean
check_attn_mask (GnnTensor  *m,
                 gint64      tgt_len,
                 gint64      src_len,
                 gint64      bsz_heads,
                 GError    **error)
{
  GnnDType dtype = gnn_tensor_get_dtype (m);
  guint nd = ndim_of (m);
  const gint64 want2[2] = { tgt_len, src_len }, want3[3] = { bsz_heads, tgt_len, src_len };

  /* torch warns that a uint8 mask is deprecated and reads it as bool */
  if (dtype != GNN_DTYPE_U8 && dtype != GNN_DTYPE_BOOL && !gnn_dtype_is_floating (dtype))
    return fail (error, GNN_ERROR_DTYPE, "Only float, byte, and bool types are supported for "
                 "attn_mask, not torch.%s", gnn_dtype_get_name (dtype));
  if ((nd == 2 && memcmp (gnn_tensor_get_shape (m, NULL), want2, sizeof want2) != 0) ||
      (nd == 3 && memcmp (gnn_tensor_get_shape (m, NULL), want3, sizeof want3) != 0))
    {
      g_autofree char *got = torch_size (m, FALSE);
      g_autofree char *e = gnn_nn_format_shape (nd == 2 ? want2 : want3, nd, "(", ")");

      return fail (error, GNN_ERROR_SHAPE, "The shape of the %uD attn_mask is %s, but should be %s.",
                   nd, got, e);
    }
  if (nd != 2 && nd != 3)
    return fail (error, GNN_ERROR_SHAPE, "attn_mask's dimension %u is not supported", nd);
  return TRUE;
}

static gboolean
check_key_padding_mask_dtype (GnnTensor  *m,
                              GError    **error)
{
  if (m == NULL || gnn_tensor_get_dtype (m) == GNN_DTYPE_BOOL || is_floating (m))
    return TRUE;
  return fail (error, GNN_ERROR_DTYPE, "only bool and floating types of key_padding_mask are supported");
}

/* --- the forward ---------------------------------------------------------- */

typedef struct
{
  GnnTensor *query, *key, *value, *kpm, *attn_mask;
  GnnTensor *q, *k, *v;            /* projections, then [N, H, seq, D] */
} Work;

static void
work_clear (Work *w)
{
  g_clear_object (&w->query);
  g_clear_object (&w->key);
  g_clear_object (&w->value);
  g_clear_object (&w->kpm);
  g_clear_object (&w->attn_mask);
  g_clear_object (&w->q);
  g_clear_object (&w->k);
  g_clear_object (&w->v);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Work, work_clear)

/* *@t = f (*@t) for a view op taking ownership. */
static gboolean
replace (GnnTensor **t,
         GnnTensor  *value)
{
  if (value == NULL)
    return FALSE;
  g_object_unref (*t);
  *t = value;
  return TRUE;
}

gboolean
gnn_mha_forward (GnnTensor         *query,
                 GnnTensor         *key,
                 GnnTensor         *value,
                 const GnnMhaArgs  *a,
                 GnnTensor        **output,
                 GnnTensor        **weights,
                 GError           **error)
{
  g_auto(Work) w = { NULL };
  gboolean batched = TRUE, bf, self_attention = query == key && key == value, kv_shared = key == value;
  guint seq_dim, batch_dim;
  gint64 tgt_len, bsz, embed_dim, src_len, head_dim, H = a->num_heads;
  GnnAttnMask masks[GNN_ATTN_MAX_MASKS];
  guint n_masks = 0;
  double dropout_p = a->training && a->dropout_p > 0 ? a->dropout_p : 0.0;
  guint order_seq[4] = { 2, 0, 1, 3 }, order_batch[4] = { 0, 2, 1, 3 };
  g_autoptr(GnnTensor) heads_out = NULL;
  g_autoptr(GnnTensor) probs = NULL;
  g_autoptr(GnnTensor) merged = NULL;
  g_autoptr(GnnTensor) out = NULL;

  *output = NULL;
  if (weights != NULL)
    *weights = NULL;
  if (!shape_check (query, key, value, a->key_padding_mask, a->attn_mask, H, &batched, error))
    return FALSE;
  bf = a->batch_first && batched;
  seq_dim = bf ? 1 : 0;
  batch_dim = bf ? 0 : 1;
  if (batched)
    {
      w.query = g_object_ref (query);
      w.key = g_object_ref (key);
      w.value = g_object_ref (value);
      w.kpm = a->key_padding_mask != NULL ? g_object_ref (a->key_padding_mask) : NULL;
    }
  else
    {
      TRY (w.query = gnn_tensor_unsqueeze (query, 1, error));
      TRY (w.key = gnn_tensor_unsqueeze (key, 1, error));
      TRY (w.value = gnn_tensor_unsqueeze (value, 1, error));
      if (a->key_padding_mask != NULL)
        TRY (w.kpm = gnn_tensor_unsqueeze (a->key_padding_mask, 0, error));
    }
  tgt_len = size_of (w.query, seq_dim);
  bsz = size_of (w.query, batch_dim);
  embed_dim = size_of (w.query, 2);
  src_len = size_of (w.key, seq_dim);

  if (!check_key_padding_mask_dtype (w.kpm, error))
    return FALSE;
  if (dropout_p > 1)
    {
      g_autofree char *p = gnn_nn_format_float (dropout_p);

      return fail (error, GNN_ERROR_INVALID_ARGUMENT,
                   "dropout probability has to be between 0 and 1, but got %s", p);
    }
  if (embed_dim != a->embed_dim)
    return fail (error, GNN_ERROR_SHAPE, "was expecting embedding dimension of %" G_GINT64_FORMAT
                 ", but got %" G_GINT64_FORMAT, a->embed_dim, embed_dim);
  if (H <= 0)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, "integer division or modulo by zero");
  head_dim = embed_dim / H;
  if (head_dim * H != embed_dim)
    return fail (error, GNN_ERROR_SHAPE, "embed_dim %" G_GINT64_FORMAT " not divisible by num_heads %"
                 G_GINT64_FORMAT, embed_dim, H);
  if (a->use_separate_proj_weight
      ? size_of (w.key, 0) != size_of (w.value, 0) || size_of (w.key, 1) != size_of (w.value, 1)
      : memcmp (gnn_tensor_get_shape (w.key, NULL), gnn_tensor_get_shape (w.value, NULL),
                3 * sizeof (gint64)) != 0)
    {
      g_autofree char *ks = torch_size (w.key, bf);
      g_autofree char *vs = torch_size (w.value, bf);

      if (a->use_separate_proj_weight)
        {
          g_autofree char *k2 = g_strndup (ks, strrchr (ks, ',') - ks);
          g_autofree char *v2 = g_strndup (vs, strrchr (vs, ',') - vs);

          return fail (error, GNN_ERROR_SHAPE, "key's sequence and batch dims %s]) do not match "
                       "value's %s])", k2, v2);
        }
      return fail (error, GNN_ERROR_SHAPE, "key shape %s does not match value shape %s", ks, vs);
    }

  if (!in_projection (w.query, w.key, w.value, kv_shared, self_attention, a, &w.q, &w.k, &w.v,
                      error))
    return FALSE;

  if (a->attn_mask != NULL)
    {
      if (!check_attn_mask (a->attn_mask, tgt_len, src_len, bsz * H, error))
        return FALSE;
      if (ndim_of (a->attn_mask) == 3)
        TRY (w.attn_mask = gnn_tensor_reshape (a->attn_mask, (gint64[]) { bsz, H, tgt_len, src_len },
                                               4, error));
      else
        w.attn_mask = g_object_ref (a->attn_mask);
    }

  if (a->bias_k != NULL && a->bias_v != NULL)
    {
      const gint64 rep[3] = { bf ? bsz : 1, bf ? 1 : bsz, embed_dim };
      g_autoptr(GnnTensor) bk = NULL;
      g_autoptr(GnnTensor) bv = NULL;

      if (a->static_k != NULL)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, "bias cannot be added to static key.");
      if (a->static_v != NULL)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, "bias cannot be added to static value.");
      TRY (bk = gnn_tensor_expand (a->bias_k, rep, 3, error));
      TRY (bv = gnn_tensor_expand (a->bias_v, rep, 3, error));
      if (!replace (&w.k, gnn_tensor_cat ((GnnTensor *[]) { w.k, bk }, 2, (gint) seq_dim, error)) ||
          !replace (&w.v, gnn_tensor_cat ((GnnTensor *[]) { w.v, bv }, 2, (gint) seq_dim, error)) ||
          !append_zeros_to (&w.attn_mask, ndim_of (w.attn_mask != NULL ? w.attn_mask : w.q) - 1, error) ||
          !append_zeros_to (&w.kpm, 1, error))
        return FALSE;
    }
  else if (a->bias_k != NULL || a->bias_v != NULL)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, "bias_k and bias_v must both be set or both be None");

  if (!replace (&w.q, split_heads (w.q, H, bf, error)))
    return FALSE;
  if (a->static_k == NULL)
    {
      /* torch finds a key batch unlike the query's in its head view */
      if (size_of (w.k, batch_dim) != bsz)
        return fail (error, GNN_ERROR_SHAPE, "shape '[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                     ", %" G_GINT64_FORMAT "]' is invalid for input of size %" G_GINT64_FORMAT,
                     size_of (w.k, seq_dim), bsz * H, head_dim, gnn_tensor_get_numel (w.k));
      if (!replace (&w.k, split_heads (w.k, H, bf, error)))
        return FALSE;
    }
  else
    {
      if (ndim_of (a->static_k) != 3 || size_of (a->static_k, 0) != bsz * H)
        return fail (error, GNN_ERROR_SHAPE, "expecting static_k.size(0) of %" G_GINT64_FORMAT
                     ", but got %" G_GINT64_FORMAT, bsz * H,
                     ndim_of (a->static_k) > 0 ? size_of (a->static_k, 0) : 0);
      if (size_of (a->static_k, 2) != head_dim)
        return fail (error, GNN_ERROR_SHAPE, "expecting static_k.size(2) of %" G_GINT64_FORMAT
                     ", but got %" G_GINT64_FORMAT, head_dim, size_of (a->static_k, 2));
      if (!replace (&w.k, gnn_tensor_reshape (a->static_k, (gint64[]) { bsz, H, size_of (a->static_k, 1),
                                                                        head_dim }, 4, error)))
        return FALSE;
    }
  if (a->static_v == NULL)
    {
      if (!replace (&w.v, split_heads (w.v, H, bf, error)))
        return FALSE;
    }
  else
    {
      if (ndim_of (a->static_v) != 3 || size_of (a->static_v, 0) != bsz * H)
        return fail (error, GNN_ERROR_SHAPE, "expecting static_v.size(0) of %" G_GINT64_FORMAT
                     ", but got %" G_GINT64_FORMAT, bsz * H,
                     ndim_of (a->static_v) > 0 ? size_of (a->static_v, 0) : 0);
      if (size_of (a->static_v, 2) != head_dim)
        return fail (error, GNN_ERROR_SHAPE, "expecting static_v.size(2) of %" G_GINT64_FORMAT
                     ", but got %" G_GINT64_FORMAT, head_dim, size_of (a->static_v, 2));
      if (!replace (&w.v, gnn_tensor_reshape (a->static_v, (gint64[]) { bsz, H, size_of (a->static_v, 1),
                                                                        head_dim }, 4, error)))
        return FALSE;
    }

  if (a->add_zero_attn &&
      (!append_zeros_to (&w.k, 2, error) || !append_zeros_to (&w.v, 2, error) ||
       !append_zeros_to (&w.attn_mask, ndim_of (w.attn_mask != NULL ? w.attn_mask : w.q) - 1, error) ||
       !append_zeros_to (&w.kpm, 1, error)))
    return FALSE;

  src_len = size_of (w.k, 2);
  if (w.kpm != NULL)
    {
      const gint64 want[2] = { bsz, src_len };

      if (ndim_of (w.kpm) != 2 || memcmp (gnn_tensor_get_shape (w.kpm, NULL), want, sizeof want) != 0)
        {
          g_autofree char *e = gnn_nn_format_shape (want, 2, "(", ")");
          g_autofree char *got = torch_size (w.kpm, FALSE);

          return fail (error, GNN_ERROR_SHAPE, "expecting key_padding_mask shape of %s, but got %s",
                       e, got);
        }
      if (!replace (&w.kpm, gnn_tensor_reshape (w.kpm, (gint64[]) { bsz, 1, 1, src_len }, 4, error)))
        return FALSE;
    }

  /* torch's merge: a bool attn_mask ORs the padding mask in (a float one
   * counts where nonzero), a float one gets -inf where the padding mask is
   * True; a float padding mask alone is added. Gnn adds a float padding
   * mask to a float attn_mask (torch 1.13's masked_fill reads a float mask
   * as garbage there; torch 2 adds). */
  if (w.attn_mask != NULL)
    masks[n_masks++] = (GnnAttnMask) { w.attn_mask, is_floating (w.attn_mask) ? GNN_ATTN_MASK_ADD
                                                                          : GNN_ATTN_MASK_TRUE_MASKED };
  if (w.kpm != NULL)
    masks[n_masks++] = (GnnAttnMask) {
      w.kpm, is_floating (w.kpm) && (w.attn_mask == NULL || is_floating (w.attn_mask))
             ? GNN_ATTN_MASK_ADD : GNN_ATTN_MASK_TRUE_MASKED };

  {
    const guint *order = bf ? order_batch : order_seq;
    double scale = head_dim > 0 ? 1.0 / sqrt ((double) head_dim) : 1.0;
    gboolean record = gnn_tensor_would_record ((GnnTensor *[]) { w.q, w.k, w.v, w.attn_mask, w.kpm }, 5);

    if (!a->need_weights && dropout_p == 0 && !record)
      TRY (heads_out = gnn_attention_fused (w.q, w.k, w.v, masks, n_masks, FALSE, scale, order, error));
    else
      {
        TRY (probs = gnn_attention_probs (w.q, w.k, masks, n_masks, FALSE, scale, dropout_p,
                                          a->generator, error));
        TRY (heads_out = gnn_attention_apply (probs, w.v, order, error));
      }
  }

  /* [N, H, L, D] stored as (L, N, H, D) or (N, L, H, D): merging the heads
   * is a view */
  {
    const gint perm_seq[4] = { 2, 0, 1, 3 }, perm_batch[4] = { 0, 2, 1, 3 };
    g_autoptr(GnnTensor) t = gnn_tensor_permute (heads_out, bf ? perm_batch : perm_seq, 4, error);
    const gint64 shape[3] = { bf ? bsz : tgt_len, bf ? tgt_len : bsz, embed_dim };

    TRY (t);
    TRY (merged = gnn_tensor_reshape (t, shape, 3, error));
  }
  TRY (out = gnn_tensor_linear (merged, a->out_proj_weight, a->out_proj_bias, error));
  if (!batched && !replace (&out, gnn_tensor_squeeze (out, 1, error)))
    return FALSE;

  if (a->need_weights && weights != NULL)
    {
      g_autoptr(GnnTensor) wts = NULL;

      if (a->average_attn_weights)
        {
          const gint dim1[1] = { 1 };
          g_autoptr(GnnTensor) sum = gnn_tensor_sum (probs, dim1, 1, FALSE, error);
          g_autoptr(GnnTensor) h = gnn_tensor_new_scalar ((double) H, gnn_tensor_get_dtype (probs));

          TRY (sum);
          TRY (wts = gnn_tensor_div (sum, h, error));
        }
      else
        wts = g_object_ref (probs);
      if (!batched && !replace (&wts, gnn_tensor_squeeze (wts, 0, error)))
        return FALSE;
      *weights = g_steal_pointer (&wts);
    }
  *output = g_steal_pointer (&out);
  return TRUE;
}

/**
 * gnn_multi_head_attention_forward:
 * @query: the queries, (L, N, E) or unbatched (L, E)
 * @key: the keys, (S, N, E) or (S, E) (kdim features with separate weights)
 * @value: the values, (S, N, E) or (S, E)
 * @embed_dim_to_check: the expected E
 * @num_heads: the number of heads, dividing E
 * @in_proj_weight: (nullable): the packed projection (3E, E)
 * @in_proj_bias: (nullable): the packed biases (3E)
 * @bias_k: (nullable): a key appended to the sequence, (1, 1, E)
 * @bias_v: (nullable): a value appended to the sequence, (1, 1, E)
 * @add_zero_attn: whether to append a zero key and value per head
 * @dropout_p: the dropout probability of the attention weights
 * @out_proj_weight: the output projection (E, E)
 * @out_proj_bias: (nullable): its bias (E)
 * @training: whether dropout applies
 * @key_padding_mask: (nullable): (N, S): bool (%TRUE ignores a key) or float
 * @need_weights: whether to return the attention weights
 * @attn_mask: (nullable): (L, S) or (N·num_heads, L, S): bool, uint8 or float
 * @use_separate_proj_weight: use @q_proj_weight, @k_proj_weight and
 *   @v_proj_weight instead of @in_proj_weight
 * @q_proj_weight: (nullable): (E, E)
 * @k_proj_weight: (nullable): (E, kdim)
 * @v_proj_weight: (nullable): (E, vdim)
 * @static_k: (nullable): keys to use as they are, (N·num_heads, S, E / num_heads)
 * @static_v: (nullable): values to use as they are
 * @average_attn_weights: average the returned weights over the heads
 * @attn_weights: (out) (optional) (nullable) (transfer full): the weights,
 *   (N, L, S) or (N, num_heads, L, S); %NULL unless @need_weights
 * @error: return location for a #GError
 *
 * `torch.nn.functional.multi_head_attention_forward` (torch 1.13): the
 * computation of [class@Gnn.MultiheadAttention] on explicit parameters,
 * with torch's checks and messages.
 *
 * Returns: (transfer full): the attention output, (L, N, E) or (L, E), or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multi_head_attention_forward (GnnTensor     *query,
                                  GnnTensor     *key,
                                  GnnTensor     *value,
                                  gint64         embed_dim_to_check,
                                  gint64         num_heads,
                                  GnnTensor     *in_proj_weight,
                                  GnnTensor     *in_proj_bias,
                                  GnnTensor     *bias_k,
                                  GnnTensor     *bias_v,
                                  gboolean       add_zero_attn,
                                  double         dropout_p,
                                  GnnTensor     *out_proj_weight,
                                  GnnTensor     *out_proj_bias,
                                  gboolean       training,
                                  GnnTensor     *key_padding_mask,
                                  gboolean       need_weights,
                                  GnnTensor     *attn_mask,
                                  gboolean       use_separate_proj_weight,
                                  GnnTensor     *q_proj_weight,
                                  GnnTensor     *k_proj_weight,
                                  GnnTensor     *v_proj_weight,
                                  GnnTensor     *static_k,
                                  GnnTensor     *static_v,
                                  gboolean       average_attn_weights,
                                  GnnTensor    **attn_weights,
                                  GError       **error)
{
  GnnMhaArgs a = {
    .embed_dim = embed_dim_to_check, .num_heads = num_heads, .in_proj_weight = in_proj_weight,
    .in_proj_bias = in_proj_bias, .bias_k = bias_k, .bias_v = bias_v,
    .add_zero_attn = add_zero_attn, .dropout_p = dropout_p, .out_proj_weight = out_proj_weight,
    .out_proj_bias = out_proj_bias, .training = training, .key_padding_mask = key_padding_mask,
    .need_weights = need_weights, .attn_mask = attn_mask,
    .use_separate_proj_weight = use_separate_proj_weight, .q_proj_weight = q_proj_weight,
    .k_proj_weight = k_proj_weight, .v_proj_weight = v_proj_weight, .static_k = static_k,
    .static_v = static_v, .average_attn_weights = average_attn_weights,
  };
  GnnTensor *output = NULL, *weights = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (query) && GNN_IS_TENSOR (key) && GNN_IS_TENSOR (value), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (out_proj_weight), NULL);

  if (attn_weights != NULL)
    *attn_weights = NULL;
  if (!gnn_mha_forward (query, key, value, &a, &output, &weights, error))
    return NULL;
  if (attn_weights != NULL)
    *attn_weights = weights;
  else
    g_clear_object (&weights);
  return output;
}
