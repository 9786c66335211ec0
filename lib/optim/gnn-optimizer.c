/* gnn-optimizer.c: base class of optimizers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnOptimizer:
 *
 * The base class of optimizers, like `torch.optim.Optimizer`: it holds the
 * parameters to train (any [class@Gnn.Tensor], usually the
 * [class@Gnn.Parameter]s of a module), a per-parameter state (a
 * [class@Gnn.StateDict] such as `momentum_buffer` or `exp_avg`, created on
 * the first [method@Gnn.Optimizer.step]) and the hyper-parameters as
 * properties, so that schedulers and bindings can read and change them.
 *
 * Optimizers implement [iface@Gio.Initable]: the hyper-parameters are
 * checked once, when the object is initialized (the `_new` constructors do
 * it; an object made with g_object_new() is checked by g_initable_init() or,
 * at the latest, by its first step).
 *
 * Updates are written straight into the parameters' storage, outside of
 * autograd (like PyTorch's `@torch.no_grad()` step). Only float32 and
 * float64 parameters are supported; gradients must have the parameter's
 * shape and dtype.
 *
 * ## Parameter groups
 *
 * PyTorch lets each group of parameters have its own hyper-parameters. Gnn
 * has one group for now: [method@Gnn.Optimizer.add_params] appends to it and
 * the properties are its hyper-parameters. The state dict format already
 * names the group (`param_groups.0.lr`), so a later
 * `gnn_optimizer_add_param_group (self, params, overrides)` can add groups
 * whose unset hyper-parameters default to the properties, without changing
 * files saved today.
 *
 * ## State dicts
 *
 * [method@Gnn.Optimizer.state_dict] returns tensors keyed
 * `state.<index>.<name>` (index of the parameter in the optimizer, as in
 * PyTorch: `state.0.exp_avg`, `state.0.step`) and, as string metadata, the
 * hyper-parameters keyed `param_groups.0.<name>` (PyTorch's spelling:
 * `weight_decay`) plus `param_groups.0.params` (the indices, "0,1,2"). Both
 * survive a safetensors file.
 *
 * Since: 1.0
 */

typedef struct
{
  GPtrArray *params;    /* GnnTensor */
  GPtrArray *states;    /* GnnStateDict, parallel to params */
  double     lr;
  double     initial_lr;
  gboolean   has_initial_lr;
  gboolean   maximize;
  gboolean   initialized;
  guint64    step_count;
} GnnOptimizerPrivate;

enum {
  PROP_0,
  PROP_LR,
  PROP_MAXIMIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void gnn_optimizer_initable_iface_init (GInitableIface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnOptimizer, gnn_optimizer, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (GnnOptimizer)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_optimizer_initable_iface_init))

static void
gnn_optimizer_finalize (GObject *object)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (GNN_OPTIMIZER (object));

  g_clear_pointer (&priv->params, g_ptr_array_unref);
  g_clear_pointer (&priv->states, g_ptr_array_unref);
  G_OBJECT_CLASS (gnn_optimizer_parent_class)->finalize (object);
}

