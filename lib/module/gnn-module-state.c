/* gnn-module-state.c: state dicts and the printed form of a module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "tensor/gnn-tensor-private.h"

/* --- state_dict ---------------------------------------------------------- */

/* Adds @module's entries under @path (the dotted prefix, ending in "." or
 * empty; one buffer for the whole walk, restored on return). */
static void
save_state (GnnModule    *module,
            GString      *path,
            GnnStateDict *state_dict)
{
  GnnModulePrivate *priv = gnn_module_priv (module);
  GPtrArray *params = priv->maps[GNN_MAP_PARAMETERS].entries;
  GPtrArray *buffers = priv->maps[GNN_MAP_BUFFERS].entries;
  GPtrArray *modules = priv->maps[GNN_MAP_MODULES].entries;
  gsize len = path->len;

  for (guint i = 0; i < params->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (params, i);

      if (entry->value == NULL)
        continue;
      g_string_append (path, entry->name);
      gnn_state_dict_insert (state_dict, path->str, GNN_TENSOR (entry->value));
      g_string_truncate (path, len);
    }
  for (guint i = 0; i < buffers->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (buffers, i);

      if (entry->value == NULL ||
          (priv->non_persistent != NULL && g_hash_table_contains (priv->non_persistent, entry->name)))
        continue;
      g_string_append (path, entry->name);
      gnn_state_dict_insert (state_dict, path->str, GNN_TENSOR (entry->value));
      g_string_truncate (path, len);
    }
  for (guint i = 0; i < modules->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (modules, i);

      if (entry->value == NULL)
        continue;
      g_string_append (path, entry->name);
      g_string_append_c (path, '.');
      save_state (GNN_MODULE (entry->value), path, state_dict);
      g_string_truncate (path, len);
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
 */
GnnStateDict *
gnn_module_state_dict (GnnModule *self)
{
  g_autoptr(GString) path = NULL;
  GnnStateDict *state_dict;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  state_dict = gnn_state_dict_new ();
  path = g_string_sized_new (64);
  save_state (self, path, state_dict);
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
 * is copied when there is an error.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_module_load_state_dict (GnnModule     *self,
                            GnnStateDict  *state_dict,
                            gboolean       strict,
                            char        ***missing_keys,
                            char        ***unexpected_keys,
                            GError       **error)
{
  g_autoptr(GnnStateDict) own = NULL;
  g_auto(GStrv) own_keys = NULL;
  g_auto(GStrv) given_keys = NULL;
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autoptr(GPtrArray) unexpected = g_ptr_array_new ();
  g_autoptr(GPtrArray) mismatches = g_ptr_array_new_with_free_func (g_free);
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
      guint tn, sn;
      const gint64 *ts, *ss;

      if (source == NULL)
        {
          g_ptr_array_add (missing, own_keys[i]);
          continue;
        }
      ts = gnn_tensor_get_shape (target, &tn);
      ss = gnn_tensor_get_shape (source, &sn);
      if (tn != sn || memcmp (ts, ss, tn * sizeof (gint64)) != 0)
        {
          g_autofree char *sstr = gnn_shape_to_string (ss, sn);
          g_autofree char *tstr = gnn_shape_to_string (ts, tn);

          g_ptr_array_add (mismatches,
                           g_strdup_printf ("size mismatch for %s: copying a param with shape %s "
                                            "from checkpoint, the shape in current model is %s.",
                                            own_keys[i], sstr, tstr));
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
      g_set_error_literal (error, GNN_ERROR,
                           mismatches->len > 0 ? GNN_ERROR_SHAPE : GNN_ERROR_KEY, msg->str);
      return FALSE;
    }

  /* Everything fits: shapes are equal, so copy_ cannot fail. */
  for (guint i = 0; own_keys[i] != NULL; i++)
    {
      GnnTensor *source = gnn_state_dict_lookup (state_dict, own_keys[i]);
      GnnTensor *target = gnn_state_dict_lookup (own, own_keys[i]);

      if (source != NULL && source != target &&
          !gnn_tensor_copy_ (target, source, error))
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
 */
char *
gnn_module_extra_repr (GnnModule *self)
{
  GnnModuleClass *klass;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  klass = GNN_MODULE_GET_CLASS (self);
  return klass->extra_repr != NULL ? klass->extra_repr (self) : NULL;
}

/* PyTorch's _addindent: every line but the first gets @n spaces. */
static void
append_indented (GString    *out,
                 const char *text,
                 guint       n)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      g_string_append_c (out, *p);
      if (*p == '\n')
        for (guint i = 0; i < n; i++)
          g_string_append_c (out, ' ');
    }
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
 */
char *
gnn_module_to_string (GnnModule *self)
{
  GPtrArray *modules;
  g_autofree char *extra = NULL;
  g_auto(GStrv) extra_lines = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  GString *out;
  guint n_extra = 0;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  modules = gnn_module_priv (self)->maps[GNN_MAP_MODULES].entries;

  lines = g_ptr_array_new_with_free_func (g_free);
  extra = gnn_module_extra_repr (self);
  if (extra != NULL && extra[0] != '\0')
    {
      extra_lines = g_strsplit (extra, "\n", -1);
      n_extra = g_strv_length (extra_lines);
      for (guint i = 0; i < n_extra; i++)
        g_ptr_array_add (lines, g_strdup (extra_lines[i]));
    }
  for (guint i = 0; i < modules->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (modules, i);
      g_autofree char *child = entry->value != NULL
                               ? gnn_module_to_string (GNN_MODULE (entry->value))
                               : g_strdup ("None");
      GString *line = g_string_new (NULL);

      g_string_append_printf (line, "(%s): ", entry->name);
      append_indented (line, child, 2);
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }

  out = g_string_new (gnn_module_get_name (self));
  g_string_append_c (out, '(');
  if (n_extra == 1 && modules->len == 0)
    g_string_append (out, extra_lines[0]);
  else if (lines->len > 0)
    {
      for (guint i = 0; i < lines->len; i++)
        {
          g_string_append (out, "\n  ");
          g_string_append (out, g_ptr_array_index (lines, i));
        }
      g_string_append_c (out, '\n');
    }
  g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}
