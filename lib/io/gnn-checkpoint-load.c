/* gnn-checkpoint-load.c: rebuilding a training checkpoint — the model from
 * its tree, the optimizer around the rebuilt parameters, the scheduler
 * around the optimizer, then their states
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-model-private.h"

#define TRAINING_KEY "gnn.training"
#define TRAINING_FORMAT "gnn.training"
#define TRAINING_VERSION 1

#define FORMAT_ERROR(error, ...) \
  g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "invalid checkpoint: " __VA_ARGS__)

/* The tensors of @state under @prefix (without it) and the strings of the
 * JSON object @metadata: an optimizer's or a scheduler's state dict. */
static GnnStateDict *
part_state (GnnStateDict  *state,
            const char    *prefix,
            JsonNode      *metadata,
            GError       **error)
{
  g_autoptr(GnnStateDict) part = gnn_state_dict_new ();
  g_auto(GStrv) keys = gnn_state_dict_get_keys (state);
  g_autoptr(GList) members = NULL;
  JsonObject *object;

  for (guint i = 0; keys[i] != NULL; i++)
    if (g_str_has_prefix (keys[i], prefix))
      gnn_state_dict_insert (part, keys[i] + strlen (prefix), gnn_state_dict_lookup (state, keys[i]));
  if (metadata == NULL)
    return g_steal_pointer (&part);
  if (!JSON_NODE_HOLDS_OBJECT (metadata))
    {
      FORMAT_ERROR (error, "the %sstate's metadata is not an object", prefix);
      return NULL;
    }
  object = json_node_get_object (metadata);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          FORMAT_ERROR (error, "the %sstate's metadata \"%s\" is not a string", prefix,
                        (const char *) l->data);
          return NULL;
        }
      gnn_state_dict_set_metadata (part, l->data, json_node_get_string (value));
    }
  return g_steal_pointer (&part);
}

typedef struct
{
  GnnOptimizer *optimizer;
  gboolean      allow_foreign;
} DecodeContext;

/* {"optimizer": true} is the checkpoint's optimizer; else a plain object. */
static GObject *
decode_object (JsonNode    *node,
               GParamSpec  *pspec,
               gpointer     data,
               GError     **error)
{
  DecodeContext *c = data;

  if (JSON_NODE_HOLDS_OBJECT (node) && json_object_has_member (json_node_get_object (node), "optimizer"))
    {
      if (c->optimizer == NULL)
        {
          FORMAT_ERROR (error, "the scheduler refers to an optimizer the checkpoint does not have");
          return NULL;
        }
      return g_object_ref (G_OBJECT (c->optimizer));
    }
  return gnn_props_decode_plain_object (node, pspec->value_type, c->allow_foreign, 0,
                                        "the checkpoint", error);
}

/* An object of a subtype of @base from {"type", "properties"}. */
static GObject *
build_object (JsonObject     *description,
              GType           base,
              const char     *what,
              DecodeContext  *context,
              GError        **error)
{
  JsonNode *type_node = json_object_get_member (description, "type");
  GnnPropList props;
  GObject *object;
  GType type;

  if (type_node == NULL || !JSON_NODE_HOLDS_VALUE (type_node) ||
      json_node_get_value_type (type_node) != G_TYPE_STRING)
    {
      FORMAT_ERROR (error, "the %s has no \"type\" string", what);
      return NULL;
    }
  type = gnn_io_lookup_type (json_node_get_string (type_node), base, context->allow_foreign, what,
                             error);
  if (type == 0)
    return NULL;
  gnn_prop_list_init (&props);
  object = NULL;
  if (gnn_props_decode (type, json_object_get_member (description, "properties"), decode_object,
                        context, what, &props, error))
    object = gnn_props_new_object (type, &props, error);
  gnn_prop_list_clear (&props);
  return object;
}

