/* gnn-transform.c: the base class of image transforms
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnTransform:
 *
 * An image transform, a callable of `torchvision.transforms`: it takes an
 * image ([class@Gnn.Image], torchvision's PIL image) or a tensor image
 * (`[..., C, H, W]`) and returns what torchvision's transform returns for
 * it — the same kind (an image for an image) for geometric and colour
 * transforms, a tensor for [class@Gnn.ToTensor] and
 * [class@Gnn.PILToTensor]. Datasets apply their `transform` and
 * `target-transform` in `get_item`, so transforms run inside the loader's
 * workers (threads, forked or spawned processes) in C.
 *
 * Every transform's configuration is its properties (a spawned worker
 * rebuilds it from them). Random transforms draw from the generator of the
 * sample the loader is fetching ([func@Gnn.get_sample_generator]) — so a
 * loader pass is the same whatever its worker mode and count, and a
 * resumed pass draws what the interrupted one would have drawn — and,
 * called directly, from the default generator
 * ([func@Gnn.Generator.get_default]) as torchvision draws from torch's.
 *
 * Subclasses implement `apply`; in Python `do_apply`, in GJS `vfunc_apply`.
 * A configuration that cannot work (a size of three values, a minimum
 * above its maximum) fails `g_initable_init()` (the C constructors return
 * its error); a transform built by `g_object_new()` alone returns that
 * error from every apply. Transforms are safe to apply from several
 * threads at once.
 *
 * Since: 0.1
 */
static gboolean
gnn_transform_initable_init (GInitable     *initable,
                             GCancellable  *cancellable,
                             GError       **error)
{
  GnnTransformClass *klass = GNN_TRANSFORM_GET_CLASS (initable);

  return klass->validate == NULL || klass->validate (GNN_TRANSFORM (initable), error);
}

static void
gnn_transform_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_transform_initable_init;
}

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnTransform, gnn_transform, G_TYPE_OBJECT,
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_transform_initable_iface_init))

static void
gnn_transform_finalize (GObject *object)
{
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_transform_parent_class)->finalize (object);
}

static void
gnn_transform_class_init (GnnTransformClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_transform_finalize;
}

static void
gnn_transform_init (GnnTransform *self)
{
}

/**
 * gnn_transform_apply: (virtual apply)
 * @self: a #GnnTransform
 * @input: an image ([class@Gnn.Image]) or a tensor image `[..., C, H, W]`
 *   (for a target transform, the label)
 * @error: return location for a #GError
 *
 * Applies the transform, like calling a torchvision transform. An input
 * the transform does not take (an image where it needs a tensor, a wrong
 * dtype or number of channels) is an error naming the transform and what
 * it got, with torchvision's words.
 *
 * Returns: (transfer full): the result (@input itself when the transform
 *   leaves it as it is, as torchvision returns its input), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transform_apply (GnnTransform  *self,
                     GnnTensor     *input,
                     GError       **error)
{
  GnnTransformClass *klass;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TRANSFORM (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  klass = GNN_TRANSFORM_GET_CLASS (self);
  if (klass->validate != NULL && !klass->validate (self, error))
    return NULL;
  if (klass->apply == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement apply", G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  out = klass->apply (self, input, error);
  if (out == NULL && error != NULL && *error == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s.apply returned no result",
                 G_OBJECT_TYPE_NAME (self));
  return out;
}
