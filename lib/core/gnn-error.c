/* gnn-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/**
 * gnn_error_quark:
 *
 * Gets the quark of the %GNN_ERROR domain.
 *
 * Returns: the error domain quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (gnn-error-quark, gnn_error)
