/* gnn-tensor-fused.c: ops of several operands that torch differentiates
 * as one node — clamp (number or tensor bounds), lerp, addcmul, addcdiv,
 * masked_fill — computed with the elementwise kernels, and torch's out=
 * rule (gnn_tensor_out_)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-promote-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-nditer-private.h"

/* c10's TypeMeta names, which some of torch's messages print */
static const char *
type_meta_name (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "float";
    case GNN_DTYPE_F64: return "double";
    case GNN_DTYPE_F16: return "c10::Half";
    case GNN_DTYPE_BF16: return "c10::BFloat16";
    case GNN_DTYPE_I64: return "long int";
    case GNN_DTYPE_I32: return "int";
    case GNN_DTYPE_I16: return "short int";
    case GNN_DTYPE_I8: return "signed char";
    case GNN_DTYPE_U8: return "unsigned char";
    default: return "bool";
    }
}

/* --- clamp ------------------------------------------------------------------ */

static GnnTensor *
clamp_values (GnnTensor  *self,
              GnnTensor  *min,
              GnnTensor  *max,
              GError    **error)
{
  GnnDType dtype;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) lo = NULL;

  if (min == NULL && max == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "torch.clamp: At least one of 'min' or 'max' must not be None");
      return NULL;
    }
  if (gnn_tensor_priv (self)->dtype == GNN_DTYPE_BOOL)
    {
      gnn_set_not_implemented (error, "clamp_cpu", GNN_DTYPE_BOOL);
      return NULL;
    }
  dtype = gnn_result_type_n ((GnnTensor *[]) { self, min, max }, 3);
  if ((x = gnn_ew_cast (self, dtype, error)) == NULL)
    return NULL;
  if (min != NULL)
    {
      if ((lo = gnn_ew_binary (&gnn_op_maximum, x, min, error)) == NULL)
        return NULL;
      g_object_unref (x);
      x = g_steal_pointer (&lo);
    }
  if (max != NULL)
    return gnn_ew_binary (&gnn_op_minimum, x, max, error);
  return g_steal_pointer (&x);
}

/**
 * gnn_tensor_clamp:
 * @self: a #GnnTensor
 * @min: (nullable): the lower bound (a tensor or a wrapped number), or %NULL
 * @max: (nullable): the upper bound (a tensor or a wrapped number), or %NULL
 * @error: return location for a #GError
 *
 * Limits every element to [@min, @max] (like `torch.clamp (self, min,
 * max)` and `clip`), broadcasting tensor bounds; the result has torch's
 * dtype over all three (an integer tensor clamped by 0.5 is float32). NaN
 * stays NaN; where @min > @max the result is @max. The gradient flows to
 * @self where it lies within the bounds, else to the bound it was
 * clamped to.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error
 *   set (both bounds %NULL, shapes that do not broadcast)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_clamp (GnnTensor *self,
                  GnnTensor *min,
                  GnnTensor *max,
                  GError   **error)
{
  GNN_CHECK_STORAGE ("clamp", self, error, NULL);
  GNN_CHECK_STORAGE ("clamp", min, error, NULL);
  GNN_CHECK_STORAGE ("clamp", max, error, NULL);
  return gnn_tensor_record (GNN_OP_CLAMP, clamp_values (self, min, max, error),
                            (GnnTensor *[]) { self, min, max }, 3, NULL);
}

/**
 * gnn_tensor_clamp_:
 * @self: the tensor to update
 * @min: (nullable): the lower bound, or %NULL
 * @max: (nullable): the upper bound, or %NULL
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.clamp] (like `self.clamp_(min, max)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_clamp_ (GnnTensor *self,
                   GnnTensor *min,
                   GnnTensor *max,
                   GError   **error)
{
  g_autoptr(GnnTensor) values = NULL;

  GNN_CHECK_STORAGE ("clamp_", self, error, FALSE);
  values = clamp_values (self, min, max, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, GNN_OP_CLAMP, (GnnTensor *[]) { min, max }, 2, NULL,
                         error);
}

/* --- lerp -------------------------------------------------------------------- */

