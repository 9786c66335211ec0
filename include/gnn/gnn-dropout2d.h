/* gnn-dropout2d.h: channel-wise dropout of `[n (torch.nn.Dropout2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-generator.h>
#include <gnn/gnn-dropout-nd.h>

G_BEGIN_DECLS

#define GNN_TYPE_DROPOUT2D (gnn_dropout2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDropout2d, gnn_dropout2d, GNN, DROPOUT2D, GnnDropoutNd)

GNN_AVAILABLE_IN_ALL
GnnDropout2d *gnn_dropout2d_new (double        p,
                                 gboolean      inplace,
                                 GnnGenerator *generator,
                                 GError      **error);

G_END_DECLS
