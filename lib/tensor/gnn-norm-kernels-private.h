/* gnn-norm-kernels-private.h: the loops of batch, group and instance
 * normalization (forward and backward), shared by lib/tensor and
 * lib/autograd
 *
 * The input is [n, c, s] (contiguous; s is the product of the spatial
 * dimensions), seen as n·c planes of s elements. Statistics are taken over
 * "stat groups" of planes: per channel across the batch (batch norm:
 * groups = 0, c statistics) or per sample over c / groups consecutive
 * channels (group norm; instance norm is groups = c: n·groups
 * statistics). The affine weight and bias are per channel.
 *
 * Sums run per plane in double, then per stat group in plane order, so the
 * results do not depend on the thread count.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64 n, c, s;
  gint64 groups;   /* 0: batch norm (per channel over the batch) */
} GnnNormGeom;

/* The number of statistics: c for batch norm, n · groups otherwise. */
static inline gint64
gnn_norm_n_stats (const GnnNormGeom *g)
{
  return g->groups == 0 ? g->c : g->n * g->groups;
}

/* The statistic of plane (b, ch). */
static inline gint64
gnn_norm_stat_of (const GnnNormGeom *g,
                  gint64             b,
                  gint64             ch)
{
  return g->groups == 0 ? ch : b * g->groups + ch / (g->c / g->groups);
}

/* Elements per statistic. */
static inline gint64
gnn_norm_count (const GnnNormGeom *g)
{
  return g->groups == 0 ? g->n * g->s : (g->c / g->groups) * g->s;
}

/* mean[k] and the biased variance var[k] of each statistic (two passes:
 * the mean, then the squared deviations). */
void gnn_norm_stats_f32    (const GnnNormGeom *g,
                            const float       *x,
                            double            *mean,
                            double            *var);
void gnn_norm_stats_f64    (const GnnNormGeom *g,
                            const double      *x,
                            double            *mean,
                            double            *var);

/* out = (x − mean) · rstd · weight + bias, rstd = 1 / sqrt (var + eps);
 * @weight and @bias (per channel) may be NULL (1 and 0). */
void gnn_norm_apply_f32    (const GnnNormGeom *g,
                            const float       *x,
                            const double      *mean,
                            const double      *var,
                            double             eps,
                            const float       *weight,
                            const float       *bias,
                            float             *out);
void gnn_norm_apply_f64    (const GnnNormGeom *g,
                            const double      *x,
                            const double      *mean,
                            const double      *var,
                            double             eps,
                            const double      *weight,
                            const double      *bias,
                            double            *out);

/* The gradients for the output gradient @gout: @gx (when not NULL) for
 * statistics taken from the input (@batch_stats) or held fixed, and the
 * per-channel @gw and @gb (when not NULL, written). */
void gnn_norm_backward_f32 (const GnnNormGeom *g,
                            const float       *x,
                            const float       *gout,
                            const double      *mean,
                            const double      *var,
                            double             eps,
                            const float       *weight,
                            gboolean           batch_stats,
                            float             *gx,
                            float             *gw,
                            float             *gb);
void gnn_norm_backward_f64 (const GnnNormGeom *g,
                            const double      *x,
                            const double      *gout,
                            const double      *mean,
                            const double      *var,
                            double             eps,
                            const double      *weight,
                            gboolean           batch_stats,
                            double            *gx,
                            double            *gw,
                            double            *gb);

G_END_DECLS
