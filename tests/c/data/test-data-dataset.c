/* Datasets (tensor, subset, concat, random_split) and collation. */
#include <string.h>
#include <gnn/gnn.h>

static GnnTensorDataset *
make_range_dataset (gint64 n)
{
  g_autoptr(GnnTensor) x = gnn_tensor_arange (0, (double) (2 * n), 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x2 = gnn_tensor_reshape (x, (gint64[]) { n, 2 }, 2, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_arange (0, (double) n, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { x2, y };

  return gnn_tensor_dataset_new (ts, 2, NULL);
}

/* Field 1 (the label) of item @i as an integer. */
static gint64
label_of (GnnDataset *ds, gint64 i)
{
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (ds, i, NULL);

  g_assert_nonnull (item);
  return (gint64) gnn_tensor_item (g_ptr_array_index (item, item->len - 1), NULL);
}

static void
test_tensor_dataset_items_are_views (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (5);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (GNN_DATASET (ds), 3, &error);
  g_autoptr(GPtrArray) tensors = gnn_tensor_dataset_get_tensors (ds);
  GnnTensor *x;

  g_assert_no_error (error);
  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (ds)), ==, 5);
  g_assert_cmpuint (item->len, ==, 2);
  x = g_ptr_array_index (item, 0);
  g_assert_cmpuint (gnn_tensor_get_ndim (x), ==, 1);
  g_assert_cmpfloat (gnn_tensor_get_element (x, (gint64[]) { 1 }, 1, NULL), ==, 7.0);
  g_assert_true (gnn_tensor_shares_storage (x, g_ptr_array_index (tensors, 0)));
  g_assert_cmpuint (gnn_tensor_get_ndim (g_ptr_array_index (item, 1)), ==, 0);
  g_assert_cmpfloat (gnn_tensor_item (g_ptr_array_index (item, 1), NULL), ==, 3.0);
}

static void
test_tensor_dataset_size_mismatch (void)
{
  g_autoptr(GnnTensor) a = gnn_tensor_zeros ((gint64[]) { 4, 2 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { a, b };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (ts, 2, &error);

  g_assert_null (ds);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Size mismatch between tensors"));
}

static void
test_get_item_out_of_range (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (5);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (GNN_DATASET (ds), 5, &error);

  g_assert_null (item);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "index 5"));
  g_assert_nonnull (strstr (error->message, "length 5"));
}

static void
test_subset_maps_indices (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (10);
  gint64 idx[] = { 7, 2, 2 };
  g_autoptr(GnnSubset) sub = gnn_subset_new (GNN_DATASET (ds), idx, 3, NULL);

  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (sub)), ==, 3);
  g_assert_cmpint (label_of (GNN_DATASET (sub), 0), ==, 7);
  g_assert_cmpint (label_of (GNN_DATASET (sub), 2), ==, 2);
}

static void
test_subset_bad_index (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnSubset) sub = gnn_subset_new (GNN_DATASET (ds), (gint64[]) { 1, 4 }, 2, &error);

  g_assert_null (sub);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "index 4"));
}

static void
test_concat_indexes_across_parts (void)
{
  g_autoptr(GnnTensorDataset) a = make_range_dataset (3);
  g_autoptr(GnnTensorDataset) b = make_range_dataset (0);
  g_autoptr(GnnTensorDataset) c = make_range_dataset (4);
  GnnDataset *parts[] = { GNN_DATASET (a), GNN_DATASET (b), GNN_DATASET (c) };
  g_autoptr(GnnConcatDataset) cat = gnn_concat_dataset_new (parts, 3, NULL);
  g_autoptr(GPtrArray) got = gnn_concat_dataset_get_datasets (cat);
  const gint64 *cum;
  guint n;

  g_assert_cmpuint (got->len, ==, 3);
  for (guint i = 0; i < got->len; i++)
    g_assert_true (g_ptr_array_index (got, i) == parts[i]);
  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (cat)), ==, 7);
  cum = gnn_concat_dataset_get_cumulative_sizes (cat, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (cum[0], ==, 3);
  g_assert_cmpint (cum[1], ==, 3);
  g_assert_cmpint (cum[2], ==, 7);
  g_assert_cmpint (label_of (GNN_DATASET (cat), 2), ==, 2);
  g_assert_cmpint (label_of (GNN_DATASET (cat), 3), ==, 0);
  g_assert_cmpint (label_of (GNN_DATASET (cat), 6), ==, 3);
}

static void
test_concat_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnConcatDataset) cat = gnn_concat_dataset_new (NULL, 0, &error);

  g_assert_null (cat);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "datasets should not be an empty iterable");
}

