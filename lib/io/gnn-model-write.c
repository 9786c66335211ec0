/* gnn-model-write.c: saving a module's architecture and weights as one
 * safetensors file (a model file)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-model-private.h"

/*
 * The architecture is the JSON text of the metadata entry "gnn.model":
 *
 *   {"format": "gnn.model", "version": 1, "modules": [node, ...]}
 *
 * The nodes list the module tree in pre-order, flat (so the JSON nests a
 * few levels whatever the tree's depth); each names its parent by index:
 *
 *   {"type": "GnnLinear", "properties": {"in-features": 4, ...},
 *    "training": true,
 *    "parameters": [{"name": "weight", "requires_grad": true},
 *                   {"name": "bias", "empty": true}],
 *    "buffers": [{"name": "running_mean", "persistent": true}]}   (the root)
 *   {"parent": 0, "name": "fc", "type": ..., ...}                 (a child)
 *   {"parent": 0, "name": "act2", "same_as": 3}     (a module registered twice)
 *   {"parent": 0, "name": "skip", "empty": true}    (an empty module slot)
 *
 * A parameter or buffer shared with an earlier one is {"name": ..,
 * "same_as": "dotted.path"}. The weights are the module's state dict (the
 * file is a plain state-dict file for any safetensors reader); the values of
 * non-persistent buffers, which state_dict() leaves out, are stored under
 * "gnn.nonpersistent." + their path.
 */

typedef struct
{
  GnnModule  *module;
  gsize       path_len;    /* of the path string before this module's name */
  char      **names;       /* registered child module names */
  guint       next;        /* the next child to visit */
  guint       index;       /* the module's node */
} Frame;

typedef struct
{
  GPtrArray    *modules;    /* GnnModule*, node index order (NULL: ref/empty) */
  GPtrArray    *nodes;      /* JsonObject* */
  GHashTable   *index_of;   /* GnnModule* → node index + 1 */
  GHashTable   *tensor_at;  /* GnnTensor* → its first dotted path (owned) */
  GnnStateDict *extra;      /* non-persistent buffers */
} Writer;

static void
frame_clear (Frame *frame)
{
  g_strfreev (frame->names);
}

static char *
join_path (const GString *path,
           const char    *name)
{
  return path->len > 0 ? g_strconcat (path->str, ".", name, NULL) : g_strdup (name);
}

/* The parameters or buffers of @module: [{"name", "requires_grad" |
 * "persistent"}, {"name", "same_as": path}, {"name", "empty": true}]. */
static JsonArray *
describe_tensors (Writer      *w,
                  GnnModule   *module,
                  GnnChildKind kind,
                  GString     *path,
                  GError     **error)
{
  g_auto(GStrv) names = gnn_module_get_registered_names (module, kind);
  JsonArray *array = json_array_new ();

  for (guint i = 0; names[i] != NULL; i++)
    {
      GnnTensor *tensor = GNN_TENSOR (gnn_module_get_child (module, names[i], NULL));
      JsonObject *entry = json_object_new ();
      g_autofree char *full = join_path (path, names[i]);
      const char *first;

      json_object_set_string_member (entry, "name", names[i]);
      json_array_add_object_element (array, entry);
      if (tensor == NULL)
        {
          json_object_set_boolean_member (entry, "empty", TRUE);
          continue;
        }
      first = g_hash_table_lookup (w->tensor_at, tensor);
      if (first != NULL)
        {
          json_object_set_string_member (entry, "same_as", first);
          continue;
        }
      g_hash_table_insert (w->tensor_at, tensor, g_strdup (full));
      if (kind == GNN_CHILD_PARAMETER)
        {
          json_object_set_boolean_member (entry, "requires_grad",
                                          gnn_tensor_get_requires_grad (tensor));
          continue;
        }
      json_object_set_boolean_member (entry, "persistent",
                                      gnn_module_is_buffer_persistent (module, names[i]));
      if (!gnn_module_is_buffer_persistent (module, names[i]))
        {
          g_autofree char *key = g_strconcat (GNN_MODEL_NONPERSISTENT_PREFIX, full, NULL);

          if (gnn_tensor_is_meta (tensor))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "cannot save buffer '%s': tensor has no storage (meta)", full);
              json_array_unref (array);
              return NULL;
            }
          gnn_state_dict_insert (w->extra, key, tensor);
        }
    }
  return array;
}

