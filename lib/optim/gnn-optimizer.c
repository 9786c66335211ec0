/* gnn-optimizer.c: base class of optimizers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnOptimizer:
 *
 * The base class of optimizers, like `torch.optim.Optimizer`: it holds the
 * parameters to train (any [class@Gnn.Tensor], usually the
 * [class@Gnn.Parameter]s of a module) in parameter groups, a per-parameter
 * state (a [class@Gnn.StateDict] such as `momentum_buffer` or `exp_avg`,
 * created on the first [method@Gnn.Optimizer.step]) and the
 * hyper-parameters.
 *
 * ## Hyper-parameters and parameter groups
 *
 * Each optimizer's hyper-parameters are construct properties, in PyTorch's
 * order (`lr` first: [property@Gnn.SGD:lr], [property@Gnn.SGD:momentum],
 * …): PyTorch's constructor arguments, its `optimizer.defaults`. A parameter group
 * ([method@Gnn.Optimizer.add_param_group]) takes a list of parameters and
 * its own values for some options; the others are the properties' values
 * at that moment. Each group's options are read and written by name with
 * [method@Gnn.Optimizer.get_group_option] and
 * [method@Gnn.Optimizer.set_group_option] (PyTorch's
 * `optimizer.param_groups[i]['lr']`); schedulers change them. Setting a
 * property after construction sets that option in every group too, so
 * `g_object_set (opt, "lr", 0.01, NULL)` behaves like
 * `for g in opt.param_groups: g['lr'] = 0.01`.
 *
 * Optimizers implement [iface@Gio.Initable]: the hyper-parameters are
 * checked once, when the object is initialized, with PyTorch's messages
 * ("Invalid learning rate: -0.1"); the `_new` constructors do it, and an
 * object made with g_object_new() is checked by g_initable_init() or, at
 * the latest, by its first step. Values given to a group are not checked,
 * as in PyTorch.
 *
 * Updates are written straight into the parameters' storage, outside of
 * autograd (like PyTorch's `@torch.no_grad()` step). Only float32 and
 * float64 parameters are supported; gradients must have the parameter's
 * shape and dtype.
 *
 * ## State dicts
 *
 * [method@Gnn.Optimizer.state_dict] returns PyTorch's layout flattened into
 * a [class@Gnn.StateDict]: tensors keyed `state.<index>.<name>` (index of
 * the parameter in the optimizer, counting through the groups in order, as
 * in PyTorch: `state.0.exp_avg`, `state.0.step`) and, as string metadata,
 * each group's options keyed `param_groups.<group>.<name>` (PyTorch's
 * spelling: `weight_decay`) plus `param_groups.<group>.params` (the
 * indices, "0,1,2"). Both survive a safetensors file.
 *
 * Since: 0.1
 */

typedef struct
{
  GPtrArray *groups;    /* GnnParamGroup */
  GPtrArray *params;    /* GnnTensor, all groups' in order */
  GPtrArray *states;    /* GnnStateDict, parallel to params */
  gboolean   initialized;
  guint64    step_count;
} GnnOptimizerPrivate;

static void gnn_optimizer_initable_iface_init (GInitableIface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnOptimizer, gnn_optimizer, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (GnnOptimizer)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_optimizer_initable_iface_init))

G_DEFINE_QUARK (gnn-optimizer-state-entries, state_entries)
G_DEFINE_QUARK (gnn-optimizer-update, update_func)

static void
gnn_optimizer_finalize (GObject *object)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (GNN_OPTIMIZER (object));

  g_clear_pointer (&priv->groups, g_ptr_array_unref);
  g_clear_pointer (&priv->params, g_ptr_array_unref);
  g_clear_pointer (&priv->states, g_ptr_array_unref);
  G_OBJECT_CLASS (gnn_optimizer_parent_class)->finalize (object);
}

/* A hyper-parameter set after construction applies to every group. */
static void
gnn_optimizer_dispatch_properties_changed (GObject     *object,
                                           guint        n_pspecs,
                                           GParamSpec **pspecs)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (GNN_OPTIMIZER (object));

  for (guint i = 0; i < n_pspecs; i++)
    {
      guint index;

      if (!g_type_is_a (pspecs[i]->owner_type, GNN_TYPE_OPTIMIZER))
        continue;
      index = gnn_optim_bag_index (pspecs[i]);
      for (guint g = 0; g < priv->groups->len; g++)
        {
          GnnParamGroup *group = g_ptr_array_index (priv->groups, g);
          g_value_copy (&gnn_optim_bag_values (object)[index], &group->options[index]);
        }
    }
  G_OBJECT_CLASS (gnn_optimizer_parent_class)->dispatch_properties_changed (object, n_pspecs,
                                                                           pspecs);
}

