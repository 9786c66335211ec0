/* gnn-inspect.h: the parts of gnn-inspect
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

/* "[2, 3]" */
char     *inspect_shape_string (GnnTensor *t);

/* 1234567 → "1,234,567" */
char     *inspect_grouped (guint64 n);

/* The architecture (torch's repr) and the parameter counts of a model. */
void      inspect_print_model (GnnModule *model, GnnOptimizer *optimizer);

/* One forward pass on random input of @shape: prints the output's shape and
 * the time it took; with @summary, a torchinfo-style table of every layer's
 * output shape and parameters. */
gboolean  inspect_run (GnnModule     *model,
                       const gint64  *shape,
                       guint          ndim,
                       GnnDType       dtype,
                       gboolean       summary,
                       GError       **error);
