/* gnn-model-read.c: rebuilding a module from a model file — the tree from
 * its "gnn.model" metadata, the weights from its tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-model-private.h"

typedef enum
{
  NODE_MODULE,
  NODE_SAME_AS,
  NODE_EMPTY,
} NodeKind;

typedef struct
{
  JsonObject *json;
  NodeKind    kind;
  gint        parent;     /* -1 for the root */
  const char *name;       /* owned by json; NULL for the root */
  gint        target;     /* NODE_SAME_AS: the module node it repeats */
  guint       depth;
  GnnModule  *module;     /* borrowed from the tree (NULL for an empty slot) */
  GHashTable *children;   /* names of the recorded child modules (NODE_MODULE) */
} Node;

typedef struct
{
  GArray        *nodes;     /* Node */
  GnnStateDict  *state;     /* the file's tensors */
  const char    *prefix;    /* of the model's keys in @state ("" or "model.") */
  GnnLoadFlags   flags;
  GnnModule     *root;      /* owned */
} Builder;

static void
node_clear (Node *node)
{
  g_clear_pointer (&node->children, g_hash_table_unref);
}

/* The dotted path of node @i ("" for the root), for messages and keys. */
static char *
node_path (Builder *b,
           gint     i)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  GString *path = g_string_new (NULL);

  for (; i > 0; i = g_array_index (b->nodes, Node, i).parent)
    g_ptr_array_add (parts, (gpointer) g_array_index (b->nodes, Node, i).name);
  for (guint k = parts->len; k > 0; k--)
    {
      if (path->len > 0)
        g_string_append_c (path, '.');
      g_string_append (path, g_ptr_array_index (parts, k - 1));
    }
  return g_string_free (path, FALSE);
}

/* "module 'layer1.0'" / "the root module" */
static char *
node_what (Builder *b,
           gint     i)
{
  g_autofree char *path = NULL;
  g_autofree char *display = NULL;

  if (i == 0)
    return g_strdup ("the root module");
  path = node_path (b, i);
  display = gnn_io_escape_utf8 (path, -1);
  return g_strdup_printf ("module '%s'", display);
}

#define FORMAT_ERROR(error, ...) \
  g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "invalid model file: " __VA_ARGS__)

static gboolean
get_int (JsonObject *object,
         const char *member,
         gint64     *out)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_int (node);
  return TRUE;
}

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* TRUE/FALSE for a boolean member, @fallback when absent, -1 otherwise. */
static int
get_bool (JsonObject *object,
          const char *member,
          gboolean    fallback)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return fallback;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return -1;
  return json_node_get_boolean (node);
}

static gboolean
check_name (const char  *name,
            guint        index,
            GError     **error)
{
  if (name == NULL || name[0] == '\0' || strchr (name, '.') != NULL)
    {
      FORMAT_ERROR (error, "node %u has no valid \"name\" (a non-empty string without '.')", index);
      return FALSE;
    }
  return TRUE;
}

/* --- the node list ------------------------------------------------------------- */

/* Reads and checks the shape of every node before anything is built:
 * parents and "same_as" targets are earlier module nodes, names are unique
 * per parent, the depth is bounded. */
