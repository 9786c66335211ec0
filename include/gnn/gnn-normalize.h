/* gnn-normalize.h: per-channel normalization (torchvision.transforms.Normalize)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-transform.h>
#include <gnn/gnn-vision-functional.h>

G_BEGIN_DECLS

#define GNN_TYPE_NORMALIZE (gnn_normalize_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNormalize, gnn_normalize, GNN, NORMALIZE, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnNormalize *gnn_normalize_new (const double  *mean,
                                 gsize          n_mean,
                                 const double  *std,
                                 gsize          n_std,
                                 gboolean       inplace,
                                 GError       **error);

G_END_DECLS