static void
gnn_optimizer_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  GnnOptimizer *self = GNN_OPTIMIZER (object);

  switch (prop_id)
    {
    case PROP_LR:
      g_value_set_double (value, gnn_optimizer_get_lr (self));
      break;
    case PROP_MAXIMIZE:
      g_value_set_boolean (value, gnn_optimizer_get_maximize (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_optimizer_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  GnnOptimizer *self = GNN_OPTIMIZER (object);

  switch (prop_id)
    {
    case PROP_LR:
      gnn_optimizer_set_lr (self, g_value_get_double (value));
      break;
    case PROP_MAXIMIZE:
      gnn_optimizer_set_maximize (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_optimizer_class_init (GnnOptimizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_optimizer_finalize;
  object_class->get_property = gnn_optimizer_get_property;
  object_class->set_property = gnn_optimizer_set_property;

  /**
   * GnnOptimizer:lr:
   *
   * The learning rate (PyTorch's `param_groups[0]['lr']`), which
   * schedulers change between steps. Negative values are rejected when the
   * optimizer is initialized.
   *
   * Since: 1.0
   */
  properties[PROP_LR] =
    g_param_spec_double ("lr", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-3,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnOptimizer:maximize:
   *
   * Whether to maximize the objective (step along the gradient) instead of
   * minimizing it.
   *
   * Since: 1.0
   */
  properties[PROP_MAXIMIZE] =
    g_param_spec_boolean ("maximize", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_optimizer_init (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);

  priv->params = g_ptr_array_new_with_free_func (g_object_unref);
  priv->states = g_ptr_array_new_with_free_func (g_object_unref);
  priv->lr = 1e-3;
}

static gboolean
gnn_optimizer_initable_init (GInitable     *initable,
                             GCancellable  *cancellable,
                             GError       **error)
{
  GnnOptimizer *self = GNN_OPTIMIZER (initable);
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);
  GnnOptimizerClass *klass = GNN_OPTIMIZER_GET_CLASS (self);

  (void) cancellable;
  if (priv->initialized)
    return TRUE;
  if (priv->lr < 0 || isnan (priv->lr))
    {
      g_autofree char *v = gnn_format_double_shortest (priv->lr);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid learning rate: %s", v);
      return FALSE;
    }
  if (klass->validate != NULL && !klass->validate (self, error))
    return FALSE;
  priv->initialized = TRUE;
  return TRUE;
}

static void
gnn_optimizer_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_optimizer_initable_init;
}

gboolean
gnn_optimizer_ensure_initialized (GnnOptimizer  *self,
                                  GError       **error)
{
  return g_initable_init (G_INITABLE (self), NULL, error);
}

double
gnn_optimizer_setdefault_initial_lr (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);

  if (!priv->has_initial_lr)
    {
      priv->initial_lr = priv->lr;
      priv->has_initial_lr = TRUE;
    }
  return priv->initial_lr;
}

/* --- parameters ---------------------------------------------------------- */

static const char *
dtype_name (GnnDType dtype)
{
  return gnn_dtype_get_name (dtype);
}

/**
 * gnn_optimizer_add_params:
 * @self: an optimizer
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 *
 * Appends @params to the optimizer's (single) parameter group. Each must be
 * a contiguous float32 or float64 tensor that is not already in the
 * optimizer. Nothing is added unless all of them can be.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 1.0
 */
gboolean
gnn_optimizer_add_params (GnnOptimizer  *self,
                          GPtrArray     *params,
                          GError       **error)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (params != NULL, FALSE);
  priv = gnn_optimizer_get_instance_private (self);

  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (params, i);
      guint index = priv->params->len + i;
      GnnDType dtype;

      if (!GNN_IS_TENSOR (t))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "optimizer can only optimize Tensors, but parameter %u is %s",
                       index, t == NULL ? "NULL" : G_OBJECT_TYPE_NAME (t));
          return FALSE;
        }
      dtype = gnn_tensor_get_dtype (t);
      if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "optimizer can only optimize float32 and float64 tensors, "
                       "but parameter %u has dtype %s", index, dtype_name (dtype));
          return FALSE;
        }
      if (!gnn_tensor_is_contiguous (t))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "optimizer can only optimize contiguous tensors, "
                       "but parameter %u is not contiguous", index);
          return FALSE;
        }
      for (guint j = 0; j < priv->params->len + i; j++)
        {
          GnnTensor *other = j < priv->params->len ? g_ptr_array_index (priv->params, j)
                                                   : g_ptr_array_index (params, j - priv->params->len);
          if (other == t)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "some parameters appear more than once: parameter %u is "
                           "parameter %u", index, j);
              return FALSE;
            }
        }
    }

  for (guint i = 0; i < params->len; i++)
    {
      g_ptr_array_add (priv->params, g_object_ref (g_ptr_array_index (params, i)));
      g_ptr_array_add (priv->states, gnn_state_dict_new ());
    }
  return TRUE;
}

/**
 * gnn_optimizer_get_n_params:
 * @self: an optimizer
 *
 * Gets the number of parameters.
 *
 * Returns: the number of parameters the optimizer trains
 *
 * Since: 1.0
 */
guint
gnn_optimizer_get_n_params (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0);
  priv = gnn_optimizer_get_instance_private (self);
  return priv->params->len;
}

/**
 * gnn_optimizer_get_param:
 * @self: an optimizer
 * @index: a parameter index, below [method@Gnn.Optimizer.get_n_params]
 *
 * Gets a parameter by index.
 *
 * Returns: (transfer none) (nullable): the parameter, or %NULL if @index is
 *   out of range
 *
 * Since: 1.0
 */
