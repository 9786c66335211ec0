/* gnn-attention-template-private.h: the attention kernels for one element
 * type, included by gnn-attention-kernels.c once per type with
 *
 *   T        the element type (float, double)
 *   SFX(x)   x suffixed with the type's tag (x##_f32)
 *   SFX_TYPED(x)  x##_f32_typed (the loop GNN_DISPATCH_KERNEL copies)
 *   GEMM     cblas_sgemm / cblas_dgemm
 *   EXP      the row's exp (gnn_vexpf / exp)
 *   SMALL    whether gnn_sgemm_small applies (float only)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* C = alpha · op (A) op (B), row-major, C not overlapping A or B. */
static void
SFX (gemm) (gboolean ta, gboolean tb, gint64 m, gint64 n, gint64 k, T alpha,
            const T *a, gint64 lda, const T *b, gint64 ldb, T *c, gint64 ldc)
{
  if (m <= 0 || n <= 0)
    return;
  if (k <= 0)
    {
      for (gint64 i = 0; i < m; i++)
        memset (c + i * ldc, 0, sizeof (T) * (gsize) n);
      return;
    }
#if SMALL
  if (gnn_sgemm_small_fits (ta, tb, m, n, k))
    {
      gnn_sgemm_small (ta, tb, m, n, k, a, lda, b, ldb, NULL, c, ldc);
      if (alpha != 1)
        for (gint64 i = 0; i < m; i++)
          for (gint64 j = 0; j < n; j++)
            c[i * ldc + j] *= alpha;
      return;
    }
#endif
  GEMM (CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
        (int) m, (int) n, (int) k, alpha, a, (int) MAX (lda, 1), b, (int) MAX (ldb, 1), 0,
        c, (int) MAX (ldc, 1));
}

static inline const T *
SFX (mat_at) (const GnnAttnMat *m, gint64 b, gint64 h)
{
  return (const T *) m->data + b * m->sb + h * m->sh;
}

/* One row of scores: scale, masks, causal cut, then softmax in place. */
GNN_KERNEL_INLINE void
SFX_TYPED (softmax_row) (T *x, gint64 n, T scale, const guint8 *const *mrow,
                         const GnnAttnMaskView *masks, guint n_masks, gint64 n_valid)
{
  T lanes[8];
  T m = -INFINITY;
  double s = 0.0;
  double sl[8] = { 0 };
  gint64 k = 0;

  for (gint64 j = 0; j < n; j++)
    x[j] *= scale;
  for (guint i = 0; i < n_masks; i++)
    {
      const GnnAttnMaskView *mv = &masks[i];
      gint64 ss = mv->ss;

      if (mv->kind == GNN_ATTN_MASK_ADD)
        {
          const T *a = (const T *) mrow[i];

          for (gint64 j = 0; j < n; j++)
            x[j] += a[j * ss];
        }
      else if (mv->dtype == GNN_DTYPE_BOOL || mv->dtype == GNN_DTYPE_U8)
        {
          const guint8 *a = mrow[i];
          guint8 hit = mv->kind == GNN_ATTN_MASK_TRUE_MASKED;

          for (gint64 j = 0; j < n; j++)
            x[j] = (a[j * ss] != 0) == hit ? (T) -INFINITY : x[j];
        }
      else
        {
          const T *a = (const T *) mrow[i];
          gboolean hit = mv->kind == GNN_ATTN_MASK_TRUE_MASKED;

          for (gint64 j = 0; j < n; j++)
            x[j] = (a[j * ss] != 0) == hit ? (T) -INFINITY : x[j];
        }
    }
  for (gint64 j = n_valid; j < n; j++)
    x[j] = -INFINITY;

  /* 8 lanes keep each loop free of a serial dependency */
  for (int j = 0; j < 8; j++)
    lanes[j] = -INFINITY;
  for (; k + 8 <= n; k += 8)
    for (int j = 0; j < 8; j++)
      lanes[j] = x[k + j] > lanes[j] ? x[k + j] : lanes[j];
  for (; k < n; k++)
    m = x[k] > m ? x[k] : m;
  for (int j = 0; j < 8; j++)
    m = lanes[j] > m ? lanes[j] : m;
  for (k = 0; k < n; k++)
    x[k] = EXP (x[k] - m);
  for (k = 0; k + 8 <= n; k += 8)
    for (int j = 0; j < 8; j++)
      sl[j] += (double) x[k + j];
  for (; k < n; k++)
    s += (double) x[k];
  for (int j = 0; j < 8; j++)
    s += sl[j];
  {
    T inv = (T) (1.0 / s);

    for (k = 0; k < n; k++)
      x[k] *= inv;
  }
}

