/* gnn-conv-kernels.c: conv2d as im2col + one GEMM per chunk of the batch
 *
 * Per image, conv2d is a GEMM [cout_g, K] · [K, L] (K = cin_g·kh·kw taps,
 * L = oh·ow output positions), too thin for BLAS to run near its peak when L
 * is small (L = 196 for a 14×14 map). So the columns of a whole chunk of
 * images go side by side, [K, nb·L], and one GEMM covers the chunk: forward
 * out = W · cols, backward gW += gout · colsᵀ and gcols = Wᵀ · gout (the
 * forward of a wide map, L ≥ DIRECT_MIN_L, runs one GEMM per image straight
 * into the output, which it finds filled with the bias). Chunks
 * keep the column buffer near 8 MiB, below glibc's adaptive mmap threshold,
 * so the buffers are reused rather than page-faulted in at every call.
 *
 * gnn_conv_forward_f32() and _backward_f32() hand 3×3 stride-1
 * convolutions with enough channels to Winograd (gnn-conv-winograd.c), by the
 * rule of gnn_conv2d_algo_f32(); everything else, and float64, runs here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>
#include <cblas.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-parallel-private.h"

#define CHUNK_BYTES (8 << 20)
/* Output positions per image from which the forward runs one GEMM per
 * image straight into the output (wide enough for OpenBLAS), instead of
 * one per chunk into a buffer that is then copied back. */
#define DIRECT_MIN_L 256

/* Images per chunk for @per_image_elems column elements of size @es. */
static gint64
chunk_images (const GnnConvGeom *g,
              gint64             per_image_elems,
              gsize              es)
{
  gint64 per_image = MAX (per_image_elems, 1) * (gint64) es;

  return CLAMP ((gint64) CHUNK_BYTES / per_image, 1, MAX (g->n, 1));
}

/* The output columns [ox0, ox1) of tap column j whose input x lies inside. */
static inline void
tap_range (const GnnConvGeom *g,
           gint64             j,
           gint64            *x_off,
           gint64            *ox0,
           gint64            *ox1)
{
  *x_off = j * g->dw - g->pw;
  *ox0 = *x_off >= 0 ? 0 : (-*x_off + g->sw - 1) / g->sw;
  *ox1 = g->w - *x_off <= 0 ? 0 : (g->w - *x_off + g->sw - 1) / g->sw;
  *ox0 = MIN (*ox0, g->ow);
  *ox1 = CLAMP (*ox1, *ox0, g->ow);
}

/* Stride 2 in both directions, no dilation, 2-d: each tap's [oh, ow]
 * block of im2col is a block of one of the four stride phases of the
 * (padded) input channel, so the channel is split into its phases once
 * (PHASE_FLOATS at most) and every tap row becomes ow-wide copies, without
 * the per-tap range arithmetic and stride-2 gathers (the DCGAN's
 * discriminator spent 11 % of its training step in im2col). */
#define PHASE_FLOATS 4096

static inline gboolean
phase_split_fits (const GnnConvGeom *g)
{
  gint64 ph = g->oh + (g->kh - 1) / 2, pw = g->ow + (g->kw - 1) / 2;

  /* a 1×1 kernel reads one phase of four: its strided rows are cheaper */
  return gnn_conv_geom_is_2d (g) && g->sh == 2 && g->sw == 2 && g->dh == 1 && g->dw == 1 &&
         g->kh * g->kw > 1 && 4 * ph * pw <= PHASE_FLOATS;
}

