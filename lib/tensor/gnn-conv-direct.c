/* gnn-conv-direct.c: float32 conv2d of one input channel, computed directly
 *
 * With one input channel and at most 3×3 taps (the first layer of an image
 * model), im2col's GEMM has K ≤ 9: OpenBLAS spends more on packing, on C
 * and on the unfolded copy than on the arithmetic, and the weight gradient
 * first copies the output gradient into a [cout, n·L] matrix. Here each
 * image is copied once into a zero-padded plane and every output row is
 * swept in blocks of 32 columns (four 8-float vectors held in registers,
 * the last ones moved back to end at the row's end, so no tail is copied):
 *
 *   forward:          y[o] = b[o] + Σ_taps w[o, i, j] · xp[oy + i, ox + j]
 *   weight gradient:  gw[o, i, j] += Σ go[o, oy, ox] · xp[oy + i, ox + j],
 *                     gb[o] += Σ go[o, oy, ox], in 8 lanes then a fixed tree
 *
 * The forward splits by image and the weight gradient by output channel,
 * each with a fixed order of additions, so results do not depend on the
 * thread count. The input gradient (rarely needed: the input is the data)
 * stays with im2col. In the weight gradient, the lanes of a moved-back
 * vector that an earlier vector already covered are masked to 0 (x and the
 * gradient alike): counted twice otherwise, and 0 · inf must not leak a NaN
 * into a tap whose window lacks that input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-cpu-private.h"

#define VL 8                  /* floats per vector */
#define BLOCK (4 * VL)        /* output columns per step */
#define MAX_TAPS 9
/* Bytes of padded planes per batch chunk of the weight gradient. */
#define CHUNK_BYTES (4 << 20)

typedef float Vec __attribute__ ((vector_size (VL * sizeof (float))));
typedef gint32 IVec __attribute__ ((vector_size (VL * sizeof (gint32))));

#define LOAD(v, p) memcpy (&(v), (p), sizeof (Vec))
#define STORE(p, v) memcpy ((p), &(v), sizeof (Vec))

gboolean
gnn_conv2d_direct_fits (const GnnConvGeom *g)
{
  return gnn_conv_geom_is_2d (g) && g->groups == 1 && g->cin == 1 && g->sh == 1 && g->sw == 1 && g->dh == 1 &&
         g->dw == 1 && g->kh >= 1 && g->kw >= 1 && g->kh <= 3 && g->kw <= 3 &&
         g->n > 0 && g->cout > 0 && g->oh > 0 && g->ow >= VL;
}

/* The padded plane of one image: oh + kh - 1 rows of `stride` floats, row r
 * and column c holding x[r - ph, c - pw] (0 outside), wide enough for
 * every block's 32 columns plus kw - 1. */
typedef struct
{
  gint64 rows, stride, blocks;
} Padded;

static Padded
padded_of (const GnnConvGeom *g)
{
  Padded p;

  p.blocks = (g->ow + BLOCK - 1) / BLOCK;
  p.rows = g->oh + g->kh - 1;
  p.stride = p.blocks * BLOCK + g->kw - 1;
  return p;
}

static void
pad_image (const GnnConvGeom *g,
           const Padded      *p,
           const float       *img,
           float             *xp)
{
  memset (xp, 0, sizeof (float) * (gsize) (p->rows * p->stride));
  for (gint64 r = 0; r < p->rows; r++)
    {
      gint64 y = r - g->ph, c0 = MAX (g->pw, 0), c1 = MIN (g->pw + g->w, p->stride);

      if (y < 0 || y >= g->h || c1 <= c0)
        continue;
      memcpy (xp + r * p->stride + c0, img + y * g->w + (c0 - g->pw),
              sizeof (float) * (gsize) (c1 - c0));
    }
}

/* --- forward ------------------------------------------------------------ */

/* Where vector q of block @blk starts in a row of @ow ≥ VL columns: every
 * vector lies inside the row, the last ones moved back to end at its end
 * (overlapping columns an earlier vector covers). */
