/* gnn-bottleneck.h: ResNet's bottleneck residual block (torchvision.models.resnet.Bottleneck)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_BOTTLENECK (gnn_bottleneck_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBottleneck, gnn_bottleneck, GNN, BOTTLENECK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnBottleneck *gnn_bottleneck_new (gint64     inplanes,
                                   gint64     planes,
                                   gint64     stride,
                                   gboolean   downsample,
                                   GError   **error);

G_END_DECLS