GnnTensor *
gnn_optimizer_get_param (GnnOptimizer *self,
                         guint         index)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  priv = gnn_optimizer_get_instance_private (self);
  if (index >= priv->params->len)
    return NULL;
  return g_ptr_array_index (priv->params, index);
}

/**
 * gnn_optimizer_get_state:
 * @self: an optimizer
 * @index: a parameter index, below [method@Gnn.Optimizer.get_n_params]
 *
 * Gets the live per-parameter state (PyTorch's `optimizer.state[p]`),
 * empty until the parameter's first update. Subclasses keep their buffers
 * in it; changing it changes the optimizer.
 *
 * Returns: (transfer none) (nullable): the state, or %NULL if @index is out
 *   of range
 *
 * Since: 1.0
 */
GnnStateDict *
gnn_optimizer_get_state (GnnOptimizer *self,
                         guint         index)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  priv = gnn_optimizer_get_instance_private (self);
  if (index >= priv->states->len)
    return NULL;
  return g_ptr_array_index (priv->states, index);
}

/**
 * gnn_optimizer_get_n_param_groups:
 * @self: an optimizer
 *
 * Gets the number of parameter groups.
 *
 * Returns: the number of parameter groups (1 for now)
 *
 * Since: 1.0
 */
guint
gnn_optimizer_get_n_param_groups (GnnOptimizer *self)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0);
  return 1;
}

/* --- hyper-parameters ---------------------------------------------------- */

/**
 * gnn_optimizer_get_lr:
 * @self: an optimizer
 *
 * Gets the learning rate.
 *
 * Returns: the learning rate ([property@Gnn.Optimizer:lr])
 *
 * Since: 1.0
 */
double
gnn_optimizer_get_lr (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0.0);
  priv = gnn_optimizer_get_instance_private (self);
  return priv->lr;
}

/**
 * gnn_optimizer_set_lr:
 * @self: an optimizer
 * @lr: the new learning rate
 *
 * Sets [property@Gnn.Optimizer:lr]; the next step uses it.
 *
 * Since: 1.0
 */
void
gnn_optimizer_set_lr (GnnOptimizer *self,
                      double        lr)
{
  GnnOptimizerPrivate *priv;

  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  priv = gnn_optimizer_get_instance_private (self);
  if (priv->lr == lr)
    return;
  priv->lr = lr;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LR]);
}

/**
 * gnn_optimizer_get_maximize:
 * @self: an optimizer
 *
 * Gets whether the optimizer maximizes the objective.
 *
 * Returns: whether the optimizer maximizes ([property@Gnn.Optimizer:maximize])
 *
 * Since: 1.0
 */
gboolean
gnn_optimizer_get_maximize (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  priv = gnn_optimizer_get_instance_private (self);
  return priv->maximize;
}

/**
 * gnn_optimizer_set_maximize:
 * @self: an optimizer
 * @maximize: whether to maximize the objective
 *
 * Sets [property@Gnn.Optimizer:maximize].
 *
 * Since: 1.0
 */
void
gnn_optimizer_set_maximize (GnnOptimizer *self,
                            gboolean      maximize)
{
  GnnOptimizerPrivate *priv;

  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  priv = gnn_optimizer_get_instance_private (self);
  maximize = !!maximize;
  if (priv->maximize == maximize)
    return;
  priv->maximize = maximize;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAXIMIZE]);
}

/* --- zero_grad and step -------------------------------------------------- */

/**
 * gnn_optimizer_zero_grad:
 * @self: an optimizer
 * @set_to_none: %TRUE to drop the gradients instead of zeroing them
 *
 * Resets the gradient of every parameter, like PyTorch 1.13's
 * `zero_grad(set_to_none=False)`: with @set_to_none %FALSE each existing
 * gradient is filled with zeros in place (and stops requiring grad); with
 * %TRUE, [property@Gnn.Tensor:grad] becomes %NULL, so the next step skips
 * the parameter until a new gradient arrives.
 *
 * Since: 1.0
 */