DISPATCH_KERNEL_NAMED (SFX (softmax_row),
                 (T *x, gint64 n, T scale, const guint8 *const *mrow,
                  const GnnAttnMaskView *masks, guint n_masks, gint64 n_valid),
                 (x, n, scale, mrow, masks, n_masks, n_valid))

/* The scores of item (b, h) into @s ([L, S] rows of @ld), turned into
 * probabilities row by row. */
static void
SFX (scores_softmax) (const GnnAttnGeom *g, gint64 b, gint64 h, T *s, gint64 ld)
{
  const guint8 *mrow[GNN_ATTN_MAX_MASKS];
  gsize es = sizeof (T);

  SFX (gemm) (FALSE, TRUE, g->L, g->S, g->D, 1, SFX (mat_at) (&g->q, b, h), g->q.sr,
              SFX (mat_at) (&g->k, b, h), g->k.sr, s, ld);
  for (gint64 l = 0; l < g->L; l++)
    {
      for (guint i = 0; i < g->n_masks; i++)
        {
          const GnnAttnMaskView *mv = &g->masks[i];
          gsize mes = mv->kind == GNN_ATTN_MASK_ADD ? es : gnn_dtype_get_size (mv->dtype);

          mrow[i] = mv->data + (b * mv->sb + h * mv->sh + l * mv->sl) * (gint64) mes;
        }
      SFX (softmax_row) (s + l * ld, g->S, (T) g->scale, mrow, g->masks, g->n_masks,
                         g->causal ? MIN (l + 1, g->S) : g->S);
    }
}

/* Dropout of one item's rows: kept with probability 1 - p, scaled. The
 * draws are counter k of the stream for element k of P, so the mask does
 * not depend on how items are split among threads. */
static void
SFX (dropout_rows) (const GnnAttnGeom *g, gint64 item, const T *p, T *pd, T *u)
{
  gint64 n = g->L * g->S;
  T keep = (T) (1.0 - g->dropout_p);
  T inv = g->dropout_p >= 1.0 ? 0 : (T) (1.0 / (1.0 - g->dropout_p));

  SFX (gnn_random_fill_uniform) (g->dropout_key, (guint64) (item * n), u, n, 1, 0.0, 1.0);
  for (gint64 j = 0; j < n; j++)
    pd[j] = u[j] < keep ? p[j] * inv : 0;
}

typedef struct
{
  const GnnAttnGeom *g;
  T *p, *pd;
  const T *cp;
  const GnnAttnMat *o, *dout, *dq, *dk, *dv;
  const T *cpd, *dpd;
  T *dp, *ds;
  gboolean failed;
} SFX (Job);

static void
SFX (probs_range) (gint64 i0, gint64 i1, gpointer data)
{
  SFX (Job) *j = data;
  const GnnAttnGeom *g = j->g;
  gint64 n = g->L * g->S;
  g_autofree T *u = j->pd != NULL ? g_try_new (T, MAX (n, 1)) : NULL;

  if (j->pd != NULL && u == NULL)
    {
      j->failed = TRUE;
      return;
    }
  for (gint64 i = i0; i < i1; i++)
    {
      SFX (scores_softmax) (g, i / g->H, i % g->H, j->p + i * n, g->S);
      if (j->pd != NULL)
        SFX (dropout_rows) (g, i, j->p + i * n, j->pd + i * n, u);
    }
}

static void
SFX (apply_range) (gint64 i0, gint64 i1, gpointer data)
{
  SFX (Job) *j = data;
  const GnnAttnGeom *g = j->g;

  for (gint64 i = i0; i < i1; i++)
    {
      gint64 b = i / g->H, h = i % g->H;

      SFX (gemm) (FALSE, FALSE, g->L, g->Dv, g->S, 1, j->cp + i * g->L * g->S, g->S,
                  SFX (mat_at) (&g->v, b, h), g->v.sr, (T *) SFX (mat_at) (j->o, b, h), j->o->sr);
    }
}

static void
SFX (fused_range) (gint64 i0, gint64 i1, gpointer data)
{
  SFX (Job) *j = data;
  const GnnAttnGeom *g = j->g;
  g_autofree T *s = g_try_new (T, MAX (g->L * g->S, 1));

  if (s == NULL)
    {
      j->failed = TRUE;
      return;
    }
  for (gint64 i = i0; i < i1; i++)
    {
      gint64 b = i / g->H, h = i % g->H;

      SFX (scores_softmax) (g, b, h, s, g->S);
      SFX (gemm) (FALSE, FALSE, g->L, g->Dv, g->S, 1, s, g->S, SFX (mat_at) (&g->v, b, h),
                  g->v.sr, (T *) SFX (mat_at) (j->o, b, h), j->o->sr);
    }
}