/* The parameters of the model @names (a JSON list of names) lists. */
static GPtrArray *
group_params (JsonNode   *names,
              guint       group,
              GnnModule  *model,
              GError    **error)
{
  g_autoptr(GPtrArray) params = g_ptr_array_new ();
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (names))
    {
      FORMAT_ERROR (error, "the optimizer's parameter group %u is not a list of names", group);
      return NULL;
    }
  array = json_node_get_array (names);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *name = json_array_get_element (array, i);
      GnnParameter *param;

      if (!JSON_NODE_HOLDS_VALUE (name) || json_node_get_value_type (name) != G_TYPE_STRING)
        {
          FORMAT_ERROR (error, "the optimizer's parameter %u of group %u is not a name", i, group);
          return NULL;
        }
      param = gnn_module_get_parameter (model, json_node_get_string (name), NULL);
      if (param == NULL)
        {
          g_autofree char *display = gnn_io_escape_utf8 (json_node_get_string (name), -1);

          FORMAT_ERROR (error, "the optimizer's parameter '%s' is not a parameter of the model",
                        display);
          return NULL;
        }
      g_ptr_array_add (params, param);
    }
  return g_steal_pointer (&params);
}

/* The optimizer, its groups made with the defaults: load_state_dict then
 * gives each group its options. */
static GnnOptimizer *
build_optimizer (JsonNode       *node,
                 GnnModule      *model,
                 DecodeContext  *context,
                 GError        **error)
{
  g_autoptr(GObject) optimizer = NULL;
  JsonNode *list;
  JsonArray *groups;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      FORMAT_ERROR (error, "the optimizer is not an object");
      return NULL;
    }
  list = json_object_get_member (json_node_get_object (node), "param_groups");
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    {
      FORMAT_ERROR (error, "the optimizer has no \"param_groups\" list");
      return NULL;
    }
  optimizer = build_object (json_node_get_object (node), GNN_TYPE_OPTIMIZER, "optimizer", context,
                            error);
  if (optimizer == NULL)
    return NULL;
  groups = json_node_get_array (list);
  for (guint g = 0; g < json_array_get_length (groups); g++)
    {
      g_autoptr(GPtrArray) params = group_params (json_array_get_element (groups, g), g, model,
                                                  error);

      if (params == NULL ||
          !gnn_optimizer_add_param_group (GNN_OPTIMIZER (optimizer), params, NULL, error))
        return NULL;
    }
  return GNN_OPTIMIZER (g_steal_pointer (&optimizer));
}

static gboolean
load_states (GnnCheckpoint  *checkpoint,
             JsonObject     *root,
             GnnStateDict   *state,
             GError        **error)
{
  GnnOptimizer *optimizer = gnn_checkpoint_get_optimizer (checkpoint);
  GnnLRScheduler *scheduler = gnn_checkpoint_get_scheduler (checkpoint);

  if (optimizer != NULL)
    {
      JsonNode *meta = json_object_get_member (json_object_get_object_member (root, "optimizer"),
                                               "metadata");
      g_autoptr(GnnStateDict) part = part_state (state, "optimizer.", meta, error);

      if (part == NULL || !gnn_optimizer_load_state_dict (optimizer, part, error))
        return FALSE;
    }
  if (scheduler != NULL)
    {
      JsonNode *meta = json_object_get_member (json_object_get_object_member (root, "scheduler"),
                                               "metadata");
      g_autoptr(GnnStateDict) part = part_state (state, "scheduler.", meta, error);

      if (part == NULL || !gnn_lr_scheduler_load_state_dict (scheduler, part, error))
        return FALSE;
    }
  return TRUE;
}

