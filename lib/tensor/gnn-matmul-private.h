/* gnn-matmul-private.h: matmul's computation for the other products
 * (mm, bmm, addmm, baddbmm, mv, dot, einsum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* torch.matmul (a, b), not recorded. */
GnnTensor *gnn_matmul_values (GnnTensor *a, GnnTensor *b, GError **error);

G_END_DECLS