void
gnn_optimizer_zero_grad (GnnOptimizer *self,
                         gboolean      set_to_none)
{
  GnnOptimizerPrivate *priv;

  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  priv = gnn_optimizer_get_instance_private (self);

  for (guint i = 0; i < priv->params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (priv->params, i);
      GnnTensor *grad = gnn_tensor_get_grad (p);
      GnnTensorPrivate *gp;

      if (grad == NULL)
        continue;
      if (set_to_none)
        {
          gnn_tensor_set_grad (p, NULL);
          continue;
        }
      gp = gnn_tensor_priv (grad);
      gp->requires_grad = FALSE;
      if (gnn_tensor_is_contiguous (grad))
        {
          gnn_tensor_priv_bump_version (gp);
          memset (gnn_tensor_priv_data (gp), 0,
                  (gsize) gp->numel * gnn_dtype_get_size (gp->dtype));
        }
      else
        gnn_tensor_fill_ (grad, 0.0, NULL);
    }
}

static gboolean
check_grads (GnnOptimizer  *self,
             GError       **error)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);
  const char *type_name = G_OBJECT_TYPE_NAME (self);

  if (g_str_has_prefix (type_name, "Gnn"))
    type_name += 3;
  for (guint i = 0; i < priv->params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (priv->params, i);
      GnnTensor *grad = gnn_tensor_get_grad (p);
      GnnTensorPrivate *pp, *gp;

      if (grad == NULL)
        continue;
      pp = gnn_tensor_priv (p);
      gp = gnn_tensor_priv (grad);
      if (gnn_tensor_priv_is_meta (pp) || gnn_tensor_priv_is_meta (gp))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "%s.step: parameter %u %s no storage (meta)", type_name, i,
                       gnn_tensor_priv_is_meta (pp) ? "has" : "has a gradient with");
          return FALSE;
        }
      if (gp->dtype != pp->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "%s.step: parameter %u has dtype %s but its gradient has dtype %s",
                       type_name, i, dtype_name (pp->dtype), dtype_name (gp->dtype));
          return FALSE;
        }
      if (gp->ndim != pp->ndim ||
          memcmp (gp->shape, pp->shape, pp->ndim * sizeof (gint64)) != 0)
        {
          g_autofree char *ps = gnn_shape_to_string (pp->shape, pp->ndim);
          g_autofree char *gs = gnn_shape_to_string (gp->shape, gp->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s.step: parameter %u has shape %s but its gradient has shape %s",
                       type_name, i, ps, gs);
          return FALSE;
        }
      if (!gnn_tensor_is_contiguous (p))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "%s.step: parameter %u is no longer contiguous", type_name, i);
          return FALSE;
        }
    }
  return TRUE;
}

/* The update of a parameter is an in-place write (torch's p.add_ under
 * no_grad): its version moves, so a graph that saved the old values refuses
 * a later backward. Done here once for every optimizer: each updates
 * exactly the parameters that have a gradient. */
static void
bump_updated_versions (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);

  for (guint i = 0; i < priv->params->len; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (g_ptr_array_index (priv->params, i));

      if (p->grad != NULL)
        gnn_tensor_priv_bump_version (p);
    }
}

/**
 * gnn_optimizer_step:
 * @self: an optimizer
 *
 * Performs one optimization step: updates every parameter whose
 * [property@Gnn.Tensor:grad] is set (others are skipped, as in PyTorch).
 * Every gradient is checked (same shape and dtype as its parameter) before
 * any parameter changes, so a failed step changes nothing. Non-contiguous
 * gradients are accepted.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 1.0
 */
gboolean
gnn_optimizer_step (GnnOptimizer  *self,
                    GError       **error)
{
  GnnOptimizerPrivate *priv;
  GnnOptimizerClass *klass;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  priv = gnn_optimizer_get_instance_private (self);
  klass = GNN_OPTIMIZER_GET_CLASS (self);

  if (!gnn_optimizer_ensure_initialized (self, error))
    return FALSE;
  if (!check_grads (self, error))
    return FALSE;
  if (klass->step == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement step", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  ok = klass->step (self, error);
  bump_updated_versions (self);
  if (!ok)
    return FALSE;
  priv->step_count++;
  return TRUE;
}

/**
 * gnn_optimizer_get_step_count:
 * @self: an optimizer
 *
 * Gets the number of steps taken.
 *
 * Returns: the number of successful steps since the optimizer was created
 *
 * Since: 1.0
 */
guint64
gnn_optimizer_get_step_count (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0);
  priv = gnn_optimizer_get_instance_private (self);
  return priv->step_count;
}

