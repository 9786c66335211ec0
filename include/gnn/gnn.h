/* gnn.h: the one header to include
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define GNN_INSIDE

#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-version.h>
#include <gnn/gnn-enum-types.h>
#include <gnn/gnn-error.h>
#include <gnn/gnn-dtype.h>

/* tensor */
#include <gnn/gnn-generator.h>
#include <gnn/gnn-tensor.h>
#include <gnn/gnn-parameter.h>

/* module (keep one line per header) */

/* nn */

/* data */

/* io */

/* autograd */

#undef GNN_INSIDE
