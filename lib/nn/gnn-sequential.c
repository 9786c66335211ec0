/* gnn-sequential.c: a chain of modules (torch.nn.Sequential)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-registry-private.h"
#include "nn/gnn-container-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnSequential:
 *
 * A chain of modules, like `torch.nn.Sequential`: [method@Gnn.Module.call]
 * passes the input to the first child and each output to the next child,
 * returning the output of the last one (the input itself when empty).
 * An output that is not a tensor (an LSTM's tuple) goes on as the next
 * child's one argument, as torch's `input = module(input)` does; such a
 * chain is called with [method@Gnn.Module.call_args] (or
 * [method@Gnn.Module.call] when its last output is a tensor).
 *
 * The children live in the module registry under the keys "0", "1", … as
 * [method@Gnn.Module.register_module] children, so every traversal, state
 * dict and [method@Gnn.Module.to_string] sees them. Children may also be
 * registered under other names with [method@Gnn.Module.register_module]
 * (PyTorch's `Sequential(OrderedDict(...))`); indices always count children
 * in registration order.
 *
 * Indices follow Python: negative ones count from the end, and an index
 * outside the container fails with %GNN_ERROR_INDEX ("index 3 is out of
 * range"). [method@Gnn.Sequential.slice] keeps the original keys, as
 * slicing a PyTorch `Sequential` does; [method@Gnn.Sequential.pop] renumbers
 * the remaining children.
 *
 * Since: 0.1
 */

G_DEFINE_TYPE (GnnSequential, gnn_sequential, GNN_TYPE_MODULE)

/* Snapshot of the chain: a hook may change the registry while it runs. */
static GPtrArray *
chain_snapshot (GnnModule  *module,
                GError    **error)
{
  /* (inside the caller's use window: the entries stay valid) */
  GPtrArray *entries = gnn_nn_module_entries (module);
  guint n = gnn_entries_len (entries);
  g_autoptr(GPtrArray) chain = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);

      if (entry->value == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "child '%s' of %s is empty (NULL) and cannot be called",
                       entry->name, gnn_module_get_name (module));
          return NULL;
        }
      g_ptr_array_add (chain, g_object_ref (entry->value));
    }
  return g_steal_pointer (&chain);
}

/* torch's `for module in self: input = module(input)`: each child gets the
 * previous output as its one argument, a tuple included (not unpacked).
 * The output so far is a tensor (*tensor) while it is one, so a chain of
 * tensors takes the one-tensor path, else a value (*value). */
static gboolean
run_chain (GnnModule  *module,
           GnnTensor **tensor,
           GnnValue  **value,
           GError    **error)
{
  g_autoptr(GPtrArray) chain = chain_snapshot (module, error);

  if (chain == NULL)
    return FALSE;
  for (guint i = 0; i < chain->len; i++)
    {
      GnnModule *child = g_ptr_array_index (chain, i);

      if (*tensor != NULL)
        {
          GnnValue *other = NULL;
          GnnTensor *next = gnn_module_call_one (child, *tensor, &other, error);

          if (next == NULL && other == NULL)
            return FALSE;
          g_clear_object (tensor);
          *tensor = next;
          *value = other;
        }
      else
        {
          g_autoptr(GnnValue) args = gnn_value_new_tuple (value, 1);
          GnnValue *next = gnn_module_call_args (child, args, NULL, error);

          if (next == NULL)
            return FALSE;
          g_clear_pointer (value, gnn_value_unref);
          if (gnn_value_get_tensor (next) != NULL)
            {
              *tensor = g_object_ref (gnn_value_get_tensor (next));
              gnn_value_unref (next);
            }
          else
            *value = next;
        }
    }
  return TRUE;
}

