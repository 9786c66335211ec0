/* gnn-checkpoint.c: a training checkpoint — model, optimizer, LR scheduler
 * and epoch in one safetensors file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-model-private.h"

/**
 * GnnCheckpoint:
 *
 * What a training run needs to resume — the model, its optimizer, the
 * learning-rate scheduler and the epoch — saved and loaded as one file, the
 * C counterpart of `torch.save({'model': model, 'optimizer': opt, ...})`
 * for whole objects (no pickle, and no program code needed to rebuild them).
 *
 * [method@Gnn.Checkpoint.save] writes one safetensors file: the model's
 * tensors under `model.`, the optimizer's state under `optimizer.`
 * (`optimizer.state.0.exp_avg`), the scheduler's under `scheduler.`, and in
 * the metadata entry `gnn.training` a JSON description: the model's tree (as
 * in a model file, see [method@Gnn.Module.save_model]), the optimizer's type,
 * configuration (its defaults), parameter groups (the parameters by their
 * names in the model) and state-dict metadata (each group's options), the scheduler's type, configuration and
 * state, and the epoch. [func@Gnn.Checkpoint.load] rebuilds all of it —
 * the optimizer holding the rebuilt model's parameters, the scheduler
 * attached to the rebuilt optimizer — in the order torch's recipe uses
 * (construct the optimizer and the scheduler, then load their states).
 *
 * Since: 0.1
 */
struct _GnnCheckpoint
{
  GObject         parent_instance;

  GnnModule      *model;
  GnnOptimizer   *optimizer;
  GnnLRScheduler *scheduler;
  gint64          epoch;
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_OPTIMIZER,
  PROP_SCHEDULER,
  PROP_EPOCH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCheckpoint, gnn_checkpoint, G_TYPE_OBJECT)

#define TRAINING_KEY "gnn.training"
#define TRAINING_FORMAT "gnn.training"
#define TRAINING_VERSION 1

static void
gnn_checkpoint_finalize (GObject *object)
{
  GnnCheckpoint *self = GNN_CHECKPOINT (object);

  g_clear_object (&self->model);
  g_clear_object (&self->optimizer);
  g_clear_object (&self->scheduler);
  G_OBJECT_CLASS (gnn_checkpoint_parent_class)->finalize (object);
}

