/* gnn-sgd.c: stochastic gradient descent (with momentum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"
#include "tensor/gnn-parallel-private.h"

/**
 * GnnSGD:
 *
 * Stochastic gradient descent, optionally with momentum, Nesterov momentum
 * and L2 weight decay, with the exact update of PyTorch 1.13's
 * `torch.optim.SGD` (single-tensor implementation):
 *
 * ```
 * d = grad (+ weight_decay * param)
 * buf = d on the first step, else momentum * buf + (1 - dampening) * d
 * d = nesterov ? d + momentum * buf : buf        (when momentum != 0)
 * param -= lr * d
 * ```
 *
 * The per-parameter state holds `momentum_buffer` (only when momentum is
 * non-zero). Every hyper-parameter is also a per-group option.
 *
 * Since: 0.1
 */
struct _GnnSGD
{
  GnnOptimizer parent_instance;
};

/* torch's defaults order */
enum {
  PROP_LR,
  PROP_MOMENTUM,
  PROP_DAMPENING,
  PROP_WEIGHT_DECAY,
  PROP_NESTEROV,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnSGD, gnn_sgd, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry sgd_state[] = {
  { "momentum_buffer", GNN_OPTIM_STATE_LIKE_PARAM, FALSE },
  { NULL, 0, FALSE },
};

#define OPT(o, name) gnn_optim_prop_double (o, GNN_TYPE_SGD, name)

static gboolean
gnn_sgd_validate (GnnOptimizer  *self,
                  GError       **error)
{
  double momentum = OPT (self, PROP_MOMENTUM), dampening = OPT (self, PROP_DAMPENING);

  if (!gnn_optim_check (momentum >= 0.0, "momentum value", momentum, error) ||
      !gnn_optim_check (OPT (self, PROP_WEIGHT_DECAY) >= 0.0, "weight_decay value",
                        OPT (self, PROP_WEIGHT_DECAY), error))
    return FALSE;
  if (gnn_optim_prop_bool (self, GNN_TYPE_SGD, PROP_NESTEROV) && (momentum <= 0 || dampening != 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Nesterov momentum requires a momentum and zero dampening");
      return FALSE;
    }
  return TRUE;
}

/* torch's op sequence in the parameter's own precision, its fused
 * multiply-adds included. */
#define DEFINE_SGD_KERNEL(T, suffix)                                           \
GNN_OPTIM_KERNEL                                                               \
sgd_##suffix##_typed (T *restrict p, const T *restrict g, T *restrict buf,     \
                      gint64 n, double lr_d, double momentum_d,                \
                      double dampening_d, double wd_d, gboolean nesterov,      \
                      gboolean maximize, gboolean first)                       \
{                                                                              \
  const T neg_lr = (T) -lr_d, wd = (T) wd_d, mom = (T) momentum_d;             \
  const T damp1 = (T) (1.0 - dampening_d);                                     \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T d = maximize ? -g[j] : g[j];                                           \
      if (wd_d != 0)                                                           \
        d = GNN_FMA (T, wd, p[j], d);                                          \
      if (buf != NULL)                                                         \
        {                                                                      \
          buf[j] = first ? d : GNN_FMA (T, damp1, d, buf[j] * mom);            \
          d = nesterov ? GNN_FMA (T, mom, buf[j], d) : buf[j];                 \
        }                                                                      \
      p[j] = GNN_FMA (T, neg_lr, d, p[j]);                                     \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (sgd_##suffix,                                             \
                 (T *restrict p, const T *restrict g, T *restrict buf,         \
                  gint64 n, double lr_d, double momentum_d,                    \
                  double dampening_d, double wd_d, gboolean nesterov,          \
                  gboolean maximize, gboolean first),                          \
                 (p, g, buf, n, lr_d, momentum_d, dampening_d, wd_d,           \
                  nesterov, maximize, first))

DEFINE_SGD_KERNEL (float, f32)
DEFINE_SGD_KERNEL (double, f64)

/* One call of the update loop, split by elements among the kernel threads
 * (elementwise: the same bits at any split); at 2 threads the 11M
 * parameters of a ResNet-18 step were 3 % of the step on the caller alone. */
typedef struct
{
  gboolean f32;
  gpointer p, g, buf;
  double   lr, momentum, dampening, wd;
  gboolean nesterov, maximize, first;
} SgdJob;

static void
sgd_range (gint64   begin,
           gint64   end,
           gpointer data)
{
  const SgdJob *j = data;
  gsize size = j->f32 ? sizeof (float) : sizeof (double);
  guint8 *p = (guint8 *) j->p + begin * size, *buf = j->buf;
  const guint8 *g = (const guint8 *) j->g + begin * size;

  if (buf != NULL)
    buf += begin * size;
  if (j->f32)
    sgd_f32 ((float *) p, (const float *) g, (float *) buf, end - begin, j->lr, j->momentum,
             j->dampening, j->wd, j->nesterov, j->maximize, j->first);
  else
    sgd_f64 ((double *) p, (const double *) g, (double *) buf, end - begin, j->lr, j->momentum,
             j->dampening, j->wd, j->nesterov, j->maximize, j->first);
}

static gboolean
sgd_update (GnnOptimizer  *self,
            const GValue  *o,
            GnnTensor     *param,
            GnnTensor     *grad,
            GnnStateDict  *state,
            gpointer       data,
            GError       **error)
{
  GnnTensorPrivate *pp = gnn_tensor_priv (param);
  double lr = g_value_get_double (&o[PROP_LR]);
  double momentum = g_value_get_double (&o[PROP_MOMENTUM]);
  double dampening = g_value_get_double (&o[PROP_DAMPENING]);
  double weight_decay = g_value_get_double (&o[PROP_WEIGHT_DECAY]);
  gboolean nesterov = g_value_get_boolean (&o[PROP_NESTEROV]);
  gboolean maximize = g_value_get_boolean (&o[PROP_MAXIMIZE]);
  gboolean first = FALSE;
  gpointer buf = NULL;

  (void) self, (void) data, (void) error;
  if (momentum != 0)
    {
      first = gnn_state_dict_lookup (state, "momentum_buffer") == NULL;
      buf = gnn_optim_data (gnn_optim_state_like_param (state, "momentum_buffer", param, 0));
    }
  SgdJob job = { gnn_tensor_get_dtype (param) == GNN_DTYPE_F32, gnn_optim_data (param),
                 gnn_optim_data (grad), buf, lr, momentum, dampening, weight_decay, nesterov,
                 maximize, first };

  gnn_parallel_for (pp->numel, gnn_parallel_grain (1), sgd_range, &job);
  return TRUE;
}

static void
gnn_sgd_class_init (GnnSGDClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = gnn_sgd_validate;
  gnn_optimizer_class_set_update (optimizer_class, sgd_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, sgd_state);

  /**
   * GnnSGD:lr:
   *
   * The learning rate: the default of new parameter groups (PyTorch's
   * `defaults['lr']`, required in PyTorch, 0.001 here); setting it sets every group's.
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 1e-3);
  /**
   * GnnSGD:momentum:
   *
   * The momentum factor (0 disables momentum).
   *
   * Since: 0.1
   */
  properties[PROP_MOMENTUM] = gnn_optim_double_property ("momentum", 0.0);
  /**
   * GnnSGD:dampening:
   *
   * The dampening of the momentum: the new gradient enters the buffer
   * scaled by `1 - dampening`.
   *
   * Since: 0.1
   */
  properties[PROP_DAMPENING] = gnn_optim_double_property ("dampening", 0.0);
  /**
   * GnnSGD:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   *
   * Since: 0.1
   */
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  /**
   * GnnSGD:nesterov:
   *
   * Whether to use Nesterov momentum (needs a momentum and zero dampening).
   *
   * Since: 0.1
   */
  properties[PROP_NESTEROV] = gnn_optim_bool_property ("nesterov", FALSE);
  /**
   * GnnSGD:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_sgd_init (GnnSGD *self)
{
  (void) self;
}

/**
 * gnn_sgd_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate
 * @momentum: the momentum factor (0 for plain SGD)
 * @dampening: the dampening of the momentum
 * @weight_decay: the L2 penalty
 * @nesterov: whether to use Nesterov momentum
 *
 * Creates an SGD optimizer, like `torch.optim.SGD(params, lr, momentum,
 * dampening, weight_decay, nesterov)`, with PyTorch's checks:
 * "Invalid learning rate: -1", "Invalid momentum value: …",
 * "Invalid weight_decay value: …", "Nesterov momentum requires a momentum
 * and zero dampening", "optimizer got an empty parameter list".
 *
 * Returns: (transfer full): a new optimizer, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnSGD *
gnn_sgd_new (GPtrArray  *params,
             double      lr,
             double      momentum,
             double      dampening,
             double      weight_decay,
             gboolean    nesterov,
             GError    **error)
{
  GnnOptimizer *self;

  g_return_val_if_fail (params != NULL, NULL);
  self = g_object_new (GNN_TYPE_SGD, "lr", lr, "momentum", momentum,
                       "dampening", dampening, "weight-decay", weight_decay,
                       "nesterov", nesterov, NULL);
  return (GnnSGD *) gnn_optim_finish_new (self, params, error);
}
