/* gnn-nn-private.c: helpers shared by the layers and containers of lib/nn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/gnn-format-private.h"
#include "module/gnn-module-registry-private.h"
#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

void
gnn_nn_unref_nullable (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

GnnGenerator *
gnn_nn_default_generator_lock (void)
{
  return gnn_generator_default_lock ();
}

void
gnn_nn_default_generator_unlock (void)
{
  gnn_generator_default_unlock ();
}

G_DEFINE_QUARK (gnn-nn-construct-error, construct_error)

void
gnn_nn_set_construct_error (gpointer  object,
                            GError   *error)
{
  /* The first failure is the one reported. */
  if (g_object_get_qdata (object, construct_error_quark ()) != NULL)
    {
      g_error_free (error);
      return;
    }
  g_object_set_qdata_full (object, construct_error_quark (), error, (GDestroyNotify) g_error_free);
}

gboolean
gnn_nn_check_constructed (gpointer   object,
                          GError   **error)
{
  const GError *stored = g_object_get_qdata (object, construct_error_quark ());

  if (stored == NULL)
    return TRUE;
  g_propagate_error (error, g_error_copy (stored));
  return FALSE;
}

static gboolean
initable_init (GInitable     *initable,
               GCancellable  *cancellable,
               GError       **error)
{
  return gnn_nn_check_constructed (initable, error);
}

void
gnn_nn_initable_iface_init (GInitableIface *iface)
{
  iface->init = initable_init;
}

gpointer
gnn_nn_initable_new (GType        type,
                     GError     **error,
                     const char  *first_property,
                     ...)
{
  va_list args;
  GObject *object;

  va_start (args, first_property);
  object = g_initable_new_valist (type, first_property, args, NULL, error);
  va_end (args);
  return object;
}

char *
gnn_nn_format_float (double value)
{
  char *text = gnn_format_double_shortest (value);

  if (isfinite (value) && strpbrk (text, ".e") == NULL)
    {
      char *repr = g_strconcat (text, ".0", NULL);

      g_free (text);
      return repr;
    }
  return text;
}

char *
gnn_nn_format_number (double value)
{
  if (value == trunc (value) && fabs (value) < 1e15)
    return g_strdup_printf ("%.0f", value + 0.0);   /* + 0.0: no "-0" */
  return gnn_nn_format_float (value);
}

gboolean
gnn_nn_normalize_index (gint64   index,
                        guint    len,
                        guint   *out,
                        GError **error)
{
  if (index < -(gint64) len || index >= (gint64) len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "index %" G_GINT64_FORMAT " is out of range", index);
      return FALSE;
    }
  *out = (guint) (index < 0 ? index + (gint64) len : index);
  return TRUE;
}

static gint64
adjust_bound (gint64 value,
              gint64 len,
              gint64 step)
{
  if (value < 0)
    {
      value = value < -len ? -1 : value + len;   /* no overflow near G_MININT64 */
      if (value < 0)
        value = step < 0 ? -1 : 0;
    }
  else if (value >= len)
    value = step < 0 ? len - 1 : len;
  return value;
}

GArray *
gnn_nn_slice_positions (guint    len,
                        gint64   start,
                        gint64   stop,
                        gint64   step,
                        GError **error)
{
  GArray *positions;

  if (step == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "slice step cannot be zero");
      return NULL;
    }
  start = adjust_bound (start, len, step);
  stop = adjust_bound (stop, len, step);
  positions = g_array_new (FALSE, FALSE, sizeof (guint));
  /* counted first: i += step could overflow for a step near G_MAXINT64
   * (Python's ml[1::sys.maxsize]) and wrap around into the list */
  if (step > 0 ? start < stop : start > stop)
    {
      guint64 span = step > 0 ? (guint64) (stop - start) : (guint64) (start - stop);
      guint64 stride = step > 0 ? (guint64) step : (guint64) -(step + 1) + 1;
      guint64 count = (span - 1) / stride + 1;

      for (guint64 k = 0; k < count; k++)
        {
          guint p = (guint) (step > 0 ? (guint64) start + k * stride : (guint64) start - k * stride);

          g_array_append_val (positions, p);
        }
    }
  return positions;
}

