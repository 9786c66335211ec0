/* custom-dataset.c: a GnnDataset subclass that generates its items
 *
 * A map-style dataset implements two vfuncs, get_length and get_item, like
 * torch.utils.data.Dataset's __len__ and __getitem__. This one computes
 * points of a sine wave on demand instead of storing them: item i is
 * (x, sin(x), i % 2) with x = 2π·i/n, as a float, a float and an int64
 * 0-d tensor. The default collate stacks the fields of a batch.
 *
 * Exits 1 on any error, so it runs as a test.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gnn/gnn.h>

#define EX_TYPE_SINE_DATASET (ex_sine_dataset_get_type ())
G_DECLARE_FINAL_TYPE (ExSineDataset, ex_sine_dataset, EX, SINE_DATASET, GnnDataset)

struct _ExSineDataset
{
  GnnDataset parent_instance;
  gint64     n_points;
};

/* The length is a construct property, so g_object_new() and the bindings
 * (Python keywords, GJS property bags) can set it without a new() wrapper. */
enum { PROP_0, PROP_N_POINTS, N_PROPS };

G_DEFINE_FINAL_TYPE (ExSineDataset, ex_sine_dataset, GNN_TYPE_DATASET)

static gint64
ex_sine_dataset_get_length (GnnDataset *dataset)
{
  return EX_SINE_DATASET (dataset)->n_points;
}

/* Called with an index already checked to be in [0, length), possibly from
 * several worker threads at once: it only reads the dataset. */
static void
ex_sine_dataset_get_item (GnnDataset  *dataset,
                          gint64       index,
                          GPtrArray  **item,
                          GError     **error)
{
  ExSineDataset *self = EX_SINE_DATASET (dataset);
  double x = 2 * G_PI * (double) index / (double) self->n_points;

  /* The item owns its tensors (free function), the caller owns the item. */
  *item = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (*item, gnn_tensor_new_scalar (x, GNN_DTYPE_F32));
  g_ptr_array_add (*item, gnn_tensor_new_scalar (sin (x), GNN_DTYPE_F32));
  g_ptr_array_add (*item, gnn_tensor_new_scalar (index % 2, GNN_DTYPE_I64));
}

static void
ex_sine_dataset_set_property (GObject *object, guint prop_id,
                              const GValue *value, GParamSpec *pspec)
{
  if (prop_id == PROP_N_POINTS)
    EX_SINE_DATASET (object)->n_points = g_value_get_int64 (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ex_sine_dataset_get_property (GObject *object, guint prop_id,
                              GValue *value, GParamSpec *pspec)
{
  if (prop_id == PROP_N_POINTS)
    g_value_set_int64 (value, EX_SINE_DATASET (object)->n_points);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ex_sine_dataset_class_init (ExSineDatasetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnDatasetClass *dataset_class = GNN_DATASET_CLASS (klass);

  object_class->set_property = ex_sine_dataset_set_property;
  object_class->get_property = ex_sine_dataset_get_property;
  dataset_class->get_length = ex_sine_dataset_get_length;
  dataset_class->get_item = ex_sine_dataset_get_item;

  g_object_class_install_property (object_class, PROP_N_POINTS,
      g_param_spec_int64 ("n-points", NULL, NULL, 1, G_MAXINT64, 8,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
ex_sine_dataset_init (ExSineDataset *self)
{
}

int
main (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataset) dataset = g_object_new (EX_TYPE_SINE_DATASET, "n-points", (gint64) 10, NULL);
  g_autoptr(GPtrArray) item = NULL;
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  GPtrArray *batch;
  int n_batches = 0;

  /* Direct access, like dataset[3] in PyTorch. Out-of-range indices are
   * errors, not crashes. */
  item = gnn_dataset_get_item (dataset, 3, &error);
  if (item == NULL)
    goto fail;
  g_print ("len(dataset) = %" G_GINT64_FORMAT ", dataset[3] = (%g, %g, %g)\n",
           gnn_dataset_get_length (dataset),
           gnn_tensor_item (g_ptr_array_index (item, 0), NULL),
           gnn_tensor_item (g_ptr_array_index (item, 1), NULL),
           gnn_tensor_item (g_ptr_array_index (item, 2), NULL));

  /* Batches of 4 (the last one short), built by 2 worker threads: a C
   * dataset that only reads its fields is safe to share between them.
   * Batches still arrive in sampler order. */
  loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", dataset,
                         "batch-size", (gint64) 4, "num-workers", 2, NULL);
  iter = gnn_data_loader_iter (loader, &error);
  if (iter == NULL)
    goto fail;
  while (gnn_data_loader_iter_next (iter, &batch, &error))
    {
      g_autofree char *xs = gnn_tensor_to_string (g_ptr_array_index (batch, 0));
      g_autofree char *parity = gnn_tensor_to_string (g_ptr_array_index (batch, 2));

      g_print ("batch %d: x = %s, parity = %s\n", n_batches++, xs, parity);
      g_ptr_array_unref (batch);
    }
  if (error != NULL)
    goto fail;
  return n_batches == 3 ? 0 : 1;

fail:
  g_printerr ("custom-dataset: %s\n", error->message);
  return 1;
}
