/* gnn-storage.c: refcounted, 64-byte aligned (or borrowed) tensor memory
 *
 * gnn_storage_new() returns NULL when memory is exhausted.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-tensor-private.h"
#include <gnn/gnn-memory.h>

/* Large buffers get 2 MiB alignment and transparent huge pages: a fresh
 * 64 MB result otherwise costs ~16K page faults, which dominates
 * elementwise ops (THP is usually in "madvise" mode). */
#define HUGE_THRESHOLD (4u << 20)
#define HUGE_ALIGN (2u << 20)

/* The header sits in front of small buffers, in one allocation: one
 * malloc/free per tensor instead of two (module construction makes many
 * small tensors). */
#define HEADER_SIZE ((sizeof (GnnStorage) + GNN_STORAGE_ALIGN - 1) / GNN_STORAGE_ALIGN * GNN_STORAGE_ALIGN)

/* --- a per-thread cache of small blocks ----------------------------------
 *
 * Even a malloc is more than a 1×16 Linear's arithmetic; the small blocks
 * that tiny ops allocate and free at a high rate are kept per thread
 * instead, a few of each padded size up to CACHE_MAX_BYTES (freed at thread
 * exit).
 * Off under AddressSanitizer, which should see every free. */
#define CACHE_MAX_BYTES 1024
#define CACHE_CLASSES (CACHE_MAX_BYTES / GNN_STORAGE_ALIGN)
#define CACHE_DEPTH 8

typedef struct
{
  guint   n[CACHE_CLASSES];
  guint8 *blocks[CACHE_CLASSES][CACHE_DEPTH];
} BlockCache;

static void aligned_block_free (guint8 *block);

static _Thread_local BlockCache *tls_cache;
static _Thread_local gboolean tls_cache_closed;

static void
cache_free (gpointer data)
{
  BlockCache *cache = data;

  tls_cache_closed = TRUE;
  tls_cache = NULL;
  for (guint c = 0; c < CACHE_CLASSES; c++)
    while (cache->n[c] > 0)
      aligned_block_free (cache->blocks[c][--cache->n[c]]);
  g_free (cache);
}

static GPrivate cache_key = G_PRIVATE_INIT (cache_free);

#if defined(__SANITIZE_ADDRESS__)
# define CACHE_ENABLED FALSE
#else
# define CACHE_ENABLED TRUE
#endif

/* The cache class of a padded data size, or -1. */
static inline gint
cache_class (gsize padded)
{
  return padded <= CACHE_MAX_BYTES ? (gint) (padded / GNN_STORAGE_ALIGN) - 1 : -1;
}

static gsize
padded_size (gsize nbytes)
{
  gsize padded = (nbytes + GNN_STORAGE_ALIGN - 1) / GNN_STORAGE_ALIGN * GNN_STORAGE_ALIGN;

  return padded == 0 ? GNN_STORAGE_ALIGN : padded;
}

/* A block aligned by hand inside a malloc'd one, the malloc pointer kept
 * just before it: glibc's memalign path over-allocates and splits a chunk
 * on every call (~750 instructions against ~150 for malloc; two per Linear
 * built). */
static guint8 *
aligned_block_new (gsize size)
{
  guint8 *raw, *block;

  if (size > G_MAXSIZE - GNN_STORAGE_ALIGN - sizeof (gpointer))
    return NULL;
  raw = malloc (size + GNN_STORAGE_ALIGN + sizeof (gpointer));
  if (raw == NULL)
    return NULL;
  block = (guint8 *) (((guintptr) raw + sizeof (gpointer) + GNN_STORAGE_ALIGN - 1) &
                      ~(guintptr) (GNN_STORAGE_ALIGN - 1));
  memcpy (block - sizeof (gpointer), &raw, sizeof raw);
  return block;
}

static void
aligned_block_free (guint8 *block)
{
  gpointer raw;

  memcpy (&raw, block - sizeof (gpointer), sizeof raw);
  free (raw);
}

