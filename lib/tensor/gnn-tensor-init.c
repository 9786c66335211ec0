/* gnn-tensor-init.c: in-place random initialization (torch.nn.init)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-dtype-check-private.h"

typedef enum {
  DIST_UNIFORM,
  DIST_NORMAL,
} Distribution;

static gboolean
check_floating (const char *op,
                GnnTensor  *self,
                GError    **error)
{
  GnnDType dtype = gnn_tensor_priv (self)->dtype;

  if (gnn_dtype_is_floating (dtype))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "%s: expected a floating point tensor, got %s", op, gnn_dtype_get_name (dtype));
  return FALSE;
}

/* One sample, as stored in @dtype. Uniform samples are redrawn when rounding
 * to @dtype lands on @b, so results stay in [a, b). */
static inline void
draw (GnnGenerator *generator,
      Distribution  dist,
      double        a,
      double        b,
      GnnDType      dtype,
      guint8       *dst)
{
  double v;

  if (dist == DIST_NORMAL)
    {
      v = a + b * gnn_generator_next_normal (generator);
      gnn_dtype_write (dtype, dst, v);
      return;
    }
  do
    {
      v = a + (b - a) * gnn_generator_next_double (generator);
      gnn_dtype_write (dtype, dst, v);
    }
  while (b > a && gnn_dtype_read (dtype, dst) >= b);
}

static gboolean
is_counter_based (GnnDType dtype)
{
  return dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64;
}

/* Elements [first, first + n) of the counter-based fill of @dist for a
 * float32 or float64 @dst, @stride elements apart (gnn-random-fill.c). */
static void
counter_fill (Distribution dist,
              GnnDType     dtype,
              guint64      key,
              guint64      first,
              guint8      *dst,
              gint64       n,
              gint64       stride,
              double       a,
              double       b)
{
  if (dtype == GNN_DTYPE_F32 && dist == DIST_UNIFORM)
    gnn_random_fill_uniform_f32 (key, first, (float *) dst, n, stride, a, b);
  else if (dtype == GNN_DTYPE_F32)
    gnn_random_fill_normal_f32 (key, first, (float *) dst, n, stride, a, b);
  else if (dist == DIST_UNIFORM)
    gnn_random_fill_uniform_f64 (key, first, (double *) dst, n, stride, a, b);
  else
    gnn_random_fill_normal_f64 (key, first, (double *) dst, n, stride, a, b);
}

/* A contiguous counter-based fill, split among the intra-op threads: each
 * range is elements [begin, end) of the same stream, so the values do not
 * depend on the number of threads. */
typedef struct {
  Distribution dist;
  GnnDType     dtype;
  guint64      key;
  guint8      *base;
  gsize        elsize;
  double       a;
  double       b;
} CounterRun;

static void
counter_range (gint64   begin,
               gint64   end,
               gpointer data)
{
  const CounterRun *r = data;

  counter_fill (r->dist, r->dtype, r->key, (guint64) begin,
                r->base + begin * (gint64) r->elsize, end - begin, 1, r->a, r->b);
}

/* Fills every element of @self (any strides), in row-major order, from
 * U(a, b) or N(a, b). float32 and float64 take one key from the generator
 * and derive element k from the key and k alone, so a view gets the values
 * a contiguous tensor of its shape would; float16 and bfloat16 draw one
 * sample per element. */
static void
fill_random_with (GnnTensor    *self,
                  Distribution  dist,
                  double        a,
                  double        b,
                  GnnGenerator *generator)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  const gint64 *strides[1] = { p->strides };
  guint8 *base;
  gsize elsize = gnn_dtype_get_size (p->dtype);
  gboolean counter_based = is_counter_based (p->dtype);
  guint64 key = 0, counter = 0;
  GnnNdIter it;

  /* Meta tensors: checked like the others, but nothing to fill and no
   * draws (the generator's state is unchanged), as in PyTorch. */
  if (gnn_tensor_priv_is_meta (p))
    return;
  base = gnn_tensor_priv_data (p);   /* NULL + offset for a meta tensor */
  if (counter_based)
    key = gnn_generator_next_u64 (generator);
  if (counter_based && gnn_tensor_is_contiguous (self))
    {
      /* one run (every new parameter): the same values as the walk below */
      CounterRun r = { dist, p->dtype, key, base, elsize, a, b };

      gnn_parallel_for (p->numel, GNN_PARALLEL_GRAIN_ELEMS, counter_range, &r);
      return;
    }
  gnn_nditer_init (&it, p->shape, p->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    {
      gint64 off = it.offsets[0];
      gint64 st = it.inner_strides[0];

      if (counter_based)
        counter_fill (dist, p->dtype, key, counter, base + off * (gint64) elsize,
                      it.inner_size, st, a, b);
      else
        {
          for (gint64 i = 0; i < it.inner_size; i++)
            draw (generator, dist, a, b, p->dtype, base + (off + i * st) * (gint64) elsize);
        }
      counter += (guint64) it.inner_size;
    }
}

