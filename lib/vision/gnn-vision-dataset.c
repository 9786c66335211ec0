/* gnn-vision-dataset.c: the base of the image datasets
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"
#include "vision/gnn-vision-dataset-private.h"

/**
 * GnnVisionDataset:
 *
 * torchvision's `VisionDataset`: a map-style dataset of (input, target)
 * samples under a [property@Gnn.VisionDataset:root] folder, whose input
 * goes through [property@Gnn.VisionDataset:transform] and target through
 * [property@Gnn.VisionDataset:target-transform] in `get_item` — in the
 * loader's workers. An item is two fields: the input (a [class@Gnn.Image]
 * without a transform, as torchvision's PIL image) and the target (a label:
 * a 0-d int64 tensor, which Python's `dataset[i]` gives as an int).
 *
 * Subclasses implement `get_sample`.
 *
 * Since: 0.1
 */
typedef struct
{
  char          *root;
  GnnTransform  *transform;
  GnnTransform  *target_transform;
  GStrv          classes;
} GnnVisionDatasetPrivate;

enum { PROP_0, PROP_ROOT, PROP_TRANSFORM, PROP_TARGET_TRANSFORM, N_PROPS };

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnVisionDataset, gnn_vision_dataset, GNN_TYPE_DATASET)

static void
gnn_vision_dataset_get_item_impl (GnnDataset  *dataset,
                                  gint64       index,
                                  GPtrArray  **out,
                                  GError     **error)
{
  GnnVisionDataset *self = GNN_VISION_DATASET (dataset);
  GnnVisionDatasetPrivate *priv = gnn_vision_dataset_get_instance_private (self);
  GnnVisionDatasetClass *klass = GNN_VISION_DATASET_GET_CLASS (self);
  g_autoptr(GnnTensor) input = NULL, target = NULL;

  if (klass->get_sample == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "%s does not implement get_sample",
                   G_OBJECT_TYPE_NAME (self));
      return;
    }
  if (!klass->get_sample (self, index, &input, &target, error))
    return;
  if (priv->transform != NULL)
    {
      GnnTensor *t = gnn_transform_apply (priv->transform, input, error);

      if (t == NULL)
        return;
      g_object_unref (input);
      input = t;
    }
  if (priv->target_transform != NULL)
    {
      GnnTensor *t = gnn_transform_apply (priv->target_transform, target, error);

      if (t == NULL)
        {
          g_prefix_error (error, "target_transform: ");
          return;
        }
      g_object_unref (target);
      target = t;
    }
  *out = g_ptr_array_new_full (2, g_object_unref);
  g_ptr_array_add (*out, g_steal_pointer (&input));
  g_ptr_array_add (*out, g_steal_pointer (&target));
}

static void
gnn_vision_dataset_finalize (GObject *object)
{
  GnnVisionDatasetPrivate *priv =
    gnn_vision_dataset_get_instance_private (GNN_VISION_DATASET (object));

  g_clear_pointer (&priv->classes, g_strfreev);
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_vision_dataset_parent_class)->finalize (object);
}

