/* gnn-pad-nd-private.h: what the padding layer classes share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* For a subclass's class_init: records the number of padded dimensions
 * (1 to 3), the mode and whether the layer has a fill value on @klass, and
 * installs its properties "padding-left", "padding-right", then
 * "padding-top" / "padding-bottom" and "padding-front" / "padding-back"
 * as the dimensions need, and "value" when @has_value. The subclass
 * documents them. */
void     gnn_pad_nd_class_setup (GnnPadNdClass  *klass,
                                 guint           n_spatial,
                                 GnnPaddingMode  mode,
                                 gboolean        has_value);

/* The constructor functions: a @type layer padding by @padding (2 ×
 * n_spatial values in torch's order: left, right, top, bottom, front,
 * back), filling with @value; NULL + @error for a pad outside the
 * properties' range. */
gpointer gnn_pad_nd_new         (GType           type,
                                 const gint64   *padding,
                                 double          value,
                                 GError        **error);

G_END_DECLS
