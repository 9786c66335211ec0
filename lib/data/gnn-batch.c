/* gnn-batch.c: a named, typed batch (or item) of tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "data/gnn-data-private.h"

/**
 * GnnBatch:
 *
 * A batch — or one item of a dataset — as its fields: tensors, each with an
 * optional name, and a [enum@Gnn.BatchKind] saying what value it stands for
 * (a tuple, a dict with unique keys in their order, or one bare tensor), so
 * that a batch of dict items reads by key (`batch["image"]`) in C, GJS and
 * Python alike. Collation ([method@Gnn.Collate.collate_batch]) keeps the
 * items' names and kind; the data loader carries them from its workers
 * (threads or processes) to [method@Gnn.DataLoaderIter.next_batch].
 *
 * A batch is immutable and refcounted ([method@Gnn.Batch.ref],
 * [method@Gnn.Batch.unref]); it holds a reference to each tensor.
 *
 * Since: 0.1
 */
struct _GnnBatch
{
  gatomicrefcount ref_count;
  GnnBatchKind    kind;
  guint           n_fields;
  GnnTensor     **tensors;
  char          **names;     /* NULL (no names) or n_fields names and a NULL */
};

G_DEFINE_BOXED_TYPE (GnnBatch, gnn_batch, gnn_batch_ref, gnn_batch_unref)

/* Whether @names (NULL-terminated, or NULL) can name @n_fields fields of a
 * batch of @kind: as many names as fields, UTF-8, unique; a dict needs
 * them, a bare batch has none. */
static gboolean
check_layout (GnnBatchKind        kind,
              const char * const *names,
              guint               n_fields,
              GError            **error)
{
  g_autoptr(GHashTable) seen = NULL;
  guint n_names = names != NULL ? g_strv_length ((char **) names) : 0;

  if (kind == GNN_BATCH_KIND_BARE && (n_fields != 1 || names != NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "GnnBatch: a bare batch has one unnamed field, not %u field%s%s", n_fields,
                   n_fields == 1 ? "" : "s", names != NULL ? " with names" : "");
      return FALSE;
    }
  if (kind == GNN_BATCH_KIND_DICT && names == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "GnnBatch: a dict batch needs a name for each field");
      return FALSE;
    }
  if (names == NULL)
    return TRUE;
  if (n_names != n_fields)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "GnnBatch: %u names for %u fields", n_names, n_fields);
      return FALSE;
    }
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n_names; i++)
    {
      if (!g_utf8_validate (names[i], -1, NULL))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "GnnBatch: the name of field %u is not UTF-8", i);
          return FALSE;
        }
      gpointer first;

      if (g_hash_table_lookup_extended (seen, names[i], NULL, &first))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "GnnBatch: duplicate field name '%s' (fields %u and %u)", names[i],
                       GPOINTER_TO_UINT (first), i);
          return FALSE;
        }
      g_hash_table_insert (seen, (gpointer) names[i], GUINT_TO_POINTER (i));
    }
  return TRUE;
}