static void
SFX (apply_backward_range) (gint64 i0, gint64 i1, gpointer data)
{
  SFX (Job) *j = data;
  const GnnAttnGeom *g = j->g;
  gint64 n = g->L * g->S;

  for (gint64 i = i0; i < i1; i++)
    {
      gint64 b = i / g->H, h = i % g->H;
      const T *dout = SFX (mat_at) (j->dout, b, h);

      if (j->dp != NULL)   /* dP = dO Vᵀ: [L, Dv] · [Dv, S] */
        SFX (gemm) (FALSE, TRUE, g->L, g->S, g->Dv, 1, dout, j->dout->sr,
                    SFX (mat_at) (&g->v, b, h), g->v.sr, j->dp + i * n, g->S);
      if (j->dv != NULL)   /* dV = Pᵀ dO: [S, L] · [L, Dv] */
        SFX (gemm) (TRUE, FALSE, g->S, g->Dv, g->L, 1, j->cp + i * n, g->S, dout,
                    j->dout->sr, (T *) SFX (mat_at) (j->dv, b, h), j->dv->sr);
    }
}

/* One row of dS = P ∘ (dP - Σ dP ∘ P), dP from the dropped gradient. */
GNN_KERNEL_INLINE void
SFX_TYPED (softmax_backward_row) (const T *p, const T *pd, const T *dpd, T *ds, gint64 n,
                                  T inv_keep)
{
  double dot = 0.0;
  double lanes[8] = { 0 };
  gint64 k = 0;

  if (pd != NULL)
    for (k = 0; k < n; k++)
      ds[k] = pd[k] != 0 ? dpd[k] * inv_keep : 0;
  else
    for (k = 0; k < n; k++)
      ds[k] = dpd[k];
  for (k = 0; k + 8 <= n; k += 8)
    for (int j = 0; j < 8; j++)
      lanes[j] += (double) (ds[k + j] * p[k + j]);
  for (; k < n; k++)
    dot += (double) (ds[k] * p[k]);
  for (int j = 0; j < 8; j++)
    dot += lanes[j];
  {
    T d = (T) dot;

    for (k = 0; k < n; k++)
      ds[k] = p[k] * (ds[k] - d);
  }
}

DISPATCH_KERNEL_NAMED (SFX (softmax_backward_row),
                 (const T *p, const T *pd, const T *dpd, T *ds, gint64 n, T inv_keep),
                 (p, pd, dpd, ds, n, inv_keep))

static void
SFX (probs_backward_range) (gint64 i0, gint64 i1, gpointer data)
{
  SFX (Job) *j = data;
  const GnnAttnGeom *g = j->g;
  gint64 n = g->L * g->S;
  T inv_keep = g->dropout_p >= 1.0 ? 0 : (T) (1.0 / (1.0 - g->dropout_p));
  g_autofree T *scratch = j->ds == NULL ? g_try_new (T, MAX (n, 1)) : NULL;

  if (j->ds == NULL && scratch == NULL)
    {
      j->failed = TRUE;
      return;
    }
  for (gint64 i = i0; i < i1; i++)
    {
      gint64 b = i / g->H, h = i % g->H;
      T *ds = j->ds != NULL ? j->ds + i * n : scratch;

      for (gint64 l = 0; l < g->L; l++)
        SFX (softmax_backward_row) (j->cp + i * n + l * g->S,
                                    j->cpd != NULL ? j->cpd + i * n + l * g->S : NULL,
                                    j->dpd + i * n + l * g->S, ds + l * g->S, g->S, inv_keep);
      if (j->dq != NULL)   /* dQ = scale dS K: [L, S] · [S, D] */
        SFX (gemm) (FALSE, FALSE, g->L, g->D, g->S, (T) g->scale, ds, g->S,
                    SFX (mat_at) (&g->k, b, h), g->k.sr, (T *) SFX (mat_at) (j->dq, b, h),
                    j->dq->sr);
      if (j->dk != NULL)   /* dK = scale dSᵀ Q: [S, L] · [L, D] */
        SFX (gemm) (TRUE, FALSE, g->S, g->D, g->L, (T) g->scale, ds, g->S,
                    SFX (mat_at) (&g->q, b, h), g->q.sr, (T *) SFX (mat_at) (j->dk, b, h),
                    j->dk->sr);
    }
}