static gboolean
gnn_optimizer_real_step_with_closure (GnnOptimizer         *self,
                                      GnnOptimizerClosure   closure,
                                      gpointer              user_data,
                                      GnnTensor           **loss,
                                      GError              **error);

void
gnn_optimizer_class_set_update (GnnOptimizerClass  *klass,
                                GnnOptimUpdateFunc  func)
{
  g_type_set_qdata (G_OBJECT_CLASS_TYPE (klass), update_func_quark (), (gpointer) func);
}

/* The step of the classes that set an update: it, for every parameter. */
static gboolean
gnn_optimizer_real_step (GnnOptimizer  *self,
                         GError       **error)
{
  GnnOptimUpdateFunc func = (GnnOptimUpdateFunc) g_type_get_qdata (G_OBJECT_TYPE (self),
                                                                   update_func_quark ());

  if (func == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement step", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  return gnn_optim_foreach_param (self, func, NULL, error);
}

static void
gnn_optimizer_class_init (GnnOptimizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_optimizer_finalize;
  object_class->dispatch_properties_changed = gnn_optimizer_dispatch_properties_changed;
  klass->step_with_closure = gnn_optimizer_real_step_with_closure;
  klass->step = gnn_optimizer_real_step;
}

/* Every optimizer's first hyper-parameter is its "lr" (torch's order). */
static gboolean
has_lr (GnnOptimizer *self)
{
  return gnn_optim_bag_size (G_OBJECT (self)) > 0 &&
         strcmp (gnn_optim_bag_pspecs (G_OBJECT (self))[GNN_OPTIM_LR]->name, "lr") == 0;
}

static void
gnn_optimizer_init (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);

  priv->groups = g_ptr_array_new_with_free_func (gnn_param_group_free);
  priv->params = g_ptr_array_new_with_free_func (g_object_unref);
  priv->states = g_ptr_array_new_with_free_func (g_object_unref);
}

static gboolean
gnn_optimizer_initable_init (GInitable     *initable,
                             GCancellable  *cancellable,
                             GError       **error)
{
  GnnOptimizer *self = GNN_OPTIMIZER (initable);
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);
  GnnOptimizerClass *klass = GNN_OPTIMIZER_GET_CLASS (self);
  double lr;

  (void) cancellable;
  if (priv->initialized)
    return TRUE;
  if (!has_lr (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s has no learning rate: an optimizer's first property must be \"lr\"",
                   G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  lr = g_value_get_double (&gnn_optim_bag_values (G_OBJECT (self))[GNN_OPTIM_LR]);
  if (!gnn_optim_check (lr >= 0, "learning rate", lr, error))
    return FALSE;
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

/* --- internals shared with the groups and the codec ------------------------ */

GPtrArray *
gnn_optimizer_get_groups (GnnOptimizer *self)
{
  return ((GnnOptimizerPrivate *) gnn_optimizer_get_instance_private (self))->groups;
}

GPtrArray *
gnn_optimizer_get_states (GnnOptimizer *self)
{
  return ((GnnOptimizerPrivate *) gnn_optimizer_get_instance_private (self))->states;
}

GPtrArray *
gnn_optimizer_get_flat_params (GnnOptimizer *self)
{
  return ((GnnOptimizerPrivate *) gnn_optimizer_get_instance_private (self))->params;
}

void
gnn_optimizer_replace_groups_and_states (GnnOptimizer *self,
                                         GPtrArray    *groups,
                                         GPtrArray    *states)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);

  g_ptr_array_unref (priv->groups);
  priv->groups = g_ptr_array_ref (groups);
  g_ptr_array_unref (priv->states);
  priv->states = g_ptr_array_ref (states);
}

void
gnn_optimizer_class_set_state_entries (GnnOptimizerClass        *klass,
                                       const GnnOptimStateEntry *entries)
{
  g_type_set_qdata (G_OBJECT_CLASS_TYPE (klass), state_entries_quark (), (gpointer) entries);
}

