/* gnn-tensor-sample.h: drawing from distributions a tensor describes —
 * multinomial and bernoulli
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
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_multinomial (GnnTensor *self, gint64 num_samples, gboolean replacement,
                                   GnnGenerator *generator, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bernoulli   (GnnTensor *self, GnnGenerator *generator, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_bernoulli_  (GnnTensor *self, double p, GnnGenerator *generator,
                                   GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_bernoulli_tensor_ (GnnTensor *self, GnnTensor *p, GnnGenerator *generator,
                                         GError **error);

G_END_DECLS
