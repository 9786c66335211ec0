/* gnn-saved-version.c: the check that a tensor autograd saved was not
 * modified in place before backward read it (torch's SavedVariable::unpack)
 *
 * The counter lives on the storage (GnnStorage.version): views and
 * detached tensors share it, so a write through any of them is seen. Each
 * node keeps the version of every tensor it saves; the engine checks them
 * before running the node's backward (gnn_node_check_saved() in gnn-autograd.c),
 * for the saved tensors that the gradients it must compute read. This file
 * words the error.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

/* torch's Tensor::toString(): the legacy class names, and "CPU<T>Type"
 * for the dtypes that never had one. */
static const char *
type_string (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32:  return "torch.FloatTensor";
    case GNN_DTYPE_F64:  return "torch.DoubleTensor";
    case GNN_DTYPE_F16:  return "torch.HalfTensor";
    case GNN_DTYPE_BF16: return "CPUBFloat16Type";
    case GNN_DTYPE_I64:  return "torch.LongTensor";
    case GNN_DTYPE_I32:  return "torch.IntTensor";
    case GNN_DTYPE_I16:  return "torch.ShortTensor";
    case GNN_DTYPE_I8:   return "torch.CharTensor";
    case GNN_DTYPE_U8:   return "torch.ByteTensor";
    case GNN_DTYPE_BOOL: return "CPUBoolType";
    default:             return gnn_dtype_get_name (dtype);
    }
}

void
gnn_saved_version_error (GnnTensor  *saved,
                         guint       expected,
                         const char *producer,
                         GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (saved);
  g_autofree char *shape = gnn_shape_to_string (p->shape, p->ndim);
  g_autofree char *which = NULL;

  if (producer != NULL)
    which = g_strdup_printf (", which is output 0 of %s,", producer);
  g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
               "one of the variables needed for gradient computation has been modified by an "
               "inplace operation: [%s %s]%s is at version %u; expected version %u instead. "
               "Hint: enable anomaly detection to find the operation that failed to compute its "
               "gradient, with torch.autograd.set_detect_anomaly(True).",
               type_string (p->dtype), shape, which != NULL ? which : "",
               gnn_storage_get_version (p->storage), expected);
}