static void
gnn_vision_dataset_class_init (GnnVisionDatasetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_vision_dataset_finalize;
  GNN_DATASET_CLASS (klass)->get_item = gnn_vision_dataset_get_item_impl;

  /**
   * GnnVisionDataset:root:
   *
   * The folder of the dataset.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_ROOT,
    g_param_spec_string ("root", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnVisionDataset, root));
  /**
   * GnnVisionDataset:transform:
   *
   * The transform of each input (none: the input as it is).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_TRANSFORM,
    g_param_spec_object ("transform", NULL, NULL, GNN_TYPE_TRANSFORM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnVisionDataset, transform));
  /**
   * GnnVisionDataset:target-transform:
   *
   * The transform of each target (none: the label as it is).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_TARGET_TRANSFORM,
    g_param_spec_object ("target-transform", NULL, NULL, GNN_TYPE_TRANSFORM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnVisionDataset, target_transform));
}

static void
gnn_vision_dataset_init (GnnVisionDataset *self)
{
}

void
gnn_vision_dataset_set_classes (GnnVisionDataset *self,
                                GStrv             classes)
{
  GnnVisionDatasetPrivate *priv = gnn_vision_dataset_get_instance_private (self);

  g_strfreev (priv->classes);
  priv->classes = classes;
}

gpointer
gnn_vision_split_dataset_new (GType          type,
                              const char    *root,
                              gboolean       train,
                              gboolean       download,
                              GnnTransform  *transform,
                              GnnTransform  *target_transform,
                              GError       **error)
{
  g_return_val_if_fail (root != NULL, NULL);
  return g_initable_new (type, NULL, error, "root", root, "train", train, "download", download,
                         "transform", transform, "target-transform", target_transform, NULL);
}

GnnTensor *
gnn_vision_label_new (gint64 label)
{
  return gnn_tensor_new_scalar ((double) label, GNN_DTYPE_I64);
}

/**
 * gnn_vision_dataset_get_root:
 * @self: a #GnnVisionDataset
 *
 * Gets the folder of the dataset (torchvision's `dataset.root`).
 *
 * Returns: (transfer none) (nullable) (type filename): the root
 *
 * Since: 0.1
 */
const char *
gnn_vision_dataset_get_root (GnnVisionDataset *self)
{
  GnnVisionDatasetPrivate *priv;

  g_return_val_if_fail (GNN_IS_VISION_DATASET (self), NULL);
  priv = gnn_vision_dataset_get_instance_private (self);
  return priv->root;
}

/**
 * gnn_vision_dataset_get_transform:
 * @self: a #GnnVisionDataset
 *
 * Gets the transform of the inputs.
 *
 * Returns: (transfer none) (nullable): the transform
 *
 * Since: 0.1
 */
GnnTransform *
gnn_vision_dataset_get_transform (GnnVisionDataset *self)
{
  GnnVisionDatasetPrivate *priv;

  g_return_val_if_fail (GNN_IS_VISION_DATASET (self), NULL);
  priv = gnn_vision_dataset_get_instance_private (self);
  return priv->transform;
}

/**
 * gnn_vision_dataset_get_target_transform:
 * @self: a #GnnVisionDataset
 *
 * Gets the transform of the targets.
 *
 * Returns: (transfer none) (nullable): the transform
 *
 * Since: 0.1
 */
GnnTransform *
gnn_vision_dataset_get_target_transform (GnnVisionDataset *self)
{
  GnnVisionDatasetPrivate *priv;

  g_return_val_if_fail (GNN_IS_VISION_DATASET (self), NULL);
  priv = gnn_vision_dataset_get_instance_private (self);
  return priv->target_transform;
}

/**
 * gnn_vision_dataset_get_classes:
 * @self: a #GnnVisionDataset
 *
 * Gets the names of the classes, torchvision's `dataset.classes`: the
 * class of label `i` is the `i`-th name.
 *
 * Returns: (transfer none) (nullable): the class names, or %NULL when the
 *   dataset has none (FakeData) or is not built
 *
 * Since: 0.1
 */
GStrv
gnn_vision_dataset_get_classes (GnnVisionDataset *self)
{
  GnnVisionDatasetPrivate *priv;

  g_return_val_if_fail (GNN_IS_VISION_DATASET (self), NULL);
  priv = gnn_vision_dataset_get_instance_private (self);
  return priv->classes;
}

/**
 * gnn_vision_dataset_get_sample: (virtual get_sample)
 * @self: a #GnnVisionDataset
 * @index: the index, in `[0, length)`
 * @input: (out) (transfer full): the input, before the transform
 * @target: (out) (transfer full): the target, before the target transform
 * @error: return location for a #GError
 *
 * Reads a sample without its transforms (a subclass implements it; in
 * Python, `do_get_sample`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_vision_dataset_get_sample (GnnVisionDataset  *self,
                               gint64             index,
                               GnnTensor        **input,
                               GnnTensor        **target,
                               GError           **error)
{
  GnnVisionDatasetClass *klass;
  gint64 n;

  g_return_val_if_fail (GNN_IS_VISION_DATASET (self), FALSE);
  g_return_val_if_fail (input != NULL && target != NULL, FALSE);
  *input = *target = NULL;
  n = gnn_dataset_get_length (GNN_DATASET (self));
  if (index < 0 || index >= n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "index %" G_GINT64_FORMAT " is out of range for %s of length %" G_GINT64_FORMAT,
                   index, G_OBJECT_TYPE_NAME (self), n);
      return FALSE;
    }
  klass = GNN_VISION_DATASET_GET_CLASS (self);
  if (klass->get_sample == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "%s does not implement get_sample",
                   G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  return klass->get_sample (self, index, input, target, error);
}
