/* gnn-log-sigmoid.c: the LogSigmoid activation (torch.nn.LogSigmoid)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/**
 * GnnLogSigmoid:
 *
 * Like `torch.nn.LogSigmoid()`: applies `log (sigmoid (x))` elementwise,
 * stably (see [method@Gnn.Tensor.log_sigmoid]).
 *
 * Since: 0.1
 */
struct _GnnLogSigmoid
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnLogSigmoid, gnn_log_sigmoid, GNN_TYPE_MODULE)

static GnnTensor *
gnn_log_sigmoid_forward (GnnModule  *module,
                         GnnTensor  *input,
                         GError    **error)
{
  return gnn_tensor_log_sigmoid (input, error);
}

static void
gnn_log_sigmoid_class_init (GnnLogSigmoidClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_log_sigmoid_forward;
}

static void
gnn_log_sigmoid_init (GnnLogSigmoid *self)
{
}

/**
 * gnn_log_sigmoid_new:
 *
 * Creates the layer, like `torch.nn.LogSigmoid()`; `g_object_new
 * (GNN_TYPE_LOG_SIGMOID, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnLogSigmoid
 *
 * Since: 0.1
 */
GnnLogSigmoid *
gnn_log_sigmoid_new (void)
{
  return g_object_new (GNN_TYPE_LOG_SIGMOID,
                       NULL);
}
