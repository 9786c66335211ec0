/* gnn-tanh.c: the hyperbolic tangent (torch.nn.Tanh)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"

/**
 * GnnTanh:
 *
 * Applies the hyperbolic tangent elementwise, like `torch.nn.Tanh()`.
 *
 * Since: 0.1
 */
struct _GnnTanh
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnTanh, gnn_tanh, GNN_TYPE_MODULE)

static GnnTensor *
gnn_tanh_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  return gnn_tensor_tanh (input, error);
}

static void
gnn_tanh_class_init (GnnTanhClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_tanh_forward;
}

static void
gnn_tanh_init (GnnTanh *self)
{
}

/**
 * gnn_tanh_new:
 *
 * Creates the layer, like `torch.nn.Tanh()`.
 *
 * Returns: (transfer full): a new GnnTanh
 *
 * Since: 0.1
 */
GnnTanh *
gnn_tanh_new (void)
{
  return g_object_new (GNN_TYPE_TANH, NULL);
}
