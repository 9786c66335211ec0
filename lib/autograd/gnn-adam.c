/* gnn-adam.c: Adam (L2 weight decay)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-adam-private.h"

/**
 * GnnAdam:
 *
 * The Adam optimizer with the exact update of PyTorch 1.13's
 * `torch.optim.Adam` (single-tensor implementation): weight decay is an L2
 * penalty added to the gradient, moments are bias-corrected, and with
 * [property@Gnn.Adam:amsgrad] the running maximum of the second moment
 * normalizes the step. See [class@Gnn.AdamW] for decoupled weight decay.
 *
 * The per-parameter state holds `step` (a float32 scalar, as in PyTorch),
 * `exp_avg`, `exp_avg_sq` and, with amsgrad, `max_exp_avg_sq`.
 */
struct _GnnAdam
{
  GnnOptimizer  parent_instance;
  GnnAdamParams params;
};

G_DEFINE_FINAL_TYPE (GnnAdam, gnn_adam, GNN_TYPE_OPTIMIZER)

static void
gnn_adam_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  gnn_adam_params_get_property (&GNN_ADAM (object)->params, object, prop_id, value, pspec);
}

static void
gnn_adam_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  gnn_adam_params_set_property (&GNN_ADAM (object)->params, object, prop_id, value, pspec);
}

static gboolean
gnn_adam_validate (GnnOptimizer  *optimizer,
                   GError       **error)
{
  return gnn_adam_params_validate (optimizer, &GNN_ADAM (optimizer)->params, FALSE, error);
}

static gboolean
gnn_adam_step (GnnOptimizer  *optimizer,
               GError       **error)
{
  return gnn_adam_params_step (optimizer, &GNN_ADAM (optimizer)->params, FALSE, error);
}

static void
gnn_adam_class_init (GnnAdamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  object_class->get_property = gnn_adam_get_property;
  object_class->set_property = gnn_adam_set_property;
  optimizer_class->validate = gnn_adam_validate;
  optimizer_class->step = gnn_adam_step;
  optimizer_class->validate_state = gnn_adam_validate_state;

  /**
   * GnnAdam:beta1:
   *
   * The decay of the running average of the gradient (PyTorch's
   * `betas[0]`).
   */
  /**
   * GnnAdam:beta2:
   *
   * The decay of the running average of the squared gradient (PyTorch's
   * `betas[1]`).
   */
  /**
   * GnnAdam:eps:
   *
   * The term added to the denominator for numerical stability.
   */
  /**
   * GnnAdam:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   */
  /**
   * GnnAdam:amsgrad:
   *
   * Whether to use the AMSGrad variant (normalize by the running maximum of
   * the second moment).
   */
  gnn_adam_install_properties (object_class, 0.0);
}

static void
gnn_adam_init (GnnAdam *self)
{
  gnn_adam_params_init (&self->params, 0.0);
}

/**
 * gnn_adam_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the gradient average decay (default 0.9)
 * @beta2: the squared gradient average decay (default 0.999)
 * @eps: the denominator term (default 1e-8)
 * @weight_decay: the L2 penalty (default 0)
 * @amsgrad: whether to use AMSGrad
 *
 * Creates an Adam optimizer, like `torch.optim.Adam(params, lr, (beta1,
 * beta2), eps, weight_decay, amsgrad)`, with PyTorch's checks
 * ("Invalid learning rate: …", "Invalid epsilon value: …",
 * "Invalid beta parameter at index 0: …", "Invalid weight_decay value: …").
 *
 * Returns: (transfer full) (type Gnn.Adam): a new optimizer, or %NULL with
 *   @error set
 */
GnnOptimizer *
gnn_adam_new (GPtrArray  *params,
              double      lr,
              double      beta1,
              double      beta2,
              double      eps,
              double      weight_decay,
              gboolean    amsgrad,
              GError    **error)
{
  GnnOptimizer *self;

  g_return_val_if_fail (params != NULL, NULL);
  self = g_object_new (GNN_TYPE_ADAM, "lr", lr, "beta1", beta1, "beta2", beta2,
                       "eps", eps, "weight-decay", weight_decay, "amsgrad", amsgrad, NULL);
  return gnn_optim_finish_new (self, params, error);
}
