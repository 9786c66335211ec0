/* gnn-pixel-shuffle.c: channels to space and back (torch.nn.PixelShuffle,
 * torch.nn.PixelUnshuffle)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnPixelShuffle:
 *
 * Rearranges `[*, C · r², H, W]` into `[*, C, H · r, W · r]`,
 * `torch.nn.PixelShuffle`, computed by [method@Gnn.Tensor.pixel_shuffle].
 * It has no parameters.
 *
 * Since: 0.1
 */

/**
 * GnnPixelUnshuffle:
 *
 * Rearranges `[*, C, H · r, W · r]` into `[*, C · r², H, W]`,
 * `torch.nn.PixelUnshuffle`, computed by
 * [method@Gnn.Tensor.pixel_unshuffle]. It has no parameters.
 *
 * Since: 0.1
 */

struct _GnnPixelShuffle
{
  GnnModule parent_instance;
  gint64    factor;
};

struct _GnnPixelUnshuffle
{
  GnnModule parent_instance;
  gint64    factor;
};

G_DEFINE_FINAL_TYPE (GnnPixelShuffle, gnn_pixel_shuffle, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnPixelUnshuffle, gnn_pixel_unshuffle, GNN_TYPE_MODULE)

enum
{
  PROP_0,
  PROP_FACTOR,
};

static gint64 *
factor_of (gpointer object)
{
  return GNN_IS_PIXEL_SHUFFLE (object) ? &GNN_PIXEL_SHUFFLE (object)->factor
                                       : &GNN_PIXEL_UNSHUFFLE (object)->factor;
}

static GnnTensor *
shuffle_forward (GnnModule  *module,
                 GnnTensor  *input,
                 GError    **error)
{
  if (GNN_IS_PIXEL_SHUFFLE (module))
    return gnn_tensor_pixel_shuffle (input, *factor_of (module), error);
  return gnn_tensor_pixel_unshuffle (input, *factor_of (module), error);
}

static char *
shuffle_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("%s_factor=%" G_GINT64_FORMAT, GNN_IS_PIXEL_SHUFFLE (module) ? "upscale" : "downscale",
                          *factor_of (module));
}

static void
shuffle_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  if (prop_id == PROP_FACTOR)
    g_value_set_int64 (value, *factor_of (object));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
shuffle_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  if (prop_id == PROP_FACTOR)
    *factor_of (object) = g_value_get_int64 (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
shuffle_class_init (GObjectClass *object_class,
                    const char   *factor)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);

  object_class->get_property = shuffle_get_property;
  object_class->set_property = shuffle_set_property;
  module_class->forward = shuffle_forward;
  module_class->extra_repr = shuffle_extra_repr;
  /* any int: a bad factor is forward's error, with torch's message */
  g_object_class_install_property (object_class, PROP_FACTOR, gnn_nn_int_property (factor, -G_MAXINT32, 1));
}

static void
gnn_pixel_shuffle_class_init (GnnPixelShuffleClass *klass)
{
  /**
   * GnnPixelShuffle:upscale-factor:
   *
   * The factor r (`upscale_factor`).
   *
   * Since: 0.1
   */
  shuffle_class_init (G_OBJECT_CLASS (klass), "upscale-factor");
}

static void
gnn_pixel_unshuffle_class_init (GnnPixelUnshuffleClass *klass)
{
  /**
   * GnnPixelUnshuffle:downscale-factor:
   *
   * The factor r (`downscale_factor`).
   *
   * Since: 0.1
   */
  shuffle_class_init (G_OBJECT_CLASS (klass), "downscale-factor");
}

static void
gnn_pixel_shuffle_init (GnnPixelShuffle *self)
{
  self->factor = 1;
}

static void
gnn_pixel_unshuffle_init (GnnPixelUnshuffle *self)
{
  self->factor = 1;
}

/**
 * gnn_pixel_shuffle_new:
 * @upscale_factor: the factor r
 *
 * Creates `torch.nn.PixelShuffle(upscale_factor)`; forward checks it.
 *
 * Returns: (transfer full): the new layer
 *
 * Since: 0.1
 */
GnnPixelShuffle *
gnn_pixel_shuffle_new (gint64 upscale_factor)
{
  return g_object_new (GNN_TYPE_PIXEL_SHUFFLE, "upscale-factor",
                       CLAMP (upscale_factor, -G_MAXINT32, G_MAXINT32), NULL);
}

/**
 * gnn_pixel_unshuffle_new:
 * @downscale_factor: the factor r
 *
 * Creates `torch.nn.PixelUnshuffle(downscale_factor)`; forward checks it.
 *
 * Returns: (transfer full): the new layer
 *
 * Since: 0.1
 */
GnnPixelUnshuffle *
gnn_pixel_unshuffle_new (gint64 downscale_factor)
{
  return g_object_new (GNN_TYPE_PIXEL_UNSHUFFLE, "downscale-factor",
                       CLAMP (downscale_factor, -G_MAXINT32, G_MAXINT32), NULL);
}
