/* gnn-collate.c: turning a list of items into a batch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "data/gnn-data-private.h"

/**
 * GnnCollate:
 *
 * Turns the items of a batch into one batch, like a DataLoader's
 * `collate_fn`. The base class is the default collation
 * ([func@Gnn.default_collate]); subclass it and override `collate` (Python:
 * `do_collate`) for custom batching. Being a GObject type (not a closure), a
 * collate object has a type name and can be re-created in a worker process.
 * With worker threads, `collate` runs in several threads at once.
 *
 * Since: 0.1
 */

G_DEFINE_TYPE (GnnCollate, gnn_collate, G_TYPE_OBJECT)

static void
gnn_collate_real_collate (GnnCollate  *self,
                          GPtrArray   *items,
                          guint        n_fields,
                          GPtrArray  **batch,
                          GError     **error)
{
  *batch = gnn_default_collate (items, n_fields, error);
}

static const char *
kind_name (GnnBatchKind kind)
{
  return kind == GNN_BATCH_KIND_DICT ? "dict" : kind == GNN_BATCH_KIND_BARE ? "bare value"
                                                                            : "tuple";
}

gboolean
gnn_batch_append_fields (const GnnBatch  *layout,
                         const GnnBatch  *item,
                         GPtrArray       *flat,
                         GError         **error)
{
  GnnBatchKind kind = gnn_batch_get_kind (layout);
  guint n_fields = gnn_batch_get_n_fields (layout);
  GnnTensor * const *fields = gnn_batch_peek_tensors (item);

  if (gnn_batch_get_kind (item) != kind)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "default_collate: the first element of the batch is a %s, this one a %s",
                   kind_name (kind), kind_name (gnn_batch_get_kind (item)));
      return FALSE;
    }
  if (kind != GNN_BATCH_KIND_DICT)
    {
      if (gnn_batch_get_n_fields (item) != n_fields)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "each element in list of batch should be of equal size "
                       "(%u fields, the first item of the batch has %u)",
                       gnn_batch_get_n_fields (item), n_fields);
          return FALSE;
        }
      for (guint f = 0; f < n_fields; f++)
        g_ptr_array_add (flat, g_object_ref (fields[f]));
      return TRUE;
    }
  /* torch: {key: collate([d[key] for d in batch]) for key in batch[0]} —
   * the first item's keys, in its order; extra keys of others are unused */
  for (guint f = 0; f < n_fields; f++)
    {
      const char *key = gnn_batch_get_name (layout, f);
      gint i = gnn_batch_find_name (item, key);

      if (i < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "KeyError: '%s' (a key of the first element of the batch)", key);
          return FALSE;
        }
      g_ptr_array_add (flat, g_object_ref (fields[i]));
    }
  return TRUE;
}

/* Items that are batches, flattened item-major in the first one's order. */
static GPtrArray *
flatten_items (GPtrArray  *items,
               GError    **error)
{
  const GnnBatch *layout = g_ptr_array_index (items, 0);
  g_autoptr(GPtrArray) flat = NULL;

  if ((guint64) gnn_batch_get_n_fields (layout) * items->len > G_MAXUINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "default_collate: %u items of %u fields are too many tensors", items->len,
                   gnn_batch_get_n_fields (layout));
      return NULL;
    }
  flat = g_ptr_array_new_full (gnn_batch_get_n_fields (layout) * items->len, g_object_unref);
  for (guint i = 0; i < items->len; i++)
    if (!gnn_batch_append_fields (layout, g_ptr_array_index (items, i), flat, error))
      {
        g_prefix_error (error, "entry %u: ", i);
        return NULL;
      }
  return g_steal_pointer (&flat);
}

/* A batch of @tensors (stolen) laid out as @layout when they match its
 * fields one to one, else a tuple. */
static GnnBatch *
batch_like (const GnnBatch *layout,
            GPtrArray      *tensors)
{
  if (layout == NULL || tensors->len != gnn_batch_get_n_fields (layout))
    return gnn_batch_new_take (GNN_BATCH_KIND_TUPLE, NULL, tensors);
  return gnn_batch_new_take (gnn_batch_get_kind (layout),
                             g_strdupv ((char **) gnn_batch_peek_names (layout)), tensors);
}