GPtrArray *
gnn_nn_module_entries (GnnModule *self)
{
  return gnn_module_registry_entries (self, GNN_MAP_MODULES);
}

GPtrArray *
gnn_nn_parameter_entries (GnnModule *self)
{
  return gnn_module_registry_entries (self, GNN_MAP_PARAMETERS);
}

static gboolean
gnn_nn_renumber_modules_in_window (GnnModule *self,
                         GError   **error)
{
  GPtrArray *entries = gnn_nn_module_entries (self);
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (gnn_nn_unref_nullable);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  gboolean renumbered = TRUE;

  for (guint i = 0; i < gnn_entries_len (entries); i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);
      char key[16];

      g_snprintf (key, sizeof key, "%u", i);
      if (strcmp (entry->name, key) != 0)
        renumbered = FALSE;
    }
  if (renumbered)
    return TRUE;

  for (guint i = 0; i < gnn_entries_len (entries); i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);

      g_ptr_array_add (names, g_strdup (entry->name));
      g_ptr_array_add (values, entry->value != NULL ? g_object_ref (entry->value) : NULL);
    }
  for (guint i = 0; i < names->len; i++)
    if (!gnn_module_delete_child (self, g_ptr_array_index (names, i), error))
      return FALSE;
  for (guint i = 0; i < values->len; i++)
    {
      char key[16];

      g_snprintf (key, sizeof key, "%u", i);
      if (!gnn_module_register_module (self, key, g_ptr_array_index (values, i), error))
        return FALSE;
    }
  return TRUE;
}

gboolean
gnn_nn_renumber_modules (GnnModule *self,
                         GError   **error)
{
  gboolean result;

  gnn_module_use_begin ();   /* reads the registry: see gnn_module_use_begin() */
  result = gnn_nn_renumber_modules_in_window (self, error);
  gnn_module_use_end ();
  return result;
}

static gboolean
gnn_nn_insert_module_in_window (GnnModule *self,
                      gint64     index,
                      GnnModule *module,
                      GError   **error)
{
  GPtrArray *entries = gnn_nn_module_entries (self);
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (gnn_nn_unref_nullable);
  gint64 n = gnn_entries_len (entries);
  char key[16];

  if (index < -n || index > n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Index out of range: %" G_GINT64_FORMAT, index);
      return FALSE;
    }
  if (index < 0)
    index += n;
  for (guint i = 0; i < gnn_entries_len (entries); i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);

      /* Inserting shifts the numbered keys "0" .. "n-1" up by one; other
       * keys (a Sequential built from named modules, or a slice that kept
       * its keys) would be overwritten and duplicated. torch raises
       * KeyError half-way; this changes nothing. */
      g_snprintf (key, sizeof key, "%u", i);
      if (strcmp (entry->name, key) != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "cannot insert into %s: its child at position %u is named '%s', not "
                       "'%u' (insert renumbers children named by position)",
                       gnn_module_get_name (self), i, entry->name, i);
          return FALSE;
        }
      g_ptr_array_add (values, entry->value != NULL ? g_object_ref (entry->value) : NULL);
    }
  /* The registry's own checks cannot fail for the shifted children; check
   * the new one first so that a failure changes nothing. */
  if (module != NULL)
    {
      g_autoptr(GPtrArray) below = gnn_module_named_modules (module, "", NULL);

      for (guint i = 0; i < below->len; i++)
        if (g_ptr_array_index (below, i) == (gpointer) self)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "cannot insert %s into %s: it contains the container",
                         gnn_module_get_name (module), gnn_module_get_name (self));
            return FALSE;
          }
    }
  g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT, n);
  if (!gnn_module_register_module (self, key, n == index ? module : g_ptr_array_index (values,
      n - 1), error))
    return FALSE;
  for (gint64 i = n - 1; i > index; i--)
    {
      g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT, i);
      if (!gnn_module_register_module (self, key, g_ptr_array_index (values, i - 1), error))
        return FALSE;
    }
  if (index < n)
    {
      g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT, index);
      if (!gnn_module_register_module (self, key, module, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
gnn_nn_insert_module (GnnModule *self,
                      gint64     index,
                      GnnModule *module,
                      GError   **error)
{
  gboolean result;

  gnn_module_use_begin ();   /* reads the registry: see gnn_module_use_begin() */
  result = gnn_nn_insert_module_in_window (self, index, module, error);
  gnn_module_use_end ();
  return result;
}

static const char *
tensor_type_name (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "torch.FloatTensor";
    case GNN_DTYPE_F64: return "torch.DoubleTensor";
    case GNN_DTYPE_F16: return "torch.HalfTensor";
    case GNN_DTYPE_BF16: return "torch.BFloat16Tensor";
    case GNN_DTYPE_I64: return "torch.LongTensor";
    case GNN_DTYPE_I32: return "torch.IntTensor";
    case GNN_DTYPE_I16: return "torch.ShortTensor";
    case GNN_DTYPE_I8: return "torch.CharTensor";
    case GNN_DTYPE_U8: return "torch.ByteTensor";
    case GNN_DTYPE_BOOL: return "torch.BoolTensor";
    default: return "torch.Tensor";
    }
}

static char *
gnn_nn_parameter_lines_in_window (GnnModule *self,
                        gboolean   type_names)
{
  GPtrArray *entries = gnn_nn_parameter_entries (self);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < gnn_entries_len (entries); i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);

      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "  (%s): ", entry->name);
      if (entry->value == NULL)
        g_string_append (out, "Object of type: NoneType");
      else
        {
          GnnTensor *t = GNN_TENSOR (entry->value);
          guint ndim = gnn_tensor_get_ndim (t);
          const gint64 *shape = gnn_tensor_get_shape (t, NULL);
          GnnDType dtype = gnn_tensor_get_dtype (t);

          g_string_append (out, "Parameter containing: [");
          if (type_names)
            g_string_append (out, tensor_type_name (dtype));
          else
            g_string_append_printf (out, "torch.%s", gnn_dtype_get_name (dtype));
          g_string_append (out, " of size ");
          for (guint d = 0; d < ndim; d++)
            g_string_append_printf (out, "%s%" G_GINT64_FORMAT, d > 0 ? "x" : "", shape[d]);
          g_string_append_c (out, ']');
        }
    }
  return g_string_free (out, FALSE);
}

