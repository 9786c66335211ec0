/* gnn-rnn-cell.h: one step of a recurrent network (torch.nn.RNNCell,
 * LSTMCell, GRUCell)
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

#define GNN_TYPE_RNN_CELL_BASE (gnn_rnn_cell_base_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnRNNCellBase, gnn_rnn_cell_base, GNN, RNN_CELL_BASE, GnnModule)

/**
 * GnnRNNCellBaseClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.RNNCellBase].
 *
 * Since: 0.1
 */
struct _GnnRNNCellBaseClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

#define GNN_TYPE_RNN_CELL (gnn_rnn_cell_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRNNCell, gnn_rnn_cell, GNN, RNN_CELL, GnnRNNCellBase)

#define GNN_TYPE_LSTM_CELL (gnn_lstm_cell_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLSTMCell, gnn_lstm_cell, GNN, LSTM_CELL, GnnRNNCellBase)

#define GNN_TYPE_GRU_CELL (gnn_gru_cell_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGRUCell, gnn_gru_cell, GNN, GRU_CELL, GnnRNNCellBase)

GNN_AVAILABLE_IN_ALL
gint64       gnn_rnn_cell_base_get_input_size   (GnnRNNCellBase  *self);
GNN_AVAILABLE_IN_ALL
gint64       gnn_rnn_cell_base_get_hidden_size  (GnnRNNCellBase  *self);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_rnn_cell_base_reset_parameters (GnnRNNCellBase  *self,
                                                 GnnGenerator    *generator,
                                                 GError         **error);

GNN_AVAILABLE_IN_ALL
GnnRNNCell  *gnn_rnn_cell_new                   (gint64           input_size,
                                                 gint64           hidden_size,
                                                 gboolean         bias,
                                                 const char      *nonlinearity,
                                                 GnnGenerator    *generator,
                                                 GError         **error);
GNN_AVAILABLE_IN_ALL
GnnLSTMCell *gnn_lstm_cell_new                  (gint64           input_size,
                                                 gint64           hidden_size,
                                                 gboolean         bias,
                                                 GnnGenerator    *generator,
                                                 GError         **error);
GNN_AVAILABLE_IN_ALL
GnnGRUCell  *gnn_gru_cell_new                   (gint64           input_size,
                                                 gint64           hidden_size,
                                                 gboolean         bias,
                                                 GnnGenerator    *generator,
                                                 GError         **error);

G_END_DECLS