static void
test_random_split_partitions (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (10);
  g_autoptr(GnnGenerator) g = gnn_generator_new (42);
  g_autoptr(GPtrArray) parts = gnn_random_split (GNN_DATASET (ds), (gint64[]) { 3, 7 }, 2, g, NULL);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (42);
  g_autoptr(GPtrArray) again = gnn_random_split (GNN_DATASET (ds), (gint64[]) { 3, 7 }, 2, g2, NULL);
  gboolean seen[10] = { FALSE };

  g_assert_cmpuint (parts->len, ==, 2);
  g_assert_cmpint (gnn_dataset_get_length (g_ptr_array_index (parts, 0)), ==, 3);
  g_assert_cmpint (gnn_dataset_get_length (g_ptr_array_index (parts, 1)), ==, 7);
  for (guint p = 0; p < 2; p++)
    {
      GnnDataset *part = g_ptr_array_index (parts, p);

      for (gint64 i = 0; i < gnn_dataset_get_length (part); i++)
        {
          gint64 l = label_of (part, i);

          g_assert_false (seen[l]);
          seen[l] = TRUE;
          g_assert_cmpint (l, ==, label_of (g_ptr_array_index (again, p), i));
        }
    }
}

static void
test_random_split_bad_sum (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (10);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parts = gnn_random_split (GNN_DATASET (ds), (gint64[]) { 3, 6 }, 2, NULL, &error);

  g_assert_null (parts);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message,
                            "Sum of input lengths does not equal the length of the input dataset!"));
}

static void
test_random_split_fractions_round_robin (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (11);
  g_autoptr(GPtrArray) parts =
    gnn_random_split_fractions (GNN_DATASET (ds), (double[]) { 0.3, 0.3, 0.4 }, 3, NULL, NULL);

  /* floor: 3, 3, 4 = 10; the remainder 1 goes to the first part (PyTorch) */
  g_assert_cmpint (gnn_dataset_get_length (g_ptr_array_index (parts, 0)), ==, 4);
  g_assert_cmpint (gnn_dataset_get_length (g_ptr_array_index (parts, 1)), ==, 3);
  g_assert_cmpint (gnn_dataset_get_length (g_ptr_array_index (parts, 2)), ==, 4);
}

/* A dataset implemented in C through the vfuncs: item i = (i * 10). */
typedef struct { GnnDataset parent_instance; } TestTens;
typedef struct { GnnDatasetClass parent_class; } TestTensClass;
G_DEFINE_TYPE (TestTens, test_tens, GNN_TYPE_DATASET)

static gint64 test_tens_get_length (GnnDataset *ds) { return 4; }

static void
test_tens_get_item (GnnDataset *ds, gint64 index, GPtrArray **item, GError **error)
{
  *item = g_ptr_array_new ();   /* no free func, as a binding builds it */
  g_ptr_array_add (*item, gnn_tensor_new_scalar ((double) index * 10, GNN_DTYPE_F64));
}

static void
test_tens_class_init (TestTensClass *klass)
{
  GNN_DATASET_CLASS (klass)->get_length = test_tens_get_length;
  GNN_DATASET_CLASS (klass)->get_item = test_tens_get_item;
}

static void test_tens_init (TestTens *self) { }

static void
test_subclass_vfuncs (void)
{
  g_autoptr(GnnDataset) ds = g_object_new (test_tens_get_type (), NULL);
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (ds, 3, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) none = gnn_dataset_get_item (ds, -1, &error);

  g_assert_cmpint (gnn_dataset_get_length (ds), ==, 4);
  g_assert_cmpfloat (gnn_tensor_item (g_ptr_array_index (item, 0), NULL), ==, 30.0);
  g_assert_null (none);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

static void
test_default_collate_stacks_fields (void)
{
  g_autoptr(GnnTensorDataset) ds = make_range_dataset (5);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GError) error = NULL;
  const gint64 *shape;
  guint ndim;

  for (gint64 i = 1; i < 4; i++)
    {
      GPtrArray *item = gnn_dataset_get_item (GNN_DATASET (ds), i, NULL);

      g_ptr_array_extend_and_steal (items, item);
    }
  batch = gnn_default_collate (items, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (batch->len, ==, 2);
  shape = gnn_tensor_get_shape (g_ptr_array_index (batch, 0), &ndim);
  g_assert_cmpuint (ndim, ==, 2);
  g_assert_cmpint (shape[0], ==, 3);
  g_assert_cmpint (shape[1], ==, 2);
  g_assert_cmpfloat (gnn_tensor_get_element (g_ptr_array_index (batch, 0), (gint64[]) { 2, 1 }, 2, NULL), ==, 7.0);
  shape = gnn_tensor_get_shape (g_ptr_array_index (batch, 1), &ndim);
  g_assert_cmpuint (ndim, ==, 1);
  g_assert_cmpint (shape[0], ==, 3);
  g_assert_cmpint (gnn_tensor_get_dtype (g_ptr_array_index (batch, 1)), ==, GNN_DTYPE_I64);
  g_assert_cmpfloat (gnn_tensor_get_element (g_ptr_array_index (batch, 1), (gint64[]) { 0 }, 1, NULL), ==, 1.0);
}

static void
test_default_collate_strided_input (void)
{
  g_autoptr(GnnTensor) m = gnn_tensor_arange (0, 6, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) m2 = gnn_tensor_reshape (m, (gint64[]) { 2, 3 }, 2, NULL);
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (m2, 0, 1, NULL);   /* [3, 2], strided */
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) batch = NULL;

  g_ptr_array_add (items, g_object_ref (t));
  g_ptr_array_add (items, g_object_ref (t));
  batch = gnn_default_collate (items, 1, NULL);
  g_assert_nonnull (batch);
  /* t[2][1] = m2[1][2] = 5 */
  g_assert_cmpfloat (gnn_tensor_get_element (g_ptr_array_index (batch, 0), (gint64[]) { 1, 2, 1 }, 3, NULL), ==, 5.0);
  g_assert_cmpfloat (gnn_tensor_get_element (g_ptr_array_index (batch, 0), (gint64[]) { 0, 1, 0 }, 3, NULL), ==, 1.0);
}

