/* gnn-vision-resize.c: resampling — PIL's on images (its fixed-point
 * two-pass filters, its nearest-neighbour scaling), torch's interpolate on
 * tensors (bilinear with align_corners=False, nearest, and the antialiased
 * bilinear of torchvision's antialias=True)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-cpu-private.h"
#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

/* --- PIL (Pillow 9's Resample.c) -------------------------------------------------- */

#define PRECISION_BITS (32 - 8 - 2)

static double
triangle (double x)
{
  if (x < 0.0)
    x = -x;
  return x < 1.0 ? 1.0 - x : 0.0;
}

/* For each output position: the first input position and the count
 * (bounds), and ksize normalized weights (kk): PIL's precompute_coeffs for
 * the box [in0, in1) of an axis of in_size (its bilinear filter, support 1,
 * widened by the scale when reducing). */
typedef struct
{
  gint64  ksize;
  gint64 *bounds;
  double *kk;
} Coeffs;

static void
coeffs_clear (Coeffs *c)
{
  g_clear_pointer (&c->bounds, g_free);
  g_clear_pointer (&c->kk, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Coeffs, coeffs_clear)

static gboolean
pil_coeffs (gint64   in_size,
            double   in0,
            double   in1,
            gint64   out_size,
            Coeffs  *co,
            GError **error)
{
  double scale, filterscale, support;

  filterscale = scale = (in1 - in0) / (double) out_size;
  if (filterscale < 1.0)
    filterscale = 1.0;
  support = 1.0 * filterscale;
  co->ksize = (gint64) ceil (support) * 2 + 1;
  co->bounds = gnn_vision_alloc (out_size * 2, sizeof (gint64), error);
  co->kk = co->bounds != NULL ? gnn_vision_alloc (out_size * co->ksize, sizeof (double), error)
                              : NULL;
  if (co->kk == NULL)
    return FALSE;
  for (gint64 xx = 0; xx < out_size; xx++)
    {
      double center = in0 + (xx + 0.5) * scale, ww = 0.0, ss = 1.0 / filterscale;
      gint64 xmin = (gint64) (int) (center - support + 0.5);
      gint64 xmax = (gint64) (int) (center + support + 0.5);
      double *k = co->kk + xx * co->ksize;

      if (xmin < 0)
        xmin = 0;
      if (xmax > in_size)
        xmax = in_size;
      xmax -= xmin;
      for (gint64 x = 0; x < xmax; x++)
        {
          double w = triangle ((x + xmin - center + 0.5) * ss);

          k[x] = w;
          ww += w;
        }
      for (gint64 x = 0; x < xmax; x++)
        if (ww != 0.0)
          k[x] /= ww;
      co->bounds[xx * 2] = xmin;
      co->bounds[xx * 2 + 1] = xmax;
    }
  return TRUE;
}

/* normalize_coeffs_8bpc: the weights in fixed point */
static gint32 *
fixed_coeffs (const Coeffs  *co,
              gint64         out_size,
              GError       **error)
{
  gint32 *kk = gnn_vision_alloc (out_size * co->ksize, sizeof (gint32), error);

  for (gint64 i = 0; kk != NULL && i < out_size * co->ksize; i++)
    kk[i] = co->kk[i] < 0 ? (gint32) (-0.5 + co->kk[i] * (1 << PRECISION_BITS))
                          : (gint32) (0.5 + co->kk[i] * (1 << PRECISION_BITS));
  return kk;
}

/* PIL's clip8 (≥ 2^30: 255, ≤ 0: 0, else v >> 22), written as a clamp
 * of the shifted value so that loops of it vectorize (same results). */
static inline guint8
clip8 (gint32 v)
{
  gint32 s = v >> PRECISION_BITS;

  return (guint8) (s < 0 ? 0 : s > 255 ? 255 : s);
}

/* PIL's horizontal pass laid out for whole-row vector loops. Every output
 * column reads the same number of taps (the widest window), its window
 * moved inside the input and its weights shifted and padded with zeros
 * (a zero weight adds nothing: the integer sums, and so the results, are
 * PIL's); for each tap, the pixels of all output columns are copied into
 * one contiguous row (taps[t], cols × c values) and weighted by a row of
 * the column weights repeated per channel (w[t]), so the multiply-adds run
 * over whole rows as the vertical pass's do. */
typedef struct
{
  gint64  taps;     /* the widest window */
  gint64 *first;    /* per output column, the offset of the first input column read */
  gint32 *w;        /* taps × (cols × c) weights */
  guint8 *copy;     /* taps × (cols × c) + 1: the pixels of a row, per tap */
  gint32 *acc;      /* cols × c sums */
} Horizontal;

static void
horizontal_clear (Horizontal *h)
{
  g_clear_pointer (&h->first, g_free);
  g_clear_pointer (&h->w, g_free);
  g_clear_pointer (&h->copy, g_free);
  g_clear_pointer (&h->acc, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Horizontal, horizontal_clear)

/* @reverse: the output columns in reverse order (a flip of the result,
 * exact: each output column is computed alone). */
static gboolean
horizontal_plan (const Coeffs  *co,
                 const gint32  *kk,
                 gint64         in_size,
                 gint64         s_col,
                 gint64         cols,
                 gint64         c,
                 gboolean       reverse,
                 Horizontal    *h,
                 GError       **error)
{
  gint64 n = cols * c;

  h->taps = 1;
  for (gint64 x = 0; x < cols; x++)
    h->taps = MAX (h->taps, co->bounds[x * 2 + 1]);
  h->first = gnn_vision_alloc (cols, sizeof (gint64), error);
  h->w = h->first != NULL ? gnn_vision_alloc (h->taps * n, sizeof (gint32), error) : NULL;
  h->copy = h->w != NULL ? gnn_vision_alloc (h->taps * n + 1, 1, error) : NULL;
  h->acc = h->copy != NULL ? gnn_vision_alloc (n, sizeof (gint32), error) : NULL;
  if (h->acc == NULL)
    return FALSE;
  for (gint64 x = 0; x < cols; x++)
    {
      gint64 from = reverse ? cols - 1 - x : x;
      gint64 xmin = co->bounds[from * 2], count = co->bounds[from * 2 + 1];
      gint64 first = MIN (xmin, in_size - h->taps), shift = xmin - first;

      h->first[x] = first * s_col;
      for (gint64 t = 0; t < count; t++)
        for (gint64 ch = 0; ch < c; ch++)
          h->w[(t + shift) * n + x * c + ch] = kk[from * co->ksize + t];
    }
  return TRUE;
}

/* PIL's horizontal 8-bit pass: dst is (rows × cols × c) contiguous, src
 * strided (an image's channels interleaved, s_c == 1, or any layout). */
static inline __attribute__ ((always_inline)) void
pil_horizontal_typed (const guint8 *src, gint64 s_row, gint64 s_col, gint64 s_c,
                      guint8 *dst, gint64 rows, gint64 cols, gint64 c,
                      const Horizontal *h)
{
  gint64 n = cols * c, taps = h->taps;
  guint8 *restrict copy = h->copy;
  gint32 *restrict acc = h->acc;
  const gint32 *restrict w = h->w;

  for (gint64 r = 0; r < rows; r++)
    {
      const guint8 *row = src + r * s_row;
      guint8 *restrict out = dst + r * n;

      for (gint64 t = 0; t < taps; t++)
        {
          guint8 *to = copy + t * n;
          const guint8 *from = row + t * s_col;

          /* fixed sizes: moves, not calls; a pixel of three as four
           * bytes (one move), the fourth overwritten by the next (the
           * last in the padding or the next tap's first) and read inside
           * the rows read while this is not the last */
          if (c == 3 && s_c == 1 && r + 1 < rows)
            for (gint64 x = 0; x < cols; x++)
              memcpy (to + x * 3, from + h->first[x], 4);
          else if (c == 3 && s_c == 1)
            for (gint64 x = 0; x < cols; x++)
              memcpy (to + x * 3, from + h->first[x], 3);
          else if (c == 4 && s_c == 1)
            for (gint64 x = 0; x < cols; x++)
              memcpy (to + x * 4, from + h->first[x], 4);
          else
            for (gint64 x = 0; x < cols; x++)
              for (gint64 ch = 0; ch < c; ch++)
                to[x * c + ch] = from[h->first[x] + ch * s_c];
        }
      for (gint64 j = 0; j < n; j++)
        acc[j] = 1 << (PRECISION_BITS - 1);
      for (gint64 t = 0; t < taps; t++)
        {
          const guint8 *restrict px = copy + t * n;
          const gint32 *restrict wt = w + t * n;

          for (gint64 j = 0; j < n; j++)
            acc[j] += px[j] * wt[j];
        }
      for (gint64 j = 0; j < n; j++)
        out[j] = clip8 (acc[j]);
    }
}

/* PIL's vertical 8-bit pass, a whole output row at a time (the sums of a
 * row vectorize when its values are contiguous); @acc holds cols × c. */
static inline __attribute__ ((always_inline)) void
pil_vertical_typed (const guint8 *src, gint64 s_row, gint64 s_col, gint64 s_c,
                    guint8 *dst, gint64 rows, gint64 cols, gint64 c,
                    const Coeffs *co, const gint32 *kk, gint32 *acc)
{
  gint64 n = cols * c;
  gboolean packed = s_c == 1 && s_col == c;

  for (gint64 y = 0; y < rows; y++)
    {
      gint64 ymin = co->bounds[y * 2], ymax = co->bounds[y * 2 + 1];
      const gint32 *k = kk + y * co->ksize;
      guint8 *out = dst + y * n;

      for (gint64 j = 0; j < n; j++)
        acc[j] = 1 << (PRECISION_BITS - 1);
      for (gint64 i = 0; i < ymax; i++)
        {
          const guint8 *row = src + (ymin + i) * s_row;
          gint32 w = k[i];

          if (packed)
            for (gint64 j = 0; j < n; j++)
              acc[j] += row[j] * w;
          else
            for (gint64 x = 0; x < cols; x++)
              for (gint64 ch = 0; ch < c; ch++)
                acc[x * c + ch] += row[x * s_col + ch * s_c] * w;
        }
      for (gint64 j = 0; j < n; j++)
        out[j] = clip8 (acc[j]);
    }
}

/* both passes compiled per CPU level (AVX2's 32-bit multiplies) */
GNN_DISPATCH_KERNEL (pil_horizontal,
                 (const guint8 *src, gint64 s_row, gint64 s_col, gint64 s_c, guint8 *dst,
                  gint64 rows, gint64 cols, gint64 c, const Horizontal *h),
                 (src, s_row, s_col, s_c, dst, rows, cols, c, h))
GNN_DISPATCH_KERNEL (pil_vertical,
                 (const guint8 *src, gint64 s_row, gint64 s_col, gint64 s_c, guint8 *dst,
                  gint64 rows, gint64 cols, gint64 c, const Coeffs *co, const gint32 *kk,
                  gint32 *acc),
                 (src, s_row, s_col, s_c, dst, rows, cols, c, co, kk, acc))

/* Image.resize(size, BILINEAR): horizontal then vertical, each only when
 * its size changes, through an 8-bit intermediate of the rows used. */
static GnnTensor *
pil_bilinear (GnnTensor  *img,
              gint64      out_h,
              gint64      out_w,
              GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (img);
  const guint8 *src = gnn_tensor_priv_data (p);
  gint64 h = p->shape[0], w = p->shape[1], c = p->shape[2];
  gint64 s_row = p->strides[0], s_col = p->strides[1], s_c = p->strides[2];
  gboolean need_h = out_w != w, need_v = out_h != h;
  g_auto(Coeffs) horiz = { 0 }, vert = { 0 };
  g_auto(Horizontal) plan = { 0 };
  g_autofree gint32 *kh = NULL, *kv = NULL, *acc = NULL;
  g_autoptr(GnnImage) temp = NULL, out = NULL;
  gint64 first = 0, last = h;

  if (!pil_coeffs (w, 0, (double) w, out_w, &horiz, error) ||
      !pil_coeffs (h, 0, (double) h, out_h, &vert, error))
    return NULL;
  if (need_v)
    {
      first = vert.bounds[0];
      last = vert.bounds[out_h * 2 - 2] + vert.bounds[out_h * 2 - 1];
    }
  if (need_h)
    {
      for (gint64 i = 0; need_v && i < out_h; i++)
        vert.bounds[i * 2] -= first;
      temp = gnn_image_new_uninitialized (last - first, out_w, c, FALSE, error);
      if (temp == NULL)
        return NULL;
      kh = fixed_coeffs (&horiz, out_w, error);
      if (kh == NULL || !horizontal_plan (&horiz, kh, w, s_col, out_w, c, FALSE, &plan, error))
        return NULL;
      pil_horizontal (src + first * s_row, s_row, s_col, s_c, gnn_image_data (temp),
                      last - first, out_w, c, &plan);
      if (!need_v)
        return GNN_TENSOR (g_steal_pointer (&temp));
      src = gnn_image_data (temp);
      s_row = out_w * c;
      s_col = c;
      s_c = 1;
    }
  out = gnn_image_new_uninitialized (out_h, out_w, c, FALSE, error);
  if (out == NULL)
    return NULL;
  kv = fixed_coeffs (&vert, out_h, error);
  acc = kv != NULL ? gnn_vision_alloc (out_w * c, sizeof (gint32), error) : NULL;
  if (acc == NULL)
    return NULL;
  pil_vertical (src, s_row, s_col, s_c, gnn_image_data (out), out_h, out_w, c, &vert, kv, acc);
  return GNN_TENSOR (g_steal_pointer (&out));
}

/* Image.resize(size, NEAREST): PIL's ImagingScaleAffine — positions
 * accumulated in double from the centre of the first pixel. */
static gint64 *
pil_nearest_map (gint64   in_size,
                 gint64   out_size,
                 GError **error)
{
  gint64 *map = gnn_vision_alloc (out_size, sizeof (gint64), error);
  double a = (double) in_size / (double) out_size, o = a * 0.5;

  for (gint64 i = 0; map != NULL && i < out_size; i++, o += a)
    {
      gint64 v = o < 0.0 ? -1 : (gint64) (int) o;

      map[i] = v >= 0 && v < in_size ? v : -1;
    }
  return map;
}

/* --- torch (interpolate, 1.13's CPU kernels) ----------------------------------------- */

/* nearest_idx: floor(i * (in / out)) in float32 */
static gint64 *
torch_nearest_map (gint64   in_size,
                   gint64   out_size,
                   GError **error)
{
  gint64 *map = gnn_vision_alloc (out_size, sizeof (gint64), error);
  float scale = (float) in_size / (float) out_size;

  for (gint64 i = 0; map != NULL && i < out_size; i++)
    {
      if (out_size == in_size)
        map[i] = i;
      else if (out_size == 2 * in_size)
        map[i] = i >> 1;
      else
        map[i] = MIN ((gint64) floorf ((float) i * scale), in_size - 1);
    }
  return map;
}

/* compute_source_index_and_lambda (align_corners=False): the two
 * neighbours and their weights. Torch 1.13 computes the source position
 * from the float32 scale in double and stores the weights in the tensor's
 * type. */
typedef struct
{
  gint64 i0, i1;
  double w0, w1;   /* float32 values for float32 inputs */
} Linear;

static Linear *
torch_linear_weights (gint64    in_size,
                      gint64    out_size,
                      gboolean  f32,
                      GError  **error)
{
  Linear *lin = gnn_vision_alloc (out_size, sizeof (Linear), error);
  double scale = f32 ? (double) ((float) in_size / (float) out_size)
                     : (double) in_size / (double) out_size;

  for (gint64 i = 0; lin != NULL && i < out_size; i++)
    {
      Linear *l = &lin[i];
      double real, l1;

      if (out_size == in_size)
        {
          l->i0 = l->i1 = i;
          l->w0 = 1.0;
          l->w1 = 0.0;
          continue;
        }
      real = MAX (scale * ((double) i + 0.5) - 0.5, 0.0);
      l->i0 = (gint64) real;
      l->i1 = l->i0 + (l->i0 < in_size - 1 ? 1 : 0);
      l1 = MIN (MAX (real - (double) l->i0, 0.0), 1.0);
      l->w1 = f32 ? (double) (float) l1 : l1;
      l->w0 = f32 ? (double) (1.0f - (float) l->w1) : 1.0 - l1;
    }
  return lin;
}

/* One output value from the four neighbours, as torch's kernels round it
 * (checked bit for bit against 1.13's, float32):
 *  - one channel (the tensor is then channels-last contiguous too, and
 *    torch takes that kernel): the sum of the values times the products of
 *    the weights, rounded once;
 *  - several channels (the generic kernel, compiled with fused
 *    multiply-adds): fma (v00, w0, v01 w1) per row, then the same across
 *    the rows. */
static inline double
bilinear_value (double v00, double v01, double v10, double v11,
                const Linear *wy, const Linear *wx, gboolean one_channel, gboolean f32)
{
  if (f32)
    {
      float h0 = (float) wy->w0, h1 = (float) wy->w1, w0 = (float) wx->w0, w1 = (float) wx->w1;

      if (one_channel)
        return (float) (v00 * (float) (h0 * w0) + v01 * (float) (h0 * w1) +
                        v10 * (float) (h1 * w0) + v11 * (float) (h1 * w1));
      {
        float t0 = fmaf ((float) v00, w0, (float) v01 * w1);
        float t1 = fmaf ((float) v10, w0, (float) v11 * w1);

        return fmaf (t0, h0, t1 * h1);
      }
    }
  if (one_channel)
    return v00 * (wy->w0 * wx->w0) + v01 * (wy->w0 * wx->w1) + v10 * (wy->w1 * wx->w0) +
           v11 * (wy->w1 * wx->w1);
  return fma (fma (v00, wx->w0, v01 * wx->w1), wy->w0, fma (v10, wx->w0, v11 * wx->w1) * wy->w1);
}

static GnnTensor *
torch_bilinear (GnnTensor  *input,
                gint64      out_h,
                gint64      out_w,
                GError    **error)
{
  g_autoptr(GnnTensor) keep = NULL, keep_out = NULL, out = NULL;
  g_autofree Linear *ly = NULL, *lx = NULL;
  GnnPlanes src, dst;
  gboolean f64, one_channel;

  if (!gnn_planes_init (&src, input, &keep, "resize", error))
    return NULL;
  out = gnn_vision_new_like (input, src.c, out_h, out_w, src.dtype, FALSE, error);
  if (out == NULL || !gnn_planes_init (&dst, out, &keep_out, "resize", error))
    return NULL;
  f64 = src.dtype == GNN_DTYPE_F64;
  one_channel = src.c == 1 || (src.h == 1 && src.w == 1);
  ly = torch_linear_weights (src.h, out_h, !f64, error);
  lx = ly != NULL ? torch_linear_weights (src.w, out_w, !f64, error) : NULL;
  if (lx == NULL)
    return NULL;
  for (gint64 n = 0; n < src.n; n++)
    for (gint64 c = 0; c < src.c; c++)
      for (gint64 y = 0; y < out_h; y++)
        {
          const Linear *wy = &ly[y];
          const guint8 *r0 = src.data + (n * src.sn + c * src.sc + wy->i0 * src.sh) * src.elsize;
          const guint8 *r1 = src.data + (n * src.sn + c * src.sc + wy->i1 * src.sh) * src.elsize;
          guint8 *o = dst.data + (n * dst.sn + c * dst.sc + y * dst.sh) * dst.elsize;

          for (gint64 x = 0; x < out_w; x++)
            {
              const Linear *wx = &lx[x];
              gint64 a = wx->i0 * src.sw * src.elsize, b = wx->i1 * src.sw * src.elsize;
              double v = bilinear_value (gnn_planes_read (&src, r0 + a), gnn_planes_read (&src, r0 + b),
                                         gnn_planes_read (&src, r1 + a), gnn_planes_read (&src, r1 + b),
                                         wy, wx, one_channel, !f64);

              if (f64)
                ((double *) o)[x * dst.sw] = v;
              else if (src.dtype == GNN_DTYPE_F32)
                ((float *) o)[x * dst.sw] = (float) v;
              else   /* integers: computed as float32, rounded half to even */
                gnn_dtype_write (dst.dtype, o + x * dst.sw * dst.elsize, nearbyintf ((float) v));
            }
        }
  return g_steal_pointer (&out);
}

/* _upsample_bilinear2d_aa: PIL's filter in the tensor's float type, each
 * pass stored in float, integers rounded at the end. */
static float *
aa_weights (gint64    in_size,
            gint64    out_size,
            gint64   *ksize,
            gint64  **bounds,
            GError  **error)
{
  float scale = (float) in_size / (float) out_size;
  float support = scale >= 1.0f ? 1.0f * scale : 1.0f;
  float invscale = scale >= 1.0f ? 1.0f / scale : 1.0f;
  float *w;

  *ksize = (gint64) ceilf (support) * 2 + 1;
  *bounds = gnn_vision_alloc (out_size * 2, sizeof (gint64), error);
  w = *bounds != NULL ? gnn_vision_alloc (out_size * *ksize, sizeof (float), error) : NULL;
  for (gint64 i = 0; w != NULL && i < out_size; i++)
    {
      float center = scale * ((float) i + 0.5f), total = 0.0f;
      gint64 xmin = MAX ((gint64) (center - support + 0.5f), 0);
      gint64 xsize = MIN ((gint64) (center + support + 0.5f), in_size) - xmin;

      for (gint64 j = 0; j < xsize; j++)
        {
          float v = (float) triangle (((float) (j + xmin) - center + 0.5f) * invscale);

          w[i * *ksize + j] = v;
          total += v;
        }
      for (gint64 j = 0; j < xsize && total != 0.0f; j++)
        w[i * *ksize + j] /= total;
      (*bounds)[i * 2] = xmin;
      (*bounds)[i * 2 + 1] = xsize;
    }
  return w;
}

static GnnTensor *
torch_bilinear_aa (GnnTensor  *input,
                   gint64      out_h,
                   gint64      out_w,
                   GError    **error)
{
  g_autoptr(GnnTensor) keep = NULL, keep_out = NULL, out = NULL;
  g_autofree gint64 *bx = NULL, *by = NULL;
  g_autofree float *wx = NULL, *wy = NULL, *tmp = NULL;
  GnnPlanes src, dst;
  gint64 kx, ky;

  if (!gnn_planes_init (&src, input, &keep, "resize", error))
    return NULL;
  out = gnn_vision_new_like (input, src.c, out_h, out_w, src.dtype, FALSE, error);
  if (out == NULL || !gnn_planes_init (&dst, out, &keep_out, "resize", error))
    return NULL;
  wx = aa_weights (src.w, out_w, &kx, &bx, error);
  wy = wx != NULL ? aa_weights (src.h, out_h, &ky, &by, error) : NULL;
  tmp = wy != NULL ? gnn_vision_alloc (src.h * out_w, sizeof (float), error) : NULL;
  if (tmp == NULL)
    return NULL;
  for (gint64 n = 0; n < src.n; n++)
    for (gint64 c = 0; c < src.c; c++)
      {
        const guint8 *plane = src.data + (n * src.sn + c * src.sc) * src.elsize;

        /* along the width first (the input's last dimension) */
        for (gint64 y = 0; y < src.h; y++)
          for (gint64 x = 0; x < out_w; x++)
            {
              const float *k = wx + x * kx;
              float acc = 0.0f;

              if (out_w == src.w)
                acc = (float) gnn_planes_read (&src, plane + (y * src.sh + x * src.sw) * src.elsize);
              else
                for (gint64 j = 0; j < bx[x * 2 + 1]; j++)
                  acc += (float) gnn_planes_read (&src, plane + (y * src.sh + (bx[x * 2] + j) * src.sw)
                                                               * src.elsize) * k[j];
              tmp[y * out_w + x] = acc;
            }
        for (gint64 y = 0; y < out_h; y++)
          for (gint64 x = 0; x < out_w; x++)
            {
              guint8 *o = dst.data + (n * dst.sn + c * dst.sc + y * dst.sh + x * dst.sw) * dst.elsize;
              const float *k = wy + y * ky;
              float acc = 0.0f;

              if (out_h == src.h)
                acc = tmp[y * out_w + x];
              else
                for (gint64 j = 0; j < by[y * 2 + 1]; j++)
                  acc += tmp[(by[y * 2] + j) * out_w + x] * k[j];
              if (dst.dtype == GNN_DTYPE_F32)
                *(float *) o = acc;
              else if (dst.dtype == GNN_DTYPE_F64)
                *(double *) o = acc;
              else
                gnn_dtype_write (dst.dtype, o, nearbyintf (acc));
            }
      }
  return g_steal_pointer (&out);
}

GnnTensor *
gnn_vision_resample (GnnTensor             *src,
                     gint64                 out_h,
                     gint64                 out_w,
                     GnnInterpolationMode   mode,
                     gboolean               antialias,
                     GError               **error)
{
  gint64 c, h, w;

  if (!gnn_vision_dimensions (src, &c, &h, &w, "resize", error))
    return NULL;
  if (out_h <= 0 || out_w <= 0 || h == 0 || w == 0 || out_h > G_MAXINT32 || out_w > G_MAXINT32 ||
      h > G_MAXINT32 || w > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "resize: cannot resize %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " to %"
                   G_GINT64_FORMAT "x%" G_GINT64_FORMAT, h, w, out_h, out_w);
      return NULL;
    }
  if (mode == GNN_INTERPOLATION_MODE_NEAREST)
    {
      gboolean pil = GNN_IS_IMAGE (src);
      g_autofree gint64 *ymap = pil ? pil_nearest_map (h, out_h, error)
                                    : torch_nearest_map (h, out_h, error);
      g_autofree gint64 *xmap = ymap == NULL ? NULL : pil ? pil_nearest_map (w, out_w, error)
                                                          : torch_nearest_map (w, out_w, error);

      if (xmap == NULL)
        return NULL;

      if (antialias && !pil)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "Antialias option is supported for bilinear and bicubic "
                               "interpolation modes only");
          return NULL;
        }
      return gnn_vision_gather (src, ymap, out_h, xmap, out_w, NULL, "resize", error);
    }
  if (mode != GNN_INTERPOLATION_MODE_BILINEAR)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "resize: interpolation mode %d is not supported", (int) mode);
      return NULL;
    }
  if (GNN_IS_IMAGE (src))
    return pil_bilinear (src, out_h, out_w, error);
  if (gnn_tensor_get_dtype (src) == GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "resize: bilinear interpolation of a bool tensor is not supported");
      return NULL;
    }
  return antialias ? torch_bilinear_aa (src, out_h, out_w, error)
                   : torch_bilinear (src, out_h, out_w, error);
}

