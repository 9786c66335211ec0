/* gnn-max-pool-rows.c: float32 max pooling without indices (inference) for
 * any window, stride, padding and dilation, one output row at a time
 *
 * The general loop visits each window's taps with bounds checks and a
 * data-dependent branch per tap: ResNet's 3×3 stride-2 padded stem pool
 * took ~5 ms of a 47 ms batch-1 inference. Here each input row a window row
 * needs is copied once per output row into a row of -inf padding split
 * into its stride phases (column x + pw goes to phase (x + pw) mod sw), so
 * that a tap's values for all the row's windows are one contiguous run;
 * each tap is then a vector select into the output row. Padding never wins
 * and the result is the same value as the general loop's: a padding tap
 * first in scan order leaves -inf, which the first real tap replaces (or
 * equals). Taps go in scan order with max_pool2d's rule (the first maximum
 * wins, a NaN wins over anything before it), so zero signs and NaNs come
 * out as PyTorch's. Rows whose window rows all fall in the padding get
 * -inf, as in the general loop.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-pool-window-private.h"

#define VL 8

typedef float Vec __attribute__ ((vector_size (VL * sizeof (float))));
typedef gint32 IVec __attribute__ ((vector_size (VL * sizeof (gint32))));

/* The padded row's positions, (ow - 1) · sw + (kw - 1) · dw + 1, plus one
 * phase's rounding. */
static gint64
row_floats (gint64 kw,
            gint64 sw,
            gint64 dw,
            gint64 ow)
{
  return (ow - 1) * sw + (kw - 1) * dw + 1 + sw;
}

gboolean
gnn_max_pool2d_rows_fits (gint64 kw,
                          gint64 sw,
                          gint64 dw,
                          gint64 ow)
{
  return kw > 0 && sw > 0 && dw > 0 && ow > 0 && kw <= GNN_MAX_POOL_ROW_FLOATS &&
         sw <= GNN_MAX_POOL_ROW_FLOATS && dw <= GNN_MAX_POOL_ROW_FLOATS &&
         ow <= GNN_MAX_POOL_ROW_FLOATS && row_floats (kw, sw, dw, ow) <= GNN_MAX_POOL_ROW_FLOATS;
}

/* acc = the scan-order winner of acc and v, elementwise: v where v > acc
 * or v is a NaN. */
static void
take_tap (float       *restrict acc,
          const float *restrict v,
          gint64                n)
{
  gint64 i = 0;

  for (; i + VL <= n; i += VL)
    {
      Vec a, t;
      IVec m;

      memcpy (&a, acc + i, sizeof a);
      memcpy (&t, v + i, sizeof t);
      m = (t > a) | (t != t);
      a = (Vec) (((IVec) t & m) | ((IVec) a & ~m));
      memcpy (acc + i, &a, sizeof a);
    }
  for (; i < n; i++)
    acc[i] = v[i] > acc[i] || isnan (v[i]) ? v[i] : acc[i];
}

void
gnn_max_pool2d_rows_f32 (gint64       planes,
                         gint64       h,
                         gint64       w,
                         gint64       kh,
                         gint64       kw,
                         gint64       sh,
                         gint64       sw,
                         gint64       ph,
                         gint64       pw,
                         gint64       dh,
                         gint64       dw,
                         gint64       oh,
                         gint64       ow,
                         const float *src,
                         float       *dst)
{
  float buf[GNN_MAX_POOL_ROW_FLOATS];
  gint64 wp = row_floats (kw, sw, dw, ow) - sw, lq = (wp + sw - 1) / sw;

  g_return_if_fail (gnn_max_pool2d_rows_fits (kw, sw, dw, ow));
  for (gint64 p = 0; p < planes; p++)
    {
      const float *plane = src + p * h * w;

      for (gint64 oy = 0; oy < oh; oy++, dst += ow)
        {
          gint64 y0 = oy * sh - ph, i0, i1;
          gboolean first = TRUE;

          gnn_pool_window_taps (y0, dh, kh, h, &i0, &i1);
          for (gint64 i = i0; i < i1; i++)
            {
              const float *row = plane + (y0 + i * dh) * w;

              /* padded position k = x + pw goes to buf[(k % sw) · lq + k / sw]:
               * per phase q, -inf, then the columns inside [pw, lim), -inf */
              for (gint64 q = 0; q < sw; q++)
                {
                  float *phase = buf + q * lq;
                  gint64 lim = MIN (w + pw, wp);
                  gint64 t1 = lim > q ? MIN ((lim - q + sw - 1) / sw, lq) : 0;
                  gint64 t0 = MIN (pw > q ? (pw - q + sw - 1) / sw : 0, t1);
                  const float *col = row + q - pw;

                  for (gint64 t = 0; t < t0; t++)
                    phase[t] = -INFINITY;
                  for (gint64 t = t0; t < t1; t++)
                    phase[t] = col[t * sw];
                  for (gint64 t = t1; t < lq; t++)
                    phase[t] = -INFINITY;
                }
              for (gint64 j = 0; j < kw; j++)
                {
                  const float *tap = buf + (j * dw % sw) * lq + j * dw / sw;

                  if (first)
                    memcpy (dst, tap, sizeof (float) * (gsize) ow);
                  else
                    take_tap (dst, tap, ow);
                  first = FALSE;
                }
            }
          if (first)
            for (gint64 ox = 0; ox < ow; ox++)
              dst[ox] = -INFINITY;
        }
    }
}
