/* gnn-leaky-relu.c: the LeakyReLU activation (torch.nn.LeakyReLU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnLeakyReLU:
 *
 * Like `torch.nn.LeakyReLU(negative_slope=0.01, inplace=False)`: applies `x`
 * for `x > 0` and `negative_slope × x` otherwise, elementwise (see
 * [method@Gnn.Tensor.leaky_relu]).
 *
 * Since: 0.1
 */
struct _GnnLeakyReLU
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnLeakyReLU, gnn_leaky_relu, GNN_TYPE_MODULE)

static GnnTensor *
gnn_leaky_relu_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[1] != 0)
    return gnn_activation_inplace_result (gnn_tensor_leaky_relu_ (input, v[0], error), input);
  return gnn_tensor_leaky_relu (input, v[0], error);
}

static char *
gnn_leaky_relu_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  g_autofree char *s0 = gnn_nn_format_float (v[0]);

  return g_strdup_printf ("negative_slope=%s%s",
                          s0,
                          gnn_activation_inplace_repr (v[1] != 0, FALSE));
}

static void
gnn_leaky_relu_class_init (GnnLeakyReLUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_leaky_relu_forward, gnn_leaky_relu_extra_repr);
  /**
   * GnnLeakyReLU:negative-slope:
   *
   * The slope for negative inputs.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "negative-slope", -G_MAXDOUBLE, G_MAXDOUBLE, 0.01);
  /**
   * GnnLeakyReLU:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 2, "inplace", FALSE);
}

static void
gnn_leaky_relu_init (GnnLeakyReLU *self)
{
}

/**
 * gnn_leaky_relu_new:
 * @negative_slope: the value of [property@Gnn.LeakyReLU:negative-slope]
 * @inplace: the value of [property@Gnn.LeakyReLU:inplace]
 *
 * Creates the layer, like `torch.nn.LeakyReLU(negative_slope=0.01,
 * inplace=False)`; `g_object_new (GNN_TYPE_LEAKY_RELU, NULL)` gives PyTorch's
 * defaults.
 *
 * Returns: (transfer full): a new GnnLeakyReLU
 *
 * Since: 0.1
 */
GnnLeakyReLU *
gnn_leaky_relu_new (double    negative_slope,
                    gboolean  inplace)
{
  return g_object_new (GNN_TYPE_LEAKY_RELU,
                       "negative-slope", negative_slope,
                       "inplace", inplace,
                       NULL);
}
