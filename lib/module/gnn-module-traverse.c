/* gnn-module-traverse.c: walking the module tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every named_* function returns the values as a GPtrArray and, optionally,
 * the names as a parallel NULL-terminated string array. Two plain arrays
 * need no extra public pair type, are natural in C (index i of both), and
 * introspect cleanly: Python gets `(values, names)`, GJS `[values, names]`,
 * which the Python override zips into PyTorch's `(name, value)` pairs.
 *
 * The value array is (transfer container): it holds its own references and
 * drops them when it is freed (g_autoptr(GPtrArray) in C). A (transfer full)
 * GPtrArray would make bindings drop the element references a second time,
 * since they take over the elements and then free the array, which runs its
 * free function.
 */
#include "module/gnn-module-private.h"

typedef struct
{
  GPtrArray    *values;
  GStrvBuilder *names;   /* NULL when the caller does not want names */
  GHashTable   *memo;    /* objects already yielded */
} Collector;

static void
collector_init (Collector *c,
                gboolean   want_names)
{
  c->values = g_ptr_array_new_with_free_func (g_object_unref);
  c->names = want_names ? g_strv_builder_new () : NULL;
  c->memo = g_hash_table_new (NULL, NULL);
}

static gboolean
collector_add (Collector  *c,
               const char *name,
               GObject    *value)
{
  if (!g_hash_table_add (c->memo, value))
    return FALSE;
  g_ptr_array_add (c->values, g_object_ref (value));
  if (c->names != NULL)
    g_strv_builder_add (c->names, name);
  return TRUE;
}

static GPtrArray *
collector_finish (Collector *c,
                  char    ***names)
{
  if (names != NULL)
    *names = g_strv_builder_end (c->names);
  g_clear_pointer (&c->names, g_strv_builder_unref);
  g_hash_table_unref (c->memo);
  return c->values;
}

static char *
join_name (const char *prefix,
           const char *name)
{
  return prefix[0] != '\0' ? g_strconcat (prefix, ".", name, NULL) : g_strdup (name);
}

/**
 * gnn_module_named_children:
 * @self: a module
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the
 *   children's names, parallel to the returned array
 *
 * Lists the direct child modules in registration order, skipping empty
 * slots and modules registered twice (PyTorch's `named_children`).
 *
 * Returns: (transfer container) (element-type Gnn.Module): the children
 */
GPtrArray *
gnn_module_named_children (GnnModule  *self,
                           char     ***names)
{
  GnnOrderedMap *map;
  Collector c;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  map = &gnn_module_priv (self)->maps[GNN_MAP_MODULES];

  collector_init (&c, names != NULL);
  for (guint i = 0; i < map->entries->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (map->entries, i);
      if (entry->value != NULL)
        collector_add (&c, entry->name, entry->value);
    }
  return collector_finish (&c, names);
}

static void
walk_modules (GnnModule  *module,
              const char *prefix,
              Collector  *c)
{
  GnnOrderedMap *map = &gnn_module_priv (module)->maps[GNN_MAP_MODULES];

  if (!collector_add (c, prefix, G_OBJECT (module)))
    return;
  for (guint i = 0; i < map->entries->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (map->entries, i);
      g_autofree char *sub = NULL;

      if (entry->value == NULL)
        continue;
      sub = join_name (prefix, entry->name);
      walk_modules (GNN_MODULE (entry->value), sub, c);
    }
}

/**
 * gnn_module_named_modules:
 * @self: a module
 * @prefix: (nullable): prepended to every name; %NULL is `""`
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the
 *   dotted paths, parallel to the returned array (@self's is @prefix)
 *
 * Lists @self and every module below it, depth first in registration order
 * (pre-order), each module once under the first path that reaches it
 * (PyTorch's `named_modules`).
 *
 * Returns: (transfer container) (element-type Gnn.Module): the modules
 */
GPtrArray *
gnn_module_named_modules (GnnModule  *self,
                          const char *prefix,
                          char     ***names)
{
  Collector c;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  collector_init (&c, TRUE);
  walk_modules (self, prefix != NULL ? prefix : "", &c);
  return collector_finish (&c, names);
}

static GPtrArray *
named_tensors (GnnModule   *self,
               GnnMapKind   kind,
               const char  *prefix,
               gboolean     recurse,
               char      ***names)
{
  g_autoptr(GPtrArray) modules = NULL;
  g_auto(GStrv) module_names = NULL;
  Collector c;

  if (prefix == NULL)
    prefix = "";
  if (recurse)
    modules = gnn_module_named_modules (self, prefix, &module_names);
  else
    {
      modules = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (modules, g_object_ref (self));
      module_names = g_new0 (char *, 2);
      module_names[0] = g_strdup (prefix);
    }

  collector_init (&c, names != NULL);
  for (guint m = 0; m < modules->len; m++)
    {
      GnnOrderedMap *map = &gnn_module_priv (g_ptr_array_index (modules, m))->maps[kind];

      for (guint i = 0; i < map->entries->len; i++)
        {
          GnnMapEntry *entry = g_ptr_array_index (map->entries, i);
          g_autofree char *name = NULL;

          if (entry->value == NULL)
            continue;
          if (c.names != NULL)
            name = join_name (module_names[m], entry->name);
          collector_add (&c, name, entry->value);
        }
    }
  return collector_finish (&c, names);
}

/**
 * gnn_module_named_parameters:
 * @self: a module
 * @prefix: (nullable): prepended to every name; %NULL is `""`
 * @recurse: whether to include the parameters of all submodules
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the
 *   dotted names, parallel to the returned array
 *
 * Lists the parameters in [method@Gnn.Module.named_modules] order, each
 * parameter once (a parameter shared by two modules — tied weights — is
 * listed under its first name), skipping empty slots (PyTorch's
 * `named_parameters`).
 *
 * Returns: (transfer container) (element-type Gnn.Parameter): the parameters
 */
