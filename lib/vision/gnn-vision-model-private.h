/* gnn-vision-model-private.h: what torchvision's classification networks
 * share (VGG, AlexNet, SqueezeNet, MobileNetV2, DenseNet): building
 * children and Sequentials with torchvision's names, running a path of
 * children, and torchvision's weight-initialization loops.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Registers @child as @name on @parent and drops the caller's reference;
 * FALSE when @child is NULL (its constructor failed and set @error). */
gboolean   gnn_vision_model_add       (GnnModule   *parent,
                                       const char  *name,
                                       gpointer     child,
                                       GError     **error);

/* Appends @child to the Sequential @seq under the next index ("0", "1"…),
 * dropping the caller's reference; FALSE when @child is NULL. */
gboolean   gnn_vision_model_append    (GnnModule   *seq,
                                       gpointer     child,
                                       GError     **error);

/* A Conv2d (square @kernel, @stride, @padding, @groups, bias) or NULL. */
GnnModule *gnn_vision_model_conv      (gint64       in,
                                       gint64       out,
                                       gint64       kernel,
                                       gint64       stride,
                                       gint64       padding,
                                       gint64       groups,
                                       gboolean     bias,
                                       GError     **error);

/* A BatchNorm2d with torch's defaults, or NULL. */
GnnModule *gnn_vision_model_bn        (gint64       features,
                                       GError     **error);

/* Calls the children of @self named in @path in order; the name "flatten"
 * is torch.flatten(x, 1), "F.relu" F.relu(x) and "F.avgpool1"
 * F.adaptive_avg_pool2d(x, (1, 1)) (none of them a child). @owner names the class in errors. */
GnnTensor *gnn_vision_model_run       (GnnModule          *self,
                                       const char         *owner,
                                       const char * const *path,
                                       guint               n_path,
                                       GnnTensor          *input,
                                       GError            **error);

/* How torchvision's init loops draw a convolution's weight. */
typedef enum
{
  GNN_VISION_CONV_INIT_DEFAULT,          /* keep Conv2d's own */
  GNN_VISION_CONV_INIT_KAIMING_NORMAL_FAN_OUT,
  GNN_VISION_CONV_INIT_KAIMING_NORMAL_FAN_IN,
  GNN_VISION_CONV_INIT_KAIMING_UNIFORM,
} GnnVisionConvInit;

/* torchvision's `for m in self.modules()` loop: convolutions drawn by
 * @conv_init with their biases 0, batch norms 1 and 0, linear layers'
 * weights normal(0, @linear_std) (kept when @linear_std is 0) and their
 * biases 0. Draws from the default generator. */
gboolean   gnn_vision_model_init      (GnnModule          *self,
                                       GnnVisionConvInit   conv_init,
                                       double              linear_std,
                                       GError            **error);

/* The positive-integer check of num_classes (torchvision's models fail
 * later with torch's error; one clear message here). */
gboolean   gnn_vision_model_check_classes (gint64       num_classes,
                                           GError     **error);

/* Records @error prefixed with "@owner: " as the construct error of @object
 * (the reflection contract, see gnn_nn_set_construct_error). */
void       gnn_vision_model_construct_failed (GObject     *object,
                                              const char  *owner,
                                              GError      *error);

/* torchvision's Conv2dNormActivation(in, out, kernel, stride, groups,
 * activation_layer=ReLU6) as a Sequential with its children "0", "1", "2"
 * (gnn-inverted-residual.c). */
GnnModule *gnn_vision_conv_bn_relu6   (gint64       in,
                                       gint64       out,
                                       gint64       kernel,
                                       gint64       stride,
                                       gint64       groups,
                                       GError     **error);

G_END_DECLS
