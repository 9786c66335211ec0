/* gnn-feature-alpha-dropout.h: channel-wise alpha dropout (torch.nn.FeatureAlphaDropout)
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

#define GNN_TYPE_FEATURE_ALPHA_DROPOUT (gnn_feature_alpha_dropout_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFeatureAlphaDropout, gnn_feature_alpha_dropout, GNN, FEATURE_ALPHA_DROPOUT, GnnDropoutNd)

GNN_AVAILABLE_IN_ALL
GnnFeatureAlphaDropout *gnn_feature_alpha_dropout_new (double        p,
                                                       gboolean      inplace,
                                                       GnnGenerator *generator,
                                                       GError      **error);

G_END_DECLS
