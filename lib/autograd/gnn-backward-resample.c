/* gnn-backward-resample.c: gradients of padding, interpolation and
 * adaptive pooling
 *
 * They run the forward's loops in reverse (lib/tensor/gnn-gather-tables.c,
 * gnn-resample-kernels.c, gnn-tensor-adaptive-pool.c): each output
 * gradient goes back, weighted, to the input positions its output read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-adaptive-pool-private.h"
#include "tensor/gnn-fold-private.h"
#include "tensor/gnn-gather-tables-private.h"
#include "tensor/gnn-resample-private.h"
#include "tensor/gnn-shuffle-private.h"
#include "tensor/gnn-unpool-private.h"

/* The packed output gradient in input 0's dtype, and a new tensor for the
 * input gradient, which the caller's loop writes whole. */
static gboolean
prepare (GnnNode    *node,
         GnnTensor  *grad,
         GnnTensor **go,
         GnnTensor **gx,
         GError    **error)
{
  const GnnMeta *im = &node->inputs[0];

  *go = gnn_tensor_priv (grad)->dtype == im->dtype ? gnn_tensor_contiguous_checked (grad, error)
                                                   : gnn_tensor_copy_checked (grad, im->dtype, error);
  if (*go == NULL)
    return FALSE;
  *gx = gnn_tensor_new_contiguous_checked (im->dtype, im->shape, im->ndim, FALSE, error);
  return *gx != NULL;
}

/* The input gradient of a gather through @t, in the dtype of input 0. */
static gboolean
gather_backward (GnnNode                *node,
                 const GnnGatherTables  *t,
                 GnnTensor              *grad,
                 GnnTensor             **grads,
                 GError                **error)
{
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;

  if (!prepare (node, grad, &go, &gx, error))
    return FALSE;
  if (node->inputs[0].dtype == GNN_DTYPE_F32)
    gnn_gather_tables_backward_f32 (t, gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx));
  else
    gnn_gather_tables_backward_f64 (t, gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx));
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
  if (gnn_tensor_get_numel (grad) == 0)
    {
      /* nothing was read: a zero gradient */
      grads[0] = gnn_ag_zeros (im);
      return TRUE;
    }
  if ((tables = gnn_pad_tables ((GnnPaddingMode) node->params.dim, &t, node->params.ints)) == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY, "pad backward: out of memory for the index tables");
      return FALSE;
    }
  return gather_backward (node, &t, grad, grads, error);
}

const char *
gnn_backward_resample_name (GnnOpKind          op,
                            const GnnOpParams *params)
{
  static const char *const adaptive[2][3] = {
    { "SqueezeBackward1", "AdaptiveAvgPool2DBackward0", "AdaptiveAvgPool3DBackward0" },
    { "SqueezeBackward1", "AdaptiveMaxPool2DBackward0", "AdaptiveMaxPool3DBackward0" },
  };
  static const char *const nearest[2][3] = {
    { "UpsampleNearest1DBackward1", "UpsampleNearest2DBackward1", "UpsampleNearest3DBackward1" },
    { "UpsampleNearestExact1DBackward1", "UpsampleNearestExact2DBackward1", "UpsampleNearestExact3DBackward1" },
  };
  guint k = CLAMP (params->dim, 1, 3) - 1;

  if (op == GNN_OP_ADAPTIVE_AVG_POOL && params->flag)
    return "MeanBackward1";
  if (op != GNN_OP_INTERPOLATE)
    return adaptive[op == GNN_OP_ADAPTIVE_MAX_POOL][k];
  switch ((GnnInterpolateMode) params->ints[0])
    {
    case GNN_INTERPOLATE_MODE_LINEAR: return "UpsampleLinear1DBackward1";
    case GNN_INTERPOLATE_MODE_BILINEAR: return "UpsampleBilinear2DBackward1";
    case GNN_INTERPOLATE_MODE_BICUBIC: return "UpsampleBicubic2DBackward1";
    case GNN_INTERPOLATE_MODE_TRILINEAR: return "UpsampleTrilinear3DBackward1";
    case GNN_INTERPOLATE_MODE_NEAREST_EXACT: return nearest[1][k];
    default: return nearest[0][k];
    }
}