static gboolean
read_nodes (Builder    *b,
            JsonArray  *array,
            GError    **error)
{
  guint n = json_array_get_length (array);

  if (n == 0)
    {
      FORMAT_ERROR (error, "\"modules\" is empty");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      Node node = { NULL, NODE_MODULE, -1, NULL, -1, 0, NULL, NULL };
      gint64 parent = -1, same_as = -1;
      int empty;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          FORMAT_ERROR (error, "node %u is not an object", i);
          return FALSE;
        }
      node.json = json_node_get_object (element);
      empty = get_bool (node.json, "empty", FALSE);
      if (empty < 0)
        {
          FORMAT_ERROR (error, "node %u has an \"empty\" that is not a boolean", i);
          return FALSE;
        }
      if (i == 0)
        {
          if (json_object_has_member (node.json, "parent") || empty ||
              json_object_has_member (node.json, "same_as"))
            {
              FORMAT_ERROR (error, "the first node (the root) has a parent");
              return FALSE;
            }
          g_array_append_val (b->nodes, node);
          continue;
        }
      if (!get_int (node.json, "parent", &parent) || parent < 0 || parent >= i ||
          g_array_index (b->nodes, Node, parent).kind != NODE_MODULE)
        {
          FORMAT_ERROR (error, "node %u has no \"parent\" among the modules before it", i);
          return FALSE;
        }
      node.parent = (gint) parent;
      node.name = get_string (node.json, "name");
      if (!check_name (node.name, i, error))
        return FALSE;
      node.depth = g_array_index (b->nodes, Node, parent).depth + 1;
      if (node.depth > GNN_MODEL_MAX_DEPTH)
        {
          FORMAT_ERROR (error, "the module tree is deeper than %d levels", GNN_MODEL_MAX_DEPTH);
          return FALSE;
        }
      if (json_object_has_member (node.json, "same_as"))
        {
          if (!get_int (node.json, "same_as", &same_as) || same_as < 0 || same_as >= i ||
              g_array_index (b->nodes, Node, same_as).kind != NODE_MODULE)
            {
              FORMAT_ERROR (error, "node %u is \"same_as\" no module before it", i);
              return FALSE;
            }
          node.kind = NODE_SAME_AS;
        }
      else if (empty)
        node.kind = NODE_EMPTY;
      {
        Node *p = &g_array_index (b->nodes, Node, parent);

        if (p->children == NULL)
          p->children = g_hash_table_new (g_str_hash, g_str_equal);
        if (!g_hash_table_add (p->children, (gpointer) node.name))
          {
            FORMAT_ERROR (error, "node %u repeats the name \"%s\" of a sibling", i, node.name);
            return FALSE;
          }
      }
      node.target = (gint) same_as;
      g_array_append_val (b->nodes, node);
    }
  return TRUE;
}

/* --- building -------------------------------------------------------------------- */

typedef struct
{
  Builder *b;
  guint    index;
} PropContext;

/* {"module": j}: an earlier module; else a plain object. */
static GObject *
decode_object (JsonNode    *node,
               GParamSpec  *pspec,
               gpointer     data,
               GError     **error)
{
  PropContext *c = data;
  g_autofree char *what = node_what (c->b, c->index);
  gint64 j;

  if (JSON_NODE_HOLDS_OBJECT (node) && json_object_has_member (json_node_get_object (node), "module"))
    {
      Node *target;

      if (!get_int (json_node_get_object (node), "module", &j) || j < 0 || j >= c->index ||
          g_array_index (c->b->nodes, Node, j).kind != NODE_MODULE)
        {
          FORMAT_ERROR (error, "%s: property \"%s\" names no module built before it", what,
                        pspec->name);
          return NULL;
        }
      target = &g_array_index (c->b->nodes, Node, j);
      return g_object_ref (G_OBJECT (target->module));
    }
  return gnn_props_decode_plain_object (node, pspec->value_type,
                                        (c->b->flags & GNN_LOAD_FLAGS_ALLOW_TYPES) != 0, 0, what,
                                        error);
}

/* The module of node @i: the parent's own child when its constructor made
 * one of this type and configuration, else a new one. */
