/* gnn-tensor.c: the GnnTensor object, its creation and its accessors (the
 * element values are read and written in gnn-tensor-elements.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/**
 * GnnTensor:
 *
 * An n-dimensional array of one [enum@Gnn.DType] with PyTorch's strided
 * layout: a refcounted storage, a shape, strides and an offset (both in
 * elements). Views ([method@Gnn.Tensor.transpose], [method@Gnn.Tensor.narrow],
 * [method@Gnn.Tensor.view] …) share the storage of the tensor they come from.
 *
 * Operations return new tensors (transfer full) or, for the in-place forms
 * whose names end in `_`, modify @self and return %TRUE. Every operation
 * reports bad input (shape mismatch, bad dimension, dtype mismatch, index
 * out of range) as a #GError in the %GNN_ERROR domain whose message names
 * the shapes or dimensions involved, and leaves its inputs unchanged.
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_DTYPE,
  PROP_NDIM,
  PROP_NUMEL,
  PROP_REQUIRES_GRAD,
  PROP_GRAD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (GnnTensor, gnn_tensor, G_TYPE_OBJECT)

/* Set while the library creates a tensor whose storage it attaches right
 * after g_object_new(), so constructed() skips the default 0-d storage. */
static _Thread_local gboolean creating_internal;

GnnTensorPrivate *
gnn_tensor_priv (GnnTensor *self)
{
  return gnn_tensor_get_instance_private (self);
}

static void
gnn_tensor_constructed (GObject *object)
{
  GnnTensorPrivate *priv = gnn_tensor_priv (GNN_TENSOR (object));

  G_OBJECT_CLASS (gnn_tensor_parent_class)->constructed (object);

  /* g_object_new (GNN_TYPE_TENSOR) from a binding: a 0-d float32 zero. */
  if (!creating_internal && priv->storage == NULL)
    {
      priv->storage = gnn_storage_new (sizeof (float), TRUE);
      priv->dtype = GNN_DTYPE_F32;
      priv->ndim = 0;
      priv->numel = 1;
    }
}

/* Drops what a tensor holds: its autograd node, gradient and storage. */
static void
release_private (GnnTensorPrivate *priv)
{
  if (priv->grad_fn_destroy != NULL && priv->grad_fn != NULL)
    priv->grad_fn_destroy (priv->grad_fn);
  priv->grad_fn = NULL;
  priv->grad_fn_destroy = NULL;
  g_clear_object (&priv->grad);
  g_clear_object (&priv->view_base);
  g_clear_pointer (&priv->storage, gnn_storage_unref);
}

/* --- a per-thread pool of plain tensor instances -------------------------
 *
 * Every op returns a new tensor, and g_object_new + the last g_object_unref
 * of an instance cost more than a small op's arithmetic (the notify-queue
 * freeze and thaw, three qdata clears, the slice allocator). So the last
 * unref of a plain GnnTensor (not a subclass) that carries no qdata but
 * GLib's own notify queue (no weak refs or weak pointers, no toggle ref,
 * hence no Python or GJS wrapper, no user data) releases its storage,
 * gradient and node at once, disconnects its signal handlers — what dispose and finalize do — and
 * keeps the instance in a small per-thread pool, resurrected from dispose
 * as GObject allows; gnn_tensor_object_new() hands it out again with its
 * fields zeroed and one reference. Anything with qdata takes the normal
 * path, so weak refs are notified and wrappers dropped as before. The pool
 * is off under AddressSanitizer (it would hide a use after the last unref).
 */
#define POOL_SIZE 32

typedef struct
{
  guint      n;
  GnnTensor *items[POOL_SIZE];
} TensorPool;

static _Thread_local TensorPool *tls_pool;
static _Thread_local gboolean tls_pool_closed;

static void
pool_free (gpointer data)
{
  TensorPool *pool = data;

  tls_pool_closed = TRUE;   /* the last unrefs below must not refill it */
  tls_pool = NULL;
  while (pool->n > 0)
    g_object_unref (pool->items[--pool->n]);
  g_free (pool);
}

static GPrivate pool_key = G_PRIVATE_INIT (pool_free);

#if defined(__SANITIZE_ADDRESS__)
# define POOL_ENABLED FALSE
#else
# define POOL_ENABLED TRUE
#endif

/* GLib (2.74) freezes the notify queue, kept in qdata, around the last
 * unref's dispose: that entry is the only one a plain tensor may carry. */
static GQuark notify_queue_quark;

static void
count_foreign_qdata (GQuark   key,
                     gpointer data,
                     gpointer user_data)
{
  if (key != notify_queue_quark)
    (*(guint *) user_data)++;
}

static gboolean
has_foreign_qdata (GObject *object)
{
  guint foreign = 0;

  if (object->qdata == NULL)
    return FALSE;
  g_datalist_foreach (&object->qdata, count_foreign_qdata, &foreign);
  return foreign > 0;
}

