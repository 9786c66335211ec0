/* gnn-format-private.h: number formatting shared by the subsystems
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The shortest decimal form that reads back as exactly @value ("0.1", not
 * "0.10000000000000001"; "1" for 1.0), locale-independent; "nan", "inf",
 * "-inf" for the special values. */
char *gnn_format_double_shortest (double value);

G_END_DECLS
