/* gnn-to-tensor.c: an image as a float tensor in [0, 1]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"

/**
 * GnnToTensor:
 *
 * torchvision's `transforms.ToTensor()`: an image ([class@Gnn.Image])
 * becomes a float32 tensor `[C, H, W]` with values in [0, 1]
 * ([func@Gnn.vision_to_tensor]). A tensor is refused, as torchvision
 * refuses one ("pic should be PIL Image or ndarray").
 *
 * Since: 0.1
 */
struct _GnnToTensor
{
  GnnTransform parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnToTensor, gnn_to_tensor, GNN_TYPE_TRANSFORM)

static GnnTensor *
gnn_to_tensor_apply (GnnTransform  *transform,
                     GnnTensor     *input,
                     GError       **error)
{
  return gnn_vision_to_tensor (input, error);
}

static void
gnn_to_tensor_class_init (GnnToTensorClass *klass)
{
  GNN_TRANSFORM_CLASS (klass)->apply = gnn_to_tensor_apply;
}

static void
gnn_to_tensor_init (GnnToTensor *self)
{
}

/**
 * gnn_to_tensor_new:
 *
 * Creates the transform, like `transforms.ToTensor()`.
 *
 * Returns: (transfer full): the transform
 *
 * Since: 0.1
 */
GnnToTensor *
gnn_to_tensor_new (void)
{
  return g_object_new (GNN_TYPE_TO_TENSOR, NULL);
}