/* torch's form: exact at both ends */
#define LERP_LOOP(T)                                                            \
  G_STMT_START {                                                                \
    T *o = (T *) (od + it.offsets[0] * (gint64) sizeof (T));                    \
    const T *s = (const T *) (sd + it.offsets[1] * (gint64) sizeof (T));        \
    const T *e = (const T *) (ed + it.offsets[2] * (gint64) sizeof (T));        \
    const T *w = (const T *) (wd + it.offsets[3] * (gint64) sizeof (T));        \
    for (gint64 i = 0; i < it.inner_size; i++)                                  \
      {                                                                         \
        T a = s[i * it.inner_strides[1]], b = e[i * it.inner_strides[2]];       \
        T t = w[i * it.inner_strides[3]];                                       \
        o[i * it.inner_strides[0]] = (t < (T) 0.5) ? a + t * (b - a)            \
                                                   : b - (b - a) * ((T) 1 - t); \
      }                                                                         \
  } G_STMT_END

static GnnTensor *
lerp_values (GnnTensor  *self,
             GnnTensor  *end,
             GnnTensor  *weight,
             GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *ep = gnn_tensor_priv (end);
  GnnTensorPrivate *wp = gnn_tensor_priv (weight);
  gint64 shape1[GNN_MAX_DIMS], shape[GNN_MAX_DIMS];
  gint64 ss[GNN_MAX_DIMS], es[GNN_MAX_DIMS], ws[GNN_MAX_DIMS];
  guint nd1, ndim;
  g_autoptr(GnnTensor) wc = NULL;
  GnnTensor *out;
  GnnTensorPrivate *op;
  const gint64 *strides[4];
  guint8 *od;
  const guint8 *sd, *ed, *wd;
  GnnNdIter it;

  if (ep->dtype != sp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected dtype %s for `end` but got dtype %s",
                   type_meta_name (sp->dtype), type_meta_name (ep->dtype));
      return NULL;
    }
  if (!wp->wrapped_number && wp->dtype != sp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected dtype %s for `weight` but got dtype %s",
                   type_meta_name (sp->dtype), type_meta_name (wp->dtype));
      return NULL;
    }
  if (sp->dtype != GNN_DTYPE_F32 && sp->dtype != GNN_DTYPE_F64)
    {
      gnn_set_not_implemented (error, "lerp_kernel_scalar", sp->dtype);
      return NULL;
    }
  if (!gnn_broadcast_shapes (sp->shape, sp->ndim, ep->shape, ep->ndim, shape1, &nd1, error) ||
      !gnn_broadcast_shapes (shape1, nd1, wp->shape, wp->ndim, shape, &ndim, error))
    return NULL;
  if ((wc = gnn_ew_cast (weight, sp->dtype, error)) == NULL)
    return NULL;
  out = gnn_tensor_new_contiguous_checked (sp->dtype, shape, ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  op = gnn_tensor_priv (out);
  gnn_broadcast_strides (self, shape, ndim, ss);
  gnn_broadcast_strides (end, shape, ndim, es);
  gnn_broadcast_strides (wc, shape, ndim, ws);
  strides[0] = op->strides;
  strides[1] = ss;
  strides[2] = es;
  strides[3] = ws;
  od = gnn_tensor_priv_data (op);
  sd = gnn_tensor_priv_data (sp);
  ed = gnn_tensor_priv_data (ep);
  wd = gnn_tensor_priv_data (gnn_tensor_priv (wc));
  gnn_nditer_init (&it, shape, ndim, 4, strides);
  while (gnn_nditer_next (&it))
    {
      if (sp->dtype == GNN_DTYPE_F32)
        LERP_LOOP (float);
      else
        LERP_LOOP (double);
    }
  return out;
}