static inline __attribute__ ((always_inline)) gint64
vector_start (gint64 blk, gint64 q, gint64 ow)
{
  return MIN (blk * BLOCK + q * VL, ow - VL);
}

/* Output channels @o and @o + 1 (@pair) of one block of one row: two
 * channels share the input loads and give eight independent sums, which
 * hides the latency of the additions (no FMA contraction in ISO C). @wb:
 * the channels' weights, then bias, each already in all VL lanes
 * ([cout][kh · kw + 1][VL]), loaded where used: broadcasting them here let
 * gcc hoist all 18 and spill them. */
static inline __attribute__ ((always_inline)) void
forward_block (const float *src, gint64 stride, const gint64 c[4], gint64 kh, gint64 kw,
               const float *wb, gboolean pair, float *dst, gint64 plane)
{
  gint64 per_o = (kh * kw + 1) * VL;
  Vec a0, a1, a2, a3, b0, b1, b2, b3;

  LOAD (a0, wb + kh * kw * VL);
  a1 = a2 = a3 = a0;
  b0 = b1 = b2 = b3 = a0;
  if (pair)
    {
      LOAD (b0, wb + per_o + kh * kw * VL);
      b1 = b2 = b3 = b0;
    }
  for (gint64 i = 0; i < kh; i++)
    for (gint64 j = 0; j < kw; j++)
      {
        const float *s = src + i * stride + j;
        Vec wa, v0, v1, v2, v3;

        LOAD (wa, wb + (i * kw + j) * VL);
        LOAD (v0, s + c[0]), LOAD (v1, s + c[1]), LOAD (v2, s + c[2]), LOAD (v3, s + c[3]);
        a0 += wa * v0, a1 += wa * v1, a2 += wa * v2, a3 += wa * v3;
        if (pair)
          {
            Vec w2;

            LOAD (w2, wb + per_o + (i * kw + j) * VL);
            b0 += w2 * v0, b1 += w2 * v1, b2 += w2 * v2, b3 += w2 * v3;
          }
      }
  /* overlapping vectors store the same values twice */
  STORE (dst + c[0], a0), STORE (dst + c[1], a1), STORE (dst + c[2], a2), STORE (dst + c[3], a3);
  if (pair)
    {
      dst += plane;
      STORE (dst + c[0], b0), STORE (dst + c[1], b1), STORE (dst + c[2], b2), STORE (dst + c[3], b3);
    }
}

static inline __attribute__ ((always_inline)) void
forward_image_body (const float *xp, gint64 stride, gint64 blocks, gint64 oh, gint64 ow,
                    gint64 cout, gint64 kh, gint64 kw, const float *wb, float *out)
{
  gint64 plane = oh * ow, per_o = (kh * kw + 1) * VL;

  for (gint64 oy = 0; oy < oh; oy++)
    for (gint64 blk = 0; blk < blocks; blk++)
      {
        gint64 c[4];
        const float *src = xp + oy * stride;
        gint64 o = 0;

        for (gint64 q = 0; q < 4; q++)
          c[q] = vector_start (blk, q, ow);
        for (; o + 1 < cout; o += 2)
          forward_block (src, stride, c, kh, kw, wb + o * per_o, TRUE,
                         out + o * plane + oy * ow, plane);
        if (o < cout)
          forward_block (src, stride, c, kh, kw, wb + o * per_o, FALSE,
                         out + o * plane + oy * ow, plane);
      }
}

/* Not unrolled for 3×3 (unlike the weight gradient): gcc then loads all
 * 18 weights of a pair up front and spills them. */
static inline __attribute__ ((always_inline)) void
forward_image_typed (const float *xp, gint64 stride, gint64 blocks, gint64 oh, gint64 ow,
                     gint64 cout, gint64 kh, gint64 kw, const float *wb, float *out)
{
  forward_image_body (xp, stride, blocks, oh, ow, cout, kh, kw, wb, out);
}

