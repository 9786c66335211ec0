/* gnn-vision-private.h: what the files of lib/vision share — images and
 * tensors seen as planes, the property store, random draws, and the
 * kernels the transforms and the functional API call.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* --- the property store ------------------------------------------------------
 *
 * The classes of lib/vision keep each property in a field of their
 * instance (or private) struct: installing a property with its field's
 * offset makes the shared get/set_property functions read and write it,
 * and gnn_vision_props_clear() (from finalize) release what the fields own
 * (strings, variants, objects). No class writes a switch over property ids. */
void gnn_vision_class_install_property (GObjectClass *klass,
                                        guint         prop_id,
                                        GParamSpec   *pspec,
                                        gssize        offset);
void gnn_vision_props_clear            (GObject      *object);
/* A construct-only double property (the transforms' ranges). */
void gnn_vision_install_double         (GObjectClass *klass,
                                        guint         prop_id,
                                        const char   *name,
                                        double        min,
                                        double        max,
                                        double        default_value,
                                        gssize        offset);

/* The offset of a field of a derivable type's private struct from the
 * instance (valid from class_init on, after G_ADD_PRIVATE adjusted it). */
#define GNN_VISION_PRIVATE_FIELD(TypeName, field) \
  (TypeName##_private_offset + (gssize) G_STRUCT_OFFSET (TypeName##Private, field))

/* --- planes -------------------------------------------------------------------
 *
 * An input seen as n planes of c channels of h × w elements with strides
 * (in elements): a GnnImage is one plane of its channels (HWC), a tensor
 * [..., C, H, W] has its leading dimensions as n. */
typedef struct
{
  guint8   *data;
  GnnDType  dtype;
  gsize     elsize;
  gint64    n, c, h, w;
  gint64    sn, sc, sh, sw;
} GnnPlanes;

/* @t as planes; a tensor whose leading dimensions do not collapse into one
 * stride is made contiguous first (*@keep holds the copy). A tensor with
 * fewer than 2 dimensions is torchvision's "Tensor is not a torch image." */
gboolean   gnn_planes_init      (GnnPlanes   *planes,
                                 GnnTensor   *t,
                                 GnnTensor  **keep,
                                 const char  *op,
                                 GError     **error);

/* A new contiguous output of the kind of @like: an image of @like's mode
 * (or of @c channels) and @h × @w, or a tensor of @like's leading
 * dimensions with [@c, @h, @w] last and @dtype. */
GnnTensor *gnn_vision_new_like  (GnnTensor   *like,
                                 gint64       c,
                                 gint64       h,
                                 gint64       w,
                                 GnnDType     dtype,
                                 gboolean     zeroed,
                                 GError     **error);

/* Element @i of a plane row as double, and the write back (any dtype). */
static inline double
gnn_planes_read (const GnnPlanes *p, const guint8 *at)
{
  switch (p->dtype)
    {
    case GNN_DTYPE_U8: return *at;
    case GNN_DTYPE_F32: return *(const float *) at;
    case GNN_DTYPE_F64: return *(const double *) at;
    default: return gnn_dtype_read (p->dtype, at);
    }
}

/* --- random draws ---------------------------------------------------------------
 *
 * A random transform draws from the generator of the sample a loader is
 * fetching (gnn_get_sample_generator), else from the default generator
 * under its lock: acquire, draw, release. */
GnnGenerator *gnn_vision_generator_acquire (void);
void          gnn_vision_generator_release (GnnGenerator *generator);
/* torch.empty(1).uniform_(a, b), torch.randint(low, high) (high exclusive) */
double        gnn_vision_uniform           (GnnGenerator *generator, double a, double b);
gint64        gnn_vision_randint           (GnnGenerator *generator, gint64 low, gint64 high);
/* torch.rand(1) < p, drawn as above */
gboolean      gnn_vision_draw_below        (double p);

/* @n zeroed values of @elsize bytes, or NULL with a GNN_ERROR_MEMORY error
 * (sizes come from the user: never an abort). */
gpointer gnn_vision_alloc (gint64 n, gsize elsize, GError **error);

/* --- input checks -------------------------------------------------------------- */

/* Whether @t is an image (PIL's path) rather than a tensor (the tensor path). */
gboolean gnn_vision_is_image       (GnnTensor *t);
/* The number of channels, height and width of an image or tensor image. */
gboolean gnn_vision_dimensions     (GnnTensor *t, gint64 *c, gint64 *h, gint64 *w,
                                    const char *op, GError **error);
/* A tensor (not an image) of at least @min_ndim dimensions, for the
 * tensor-only operations: "img should be Tensor Image. Got ..." */
gboolean gnn_vision_require_tensor (GnnTensor *t, const char *op, GError **error);
/* torchvision's _assert_channels: "Input image tensor permitted channel
 * values are [1, 3], but found 4" (images: their mode must be L or RGB). */
gboolean gnn_vision_require_channels (gint64 c, gboolean one_or_three, const char *op,
                                      GError **error);
/* torch's name of @t's type for messages: "GnnImage" or "Tensor". */
const char *gnn_vision_kind_name   (GnnTensor *t);

/* Turns a torchvision "size" (1 or 2 values: the smaller edge, or [h, w])
 * into [h, w] for an input of @h × @w (F.resize's rule, max_size < 0: none). */
gboolean gnn_vision_resized_size   (gint64 h, gint64 w, const gint64 *size, gsize n_size,
                                    gint64 max_size, gint64 *out_h, gint64 *out_w,
                                    GError **error);
/* A crop size given as 1 or 2 values: [h, w]. */
gboolean gnn_vision_crop_size      (const gint64 *size, gsize n_size, gint64 *out_h,
                                    gint64 *out_w, const char *op, GError **error);

/* The values of an "ax"/"ad" variant property (NULL: none). */
const gint64 *gnn_vision_variant_int64s  (GVariant *v, gsize *n);
const double *gnn_vision_variant_doubles (GVariant *v, gsize *n);
/* An "ax"/"ad" variant from C values (floating reference). */
GVariant     *gnn_vision_int64s_variant  (const gint64 *values, gsize n);
GVariant     *gnn_vision_doubles_variant (const double *values, gsize n);

/* --- kernels (gnn-vision-*.c) ---------------------------------------------------- */

/* A fill value per channel from 0, 1 or c values (torchvision's fill). */
void gnn_vision_fill_values (const double *fill, gsize n_fill, gint64 c, double *out);

/* dst[n, c, y, x] = src[n, c, ymap[y], xmap[x]], or fill[c] where a map
 * is -1 (fill: one value per channel, NULL: zeros); a new output like @input. */
GnnTensor *gnn_vision_gather (GnnTensor *input, const gint64 *ymap, gint64 out_h,
                              const gint64 *xmap, gint64 out_w, const double *fill,
                              const char *op, GError **error);

/* Copies the rectangle (top, left, h, w) of @src, zeros outside it. */
GnnTensor *gnn_vision_crop_copy (GnnTensor *src, gint64 top, gint64 left, gint64 h, gint64 w,
                                 GError **error);

/* Resamples the whole of @src to @out_h × @out_w. */
GnnTensor *gnn_vision_resample  (GnnTensor *src, gint64 out_h, gint64 out_w,
                                 GnnInterpolationMode mode, gboolean antialias,
                                 GError **error);

/* Writes @planes' values into a float32 output tensor [.., C, H, W] scaled
 * by 1 / @divisor (ToTensor's conversion). */
void gnn_vision_planes_to_float (const GnnPlanes *src, float *dst, double divisor);

/* ToTensor + Normalize fused for a uint8 image (same values); NULL without
 * an error when they do not fuse (the caller runs them one by one). */
GnnTensor *gnn_vision_to_normalized_tensor (GnnTensor *pic, gboolean hflip, const double *mean,
                                             gsize n_mean, const double *std, gsize n_std,
                                             GError **error);
/* RandomHorizontalFlip's draw: whether this call flips. */
gboolean gnn_random_horizontal_flip_draw (GnnRandomHorizontalFlip *self);

/* The mean and std of a Normalize (ToTensor's fresh output makes in place
 * and not the same). */
void gnn_normalize_get_values (GnnNormalize *self, const double **mean, gsize *n_mean,
                               const double **std, gsize *n_std);

G_END_DECLS
