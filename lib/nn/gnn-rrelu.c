/* gnn-rrelu.c: the randomized leaky ReLU activation (torch.nn.RReLU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnRReLU:
 *
 * Like `torch.nn.RReLU(lower=1/8, upper=1/3, inplace=False)`: `x` for
 * `x > 0`, else `a × x`, with `a` drawn uniformly from `[lower, upper)` per
 * element in training (from the default generator, as PyTorch's module
 * draws) and the mean slope `(lower + upper) / 2` in evaluation (see
 * [method@Gnn.Tensor.rrelu]).
 *
 * Since: 0.1
 */
struct _GnnRReLU
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnRReLU, gnn_rrelu, GNN_TYPE_MODULE)

static GnnTensor *
gnn_rrelu_forward (GnnModule  *module,
                   GnnTensor  *input,
                   GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  gboolean training = gnn_module_get_training (module);

  if (v[2] != 0)
    return gnn_activation_inplace_result (gnn_tensor_rrelu_ (input, v[0], v[1], training, NULL,
                                                             error), input);
  return gnn_tensor_rrelu (input, v[0], v[1], training, NULL, error);
}

static char *
gnn_rrelu_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  g_autofree char *s0 = gnn_nn_format_float (v[0]);
  g_autofree char *s1 = gnn_nn_format_float (v[1]);

  return g_strdup_printf ("lower=%s, upper=%s%s", s0, s1,
                          gnn_activation_inplace_repr (v[2] != 0, FALSE));
}

static void
gnn_rrelu_class_init (GnnRReLUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_rrelu_forward, gnn_rrelu_extra_repr);
  /**
   * GnnRReLU:lower:
   *
   * The lowest slope drawn for negative inputs (PyTorch's default 1/8).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "lower", -G_MAXDOUBLE, G_MAXDOUBLE, 1.0 / 8);
  /**
   * GnnRReLU:upper:
   *
   * The highest slope drawn for negative inputs (PyTorch's default 1/3).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 2, "upper", -G_MAXDOUBLE, G_MAXDOUBLE, 1.0 / 3);
  /**
   * GnnRReLU:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 3, "inplace", FALSE);
}

static void
gnn_rrelu_init (GnnRReLU *self)
{
}

/**
 * gnn_rrelu_new:
 * @lower: the value of [property@Gnn.RReLU:lower]
 * @upper: the value of [property@Gnn.RReLU:upper]
 * @inplace: the value of [property@Gnn.RReLU:inplace]
 *
 * Creates the layer, like `torch.nn.RReLU(lower, upper, inplace)`;
 * `g_object_new (GNN_TYPE_RRELU, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnRReLU
 *
 * Since: 0.1
 */
GnnRReLU *
gnn_rrelu_new (double    lower,
               double    upper,
               gboolean  inplace)
{
  return g_object_new (GNN_TYPE_RRELU,
                       "lower", lower,
                       "upper", upper,
                       "inplace", inplace,
                       NULL);
}
