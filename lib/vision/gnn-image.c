/* gnn-image.c: a decoded image, the counterpart of a PIL image
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

/**
 * GnnImage:
 *
 * A decoded image: a uint8 [class@Gnn.Tensor] laid out `[height, width,
 * channels]` (PIL's and numpy's layout) with 1 to 4 channels, named by
 * [enum@Gnn.ImageMode]. It is what torchvision's datasets and transforms
 * call a PIL image: the transforms of `gnn.vision` take an image or a
 * tensor image `[..., C, H, W]` and do to each what torchvision does to a
 * PIL image or to a tensor (PIL's resampling, rotation and colour
 * arithmetic for images; torch's for tensors), and
 * [class@Gnn.ToTensor] turns an image into a float32 tensor `[C, H, W]`.
 *
 * Being a tensor, an image is a dataset field like any other (a loader
 * stacks a batch of equal images into `[N, H, W, C]`), its memory is
 * numpy's `np.asarray(pil_image)`, and tensor operations apply to it (their
 * results are plain tensors). Images come from files (PNG, JPEG, BMP, PNM,
 * TIFF, GIF decoded by GdkPixbuf, [ctor@Gnn.Image.new_from_file]) or from
 * uint8 tensors ([ctor@Gnn.Image.new_from_tensor], sharing their memory).
 * `g_object_new (GNN_TYPE_IMAGE, NULL)` is an empty RGB image (0 × 0).
 *
 * Since: 0.1
 */
struct _GnnImage
{
  GnnTensor parent_instance;
};

enum { PROP_0, PROP_WIDTH, PROP_HEIGHT, PROP_MODE, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnImage, gnn_image, GNN_TYPE_TENSOR)

static void
gnn_image_constructed (GObject *object)
{
  GnnTensorPrivate *p = gnn_tensor_priv (GNN_TENSOR (object));

  G_OBJECT_CLASS (gnn_image_parent_class)->constructed (object);
  /* g_object_new() from a binding: the tensor made itself a 0-d float32;
   * an image is an empty RGB image instead (the library's own images get
   * their storage right after construction, when it is still NULL). */
  if (p->storage != NULL && p->ndim == 0)
    {
      gnn_storage_unref (p->storage);
      p->storage = gnn_storage_new (0, TRUE);
      p->dtype = GNN_DTYPE_U8;
      p->ndim = 3;
      p->numel = 0;
      p->offset = 0;
      p->shape[0] = p->shape[1] = 0;
      p->shape[2] = 3;
      gnn_contiguous_strides (p->shape, 3, p->strides);
    }
}

