/* gnn-value.c: GnnValue, the immutable argument and result values of a
 * module call
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <string.h>

#include "tensor/gnn-value-private.h"

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
 * Since: 0.1
 */

G_DEFINE_BOXED_TYPE (GnnValue, gnn_value, gnn_value_ref, gnn_value_unref)

static GnnValue *
value_alloc (GnnValueKind kind,
             gsize        n_items)
{
  GnnValue *self;

  if (gnn_value_is_sequence (kind))
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
 * Since: 0.1
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
