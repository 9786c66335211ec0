/* gnn-subset.c: a dataset restricted to some indices, and random_split
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "data/gnn-data-private.h"

/**
 * GnnSubset:
 *
 * The items of another dataset at given indices, like
 * `torch.utils.data.Subset`: item `i` is `dataset[indices[i]]`.
 *
 * Since: 0.1
 */
struct _GnnSubset
{
  GnnDataset  parent_instance;
  GnnDataset *dataset;
  gint64     *indices;
  gsize       n_indices;
};

G_DEFINE_FINAL_TYPE (GnnSubset, gnn_subset, GNN_TYPE_DATASET)

static gint64
gnn_subset_get_length_impl (GnnDataset *dataset)
{
  return (gint64) GNN_SUBSET (dataset)->n_indices;
}

static void
gnn_subset_get_item_impl (GnnDataset  *dataset,
                          gint64       index,
                          GPtrArray  **out,
                          GError     **error)
{
  GnnSubset *self = GNN_SUBSET (dataset);

  *out = gnn_dataset_get_item (self->dataset, self->indices[index], error);
}

static void
gnn_subset_finalize (GObject *object)
{
  GnnSubset *self = GNN_SUBSET (object);

  g_clear_object (&self->dataset);
  g_clear_pointer (&self->indices, g_free);
  G_OBJECT_CLASS (gnn_subset_parent_class)->finalize (object);
}

static void
gnn_subset_class_init (GnnSubsetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnDatasetClass *dataset_class = GNN_DATASET_CLASS (klass);

  object_class->finalize = gnn_subset_finalize;
  dataset_class->get_length = gnn_subset_get_length_impl;
  dataset_class->get_item = gnn_subset_get_item_impl;
}

static void
gnn_subset_init (GnnSubset *self)
{
}

/**
 * gnn_subset_new:
 * @dataset: the dataset to take items from
 * @indices: (array length=n_indices) (nullable): indices into @dataset
 * @n_indices: the number of indices
 * @error: return location for a #GError
 *
 * Creates a view of @dataset restricted to @indices (which may repeat).
 * An index outside `[0, len(dataset))` is a %GNN_ERROR_INDEX error.
 *
 * Returns: (transfer full): the subset, or %NULL on error
 *
 * Since: 0.1
 */
GnnSubset *
gnn_subset_new (GnnDataset    *dataset,
                const gint64  *indices,
                gsize          n_indices,
                GError       **error)
{
  GnnSubset *self;
  gint64 length;

  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  length = gnn_dataset_get_length (dataset);
  for (gsize i = 0; i < n_indices; i++)
    if (indices[i] < 0 || indices[i] >= length)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "Subset: index %" G_GINT64_FORMAT " (position %" G_GSIZE_FORMAT
                     ") is out of range for %s of length %" G_GINT64_FORMAT,
                     indices[i], i, G_OBJECT_TYPE_NAME (dataset), length);
        return NULL;
      }
  self = g_object_new (GNN_TYPE_SUBSET, NULL);
  self->dataset = g_object_ref (dataset);
  self->indices = gnn_index_array_new (n_indices);
  if (n_indices > 0)
    memcpy (self->indices, indices, n_indices * sizeof (gint64));
  self->n_indices = n_indices;
  return self;
}

/**
 * gnn_subset_get_dataset:
 * @self: a #GnnSubset
 *
 * Gets the dataset the subset indexes into.
 *
 * Returns: (transfer none): the underlying dataset
 *
 * Since: 0.1
 */
GnnDataset *
gnn_subset_get_dataset (GnnSubset *self)
{
  g_return_val_if_fail (GNN_IS_SUBSET (self), NULL);
  return self->dataset;
}

/**
 * gnn_subset_get_indices:
 * @self: a #GnnSubset
 * @n_indices: (out): the number of indices
 *
 * Gets the indices of the subset in the underlying dataset.
 *
 * Returns: (transfer none) (array length=n_indices): the indices
 *
 * Since: 0.1
 */
const gint64 *
gnn_subset_get_indices (GnnSubset *self,
                        gsize     *n_indices)
{
  g_return_val_if_fail (GNN_IS_SUBSET (self), NULL);
  if (n_indices != NULL)
    *n_indices = self->n_indices;
  return self->indices;
}

