/* gnn-module-state.c: state dicts and the printed form of a module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "tensor/gnn-tensor-private.h"

/* --- state_dict ---------------------------------------------------------- */

/* Adds @module's parameters and persistent buffers under @path (its dotted
 * path, restored on return). */
static void
save_own_state (GnnModule    *module,
                GString      *path,
                GnnStateDict *state_dict)
{
  GnnModulePrivate *priv = gnn_module_priv (module);
  gsize len = path->len;

  for (int k = GNN_MAP_PARAMETERS; k <= GNN_MAP_BUFFERS; k++)
    {
      GPtrArray *entries = gnn_ordered_map_entries (&priv->maps[k]);

      for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
        {
          GnnMapEntry *entry = gnn_entries_get (entries, i);

          if (entry->value == NULL ||
              (k == GNN_MAP_BUFFERS &&
               __atomic_load_n (&priv->non_persistent, __ATOMIC_ACQUIRE) != NULL &&
               !gnn_module_is_buffer_persistent (module, entry->name)))
            continue;
          if (len > 0)
            g_string_append_c (path, '.');
          g_string_append (path, entry->name);
          gnn_state_dict_insert (state_dict, path->str, GNN_TENSOR (entry->value));
          g_string_truncate (path, len);
        }
    }
}

/**
 * gnn_module_state_dict:
 * @self: a module
 *
 * Collects the module's state, like PyTorch's `state_dict()`: per module its
 * parameters, then its persistent buffers, then its children's entries under
 * `child.` prefixes. Empty slots are skipped; a module shared under two paths
 * appears under both. The tensors are the module's own (shared, not copied).
 *
 * Returns: (transfer full): a new state dict
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_module_state_dict (GnnModule *self)
{
  g_autoptr(GString) path = NULL;
  GnnStateDict *state_dict;
  GnnModuleWalk walk;
  GnnModule *parent;
  GnnMapEntry *entry;
  GnnWalkStep step;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  state_dict = gnn_state_dict_new ();
  path = g_string_sized_new (64);
  save_own_state (self, path, state_dict);
  /* Pre-order on an explicit stack: trees may be arbitrarily deep. */
  gnn_module_walk_init (&walk, self, path, FALSE);
  while ((step = gnn_module_walk_next (&walk, &parent, &entry)) != GNN_WALK_DONE)
    if (step == GNN_WALK_CHILD && entry->value != NULL)
      {
        save_own_state (GNN_MODULE (entry->value), path, state_dict);
        gnn_module_walk_enter (&walk, GNN_MODULE (entry->value));
      }
  gnn_module_walk_clear (&walk);
  return state_dict;
}

static void
append_quoted_keys (GString    *msg,
                    const char *title,
                    GPtrArray  *keys)
{
  g_string_append_printf (msg, "\n\t%s: ", title);
  for (guint i = 0; i < keys->len; i++)
    g_string_append_printf (msg, "%s\"%s\"", i > 0 ? ", " : "", (char *) g_ptr_array_index (keys, i));
  g_string_append (msg, ". ");
}

static char **
to_strv (GPtrArray *keys)
{
  char **strv = g_new0 (char *, keys->len + 1);

  for (guint i = 0; i < keys->len; i++)
    strv[i] = g_strdup (g_ptr_array_index (keys, i));
  return strv;
}

