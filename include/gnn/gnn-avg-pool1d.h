/* gnn-avg-pool1d.h: 1-d average pooling layer (torch.nn.AvgPool1d)
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

#define GNN_TYPE_AVG_POOL1D (gnn_avg_pool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAvgPool1d, gnn_avg_pool1d, GNN, AVG_POOL1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAvgPool1d *gnn_avg_pool1d_new (gint64   kernel_size,
                                  gint64   stride,
                                  gint64   padding,
                                  gboolean ceil_mode,
                                  gboolean count_include_pad);

G_END_DECLS