GNN_DISPATCH_KERNEL (forward_image,
                 (const float *xp, gint64 stride, gint64 blocks, gint64 oh, gint64 ow,
                  gint64 cout, gint64 kh, gint64 kw, const float *wb, float *out),
                 (xp, stride, blocks, oh, ow, cout, kh, kw, wb, out))

typedef struct
{
  const GnnConvGeom *g;
  Padded p;
  const float *x, *go;
  float *wb;              /* forward: weights and bias broadcast, [cout][taps + 1][VL] */
  float *out, *xp;
  float *acc;             /* weight gradient: [cout][MAX_TAPS + 1][VL] lanes */
  gint64 nb;              /* images in the current chunk */
  gint *no_memory;        /* forward: set (atomically) by a range that lacks its buffer */
} DirectJob;

static void
forward_range (gint64   t0,
               gint64   t1,
               gpointer data)
{
  const DirectJob *job = data;
  const GnnConvGeom *g = job->g;
  float *xp = gnn_conv_try_alloc (job->p.rows, job->p.stride, sizeof (float), FALSE);

  if (xp == NULL)
    {
      g_atomic_int_set (job->no_memory, 1);
      return;
    }
  for (gint64 t = t0; t < t1; t++)
    {
      pad_image (g, &job->p, job->x + t * g->h * g->w, xp);
      forward_image (xp, job->p.stride, job->p.blocks, g->oh, g->ow, g->cout, g->kh, g->kw,
                     job->wb, job->out + t * g->cout * g->oh * g->ow);
    }
  gnn_conv_free (xp);
}

gboolean
gnn_conv2d_direct_forward_f32 (const GnnConvGeom *g,
                               const float       *x,
                               const float       *wt,
                               const float       *bias,
                               float             *out)
{
  gint64 taps = g->kh * g->kw;
  gint no_memory = 0;
  DirectJob job = { .g = g, .p = padded_of (g), .x = x, .out = out, .no_memory = &no_memory };

  job.wb = gnn_conv_try_alloc (g->cout, (taps + 1) * VL, sizeof (float), FALSE);
  if (job.wb == NULL)
    return FALSE;
  for (gint64 o = 0; o < g->cout; o++)
    for (gint64 k = 0; k <= taps; k++)
      for (gint64 l = 0; l < VL; l++)
        job.wb[(o * (taps + 1) + k) * VL + l] =
          k < taps ? wt[o * taps + k] : bias != NULL ? bias[o] : 0.0f;
  gnn_parallel_for (g->n, gnn_parallel_grain (g->cout * g->oh * g->ow * taps),
                    forward_range, &job);
  gnn_conv_free (job.wb);
  return !g_atomic_int_get (&no_memory);
}

/* --- weight and bias gradient ------------------------------------------- */

/* One block of one row, for the taps of kernel row @i: a[j] += Σ_q g_q ·
 * x_q (and, for row 0, ab += Σ_q g_q). @masked: lanes of the block's
 * vectors that an earlier vector covered (vector_start) are masked to 0 in
 * x and g (@mask_last: only in the last vector, the case of a block with
 * more than 3 vectors' columns). Masking x as well as g keeps a non-finite
 * input in an overlapped column out of the taps whose window lacks it. */
static inline __attribute__ ((always_inline)) void
weight_grad_block (const float *src, const float *grow, const gint64 c[4], gint64 kw,
                   gboolean bias_too, gboolean masked, gboolean mask_last, const IVec m[4],
                   Vec *a0, Vec *a1, Vec *a2, Vec *ab)
{
  Vec g0, g1, g2, g3;
  Vec *acc[3] = { a0, a1, a2 };

  LOAD (g0, grow + c[0]), LOAD (g1, grow + c[1]), LOAD (g2, grow + c[2]), LOAD (g3, grow + c[3]);
  if (masked && !mask_last)
    g0 = (Vec) ((IVec) g0 & m[0]), g1 = (Vec) ((IVec) g1 & m[1]), g2 = (Vec) ((IVec) g2 & m[2]);
  if (masked)
    g3 = (Vec) ((IVec) g3 & m[3]);
  for (gint64 j = 0; j < kw; j++)
    {
      const float *s = src + j;
      Vec v0, v1, v2, v3;

      LOAD (v0, s + c[0]), LOAD (v1, s + c[1]), LOAD (v2, s + c[2]), LOAD (v3, s + c[3]);
      if (masked && !mask_last)
        v0 = (Vec) ((IVec) v0 & m[0]), v1 = (Vec) ((IVec) v1 & m[1]), v2 = (Vec) ((IVec) v2 & m[2]);
      if (masked)
        v3 = (Vec) ((IVec) v3 & m[3]);
      *acc[j] += g0 * v0 + g1 * v1 + g2 * v2 + g3 * v3;
    }
  if (bias_too)
    *ab += g0 + g1 + g2 + g3;
}

