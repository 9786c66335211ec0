/* gnn-dtype-check-private.h: PyTorch's dtype errors, shared by the tensor
 * kernels that only take floating-point inputs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* PyTorch's scalar type name ("Float", "Long", …) for its error messages. */
const char *gnn_torch_scalar_name (GnnDType    dtype);

/* TRUE for float32 / float64 @t, else "\"<op>\" not implemented for 'Long'"
 * (GNN_ERROR_DTYPE). */
gboolean    gnn_check_float_dtype (const char  *op,
                                   GnnTensor   *t,
                                   GError     **error);

/* TRUE unless @t is bool, else "\"<op>\" not implemented for 'Bool'"
 * (GNN_ERROR_DTYPE): the ordering ops torch has no bool kernel for. */
gboolean    gnn_check_not_bool    (const char  *op,
                                   GnnTensor   *t,
                                   GError     **error);

/* FALSE with GNN_ERROR_ZERO_DIVISION "ZeroDivisionError" when an integer
 * @divisor holds a zero (as torch raises); always TRUE for floating dtypes. */
gboolean    gnn_check_int_divisor (GnnTensor   *divisor,
                                   GError     **error);

/* torch's checked conversion of a scalar written into elements of @dtype
 * (fill_, x[i] = v): FALSE with GNN_ERROR_INVALID_ARGUMENT "value cannot be
 * converted to type int64_t without overflow" for NaN, ±inf or a value out
 * of an integer dtype's range, a finite value beyond a float dtype's (bool
 * takes anything). The _int variant is torch's rule for a Python int: an
 * unsigned dtype takes a negative value that wraps once (-1 -> 255). */
gboolean    gnn_check_scalar_fits (GnnDType     dtype,
                                   double       value,
                                   GError     **error);
gboolean    gnn_check_int_fits    (GnnDType     dtype,
                                   gint64       value,
                                   GError     **error);

G_END_DECLS
