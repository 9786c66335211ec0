/* gnn-vision-util.c: images and tensors as planes, input checks, sizes and
 * random draws shared by the transforms
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

gboolean
gnn_vision_is_image (GnnTensor *t)
{
  return GNN_IS_IMAGE (t);
}

const char *
gnn_vision_kind_name (GnnTensor *t)
{
  return GNN_IS_IMAGE (t) ? "GnnImage" : "Tensor";
}

static void
set_not_image (GnnTensor   *t,
               const char  *op,
               GError     **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s: Tensor is not a torch image.", op);
}

gboolean
gnn_planes_init (GnnPlanes   *planes,
                 GnnTensor   *t,
                 GnnTensor  **keep,
                 const char  *op,
                 GError     **error)
{
  GnnTensorPrivate *p;
  guint nd;

  *keep = NULL;
  GNN_CHECK_STORAGE (op, t, error, FALSE);
  p = gnn_tensor_priv (t);
  planes->dtype = p->dtype;
  planes->elsize = gnn_dtype_get_size (p->dtype);
  if (GNN_IS_IMAGE (t))
    {
      planes->data = gnn_tensor_priv_data (p);
      planes->n = 1;
      planes->h = p->shape[0];
      planes->w = p->shape[1];
      planes->c = p->shape[2];
      planes->sh = p->strides[0];
      planes->sw = p->strides[1];
      planes->sc = p->strides[2];
      planes->sn = 0;
      return TRUE;
    }
  nd = p->ndim;
  if (nd < 2)
    {
      set_not_image (t, op, error);
      return FALSE;
    }
  /* leading dimensions (all but C, H, W) must collapse into one stride */
  for (guint d = 0; nd > 4 && d + 1 < nd - 3; d++)
    if (p->shape[d + 1] != 1 && p->strides[d] != p->strides[d + 1] * p->shape[d + 1])
      {
        *keep = gnn_tensor_contiguous_checked (t, error);
        if (*keep == NULL)
          return FALSE;
        p = gnn_tensor_priv (*keep);
        break;
      }
  planes->data = gnn_tensor_priv_data (p);
  planes->w = p->shape[nd - 1];
  planes->h = p->shape[nd - 2];
  planes->sw = p->strides[nd - 1];
  planes->sh = p->strides[nd - 2];
  planes->c = nd >= 3 ? p->shape[nd - 3] : 1;
  planes->sc = nd >= 3 ? p->strides[nd - 3] : 0;
  planes->n = 1;
  planes->sn = 0;
  for (guint d = 0; nd > 3 && d < nd - 3; d++)
    planes->n *= p->shape[d];
  if (nd > 3)
    planes->sn = p->strides[nd - 4];
  return TRUE;
}

GnnTensor *
gnn_vision_new_like (GnnTensor  *like,
                     gint64      c,
                     gint64      h,
                     gint64      w,
                     GnnDType    dtype,
                     gboolean    zeroed,
                     GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (like);
  gint64 shape[GNN_MAX_DIMS];
  guint nd = p->ndim;

  if (GNN_IS_IMAGE (like))
    return GNN_TENSOR (gnn_image_new_uninitialized (h, w, c, zeroed, error));
  memcpy (shape, p->shape, nd * sizeof (gint64));
  shape[nd - 1] = w;
  shape[nd - 2] = h;
  if (nd >= 3)
    shape[nd - 3] = c;
  return gnn_tensor_new_contiguous_checked (dtype, shape, nd, zeroed, error);
}

gboolean
gnn_vision_dimensions (GnnTensor   *t,
                       gint64      *c,
                       gint64      *h,
                       gint64      *w,
                       const char  *op,
                       GError     **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  if (GNN_IS_IMAGE (t))
    {
      *h = p->shape[0];
      *w = p->shape[1];
      *c = p->shape[2];
      return TRUE;
    }
  if (p->ndim < 2)
    {
      set_not_image (t, op, error);
      return FALSE;
    }
  *w = p->shape[p->ndim - 1];
  *h = p->shape[p->ndim - 2];
  *c = p->ndim >= 3 ? p->shape[p->ndim - 3] : 1;
  return TRUE;
}

gboolean
gnn_vision_require_tensor (GnnTensor   *t,
                           const char  *op,
                           GError     **error)
{
  if (GNN_IS_IMAGE (t))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s: img should be Tensor Image. Got GnnImage (convert it with ToTensor "
                   "or PILToTensor first)", op);
      return FALSE;
    }
  if (gnn_tensor_priv (t)->ndim < 2)
    {
      set_not_image (t, op, error);
      return FALSE;
    }
  return TRUE;
}

gboolean
gnn_vision_require_channels (gint64       c,
                             gboolean     one_or_three,
                             const char  *op,
                             GError     **error)
{
  if (!one_or_three || c == 1 || c == 3)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "%s: Input image tensor permitted channel values are [1, 3], but found %"
               G_GINT64_FORMAT, op, c);
  return FALSE;
}