/**
 * gnn_tensor_lerp:
 * @self: the start points
 * @end: the end points, of @self's dtype, broadcastable with it
 * @weight: the weights (a tensor of @self's dtype or a wrapped number)
 * @error: return location for a #GError
 *
 * Linear interpolation `self + weight · (end - self)` (like `torch.lerp`),
 * broadcasting all three; floating point only, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lerp (GnnTensor *self,
                 GnnTensor *end,
                 GnnTensor *weight,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("lerp", self, error, NULL);
  GNN_CHECK_STORAGE ("lerp", end, error, NULL);
  GNN_CHECK_STORAGE ("lerp", weight, error, NULL);
  return gnn_tensor_record (GNN_OP_LERP, lerp_values (self, end, weight, error),
                            (GnnTensor *[]) { self, end, weight }, 3, NULL);
}

/**
 * gnn_tensor_lerp_:
 * @self: the start points, updated in place
 * @end: the end points, broadcastable to @self's shape
 * @weight: the weights (a tensor or a wrapped number)
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.lerp] (like `self.lerp_(end, weight)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_lerp_ (GnnTensor *self,
                  GnnTensor *end,
                  GnnTensor *weight,
                  GError   **error)
{
  g_autoptr(GnnTensor) values = NULL;

  GNN_CHECK_STORAGE ("lerp_", self, error, FALSE);
  values = lerp_values (self, end, weight, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, GNN_OP_LERP, (GnnTensor *[]) { end, weight }, 2, NULL,
                         error);
}

/* --- addcmul, addcdiv ------------------------------------------------------------ */

/* self + value · (t1 op t2), all in the dtype torch promotes the three to */
static GnnTensor *
addc_values (const GnnBinaryOp *op,
             GnnTensor         *self,
             GnnTensor         *t1,
             GnnTensor         *t2,
             double             value,
             GError           **error)
{
  GnnDType dtype = gnn_result_type_n ((GnnTensor *[]) { self, t1, t2 }, 3);
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) prod = NULL;
  g_autoptr(GnnTensor) factor = NULL;
  g_autoptr(GnnTensor) scaled = NULL;

  if (op == &gnn_op_div && !gnn_dtype_is_floating (dtype))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "Integer division with addcdiv is no longer supported, and in a "
                           "future  release addcdiv will perform a true division of tensor1 and "
                           "tensor2. The historic addcdiv behavior can be implemented as (input "
                           "+ value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
                           "inputs and as (input + value * tensor1 / tensor2) for float inputs. "
                           "The future addcdiv behavior is just the latter implementation: "
                           "(input + value * tensor1 / tensor2), for all dtypes.");
      return NULL;
    }
  if (!gnn_dtype_is_floating (dtype) && value != trunc (value))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "value %g cannot be converted to an integral result of dtype %s without "
                   "overflow or loss of its fractional part", value, gnn_dtype_get_name (dtype));
      return NULL;
    }
  if ((a = gnn_ew_cast (t1, dtype, error)) == NULL || (b = gnn_ew_cast (t2, dtype, error)) == NULL ||
      (prod = gnn_ew_binary (op, a, b, error)) == NULL)
    return NULL;
  factor = gnn_tensor_new_scalar (value, gnn_tensor_priv (prod)->dtype);
  if ((scaled = gnn_ew_binary (&gnn_op_mul, factor, prod, error)) == NULL)
    return NULL;
  return gnn_ew_binary (&gnn_op_add, self, scaled, error);
}

