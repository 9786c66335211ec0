/* gnn-shrinks.c: the shrinkage activations (torch.nn.Hardshrink,
 * torch.nn.Softshrink): one setting, lambd; one implementation, the
 * function a switch on the type
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnHardshrink:
 *
 * Like `torch.nn.Hardshrink(lambd=0.5)`: zeroes the elements in
 * [-lambd, lambd] and keeps the others (see
 * [method@Gnn.Tensor.hardshrink]). It prints as `Hardshrink(0.5)`.
 *
 * Since: 0.1
 */
struct _GnnHardshrink
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnHardshrink, gnn_hardshrink, GNN_TYPE_MODULE)

/**
 * GnnSoftshrink:
 *
 * Like `torch.nn.Softshrink(lambd=0.5)`: moves every element towards 0 by
 * lambd, zeroing those in [-lambd, lambd] (see
 * [method@Gnn.Tensor.softshrink]); a negative lambd makes forward fail with
 * PyTorch's message. It prints as `Softshrink(0.5)`.
 *
 * Since: 0.1
 */
struct _GnnSoftshrink
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnSoftshrink, gnn_softshrink, GNN_TYPE_MODULE)

static GnnTensor *
shrink_forward (GnnModule  *module,
                GnnTensor  *input,
                GError    **error)
{
  double lambd = GNN_ACTIVATION_BASE (module)->values[0];

  if (GNN_IS_HARDSHRINK (module))
    return gnn_tensor_hardshrink (input, lambd, error);
  return gnn_tensor_softshrink (input, lambd, error);
}

/* PyTorch's extra_repr: str(self.lambd) */
static char *
shrink_extra_repr (GnnModule *module)
{
  return gnn_nn_format_float (GNN_ACTIVATION_BASE (module)->values[0]);
}

static void
gnn_hardshrink_class_init (GnnHardshrinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, shrink_forward, shrink_extra_repr);
  /**
   * GnnHardshrink:lambd:
   *
   * The half-width of the band that is zeroed.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "lambd", -G_MAXDOUBLE, G_MAXDOUBLE, 0.5);
}

static void
gnn_softshrink_class_init (GnnSoftshrinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, shrink_forward, shrink_extra_repr);
  /**
   * GnnSoftshrink:lambd:
   *
   * The shrinkage (PyTorch checks it is at least 0 in forward).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "lambd", -G_MAXDOUBLE, G_MAXDOUBLE, 0.5);
}

static void
gnn_hardshrink_init (GnnHardshrink *self)
{
}

static void
gnn_softshrink_init (GnnSoftshrink *self)
{
}

/**
 * gnn_hardshrink_new:
 * @lambd: the value of [property@Gnn.Hardshrink:lambd]
 *
 * Creates the layer, like `torch.nn.Hardshrink(lambd)`;
 * `g_object_new (GNN_TYPE_HARDSHRINK, NULL)` gives PyTorch's default.
 *
 * Returns: (transfer full): a new GnnHardshrink
 *
 * Since: 0.1
 */
GnnHardshrink *
gnn_hardshrink_new (double lambd)
{
  return g_object_new (GNN_TYPE_HARDSHRINK, "lambd", lambd, NULL);
}

/**
 * gnn_softshrink_new:
 * @lambd: the value of [property@Gnn.Softshrink:lambd]
 *
 * Creates the layer, like `torch.nn.Softshrink(lambd)`;
 * `g_object_new (GNN_TYPE_SOFTSHRINK, NULL)` gives PyTorch's default.
 *
 * Returns: (transfer full): a new GnnSoftshrink
 *
 * Since: 0.1
 */
GnnSoftshrink *
gnn_softshrink_new (double lambd)
{
  return g_object_new (GNN_TYPE_SOFTSHRINK, "lambd", lambd, NULL);
}
