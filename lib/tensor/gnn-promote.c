/* gnn-promote.c: torch's type promotion — promote_types, can_cast,
 * result_type over tensors, 0-d tensors and wrapped numbers — in the one
 * place every elementwise op asks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-promote-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* bool < integers < floating point (c10's categories, complex aside) */
static int
category (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_BOOL:
      return 0;
    case GNN_DTYPE_F32:
    case GNN_DTYPE_F64:
    case GNN_DTYPE_F16:
    case GNN_DTYPE_BF16:
      return 2;
    default:
      return 1;
    }
}

/* Width of a signed integer type in bytes; uint8 counts as needing int16. */
static gsize
signed_width (GnnDType dtype)
{
  return dtype == GNN_DTYPE_U8 ? 2 : gnn_dtype_get_size (dtype);
}

static GnnDType
signed_of_width (gsize width)
{
  switch (width)
    {
    case 1: return GNN_DTYPE_I8;
    case 2: return GNN_DTYPE_I16;
    case 4: return GNN_DTYPE_I32;
    default: return GNN_DTYPE_I64;
    }
}

static int
float_rank (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F16: return 0;
    case GNN_DTYPE_BF16: return 1;
    case GNN_DTYPE_F32: return 2;
    default: return 3;
    }
}

/**
 * gnn_dtype_promote_types:
 * @a: a #GnnDType
 * @b: another #GnnDType
 *
 * The dtype two tensors of dtypes @a and @b compute in, like
 * `torch.promote_types (a, b)`: bool < integers < floating point; a signed
 * and an unsigned integer meet in a signed type wide enough for both
 * (uint8 and int8 give int16); float16 and bfloat16 meet in float32.
 *
 * Returns: the promoted dtype
 *
 * Since: 0.1
 */
GnnDType
gnn_dtype_promote_types (GnnDType a,
                         GnnDType b)
{
  int ca, cb;

  if (a == b)
    return a;
  ca = category (a);
  cb = category (b);
  if (ca != cb)
    return ca > cb ? a : b;
  if (ca == 1)
    {
      if (a == GNN_DTYPE_U8 || b == GNN_DTYPE_U8)
        return signed_of_width (MAX (signed_width (a), signed_width (b)));
      return gnn_dtype_get_size (a) >= gnn_dtype_get_size (b) ? a : b;
    }
  if ((a == GNN_DTYPE_F16 && b == GNN_DTYPE_BF16) || (a == GNN_DTYPE_BF16 && b == GNN_DTYPE_F16))
    return GNN_DTYPE_F32;
  return float_rank (a) >= float_rank (b) ? a : b;
}

/**
 * gnn_dtype_can_cast:
 * @from: the dtype of a result
 * @to: the dtype it would be stored in
 *
 * Whether a result of dtype @from may be written into a tensor of dtype @to
 * (an in-place op or an `out=` tensor), like `torch.can_cast (from, to)`:
 * everything but floating point into an integer or bool tensor, and
 * integers into a bool tensor.
 *
 * Returns: %TRUE if the cast is allowed
 *
 * Since: 0.1
 */
gboolean
gnn_dtype_can_cast (GnnDType from,
                    GnnDType to)
{
  return category (from) <= category (to);
}

#define UNDEFINED ((GnnDType) -1)

static GnnDType
promote_skip_undefined (GnnDType a,
                        GnnDType b)
{
  if (a == UNDEFINED)
    return b;
  if (b == UNDEFINED)
    return a;
  return gnn_dtype_promote_types (a, b);
}

/* c10's combine_categories: a lower-priority group (0-d tensors, numbers)
 * only widens a higher one across categories. */
static GnnDType
combine_categories (GnnDType higher,
                    GnnDType lower)
{
  if (higher != UNDEFINED && category (higher) == 2)
    return higher;
  if (higher == GNN_DTYPE_BOOL || (lower != UNDEFINED && category (lower) == 2))
    return promote_skip_undefined (higher, lower);
  return higher != UNDEFINED ? higher : lower;
}

