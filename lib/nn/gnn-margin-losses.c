/* gnn-margin-losses.c: the margin losses as modules
 * (torch.nn.HingeEmbeddingLoss, torch.nn.MarginRankingLoss,
 * torch.nn.CosineEmbeddingLoss, torch.nn.SoftMarginLoss): one
 * implementation, the function a switch on the type
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
 * Since: 0.1
 */
/**
 * GnnMarginRankingLoss:
 *
 * The ranking loss of two score tensors and {1, -1} labels telling which
 * should rank higher, computed from three tensors (input1, input2, target),
 * like `torch.nn.MarginRankingLoss`: a module holding the settings of
 * [func@Gnn.margin_ranking_loss]. It prints as `MarginRankingLoss()`, as
 * PyTorch's losses do.
 *
 * A loss takes three tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.MarginRankingLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "MarginRankingLoss.forward() missing 2 required positional arguments:
 * 'input2' and 'target'".
 *
 * Since: 0.1
 */
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
 * Since: 0.1
 */
/**
 * GnnSoftMarginLoss:
 *
 * The two-class logistic loss of scores and {1, -1} labels, like
 * `torch.nn.SoftMarginLoss`: a module holding the settings of
 * [func@Gnn.soft_margin_loss]. It prints as `SoftMarginLoss()`, as
 * PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.SoftMarginLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "SoftMarginLoss.forward() missing 1 required positional argument:
 * 'target'".
 *
 * Since: 0.1
 */
struct _GnnHingeEmbeddingLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnHingeEmbeddingLoss, gnn_hinge_embedding_loss, GNN_TYPE_MODULE)

struct _GnnMarginRankingLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnMarginRankingLoss, gnn_margin_ranking_loss, GNN_TYPE_MODULE)

struct _GnnCosineEmbeddingLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnCosineEmbeddingLoss, gnn_cosine_embedding_loss, GNN_TYPE_MODULE)

struct _GnnSoftMarginLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnSoftMarginLoss, gnn_soft_margin_loss, GNN_TYPE_MODULE)

/* The loss of whichever family member @base is. */
static GnnTensor *
family_compute (GnnLossBase       *base,
                GnnTensor *const  *in,
                GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  if (GNN_IS_HINGE_EMBEDDING_LOSS (base))
    return gnn_hinge_embedding_loss (in[0], in[1], v[0], reduction, error);
  if (GNN_IS_SOFT_MARGIN_LOSS (base))
    return gnn_soft_margin_loss (in[0], in[1], reduction, error);
  if (GNN_IS_MARGIN_RANKING_LOSS (base))
    return gnn_margin_ranking_loss (in[0], in[1], in[2], v[0], reduction, error);
  return gnn_cosine_embedding_loss (in[0], in[1], in[2], v[0], reduction, error);
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
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_hinge_embedding_loss_compute",
                        family_compute, inputs);

  /**
   * GnnHingeEmbeddingLoss:margin:
   *
   * The margin for the -1 labels.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "margin", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1.0);
}

static void
gnn_margin_ranking_loss_class_init (GnnMarginRankingLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input1", "input2", "target", NULL };

  /**
   * GnnMarginRankingLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.MarginRankingLoss.compute] fail ("foo is not a valid value
   * for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_margin_ranking_loss_compute",
                        family_compute, inputs);

  /**
   * GnnMarginRankingLoss:margin:
   *
   * The margin.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "margin", -G_MAXDOUBLE, G_MAXDOUBLE,
                           0.0);
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
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_cosine_embedding_loss_compute",
                        family_compute, inputs);

  /**
   * GnnCosineEmbeddingLoss:margin:
   *
   * The margin for dissimilar pairs.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "margin", -G_MAXDOUBLE, G_MAXDOUBLE,
                           0.0);
}

static void
gnn_soft_margin_loss_class_init (GnnSoftMarginLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnSoftMarginLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.SoftMarginLoss.compute] fail ("foo is not a valid value for
   * reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_soft_margin_loss_compute", family_compute, inputs);
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
 * Since: 0.1
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
 * Since: 0.1
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

static void
gnn_margin_ranking_loss_init (GnnMarginRankingLoss *self)
{
}

/**
 * gnn_margin_ranking_loss_new:
 * @margin: the value of [property@Gnn.MarginRankingLoss:margin]
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.MarginRankingLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_MARGIN_RANKING_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnMarginRankingLoss
 *
 * Since: 0.1
 */
GnnMarginRankingLoss *
gnn_margin_ranking_loss_new (double      margin,
                             GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_MARGIN_RANKING_LOSS,
                       "margin", margin,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_margin_ranking_loss_compute:
 * @self: a GnnMarginRankingLoss
 * @input1: the input1
 * @input2: the input2
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input1, input2, target)`: calls
 * [func@Gnn.margin_ranking_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_margin_ranking_loss_compute (GnnMarginRankingLoss  *self,
                                 GnnTensor             *input1,
                                 GnnTensor             *input2,
                                 GnnTensor             *target,
                                 GError               **error)
{
  g_return_val_if_fail (GNN_IS_MARGIN_RANKING_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input1, input2, target }, 3, error);
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
 * Since: 0.1
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
 * Since: 0.1
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

static void
gnn_soft_margin_loss_init (GnnSoftMarginLoss *self)
{
}

/**
 * gnn_soft_margin_loss_new:
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.SoftMarginLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_SOFT_MARGIN_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnSoftMarginLoss
 *
 * Since: 0.1
 */
GnnSoftMarginLoss *
gnn_soft_margin_loss_new (GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_SOFT_MARGIN_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_soft_margin_loss_compute:
 * @self: a GnnSoftMarginLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.soft_margin_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_soft_margin_loss_compute (GnnSoftMarginLoss  *self,
                              GnnTensor          *input,
                              GnnTensor          *target,
                              GError            **error)
{
  g_return_val_if_fail (GNN_IS_SOFT_MARGIN_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
