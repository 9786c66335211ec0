/* GnnBatch: building and reading named, typed batches; collation of dict
 * and tuple items into one; a loader pass yielding them with their names
 * in every worker mode (none, threads, forked and spawned processes). */
#include <string.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

/* A dataset of dict items {"x": [i, -i] (float), "label": i (int64 0-d)},
 * the keys in that order; with @odd_key, item 3 has "y" for "label". */
typedef struct
{
  GnnDataset parent_instance;
  gint64     length;
  gint64     odd_key;
} DictDs;
typedef struct { GnnDatasetClass parent_class; } DictDsClass;
GType dict_ds_get_type (void);
G_DEFINE_TYPE (DictDs, dict_ds, GNN_TYPE_DATASET)

static gint64
dict_ds_get_length (GnnDataset *ds)
{
  return ((DictDs *) ds)->length;
}

static GnnBatch *
dict_item (gint64 i, const char *label_key, GError **error)
{
  float x[2] = { (float) i, (float) -i };
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_object_unref);
  const char *names[] = { "x", label_key, NULL };

  g_ptr_array_add (fields, gnn_tensor_new_from_floats (x, 2, (gint64[]) { 2 }, 1, NULL));
  g_ptr_array_add (fields, gnn_tensor_new_scalar ((double) i, GNN_DTYPE_I64));
  return gnn_batch_new_dict (names, fields, error);
}

static void
dict_ds_get_item_batch (GnnDataset *ds, gint64 index, GnnBatch **item, GError **error)
{
  DictDs *self = (DictDs *) ds;

  *item = dict_item (index, self->odd_key == index ? "y" : "label", error);
}

static void
dict_ds_get_item (GnnDataset *ds, gint64 index, GPtrArray **item, GError **error)
{
  g_autoptr(GnnBatch) b = dict_item (index, "label", error);

  *item = gnn_batch_get_tensors (b);
}

static const FieldProp dict_ds_props[] = {
  { "length", G_STRUCT_OFFSET (DictDs, length), sizeof (gint64) },
  { "odd-key", G_STRUCT_OFFSET (DictDs, odd_key), sizeof (gint64) },
};

static void
dict_ds_class_init (DictDsClass *klass)
{
  GNN_DATASET_CLASS (klass)->get_length = dict_ds_get_length;
  GNN_DATASET_CLASS (klass)->get_item = dict_ds_get_item;
  GNN_DATASET_CLASS (klass)->get_item_batch = dict_ds_get_item_batch;
  install_field_props (G_OBJECT_CLASS (klass), dict_ds_props, G_N_ELEMENTS (dict_ds_props), 1 << 1);
}

static void dict_ds_init (DictDs *self) { self->odd_key = -1; }

static GnnDataset *
dict_ds_new (gint64 length)
{
  return g_object_new (dict_ds_get_type (), "length", length, NULL);
}

static GPtrArray *
two_tensors (void)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (a, gnn_tensor_new_scalar (1, GNN_DTYPE_F32));
  g_ptr_array_add (a, gnn_tensor_new_scalar (2, GNN_DTYPE_I64));
  return a;
}

static void
test_build_and_read (void)
{
  g_autoptr(GPtrArray) tensors = two_tensors ();
  const char *names[] = { "image", "label", NULL };
  g_autoptr(GnnBatch) dict = gnn_batch_new_dict (names, tensors, NULL);
  g_autoptr(GnnBatch) tuple = gnn_batch_new_tuple (tensors);
  g_autoptr(GnnBatch) bare = gnn_batch_new_bare (g_ptr_array_index (tensors, 0));
  g_autoptr(GPtrArray) back = NULL;
  g_auto(GStrv) dup = NULL;
  GnnBatch *ref;

  g_assert_nonnull (dict);
  g_assert_cmpint (gnn_batch_get_kind (dict), ==, GNN_BATCH_KIND_DICT);
  g_assert_cmpuint (gnn_batch_get_n_fields (dict), ==, 2);
  g_assert_cmpstr (gnn_batch_get_name (dict, 1), ==, "label");
  g_assert_true (gnn_batch_lookup (dict, "label") == g_ptr_array_index (tensors, 1));
  g_assert_true (gnn_batch_get_field (dict, 0) == g_ptr_array_index (tensors, 0));
  g_assert_null (gnn_batch_lookup (dict, "nope"));
  g_assert_cmpint (gnn_batch_find_name (dict, "image"), ==, 0);
  dup = gnn_batch_dup_names (dict);
  g_assert_cmpstrv (dup, names);
  back = gnn_batch_get_tensors (dict);
  g_assert_cmpuint (back->len, ==, 2);
  g_assert_true (g_ptr_array_index (back, 1) == g_ptr_array_index (tensors, 1));

  g_assert_cmpint (gnn_batch_get_kind (tuple), ==, GNN_BATCH_KIND_TUPLE);
  g_assert_null (gnn_batch_get_name (tuple, 0));
  g_assert_null (gnn_batch_dup_names (tuple));
  g_assert_cmpint (gnn_batch_find_name (tuple, "image"), ==, -1);
  g_assert_false (gnn_batch_same_layout (tuple, dict));

  g_assert_cmpint (gnn_batch_get_kind (bare), ==, GNN_BATCH_KIND_BARE);
  g_assert_cmpuint (gnn_batch_get_n_fields (bare), ==, 1);

  /* a boxed type: copy is a reference */
  ref = g_boxed_copy (GNN_TYPE_BATCH, dict);
  g_assert_true (ref == dict);
  g_boxed_free (GNN_TYPE_BATCH, ref);
  g_assert_true (G_TYPE_IS_BOXED (GNN_TYPE_BATCH));
  g_assert_true (G_TYPE_IS_ENUM (GNN_TYPE_BATCH_KIND));
}