static GnnBatch *
gnn_collate_collate_fields (GnnCollate      *collate,
                            GPtrArray       *flat,
                            guint            n_fields,
                            const GnnBatch  *layout,
                            GError         **error)
{
  GPtrArray *tensors = gnn_collate_collate (collate, flat, n_fields, error);

  return tensors != NULL ? batch_like (layout, tensors) : NULL;
}

static void
gnn_collate_real_collate_batch (GnnCollate  *self,
                                GPtrArray   *items,
                                GnnBatch   **batch,
                                GError     **error)
{
  const GnnBatch *layout = g_ptr_array_index (items, 0);
  g_autoptr(GPtrArray) flat = flatten_items (items, error);

  if (flat != NULL)
    *batch = gnn_collate_collate_fields (self, flat, gnn_batch_get_n_fields (layout), layout,
                                         error);
}

static void
gnn_collate_class_init (GnnCollateClass *klass)
{
  klass->collate = gnn_collate_real_collate;
  klass->collate_batch = gnn_collate_real_collate_batch;
}

static void
gnn_collate_init (GnnCollate *self)
{
}

/**
 * gnn_collate_new:
 *
 * Creates the default collation, which stacks each field of the items.
 *
 * Returns: (transfer full): the default collation
 *
 * Since: 0.1
 */
GnnCollate *
gnn_collate_new (void)
{
  return g_object_new (GNN_TYPE_COLLATE, NULL);
}

/**
 * gnn_collate_collate:
 * @self: a #GnnCollate
 * @items: (element-type Gnn.Tensor): the fields of every item, item-major:
 *   field `f` of item `i` is `items[i * n_fields + f]`
 * @n_fields: the number of fields per item
 * @error: return location for a #GError
 *
 * Collates a batch of items with the `collate` virtual method.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the batch (the
 *   array holds references: free it with g_ptr_array_unref()), or %NULL on error
 *
 * Since: 0.1
 */