GnnBatch *
gnn_batch_new_take (GnnBatchKind   kind,
                    char         **names,
                    GPtrArray     *tensors)
{
  GnnBatch *self = g_new (GnnBatch, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->n_fields = tensors->len;
  g_ptr_array_set_free_func (tensors, NULL);
  self->tensors = (GnnTensor **) g_ptr_array_free (tensors, FALSE);
  self->names = names;
  return self;
}

static GnnBatch *
batch_new_checked (GnnBatchKind         kind,
                   const char * const  *names,
                   GPtrArray           *tensors,
                   GError             **error)
{
  GPtrArray *copy;

  g_return_val_if_fail (tensors != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  for (guint i = 0; i < tensors->len; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (g_ptr_array_index (tensors, i)), NULL);
  if (tensors->len > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "GnnBatch: %u fields are more than %d", tensors->len, G_MAXINT);
      return NULL;
    }
  if (!check_layout (kind, names, tensors->len, error))
    return NULL;
  copy = g_ptr_array_copy (tensors, (GCopyFunc) (void (*) (void)) g_object_ref, NULL);
  return gnn_batch_new_take (kind, g_strdupv ((char **) names), copy);
}

/**
 * gnn_batch_new:
 * @kind: what the batch stands for
 * @names: (array zero-terminated=1) (nullable): a name for each field, or
 *   %NULL for positional fields (a dict needs names; a bare batch has none)
 * @tensors: (element-type Gnn.Tensor): the fields
 * @error: return location for a #GError
 *
 * Creates a batch of @tensors (referenced, not copied). Names must be
 * unique UTF-8 strings, as many as the fields.
 *
 * Returns: (transfer full) (nullable): the batch, or %NULL with
 *   %GNN_ERROR_INVALID_ARGUMENT naming what is wrong
 *
 * Since: 0.1
 */
GnnBatch *
gnn_batch_new (GnnBatchKind         kind,
               const char * const  *names,
               GPtrArray           *tensors,
               GError             **error)
{
  g_return_val_if_fail (kind <= GNN_BATCH_KIND_BARE, NULL);
  return batch_new_checked (kind, names, tensors, error);
}

/**
 * gnn_batch_new_tuple:
 * @tensors: (element-type Gnn.Tensor): the fields
 *
 * Creates a batch of positional fields (a tuple item, a list batch).
 *
 * Returns: (transfer full): the batch
 *
 * Since: 0.1
 */
GnnBatch *
gnn_batch_new_tuple (GPtrArray *tensors)
{
  return batch_new_checked (GNN_BATCH_KIND_TUPLE, NULL, tensors, NULL);
}

/**
 * gnn_batch_new_dict:
 * @names: (array zero-terminated=1): the keys, unique, one per field
 * @tensors: (element-type Gnn.Tensor): the fields, in the keys' order
 * @error: return location for a #GError
 *
 * Creates a batch standing for a dict (torch: a dataset item or a batch
 * that is a dict of tensors).
 *
 * Returns: (transfer full) (nullable): the batch, or %NULL with
 *   %GNN_ERROR_INVALID_ARGUMENT on a duplicate key or a count mismatch
 *
 * Since: 0.1
 */
GnnBatch *
gnn_batch_new_dict (const char * const  *names,
                    GPtrArray           *tensors,
                    GError             **error)
{
  g_return_val_if_fail (names != NULL, NULL);
  return batch_new_checked (GNN_BATCH_KIND_DICT, names, tensors, error);
}

/**
 * gnn_batch_new_bare:
 * @tensor: the one field
 *
 * Creates a batch that is one tensor (torch: an item that is a tensor or a
 * number; its batch is the stacked tensor itself, not a 1-list).
 *
 * Returns: (transfer full): the batch
 *
 * Since: 0.1
 */
GnnBatch *
gnn_batch_new_bare (GnnTensor *tensor)
{
  GPtrArray *fields;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  fields = g_ptr_array_new ();
  g_ptr_array_add (fields, g_object_ref (tensor));
  return gnn_batch_new_take (GNN_BATCH_KIND_BARE, NULL, fields);
}

/**
 * gnn_batch_ref:
 * @self: a #GnnBatch
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
GnnBatch *
gnn_batch_ref (GnnBatch *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * gnn_batch_unref:
 * @self: (transfer full): a #GnnBatch
 *
 * Drops a reference; the last one releases the tensors.
 *
 * Since: 0.1
 */
void
gnn_batch_unref (GnnBatch *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < self->n_fields; i++)
    g_object_unref (self->tensors[i]);
  g_free (self->tensors);
  g_strfreev (self->names);
  g_free (self);
}

/**
 * gnn_batch_get_kind:
 * @self: a #GnnBatch
 *
 * Gets what the batch stands for: a tuple, a dict or one bare tensor.
 *
 * Returns: what the batch stands for
 *
 * Since: 0.1
 */
GnnBatchKind
gnn_batch_get_kind (const GnnBatch *self)
{
  g_return_val_if_fail (self != NULL, GNN_BATCH_KIND_TUPLE);
  return self->kind;
}

/**
 * gnn_batch_get_n_fields:
 * @self: a #GnnBatch
 *
 * Gets the number of fields (tensors).
 *
 * Returns: the number of fields
 *
 * Since: 0.1
 */
guint
gnn_batch_get_n_fields (const GnnBatch *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_fields;
}

