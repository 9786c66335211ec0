/* gnn-vision-rotate.c: rotation — PIL's Image.rotate on images (its
 * matrix, its 16.16 fixed-point nearest neighbour, its bilinear filter),
 * torchvision's affine grid and torch's grid_sample on tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

/* Python's a % b for floats (the sign of b) */
static double
py_fmod (double a, double b)
{
  double r = fmod (a, b);

  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

/* Python's round(x, 15): correctly rounded through its decimal digits */
static double
round15 (double x)
{
  char buf[64];

  g_snprintf (buf, sizeof buf, "%.15f", x);
  return g_ascii_strtod (buf, NULL);
}

/* --- images ------------------------------------------------------------------------ */

/* PIL's 90° steps (Image.transpose): ROTATE_90 is counter-clockwise. */
static GnnTensor *
pil_transpose (GnnTensor  *img,
               int         quarter_turns,
               GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (img);
  gint64 h = p->shape[0], w = p->shape[1], c = p->shape[2];
  gint64 oh = quarter_turns == 2 ? h : w, ow = quarter_turns == 2 ? w : h;
  g_autoptr(GnnImage) out = gnn_image_new_uninitialized (oh, ow, c, FALSE, error);
  const guint8 *src = gnn_tensor_priv_data (p);
  guint8 *dst;

  if (out == NULL)
    return NULL;
  dst = gnn_image_data (out);
  for (gint64 y = 0; y < oh; y++)
    for (gint64 x = 0; x < ow; x++)
      {
        gint64 sy, sx;

        if (quarter_turns == 1)          /* ROTATE_90 */
          sy = x, sx = w - 1 - y;
        else if (quarter_turns == 2)     /* ROTATE_180 */
          sy = h - 1 - y, sx = w - 1 - x;
        else                             /* ROTATE_270 */
          sy = h - 1 - x, sx = y;
        for (gint64 ch = 0; ch < c; ch++)
          *dst++ = src[sy * p->strides[0] + sx * p->strides[1] + ch * p->strides[2]];
      }
  return GNN_TENSOR (g_steal_pointer (&out));
}

#define PIL_FLOOR(x) ((x) < 0.0 ? ((int) floor (x)) : ((int) (x)))
#define CHECK_FIXED(a, x, y) (fabs ((a)[0] * (x) + (a)[1] * (y) + (a)[2] + 0.5) < 32768.0 && \
                              fabs ((a)[3] * (x) + (a)[4] * (y) + (a)[5] + 0.5) < 32768.0)

/* ImagingTransformAffine with nearest neighbour: 16.16 fixed point when the
 * corners fit, else doubles. @out is filled with the fill colour. */
static void
pil_affine_nearest (GnnTensorPrivate *p,
                    guint8           *out,
                    gint64            ow,
                    gint64            oh,
                    const double     *a)
{
  gint64 xsize = p->shape[1], ysize = p->shape[0], c = p->shape[2];
  const guint8 *src = gnn_tensor_priv_data (p);

  if (CHECK_FIXED (a, 0, 0) && CHECK_FIXED (a, (double) ow, (double) oh) &&
      CHECK_FIXED (a, 0, (double) oh) && CHECK_FIXED (a, (double) ow, 0))
    {
#define FIX(v) PIL_FLOOR ((v) * 65536.0 + 0.5)
      int a0 = FIX (a[0]), a1 = FIX (a[1]), a3 = FIX (a[3]), a4 = FIX (a[4]);
      int a2 = FIX (a[2] + a[0] * 0.5 + a[1] * 0.5), a5 = FIX (a[5] + a[3] * 0.5 + a[4] * 0.5);
#undef FIX

      for (gint64 y = 0; y < oh; y++, a2 += a1, a5 += a4)
        {
          int xx = a2, yy = a5;

          for (gint64 x = 0; x < ow; x++, xx += a0, yy += a3)
            {
              int xin = xx >> 16, yin = yy >> 16;

              if (xin >= 0 && xin < xsize && yin >= 0 && yin < ysize)
                for (gint64 ch = 0; ch < c; ch++)
                  out[(y * ow + x) * c + ch] = src[yin * p->strides[0] + xin * p->strides[1] +
                                                   ch * p->strides[2]];
            }
        }
      return;
    }
  {
    double xo = a[2] + a[1] * 0.5 + a[0] * 0.5, yo = a[5] + a[4] * 0.5 + a[3] * 0.5;

    for (gint64 y = 0; y < oh; y++, xo += a[1], yo += a[4])
      {
        double xx = xo, yy = yo;

        for (gint64 x = 0; x < ow; x++, xx += a[0], yy += a[3])
          {
            int xin = xx < 0.0 ? -1 : (int) xx, yin = yy < 0.0 ? -1 : (int) yy;

            if (xin >= 0 && xin < xsize && yin >= 0 && yin < ysize)
              for (gint64 ch = 0; ch < c; ch++)
                out[(y * ow + x) * c + ch] = src[yin * p->strides[0] + xin * p->strides[1] +
                                                 ch * p->strides[2]];
          }
      }
  }
}