char *
gnn_nn_parameter_lines (GnnModule *self,
                        gboolean   type_names)
{
  char *result;

  gnn_module_use_begin ();   /* reads the registry: see gnn_module_use_begin() */
  result = gnn_nn_parameter_lines_in_window (self, type_names);
  gnn_module_use_end ();
  return result;
}

GnnParameter *
gnn_nn_as_parameter (GnnTensor *value)
{
  if (GNN_IS_PARAMETER (value))
    return g_object_ref (GNN_PARAMETER (value));
  return gnn_parameter_new (value, TRUE);
}

static gboolean
gnn_nn_reset_fill_in_window (GnnModule  *module,
                   const char *name,
                   double      value,
                   GError    **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();   /* writes into a parameter */
  GnnMapEntry *entry = gnn_module_registry_lookup (module, GNN_MAP_PARAMETERS, name);
  GObject *t;

  if (entry == NULL)
    entry = gnn_module_registry_lookup (module, GNN_MAP_BUFFERS, name);
  t = entry != NULL ? entry->value : NULL;
  if (t == NULL)
    return TRUE;
  return gnn_tensor_materialize (GNN_TENSOR (t), error) &&
         gnn_tensor_fill_ (GNN_TENSOR (t), value, error);
}

gboolean
gnn_nn_reset_fill (GnnModule  *module,
                   const char *name,
                   double      value,
                   GError    **error)
{
  gboolean result;

  gnn_module_use_begin ();   /* reads the registry: see gnn_module_use_begin() */
  result = gnn_nn_reset_fill_in_window (module, name, value, error);
  gnn_module_use_end ();
  return result;
}

void
gnn_nn_setting_get (double      setting,
                    GValue     *value,
                    GParamSpec *pspec)
{
  if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_BOOLEAN)
    g_value_set_boolean (value, setting != 0);
  else if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_INT)
    g_value_set_int (value, (gint) setting);
  else
    g_value_set_double (value, setting);
}

double
gnn_nn_setting_set (const GValue *value,
                    GParamSpec   *pspec)
{
  if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_BOOLEAN)
    return g_value_get_boolean (value);
  if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_INT)
    return g_value_get_int (value);
  return g_value_get_double (value);
}