GnnDType
gnn_result_type_n (GnnTensor *const *operands,
                   guint             n)
{
  GnnDType dim = UNDEFINED, zero = UNDEFINED, wrapped = UNDEFINED;

  for (guint i = 0; i < n; i++)
    {
      GnnTensorPrivate *p;
      GnnDType current;

      if (operands[i] == NULL)
        continue;
      p = gnn_tensor_priv (operands[i]);
      current = p->dtype;
      if (p->wrapped_number)
        {
          /* a Python float is a double, but counts as torch's default dtype */
          if (category (current) == 2)
            current = GNN_DTYPE_F32;
          wrapped = promote_skip_undefined (wrapped, current);
        }
      else if (p->ndim > 0)
        dim = promote_skip_undefined (dim, current);
      else
        zero = promote_skip_undefined (zero, current);
    }
  return combine_categories (dim, combine_categories (zero, wrapped));
}

/**
 * gnn_tensor_result_type:
 * @a: a #GnnTensor
 * @b: another #GnnTensor (or a wrapped number)
 *
 * The dtype an elementwise op on @a and @b computes, like
 * `torch.result_type (a, b)`: tensors with dimensions decide within a
 * category; a 0-d tensor, and below it a wrapped number (see
 * [ctor@Gnn.Tensor.new_wrapped_number]), only lift the result to a higher
 * category (an int64 tensor plus a float32 0-d tensor is float32, a float32
 * tensor plus a float64 0-d tensor stays float32; a Python float counts as
 * float32).
 *
 * Returns: the result dtype
 *
 * Since: 0.1
 */
GnnDType
gnn_tensor_result_type (GnnTensor *a,
                        GnnTensor *b)
{
  g_return_val_if_fail (GNN_IS_TENSOR (a), GNN_DTYPE_F32);
  g_return_val_if_fail (GNN_IS_TENSOR (b), GNN_DTYPE_F32);
  return gnn_result_type_n ((GnnTensor *[]) { a, b }, 2);
}

gboolean
gnn_check_can_cast (GnnDType   result,
                    GnnDType   out,
                    GError   **error)
{
  if (gnn_dtype_can_cast (result, out))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "result type %s can't be cast to the desired output type %s",
               gnn_torch_scalar_name (result), gnn_torch_scalar_name (out));
  return FALSE;
}

/* --- wrapped numbers ------------------------------------------------------ */

static GnnTensor *
new_wrapped (GnnDType dtype)
{
  GnnTensor *self = gnn_tensor_new_contiguous (dtype, NULL, 0, FALSE);

  gnn_tensor_priv (self)->wrapped_number = TRUE;
  return self;
}

/**
 * gnn_tensor_new_wrapped_number:
 * @value: the number
 *
 * A 0-d float64 tensor standing for a floating-point number of the calling
 * language, as torch wraps a Python float: in type promotion it counts as
 * the default dtype (float32) and ranks below tensors, so
 * `int_tensor + 2.5` is float32 and `float32_tensor * 2.5` stays float32.
 * Bindings pass numbers to the tensor ops this way.
 *
 * Returns: (transfer full): the wrapped number
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_wrapped_number (double value)
{
  GnnTensor *self = new_wrapped (GNN_DTYPE_F64);

  *(double *) gnn_tensor_priv_data (gnn_tensor_priv (self)) = value;
  return self;
}

/**
 * gnn_tensor_new_wrapped_int:
 * @value: the integer
 *
 * A 0-d int64 tensor standing for an integer of the calling language (a
 * Python int); see [ctor@Gnn.Tensor.new_wrapped_number]. It never widens
 * an integer tensor: `int32_tensor + 1` stays int32, `bool_tensor + 1` is
 * int64.
 *
 * Returns: (transfer full): the wrapped integer
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_wrapped_int (gint64 value)
{
  GnnTensor *self = new_wrapped (GNN_DTYPE_I64);

  *(gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (self)) = value;
  return self;
}

/**
 * gnn_tensor_new_wrapped_bool:
 * @value: the truth value
 *
 * A 0-d bool tensor standing for a boolean of the calling language; see
 * [ctor@Gnn.Tensor.new_wrapped_number].
 *
 * Returns: (transfer full): the wrapped boolean
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_wrapped_bool (gboolean value)
{
  GnnTensor *self = new_wrapped (GNN_DTYPE_BOOL);

  *(guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (self)) = value != FALSE;
  return self;
}

/**
 * gnn_tensor_is_wrapped_number:
 * @self: a #GnnTensor
 *
 * Whether @self stands for a number of the calling language (made by
 * [ctor@Gnn.Tensor.new_wrapped_number] and its siblings).
 *
 * Returns: %TRUE for a wrapped number
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_is_wrapped_number (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->wrapped_number;
}
