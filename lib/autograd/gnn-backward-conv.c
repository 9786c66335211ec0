/* gnn-backward-conv.c: gradients of the convolutions (plain and transposed,
 * 1 to 3 spatial dimensions)
 *
 * They run the forward's kernels (lib/tensor/gnn-conv-kernels.c: im2col +
 * GEMM over chunks of the batch; Winograd or direct for the 2-d shapes they
 * fit) in the operands' own dtype. A plain convolution's gradients are the
 * kernels' backward; a transposed one is the backward-data of the plain
 * convolution from its output to its input (gnn_conv_geom_init), so its
 * input gradient is that convolution's forward and its weight gradient
 * that convolution's backward-weight with the roles of input and output
 * gradient swapped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-conv-kernels-private.h"

/* A contiguous tensor of @meta's geometry (zeroed: the kernels add into
 * it), or NULL when not @wanted. */
static GnnTensor *
new_grad (gboolean       wanted,
          const GnnMeta *meta,
          GError       **error)
{
  return wanted ? gnn_tensor_new_contiguous_checked (meta->dtype, meta->shape, meta->ndim, TRUE, error)
                : NULL;
}

/* @t converted to @dtype and packed, not recorded. */
static GnnTensor *
packed (GnnTensor  *t,
        GnnDType    dtype,
        GError    **error)
{
  if (gnn_tensor_priv (t)->dtype != dtype)
    return gnn_tensor_copy_checked (t, dtype, error);
  return gnn_tensor_contiguous_checked (t, error);
}

static gboolean
conv_backward (const GnnConvGeom *g,
               GnnDType           dtype,
               GnnTensor         *x,
               GnnTensor         *wt,
               GnnTensor         *go,
               GnnTensor         *gx,
               GnnTensor         *gw,
               GnnTensor         *gb,
               GError           **error)
{
  if (dtype == GNN_DTYPE_F32)
    return gnn_conv_backward_f32 (g, gnn_tensor_data_or_null (x), gnn_tensor_data_or_null (wt), gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx),
                                  gnn_tensor_data_or_null (gw), gnn_tensor_data_or_null (gb), error);
  return gnn_conv_backward_f64 (g, gnn_tensor_data_or_null (x), gnn_tensor_data_or_null (wt), gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx),
                                gnn_tensor_data_or_null (gw), gnn_tensor_data_or_null (gb), error);
}

/* The bias gradient of a transposed convolution: @go summed over every
 * dimension but the channels. */
static GnnTensor *
channel_sums (GnnTensor      *go,
              const GnnMeta  *in,
              guint           nsp,
              GError        **error)
{
  gint dims[GNN_MAX_DIMS];
  guint n = 0, lead = in->ndim - nsp - 1;

  for (guint d = 0; d < in->ndim; d++)
    if (d != lead)
      dims[n++] = (gint) d;
  return gnn_tensor_sum (go, dims, n, FALSE, error);
}

gboolean
gnn_backward_convolution (GnnNode    *node,
                          GnnTensor  *grad,
                          GnnTensor **grads,
                          GError    **error)
{
  const GnnMeta *im = &node->inputs[0], *wm = &node->inputs[1];
  const gint64 *q = node->params.ints;
  guint nsp = (guint) node->params.dim;
  gboolean transposed = node->params.flag;
  gboolean want_x = gnn_node_needs_grad (node, 0), want_w = gnn_node_needs_grad (node, 1);
  gboolean want_b = node->n_inputs > 2 && gnn_node_needs_grad (node, 2);
  GnnDType dtype = im->dtype;
  GnnConvGeom g;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) wt = NULL;
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;
  g_autoptr(GnnTensor) gw = NULL;
  g_autoptr(GnnTensor) gb = NULL;

  gnn_conv_geom_init (&g, nsp, transposed, im->shape, im->ndim, wm->shape, node->out.shape,
                      q, q + 3, q + 6, q[12]);
  if ((want_w && (x = packed (node->saved[0], dtype, error)) == NULL) ||
      (want_x && (wt = packed (node->saved[1], dtype, error)) == NULL) ||
      (go = packed (grad, dtype, error)) == NULL)
    return FALSE;
  if ((want_x && (gx = new_grad (TRUE, im, error)) == NULL) ||
      (want_w && (gw = new_grad (TRUE, wm, error)) == NULL))
    return FALSE;

  if (!transposed)
    {
      if (want_b && (gb = new_grad (TRUE, &node->inputs[2], error)) == NULL)
        return FALSE;
      if (!conv_backward (&g, dtype, x, wt, go, gx, gw, gb, error))
        return FALSE;
    }
  else
    {
      gboolean empty = gnn_tensor_get_numel (go) == 0;

      /* the input gradient: the plain convolution of the output gradient */
      if (gx != NULL && !empty &&
          !(dtype == GNN_DTYPE_F32
            ? gnn_conv_forward_f32 (&g, gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (wt), NULL, gnn_tensor_data_or_null (gx), error)
            : gnn_conv_forward_f64 (&g, gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (wt), NULL, gnn_tensor_data_or_null (gx), error)))
        return FALSE;
      /* the weight gradient: its backward-weight, input and output swapped */
      if (gw != NULL && !empty && !conv_backward (&g, dtype, go, NULL, x, NULL, gw, NULL, error))
        return FALSE;
      if (want_b && (gb = channel_sums (go, im, nsp, error)) == NULL)
        return FALSE;
    }
  grads[0] = g_steal_pointer (&gx);
  grads[1] = g_steal_pointer (&gw);
  if (want_b)
    grads[2] = g_steal_pointer (&gb);
  return TRUE;
}