/* ImagingGenericTransform with PIL's bilinear filter (Geometry.c). */
static void
pil_affine_bilinear (GnnTensorPrivate *p,
                     guint8           *out,
                     gint64            ow,
                     gint64            oh,
                     const double     *a)
{
  gint64 xsize = p->shape[1], ysize = p->shape[0], c = p->shape[2];
  const guint8 *src = gnn_tensor_priv_data (p);

  for (gint64 y = 0; y < oh; y++)
    for (gint64 x = 0; x < ow; x++)
      {
        double xin = a[0] * (x + 0.5) + a[1] * (y + 0.5) + a[2];
        double yin = a[3] * (x + 0.5) + a[4] * (y + 0.5) + a[5];
        gint64 xi, yi, x0, x1;
        double dx, dy;

        if (xin < 0.0 || xin >= xsize || yin < 0.0 || yin >= ysize)
          continue;
        xin -= 0.5;
        yin -= 0.5;
        xi = PIL_FLOOR (xin);
        yi = PIL_FLOOR (yin);
        dx = xin - xi;
        dy = yin - yi;
        x0 = CLAMP (xi, 0, xsize - 1);
        x1 = CLAMP (xi + 1, 0, xsize - 1);
        for (gint64 ch = 0; ch < c; ch++)
          {
            const guint8 *row = src + CLAMP (yi, 0, ysize - 1) * p->strides[0] + ch * p->strides[2];
            double v1 = row[x0 * p->strides[1]] + (row[x1 * p->strides[1]] - row[x0 * p->strides[1]]) * dx;

            if (yi + 1 >= 0 && yi + 1 < ysize)
              {
                const guint8 *r2 = src + (yi + 1) * p->strides[0] + ch * p->strides[2];
                double v2 = r2[x0 * p->strides[1]] + (r2[x1 * p->strides[1]] - r2[x0 * p->strides[1]]) * dx;

                v1 = v1 + (v2 - v1) * dy;
              }
            out[(y * ow + x) * c + ch] = (guint8) v1;
          }
      }
}

