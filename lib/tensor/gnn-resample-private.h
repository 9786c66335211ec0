/* gnn-resample-private.h: interpolation as weighted taps per spatial
 * dimension (nearest, linear, cubic), forward and backward, shared by
 * lib/tensor and lib/autograd
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* An input [outer, in[0], in[1], in[2]] resampled to [outer, out[0],
 * out[1], out[2]] (unused leading dimensions have size 1 and one tap):
 * output position o of dimension d reads taps[d] input positions
 * index[d][o · taps + t] with weights weight[d][o · taps + t], and an
 * output is the sum over every combination of taps of the product of the
 * weights times the input there. */
typedef struct
{
  gint64  outer;
  gint64  in[3], out[3];
  guint   taps[3];
  gint64 *index[3];
  double *weight[3];
} GnnResample;

/* The taps of a resampling of the last @k (1 to 3) dimensions of @ndim
 * from @in_shape to @out_shape in @mode (a GnnInterpolateMode) with
 * @align_corners and the user's @scales per resampled dimension (<= 0:
 * none); free with gnn_resample_clear(). */
void gnn_resample_init     (GnnResample        *r,
                            GnnInterpolateMode  mode,
                            gboolean            align_corners,
                            const gint64       *in_shape,
                            const gint64       *out_shape,
                            guint               ndim,
                            guint               k,
                            const double       *scales);
void gnn_resample_clear    (GnnResample        *r);

/* out = the resampling of @in (both contiguous, fully written). */
void gnn_resample_f32      (const GnnResample  *r,
                            const float        *in,
                            float              *out);
void gnn_resample_f64      (const GnnResample  *r,
                            const double       *in,
                            double             *out);
/* gin = its transpose applied to @gout (gin fully written). */
void gnn_resample_back_f32 (const GnnResample  *r,
                            const float        *gout,
                            float              *gin);
void gnn_resample_back_f64 (const GnnResample  *r,
                            const double       *gout,
                            double             *gin);

G_END_DECLS
