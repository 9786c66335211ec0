/* gnn-args.c: parsing a forward's arguments the way Python binds them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gnn/gnn.h>

#define KIND_MASK 0xff

typedef struct
{
  const char *name;
  int         spec;     /* GnnArgKind | flags */
  gpointer    out;
  GnnValue   *value;    /* the argument bound to it, or NULL */
  gboolean    keyword;  /* bound by keyword */
} Param;

static const char *
kind_name (int kind)
{
  static const char *const names[] = {
    [GNN_ARG_TENSOR] = "Tensor", [GNN_ARG_BOOL] = "bool", [GNN_ARG_INT] = "int",
    [GNN_ARG_DOUBLE] = "float", [GNN_ARG_STRING] = "str", [GNN_ARG_OBJECT] = "GObject",
    [GNN_ARG_VALUE] = "object",
  };

  return names[kind];
}

static gboolean
kind_accepts (int             kind,
              const GnnValue *value)
{
  GnnValueKind v = gnn_value_get_kind (value);

  switch (kind)
    {
    case GNN_ARG_TENSOR: return v == GNN_VALUE_TENSOR;
    case GNN_ARG_BOOL: return v == GNN_VALUE_BOOL;
    case GNN_ARG_INT: return v == GNN_VALUE_INT || v == GNN_VALUE_BOOL;
    case GNN_ARG_DOUBLE: return v == GNN_VALUE_DOUBLE || v == GNN_VALUE_INT || v == GNN_VALUE_BOOL;
    case GNN_ARG_STRING: return v == GNN_VALUE_STRING;
    case GNN_ARG_OBJECT: return v == GNN_VALUE_OBJECT || v == GNN_VALUE_TENSOR;
    case GNN_ARG_VALUE: return TRUE;
    default: return FALSE;
    }
}

static void
store (Param *p)
{
  int kind = p->spec & KIND_MASK;
  gboolean none = p->value != NULL && gnn_value_is_none (p->value);

  if (p->value == NULL || none)
    {
      /* Left out, or None where it is allowed: pointers get NULL (a left
       * out tensor or value defaults to None), numbers and strings keep
       * the caller's default. */
      if (kind == GNN_ARG_TENSOR || kind == GNN_ARG_VALUE || kind == GNN_ARG_OBJECT ||
          (none && kind == GNN_ARG_STRING))
        *(gpointer *) p->out = NULL;
      return;
    }
  switch (kind)
    {
    case GNN_ARG_TENSOR: *(GnnTensor **) p->out = gnn_value_get_tensor (p->value); break;
    case GNN_ARG_BOOL: *(gboolean *) p->out = gnn_value_get_bool (p->value); break;
    case GNN_ARG_INT: *(gint64 *) p->out = gnn_value_get_int (p->value); break;
    case GNN_ARG_DOUBLE: *(double *) p->out = gnn_value_get_double (p->value); break;
    case GNN_ARG_STRING: *(const char **) p->out = gnn_value_get_string (p->value); break;
    case GNN_ARG_OBJECT: *(GObject **) p->out = gnn_value_get_object (p->value); break;
    case GNN_ARG_VALUE: *(GnnValue **) p->out = p->value; break;
    default: g_assert_not_reached ();
    }
}

/* CPython's too_many_positional(): a method counts `self`. */
static void
set_too_many (GError    **error,
              const char *function,
              guint       self_count,
              guint       n_params,
              guint       n_required,
              gsize       n_given)
{
  g_autofree char *sig = NULL;
  gboolean plural;
  gsize given = n_given + self_count;

  if (n_required < n_params)
    {
      sig = g_strdup_printf ("from %u to %u", n_required + self_count, n_params + self_count);
      plural = TRUE;
    }
  else
    {
      sig = g_strdup_printf ("%u", n_params + self_count);
      plural = n_params + self_count != 1;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s() takes %s positional argument%s but %" G_GSIZE_FORMAT " %s given",
               function, sig, plural ? "s" : "", given, given == 1 ? "was" : "were");
}

