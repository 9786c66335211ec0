/* gnn-safetensors-private.h: the safetensors format's constants
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* The reference implementation's limit on the JSON header. */
#define GNN_SAFETENSORS_MAX_HEADER 100000000

/* "F32", "BF16", … for a Gnn dtype. */
const char *gnn_safetensors_dtype_to_string (GnnDType dtype);

/* Parses a safetensors dtype string. Returns FALSE (and sets @known) for
 * strings that are valid safetensors dtypes Gnn cannot store (U16, U32, U64,
 * F8_*): *known is TRUE for those, FALSE for unknown strings. */
gboolean    gnn_safetensors_dtype_from_string (const char *str,
                                               GnnDType   *dtype,
                                               gboolean   *known);

G_END_DECLS