static JsonObject *
describe_module (Writer     *w,
                 GnnModule  *module,
                 GString    *path,
                 GError    **error)
{
  JsonObject *node = json_object_new ();
  JsonArray *params, *buffers;

  json_object_set_string_member (node, "type", G_OBJECT_TYPE_NAME (module));
  json_object_set_boolean_member (node, "training", gnn_module_get_training (module));
  params = describe_tensors (w, module, GNN_CHILD_PARAMETER, path, error);
  buffers = params != NULL ? describe_tensors (w, module, GNN_CHILD_BUFFER, path, error) : NULL;
  if (params != NULL)
    json_object_set_array_member (node, "parameters", params);
  if (buffers == NULL)
    {
      json_object_unref (node);
      return NULL;
    }
  json_object_set_array_member (node, "buffers", buffers);
  return node;
}

/* Adds the node of child @name of the module of @parent (or the root). */
static gboolean
add_node (Writer      *w,
          GArray      *stack,
          GString     *path,
          gint         parent,
          const char  *name,
          GnnModule   *module,
          GError     **error)
{
  guint index = w->nodes->len;
  gpointer seen = module != NULL ? g_hash_table_lookup (w->index_of, module) : NULL;
  JsonObject *node;
  Frame frame;

  if (module == NULL || seen != NULL)
    {
      node = json_object_new ();
      json_object_set_int_member (node, "parent", parent);
      json_object_set_string_member (node, "name", name);
      if (module == NULL)
        json_object_set_boolean_member (node, "empty", TRUE);
      else
        json_object_set_int_member (node, "same_as", GPOINTER_TO_UINT (seen) - 1);
      g_ptr_array_add (w->nodes, node);
      g_ptr_array_add (w->modules, NULL);
      return TRUE;
    }

  frame.path_len = path->len;
  if (parent >= 0)
    {
      if (path->len > 0)
        g_string_append_c (path, '.');
      g_string_append (path, name);
    }
  if (stack->len >= GNN_MODEL_MAX_DEPTH)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "cannot save module '%s': the tree is deeper than %d levels", path->str,
                   GNN_MODEL_MAX_DEPTH);
      return FALSE;
    }
  node = describe_module (w, module, path, error);
  if (node == NULL)
    return FALSE;
  if (parent >= 0)
    {
      json_object_set_int_member (node, "parent", parent);
      json_object_set_string_member (node, "name", name);
    }
  g_ptr_array_add (w->nodes, node);
  g_ptr_array_add (w->modules, module);
  g_hash_table_insert (w->index_of, module, GUINT_TO_POINTER (index + 1));

  frame.module = module;
  frame.names = gnn_module_get_registered_names (module, GNN_CHILD_MODULE);
  frame.next = 0;
  frame.index = index;
  g_array_append_val (stack, frame);
  return TRUE;
}

/* Pre-order over every registered child, with an explicit stack. */
static gboolean
walk_tree (Writer     *w,
           GnnModule  *root,
           GError    **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  g_autoptr(GString) path = g_string_new (NULL);

  g_array_set_clear_func (stack, (GDestroyNotify) frame_clear);
  if (!add_node (w, stack, path, -1, NULL, root, error))
    return FALSE;
  while (stack->len > 0)
    {
      Frame *top = &g_array_index (stack, Frame, stack->len - 1);
      const char *name;
      GnnModule *child;

      if (top->names[top->next] == NULL)
        {
          g_string_truncate (path, top->path_len);
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      name = top->names[top->next++];
      child = GNN_MODULE (gnn_module_get_child (top->module, name, NULL));
      if (!add_node (w, stack, path, top->index, name, child, error))
        return FALSE;
    }
  return TRUE;
}

/* A module-valued property names its node; a plain object is described. */
static JsonNode *
encode_object (GObject     *value,
               GParamSpec  *pspec,
               gpointer     data,
               GError     **error)
{
  Writer *w = data;

  if (GNN_IS_MODULE (value))
    {
      guint index = GPOINTER_TO_UINT (g_hash_table_lookup (w->index_of, value));
      g_autoptr(JsonObject) ref = NULL;

      if (index == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "property \"%s\" holds a %s that is not part of the model", pspec->name,
                       G_OBJECT_TYPE_NAME (value));
          return NULL;
        }
      ref = json_object_new ();
      json_object_set_int_member (ref, "module", index - 1);
      return json_node_init_object (json_node_alloc (), ref);
    }
  if (GNN_IS_TENSOR (value))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "property \"%s\" holds a tensor, which a model file cannot describe",
                   pspec->name);
      return NULL;
    }
  return gnn_props_encode_plain_object (value, 0, error);
}

