/* gnn-distributed-data-parallel.c: data-parallel training over a process
 * group (torch.nn.parallel.DistributedDataParallel)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "distributed/gnn-distributed-private.h"

/**
 * GnnDistributedDataParallel:
 *
 * Wraps a module for data-parallel training, like
 * `torch.nn.parallel.DistributedDataParallel (module)`: every rank runs the
 * same model on its own share of each batch, and backward leaves every
 * rank with the gradients averaged over all ranks, so an optimizer step
 * keeps the replicas identical.
 *
 * The wrapped model is the child `module` of the registry (the child-slot
 * property [property@Gnn.DistributedDataParallel:module], `ddp.module` in
 * Python), not a field of the wrapper: state_dict keys are `module.…` as in
 * PyTorch, and [method@Gnn.StateDict.consume_prefix] strips the prefix to
 * load them into the bare model.
 *
 * Construction (a collective: every rank must construct its wrapper)
 * checks that all ranks have the same parameters (names, shapes, dtypes)
 * and copies rank 0's parameters and buffers to the others. Gradients are
 * averaged in buckets ([property@Gnn.DistributedDataParallel:bucket-cap-mb],
 * the first bucket about 1 MiB, in reverse registration order), each
 * launched from a gradient-ready hook as soon as its last gradient is
 * final, so communication overlaps the rest of backward; backward returns
 * when all buckets are averaged. Each forward first broadcasts rank 0's
 * buffers (BatchNorm running statistics) when
 * [property@Gnn.DistributedDataParallel:broadcast-buffers] is set.
 *
 * Gradient accumulation: a forward run while
 * [property@Gnn.DistributedDataParallel:require-backward-grad-sync] is
 * %FALSE (Python's `with ddp.no_sync ():`) is followed by a backward that
 * only accumulates locally; the next synchronized backward averages the
 * accumulated sums. A parameter that gets no gradient makes the next
 * forward fail with PyTorch's "Expected to have finished reduction in the
 * prior iteration …" unless
 * [property@Gnn.DistributedDataParallel:find-unused-parameters] is set (the
 * missing gradients then count as zeros).
 *
 * Since: 0.1
 */
struct _GnnDistributedDataParallel
{
  GnnModule        parent_instance;

  GnnProcessGroup *group;
  double           bucket_cap_mb;
  gboolean         broadcast_buffers;
  gboolean         find_unused;
  gboolean         as_view;
  gboolean         require_sync;
  GnnReducer      *reducer;
};

enum {
  PROP_0,
  PROP_PROCESS_GROUP,
  PROP_BUCKET_CAP_MB,
  PROP_BROADCAST_BUFFERS,
  PROP_FIND_UNUSED_PARAMETERS,
  PROP_GRADIENT_AS_BUCKET_VIEW,
  PROP_REQUIRE_BACKWARD_GRAD_SYNC,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

#define FIRST_BUCKET_BYTES (1024 * 1024)   /* torch's dist._DEFAULT_FIRST_BUCKET_BYTES */

static void gnn_ddp_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnDistributedDataParallel, gnn_distributed_data_parallel,
                               GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_ddp_initable_iface_init))

/* --- construction ----------------------------------------------------------- */

static gboolean
wait_all (GPtrArray *works,
          GError   **error)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < works->len; i++)
    {
      g_autoptr(GError) local = NULL;

      if (!gnn_work_wait (g_ptr_array_index (works, i), -1, &local) && ok)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          ok = FALSE;
        }
    }
  return ok;
}

/* A 64-bit FNV-1a over the parameters' names, shapes and dtypes. */
static gint64
model_fingerprint (GPtrArray *params,
                   char     **names)
{
  guint64 h = G_GUINT64_CONSTANT (14695981039346656037);

#define MIX(ptr, len) \
  for (gsize _i = 0; _i < (len); _i++) \
    h = (h ^ ((const guint8 *) (ptr))[_i]) * G_GUINT64_CONSTANT (1099511628211)
  for (guint k = 0; k < params->len; k++)
    {
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (g_ptr_array_index (params, k), &ndim);
      GnnDType dtype = gnn_tensor_get_dtype (g_ptr_array_index (params, k));

      MIX (names[k], strlen (names[k]) + 1);
      MIX (shape, sizeof (gint64) * ndim);
      MIX (&dtype, sizeof dtype);
    }
#undef MIX
  return (gint64) h;
}

