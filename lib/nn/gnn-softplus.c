/* gnn-softplus.c: the Softplus activation (torch.nn.Softplus)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnSoftplus:
 *
 * Like `torch.nn.Softplus(beta=1, threshold=20)`: applies `log (1 + exp (beta
 * × x)) / beta` elementwise, and `x` itself where `beta × x > threshold` (see
 * [method@Gnn.Tensor.softplus]).
 *
 * Since: 0.1
 */
struct _GnnSoftplus
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnSoftplus, gnn_softplus, GNN_TYPE_MODULE)

static GnnTensor *
gnn_softplus_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  return gnn_tensor_softplus (input, v[0], v[1], error);
}

static char *
gnn_softplus_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  g_autofree char *s0 = gnn_nn_format_number (v[0]);
  g_autofree char *s1 = gnn_nn_format_number (v[1]);

  return g_strdup_printf ("beta=%s, threshold=%s",
                          s0,
                          s1);
}

static void
gnn_softplus_class_init (GnnSoftplusClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_softplus_forward, gnn_softplus_extra_repr);
  /**
   * GnnSoftplus:beta:
   *
   * The sharpness of the curve.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "beta", -G_MAXDOUBLE, G_MAXDOUBLE, 1.0);
  /**
   * GnnSoftplus:threshold:
   *
   * Above `beta × x > threshold` the output is x itself.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 2, "threshold", -G_MAXDOUBLE, G_MAXDOUBLE, 20.0);
}

static void
gnn_softplus_init (GnnSoftplus *self)
{
}

/**
 * gnn_softplus_new:
 * @beta: the value of [property@Gnn.Softplus:beta]
 * @threshold: the value of [property@Gnn.Softplus:threshold]
 *
 * Creates the layer, like `torch.nn.Softplus(beta=1, threshold=20)`;
 * `g_object_new (GNN_TYPE_SOFTPLUS, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnSoftplus
 *
 * Since: 0.1
 */
GnnSoftplus *
gnn_softplus_new (double    beta,
                  double    threshold)
{
  return g_object_new (GNN_TYPE_SOFTPLUS,
                       "beta", beta,
                       "threshold", threshold,
                       NULL);
}