static gboolean
pool_put (GnnTensor *self)
{
  TensorPool *pool = tls_pool;
  GnnTensorPrivate *priv;

  if (pool == NULL)
    {
      if (!POOL_ENABLED || tls_pool_closed)
        return FALSE;
      pool = g_new0 (TensorPool, 1);
      g_private_set (&pool_key, pool);
      tls_pool = pool;
    }
  if (pool->n >= POOL_SIZE)
    return FALSE;
  priv = gnn_tensor_priv (self);
  g_signal_handlers_destroy (self);
  release_private (priv);
  memset (priv, 0, sizeof *priv);
  /* releasing the node may have released other tensors into the pool */
  if (pool->n >= POOL_SIZE || tls_pool != pool)
    return FALSE;
  pool->items[pool->n++] = g_object_ref (self);
  return TRUE;
}

static void
gnn_tensor_dispose (GObject *object)
{
  /* the exact type: subclasses (GnnParameter, Python classes) have state of their own */
  if (G_OBJECT_TYPE (object) == GNN_TYPE_TENSOR && !has_foreign_qdata (object) &&
      pool_put ((GnnTensor *) object))
    return;
  G_OBJECT_CLASS (gnn_tensor_parent_class)->dispose (object);
}

static void
gnn_tensor_finalize (GObject *object)
{
  release_private (gnn_tensor_priv (GNN_TENSOR (object)));

  G_OBJECT_CLASS (gnn_tensor_parent_class)->finalize (object);
}