#define DEFINE_CONV_KERNELS(T, suffix, GEMM, GEMM_BATCH, ONE, ZERO)                                   \
/* Unfolds one image's group [cin_g, d, h, w] into rows of length L of a  */             \
/* [K, ld] matrix: row (c, a, i, j) holds the voxel under tap (a, i, j) of */            \
/* channel c for each output position, 0 in the padding.                  */             \
static void                                                                              \
im2col_phases_##suffix (const GnnConvGeom *g, const T *img, gint64 ld, T *cols)          \
{                                                                                        \
  gint64 ph = g->oh + (g->kh - 1) / 2, pw = g->ow + (g->kw - 1) / 2;                     \
  T phase[PHASE_FLOATS];                                                                 \
                                                                                         \
  for (gint64 c = 0; c < g->cin_g; c++)                                                  \
    {                                                                                    \
      const T *plane = img + c * g->h * g->w;                                            \
                                                                                         \
      for (gint64 py = 0; py < 2; py++)                                                  \
        for (gint64 px = 0; px < 2; px++)                                                \
          for (gint64 r = 0; r < ph; r++)                                                \
            {                                                                            \
              gint64 y = 2 * r + py - g->ph;                                             \
              T *dst = phase + ((py * 2 + px) * ph + r) * pw;                            \
                                                                                         \
              for (gint64 q = 0; q < pw; q++)                                            \
                {                                                                        \
                  gint64 x = 2 * q + px - g->pw;                                         \
                                                                                         \
                  dst[q] = y >= 0 && y < g->h && x >= 0 && x < g->w ? plane[y * g->w + x] : ZERO; \
                }                                                                        \
            }                                                                            \
      for (gint64 i = 0; i < g->kh; i++)                                                 \
        for (gint64 j = 0; j < g->kw; j++)                                               \
          {                                                                              \
            T *row = cols + ((c * g->kh + i) * g->kw + j) * ld;                          \
            const T *src = phase + (((i & 1) * 2 + (j & 1)) * ph + (i >> 1)) * pw + (j >> 1); \
                                                                                         \
            /* rows of 4 to 16: constant-size copies, inlined, not a libc */          \
            /* call per row                                                */          \
            for (gint64 oy = 0; oy < g->oh; oy++)                                        \
              switch (g->ow)                                                             \
                {                                                                        \
                case 4: memcpy (row + oy * 4, src + oy * pw, 4 * sizeof (T)); break;     \
                case 8: memcpy (row + oy * 8, src + oy * pw, 8 * sizeof (T)); break;     \
                case 16: memcpy (row + oy * 16, src + oy * pw, 16 * sizeof (T)); break;  \
                default: memcpy (row + oy * g->ow, src + oy * pw, sizeof (T) * (gsize) g->ow); \
                }                                                                        \
          }                                                                              \
    }                                                                                    \
}                                                                                        \
                                                                                         \
static void                                                                              \
im2col_##suffix (const GnnConvGeom *g, const T *img, gint64 ld, T *cols)                 \
{                                                                                        \
  if (phase_split_fits (g))                                                              \
    {                                                                                    \
      im2col_phases_##suffix (g, img, ld, cols);                                         \
      return;                                                                            \
    }                                                                                    \
  for (gint64 c = 0; c < g->cin_g; c++)                                                  \
    for (gint64 a = 0; a < g->kd; a++)                                                   \
      for (gint64 i = 0; i < g->kh; i++)                                                 \
        for (gint64 j = 0; j < g->kw; j++)                                               \
          {                                                                              \
            T *row = cols + (((c * g->kd + a) * g->kh + i) * g->kw + j) * ld;            \
            const T *plane = img + c * gnn_conv_in_size (g);                              \
            gint64 x_off, ox0, ox1;                                                      \
                                                                                         \
            tap_range (g, j, &x_off, &ox0, &ox1);                                        \
            for (gint64 oz = 0; oz < g->od; oz++)                                        \
              for (gint64 oy = 0; oy < g->oh; oy++)                                      \
                {                                                                        \
                  gint64 z = oz * g->sd - g->pd + a * g->dd;                             \
                  gint64 y = oy * g->sh - g->ph + i * g->dh;                             \
                  T *dst = row + (oz * g->oh + oy) * g->ow;                              \
                  const T *line;                                                         \
                                                                                         \
                  if (z < 0 || z >= g->d || y < 0 || y >= g->h)                          \
                    {                                                                    \
                      memset (dst, 0, sizeof (T) * (gsize) g->ow);                       \
                      continue;                                                          \
                    }                                                                    \
                  line = plane + (z * g->h + y) * g->w + x_off;                          \
                  for (gint64 ox = 0; ox < ox0; ox++)                                    \
                    dst[ox] = 0;                                                         \
                  if (g->sw == 1)                                                        \
                    memcpy (dst + ox0, line + ox0, sizeof (T) * (gsize) (ox1 - ox0));    \
                  else                                                                   \
                    for (gint64 ox = ox0; ox < ox1; ox++)                                \
                      dst[ox] = line[ox * g->sw];                                        \
                  for (gint64 ox = ox1; ox < g->ow; ox++)                                \
                    dst[ox] = 0;                                                         \
                }                                                                        \
          }                                                                              \
}                                                                                        \
                                                                                         \