static guint8 *
block_alloc (gsize padded)
{
  gint c = cache_class (padded);

  if (c >= 0 && tls_cache != NULL && tls_cache->n[c] > 0)
    return tls_cache->blocks[c][--tls_cache->n[c]];
  return aligned_block_new (HEADER_SIZE + padded);
}

static void
block_free (guint8 *block,
            gsize   padded)
{
  gint c = cache_class (padded);
  BlockCache *cache = tls_cache;

  if (c >= 0 && cache == NULL && CACHE_ENABLED && !tls_cache_closed)
    {
      cache = g_new0 (BlockCache, 1);
      g_private_set (&cache_key, cache);
      tls_cache = cache;
    }
  if (c >= 0 && cache != NULL && cache->n[c] < CACHE_DEPTH)
    cache->blocks[c][cache->n[c]++] = block;
  else
    aligned_block_free (block);
}

/* --- a process-wide cache of large blocks --------------------------------
 * A training step frees and allocates the same large buffers (activations,
 * their gradients, im2col columns, an LSTM's 700 × 10000 logits) at every
 * step. A fresh large block is a new mapping whose pages the kernel zeroes
 * and faults in at first touch (a quarter of a ResNet-18 step, ~17 % of an
 * LSTM language-model step); glibc's own reuse stops at its mmap threshold
 * (32 MiB at most, and an aligned_alloc of the size just freed asks for more
 * than that chunk). So freed large blocks wait here, matched by exact
 * (2 MiB-rounded) size, at most LARGE_BLOCKS of them and LARGE_BYTES in all,
 * the least recently freed leaving first. A miss first frees cached blocks
 * of at least the size it needs, so memory held (live + cached) does not
 * grow past what the program already had at its peak; gnn_empty_cache ()
 * returns what is cached after that peak, gnn_set_cache_limit () changes
 * LARGE_BYTES_DEFAULT. Off under AddressSanitizer, which should see every
 * free. */
#define LARGE_BLOCKS 128
#define LARGE_BYTES_DEFAULT ((guint64) 512 << 20)

typedef struct
{
  gpointer data;
  gsize    size;
} LargeBlock;

static GMutex large_mutex;
static LargeBlock large_cache[LARGE_BLOCKS];
static guint large_n;
static gsize large_bytes;
static guint64 large_limit = LARGE_BYTES_DEFAULT;   /* the lock held */

/* A fork (DataLoader workers) while another thread holds the lock would
 * leave the child's copy locked for ever: the lock is held across fork. */
static void large_lock_acquire (void) { g_mutex_lock (&large_mutex); }
static void large_lock_release (void) { g_mutex_unlock (&large_mutex); }

static void
large_lock (void)
{
  static gsize registered;

  if (g_once_init_enter (&registered))
    {
      pthread_atfork (large_lock_acquire, large_lock_release, large_lock_release);
      g_once_init_leave (&registered, 1);
    }
  g_mutex_lock (&large_mutex);
}

/* Takes cached block @i out (the lock held); returns its data. */
static gpointer
large_take (guint i)
{
  gpointer data = large_cache[i].data;

  large_bytes -= large_cache[i].size;
  memmove (&large_cache[i], &large_cache[i + 1], (large_n - i - 1) * sizeof (LargeBlock));
  large_n--;
  return data;
}

/* A block of at least @size bytes; *@got is its real size. The smallest
 * cached block that is large enough, and at most twice as large, serves
 * (the most recently freed of equals): taking a larger one adds nothing to
 * the memory held and wastes at most half of it, while a
 * miss evicts, and with exact sizes alone a step whose sizes come in
 * another order than they were freed missed every time — an LSTM language
 * model step (28, 26, 14 and 8 MiB blocks) allocated all 18 of its large
 * blocks fresh at every step, 22 % of its time the kernel zeroing pages. */