static void
gnn_checkpoint_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GnnCheckpoint *self = GNN_CHECKPOINT (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_OPTIMIZER:
      g_value_set_object (value, self->optimizer);
      break;
    case PROP_SCHEDULER:
      g_value_set_object (value, self->scheduler);
      break;
    case PROP_EPOCH:
      g_value_set_int64 (value, self->epoch);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_checkpoint_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GnnCheckpoint *self = GNN_CHECKPOINT (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_set_object (&self->model, g_value_get_object (value));
      break;
    case PROP_OPTIMIZER:
      g_set_object (&self->optimizer, g_value_get_object (value));
      break;
    case PROP_SCHEDULER:
      g_set_object (&self->scheduler, g_value_get_object (value));
      break;
    case PROP_EPOCH:
      self->epoch = g_value_get_int64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_checkpoint_class_init (GnnCheckpointClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS;

  object_class->finalize = gnn_checkpoint_finalize;
  object_class->get_property = gnn_checkpoint_get_property;
  object_class->set_property = gnn_checkpoint_set_property;

  /**
   * GnnCheckpoint:model:
   *
   * The model (a module tree).
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL, GNN_TYPE_MODULE, flags);
  /**
   * GnnCheckpoint:optimizer:
   *
   * The optimizer of the model's parameters, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_OPTIMIZER] = g_param_spec_object ("optimizer", NULL, NULL, GNN_TYPE_OPTIMIZER,
                                                    flags);
  /**
   * GnnCheckpoint:scheduler:
   *
   * The learning-rate scheduler of the optimizer, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_SCHEDULER] = g_param_spec_object ("scheduler", NULL, NULL,
                                                    GNN_TYPE_LR_SCHEDULER, flags);
  /**
   * GnnCheckpoint:epoch:
   *
   * The epoch the checkpoint was taken at (the caller's count).
   *
   * Since: 0.1
   */
  properties[PROP_EPOCH] = g_param_spec_int64 ("epoch", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                                               flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_checkpoint_init (GnnCheckpoint *self)
{
}

/**
 * gnn_checkpoint_new:
 * @model: the model
 * @optimizer: (nullable): an optimizer of @model's parameters
 * @scheduler: (nullable): a scheduler of @optimizer
 * @epoch: the epoch
 *
 * Gathers what a training run resumes from.
 *
 * Returns: (transfer full): a new checkpoint
 *
 * Since: 0.1
 */
GnnCheckpoint *
gnn_checkpoint_new (GnnModule      *model,
                    GnnOptimizer   *optimizer,
                    GnnLRScheduler *scheduler,
                    gint64          epoch)
{
  g_return_val_if_fail (GNN_IS_MODULE (model), NULL);
  g_return_val_if_fail (optimizer == NULL || GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (scheduler == NULL || GNN_IS_LR_SCHEDULER (scheduler), NULL);

  return g_object_new (GNN_TYPE_CHECKPOINT, "model", model, "optimizer", optimizer,
                       "scheduler", scheduler, "epoch", epoch, NULL);
}

/**
 * gnn_checkpoint_get_model:
 * @self: a checkpoint
 *
 * Gets the model.
 *
 * Returns: (transfer none) (nullable): the model
 *
 * Since: 0.1
 */
GnnModule *
gnn_checkpoint_get_model (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  return self->model;
}

/**
 * gnn_checkpoint_get_optimizer:
 * @self: a checkpoint
 *
 * Gets the optimizer.
 *
 * Returns: (transfer none) (nullable): the optimizer
 *
 * Since: 0.1
 */
GnnOptimizer *
gnn_checkpoint_get_optimizer (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  return self->optimizer;
}

/**
 * gnn_checkpoint_get_scheduler:
 * @self: a checkpoint
 *
 * Gets the learning-rate scheduler.
 *
 * Returns: (transfer none) (nullable): the learning-rate scheduler
 *
 * Since: 0.1
 */
GnnLRScheduler *
gnn_checkpoint_get_scheduler (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  return self->scheduler;
}

/**
 * gnn_checkpoint_get_epoch:
 * @self: a checkpoint
 *
 * Gets the epoch.
 *
 * Returns: the epoch
 *
 * Since: 0.1
 */
gint64
gnn_checkpoint_get_epoch (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), 0);
  return self->epoch;
}

/* --- saving -------------------------------------------------------------------------- */

/* Adds @part's tensors to @out under @prefix; its metadata as a JSON object. */
static JsonNode *
merge_state (GnnStateDict *out,
             const char   *prefix,
             GnnStateDict *part)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (part);
  g_auto(GStrv) meta_keys = gnn_state_dict_get_metadata_keys (part);
  JsonObject *meta = json_object_new ();

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *key = g_strconcat (prefix, keys[i], NULL);

      gnn_state_dict_insert (out, key, gnn_state_dict_lookup (part, keys[i]));
    }
  for (guint i = 0; meta_keys[i] != NULL; i++)
    json_object_set_string_member (meta, meta_keys[i], gnn_state_dict_get_metadata (part, meta_keys[i]));
  return gnn_io_json_take_object (meta);
}

static JsonNode *
encode_plain (GObject     *value,
              GParamSpec  *pspec,
              gpointer     data,
              GError     **error)
{
  /* the scheduler's optimizer is the checkpoint's */
  if (value == data)
    {
      JsonObject *ref = json_object_new ();

      json_object_set_boolean_member (ref, "optimizer", TRUE);
      return gnn_io_json_take_object (ref);
    }
  return gnn_props_encode_plain_object (value, 0, error);
}

/* {"type", "properties", "param_groups": [[names in the model], ...],
 * "metadata": {the state dict's: each group's options}} */
static JsonNode *
describe_optimizer (GnnCheckpoint  *self,
                    GnnStateDict   *out,
                    GError        **error)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (self->model, NULL, TRUE, &names);
  g_autoptr(GHashTable) name_of = g_hash_table_new (NULL, NULL);
  g_autoptr(GnnStateDict) state = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  JsonArray *groups = json_array_new ();
  JsonNode *props;

  for (guint i = 0; i < params->len; i++)
    g_hash_table_insert (name_of, g_ptr_array_index (params, i), names[i]);
  json_object_set_array_member (object, "param_groups", groups);
  for (guint g = 0; g < gnn_optimizer_get_n_param_groups (self->optimizer); g++)
    {
      g_autoptr(GPtrArray) group = gnn_optimizer_get_group_params (self->optimizer, g);
      JsonArray *list = json_array_new ();

      json_array_add_array_element (groups, list);
      for (guint i = 0; group != NULL && i < group->len; i++)
        {
          const char *name = g_hash_table_lookup (name_of, g_ptr_array_index (group, i));

          if (name == NULL)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "cannot save the checkpoint: parameter %u of the optimizer's group %u "
                           "is not a parameter of the model", i, g);
              return NULL;
            }
          json_array_add_string_element (list, name);
        }
    }
  props = gnn_props_encode (G_OBJECT (self->optimizer), encode_plain, NULL, error);
  if (props == NULL)
    return NULL;
  json_object_set_string_member (object, "type", G_OBJECT_TYPE_NAME (self->optimizer));
  json_object_set_member (object, "properties", props);
  state = gnn_optimizer_state_dict (self->optimizer);
  json_object_set_member (object, "metadata", merge_state (out, "optimizer.", state));
  return json_node_init_object (json_node_alloc (), object);
}

