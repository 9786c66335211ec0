/* gnn-value-read.c: reading GnnValues: kinds, accessors, equality, repr
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-value-private.h"
#include "core/gnn-format-private.h"

/**
 * gnn_value_get_kind:
 * @self: a value
 *
 * Tells what @self holds.
 *
 * Returns: the kind of @self
 *
 * Since: 0.1
 */
GnnValueKind
gnn_value_get_kind (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, GNN_VALUE_NONE);

  return self->kind;
}

/**
 * gnn_value_get_type_name:
 * @self: a value
 *
 * Returns the name Python would print for the type of @self, as argument
 * errors do ("must be Tensor, not tuple"): `NoneType`, `Tensor`, `bool`,
 * `int`, `float`, `str`, `tuple`, `list`, `dict`, or for an object its
 * class name as [method@Gnn.Module.get_name] prints it (`Sequential` for a
 * #GnnSequential, `Net` for a Python class `Net`).
 *
 * Returns: (transfer none): the type name
 *
 * Since: 0.1
 */
const char *
gnn_value_get_type_name (const GnnValue *self)
{
  static const char *const names[] = {
    [GNN_VALUE_NONE] = "NoneType", [GNN_VALUE_TENSOR] = "Tensor", [GNN_VALUE_BOOL] = "bool",
    [GNN_VALUE_INT] = "int", [GNN_VALUE_DOUBLE] = "float", [GNN_VALUE_STRING] = "str",
    [GNN_VALUE_TUPLE] = "tuple", [GNN_VALUE_LIST] = "list", [GNN_VALUE_DICT] = "dict",
  };

  g_return_val_if_fail (self != NULL, NULL);

  if (self->kind == GNN_VALUE_OBJECT)
    return gnn_format_type_name (G_OBJECT_TYPE (self->object));
  return names[self->kind];
}

/**
 * gnn_value_is_none:
 * @self: a value
 *
 * Tells whether @self is `None`.
 *
 * Returns: whether @self is `None`
 *
 * Since: 0.1
 */
gboolean
gnn_value_is_none (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->kind == GNN_VALUE_NONE;
}

/**
 * gnn_value_get_tensor:
 * @self: a value
 *
 * Returns the tensor of a %GNN_VALUE_TENSOR, and %NULL for any other kind
 * (`None` included), so an `Optional[Tensor]` reads in one call.
 *
 * Returns: (transfer none) (nullable): the tensor, or %NULL
 *
 * Since: 0.1
 */
GnnTensor *
gnn_value_get_tensor (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->kind == GNN_VALUE_TENSOR ? GNN_TENSOR (self->object) : NULL;
}

/**
 * gnn_value_get_bool:
 * @self: a %GNN_VALUE_BOOL value
 *
 * Reads a boolean; another kind is a programming error.
 *
 * Returns: the boolean
 *
 * Since: 0.1
 */
gboolean
gnn_value_get_bool (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->kind == GNN_VALUE_BOOL, FALSE);

  return self->b;
}

/**
 * gnn_value_get_int:
 * @self: a %GNN_VALUE_INT or %GNN_VALUE_BOOL value (a Python `bool` is an
 *   `int`)
 *
 * Reads an integer; another kind is a programming error.
 *
 * Returns: the integer
 *
 * Since: 0.1
 */
gint64
gnn_value_get_int (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (self->kind == GNN_VALUE_INT || self->kind == GNN_VALUE_BOOL, 0);

  return self->kind == GNN_VALUE_INT ? self->i : self->b;
}

/**
 * gnn_value_get_double:
 * @self: a %GNN_VALUE_DOUBLE, %GNN_VALUE_INT or %GNN_VALUE_BOOL value
 *
 * Returns the number as a double (an integer converts, as Python accepts
 * an `int` where a `float` is expected).
 *
 * Returns: the number
 *
 * Since: 0.1
 */
double
gnn_value_get_double (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, 0.0);

  switch (self->kind)
    {
    case GNN_VALUE_DOUBLE: return self->d;
    case GNN_VALUE_INT: return (double) self->i;
    case GNN_VALUE_BOOL: return self->b;
    default:
      g_return_val_if_reached (0.0);
    }
}

/**
 * gnn_value_get_string:
 * @self: a value
 *
 * Reads a string.
 *
 * Returns: (transfer none) (nullable): the string of a %GNN_VALUE_STRING,
 *   %NULL for any other kind
 *
 * Since: 0.1
 */
const char *
gnn_value_get_string (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->kind == GNN_VALUE_STRING ? self->s : NULL;
}

/**
 * gnn_value_get_object:
 * @self: a value
 *
 * Reads an object (a tensor is one too).
 *
 * Returns: (transfer none) (nullable): the object of a %GNN_VALUE_OBJECT
 *   or the tensor of a %GNN_VALUE_TENSOR, %NULL for any other kind
 *
 * Since: 0.1
 */
