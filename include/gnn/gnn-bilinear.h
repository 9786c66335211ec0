/* gnn-bilinear.h: a bilinear layer (torch.nn.Bilinear) and its function
 * (torch.nn.functional.bilinear)
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
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_BILINEAR (gnn_bilinear_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBilinear, gnn_bilinear, GNN, BILINEAR, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnBilinear *gnn_bilinear_new              (gint64         in1_features,
                                            gint64         in2_features,
                                            gint64         out_features,
                                            gboolean       bias,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_bilinear_reset_parameters (GnnBilinear   *self,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor   *gnn_tensor_bilinear           (GnnTensor     *input1,
                                            GnnTensor     *input2,
                                            GnnTensor     *weight,
                                            GnnTensor     *bias,
                                            GError       **error);

G_END_DECLS
