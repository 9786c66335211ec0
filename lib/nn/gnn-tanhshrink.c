/* gnn-tanhshrink.c: the Tanhshrink activation (torch.nn.Tanhshrink)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/**
 * GnnTanhshrink:
 *
 * Like `torch.nn.Tanhshrink()`: applies `x - tanh (x)` elementwise (see
 * [method@Gnn.Tensor.tanhshrink]).
 *
 * Since: 0.1
 */
struct _GnnTanhshrink
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnTanhshrink, gnn_tanhshrink, GNN_TYPE_MODULE)

static GnnTensor *
gnn_tanhshrink_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  return gnn_tensor_tanhshrink (input, error);
}

static void
gnn_tanhshrink_class_init (GnnTanhshrinkClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_tanhshrink_forward;
}

static void
gnn_tanhshrink_init (GnnTanhshrink *self)
{
}

/**
 * gnn_tanhshrink_new:
 *
 * Creates the layer, like `torch.nn.Tanhshrink()`; `g_object_new
 * (GNN_TYPE_TANHSHRINK, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnTanhshrink
 *
 * Since: 0.1
 */
GnnTanhshrink *
gnn_tanhshrink_new (void)
{
  return g_object_new (GNN_TYPE_TANHSHRINK,
                       NULL);
}