/**
 * gnn_tensor_addcmul:
 * @self: a #GnnTensor
 * @tensor1: a #GnnTensor
 * @tensor2: a #GnnTensor
 * @value: the factor of the product
 * @error: return location for a #GError
 *
 * `self + value · tensor1 · tensor2` elementwise with broadcasting (like
 * `torch.addcmul`), in torch's result dtype over the three tensors.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_addcmul (GnnTensor *self,
                    GnnTensor *tensor1,
                    GnnTensor *tensor2,
                    double     value,
                    GError   **error)
{
  GNN_CHECK_STORAGE ("addcmul", self, error, NULL);
  GNN_CHECK_STORAGE ("addcmul", tensor1, error, NULL);
  GNN_CHECK_STORAGE ("addcmul", tensor2, error, NULL);
  return gnn_tensor_record (GNN_OP_ADDCMUL,
                            addc_values (&gnn_op_mul, self, tensor1, tensor2, value, error),
                            (GnnTensor *[]) { self, tensor1, tensor2 }, 3,
                            &(GnnOpParams) { .scalar = value });
}

/**
 * gnn_tensor_addcmul_:
 * @self: the tensor to update
 * @tensor1: a #GnnTensor
 * @tensor2: a #GnnTensor
 * @value: the factor of the product
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.addcmul] (like `self.addcmul_(t1, t2,
 * value=value)`, the update of Adam's second moment).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_addcmul_ (GnnTensor *self,
                     GnnTensor *tensor1,
                     GnnTensor *tensor2,
                     double     value,
                     GError   **error)
{
  g_autoptr(GnnTensor) values = NULL;

  GNN_CHECK_STORAGE ("addcmul_", self, error, FALSE);
  values = addc_values (&gnn_op_mul, self, tensor1, tensor2, value, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, GNN_OP_ADDCMUL, (GnnTensor *[]) { tensor1, tensor2 }, 2,
                         &(GnnOpParams) { .scalar = value }, error);
}

/**
 * gnn_tensor_addcdiv:
 * @self: a #GnnTensor
 * @tensor1: the numerators
 * @tensor2: the denominators
 * @value: the factor of the quotient
 * @error: return location for a #GError
 *
 * `self + value · tensor1 / tensor2` elementwise with broadcasting (like
 * `torch.addcdiv`); integer inputs are refused with torch's message.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_addcdiv (GnnTensor *self,
                    GnnTensor *tensor1,
                    GnnTensor *tensor2,
                    double     value,
                    GError   **error)
{
  GNN_CHECK_STORAGE ("addcdiv", self, error, NULL);
  GNN_CHECK_STORAGE ("addcdiv", tensor1, error, NULL);
  GNN_CHECK_STORAGE ("addcdiv", tensor2, error, NULL);
  return gnn_tensor_record (GNN_OP_ADDCDIV,
                            addc_values (&gnn_op_div, self, tensor1, tensor2, value, error),
                            (GnnTensor *[]) { self, tensor1, tensor2 }, 3,
                            &(GnnOpParams) { .scalar = value });
}

/**
 * gnn_tensor_addcdiv_:
 * @self: the tensor to update
 * @tensor1: the numerators
 * @tensor2: the denominators
 * @value: the factor of the quotient
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.addcdiv] (like `self.addcdiv_(t1, t2,
 * value=value)`, Adam's parameter update).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_addcdiv_ (GnnTensor *self,
                     GnnTensor *tensor1,
                     GnnTensor *tensor2,
                     double     value,
                     GError   **error)
{
  g_autoptr(GnnTensor) values = NULL;

  GNN_CHECK_STORAGE ("addcdiv_", self, error, FALSE);
  values = addc_values (&gnn_op_div, self, tensor1, tensor2, value, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, GNN_OP_ADDCDIV, (GnnTensor *[]) { tensor1, tensor2 }, 2,
                         &(GnnOpParams) { .scalar = value }, error);
}

/* --- masked_fill ----------------------------------------------------------------- */

static GnnTensor *
masked_fill_values (GnnTensor  *self,
                    GnnTensor  *mask,
                    GnnTensor  *value,
                    GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *mp = gnn_tensor_priv (mask);
  GnnTensorPrivate *vp = gnn_tensor_priv (value);
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;
  g_autoptr(GnnTensor) v = NULL;

  if (mp->dtype != GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                   type_meta_name (mp->dtype));
      return NULL;
    }
  if (vp->ndim != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                   "with %u dimension(s).", vp->ndim);
      return NULL;
    }
  if (!gnn_broadcast_shapes (sp->shape, sp->ndim, mp->shape, mp->ndim, shape, &ndim, error))
    return NULL;
  if (ndim != sp->ndim || memcmp (shape, sp->shape, sizeof (gint64) * ndim) != 0)
    {
      g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);
      g_autofree char *bs = gnn_shape_to_string (shape, ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "output with shape %s doesn't match the broadcast shape %s", ss, bs);
      return NULL;
    }
  if ((v = gnn_ew_cast (value, sp->dtype, error)) == NULL)
    return NULL;
  return gnn_where_values (mask, v, self, error);
}