/**
 * gnn_vision_resize:
 * @img: an image or a tensor image `[..., C, H, W]`
 * @size: (array length=n_size): [h, w], or one value: the size of the
 *   smaller edge (the other keeps the aspect ratio)
 * @n_size: 1 or 2
 * @interpolation: nearest or bilinear
 * @max_size: the largest the longer edge may become with one @size value
 *   (negative: no limit)
 * @antialias: for tensors, whether to filter as PIL does when reducing
 *   (torchvision's `antialias=True`); images are always antialiased, as
 *   PIL resizes them
 * @error: return location for a #GError
 *
 * torchvision's `F.resize(img, size, interpolation, max_size, antialias)`:
 * images resized as PIL's `Image.resize` (its bilinear filter in fixed
 * point, through an 8-bit intermediate), tensors as torch's `interpolate`
 * (align_corners=False; integer tensors computed in float32 and rounded).
 *
 * Returns: (transfer full): the resized image (@img itself when its size is
 *   already the size asked for), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_resize (GnnTensor             *img,
                   const gint64          *size,
                   gsize                  n_size,
                   GnnInterpolationMode   interpolation,
                   gint64                 max_size,
                   gboolean               antialias,
                   GError               **error)
{
  gint64 c, h, w, out_h, out_w;

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  g_return_val_if_fail (size != NULL || n_size == 0, NULL);
  GNN_CHECK_STORAGE ("resize", img, error, NULL);
  if (!gnn_vision_dimensions (img, &c, &h, &w, "resize", error) ||
      !gnn_vision_resized_size (h, w, size, n_size, max_size, &out_h, &out_w, error))
    return NULL;
  if (out_h == h && out_w == w)
    return g_object_ref (img);
  return gnn_vision_resample (img, out_h, out_w, interpolation, antialias, error);
}

/**
 * gnn_vision_resized_crop:
 * @img: an image or a tensor image
 * @top: the first row of the crop
 * @left: the first column of the crop
 * @height: the rows of the crop
 * @width: the columns of the crop
 * @size: (array length=n_size): the output size, [h, w] or one value for
 *   the smaller edge
 * @n_size: 1 or 2
 * @interpolation: nearest or bilinear
 * @antialias: see [func@Gnn.vision_resize]
 * @error: return location for a #GError
 *
 * torchvision's `F.resized_crop`: [func@Gnn.vision_crop] then
 * [func@Gnn.vision_resize].
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_resized_crop (GnnTensor             *img,
                         gint64                 top,
                         gint64                 left,
                         gint64                 height,
                         gint64                 width,
                         const gint64          *size,
                         gsize                  n_size,
                         GnnInterpolationMode   interpolation,
                         gboolean               antialias,
                         GError               **error)
{
  g_autoptr(GnnTensor) crop = gnn_vision_crop (img, top, left, height, width, error);

  if (crop == NULL)
    return NULL;
  return gnn_vision_resize (crop, size, n_size, interpolation, -1, antialias, error);
}