static GnnModule *
build_module (Builder  *b,
              guint     i,
              GError  **error)
{
  Node *node = &g_array_index (b->nodes, Node, i);
  g_autofree char *what = node_what (b, i);
  PropContext context = { b, i };
  GnnModule *existing = NULL;
  GnnPropList props;
  GObject *object = NULL;
  const char *type_name;
  GType type;

  type_name = get_string (node->json, "type");
  if (type_name == NULL)
    {
      FORMAT_ERROR (error, "%s has no \"type\" string", what);
      return NULL;
    }
  type = gnn_io_lookup_type (type_name, GNN_TYPE_MODULE, (b->flags & GNN_LOAD_FLAGS_ALLOW_TYPES) != 0,
                             what, error);
  if (type == 0)
    return NULL;

  gnn_prop_list_init (&props);
  if (!gnn_props_decode (type, json_object_get_member (node->json, "properties"), decode_object,
                         &context, what, &props, error))
    goto out;

  if (node->parent >= 0)
    {
      GnnModule *parent = g_array_index (b->nodes, Node, node->parent).module;

      if (gnn_module_has_child (parent, node->name))
        {
          GObject *child = gnn_module_get_child (parent, node->name, NULL);

          if (child != NULL && G_OBJECT_TYPE (child) == type && gnn_props_match (child, &props))
            existing = GNN_MODULE (child);
        }
    }
  if (existing != NULL)
    object = g_object_ref (G_OBJECT (existing));
  else
    {
      g_autoptr(GError) local_error = NULL;

      object = gnn_props_new_object (type, &props, &local_error);
      if (object == NULL)
        g_set_error (error, local_error->domain, local_error->code, "%s (%s): %s", what,
                     type_name, local_error->message);
    }

out:
  gnn_prop_list_clear (&props);
  return GNN_MODULE (object);
}

/* Puts @child (nullable: an empty slot) under node @i's name in its parent. */
static gboolean
attach (Builder    *b,
        guint       i,
        GnnModule  *child,
        GError    **error)
{
  Node *node = &g_array_index (b->nodes, Node, i);
  GnnModule *parent = g_array_index (b->nodes, Node, node->parent).module;
  g_autoptr(GError) local_error = NULL;
  gboolean ok;

  if (gnn_module_has_child (parent, node->name))
    {
      if (gnn_module_get_child (parent, node->name, NULL) == G_OBJECT (child))
        return TRUE;
      ok = gnn_module_set_child (parent, node->name, G_OBJECT (child), &local_error);
    }
  else
    ok = gnn_module_register_module (parent, node->name, child, &local_error);
  if (!ok)
    {
      g_autofree char *what = node_what (b, i);

      g_set_error (error, local_error->domain, local_error->code, "invalid model file: %s: %s",
                   what, local_error->message);
    }
  return ok;
}

/* Removes the child modules of node @i its file does not list (made by a
 * constructor, say, but deleted before the model was saved). */
static gboolean
prune_children (Builder  *b,
                guint     i,
                GError  **error)
{
  Node *node = &g_array_index (b->nodes, Node, i);
  g_auto(GStrv) names = gnn_module_get_registered_names (node->module, GNN_CHILD_MODULE);

  for (guint k = 0; names[k] != NULL; k++)
    if (node->children == NULL || !g_hash_table_contains (node->children, names[k]))
      if (!gnn_module_delete_child (node->module, names[k], error))
        return FALSE;
  return TRUE;
}

static gboolean
build_tree (Builder  *b,
            GError  **error)
{
  for (guint i = 0; i < b->nodes->len; i++)
    {
      Node *node = &g_array_index (b->nodes, Node, i);
      GnnModule *module = NULL;

      switch (node->kind)
        {
        case NODE_MODULE:
          module = build_module (b, i, error);
          if (module == NULL)
            return FALSE;
          node = &g_array_index (b->nodes, Node, i);
          node->module = module;
          if (i == 0)
            {
              b->root = module;
              continue;
            }
          if (!attach (b, i, module, error))
            return FALSE;
          g_object_unref (module);   /* the parent holds it */
          break;
        case NODE_SAME_AS:
          node->module = g_array_index (b->nodes, Node, node->target).module;
          if (!attach (b, i, node->module, error))
            return FALSE;
          break;
        case NODE_EMPTY:
          if (!attach (b, i, NULL, error))
            return FALSE;
          break;
        }
    }
  for (guint i = 0; i < b->nodes->len; i++)
    if (g_array_index (b->nodes, Node, i).kind == NODE_MODULE && !prune_children (b, i, error))
      return FALSE;
  return TRUE;
}