gboolean
gnn_vision_resized_size (gint64         h,
                         gint64         w,
                         const gint64  *size,
                         gsize          n_size,
                         gint64         max_size,
                         gint64        *out_h,
                         gint64        *out_w,
                         GError       **error)
{
  if (n_size != 1 && n_size != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Size must be an int or a 1 or 2 element tuple/list, not a %" G_GSIZE_FORMAT
                   " element tuple/list", n_size);
      return FALSE;
    }
  for (gsize i = 0; i < n_size; i++)
    if (size[i] <= 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "Resize: the size must be positive, got %" G_GINT64_FORMAT, size[i]);
        return FALSE;
      }
  if (max_size >= 0 && n_size != 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "max_size should only be passed if size specifies the length of the "
                           "smaller edge, i.e. size should be an int or a sequence of length 1 in "
                           "torchscript mode.");
      return FALSE;
    }
  if (n_size == 2)
    {
      *out_h = size[0];
      *out_w = size[1];
      return TRUE;
    }
  {
    gint64 shorter = MIN (h, w), longer = MAX (h, w);
    gint64 new_short = size[0], new_long;

    if (shorter <= 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Resize: cannot resize an empty image (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                     ") by its smaller edge", h, w);
        return FALSE;
      }
    /* Python's int(new_short * long / short): true division, truncated */
    new_long = (gint64) ((double) new_short * (double) longer / (double) shorter);
    if (max_size >= 0)
      {
        if (max_size <= new_short)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "max_size = %" G_GINT64_FORMAT " must be strictly greater than the "
                         "requested size for the smaller edge size (size=%" G_GINT64_FORMAT ")",
                         max_size, size[0]);
            return FALSE;
          }
        if (new_long > max_size)
          {
            new_short = (gint64) ((double) max_size * (double) new_short / (double) new_long);
            new_long = max_size;
          }
      }
    if (w <= h)
      {
        *out_w = new_short;
        *out_h = new_long;
      }
    else
      {
        *out_h = new_short;
        *out_w = new_long;
      }
  }
  return TRUE;
}

gboolean
gnn_vision_crop_size (const gint64  *size,
                      gsize          n_size,
                      gint64        *out_h,
                      gint64        *out_w,
                      const char    *op,
                      GError       **error)
{
  if (n_size != 1 && n_size != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: Please provide only two dimensions (h, w) for size.", op);
      return FALSE;
    }
  *out_h = size[0];
  *out_w = n_size == 2 ? size[1] : size[0];
  if (*out_h <= 0 || *out_w <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: the size must be positive, got (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   ")", op, *out_h, *out_w);
      return FALSE;
    }
  return TRUE;
}

const gint64 *
gnn_vision_variant_int64s (GVariant *v,
                           gsize    *n)
{
  *n = 0;
  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE ("ax")))
    return NULL;
  return g_variant_get_fixed_array (v, n, sizeof (gint64));
}

const double *
gnn_vision_variant_doubles (GVariant *v,
                            gsize    *n)
{
  *n = 0;
  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE ("ad")))
    return NULL;
  return g_variant_get_fixed_array (v, n, sizeof (double));
}

GVariant *
gnn_vision_int64s_variant (const gint64 *values,
                           gsize         n)
{
  static const gint64 none = 0;

  return g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, n > 0 ? values : &none, n,
                                    sizeof (gint64));
}

GVariant *
gnn_vision_doubles_variant (const double *values,
                            gsize         n)
{
  static const double none = 0;

  return g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, n > 0 ? values : &none, n,
                                    sizeof (double));
}

void
gnn_vision_fill_values (const double *fill,
                        gsize         n_fill,
                        gint64        c,
                        double       *out)
{
  for (gint64 i = 0; i < c; i++)
    out[i] = n_fill == 0 ? 0.0 : fill[n_fill == 1 ? 0 : MIN ((gsize) i, n_fill - 1)];
}

/* --- random draws ------------------------------------------------------------ */

GnnGenerator *
gnn_vision_generator_acquire (void)
{
  GnnGenerator *sample = gnn_get_sample_generator ();

  return sample != NULL ? sample : gnn_generator_acquire (NULL);
}

void
gnn_vision_generator_release (GnnGenerator *generator)
{
  if (generator != gnn_get_sample_generator ())
    gnn_generator_release (NULL);
}

double
gnn_vision_uniform (GnnGenerator *generator,
                    double        a,
                    double        b)
{
  return a + (b - a) * gnn_generator_next_double (generator);
}

gint64
gnn_vision_randint (GnnGenerator *generator,
                    gint64        low,
                    gint64        high)
{
  if (high <= low)
    return low;
  return low + (gint64) gnn_generator_next_below (generator, (guint64) (high - low));
}

gboolean
gnn_vision_draw_below (double p)
{
  GnnGenerator *g = gnn_vision_generator_acquire ();
  double u = gnn_generator_next_double (g);

  gnn_vision_generator_release (g);
  return u < p;
}

gpointer
gnn_vision_alloc (gint64    n,
                  gsize     elsize,
                  GError  **error)
{
  gpointer p = NULL;

  if (n >= 0 && (guint64) n <= G_MAXSIZE / elsize / 2)
    p = g_try_malloc0 (MAX ((gsize) n, 1) * elsize);
  if (p == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                 "vision: cannot allocate %" G_GINT64_FORMAT " values of %" G_GSIZE_FORMAT
                 " bytes", n, elsize);
  return p;
}
