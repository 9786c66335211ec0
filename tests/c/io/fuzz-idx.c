/* libFuzzer harness for the IDX parser (lib/data/gnn-idx-dataset.c).
 *
 * Build and run: see fuzz-safetensors.c; seeds: tests/io/idx-corpus.
 *
 * The parser only reads paths, so each input is handed to it through two
 * memfds named /proc/self/fd/N: the first two bytes (little-endian) give the
 * length of the images file, the rest after it is the labels file. When a
 * dataset comes back, every image and label is read.
 */
#include <sys/mman.h>
#include <unistd.h>

#include <gnn/gnn.h>

static int images_fd = -1, labels_fd = -1;
static char images_path[64], labels_path[64];

static void
put (int           fd,
     const guint8 *data,
     size_t        size)
{
  if (ftruncate (fd, 0) != 0 || (size > 0 && pwrite (fd, data, size, 0) != (ssize_t) size))
    g_error ("cannot write the memfd");
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GnnIdxDataset) ds = NULL;
  g_autoptr(GError) error = NULL;
  size_t split;

  if (images_fd < 0)
    {
      images_fd = memfd_create ("images", MFD_CLOEXEC);
      labels_fd = memfd_create ("labels", MFD_CLOEXEC);
      g_assert (images_fd >= 0 && labels_fd >= 0);
      g_snprintf (images_path, sizeof images_path, "/proc/self/fd/%d", images_fd);
      g_snprintf (labels_path, sizeof labels_path, "/proc/self/fd/%d", labels_fd);
    }
  if (size < 2)
    return 0;
  split = MIN ((size_t) (data[0] | data[1] << 8), size - 2);
  put (images_fd, data + 2, split);
  put (labels_fd, data + 2 + split, size - 2 - split);

  ds = gnn_idx_dataset_new (images_path, labels_path, &error);
  if (ds != NULL)
    {
      GnnTensor *images = gnn_idx_dataset_get_images (ds);
      GnnTensor *labels = gnn_idx_dataset_get_labels (ds);
      const float *p = gnn_tensor_get_data (images);
      const gint64 *l = gnn_tensor_get_data (labels);
      volatile float sink = 0;

      for (gint64 i = 0; i < gnn_tensor_get_numel (images); i++)
        sink += p[i];
      for (gint64 i = 0; i < gnn_tensor_get_numel (labels); i++)
        sink += (float) l[i];
      (void) sink;
    }
  else
    g_assert (error != NULL && error->message != NULL && g_utf8_validate (error->message, -1, NULL));
  return 0;
}