static void
gnn_image_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnImage *self = GNN_IMAGE (object);

  switch (prop_id)
    {
    case PROP_WIDTH: g_value_set_int64 (value, gnn_image_get_width (self)); break;
    case PROP_HEIGHT: g_value_set_int64 (value, gnn_image_get_height (self)); break;
    case PROP_MODE: g_value_set_enum (value, gnn_image_get_mode (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_image_class_init (GnnImageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = gnn_image_constructed;
  object_class->get_property = gnn_image_get_property;

  /**
   * GnnImage:width:
   *
   * The width in pixels (PIL's `image.width`).
   *
   * Since: 0.1
   */
  properties[PROP_WIDTH] =
    g_param_spec_int64 ("width", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnImage:height:
   *
   * The height in pixels (PIL's `image.height`).
   *
   * Since: 0.1
   */
  properties[PROP_HEIGHT] =
    g_param_spec_int64 ("height", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnImage:mode:
   *
   * The channels (PIL's `image.mode`).
   *
   * Since: 0.1
   */
  properties[PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL, GNN_TYPE_IMAGE_MODE, GNN_IMAGE_MODE_RGB,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_image_init (GnnImage *self)
{
}

GnnImage *
gnn_image_new_with_storage (GnnStorage   *storage,
                            gint64        height,
                            gint64        width,
                            gint64        channels,
                            const gint64 *strides,
                            gint64        offset)
{
  GnnImage *self = GNN_IMAGE (gnn_tensor_object_new (GNN_TYPE_IMAGE));
  GnnTensorPrivate *p = gnn_tensor_priv (GNN_TENSOR (self));

  p->storage = storage;
  p->dtype = GNN_DTYPE_U8;
  p->ndim = 3;
  p->shape[0] = height;
  p->shape[1] = width;
  p->shape[2] = channels;
  p->numel = height * width * channels;
  p->offset = offset;
  if (strides != NULL)
    memcpy (p->strides, strides, 3 * sizeof (gint64));
  else
    gnn_contiguous_strides (p->shape, 3, p->strides);
  return self;
}

GnnImage *
gnn_image_new_uninitialized (gint64         height,
                             gint64         width,
                             gint64         channels,
                             gboolean       zeroed,
                             GError       **error)
{
  const gint64 shape[3] = { height, width, channels };
  gint64 numel;
  GnnStorage *storage;

  if (!gnn_shape_validate (shape, 3, GNN_DTYPE_U8, &numel, error))
    return NULL;
  storage = gnn_storage_new ((gsize) numel, zeroed);
  if (storage == NULL)
    {
      gnn_set_alloc_error (error, (gsize) numel, shape, 3);
      return NULL;
    }
  return gnn_image_new_with_storage (storage, height, width, channels, NULL, 0);
}

guint8 *
gnn_image_data (GnnImage *self)
{
  return gnn_tensor_priv_data (gnn_tensor_priv (GNN_TENSOR (self)));
}

/**
 * gnn_image_new:
 * @width: the width in pixels
 * @height: the height in pixels
 * @mode: the channels
 * @error: return location for a #GError
 *
 * Creates a black image (every value 0), like PIL's
 * `Image.new(mode, (width, height))`.
 *
 * Returns: (transfer full): the image, or %NULL with @error set (a negative
 *   or overflowing size, memory)
 *
 * Since: 0.1
 */
GnnImage *
gnn_image_new (gint64         width,
               gint64         height,
               GnnImageMode   mode,
               GError       **error)
{
  if (mode < GNN_IMAGE_MODE_L || mode > GNN_IMAGE_MODE_RGBA)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Image: unknown mode %d", (int) mode);
      return NULL;
    }
  return gnn_image_new_uninitialized (height, width, mode, TRUE, error);
}

/**
 * gnn_image_new_from_tensor:
 * @pixels: a uint8 tensor `[height, width]` (mode L) or `[height, width,
 *   channels]` with 1 to 4 channels
 * @error: return location for a #GError
 *
 * Creates an image over the memory of @pixels (no copy: writing through
 * one is seen through the other), like PIL's `Image.fromarray(array)`.
 *
 * Returns: (transfer full): the image, or %NULL with @error set when
 *   @pixels is not such a tensor
 *
 * Since: 0.1
 */
GnnImage *
gnn_image_new_from_tensor (GnnTensor  *pixels,
                           GError    **error)
{
  GnnTensorPrivate *p;
  gint64 strides[3];

  g_return_val_if_fail (GNN_IS_TENSOR (pixels), NULL);
  p = gnn_tensor_priv (pixels);
  GNN_CHECK_STORAGE ("Image", pixels, error, NULL);
  if (p->dtype != GNN_DTYPE_U8 || p->ndim < 2 || p->ndim > 3 ||
      (p->ndim == 3 && (p->shape[2] < 1 || p->shape[2] > 4)))
    {
      g_autofree char *shape = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Image: expected a uint8 tensor [H, W] or [H, W, C] with 1 to 4 channels, "
                   "got %s %s", gnn_dtype_get_name (p->dtype), shape);
      return NULL;
    }
  strides[0] = p->strides[0];
  strides[1] = p->strides[1];
  strides[2] = p->ndim == 3 ? p->strides[2] : 1;
  return gnn_image_new_with_storage (gnn_storage_ref (p->storage), p->shape[0], p->shape[1],
                                     p->ndim == 3 ? p->shape[2] : 1, strides, p->offset);
}

/**
 * gnn_image_get_width:
 * @self: a #GnnImage
 *
 * Gets the width, PIL's `image.width`.
 *
 * Returns: the width in pixels
 *
 * Since: 0.1
 */
gint64
gnn_image_get_width (GnnImage *self)
{
  g_return_val_if_fail (GNN_IS_IMAGE (self), 0);
  return gnn_tensor_priv (GNN_TENSOR (self))->shape[1];
}

/**
 * gnn_image_get_height:
 * @self: a #GnnImage
 *
 * Gets the height, PIL's `image.height`.
 *
 * Returns: the height in pixels
 *
 * Since: 0.1
 */
gint64
gnn_image_get_height (GnnImage *self)
{
  g_return_val_if_fail (GNN_IS_IMAGE (self), 0);
  return gnn_tensor_priv (GNN_TENSOR (self))->shape[0];
}

/**
 * gnn_image_get_mode:
 * @self: a #GnnImage
 *
 * Gets the channels, PIL's `image.mode`.
 *
 * Returns: the mode
 *
 * Since: 0.1
 */
GnnImageMode
gnn_image_get_mode (GnnImage *self)
{
  g_return_val_if_fail (GNN_IS_IMAGE (self), GNN_IMAGE_MODE_RGB);
  return (GnnImageMode) gnn_tensor_priv (GNN_TENSOR (self))->shape[2];
}

/**
 * gnn_image_convert:
 * @self: a #GnnImage
 * @mode: the channels of the result
 * @error: return location for a #GError
 *
 * Converts between modes as PIL's `image.convert(mode)` does: colour to
 * luminance with PIL's weights (ITU-R 601-2 in 16.16 fixed point),
 * luminance to colour by copying, alpha dropped or made opaque (255).
 *
 * Returns: (transfer full): a new image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnImage *
gnn_image_convert (GnnImage      *self,
                   GnnImageMode   mode,
                   GError       **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnImage) out = NULL;
  gint64 h, w, c;
  gboolean from_color, to_color, from_alpha, to_alpha;
  guint8 *dst;

  g_return_val_if_fail (GNN_IS_IMAGE (self), NULL);
  if (mode < GNN_IMAGE_MODE_L || mode > GNN_IMAGE_MODE_RGBA)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Image.convert: unknown mode %d", (int) mode);
      return NULL;
    }
  p = gnn_tensor_priv (GNN_TENSOR (self));
  h = p->shape[0];
  w = p->shape[1];
  c = p->shape[2];
  out = gnn_image_new_uninitialized (h, w, mode, FALSE, error);
  if (out == NULL)
    return NULL;
  from_color = c >= 3;
  to_color = mode >= 3;
  from_alpha = c == 2 || c == 4;
  to_alpha = mode == 2 || mode == 4;
  dst = gnn_image_data (out);
  for (gint64 y = 0; y < h; y++)
    {
      const guint8 *row = gnn_tensor_priv_data (p) + y * p->strides[0];

      for (gint64 x = 0; x < w; x++, dst += mode)
        {
          const guint8 *px = row + x * p->strides[1];
          guint8 r = px[0], g = from_color ? px[p->strides[2]] : r,
                 b = from_color ? px[2 * p->strides[2]] : r;
          guint8 a = from_alpha ? px[(c - 1) * p->strides[2]] : 255;

          if (to_color)
            {
              dst[0] = r;
              dst[1] = g;
              dst[2] = b;
            }
          else
            dst[0] = from_color ? gnn_pil_luminance (r, g, b) : r;
          if (to_alpha)
            dst[mode - 1] = a;
        }
    }
  return g_steal_pointer (&out);
}
