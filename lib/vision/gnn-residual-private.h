/* gnn-residual-private.h: what ResNet's blocks share (torchvision's
 * BasicBlock and Bottleneck): conv + batch-norm pairs built with
 * torchvision's settings, and the residual forward over named children.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Registers @conv_name (a bias-free kernel × kernel Conv2d padded by
 * kernel / 2) and @bn_name (its BatchNorm2d) on @parent. */
gboolean   gnn_residual_add_conv_bn (GnnModule   *parent,
                                     const char  *conv_name,
                                     const char  *bn_name,
                                     gint64       in,
                                     gint64       out,
                                     gint64       kernel,
                                     gint64       stride,
                                     GError     **error);

/* Registers `downsample`: a Sequential of a strided 1×1 conv and a batch
 * norm ("0", "1"). */
gboolean   gnn_residual_add_downsample (GnnModule   *parent,
                                        gint64       in,
                                        gint64       out,
                                        gint64       stride,
                                        GError     **error);

/* Calls the child @name of @self (@owner names the class in errors). */
GnnTensor *gnn_residual_call_child  (GnnModule   *self,
                                     const char  *owner,
                                     const char  *name,
                                     GnnTensor   *input,
                                     GError     **error);

/* relu(path(input) + (downsample(input) or input)), @path being the names
 * of the children the main branch calls in order. */
GnnTensor *gnn_residual_forward     (GnnModule          *self,
                                     const char         *owner,
                                     const char * const *path,
                                     guint               n_path,
                                     GnnTensor          *input,
                                     GError            **error);

G_END_DECLS