/* --- parameters, buffers and flags ------------------------------------------------ */

/* The tensor under @key (the model's own key) in the file, or NULL. */
static GnnTensor *
file_tensor (Builder    *b,
             const char *key)
{
  g_autofree char *full = g_strconcat (b->prefix, key, NULL);

  return gnn_state_dict_lookup (b->state, full);
}

/* The tensor at dotted @path in the tree (a parameter or buffer), or NULL. */
static GnnTensor *
tree_tensor (Builder    *b,
             const char *path)
{
  const char *dot = strrchr (path, '.');
  g_autofree char *owner_path = dot != NULL ? g_strndup (path, dot - path) : g_strdup ("");
  GnnModule *owner = owner_path[0] != '\0' ? gnn_module_get_submodule (b->root, owner_path, NULL)
                                           : b->root;
  GObject *value;

  if (owner == NULL || !gnn_module_has_child (owner, dot != NULL ? dot + 1 : path))
    return NULL;
  value = gnn_module_get_child (owner, dot != NULL ? dot + 1 : path, NULL);
  return GNN_IS_TENSOR (value) ? GNN_TENSOR (value) : NULL;
}

typedef struct
{
  const char *name;
  const char *same_as;
  gboolean    empty;
  int         flag;   /* requires_grad or persistent */
} TensorEntry;

static gboolean
read_tensor_entry (JsonNode    *element,
                   const char  *flag_name,
                   TensorEntry *out)
{
  JsonObject *object;
  int empty;

  if (!JSON_NODE_HOLDS_OBJECT (element))
    return FALSE;
  object = json_node_get_object (element);
  out->name = get_string (object, "name");
  out->same_as = get_string (object, "same_as");
  empty = get_bool (object, "empty", FALSE);
  out->flag = get_bool (object, flag_name, TRUE);
  out->empty = empty > 0;
  return out->name != NULL && out->name[0] != '\0' && strchr (out->name, '.') == NULL &&
         empty >= 0 && out->flag >= 0 && (json_object_has_member (object, "same_as") ==
                                          (out->same_as != NULL));
}

/* A tensor that is "same_as" another: set once every tensor exists. */
typedef struct
{
  char     *key;
  char     *target;
  gboolean  param;
} Tie;

static void
tie_clear (Tie *tie)
{
  g_free (tie->key);
  g_free (tie->target);
}

/* Registers @tensor (nullable) as parameter or buffer @name of @module. */
static gboolean
put_tensor (GnnModule   *module,
            const char  *name,
            GnnTensor   *tensor,
            gboolean     param,
            gboolean     requires_grad,
            gboolean     persistent,
            GError     **error)
{
  g_autoptr(GnnParameter) wrapped = NULL;

  if (!param)
    return gnn_module_register_buffer (module, name, tensor, persistent, error);
  if (tensor != NULL)
    wrapped = gnn_parameter_new (tensor, requires_grad);
  return gnn_module_register_parameter (module, name, wrapped, error);
}

