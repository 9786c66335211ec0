/* gnn-pil-to-tensor.c: an image as a uint8 tensor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"

/**
 * GnnPILToTensor:
 *
 * torchvision's `transforms.PILToTensor()`: an image ([class@Gnn.Image])
 * becomes a uint8 tensor `[C, H, W]` with the same values
 * ([func@Gnn.vision_pil_to_tensor]). A tensor is refused, as torchvision
 * refuses one ("pic should be PIL Image").
 *
 * Since: 0.1
 */
struct _GnnPILToTensor
{
  GnnTransform parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnPILToTensor, gnn_pil_to_tensor, GNN_TYPE_TRANSFORM)

static GnnTensor *
gnn_pil_to_tensor_apply (GnnTransform  *transform,
                     GnnTensor     *input,
                     GError       **error)
{
  return gnn_vision_pil_to_tensor (input, error);
}

static void
gnn_pil_to_tensor_class_init (GnnPILToTensorClass *klass)
{
  GNN_TRANSFORM_CLASS (klass)->apply = gnn_pil_to_tensor_apply;
}

static void
gnn_pil_to_tensor_init (GnnPILToTensor *self)
{
}

/**
 * gnn_pil_to_tensor_new:
 *
 * Creates the transform, like `transforms.PILToTensor()`.
 *
 * Returns: (transfer full): the transform
 *
 * Since: 0.1
 */
GnnPILToTensor *
gnn_pil_to_tensor_new (void)
{
  return g_object_new (GNN_TYPE_PIL_TO_TENSOR, NULL);
}