GPtrArray *
gnn_collate_collate (GnnCollate  *self,
                     GPtrArray   *items,
                     guint        n_fields,
                     GError     **error)
{
  GPtrArray *batch = NULL;

  g_return_val_if_fail (GNN_IS_COLLATE (self), NULL);
  g_return_val_if_fail (items != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  GNN_COLLATE_GET_CLASS (self)->collate (self, items, n_fields, &batch, error);
  if (batch == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s.collate returned no batch", G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  g_ptr_array_set_free_func (batch, g_object_unref);
  return batch;
}

/* Items given as batches: at least one, each a GnnBatch. */
static gboolean
check_items (GPtrArray  *items,
             GError    **error)
{
  if (items->len == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "default_collate: a batch needs at least one item");
      return FALSE;
    }
  for (guint i = 0; i < items->len; i++)
    g_return_val_if_fail (g_ptr_array_index (items, i) != NULL, FALSE);
  return TRUE;
}

/**
 * gnn_collate_collate_batch:
 * @self: a #GnnCollate
 * @items: (element-type Gnn.Batch): the items, at least one
 * @error: return location for a #GError
 *
 * Collates named, typed items with the `collate_batch` virtual method. By
 * default the items must agree in kind and field count — a dict's keys are
 * the first item's, looked up in every item (torch: "KeyError: 'label'";
 * "each element in list of batch should be of equal size") — and the batch
 * keeps the names and kind of the items: a batch of dict items is a dict
 * of stacked tensors, as torch's `default_collate` gives it.
 *
 * Returns: (transfer full) (nullable): the batch, or %NULL on error
 *
 * Since: 0.1
 */
GnnBatch *
gnn_collate_collate_batch (GnnCollate  *self,
                           GPtrArray   *items,
                           GError     **error)
{
  GnnBatch *batch = NULL;

  g_return_val_if_fail (GNN_IS_COLLATE (self), NULL);
  g_return_val_if_fail (items != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!check_items (items, error))
    return NULL;
  GNN_COLLATE_GET_CLASS (self)->collate_batch (self, items, &batch, error);
  if (batch == NULL && error != NULL && *error == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "%s.collate_batch returned no batch", G_OBJECT_TYPE_NAME (self));
  return batch;
}

/**
 * gnn_default_collate_batch:
 * @items: (element-type Gnn.Batch): the items, at least one
 * @error: return location for a #GError
 *
 * PyTorch's `default_collate` for named, typed items: field by field, the
 * tensors of all items are stacked along a new first dimension, and the
 * batch has the names and kind of the first item (see
 * [method@Gnn.Collate.collate_batch] for what items must agree in).
 *
 * Returns: (transfer full) (nullable): the batch, or %NULL on error
 *
 * Since: 0.1
 */
GnnBatch *
gnn_default_collate_batch (GPtrArray  *items,
                           GError    **error)
{
  g_autoptr(GPtrArray) flat = NULL;
  GnnBatchSource src = { 0 };

  g_return_val_if_fail (items != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!check_items (items, error) || (flat = flatten_items (items, error)) == NULL)
    return NULL;
  src.layout = g_ptr_array_index (items, 0);
  src.n_fields = gnn_batch_get_n_fields (src.layout);
  src.items = flat;
  return gnn_default_collate_source (&src, error);
}

/* Checks that field @f agrees in dtype and shape across items and plans its
 * batch tensor ([n_items, ...]). */
static gboolean
plan_field (GPtrArray     *items,
            guint          n_fields,
            guint          f,
            GnnFieldPlan  *plan,
            GError       **error)
{
  guint n_items = items->len / n_fields;
  GnnTensorPrivate *first = gnn_tensor_priv (g_ptr_array_index (items, f));

  if (first->ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "default_collate: field %u has %u dimensions; batching it exceeds %d",
                   f, first->ndim, GNN_MAX_DIMS);
      return FALSE;
    }
  for (guint i = 0; i < n_items; i++)
    GNN_CHECK_STORAGE ("default_collate", g_ptr_array_index (items, i * n_fields + f), error,
                       FALSE);
  for (guint i = 1; i < n_items; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (g_ptr_array_index (items, i * n_fields + f));

      if (p->dtype != first->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "default_collate: field %u has dtype %s in entry 0 but %s in entry %u",
                       f, gnn_dtype_get_name (first->dtype), gnn_dtype_get_name (p->dtype), i);
          return FALSE;
        }
      if (p->ndim != first->ndim ||
          memcmp (p->shape, first->shape, first->ndim * sizeof (gint64)) != 0)
        {
          g_autofree char *a = gnn_shape_to_string (first->shape, first->ndim);
          g_autofree char *b = gnn_shape_to_string (p->shape, p->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "stack expects each tensor to be equal size, but got %s at entry 0 "
                       "and %s at entry %u (field %u)", a, b, i, f);
          return FALSE;
        }
    }
  plan->dtype = first->dtype;
  plan->ndim = first->ndim + 1;
  plan->shape[0] = n_items;
  memcpy (plan->shape + 1, first->shape, first->ndim * sizeof (gint64));
  plan->item_bytes = (gsize) first->numel * gnn_dtype_get_size (first->dtype);
  plan->n_bytes = plan->item_bytes * n_items;
  return TRUE;
}

gboolean
gnn_default_collate_plan (const GnnBatchSource  *src,
                          GnnFieldPlan          *plans,
                          GError               **error)
{
  guint n_fields = src->n_fields;

  if (src->items == NULL)
    {
      for (guint f = 0; f < n_fields; f++)
        {
          GnnTensorPrivate *c = gnn_tensor_priv (src->columns[f]);

          plans[f].dtype = c->dtype;
          plans[f].ndim = c->ndim;
          plans[f].shape[0] = (gint64) src->count;
          memcpy (plans[f].shape + 1, c->shape + 1, (c->ndim - 1) * sizeof (gint64));
          plans[f].item_bytes = (gsize) (c->shape[0] > 0 ? c->numel / c->shape[0] : 0) *
                                gnn_dtype_get_size (c->dtype);
          plans[f].n_bytes = plans[f].item_bytes * src->count;
        }
      return TRUE;
    }
  if (n_fields == 0 || src->items->len == 0 || src->items->len % n_fields != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "default_collate: %u tensors cannot be split into items of %u fields",
                   src->items->len, n_fields);
      return FALSE;
    }
  for (guint f = 0; f < n_fields; f++)
    if (!plan_field (src->items, n_fields, f, &plans[f], error))
      return FALSE;
  return TRUE;
}