const GnnOptimStateEntry *
gnn_optimizer_get_state_entries (GnnOptimizer *self)
{
  return g_type_get_qdata (G_OBJECT_TYPE (self), state_entries_quark ());
}

/* --- parameters ---------------------------------------------------------- */

/**
 * gnn_optimizer_get_n_params:
 * @self: an optimizer
 *
 * Gets the number of parameters, over all groups.
 *
 * Returns: the number of parameters the optimizer trains
 *
 * Since: 0.1
 */
guint
gnn_optimizer_get_n_params (GnnOptimizer *self)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0);
  return gnn_optimizer_get_flat_params (self)->len;
}

/**
 * gnn_optimizer_get_param:
 * @self: an optimizer
 * @index: a parameter index, below [method@Gnn.Optimizer.get_n_params]
 *
 * Gets a parameter by its index in the optimizer (PyTorch's state-dict
 * index: the groups' parameters in order).
 *
 * Returns: (transfer none) (nullable): the parameter, or %NULL if @index is
 *   out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_optimizer_get_param (GnnOptimizer *self,
                         guint         index)
{
  GPtrArray *params;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  params = gnn_optimizer_get_flat_params (self);
  return index < params->len ? g_ptr_array_index (params, index) : NULL;
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
 * Since: 0.1
 */
GnnStateDict *
gnn_optimizer_get_state (GnnOptimizer *self,
                         guint         index)
{
  GPtrArray *states;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  states = gnn_optimizer_get_states (self);
  return index < states->len ? g_ptr_array_index (states, index) : NULL;
}

/* --- hyper-parameters ---------------------------------------------------- */

/**
 * gnn_optimizer_get_lr:
 * @self: an optimizer
 *
 * Gets the `lr` property, the default learning rate of new groups. What a
 * group uses — which schedulers change — is
 * [method@Gnn.Optimizer.get_group_lr].
 *
 * Returns: the learning rate property
 *
 * Since: 0.1
 */
double
gnn_optimizer_get_lr (GnnOptimizer *self)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0.0);
  return has_lr (self) ? g_value_get_double (&gnn_optim_bag_values (G_OBJECT (self))[GNN_OPTIM_LR])
                       : 0.0;
}

/**
 * gnn_optimizer_set_lr:
 * @self: an optimizer
 * @lr: the new learning rate
 *
 * Sets the `lr` property, and with it the rate of every group; the next
 * step uses it.
 *
 * Since: 0.1
 */
void
gnn_optimizer_set_lr (GnnOptimizer *self,
                      double        lr)
{
  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  if (has_lr (self))
    g_object_set (self, "lr", lr, NULL);
}

/**
 * gnn_optimizer_get_maximize:
 * @self: an optimizer
 *
 * Gets the `maximize` property of optimizers that have one.
 *
 * Returns: whether the optimizer maximizes the objective (%FALSE for
 *   optimizers without the option, such as NAdam)
 *
 * Since: 0.1
 */
gboolean
gnn_optimizer_get_maximize (GnnOptimizer *self)
{
  gboolean maximize = FALSE;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (self), "maximize") != NULL)
    g_object_get (self, "maximize", &maximize, NULL);
  return maximize;
}

/**
 * gnn_optimizer_set_maximize:
 * @self: an optimizer
 * @maximize: whether to maximize the objective
 *
 * Sets the `maximize` property (and every group's option) of optimizers
 * that have one; a no-op for the others.
 *
 * Since: 0.1
 */
void
gnn_optimizer_set_maximize (GnnOptimizer *self,
                            gboolean      maximize)
{
  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (self), "maximize") != NULL)
    g_object_set (self, "maximize", !!maximize, NULL);
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
 * Since: 0.1
 */
