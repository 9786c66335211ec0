/* gnn-rnn.h: multi-layer recurrent networks (torch.nn.RNN, LSTM, GRU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-generator.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_RNN_BASE (gnn_rnn_base_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnRNNBase, gnn_rnn_base, GNN, RNN_BASE, GnnModule)

/**
 * GnnRNNBaseClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.RNNBase].
 *
 * Since: 0.1
 */
struct _GnnRNNBaseClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

#define GNN_TYPE_RNN (gnn_rnn_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnRNN, gnn_rnn, GNN, RNN, GnnRNNBase)

/**
 * GnnRNNClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.RNN], derivable as `torch.nn.RNN` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnRNNClass
{
  GnnRNNBaseClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

#define GNN_TYPE_LSTM (gnn_lstm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnLSTM, gnn_lstm, GNN, LSTM, GnnRNNBase)

/**
 * GnnLSTMClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.LSTM], derivable as `torch.nn.LSTM` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnLSTMClass
{
  GnnRNNBaseClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

#define GNN_TYPE_GRU (gnn_gru_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnGRU, gnn_gru, GNN, GRU, GnnRNNBase)

/**
 * GnnGRUClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.GRU], derivable as `torch.nn.GRU` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnGRUClass
{
  GnnRNNBaseClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
gint64      gnn_rnn_base_get_input_size       (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
gint64      gnn_rnn_base_get_hidden_size      (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
gint64      gnn_rnn_base_get_num_layers       (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
gint64      gnn_rnn_base_get_proj_size        (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_rnn_base_get_bidirectional    (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_rnn_base_get_batch_first      (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
double      gnn_rnn_base_get_dropout          (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
const char *gnn_rnn_base_get_mode             (GnnRNNBase    *self);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_rnn_base_reset_parameters     (GnnRNNBase    *self,
                                               GnnGenerator  *generator,
                                               GError       **error);

GNN_AVAILABLE_IN_ALL
GnnRNN     *gnn_rnn_new                       (gint64         input_size,
                                               gint64         hidden_size,
                                               gint64         num_layers,
                                               const char    *nonlinearity,
                                               GnnGenerator  *generator,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnLSTM    *gnn_lstm_new                      (gint64         input_size,
                                               gint64         hidden_size,
                                               gint64         num_layers,
                                               GnnGenerator  *generator,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnGRU     *gnn_gru_new                       (gint64         input_size,
                                               gint64         hidden_size,
                                               gint64         num_layers,
                                               GnnGenerator  *generator,
                                               GError       **error);

G_END_DECLS
