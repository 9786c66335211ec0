/* gnn-adaptive-pool-nd-private.h: what the adaptive pooling layer classes
 * share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* For a subclass's class_init: records the number of pooled dimensions
 * (1 to 3) and whether the layer takes the maximum on @klass, and installs
 * its properties "output-size" (one dimension) or "output-size-d/-h/-w",
 * and "return-indices" for the max layers. The subclass documents them. */
void     gnn_adaptive_pool_nd_class_setup (GnnAdaptivePoolNdClass *klass,
                                           guint                   n_spatial,
                                           gboolean                max);

/* The constructor functions: a @type layer pooling to @output_size (one
 * value per dimension, -1 for "the input's size", torch's None); NULL +
 * @error for a size out of range. */
gpointer gnn_adaptive_pool_nd_new         (GType                   type,
                                           const gint64           *output_size,
                                           gboolean                return_indices,
                                           GError                **error);

G_END_DECLS