void
gnn_optimizer_zero_grad (GnnOptimizer *self,
                         gboolean      set_to_none)
{
  GPtrArray *params;

  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  params = gnn_optimizer_get_flat_params (self);

  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (params, i);
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

gboolean
gnn_optimizer_check_grads (GnnOptimizer  *self,
                           GError       **error)
{
  GPtrArray *params = gnn_optimizer_get_flat_params (self);
  const char *type_name = gnn_optim_type_name (self);

  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (params, i);
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
                       type_name, i, gnn_dtype_get_name (pp->dtype),
                       gnn_dtype_get_name (gp->dtype));
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

GnnTensor *
gnn_optim_call_closure (GnnOptimizerClosure   closure,
                        gpointer              user_data,
                        GError              **error)
{
  gboolean was_enabled = gnn_is_grad_enabled ();
  g_autoptr (GError) local = NULL;
  GnnTensor *loss;

  gnn_set_grad_enabled (TRUE);
  loss = closure (user_data, &local);
  gnn_set_grad_enabled (was_enabled);
  if (local != NULL)
    {
      g_clear_object (&loss);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (loss == NULL)
    g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "the closure returned no loss");
  return loss;
}

/* The step every optimizer but LBFGS takes: the closure first, then the update. */
static gboolean
gnn_optimizer_real_step_with_closure (GnnOptimizer         *self,
                                      GnnOptimizerClosure   closure,
                                      gpointer              user_data,
                                      GnnTensor           **loss,
                                      GError              **error)
{
  GnnOptimizerClass *klass = GNN_OPTIMIZER_GET_CLASS (self);
  g_autoptr (GnnTensor) result = NULL;

  if (closure != NULL && (result = gnn_optim_call_closure (closure, user_data, error)) == NULL)
    return FALSE;
  if (!gnn_optimizer_check_grads (self, error))
    return FALSE;
  if (klass->step == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement step", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  if (!klass->step (self, error))
    return FALSE;
  if (loss != NULL)
    *loss = g_steal_pointer (&result);
  return TRUE;
}

/**
 * gnn_optimizer_step:
 * @self: an optimizer
 *
 * Performs one optimization step: updates every parameter whose
 * [property@Gnn.Tensor:grad] is set (others are skipped, as in PyTorch).
 * Every gradient is checked (same shape and dtype as its parameter) before
 * any parameter changes, so a failed step changes nothing. Non-contiguous
 * gradients are accepted. Optimizers that need a closure (LBFGS) fail
 * here; use [method@Gnn.Optimizer.step_with_closure].
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_optimizer_step (GnnOptimizer  *self,
                    GError       **error)
{
  return gnn_optimizer_step_with_closure (self, NULL, NULL, NULL, error);
}

/**
 * gnn_optimizer_step_with_closure:
 * @self: an optimizer
 * @closure: (scope call) (closure user_data) (nullable): re-evaluates the
 *   model and returns the loss
 * @user_data: data for @closure
 * @loss: (out) (transfer full) (optional) (nullable): the loss the first
 *   call of @closure returned (%NULL without a closure)
 * @error: return location for a #GError
 *
 * PyTorch's `optimizer.step(closure)`: most optimizers call @closure once,
 * with gradient recording on, then update; LBFGS calls it as often as its
 * line search needs. An error from @closure is returned as is, and the
 * parameters and the optimizer's state are as they were before the step.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_optimizer_step_with_closure (GnnOptimizer         *self,
                                 GnnOptimizerClosure   closure,
                                 gpointer              user_data,
                                 GnnTensor           **loss,
                                 GError              **error)
{
  GnnOptimizerPrivate *priv;
  GnnTensor *result = NULL;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  priv = gnn_optimizer_get_instance_private (self);
  if (loss != NULL)
    *loss = NULL;

  if (!gnn_optimizer_ensure_initialized (self, error))
    return FALSE;
  ok = GNN_OPTIMIZER_GET_CLASS (self)->step_with_closure (self, closure, user_data, &result,
                                                          error);
  if (!ok)
    return FALSE;
  bump_updated_versions (self);
  priv->step_count++;
  if (loss != NULL)
    *loss = result;
  else
    g_clear_object (&result);
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
 * Since: 0.1
 */
guint64
gnn_optimizer_get_step_count (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0);
  priv = gnn_optimizer_get_instance_private (self);
  return priv->step_count;
}

/* --- helpers for the update loops ------------------------------------------- */

gboolean
gnn_optim_foreach_param (GnnOptimizer        *self,
                         GnnOptimUpdateFunc   func,
                         gpointer             data,
                         GError             **error)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);

  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);

      for (guint i = group->first; i < group->first + group->n_params; i++)
        {
          GnnTensor *param = g_ptr_array_index (priv->params, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          g_autoptr (GnnTensor) grad_c = NULL;

          if (grad == NULL)
            continue;
          if ((grad_c = gnn_tensor_contiguous_checked (grad, error)) == NULL)
            return FALSE;
          if (!func (self, group->options, param, grad_c, g_ptr_array_index (priv->states, i),
                     data, error))
            return FALSE;
        }
    }
  return TRUE;
}