/* fill_random_with @generator, or with the default generator (locked) for NULL. */
static void
fill_random (GnnTensor    *self,
             Distribution  dist,
             double        a,
             double        b,
             GnnGenerator *generator)
{
  fill_random_with (self, dist, a, b, gnn_generator_acquire (generator));
  gnn_generator_release (generator);
}

/**
 * gnn_tensor_uniform_:
 * @self: a floating point #GnnTensor
 * @low: the lower bound, included
 * @high: the upper bound, excluded
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator ([func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * Fills @self in place with samples of the uniform distribution on
 * [@low, @high), like `tensor.uniform_(low, high, generator=generator)`.
 * Works on any view: only the elements @self covers are written, in
 * row-major order, so the same generator state gives the same values.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not of a floating
 *   point dtype or the bounds are not finite with @low <= @high
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_uniform_ (GnnTensor    *self,
                     double        low,
                     double        high,
                     GnnGenerator *generator,
                     GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (!check_floating ("uniform_", self, error))
    return FALSE;
  if (!isfinite (low) || !isfinite (high))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "uniform_: %s is out of bounds for %s (from=%g, to=%g)",
                   isfinite (low) ? "to" : "from",
                   gnn_dtype_get_name (gnn_tensor_priv (self)->dtype), low, high);
      return FALSE;
    }
  if (low > high)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "uniform_ expects to return a [from, to) range, but found from=%g > to=%g",
                   low, high);
      return FALSE;
    }
  if (!gnn_tensor_record_inplace (GNN_OP_UNIFORM, self, NULL, error))
    return FALSE;
  fill_random (self, DIST_UNIFORM, low, high, generator);
  return TRUE;
}

/**
 * gnn_tensor_normal_:
 * @self: a floating point #GnnTensor
 * @mean: the mean
 * @std: the standard deviation, >= 0
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator ([func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * Fills @self in place with samples of the normal distribution N(@mean,
 * @std²), like `tensor.normal_(mean, std, generator=generator)`. Works on any
 * view, in row-major order.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not of a floating
 *   point dtype or @std is negative
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_normal_ (GnnTensor    *self,
                    double        mean,
                    double        std,
                    GnnGenerator *generator,
                    GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (!check_floating ("normal_", self, error))
    return FALSE;
  if (!(std >= 0.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "normal expects std >= 0.0, but found std %g", std);
      return FALSE;
    }
  if (!gnn_tensor_record_inplace (GNN_OP_NORMAL, self, NULL, error))
    return FALSE;
  fill_random (self, DIST_NORMAL, mean, std, generator);
  return TRUE;
}

/* A new tensor of @shape filled from @dist (a = 0, b = 1: U(0, 1) or
 * N(0, 1)); a meta tensor under the meta default device, with no draws.
 * A non-floating @dtype fails with torch's message, which names the CPU
 * kernel that refuses it (@kernel). */