static gpointer
large_alloc (gsize  size,
             gsize *got)
{
  gpointer data = NULL, evicted[LARGE_BLOCKS];
  guint n_evicted = 0, best = G_MAXUINT;
  gsize freed = 0;

  *got = size;
  large_lock ();
  for (guint i = large_n; i-- > 0;)
    if (large_cache[i].size >= size && large_cache[i].size / 2 <= size &&
        (best == G_MAXUINT || large_cache[i].size < large_cache[best].size))
      best = i;
  if (best != G_MAXUINT)
    {
      *got = large_cache[best].size;
      data = large_take (best);
    }
  while (data == NULL && large_n > 0 && freed < size)
    {
      freed += large_cache[0].size;
      evicted[n_evicted++] = large_take (0);
    }
  g_mutex_unlock (&large_mutex);
  while (n_evicted > 0)
    free (evicted[--n_evicted]);
  if (data == NULL && size < HUGE_THRESHOLD)
    data = aligned_alloc (GNN_STORAGE_ALIGN, size);
  else if (data == NULL && (data = aligned_alloc (HUGE_ALIGN, size)) != NULL)
    madvise (data, size, MADV_HUGEPAGE);
  return data;
}

static void
large_free (gpointer data,
            gsize    size)
{
  gpointer evicted[LARGE_BLOCKS];
  guint n_evicted = 0;

  if (!CACHE_ENABLED)
    {
      free (data);
      return;
    }
  large_lock ();
  if (size > large_limit / 4)
    evicted[n_evicted++] = data;
  else
    {
      while (large_n > 0 && (large_n == LARGE_BLOCKS || large_bytes + size > large_limit))
        evicted[n_evicted++] = large_take (0);
      large_cache[large_n++] = (LargeBlock) { data, size };
      large_bytes += size;
    }
  g_mutex_unlock (&large_mutex);
  while (n_evicted > 0)
    free (evicted[--n_evicted]);
}

/* Frees the cached large blocks beyond @keep bytes, the least recently
 * freed first. */
static void
large_trim (guint64 keep)
{
  gpointer evicted[LARGE_BLOCKS];
  guint n_evicted = 0;

  large_lock ();
  while (large_n > 0 && large_bytes > keep)
    evicted[n_evicted++] = large_take (0);
  g_mutex_unlock (&large_mutex);
  while (n_evicted > 0)
    free (evicted[--n_evicted]);
}

/**
 * gnn_empty_cache:
 *
 * Returns the tensor memory Gnn keeps for reuse to the system, like
 * `torch.cuda.empty_cache` for CPU memory. Freed blocks of 4 MiB and more
 * (activations, gradients, convolution scratch) wait in a process-wide cache
 * so that the next training step reuses them instead of faulting in fresh
 * zeroed pages; the cache never makes the program hold more than its own
 * high-water mark, but after a peak (a large batch, an evaluation pass) it
 * keeps up to that much resident. This frees all of it, and the small blocks
 * cached by the calling thread. Tensors alive are not affected.
 *
 * Since: 0.1
 */
void
gnn_empty_cache (void)
{
  BlockCache *cache = tls_cache;

  large_trim (0);
  if (cache != NULL)
    for (guint c = 0; c < CACHE_CLASSES; c++)
      while (cache->n[c] > 0)
        aligned_block_free (cache->blocks[c][--cache->n[c]]);
}

/**
 * gnn_set_cache_limit:
 * @bytes: the most bytes of freed large blocks kept for reuse; 0 turns the
 *   cache off
 *
 * Caps the cache that gnn_empty_cache() empties (512 MiB by default). A block
 * larger than a quarter of the cap is never kept. Blocks beyond a lowered
 * cap are freed now.
 *
 * Since: 0.1
 */
void
gnn_set_cache_limit (guint64 bytes)
{
  large_lock ();
  large_limit = bytes;
  g_mutex_unlock (&large_mutex);
  large_trim (bytes);
}

/**
 * gnn_get_cache_limit:
 *
 * The cap set by gnn_set_cache_limit().
 *
 * Returns: bytes
 *
 * Since: 0.1
 */
