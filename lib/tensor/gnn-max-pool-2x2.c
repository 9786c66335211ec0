/* gnn-max-pool-2x2.c: float32 max pooling with 2×2 windows and stride 2
 * (the CNN case; in training the winners are saved), CPU-dispatched
 *
 * The forward saves, for each window, which of its four taps won (its lane:
 * 0 1 / 2 3 in scan order) as one byte, instead of the winner's int64
 * index into the plane: an eighth of the bytes to write and read back. The
 * backward then writes every input element once, the gradient at the
 * winning lane and +0 at the other three (and at the last row and column
 * when h or w is odd, which no window covers), so it needs neither a
 * zeroing pass nor a scatter. Both loops are selects on explicit vectors of
 * four windows (the even and odd columns deinterleaved by shuffles), the
 * last vector of a row moved back to end at the row's end: rows of 7 or 14
 * windows are too short for gcc's own vectorization, which left them to a
 * scalar tail.
 *
 * The winner follows max_pool2d's rule: the first maximum in scan order,
 * except that a NaN wins over anything before it (so the last NaN wins).
 * The gradient lands as 0 + g, as PyTorch's zero-then-add does: a -0
 * gradient gives +0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-cpu-private.h"

#define VL 4                  /* windows per vector */

typedef float Vec __attribute__ ((vector_size (VL * sizeof (float))));
typedef gint32 IVec __attribute__ ((vector_size (VL * sizeof (gint32))));

#define LOAD(v, p) memcpy (&(v), (p), sizeof (Vec))
#define STORE(p, v) memcpy ((p), &(v), sizeof (Vec))

/* The even and odd columns of the 2 · VL floats at @p. */
static inline __attribute__ ((always_inline)) void
load_pairs (const float *p,
            Vec         *even,
            Vec         *odd)
{
  Vec lo, hi;

  LOAD (lo, p);
  LOAD (hi, p + VL);
  *even = __builtin_shufflevector (lo, hi, 0, 2, 4, 6);
  *odd = __builtin_shufflevector (lo, hi, 1, 3, 5, 7);
}

/* Takes tap @v (lane @k) where it beats the running maximum. */
#define TAKE(v, k)                                                              \
  G_STMT_START {                                                                \
    IVec take_ = ((v) > best) | ((v) != (v));                                   \
                                                                                \
    best = (Vec) (((IVec) (v) & take_) | ((IVec) best & ~take_));               \
    win = (k & take_) | (win & ~take_);                                         \
  } G_STMT_END

/* Windows ox .. ox + VL - 1 of one row: maxima to @out, lanes to @won. */
static inline __attribute__ ((always_inline)) void
forward_block (const float *r0,
               const float *r1,
               gint64       ox,
               float       *out,
               guint8      *won)
{
  Vec best, b, c, d;
  IVec win = { 0 };

  load_pairs (r0 + 2 * ox, &best, &b);
  load_pairs (r1 + 2 * ox, &c, &d);
  TAKE (b, 1);
  TAKE (c, 2);
  TAKE (d, 3);
  STORE (out + ox, best);
  if (won != NULL)
    for (gint64 i = 0; i < VL; i++)
      won[ox + i] = (guint8) win[i];
}

/* Rows of at least VL windows go by vectors, the last one moved back to end
 * at the row's end (it recomputes a few windows: the same values); rows of
 * fewer take the scalar loop. */
static inline __attribute__ ((always_inline)) void
forward_typed (gint64       planes,
               gint64       h,
               gint64       w,
               const float *src,
               float       *dst,
               guint8      *lane)
{
  gint64 oh = h / 2, ow = w / 2;

  for (gint64 p = 0; p < planes; p++)
    for (gint64 oy = 0; oy < oh; oy++, dst += ow)
      {
        const float *r0 = src + (p * h + 2 * oy) * w, *r1 = r0 + w;
        guint8 *won = lane != NULL ? lane + (p * oh + oy) * ow : NULL;

        if (ow >= VL)
          {
            for (gint64 ox = 0; ox < ow; ox += VL)
              forward_block (r0, r1, MIN (ox, ow - VL), dst, won);
            continue;
          }
        for (gint64 ox = 0; ox < ow; ox++)
          {
            float best = r0[2 * ox], taps[3] = { r0[2 * ox + 1], r1[2 * ox], r1[2 * ox + 1] };
            guint8 win = 0;

            for (guint8 k = 1; k <= 3; k++)
              if (taps[k - 1] > best || isnan (taps[k - 1]))
                best = taps[k - 1], win = k;
            dst[ox] = best;
            if (won != NULL)
              won[ox] = win;
          }
      }
}