static GnnTensor *
new_random (const char   *kernel,
            const gint64 *shape,
            guint         ndim,
            GnnDType      dtype,
            Distribution  dist,
            GnnGenerator *generator,
            GError      **error)
{
  g_autoptr (GnnTensor) out = NULL;

  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"%s\" not implemented for '%s'",
                   kernel, gnn_torch_scalar_name (dtype));
      return NULL;
    }
  out = gnn_tensor_empty (shape, ndim, dtype, error);
  if (out == NULL)
    return NULL;
  fill_random (out, dist, 0.0, 1.0, generator);
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_rand:
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions (0 for a scalar)
 * @dtype: a floating point element type
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator ([func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * A new contiguous tensor of samples of the uniform distribution on [0, 1),
 * like `torch.rand(*shape, dtype=dtype, generator=generator)`: the values
 * [method@Gnn.Tensor.uniform_] with bounds 0 and 1 writes from the same
 * generator state.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set if the
 *   shape is invalid or @dtype is not a floating point type
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rand (const gint64 *shape,
                 guint         ndim,
                 GnnDType      dtype,
                 GnnGenerator *generator,
                 GError      **error)
{
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return new_random ("check_uniform_bounds", shape, ndim, dtype, DIST_UNIFORM, generator, error);
}

/**
 * gnn_tensor_randn:
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions (0 for a scalar)
 * @dtype: a floating point element type
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator ([func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * A new contiguous tensor of samples of the standard normal distribution,
 * like `torch.randn(*shape, dtype=dtype, generator=generator)`: the values
 * [method@Gnn.Tensor.normal_] with mean 0 and std 1 writes from the same
 * generator state.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set if the
 *   shape is invalid or @dtype is not a floating point type
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_randn (const gint64 *shape,
                  guint         ndim,
                  GnnDType      dtype,
                  GnnGenerator *generator,
                  GError      **error)
{
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return new_random ("normal_kernel_cpu", shape, ndim, dtype, DIST_NORMAL, generator, error);
}

/**
 * gnn_tensor_rand_like:
 * @self: a #GnnTensor
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * Like `torch.rand_like(self)`: [func@Gnn.Tensor.rand] with the shape and
 * dtype of @self.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set if @self
 *   is not of a floating point dtype
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rand_like (GnnTensor    *self,
                      GnnGenerator *generator,
                      GError      **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  return gnn_tensor_rand (p->shape, p->ndim, p->dtype, generator, error);
}

/**
 * gnn_tensor_randn_like:
 * @self: a #GnnTensor
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * Like `torch.randn_like(self)`: [func@Gnn.Tensor.randn] with the shape and
 * dtype of @self.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set if @self
 *   is not of a floating point dtype
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_randn_like (GnnTensor    *self,
                       GnnGenerator *generator,
                       GError      **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  return gnn_tensor_randn (p->shape, p->ndim, p->dtype, generator, error);
}

/* torch.nn.init's fan_in with mode='fan_in' and the leaky_relu gain.
 * Returns FALSE with @error for fewer than 2 dimensions. */
static gboolean
kaiming_std (const char *op,
             GnnTensor  *self,
             double      a,
             double     *std_out,
             GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  double fan_in;
  double gain;

  if (!check_floating (op, self, error))
    return FALSE;
  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Fan in and fan out can not be computed for tensor with fewer than 2 "
                   "dimensions (got %u)", op, p->ndim);
      return FALSE;
    }
  fan_in = (double) p->shape[1];
  for (guint d = 2; d < p->ndim; d++)
    fan_in *= (double) p->shape[d];
  gain = sqrt (2.0 / (1.0 + a * a));
  *std_out = gain / sqrt (fan_in);
  return TRUE;
}

/**
 * gnn_tensor_kaiming_uniform_:
 * @self: a floating point #GnnTensor of at least 2 dimensions
 * @a: the negative slope of the leaky ReLU that follows the layer (0 for ReLU)
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator ([func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * He initialization, like `torch.nn.init.kaiming_uniform_(t, a=a,
 * mode='fan_in', nonlinearity='leaky_relu')`: fills @self from U(-bound,
 * bound) with bound = gain × sqrt(3 / fan_in), gain = sqrt(2 / (1 + @a²)) and
 * fan_in = size(1) × the product of the sizes of dimensions 2 and up. A
 * tensor with no elements is left as is.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not of a floating
 *   point dtype or has fewer than 2 dimensions
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_kaiming_uniform_ (GnnTensor    *self,
                             double        a,
                             GnnGenerator *generator,
                             GError      **error)
{
  double std, bound;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (gnn_tensor_priv (self)->numel == 0 && gnn_tensor_priv (self)->ndim > 0)
    return check_floating ("kaiming_uniform_", self, error);
  if (!kaiming_std ("kaiming_uniform_", self, a, &std, error))
    return FALSE;
  bound = sqrt (3.0) * std;
  gnn_tensor_priv_bump_version (gnn_tensor_priv (self));   /* nn.init: under no_grad */
  fill_random (self, DIST_UNIFORM, -bound, bound, generator);
  return TRUE;
}

/**
 * gnn_tensor_kaiming_normal_:
 * @self: a floating point #GnnTensor of at least 2 dimensions
 * @a: the negative slope of the leaky ReLU that follows the layer (0 for ReLU)
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator ([func@Gnn.Generator.get_default])
 * @error: return location for a #GError
 *
 * He initialization, like `torch.nn.init.kaiming_normal_(t, a=a,
 * mode='fan_in', nonlinearity='leaky_relu')`: fills @self from N(0, std²)
 * with std = gain / sqrt(fan_in), gain = sqrt(2 / (1 + @a²)) and fan_in =
 * size(1) × the product of the sizes of dimensions 2 and up. A tensor with
 * no elements is left as is.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not of a floating
 *   point dtype or has fewer than 2 dimensions
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_kaiming_normal_ (GnnTensor    *self,
                            double        a,
                            GnnGenerator *generator,
                            GError      **error)
{
  double std;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (gnn_tensor_priv (self)->numel == 0 && gnn_tensor_priv (self)->ndim > 0)
    return check_floating ("kaiming_normal_", self, error);
  if (!kaiming_std ("kaiming_normal_", self, a, &std, error))
    return FALSE;
  gnn_tensor_priv_bump_version (gnn_tensor_priv (self));   /* nn.init: under no_grad */
  fill_random (self, DIST_NORMAL, 0.0, std, generator);
  return TRUE;
}
