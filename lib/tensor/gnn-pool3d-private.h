/* gnn-pool3d-private.h: the geometry of 3-d pooling, shared by lib/tensor
 * (the forward) and lib/autograd (the backward)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

typedef struct
{
  gint64   planes;                 /* N · C */
  gint64   in[3], out[3];          /* (depth, height, width) */
  gint64   k[3], s[3], p[3], d[3]; /* kernel, stride, padding, dilation */
  gboolean count_include_pad;
  gint64   divisor_override;       /* 0: none */
} GnnPool3dGeom;

/* The geometry a recorded pool3d op saved: params.ints = kernel, stride,
 * padding, dilation (3 each), count_include_pad, divisor_override. */
void   gnn_pool3d_geom_from_params (GnnPool3dGeom *g,
                                    const gint64  *ints,
                                    const gint64  *in_shape,
                                    guint          in_ndim,
                                    const gint64  *out_shape);

/* An average window's divisor (torch's rules) and its part inside the
 * input, [lo, hi) per axis. */
gint64 gnn_pool3d_avg_divisor      (const GnnPool3dGeom *g,
                                    gint64               ot,
                                    gint64               oh,
                                    gint64               ow,
                                    gint64              *lo,
                                    gint64              *hi);

G_END_DECLS