/* The transpose of im2col: adds each column entry back to its voxel. */                 \
static void                                                                              \
col2im_##suffix (const GnnConvGeom *g, const T *cols, gint64 ld, T *img)                 \
{                                                                                        \
  for (gint64 c = 0; c < g->cin_g; c++)                                                  \
    for (gint64 a = 0; a < g->kd; a++)                                                   \
      for (gint64 i = 0; i < g->kh; i++)                                                 \
        for (gint64 j = 0; j < g->kw; j++)                                               \
          {                                                                              \
            const T *row = cols + (((c * g->kd + a) * g->kh + i) * g->kw + j) * ld;      \
            T *plane = img + c * gnn_conv_in_size (g);                              \
            gint64 x_off, ox0, ox1;                                                      \
                                                                                         \
            tap_range (g, j, &x_off, &ox0, &ox1);                                        \
            for (gint64 oz = 0; oz < g->od; oz++)                                        \
              for (gint64 oy = 0; oy < g->oh; oy++)                                      \
                {                                                                        \
                  gint64 z = oz * g->sd - g->pd + a * g->dd;                             \
                  gint64 y = oy * g->sh - g->ph + i * g->dh;                             \
                  const T *src = row + (oz * g->oh + oy) * g->ow;                        \
                  T *line;                                                               \
                                                                                         \
                  if (z < 0 || z >= g->d || y < 0 || y >= g->h)                          \
                    continue;                                                            \
                  line = plane + (z * g->h + y) * g->w + x_off;                          \
                  if (g->sw == 1)                                                        \
                    for (gint64 ox = ox0; ox < ox1; ox++)                                \
                      line[ox] += src[ox];                                               \
                  else                                                                   \
                    for (gint64 ox = ox0; ox < ox1; ox++)                                \
                      line[ox * g->sw] += src[ox];                                       \
                }                                                                        \
          }                                                                              \
}                                                                                        \
                                                                                         \
/* The loops around the GEMMs, split among the threads (ranges of      */                \
/* images, or of output channels): one job type for all of them.       */                \
typedef struct                                                                           \
{                                                                                        \
  const GnnConvGeom *g;                                                                  \
  gint64 b0, grp, nb, ld, l;                                                             \
  const T *src;   /* x (im2col), res (to_output), go (to_got, bias)  */                  \
  T *dst;         /* cols (im2col), out, got, gb                     */                  \
  const T *bias;                                                                         \
  T *gx;          /* col2im: gcols in src; forward: out              */                  \
} ConvJob_##suffix;                                                                      \
                                                                                         \
/* The image loops run over (image, input channel) items, so that one   */              \
/* image (batch-1 inference) splits too: each channel's rows of cols and */              \
/* its plane of the image are its own. fn gets a geometry whose cin_g is */              \
/* the run of channels [c0, c1) of image b.                              */              \
static void                                                                              \
channel_runs_##suffix (const ConvJob_##suffix *j, gint64 t0, gint64 t1,                  \
                       void (*fn) (const ConvJob_##suffix *j, const GnnConvGeom *sub,    \
                                   gint64 b, gint64 c0))                                 \
{                                                                                        \
  gint64 cin_g = j->g->cin_g;                                                            \
                                                                                         \
  for (gint64 t = t0; t < t1;)                                                           \
    {                                                                                    \
      gint64 b = t / cin_g, c0 = t % cin_g, c1 = MIN (cin_g, c0 + (t1 - t));            \
      GnnConvGeom sub = *j->g;                                                           \
                                                                                         \
      sub.cin_g = c1 - c0;                                                               \
      fn (j, &sub, b, c0);                                                               \
      t += c1 - c0;                                                                      \
    }                                                                                    \
}                                                                                        \
                                                                                         \
static inline gint64                                                                     \
image_offset_##suffix (const ConvJob_##suffix *j, gint64 b, gint64 c0)                   \
{                                                                                        \
  const GnnConvGeom *g = j->g;                                                           \
                                                                                         \
  return ((j->b0 + b) * g->cin + j->grp * g->cin_g + c0) * gnn_conv_in_size (g);         \
}                                                                                        \
                                                                                         \
static void                                                                              \
im2col_run_##suffix (const ConvJob_##suffix *j, const GnnConvGeom *sub, gint64 b, gint64 c0) \
{                                                                                        \
  im2col_##suffix (sub, j->src + image_offset_##suffix (j, b, c0), j->ld,                \
                   j->dst + b * j->l + c0 * gnn_conv_taps (sub) * j->ld);                \
}                                                                                        \
                                                                                         \
static void                                                                              \
col2im_run_##suffix (const ConvJob_##suffix *j, const GnnConvGeom *sub, gint64 b, gint64 c0) \
{                                                                                        \
  col2im_##suffix (sub, j->src + b * j->l + c0 * gnn_conv_taps (sub) * j->ld, j->ld,     \
                   j->gx + image_offset_##suffix (j, b, c0));                            \
}                                                                                        \
                                                                                         \
static void                                                                              \
im2col_range_##suffix (gint64 t0, gint64 t1, gpointer data)                              \
{                                                                                        \
  channel_runs_##suffix (data, t0, t1, im2col_run_##suffix);                             \
}                                                                                        \
                                                                                         \
static void                                                                              \
col2im_range_##suffix (gint64 t0, gint64 t1, gpointer data)                              \
{                                                                                        \
  channel_runs_##suffix (data, t0, t1, col2im_run_##suffix);                             \
}                                                                                        \
                                                                                         \
