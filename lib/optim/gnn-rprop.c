/* gnn-rprop.c: Rprop (torch 1.13 _single_tensor_rprop)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnRprop:
 *
 * The resilient backpropagation optimizer with the update of PyTorch
 * 1.13's `torch.optim.Rprop`: each element has its own step size (starting
 * at the group's `lr`), multiplied by [property@Gnn.Rprop:etaplus] while
 * the gradient keeps its sign and by [property@Gnn.Rprop:etaminus] when it
 * flips (clamped to [property@Gnn.Rprop:step-size-min] ..
 * [property@Gnn.Rprop:step-size-max]); the parameter moves by the step size
 * against the gradient's sign, and not at all just after a flip.
 *
 * PyTorch's `etas` and `step_sizes` pairs are two properties each. The
 * per-parameter state holds `step` (an int64 scalar: PyTorch's Python
 * int), `prev` and `step_size`.
 *
 * Since: 0.1
 */
struct _GnnRprop
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_LR,
  PROP_ETAMINUS,
  PROP_ETAPLUS,
  PROP_STEP_SIZE_MIN,
  PROP_STEP_SIZE_MAX,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnRprop, gnn_rprop, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry rprop_state[] = {
  { "step", GNN_OPTIM_STATE_I64, TRUE },
  { "prev", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "step_size", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { NULL, 0, FALSE },
};

static gboolean
gnn_rprop_validate (GnnOptimizer  *self,
                    GError       **error)
{
  const GValue *o = gnn_optim_bag_values (G_OBJECT (self));
  double minus = g_value_get_double (&o[PROP_ETAMINUS]);
  double plus = g_value_get_double (&o[PROP_ETAPLUS]);
  g_autofree char *a = NULL, *b = NULL;

  if (0.0 < minus && minus < 1.0 && 1.0 < plus)
    return TRUE;
  a = gnn_optim_format_float (minus);
  b = gnn_optim_format_float (plus);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Invalid eta values: %s, %s", a, b);
  return FALSE;
}

/* torch.sign: 0 for zero and NaN. */
#define SIGN(T, x) ((T) (((x) > 0) - ((x) < 0)))

/* PyTorch's masked assignments: sign > 0 -> etaplus, < 0 -> etaminus,
 * == 0 -> 1; the gradient is zeroed where the factor equals etaminus. */
#define DEFINE_RPROP_KERNEL(T, suffix)                                         \
GNN_OPTIM_KERNEL                                                               \
rprop_##suffix##_typed (T *p, const T *grad, T *prev, T *size, gint64 n,       \
                        double minus_d, double plus_d, double min_d,           \
                        double max_d, gboolean maximize)                       \
{                                                                              \
  const T minus = (T) minus_d, plus = (T) plus_d;                              \
  const T lo = (T) min_d, hi = (T) max_d;                                      \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = maximize ? -grad[j] : grad[j];                                     \
      T s = SIGN (T, g * prev[j]);                                             \
      T factor = s > 0 ? plus : s < 0 ? minus : (T) 1;                         \
      T stepped = size[j] * factor;                                            \
      /* clamp_ propagates NaN */                                              \
      size[j] = isnan (stepped) ? stepped : stepped < lo ? lo                  \
                : stepped > hi ? hi : stepped;                                 \
      if (factor == minus)                                                     \
        g = 0;                                                                 \
      p[j] = p[j] + (T) -1 * SIGN (T, g) * size[j];                            \
      prev[j] = g;                                                             \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (rprop_##suffix, (T *p, const T *grad, T *prev, T *size,   \
                 gint64 n, double minus_d, double plus_d, double min_d,        \
                 double max_d, gboolean maximize),                             \
                 (p, grad, prev, size, n, minus_d, plus_d, min_d, max_d, maximize))

DEFINE_RPROP_KERNEL (float, f32)
DEFINE_RPROP_KERNEL (double, f64)

static gboolean
rprop_update (GnnOptimizer  *self,
              const GValue  *o,
              GnnTensor     *param,
              GnnTensor     *grad,
              GnnStateDict  *state,
              gpointer       data,
              GError       **error)
{
  gint64 *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_I64, 0));
  gpointer prev = gnn_optim_data (gnn_optim_state_like_param (state, "prev", param, 0));
  gpointer size = gnn_optim_data (gnn_optim_state_like_param (state, "step_size", param,
                                                              g_value_get_double (&o[PROP_LR])));

  (void) self, (void) data, (void) error;
  *step += 1;
  GNN_OPTIM_DISPATCH (param, rprop, gnn_optim_data (param), gnn_optim_data (grad), prev, size,
                      gnn_tensor_get_numel (param), g_value_get_double (&o[PROP_ETAMINUS]),
                      g_value_get_double (&o[PROP_ETAPLUS]),
                      g_value_get_double (&o[PROP_STEP_SIZE_MIN]),
                      g_value_get_double (&o[PROP_STEP_SIZE_MAX]),
                      g_value_get_boolean (&o[PROP_MAXIMIZE]));
  return TRUE;
}

static void
gnn_rprop_class_init (GnnRpropClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = gnn_rprop_validate;
  gnn_optimizer_class_set_update (optimizer_class, rprop_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, rprop_state);

  /**
   * GnnRprop:lr:
   *
   * The initial step size: the default of new parameter groups (PyTorch's
   * `defaults['lr']`, 0.01).
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 1e-2);
  /**
   * GnnRprop:etaminus:
   *
   * The factor of the step size when the gradient changes sign (PyTorch's
   * `etas[0]`, between 0 and 1).
   *
   * Since: 0.1
   */
  properties[PROP_ETAMINUS] = gnn_optim_double_property ("etaminus", 0.5);
  /**
   * GnnRprop:etaplus:
   *
   * The factor of the step size while the gradient keeps its sign
   * (PyTorch's `etas[1]`, above 1).
   *
   * Since: 0.1
   */
  properties[PROP_ETAPLUS] = gnn_optim_double_property ("etaplus", 1.2);
  /**
   * GnnRprop:step-size-min:
   *
   * The smallest step size (PyTorch's `step_sizes[0]`).
   *
   * Since: 0.1
   */
  properties[PROP_STEP_SIZE_MIN] = gnn_optim_double_property ("step-size-min", 1e-6);
  /**
   * GnnRprop:step-size-max:
   *
   * The largest step size (PyTorch's `step_sizes[1]`).
   *
   * Since: 0.1
   */
  properties[PROP_STEP_SIZE_MAX] = gnn_optim_double_property ("step-size-max", 50);
  /**
   * GnnRprop:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_rprop_init (GnnRprop *self)
{
  (void) self;
}

/**
 * gnn_rprop_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the initial step size (PyTorch's default: 0.01)
 * @error: return location for a #GError
 *
 * Creates an Rprop optimizer over one group, like
 * `torch.optim.Rprop(params, lr)`; the other settings are properties.
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRprop *
gnn_rprop_new (GPtrArray  *params,
               double      lr,
               GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_RPROP, params, lr, error);
}
