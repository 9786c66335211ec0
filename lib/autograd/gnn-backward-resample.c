/* gnn-backward-resample.c: gradients of padding and resampling
 *
 * They run the forward's gather in reverse (lib/tensor/gnn-gather-tables.c):
 * each output gradient is added to the input position its output read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-gather-tables-private.h"

/* The input gradient of a gather through @t, in the dtype of input 0. */
static gboolean
gather_backward (GnnNode                *node,
                 const GnnGatherTables  *t,
                 GnnTensor              *grad,
                 GnnTensor             **grads,
                 GError                **error)
{
  const GnnMeta *im = &node->inputs[0];
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;

  go = gnn_tensor_priv (grad)->dtype == im->dtype ? gnn_tensor_contiguous_checked (grad, error)
                                                  : gnn_tensor_copy_checked (grad, im->dtype, error);
  if (go == NULL)
    return FALSE;
  gx = gnn_tensor_new_contiguous_checked (im->dtype, im->shape, im->ndim, FALSE, error);
  if (gx == NULL)
    return FALSE;
  if (im->dtype == GNN_DTYPE_F32)
    gnn_gather_tables_backward_f32 (t, (const float *) gnn_tensor_priv_data (gnn_tensor_priv (go)),
                                    (float *) gnn_tensor_priv_data (gnn_tensor_priv (gx)));
  else
    gnn_gather_tables_backward_f64 (t, (const double *) gnn_tensor_priv_data (gnn_tensor_priv (go)),
                                    (double *) gnn_tensor_priv_data (gnn_tensor_priv (gx)));
  grads[0] = g_steal_pointer (&gx);
  return TRUE;
}

const char *
gnn_backward_pad_name (GnnPaddingMode mode,
                       guint          k)
{
  static const char *const names[2][3] = {
    { "ReflectionPad1DBackward0", "ReflectionPad2DBackward0", "ReflectionPad3DBackward0" },
    { "ReplicationPad1DBackward0", "ReplicationPad2DBackward0", "ReplicationPad3DBackward0" },
  };

  if ((mode == GNN_PADDING_MODE_REFLECT || mode == GNN_PADDING_MODE_REPLICATE) && k >= 1 && k <= 3)
    return names[mode == GNN_PADDING_MODE_REPLICATE][k - 1];
  /* torch 1.13 pads circularly by copying slices */
  return mode == GNN_PADDING_MODE_CIRCULAR ? "CopySlices" : "ConstantPadNdBackward0";
}

gboolean
gnn_backward_pad (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  const GnnMeta *im = &node->inputs[0];
  g_autofree gint64 *tables = NULL;
  GnnGatherTables t;

  gnn_pad_geometry (&t, im->shape, node->out.shape, im->ndim, node->params.n_ints);
  tables = gnn_pad_tables ((GnnPaddingMode) node->params.dim, &t, node->params.ints);
  return gather_backward (node, &t, grad, grads, error);
}