static GnnTensor *
gnn_sequential_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  g_autoptr(GnnTensor) tensor = g_object_ref (input);
  g_autoptr(GnnValue) value = NULL;

  if (!run_chain (module, &tensor, &value, error))
    return NULL;
  if (tensor == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                 "%s returned a %s, not a Tensor: call it with gnn_module_call_args "
                 "(gnn_module_call and gnn_module_forward return one tensor)",
                 gnn_module_get_name (module), gnn_value_get_type_name (value));
  return g_steal_pointer (&tensor);
}

static GnnValue *
gnn_sequential_forward_args (GnnModule  *module,
                             GnnValue   *args,
                             GnnValue   *kwargs,
                             GError    **error)
{
  g_autoptr(GnnTensor) tensor = NULL;
  g_autoptr(GnnValue) value = NULL;
  GnnValue *input;

  if (!gnn_args_parse (args, kwargs, "Sequential.forward", error,
                       "input", GNN_ARG_VALUE, &input, NULL))
    return NULL;
  if (gnn_value_get_tensor (input) != NULL)
    tensor = g_object_ref (gnn_value_get_tensor (input));
  else
    value = gnn_value_ref (input);
  if (!run_chain (module, &tensor, &value, error))
    return NULL;
  return tensor != NULL ? gnn_value_new_tensor (tensor) : g_steal_pointer (&value);
}

static void
gnn_sequential_class_init (GnnSequentialClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_sequential_forward;
  GNN_MODULE_CLASS (klass)->forward_args = gnn_sequential_forward_args;
}

static void
gnn_sequential_init (GnnSequential *self)
{
}

/**
 * gnn_sequential_new:
 * @modules: (array length=n_modules) (nullable): the modules, in order
 * @n_modules: the number of @modules
 *
 * Creates a sequential container holding @modules under the keys "0", "1",
 * …, like `torch.nn.Sequential(*modules)`. A module may appear several
 * times (its parameters are shared).
 *
 * Returns: (transfer full): a new sequential container
 *
 * Since: 0.1
 */
GnnSequential *
gnn_sequential_new (GnnModule **modules,
                    guint       n_modules)
{
  GnnSequential *self;

  g_return_val_if_fail (modules != NULL || n_modules == 0, NULL);
  for (guint i = 0; i < n_modules; i++)
    g_return_val_if_fail (GNN_IS_MODULE (modules[i]), NULL);

  self = g_object_new (GNN_TYPE_SEQUENTIAL, NULL);
  /* A new container is in no tree, so no cycle: this cannot fail. */
  gnn_container_extend_modules (GNN_MODULE (self), modules, n_modules, NULL);
  return self;
}

/**
 * gnn_sequential_get_length:
 * @self: a sequential container
 *
 * Returns the number of children, like `len(sequential)`.
 *
 * Returns: the number of child modules
 *
 * Since: 0.1
 */
guint
gnn_sequential_get_length (GnnSequential *self)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), 0);

  return gnn_container_get_length (GNN_MODULE (self), GNN_MAP_MODULES);
}

/**
 * gnn_sequential_get:
 * @self: a sequential container
 * @index: the position; negative values count from the end
 * @error: return location for a #GError
 *
 * Returns the child at @index, like `sequential[index]`.
 *
 * Returns: (transfer none) (nullable): the child, or %NULL with @error set
 *   (%GNN_ERROR_INDEX, "index 5 is out of range"); %NULL without error for
 *   an empty slot
 *
 * Since: 0.1
 */
GnnModule *
gnn_sequential_get (GnnSequential *self,
                    gint64         index,
                    GError       **error)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), NULL);

  return (GnnModule *) gnn_container_get_at (GNN_MODULE (self), GNN_MAP_MODULES, index, error);
}

/**
 * gnn_sequential_set:
 * @self: a sequential container
 * @index: the position; negative values count from the end
 * @module: the new child
 * @error: return location for a #GError
 *
 * Replaces the child at @index, keeping its key, like
 * `sequential[index] = module`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INDEX when @index
 *   is out of range, or an error of [method@Gnn.Module.set_child])
 *
 * Since: 0.1
 */