/**
 * gnn_tensor_masked_fill:
 * @self: a #GnnTensor
 * @mask: a bool #GnnTensor broadcastable to the shape of @self
 * @value: a 0-d tensor or a wrapped number, converted to @self's dtype
 * @error: return location for a #GError
 *
 * @self with @value where @mask is true (like `self.masked_fill (mask,
 * value)`). The gradient of @self is zero where it was filled; a 0-d
 * @value tensor gets the sum of the gradient there.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error
 *   set for a mask that is not bool or does not broadcast, or a @value
 *   with dimensions
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_masked_fill (GnnTensor *self,
                        GnnTensor *mask,
                        GnnTensor *value,
                        GError   **error)
{
  GNN_CHECK_STORAGE ("masked_fill", self, error, NULL);
  GNN_CHECK_STORAGE ("masked_fill", mask, error, NULL);
  GNN_CHECK_STORAGE ("masked_fill", value, error, NULL);
  return gnn_tensor_record (GNN_OP_MASKED_FILL, masked_fill_values (self, mask, value, error),
                            (GnnTensor *[]) { self, value }, 2,
                            &(GnnOpParams) { .extra = { mask } });
}

/**
 * gnn_tensor_masked_fill_:
 * @self: the tensor to update
 * @mask: a bool #GnnTensor broadcastable to the shape of @self
 * @value: a 0-d tensor or a wrapped number
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.masked_fill] (like `self.masked_fill_(mask,
 * value)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_masked_fill_ (GnnTensor *self,
                         GnnTensor *mask,
                         GnnTensor *value,
                         GError   **error)
{
  g_autoptr(GnnTensor) values = NULL;

  GNN_CHECK_STORAGE ("masked_fill_", self, error, FALSE);
  values = masked_fill_values (self, mask, value, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, GNN_OP_MASKED_FILL, &value, 1,
                         &(GnnOpParams) { .extra = { mask } }, error);
}

/* --- out= ---------------------------------------------------------------------------- */

/**
 * gnn_tensor_out_:
 * @out: the tensor given as torch's `out=` argument
 * @result: the result of the op
 * @error: return location for a #GError
 *
 * Stores @result into @out the way torch's `out=` arguments do: the result
 * dtype must be storable in @out's ("result type Float can't be cast to
 * the desired output type Long"); an @out of another shape is resized
 * (given new memory of @result's shape, keeping its dtype); nothing that
 * requires grad takes part ("functions with out=... arguments don't
 * support automatic differentiation"). Bindings implement `out=` as the op
 * followed by this call.
 *
 * Returns: %TRUE, or %FALSE with @error set (@out unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_out_ (GnnTensor *out,
                 GnnTensor *result,
                 GError   **error)
{
  GnnTensorPrivate *op, *rp;

  g_return_val_if_fail (GNN_IS_TENSOR (out), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (result), FALSE);
  GNN_CHECK_STORAGE ("out", out, error, FALSE);
  GNN_CHECK_STORAGE ("out", result, error, FALSE);
  op = gnn_tensor_priv (out);
  rp = gnn_tensor_priv (result);
  if (!gnn_grad_mode_off && (rp->requires_grad || op->requires_grad))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.");
      return FALSE;
    }
  if (!gnn_check_can_cast (rp->dtype, op->dtype, error))
    return FALSE;
  if (op->ndim != rp->ndim || memcmp (op->shape, rp->shape, sizeof (gint64) * op->ndim) != 0)
    {
      g_autoptr(GnnTensor) resized = gnn_tensor_copy_checked (result, op->dtype, error);

      if (resized == NULL)
        return FALSE;
      gnn_tensor_assign_storage (out, resized);
      return TRUE;
    }
  return gnn_tensor_copy_values_ (out, result, error);
}
