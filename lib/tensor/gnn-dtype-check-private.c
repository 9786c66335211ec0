/* gnn-dtype-check-private.c: PyTorch's dtype errors, shared by the tensor
 * kernels that only take floating-point inputs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>
#include <math.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-nditer-private.h"

const char *
gnn_torch_scalar_name (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "Float";
    case GNN_DTYPE_F64: return "Double";
    case GNN_DTYPE_F16: return "Half";
    case GNN_DTYPE_BF16: return "BFloat16";
    case GNN_DTYPE_I64: return "Long";
    case GNN_DTYPE_I32: return "Int";
    case GNN_DTYPE_I16: return "Short";
    case GNN_DTYPE_I8: return "Char";
    case GNN_DTYPE_U8: return "Byte";
    case GNN_DTYPE_BOOL: return "Bool";
    default: return gnn_dtype_get_name (dtype);
    }
}

gboolean
gnn_check_float_dtype (const char  *op,
                       GnnTensor   *t,
                       GError     **error)
{
  GnnDType dtype = gnn_tensor_priv (t)->dtype;

  if (dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "\"%s\" not implemented for '%s'", op, gnn_torch_scalar_name (dtype));
  return FALSE;
}

gboolean
gnn_check_not_bool (const char  *op,
                    GnnTensor   *t,
                    GError     **error)
{
  if (gnn_tensor_priv (t)->dtype != GNN_DTYPE_BOOL)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"%s\" not implemented for 'Bool'", op);
  return FALSE;
}

gboolean
gnn_check_int_divisor (GnnTensor  *divisor,
                       GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (divisor);
  gsize size = gnn_dtype_get_size (p->dtype);
  const gint64 *strides[1] = { p->strides };
  GnnNdIter it;

  if (gnn_dtype_is_floating (p->dtype))
    return TRUE;
  gnn_nditer_init (&it, p->shape, p->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    for (gint64 i = 0; i < it.inner_size; i++)
      if (gnn_dtype_read (p->dtype, gnn_tensor_priv_data (p) +
                          (it.offsets[0] + i * it.inner_strides[0]) * (gint64) size) == 0.0)
        {
          /* PyTorch's wording for integer tensors */
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_ZERO_DIVISION, "ZeroDivisionError");
          return FALSE;
        }
  return TRUE;
}

/* The C++ type torch names in its conversion errors, and the range of
 * finite values @dtype holds. */
static const char *
c_type_name (GnnDType dtype,
             double  *lowest,
             double  *highest)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32:  *highest = FLT_MAX; break;
    case GNN_DTYPE_F64:  *highest = DBL_MAX; break;
    case GNN_DTYPE_F16:  *highest = 65504.0; break;
    case GNN_DTYPE_BF16: *highest = 3.38953138925153547590470800371487866880e38; break;
    case GNN_DTYPE_I64:  *lowest = -9223372036854775808.0; *highest = 9223372036854775807.0; return "int64_t";
    case GNN_DTYPE_I32:  *lowest = G_MININT32; *highest = G_MAXINT32; return "int";
    case GNN_DTYPE_I16:  *lowest = G_MININT16; *highest = G_MAXINT16; return "int16_t";
    case GNN_DTYPE_I8:   *lowest = G_MININT8; *highest = G_MAXINT8; return "int8_t";
    case GNN_DTYPE_U8:   *lowest = 0; *highest = G_MAXUINT8; return "uint8_t";
    default:             *lowest = -INFINITY; *highest = INFINITY; return "bool";
    }
  *lowest = -*highest;
  switch (dtype)
    {
    case GNN_DTYPE_F32:  return "float";
    case GNN_DTYPE_F64:  return "double";
    case GNN_DTYPE_F16:  return "at::Half";
    default:             return "at::BFloat16";
    }
}

static gboolean
overflow_error (const char *type,
                GError    **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "value cannot be converted to type %s without overflow", type);
  return FALSE;
}

gboolean
gnn_check_scalar_fits (GnnDType dtype,
                       double   value,
                       GError **error)
{
  double lowest, highest;
  const char *type = c_type_name (dtype, &lowest, &highest);

  if (dtype == GNN_DTYPE_BOOL)
    return TRUE;
  if (gnn_dtype_is_floating (dtype))
    {
      /* infinities and NaN are values of every float dtype */
      if (!isfinite (value) || (value >= lowest && value <= highest))
        return TRUE;
      return overflow_error (type, error);
    }
  /* NaN fails both comparisons; 2^63 rounds equal to INT64_MAX */
  if (value >= lowest && value <= highest && !(dtype == GNN_DTYPE_I64 && value >= 0x1p63))
    return TRUE;
  return overflow_error (type, error);
}

gboolean
gnn_check_int_fits (GnnDType dtype,
                    gint64   value,
                    GError **error)
{
  double lowest, highest;
  const char *type = c_type_name (dtype, &lowest, &highest);

  if (dtype == GNN_DTYPE_BOOL || dtype == GNN_DTYPE_I64)
    return TRUE;
  if (gnn_dtype_is_floating (dtype))
    return dtype != GNN_DTYPE_F16 || fabs ((double) value) <= highest ? TRUE
                                                                      : overflow_error (type, error);
  if (dtype == GNN_DTYPE_U8 && value < 0)
    return value >= -(gint64) highest ? TRUE : overflow_error (type, error);
  return (double) value >= lowest && (double) value <= highest ? TRUE : overflow_error (type, error);
}