guint64
gnn_get_cache_limit (void)
{
  guint64 limit;

  large_lock ();
  limit = large_limit;
  g_mutex_unlock (&large_mutex);
  return limit;
}

/**
 * gnn_get_cache_size:
 *
 * How much freed tensor memory the process-wide cache holds now.
 *
 * Returns: bytes
 *
 * Since: 0.1
 */
guint64
gnn_get_cache_size (void)
{
  guint64 held;

  large_lock ();
  held = large_bytes;
  g_mutex_unlock (&large_mutex);
  return held;
}

/* The size a large block of @nbytes was allocated with. */
static gsize
large_size (gsize nbytes)
{
  return (padded_size (nbytes) + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
}

/* Scratch buffers of the kernels (im2col columns, Winograd tiles) reuse
 * large blocks the same way, and so do those from SCRATCH_CACHED_MIN up
 * (rounded to SCRATCH_ROUND): malloc'd, each was fresh pages again at every
 * call once glibc returned them (mmap'd chunks, a trimmed heap top), and
 * the kernel's zeroing of those pages was 9 % of a 2-thread ResNet-18 step
 * (Winograd F(4×4)'s backward dU, dV). A header in front keeps the block's
 * size. */
#define SCRATCH_HEADER GNN_STORAGE_ALIGN
#define SCRATCH_CACHED_MIN ((gsize) 256 << 10)
#define SCRATCH_ROUND ((gsize) 64 << 10)

static gsize
scratch_size (gsize total)
{
  if (total >= HUGE_THRESHOLD)
    return large_size (total);
  return (total + SCRATCH_ROUND - 1) / SCRATCH_ROUND * SCRATCH_ROUND;
}

gpointer
gnn_scratch_try_alloc (gsize    nbytes,
                       gboolean zeroed)
{
  gsize total;
  guint8 *block;

  if (nbytes > G_MAXSIZE - 2 * HUGE_ALIGN)
    return NULL;
  total = nbytes + SCRATCH_HEADER;
  if (total < SCRATCH_CACHED_MIN)
    block = g_try_malloc (total);
  else
    block = large_alloc (scratch_size (total), &total);
  if (block == NULL)
    return NULL;
  memcpy (block, &total, sizeof total);
  if (zeroed)
    gnn_parallel_zero (block + SCRATCH_HEADER, nbytes);
  return block + SCRATCH_HEADER;
}

void
gnn_scratch_free (gpointer data)
{
  guint8 *block;
  gsize total;

  if (data == NULL)
    return;
  block = (guint8 *) data - SCRATCH_HEADER;   /* not before the check: NULL - n is UB */
  memcpy (&total, block, sizeof total);
  if (total < SCRATCH_CACHED_MIN)
    g_free (block);
  else
    large_free (block, total);
}

GnnStorage *
gnn_storage_new (gsize nbytes, gboolean zeroed)
{
  GnnStorage *storage;
  /* A multiple of the alignment (the huge path's aligned_alloc wants one);
   * a non-empty allocation also keeps data non-NULL for empty tensors. */
  gsize padded = padded_size (nbytes);

  if (padded < HUGE_THRESHOLD)
    {
      guint8 *block = block_alloc (padded);

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
      padded = large_size (nbytes);
      storage->data = large_alloc (padded, &storage->block_size);
      if (storage->data == NULL)
        {
          g_free (storage);
          return NULL;
        }
      storage->large_block = TRUE;
    }
  g_atomic_ref_count_init (&storage->ref_count);
  if (zeroed)
    gnn_parallel_zero (storage->data, padded);
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
      block_free ((guint8 *) storage, padded_size (storage->nbytes));   /* header and data are one block */
      return;
    }
  if (storage->large_block)
    large_free (storage->data, storage->block_size);
  if (storage->meta)
    g_atomic_int_add (&gnn_storage_meta_live, -1);
  if (storage->destroy != NULL)
    storage->destroy (storage->destroy_data);
  g_free (storage);
}