/* --- property <-> metadata ----------------------------------------------- */

gboolean
gnn_optim_parse_double (const char  *text,
                        const char  *key,
                        double      *out,
                        GError     **error)
{
  char *end = NULL;
  double v;

  if (g_strcmp0 (text, "nan") == 0)
    {
      *out = NAN;
      return TRUE;
    }
  if (g_strcmp0 (text, "inf") == 0 || g_strcmp0 (text, "-inf") == 0)
    {
      *out = text[0] == '-' ? -INFINITY : INFINITY;
      return TRUE;
    }
  errno = 0;
  v = text != NULL ? g_ascii_strtod (text, &end) : 0.0;
  if (text == NULL || end == text || *end != '\0' || errno == ERANGE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "invalid number for %s in state dict: '%s'", key, text ? text : "");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

gboolean
gnn_optim_parse_int64 (const char  *text,
                       const char  *key,
                       gint64      *out,
                       GError     **error)
{
  char *end = NULL;
  gint64 v;

  errno = 0;
  v = text != NULL ? g_ascii_strtoll (text, &end, 10) : 0;
  if (text == NULL || end == text || *end != '\0' || errno == ERANGE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "invalid integer for %s in state dict: '%s'", key, text ? text : "");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

static gboolean
is_serialized_pspec (GParamSpec *pspec,
                     GType       base_type)
{
  GType t = G_TYPE_FUNDAMENTAL (pspec->value_type);

  if ((pspec->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE ||
      (pspec->flags & G_PARAM_CONSTRUCT_ONLY) != 0 ||
      !g_type_is_a (pspec->owner_type, base_type))
    return FALSE;
  return t == G_TYPE_DOUBLE || t == G_TYPE_BOOLEAN || t == G_TYPE_INT ||
         t == G_TYPE_UINT || t == G_TYPE_INT64 || t == G_TYPE_UINT64;
}

static char *
pspec_key (const char *prefix,
           GParamSpec *pspec)
{
  char *key = g_strconcat (prefix, pspec->name, NULL);

  g_strdelimit (key + strlen (prefix), "-", '_');
  return key;
}

void
gnn_optim_props_to_metadata (GObject      *object,
                             GType         base_type,
                             const char   *prefix,
                             GnnStateDict *sd)
{
  guint n_pspecs;
  g_autofree GParamSpec **pspecs =
    g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n_pspecs);

  for (guint i = 0; i < n_pspecs; i++)
    {
      g_auto (GValue) value = G_VALUE_INIT;
      g_autofree char *key = NULL;
      g_autofree char *text = NULL;

      if (!is_serialized_pspec (pspecs[i], base_type))
        continue;
      g_value_init (&value, pspecs[i]->value_type);
      g_object_get_property (object, pspecs[i]->name, &value);
      switch (G_TYPE_FUNDAMENTAL (pspecs[i]->value_type))
        {
        case G_TYPE_DOUBLE:
          text = gnn_format_double_shortest (g_value_get_double (&value));
          break;
        case G_TYPE_BOOLEAN:
          text = g_strdup (g_value_get_boolean (&value) ? "true" : "false");
          break;
        case G_TYPE_INT:
          text = g_strdup_printf ("%d", g_value_get_int (&value));
          break;
        case G_TYPE_UINT:
          text = g_strdup_printf ("%u", g_value_get_uint (&value));
          break;
        case G_TYPE_INT64:
          text = g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (&value));
          break;
        default:
          text = g_strdup_printf ("%" G_GUINT64_FORMAT, g_value_get_uint64 (&value));
          break;
        }
      key = pspec_key (prefix, pspecs[i]);
      gnn_state_dict_set_metadata (sd, key, text);
    }
}

static void
staged_prop_clear (gpointer data)
{
  GnnOptimStagedProp *s = data;

  g_value_unset (&s->value);
}

static gboolean
parse_prop (GnnOptimStagedProp  *s,
            const char          *key,
            const char          *text,
            GError             **error)
{
  GParamSpec *pspec = s->pspec;
  gint64 iv = 0;
  double dv = 0;

  g_value_init (&s->value, pspec->value_type);
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_DOUBLE:
      if (!gnn_optim_parse_double (text, key, &dv, error))
        return FALSE;
      g_value_set_double (&s->value, dv);
      break;
    case G_TYPE_BOOLEAN:
      if (g_strcmp0 (text, "true") == 0 || g_strcmp0 (text, "True") == 0)
        g_value_set_boolean (&s->value, TRUE);
      else if (g_strcmp0 (text, "false") == 0 || g_strcmp0 (text, "False") == 0)
        g_value_set_boolean (&s->value, FALSE);
      else
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                       "invalid boolean for %s in state dict: '%s'", key, text);
          return FALSE;
        }
      break;
    default:
      if (!gnn_optim_parse_int64 (text, key, &iv, error))
        return FALSE;
      switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
        {
        case G_TYPE_INT: g_value_set_int (&s->value, (int) iv); break;
        case G_TYPE_UINT: g_value_set_uint (&s->value, (guint) iv); break;
        case G_TYPE_INT64: g_value_set_int64 (&s->value, iv); break;
        default: g_value_set_uint64 (&s->value, (guint64) iv); break;
        }
      break;
    }
  if (g_param_value_validate (pspec, &s->value))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "value of %s in state dict is out of range: '%s'", key, text);
      return FALSE;
    }
  return TRUE;
}

