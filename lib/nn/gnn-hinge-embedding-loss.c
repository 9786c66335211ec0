/* gnn-hinge-embedding-loss.c: the HingeEmbeddingLoss module (torch.nn.HingeEmbeddingLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnHingeEmbeddingLoss:
 *
 * The hinge embedding loss of distances and {1, -1} labels, like
 * `torch.nn.HingeEmbeddingLoss`: a module holding the settings of
 * [func@Gnn.hinge_embedding_loss]. It prints as `HingeEmbeddingLoss()`, as
 * PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.HingeEmbeddingLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "HingeEmbeddingLoss.forward() missing 1 required positional argument:
 * 'target'".
 *
 * Since: 1.0
 */
struct _GnnHingeEmbeddingLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnHingeEmbeddingLoss, gnn_hinge_embedding_loss, GNN_TYPE_MODULE)

static GnnTensor *
hinge_embedding_loss_compute (GnnLossBase       *base,
                              GnnTensor *const  *in,
                              GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_hinge_embedding_loss (in[0], in[1], v[0], reduction, error);
}

static void
gnn_hinge_embedding_loss_class_init (GnnHingeEmbeddingLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnHingeEmbeddingLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.HingeEmbeddingLoss.compute] fail ("foo is not a valid value
   * for reduction").
   *
   * Since: 1.0
   */
  gnn_loss_class_setup (object_class, "gnn_hinge_embedding_loss_compute",
                        hinge_embedding_loss_compute, inputs);

  /**
   * GnnHingeEmbeddingLoss:margin:
   *
   * The margin for the -1 labels.
   *
   * Since: 1.0
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "margin", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1.0);
}

static void
gnn_hinge_embedding_loss_init (GnnHingeEmbeddingLoss *self)
{
}

/**
 * gnn_hinge_embedding_loss_new:
 * @margin: the value of [property@Gnn.HingeEmbeddingLoss:margin]
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.HingeEmbeddingLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_HINGE_EMBEDDING_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnHingeEmbeddingLoss
 *
 * Since: 1.0
 */
GnnHingeEmbeddingLoss *
gnn_hinge_embedding_loss_new (double      margin,
                              GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_HINGE_EMBEDDING_LOSS,
                       "margin", margin,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_hinge_embedding_loss_compute:
 * @self: a GnnHingeEmbeddingLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.hinge_embedding_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 1.0
 */
GnnTensor *
gnn_hinge_embedding_loss_compute (GnnHingeEmbeddingLoss  *self,
                                  GnnTensor              *input,
                                  GnnTensor              *target,
                                  GError                **error)
{
  g_return_val_if_fail (GNN_IS_HINGE_EMBEDDING_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
