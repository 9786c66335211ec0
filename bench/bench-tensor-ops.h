/* bench-tensor-ops.h: bench-tensor's op rows (bench-tensor-ops.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

/* Whether @name is one of the op rows (cumsum, sort, topk, gather,
 * scatter_add, bmm, logsumexp, einsum). */
gboolean bench_tensor_op_known (const char *name);

/* Checks, times and prints one op row (a JSON result line). */
gboolean bench_tensor_op       (const char   *name,
                                guint         reps,
                                double        min_time,
                                GnnGenerator *gen,
                                GError      **error);
