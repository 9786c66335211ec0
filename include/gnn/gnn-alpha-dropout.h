/* gnn-alpha-dropout.h: alpha dropout (torch.nn.AlphaDropout)
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

#define GNN_TYPE_ALPHA_DROPOUT (gnn_alpha_dropout_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAlphaDropout, gnn_alpha_dropout, GNN, ALPHA_DROPOUT, GnnDropoutNd)

GNN_AVAILABLE_IN_ALL
GnnAlphaDropout *gnn_alpha_dropout_new (double        p,
                                        gboolean      inplace,
                                        GnnGenerator *generator,
                                        GError      **error);

G_END_DECLS
