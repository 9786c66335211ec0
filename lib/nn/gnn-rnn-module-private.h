/* gnn-rnn-module-private.h: what the recurrent modules (gnn-rnn-base.c,
 * gnn-rnn.c, gnn-rnn-forward.c, gnn-rnn-cell.c) share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

#include "tensor/gnn-rnn-private.h"

G_BEGIN_DECLS

/* The configuration of a GnnRNNBase (its private struct). */
typedef struct
{
  gint64        input_size;
  gint64        hidden_size;
  gint64        num_layers;
  gint64        proj_size;
  gboolean      bias;
  gboolean      batch_first;
  gboolean      bidirectional;
  double        dropout;
  GnnDType      dtype;
  GnnGenerator *generator;        /* construction only */
  GnnRnnMode    mode;
  char         *bad_nonlinearity; /* RNN: a nonlinearity neither tanh nor relu */
  GStrv         names;            /* GNN_RNN_N_WEIGHTS per layer and direction, "" where absent */
} GnnRNNBasePrivate;

GnnRNNBasePrivate *gnn_rnn_base_priv (GnnRNNBase *self);

/* Set by the subclasses: LSTM and GRU in their instance init, RNN when
 * its nonlinearity is set (@bad_nonlinearity: the unknown name, which
 * construction refuses with torch's message). */
void      gnn_rnn_base_set_mode   (GnnRNNBase  *self,
                                   GnnRnnMode   mode,
                                   const char  *bad_nonlinearity);

/* GnnRNNBase's forward_args (gnn-rnn-forward.c). */
GnnValue *gnn_rnn_base_forward    (GnnModule   *module,
                                   GnnValue    *args,
                                   GnnValue    *kwargs,
                                   GError     **error);

/* torch's reset_parameters of the recurrent modules: every parameter, in
 * registration order, U(-1/√hidden, 1/√hidden) (0 when hidden is 0), from
 * @generator or the default generator. Meta parameters get memory first. */
gboolean  gnn_rnn_init_uniform    (GnnModule    *module,
                                   gint64        hidden_size,
                                   GnnGenerator *generator,
                                   GError      **error);

/* The error torch's matrix product gives an operand of another dtype than
 * the weights: "mat1 and mat2 must have the same dtype". */
gboolean  gnn_rnn_check_dtype     (GnnTensor    *operand,
                                   GnnTensor    *weight,
                                   GError      **error);

/* t.size(dim) with torch's error for a dim out of range. */
gboolean  gnn_rnn_size            (GnnTensor    *t,
                                   gint          dim,
                                   gint64       *size,
                                   GError      **error);

G_END_DECLS