/* Gives one parameter or buffer of node @i what its entry @e lists. */
static gboolean
shape_tensor (Builder      *b,
              guint         i,
              const char   *key,
              TensorEntry  *e,
              gboolean      param,
              GArray       *ties,
              GError      **error)
{
  Node *node = &g_array_index (b->nodes, Node, i);
  gboolean registered = gnn_module_has_child (node->module, e->name);
  GObject *current = registered ? gnn_module_get_child (node->module, e->name, NULL) : NULL;
  g_autofree char *np_key = NULL;
  GnnTensor *source;

  if (e->same_as != NULL)
    {
      Tie tie = { g_strdup (key), g_strdup (e->same_as), param };

      g_array_append_val (ties, tie);
      return registered || put_tensor (node->module, e->name, NULL, param, FALSE, TRUE, error);
    }
  if (e->empty)
    return (registered && current == NULL) ||
           put_tensor (node->module, e->name, NULL, param, FALSE, TRUE, error);
  if (param && GNN_IS_TENSOR (current))
    {
      gnn_tensor_set_requires_grad (GNN_TENSOR (current), e->flag);
      return TRUE;   /* the constructor made it; the weights are assigned later */
    }
  if (!param && GNN_IS_TENSOR (current) && e->flag &&
      gnn_module_is_buffer_persistent (node->module, e->name))
    return TRUE;
  /* Not made by the constructor (or non-persistent: the constructor's is
   * meta): the file's tensor. */
  np_key = g_strconcat (GNN_MODEL_NONPERSISTENT_PREFIX, key, NULL);
  source = file_tensor (b, param || e->flag ? key : np_key);
  if (source == NULL)
    {
      FORMAT_ERROR (error, "%s '%s' has no tensor \"%s%s\"", param ? "parameter" : "buffer", key,
                    b->prefix, param || e->flag ? key : np_key);
      return FALSE;
    }
  return put_tensor (node->module, e->name, source, param, e->flag, e->flag, error);
}

/* Makes node @i's parameters (@kind GNN_CHILD_PARAMETER) or buffers those
 * its file lists: empty slots, tensors the constructor did not make (taken
 * from the file), persistence; extra ones are removed. Tied tensors
 * ("same_as") go to @ties. */
static gboolean
shape_tensors (Builder      *b,
               guint         i,
               GnnChildKind  kind,
               GArray       *ties,
               GError      **error)
{
  Node *node = &g_array_index (b->nodes, Node, i);
  gboolean param = kind == GNN_CHILD_PARAMETER;
  const char *member = param ? "parameters" : "buffers";
  JsonNode *list = json_object_get_member (node->json, member);
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) existing = gnn_module_get_registered_names (node->module, kind);
  g_autofree char *path = node_path (b, i);
  JsonArray *array;

  if (list == NULL)
    return TRUE;   /* as the constructor made them */
  if (!JSON_NODE_HOLDS_ARRAY (list))
    {
      g_autofree char *what = node_what (b, i);

      FORMAT_ERROR (error, "%s: \"%s\" is not a list", what, member);
      return FALSE;
    }
  array = json_node_get_array (list);
  for (guint k = 0; k < json_array_get_length (array); k++)
    {
      g_autofree char *key = NULL;
      TensorEntry e;

      if (!read_tensor_entry (json_array_get_element (array, k), param ? "requires_grad" : "persistent",
                              &e) || !g_hash_table_add (listed, (gpointer) e.name))
        {
          g_autofree char *what = node_what (b, i);

          FORMAT_ERROR (error, "%s: entry %u of \"%s\" is malformed or repeats a name", what, k,
                        member);
          return FALSE;
        }
      key = path[0] != '\0' ? g_strconcat (path, ".", e.name, NULL) : g_strdup (e.name);
      if (!shape_tensor (b, i, key, &e, param, ties, error))
        return FALSE;
    }
  for (guint k = 0; existing[k] != NULL; k++)
    if (!g_hash_table_contains (listed, existing[k]) &&
        !gnn_module_delete_child (node->module, existing[k], error))
      return FALSE;
  return TRUE;
}

