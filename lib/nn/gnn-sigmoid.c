/* gnn-sigmoid.c: the logistic sigmoid (torch.nn.Sigmoid)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"

/**
 * GnnSigmoid:
 *
 * Applies the logistic sigmoid 1 / (1 + e⁻ˣ) elementwise, like
 * `torch.nn.Sigmoid()`.
 *
 * Since: 0.1
 */
struct _GnnSigmoid
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnSigmoid, gnn_sigmoid, GNN_TYPE_MODULE)

static GnnTensor *
gnn_sigmoid_forward (GnnModule  *module,
                     GnnTensor  *input,
                     GError    **error)
{
  return gnn_tensor_sigmoid (input, error);
}

static void
gnn_sigmoid_class_init (GnnSigmoidClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_sigmoid_forward;
}

static void
gnn_sigmoid_init (GnnSigmoid *self)
{
}

/**
 * gnn_sigmoid_new:
 *
 * Creates the layer, like `torch.nn.Sigmoid()`.
 *
 * Returns: (transfer full): a new GnnSigmoid
 *
 * Since: 0.1
 */
GnnSigmoid *
gnn_sigmoid_new (void)
{
  return g_object_new (GNN_TYPE_SIGMOID, NULL);
}
