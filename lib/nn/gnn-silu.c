/* gnn-silu.c: the SiLU activation (torch.nn.SiLU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnSiLU:
 *
 * Like `torch.nn.SiLU(inplace=False)`: applies the sigmoid-weighted linear
 * unit `x × sigmoid (x)` elementwise (see [method@Gnn.Tensor.silu]).
 *
 * Since: 0.1
 */
struct _GnnSiLU
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnSiLU, gnn_silu, GNN_TYPE_MODULE)

static GnnTensor *
gnn_silu_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[0] != 0)
    return gnn_activation_inplace_result (gnn_tensor_silu_ (input, error), input);
  return gnn_tensor_silu (input, error);
}

static char *
gnn_silu_extra_repr (GnnModule *module)
{
  gboolean inplace = GNN_ACTIVATION_BASE (module)->values[0] != 0;

  return g_strdup (gnn_activation_inplace_repr (inplace, TRUE));
}

static void
gnn_silu_class_init (GnnSiLUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_silu_forward, gnn_silu_extra_repr);
  /**
   * GnnSiLU:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 1, "inplace", FALSE);
}

static void
gnn_silu_init (GnnSiLU *self)
{
}

/**
 * gnn_silu_new:
 * @inplace: the value of [property@Gnn.SiLU:inplace]
 *
 * Creates the layer, like `torch.nn.SiLU(inplace=False)`; `g_object_new
 * (GNN_TYPE_SILU, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnSiLU
 *
 * Since: 0.1
 */
GnnSiLU *
gnn_silu_new (gboolean  inplace)
{
  return g_object_new (GNN_TYPE_SILU,
                       "inplace", inplace,
                       NULL);
}
