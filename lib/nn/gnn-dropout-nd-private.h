/* gnn-dropout-nd-private.h: for the GnnDropoutNd subclasses
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* The constructor functions: a @type layer, or NULL + @error for a @p
 * outside [0, 1]. */
gpointer gnn_dropout_nd_new (GType         type,
                             double        p,
                             gboolean      inplace,
                             GnnGenerator *generator,
                             GError      **error);

G_END_DECLS
