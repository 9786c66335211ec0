/* gnn-threshold.h: the Threshold activation (torch.nn.Threshold)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_THRESHOLD (gnn_threshold_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnThreshold, gnn_threshold, GNN, THRESHOLD, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnThreshold *gnn_threshold_new (double    threshold,
                                 double    value,
                                 gboolean  inplace);

G_END_DECLS
