/* gnn-max-pool1d.h: 1-d max pooling layer (torch.nn.MaxPool1d)
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

#define GNN_TYPE_MAX_POOL1D (gnn_max_pool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxPool1d, gnn_max_pool1d, GNN, MAX_POOL1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMaxPool1d *gnn_max_pool1d_new (gint64   kernel_size,
                                  gint64   stride,
                                  gint64   padding,
                                  gint64   dilation,
                                  gboolean ceil_mode);

G_END_DECLS