/* Every rank has the same parameters (torch's _verify_param_shape_across_processes). */
static gboolean
verify_across_ranks (GnnDistributedDataParallel *self,
                     GPtrArray                  *params,
                     char                      **names,
                     GError                    **error)
{
  gint world = gnn_process_group_get_world_size (self->group);
  gint rank = gnn_process_group_get_rank (self->group);
  gint64 mine[2] = { params->len, model_fingerprint (params, names) };
  g_autoptr(GnnTensor) input = gnn_tensor_new_from_int64s (mine, 2, (gint64[]) { 2 }, 1, NULL);
  g_autoptr(GPtrArray) outputs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnWork) work = NULL;

  for (gint i = 0; i < world; i++)
    g_ptr_array_add (outputs, gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_I64, NULL));
  work = gnn_process_group_all_gather (self->group, (GnnTensor **) outputs->pdata, world, input, error);
  if (work == NULL || !gnn_work_wait (work, -1, error))
    return FALSE;
  for (gint i = 0; i < world; i++)
    {
      const gint64 *theirs = gnn_tensor_get_data (g_ptr_array_index (outputs, i));

      if (theirs[0] != mine[0])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                       "DDP expects same model across all ranks, but Rank %d has %" G_GINT64_FORMAT
                       " params, while rank %d has inconsistent %" G_GINT64_FORMAT " params.",
                       rank, mine[0], i, theirs[0]);
          return FALSE;
        }
      if (theirs[1] != mine[1])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                       "DDP expects same model across all ranks, but the parameter names, shapes "
                       "or dtypes of rank %d differ from those of rank %d", rank, i);
          return FALSE;
        }
    }
  return TRUE;
}

/* Broadcasts every tensor of @tensors from rank 0. */
static gboolean
broadcast_from_rank0 (GnnProcessGroup *group,
                      GPtrArray       *tensors,
                      GError         **error)
{
  g_autoptr(GPtrArray) works = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean ok = TRUE;

  for (guint i = 0; i < tensors->len && ok; i++)
    {
      GnnWork *work;

      if (g_ptr_array_index (tensors, i) == NULL)   /* an empty slot */
        continue;
      work = gnn_process_group_broadcast (group, g_ptr_array_index (tensors, i), 0, error);
      if (work == NULL)
        ok = FALSE;
      else
        g_ptr_array_add (works, work);
    }
  /* Wait for what was started even after a failure. */
  return wait_all (works, ok ? error : NULL) && ok;
}

static gboolean
gnn_ddp_initable_init (GInitable     *initable,
                       GCancellable  *cancellable,
                       GError       **error)
{
  GnnDistributedDataParallel *self = GNN_DISTRIBUTED_DATA_PARALLEL (initable);
  GObject *child;
  g_auto(GStrv) all_names = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) params = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) states = NULL;
  gsize cap;

  if (self->reducer != NULL)
    return TRUE;
  child = gnn_module_get_child (GNN_MODULE (self), "module", NULL);
  if (child == NULL || !GNN_IS_MODULE (child))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "DistributedDataParallel needs the module to wrap (the \"module\" property)");
      return FALSE;
    }
  if (self->group == NULL && gnn_get_default_process_group () != NULL)
    self->group = g_object_ref (gnn_get_default_process_group ());
  if (self->group == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                           "Default process group has not been initialized, please make sure to "
                           "call init_process_group.");
      return FALSE;
    }

  all = gnn_module_named_parameters (GNN_MODULE (child), NULL, TRUE, &all_names);
  for (guint k = 0; k < all->len; k++)
    if (g_ptr_array_index (all, k) != NULL &&
        gnn_tensor_get_requires_grad (g_ptr_array_index (all, k)))
      {
        g_ptr_array_add (params, g_object_ref (g_ptr_array_index (all, k)));
        g_ptr_array_add (names, g_strdup (all_names[k]));
      }
  g_ptr_array_add (names, NULL);
  if (params->len == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "DistributedDataParallel is not needed when a module doesn't have any "
                           "parameter that requires a gradient.");
      return FALSE;
    }
  if (!verify_across_ranks (self, params, (char **) names->pdata, error))
    return FALSE;

  /* Rank 0's parameters and buffers everywhere (torch's _sync_module_states). */
  states = gnn_module_named_parameters (GNN_MODULE (child), NULL, TRUE, NULL);
  {
    g_autoptr(GPtrArray) buffers = gnn_module_named_buffers (GNN_MODULE (child), NULL, TRUE, NULL);
    g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();

    for (guint i = 0; i < buffers->len; i++)
      g_ptr_array_add (states, g_object_ref (g_ptr_array_index (buffers, i)));
    if (!broadcast_from_rank0 (self->group, states, error))
      return FALSE;
  }

  cap = (gsize) (self->bucket_cap_mb * 1024 * 1024);
  self->reducer = gnn_reducer_new (self->group, params, (char **) names->pdata,
                                   MIN (FIRST_BUCKET_BYTES, MAX (cap, 1)), MAX (cap, 1),
                                   self->find_unused, self->as_view);
  return TRUE;
}