#define SETTING_FLAGS (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS)

void
gnn_nn_class_add_double (GObjectClass *object_class,
                         guint         prop_id,
                         const char   *name,
                         double        minimum,
                         double        maximum,
                         double        default_value)
{
  g_object_class_install_property (object_class, prop_id,
                                   g_param_spec_double (name, NULL, NULL, minimum, maximum,
                                                        default_value, SETTING_FLAGS));
}

void
gnn_nn_class_add_boolean (GObjectClass *object_class,
                          guint         prop_id,
                          const char   *name,
                          gboolean      default_value)
{
  g_object_class_install_property (object_class, prop_id,
                                   g_param_spec_boolean (name, NULL, NULL, default_value,
                                                         SETTING_FLAGS));
}

void
gnn_nn_class_add_int (GObjectClass *object_class,
                      guint         prop_id,
                      const char   *name,
                      gint          minimum,
                      gint          maximum,
                      gint          default_value)
{
  g_object_class_install_property (object_class, prop_id,
                                   g_param_spec_int (name, NULL, NULL, minimum, maximum,
                                                     default_value, SETTING_FLAGS));
}

GnnTensor *
gnn_nn_weight (GnnModule   *module,
               const char  *name,
               GError     **error)
{
  GObject *value = gnn_module_get_child (module, name, error);

  if (value != NULL && GNN_IS_TENSOR (value))
    return GNN_TENSOR (value);
  if (error != NULL && *error == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s.%s is None", gnn_module_get_name (module),
                 name);
  return NULL;
}

char *
gnn_nn_format_shape (const gint64 *shape,
                     guint         n,
                     const char   *open,
                     const char   *close)
{
  GString *out = g_string_new (open);

  for (guint d = 0; d < n; d++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, d > 0 ? ", " : "", shape[d]);
  if (n == 1 && open[0] == '(')
    g_string_append_c (out, ',');
  g_string_append (out, close);
  return g_string_free (out, FALSE);
}

gboolean
gnn_nn_xavier_ (GnnTensor     *tensor,
                gboolean       normal,
                GnnGenerator  *generator,
                GError       **error)
{
  if (gnn_tensor_get_numel (tensor) == 0 || gnn_tensor_is_meta (tensor))
    return TRUE;
  return normal ? gnn_init_xavier_normal_ (tensor, 1.0, generator, error)
                : gnn_init_xavier_uniform_ (tensor, 1.0, generator, error);
}

GnnTensor *
gnn_nn_optional_tensor (GnnModule  *module,
                        const char *name)
{
  GObject *child = gnn_module_get_child (module, name, NULL);

  return child != NULL && GNN_IS_TENSOR (child) ? GNN_TENSOR (child) : NULL;
}

GnnValue *
gnn_nn_forward_with_indices (GnnModule            *module,
                             GnnValue             *args,
                             GnnValue             *kwargs,
                             gboolean              return_indices,
                             GnnNnIndicesForward   forward,
                             GError              **error)
{
  g_autofree char *function = g_strconcat (gnn_module_get_name (module), ".forward", NULL);
  g_autoptr(GnnTensor) indices = NULL;
  GnnTensor *input, *output;

  if (!gnn_args_parse (args, kwargs, function, error, "input", GNN_ARG_TENSOR, &input, NULL))
    return NULL;
  output = forward (module, input, return_indices ? &indices : NULL, error);
  if (output == NULL)
    return NULL;
  if (!return_indices)
    return gnn_value_take_tensor (output);
  return gnn_value_new_tuple_take (2, gnn_value_take_tensor (output),
                                   gnn_value_take_tensor (g_steal_pointer (&indices)));
}

GnnTensor *
gnn_nn_forward_without_indices (GnnModule            *module,
                                GnnTensor            *input,
                                gboolean              return_indices,
                                GnnNnIndicesForward   forward,
                                GError              **error)
{
  if (return_indices)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s(return_indices=True): a module call returns one tensor; call it with "
                   "gnn_module_call_args for the (output, indices) pair", gnn_module_get_name (module));
      return NULL;
    }
  return forward (module, input, NULL, error);
}