/* CPython's missing_arguments(): 'a'; 'a' and 'b'; 'a', 'b', and 'c'. */
static void
set_missing (GError    **error,
             const char *function,
             Param      *params,
             guint       n_params)
{
  g_autoptr(GString) names = g_string_new (NULL);
  guint n_missing = 0, seen = 0;

  for (guint i = 0; i < n_params; i++)
    if (params[i].value == NULL && !(params[i].spec & GNN_ARG_OPTIONAL))
      n_missing++;
  for (guint i = 0; i < n_params; i++)
    {
      if (params[i].value != NULL || (params[i].spec & GNN_ARG_OPTIONAL))
        continue;
      if (seen > 0)
        g_string_append (names, n_missing == 2 ? " and " : seen == n_missing - 1 ? ", and " : ", ");
      g_string_append_printf (names, "'%s'", params[i].name);
      seen++;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s() missing %u required positional argument%s: %s",
               function, n_missing, n_missing == 1 ? "" : "s", names->str);
}

/**
 * gnn_args_parse_valist: (skip)
 * @args: (nullable): the positional arguments, a tuple (%NULL: none)
 * @kwargs: (nullable): the keyword arguments, a dict (%NULL: none)
 * @function: the name errors print, `"MultiheadAttention.forward"`; a name
 *   with a dot is a method, and counts `self` as Python does
 * @error: return location for a #GError
 * @first_name: the first parameter's name
 * @ap: its #GnnArgKind and variable address, then more triples, ending
 *   with a %NULL name
 *
 * [func@Gnn.args_parse] with a `va_list`.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_args_parse_valist (GnnValue    *args,
                       GnnValue    *kwargs,
                       const char  *function,
                       GError     **error,
                       const char  *first_name,
                       va_list      ap)
{
  Param params[GNN_ARGS_MAX];
  guint n_params = 0, n_required = 0, self_count;
  gsize n_given = 0;
  const char *name = first_name;

  g_return_val_if_fail (args == NULL || gnn_value_get_kind (args) == GNN_VALUE_TUPLE, FALSE);
  g_return_val_if_fail (kwargs == NULL || gnn_value_get_kind (kwargs) == GNN_VALUE_DICT, FALSE);
  g_return_val_if_fail (function != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (; name != NULL; name = va_arg (ap, const char *))
    {
      Param *p = &params[n_params];

      g_return_val_if_fail (n_params < GNN_ARGS_MAX, FALSE);
      p->name = name;
      p->spec = va_arg (ap, int);
      p->out = va_arg (ap, gpointer);
      p->value = NULL;
      p->keyword = FALSE;
      g_return_val_if_fail ((p->spec & KIND_MASK) <= GNN_ARG_VALUE, FALSE);
      g_return_val_if_fail (p->out != NULL, FALSE);
      if (!(p->spec & GNN_ARG_OPTIONAL))
        {
          /* Python: a parameter without a default cannot follow one with. */
          g_return_val_if_fail (n_required == n_params, FALSE);
          n_required++;
        }
      n_params++;
    }
  self_count = strchr (function, '.') != NULL ? 1 : 0;

  /* Bind as CPython does: positionals in order, then each keyword; then
   * too many positionals, then the missing ones. */
  if (args != NULL)
    n_given = gnn_value_get_length (args);
  for (guint i = 0; i < n_params && i < n_given; i++)
    params[i].value = gnn_value_get_item (args, i);
  for (gsize k = 0; kwargs != NULL && k < gnn_value_get_length (kwargs); k++)
    {
      const char *key = gnn_value_get_key (kwargs, k);
      guint i;

      for (i = 0; i < n_params; i++)
        if (strcmp (params[i].name, key) == 0)
          break;
      if (i == n_params)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "%s() got an unexpected keyword argument '%s'", function, key);
          return FALSE;
        }
      if (params[i].value != NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "%s() got multiple values for argument '%s'", function, key);
          return FALSE;
        }
      params[i].value = gnn_value_get_item (kwargs, k);
      params[i].keyword = TRUE;
    }
  if (n_given > n_params)
    {
      set_too_many (error, function, self_count, n_params, n_required, n_given);
      return FALSE;
    }
  for (guint i = 0; i < n_required; i++)
    if (params[i].value == NULL)
      {
        set_missing (error, function, params, n_params);
        return FALSE;
      }

  /* Types (torch's argument parser words them), before anything is
   * written: on failure the variables are untouched. */
  for (guint i = 0; i < n_params; i++)
    {
      Param *p = &params[i];
      int kind = p->spec & KIND_MASK;

      if (p->value == NULL || kind_accepts (kind, p->value) ||
          (gnn_value_is_none (p->value) && (p->spec & GNN_ARG_NULLABLE)))
        continue;
      if (p->keyword)
        g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                     "%s(): argument '%s' must be %s, not %s", function, p->name,
                     kind_name (kind), gnn_value_get_type_name (p->value));
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                     "%s(): argument '%s' (position %u) must be %s, not %s", function, p->name,
                     i + 1, kind_name (kind), gnn_value_get_type_name (p->value));
      return FALSE;
    }
  for (guint i = 0; i < n_params; i++)
    store (&params[i]);
  return TRUE;
}