static void
gnn_tensor_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  GnnTensor *self = GNN_TENSOR (object);
  GnnTensorPrivate *priv = gnn_tensor_priv (self);

  switch (prop_id)
    {
    case PROP_DTYPE:
      g_value_set_enum (value, priv->dtype);
      break;
    case PROP_NDIM:
      g_value_set_uint (value, priv->ndim);
      break;
    case PROP_NUMEL:
      g_value_set_int64 (value, priv->numel);
      break;
    case PROP_REQUIRES_GRAD:
      g_value_set_boolean (value, priv->requires_grad);
      break;
    case PROP_GRAD:
      g_value_set_object (value, priv->grad);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_tensor_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  GnnTensor *self = GNN_TENSOR (object);

  switch (prop_id)
    {
    case PROP_REQUIRES_GRAD:
      gnn_tensor_set_requires_grad (self, g_value_get_boolean (value));
      break;
    case PROP_GRAD:
      gnn_tensor_set_grad (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_tensor_class_init (GnnTensorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = gnn_tensor_constructed;
  object_class->dispose = gnn_tensor_dispose;
  notify_queue_quark = g_quark_from_static_string ("GObject-notify-queue");
  object_class->finalize = gnn_tensor_finalize;
  object_class->get_property = gnn_tensor_get_property;
  object_class->set_property = gnn_tensor_set_property;

  /**
   * GnnTensor:dtype:
   *
   * The element type.
   *
   * Since: 0.1
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnTensor:ndim:
   *
   * The number of dimensions (0 for a scalar).
   *
   * Since: 0.1
   */
  properties[PROP_NDIM] =
    g_param_spec_uint ("ndim", NULL, NULL, 0, GNN_MAX_DIMS, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnTensor:numel:
   *
   * The number of elements.
   *
   * Since: 0.1
   */
  properties[PROP_NUMEL] =
    g_param_spec_int64 ("numel", NULL, NULL, 0, G_MAXINT64, 1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnTensor:requires-grad:
   *
   * Whether autograd records operations on this tensor.
   *
   * Since: 0.1
   */
  properties[PROP_REQUIRES_GRAD] =
    g_param_spec_boolean ("requires-grad", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnTensor:grad:
   *
   * The accumulated gradient, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_GRAD] =
    g_param_spec_object ("grad", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_tensor_init (GnnTensor *self)
{
}

/* --- internal constructors (the rest are in gnn-tensor-shape.c) ---------- */

GnnTensor *
gnn_tensor_object_new (GType type)
{
  GnnTensor *self;

  if (type == GNN_TYPE_TENSOR && tls_pool != NULL && tls_pool->n > 0)
    return tls_pool->items[--tls_pool->n];   /* one reference, fields zeroed */
  creating_internal = TRUE;
  self = g_object_new (type, NULL);
  creating_internal = FALSE;
  return self;
}

/* --- accessors ----------------------------------------------------------- */

/**
 * gnn_tensor_get_dtype:
 * @self: a #GnnTensor
 *
 * Gets the element type of @self.
 *
 * Returns: the element type
 *
 * Since: 0.1
 */
GnnDType
gnn_tensor_get_dtype (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), GNN_DTYPE_F32);
  return gnn_tensor_priv (self)->dtype;
}

/**
 * gnn_tensor_get_ndim:
 * @self: a #GnnTensor
 *
 * Gets the number of dimensions of @self (0 for a scalar).
 *
 * Returns: the number of dimensions
 *
 * Since: 0.1
 */
guint
gnn_tensor_get_ndim (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  return gnn_tensor_priv (self)->ndim;
}

/**
 * gnn_tensor_get_shape:
 * @self: a #GnnTensor
 * @ndim: (out) (optional): the number of dimensions
 *
 * Gets the size of each dimension, like `tensor.shape`.
 *
 * Returns: (array length=ndim) (transfer none): the size of each dimension
 *
 * Since: 0.1
 */
const gint64 *
gnn_tensor_get_shape (GnnTensor *self,
                      guint     *ndim)
{
  GnnTensorPrivate *priv;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  priv = gnn_tensor_priv (self);
  if (ndim != NULL)
    *ndim = priv->ndim;
  return priv->shape;
}

/**
 * gnn_tensor_get_strides:
 * @self: a #GnnTensor
 * @ndim: (out) (optional): the number of dimensions
 *
 * Gets the stride of each dimension, in elements, like `tensor.stride()`.
 *
 * Returns: (array length=ndim) (transfer none): the stride of each dimension, in elements
 *
 * Since: 0.1
 */
const gint64 *
gnn_tensor_get_strides (GnnTensor *self,
                        guint     *ndim)
{
  GnnTensorPrivate *priv;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  priv = gnn_tensor_priv (self);
  if (ndim != NULL)
    *ndim = priv->ndim;
  return priv->strides;
}

/**
 * gnn_tensor_get_size:
 * @self: a #GnnTensor
 * @dim: a dimension; negative values count from the end
 * @error: return location for a #GError
 *
 * Gets the size of one dimension, like `tensor.size(dim)`.
 *
 * Returns: the size of dimension @dim, or -1 if @dim is out of range
 *
 * Since: 0.1
 */
gint64
gnn_tensor_get_size (GnnTensor *self,
                     gint       dim,
                     GError   **error)
{
  GnnTensorPrivate *priv;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), -1);
  priv = gnn_tensor_priv (self);
  if (priv->ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "dimension specified as %d but tensor has no dimensions", dim);
      return -1;
    }
  if (!gnn_wrap_dim (dim, priv->ndim, &d, error))
    return -1;
  return priv->shape[d];
}

/**
 * gnn_tensor_wrap_dim:
 * @self: a #GnnTensor
 * @dim: a dimension; negative values count from the end
 * @error: return location for a #GError
 *
 * Checks a dimension argument against @self and makes it non-negative,
 * as every operation that takes a dimension does (PyTorch's
 * `maybe_wrap_dim`): a 0-d tensor accepts -1 and 0. Bindings that compose
 * an operation from others call it so their errors are the library's.
 *
 * Returns: @dim in [0, max (ndim, 1)), or -1 with @error set
 *   (%GNN_ERROR_INDEX, PyTorch's "Dimension out of range (expected to be in
 *   range of [-2, 1], but got 2)")
 *
 * Since: 0.1
 */
gint
gnn_tensor_wrap_dim (GnnTensor *self,
                     gint       dim,
                     GError   **error)
{
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), -1);
  if (!gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, &d, error))
    return -1;
  return (gint) d;
}

/**
 * gnn_tensor_get_offset:
 * @self: a #GnnTensor
 *
 * Gets the storage offset of @self, like `tensor.storage_offset()`.
 *
 * Returns: the position of the first element in the storage, in elements
 *
 * Since: 0.1
 */
gint64
gnn_tensor_get_offset (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  return gnn_tensor_priv (self)->offset;
}

/**
 * gnn_tensor_get_numel:
 * @self: a #GnnTensor
 *
 * Gets the number of elements, like `tensor.numel()`.
 *
 * Returns: the number of elements
 *
 * Since: 0.1
 */
gint64
gnn_tensor_get_numel (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  return gnn_tensor_priv (self)->numel;
}

/**
 * gnn_tensor_get_nbytes:
 * @self: a #GnnTensor
 *
 * Gets the size of the elements in bytes.
 *
 * Returns: numel × element size, in bytes
 *
 * Since: 0.1
 */
gsize
gnn_tensor_get_nbytes (GnnTensor *self)
{
  GnnTensorPrivate *priv;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  priv = gnn_tensor_priv (self);
  return (gsize) priv->numel * gnn_dtype_get_size (priv->dtype);
}

