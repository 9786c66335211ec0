/* gnn-tensor-private.h: tensor internals shared by the files of lib/tensor
 * (and by other subsystems that need raw storage, such as io and data).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

#include "core/gnn-checked-private.h"

G_BEGIN_DECLS

/* Storage alignment: enough for AVX-512 loads and cache lines. */
#define GNN_STORAGE_ALIGN 64

/* A refcounted byte buffer. Owned (aligned malloc) or borrowed (GBytes,
 * mapped file, shared-memory segment) with a destroy notify. */
typedef struct _GnnStorage GnnStorage;
struct _GnnStorage
{
  gatomicrefcount ref_count;
  guint8         *data;
  gsize           nbytes;
  GDestroyNotify  destroy;
  gpointer        destroy_data;
  gboolean        inline_block;   /* header and data allocated together */
  gboolean        large_block;    /* data from gnn-storage.c's large-block cache */
  gsize           block_size;     /* its size there (at least nbytes) */
  gboolean        meta;           /* no memory at all: data is NULL (device "meta") */
  /* torch's version counter, shared by every tensor viewing the storage:
   * bumped by each write into existing elements (gnn_tensor_priv_bump_version);
   * autograd keeps the version of each tensor it saves and refuses a
   * backward that would read it changed. The name of the last node an
   * in-place op attached, and the version it made, name the culprit in
   * that error (set by lib/autograd). */
  guint           version;
  guint           inplace_version;
  const char     *inplace_name;
};

GnnStorage *gnn_storage_new      (gsize nbytes, gboolean zeroed);
GnnStorage *gnn_storage_new_wrap (gpointer data, gsize nbytes, GDestroyNotify destroy, gpointer destroy_data);
GnnStorage *gnn_storage_new_meta (gsize nbytes);
/* Kernel scratch memory: large blocks are reused across calls (gnn-storage.c);
 * NULL when the memory is not there. Free with gnn_scratch_free(). */
gpointer    gnn_scratch_try_alloc (gsize nbytes, gboolean zeroed);
void        gnn_scratch_free      (gpointer data);
GnnStorage *gnn_storage_ref      (GnnStorage *storage);
void        gnn_storage_unref    (GnnStorage *storage);

/* Autograd attaches its node here; tensor code only frees it. */
typedef struct
{
  GnnStorage *storage;
  GnnDType    dtype;
  guint       ndim;
  gint64      numel;
  gint64      offset;                  /* in elements */
  gint64      shape[GNN_MAX_DIMS];
  gint64      strides[GNN_MAX_DIMS];   /* in elements */
  gboolean    requires_grad;
  gboolean    wrapped_number;          /* a number of a binding (torch's wrapped number) */
  GnnTensor  *grad;
  gpointer       grad_fn;
  GDestroyNotify grad_fn_destroy;
  guint          grad_fn_output;      /* which output of grad_fn this tensor is */
  gboolean       retains_grad;        /* a non-leaf keeping its .grad (retain_grad) */
  GnnTensor     *view_base;           /* the tensor a view op's result looks into (torch's
                                       * ._base, never itself a view): in-place ops on the
                                       * view rebase its history (CopySlices) */
} GnnTensorPrivate;

GnnTensorPrivate *gnn_tensor_priv (GnnTensor *self);

/* The storage's version (see GnnStorage.version); relaxed atomics: a
 * backward on one thread reads what an in-place op on another wrote. */
static inline guint
gnn_storage_get_version (GnnStorage *storage)
{
  return __atomic_load_n (&storage->version, __ATOMIC_RELAXED);
}

/* Every write into the existing elements of a tensor calls this (in-place
 * ops through gnn_tensor_record_inplace(), which does it for them; fills,
 * random fills, the library's own copies and optimizer updates directly),
 * whether grad mode is on or not. Freshly made results need not. */
static inline void
gnn_tensor_priv_bump_version (GnnTensorPrivate *p)
{
  __atomic_fetch_add (&p->storage->version, 1, __ATOMIC_RELAXED);
}

/* gnn_tensor_new_view for the view ops users see (view, narrow, select,
 * transpose, ...): the result remembers @src's base (or @src) as its
 * view_base. The library's own views (saved tensors, temporaries) use
 * gnn_tensor_new_view and stay outside that relation. */
GnnTensor *gnn_tensor_new_view_of (GnnTensor    *src,
                                   const gint64 *shape,
                                   const gint64 *strides,
                                   guint         ndim,
                                   gint64        offset);

/* The number of live meta storages: checks that only meta tensors can fail
 * (module forward) are skipped while it is 0. */
extern gint gnn_storage_meta_live;

static inline gboolean
gnn_tensor_priv_is_meta (GnnTensorPrivate *p)
{
  return G_UNLIKELY (p->storage->meta);
}

