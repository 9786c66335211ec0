/* gnn-cosine-embedding-loss.c: the CosineEmbeddingLoss module (torch.nn.CosineEmbeddingLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnCosineEmbeddingLoss:
 *
 * The cosine embedding loss of two tensors of vectors and {1, -1} labels
 * (similar or not), computed from three tensors (input1, input2, target),
 * like `torch.nn.CosineEmbeddingLoss`: a module holding the settings of
 * [func@Gnn.cosine_embedding_loss]. It prints as `CosineEmbeddingLoss()`, as
 * PyTorch's losses do.
 *
 * A loss takes three tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.CosineEmbeddingLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "CosineEmbeddingLoss.forward() missing 2 required positional arguments:
 * 'input2' and 'target'".
 *
 * Since: 1.0
 */
struct _GnnCosineEmbeddingLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnCosineEmbeddingLoss, gnn_cosine_embedding_loss, GNN_TYPE_MODULE)

static GnnTensor *
cosine_embedding_loss_compute (GnnLossBase       *base,
                               GnnTensor *const  *in,
                               GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_cosine_embedding_loss (in[0], in[1], in[2], v[0], reduction, error);
}

static void
gnn_cosine_embedding_loss_class_init (GnnCosineEmbeddingLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input1", "input2", "target", NULL };

  /**
   * GnnCosineEmbeddingLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.CosineEmbeddingLoss.compute] fail ("foo is not a valid value
   * for reduction").
   *
   * Since: 1.0
   */
  gnn_loss_class_setup (object_class, "gnn_cosine_embedding_loss_compute",
                        cosine_embedding_loss_compute, inputs);

  /**
   * GnnCosineEmbeddingLoss:margin:
   *
   * The margin for dissimilar pairs.
   *
   * Since: 1.0
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "margin", -G_MAXDOUBLE, G_MAXDOUBLE,
                           0.0);
}

static void
gnn_cosine_embedding_loss_init (GnnCosineEmbeddingLoss *self)
{
}

/**
 * gnn_cosine_embedding_loss_new:
 * @margin: the value of [property@Gnn.CosineEmbeddingLoss:margin]
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.CosineEmbeddingLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_COSINE_EMBEDDING_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnCosineEmbeddingLoss
 *
 * Since: 1.0
 */
GnnCosineEmbeddingLoss *
gnn_cosine_embedding_loss_new (double      margin,
                               GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_COSINE_EMBEDDING_LOSS,
                       "margin", margin,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_cosine_embedding_loss_compute:
 * @self: a GnnCosineEmbeddingLoss
 * @input1: the input1
 * @input2: the input2
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input1, input2, target)`: calls
 * [func@Gnn.cosine_embedding_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 1.0
 */
GnnTensor *
gnn_cosine_embedding_loss_compute (GnnCosineEmbeddingLoss  *self,
                                   GnnTensor               *input1,
                                   GnnTensor               *input2,
                                   GnnTensor               *target,
                                   GError                 **error)
{
  g_return_val_if_fail (GNN_IS_COSINE_EMBEDDING_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input1, input2, target }, 3, error);
}
