/* gnn-elu.c: the exponential linear units with an alpha (torch.nn.ELU,
 * torch.nn.CELU): one implementation, the function a switch on the type
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnELU:
 *
 * Like `torch.nn.ELU(alpha=1.0, inplace=False)`: applies the exponential
 * linear unit, `x` for `x > 0` and `alpha × (exp (x) - 1)` otherwise,
 * elementwise (see [method@Gnn.Tensor.elu]).
 *
 * Since: 0.1
 */

/**
 * GnnCELU:
 *
 * Like `torch.nn.CELU(alpha=1.0, inplace=False)`: applies the continuously
 * differentiable exponential linear unit, `max (0, x) + min (0, alpha ×
 * (exp (x / alpha) - 1))`, elementwise (see [method@Gnn.Tensor.celu]); an
 * alpha of 0 fails in forward with PyTorch's message.
 *
 * Since: 0.1
 */

/* Settings: values[0] alpha, values[1] inplace. */
struct _GnnELU
{
  GnnActivationBase base;
};

struct _GnnCELU
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnELU, gnn_elu, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnCELU, gnn_celu, GNN_TYPE_MODULE)

static GnnTensor *
family_forward (GnnModule  *module,
                GnnTensor  *input,
                GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  gboolean celu = GNN_IS_CELU (module);

  if (v[1] != 0)
    return gnn_activation_inplace_result (celu ? gnn_tensor_celu_ (input, v[0], error)
                                               : gnn_tensor_elu_ (input, v[0], error), input);
  return celu ? gnn_tensor_celu (input, v[0], error) : gnn_tensor_elu (input, v[0], error);
}

static char *
family_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  g_autofree char *alpha = gnn_nn_format_float (v[0]);

  return g_strdup_printf ("alpha=%s%s", alpha, gnn_activation_inplace_repr (v[1] != 0, FALSE));
}

static void
family_class_init (GObjectClass *object_class)
{
  gnn_activation_class_setup (object_class, family_forward, family_extra_repr);
  gnn_nn_class_add_double (object_class, 1, "alpha", -G_MAXDOUBLE, G_MAXDOUBLE, 1.0);
  gnn_nn_class_add_boolean (object_class, 2, "inplace", FALSE);
}

static void
gnn_elu_class_init (GnnELUClass *klass)
{
  /**
   * GnnELU:alpha:
   *
   * The value the output approaches for large negative inputs.
   *
   * Since: 0.1
   */
  /**
   * GnnELU:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  family_class_init (G_OBJECT_CLASS (klass));
}

static void
gnn_celu_class_init (GnnCELUClass *klass)
{
  /**
   * GnnCELU:alpha:
   *
   * The scale of the negative part.
   *
   * Since: 0.1
   */
  /**
   * GnnCELU:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  family_class_init (G_OBJECT_CLASS (klass));
}

static void
gnn_elu_init (GnnELU *self)
{
}

static void
gnn_celu_init (GnnCELU *self)
{
}

/**
 * gnn_elu_new:
 * @alpha: the value of [property@Gnn.ELU:alpha]
 * @inplace: the value of [property@Gnn.ELU:inplace]
 *
 * Creates the layer, like `torch.nn.ELU(alpha, inplace)`; `g_object_new
 * (GNN_TYPE_ELU, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnELU
 *
 * Since: 0.1
 */
GnnELU *
gnn_elu_new (double   alpha,
             gboolean inplace)
{
  return g_object_new (GNN_TYPE_ELU, "alpha", alpha, "inplace", inplace, NULL);
}

/**
 * gnn_celu_new:
 * @alpha: the value of [property@Gnn.CELU:alpha]
 * @inplace: the value of [property@Gnn.CELU:inplace]
 *
 * Creates the layer, like `torch.nn.CELU(alpha, inplace)`; `g_object_new
 * (GNN_TYPE_CELU, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnCELU
 *
 * Since: 0.1
 */
GnnCELU *
gnn_celu_new (double   alpha,
              gboolean inplace)
{
  return g_object_new (GNN_TYPE_CELU, "alpha", alpha, "inplace", inplace, NULL);
}
