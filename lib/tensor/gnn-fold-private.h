/* gnn-fold-private.h: the loops of im2col / col2im over a batch, shared by
 * lib/tensor and lib/autograd (each is the other's backward)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* The geometry of the blocks of an image [@channels, @h, @w] for the
 * settings @s (kernel, dilation, padding, stride; height then width each). */
void gnn_fold_geom_init (GnnConvGeom       *g,
                         gint64             channels,
                         gint64             h,
                         gint64             w,
                         const gint64      *s);

/* @images images to their columns (@to_columns) or columns back to images
 * (the images are zeroed first), contiguous float32 or float64. */
void gnn_fold_run       (const GnnConvGeom *g,
                         gint64             images,
                         GnnDType           dtype,
                         gboolean           to_columns,
                         const void        *src,
                         void              *dst);

G_END_DECLS