static void
gnn_ddp_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_ddp_initable_init;
}

/* --- forward ------------------------------------------------------------------ */

/* What DDP does before each forward: the reducer's iteration check,
 * buffers broadcast from rank 0, the reducer readied for backward.
 * Returns the wrapped module (borrowed), or NULL with @error set. */
static GnnModule *
gnn_ddp_prepare_forward (GnnModule  *module,
                         GError    **error)
{
  GnnDistributedDataParallel *self = GNN_DISTRIBUTED_DATA_PARALLEL (module);
  GObject *child = gnn_module_get_child (module, "module", NULL);

  if (self->reducer == NULL || child == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "DistributedDataParallel was not initialized (create it with "
                           "gnn_distributed_data_parallel_new or g_initable_new)");
      return NULL;
    }
  if (!gnn_reducer_check_prior_iteration (self->reducer, error))
    return NULL;
  if (self->broadcast_buffers && gnn_process_group_get_world_size (self->group) > 1)
    {
      g_autoptr(GPtrArray) buffers = gnn_module_named_buffers (GNN_MODULE (child), NULL, TRUE, NULL);
      g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();

      if (buffers->len > 0 && !broadcast_from_rank0 (self->group, buffers, error))
        return NULL;
    }
  if (gnn_is_grad_enabled () && self->require_sync)
    gnn_reducer_prepare_for_backward (self->reducer);
  return GNN_MODULE (child);
}

static GnnTensor *
gnn_ddp_forward (GnnModule  *module,
                 GnnTensor  *input,
                 GError    **error)
{
  GnnModule *child = gnn_ddp_prepare_forward (module, error);

  return child != NULL ? gnn_module_call (child, input, error) : NULL;
}

/* torch's DDP forwards `*inputs, **kwargs` to its module as they are. */
static GnnValue *
gnn_ddp_forward_args (GnnModule  *module,
                      GnnValue   *args,
                      GnnValue   *kwargs,
                      GError    **error)
{
  GnnModule *child = gnn_ddp_prepare_forward (module, error);

  return child != NULL ? gnn_module_call_args (child, args, kwargs, error) : NULL;
}

static char *
gnn_ddp_extra_repr (GnnModule *module)
{
  GnnDistributedDataParallel *self = GNN_DISTRIBUTED_DATA_PARALLEL (module);

  return g_strdup_printf ("rank=%d, world_size=%d, buckets=%u",
                          self->group ? gnn_process_group_get_rank (self->group) : 0,
                          self->group ? gnn_process_group_get_world_size (self->group) : 1,
                          self->reducer ? gnn_reducer_get_n_buckets (self->reducer) : 0);
}

/* --- GObject ----------------------------------------------------------------- */

static void
gnn_ddp_dispose (GObject *object)
{
  GnnDistributedDataParallel *self = GNN_DISTRIBUTED_DATA_PARALLEL (object);

  g_clear_pointer (&self->reducer, gnn_reducer_free);
  g_clear_object (&self->group);
  G_OBJECT_CLASS (gnn_distributed_data_parallel_parent_class)->dispose (object);
}

