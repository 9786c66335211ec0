/* gnn-functional-private.h: the argument checks and the reduction the
 * functional losses of lib/nn share (gnn-functional*.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* FALSE + PyTorch's "<r> is not a valid value for reduction" for a value
 * outside GnnReduction, or batchmean where the loss has none. */
gboolean   gnn_functional_check_reduction (GnnReduction   reduction,
                                           gboolean       batchmean_ok,
                                           GError       **error);

/* @loss reduced: itself for none, its sum or its mean. */
GnnTensor *gnn_functional_reduce          (GnnTensor     *loss,
                                           GnnReduction   reduction,
                                           GError       **error);

/* The checks every functional loss starts with: @input and @target (and
 * @weight, nullable) are tensors with memory ("<op>: tensor has no storage
 * (meta)") and @reduction is one it takes. */
gboolean   gnn_functional_check_args      (const char    *op,
                                           GnnTensor     *input,
                                           GnnTensor     *target,
                                           GnnTensor     *weight,
                                           GnnReduction   reduction,
                                           gboolean       batchmean_ok,
                                           GError       **error);

/* FALSE + @format (two %s: the target's and the input's torch.Size) when
 * the shapes of @input and @target differ. */
gboolean   gnn_functional_check_same_size (GnnTensor     *input,
                                           GnnTensor     *target,
                                           const char    *format,
                                           GError       **error);

/* @a and @b in their common floating dtype, as PyTorch promotes them
 * (float64 when either is; an integer operand takes the other's), through
 * recorded conversions: new references in @a_out and @b_out. Neither
 * floating: "\"<kernel>\" not implemented for 'Long'". */
gboolean   gnn_functional_promote         (const char    *kernel,
                                           GnnTensor     *a,
                                           GnnTensor     *b,
                                           GnnTensor    **a_out,
                                           GnnTensor    **b_out,
                                           GError       **error);

/* PyTorch's torch.Size repr: "torch.Size([3, 4])". */
char      *gnn_functional_torch_size      (GnnTensor     *t);

/* @t (nullable) as @dtype, not recorded (weights are not differentiated);
 * NULL stays NULL. FALSE + error only when the copy cannot be allocated. */
gboolean   gnn_functional_weight_as       (GnnTensor     *t,
                                           GnnDType       dtype,
                                           GnnTensor    **out,
                                           GError       **error);

G_END_DECLS
