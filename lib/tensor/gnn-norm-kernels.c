/* gnn-norm-kernels.c: batch, group and instance normalization loops (see
 * gnn-norm-kernels-private.h)
 *
 * Every pass runs plane by plane (planes split among the threads) and keeps
 * per-plane double sums; statistics and per-channel gradients combine them
 * serially in plane order. The backward needs two passes over the planes:
 * Σ g and Σ g·x per plane, then dx = a·g + b·x + c per plane.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-norm-kernels-private.h"
#include "tensor/gnn-parallel-private.h"

/* Per-plane coefficients of the passes: out = x · scale + shift (apply),
 * dx = g · a + x · b + c (backward). */
typedef struct
{
  const GnnNormGeom *g;
  const void *x, *gout;
  void *out;
  const double *mean;     /* the stats pass: per statistic, NULL for the first */
  double *sum, *sum2;     /* per plane */
  const double *ka, *kb, *kc, *kd;
} NormJob;

/* Per-plane sums run in LANES double accumulators (a chain of dependent
 * scalar adds ran at one element per add latency: the batch norms of a
 * DCGAN step spent ~50 ms in them), combined in a fixed order, so the
 * result still does not depend on the thread count. */
#define LANES 8

static inline double
lanes_sum (const double *lane)
{
  return ((lane[0] + lane[4]) + (lane[1] + lane[5])) + ((lane[2] + lane[6]) + (lane[3] + lane[7]));
}

/* sqrt (var[k] + eps) per statistic: the per-plane loops below look it up
 * instead of taking a square root per plane (the same bits; those loops
 * run on the calling thread, once per plane of 8192 at batch 16). */
static double *
stds_of (const GnnNormGeom *g,
         const double      *var,
         double             eps)
{
  gint64 stats = gnn_norm_n_stats (g);
  double *sd = g_new (double, MAX (stats, 1));

  for (gint64 k = 0; k < stats; k++)
    sd[k] = sqrt (var[k] + eps);
  return sd;
}

/* Runs the statement after it for every plane p = b · c + ch, k its
 * statistic, without a division per plane. */
#define FOR_EACH_PLANE(g, b, ch, p, k)                                                   \
  for (gint64 b = 0, p = 0; b < (g)->n; b++)                                             \
    for (gint64 ch = 0, k; ch < (g)->c && (k = gnn_norm_stat_of ((g), b, ch), TRUE); ch++, p++)

#define DEFINE_NORM_KERNELS(T, suffix)                                                   \
static void                                                                              \
sums_range_##suffix (gint64 p0, gint64 p1, gpointer data)                                \
{                                                                                        \
  const NormJob *j = data;                                                               \
  const GnnNormGeom *g = j->g;                                                           \
                                                                                         \
  for (gint64 p = p0; p < p1; p++)                                                       \
    {                                                                                    \
      const T *x = (const T *) j->x + p * g->s;                                          \
      gint64 s8 = g->s & ~(gint64) (LANES - 1);                                          \
      double lane[LANES] = { 0 }, acc;                                                   \
                                                                                         \
      if (j->mean == NULL)                                                               \
        {                                                                                \
          for (gint64 i = 0; i < s8; i += LANES)                                         \
            for (gint64 l = 0; l < LANES; l++)                                           \
              lane[l] += x[i + l];                                                       \
          acc = lanes_sum (lane);                                                        \
          for (gint64 i = s8; i < g->s; i++)                                             \
            acc += x[i];                                                                 \
        }                                                                                \
      else                                                                               \
        {                                                                                \
          double m = j->mean[gnn_norm_stat_of (g, p / g->c, p % g->c)];                  \
                                                                                         \
          for (gint64 i = 0; i < s8; i += LANES)                                         \
            for (gint64 l = 0; l < LANES; l++)                                           \
              lane[l] += (x[i + l] - m) * (x[i + l] - m);                                \
          acc = lanes_sum (lane);                                                        \
          for (gint64 i = s8; i < g->s; i++)                                             \
            acc += (x[i] - m) * (x[i] - m);                                              \
        }                                                                                \
      j->sum[p] = acc;                                                                   \
    }                                                                                    \
}                                                                                        \
                                                                                         \
