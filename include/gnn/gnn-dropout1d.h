/* gnn-dropout1d.h: channel-wise dropout of `[n (torch.nn.Dropout1d)
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

#define GNN_TYPE_DROPOUT1D (gnn_dropout1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDropout1d, gnn_dropout1d, GNN, DROPOUT1D, GnnDropoutNd)

GNN_AVAILABLE_IN_ALL
GnnDropout1d *gnn_dropout1d_new (double        p,
                                 gboolean      inplace,
                                 GnnGenerator *generator,
                                 GError      **error);

G_END_DECLS