/**
 * gnn_args_parse: (skip)
 * @args: (nullable): the positional arguments, a tuple (%NULL: none)
 * @kwargs: (nullable): the keyword arguments, a dict (%NULL: none)
 * @function: the name errors print, `"MultiheadAttention.forward"`; a name
 *   with a dot is a method, and counts `self` as Python does
 * @error: return location for a #GError
 * @first_name: the first parameter's name
 * @...: its #GnnArgKind and the address of its variable, then more
 *   name, kind, address triples, ending with a %NULL name
 *
 * Binds @args and @kwargs to parameters the way Python binds a call to
 * `def forward(self, name, ...)`, for a [vfunc@Gnn.Module.forward_args]
 * written in C:
 *
 * ```c
 * GnnTensor *query, *key, *value, *key_padding_mask = NULL;
 * gboolean need_weights = TRUE;
 *
 * if (!gnn_args_parse (args, kwargs, "MultiheadAttention.forward", error,
 *                      "query", GNN_ARG_TENSOR, &query,
 *                      "key", GNN_ARG_TENSOR, &key,
 *                      "value", GNN_ARG_TENSOR, &value,
 *                      "key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &key_padding_mask,
 *                      "need_weights", GNN_ARG_BOOL | GNN_ARG_OPTIONAL, &need_weights,
 *                      NULL))
 *   return NULL;
 * ```
 *
 * Each parameter is a name, a #GnnArgKind (with %GNN_ARG_OPTIONAL for a
 * parameter with a default, which must come after the required ones, and
 * %GNN_ARG_NULLABLE where `None` is accepted) and the address of a
 * variable of the kind's C type. The variables receive borrowed pointers
 * (tensors, strings, objects, values), valid while @args and @kwargs live;
 * an optional argument left out leaves its variable at its default.
 *
 * Errors are %GNN_ERROR_TYPE with Python's and torch's words:
 * `forward() missing 1 required positional argument: 'value'`,
 * `forward() takes from 4 to 9 positional arguments but 10 were given`,
 * `forward() got an unexpected keyword argument 'mask'`,
 * `forward() got multiple values for argument 'key'`,
 * `forward(): argument 'need_weights' (position 5) must be bool, not Tensor`
 * (`argument 'need_weights' must be bool, not Tensor` when given by
 * keyword). On failure no variable is written.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_args_parse (GnnValue    *args,
                GnnValue    *kwargs,
                const char  *function,
                GError     **error,
                const char  *first_name,
                ...)
{
  gboolean ok;
  va_list ap;

  va_start (ap, first_name);
  ok = gnn_args_parse_valist (args, kwargs, function, error, first_name, ap);
  va_end (ap);
  return ok;
}