/**
 * gnn_batch_get_field:
 * @self: a #GnnBatch
 * @index: a field index, below [method@Gnn.Batch.get_n_fields]
 *
 * Gets the tensor of a field by position.
 *
 * Returns: (transfer none): the tensor of field @index
 *
 * Since: 0.1
 */
GnnTensor *
gnn_batch_get_field (const GnnBatch *self,
                     guint           index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->n_fields, NULL);
  return self->tensors[index];
}

/**
 * gnn_batch_get_name:
 * @self: a #GnnBatch
 * @index: a field index, below [method@Gnn.Batch.get_n_fields]
 *
 * Gets the name of a field (a dict batch's key).
 *
 * Returns: (nullable): the name of field @index, %NULL for a positional field
 *
 * Since: 0.1
 */
const char *
gnn_batch_get_name (const GnnBatch *self,
                    guint           index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->n_fields, NULL);
  return self->names != NULL ? self->names[index] : NULL;
}

/**
 * gnn_batch_find_name:
 * @self: a #GnnBatch
 * @name: a field name
 *
 * Finds the position of the field called @name.
 *
 * Returns: the index of the field called @name, or -1
 *
 * Since: 0.1
 */
gint
gnn_batch_find_name (const GnnBatch *self,
                     const char     *name)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);
  for (guint i = 0; self->names != NULL && i < self->n_fields; i++)
    if (strcmp (self->names[i], name) == 0)
      return (gint) i;
  return -1;
}

/**
 * gnn_batch_lookup:
 * @self: a #GnnBatch
 * @name: a field name
 *
 * The field called @name (torch: `batch[name]` of a dict batch).
 *
 * Returns: (transfer none) (nullable): its tensor, or %NULL if no field
 *   has that name
 *
 * Since: 0.1
 */
GnnTensor *
gnn_batch_lookup (const GnnBatch *self,
                  const char     *name)
{
  gint i = gnn_batch_find_name (self, name);

  return i >= 0 ? self->tensors[i] : NULL;
}

/**
 * gnn_batch_dup_names:
 * @self: a #GnnBatch
 *
 * Copies the field names (a dict batch's keys, in order).
 *
 * Returns: (transfer full) (array zero-terminated=1) (nullable): the field
 *   names in order (a dict's keys), or %NULL when the fields are positional
 *
 * Since: 0.1
 */
char **
gnn_batch_dup_names (const GnnBatch *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_strdupv (self->names);
}

/**
 * gnn_batch_get_tensors:
 * @self: a #GnnBatch
 *
 * The fields as an array, what [method@Gnn.DataLoaderIter.next] and
 * [method@Gnn.Collate.collate] return.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): a new array
 *   holding a reference to each field's tensor
 *
 * Since: 0.1
 */
GPtrArray *
gnn_batch_get_tensors (const GnnBatch *self)
{
  GPtrArray *out;

  g_return_val_if_fail (self != NULL, NULL);
  out = g_ptr_array_new_full (self->n_fields, g_object_unref);
  for (guint i = 0; i < self->n_fields; i++)
    g_ptr_array_add (out, g_object_ref (self->tensors[i]));
  return out;
}

/**
 * gnn_batch_same_layout:
 * @self: a #GnnBatch
 * @other: another #GnnBatch
 *
 * Whether two batches (or items) have the same kind, number of fields
 * and names — what collation requires of the items of a batch.
 *
 * Returns: %TRUE if they do
 *
 * Since: 0.1
 */
gboolean
gnn_batch_same_layout (const GnnBatch *self,
                       const GnnBatch *other)
{
  g_return_val_if_fail (self != NULL && other != NULL, FALSE);
  if (self->kind != other->kind || self->n_fields != other->n_fields ||
      (self->names == NULL) != (other->names == NULL))
    return FALSE;
  for (guint i = 0; self->names != NULL && i < self->n_fields; i++)
    if (strcmp (self->names[i], other->names[i]) != 0)
      return FALSE;
  return TRUE;
}

/* The tensors of @self, borrowed (n_fields of them). */
GnnTensor * const *
gnn_batch_peek_tensors (const GnnBatch *self)
{
  return self->tensors;
}

/* The names of @self, borrowed (NULL: positional). */
const char * const *
gnn_batch_peek_names (const GnnBatch *self)
{
  return (const char * const *) self->names;
}
