/* gnn-non-dynamically-quantizable-linear.c: MultiheadAttention's output
 * projection (torch.nn.modules.linear.NonDynamicallyQuantizableLinear)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"

/**
 * GnnNonDynamicallyQuantizableLinear:
 *
 * A [class@Gnn.Linear] under another name, as in PyTorch, where
 * `MultiheadAttention.out_proj` is a `NonDynamicallyQuantizableLinear` (a
 * marker for its quantization tools) and prints as one:
 * `(out_proj): NonDynamicallyQuantizableLinear(in_features=512,
 * out_features=512, bias=True)`. Same properties, parameters,
 * initialization and forward as [class@Gnn.Linear].
 *
 * Since: 0.1
 */
struct _GnnNonDynamicallyQuantizableLinear
{
  GnnLinear parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnNonDynamicallyQuantizableLinear, gnn_non_dynamically_quantizable_linear,
                     GNN_TYPE_LINEAR)

static void
gnn_non_dynamically_quantizable_linear_class_init (GnnNonDynamicallyQuantizableLinearClass *klass)
{
}

static void
gnn_non_dynamically_quantizable_linear_init (GnnNonDynamicallyQuantizableLinear *self)
{
}