static void
expect_bad (GnnBatchKind kind, const char * const *names, guint n_tensors, const char *message)
{
  g_autoptr(GPtrArray) tensors = two_tensors ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatch) b = NULL;

  g_ptr_array_set_size (tensors, n_tensors);
  b = gnn_batch_new (kind, names, tensors, &error);
  g_assert_null (b);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_bad_layouts (void)
{
  expect_bad (GNN_BATCH_KIND_DICT, (const char *[]) { "a", "a", NULL }, 2,
              "GnnBatch: duplicate field name 'a' (fields 0 and 1)");
  expect_bad (GNN_BATCH_KIND_DICT, (const char *[]) { "a", NULL }, 2, "GnnBatch: 1 names for 2 fields");
  expect_bad (GNN_BATCH_KIND_DICT, NULL, 2, "GnnBatch: a dict batch needs a name for each field");
  expect_bad (GNN_BATCH_KIND_BARE, NULL, 2, "GnnBatch: a bare batch has one unnamed field, not 2 fields");
  expect_bad (GNN_BATCH_KIND_TUPLE, (const char *[]) { "a", "\xff", NULL }, 2,
              "GnnBatch: the name of field 1 is not UTF-8");
}

static GPtrArray *
dict_items (guint n, const char *last_label_key)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_batch_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dict_item (i, i == n - 1 ? last_label_key : "label", NULL));
  return items;
}

static void
assert_dict_batch (GnnBatch *b, gint64 first, gint64 n)
{
  GnnTensor *x, *label;

  g_assert_cmpint (gnn_batch_get_kind (b), ==, GNN_BATCH_KIND_DICT);
  g_assert_cmpuint (gnn_batch_get_n_fields (b), ==, 2);
  g_assert_cmpstr (gnn_batch_get_name (b, 0), ==, "x");
  g_assert_cmpstr (gnn_batch_get_name (b, 1), ==, "label");
  x = gnn_batch_lookup (b, "x");
  label = gnn_batch_lookup (b, "label");
  g_assert_cmpint (gnn_tensor_get_size (x, 0, NULL), ==, n);
  g_assert_cmpint (gnn_tensor_get_size (x, 1, NULL), ==, 2);
  g_assert_cmpint (gnn_tensor_get_dtype (label), ==, GNN_DTYPE_I64);
  for (gint64 i = 0; i < n; i++)
    {
      gint64 at[2] = { i, 1 };

      g_assert_cmpfloat (gnn_tensor_get_element (label, &i, 1, NULL), ==, first + i);
      g_assert_cmpfloat (gnn_tensor_get_element (x, at, 2, NULL), ==, -(first + i));
    }
}

static void
test_collate_dict_items (void)
{
  g_autoptr(GPtrArray) items = dict_items (3, "label");
  g_autoptr(GnnCollate) collate = gnn_collate_new ();
  g_autoptr(GnnBatch) a = gnn_default_collate_batch (items, NULL);
  g_autoptr(GnnBatch) b = gnn_collate_collate_batch (collate, items, NULL);
  g_autoptr(GPtrArray) odd = dict_items (3, "y");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatch) bad = NULL;

  assert_dict_batch (a, 0, 3);
  assert_dict_batch (b, 0, 3);
  /* torch looks the first item's keys up in every item: KeyError */
  bad = gnn_default_collate_batch (odd, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==,
                   "entry 2: KeyError: 'label' (a key of the first element of the batch)");
}

