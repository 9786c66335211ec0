/* gnn-data-private.h: helpers shared by the files of lib/data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-randperm-private.h"
#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* A new array of @n int64s, never NULL (so an empty epoch is not an error). */
static inline gint64 *
gnn_index_array_new (gsize n)
{
  return g_new (gint64, MAX (n, 1));
}

/* A GArray of @n int64s (uninitialized), what sampler vfuncs return; an
 * epoch too long to materialize is a GNN_ERROR_MEMORY naming @owner and
 * the length. */
GArray *gnn_index_garray_try_new (gsize n, const char *owner, GError **error);

/* Sampler configuration checks (GInitable.init and every sample()). */
typedef gboolean (*GnnSamplerValidateFunc) (gpointer self, GError **error);
void     gnn_sampler_class_set_validate (gpointer klass, GnnSamplerValidateFunc func);
gboolean gnn_sampler_check_config       (gpointer self, GError **error);

/* The "generator" property the random samplers share (construct-only),
 * and its default: a generator seeded from the default one when the
 * constructor was given none (call from constructed). */
GParamSpec *gnn_sampler_generator_param_new (void);
void        gnn_sampler_generator_ensure    (GnnGenerator **generator);

/* A batch of @tensors (stolen, its free function dropped) named by
 * @names (stolen, NULL or one per tensor), unchecked. */
GnnBatch *gnn_batch_new_take (GnnBatchKind kind, char **names, GPtrArray *tensors);
GnnTensor * const  *gnn_batch_peek_tensors (const GnnBatch *self);
const char * const *gnn_batch_peek_names   (const GnnBatch *self);

/* get_item without the range check (the loader checks a whole epoch of
 * indices once, in the caller). */
GPtrArray *gnn_dataset_get_item_unchecked (GnnDataset *self, gint64 index, GError **error);
GnnBatch  *gnn_dataset_get_item_batch_unchecked (GnnDataset *self, gint64 index,
                                                 GError **error);

/* The sample generator of the calling thread, reseeded for the sample at
 * @index of a pass whose sample seed is @sample_seed (enter), and unset
 * (leave): gnn_get_sample_generator() returns it in between. */
void gnn_sample_generator_enter (guint64 sample_seed, gint64 index);
void gnn_sample_generator_leave (void);

/* The thread-local worker info (set by the loader's worker threads). */
void gnn_worker_info_set_current (GnnWorkerInfo *info);
GnnWorkerInfo *gnn_worker_info_new (guint id, guint num_workers, guint64 seed,
                                    GnnDataset *dataset);

/* The default collation in two steps, so that a worker process can stack
 * straight into shared memory: plan every field's batch tensor (checking
 * dtypes and shapes as gnn_default_collate does), then fill it. */
typedef struct
{
  GnnDType dtype;
  guint    ndim;
  gint64   shape[GNN_MAX_DIMS];
  gsize    item_bytes;
  gsize    n_bytes;
} GnnFieldPlan;

#define GNN_BATCH_SOURCE_MAX_COLUMNS 16

/* A dataset whose item @i is row @i of each of a few whole tensors (a
 * TensorDataset, an IdxDataset) puts them in @columns (up to
 * GNN_BATCH_SOURCE_MAX_COLUMNS, not copied) and returns how many: then the
 * default collation stacks a batch straight from the columns. 0: items
 * only through get_item. A private vfunc, registered for exactly one type
 * (a subclass may change get_item, so it does not inherit it). */
typedef guint (*GnnDatasetColumnsFunc) (GnnDataset *self, GnnTensor **columns);
void  gnn_dataset_class_set_columns (gpointer klass, GnnDatasetColumnsFunc func);
guint gnn_dataset_peek_columns      (GnnDataset *self, GnnTensor **columns);

/* What one batch is collated from: the fetched items' tensors, or — for a
 * dataset whose item i is row i of contiguous tensors (TensorDataset,
 * IdxDataset) — those rows, gathered straight into the batch without a
 * tensor per item (the memcpy floor's loop). */
typedef struct
{
  guint          n_fields;
  GPtrArray     *items;     /* item-major: field f of item i is items[i * n_fields + f] */
  GnnTensor    **columns;   /* or, when items is NULL: field f of item i is row indices[i]
                               (an array of GNN_BATCH_SOURCE_MAX_COLUMNS) */
  const gint64  *indices;
  gsize          count;
  const GnnBatch *layout;   /* the first item: the batch's names and kind (NULL: a tuple) */
} GnnBatchSource;

gboolean   gnn_default_collate_plan (const GnnBatchSource *src, GnnFieldPlan *plans,
                                     GError **error);
void       gnn_default_collate_fill (const GnnBatchSource *src, guint f,
                                     const GnnFieldPlan *plan, gpointer dest);
/* Plan and fill into new batch tensors, named as @src's layout. */
GnnBatch  *gnn_default_collate_source (const GnnBatchSource *src, GError **error);
/* Checks that @item collates with @layout (the batch's first item: same
 * kind, as many fields, the same keys — torch's messages) and appends its
 * fields to @flat (references) in @layout's order. */
gboolean   gnn_batch_append_fields  (const GnnBatch *layout, const GnnBatch *item,
                                     GPtrArray *flat, GError **error);
/* A row source for @dataset's items at @indices, if it is one (its
 * columns, n_fields, all indices in range); FALSE otherwise. */
gboolean   gnn_batch_source_rows    (GnnDataset *dataset, const gint64 *indices, gsize count,
                                     GnnBatchSource *src);

/* Forks a worker process with the fork function set by
 * gnn_set_worker_fork_func() (fork() by default). */
GPid gnn_worker_fork (void);

/* --- tensors shared with spawned workers (gnn-shared-tensor.c) ----------- */

/* A contiguous tensor in a memfd of its own (uninitialized). */
GnnTensor *gnn_shared_tensor_new    (GnnDType dtype, const gint64 *shape, guint ndim,
                                     GError **error);
/* A new descriptor of a memfd holding @tensor's data from *@offset bytes
 * on: its own memfd, or a packed snapshot. The caller closes it. */
int        gnn_shared_tensor_dup_fd (GnnTensor *tensor, gsize *offset, GError **error);
/* The worker's side: @fd mapped copy-on-write as a contiguous tensor. */
GnnTensor *gnn_shared_tensor_map    (int fd, gsize offset, GnnDType dtype,
                                     const gint64 *shape, guint ndim, GError **error);

/* Workers run the dataset, sampler and collate off the caller's thread:
 * a class written in JavaScript (GJS) cannot run there (its engine is
 * bound to the main thread and cannot be forked), so iter() refuses it
 * with a GNN_ERROR_NOT_SUPPORTED naming the class. @what names @object's
 * role ("dataset", "sampler"...); %NULL objects pass. */
gboolean gnn_workers_check_runnable (GObject *object, const char *what, gint num_workers,
                                     GError **error);

/* The iterator's one-caller guard (gnn-data-loader-iter.c): claim fails
 * with G_IO_ERROR_PENDING while another next() or next_async() runs;
 * next_claimed is next_timeout for the holder of the claim
 * (gnn-data-loader-async.c holds it across its slices). */
gboolean gnn_data_loader_iter_claim        (GnnDataLoaderIter  *self,
                                            GError            **error);
void     gnn_data_loader_iter_release      (GnnDataLoaderIter  *self);
gboolean gnn_data_loader_iter_next_claimed (GnnDataLoaderIter  *self,
                                            gint64              timeout_usec,
                                            gboolean           *timed_out,
                                            GnnBatch          **batch,
                                            GError            **error);

G_END_DECLS
