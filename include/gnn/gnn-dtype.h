/* gnn-dtype.h: element types of tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib.h>
#include <gnn/gnn-version-macros.h>

G_BEGIN_DECLS

/**
 * GnnDType:
 * @GNN_DTYPE_F32: 32-bit IEEE float (torch.float32), the default
 * @GNN_DTYPE_F64: 64-bit IEEE float (torch.float64)
 * @GNN_DTYPE_F16: 16-bit IEEE half float (torch.float16), storage and conversion only
 * @GNN_DTYPE_BF16: bfloat16 (torch.bfloat16), storage and conversion only
 * @GNN_DTYPE_I64: signed 64-bit integer (torch.int64)
 * @GNN_DTYPE_I32: signed 32-bit integer (torch.int32)
 * @GNN_DTYPE_I16: signed 16-bit integer (torch.int16)
 * @GNN_DTYPE_I8: signed 8-bit integer (torch.int8)
 * @GNN_DTYPE_U8: unsigned 8-bit integer (torch.uint8)
 * @GNN_DTYPE_BOOL: boolean stored as one byte (torch.bool)
 *
 * The element type of a [class@Gnn.Tensor].
 *
 * Since: 0.1
 */
typedef enum {
  GNN_DTYPE_F32,
  GNN_DTYPE_F64,
  GNN_DTYPE_F16,
  GNN_DTYPE_BF16,
  GNN_DTYPE_I64,
  GNN_DTYPE_I32,
  GNN_DTYPE_I16,
  GNN_DTYPE_I8,
  GNN_DTYPE_U8,
  GNN_DTYPE_BOOL,
} GnnDType;

GNN_AVAILABLE_IN_ALL
gsize        gnn_dtype_get_size      (GnnDType dtype);
GNN_AVAILABLE_IN_ALL
const char  *gnn_dtype_get_name      (GnnDType dtype);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_dtype_is_floating   (GnnDType dtype);
GNN_AVAILABLE_IN_ALL
GnnDType     gnn_dtype_promote_types (GnnDType a,
                                      GnnDType b);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_dtype_can_cast      (GnnDType from,
                                      GnnDType to);

G_END_DECLS
