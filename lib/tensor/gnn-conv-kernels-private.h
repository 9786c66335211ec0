/* gnn-conv-kernels-private.h: the loops of conv2d (forward and backward) and of the
 * dense max-pooling fast path, shared by lib/tensor and lib/autograd
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include <gnn/gnn.h>

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* One convolution: batch n, input [n, cin, d, h, w], weight [cout, cin_g,
 * kd, kh, kw], output [n, cout, od, oh, ow], cin = groups × cin_g, cout =
 * groups × cout_g. A 2-d convolution has d = kd = od = sd = dd = 1, pd = 0
 * (gnn_conv_geom_is_2d); a 1-d one also h = kh = oh = 1. The im2col
 * kernels take any of them; Winograd and direct only 2-d ones. */
typedef struct
{
  gint64 n, cin, h, w, cout, cin_g, kh, kw, oh, ow, groups, cout_g;
  gint64 sh, sw, ph, pw, dh, dw;
  gint64 d, kd, od, sd, pd, dd;
} GnnConvGeom;

/* Elements of one channel of an input image, taps of one filter channel,
 * output positions per channel. */
static inline gint64 gnn_conv_in_size  (const GnnConvGeom *g) { return g->d * g->h * g->w; }
static inline gint64 gnn_conv_taps     (const GnnConvGeom *g) { return g->kd * g->kh * g->kw; }
static inline gint64 gnn_conv_out_size (const GnnConvGeom *g) { return g->od * g->oh * g->ow; }

static inline gboolean
gnn_conv_geom_is_2d (const GnnConvGeom *g)
{
  return g->d == 1 && g->kd == 1 && g->od == 1;
}

/* Fills @g for a convolution with @nsp spatial dimensions whose input has
 * @in_shape (@in_ndim dims, batched or not), weight @w_shape and output
 * @out_shape (same batching), with per-dimension @stride, @padding and
 * @dilation. For @transposed it is the plain convolution from @out_shape
 * back to @in_shape, whose backward-data is the transposed forward. */
void     gnn_conv_geom_init      (GnnConvGeom       *g,
                                  guint              nsp,
                                  gboolean           transposed,
                                  const gint64      *in_shape,
                                  guint              in_ndim,
                                  const gint64      *w_shape,
                                  const gint64      *out_shape,
                                  const gint64      *stride,
                                  const gint64      *padding,
                                  const gint64      *dilation,
                                  gint64             groups);

/* out = conv (x, wt) + bias (@bias may be NULL); out is fully written.
 * FALSE with GNN_ERROR_MEMORY if the working buffers cannot be allocated
 * (@out then holds no result). */
gboolean gnn_conv_forward_f32  (const GnnConvGeom *g,
                                  const float       *x,
                                  const float       *wt,
                                  const float       *bias,
                                  float             *out,
                                  GError           **error);
gboolean gnn_conv_forward_f64  (const GnnConvGeom *g,
                                  const double      *x,
                                  const double      *wt,
                                  const double      *bias,
                                  double            *out,
                                  GError           **error);

/* Adds the gradients of conv2d for the output gradient @go into the zeroed
 * @gx (needs @wt), @gw (needs @x) and @gb; each of them may be NULL. FALSE
 * with GNN_ERROR_MEMORY as the forward. */
gboolean gnn_conv_backward_f32 (const GnnConvGeom *g,
                                  const float       *x,
                                  const float       *wt,
                                  const float       *go,
                                  float             *gx,
                                  float             *gw,
                                  float             *gb,
                                  GError           **error);
gboolean gnn_conv_backward_f64 (const GnnConvGeom *g,
                                  const double      *x,
                                  const double      *wt,
                                  const double      *go,
                                  double            *gx,
                                  double            *gw,
                                  double            *gb,
                                  GError           **error);

/* One image's channels [cin_g, d, h, w] unfolded into the rows of a [K,
 * ld] matrix (K = cin_g · taps, each row the L = od · oh · ow positions of
 * one tap, 0 in the padding), and its transpose, which adds each column
 * entry back to its pixel (@img is not zeroed first). */
void gnn_conv_im2col_f32 (const GnnConvGeom *g, const float *img, gint64 ld, float *cols);
void gnn_conv_im2col_f64 (const GnnConvGeom *g, const double *img, gint64 ld, double *cols);
void gnn_conv_col2im_f32 (const GnnConvGeom *g, const float *cols, gint64 ld, float *img);
void gnn_conv_col2im_f64 (const GnnConvGeom *g, const double *cols, gint64 ld, double *img);