GArray *
gnn_optim_props_from_metadata (GObject             *object,
                               GType                base_type,
                               const char          *prefix,
                               GnnStateDict        *sd,
                               const char * const  *extra_keys,
                               GError             **error)
{
  guint n_pspecs;
  g_autofree GParamSpec **pspecs =
    g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n_pspecs);
  g_autoptr (GArray) staged = g_array_new (FALSE, TRUE, sizeof (GnnOptimStagedProp));
  g_auto (GStrv) meta_keys = gnn_state_dict_get_metadata_keys (sd);
  gsize prefix_len = strlen (prefix);

  g_array_set_clear_func (staged, staged_prop_clear);

  for (guint i = 0; i < n_pspecs; i++)
    {
      g_autofree char *key = NULL;
      const char *text;
      GnnOptimStagedProp *s;

      if (!is_serialized_pspec (pspecs[i], base_type))
        continue;
      key = pspec_key (prefix, pspecs[i]);
      text = gnn_state_dict_get_metadata (sd, key);
      if (text == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "missing key in state dict: '%s'", key);
          return NULL;
        }
      g_array_set_size (staged, staged->len + 1);
      s = &g_array_index (staged, GnnOptimStagedProp, staged->len - 1);
      s->pspec = pspecs[i];
      if (!parse_prop (s, key, text, error))
        return NULL;
    }

  for (guint i = 0; meta_keys != NULL && meta_keys[i] != NULL; i++)
    {
      const char *name;
      gboolean known = FALSE;

      if (!g_str_has_prefix (meta_keys[i], prefix))
        continue;
      name = meta_keys[i] + prefix_len;
      for (guint j = 0; extra_keys != NULL && extra_keys[j] != NULL && !known; j++)
        known = strcmp (name, extra_keys[j]) == 0;
      for (guint j = 0; j < staged->len && !known; j++)
        {
          g_autofree char *key = pspec_key (prefix, g_array_index (staged, GnnOptimStagedProp, j).pspec);
          known = strcmp (key, meta_keys[i]) == 0;
        }
      if (!known)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "unexpected key in state dict: '%s'", meta_keys[i]);
          return NULL;
        }
    }
  return g_steal_pointer (&staged);
}

void
gnn_optim_props_apply (GObject *object,
                       GArray  *staged)
{
  g_object_freeze_notify (object);
  for (guint i = 0; i < staged->len; i++)
    {
      GnnOptimStagedProp *s = &g_array_index (staged, GnnOptimStagedProp, i);
      g_object_set_property (object, s->pspec->name, &s->value);
    }
  g_object_thaw_notify (object);
}

/* --- state dicts ----------------------------------------------------------- */

#define GROUP_PREFIX "param_groups.0."

/**
 * gnn_optimizer_state_dict:
 * @self: an optimizer
 *
 * Gets the optimizer's state: per-parameter tensors keyed
 * `state.<index>.<name>` (copies, so later steps do not change them) and
 * the hyper-parameters as metadata keyed `param_groups.0.<name>`, plus
 * `param_groups.0.params` (the parameter indices, comma-separated) and,
 * once a scheduler is attached, `param_groups.0.initial_lr`.
 *
 * Returns: (transfer full): a new state dict
 *
 * Since: 1.0
 */