/* Windows ox .. ox + VL - 1 of one row of gradients: both input rows. */
static inline __attribute__ ((always_inline)) void
backward_block (const float  *g,
                const guint8 *won,
                gint64        ox,
                float        *r0,
                float        *r1)
{
  Vec v, e0, e1, e2, e3;
  IVec k = { won[ox], won[ox + 1], won[ox + 2], won[ox + 3] };

  LOAD (v, g + ox);
  v += 0.0f;
  e0 = (Vec) ((IVec) v & (k == 0));
  e1 = (Vec) ((IVec) v & (k == 1));
  e2 = (Vec) ((IVec) v & (k == 2));
  e3 = (Vec) ((IVec) v & (k == 3));
  v = __builtin_shufflevector (e0, e1, 0, 4, 1, 5);
  STORE (r0 + 2 * ox, v);
  v = __builtin_shufflevector (e0, e1, 2, 6, 3, 7);
  STORE (r0 + 2 * ox + VL, v);
  v = __builtin_shufflevector (e2, e3, 0, 4, 1, 5);
  STORE (r1 + 2 * ox, v);
  v = __builtin_shufflevector (e2, e3, 2, 6, 3, 7);
  STORE (r1 + 2 * ox + VL, v);
}

static inline __attribute__ ((always_inline)) void
backward_typed (gint64        planes,
                gint64        h,
                gint64        w,
                const guint8 *lane,
                const float  *grad,
                float        *gx)
{
  gint64 oh = h / 2, ow = w / 2;

  for (gint64 p = 0; p < planes; p++)
    {
      float *plane = gx + p * h * w;

      for (gint64 oy = 0; oy < oh; oy++, grad += ow, lane += ow)
        {
          float *r0 = plane + 2 * oy * w, *r1 = r0 + w;

          if (ow >= VL)
            for (gint64 ox = 0; ox < ow; ox += VL)
              backward_block (grad, lane, MIN (ox, ow - VL), r0, r1);
          else
            for (gint64 ox = 0; ox < ow; ox++)
              {
                float v = grad[ox] + 0.0f;

                r0[2 * ox] = lane[ox] == 0 ? v : 0.0f;
                r0[2 * ox + 1] = lane[ox] == 1 ? v : 0.0f;
                r1[2 * ox] = lane[ox] == 2 ? v : 0.0f;
                r1[2 * ox + 1] = lane[ox] == 3 ? v : 0.0f;
              }
          if (w & 1)
            r0[w - 1] = r1[w - 1] = 0.0f;
        }
      if (h & 1)
        memset (plane + (h - 1) * w, 0, (gsize) w * sizeof (float));
    }
}

GNN_DISPATCH_KERNEL (forward,
                 (gint64 planes, gint64 h, gint64 w, const float *src, float *dst, guint8 *lane),
                 (planes, h, w, src, dst, lane))
GNN_DISPATCH_KERNEL (backward,
                 (gint64 planes, gint64 h, gint64 w, const guint8 *lane, const float *grad, float *gx),
                 (planes, h, w, lane, grad, gx))

void
gnn_max_pool2d_2x2_f32 (gint64       planes,
                        gint64       h,
                        gint64       w,
                        const float *src,
                        float       *dst,
                        guint8      *lane)
{
  forward (planes, h, w, src, dst, lane);
}

void
gnn_max_pool2d_2x2_backward_f32 (gint64        planes,
                                 gint64        h,
                                 gint64        w,
                                 const guint8 *lane,
                                 const float  *grad,
                                 float        *gx)
{
  backward (planes, h, w, lane, grad, gx);
}