static void
test_collate_tuple_items (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_batch_unref);
  g_autoptr(GPtrArray) short_item = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnBatch) batch = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) mixed = NULL;

  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(GPtrArray) t = two_tensors ();

      g_ptr_array_add (items, gnn_batch_new_tuple (t));
    }
  batch = gnn_default_collate_batch (items, NULL);
  g_assert_cmpint (gnn_batch_get_kind (batch), ==, GNN_BATCH_KIND_TUPLE);
  g_assert_cmpuint (gnn_batch_get_n_fields (batch), ==, 2);
  g_assert_null (gnn_batch_get_name (batch, 0));
  g_assert_cmpint (gnn_tensor_get_size (gnn_batch_get_field (batch, 1), 0, NULL), ==, 4);
  g_assert_cmpint (gnn_tensor_get_dtype (gnn_batch_get_field (batch, 1)), ==, GNN_DTYPE_I64);

  g_ptr_array_add (short_item, gnn_tensor_new_scalar (1, GNN_DTYPE_F32));
  g_ptr_array_add (items, gnn_batch_new_tuple (short_item));
  g_assert_null (gnn_default_collate_batch (items, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "entry 4: each element in list of batch should be of "
                   "equal size (1 fields, the first item of the batch has 2)");
  g_clear_error (&error);

  /* a dict among tuples */
  mixed = dict_items (1, "label");
  g_ptr_array_add (mixed, g_ptr_array_steal_index (items, 0));
  g_assert_null (gnn_default_collate_batch (mixed, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "entry 1: default_collate: the first element of the "
                   "batch is a dict, this one a tuple");
  g_clear_error (&error);

  g_ptr_array_set_size (mixed, 0);
  g_assert_null (gnn_default_collate_batch (mixed, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static void
test_item_batch_of_plain_dataset (void)
{
  g_autoptr(Probe) probe = probe_new (5, FALSE);
  g_autoptr(GnnBatch) item = gnn_dataset_get_item_batch (GNN_DATASET (probe), 2, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (gnn_batch_get_kind (item), ==, GNN_BATCH_KIND_TUPLE);
  g_assert_cmpuint (gnn_batch_get_n_fields (item), ==, 3);
  g_assert_cmpfloat (gnn_tensor_item (gnn_batch_get_field (item, 0), NULL), ==, 2);
  g_assert_null (gnn_dataset_get_item_batch (GNN_DATASET (probe), 5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

static void
run_loader (gconstpointer data)
{
  GnnWorkerMode mode = GPOINTER_TO_INT (data) - 1;
  gint workers = GPOINTER_TO_INT (data) == 0 ? 0 : 2;
  g_autoptr(GnnDataset) ds = dict_ds_new (10);
  g_autoptr(GnnDataLoader) loader = loader_new (ds, 4, FALSE, workers,
                                                workers == 0 ? GNN_WORKER_MODE_THREADS : mode);
  g_autoptr(GnnDataLoaderIter) it = NULL;
  g_autoptr(GError) error = NULL;
  gint64 seen = 0;

  it = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  for (;;)
    {
      g_autoptr(GnnBatch) batch = NULL;
      gint64 n;

      if (!gnn_data_loader_iter_next_batch (it, &batch, &error))
        break;
      n = MIN (4, 10 - seen);
      assert_dict_batch (batch, seen, n);
      seen += n;
    }
  g_assert_no_error (error);
  g_assert_cmpint (seen, ==, 10);

  /* the GPtrArray entry point gives the same tensors, unnamed */
  g_clear_object (&it);
  it = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GPtrArray) batch = NULL;

    g_assert_true (gnn_data_loader_iter_next (it, &batch, &error));
    g_assert_cmpuint (batch->len, ==, 2);
    g_assert_cmpint (gnn_tensor_get_size (g_ptr_array_index (batch, 0), 0, NULL), ==, 4);
  }
}

static void
test_loader_key_mismatch (void)
{
  g_autoptr(GnnDataset) ds = dict_ds_new (8);
  g_autoptr(GnnDataLoader) loader = loader_new (ds, 4, FALSE, 2, GNN_WORKER_MODE_PROCESSES);
  g_autoptr(GnnDataLoaderIter) it = NULL;
  g_autoptr(GnnBatch) batch = NULL;
  g_autoptr(GError) error = NULL;

  g_object_set (ds, "odd-key", (gint64) 3, NULL);
  it = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  g_assert_false (gnn_data_loader_iter_next_batch (it, &batch, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_nonnull (strstr (error->message, "sample index 3: KeyError: 'label'"));
}

int
main (int argc, char **argv)
{
  g_type_ensure (dict_ds_get_type ());
  gnn_worker_main_if_worker ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/batch/build-and-read", test_build_and_read);
  g_test_add_func ("/data/batch/bad-layouts", test_bad_layouts);
  g_test_add_func ("/data/batch/collate-dict-items", test_collate_dict_items);
  g_test_add_func ("/data/batch/collate-tuple-items", test_collate_tuple_items);
  g_test_add_func ("/data/batch/item-batch-of-plain-dataset", test_item_batch_of_plain_dataset);
  g_test_add_data_func ("/data/batch/loader/no-workers", GINT_TO_POINTER (0), run_loader);
  g_test_add_data_func ("/data/batch/loader/threads",
                        GINT_TO_POINTER (GNN_WORKER_MODE_THREADS + 1), run_loader);
  g_test_add_data_func ("/data/batch/loader/processes",
                        GINT_TO_POINTER (GNN_WORKER_MODE_PROCESSES + 1), run_loader);
  g_test_add_data_func ("/data/batch/loader/spawn",
                        GINT_TO_POINTER (GNN_WORKER_MODE_SPAWN + 1), run_loader);
  g_test_add_func ("/data/batch/loader/key-mismatch", test_loader_key_mismatch);
  return g_test_run ();
}
