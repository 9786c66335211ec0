/* gnn-activation-module-private.h: what the activation modules of lib/nn
 * with settings share (LeakyReLU, ELU, Hardtanh, Softplus, Threshold ...):
 * the settings as numbered construct properties kept in one array, and the
 * pieces of PyTorch's extra_repr
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

#define GNN_ACTIVATION_MAX_SETTINGS 6

/* The instance layout of such a module: its struct's first member. Setting
 * k (property id k + 1) is values[k]; booleans and integers are stored as
 * doubles. */
typedef struct
{
  GnnModule parent_instance;
  double    values[GNN_ACTIVATION_MAX_SETTINGS];
} GnnActivationBase;

#define GNN_ACTIVATION_BASE(obj) ((GnnActivationBase *) (obj))

/* Sets the class's get_property / set_property (which store every setting
 * in values[], by the type of its pspec), @forward and @extra_repr
 * (either may be NULL: PyTorch's module has no extra_repr). */
void  gnn_activation_class_setup       (GObjectClass  *object_class,
                                        GnnTensor  *(*forward) (GnnModule *, GnnTensor *, GError **),
                                        char       *(*extra_repr) (GnnModule *));

/* The result of an activation's forward: @input itself (a new reference)
 * after the in-place form succeeded (@ok), or NULL. */
GnnTensor *gnn_activation_inplace_result (gboolean   ok,
                                          GnnTensor *input);

/* ", inplace=True" (or "inplace=True" as the first item) when @inplace,
 * else "". */
const char *gnn_activation_inplace_repr  (gboolean   inplace,
                                          gboolean   first);

G_END_DECLS
