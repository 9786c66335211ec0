/* gnn-fake-data.c: random images
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <string.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-vision-dataset-private.h"
#include "vision/gnn-image-private.h"

/**
 * GnnFakeData:
 *
 * torchvision's `datasets.FakeData(size=1000, image_size=(3, 224, 224),
 * num_classes=10, transform=None, target_transform=None,
 * random_offset=0)`: item `i` is a random image (standard normal values of
 * shape `image_size`, `[C, H, W]`, made an image as `ToPILImage` makes one:
 * scaled by 255 and truncated to bytes) and a random label in `[0,
 * num_classes)`, both drawn from a generator seeded with `i +
 * random_offset`, so an item is the same each time it is read (the values
 * are not torch's: another generator).
 *
 * Since: 0.1
 */
struct _GnnFakeData
{
  GnnVisionDataset parent_instance;
  gint64           size;
  GVariant        *image_size;
  gint64           num_classes;
  gint64           random_offset;
};

enum { PROP_0, PROP_SIZE, PROP_IMAGE_SIZE, PROP_NUM_CLASSES, PROP_RANDOM_OFFSET, N_PROPS };

static void gnn_fake_data_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnFakeData, gnn_fake_data, GNN_TYPE_VISION_DATASET,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      gnn_fake_data_initable_iface_init))

/* The image shape (none: torchvision's default), checked. */
static gboolean
check (GnnFakeData  *self,
       gint64       *s,
       GError      **error)
{
  gsize n;
  const gint64 *given = gnn_vision_variant_int64s (self->image_size, &n);

  if (self->image_size == NULL)
    {
      s[0] = 3;
      s[1] = s[2] = 224;
      n = 3;
    }
  else if (n > 0)
    memcpy (s, given, MIN (n, 3) * sizeof (gint64));
  if (n != 3 || s[0] < 1 || s[0] > 4 || s[1] < 1 || s[2] < 1 || s[1] > G_MAXINT32 ||
      s[2] > G_MAXINT32)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "FakeData: image_size must be (C, H, W) with 1 to 4 channels");
      return FALSE;
    }
  if (self->num_classes < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "FakeData: num_classes must be positive, got %" G_GINT64_FORMAT,
                   self->num_classes);
      return FALSE;
    }
  return TRUE;
}

static gint64
gnn_fake_data_get_length (GnnDataset *dataset)
{
  return GNN_FAKE_DATA (dataset)->size;
}

static gboolean
gnn_fake_data_get_sample (GnnVisionDataset  *dataset,
                          gint64             index,
                          GnnTensor        **input,
                          GnnTensor        **target,
                          GError           **error)
{
  GnnFakeData *self = GNN_FAKE_DATA (dataset);
  g_autoptr(GnnGenerator) g = NULL;
  g_autoptr(GnnImage) image = NULL;
  g_autoptr(GnnTensor) draws = NULL;
  g_autofree float *v = NULL;
  gint64 s[3];
  guint8 *dst;

  if (!check (self, s, error))
    return FALSE;
  image = gnn_image_new_uninitialized (s[1], s[2], s[0], FALSE, error);
  if (image == NULL)
    return FALSE;
  g = gnn_generator_new ((guint64) (index + self->random_offset));
  /* torch.randn (*image_size) in [C, H, W] order, ToPILImage's
   * mul (255).byte (), stored [H, W, C] */
  draws = gnn_tensor_randn (s, 3, GNN_DTYPE_F32, g, error);
  if (draws == NULL)
    return FALSE;
  v = gnn_tensor_to_floats (draws, NULL);
  if (v == NULL)   /* a meta tensor, under the meta default device */
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "FakeData: cannot draw images under the meta default device");
      return FALSE;
    }
  dst = gnn_image_data (image);
  for (gint64 c = 0; c < s[0]; c++)
    for (gint64 i = 0; i < s[1] * s[2]; i++)
      dst[i * s[0] + c] = (guint8) (gint64) (v[c * s[1] * s[2] + i] * 255.0f);
  *input = GNN_TENSOR (g_steal_pointer (&image));
  *target = gnn_vision_label_new ((gint64) gnn_generator_next_below (g, (guint64) self->num_classes));
  return TRUE;
}

static void
gnn_fake_data_class_init (GnnFakeDataClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  GNN_DATASET_CLASS (klass)->get_length = gnn_fake_data_get_length;
  GNN_VISION_DATASET_CLASS (klass)->get_sample = gnn_fake_data_get_sample;

  /**
   * GnnFakeData:size:
   *
   * The number of items.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_SIZE,
    g_param_spec_int64 ("size", NULL, NULL, 0, G_MAXINT64, 1000,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnFakeData, size));
  /**
   * GnnFakeData:image-size:
   *
   * The shape of the images, `[C, H, W]` (an `ax` variant; none:
   * torchvision's default, [3, 224, 224]).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_IMAGE_SIZE,
    g_param_spec_variant ("image-size", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnFakeData, image_size));
  /**
   * GnnFakeData:num-classes:
   *
   * The number of classes of the labels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_CLASSES,
    g_param_spec_int64 ("num-classes", NULL, NULL, 1, G_MAXINT64, 10,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnFakeData, num_classes));
  /**
   * GnnFakeData:random-offset:
   *
   * Added to the index to seed each item's generator.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_RANDOM_OFFSET,
    g_param_spec_int64 ("random-offset", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnFakeData, random_offset));
}

static void
gnn_fake_data_init (GnnFakeData *self)
{
}

static gboolean
gnn_fake_data_initable_init (GInitable     *initable,
                             GCancellable  *cancellable,
                             GError       **error)
{
  gint64 s[3];

  return check (GNN_FAKE_DATA (initable), s, error);
}

static void
gnn_fake_data_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_fake_data_initable_init;
}

/**
 * gnn_fake_data_new:
 * @size: the number of items
 * @image_size: (array length=n_image_size): `[C, H, W]`
 * @n_image_size: 3
 * @num_classes: the number of classes
 * @transform: (nullable): the transform of the images
 * @target_transform: (nullable): the transform of the labels
 * @random_offset: added to the index to seed each item
 * @error: return location for a #GError
 *
 * Creates the dataset, like `datasets.FakeData(size, image_size,
 * num_classes, transform, target_transform, random_offset)`.
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnFakeData *
gnn_fake_data_new (gint64          size,
                   const gint64   *image_size,
                   gsize           n_image_size,
                   gint64          num_classes,
                   GnnTransform   *transform,
                   GnnTransform   *target_transform,
                   gint64          random_offset,
                   GError        **error)
{
  return g_initable_new (GNN_TYPE_FAKE_DATA, NULL, error, "size", size,
                         "image-size", gnn_vision_int64s_variant (image_size, n_image_size),
                         "num-classes", num_classes, "transform", transform,
                         "target-transform", target_transform, "random-offset", random_offset,
                         NULL);
}
