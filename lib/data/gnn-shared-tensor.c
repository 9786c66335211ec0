/* gnn-shared-tensor.c: tensors a spawned worker maps instead of rebuilding
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A spawned worker rebuilds its dataset from properties. A tensor-valued
 * property (decoded images, a TensorDataset's columns) would otherwise be
 * serialized byte by byte, or the worker would redo the work that made it
 * (Fashion-MNIST's inflate + convert is 0.4 s); instead the parent hands
 * the worker the memfd that holds the data and the worker maps it, so a
 * worker starts in the time of an exec and its pages are the parent's.
 * Tensors made by gnn_shared_tensor_new() live in a memfd from the start;
 * another tensor is copied into one the first time it is shared, and the
 * copy is kept with the tensor for the next loader.
 */
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/gnn-data-private.h"
#include "data/gnn-worker-wire-private.h"

typedef struct
{
  int         fd;
  GnnStorage *storage;   /* the storage the memfd holds */
} SharedRecord;

G_DEFINE_QUARK (gnn-shared-tensor, shared_record)

static void
shared_record_free (gpointer data)
{
  SharedRecord *r = data;

  if (r->fd >= 0)
    close (r->fd);
  g_clear_pointer (&r->storage, gnn_storage_unref);
  g_free (r);
}

typedef struct
{
  gpointer map;
  gsize    size;
} Mapping;

static void
mapping_free (gpointer data)
{
  Mapping *m = data;

  munmap (m->map, m->size);
  g_free (m);
}

/* A storage over the mapping @map of @size bytes (unmapped with it). */
static GnnStorage *
storage_wrap (gpointer map,
              gsize    size)
{
  Mapping *m = g_new (Mapping, 1);

  m->map = map;
  m->size = MAX (size, 1);
  return gnn_storage_new_wrap (map, size, mapping_free, m);
}

static gboolean
checked_nbytes (GnnDType       dtype,
                const gint64  *shape,
                guint          ndim,
                gsize         *nbytes,
                GError       **error)
{
  gint64 numel;

  if (!gnn_shape_validate (shape, ndim, dtype, &numel, error))
    return FALSE;
  *nbytes = (gsize) numel * gnn_dtype_get_size (dtype);
  return TRUE;
}

GnnTensor *
gnn_shared_tensor_new (GnnDType       dtype,
                       const gint64  *shape,
                       guint          ndim,
                       GError       **error)
{
  gint64 strides[GNN_MAX_DIMS];
  SharedRecord *record;
  GnnStorage *storage;
  GnnTensor *tensor;
  guint8 *map;
  gsize nbytes;
  int fd;

  if (!checked_nbytes (dtype, shape, ndim, &nbytes, error))
    return NULL;
  fd = gnn_wire_memfd_new ("gnn-shared-tensor", MAX (nbytes, 1), &map);
  if (fd < 0)
    {
      gnn_set_alloc_error (error, nbytes, shape, ndim);
      return NULL;
    }
  storage = storage_wrap (map, nbytes);
  gnn_contiguous_strides (shape, ndim, strides);
  tensor = gnn_tensor_new_with_storage (storage, dtype, shape, strides, ndim, 0);
  record = g_new0 (SharedRecord, 1);
  record->fd = fd;
  record->storage = storage;   /* our reference: the tensor took its own */
  g_object_set_qdata_full (G_OBJECT (tensor), shared_record_quark (), record, shared_record_free);
  return tensor;
}

int
gnn_shared_tensor_dup_fd (GnnTensor  *tensor,
                          gsize      *offset,
                          GError    **error)
{
  SharedRecord *record = g_object_get_qdata (G_OBJECT (tensor), shared_record_quark ());
  GnnTensorPrivate *p = gnn_tensor_priv (tensor);
  g_autoptr(GnnTensor) packed = NULL;
  int fd;

  /* Its own memfd while it still looks at it (set_ replaces storages). */
  if (record != NULL && record->storage == p->storage && gnn_tensor_is_contiguous (tensor))
    {
      fd = fcntl (record->fd, F_DUPFD_CLOEXEC, 0);
      if (fd < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "cannot share a tensor with a worker: %s", g_strerror (errno));
          return -1;
        }
      *offset = (gsize) p->offset * gnn_dtype_get_size (p->dtype);
      return fd;
    }
  /* Another tensor: a snapshot in a new memfd, as pickling would take. */
  packed = gnn_shared_tensor_new (p->dtype, p->shape, p->ndim, error);
  if (packed == NULL || !gnn_tensor_copy_values_ (packed, tensor, error))
    return -1;
  record = g_object_get_qdata (G_OBJECT (packed), shared_record_quark ());
  fd = record->fd;
  record->fd = -1;   /* now the caller's */
  *offset = 0;
  return fd;
}

GnnTensor *
gnn_shared_tensor_map (int            fd,
                       gsize          offset,
                       GnnDType       dtype,
                       const gint64  *shape,
                       guint          ndim,
                       GError       **error)
{
  GnnStorage *storage;
  GnnTensor *tensor;
  gint64 strides[GNN_MAX_DIMS];
  struct stat st;
  gpointer map;
  gsize nbytes, elem = gnn_dtype_get_size (dtype);

  if (!checked_nbytes (dtype, shape, ndim, &nbytes, error))
    return NULL;
  if (fstat (fd, &st) != 0 || offset % elem != 0 ||
      (guint64) st.st_size < offset || (guint64) st.st_size - offset < nbytes)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FORMAT,
                           "a shared tensor from the parent does not fit its memory");
      return NULL;
    }
  /* Private: the worker reads the parent's pages; a write copies its own. */
  map = mmap (NULL, MAX ((gsize) st.st_size, 1), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "cannot map a shared tensor of %" G_GSIZE_FORMAT " bytes: %s",
                   nbytes, g_strerror (errno));
      return NULL;
    }
  storage = storage_wrap (map, (gsize) st.st_size);
  gnn_contiguous_strides (shape, ndim, strides);
  tensor = gnn_tensor_new_with_storage (storage, dtype, shape, strides, ndim,
                                        (gint64) (offset / elem));
  gnn_storage_unref (storage);
  return tensor;
}
