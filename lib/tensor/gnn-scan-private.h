/* gnn-scan-private.h: the scans of gnn-tensor-scan.c for the backward of
 * cumsum (a reversed cumsum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

typedef enum
{
  GNN_SCAN_SUM,
  GNN_SCAN_PROD,
} GnnScanOp;

/* The running sums / products of @self along @dim (from the end when
 * @reverse), not recorded; *@dim_out (optional) gets @dim wrapped. */
GnnTensor *gnn_scan (GnnScanOp op, GnnTensor *self, gint dim, gboolean reverse,
                     guint *dim_out, GError **error);

G_END_DECLS
