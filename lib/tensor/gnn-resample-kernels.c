/* gnn-resample-kernels.c: the loops of interpolation (see
 * gnn-resample-private.h), planes split among the threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-resample-private.h"

typedef struct
{
  const GnnResample *r;
  const void *src;
  void *dst;
} ResampleJob;

#define DEFINE_RESAMPLE(T, suffix)                                                        \
static void                                                                               \
resample_range_##suffix (gint64 p0, gint64 p1, gpointer data)                             \
{                                                                                         \
  const ResampleJob *j = data;                                                            \
  const GnnResample *r = j->r;                                                            \
  gint64 in_plane = r->in[0] * r->in[1] * r->in[2];                                       \
  gint64 out_plane = r->out[0] * r->out[1] * r->out[2];                                   \
  guint t0n = r->taps[0], t1n = r->taps[1], t2n = r->taps[2];                             \
                                                                                          \
  for (gint64 p = p0; p < p1; p++)                                                        \
    {                                                                                     \
      const T *x = (const T *) j->src + p * in_plane;                                     \
      T *y = (T *) j->dst + p * out_plane;                                                \
                                                                                          \
      for (gint64 a = 0; a < r->out[0]; a++)                                              \
        for (gint64 b = 0; b < r->out[1]; b++)                                            \
          for (gint64 c = 0; c < r->out[2]; c++)                                          \
            {                                                                             \
              T acc = 0;                                                                  \
                                                                                          \
              for (guint t0 = 0; t0 < t0n; t0++)                                          \
                {                                                                         \
                  T w0 = (T) r->weight[0][a * t0n + t0];                                  \
                  const T *x0 = x + r->index[0][a * t0n + t0] * r->in[1] * r->in[2];      \
                                                                                          \
                  for (guint t1 = 0; t1 < t1n; t1++)                                      \
                    {                                                                     \
                      T w01 = w0 * (T) r->weight[1][b * t1n + t1];                        \
                      const T *x1 = x0 + r->index[1][b * t1n + t1] * r->in[2];            \
                                                                                          \
                      for (guint t2 = 0; t2 < t2n; t2++)                                  \
                        acc += w01 * (T) r->weight[2][c * t2n + t2] *                     \
                               x1[r->index[2][c * t2n + t2]];                             \
                    }                                                                     \
                }                                                                         \
              *y++ = acc;                                                                 \
            }                                                                             \
    }                                                                                     \
}                                                                                         \
                                                                                          \
static void                                                                               \
back_range_##suffix (gint64 p0, gint64 p1, gpointer data)                                 \
{                                                                                         \
  const ResampleJob *j = data;                                                            \
  const GnnResample *r = j->r;                                                            \
  gint64 in_plane = r->in[0] * r->in[1] * r->in[2];                                       \
  gint64 out_plane = r->out[0] * r->out[1] * r->out[2];                                   \
  guint t0n = r->taps[0], t1n = r->taps[1], t2n = r->taps[2];                             \
                                                                                          \
  memset ((T *) j->dst + p0 * in_plane, 0, sizeof (T) * (gsize) ((p1 - p0) * in_plane));  \
  for (gint64 p = p0; p < p1; p++)                                                        \
    {                                                                                     \
      const T *g = (const T *) j->src + p * out_plane;                                    \
      T *gx = (T *) j->dst + p * in_plane;                                                \
                                                                                          \
      for (gint64 a = 0; a < r->out[0]; a++)                                              \
        for (gint64 b = 0; b < r->out[1]; b++)                                            \
          for (gint64 c = 0; c < r->out[2]; c++)                                          \
            {                                                                             \
              T go = *g++;                                                                \
                                                                                          \
              for (guint t0 = 0; t0 < t0n; t0++)                                          \
                {                                                                         \
                  T w0 = go * (T) r->weight[0][a * t0n + t0];                             \
                  T *x0 = gx + r->index[0][a * t0n + t0] * r->in[1] * r->in[2];           \
                                                                                          \
                  for (guint t1 = 0; t1 < t1n; t1++)                                      \
                    {                                                                     \
                      T w01 = w0 * (T) r->weight[1][b * t1n + t1];                        \
                      T *x1 = x0 + r->index[1][b * t1n + t1] * r->in[2];                  \
                                                                                          \
                      for (guint t2 = 0; t2 < t2n; t2++)                                  \
                        x1[r->index[2][c * t2n + t2]] += w01 * (T) r->weight[2][c * t2n + t2]; \
                    }                                                                     \
                }                                                                         \
            }                                                                             \
    }                                                                                     \
}                                                                                         \
                                                                                          \
void                                                                                      \
gnn_resample_##suffix (const GnnResample *r, const T *in, T *out)                         \
{                                                                                         \
  gint64 out_plane = r->out[0] * r->out[1] * r->out[2];                                   \
                                                                                          \
  if (r->outer > 0 && out_plane > 0)                                                      \
    gnn_parallel_for (r->outer, gnn_parallel_grain (out_plane), resample_range_##suffix,  \
                      &(ResampleJob) { r, in, out });                                     \
}                                                                                         \
                                                                                          \
void                                                                                      \
gnn_resample_back_##suffix (const GnnResample *r, const T *gout, T *gin)                  \
{                                                                                         \
  gint64 in_plane = r->in[0] * r->in[1] * r->in[2];                                       \
                                                                                          \
  if (r->outer > 0 && in_plane > 0)                                                       \
    gnn_parallel_for (r->outer, gnn_parallel_grain (in_plane), back_range_##suffix,       \
                      &(ResampleJob) { r, gout, gin });                                   \
}

DEFINE_RESAMPLE (float, f32)
DEFINE_RESAMPLE (double, f64)