/**
 * gnn_module_load_state_dict:
 * @self: a module
 * @state_dict: the state to load
 * @strict: whether missing and unexpected keys are errors
 * @missing_keys: (out) (optional) (array zero-terminated=1) (transfer full):
 *   the keys of @self's state that @state_dict lacks
 * @unexpected_keys: (out) (optional) (array zero-terminated=1) (transfer full):
 *   the keys of @state_dict that @self does not have
 * @error: return location for a #GError
 *
 * Copies the tensors of @state_dict into the module's parameters and
 * persistent buffers (converting dtypes as `copy_` does), like PyTorch's
 * `load_state_dict`. Missing and unexpected keys are always reported through
 * @missing_keys and @unexpected_keys; with @strict they are errors.
 * A tensor whose shape differs from the module's is always an error.
 *
 * The error message is PyTorch's: "Error(s) in loading state_dict for
 * GnnNet:" followed by tab-indented lines "Missing key(s) in state_dict:
 * "a", "b". ", "Unexpected key(s) in state_dict: "c". " and "size mismatch
 * for w: copying a param with shape [3] from checkpoint, the shape in
 * current model is [4]." (%GNN_ERROR_SHAPE if any shape differs, else
 * %GNN_ERROR_KEY).
 *
 * Unlike PyTorch, loading is atomic: everything is checked first and nothing
 * is copied when there is an error. See
 * [method@Gnn.Module.load_state_dict_with_flags] for loading by assignment.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_load_state_dict (GnnModule     *self,
                            GnnStateDict  *state_dict,
                            gboolean       strict,
                            char        ***missing_keys,
                            char        ***unexpected_keys,
                            GError       **error)
{
  return gnn_module_load_state_dict_with_flags (self, state_dict,
                                                strict ? GNN_LOAD_STATE_STRICT : GNN_LOAD_STATE_NONE,
                                                missing_keys, unexpected_keys, error);
}

static const char *
torch_dtype (GnnDType dtype)
{
  static const char *const names[] = {
    "torch.float32", "torch.float64", "torch.float16", "torch.bfloat16", "torch.int64",
    "torch.int32", "torch.int16", "torch.int8", "torch.uint8", "torch.bool",
  };

  return (guint) dtype < G_N_ELEMENTS (names) ? names[dtype] : "torch.unknown";
}

/* The per-key problem of loading @source into @target, or NULL; @code gets
 * the error code it deserves. */
static char *
check_entry (const char *key,
             GnnTensor  *target,
             GnnTensor  *source,
             gboolean    assign,
             GnnError   *code)
{
  GnnTensorPrivate *tp = gnn_tensor_priv (target);
  GnnTensorPrivate *sp = gnn_tensor_priv (source);

  if (tp->ndim != sp->ndim || memcmp (tp->shape, sp->shape, tp->ndim * sizeof (gint64)) != 0)
    {
      g_autofree char *sstr = gnn_shape_to_string (sp->shape, sp->ndim);
      g_autofree char *tstr = gnn_shape_to_string (tp->shape, tp->ndim);

      *code = GNN_ERROR_SHAPE;
      return g_strdup_printf ("size mismatch for %s: copying a param with shape %s "
                              "from checkpoint, the shape in current model is %s.",
                              key, sstr, tstr);
    }
  if (assign && tp->dtype != sp->dtype)
    {
      *code = GNN_ERROR_DTYPE;
      return g_strdup_printf ("dtype mismatch for %s: assigning a param with dtype %s "
                              "from checkpoint, the dtype in current model is %s.",
                              key, torch_dtype (sp->dtype), torch_dtype (tp->dtype));
    }
  if (!assign && source != target && (gnn_tensor_priv_is_meta (tp) || gnn_tensor_priv_is_meta (sp)))
    {
      *code = GNN_ERROR_NOT_SUPPORTED;
      return g_strdup_printf ("cannot copy %s: the %s tensor has no storage (meta); "
                              "load with assign instead", key,
                              gnn_tensor_priv_is_meta (tp) ? "model's" : "checkpoint's");
    }
  return NULL;
}