gboolean
gnn_backward_interpolate (GnnNode    *node,
                          GnnTensor  *grad,
                          GnnTensor **grads,
                          GError    **error)
{
  const GnnMeta *im = &node->inputs[0];
  const GnnOpParams *q = &node->params;
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;
  double scales[3];
  GnnResample r;

  if (gnn_tensor_get_numel (grad) == 0)
    {
      grads[0] = gnn_ag_zeros (im);
      return TRUE;
    }
  if (!prepare (node, grad, &go, &gx, error))
    return FALSE;
  memcpy (scales, q->ints + 2, sizeof scales);
  gnn_resample_init (&r, (GnnInterpolateMode) q->ints[0], q->ints[1] != 0, im->shape, node->out.shape,
                     im->ndim, (guint) q->dim, scales);
  if (im->dtype == GNN_DTYPE_F32)
    gnn_resample_back_f32 (&r, gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx));
  else
    gnn_resample_back_f64 (&r, gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx));
  gnn_resample_clear (&r);
  grads[0] = g_steal_pointer (&gx);
  return TRUE;
}

static gboolean
adaptive_backward (GnnNode     *node,
                   GnnTensor   *grad,
                   GnnTensor  **grads,
                   gboolean     max,
                   GError     **error)
{
  const GnnMeta *im = &node->inputs[0];
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;
  g_autoptr(GnnTensor) idx = NULL;
  GnnAdaptiveGeom g;

  if (!prepare (node, grad, &go, &gx, error))
    return FALSE;
  gnn_adaptive_geom_init (&g, im->shape, node->out.shape, im->ndim, (guint) node->params.dim);
  if (!max)
    gnn_adaptive_avg_pool_backward (&g, im->dtype, gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx));
  else
    {
      if ((idx = gnn_tensor_contiguous_checked (node->params.extra[0], error)) == NULL)
        return FALSE;
      gnn_adaptive_max_pool_backward (&g, im->dtype, gnn_tensor_data_or_null (idx),
                                      gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx));
    }
  grads[0] = g_steal_pointer (&gx);
  return TRUE;
}

gboolean
gnn_backward_adaptive_avg_pool (GnnNode    *node,
                                GnnTensor  *grad,
                                GnnTensor **grads,
                                GError    **error)
{
  return adaptive_backward (node, grad, grads, FALSE, error);
}

gboolean
gnn_backward_adaptive_max_pool (GnnNode    *node,
                                GnnTensor  *grad,
                                GnnTensor **grads,
                                GError    **error)
{
  return adaptive_backward (node, grad, grads, TRUE, error);
}

/* im2col's gradient is col2im of the output gradient, and the other way
 * round; the image is input 0 of im2col and the output of col2im. */
gboolean
gnn_backward_fold (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  gboolean to_columns = node->params.flag;
  const GnnMeta *image = to_columns ? &node->inputs[0] : &node->out;
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;
  GnnConvGeom g;

  if (!prepare (node, grad, &go, &gx, error))
    return FALSE;
  gnn_fold_geom_init (&g, image->shape[image->ndim - 3], image->shape[image->ndim - 2],
                      image->shape[image->ndim - 1], node->params.ints);
  gnn_fold_run (&g, image->ndim == 4 ? image->shape[0] : 1, node->inputs[0].dtype, !to_columns,
                gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx));
  grads[0] = g_steal_pointer (&gx);
  return TRUE;
}

gboolean
gnn_backward_pixel_shuffle (GnnNode    *node,
                            GnnTensor  *grad,
                            GnnTensor **grads,
                            GError    **error)
{
  grads[0] = gnn_pixel_shuffle_copy (grad, node->params.ints[0], !node->params.flag, error);
  return grads[0] != NULL;
}

/* max_unpool's gradient gathers the output gradient at the indices (torch's
 * max_pool_double_backward). */
gboolean
gnn_backward_max_unpool (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  const GnnMeta *im = &node->inputs[0];
  guint n = (guint) node->params.dim;
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;
  g_autoptr(GnnTensor) ic = gnn_tensor_contiguous_checked (node->params.extra[0], error);
  gint64 planes = 1, n_small = 1, n_large = 1;

  if (ic == NULL || !prepare (node, grad, &go, &gx, error))
    return FALSE;
  for (guint d = 0; d < im->ndim; d++)
    {
      if (d < im->ndim - n)
        planes *= im->shape[d];
      else
        n_small *= im->shape[d], n_large *= node->out.shape[d];
    }
  gnn_unpool_move (FALSE, planes, n_small, n_large, gnn_tensor_data_or_null (ic),
                   gnn_tensor_data_or_null (go), gnn_tensor_data_or_null (gx), gnn_dtype_get_size (im->dtype));
  grads[0] = g_steal_pointer (&gx);
  return TRUE;
}