static JsonNode *
describe_scheduler (GnnCheckpoint  *self,
                    GnnStateDict   *out,
                    GError        **error)
{
  g_autoptr(GnnStateDict) state = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  JsonNode *props;

  if (self->optimizer == NULL || gnn_lr_scheduler_get_optimizer (self->scheduler) != self->optimizer)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot save the checkpoint: the scheduler's optimizer is not the "
                   "checkpoint's optimizer");
      return NULL;
    }
  props = gnn_props_encode (G_OBJECT (self->scheduler), encode_plain, self->optimizer, error);
  if (props == NULL)
    return NULL;
  json_object_set_string_member (object, "type", G_OBJECT_TYPE_NAME (self->scheduler));
  json_object_set_member (object, "properties", props);
  state = gnn_lr_scheduler_state_dict (self->scheduler);
  json_object_set_member (object, "metadata", merge_state (out, "scheduler.", state));
  return json_node_init_object (json_node_alloc (), object);
}

/**
 * gnn_checkpoint_save:
 * @self: a checkpoint
 * @path: (type filename): the file to write
 * @metadata: (nullable) (element-type utf8 utf8): extra `__metadata__` strings
 * @error: return location for a #GError
 *
 * Writes the checkpoint as one safetensors file (see [class@Gnn.Checkpoint]),
 * atomically, as [method@Gnn.StateDict.save] does.
 *
 * Returns: %TRUE on success; %FALSE with %GNN_ERROR_INVALID_ARGUMENT when
 *   there is no model, an optimizer's parameter is not one of the model's or
 *   the scheduler belongs to another optimizer; the errors of
 *   [method@Gnn.Module.save_model] otherwise
 *
 * Since: 0.1
 */
gboolean
gnn_checkpoint_save (GnnCheckpoint  *self,
                     const char     *path,
                     GHashTable     *metadata,
                     GError        **error)
{
  g_autoptr(GnnStateDict) out = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) extra = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) model_state = NULL;
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(JsonNode) root_node = NULL;
  g_autofree char *text = NULL;
  JsonNode *tree, *part;

  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->model == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot save the checkpoint: it has no model");
      return FALSE;
    }
  tree = gnn_model_describe (self->model, extra, error);
  if (tree == NULL)
    return FALSE;
  json_object_set_string_member (root, "format", TRAINING_FORMAT);
  json_object_set_int_member (root, "version", TRAINING_VERSION);
  json_object_set_int_member (root, "epoch", self->epoch);
  json_object_set_member (root, "model", tree);
  model_state = gnn_module_state_dict (self->model);
  json_node_unref (merge_state (out, "model.", model_state));
  json_node_unref (merge_state (out, "model.", extra));
  if (self->optimizer != NULL)
    {
      part = describe_optimizer (self, out, error);
      if (part == NULL)
        return FALSE;
      json_object_set_member (root, "optimizer", part);
    }
  if (self->scheduler != NULL)
    {
      part = describe_scheduler (self, out, error);
      if (part == NULL)
        return FALSE;
      json_object_set_member (root, "scheduler", part);
    }
  root_node = json_node_init_object (json_node_alloc (), root);
  text = gnn_io_json_to_text (root_node);
  return gnn_io_save_with_description (out, path, metadata, TRAINING_KEY, text, error);
}