/**
 * gnn_module_load_state_dict_with_flags:
 * @self: a module
 * @state_dict: the state to load
 * @flags: #GnnLoadStateFlags
 * @missing_keys: (out) (optional) (array zero-terminated=1) (transfer full):
 *   the keys of @self's state that @state_dict lacks
 * @unexpected_keys: (out) (optional) (array zero-terminated=1) (transfer full):
 *   the keys of @state_dict that @self does not have
 * @error: return location for a #GError
 *
 * [method@Gnn.Module.load_state_dict] with options. With
 * %GNN_LOAD_STATE_ASSIGN nothing is copied: each parameter and buffer
 * adopts the storage of its state-dict tensor (for a state dict from
 * [func@Gnn.StateDict.load], the memory-mapped file: zero copy, and writes
 * stay private to the process). This follows PyTorch 2.x's
 * `load_state_dict(sd, assign=True)` (PyTorch 1.13 has no `assign`): the
 * module's tensors report the loaded values and keep their requires-grad
 * flag. Unlike PyTorch, the parameter objects themselves are kept, so
 * references to them (optimizers, hooks, tied weights) see the loaded
 * values. It is the way to give a module built under %GNN_DEVICE_META (see
 * [func@Gnn.set_default_device]) its values without ever allocating.
 *
 * Assignment cannot convert, so a dtype that differs from the module's is
 * an error "dtype mismatch for w: assigning a param with dtype
 * torch.float64 from checkpoint, the dtype in current model is
 * torch.float32." (%GNN_ERROR_DTYPE), where PyTorch would change the
 * module's dtype. Copying into or out of a meta tensor (without ASSIGN) is
 * a %GNN_ERROR_NOT_SUPPORTED error, where PyTorch 2.x warns and does
 * nothing. Shape errors and strictness are those of
 * [method@Gnn.Module.load_state_dict], and loading stays atomic: on any
 * error nothing changes.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_load_state_dict_with_flags (GnnModule         *self,
                                       GnnStateDict      *state_dict,
                                       GnnLoadStateFlags  flags,
                                       char            ***missing_keys,
                                       char            ***unexpected_keys,
                                       GError           **error)
{
  g_autoptr(GnnStateDict) own = NULL;
  g_auto(GStrv) own_keys = NULL;
  g_auto(GStrv) given_keys = NULL;
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autoptr(GPtrArray) unexpected = g_ptr_array_new ();
  g_autoptr(GPtrArray) mismatches = g_ptr_array_new_with_free_func (g_free);
  gboolean strict = (flags & GNN_LOAD_STATE_STRICT) != 0;
  gboolean assign = (flags & GNN_LOAD_STATE_ASSIGN) != 0;
  GnnError code = GNN_ERROR_KEY;
  gboolean failed;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state_dict), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  own = gnn_module_state_dict (self);
  own_keys = gnn_state_dict_get_keys (own);
  given_keys = gnn_state_dict_get_keys (state_dict);

  for (guint i = 0; own_keys[i] != NULL; i++)
    {
      GnnTensor *target = gnn_state_dict_lookup (own, own_keys[i]);
      GnnTensor *source = gnn_state_dict_lookup (state_dict, own_keys[i]);
      GnnError entry_code = GNN_ERROR_KEY;
      char *problem;

      if (source == NULL)
        {
          g_ptr_array_add (missing, own_keys[i]);
          continue;
        }
      problem = check_entry (own_keys[i], target, source, assign, &entry_code);
      if (problem != NULL)
        {
          g_ptr_array_add (mismatches, problem);
          /* the first shape error wins, then dtype, then the rest */
          if (code == GNN_ERROR_KEY || (entry_code == GNN_ERROR_SHAPE && code != GNN_ERROR_SHAPE))
            code = entry_code;
        }
    }
  for (guint i = 0; given_keys[i] != NULL; i++)
    if (!gnn_state_dict_contains (own, given_keys[i]))
      g_ptr_array_add (unexpected, given_keys[i]);

  if (missing_keys != NULL)
    *missing_keys = to_strv (missing);
  if (unexpected_keys != NULL)
    *unexpected_keys = to_strv (unexpected);

  failed = mismatches->len > 0 || (strict && (missing->len > 0 || unexpected->len > 0));
  if (failed)
    {
      g_autoptr(GString) msg = g_string_new (NULL);

      g_string_append_printf (msg, "Error(s) in loading state_dict for %s:",
                              gnn_module_get_name (self));
      if (strict && missing->len > 0)
        append_quoted_keys (msg, "Missing key(s) in state_dict", missing);
      if (strict && unexpected->len > 0)
        append_quoted_keys (msg, "Unexpected key(s) in state_dict", unexpected);
      for (guint i = 0; i < mismatches->len; i++)
        g_string_append_printf (msg, "\n\t%s", (char *) g_ptr_array_index (mismatches, i));
      g_set_error_literal (error, GNN_ERROR, code, msg->str);
      return FALSE;
    }

  /* Everything fits: shapes (and for assign, dtypes) are equal and no
   * tensor is meta where it matters. Assigning cannot fail; copying can
   * only when a source partly overlaps its target and the temporary copy_
   * then needs cannot be allocated (a source that is the target's own view,
   * as the module's state_dict() gives, copies nothing). */
  for (guint i = 0; own_keys[i] != NULL; i++)
    {
      GnnTensor *source = gnn_state_dict_lookup (state_dict, own_keys[i]);
      GnnTensor *target = gnn_state_dict_lookup (own, own_keys[i]);

      if (source == NULL || source == target)
        continue;
      if (assign)
        gnn_tensor_assign_storage (target, source);
      else if (!gnn_tensor_copy_values_ (target, source, error))
        return FALSE;
    }
  return TRUE;
}