GnnTensor *
gnn_optim_state_like_param (GnnStateDict *state,
                            const char   *name,
                            GnnTensor    *param,
                            double        fill)
{
  GnnTensor *t = gnn_state_dict_lookup (state, name);

  if (t == NULL)
    {
      GnnTensorPrivate *pp = gnn_tensor_priv (param);
      g_autoptr (GnnTensor) fresh = gnn_tensor_new_contiguous (pp->dtype, pp->shape, pp->ndim,
                                                               fill == 0);

      if (fill != 0)
        gnn_tensor_fill_ (fresh, fill, NULL);
      gnn_state_dict_insert (state, name, fresh);
      t = fresh;
    }
  return t;
}

GnnTensor *
gnn_optim_state_scalar (GnnStateDict *state,
                        const char   *name,
                        GnnDType      dtype,
                        double        init)
{
  GnnTensor *t = gnn_state_dict_lookup (state, name);

  if (t == NULL)
    {
      g_autoptr (GnnTensor) fresh = gnn_tensor_new_contiguous (dtype, NULL, 0, FALSE);

      gnn_dtype_write (dtype, gnn_optim_data (fresh), init);
      gnn_state_dict_insert (state, name, fresh);
      t = fresh;
    }
  return t;
}

/* --- construction helpers --------------------------------------------------- */

GnnOptimizer *
gnn_optim_finish_new (GnnOptimizer  *self,
                      GPtrArray     *params,
                      GError       **error)
{
  g_autoptr (GnnOptimizer) owned = self;

  if (!gnn_optimizer_ensure_initialized (owned, error))
    return NULL;
  if (params->len == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "optimizer got an empty parameter list");
      return NULL;
    }
  if (!gnn_optimizer_add_param_group (owned, params, NULL, error))
    return NULL;
  return g_steal_pointer (&owned);
}

gpointer
gnn_optim_new_with_lr (GType       type,
                       GPtrArray  *params,
                       double      lr,
                       GError    **error)
{
  g_return_val_if_fail (params != NULL, NULL);
  return gnn_optim_finish_new (g_object_new (type, "lr", lr, NULL), params, error);
}

char *
gnn_optim_format_float (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char digits[24];
  const char *e;
  GString *out;
  int exponent, n_digits = 0;

  if (isnan (value) || isinf (value))
    return gnn_format_double_shortest (value);
  /* the shortest digits that read back exactly, in scientific form */
  for (int precision = 0; precision <= 16; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%de", precision);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  e = strchr (buf, 'e');
  exponent = atoi (e + 1);
  for (const char *c = buf; c < e; c++)
    if (g_ascii_isdigit (*c))
      digits[n_digits++] = *c;
  while (n_digits > 1 && digits[n_digits - 1] == '0')
    n_digits--;
  digits[n_digits] = '\0';

  out = g_string_new (buf[0] == '-' ? "-" : "");
  if (exponent < -4 || exponent >= 16)
    {
      /* Python: 1e-05, 1.5e+16 */
      g_string_append_c (out, digits[0]);
      if (n_digits > 1)
        g_string_append_printf (out, ".%s", digits + 1);
      g_string_append_printf (out, "e%c%02d", exponent < 0 ? '-' : '+', ABS (exponent));
    }
  else if (exponent < 0)
    {
      g_string_append (out, "0.");
      for (int i = -1; i > exponent; i--)
        g_string_append_c (out, '0');
      g_string_append (out, digits);
    }
  else
    {
      for (int i = 0; i <= exponent; i++)
        g_string_append_c (out, i < n_digits ? digits[i] : '0');
      g_string_append_printf (out, ".%s", n_digits > exponent + 1 ? digits + exponent + 1 : "0");
    }
  return g_string_free (out, FALSE);
}

gboolean
gnn_optim_check (gboolean     ok,
                 const char  *what,
                 double       value,
                 GError     **error)
{
  g_autofree char *text = NULL;

  if (ok)
    return TRUE;
  text = gnn_optim_format_float (value);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Invalid %s: %s", what, text);
  return FALSE;
}

gboolean
gnn_optim_check_beta (double    beta,
                      guint     index,
                      GError  **error)
{
  g_autofree char *text = NULL;

  if (beta >= 0.0 && beta < 1.0)
    return TRUE;
  text = gnn_optim_format_float (beta);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "Invalid beta parameter at index %u: %s", index, text);
  return FALSE;
}