GObject *
gnn_value_get_object (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->kind == GNN_VALUE_OBJECT || self->kind == GNN_VALUE_TENSOR ? self->object : NULL;
}

/**
 * gnn_value_get_length:
 * @self: a value
 *
 * Counts the items of a tuple, list or dict.
 *
 * Returns: the number of items of a tuple, list or dict; 0 for any other
 *   kind
 *
 * Since: 0.1
 */
gsize
gnn_value_get_length (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return gnn_value_is_sequence (self->kind) ? self->n : 0;
}

/**
 * gnn_value_get_item:
 * @self: a tuple, list or dict
 * @index: a position, below [method@Gnn.Value.get_length]
 *
 * Returns the item at @index (for a dict, the value of the @index-th key).
 *
 * Returns: (transfer none): the item
 *
 * Since: 0.1
 */
GnnValue *
gnn_value_get_item (const GnnValue *self,
                    gsize           index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (gnn_value_is_sequence (self->kind), NULL);
  g_return_val_if_fail (index < self->n, NULL);

  return self->items[index];
}

/**
 * gnn_value_get_items:
 * @self: a value
 * @n_items: (out): the number of items
 *
 * Returns the items of a tuple or list, or the values of a dict in key
 * order; no items for any other kind.
 *
 * Returns: (transfer none) (array length=n_items): the items, owned by
 *   @self
 *
 * Since: 0.1
 */
GnnValue **
gnn_value_get_items (const GnnValue *self,
                     gsize          *n_items)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_items != NULL, NULL);

  if (!gnn_value_is_sequence (self->kind))
    {
      *n_items = 0;
      return NULL;
    }
  *n_items = self->n;
  return (GnnValue **) self->items;
}

/**
 * gnn_value_get_tensors:
 * @self: a value
 * @n_tensors: (out): the number of tensors
 *
 * Returns the tensors of a tuple or list whose items are all tensors (the
 * common arguments of a forward, read in one call by a binding).
 *
 * Returns: (transfer container) (array length=n_tensors) (nullable): the
 *   tensors, which belong to @self, in an array to free with g_free();
 *   %NULL (and 0) if @self is not such a tuple or list, or is empty
 *
 * Since: 0.1
 */
GnnTensor **
gnn_value_get_tensors (const GnnValue *self,
                       gsize          *n_tensors)
{
  GnnTensor **tensors;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_tensors != NULL, NULL);

  *n_tensors = 0;
  if ((self->kind != GNN_VALUE_TUPLE && self->kind != GNN_VALUE_LIST) || self->n == 0)
    return NULL;
  for (gsize i = 0; i < self->n; i++)
    if (self->items[i]->kind != GNN_VALUE_TENSOR)
      return NULL;
  tensors = g_new (GnnTensor *, self->n);
  for (gsize i = 0; i < self->n; i++)
    tensors[i] = GNN_TENSOR (self->items[i]->object);
  *n_tensors = self->n;
  return tensors;
}

/**
 * gnn_value_get_key:
 * @self: a dict
 * @index: a position, below [method@Gnn.Value.get_length]
 *
 * Reads a key of a dict by position.
 *
 * Returns: (transfer none): the @index-th key
 *
 * Since: 0.1
 */
const char *
gnn_value_get_key (const GnnValue *self,
                   gsize           index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->kind == GNN_VALUE_DICT, NULL);
  g_return_val_if_fail (index < self->n, NULL);

  return self->keys[index];
}

/**
 * gnn_value_get_keys:
 * @self: a value
 * @n_keys: (out) (optional): the number of keys
 *
 * Returns the keys of a dict in order; none for any other kind.
 *
 * Returns: (transfer none) (array length=n_keys) (nullable): the keys,
 *   %NULL-terminated, owned by @self
 *
 * Since: 0.1
 */
const char **
gnn_value_get_keys (const GnnValue *self,
                    gsize          *n_keys)
{
  static const char *no_keys[] = { NULL };

  g_return_val_if_fail (self != NULL, NULL);

  if (self->kind != GNN_VALUE_DICT)
    {
      if (n_keys != NULL)
        *n_keys = 0;
      return no_keys;
    }
  if (n_keys != NULL)
    *n_keys = self->n;
  return (const char **) self->keys;
}

/**
 * gnn_value_lookup:
 * @self: a dict
 * @key: a key
 *
 * Looks @key up (a linear search: keyword dicts are small).
 *
 * Returns: (transfer none) (nullable): the value of @key, or %NULL if
 *   @self has no such key
 *
 * Since: 0.1
 */
