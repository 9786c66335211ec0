/* gnn-fake-data.h: random images (torchvision.datasets.FakeData)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-vision-dataset.h>

G_BEGIN_DECLS

#define GNN_TYPE_FAKE_DATA (gnn_fake_data_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFakeData, gnn_fake_data, GNN, FAKE_DATA, GnnVisionDataset)

GNN_AVAILABLE_IN_ALL
GnnFakeData *gnn_fake_data_new (gint64          size,
                                const gint64   *image_size,
                                gsize           n_image_size,
                                gint64          num_classes,
                                GnnTransform   *transform,
                                GnnTransform   *target_transform,
                                gint64          random_offset,
                                GError        **error);

G_END_DECLS
