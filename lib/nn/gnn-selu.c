/* gnn-selu.c: the SELU activation (torch.nn.SELU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnSELU:
 *
 * Like `torch.nn.SELU(inplace=False)`: applies the scaled exponential linear
 * unit elementwise (see [method@Gnn.Tensor.selu]).
 *
 * Since: 0.1
 */
struct _GnnSELU
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnSELU, gnn_selu, GNN_TYPE_MODULE)

static GnnTensor *
gnn_selu_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[0] != 0)
    return gnn_activation_inplace_result (gnn_tensor_selu_ (input, error), input);
  return gnn_tensor_selu (input, error);
}

static char *
gnn_selu_extra_repr (GnnModule *module)
{
  gboolean inplace = GNN_ACTIVATION_BASE (module)->values[0] != 0;

  return g_strdup (gnn_activation_inplace_repr (inplace, TRUE));
}

static void
gnn_selu_class_init (GnnSELUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_selu_forward, gnn_selu_extra_repr);
  /**
   * GnnSELU:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 1, "inplace", FALSE);
}

static void
gnn_selu_init (GnnSELU *self)
{
}

/**
 * gnn_selu_new:
 * @inplace: the value of [property@Gnn.SELU:inplace]
 *
 * Creates the layer, like `torch.nn.SELU(inplace=False)`; `g_object_new
 * (GNN_TYPE_SELU, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnSELU
 *
 * Since: 0.1
 */
GnnSELU *
gnn_selu_new (gboolean  inplace)
{
  return g_object_new (GNN_TYPE_SELU,
                       "inplace", inplace,
                       NULL);
}