/* The kernels below return FALSE, their results unfinished, when a working
 * buffer cannot be allocated. The buffers are sized by the tensors (one
 * image's im2col columns are kh · kw times the image), so a large input
 * must fail with an error, not abort. */

/* @a · @b elements of @size bytes (zeroed if @zeroed), at least one
 * element, from gnn_scratch_try_alloc (large buffers are reused across
 * calls: no page faults at every step); NULL if the product overflows or
 * the memory is not there. Free with gnn_conv_free(). */
static inline gpointer
gnn_conv_try_alloc (gint64   a,
                    gint64   b,
                    gsize    size,
                    gboolean zeroed)
{
  guint64 n, bytes;

  if (a < 0 || b < 0 || __builtin_mul_overflow ((guint64) a, (guint64) b, &n) ||
      __builtin_mul_overflow (MAX (n, 1), (guint64) size, &bytes) || bytes > G_MAXSIZE)
    return NULL;
  return gnn_scratch_try_alloc ((gsize) bytes, zeroed);
}

static inline void
gnn_conv_free (gpointer buffer)
{
  gnn_scratch_free (buffer);
}

/* How a float32 conv2d is computed: directly for one input channel and at
 * most 9 taps (gnn_conv2d_direct_fits), Winograd (F(4×4, 3×3) for groups of
 * 8 images, F(2×2, 3×3) for the rest of a batch) for 3×3,
 * stride-1, undilated, ungrouped convolutions with at least
 * GNN_WINOGRAD_MIN_CIN input channels and at most twice as many output channels
 * as input channels (with few input channels per output channel the GEMMs
 * are too short for the transforms to pay off) and output maps of at least
 * GNN_WINOGRAD_MIN_L positions (a 2×2 map, ResNet-18's layer4 at 64×64, uses a
 * quarter of each 4×4 tile while every weight is still transformed: the
 * training step at batch 16 took 0.34 s with it, 0.18 s without), and
 * batches of at least GNN_WINOGRAD_MIN_N images (F(2×2, 3×3) alone lost to
 * im2col on every layer of a batch-1 ResNet-18: 88.6 ms against 52.8 ms),
 * im2col + GEMM otherwise
 * (measured: bench/README.md, CNN section).
 * GNN_CONV_ALGO=im2col|winograd|direct|auto in the environment, read once,
 * forces one wherever it applies. float64 always takes im2col. A Winograd
 * result that is not all finite is computed again by im2col (an infinity or
 * NaN operand would otherwise spread through its tiles). */
#define GNN_WINOGRAD_MIN_CIN 4
#define GNN_WINOGRAD_MIN_L 16
#define GNN_WINOGRAD_MIN_N 8

typedef enum
{
  GNN_CONV_ALGO_AUTO,
  GNN_CONV_ALGO_IM2COL,
  GNN_CONV_ALGO_WINOGRAD,
  GNN_CONV_ALGO_DIRECT,
  GNN_CONV_ALGO_WINOGRAD_STRIPS,
} GnnConvAlgo;

GnnConvAlgo gnn_conv2d_algo_f32 (const GnnConvGeom *g);

/* The two algorithms behind gnn_conv_forward_f32() and _backward_f32(),
 * with the same contracts (tests compare them). */
gboolean gnn_conv_im2col_forward_f32  (const GnnConvGeom *g,
                                         const float       *x,
                                         const float       *wt,
                                         const float       *bias,
                                         float             *out);
gboolean gnn_conv_im2col_forward_f64  (const GnnConvGeom *g,
                                         const double      *x,
                                         const double      *wt,
                                         const double      *bias,
                                         double            *out);
gboolean gnn_conv_im2col_backward_f32 (const GnnConvGeom *g,
                                         const float       *x,
                                         const float       *wt,
                                         const float       *go,
                                         float             *gx,
                                         float             *gw,
                                         float             *gb);
gboolean gnn_conv_im2col_backward_f64 (const GnnConvGeom *g,
                                         const double      *x,
                                         const double      *wt,
                                         const double      *go,
                                         double            *gx,
                                         double            *gw,
                                         double            *gb);

/* Whether @g is a convolution the Winograd kernels compute (3×3, stride 1,
 * dilation 1, one group, padding at most 2, nothing empty). */
gboolean gnn_conv2d_winograd_fits           (const GnnConvGeom *g);
gboolean gnn_conv2d_winograd_forward_f32    (const GnnConvGeom *g,
                                             const float       *x,
                                             const float       *wt,
                                             const float       *bias,
                                             float             *out);