static void
gnn_ddp_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnDistributedDataParallel *self = GNN_DISTRIBUTED_DATA_PARALLEL (object);

  switch (prop_id)
    {
    case PROP_PROCESS_GROUP: g_value_set_object (value, self->group); break;
    case PROP_BUCKET_CAP_MB: g_value_set_double (value, self->bucket_cap_mb); break;
    case PROP_BROADCAST_BUFFERS: g_value_set_boolean (value, self->broadcast_buffers); break;
    case PROP_FIND_UNUSED_PARAMETERS: g_value_set_boolean (value, self->find_unused); break;
    case PROP_GRADIENT_AS_BUCKET_VIEW: g_value_set_boolean (value, self->as_view); break;
    case PROP_REQUIRE_BACKWARD_GRAD_SYNC: g_value_set_boolean (value, self->require_sync); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_ddp_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnDistributedDataParallel *self = GNN_DISTRIBUTED_DATA_PARALLEL (object);

  switch (prop_id)
    {
    case PROP_PROCESS_GROUP: g_set_object (&self->group, g_value_get_object (value)); break;
    case PROP_BUCKET_CAP_MB: self->bucket_cap_mb = g_value_get_double (value); break;
    case PROP_BROADCAST_BUFFERS: self->broadcast_buffers = g_value_get_boolean (value); break;
    case PROP_FIND_UNUSED_PARAMETERS: self->find_unused = g_value_get_boolean (value); break;
    case PROP_GRADIENT_AS_BUCKET_VIEW: self->as_view = g_value_get_boolean (value); break;
    case PROP_REQUIRE_BACKWARD_GRAD_SYNC: self->require_sync = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_distributed_data_parallel_class_init (GnnDistributedDataParallelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = gnn_ddp_dispose;
  object_class->get_property = gnn_ddp_get_property;
  object_class->set_property = gnn_ddp_set_property;
  module_class->forward = gnn_ddp_forward;
  module_class->forward_args = gnn_ddp_forward_args;
  module_class->extra_repr = gnn_ddp_extra_repr;

  /**
   * GnnDistributedDataParallel:process-group:
   *
   * The group the gradients are averaged over; %NULL at construction takes
   * the default group ([func@Gnn.init_process_group]).
   *
   * Since: 0.1
   */
  properties[PROP_PROCESS_GROUP] =
    g_param_spec_object ("process-group", NULL, NULL, GNN_TYPE_PROCESS_GROUP, construct);
  /**
   * GnnDistributedDataParallel:bucket-cap-mb:
   *
   * The size of the gradient buckets in MiB (torch's `bucket_cap_mb=25`).
   *
   * Since: 0.1
   */
  properties[PROP_BUCKET_CAP_MB] =
    g_param_spec_double ("bucket-cap-mb", NULL, NULL, 0.0, 1e6, 25.0, construct);
  /**
   * GnnDistributedDataParallel:broadcast-buffers:
   *
   * Whether each forward first copies rank 0's buffers to every rank.
   *
   * Since: 0.1
   */
  properties[PROP_BROADCAST_BUFFERS] =
    g_param_spec_boolean ("broadcast-buffers", NULL, NULL, TRUE, construct);
  /**
   * GnnDistributedDataParallel:find-unused-parameters:
   *
   * Whether parameters that get no gradient in a backward are allowed
   * (their gradient counts as zero) instead of an error.
   *
   * Since: 0.1
   */
  properties[PROP_FIND_UNUSED_PARAMETERS] =
    g_param_spec_boolean ("find-unused-parameters", NULL, NULL, FALSE, construct);
  /**
   * GnnDistributedDataParallel:gradient-as-bucket-view:
   *
   * Whether each parameter's `.grad` becomes a view of its slot in the
   * gradient bucket (torch's `gradient_as_bucket_view`): the averaged
   * gradient then needs no copy back, and the bucket is the only gradient
   * memory. As in torch, a `.grad` replaced by the user stops being a view
   * until the next synchronized backward.
   *
   * Since: 0.1
   */
  properties[PROP_GRADIENT_AS_BUCKET_VIEW] =
    g_param_spec_boolean ("gradient-as-bucket-view", NULL, NULL, FALSE, construct);
  /**
   * GnnDistributedDataParallel:require-backward-grad-sync:
   *
   * Whether the backward after the next forward averages gradients; %FALSE
   * is `ddp.no_sync ()`: gradients only accumulate locally.
   *
   * Since: 0.1
   */
  properties[PROP_REQUIRE_BACKWARD_GRAD_SYNC] =
    g_param_spec_boolean ("require-backward-grad-sync", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnDistributedDataParallel:module:
   *
   * The wrapped module: a child slot of the registry (`ddp.module`).
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "module", GNN_TYPE_MODULE);
}

static void
gnn_distributed_data_parallel_init (GnnDistributedDataParallel *self)
{
  self->bucket_cap_mb = 25.0;
  self->broadcast_buffers = TRUE;
  self->require_sync = TRUE;
}

/**
 * gnn_distributed_data_parallel_new:
 * @module: the model to wrap (the same architecture on every rank)
 * @group: (nullable): the process group, or %NULL for the default one
 * @error: return location for a #GError
 *
 * Wraps @module like `DistributedDataParallel (module)`, with default
 * options; others through g_initable_new() and the properties. A
 * collective: every rank of @group must call it.
 *
 * Returns: (transfer full): the wrapper, or %NULL with @error set (no
 *   default group, no parameter that requires grad, ranks with different
 *   models: "DDP expects same model across all ranks …", or a failed
 *   collective)
 *
 * Since: 0.1
 */
GnnDistributedDataParallel *
gnn_distributed_data_parallel_new (GnnModule        *module,
                                   GnnProcessGroup  *group,
                                   GError          **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), NULL);
  g_return_val_if_fail (group == NULL || GNN_IS_PROCESS_GROUP (group), NULL);
  return g_initable_new (GNN_TYPE_DISTRIBUTED_DATA_PARALLEL, NULL, error,
                         "module", module, "process-group", group, NULL);
}

