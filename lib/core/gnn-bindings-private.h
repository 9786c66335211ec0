/* gnn-bindings-private.h: what the library must know about the language
 * runtime a class was written in
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Whether @type or an ancestor is a class written in JavaScript (GJS's
 * GObject.registerClass). Such a class runs only on the thread of its GJS
 * context and keeps its properties in JavaScript. Cheap (no lookup at all)
 * when GJS is not loaded. */
gboolean gnn_type_is_javascript (GType type);

/* Whether GJS has registered a class in this process yet. */
gboolean gnn_javascript_loaded (void);

/* Whether @type itself (not an ancestor) was registered by GJS. */
gboolean gnn_type_is_own_javascript (GType type);

G_END_DECLS
