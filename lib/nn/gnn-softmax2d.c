/* gnn-softmax2d.c: the softmax over channels (torch.nn.Softmax2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/**
 * GnnSoftmax2d:
 *
 * Like `torch.nn.Softmax2d()`: the softmax over the channels at every
 * spatial location, that is along dimension -3 of a `[N, C, H, W]` or
 * `[C, H, W]` input; other inputs fail with PyTorch's message ("Softmax2d
 * requires a 3D or 4D tensor as input").
 *
 * Since: 0.1
 */
struct _GnnSoftmax2d
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnSoftmax2d, gnn_softmax2d, GNN_TYPE_MODULE)

static GnnTensor *
gnn_softmax2d_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  guint ndim = gnn_tensor_get_ndim (input);

  if (ndim != 3 && ndim != 4)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Softmax2d requires a 3D or 4D tensor as input");
      return NULL;
    }
  return gnn_tensor_softmax (input, -3, error);
}

static void
gnn_softmax2d_class_init (GnnSoftmax2dClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_softmax2d_forward;
}

static void
gnn_softmax2d_init (GnnSoftmax2d *self)
{
}

/**
 * gnn_softmax2d_new:
 *
 * Creates the layer, like `torch.nn.Softmax2d()`; `g_object_new
 * (GNN_TYPE_SOFTMAX2D, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnSoftmax2d
 *
 * Since: 0.1
 */
GnnSoftmax2d *
gnn_softmax2d_new (void)
{
  return g_object_new (GNN_TYPE_SOFTMAX2D,
                       NULL);
}