/**
 * gnn_random_split:
 * @dataset: the dataset to split
 * @lengths: (array length=n_lengths): the length of each part; they must sum
 *   to the length of @dataset
 * @n_lengths: the number of parts
 * @generator: (nullable): the generator of the permutation (%NULL: a
 *   generator seeded from the default generator, [func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * Randomly splits @dataset into non-overlapping subsets of the given
 * lengths, like `torch.utils.data.random_split`.
 *
 * Returns: (transfer container) (element-type Gnn.Subset): the subsets (the
 *   array holds references: free it with g_ptr_array_unref()), or %NULL on error
 *
 * Since: 0.1
 */
GPtrArray *
gnn_random_split (GnnDataset    *dataset,
                  const gint64  *lengths,
                  gsize          n_lengths,
                  GnnGenerator  *generator,
                  GError       **error)
{
  g_autoptr(GnnGenerator) own = NULL;
  g_autofree gint64 *perm = NULL;
  g_autoptr(GPtrArray) parts = NULL;
  gint64 total = 0, length, offset = 0;

  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (lengths != NULL || n_lengths == 0, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  length = gnn_dataset_get_length (dataset);
  for (gsize i = 0; i < n_lengths; i++)
    {
      if (lengths[i] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "random_split: length at index %" G_GSIZE_FORMAT " is negative (%" G_GINT64_FORMAT ")",
                       i, lengths[i]);
          return NULL;
        }
      total += lengths[i];
    }
  if (total != length)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Sum of input lengths does not equal the length of the input dataset! "
                   "(%" G_GINT64_FORMAT " != %" G_GINT64_FORMAT ")", total, length);
      return NULL;
    }
  if (generator == NULL)
    generator = own = gnn_generator_new_unseeded ();
  perm = gnn_index_array_new ((gsize) length);
  gnn_randperm (generator, perm, (gsize) length);
  parts = g_ptr_array_new_full (n_lengths, g_object_unref);
  for (gsize i = 0; i < n_lengths; i++)
    {
      GnnSubset *part = gnn_subset_new (dataset, perm + offset, (gsize) lengths[i], error);

      if (part == NULL)
        return NULL;
      g_ptr_array_add (parts, part);
      offset += lengths[i];
    }
  return g_steal_pointer (&parts);
}

/**
 * gnn_random_split_fractions:
 * @dataset: the dataset to split
 * @fractions: (array length=n_fractions): fractions in [0, 1] summing to 1
 * @n_fractions: the number of parts
 * @generator: (nullable): the generator of the permutation
 * @error: return location for a #GError
 *
 * Like [func@Gnn.random_split] with fractions, as PyTorch does them: each
 * part gets `floor(len * fraction)` items, then the remainder is handed out
 * one by one, round-robin from the first part.
 *
 * Returns: (transfer container) (element-type Gnn.Subset): the subsets (the
 *   array holds references: free it with g_ptr_array_unref()), or %NULL on error
 *
 * Since: 0.1
 */
GPtrArray *
gnn_random_split_fractions (GnnDataset    *dataset,
                            const double  *fractions,
                            gsize          n_fractions,
                            GnnGenerator  *generator,
                            GError       **error)
{
  g_autofree gint64 *lengths = NULL;
  gint64 length, assigned = 0;
  double sum = 0;

  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (fractions != NULL || n_fractions == 0, NULL);
  length = gnn_dataset_get_length (dataset);
  for (gsize i = 0; i < n_fractions; i++)
    {
      if (!(fractions[i] >= 0 && fractions[i] <= 1))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Fraction at index %" G_GSIZE_FORMAT " is not between 0 and 1", i);
          return NULL;
        }
      sum += fractions[i];
    }
  if (n_fractions == 0 || fabs (sum - 1.0) > 1e-9 * MAX (1.0, fabs (sum)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "random_split: fractions must sum to 1, got %g", sum);
      return NULL;
    }
  lengths = gnn_index_array_new (n_fractions);
  for (gsize i = 0; i < n_fractions; i++)
    {
      lengths[i] = (gint64) floor ((double) length * fractions[i]);
      assigned += lengths[i];
    }
  for (gint64 i = 0; i < length - assigned; i++)
    lengths[i % (gint64) n_fractions]++;
  return gnn_random_split (dataset, lengths, n_fractions, generator, error);
}
