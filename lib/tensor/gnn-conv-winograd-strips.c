/* gnn-conv-winograd-strips.c: the forward of a 3×3 stride-1 conv2d on fewer
 * than eight images, as F(4×4, 3×3) over eight horizontal strips of each
 *
 * F(4×4, 3×3) (gnn-conv-winograd4.c) vectorizes across eight images, so a
 * batch of one could not use it, and im2col + GEMM did 2.25-4× the products
 * of Winograd on ResNet-18's 56×56 and 28×28 maps at batch 1. Here one
 * image's output rows are cut into eight strips of R = ⌈oh / 8⌉ rows; strip s
 * reads the input rows [s·R - ph, s·R - ph + R + 2) (zero where they fall
 * outside), copied into a batch of eight [cin, R + 2, w] images, which
 * F(4×4) convolves without row padding (the columns keep theirs). The eight
 * [cout, R, ow] results go back to their rows; rows past oh are dropped.
 * The copies read the input and write the output once more, a few percent
 * of the products they save. Only the forward: gradients stay with im2col
 * (gnn_conv2d_algo_f32() picks this for small batches, the backward then
 * takes im2col).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-parallel-private.h"

#define STRIPS GNN_WINOGRAD4_IMAGES

typedef struct
{
  const GnnConvGeom *g;      /* the whole image's convolution */
  const GnnConvGeom *sg;     /* one strip's */
  const float       *x;      /* one image [cin, h, w] */
  float             *xs;     /* strips [STRIPS, cin, R + 2, w] */
  const float       *ys;     /* strip outputs [STRIPS, cout, R, ow] */
  float             *out;    /* one image [cout, oh, ow] */
} StripJob;

static void
gather_range (gint64   c0,
              gint64   c1,
              gpointer data)
{
  const StripJob *j = data;
  const GnnConvGeom *g = j->g, *sg = j->sg;
  gint64 rows = sg->h, row_bytes = g->w * (gint64) sizeof (float);

  for (gint64 s = 0; s < STRIPS; s++)
    for (gint64 c = c0; c < c1; c++)
      {
        float *dst = j->xs + (s * g->cin + c) * rows * g->w;

        for (gint64 r = 0; r < rows; r++)
          {
            gint64 y = s * sg->oh - g->ph + r;

            if (y >= 0 && y < g->h)
              memcpy (dst + r * g->w, j->x + (c * g->h + y) * g->w, (gsize) row_bytes);
            else
              memset (dst + r * g->w, 0, (gsize) row_bytes);
          }
      }
}

static void
scatter_range (gint64   o0,
               gint64   o1,
               gpointer data)
{
  const StripJob *j = data;
  const GnnConvGeom *g = j->g, *sg = j->sg;

  for (gint64 s = 0; s < STRIPS; s++)
    {
      gint64 y0 = s * sg->oh, rows = CLAMP (g->oh - y0, 0, sg->oh);

      for (gint64 o = o0; o < o1 && rows > 0; o++)
        memcpy (j->out + (o * g->oh + y0) * g->ow, j->ys + (s * g->cout + o) * sg->oh * g->ow,
                (gsize) (rows * g->ow) * sizeof (float));
    }
}

gboolean
gnn_conv2d_winograd_strips_fits (const GnnConvGeom *g)
{
  return gnn_conv2d_winograd_fits (g) && g->oh >= STRIPS;
}

gboolean
gnn_conv2d_winograd_strips_forward_f32 (const GnnConvGeom *g,
                                        const float       *x,
                                        const float       *wt,
                                        const float       *bias,
                                        float             *out)
{
  GnnConvGeom sg = *g;
  float *xs, *ys;
  gboolean ok = TRUE;

  g_return_val_if_fail (gnn_conv2d_winograd_strips_fits (g), FALSE);
  sg.n = STRIPS;
  sg.oh = (g->oh + STRIPS - 1) / STRIPS;
  sg.h = sg.oh + 2;
  sg.ph = 0;
  xs = gnn_conv_try_alloc (STRIPS * g->cin * sg.h, g->w, sizeof (float), FALSE);
  ys = gnn_conv_try_alloc (STRIPS * g->cout * sg.oh, g->ow, sizeof (float), FALSE);
  if (xs == NULL || ys == NULL)
    ok = FALSE;
  for (gint64 b = 0; b < g->n && ok; b++)
    {
      StripJob job = { g, &sg, x + b * g->cin * g->h * g->w, xs, ys, out + b * g->cout * g->oh * g->ow };

      gnn_parallel_for (g->cin, gnn_parallel_grain (STRIPS * sg.h * g->w), gather_range, &job);
      ok = gnn_conv2d_winograd4_forward_f32 (&sg, xs, wt, bias, ys);
      if (ok)
        gnn_parallel_for (g->cout, gnn_parallel_grain (STRIPS * sg.oh * g->ow), scatter_range, &job);
    }
  gnn_conv_free (xs);
  gnn_conv_free (ys);
  return ok;
}
