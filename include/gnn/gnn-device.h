/* gnn-device.h: where tensors live — memory, or nowhere (meta)
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
 * GnnDevice:
 * @GNN_DEVICE_CPU: tensors own (or borrow) memory; the default
 * @GNN_DEVICE_META: tensors have a shape and a dtype but no memory
 *   (PyTorch's `device="meta"`): creating them allocates nothing and draws
 *   no random numbers; reading their elements or computing with them is a
 *   %GNN_ERROR_NOT_SUPPORTED error "tensor has no storage (meta)"
 *
 * Where the tensors that the factory functions ([func@Gnn.Tensor.empty],
 * [func@Gnn.Tensor.zeros], [func@Gnn.Tensor.ones], [func@Gnn.Tensor.full])
 * and module constructors create live. See [func@Gnn.set_default_device].
 *
 * Since: 0.1
 */
typedef enum {
  GNN_DEVICE_CPU,
  GNN_DEVICE_META,
} GnnDevice;

GNN_AVAILABLE_IN_ALL
GnnDevice    gnn_get_default_device  (void);
GNN_AVAILABLE_IN_ALL
GnnDevice    gnn_set_default_device  (GnnDevice device);
GNN_AVAILABLE_IN_ALL
const char  *gnn_device_get_name     (GnnDevice device);

G_END_DECLS
