/* gnn-value.c: GnnValue, the immutable argument and result values of a
 * module call
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <string.h>

#include <gnn/gnn.h>

#include "core/gnn-format-private.h"

/**
 * GnnValue:
 *
 * One argument or result of a module call: `None`, a tensor, a boolean, an
 * integer, a double, a string, a tuple, a list, a dict with string keys,
 * or any other #GObject — what a PyTorch forward takes and returns
 * (libtorch's `IValue`). Tuples, lists and dicts nest, so an LSTM's
 * `(output, (h_n, c_n))` is one value.
 *
 * A value is refcounted ([method@Gnn.Value.ref], [method@Gnn.Value.unref],
 * `g_autoptr(GnnValue)`) and immutable once built: a hook that wants other
 * arguments builds a new tuple, and a value can be shared between threads
 * and kept by a hook without copying. Tensors and objects inside are held
 * by reference (the tensor itself, as in Python, not a copy).
 *
 * From C the `_take` builders nest in one expression, each taking the
 * values it is given:
 *
 * ```c
 * return gnn_value_new_tuple_take (2, gnn_value_take_tensor (g_steal_pointer (&output)),
 *                                  gnn_value_new_tuple_take (2, gnn_value_new_tensor (h),
 *                                                            gnn_value_new_tensor (c)));
 * ```
 *
 * Bindings use the array constructors and [method@Gnn.Value.get_items];
 * the Python override converts values to and from Python objects itself,
 * so Python code sees tuples, dicts and numbers, never a `Gnn.Value`.
 *
 * Why not #GValue, #GPtrArray or #GVariant: a #GValue is copied, not
 * shared, has no `None` (an empty object #GValue is indistinguishable from
 * "no value") and no tuple of #GValue that bindings convert; #GValueArray
 * is deprecated and bindings turn it into a list, losing tuple vs list;
 * a #GPtrArray carries no element type. A #GVariant is immutable and
 * nests, but cannot hold an object reference, so a tensor would have to
 * be serialized. One boxed type with one kind enum is introspectable as
 * is (arrays of boxed values and their kinds), shared by refcount, and
 * maps one to one onto Python's and JavaScript's values.
 *
 * Since: 1.0
 */

struct _GnnValue
{
  gatomicrefcount ref_count;
  GnnValueKind    kind;
  union
  {
    gboolean  b;
    gint64    i;
    double    d;
    char     *s;
    GObject  *object;      /* TENSOR, OBJECT */
    char    **keys;        /* DICT: n keys, then NULL (a strv for get_keys) */
  };
  gsize       n;           /* TUPLE, LIST, DICT: the number of items */
  GnnValue   *items[];     /* TUPLE, LIST, DICT: n values, allocated with the value */
};

G_DEFINE_BOXED_TYPE (GnnValue, gnn_value, gnn_value_ref, gnn_value_unref)

static gboolean
is_sequence (GnnValueKind kind)
{
  return kind == GNN_VALUE_TUPLE || kind == GNN_VALUE_LIST || kind == GNN_VALUE_DICT;
}