GPtrArray *
gnn_module_named_parameters (GnnModule  *self,
                             const char *prefix,
                             gboolean    recurse,
                             char     ***names)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  return named_tensors (self, GNN_MAP_PARAMETERS, prefix, recurse, names);
}

/**
 * gnn_module_named_buffers:
 * @self: a module
 * @prefix: (nullable): prepended to every name; %NULL is `""`
 * @recurse: whether to include the buffers of all submodules
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the
 *   dotted names, parallel to the returned array
 *
 * Lists the buffers, persistent or not, like
 * [method@Gnn.Module.named_parameters] (PyTorch's `named_buffers`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the buffers
 */
GPtrArray *
gnn_module_named_buffers (GnnModule  *self,
                          const char *prefix,
                          gboolean    recurse,
                          char     ***names)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  return named_tensors (self, GNN_MAP_BUFFERS, prefix, recurse, names);
}

/**
 * gnn_module_count_parameters:
 * @self: a module
 * @trainable_only: count only parameters that require grad
 *
 * Adds up the elements of all parameters of the tree, each shared parameter
 * once (`sum(p.numel() for p in model.parameters())`).
 *
 * Returns: the number of parameter elements
 */
gint64
gnn_module_count_parameters (GnnModule *self,
                             gboolean   trainable_only)
{
  g_autoptr(GPtrArray) params = NULL;
  gint64 total = 0;

  g_return_val_if_fail (GNN_IS_MODULE (self), 0);

  params = gnn_module_named_parameters (self, NULL, TRUE, NULL);
  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (params, i);
      if (!trainable_only || gnn_tensor_get_requires_grad (p))
        total += gnn_tensor_get_numel (p);
    }
  return total;
}

/**
 * gnn_module_apply:
 * @self: a module
 * @func: (scope call) (closure user_data): the function to call
 * @user_data: data for @func
 *
 * Calls @func on every child tree first (recursively), then on @self, like
 * PyTorch's `apply` (typically to initialize weights).
 */
void
gnn_module_apply (GnnModule         *self,
                  GnnModuleApplyFunc func,
                  gpointer           user_data)
{
  g_autoptr(GPtrArray) children = NULL;

  g_return_if_fail (GNN_IS_MODULE (self));
  g_return_if_fail (func != NULL);

  children = gnn_module_named_children (self, NULL);
  for (guint i = 0; i < children->len; i++)
    gnn_module_apply (g_ptr_array_index (children, i), func, user_data);
  func (self, user_data);
}

/**
 * gnn_module_train:
 * @self: a module
 * @mode: %TRUE for training mode, %FALSE for evaluation mode
 *
 * Sets [property@Gnn.Module:training] on @self, then on its children
 * recursively, like PyTorch's `train(mode)`.
 */
void
gnn_module_train (GnnModule *self,
                  gboolean   mode)
{
  g_autoptr(GPtrArray) children = NULL;

  g_return_if_fail (GNN_IS_MODULE (self));

  g_object_set (self, "training", !!mode, NULL);
  children = gnn_module_named_children (self, NULL);
  for (guint i = 0; i < children->len; i++)
    gnn_module_train (g_ptr_array_index (children, i), mode);
}

/**
 * gnn_module_eval:
 * @self: a module
 *
 * Puts the tree in evaluation mode: `gnn_module_train (self, FALSE)`.
 */
void
gnn_module_eval (GnnModule *self)
{
  gnn_module_train (self, FALSE);
}

/**
 * gnn_module_get_training:
 * @self: a module
 *
 * Tells whether @self is in training mode.
 *
 * Returns: the value of [property@Gnn.Module:training]
 */
gboolean
gnn_module_get_training (GnnModule *self)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);

  return gnn_module_priv (self)->training;
}

/**
 * gnn_module_requires_grad_:
 * @self: a module
 * @requires_grad: whether autograd should record operations on the parameters
 *
 * Sets [property@Gnn.Tensor:requires-grad] on every parameter of the tree
 * (PyTorch's `requires_grad_`), e.g. to freeze a pretrained part.
 */
void
gnn_module_requires_grad_ (GnnModule *self,
                           gboolean   requires_grad)
{
  g_autoptr(GPtrArray) params = NULL;

  g_return_if_fail (GNN_IS_MODULE (self));

  params = gnn_module_named_parameters (self, NULL, TRUE, NULL);
  for (guint i = 0; i < params->len; i++)
    gnn_tensor_set_requires_grad (g_ptr_array_index (params, i), requires_grad);
}

/**
 * gnn_module_zero_grad:
 * @self: a module
 * @set_to_none: drop the gradients instead of filling them with zeros
 *
 * Resets the gradient of every parameter of the tree (PyTorch's
 * `zero_grad`; 1.13's default is @set_to_none %FALSE).
 */
void
gnn_module_zero_grad (GnnModule *self,
                      gboolean   set_to_none)
{
  g_autoptr(GPtrArray) params = NULL;

  g_return_if_fail (GNN_IS_MODULE (self));

  params = gnn_module_named_parameters (self, NULL, TRUE, NULL);
  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (params, i);
      GnnTensor *grad = gnn_tensor_get_grad (p);

      if (grad == NULL)
        continue;
      if (set_to_none)
        gnn_tensor_set_grad (p, NULL);
      else
        gnn_tensor_fill_ (grad, 0.0, NULL);
    }
}