/* Adds one output channel's products over @nb images to its lanes @acc
 * (taps, then the bias), one kernel row at a time: its ≤ 3 sums and the
 * gradient's vectors stay in registers (all 9 taps at once spill). */
static inline __attribute__ ((always_inline)) void
weight_grad_body (const float *xp, gint64 stride, gint64 plane, gint64 blocks, gint64 nb,
                  gint64 oh, gint64 ow, gint64 kh, gint64 kw, const float *go, gint64 go_image,
                  float *acc)
{
  gint64 last = blocks - 1, c_full[4], c_last[4];
  gboolean last_masked = FALSE, only_q3 = TRUE;
  IVec m[4];

  for (gint64 q = 0; q < 4; q++)
    {
      gint32 mi[VL];

      c_last[q] = vector_start (last, q, ow);
      for (gint64 l = 0; l < VL; l++)
        {
          /* lane l is new unless an earlier vector of the block had it */
          mi[l] = c_last[q] + l >= last * BLOCK + q * VL ? -1 : 0;
          if (mi[l] == 0)
            last_masked = TRUE, only_q3 = only_q3 && q == 3;
        }
      memcpy (&m[q], mi, sizeof m[q]);
    }
  for (gint64 i = 0; i < kh; i++)
    {
      gboolean bias_too = i == 0;
      Vec a0, a1, a2, ab;

      LOAD (a0, acc + (i * kw) * VL);
      a1 = a2 = a0;
      if (kw > 1)
        LOAD (a1, acc + (i * kw + 1) * VL);
      if (kw > 2)
        LOAD (a2, acc + (i * kw + 2) * VL);
      LOAD (ab, acc + kh * kw * VL);
      for (gint64 t = 0; t < nb; t++)
        for (gint64 oy = 0; oy < oh; oy++)
          {
            const float *row = xp + t * plane + (oy + i) * stride;
            const float *grow = go + t * go_image + oy * ow;

            for (gint64 blk = 0; blk < last; blk++)
              {
                for (gint64 q = 0; q < 4; q++)
                  c_full[q] = blk * BLOCK + q * VL;
                weight_grad_block (row, grow, c_full, kw, bias_too, FALSE, FALSE, m,
                                   &a0, &a1, &a2, &ab);
              }
            if (!last_masked)
              weight_grad_block (row, grow, c_last, kw, bias_too, FALSE, FALSE, m,
                                 &a0, &a1, &a2, &ab);
            else if (only_q3)
              weight_grad_block (row, grow, c_last, kw, bias_too, TRUE, TRUE, m,
                                 &a0, &a1, &a2, &ab);
            else
              weight_grad_block (row, grow, c_last, kw, bias_too, TRUE, FALSE, m,
                                 &a0, &a1, &a2, &ab);
          }
      STORE (acc + (i * kw) * VL, a0);
      if (kw > 1)
        STORE (acc + (i * kw + 1) * VL, a1);
      if (kw > 2)
        STORE (acc + (i * kw + 2) * VL, a2);
      STORE (acc + kh * kw * VL, ab);
    }
}

