/* gnn-inspect-model.c: gnn-inspect for model files and checkpoints — the
 * architecture, the parameter counts, one timed forward pass and a
 * torchinfo-style summary
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "gnn-inspect.h"

static void
count_tensors (GPtrArray *tensors,
               guint64   *total,
               guint64   *trainable)
{
  for (guint i = 0; i < tensors->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (tensors, i);

      *total += gnn_tensor_get_numel (t);
      if (trainable != NULL && gnn_tensor_get_requires_grad (t))
        *trainable += gnn_tensor_get_numel (t);
    }
}

void
inspect_print_model (GnnModule    *model,
                     GnnOptimizer *optimizer)
{
  g_autofree char *repr = gnn_module_to_string (model);
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GPtrArray) buffers = gnn_module_named_buffers (model, NULL, TRUE, NULL);
  guint64 n_params = 0, n_trainable = 0, n_buffers = 0, n_state = 0;
  g_autofree char *p = NULL, *t = NULL, *b = NULL, *s = NULL;

  count_tensors (params, &n_params, &n_trainable);
  count_tensors (buffers, &n_buffers, NULL);
  if (optimizer != NULL)
    {
      g_autoptr(GnnStateDict) state = gnn_optimizer_state_dict (optimizer);
      g_auto(GStrv) keys = gnn_state_dict_get_keys (state);

      for (guint i = 0; keys[i] != NULL; i++)
        n_state += gnn_tensor_get_numel (gnn_state_dict_lookup (state, keys[i]));
    }
  p = inspect_grouped (n_params);
  t = inspect_grouped (n_trainable);
  b = inspect_grouped (n_buffers);
  s = inspect_grouped (n_state);
  g_print ("%s\n\nmodel parameters: %s (%s trainable)\nbuffers: %s\n", repr, p, t, b);
  if (optimizer != NULL)
    g_print ("optimizer state: %s (%s)\n", s, G_OBJECT_TYPE_NAME (optimizer) + 3);
}

/* --- running ------------------------------------------------------------------------ */

typedef struct
{
  GHashTable *shapes;   /* GnnModule* → char* (the first call's output shape) */
} Recorder;

static GnnTensor *
record_output (GnnModule  *module,
               GnnTensor  *input,
               GnnTensor  *output,
               gpointer    user_data,
               GError    **error)
{
  Recorder *r = user_data;

  if (!g_hash_table_contains (r->shapes, module))
    g_hash_table_insert (r->shapes, module, inspect_shape_string (output));
  return NULL;   /* keep the output */
}

/* One row per module in named_modules order, indented by depth. */
static void
print_summary (GnnModule *model,
               Recorder  *r)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (model, NULL, &names);
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GHashTable) index_at_depth = g_hash_table_new (NULL, NULL);
  const char *rule = "==========================================================================="
                     "=============";
  guint64 total = 0, trainable = 0;
  g_autofree char *tp = NULL, *tt = NULL, *tn = NULL;

  g_print ("%s\n%-40s %-25s %s\n%s\n", rule, "Layer (type:depth-idx)", "Output Shape", "Param #", rule);
  for (guint i = 0; i < modules->len; i++)
    {
      GnnModule *m = g_ptr_array_index (modules, i);
      guint depth = names[i][0] == '\0' ? 0 : 1;
      g_autoptr(GPtrArray) own = gnn_module_named_parameters (m, NULL, FALSE, NULL);
      g_autoptr(GString) label = g_string_new (NULL);
      const char *shape = g_hash_table_lookup (r->shapes, m);
      guint64 n = 0;
      guint idx;
      g_autofree char *count = NULL;

      for (const char *c = names[i]; *c != '\0'; c++)
        depth += *c == '.';
      count_tensors (own, &n, NULL);
      if (depth > 0)
        {
          for (guint d = 1; d < depth; d++)
            g_string_append (label, "│    ");
          idx = GPOINTER_TO_UINT (g_hash_table_lookup (index_at_depth, GUINT_TO_POINTER (depth))) + 1;
          g_hash_table_insert (index_at_depth, GUINT_TO_POINTER (depth), GUINT_TO_POINTER (idx));
          g_hash_table_remove (index_at_depth, GUINT_TO_POINTER (depth + 1));
          g_string_append_printf (label, "├─%s: %u-%u", gnn_module_get_name (m), depth, idx);
        }
      else
        g_string_append (label, gnn_module_get_name (m));
      count = n > 0 ? inspect_grouped (n) : g_strdup ("--");
      /* the box-drawing characters are 3 bytes wide, 1 column */
      g_print ("%s%*s %-25s %s\n", label->str,
               (int) MAX (0, 40 - (gssize) g_utf8_strlen (label->str, -1)), "",
               shape != NULL ? shape : "--", count);
    }
  count_tensors (params, &total, &trainable);
  tp = inspect_grouped (total);
  tt = inspect_grouped (trainable);
  tn = inspect_grouped (total - trainable);
  g_print ("%s\nTotal params: %s\nTrainable params: %s\nNon-trainable params: %s\n%s\n", rule, tp,
           tt, tn, rule);
}

gboolean
inspect_run (GnnModule     *model,
             const gint64  *shape,
             guint          ndim,
             GnnDType       dtype,
             gboolean       summary,
             GError       **error)
{
  g_autoptr(GnnGenerator) generator = gnn_generator_new (0);
  g_autoptr(GnnTensor) input = gnn_tensor_zeros (shape, ndim, dtype, error);
  g_autoptr(GnnTensor) output = NULL;
  g_autoptr(GnnHookHandle) hook = NULL;
  g_autofree char *out_shape = NULL;
  Recorder r = { g_hash_table_new_full (NULL, NULL, NULL, g_free) };
  gint64 start;

  if (input == NULL)
    return FALSE;
  if (dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64)
    gnn_tensor_normal_ (input, 0, 1, generator, NULL);
  gnn_module_eval (model);
  if (summary)
    hook = gnn_module_register_global_forward_hook (record_output, &r, NULL, GNN_HOOK_FLAGS_NONE);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    start = g_get_monotonic_time ();
    output = gnn_module_call (model, input, error);
  }
  if (hook != NULL)
    gnn_hook_handle_remove (hook);
  if (output == NULL)
    {
      g_hash_table_unref (r.shapes);
      return FALSE;
    }
  out_shape = inspect_shape_string (output);
  if (summary)
    print_summary (model, &r);
  g_print ("output shape %s, forward %.3f ms\n", out_shape,
           (g_get_monotonic_time () - start) / 1000.0);
  g_hash_table_unref (r.shapes);
  return TRUE;
}