/* Image.rotate(angle, resample, expand, center, fillcolor) (Pillow 9). */
static GnnTensor *
pil_rotate (GnnTensor             *img,
            double                 angle,
            GnnInterpolationMode   interpolation,
            gboolean               expand,
            const double          *center,
            const double          *fill,
            GError               **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (img);
  gint64 w = p->shape[1], h = p->shape[0], c = p->shape[2];
  double m[6], cx, cy, rad;
  g_autoptr(GnnImage) out = NULL;
  guint8 *dst;

  angle = py_fmod (angle, 360.0);
  if (center == NULL)
    {
      if (angle == 0)
        return GNN_TENSOR (gnn_image_convert (GNN_IMAGE (img), gnn_image_get_mode (GNN_IMAGE (img)),
                                              error));
      if (angle == 180)
        return pil_transpose (img, 2, error);
      if ((angle == 90 || angle == 270) && (expand || w == h))
        return pil_transpose (img, angle == 90 ? 1 : 3, error);
    }
  cx = center != NULL ? center[0] : w / 2.0;
  cy = center != NULL ? center[1] : h / 2.0;
  rad = -angle * G_PI / 180.0;
  m[0] = round15 (cos (rad));
  m[1] = round15 (sin (rad));
  m[2] = 0.0;
  m[3] = round15 (-sin (rad));
  m[4] = round15 (cos (rad));
  m[5] = 0.0;
  m[2] = m[0] * -cx + m[1] * -cy + m[2] + cx;
  m[5] = m[3] * -cx + m[4] * -cy + m[5] + cy;
  if (expand)
    {
      const double corners[4][2] = { { 0, 0 }, { (double) w, 0 }, { (double) w, (double) h },
                                     { 0, (double) h } };
      double xmin = G_MAXDOUBLE, xmax = -G_MAXDOUBLE, ymin = G_MAXDOUBLE, ymax = -G_MAXDOUBLE;
      gint64 nw, nh;
      double tx, ty;

      for (int i = 0; i < 4; i++)
        {
          double x = m[0] * corners[i][0] + m[1] * corners[i][1] + m[2];
          double y = m[3] * corners[i][0] + m[4] * corners[i][1] + m[5];

          xmin = MIN (xmin, x);
          xmax = MAX (xmax, x);
          ymin = MIN (ymin, y);
          ymax = MAX (ymax, y);
        }
      nw = (gint64) ceil (xmax) - (gint64) floor (xmin);
      nh = (gint64) ceil (ymax) - (gint64) floor (ymin);
      tx = m[0] * (-(nw - w) / 2.0) + m[1] * (-(nh - h) / 2.0) + m[2];
      ty = m[3] * (-(nw - w) / 2.0) + m[4] * (-(nh - h) / 2.0) + m[5];
      m[2] = tx;
      m[5] = ty;
      w = nw;
      h = nh;
    }
  out = gnn_image_new_uninitialized (h, w, c, FALSE, error);
  if (out == NULL)
    return NULL;
  dst = gnn_image_data (out);
  for (gint64 i = 0; i < w * h; i++)   /* the fill colour, PIL's int(fill) */
    for (gint64 ch = 0; ch < c; ch++)
      dst[i * c + ch] = (guint8) (gint64) fill[ch];
  if (interpolation == GNN_INTERPOLATION_MODE_NEAREST)
    pil_affine_nearest (p, dst, w, h, m);
  else
    pil_affine_bilinear (p, dst, w, h, m);
  return GNN_TENSOR (g_steal_pointer (&out));
}

/* --- tensors ------------------------------------------------------------------------ */

/* torchvision's _get_inverse_affine_matrix for a rotation by @angle about
 * @cx, @cy (relative to the image centre), no translation, scale or shear. */
static void
inverse_rotation (double cx, double cy, double angle, double *m)
{
  double rot = angle * G_PI / 180.0;
  double a = cos (rot), b = -sin (rot), c = sin (rot), d = cos (rot);

  m[0] = d;
  m[1] = -b;
  m[2] = 0.0;
  m[3] = -c;
  m[4] = a;
  m[5] = 0.0;
  m[2] += m[0] * (-cx) + m[1] * (-cy);
  m[5] += m[3] * (-cx) + m[4] * (-cy);
  m[2] += cx;
  m[5] += cy;
}

/* _compute_affine_output_size in float32 */
static void
affine_output_size (const double *m, gint64 w, gint64 h, gint64 *ow, gint64 *oh)
{
  const float pts[4][2] = { { -0.5f * w, -0.5f * h }, { -0.5f * w, 0.5f * h },
                            { 0.5f * w, 0.5f * h }, { 0.5f * w, -0.5f * h } };
  float t[6], mn[2] = { G_MAXFLOAT, G_MAXFLOAT }, mx[2] = { -G_MAXFLOAT, -G_MAXFLOAT };
  const float tol = 1e-4f;

  for (int i = 0; i < 6; i++)
    t[i] = (float) m[i];
  for (int i = 0; i < 4; i++)
    {
      float x = pts[i][0] * t[0] + pts[i][1] * t[1] + t[2];
      float y = pts[i][0] * t[3] + pts[i][1] * t[4] + t[5];

      mn[0] = MIN (mn[0], x);
      mx[0] = MAX (mx[0], x);
      mn[1] = MIN (mn[1], y);
      mx[1] = MAX (mx[1], y);
    }
  mn[0] += (float) (w * 0.5);
  mx[0] += (float) (w * 0.5);
  mn[1] += (float) (h * 0.5);
  mx[1] += (float) (h * 0.5);
  *ow = (gint64) (ceilf (truncf (mx[0] / tol) * tol) - floorf (truncf (mn[0] / tol) * tol));
  *oh = (gint64) (ceilf (truncf (mx[1] / tol) * tol) - floorf (truncf (mn[1] / tol) * tol));
}

