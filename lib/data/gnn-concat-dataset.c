/* gnn-concat-dataset.c: datasets one after another
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnConcatDataset:
 *
 * Several datasets one after another, like `torch.utils.data.ConcatDataset`.
 * The lengths are taken once, at construction.
 *
 * Since: 0.1
 */
struct _GnnConcatDataset
{
  GnnDataset  parent_instance;
  GPtrArray  *datasets;
  gint64     *cumulative_sizes;
};

static void gnn_concat_dataset_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnConcatDataset, gnn_concat_dataset, GNN_TYPE_DATASET,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      gnn_concat_dataset_initable_iface_init))

static gboolean
check_not_empty (GnnConcatDataset  *self,
                 GError           **error)
{
  if (self->datasets->len > 0)
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "datasets should not be an empty iterable");
  return FALSE;
}

/* Built from properties alone there is nothing to concatenate (the parts are
 * not a property yet): g_initable_new refuses instead of an empty dataset. */
static gboolean
gnn_concat_dataset_initable_init (GInitable     *initable,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  return check_not_empty (GNN_CONCAT_DATASET (initable), error);
}

static void
gnn_concat_dataset_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_concat_dataset_initable_init;
}

static gint64
gnn_concat_dataset_get_length_impl (GnnDataset *dataset)
{
  GnnConcatDataset *self = GNN_CONCAT_DATASET (dataset);

  return self->datasets->len > 0 ? self->cumulative_sizes[self->datasets->len - 1] : 0;
}

static void
gnn_concat_dataset_get_item_impl (GnnDataset  *dataset,
                                  gint64       index,
                                  GPtrArray  **out,
                                  GError     **error)
{
  GnnConcatDataset *self = GNN_CONCAT_DATASET (dataset);
  guint lo = 0, hi;

  if (!check_not_empty (self, error))
    return;
  hi = self->datasets->len - 1;

  /* bisect_right: the first part whose cumulative size exceeds index */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->cumulative_sizes[mid] > index)
        hi = mid;
      else
        lo = mid + 1;
    }
  if (lo > 0)
    index -= self->cumulative_sizes[lo - 1];
  *out = gnn_dataset_get_item (g_ptr_array_index (self->datasets, lo), index, error);
}

static void
gnn_concat_dataset_finalize (GObject *object)
{
  GnnConcatDataset *self = GNN_CONCAT_DATASET (object);

  g_clear_pointer (&self->datasets, g_ptr_array_unref);
  g_clear_pointer (&self->cumulative_sizes, g_free);
  G_OBJECT_CLASS (gnn_concat_dataset_parent_class)->finalize (object);
}

static void
gnn_concat_dataset_class_init (GnnConcatDatasetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnDatasetClass *dataset_class = GNN_DATASET_CLASS (klass);

  object_class->finalize = gnn_concat_dataset_finalize;
  dataset_class->get_length = gnn_concat_dataset_get_length_impl;
  dataset_class->get_item = gnn_concat_dataset_get_item_impl;
}

static void
gnn_concat_dataset_init (GnnConcatDataset *self)
{
  self->datasets = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * gnn_concat_dataset_new:
 * @datasets: (array length=n_datasets) (transfer none): the datasets
 * @n_datasets: the number of datasets, at least 1
 * @error: return location for a #GError
 *
 * Concatenates @datasets. An empty list fails with "datasets should not be
 * an empty iterable".
 *
 * Returns: (transfer full): the dataset, or %NULL on error
 *
 * Since: 0.1
 */
GnnConcatDataset *
gnn_concat_dataset_new (GnnDataset **datasets,
                        guint        n_datasets,
                        GError     **error)
{
  GnnConcatDataset *self;
  gint64 sum = 0;

  g_return_val_if_fail (datasets != NULL || n_datasets == 0, NULL);
  if (n_datasets == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "datasets should not be an empty iterable");
      return NULL;
    }
  for (guint i = 0; i < n_datasets; i++)
    g_return_val_if_fail (GNN_IS_DATASET (datasets[i]), NULL);
  self = g_object_new (GNN_TYPE_CONCAT_DATASET, NULL);
  self->cumulative_sizes = g_new (gint64, n_datasets);
  for (guint i = 0; i < n_datasets; i++)
    {
      g_ptr_array_add (self->datasets, g_object_ref (datasets[i]));
      sum += gnn_dataset_get_length (datasets[i]);
      self->cumulative_sizes[i] = sum;
    }
  return self;
}

/**
 * gnn_concat_dataset_get_cumulative_sizes:
 * @self: a #GnnConcatDataset
 * @n_sizes: (out): the number of sizes (the number of datasets)
 *
 * Gets the running totals of the datasets' lengths, like `cumulative_sizes`.
 *
 * Returns: (transfer none) (array length=n_sizes): the running totals of the
 *   lengths, like `ConcatDataset.cumulative_sizes`
 *
 * Since: 0.1
 */
const gint64 *
gnn_concat_dataset_get_cumulative_sizes (GnnConcatDataset *self,
                                         guint            *n_sizes)
{
  g_return_val_if_fail (GNN_IS_CONCAT_DATASET (self), NULL);
  if (n_sizes != NULL)
    *n_sizes = self->datasets->len;
  return self->cumulative_sizes;
}

/**
 * gnn_concat_dataset_get_datasets:
 * @self: a #GnnConcatDataset
 *
 * Gets the datasets, in order (what a binding needs to rebuild the
 * concatenation elsewhere, e.g. in a spawned worker).
 *
 * Returns: (transfer container) (element-type Gnn.Dataset): a new array
 *   holding the datasets (not references)
 *
 * Since: 0.1
 */
GPtrArray *
gnn_concat_dataset_get_datasets (GnnConcatDataset *self)
{
  GPtrArray *out;

  g_return_val_if_fail (GNN_IS_CONCAT_DATASET (self), NULL);

  out = g_ptr_array_sized_new (self->datasets->len);
  for (guint i = 0; i < self->datasets->len; i++)
    g_ptr_array_add (out, g_ptr_array_index (self->datasets, i));
  return out;
}