gboolean
gnn_sequential_set (GnnSequential *self,
                    gint64         index,
                    GnnModule     *module,
                    GError       **error)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);

  return gnn_container_set_module_at (GNN_MODULE (self), index, module, error);
}

/**
 * gnn_sequential_append:
 * @self: a sequential container
 * @module: the module to add
 * @error: return location for a #GError
 *
 * Adds @module at the end under the key `str(len(self))`, like
 * `sequential.append(module)`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT)
 *   if @module is @self or contains it; then @self is unchanged
 *
 * Since: 0.1
 */
gboolean
gnn_sequential_append (GnnSequential *self,
                       GnnModule *module,
                       GError **error)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);

  return gnn_container_append (GNN_MODULE (self), GNN_MAP_MODULES, G_OBJECT (module), error);
}

/**
 * gnn_sequential_insert:
 * @self: a sequential container
 * @index: the position of the new child, from `-len` to `len`
 * @module: the module to insert
 * @error: return location for a #GError
 *
 * Inserts @module before the child at @index, moving the later children up
 * by one key, like `sequential.insert(index, module)`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INDEX, "Index out
 *   of range: 7")
 *
 * Since: 0.1
 */
gboolean
gnn_sequential_insert (GnnSequential *self,
                       gint64         index,
                       GnnModule     *module,
                       GError       **error)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);

  return gnn_container_insert_module (GNN_MODULE (self), index, module, error);
}

/**
 * gnn_sequential_extend:
 * @self: a sequential container
 * @modules: (array length=n_modules) (nullable): the modules to add
 * @n_modules: the number of @modules
 * @error: return location for a #GError
 *
 * Appends each of @modules, like `sequential.extend(modules)`.
 *
 * Returns: %TRUE, or %FALSE with @error set as by
 *   [method@Gnn.Sequential.append]; then none of @modules was added
 *
 * Since: 0.1
 */
gboolean
gnn_sequential_extend (GnnSequential *self,
                       GnnModule **modules,
                       guint n_modules,
                       GError **error)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), FALSE);
  g_return_val_if_fail (modules != NULL || n_modules == 0, FALSE);

  return gnn_container_extend_modules (GNN_MODULE (self), modules, n_modules, error);
}

/**
 * gnn_sequential_pop:
 * @self: a sequential container
 * @index: the position; negative values count from the end
 * @error: return location for a #GError
 *
 * Removes the child at @index and returns it, then renames the remaining
 * children "0", "1", … in order, like `sequential.pop(index)`.
 *
 * Returns: (transfer full) (nullable): the removed child, or %NULL with
 *   @error set (%GNN_ERROR_INDEX, "index 5 is out of range")
 *
 * Since: 0.1
 */
GnnModule *
gnn_sequential_pop (GnnSequential *self,
                    gint64         index,
                    GError       **error)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), NULL);

  return (GnnModule *) gnn_container_pop_module (GNN_MODULE (self), index, error);
}

/**
 * gnn_sequential_slice:
 * @self: a sequential container
 * @start: the first position (clamped like a Python slice; negative values
 *   count from the end)
 * @stop: the position to stop before (%G_MAXINT64 for "to the end")
 * @step: the stride; negative walks backwards (then %G_MAXINT64 as @start
 *   and %G_MININT64 as @stop select everything)
 * @error: return location for a #GError
 *
 * Returns a new container of the same type holding the selected children
 * under their original keys, like `sequential[start:stop:step]`. The
 * children are shared, not copied.
 *
 * Returns: (transfer full): the new container, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, "slice step cannot be zero")
 *
 * Since: 0.1
 */
GnnSequential *
gnn_sequential_slice (GnnSequential *self,
                      gint64         start,
                      gint64         stop,
                      gint64         step,
                      GError       **error)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), NULL);

  return (GnnSequential *) gnn_container_slice_modules (GNN_MODULE (self), start, stop, step,
                                               FALSE, error);
}