/* --- printing ------------------------------------------------------------ */

/**
 * gnn_module_extra_repr: (virtual extra_repr)
 * @self: a module
 *
 * Returns the module-specific part of [method@Gnn.Module.to_string], such
 * as `in_features=4, out_features=8, bias=True` (PyTorch's `extra_repr`).
 * Subclasses implement the vfunc; the default is empty.
 *
 * Returns: (transfer full) (nullable): the extra representation
 *
 * Since: 0.1
 */
char *
gnn_module_extra_repr (GnnModule *self)
{
  GnnModuleClass *klass;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  klass = GNN_MODULE_GET_CLASS (self);
  return klass->extra_repr != NULL ? klass->extra_repr (self) : NULL;
}

static void
append_newline_indent (GString *out,
                       guint    indent)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < indent; i++)
    g_string_append_c (out, ' ');
}

/* Writes the opening of @module's repr, whose lines after the first are
 * indented by @indent (PyTorch's nested _addindent, applied once here):
 * `Name(extra)` or `Name()` for a module without children (then FALSE), else
 * `Name(` and the extra lines (then TRUE: the children and `)` follow). */
static gboolean
open_repr (GString   *out,
           GnnModule *module,
           guint      indent)
{
  g_autofree char *extra = gnn_module_extra_repr (module);
  g_auto(GStrv) lines = extra != NULL && extra[0] != '\0' ? g_strsplit (extra, "\n", -1) : NULL;
  guint n_lines = lines != NULL ? g_strv_length (lines) : 0;
  gboolean has_children = gnn_ordered_map_len (&gnn_module_priv (module)->maps[GNN_MAP_MODULES]) > 0;

  g_string_append (out, gnn_module_get_name (module));
  g_string_append_c (out, '(');
  if (n_lines == 1 && !has_children)
    {
      g_string_append (out, lines[0]);
      g_string_append_c (out, ')');
      return FALSE;
    }
  for (guint i = 0; i < n_lines; i++)
    {
      append_newline_indent (out, indent + 2);
      g_string_append (out, lines[i]);
    }
  if (has_children)
    return TRUE;
  if (n_lines > 0)
    append_newline_indent (out, indent);
  g_string_append_c (out, ')');
  return FALSE;
}

/**
 * gnn_module_to_string:
 * @self: a module
 *
 * Formats the module tree like PyTorch 1.13's `repr(module)`:
 * `Name(extra)` when the module has a one-line extra representation and no
 * children, otherwise
 *
 * ```
 * Name(
 *   extra lines
 *   (child): <child, indented by 2>
 * )
 * ```
 *
 * and `Name()` when there is nothing to show. Empty child slots print as
 * `None`. The name is [method@Gnn.Module.get_name].
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
gnn_module_to_string (GnnModule *self)
{
  GString *out;
  GnnModuleWalk walk;
  GnnModule *parent;
  GnnMapEntry *entry;
  GnnWalkStep step;
  guint indent = 0;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  /* One pass into one string: each line is indented once by its depth, so
   * the work is linear in the output, and the walk keeps its own stack. */
  out = g_string_new (NULL);
  if (!open_repr (out, self, 0))
    return g_string_free (out, FALSE);
  gnn_module_walk_init (&walk, self, NULL, TRUE);
  while ((step = gnn_module_walk_next (&walk, &parent, &entry)) != GNN_WALK_DONE)
    {
      if (step == GNN_WALK_LEAVE)
        {
          append_newline_indent (out, indent);   /* @parent's own indent */
          g_string_append_c (out, ')');
          indent = indent >= 2 ? indent - 2 : 0;
          continue;
        }
      append_newline_indent (out, indent + 2);
      g_string_append_printf (out, "(%s): ", entry->name);
      if (entry->value == NULL)
        g_string_append (out, "None");
      else if (open_repr (out, GNN_MODULE (entry->value), indent + 2))
        {
          gnn_module_walk_enter (&walk, GNN_MODULE (entry->value));
          indent += 2;
        }
    }
  gnn_module_walk_clear (&walk);
  return g_string_free (out, FALSE);
}