void
gnn_default_collate_fill (const GnnBatchSource *src,
                          guint                 f,
                          const GnnFieldPlan   *plan,
                          gpointer              dest)
{
  gint64 dst_strides[GNN_MAX_DIMS];
  guint8 *dst = dest;
  guint n_items;

  if (src->items == NULL)
    {
      const guint8 *base = gnn_tensor_priv_data (gnn_tensor_priv (src->columns[f]));

      for (gsize i = 0; i < src->count; i++, dst += plan->item_bytes)
        memcpy (dst, base + (gsize) src->indices[i] * plan->item_bytes, plan->item_bytes);
      return;
    }
  n_items = src->items->len / src->n_fields;
  gnn_contiguous_strides (plan->shape + 1, plan->ndim - 1, dst_strides);
  for (guint i = 0; i < n_items; i++, dst += plan->item_bytes)
    {
      GnnTensor *t = g_ptr_array_index (src->items, i * src->n_fields + f);
      GnnTensorPrivate *p = gnn_tensor_priv (t);

      if (gnn_tensor_is_contiguous (t))
        memcpy (dst, gnn_tensor_priv_data (p), plan->item_bytes);
      else
        gnn_strided_copy (plan->dtype, dst, dst_strides, p->dtype,
                          gnn_tensor_priv_data (p), p->strides, p->shape, p->ndim);
    }
}

GnnBatch *
gnn_default_collate_source (const GnnBatchSource  *src,
                            GError               **error)
{
  g_autofree GnnFieldPlan *plans = g_new (GnnFieldPlan, MAX (src->n_fields, 1));
  g_autoptr(GPtrArray) batch = NULL;

  if (!gnn_default_collate_plan (src, plans, error))
    return NULL;
  batch = g_ptr_array_new_full (src->n_fields, g_object_unref);
  for (guint f = 0; f < src->n_fields; f++)
    {
      GnnTensor *t = gnn_tensor_new_contiguous_checked (plans[f].dtype, plans[f].shape,
                                                        plans[f].ndim, FALSE, error);

      if (t == NULL)
        return NULL;
      gnn_default_collate_fill (src, f, &plans[f], gnn_tensor_priv_data (gnn_tensor_priv (t)));
      g_ptr_array_add (batch, t);
    }
  return batch_like (src->layout, g_steal_pointer (&batch));
}

/* Columns whose rows are the items (gnn_dataset_peek_columns): contiguous,
 * at least 1-d, of the dataset's length. */
gboolean
gnn_batch_source_rows (GnnDataset      *dataset,
                       const gint64    *indices,
                       gsize            count,
                       GnnBatchSource  *src)
{
  gint64 length = gnn_dataset_get_length (dataset);

  src->n_fields = gnn_dataset_peek_columns (dataset, src->columns);
  if (src->n_fields == 0)
    return FALSE;
  for (guint f = 0; f < src->n_fields; f++)
    {
      GnnTensorPrivate *c = gnn_tensor_priv (src->columns[f]);

      /* (meta columns take the item path, which reports them) */
      if (c->ndim < 1 || c->shape[0] != length || gnn_tensor_priv_is_meta (c) ||
          !gnn_tensor_is_contiguous (src->columns[f]))
        return FALSE;
    }
  for (gsize i = 0; i < count; i++)
    if (indices[i] < 0 || indices[i] >= length)
      return FALSE;
  src->items = NULL;
  src->indices = indices;
  src->count = count;
  return count > 0;
}

/**
 * gnn_default_collate:
 * @items: (element-type Gnn.Tensor): the fields of every item, item-major:
 *   field `f` of item `i` is `items[i * n_fields + f]`
 * @n_fields: the number of fields per item, positive
 * @error: return location for a #GError
 *
 * PyTorch's `default_collate` for items that are tuples of tensors: field
 * by field, the tensors of all items are stacked along a new first
 * dimension (0-d fields become a 1-d batch). Fields must agree in dtype
 * and shape across items ("stack expects each tensor to be equal size, but
 * got [3] at entry 0 and [4] at entry 1").
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): one tensor per
 *   field (the array holds references), or %NULL on error
 *
 * Since: 0.1
 */
GPtrArray *
gnn_default_collate (GPtrArray  *items,
                     guint       n_fields,
                     GError    **error)
{
  GnnBatchSource src = { n_fields, items, NULL, NULL, 0, NULL };
  GnnBatch *batch;
  GPtrArray *tensors;

  g_return_val_if_fail (items != NULL, NULL);
  for (guint i = 0; i < items->len; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (g_ptr_array_index (items, i)), NULL);
  batch = gnn_default_collate_source (&src, error);
  if (batch == NULL)
    return NULL;
  tensors = gnn_batch_get_tensors (batch);
  gnn_batch_unref (batch);
  return tensors;
}