#define F(x) (f32 ? (double) (float) (x) : (x))

/* torch's grid_sample (zeros padding, align_corners=False) over the grid
 * of torchvision's _gen_affine_grid, then the fill of _apply_grid_transform. */
static GnnTensor *
tensor_rotate (GnnTensor             *img,
               double                 angle,
               GnnInterpolationMode   interpolation,
               gboolean               expand,
               const double          *center,
               const double          *fill,
               gboolean               has_fill,
               GError               **error)
{
  g_autoptr(GnnTensor) keep = NULL, keep_out = NULL, out = NULL;
  GnnPlanes src, dst;
  double m[6], rt[6];
  gint64 ow, oh;
  gboolean f32;

  if (!gnn_planes_init (&src, img, &keep, "rotate", error))
    return NULL;
  if (src.dtype == GNN_DTYPE_BOOL || src.dtype == GNN_DTYPE_F16 || src.dtype == GNN_DTYPE_BF16)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "rotate: tensor images of dtype %s are not supported",
                   gnn_dtype_get_name (src.dtype));
      return NULL;
    }
  f32 = src.dtype != GNN_DTYPE_F64;
  inverse_rotation (center != NULL ? center[0] - src.w * 0.5 : 0.0,
                    center != NULL ? center[1] - src.h * 0.5 : 0.0, -angle, m);
  ow = src.w;
  oh = src.h;
  if (expand)
    affine_output_size (m, src.w, src.h, &ow, &oh);
  out = gnn_vision_new_like (img, src.c, oh, ow, src.dtype, FALSE, error);
  if (out == NULL || !gnn_planes_init (&dst, out, &keep_out, "rotate", error))
    return NULL;
  /* theta.transpose / [0.5 w, 0.5 h] */
  for (int k = 0; k < 3; k++)
    {
      rt[k * 2] = F (F (m[k]) / F (0.5 * src.w));
      rt[k * 2 + 1] = F (F (m[3 + k]) / F (0.5 * src.h));
    }
  for (gint64 i = 0; i < oh; i++)
    for (gint64 j = 0; j < ow; j++)
      {
        double x = F (-ow * 0.5 + 0.5) + j, y = F (-oh * 0.5 + 0.5) + i;
        double gx = F (F (F (x * rt[0]) + F (y * rt[2])) + rt[4]);
        double gy = F (F (F (x * rt[1]) + F (y * rt[3])) + rt[5]);
        double ix = F (F (F (gx + 1.0) * F (src.w / 2.0)) - 0.5);
        double iy = F (F (F (gy + 1.0) * F (src.h / 2.0)) - 0.5);
        double wts[4] = { 0 }, mask = 0;
        gint64 xs[4], ys[4];
        int nc;

        if (interpolation == GNN_INTERPOLATION_MODE_NEAREST)
          {
            xs[0] = (gint64) nearbyint (ix);
            ys[0] = (gint64) nearbyint (iy);
            wts[0] = 1;
            nc = 1;
          }
        else
          {
            double xw = floor (ix), yn = floor (iy);
            double we = F (ix - xw), e = F (1.0 - we), n = F (iy - yn), s = F (1.0 - n);

            xs[0] = xs[2] = (gint64) xw;
            xs[1] = xs[3] = (gint64) xw + 1;
            ys[0] = ys[1] = (gint64) yn;
            ys[2] = ys[3] = (gint64) yn + 1;
            wts[0] = F (s * e);
            wts[1] = F (s * we);
            wts[2] = F (n * e);
            wts[3] = F (n * we);
            nc = 4;
          }
        for (int k = 0; k < nc; k++)
          if (xs[k] >= 0 && xs[k] < src.w && ys[k] >= 0 && ys[k] < src.h)
            mask = F (mask + wts[k]);
          else
            wts[k] = 0;
        for (gint64 n = 0; n < src.n; n++)
          for (gint64 ch = 0; ch < src.c; ch++)
            {
              double v = 0;
              guint8 *o;

              for (int k = 0; k < nc; k++)
                if (wts[k] != 0 || interpolation == GNN_INTERPOLATION_MODE_NEAREST)
                  {
                    if (xs[k] < 0 || xs[k] >= src.w || ys[k] < 0 || ys[k] >= src.h)
                      continue;
                    v = F (v + F (gnn_planes_read (&src, src.data + (n * src.sn + ch * src.sc +
                                                                      ys[k] * src.sh +
                                                                      xs[k] * src.sw) * src.elsize)
                                  * wts[k]));
                  }
              if (has_fill)
                {
                  if (interpolation == GNN_INTERPOLATION_MODE_NEAREST)
                    v = mask < 0.5 ? F (fill[ch]) : v;
                  else
                    v = F (F (v * mask) + F (F (1.0 - mask) * F (fill[ch])));
                }
              o = dst.data + (n * dst.sn + ch * dst.sc + i * dst.sh + j * dst.sw) * dst.elsize;
              if (src.dtype == GNN_DTYPE_F32 || src.dtype == GNN_DTYPE_F64)
                gnn_dtype_write (src.dtype, o, v);
              else
                gnn_dtype_write (src.dtype, o, nearbyint (v));
            }
      }
  return g_steal_pointer (&out);
}

