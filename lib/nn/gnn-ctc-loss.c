/* gnn-ctc-loss.c: the CTCLoss module (torch.nn.CTCLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnCTCLoss:
 *
 * The connectionist temporal classification loss of log-probabilities `[T, N,
 * C]` and targets, computed from four tensors (log_probs, targets,
 * input_lengths, target_lengths), like `torch.nn.CTCLoss`: a module holding
 * the settings of [func@Gnn.ctc_loss]. It prints as `CTCLoss()`, as PyTorch's
 * losses do.
 *
 * A loss takes four tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.CTCLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "CTCLoss.forward() missing 3 required positional arguments: 'targets',
 * 'input_lengths', and 'target_lengths'".
 *
 * Since: 0.1
 */
struct _GnnCTCLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnCTCLoss, gnn_ctc_loss, GNN_TYPE_MODULE)

static GnnTensor *
ctc_loss_compute (GnnLossBase       *base,
                  GnnTensor *const  *in,
                  GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_ctc_loss (in[0], in[1], in[2], in[3], (gint64) v[0], reduction, v[1] != 0, error);
}

static void
gnn_ctc_loss_class_init (GnnCTCLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "log_probs", "targets", "input_lengths", "target_lengths", NULL };

  /**
   * GnnCTCLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes [method@Gnn.CTCLoss.compute] fail
   * ("foo is not a valid value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_ctc_loss_compute", ctc_loss_compute, inputs);

  /**
   * GnnCTCLoss:blank:
   *
   * The blank label.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, GNN_LOSS_N_PROPS, "blank", 0, G_MAXINT, 0);
  /**
   * GnnCTCLoss:zero-infinity:
   *
   * Whether infinite losses and their gradients become 0.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, GNN_LOSS_N_PROPS + 1, "zero-infinity", FALSE);
}

static void
gnn_ctc_loss_init (GnnCTCLoss *self)
{
}

/**
 * gnn_ctc_loss_new:
 * @blank: the value of [property@Gnn.CTCLoss:blank]
 * @reduction: the reduction
 * @zero_infinity: the value of [property@Gnn.CTCLoss:zero-infinity]
 *
 * Creates the loss, like `torch.nn.CTCLoss(...)` with the same arguments;
 * `g_object_new (GNN_TYPE_CTC_LOSS, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnCTCLoss
 *
 * Since: 0.1
 */
GnnCTCLoss *
gnn_ctc_loss_new (gint        blank,
                  GnnReduction reduction,
                  gboolean    zero_infinity)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_CTC_LOSS,
                       "blank", blank,
                       "reduction", gnn_loss_reduction_name (reduction),
                       "zero-infinity", zero_infinity,
                       NULL);
}

/**
 * gnn_ctc_loss_compute:
 * @self: a GnnCTCLoss
 * @log_probs: the log probs
 * @targets: the targets
 * @input_lengths: the input lengths
 * @target_lengths: the target lengths
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(log_probs, targets, input_lengths,
 * target_lengths)`: calls [func@Gnn.ctc_loss] with the module's settings. The
 * result is differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_ctc_loss_compute (GnnCTCLoss  *self,
                      GnnTensor   *log_probs,
                      GnnTensor   *targets,
                      GnnTensor   *input_lengths,
                      GnnTensor   *target_lengths,
                      GError     **error)
{
  g_return_val_if_fail (GNN_IS_CTC_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { log_probs, targets, input_lengths,
                           target_lengths }, 4, error);
}