GnnStateDict *
gnn_optimizer_state_dict (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;
  GnnStateDict *sd;
  g_autoptr (GString) indices = g_string_new (NULL);

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  priv = gnn_optimizer_get_instance_private (self);
  sd = gnn_state_dict_new ();

  for (guint i = 0; i < priv->states->len; i++)
    {
      GnnStateDict *state = g_ptr_array_index (priv->states, i);
      g_auto (GStrv) names = gnn_state_dict_get_keys (state);

      for (guint j = 0; names[j] != NULL; j++)
        {
          g_autofree char *key = g_strdup_printf ("state.%u.%s", i, names[j]);
          g_autoptr (GnnTensor) copy = gnn_tensor_clone (gnn_state_dict_lookup (state, names[j]));
          gnn_state_dict_insert (sd, key, copy);
        }
      g_string_append_printf (indices, i == 0 ? "%u" : ",%u", i);
    }

  gnn_optim_props_to_metadata (G_OBJECT (self), GNN_TYPE_OPTIMIZER, GROUP_PREFIX, sd);
  gnn_state_dict_set_metadata (sd, GROUP_PREFIX "params", indices->str);
  if (priv->has_initial_lr)
    {
      g_autofree char *v = gnn_format_double_shortest (priv->initial_lr);
      gnn_state_dict_set_metadata (sd, GROUP_PREFIX "initial_lr", v);
    }
  return sd;
}

/* "state.12.exp_avg" -> 12, "exp_avg" */
static gboolean
parse_state_key (const char  *key,
                 guint        n_params,
                 guint       *index,
                 const char **name,
                 GError     **error)
{
  const char *p;
  char *end = NULL;
  guint64 v;

  if (!g_str_has_prefix (key, "state."))
    goto unexpected;
  p = key + strlen ("state.");
  if (!g_ascii_isdigit (*p))
    goto unexpected;
  v = g_ascii_strtoull (p, &end, 10);
  if (*end != '.' || end[1] == '\0')
    goto unexpected;
  if (v >= n_params)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "loaded state dict has state for parameter %" G_GUINT64_FORMAT
                   " (key '%s') but the optimizer has %u parameters", v, key, n_params);
      return FALSE;
    }
  *index = (guint) v;
  *name = end + 1;
  return TRUE;

unexpected:
  g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
               "unexpected key in optimizer state dict: '%s'", key);
  return FALSE;
}