/* The direct path's items: unfold each, and fill the output rows of     */              \
/* item (b, c)'s share of b's output channels, [c·cout_g/cin_g,          */              \
/* (c+1)·cout_g/cin_g), with the bias (or 0), which its GEMM then adds   */              \
/* to (beta = 1).                                                        */              \
static void                                                                              \
im2col_fill_range_##suffix (gint64 t0, gint64 t1, gpointer data)                         \
{                                                                                        \
  const ConvJob_##suffix *j = data;                                                      \
  const GnnConvGeom *g = j->g;                                                           \
                                                                                         \
  im2col_range_##suffix (t0, t1, data);                                                  \
  for (gint64 t = t0; t < t1; t++)                                                       \
    {                                                                                    \
      gint64 b = t / g->cin_g, c = t % g->cin_g;                                         \
                                                                                         \
      for (gint64 oc = c * g->cout_g / g->cin_g; oc < (c + 1) * g->cout_g / g->cin_g; oc++) \
        {                                                                                \
          T bv = j->bias != NULL ? j->bias[j->grp * g->cout_g + oc] : ZERO;              \
          T *row = j->gx + ((j->b0 + b) * g->cout + j->grp * g->cout_g + oc) * j->l;     \
                                                                                         \
          for (gint64 p = 0; p < j->l; p++)                                              \
            row[p] = bv;                                                                 \
        }                                                                                \
    }                                                                                    \
}                                                                                        \
                                                                                         \
/* res [cout_g, nbL] back to out [nb, cout, L], adding the bias.       */                \
static void                                                                              \
to_output_range_##suffix (gint64 oc0, gint64 oc1, gpointer data)                         \
{                                                                                        \
  const ConvJob_##suffix *j = data;                                                      \
  const GnnConvGeom *g = j->g;                                                           \
                                                                                         \
  for (gint64 oc = oc0; oc < oc1; oc++)                                                  \
    {                                                                                    \
      T bv = j->bias != NULL ? j->bias[j->grp * g->cout_g + oc] : ZERO;                  \
                                                                                         \
      for (gint64 t = 0; t < j->nb; t++)                                                 \
        {                                                                                \
          const T *src = j->src + oc * j->ld + t * j->l;                                 \
          T *dst = j->dst + ((j->b0 + t) * g->cout + j->grp * g->cout_g + oc) * j->l; \
                                                                                         \
          for (gint64 p = 0; p < j->l; p++)                                              \
            dst[p] = src[p] + bv;                                                        \
        }                                                                                \
    }                                                                                    \
}                                                                                        \
                                                                                         \
/* got [cout_g, nbL] = the group's output gradient side by side.      */                 \
static void                                                                              \
to_got_range_##suffix (gint64 oc0, gint64 oc1, gpointer data)                            \
{                                                                                        \
  const ConvJob_##suffix *j = data;                                                      \
  const GnnConvGeom *g = j->g;                                                           \
                                                                                         \
  for (gint64 oc = oc0; oc < oc1; oc++)                                                  \
    for (gint64 t = 0; t < j->nb; t++)                                                   \
      memcpy (j->dst + oc * j->ld + t * j->l,                                            \
              j->src + ((j->b0 + t) * g->cout + j->grp * g->cout_g + oc) * j->l, \
              sizeof (T) * (gsize) j->l);                                                \
}                                                                                        \
                                                                                         \
/* gb[oc] += Σ over images and positions: each image's plane summed in 8 */              \
/* lanes (one vector add per 8 elements, not a chain of scalar adds),   */               \
/* the lanes then in a fixed order, the images in order.                */               \
static void                                                                              \
bias_grad_range_##suffix (gint64 oc0, gint64 oc1, gpointer data)                         \
{                                                                                        \
  const ConvJob_##suffix *j = data;                                                      \
  const GnnConvGeom *g = j->g;                                                           \
  gint64 l = j->l, l8 = l & ~(gint64) 7;                                                 \
                                                                                         \
  for (gint64 oc = oc0; oc < oc1; oc++)                                                  \
    for (gint64 b = 0; b < g->n; b++)                                                    \
      {                                                                                  \
        const T *src = j->src + (b * g->cout + oc) * l;                                  \
        T lane[8] = { 0 }, acc;                                                          \
                                                                                         \
        for (gint64 p = 0; p < l8; p += 8)                                               \
          for (gint64 i = 0; i < 8; i++)                                                 \
            lane[i] += src[p + i];                                                       \
        acc = ((lane[0] + lane[4]) + (lane[1] + lane[5])) +                              \
              ((lane[2] + lane[6]) + (lane[3] + lane[7]));                               \
        for (gint64 p = l8; p < l; p++)                                                  \
          acc += src[p];                                                                 \
        j->dst[oc] += acc;                                                               \
      }                                                                                  \
}                                                                                        \
                                                                                         \
