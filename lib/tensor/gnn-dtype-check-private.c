/* gnn-dtype-check-private.c: PyTorch's dtype errors, shared by the tensor
 * kernels that only take floating-point inputs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
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
