/* gnn-tensor-vector-norm.h: the vector p-norm over dims (torch.norm,
 * torch.linalg.vector_norm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_norm (GnnTensor   *self,
                            double       p,
                            const gint  *dims,
                            guint        n_dims,
                            gboolean     keepdim,
                            GError     **error);

G_END_DECLS
