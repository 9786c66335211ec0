/* gnn-storage.c: refcounted, 64-byte aligned (or borrowed) tensor memory
 *
 * gnn_storage_new() returns NULL when memory is exhausted.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tensor/gnn-tensor-private.h"

/* Large buffers get 2 MiB alignment and transparent huge pages: a fresh
 * 64 MB result otherwise costs ~16K page faults, which dominates
 * elementwise ops (THP is usually in "madvise" mode). */
#define HUGE_THRESHOLD (4u << 20)
#define HUGE_ALIGN (2u << 20)

/* The header sits in front of small buffers, in one allocation: one
 * malloc/free per tensor instead of two (module construction makes many
 * small tensors). */
#define HEADER_SIZE ((sizeof (GnnStorage) + GNN_STORAGE_ALIGN - 1) / GNN_STORAGE_ALIGN * GNN_STORAGE_ALIGN)

GnnStorage *
gnn_storage_new (gsize nbytes, gboolean zeroed)
{
  GnnStorage *storage;
  /* aligned_alloc wants a size that is a multiple of the alignment; a
   * non-empty allocation also keeps data non-NULL for empty tensors. */
  gsize padded = (nbytes + GNN_STORAGE_ALIGN - 1) / GNN_STORAGE_ALIGN * GNN_STORAGE_ALIGN;

  if (padded == 0)
    padded = GNN_STORAGE_ALIGN;
  if (padded < HUGE_THRESHOLD)
    {
      guint8 *block = aligned_alloc (GNN_STORAGE_ALIGN, HEADER_SIZE + padded);

      /* Callers turn NULL into a GError naming the shape. */
      if (block == NULL)
        return NULL;
      storage = (GnnStorage *) block;
      memset (storage, 0, sizeof *storage);
      storage->data = block + HEADER_SIZE;
      storage->inline_block = TRUE;
    }
  else
    {
      storage = g_new0 (GnnStorage, 1);
      padded = (padded + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
      storage->data = aligned_alloc (HUGE_ALIGN, padded);
      if (storage->data == NULL)
        {
          g_free (storage);
          return NULL;
        }
      madvise (storage->data, padded, MADV_HUGEPAGE);
      storage->destroy = free;
      storage->destroy_data = storage->data;
    }
  g_atomic_ref_count_init (&storage->ref_count);
  if (zeroed)
    memset (storage->data, 0, padded);
  storage->nbytes = nbytes;
  return storage;
}

GnnStorage *
gnn_storage_new_wrap (gpointer       data,
                      gsize          nbytes,
                      GDestroyNotify destroy,
                      gpointer       destroy_data)
{
  GnnStorage *storage = g_new0 (GnnStorage, 1);

  g_atomic_ref_count_init (&storage->ref_count);
  storage->data = data;
  storage->nbytes = nbytes;
  storage->destroy = destroy;
  storage->destroy_data = destroy_data;
  return storage;
}

gint gnn_storage_meta_live;

/* Meta storages: a header with a size but no memory (data NULL). */
GnnStorage *
gnn_storage_new_meta (gsize nbytes)
{
  GnnStorage *storage = g_new0 (GnnStorage, 1);

  g_atomic_ref_count_init (&storage->ref_count);
  storage->nbytes = nbytes;
  storage->meta = TRUE;
  g_atomic_int_inc (&gnn_storage_meta_live);
  return storage;
}

GnnStorage *
gnn_storage_ref (GnnStorage *storage)
{
  g_atomic_ref_count_inc (&storage->ref_count);
  return storage;
}

void
gnn_storage_unref (GnnStorage *storage)
{
  if (storage == NULL || !g_atomic_ref_count_dec (&storage->ref_count))
    return;
  if (storage->inline_block)
    {
      free (storage);   /* header and data are one block */
      return;
    }
  if (storage->meta)
    g_atomic_int_add (&gnn_storage_meta_live, -1);
  if (storage->destroy != NULL)
    storage->destroy (storage->destroy_data);
  g_free (storage);
}