void                                                                                     \
gnn_norm_stats_##suffix (const GnnNormGeom *g, const T *x, double *mean, double *var)    \
{                                                                                        \
  gint64 planes = g->n * g->c, stats = gnn_norm_n_stats (g);                             \
  double count = (double) gnn_norm_count (g);                                            \
  g_autofree double *sum = g_new (double, MAX (planes, 1));                              \
  NormJob job = { .g = g, .x = x, .sum = sum };                                          \
                                                                                         \
  for (gint64 k = 0; k < stats; k++)                                                     \
    mean[k] = var[k] = 0.0;                                                              \
  gnn_parallel_for (planes, gnn_parallel_grain (g->s), sums_range_##suffix, &job);      \
  FOR_EACH_PLANE (g, b, ch, p, k)                                                        \
    mean[k] += sum[p];                                                                   \
  for (gint64 k = 0; k < stats; k++)                                                     \
    mean[k] = count > 0 ? mean[k] / count : 0.0;                                         \
  job.mean = mean;                                                                       \
  gnn_parallel_for (planes, gnn_parallel_grain (g->s), sums_range_##suffix, &job);      \
  FOR_EACH_PLANE (g, b, ch, p, k)                                                        \
    var[k] += sum[p];                                                                    \
  for (gint64 k = 0; k < stats; k++)                                                     \
    var[k] = count > 0 ? var[k] / count : 0.0;                                           \
}                                                                                        \
                                                                                         \
/* out = (x − kd[p]) · ka[p] + kb[p] per plane (apply; centred first, so */             \
/* a group of equal values gives exactly 0), or gx = g · ka[p] + (x −    */              \
/* kd[p]) · kb[p] + kc[p] (backward, when gout is set).                   */             \
static void                                                                              \
affine_range_##suffix (gint64 p0, gint64 p1, gpointer data)                              \
{                                                                                        \
  const NormJob *j = data;                                                               \
  const GnnNormGeom *g = j->g;                                                           \
                                                                                         \
  for (gint64 p = p0; p < p1; p++)                                                       \
    {                                                                                    \
      const T *x = (const T *) j->x + p * g->s;                                          \
      T *o = (T *) j->out + p * g->s;                                                    \
      T a = (T) j->ka[p], b = (T) j->kb[p];                                              \
                                                                                         \
      if (j->gout == NULL)                                                               \
        {                                                                                \
          T m = (T) j->kd[p];                                                            \
                                                                                         \
          for (gint64 i = 0; i < g->s; i++)                                              \
            o[i] = (x[i] - m) * a + b;                                                   \
        }                                                                                \
      else                                                                               \
        {                                                                                \
          const T *go = (const T *) j->gout + p * g->s;                                  \
          T c = (T) j->kc[p], m = (T) j->kd[p];                                          \
                                                                                         \
          for (gint64 i = 0; i < g->s; i++)                                              \
            o[i] = go[i] * a + (x[i] - m) * b + c;                                       \
        }                                                                                \
    }                                                                                    \
}                                                                                        \
                                                                                         \
void                                                                                     \
gnn_norm_apply_##suffix (const GnnNormGeom *g, const T *x, const double *mean,           \
                         const double *var, double eps, const T *weight, const T *bias,  \
                         T *out)                                                         \
{                                                                                        \
  gint64 planes = g->n * g->c;                                                           \
  g_autofree double *scale = g_new (double, MAX (planes, 1));                            \
  g_autofree double *shift = g_new (double, MAX (planes, 1));                            \
  g_autofree double *centre = g_new (double, MAX (planes, 1));                           \
  g_autofree double *sd = stds_of (g, var, eps);                                         \
                                                                                         \
  FOR_EACH_PLANE (g, b, ch, p, k)                                                        \
    {                                                                                    \
      double rstd = 1.0 / sd[k];                                                         \
                                                                                         \
      scale[p] = rstd * (weight != NULL ? (double) weight[ch] : 1.0);                    \
      shift[p] = bias != NULL ? (double) bias[ch] : 0.0;                                 \
      centre[p] = mean[k];                                                               \
    }                                                                                    \
  gnn_parallel_for (planes, gnn_parallel_grain (g->s), affine_range_##suffix,            \
                    &(NormJob) { .g = g, .x = x, .out = out, .ka = scale, .kb = shift,   \
                                 .kd = centre });                                        \
}                                                                                        \
                                                                                         \
static void                                                                              \
grad_sums_range_##suffix (gint64 p0, gint64 p1, gpointer data)                           \
{                                                                                        \
  const NormJob *j = data;                                                               \
  const GnnNormGeom *g = j->g;                                                           \
                                                                                         \
  for (gint64 p = p0; p < p1; p++)                                                       \
    {                                                                                    \
      const T *x = (const T *) j->x + p * g->s, *go = (const T *) j->gout + p * g->s;    \
      gint64 s8 = g->s & ~(gint64) (LANES - 1);                                          \
      double la[LANES] = { 0 }, lb[LANES] = { 0 }, a, b;                                 \
                                                                                         \
      for (gint64 i = 0; i < s8; i += LANES)                                             \
        for (gint64 l = 0; l < LANES; l++)                                               \
          {                                                                              \
            la[l] += go[i + l];                                                          \
            lb[l] += (double) go[i + l] * x[i + l];                                      \
          }                                                                              \
      a = lanes_sum (la), b = lanes_sum (lb);                                            \
      for (gint64 i = s8; i < g->s; i++)                                                 \
        {                                                                                \
          a += go[i];                                                                    \
          b += (double) go[i] * x[i];                                                    \
        }                                                                                \
      j->sum[p] = a, j->sum2[p] = b;                                                     \
    }                                                                                    \
}                                                                                        \
                                                                                         \
void                                                                                     \
gnn_norm_backward_##suffix (const GnnNormGeom *g, const T *x, const T *gout,             \
                            const double *mean, const double *var, double eps,           \
                            const T *weight, gboolean batch_stats, T *gx, T *gw, T *gb)  \
{                                                                                        \
  gint64 planes = g->n * g->c, stats = gnn_norm_n_stats (g);                             \
  double count = (double) gnn_norm_count (g);                                            \
  g_autofree double *sg = g_new (double, MAX (planes, 1));      /* Σ g per plane   */    \
  g_autofree double *sgx = g_new (double, MAX (planes, 1));     /* Σ g x per plane */    \
  g_autofree double *gh = g_new0 (double, MAX (stats, 1));      /* Σ g w           */    \
  g_autofree double *ghx = g_new0 (double, MAX (stats, 1));     /* Σ g w (x − m)   */    \
  g_autofree double *ka = NULL, *kb = NULL, *kc = NULL, *kd = NULL;                      \
  g_autofree double *sd = stds_of (g, var, eps);                                         \
                                                                                         \
  gnn_parallel_for (planes, gnn_parallel_grain (2 * g->s), grad_sums_range_##suffix,     \
                    &(NormJob) { .g = g, .x = x, .gout = gout, .sum = sg, .sum2 = sgx }); \
  if (gw != NULL)                                                                        \
    for (gint64 ch = 0; ch < g->c; ch++)                                                 \
      gw[ch] = 0;                                                                        \
  if (gb != NULL)                                                                        \
    for (gint64 ch = 0; ch < g->c; ch++)                                                 \
      gb[ch] = 0;                                                                        \
  {                                                                                      \
    g_autofree double *dw = g_new0 (double, MAX (g->c, 1));                              \
    g_autofree double *db = g_new0 (double, MAX (g->c, 1));                              \
                                                                                         \
    FOR_EACH_PLANE (g, b, ch, p, k)                                                      \
      {                                                                                  \
        double w = weight != NULL ? (double) weight[ch] : 1.0;                           \
        double centered = sgx[p] - mean[k] * sg[p];    /* Σ g (x − m) */                 \
                                                                                         \
        dw[ch] += centered / sd[k];                                                      \
        db[ch] += sg[p];                                                                 \
        gh[k] += w * sg[p];                                                              \
        ghx[k] += w * centered;                                                          \
      }                                                                                  \
    for (gint64 ch = 0; ch < g->c; ch++)                                                 \
      {                                                                                  \
        if (gw != NULL)                                                                  \
          gw[ch] = (T) dw[ch];                                                           \
        if (gb != NULL)                                                                  \
          gb[ch] = (T) db[ch];                                                           \
      }                                                                                  \
  }                                                                                      \
  if (gx == NULL)                                                                        \
    return;                                                                              \
  ka = g_new (double, MAX (planes, 1));                                                  \
  kb = g_new (double, MAX (planes, 1));                                                  \
  kc = g_new (double, MAX (planes, 1));                                                  \
  kd = g_new (double, MAX (planes, 1));                                                  \
  FOR_EACH_PLANE (g, b, ch, p, k)                                                        \
    {                                                                                    \
      double rstd = 1.0 / sd[k];                                                         \
      double w = weight != NULL ? (double) weight[ch] : 1.0;                             \
                                                                                         \
      /* dx = rstd (g w − mean (g w) − x̂ mean (g w x̂)), x̂ = (x − m) rstd */             \
      ka[p] = rstd * w;                                                                  \
      kd[p] = mean[k];                                                                   \
      if (batch_stats && count > 0)                                                      \
        {                                                                                \
          kb[p] = -rstd * rstd * rstd * ghx[k] / count;                                  \
          kc[p] = -rstd * gh[k] / count;                                                 \
        }                                                                                \
      else                                                                               \
        kb[p] = kc[p] = 0.0;                                                             \
    }                                                                                    \
  gnn_parallel_for (planes, gnn_parallel_grain (3 * g->s), affine_range_##suffix,        \
                    &(NormJob) { .g = g, .x = x, .gout = gout, .out = gx, .ka = ka,      \
                                 .kb = kb, .kc = kc, .kd = kd });                        \
}

DEFINE_NORM_KERNELS (float, f32)
DEFINE_NORM_KERNELS (double, f64)