/* The properties of every module, once every module has its index. */
static gboolean
encode_properties (Writer  *w,
                   GError **error)
{
  for (guint i = 0; i < w->nodes->len; i++)
    {
      GnnModule *module = g_ptr_array_index (w->modules, i);
      g_autoptr(GError) local_error = NULL;
      JsonNode *props;

      if (module == NULL)
        continue;
      props = gnn_props_encode (G_OBJECT (module), encode_object, w, &local_error);
      if (props == NULL)
        {
          g_set_error (error, local_error->domain, local_error->code,
                       "cannot save a %s: %s", G_OBJECT_TYPE_NAME (module), local_error->message);
          return FALSE;
        }
      json_object_set_member (g_ptr_array_index (w->nodes, i), "properties", props);
    }
  return TRUE;
}

JsonNode *
gnn_model_describe (GnnModule     *module,
                    GnnStateDict  *extra,
                    GError       **error)
{
  Writer w = {
    g_ptr_array_new (),
    g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref),
    g_hash_table_new (NULL, NULL),
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    extra,
  };
  JsonNode *root = NULL;

  if (walk_tree (&w, module, error) && encode_properties (&w, error))
    {
      JsonObject *object = json_object_new ();
      JsonArray *nodes = json_array_sized_new (w.nodes->len);

      for (guint i = 0; i < w.nodes->len; i++)
        json_array_add_object_element (nodes, json_object_ref (g_ptr_array_index (w.nodes, i)));
      json_object_set_string_member (object, "format", GNN_MODEL_FORMAT);
      json_object_set_int_member (object, "version", GNN_MODEL_VERSION);
      json_object_set_array_member (object, "modules", nodes);
      root = gnn_io_json_take_object (object);
    }
  g_ptr_array_unref (w.modules);
  g_ptr_array_unref (w.nodes);
  g_hash_table_unref (w.index_of);
  g_hash_table_unref (w.tensor_at);
  return root;
}

char *
gnn_io_json_to_text (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

/**
 * gnn_module_save_model:
 * @self: a module
 * @path: (type filename): the file to write
 * @metadata: (nullable) (element-type utf8 utf8): extra `__metadata__` strings
 * @error: return location for a #GError
 *
 * Saves the whole model — its architecture and its weights — as one
 * safetensors file, the counterpart of `torch.save(model)` without pickle.
 * The tensors are the module's [method@Gnn.Module.state_dict] under
 * PyTorch's key names, so the file is also a plain state-dict file for any
 * safetensors reader; the metadata entry `gnn.model` holds the module tree:
 * for each module its type name, its configuration (every readable
 * construct property), its children in order (modules registered twice and
 * empty slots included), its parameters and buffers (requires-grad flags,
 * persistence, tied tensors) and its training flag. The values of
 * non-persistent buffers are saved too, under `gnn.nonpersistent.` + their
 * path. [func@Gnn.Module.load_model] rebuilds the module from the file
 * alone. The file is written atomically, as by [method@Gnn.StateDict.save].
 *
 * Returns: %TRUE on success; %FALSE with %GNN_ERROR_NOT_SUPPORTED when a
 *   property cannot be described (an object that is not part of the model,
 *   a pointer), a parameter is a meta tensor or the tree is deeper than
 *   1,024 levels, or with the errors of [method@Gnn.StateDict.save]
 *
 * Since: 0.1
 */
gboolean
gnn_module_save_model (GnnModule    *self,
                       const char   *path,
                       GHashTable   *metadata,
                       GError      **error)
{
  g_autoptr(GnnStateDict) state_dict = NULL;
  g_autoptr(GnnStateDict) extra = NULL;
  g_auto(GStrv) extra_keys = NULL;
  g_autoptr(JsonNode) tree = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  extra = gnn_state_dict_new ();
  tree = gnn_model_describe (self, extra, error);
  if (tree == NULL)
    return FALSE;
  text = gnn_io_json_to_text (tree);
  state_dict = gnn_module_state_dict (self);
  extra_keys = gnn_state_dict_get_keys (extra);
  for (guint i = 0; extra_keys[i] != NULL; i++)
    gnn_state_dict_insert (state_dict, extra_keys[i], gnn_state_dict_lookup (extra, extra_keys[i]));

  return gnn_io_save_with_description (state_dict, path, metadata, GNN_MODEL_KEY, text, error);
}