static GnnValue *
value_alloc (GnnValueKind kind,
             gsize        n_items)
{
  GnnValue *self;

  if (is_sequence (kind))
    {
      /* n_items pointers of a caller's array: cannot overflow a gsize. */
      self = g_malloc0 (sizeof (GnnValue) + n_items * sizeof (GnnValue *));
      self->n = n_items;
    }
  else
    self = g_new0 (GnnValue, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  return self;
}

/**
 * gnn_value_ref:
 * @self: a value
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_ref (GnnValue *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * gnn_value_unref:
 * @self: (transfer full): a value
 *
 * Drops a reference; the last one frees the value and releases what it
 * holds.
 *
 * Since: 1.0
 */
void
gnn_value_unref (GnnValue *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  switch (self->kind)
    {
    case GNN_VALUE_STRING:
      g_free (self->s);
      break;
    case GNN_VALUE_TENSOR:
    case GNN_VALUE_OBJECT:
      g_object_unref (self->object);
      break;
    case GNN_VALUE_TUPLE:
    case GNN_VALUE_LIST:
    case GNN_VALUE_DICT:
      for (gsize i = 0; i < self->n; i++)
        gnn_value_unref (self->items[i]);
      g_strfreev (self->keys);
      break;
    default:
      break;
    }
  g_free (self);
}

/* --- construction -------------------------------------------------------- */

/**
 * gnn_value_new_none:
 *
 * Creates Python's `None`.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_none (void)
{
  return value_alloc (GNN_VALUE_NONE, 0);
}

/**
 * gnn_value_new_tensor:
 * @tensor: (nullable): a tensor
 *
 * Creates a value holding a reference to @tensor; %NULL gives `None`
 * (an `Optional[Tensor]` result such as MultiheadAttention's weights).
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_tensor (GnnTensor *tensor)
{
  g_return_val_if_fail (tensor == NULL || GNN_IS_TENSOR (tensor), NULL);

  return gnn_value_take_tensor (tensor != NULL ? g_object_ref (tensor) : NULL);
}

/**
 * gnn_value_take_tensor: (skip)
 * @tensor: (transfer full) (nullable): a tensor
 *
 * Like [ctor@Gnn.Value.new_tensor], taking the caller's reference:
 * `gnn_value_take_tensor (g_steal_pointer (&output))`.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_take_tensor (GnnTensor *tensor)
{
  GnnValue *self;

  g_return_val_if_fail (tensor == NULL || GNN_IS_TENSOR (tensor), NULL);

  if (tensor == NULL)
    return gnn_value_new_none ();
  self = value_alloc (GNN_VALUE_TENSOR, 0);
  self->object = G_OBJECT (tensor);
  return self;
}

/**
 * gnn_value_new_bool:
 * @value: the boolean
 *
 * Creates a boolean value.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_bool (gboolean value)
{
  GnnValue *self = value_alloc (GNN_VALUE_BOOL, 0);

  self->b = value != FALSE;
  return self;
}

/**
 * gnn_value_new_int:
 * @value: the integer
 *
 * Creates an integer value.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_int (gint64 value)
{
  GnnValue *self = value_alloc (GNN_VALUE_INT, 0);

  self->i = value;
  return self;
}

/**
 * gnn_value_new_double:
 * @value: the number
 *
 * Creates a floating-point value.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_double (double value)
{
  GnnValue *self = value_alloc (GNN_VALUE_DOUBLE, 0);

  self->d = value;
  return self;
}

/**
 * gnn_value_new_string:
 * @value: (nullable): a UTF-8 string, copied
 *
 * Creates a string value; %NULL gives `None`.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_string (const char *value)
{
  GnnValue *self;

  if (value == NULL)
    return gnn_value_new_none ();
  self = value_alloc (GNN_VALUE_STRING, 0);
  self->s = g_strdup (value);
  return self;
}

/**
 * gnn_value_new_object:
 * @object: (nullable): an object
 *
 * Creates a value holding a reference to @object: a tensor gives a
 * %GNN_VALUE_TENSOR, %NULL gives `None`, anything else a
 * %GNN_VALUE_OBJECT.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_object (GObject *object)
{
  GnnValue *self;

  g_return_val_if_fail (object == NULL || G_IS_OBJECT (object), NULL);

  if (object == NULL)
    return gnn_value_new_none ();
  if (GNN_IS_TENSOR (object))
    return gnn_value_new_tensor (GNN_TENSOR (object));
  self = value_alloc (GNN_VALUE_OBJECT, 0);
  self->object = g_object_ref (object);
  return self;
}

static GnnValue *
new_sequence (GnnValueKind      kind,
              GnnValue * const *items,
              gsize             n_items)
{
  GnnValue *self;

  for (gsize i = 0; i < n_items; i++)
    g_return_val_if_fail (items[i] != NULL, NULL);
  self = value_alloc (kind, n_items);
  for (gsize i = 0; i < n_items; i++)
    self->items[i] = gnn_value_ref (items[i]);
  return self;
}

/**
 * gnn_value_new_tuple:
 * @items: (array length=n_items) (nullable): the items, each referenced
 * @n_items: the number of @items
 *
 * Creates a tuple of @items.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_tuple (GnnValue * const *items,
                     gsize             n_items)
{
  g_return_val_if_fail (items != NULL || n_items == 0, NULL);

  return new_sequence (GNN_VALUE_TUPLE, items, n_items);
}

/**
 * gnn_value_new_tensor_tuple:
 * @tensors: (array length=n_tensors) (nullable): the tensors, each
 *   referenced; a %NULL one stands for `None`
 * @n_tensors: the number of @tensors
 *
 * Creates a tuple of tensors, the common arguments and results of a
 * forward: `gnn_value_new_tensor_tuple ((GnnTensor *[]) { output, h_n }, 2)`.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_tensor_tuple (GnnTensor * const *tensors,
                            gsize              n_tensors)
{
  GnnValue *self;

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  for (gsize i = 0; i < n_tensors; i++)
    g_return_val_if_fail (tensors[i] == NULL || GNN_IS_TENSOR (tensors[i]), NULL);

  self = value_alloc (GNN_VALUE_TUPLE, n_tensors);
  for (gsize i = 0; i < n_tensors; i++)
    self->items[i] = gnn_value_new_tensor (tensors[i]);
  return self;
}

/**
 * gnn_value_new_list:
 * @items: (array length=n_items) (nullable): the items, each referenced
 * @n_items: the number of @items
 *
 * Creates a list of @items.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_list (GnnValue * const *items,
                    gsize             n_items)
{
  g_return_val_if_fail (items != NULL || n_items == 0, NULL);

  return new_sequence (GNN_VALUE_LIST, items, n_items);
}

/* A dict from @n pairs, taking the values; a repeated key keeps its first
 * position and its last value, as Python's dict() of pairs does. */
static GnnValue *
dict_take (const char * const *keys,
           GnnValue          **values,
           gsize               n)
{
  GnnValue *self = value_alloc (GNN_VALUE_DICT, n);
  gsize len = 0;

  self->keys = g_new0 (char *, n + 1);
  for (gsize i = 0; i < n; i++)
    {
      gsize j;

      for (j = 0; j < len; j++)
        if (strcmp (self->keys[j], keys[i]) == 0)
          break;
      if (j < len)
        {
          gnn_value_unref (self->items[j]);
          self->items[j] = values[i];
          continue;
        }
      self->keys[len] = g_strdup (keys[i]);
      self->items[len++] = values[i];
    }
  self->n = len;
  return self;
}

/**
 * gnn_value_new_dict:
 * @keys: (array length=n_items) (nullable): the keys, UTF-8 strings
 * @values: (array length=n_items) (nullable): the value of each key, each
 *   referenced
 * @n_items: the number of @keys and @values
 *
 * Creates a dict mapping each key to its value, in the order given; a key
 * given twice keeps its first position and takes its last value, as
 * Python's `dict()` of pairs.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_dict (const char * const *keys,
                    GnnValue * const   *values,
                    gsize               n_items)
{
  g_autofree GnnValue **taken = NULL;

  g_return_val_if_fail ((keys != NULL && values != NULL) || n_items == 0, NULL);
  for (gsize i = 0; i < n_items; i++)
    {
      g_return_val_if_fail (keys[i] != NULL, NULL);
      g_return_val_if_fail (values[i] != NULL, NULL);
    }

  taken = g_new (GnnValue *, n_items + 1);
  for (gsize i = 0; i < n_items; i++)
    taken[i] = gnn_value_ref (values[i]);
  return dict_take (keys, taken, n_items);
}

static GnnValue *
sequence_take_va (GnnValueKind kind,
                  gsize        n_items,
                  va_list      ap)
{
  GnnValue *self = value_alloc (kind, n_items);

  for (gsize i = 0; i < n_items; i++)
    {
      GnnValue *item = va_arg (ap, GnnValue *);

      self->items[i] = item != NULL ? item : gnn_value_new_none ();
    }
  return self;
}

/**
 * gnn_value_new_tuple_take: (skip)
 * @n_items: the number of items that follow
 * @...: @n_items `GnnValue *`, each taken (transfer full); %NULL stands for
 *   `None`
 *
 * Creates a tuple of the values that follow, taking them: the builder
 * for C, where a whole nested result is one expression.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_tuple_take (gsize n_items,
                          ...)
{
  GnnValue *self;
  va_list ap;

  va_start (ap, n_items);
  self = sequence_take_va (GNN_VALUE_TUPLE, n_items, ap);
  va_end (ap);
  return self;
}

/**
 * gnn_value_new_list_take: (skip)
 * @n_items: the number of items that follow
 * @...: @n_items `GnnValue *`, each taken (transfer full); %NULL stands for
 *   `None`
 *
 * Creates a list of the values that follow, taking them.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_list_take (gsize n_items,
                         ...)
{
  GnnValue *self;
  va_list ap;

  va_start (ap, n_items);
  self = sequence_take_va (GNN_VALUE_LIST, n_items, ap);
  va_end (ap);
  return self;
}

/**
 * gnn_value_new_dict_take: (skip)
 * @first_key: (nullable): the first key, or %NULL for an empty dict
 * @...: its value (a `GnnValue *`, taken; %NULL stands for `None`), then
 *   more key, value pairs, ending with a %NULL key
 *
 * Creates a dict of the pairs that follow, taking the values:
 * `gnn_value_new_dict_take ("need_weights", gnn_value_new_bool (FALSE), NULL)`.
 *
 * Returns: (transfer full): a new value
 *
 * Since: 1.0
 */
GnnValue *
gnn_value_new_dict_take (const char *first_key,
                         ...)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  const char *key = first_key;
  va_list ap;

  va_start (ap, first_key);
  while (key != NULL)
    {
      GnnValue *value = va_arg (ap, GnnValue *);

      g_ptr_array_add (keys, (gpointer) key);
      g_ptr_array_add (values, value != NULL ? value : gnn_value_new_none ());
      key = va_arg (ap, const char *);
    }
  va_end (ap);
  return dict_take ((const char * const *) keys->pdata, (GnnValue **) values->pdata, keys->len);
}

/* --- reading ------------------------------------------------------------- */

/**
 * gnn_value_get_kind:
 * @self: a value
 *
 * Tells what @self holds.
 *
 * Returns: the kind of @self
 *
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
 */
gsize
gnn_value_get_length (const GnnValue *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return is_sequence (self->kind) ? self->n : 0;
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
 * Since: 1.0
 */
GnnValue *
gnn_value_get_item (const GnnValue *self,
                    gsize           index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (is_sequence (self->kind), NULL);
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
 * Since: 1.0
 */
GnnValue **
gnn_value_get_items (const GnnValue *self,
                     gsize          *n_items)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_items != NULL, NULL);

  if (!is_sequence (self->kind))
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