/**
 * gnn_tensor_is_contiguous:
 * @self: a #GnnTensor
 *
 * Checks whether @self is contiguous, like `tensor.is_contiguous()`.
 *
 * Returns: whether the elements are packed in row-major order (dimensions
 *   of size 1 may have any stride, as in PyTorch)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_is_contiguous (GnnTensor *self)
{
  GnnTensorPrivate *priv;
  gint64 expected = 1;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  priv = gnn_tensor_priv (self);
  if (priv->numel == 0)
    return TRUE;
  for (gint d = (gint) priv->ndim - 1; d >= 0; d--)
    {
      if (priv->shape[d] == 1)
        continue;
      if (priv->strides[d] != expected)
        return FALSE;
      expected *= priv->shape[d];
    }
  return TRUE;
}

/**
 * gnn_tensor_shares_storage:
 * @self: a #GnnTensor
 * @other: another #GnnTensor
 *
 * Checks whether two tensors are views of the same storage.
 *
 * Returns: whether both tensors are views of the same storage
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_shares_storage (GnnTensor *self,
                           GnnTensor *other)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (other), FALSE);
  return gnn_tensor_priv (self)->storage == gnn_tensor_priv (other)->storage;
}

/**
 * gnn_tensor_get_requires_grad:
 * @self: a #GnnTensor
 *
 * Gets [property@Gnn.Tensor:requires-grad].
 *
 * Returns: whether autograd records operations on @self
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_get_requires_grad (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->requires_grad;
}

/**
 * gnn_tensor_set_requires_grad:
 * @self: a #GnnTensor
 * @requires_grad: whether autograd should record operations on @self
 *
 * Sets [property@Gnn.Tensor:requires-grad].
 *
 * Since: 0.1
 */
void
gnn_tensor_set_requires_grad (GnnTensor *self,
                              gboolean   requires_grad)
{
  GnnTensorPrivate *priv;

  g_return_if_fail (GNN_IS_TENSOR (self));
  priv = gnn_tensor_priv (self);
  requires_grad = !!requires_grad;
  if (priv->requires_grad == requires_grad)
    return;
  priv->requires_grad = requires_grad;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUIRES_GRAD]);
}

/**
 * gnn_tensor_get_grad:
 * @self: a #GnnTensor
 *
 * Gets [property@Gnn.Tensor:grad], the gradient accumulated by backward.
 *
 * Returns: (transfer none) (nullable): the accumulated gradient
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_get_grad (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_priv (self)->grad;
}

/**
 * gnn_tensor_set_grad:
 * @self: a #GnnTensor
 * @grad: (nullable): the new gradient, or %NULL to clear it
 *
 * Sets [property@Gnn.Tensor:grad].
 *
 * Since: 0.1
 */
void
gnn_tensor_set_grad (GnnTensor *self,
                     GnnTensor *grad)
{
  g_return_if_fail (GNN_IS_TENSOR (self));
  g_return_if_fail (grad == NULL || GNN_IS_TENSOR (grad));
  if (g_set_object (&gnn_tensor_priv (self)->grad, grad))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GRAD]);
}

/* --- comparison ---------------------------------------------------------- */

static gboolean
same_shape (GnnTensorPrivate *a,
            GnnTensorPrivate *b)
{
  if (a->ndim != b->ndim)
    return FALSE;
  for (guint d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d])
      return FALSE;
  return TRUE;
}

/**
 * gnn_tensor_equal:
 * @a: a #GnnTensor
 * @b: another #GnnTensor
 *
 * Like `torch.equal`: same shape and equal elements (compared as doubles,
 * whatever the dtypes).
 *
 * Returns: whether @a and @b are equal
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_equal (GnnTensor *a,
                  GnnTensor *b)
{
  return gnn_tensor_allclose (a, b, 0.0, 0.0);
}

/**
 * gnn_tensor_allclose:
 * @a: a #GnnTensor
 * @b: another #GnnTensor
 * @rtol: relative tolerance
 * @atol: absolute tolerance
 *
 * Like `torch.allclose` on equal shapes: |a - b| <= atol + rtol × |b| for
 * every element; NaNs are never close.
 *
 * Returns: whether @a and @b have the same shape and close elements
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_allclose (GnnTensor *a,
                     GnnTensor *b,
                     double     rtol,
                     double     atol)
{
  g_autofree double *va = NULL;
  g_autofree double *vb = NULL;
  gsize n;

  g_return_val_if_fail (GNN_IS_TENSOR (a), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (b), FALSE);
  if (!same_shape (gnn_tensor_priv (a), gnn_tensor_priv (b)))
    return FALSE;
  va = gnn_tensor_to_doubles (a, &n);
  vb = gnn_tensor_to_doubles (b, &n);
  if (va == NULL || vb == NULL)   /* meta, or too large to copy */
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      if (va[i] == vb[i])
        continue;
      if (!(fabs (va[i] - vb[i]) <= atol + rtol * fabs (vb[i])))
        return FALSE;
    }
  return TRUE;
}