/* Adds the input gradient to @gx, the weight gradient to @gw and the bias
 * gradient to @gb (any of them may be NULL). */
gboolean gnn_conv2d_winograd_backward_f32   (const GnnConvGeom *g,
                                             const float       *x,
                                             const float       *wt,
                                             const float       *go,
                                             float             *gx,
                                             float             *gw,
                                             float             *gb);

/* Winograd F(4×4, 3×3) over groups of GNN_WINOGRAD4_IMAGES images
 * (gnn-conv-winograd4.c): @g->n must be a multiple of it. The two
 * functions above run it for the first ⌊n / 8⌋ · 8 images of a batch and
 * F(2×2, 3×3) for the rest. */
#define GNN_WINOGRAD4_IMAGES 8
gboolean gnn_conv2d_winograd4_forward_f32   (const GnnConvGeom *g,
                                             const float       *x,
                                             const float       *wt,
                                             const float       *bias,
                                             float             *out);
gboolean gnn_conv2d_winograd4_backward_f32  (const GnnConvGeom *g,
                                             const float       *x,
                                             const float       *wt,
                                             const float       *go,
                                             float             *gx,
                                             float             *gw,
                                             float             *gb);

/* Fewer than GNN_WINOGRAD_MIN_N images (batch-1 inference): the forward as
 * F(4×4, 3×3) over eight horizontal strips of each image
 * (gnn-conv-winograd-strips.c), the default for maps of at least
 * GNN_WINOGRAD_STRIPS_MIN_OH rows: on smaller maps (ResNet-18's 14×14 and 7×7
 * at 224×224) a strip is less than a tile high and the weights' transform,
 * which every call repeats, outweighs the products saved (measured in
 * bench/README.md, ResNet-18). Gradients of such a convolution are
 * im2col's. */
#define GNN_WINOGRAD_STRIPS_MIN_OH 24
gboolean gnn_conv2d_winograd_strips_fits       (const GnnConvGeom *g);
gboolean gnn_conv2d_winograd_strips_forward_f32 (const GnnConvGeom *g,
                                                 const float       *x,
                                                 const float       *wt,
                                                 const float       *bias,
                                                 float             *out);

/* Whether @g has one input channel, no groups, stride and dilation 1 and at
 * most 9 taps: the convolutions gnn-conv-direct.c computes directly (the
 * first layer of an image model), which the default rule prefers. */
gboolean gnn_conv2d_direct_fits             (const GnnConvGeom *g);
gboolean gnn_conv2d_direct_forward_f32      (const GnnConvGeom *g,
                                             const float       *x,
                                             const float       *wt,
                                             const float       *bias,
                                             float             *out);
/* Adds the weight gradient to @gw and the bias gradient to @gb (either may
 * be NULL); the input gradient is im2col's. */
gboolean gnn_conv2d_direct_weight_grad_f32  (const GnnConvGeom *g,
                                             const float       *x,
                                             const float       *go,
                                             float             *gw,
                                             float             *gb);

/* Max pooling of float32 @planes planes [h, w] → [h / 2, w / 2] with 2×2
 * windows and stride 2 (gnn-max-pool-2x2.c), saving each window's winning
 * tap (0, 1 / 2, 3 in scan order) in @lane; and its backward, which writes
 * all of @gx: the gradient at each window's winner, +0 everywhere else. */
void     gnn_max_pool2d_2x2_f32          (gint64        planes,
                                          gint64        h,
                                          gint64        w,
                                          const float  *src,
                                          float        *dst,
                                          guint8       *lane);
void     gnn_max_pool2d_2x2_backward_f32 (gint64        planes,
                                          gint64        h,
                                          gint64        w,
                                          const guint8 *lane,
                                          const float  *grad,
                                          float        *gx);

/* Max pooling of float32 @planes planes [h, w] → [oh, ow] without indices,
 * any window (gnn-max-pool-rows.c): one output row at a time, each tap a
 * vector select over a padded, stride-phase-split copy of its input row,
 * which must fit GNN_MAX_POOL_ROW_FLOATS (gnn_max_pool2d_rows_fits). */
#define GNN_MAX_POOL_ROW_FLOATS 4096
gboolean gnn_max_pool2d_rows_fits (gint64 kw,
                                   gint64 sw,
                                   gint64 dw,
                                   gint64 ow);
void     gnn_max_pool2d_rows_f32  (gint64       planes,
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
                                   float       *dst);

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