static gboolean
check_params_list (const char  *text,
                   guint        n_params,
                   GError     **error)
{
  g_auto (GStrv) parts = NULL;
  guint n;

  if (text == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                   "missing key in optimizer state dict: '" GROUP_PREFIX "params'");
      return FALSE;
    }
  parts = g_strsplit (text, ",", -1);
  n = text[0] == '\0' ? 0 : g_strv_length (parts);
  if (n != n_params)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "loaded state dict contains a parameter group that doesn't match "
                   "the size of optimizer's group (%u parameters, optimizer has %u)",
                   n, n_params);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_optimizer_load_state_dict:
 * @self: an optimizer
 * @state_dict: a state dict from [method@Gnn.Optimizer.state_dict] (possibly
 *   read back from a file)
 *
 * Restores hyper-parameters and per-parameter state. Everything is checked
 * first — one parameter group whose size matches, every hyper-parameter
 * present and parseable, state keys naming existing parameters and known
 * buffers, buffer shapes equal to their parameter's — and nothing changes
 * unless all of it can be applied. Buffers are copied (converted to the
 * parameter's dtype, like PyTorch); `step` stays float32.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 1.0
 */
gboolean
gnn_optimizer_load_state_dict (GnnOptimizer  *self,
                               GnnStateDict  *state_dict,
                               GError       **error)
{
  static const char * const extra_keys[] = { "params", "initial_lr", NULL };
  GnnOptimizerPrivate *priv;
  GnnOptimizerClass *klass;
  g_autoptr (GArray) staged = NULL;
  g_autoptr (GPtrArray) new_states = NULL;
  g_auto (GStrv) keys = NULL;
  g_auto (GStrv) meta_keys = NULL;
  const char *initial_lr_text;
  double initial_lr = 0;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state_dict), FALSE);
  priv = gnn_optimizer_get_instance_private (self);
  klass = GNN_OPTIMIZER_GET_CLASS (self);

  meta_keys = gnn_state_dict_get_metadata_keys (state_dict);
  for (guint i = 0; meta_keys != NULL && meta_keys[i] != NULL; i++)
    if (g_str_has_prefix (meta_keys[i], "param_groups.") &&
        !g_str_has_prefix (meta_keys[i], GROUP_PREFIX))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "loaded state dict has a different number of parameter groups "
                     "(key '%s'; the optimizer has 1 group)", meta_keys[i]);
        return FALSE;
      }
  if (!check_params_list (gnn_state_dict_get_metadata (state_dict, GROUP_PREFIX "params"),
                          priv->params->len, error))
    return FALSE;
  staged = gnn_optim_props_from_metadata (G_OBJECT (self), GNN_TYPE_OPTIMIZER, GROUP_PREFIX,
                                          state_dict, extra_keys, error);
  if (staged == NULL)
    return FALSE;
  initial_lr_text = gnn_state_dict_get_metadata (state_dict, GROUP_PREFIX "initial_lr");
  if (initial_lr_text != NULL &&
      !gnn_optim_parse_double (initial_lr_text, GROUP_PREFIX "initial_lr", &initial_lr, error))
    return FALSE;

  new_states = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < priv->params->len; i++)
    g_ptr_array_add (new_states, gnn_state_dict_new ());

  keys = gnn_state_dict_get_keys (state_dict);
  for (guint k = 0; keys[k] != NULL; k++)
    {
      GnnTensor *src = gnn_state_dict_lookup (state_dict, keys[k]);
      GnnTensorPrivate *pp, *sp = gnn_tensor_priv (src);
      g_autoptr (GnnTensor) copy = NULL;
      const char *name;
      guint index;

      if (!parse_state_key (keys[k], priv->params->len, &index, &name, error))
        return FALSE;
      pp = gnn_tensor_priv (g_ptr_array_index (priv->params, index));
      if (strcmp (name, "step") == 0)
        {
          gint64 shape1 = 1;
          if (sp->numel != 1)
            {
              g_autofree char *s = gnn_shape_to_string (sp->shape, sp->ndim);
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "loaded state dict: '%s' must have one element, got shape %s",
                           keys[k], s);
              return FALSE;
            }
          copy = gnn_tensor_new_contiguous (GNN_DTYPE_F32, &shape1, 0, FALSE);
          *(float *) gnn_tensor_priv_data (gnn_tensor_priv (copy)) =
            (float) gnn_dtype_read (sp->dtype, sp->storage->data +
                                    sp->offset * (gint64) gnn_dtype_get_size (sp->dtype));
        }
      else
        {
          if (sp->ndim != pp->ndim ||
              memcmp (sp->shape, pp->shape, pp->ndim * sizeof (gint64)) != 0)
            {
              g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);
              g_autofree char *ps = gnn_shape_to_string (pp->shape, pp->ndim);
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "loaded state dict: '%s' has shape %s but parameter %u has shape %s",
                           keys[k], ss, index, ps);
              return FALSE;
            }
          copy = gnn_tensor_new_contiguous (pp->dtype, pp->shape, pp->ndim, FALSE);
          {
            GnnTensorPrivate *cp = gnn_tensor_priv (copy);
            gnn_strided_copy (cp->dtype, gnn_tensor_priv_data (cp), cp->strides,
                              sp->dtype, gnn_tensor_priv_data (sp), sp->strides,
                              sp->shape, sp->ndim);
          }
        }
      gnn_state_dict_insert (g_ptr_array_index (new_states, index), name, copy);
    }

  if (klass->validate_state != NULL)
    for (guint i = 0; i < new_states->len; i++)
      if (!klass->validate_state (self, i, g_ptr_array_index (new_states, i), error))
        return FALSE;

  /* Everything checked: apply. */
  gnn_optim_props_apply (G_OBJECT (self), staged);
  priv->has_initial_lr = initial_lr_text != NULL;
  priv->initial_lr = initial_lr;
  g_ptr_array_unref (priv->states);
  priv->states = g_steal_pointer (&new_states);
  return TRUE;
}
