/* gnn-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

G_DEFINE_QUARK (gnn-error-quark, gnn_error)
