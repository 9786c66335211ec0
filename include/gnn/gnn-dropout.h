/* gnn-dropout.h: random zeroing during training (torch.nn.Dropout)
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

#define GNN_TYPE_DROPOUT (gnn_dropout_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDropout, gnn_dropout, GNN, DROPOUT, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDropout   *gnn_dropout_new           (double         p,
                                         gboolean       inplace,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
double        gnn_dropout_get_p         (GnnDropout    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_dropout_get_inplace   (GnnDropout    *self);
GNN_AVAILABLE_IN_ALL
GnnGenerator *gnn_dropout_get_generator (GnnDropout    *self);

GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_dropout               (GnnTensor     *input,
                                         double         p,
                                         gboolean       training,
                                         gboolean       inplace,
                                         GnnGenerator  *generator,
                                         GError       **error);

G_END_DECLS