/**
 * gnn_distributed_data_parallel_get_module:
 * @self: a #GnnDistributedDataParallel
 *
 * The wrapped module, like `ddp.module`.
 *
 * Returns: (transfer none) (nullable): the wrapped module (`ddp.module`)
 *
 * Since: 0.1
 */
GnnModule *
gnn_distributed_data_parallel_get_module (GnnDistributedDataParallel *self)
{
  GObject *child;

  g_return_val_if_fail (GNN_IS_DISTRIBUTED_DATA_PARALLEL (self), NULL);
  child = gnn_module_get_child (GNN_MODULE (self), "module", NULL);
  return GNN_IS_MODULE (child) ? GNN_MODULE (child) : NULL;
}

/**
 * gnn_distributed_data_parallel_get_process_group:
 * @self: a #GnnDistributedDataParallel
 *
 * The process group the gradients are averaged over.
 *
 * Returns: (transfer none): the group gradients are averaged over
 *
 * Since: 0.1
 */
GnnProcessGroup *
gnn_distributed_data_parallel_get_process_group (GnnDistributedDataParallel *self)
{
  g_return_val_if_fail (GNN_IS_DISTRIBUTED_DATA_PARALLEL (self), NULL);
  return self->group;
}

/**
 * gnn_distributed_data_parallel_set_require_backward_grad_sync:
 * @self: a #GnnDistributedDataParallel
 * @sync: %FALSE to accumulate gradients locally after the next forwards
 *
 * Sets [property@Gnn.DistributedDataParallel:require-backward-grad-sync]
 * (what Python's `ddp.no_sync ()` context manager toggles).
 *
 * Since: 0.1
 */
void
gnn_distributed_data_parallel_set_require_backward_grad_sync (GnnDistributedDataParallel *self,
                                                              gboolean                    sync)
{
  g_return_if_fail (GNN_IS_DISTRIBUTED_DATA_PARALLEL (self));
  g_object_set (self, "require-backward-grad-sync", sync, NULL);
}

/**
 * gnn_distributed_data_parallel_get_require_backward_grad_sync:
 * @self: a #GnnDistributedDataParallel
 *
 * Reads [property@Gnn.DistributedDataParallel:require-backward-grad-sync].
 *
 * Returns: whether the backward after the next forward averages gradients
 *
 * Since: 0.1
 */
gboolean
gnn_distributed_data_parallel_get_require_backward_grad_sync (GnnDistributedDataParallel *self)
{
  g_return_val_if_fail (GNN_IS_DISTRIBUTED_DATA_PARALLEL (self), TRUE);
  return self->require_sync;
}

/**
 * gnn_distributed_data_parallel_get_n_buckets:
 * @self: a #GnnDistributedDataParallel
 *
 * The number of buckets the gradients are averaged in.
 *
 * Returns: the number of gradient buckets
 *
 * Since: 0.1
 */
guint
gnn_distributed_data_parallel_get_n_buckets (GnnDistributedDataParallel *self)
{
  g_return_val_if_fail (GNN_IS_DISTRIBUTED_DATA_PARALLEL (self), 0);
  return self->reducer ? gnn_reducer_get_n_buckets (self->reducer) : 0;
}

/**
 * gnn_state_dict_consume_prefix:
 * @self: a #GnnStateDict
 * @prefix: the prefix to strip, e.g. `"module."`
 *
 * Renames every key that starts with @prefix to the rest of the key, in
 * place and keeping the order, like
 * `torch.nn.modules.utils.consume_prefix_in_state_dict_if_present (sd,
 * prefix)`: loads a [class@Gnn.DistributedDataParallel]'s state dict into
 * the bare model.
 *
 * Returns: the number of keys renamed
 *
 * Since: 0.1
 */
guint
gnn_state_dict_consume_prefix (GnnStateDict *self,
                               const char   *prefix)
{
  g_auto(GStrv) keys = NULL;
  gsize len;
  guint renamed = 0;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), 0);
  g_return_val_if_fail (prefix != NULL, 0);
  len = strlen (prefix);
  keys = gnn_state_dict_get_keys (self);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GnnTensor) t = g_object_ref (gnn_state_dict_lookup (self, keys[i]));
      gboolean match = g_str_has_prefix (keys[i], prefix);

      /* Every key is re-inserted so the order stays that of the original. */
      gnn_state_dict_remove (self, keys[i]);
      gnn_state_dict_insert (self, match ? keys[i] + len : keys[i], t);
      renamed += match;
    }
  return renamed;
}
