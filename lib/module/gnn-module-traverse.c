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
#include <string.h>

#include "module/gnn-module-private.h"

/* A set of pointers (open addressing, linear probing): the "memo" of
 * PyTorch's traversals. A GHashTable costs a few allocations and a hash
 * call per insert; this costs none for the first PTR_SET_INLINE / 2 objects
 * and is a multiply and a compare per insert. */
#define PTR_SET_INLINE 64

typedef struct
{
  gpointer *slots;
  gsize     mask;
  gsize     len;
  gpointer  inline_slots[PTR_SET_INLINE];
} PtrSet;

static void
ptr_set_init (PtrSet *set)
{
  memset (set->inline_slots, 0, sizeof set->inline_slots);
  set->slots = set->inline_slots;
  set->mask = PTR_SET_INLINE - 1;
  set->len = 0;
}

static void
ptr_set_clear (PtrSet *set)
{
  if (set->slots != set->inline_slots)
    g_free (set->slots);
  set->slots = NULL;
}

static inline gsize
ptr_set_hash (gconstpointer p)
{
  guint64 h = (guint64) (guintptr) p * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (gsize) (h ^ (h >> 32));
}

static void
ptr_set_insert_new (gpointer *slots,
                    gsize     mask,
                    gpointer  p)
{
  gsize i = ptr_set_hash (p) & mask;

  while (slots[i] != NULL)
    i = (i + 1) & mask;
  slots[i] = p;
}

/* Adds @p (not NULL); FALSE if it was already there. */
static gboolean
ptr_set_add (PtrSet  *set,
             gpointer p)
{
  gsize i = ptr_set_hash (p) & set->mask;

  while (set->slots[i] != NULL)
    {
      if (set->slots[i] == p)
        return FALSE;
      i = (i + 1) & set->mask;
    }
  if ((set->len + 1) * 2 > set->mask + 1)
    {
      /* Keep the load under 1/2: grow and re-insert. */
      gsize new_mask = (set->mask + 1) * 4 - 1;
      gpointer *slots = g_new0 (gpointer, new_mask + 1);

      for (gsize k = 0; k <= set->mask; k++)
        if (set->slots[k] != NULL)
          ptr_set_insert_new (slots, new_mask, set->slots[k]);
      if (set->slots != set->inline_slots)
        g_free (set->slots);
      set->slots = slots;
      set->mask = new_mask;
      ptr_set_insert_new (set->slots, set->mask, p);
    }
  else
    set->slots[i] = p;
  set->len++;
  return TRUE;
}

typedef struct
{
  GPtrArray *values;
  GPtrArray *names;   /* char* (owned); NULL when the caller does not want names */
  PtrSet     memo;    /* objects already yielded */
} Collector;

static void
collector_init (Collector *c,
                gboolean   want_names)
{
  c->values = g_ptr_array_new_with_free_func (g_object_unref);
  c->names = want_names ? g_ptr_array_new () : NULL;
  ptr_set_init (&c->memo);
}

/* Adds @value under the first @name_len bytes of @name unless it was
 * already yielded. */
static gboolean
collector_add_len (Collector  *c,
                   const char *name,
                   gsize       name_len,
                   GObject    *value)
{
  if (!ptr_set_add (&c->memo, value))
    return FALSE;
  g_ptr_array_add (c->values, g_object_ref (value));
  if (c->names != NULL)
    g_ptr_array_add (c->names, g_strndup (name, name_len));
  return TRUE;
}

static GPtrArray *
collector_finish (Collector *c,
                  char    ***names)
{
  if (c->names != NULL)
    {
      g_ptr_array_add (c->names, NULL);
      if (names != NULL)
        *names = (char **) g_ptr_array_free (c->names, FALSE);
      else
        g_strfreev ((char **) g_ptr_array_free (c->names, FALSE));
      c->names = NULL;
    }
  ptr_set_clear (&c->memo);
  return c->values;
}

