/* gnn-softsign.c: the Softsign activation (torch.nn.Softsign)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/**
 * GnnSoftsign:
 *
 * Like `torch.nn.Softsign()`: applies `x / (1 + |x|)` elementwise (see
 * [method@Gnn.Tensor.softsign]).
 *
 * Since: 0.1
 */
struct _GnnSoftsign
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnSoftsign, gnn_softsign, GNN_TYPE_MODULE)

static GnnTensor *
gnn_softsign_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  return gnn_tensor_softsign (input, error);
}

static void
gnn_softsign_class_init (GnnSoftsignClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_softsign_forward;
}

static void
gnn_softsign_init (GnnSoftsign *self)
{
}

/**
 * gnn_softsign_new:
 *
 * Creates the layer, like `torch.nn.Softsign()`; `g_object_new
 * (GNN_TYPE_SOFTSIGN, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnSoftsign
 *
 * Since: 0.1
 */
GnnSoftsign *
gnn_softsign_new (void)
{
  return g_object_new (GNN_TYPE_SOFTSIGN,
                       NULL);
}