#undef F

/**
 * gnn_vision_rotate:
 * @img: an image or a tensor image
 * @angle: the angle in degrees, counter-clockwise
 * @interpolation: nearest or bilinear
 * @expand: whether the output grows to hold the whole rotated image
 * @center: (array length=n_center) (nullable): the centre of rotation
 *   (x, y) in pixels from the top left corner; %NULL for the image centre
 * @n_center: 0 or 2
 * @fill: (array length=n_fill) (nullable): the value of the area outside
 *   the rotated image, one or one per channel
 * @n_fill: the number of fill values (0: zeros; for tensors, torchvision's
 *   `fill=None`)
 * @error: return location for a #GError
 *
 * torchvision's `F.rotate`: images as PIL's `Image.rotate` (its exact 90°
 * steps, its 16.16 fixed-point nearest neighbour), tensors through
 * torchvision's affine grid and torch's `grid_sample` in the tensor's
 * float type (integer tensors in float32, rounded).
 *
 * Returns: (transfer full): the rotated image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_rotate (GnnTensor             *img,
                   double                 angle,
                   GnnInterpolationMode   interpolation,
                   gboolean               expand,
                   const double          *center,
                   gsize                  n_center,
                   const double          *fill,
                   gsize                  n_fill,
                   GError               **error)
{
  g_autofree double *fills = NULL;
  gint64 c, h, w;

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE ("rotate", img, error, NULL);
  if (!gnn_vision_dimensions (img, &c, &h, &w, "rotate", error))
    return NULL;
  if (!isfinite (angle))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "rotate: the angle must be a finite number");
      return NULL;
    }
  if (n_center != 0 && (n_center != 2 || center == NULL))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Center should be a sequence of length 2");
      return NULL;
    }
  if (n_fill > 1 && (gint64) n_fill != c)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "The number of elements in 'fill' does not match the number of channels of "
                   "the image (%" G_GSIZE_FORMAT " != %" G_GINT64_FORMAT ")", n_fill, c);
      return NULL;
    }
  if (interpolation != GNN_INTERPOLATION_MODE_NEAREST &&
      interpolation != GNN_INTERPOLATION_MODE_BILINEAR)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "rotate: interpolation mode %d is not supported", (int) interpolation);
      return NULL;
    }
  if (h == 0 || w == 0)
    return g_object_ref (img);
  fills = gnn_vision_alloc (c, sizeof (double), error);
  if (fills == NULL)
    return NULL;
  gnn_vision_fill_values (fill, n_fill, c, fills);
  if (GNN_IS_IMAGE (img))
    return pil_rotate (img, angle, interpolation, expand, n_center == 2 ? center : NULL, fills,
                       error);
  return tensor_rotate (img, angle, interpolation, expand, n_center == 2 ? center : NULL, fills,
                        n_fill > 0, error);
}
