/* gnn-threshold.c: the Threshold activation (torch.nn.Threshold)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnThreshold:
 *
 * Like `torch.nn.Threshold(threshold, value, inplace=False)`: replaces every
 * element `x <= threshold` by `value` (see [method@Gnn.Tensor.threshold]).
 *
 * Since: 0.1
 */
struct _GnnThreshold
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnThreshold, gnn_threshold, GNN_TYPE_MODULE)

static GnnTensor *
gnn_threshold_forward (GnnModule  *module,
                       GnnTensor  *input,
                       GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[2] != 0)
    return gnn_activation_inplace_result (gnn_tensor_threshold_ (input, v[0], v[1], error), input);
  return gnn_tensor_threshold (input, v[0], v[1], error);
}

static char *
gnn_threshold_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  g_autofree char *s0 = gnn_nn_format_number (v[0]);
  g_autofree char *s1 = gnn_nn_format_number (v[1]);

  return g_strdup_printf ("threshold=%s, value=%s%s",
                          s0,
                          s1,
                          gnn_activation_inplace_repr (v[2] != 0, FALSE));
}

static void
gnn_threshold_class_init (GnnThresholdClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_threshold_forward, gnn_threshold_extra_repr);
  /**
   * GnnThreshold:threshold:
   *
   * Elements at or below it are replaced.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "threshold", -G_MAXDOUBLE, G_MAXDOUBLE, 0.0);
  /**
   * GnnThreshold:value:
   *
   * The replacement.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 2, "value", -G_MAXDOUBLE, G_MAXDOUBLE, 0.0);
  /**
   * GnnThreshold:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 3, "inplace", FALSE);
}

static void
gnn_threshold_init (GnnThreshold *self)
{
}

/**
 * gnn_threshold_new:
 * @threshold: the value of [property@Gnn.Threshold:threshold]
 * @value: the value of [property@Gnn.Threshold:value]
 * @inplace: the value of [property@Gnn.Threshold:inplace]
 *
 * Creates the layer, like `torch.nn.Threshold(threshold, value,
 * inplace=False)`; `g_object_new (GNN_TYPE_THRESHOLD, NULL)` gives PyTorch's
 * defaults.
 *
 * Returns: (transfer full): a new GnnThreshold
 *
 * Since: 0.1
 */
GnnThreshold *
gnn_threshold_new (double    threshold,
                   double    value,
                   gboolean  inplace)
{
  return g_object_new (GNN_TYPE_THRESHOLD,
                       "threshold", threshold,
                       "value", value,
                       "inplace", inplace,
                       NULL);
}
