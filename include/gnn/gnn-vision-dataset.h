/* gnn-vision-dataset.h: the base of the image datasets (torchvision's VisionDataset)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-dataset.h>
#include <gnn/gnn-transform.h>

G_BEGIN_DECLS

#define GNN_TYPE_VISION_DATASET (gnn_vision_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnVisionDataset, gnn_vision_dataset, GNN, VISION_DATASET, GnnDataset)

/**
 * GnnVisionDatasetClass:
 * @parent_class: the parent class
 * @get_sample: the sample at @index before the transforms: the input (an
 *   image, or a tensor) and the target (a label, a 0-d int64 tensor);
 *   @index is in range
 *
 * The class of [class@Gnn.VisionDataset].
 *
 * Since: 0.1
 */
struct _GnnVisionDatasetClass
{
  GnnDatasetClass parent_class;

  gboolean (*get_sample) (GnnVisionDataset  *self,
                          gint64             index,
                          GnnTensor        **input,
                          GnnTensor        **target,
                          GError           **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
gboolean      gnn_vision_dataset_get_sample           (GnnVisionDataset  *self,
                                                       gint64             index,
                                                       GnnTensor        **input,
                                                       GnnTensor        **target,
                                                       GError           **error);
GNN_AVAILABLE_IN_ALL
const char   *gnn_vision_dataset_get_root             (GnnVisionDataset *self);
GNN_AVAILABLE_IN_ALL
GnnTransform *gnn_vision_dataset_get_transform        (GnnVisionDataset *self);
GNN_AVAILABLE_IN_ALL
GnnTransform *gnn_vision_dataset_get_target_transform (GnnVisionDataset *self);
GNN_AVAILABLE_IN_ALL
GStrv         gnn_vision_dataset_get_classes          (GnnVisionDataset *self);

G_END_DECLS