static gboolean
set_ties (Builder  *b,
          GArray   *ties,
          GError  **error)
{
  for (guint k = 0; k < ties->len; k++)
    {
      Tie *tie = &g_array_index (ties, Tie, k);
      GnnTensor *target = tree_tensor (b, tie->target);
      const char *dot = strrchr (tie->key, '.');
      g_autofree char *owner_path = dot != NULL ? g_strndup (tie->key, dot - tie->key) : NULL;
      GnnModule *owner = owner_path != NULL ? gnn_module_get_submodule (b->root, owner_path, NULL)
                                            : b->root;

      if (target == NULL || (tie->param && !GNN_IS_PARAMETER (target)))
        {
          FORMAT_ERROR (error, "'%s' is \"same_as\" '%s', which is not a %s of the model",
                        tie->key, tie->target, tie->param ? "parameter" : "tensor");
          return FALSE;
        }
      if (!gnn_module_set_child (owner, dot != NULL ? dot + 1 : tie->key, G_OBJECT (target), error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
shape_all_tensors (Builder  *b,
                   GError  **error)
{
  g_autoptr(GArray) ties = g_array_new (FALSE, TRUE, sizeof (Tie));

  g_array_set_clear_func (ties, (GDestroyNotify) tie_clear);
  for (guint i = 0; i < b->nodes->len; i++)
    {
      Node *node = &g_array_index (b->nodes, Node, i);
      int training;

      if (node->kind != NODE_MODULE)
        continue;
      training = get_bool (node->json, "training", TRUE);
      if (training < 0)
        {
          g_autofree char *what = node_what (b, i);

          FORMAT_ERROR (error, "%s: \"training\" is not a boolean", what);
          return FALSE;
        }
      g_object_set (node->module, "training", training, NULL);
      if (!shape_tensors (b, i, GNN_CHILD_PARAMETER, ties, error) ||
          !shape_tensors (b, i, GNN_CHILD_BUFFER, ties, error))
        return FALSE;
    }
  return set_ties (b, ties, error);
}

/* --- weights ----------------------------------------------------------------------- */

/* The model's own tensors of the file, keys without the prefix. A tensor of
 * a dtype other than the one its constructor chose (a model converted with
 * to_dtype) replaces the module's tensor before assignment, which cannot
 * convert. */
static GnnStateDict *
model_state (Builder  *b,
             GError  **error)
{
  g_autoptr(GnnStateDict) own = gnn_module_state_dict (b->root);
  g_auto(GStrv) keys = gnn_state_dict_get_keys (own);
  GnnStateDict *state = gnn_state_dict_new ();
  g_auto(GStrv) file_keys = gnn_state_dict_get_keys (b->state);
  gsize prefix_len = strlen (b->prefix);

  for (guint i = 0; file_keys[i] != NULL; i++)
    {
      const char *key = file_keys[i] + prefix_len;

      if (!g_str_has_prefix (file_keys[i], b->prefix) ||
          g_str_has_prefix (key, GNN_MODEL_NONPERSISTENT_PREFIX))
        continue;
      gnn_state_dict_insert (state, key, gnn_state_dict_lookup (b->state, file_keys[i]));
    }
  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *mine = gnn_state_dict_lookup (own, keys[i]);
      GnnTensor *theirs = gnn_state_dict_lookup (state, keys[i]);
      const char *dot = strrchr (keys[i], '.');
      g_autofree char *owner_path = dot != NULL ? g_strndup (keys[i], dot - keys[i]) : NULL;
      const char *name = dot != NULL ? dot + 1 : keys[i];
      GnnModule *owner;
      gboolean ok;

      if (theirs == NULL || gnn_tensor_get_dtype (mine) == gnn_tensor_get_dtype (theirs))
        continue;
      owner = owner_path != NULL ? gnn_module_get_submodule (b->root, owner_path, NULL) : b->root;
      if (GNN_IS_PARAMETER (mine))
        {
          g_autoptr(GnnParameter) param =
            gnn_parameter_new (theirs, gnn_tensor_get_requires_grad (mine));

          ok = gnn_module_set_child (owner, name, G_OBJECT (param), error);
        }
      else
        ok = gnn_module_register_buffer (owner, name, theirs, TRUE, error);
      if (!ok)
        {
          g_object_unref (state);
          return NULL;
        }
    }
  return state;
}

static gboolean
check_materialized (GnnModule  *root,
                    GError    **error)
{
  g_auto(GStrv) param_names = NULL;
  g_auto(GStrv) buffer_names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (root, NULL, TRUE, &param_names);
  g_autoptr(GPtrArray) buffers = gnn_module_named_buffers (root, NULL, TRUE, &buffer_names);

  for (guint i = 0; i < params->len; i++)
    if (gnn_tensor_is_meta (g_ptr_array_index (params, i)))
      {
        FORMAT_ERROR (error, "parameter '%s' has no values in the file", param_names[i]);
        return FALSE;
      }
  for (guint i = 0; i < buffers->len; i++)
    if (gnn_tensor_is_meta (g_ptr_array_index (buffers, i)))
      {
        FORMAT_ERROR (error, "buffer '%s' has no values in the file", buffer_names[i]);
        return FALSE;
      }
  return TRUE;
}

static gboolean
load_weights (Builder  *b,
              GError  **error)
{
  g_autoptr(GnnStateDict) state = model_state (b, error);
  g_autoptr(GError) local_error = NULL;

  if (state == NULL)
    return FALSE;
  if (!gnn_module_load_state_dict_with_flags (b->root, state,
                                              GNN_LOAD_STATE_STRICT | GNN_LOAD_STATE_ASSIGN,
                                              NULL, NULL, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code, "invalid model file: %s",
                   local_error->message);
      return FALSE;
    }
  return check_materialized (b->root, error);
}

/* --- entry points -------------------------------------------------------------------- */

static gboolean
read_header (JsonObject  *root,
             JsonArray  **modules,
             GError     **error)
{
  const char *format = get_string (root, "format");
  JsonNode *list = json_object_get_member (root, "modules");
  gint64 version;

  if (g_strcmp0 (format, GNN_MODEL_FORMAT) != 0 || !get_int (root, "version", &version))
    {
      FORMAT_ERROR (error, "the " GNN_MODEL_KEY " metadata has no \"format\": \"" GNN_MODEL_FORMAT
                    "\" and \"version\"");
      return FALSE;
    }
  if (version < 1 || version > GNN_MODEL_VERSION)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "model file format version %" G_GINT64_FORMAT " is not supported (this Gnn "
                   "reads version %d%s)", version, GNN_MODEL_VERSION,
                   version > GNN_MODEL_VERSION ? ": it was written by a newer Gnn" : "");
      return FALSE;
    }
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    {
      FORMAT_ERROR (error, "the " GNN_MODEL_KEY " metadata has no \"modules\" list");
      return FALSE;
    }
  *modules = json_node_get_array (list);
  return TRUE;
}

GnnModule *
gnn_model_build (JsonNode      *tree,
                 GnnStateDict  *state_dict,
                 const char    *prefix,
                 GnnLoadFlags   flags,
                 GError       **error)
{
  JsonArray *modules = NULL;
  Builder b = { NULL, state_dict, prefix, flags, NULL };
  GnnDevice previous;
  gboolean ok;

  if (tree == NULL || !JSON_NODE_HOLDS_OBJECT (tree))
    {
      FORMAT_ERROR (error, "the model's description is not a JSON object");
      return NULL;
    }
  if (!read_header (json_node_get_object (tree), &modules, error))
    return NULL;

  b.nodes = g_array_new (FALSE, TRUE, sizeof (Node));
  g_array_set_clear_func (b.nodes, (GDestroyNotify) node_clear);
  /* No memory and no initialization for the weights the file replaces. */
  previous = gnn_set_default_device (GNN_DEVICE_META);
  ok = read_nodes (&b, modules, error) && build_tree (&b, error) && shape_all_tensors (&b, error);
  gnn_set_default_device (previous);
  ok = ok && load_weights (&b, error);
  g_array_unref (b.nodes);
  if (!ok)
    {
      g_clear_object (&b.root);
      gnn_io_error_ensure_utf8 (error);
      return NULL;
    }
  return b.root;
}

/**
 * gnn_module_new_from_state_dict:
 * @state_dict: the tensors and metadata of a model file (see
 *   [func@Gnn.Module.load_model])
 * @flags: %GNN_LOAD_FLAGS_ALLOW_TYPES to rebuild types that are not Gnn's
 *   own
 * @error: return location for a #GError
 *
 * Rebuilds the module a model file describes from its contents already in
 * memory (say from [func@Gnn.StateDict.load_from_bytes]). The module's
 * parameters and buffers become the tensors of @state_dict (assignment:
 * they share its memory).
 *
 * Returns: (transfer full): the module, or %NULL with the errors of
 *   [func@Gnn.Module.load_model]
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_new_from_state_dict (GnnStateDict  *state_dict,
                                GnnLoadFlags   flags,
                                GError       **error)
{
  g_autoptr(JsonParser) parser = NULL;
  const char *text;

  g_return_val_if_fail (GNN_IS_STATE_DICT (state_dict), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  text = gnn_state_dict_get_metadata (state_dict, GNN_MODEL_KEY);
  if (text == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "not a model file: it has no \"" GNN_MODEL_KEY "\" metadata (a state dict "
                   "without its architecture? load it into a module with gnn_module_load())");
      return NULL;
    }
  parser = gnn_io_json_parse (text, strlen (text), GNN_MODEL_MAX_JSON_DEPTH,
                              "invalid model file: the " GNN_MODEL_KEY " metadata", error);
  if (parser == NULL)
    return NULL;
  return gnn_model_build (json_parser_get_root (parser), state_dict, "", flags, error);
}

/**
 * gnn_module_load_model:
 * @path: (type filename): a model file written by [method@Gnn.Module.save_model]
 * @flags: #GnnLoadFlags
 * @error: return location for a #GError
 *
 * Rebuilds a whole model from a model file, the counterpart of
 * `torch.load` of a saved module — without unpickling, and without the
 * program describing the architecture. Each module is created from its type
 * name through the GType registry with g_object_new_with_properties() and
 * its saved configuration (a child its parent's constructor already made
 * with the same type and configuration is kept), on the %GNN_DEVICE_META
 * device, so nothing is allocated or initialized; the parameters and buffers
 * then take the file's tensors by assignment (zero copy: they read the
 * memory-mapped file, and writes stay private to the process, as with
 * [method@Gnn.Module.load_with_flags] and %GNN_LOAD_FLAGS_ASSIGN). With
 * %GNN_LOAD_FLAGS_COPY the tensors are copied into memory of their own and
 * the file is unmapped. Training flags, requires-grad flags, non-persistent
 * buffers, empty slots, modules registered twice and tied parameters come
 * back as they were.
 *
 * Only Gnn's own types are rebuilt by default: a type defined by the program
 * or a binding (a Python or JavaScript subclass) is an error naming it,
 * unless @flags has %GNN_LOAD_FLAGS_ALLOW_TYPES, and then only when the type
 * is already registered (the caller imported its code). Nothing in the file
 * is ever executed.
 *
 * Returns: (transfer full): the module, or %NULL with @error set: the errors
 *   of [func@Gnn.StateDict.load]; %GNN_ERROR_FORMAT for a file without or
 *   with damaged `gnn.model` metadata (naming the module and the rule);
 *   %GNN_ERROR_TYPE for an unknown or disallowed type or a property value
 *   of the wrong type; %GNN_ERROR_INVALID_ARGUMENT for a value out of its
 *   property's range or a construction the class refuses; %GNN_ERROR_KEY
 *   and %GNN_ERROR_SHAPE when the weights do not fit the rebuilt modules
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_load_model (const char    *path,
                       GnnLoadFlags   flags,
                       GError       **error)
{
  g_autoptr(GnnStateDict) state_dict = NULL;
  GnnModule *module;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  state_dict = gnn_state_dict_load_with_flags (path, flags & GNN_LOAD_FLAGS_COPY, error);
  if (state_dict == NULL)
    return NULL;
  module = gnn_module_new_from_state_dict (state_dict, flags, error);
  if (module == NULL)
    {
      g_autofree char *display = gnn_io_escape_utf8 (path, -1);

      g_prefix_error (error, "%s: ", display);
    }
  return module;
}