gboolean                                                                                 \
gnn_conv_im2col_forward_##suffix (const GnnConvGeom *g, const T *x, const T *wt,       \
                                    const T *bias, T *out)                               \
{                                                                                        \
  gint64 l = gnn_conv_out_size (g), k = g->cin_g * gnn_conv_taps (g);                  \
  gint64 chunk = chunk_images (g, k * l, sizeof (T));                                    \
  T *cols = gnn_conv_try_alloc (k * l, chunk, sizeof (T), FALSE);                        \
  T *res = l >= DIRECT_MIN_L && k > 0 ? NULL                                              \
           : gnn_conv_try_alloc (g->cout_g * l, chunk, sizeof (T), FALSE);               \
                                                                                         \
  if (cols == NULL || (res == NULL && !(l >= DIRECT_MIN_L && k > 0)))                    \
    {                                                                                    \
      gnn_conv_free (cols);                                                                     \
      gnn_conv_free (res);                                                                      \
      return FALSE;                                                                      \
    }                                                                                    \
  for (gint64 b0 = 0; b0 < g->n; b0 += chunk)                                            \
    {                                                                                    \
      gint64 nb = MIN (chunk, g->n - b0), ld = nb * l;                                   \
                                                                                         \
      for (gint64 grp = 0; grp < g->groups; grp++)                                       \
        {                                                                                \
          ConvJob_##suffix job = { g, b0, grp, nb, ld, l, x, cols, bias, out };           \
                                                                                         \
          if (l >= DIRECT_MIN_L && k > 0)                                                \
            {                                                                            \
              /* per image, out_t [cout_g, L] = bias + W_g · cols_t: no res buffer, */   \
              /* no beta = 0 pass of OpenBLAS's, no copy back                       */   \
              gnn_parallel_for (nb * g->cin_g, gnn_parallel_grain ((k + g->cout_g) * l / MAX (g->cin_g, 1)), \
                                im2col_fill_range_##suffix, &job);                       \
              GEMM_BATCH (nb, CblasNoTrans, CblasNoTrans, g->cout_g, l, k, ONE,          \
                          wt + grp * g->cout_g * k, 0, k, cols, l, ld, ONE,              \
                          out + (b0 * g->cout + grp * g->cout_g) * l, g->cout * l, l);   \
              continue;                                                                  \
            }                                                                            \
          gnn_parallel_for (nb * g->cin_g, gnn_parallel_grain (k * l / MAX (g->cin_g, 1)), im2col_range_##suffix, &job); \
          /* res [cout_g, nbL] = W_g [cout_g, K] · cols [K, nbL]; BLAS wants K > 0 */   \
          if (k == 0)                                                                    \
            memset (res, 0, sizeof (T) * (gsize) (g->cout_g * ld));                      \
          else                                                                           \
            GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans, g->cout_g, ld, k, ONE,      \
                  wt + grp * g->cout_g * k, k, cols, ld, ZERO, res, ld);                 \
          job.src = res, job.dst = out;                                                  \
          gnn_parallel_for (g->cout_g, gnn_parallel_grain (ld), to_output_range_##suffix, &job); \
        }                                                                                \
    }                                                                                    \
  gnn_conv_free (cols);                                                                         \
  gnn_conv_free (res);                                                                          \
  return TRUE;                                                                           \
}                                                                                        \
                                                                                         \
gboolean                                                                                 \
gnn_conv_im2col_backward_##suffix (const GnnConvGeom *g, const T *x, const T *wt,      \
                                     const T *go, T *gx, T *gw, T *gb)                   \
{                                                                                        \
  gint64 l = gnn_conv_out_size (g), k = g->cin_g * gnn_conv_taps (g);                  \
  gint64 chunk = chunk_images (g, k * l, sizeof (T));                                    \
  T *cols = gw != NULL ? gnn_conv_try_alloc (k * l, chunk, sizeof (T), FALSE) : NULL;    \
  T *gcols = gx != NULL ? gnn_conv_try_alloc (k * l, chunk, sizeof (T), FALSE) : NULL;   \
  T *got = gx != NULL || gw != NULL                                                      \
           ? gnn_conv_try_alloc (g->cout_g * l, chunk, sizeof (T), FALSE) : NULL;        \
  gboolean ok = (gw == NULL || cols != NULL) && (gx == NULL || gcols != NULL) &&         \
                ((gx == NULL && gw == NULL) || got != NULL);                             \
                                                                                         \
  if (!ok)                                                                               \
    goto done;                                                                           \
  if (gb != NULL)                                                                        \
    gnn_parallel_for (g->cout, gnn_parallel_grain (g->n * l), bias_grad_range_##suffix,  \
                      &(ConvJob_##suffix) { .g = g, .l = l, .src = go, .dst = gb });     \
  if ((gw == NULL && gx == NULL) || k == 0)                                              \
    goto done;                                                                           \
  for (gint64 b0 = 0; b0 < g->n; b0 += chunk)                                            \
    {                                                                                    \
      gint64 nb = MIN (chunk, g->n - b0), ld = nb * l;                                   \
                                                                                         \
      for (gint64 grp = 0; grp < g->groups; grp++)                                       \
        {                                                                                \
          ConvJob_##suffix job = { g, b0, grp, nb, ld, l, go, got, NULL, gx };           \
                                                                                         \
          /* got = grad of this group, [cout_g, nb * L] */                               \
          gnn_parallel_for (g->cout_g, gnn_parallel_grain (ld), to_got_range_##suffix, &job); \
          if (gw != NULL)                                                                \
            {                                                                            \
              job.src = x, job.dst = cols;                                               \
              gnn_parallel_for (nb * g->cin_g, gnn_parallel_grain (k * l / MAX (g->cin_g, 1)), im2col_range_##suffix, &job); \
              /* gw_g [cout_g, K] += got [cout_g, nbL] · colsᵀ [nbL, K] */              \
              GEMM (CblasRowMajor, CblasNoTrans, CblasTrans, g->cout_g, k, ld, ONE,      \
                    got, ld, cols, ld, ONE, gw + grp * g->cout_g * k, k);                \
            }                                                                            \
          if (gx != NULL)                                                                \
            {                                                                            \
              /* gcols [K, nbL] = w_gᵀ [K, cout_g] · got [cout_g, nbL] */               \
              GEMM (CblasRowMajor, CblasTrans, CblasNoTrans, k, ld, g->cout_g, ONE,      \
                    wt + grp * g->cout_g * k, k, got, ld, ZERO, gcols, ld);              \
              job.src = gcols;                                                           \
              gnn_parallel_for (nb * g->cin_g, gnn_parallel_grain (k * l / MAX (g->cin_g, 1)), col2im_range_##suffix, &job); \
            }                                                                            \
        }                                                                                \
    }                                                                                    \
done:                                                                                    \
  gnn_conv_free (cols);                                                                         \
  gnn_conv_free (gcols);                                                                        \
  gnn_conv_free (got);                                                                          \
  return ok;                                                                             \
}                                                                                        \
                                                                                         \
void                                                                                     \
gnn_max_pool2d_dense_##suffix (gint64 planes, gint64 h, gint64 w, gint64 kh, gint64 kw,  \
                               gint64 sh, gint64 sw, gint64 oh, gint64 ow,               \
                               const T *src, T *dst)                                     \
{                                                                                        \
  for (gint64 p = 0; p < planes; p++)                                                    \
    {                                                                                    \
      const T *plane = src + p * h * w;                                                  \
                                                                                         \
      for (gint64 oy = 0; oy < oh; oy++, dst += ow)                                      \
        {                                                                                \
          const T *r0 = plane + oy * sh * w;                                             \
                                                                                         \
          if (kh == 2 && kw == 2 && sw == 2)                                             \
            {                                                                            \
              const T *r1 = r0 + w;                                                      \
                                                                                         \
              /* taps in scan order (0,0) (0,1) (1,0) (1,1) */                           \
              for (gint64 ox = 0; ox < ow; ox++)                                         \
                {                                                                        \
                  T a = r0[2 * ox], b = r0[2 * ox + 1], c = r1[2 * ox], d = r1[2 * ox + 1]; \
                                                                                         \
                  a = b > a || isnan (b) ? b : a;                                        \
                  a = c > a || isnan (c) ? c : a;                                        \
                  dst[ox] = d > a || isnan (d) ? d : a;                                  \
                }                                                                        \
              continue;                                                                  \
            }                                                                            \
          for (gint64 ox = 0; ox < ow; ox++)                                             \
            {                                                                            \
              T best = r0[ox * sw];                                                      \
                                                                                         \
              for (gint64 i = 0; i < kh; i++)                                            \
                for (gint64 j = 0; j < kw; j++)                                          \
                  {                                                                      \
                    T v = r0[i * w + ox * sw + j];                                       \
                                                                                         \
                    best = v > best || isnan (v) ? v : best;                             \
                  }                                                                      \
              dst[ox] = best;                                                            \
            }                                                                            \
        }                                                                                \
    }                                                                                    \
}

/* cblas_?gemm's arguments, split among Gnn's threads */
#define PARALLEL_SGEMM(order, ...) gnn_parallel_gemm_f32 (__VA_ARGS__)
#define PARALLEL_DGEMM(order, ...) gnn_parallel_gemm_f64 (__VA_ARGS__)
DEFINE_CONV_KERNELS (float, f32, PARALLEL_SGEMM, gnn_parallel_gemm_batch_f32, 1.0f, 0.0f)
DEFINE_CONV_KERNELS (double, f64, PARALLEL_DGEMM, gnn_parallel_gemm_batch_f64, 1.0, 0.0)

/* For F.unfold / F.fold (gnn-tensor-fold.c): one image's columns. */
void
gnn_conv_im2col_f32 (const GnnConvGeom *g, const float *img, gint64 ld, float *cols)
{
  im2col_f32 (g, img, ld, cols);
}

void
gnn_conv_im2col_f64 (const GnnConvGeom *g, const double *img, gint64 ld, double *cols)
{
  im2col_f64 (g, img, ld, cols);
}

void
gnn_conv_col2im_f32 (const GnnConvGeom *g, const float *cols, gint64 ld, float *img)
{
  col2im_f32 (g, cols, ld, img);
}

void
gnn_conv_col2im_f64 (const GnnConvGeom *g, const double *cols, gint64 ld, double *img)
{
  col2im_f64 (g, cols, ld, img);
}

/* GNN_CONV_ALGO=im2col|winograd forces an algorithm wherever it applies (tests
 * and benchmarks compare them); read once per process. */
static GnnConvAlgo
forced_algo (void)
{
  static gint forced = -1;
  gint algo = g_atomic_int_get (&forced);
  const char *want;

  if (G_LIKELY (algo >= 0))
    return (GnnConvAlgo) algo;
  want = g_getenv ("GNN_CONV_ALGO");
  algo = GNN_CONV_ALGO_AUTO;
  if (g_strcmp0 (want, "im2col") == 0)
    algo = GNN_CONV_ALGO_IM2COL;
  else if (g_strcmp0 (want, "winograd") == 0)
    algo = GNN_CONV_ALGO_WINOGRAD;
  else if (g_strcmp0 (want, "direct") == 0)
    algo = GNN_CONV_ALGO_DIRECT;
  else if (want != NULL && g_strcmp0 (want, "auto") != 0)
    g_warning ("GNN_CONV_ALGO=%s is not one of auto, im2col, winograd, direct: ignored", want);
  g_atomic_int_set (&forced, algo);
  return (GnnConvAlgo) algo;
}

GnnConvAlgo
gnn_conv2d_algo_f32 (const GnnConvGeom *g)
{
  GnnConvAlgo forced = forced_algo ();
  gboolean winograd = gnn_conv2d_winograd_fits (g), direct = gnn_conv2d_direct_fits (g);

  if (forced != GNN_CONV_ALGO_AUTO)
    return (forced == GNN_CONV_ALGO_WINOGRAD && winograd) ||
           (forced == GNN_CONV_ALGO_DIRECT && direct) ? forced : GNN_CONV_ALGO_IM2COL;
  if (direct)
    return GNN_CONV_ALGO_DIRECT;
  if (!winograd || g->cin < GNN_WINOGRAD_MIN_CIN || g->cout > 2 * g->cin || g->oh * g->ow < GNN_WINOGRAD_MIN_L)
    return GNN_CONV_ALGO_IM2COL;
  if (g->n >= GNN_WINOGRAD_MIN_N)
    return GNN_CONV_ALGO_WINOGRAD;
  return g->oh >= GNN_WINOGRAD_STRIPS_MIN_OH && gnn_conv2d_winograd_strips_fits (g)
         ? GNN_CONV_ALGO_WINOGRAD_STRIPS : GNN_CONV_ALGO_IM2COL;
}

/* Whether none of @v's @n floats is an infinity or a NaN: the exponent
 * field plus one carries into the sign bit only when it is all ones. Integer
 * operations, so the loop vectorizes without reassociating floats. */
static gboolean
floats_all_finite (const float *v,
                   gint64       n)
{
  guint32 carry = 0;

  for (gint64 i = 0; i < n; i++)
    {
      guint32 bits;

      memcpy (&bits, &v[i], sizeof bits);
      carry |= (bits & 0x7f800000u) + 0x00800000u;
    }
  return (carry & 0x80000000u) == 0;
}

/* Winograd's transforms mix every value of a tile into every result of it:
 * an infinity or a NaN among the operands (or an overflow inside a
 * transform) makes NaNs where the direct sums, PyTorch's, give ±inf, or
 * spreads a NaN past its receptive field. So a Winograd result that is not
 * all finite is computed again by im2col. Finite operands never take this
 * path; the check is one read of the results. */
static gboolean
winograd_results_finite (const GnnConvGeom *g,
                         const float       *out,
                         const float       *gx,
                         const float       *gw)
{
  return (out == NULL || floats_all_finite (out, g->n * g->cout * g->oh * g->ow)) &&
         (gx == NULL || floats_all_finite (gx, g->n * g->cin * g->h * g->w)) &&
         (gw == NULL || floats_all_finite (gw, g->cout * g->cin_g * g->kh * g->kw));
}

/* The kernels' working buffers are sized by the tensors (im2col's columns
 * alone are kh · kw times an image): when they cannot be allocated the
 * convolution fails with an error instead of aborting. */
static gboolean
no_working_memory (const GnnConvGeom *g,
                   GError           **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
               "conv2d: out of memory for the working buffers of an input of [%" G_GINT64_FORMAT
               ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] and a weight "
               "of [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %"
               G_GINT64_FORMAT "]", g->n, g->cin, g->h, g->w, g->cout, g->cin_g, g->kh, g->kw);
  return FALSE;
}

gboolean
gnn_conv_forward_f32 (const GnnConvGeom *g,
                        const float       *x,
                        const float       *wt,
                        const float       *bias,
                        float             *out,
                        GError           **error)
{
  gboolean ok;

  switch (gnn_conv2d_algo_f32 (g))
    {
    case GNN_CONV_ALGO_WINOGRAD:
      ok = gnn_conv2d_winograd_forward_f32 (g, x, wt, bias, out);
      if (ok && !winograd_results_finite (g, out, NULL, NULL))
        ok = gnn_conv_im2col_forward_f32 (g, x, wt, bias, out);
      break;
    case GNN_CONV_ALGO_DIRECT:
      ok = gnn_conv2d_direct_forward_f32 (g, x, wt, bias, out);
      break;
    case GNN_CONV_ALGO_WINOGRAD_STRIPS:
      ok = gnn_conv2d_winograd_strips_forward_f32 (g, x, wt, bias, out);
      if (ok && !winograd_results_finite (g, out, NULL, NULL))
        ok = gnn_conv_im2col_forward_f32 (g, x, wt, bias, out);
      break;
    default:
      ok = gnn_conv_im2col_forward_f32 (g, x, wt, bias, out);
    }
  return ok || no_working_memory (g, error);
}

gboolean
gnn_conv_forward_f64 (const GnnConvGeom *g,
                        const double      *x,
                        const double      *wt,
                        const double      *bias,
                        double            *out,
                        GError           **error)
{
  return gnn_conv_im2col_forward_f64 (g, x, wt, bias, out) || no_working_memory (g, error);
}

gboolean
gnn_conv_backward_f32 (const GnnConvGeom *g,
                         const float       *x,
                         const float       *wt,
                         const float       *go,
                         float             *gx,
                         float             *gw,
                         float             *gb,
                         GError           **error)
{
  GnnConvAlgo algo = gnn_conv2d_algo_f32 (g);
  gboolean ok;

  if (algo == GNN_CONV_ALGO_DIRECT)
    ok = ((gw == NULL && gb == NULL) || gnn_conv2d_direct_weight_grad_f32 (g, x, go, gw, gb)) &&
         (gx == NULL || gnn_conv_im2col_backward_f32 (g, x, wt, go, gx, NULL, NULL));
  else if (algo != GNN_CONV_ALGO_WINOGRAD)
    ok = gnn_conv_im2col_backward_f32 (g, x, wt, go, gx, gw, gb);
  else
    {
      ok = gnn_conv2d_winograd_backward_f32 (g, x, wt, go, gx, gw, gb);
      if (ok && !winograd_results_finite (g, NULL, gx, gw))
        {
          /* the gradients come zeroed and the kernels add into them */
          if (gx != NULL)
            memset (gx, 0, (gsize) (g->n * g->cin * g->h * g->w) * sizeof (float));
          if (gw != NULL)
            memset (gw, 0, (gsize) (g->cout * g->cin_g * g->kh * g->kw) * sizeof (float));
          if (gb != NULL)
            memset (gb, 0, (gsize) g->cout * sizeof (float));
          ok = gnn_conv_im2col_backward_f32 (g, x, wt, go, gx, gw, gb);
        }
    }
  return ok || no_working_memory (g, error);
}

gboolean
gnn_conv_backward_f64 (const GnnConvGeom *g,
                         const double      *x,
                         const double      *wt,
                         const double      *go,
                         double            *gx,
                         double            *gw,
                         double            *gb,
                         GError           **error)
{
  return gnn_conv_im2col_backward_f64 (g, x, wt, go, gx, gw, gb) || no_working_memory (g, error);
}
