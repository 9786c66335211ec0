/* gnn-tensor-unary-math-private.h: the shared body of the public unary math
 * functions (gnn-tensor-unary-math.c, gnn-tensor-unary-trig.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-pointwise-private.h"

G_BEGIN_DECLS

/* Unary op @id on @self, recorded for autograd as @kind. */
GnnTensor *gnn_unary_math  (GnnUnaryId id, GnnOpKind kind, GnnTensor *self, GError **error);
/* The same in place: @self gets the values (version bumped, recorded). */
gboolean   gnn_unary_math_ (GnnUnaryId id, GnnOpKind kind, GnnTensor *self, GError **error);

G_END_DECLS