static inline __attribute__ ((always_inline)) void
weight_grad_typed (const float *xp, gint64 stride, gint64 plane, gint64 blocks, gint64 nb,
                   gint64 oh, gint64 ow, gint64 kh, gint64 kw, const float *go, gint64 go_image,
                   float *acc)
{
  if (kh == 3 && kw == 3)
    weight_grad_body (xp, stride, plane, blocks, nb, oh, ow, 3, 3, go, go_image, acc);
  else
    weight_grad_body (xp, stride, plane, blocks, nb, oh, ow, kh, kw, go, go_image, acc);
}

GNN_DISPATCH_KERNEL (weight_grad,
                 (const float *xp, gint64 stride, gint64 plane, gint64 blocks, gint64 nb,
                  gint64 oh, gint64 ow, gint64 kh, gint64 kw, const float *go, gint64 go_image,
                  float *acc),
                 (xp, stride, plane, blocks, nb, oh, ow, kh, kw, go, go_image, acc))

static void
pad_range (gint64   t0,
           gint64   t1,
           gpointer data)
{
  const DirectJob *job = data;
  const GnnConvGeom *g = job->g;
  gint64 plane = job->p.rows * job->p.stride;

  for (gint64 t = t0; t < t1; t++)
    pad_image (g, &job->p, job->x + t * g->h * g->w, job->xp + t * plane);
}

static void
weight_grad_range (gint64   o0,
                   gint64   o1,
                   gpointer data)
{
  const DirectJob *job = data;
  const GnnConvGeom *g = job->g;
  gint64 go_image = g->cout * g->oh * g->ow;

  for (gint64 o = o0; o < o1; o++)
    weight_grad (job->xp, job->p.stride, job->p.rows * job->p.stride, job->p.blocks, job->nb,
                 g->oh, g->ow, g->kh, g->kw, job->go + o * g->oh * g->ow, go_image,
                 job->acc + o * (MAX_TAPS + 1) * VL);
}

/* The VL lanes at @v summed as a fixed tree. */
static float
lanes_sum (const float *v)
{
  float h[VL];

  memcpy (h, v, sizeof h);
  for (guint w = VL / 2; w >= 1; w /= 2)
    for (guint q = 0; q < w; q++)
      h[q] += h[q + w];
  return h[0];
}

gboolean
gnn_conv2d_direct_weight_grad_f32 (const GnnConvGeom *g,
                                   const float       *x,
                                   const float       *go,
                                   float             *gw,
                                   float             *gb)
{
  Padded p = padded_of (g);
  gint64 plane = p.rows * p.stride, taps = g->kh * g->kw;
  gint64 chunk = CLAMP ((gint64) (CHUNK_BYTES / sizeof (float)) / plane, 1, g->n);
  DirectJob job = { .g = g, .p = p };

  job.xp = gnn_conv_try_alloc (chunk, plane, sizeof (float), FALSE);
  job.acc = gnn_conv_try_alloc (g->cout, (MAX_TAPS + 1) * VL, sizeof (float), TRUE);
  if (job.xp == NULL || job.acc == NULL)
    {
      gnn_conv_free (job.xp);
      gnn_conv_free (job.acc);
      return FALSE;
    }
  for (gint64 b0 = 0; b0 < g->n; b0 += chunk)
    {
      job.nb = MIN (chunk, g->n - b0);
      job.x = x + b0 * g->h * g->w;
      job.go = go + b0 * g->cout * g->oh * g->ow;
      gnn_parallel_for (job.nb, gnn_parallel_grain (plane), pad_range, &job);
      gnn_parallel_for (g->cout, gnn_parallel_grain (job.nb * g->oh * g->ow * taps),
                        weight_grad_range, &job);
    }
  for (gint64 o = 0; o < g->cout; o++)
    {
      const float *a = job.acc + o * (MAX_TAPS + 1) * VL;

      if (gw != NULL)
        for (gint64 k = 0; k < taps; k++)
          gw[o * taps + k] += lanes_sum (a + k * VL);
      if (gb != NULL)
        gb[o] += lanes_sum (a + taps * VL);
    }
  gnn_conv_free (job.xp);
  gnn_conv_free (job.acc);
  return TRUE;
}
