/* gnn-pil-to-tensor.h: an image as a uint8 tensor (torchvision.transforms.PILToTensor)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-transform.h>
#include <gnn/gnn-vision-functional.h>

G_BEGIN_DECLS

#define GNN_TYPE_PIL_TO_TENSOR (gnn_pil_to_tensor_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPILToTensor, gnn_pil_to_tensor, GNN, PIL_TO_TENSOR, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnPILToTensor *gnn_pil_to_tensor_new (void);

G_END_DECLS
