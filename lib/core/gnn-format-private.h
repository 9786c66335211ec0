/* gnn-format-private.h: number formatting shared by the subsystems
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The shortest decimal form that reads back as exactly @value ("0.1", not
 * "0.10000000000000001"; "1" for 1.0), locale-independent; "nan", "inf",
 * "-inf" for the special values. */
char *gnn_format_double_shortest (double value);

/* The name PyTorch would print for @type's class: the GType name, except
 * for types derived in a binding from a class `Net` (PyGObject names them
 * `__main__+Net`, GJS `Gjs_Net`) and Gnn's own (`GnnLinear`), which print
 * as `Net` and `Linear`. */
const char *gnn_format_type_name (GType type);

G_END_DECLS
