/* gnn-rnn.c: the multi-layer recurrent networks torch.nn.RNN, LSTM and GRU
 * (their base, GnnRNNBase, holds the configuration and the forward)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-rnn-module-private.h"

/**
 * GnnRNN:
 *
 * A multi-layer Elman network, like `torch.nn.RNN(input_size, hidden_size,
 * num_layers=1, nonlinearity='tanh', bias=True, batch_first=False,
 * dropout=0.0, bidirectional=False)`: each layer computes
 * h_t = f(x_t W_ihᵀ + b_ih + h_(t-1) W_hhᵀ + b_hh) with f tanh or relu
 * ([property@Gnn.RNN:nonlinearity]). See [class@Gnn.RNNBase] for the
 * parameters, the inputs and the outputs `(output, h_n)`.
 *
 * Since: 0.1
 */
typedef struct
{
  char *nonlinearity;
} GnnRNNPrivate;

enum {
  PROP_0,
  PROP_NONLINEARITY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (GnnRNN, gnn_rnn, GNN_TYPE_RNN_BASE)

#define RNN_PRIV(obj) ((GnnRNNPrivate *) gnn_rnn_get_instance_private (GNN_RNN (obj)))

static void
set_nonlinearity (GnnRNN     *self,
                  const char *name)
{
  GnnRNNPrivate *priv = RNN_PRIV (self);
  gboolean relu = g_strcmp0 (name, "relu") == 0;
  gboolean known = relu || g_strcmp0 (name, "tanh") == 0;

  g_free (priv->nonlinearity);
  priv->nonlinearity = g_strdup (name);
  gnn_rnn_base_set_mode (GNN_RNN_BASE (self), relu ? GNN_RNN_MODE_RELU : GNN_RNN_MODE_TANH,
                         known ? NULL : name != NULL ? name : "None");
}

static void
gnn_rnn_finalize (GObject *object)
{
  g_free (RNN_PRIV (object)->nonlinearity);
  G_OBJECT_CLASS (gnn_rnn_parent_class)->finalize (object);
}

static void
gnn_rnn_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  if (prop_id == PROP_NONLINEARITY)
    g_value_set_string (value, RNN_PRIV (object)->nonlinearity);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_rnn_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  if (prop_id == PROP_NONLINEARITY)
    set_nonlinearity (GNN_RNN (object), g_value_get_string (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_rnn_class_init (GnnRNNClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_rnn_finalize;
  object_class->get_property = gnn_rnn_get_property;
  object_class->set_property = gnn_rnn_set_property;

  /**
   * GnnRNN:nonlinearity:
   *
   * "tanh" or "relu"; any other name fails construction ("Unknown
   * nonlinearity 'x'").
   *
   * Since: 0.1
   */
  properties[PROP_NONLINEARITY] =
    g_param_spec_string ("nonlinearity", NULL, NULL, "tanh",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_rnn_init (GnnRNN *self)
{
}

/**
 * GnnLSTM:
 *
 * A multi-layer long short-term memory network, like
 * `torch.nn.LSTM(input_size, hidden_size, num_layers=1, bias=True,
 * batch_first=False, dropout=0.0, bidirectional=False, proj_size=0)`: each
 * layer computes the gates i, f, o = σ(·) and g = tanh(·) of
 * x_t W_ihᵀ + b_ih + h_(t-1) W_hhᵀ + b_hh, then c_t = f c_(t-1) + i g and
 * h_t = o tanh(c_t) (times W_hrᵀ with [property@Gnn.RNNBase:proj-size]).
 * See [class@Gnn.RNNBase] for the parameters, the inputs and the outputs
 * `(output, (h_n, c_n))`.
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnLSTM, gnn_lstm, GNN_TYPE_RNN_BASE)

static void
gnn_lstm_class_init (GnnLSTMClass *klass)
{
}

static void
gnn_lstm_init (GnnLSTM *self)
{
  gnn_rnn_base_set_mode (GNN_RNN_BASE (self), GNN_RNN_MODE_LSTM, NULL);
}

/**
 * GnnGRU:
 *
 * A multi-layer gated recurrent unit network, like `torch.nn.GRU
 * (input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
 * dropout=0.0, bidirectional=False)`: each layer computes
 * r, z = σ(x_t W_iᵀ + b_i + h_(t-1) W_hᵀ + b_h),
 * n = tanh(x_t W_inᵀ + b_in + r (h_(t-1) W_hnᵀ + b_hn)) and
 * h_t = (1 - z) n + z h_(t-1). See [class@Gnn.RNNBase] for the parameters,
 * the inputs and the outputs `(output, h_n)`.
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnGRU, gnn_gru, GNN_TYPE_RNN_BASE)

static void
gnn_gru_class_init (GnnGRUClass *klass)
{
}

static void
gnn_gru_init (GnnGRU *self)
{
  gnn_rnn_base_set_mode (GNN_RNN_BASE (self), GNN_RNN_MODE_GRU, NULL);
}

/* --- constructors ------------------------------------------------------------ */

static gpointer
new_network (GType          type,
             gint64         input_size,
             gint64         hidden_size,
             gint64         num_layers,
             const char    *nonlinearity,
             GnnGenerator  *generator,
             GError       **error)
{
  if (nonlinearity != NULL)
    return gnn_nn_initable_new (type, error, "input-size", input_size, "hidden-size", hidden_size,
                                "num-layers", num_layers, "generator", generator,
                                "nonlinearity", nonlinearity, NULL);
  return gnn_nn_initable_new (type, error, "input-size", input_size, "hidden-size", hidden_size,
                              "num-layers", num_layers, "generator", generator, NULL);
}

/**
 * gnn_rnn_new:
 * @input_size: the features of each input step
 * @hidden_size: the features of the hidden state
 * @num_layers: the number of stacked layers
 * @nonlinearity: "tanh" or "relu"
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the default generator
 * @error: return location for a #GError
 *
 * Creates an Elman network of float32 parameters, like
 * `torch.nn.RNN(input_size, hidden_size, num_layers, nonlinearity)`; the
 * other settings are properties of [class@Gnn.RNNBase].
 *
 * Returns: (transfer full): the network, or %NULL with @error set (torch's
 *   messages: "Unknown nonlinearity 'x'", a negative size, …)
 *
 * Since: 0.1
 */
GnnRNN *
gnn_rnn_new (gint64         input_size,
             gint64         hidden_size,
             gint64         num_layers,
             const char    *nonlinearity,
             GnnGenerator  *generator,
             GError       **error)
{
  g_return_val_if_fail (nonlinearity != NULL, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return new_network (GNN_TYPE_RNN, input_size, hidden_size, num_layers, nonlinearity, generator,
                      error);
}

/**
 * gnn_lstm_new:
 * @input_size: the features of each input step
 * @hidden_size: the features of the hidden state
 * @num_layers: the number of stacked layers
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the default generator
 * @error: return location for a #GError
 *
 * Creates an LSTM of float32 parameters, like `torch.nn.LSTM(input_size,
 * hidden_size, num_layers)`; the other settings (batch-first,
 * bidirectional, dropout, proj-size, has-bias, dtype) are properties of
 * [class@Gnn.RNNBase] for g_object_new().
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLSTM *
gnn_lstm_new (gint64         input_size,
              gint64         hidden_size,
              gint64         num_layers,
              GnnGenerator  *generator,
              GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return new_network (GNN_TYPE_LSTM, input_size, hidden_size, num_layers, NULL, generator, error);
}

/**
 * gnn_gru_new:
 * @input_size: the features of each input step
 * @hidden_size: the features of the hidden state
 * @num_layers: the number of stacked layers
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the default generator
 * @error: return location for a #GError
 *
 * Creates a GRU of float32 parameters, like `torch.nn.GRU(input_size,
 * hidden_size, num_layers)`; the other settings are properties of
 * [class@Gnn.RNNBase].
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGRU *
gnn_gru_new (gint64         input_size,
             gint64         hidden_size,
             gint64         num_layers,
             GnnGenerator  *generator,
             GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return new_network (GNN_TYPE_GRU, input_size, hidden_size, num_layers, NULL, generator, error);
}