/* Appends ".name" (or "name" to an empty path) to @path. */
static void
path_push (GString    *path,
           const char *name)
{
  if (path->len > 0)
    g_string_append_c (path, '.');
  g_string_append (path, name);
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
 *
 * Since: 0.1
 */
GPtrArray *
gnn_module_named_children (GnnModule  *self,
                           char     ***names)
{
  GPtrArray *entries;
  Collector c;
  GPtrArray *result;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  gnn_module_use_begin ();
  entries = gnn_ordered_map_entries (&gnn_module_priv (self)->maps[GNN_MAP_MODULES]);
  collector_init (&c, names != NULL);
  for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);
      if (entry->value != NULL)
        collector_add_len (&c, entry->name, strlen (entry->name), entry->value);
    }
  result = collector_finish (&c, names);
  gnn_module_use_end ();
  return result;
}

/* The first visit of @module in the walk of named_modules, at @path:
 * yields it into @c, or with @tensor_kind other than GNN_MAP_NONE its
 * tensors of that map into @tensors (named_parameters' order: modules in
 * named_modules order, each module's tensors in registration order), the
 * module only going into @c's memo. FALSE if it was already visited. */
static gboolean
visit_module (GnnModule  *module,
              GString    *path,
              Collector  *c,
              GnnMapKind  tensor_kind,
              Collector  *tensors)
{
  GPtrArray *entries;
  gsize len = path->len;

  if (tensor_kind == GNN_MAP_NONE)
    return collector_add_len (c, path->str, path->len, G_OBJECT (module));
  if (!ptr_set_add (&c->memo, module))
    return FALSE;
  entries = gnn_ordered_map_entries (&gnn_module_priv (module)->maps[tensor_kind]);
  for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);

      if (entry->value == NULL)
        continue;
      if (tensors->names != NULL)
        {
          path_push (path, entry->name);
          collector_add_len (tensors, path->str, path->len, entry->value);
          g_string_truncate (path, len);
        }
      else
        collector_add_len (tensors, NULL, 0, entry->value);
    }
  return TRUE;
}

