/* dataloader.c: one shuffled epoch of Fashion-MNIST through a GnnDataLoader
 *
 * The PyTorch equivalent:
 *
 *   loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=2,
 *                       generator=torch.Generator().manual_seed(1))
 *   for images, labels in loader: ...
 *
 * GnnIdxDataset reads Debian's dataset-fashion-mnist files (gzipped IDX).
 * When they are not installed, a random dataset of the same shape stands
 * in, so the example still runs (and runs as a test).
 *
 *   gnn-example-dataloader [DATA_DIR]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#define BATCH_SIZE       64

/* 1000 random 28x28 "images" labelled 0, for when the files are missing. */
static GnnDataset *
random_dataset (GError **error)
{
  const gint64 image_shape[] = { 1000, 28, 28 }, label_shape[] = { 1000 };
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  g_autoptr(GnnTensor) images = gnn_tensor_empty (image_shape, 3, GNN_DTYPE_F32, error);
  g_autoptr(GnnTensor) labels = gnn_tensor_zeros (label_shape, 1, GNN_DTYPE_I64, error);
  GnnTensor *tensors[2];

  if (images == NULL || labels == NULL || !gnn_tensor_uniform_ (images, 0, 1, gen, error))
    return NULL;
  tensors[0] = images;
  tensors[1] = labels;
  /* Item i is (images[i], labels[i]), views into the two tensors. */
  return GNN_DATASET (gnn_tensor_dataset_new (tensors, 2, error));
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : DEFAULT_DATA_DIR;
  g_autofree char *images_path = g_build_filename (dir, "train-images-idx3-ubyte.gz", NULL);
  g_autofree char *labels_path = g_build_filename (dir, "train-labels-idx1-ubyte.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataset) dataset = NULL;
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  GPtrArray *batch;
  gint64 n_batches = 0, n_images = 0, start;
  double seconds;

  dataset = GNN_DATASET (gnn_idx_dataset_new (images_path, labels_path, &error));
  if (dataset == NULL)
    {
      /* A missing file is GNN_ERROR_IO, a damaged one GNN_ERROR_FORMAT:
       * only the first is worth a fallback. */
      if (!g_error_matches (error, GNN_ERROR, GNN_ERROR_IO))
        goto fail;
      g_print ("%s\n(install dataset-fashion-mnist for the real data); "
               "using 1000 random images instead\n", error->message);
      g_clear_error (&error);
      dataset = random_dataset (&error);
      if (dataset == NULL)
        goto fail;
    }

  /* Every option is a property. Two worker threads share the dataset
   * (GnnIdxDataset's reads are thread-safe); the seed makes the shuffled
   * order, and each worker's seed (base + worker id), reproducible. */
  loader = g_object_new (GNN_TYPE_DATA_LOADER,
                         "dataset", dataset,
                         "batch-size", (gint64) BATCH_SIZE,
                         "shuffle", TRUE,
                         "num-workers", 2,
                         "seed", (guint64) 1,
                         NULL);
  g_print ("%" G_GINT64_FORMAT " images, %" G_GINT64_FORMAT " batches of up to %d\n",
           gnn_dataset_get_length (dataset), gnn_data_loader_get_length (loader), BATCH_SIZE);

  start = g_get_monotonic_time ();
  /* Starting the pass validates the options (PyTorch's checks) and starts
   * the workers, which prefetch 2 batches each. */
  iter = gnn_data_loader_iter (loader, &error);
  if (iter == NULL)
    goto fail;
  /* Batches come back in sampler order whichever worker finished first.
   * FALSE means the end of the epoch, or an error naming the worker and
   * the sample index. */
  while (gnn_data_loader_iter_next (iter, &batch, &error))
    {
      GnnTensor *images = g_ptr_array_index (batch, 0);   /* [64, 28, 28] f32 */

      if (n_batches == 0)
        {
          g_autoptr(GnnTensor) first_labels = gnn_tensor_narrow (g_ptr_array_index (batch, 1),
                                                                 0, 0, 8, NULL);
          g_autofree char *text = gnn_tensor_to_string (first_labels);
          const gint64 *shape = gnn_tensor_get_shape (images, NULL);

          g_print ("first batch: images [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT "], first labels %s\n", shape[0], shape[1], shape[2], text);
        }
      n_images += gnn_tensor_get_shape (images, NULL)[0];
      n_batches++;
      g_ptr_array_unref (batch);
    }
  if (error != NULL)
    goto fail;
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_print ("%" G_GINT64_FORMAT " batches (%" G_GINT64_FORMAT " images) in %.3f s: "
           "%.0f batches/s\n", n_batches, n_images, seconds, n_batches / seconds);

  return n_images == gnn_dataset_get_length (dataset) ? 0 : 1;

fail:
  g_printerr ("dataloader: %s\n", error->message);
  return 1;
}