static GnnCheckpoint *
from_state (GnnStateDict  *state,
            GnnLoadFlags   flags,
            GError       **error)
{
  const char *text = gnn_state_dict_get_metadata (state, TRAINING_KEY);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnOptimizer) optimizer = NULL;
  g_autoptr(GObject) scheduler = NULL;
  g_autoptr(GnnCheckpoint) checkpoint = NULL;
  DecodeContext context = { NULL, (flags & GNN_LOAD_FLAGS_ALLOW_TYPES) != 0 };
  const char *format;
  JsonObject *root;
  JsonNode *node;
  gint64 version = 0, epoch = 0;

  if (text == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "not a training checkpoint: it has no \"" TRAINING_KEY "\" metadata");
      return NULL;
    }
  parser = gnn_io_json_parse (text, strlen (text), GNN_MODEL_MAX_JSON_DEPTH,
                              "invalid checkpoint: the " TRAINING_KEY " metadata", error);
  if (parser == NULL)
    return NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  node = json_object_get_member (root, "format");
  format = node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
           json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
  node = json_object_get_member (root, "version");
  if (g_strcmp0 (format, TRAINING_FORMAT) != 0 ||
      node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      FORMAT_ERROR (error, "no \"format\": \"" TRAINING_FORMAT "\" and \"version\"");
      return NULL;
    }
  version = json_node_get_int (node);
  if (version < 1 || version > TRAINING_VERSION)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "checkpoint format version %" G_GINT64_FORMAT " is not supported", version);
      return NULL;
    }
  node = json_object_get_member (root, "epoch");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
        {
          FORMAT_ERROR (error, "the epoch is not an integer");
          return NULL;
        }
      epoch = json_node_get_int (node);
    }
  model = gnn_model_build (json_object_get_member (root, "model"), state, "model.", flags, error);
  if (model == NULL)
    return NULL;
  node = json_object_get_member (root, "optimizer");
  if (node != NULL)
    {
      optimizer = build_optimizer (node, model, &context, error);
      if (optimizer == NULL)
        return NULL;
    }
  context.optimizer = optimizer;
  node = json_object_get_member (root, "scheduler");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          FORMAT_ERROR (error, "the scheduler is not an object");
          return NULL;
        }
      scheduler = build_object (json_node_get_object (node), GNN_TYPE_LR_SCHEDULER, "scheduler",
                                &context, error);
      if (scheduler == NULL)
        return NULL;
    }
  checkpoint = gnn_checkpoint_new (model, optimizer, GNN_LR_SCHEDULER (scheduler), epoch);
  if (!load_states (checkpoint, root, state, error))
    return NULL;
  return g_steal_pointer (&checkpoint);
}

/**
 * gnn_checkpoint_new_from_state_dict:
 * @state_dict: the tensors and metadata of a training checkpoint file
 * @flags: %GNN_LOAD_FLAGS_ALLOW_TYPES to rebuild types that are not Gnn's
 * @error: return location for a #GError
 *
 * [func@Gnn.Checkpoint.load] for a file's contents already in memory (say
 * from [func@Gnn.StateDict.load_from_bytes]); the model's tensors share
 * those of @state_dict.
 *
 * Returns: (transfer full): the checkpoint, or %NULL with the errors of
 *   [func@Gnn.Checkpoint.load]
 *
 * Since: 0.1
 */
GnnCheckpoint *
gnn_checkpoint_new_from_state_dict (GnnStateDict  *state_dict,
                                    GnnLoadFlags   flags,
                                    GError       **error)
{
  GnnCheckpoint *checkpoint;

  g_return_val_if_fail (GNN_IS_STATE_DICT (state_dict), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  checkpoint = from_state (state_dict, flags, error);
  gnn_io_error_ensure_utf8 (error);
  return checkpoint;
}

/**
 * gnn_checkpoint_load:
 * @path: (type filename): a file written by [method@Gnn.Checkpoint.save]
 * @flags: #GnnLoadFlags: %GNN_LOAD_FLAGS_COPY to copy the tensors out of the
 *   file, %GNN_LOAD_FLAGS_ALLOW_TYPES to rebuild types that are not Gnn's
 * @error: return location for a #GError
 *
 * Rebuilds a training checkpoint: the model as [func@Gnn.Module.load_model]
 * does, the optimizer (its type and configuration) over the rebuilt model's
 * parameters, the scheduler over the optimizer, and then the optimizer's
 * and the scheduler's states ([method@Gnn.Optimizer.load_state_dict],
 * [method@Gnn.LRScheduler.load_state_dict]), so that training resumes
 * exactly where it stopped.
 *
 * Returns: (transfer full): the checkpoint, or %NULL with @error set: the
 *   errors of [func@Gnn.Module.load_model] (the model's), %GNN_ERROR_FORMAT
 *   for a file that is not a checkpoint or whose description is damaged,
 *   and the errors of the optimizer's and the scheduler's construction and
 *   load_state_dict
 *
 * Since: 0.1
 */
GnnCheckpoint *
gnn_checkpoint_load (const char    *path,
                     GnnLoadFlags   flags,
                     GError       **error)
{
  g_autoptr(GnnStateDict) state = NULL;
  GnnCheckpoint *checkpoint;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  state = gnn_state_dict_load_with_flags (path, flags & GNN_LOAD_FLAGS_COPY, error);
  if (state == NULL)
    return NULL;
  checkpoint = from_state (state, flags, error);
  if (checkpoint == NULL)
    {
      g_autofree char *display = gnn_io_escape_utf8 (path, -1);

      gnn_io_error_ensure_utf8 (error);
      g_prefix_error (error, "%s: ", display);
    }
  return checkpoint;
}