static void
test_default_collate_shape_mismatch (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (items, gnn_tensor_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_F32, NULL));
  g_ptr_array_add (items, gnn_tensor_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL));
  batch = gnn_default_collate (items, 1, &error);
  g_assert_null (batch);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message,
                            "stack expects each tensor to be equal size, but got [3] at entry 0 and [4] at entry 1"));
}

/* A custom collation: one tensor holding the number of tensors received. */
typedef struct { GnnCollate parent_instance; } CountCollate;
typedef struct { GnnCollateClass parent_class; } CountCollateClass;
G_DEFINE_TYPE (CountCollate, count_collate, GNN_TYPE_COLLATE)

static void
count_collate_collate (GnnCollate *self, GPtrArray *items, guint n_fields,
                       GPtrArray **batch, GError **error)
{
  *batch = g_ptr_array_new ();
  g_ptr_array_add (*batch, gnn_tensor_new_scalar (items->len * 100 + n_fields, GNN_DTYPE_F64));
}

static void count_collate_class_init (CountCollateClass *klass) { GNN_COLLATE_CLASS (klass)->collate = count_collate_collate; }
static void count_collate_init (CountCollate *self) { }

static void
test_custom_collate_vfunc (void)
{
  g_autoptr(GnnCollate) collate = g_object_new (count_collate_get_type (), NULL);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) batch = NULL;

  for (int i = 0; i < 6; i++)
    g_ptr_array_add (items, gnn_tensor_new_scalar (i, GNN_DTYPE_F32));
  batch = gnn_collate_collate (collate, items, 2, NULL);
  g_assert_cmpuint (batch->len, ==, 1);
  g_assert_cmpfloat (gnn_tensor_item (g_ptr_array_index (batch, 0), NULL), ==, 602.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/tensor-dataset/items-are-views", test_tensor_dataset_items_are_views);
  g_test_add_func ("/data/tensor-dataset/size-mismatch", test_tensor_dataset_size_mismatch);
  g_test_add_func ("/data/dataset/get-item-out-of-range", test_get_item_out_of_range);
  g_test_add_func ("/data/dataset/subclass-vfuncs", test_subclass_vfuncs);
  g_test_add_func ("/data/subset/maps-indices", test_subset_maps_indices);
  g_test_add_func ("/data/subset/bad-index", test_subset_bad_index);
  g_test_add_func ("/data/concat/indexes-across-parts", test_concat_indexes_across_parts);
  g_test_add_func ("/data/concat/empty", test_concat_empty);
  g_test_add_func ("/data/random-split/partitions", test_random_split_partitions);
  g_test_add_func ("/data/random-split/bad-sum", test_random_split_bad_sum);
  g_test_add_func ("/data/random-split/fractions-round-robin", test_random_split_fractions_round_robin);
  g_test_add_func ("/data/collate/stacks-fields", test_default_collate_stacks_fields);
  g_test_add_func ("/data/collate/strided-input", test_default_collate_strided_input);
  g_test_add_func ("/data/collate/shape-mismatch", test_default_collate_shape_mismatch);
  g_test_add_func ("/data/collate/custom-vfunc", test_custom_collate_vfunc);
  return g_test_run ();
}