/* TRUE if @t has memory; else GNN_ERROR_NOT_SUPPORTED
 * "<op>: tensor has no storage (meta)". */
gboolean gnn_check_storage (const char *op, GnnTensor *t, GError **error);

/* The guard at the top of every public operation that touches elements
 * (@t may be NULL for optional operands). */
#define GNN_CHECK_STORAGE(op, t, error, rv) G_STMT_START {              \
    if ((t) != NULL && !gnn_check_storage ((op), (t), (error)))       \
      return (rv);                                                    \
  } G_STMT_END

/* Gives a meta @t fresh, uninitialized contiguous memory (torch's
 * to_empty); a no-op for other tensors. GNN_ERROR_MEMORY on failure. */
gboolean gnn_tensor_materialize (GnnTensor *t, GError **error);

/* Makes @t use @src's storage and geometry (same shape; dtype taken from
 * @src); @t keeps its identity, requires-grad, grad and hooks. */
void gnn_tensor_assign_storage (GnnTensor *t, GnnTensor *src);

/* A contiguous tensor of @type (GNN_TYPE_TENSOR or GNN_TYPE_PARAMETER)
 * without memory. Shape must be valid. */
GnnTensor *gnn_tensor_new_meta (GType type, GnnDType dtype, const gint64 *shape, guint ndim);

/* Fast access for kernels. */
static inline guint8 *
gnn_tensor_priv_data (GnnTensorPrivate *p)
{
  return p->storage->data + p->offset * (gint64) gnn_dtype_get_size (p->dtype);
}

/* The first element of @t for a kernel, or NULL when @t is NULL (an
 * optional operand). */
static inline void *
gnn_tensor_data_or_null (GnnTensor *t)
{
  return t != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (t)) : NULL;
}

/* Checks a shape (non-negative sizes, ndim <= GNN_MAX_DIMS, numel fits in
 * memory without overflow); names the bad dimension in the error. */
gboolean gnn_shape_validate (const gint64 *shape, guint ndim, GnnDType dtype,
                             gint64 *numel_out, GError **error);

/* Normalizes a possibly negative dim against ndim (like PyTorch's
 * maybe_wrap_dim). Error: "Dimension out of range (expected to be in range
 * of [-2, 1], but got 3)". For ndim 0, PyTorch accepts -1 and 0. */
gboolean gnn_wrap_dim (gint dim, guint ndim, guint *out, GError **error);

/* Formats "[2, 3]" (PyTorch's torch.Size list form) into a new string. */
char *gnn_shape_to_string (const gint64 *shape, guint ndim);

/* Broadcasts two shapes (numpy rules). Error names both shapes: "The size of
 * tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1". */
gboolean gnn_broadcast_shapes (const gint64 *a, guint a_ndim,
                               const gint64 *b, guint b_ndim,
                               gint64 *out, guint *out_ndim, GError **error);

/* Strides of @self seen through a broadcast to @shape/@ndim (0 where broadcast).
 * @self's shape must be broadcastable to @shape. */
void gnn_broadcast_strides (GnnTensor *self, const gint64 *shape, guint ndim,
                            gint64 *strides_out);

/* Contiguous row-major strides for a shape. */
void gnn_contiguous_strides (const gint64 *shape, guint ndim, gint64 *strides_out);

/* New contiguous tensor, uninitialized unless @zeroed. Shape must be valid. */
GnnTensor *gnn_tensor_new_contiguous (GnnDType dtype, const gint64 *shape, guint ndim,
                                      gboolean zeroed);

/* Same, but validates the shape first (for user-supplied shapes and every
 * result that can be larger than its inputs): GNN_ERROR_SHAPE when the size
 * overflows, GNN_ERROR_MEMORY when the storage cannot be allocated. */
GnnTensor *gnn_tensor_new_contiguous_checked (GnnDType dtype, const gint64 *shape,
                                              guint ndim, gboolean zeroed, GError **error);

/* A packed copy of @self converted to @dtype, not recorded for autograd;
 * NULL + GNN_ERROR_MEMORY when it cannot be allocated. */
GnnTensor *gnn_tensor_copy_checked (GnnTensor *self, GnnDType dtype, GError **error);

/* @self itself (a new reference) if contiguous, else a packed copy, not
 * recorded for autograd; NULL + GNN_ERROR_MEMORY when the copy cannot be
 * allocated (an expanded view can be far larger than its storage). */
GnnTensor *gnn_tensor_contiguous_checked (GnnTensor *self, GError **error);
/* fill_ of a tensor just made, that nobody else holds: neither recorded
 * nor counted as a version. */
