/* gnn-conv-kernels-private.h: the loops of conv2d (forward and backward) and of the
 * dense max-pooling fast path, shared by lib/tensor and lib/autograd
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One conv2d call: batch n, input [n, cin, h, w], weight [cout, cin_g, kh,
 * kw], output [n, cout, oh, ow], cin = groups × cin_g, cout = groups × cout_g. */
typedef struct
{
  gint64 n, cin, h, w, cout, cin_g, kh, kw, oh, ow, groups, cout_g;
  gint64 sh, sw, ph, pw, dh, dw;
} GnnConvGeom;

/* out = conv2d (x, wt) + bias (@bias may be NULL); out is fully written. */
void     gnn_conv2d_forward_f32  (const GnnConvGeom *g,
                                  const float       *x,
                                  const float       *wt,
                                  const float       *bias,
                                  float             *out);
void     gnn_conv2d_forward_f64  (const GnnConvGeom *g,
                                  const double      *x,
                                  const double      *wt,
                                  const double      *bias,
                                  double            *out);

/* Adds the gradients of conv2d for the output gradient @go into the zeroed
 * @gx (needs @wt), @gw (needs @x) and @gb; each of them may be NULL. */
void     gnn_conv2d_backward_f32 (const GnnConvGeom *g,
                                  const float       *x,
                                  const float       *wt,
                                  const float       *go,
                                  float             *gx,
                                  float             *gw,
                                  float             *gb);
void     gnn_conv2d_backward_f64 (const GnnConvGeom *g,
                                  const double      *x,
                                  const double      *wt,
                                  const double      *go,
                                  double            *gx,
                                  double            *gw,
                                  double            *gb);

/* Max pooling of @planes planes [h, w] → [oh, ow] when every window lies
 * inside the input (no padding, dilation 1, floor windows); max_pool2d's
 * semantics (the last NaN of a window wins). */
void     gnn_max_pool2d_dense_f32 (gint64       planes,
                                   gint64       h,
                                   gint64       w,
                                   gint64       kh,
                                   gint64       kw,
                                   gint64       sh,
                                   gint64       sw,
                                   gint64       oh,
                                   gint64       ow,
                                   const float *src,
                                   float       *dst);
void     gnn_max_pool2d_dense_f64 (gint64        planes,
                                   gint64        h,
                                   gint64        w,
                                   gint64        kh,
                                   gint64        kw,
                                   gint64        sh,
                                   gint64        sw,
                                   gint64        oh,
                                   gint64        ow,
                                   const double *src,
                                   double       *dst);

G_END_DECLS
