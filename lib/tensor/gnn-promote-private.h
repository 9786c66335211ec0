/* gnn-promote-private.h: torch's result_type over several operands, for
 * the elementwise drivers (gnn-promote.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* torch.result_type of @n operands (entries may be NULL): tensors with
 * dimensions, then 0-d tensors, then wrapped numbers, each group only
 * lifting the one above it to a higher category. */
GnnDType gnn_result_type_n  (GnnTensor *const *operands,
                             guint             n);

/* TRUE if a @result may be stored into @out, else torch's "result type
 * Float can't be cast to the desired output type Long" (GNN_ERROR_DTYPE). */
gboolean gnn_check_can_cast (GnnDType   result,
                             GnnDType   out,
                             GError   **error);

G_END_DECLS