void       gnn_tensor_fill_fresh (GnnTensor *self, double value);
/* copy_ without autograd: the library's own copies (torch's no_grad ones). */
gboolean   gnn_tensor_copy_values_ (GnnTensor *self, GnnTensor *src, GError **error);
gboolean   gnn_tensor_write_values_ (GnnTensor *self, GnnTensor *src, GError **error);

/* GNN_ERROR_MEMORY: "cannot allocate N bytes for a tensor of shape [...]". */
void gnn_set_alloc_error (GError **error, gsize nbytes, const gint64 *shape, guint ndim);

/* A view sharing @base's storage with the given geometry (offset in elements). */
GnnTensor *gnn_tensor_new_view (GnnTensor *base, const gint64 *shape,
                                const gint64 *strides, guint ndim, gint64 offset);

/* Wraps a storage (takes a reference) as a tensor of given geometry. */
GnnTensor *gnn_tensor_new_with_storage (GnnStorage *storage, GnnDType dtype,
                                        const gint64 *shape, const gint64 *strides,
                                        guint ndim, gint64 offset);

/* Converting element access for slow paths and F16/BF16. */
double gnn_dtype_read  (GnnDType dtype, const void *p);
void   gnn_dtype_write (GnnDType dtype, void *p, double value);
float  gnn_half_to_float (guint16 h);
guint16 gnn_float_to_half (float f);
float  gnn_bfloat16_to_float (guint16 h);
guint16 gnn_float_to_bfloat16 (float f);

/* Strided copy with dtype conversion; shapes must be equal (callers broadcast
 * @src's strides beforehand with gnn_broadcast_strides if needed). */
void gnn_strided_copy (GnnDType dst_dtype, guint8 *dst, const gint64 *dst_strides,
                       GnnDType src_dtype, const guint8 *src, const gint64 *src_strides,
                       const gint64 *shape, guint ndim);

/* Uniform U(a, b) fills of @n elements @stride apart, in [a, b) after
 * rounding: element i gets the value of counter @first + i of the stream
 * @key (one gnn_generator_next_u64 draw per fill; gnn-random-fill.c). */
void gnn_random_fill_uniform_f32 (guint64 key, guint64 first, float *dst, gint64 n,
                                  gint64 stride, double a, double b);
void gnn_random_fill_uniform_f64 (guint64 key, guint64 first, double *dst, gint64 n,
                                  gint64 stride, double a, double b);
/* Normal N(mean, std²) fills, the same way (Box–Muller on pairs 2j, 2j + 1). */
void gnn_random_fill_normal_f32 (guint64 key, guint64 first, float *dst, gint64 n,
                                 gint64 stride, double mean, double std);
void gnn_random_fill_normal_f64 (guint64 key, guint64 first, double *dst, gint64 n,
                                 gint64 stride, double mean, double std);

/* PyTorch's default seed (torch.initial_seed() of a fresh process): the
 * default generator's first seed. */
#define GNN_DEFAULT_SEED G_GUINT64_CONSTANT (67280421310721)

/* The default generator (gnn_generator_get_default), locked: functions given
 * a NULL generator draw from it between these two calls. A leaf lock: hold
 * no other library lock inside, and call no function that takes it (the
 * gnn_generator_* seeding and state functions on the default do). */
GnnGenerator *gnn_generator_default_lock   (void);
void          gnn_generator_default_unlock (void);

/* @generator, or the default generator locked when it is NULL; release with
 * the same argument. */
GnnGenerator *gnn_generator_acquire        (GnnGenerator *generator);
void          gnn_generator_release        (GnnGenerator *generator);

/* Creates a GnnTensor (sub)type instance without the default 0-d storage;
 * the caller fills in the private geometry and storage. */
GnnTensor *gnn_tensor_object_new (GType type);

/* A contiguous, uninitialized parameter (requires-grad TRUE), without the
 * intermediate tensor that gnn_parameter_new() wraps. */
GnnParameter *gnn_parameter_new_empty (GnnDType dtype, const gint64 *shape, guint ndim,
                                       GError **error);

/* y = x·Wᵀ + b (@bias may be NULL) for Linear when nothing is recorded; see
 * gnn-tensor-linear.c. FALSE (no error) when the general path must run. */
gboolean gnn_tensor_linear_nograd (GnnTensor *input, GnnTensor *weight, GnnTensor *bias,
                                   GnnTensor **out, GError **error);

/* Error helper: "add: expected both tensors to have the same dtype, got float32 and int64". */
gboolean gnn_check_same_dtype (const char *op, GnnTensor *a, GnnTensor *b, GError **error);

/* The op-recording hook for autograd (grad mode, gnn_tensor_record ()). */
#include "tensor/gnn-tensor-record-private.h"

G_END_DECLS