GnnValue *
gnn_value_lookup (const GnnValue *self,
                  const char     *key)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->kind == GNN_VALUE_DICT, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (gsize i = 0; i < self->n; i++)
    if (strcmp (self->keys[i], key) == 0)
      return self->items[i];
  return NULL;
}

/**
 * gnn_value_equal:
 * @a: a value
 * @b: another value
 *
 * Compares structurally: same kind, equal numbers and strings, the same
 * tensor or object (by identity, not by contents), sequences item by item
 * and dicts key by key in order. A double NaN equals nothing.
 *
 * Returns: whether @a equals @b
 *
 * Since: 0.1
 */
gboolean
gnn_value_equal (const GnnValue *a,
                 const GnnValue *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  if (a == b)
    return TRUE;
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case GNN_VALUE_NONE: return TRUE;
    case GNN_VALUE_BOOL: return a->b == b->b;
    case GNN_VALUE_INT: return a->i == b->i;
    case GNN_VALUE_DOUBLE: return a->d == b->d;
    case GNN_VALUE_STRING: return strcmp (a->s, b->s) == 0;
    case GNN_VALUE_TENSOR:
    case GNN_VALUE_OBJECT: return a->object == b->object;
    case GNN_VALUE_TUPLE:
    case GNN_VALUE_LIST:
    case GNN_VALUE_DICT:
      if (a->n != b->n)
        return FALSE;
      for (gsize i = 0; i < a->n; i++)
        if ((a->kind == GNN_VALUE_DICT && strcmp (a->keys[i], b->keys[i]) != 0) ||
            !gnn_value_equal (a->items[i], b->items[i]))
          return FALSE;
      return TRUE;
    default:
      return FALSE;
    }
}

static void
append_quoted (GString    *out,
               const char *s)
{
  /* Python's repr: single quotes unless the text has one and no double. */
  char quote = strchr (s, '\'') != NULL && strchr (s, '"') == NULL ? '"' : '\'';

  g_string_append_c (out, quote);
  for (; *s != '\0'; s++)
    {
      if (*s == '\\' || *s == quote)
        g_string_append_c (out, '\\');
      if (*s == '\n')
        g_string_append (out, "\\n");
      else if (*s == '\t')
        g_string_append (out, "\\t");
      else
        g_string_append_c (out, *s);
    }
  g_string_append_c (out, quote);
}

static void
append_repr (GString        *out,
             const GnnValue *self)
{
  switch (self->kind)
    {
    case GNN_VALUE_NONE:
      g_string_append (out, "None");
      break;
    case GNN_VALUE_BOOL:
      g_string_append (out, self->b ? "True" : "False");
      break;
    case GNN_VALUE_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, self->i);
      break;
    case GNN_VALUE_DOUBLE:
      {
        g_autofree char *text = gnn_format_double_shortest (self->d);

        g_string_append (out, text);
        /* Python prints a float with a point: 1.0, 1e+20 */
        if (strspn (text, "-0123456789") == strlen (text))
          g_string_append (out, ".0");
      }
      break;
    case GNN_VALUE_STRING:
      append_quoted (out, self->s);
      break;
    case GNN_VALUE_TENSOR:
      {
        g_autofree char *text = gnn_tensor_to_string (GNN_TENSOR (self->object));

        g_string_append (out, text);
      }
      break;
    case GNN_VALUE_OBJECT:
      g_string_append_printf (out, "<%s object at %p>", G_OBJECT_TYPE_NAME (self->object),
                              (void *) self->object);
      break;
    case GNN_VALUE_TUPLE:
    case GNN_VALUE_LIST:
    case GNN_VALUE_DICT:
      g_string_append_c (out, self->kind == GNN_VALUE_TUPLE ? '(' :
                              self->kind == GNN_VALUE_LIST ? '[' : '{');
      for (gsize i = 0; i < self->n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (self->kind == GNN_VALUE_DICT)
            {
              append_quoted (out, self->keys[i]);
              g_string_append (out, ": ");
            }
          append_repr (out, self->items[i]);
        }
      if (self->kind == GNN_VALUE_TUPLE && self->n == 1)
        g_string_append_c (out, ',');
      g_string_append_c (out, self->kind == GNN_VALUE_TUPLE ? ')' :
                              self->kind == GNN_VALUE_LIST ? ']' : '}');
      break;
    default:
      g_assert_not_reached ();
    }
}

/**
 * gnn_value_to_string:
 * @self: a value
 *
 * Formats @self as Python's `repr()` would: `(tensor([1., 2.]), None)`,
 * `{'need_weights': False}`, `1.0`, `'mean'`.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
gnn_value_to_string (const GnnValue *self)
{
  GString *out;

  g_return_val_if_fail (self != NULL, NULL);

  out = g_string_new (NULL);
  append_repr (out, self);
  return g_string_free (out, FALSE);
}
