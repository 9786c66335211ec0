/* gnn-adaptive-pool-private.h: the backward loops of adaptive pooling,
 * shared by lib/tensor and lib/autograd
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* @planes planes of in[0] × in[1] × in[2] pooled to out[0] × out[1] ×
 * out[2] (unused leading dimensions have size 1). */
typedef struct
{
  gint64 planes;
  gint64 in[3], out[3];
} GnnAdaptiveGeom;

/* The geometry of a pooling of the last @k of @ndim dimensions. */
void gnn_adaptive_geom_init         (GnnAdaptiveGeom       *g,
                                     const gint64          *in_shape,
                                     const gint64          *out_shape,
                                     guint                  ndim,
                                     guint                  k);

/* gin (contiguous, fully written) from the output gradient @gout, float32
 * or float64 as @dtype: each window's mean share, or the whole gradient at
 * each window's maximum (@indices: the forward's). */
void gnn_adaptive_avg_pool_backward (const GnnAdaptiveGeom *g,
                                     GnnDType               dtype,
                                     const void            *gout,
                                     void                  *gin);
void gnn_adaptive_max_pool_backward (const GnnAdaptiveGeom *g,
                                     GnnDType               dtype,
                                     const gint64          *indices,
                                     const void            *gout,
                                     void                  *gin);

G_END_DECLS