/* The pre-order walk of named_modules from @root at @path. */
static void
walk_modules (GnnModule  *root,
              GString    *path,
              Collector  *c,
              GnnMapKind  tensor_kind,
              Collector  *tensors)
{
  GnnModuleWalk walk;
  GnnModule *parent;
  GnnMapEntry *entry;
  GnnWalkStep step;

  if (!visit_module (root, path, c, tensor_kind, tensors))
    return;
  gnn_module_walk_init (&walk, root, path, FALSE);
  while ((step = gnn_module_walk_next (&walk, &parent, &entry)) != GNN_WALK_DONE)
    if (step == GNN_WALK_CHILD && entry->value != NULL &&
        visit_module (GNN_MODULE (entry->value), path, c, tensor_kind, tensors))
      gnn_module_walk_enter (&walk, GNN_MODULE (entry->value));
  gnn_module_walk_clear (&walk);
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
 *
 * Since: 0.1
 */
GPtrArray *
gnn_module_named_modules (GnnModule  *self,
                          const char *prefix,
                          char     ***names)
{
  g_autoptr(GString) path = NULL;
  Collector c;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  path = g_string_sized_new (64);
  g_string_append (path, prefix != NULL ? prefix : "");
  collector_init (&c, names != NULL);
  walk_modules (self, path, &c, GNN_MAP_NONE, NULL);
  return collector_finish (&c, names);
}

static GPtrArray *
named_tensors (GnnModule   *self,
               GnnMapKind   kind,
               const char  *prefix,
               gboolean     recurse,
               char      ***names)
{
  g_autoptr(GString) path = g_string_sized_new (64);
  Collector c;

  g_string_append (path, prefix != NULL ? prefix : "");
  collector_init (&c, names != NULL);
  if (recurse)
    {
      Collector modules;

      /* The modules are only needed for their memo. */
      collector_init (&modules, FALSE);
      walk_modules (self, path, &modules, kind, &c);
      g_ptr_array_unref (collector_finish (&modules, NULL));
    }
  else
    {
      GPtrArray *entries;
      gsize len = path->len;

      gnn_module_use_begin ();
      entries = gnn_ordered_map_entries (&gnn_module_priv (self)->maps[kind]);
      for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
        {
          GnnMapEntry *entry = gnn_entries_get (entries, i);

          if (entry->value == NULL)
            continue;
          path_push (path, entry->name);
          collector_add_len (&c, path->str, path->len, entry->value);
          g_string_truncate (path, len);
        }
      gnn_module_use_end ();
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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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

/* TRUE if @entry of @parent holds a module that no earlier entry of
 * @parent holds: PyTorch's apply and train recurse into `children()`,
 * which lists a module registered twice in one parent once. */
static gboolean
is_first_child_edge (GnnModule   *parent,
                     GnnMapEntry *entry)
{
  GPtrArray *entries = gnn_ordered_map_entries (&gnn_module_priv (parent)->maps[GNN_MAP_MODULES]);

  if (entry->value == NULL)
    return FALSE;
  /* registered once in the whole tree (nearly always): no earlier edge can
   * hold it, and a wide container is not rescanned per child */
  if (g_atomic_int_get (&gnn_module_priv (GNN_MODULE (entry->value))->n_parents) <= 1)
    return TRUE;
  for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
    {
      GnnMapEntry *earlier = gnn_entries_get (entries, i);

      if (earlier == entry)
        return TRUE;
      if (earlier->value == entry->value)
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_module_apply:
 * @self: a module
 * @func: (scope call) (closure user_data): the function to call
 * @user_data: data for @func
 *
 * Calls @func on every child tree first (recursively), then on @self, like
 * PyTorch's `apply` (typically to initialize weights). The walk keeps its
 * own stack, so any depth of tree is fine.
 *
 * Since: 0.1
 */
void
gnn_module_apply (GnnModule         *self,
                  GnnModuleApplyFunc func,
                  gpointer           user_data)
{
  GnnModuleWalk walk;
  GnnModule *parent;
  GnnMapEntry *entry;
  GnnWalkStep step;

  g_return_if_fail (GNN_IS_MODULE (self));
  g_return_if_fail (func != NULL);

  /* Post-order: a module when its children are done. */
  gnn_module_walk_init (&walk, self, NULL, TRUE);
  while ((step = gnn_module_walk_next (&walk, &parent, &entry)) != GNN_WALK_DONE)
    {
      if (step == GNN_WALK_LEAVE)
        func (parent, user_data);
      else if (is_first_child_edge (parent, entry))
        gnn_module_walk_enter (&walk, GNN_MODULE (entry->value));
    }
  gnn_module_walk_clear (&walk);
}

/**
 * gnn_module_train:
 * @self: a module
 * @mode: %TRUE for training mode, %FALSE for evaluation mode
 *
 * Sets [property@Gnn.Module:training] on @self, then on its children
 * recursively, like PyTorch's `train(mode)`.
 *
 * Since: 0.1
 */
void
gnn_module_train (GnnModule *self,
                  gboolean   mode)
{
  GnnModuleWalk walk;
  GnnModule *parent;
  GnnMapEntry *entry;
  GnnWalkStep step;
  g_autoptr(GPtrArray) tree = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (GNN_IS_MODULE (self));

  /* The tree as it stands, in PyTorch's order (each module before its
   * children), then the settings: a notify::training handler may change
   * the tree (where torch raises "mutated during iteration"), and the
   * modules that were in it still all get the mode. */
  g_ptr_array_add (tree, g_object_ref (self));
  gnn_module_walk_init (&walk, self, NULL, TRUE);
  while ((step = gnn_module_walk_next (&walk, &parent, &entry)) != GNN_WALK_DONE)
    if (step == GNN_WALK_CHILD && is_first_child_edge (parent, entry))
      {
        g_ptr_array_add (tree, g_object_ref (entry->value));
        gnn_module_walk_enter (&walk, GNN_MODULE (entry->value));
      }
  gnn_module_walk_clear (&walk);
  for (guint i = 0; i < tree->len; i++)
    g_object_set (g_ptr_array_index (tree, i), "training", !!mode, NULL);
}

/**
 * gnn_module_eval:
 * @self: a module
 *
 * Puts the tree in evaluation mode: `gnn_module_train (self, FALSE)`.
 *
 * Since: 0.1
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
 *
 * Since: 0.1
 */
gboolean
gnn_module_get_training (GnnModule *self)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);

  return g_atomic_int_get (&gnn_module_priv (self)->training);
}

/**
 * gnn_module_requires_grad_:
 * @self: a module
 * @requires_grad: whether autograd should record operations on the parameters
 *
 * Sets [property@Gnn.Tensor:requires-grad] on every parameter of the tree
 * (PyTorch's `requires_grad_`), e.g. to freeze a pretrained part.
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
