/* gnn-adamw.c: Adam with decoupled weight decay
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-adam-private.h"

/**
 * GnnAdamW:
 *
 * The AdamW optimizer with the exact update of PyTorch 1.13's
 * `torch.optim.AdamW` (single-tensor implementation): like [class@Gnn.Adam]
 * but weight decay is decoupled from the gradient — each step first
 * multiplies the parameter by `1 - lr * weight_decay` — and
 * [property@Gnn.AdamW:weight-decay] defaults to 0.01.
 *
 * The per-parameter state holds `step` (a float32 scalar, as in PyTorch),
 * `exp_avg`, `exp_avg_sq` and, with amsgrad, `max_exp_avg_sq`.
 */
struct _GnnAdamW
{
  GnnOptimizer  parent_instance;
  GnnAdamParams params;
};

G_DEFINE_FINAL_TYPE (GnnAdamW, gnn_adamw, GNN_TYPE_OPTIMIZER)

static void
gnn_adamw_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  gnn_adam_params_get_property (&GNN_ADAMW (object)->params, object, prop_id, value, pspec);
}

static void
gnn_adamw_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  gnn_adam_params_set_property (&GNN_ADAMW (object)->params, object, prop_id, value, pspec);
}

static gboolean
gnn_adamw_validate (GnnOptimizer  *optimizer,
                    GError       **error)
{
  return gnn_adam_params_validate (optimizer, &GNN_ADAMW (optimizer)->params, TRUE, error);
}

static gboolean
gnn_adamw_step (GnnOptimizer  *optimizer,
                GError       **error)
{
  return gnn_adam_params_step (optimizer, &GNN_ADAMW (optimizer)->params, TRUE, error);
}

static void
gnn_adamw_class_init (GnnAdamWClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  object_class->get_property = gnn_adamw_get_property;
  object_class->set_property = gnn_adamw_set_property;
  optimizer_class->validate = gnn_adamw_validate;
  optimizer_class->step = gnn_adamw_step;
  optimizer_class->validate_state = gnn_adam_validate_state;

  /**
   * GnnAdamW:beta1:
   *
   * The decay of the running average of the gradient (PyTorch's
   * `betas[0]`).
   */
  /**
   * GnnAdamW:beta2:
   *
   * The decay of the running average of the squared gradient (PyTorch's
   * `betas[1]`).
   */
  /**
   * GnnAdamW:eps:
   *
   * The term added to the denominator for numerical stability.
   */
  /**
   * GnnAdamW:weight-decay:
   *
   * The decoupled weight decay: each step multiplies the parameter by
   * `1 - lr * weight_decay`.
   */
  /**
   * GnnAdamW:amsgrad:
   *
   * Whether to use the AMSGrad variant (normalize by the running maximum of
   * the second moment).
   */
  gnn_adam_install_properties (object_class, 0.01);
}

static void
gnn_adamw_init (GnnAdamW *self)
{
  gnn_adam_params_init (&self->params, 0.01);
}

/**
 * gnn_adamw_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the gradient average decay (default 0.9)
 * @beta2: the squared gradient average decay (default 0.999)
 * @eps: the denominator term (default 1e-8)
 * @weight_decay: the decoupled weight decay (default 0.01)
 * @amsgrad: whether to use AMSGrad
 *
 * Creates an AdamW optimizer, like `torch.optim.AdamW(params, lr, (beta1,
 * beta2), eps, weight_decay, amsgrad)`, with PyTorch's checks
 * ("Invalid learning rate: …", "Invalid epsilon value: …",
 * "Invalid beta parameter at index 0: …", "Invalid weight_decay value: …").
 *
 * Returns: (transfer full) (type Gnn.AdamW): a new optimizer, or %NULL with
 *   @error set
 */
GnnOptimizer *
gnn_adamw_new (GPtrArray  *params,
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
  self = g_object_new (GNN_TYPE_ADAMW, "lr", lr, "beta1", beta1, "beta2", beta2,
                       "eps", eps, "weight-decay", weight_decay, "amsgrad", amsgrad, NULL);
  return gnn_optim_finish_new (self, params, error);
}
