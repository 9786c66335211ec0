/* gnn-rnn-base.c: the configuration, parameters and repr of the
 * multi-layer recurrent networks (torch.nn.RNNBase); their forward is in
 * gnn-rnn-forward.c, the subclasses in gnn-rnn.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-rnn-module-private.h"
#include "tensor/gnn-tensor-private.h"

/* More layers than anyone stacks, few enough that building them cannot
 * take minutes (each registers up to ten parameters). */
#define MAX_LAYERS 10000

/**
 * GnnRNNBase:
 *
 * The base of the multi-layer recurrent networks [class@Gnn.RNN],
 * [class@Gnn.LSTM] and [class@Gnn.GRU], like `torch.nn.RNNBase`: the
 * configuration ([property@Gnn.RNNBase:input-size],
 * [property@Gnn.RNNBase:hidden-size], [property@Gnn.RNNBase:num-layers],
 * [property@Gnn.RNNBase:has-bias], [property@Gnn.RNNBase:batch-first],
 * [property@Gnn.RNNBase:dropout], [property@Gnn.RNNBase:bidirectional],
 * [property@Gnn.RNNBase:proj-size]), the parameters and the forward.
 *
 * The parameters are registered under torch's names and in torch's order,
 * so state dicts load into each other: for each layer k and direction
 * (`""`, then `"_reverse"` when bidirectional) `weight_ih_lk`,
 * `weight_hh_lk`, then `bias_ih_lk` and `bias_hh_lk` with a bias, then
 * `weight_hr_lk` with a projection. Every one starts as
 * U(-1/√hidden_size, 1/√hidden_size), drawn from
 * [property@Gnn.RNNBase:generator] or the default generator.
 *
 * Forward is torch's `forward(input, hx=None)` through
 * [method@Gnn.Module.call_args]: the input is `[L, N, input_size]`
 * (`[N, L, input_size]` with batch-first, `[L, input_size]` unbatched) or a
 * [class@Gnn.PackedSequence]; the output is `(output, h_n)`, for an LSTM
 * `(output, (h_n, c_n))`, with an output packed when the input is. Each
 * layer in each direction runs as one node of the autograd graph (see
 * lib/tensor/gnn-rnn-private.h): one product for the input side of every
 * step, one product and one fused gate kernel per step. With
 * [property@Gnn.RNNBase:dropout] above 0, training applies dropout (drawn
 * from the default generator) to the output of every layer but the last.
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_INPUT_SIZE,
  PROP_HIDDEN_SIZE,
  PROP_NUM_LAYERS,
  PROP_HAS_BIAS,
  PROP_BATCH_FIRST,
  PROP_DROPOUT,
  PROP_BIDIRECTIONAL,
  PROP_PROJ_SIZE,
  PROP_DTYPE,
  PROP_GENERATOR,
  PROP_MODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnRNNBase, gnn_rnn_base, GNN_TYPE_MODULE,
                                  G_ADD_PRIVATE (GnnRNNBase)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_nn_initable_iface_init))

GnnRNNBasePrivate *
gnn_rnn_base_priv (GnnRNNBase *self)
{
  return gnn_rnn_base_get_instance_private (self);
}

void
gnn_rnn_base_set_mode (GnnRNNBase *self,
                       GnnRnnMode  mode,
                       const char *bad_nonlinearity)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (self);

  priv->mode = mode;
  g_free (priv->bad_nonlinearity);
  priv->bad_nonlinearity = g_strdup (bad_nonlinearity);
}

static const char *
mode_name (GnnRnnMode mode)
{
  static const char *const names[] = {
    [GNN_RNN_MODE_TANH] = "RNN_TANH", [GNN_RNN_MODE_RELU] = "RNN_RELU",
    [GNN_RNN_MODE_LSTM] = "LSTM", [GNN_RNN_MODE_GRU] = "GRU",
  };

  return names[mode];
}

/* The settings torch's RNNBase.__init__ refuses, in its order. */
static gboolean
check_settings (GnnRNNBasePrivate  *priv,
                GError            **error)
{
  const char *message = NULL;

  if (priv->bad_nonlinearity != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Unknown nonlinearity '%s'",
                   priv->bad_nonlinearity);
      return FALSE;
    }
  if (priv->proj_size != 0 && priv->mode != GNN_RNN_MODE_LSTM)
    message = "proj_size argument is only supported for LSTM, not RNN or GRU";
  else if (!(priv->dropout >= 0 && priv->dropout <= 1))
    message = "dropout should be a number in range [0, 1] representing the probability of an "
              "element being zeroed";
  else if (priv->proj_size < 0)
    message = "proj_size should be a positive integer or zero to disable projections";
  else if (priv->proj_size >= priv->hidden_size)
    message = "proj_size has to be smaller than hidden_size";
  else if (priv->num_layers <= 0)
    message = "num_layers must be greater than zero";
  if (message != NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, message);
      return FALSE;
    }
  if (priv->input_size < 0)
    {
      gint64 rows;

      if (__builtin_mul_overflow (gnn_rnn_gate_count (priv->mode), priv->hidden_size, &rows))
        rows = G_MAXINT64;   /* refused below as too large anyway */
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Trying to create tensor with negative dimension %" G_GINT64_FORMAT
                   ": [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", priv->input_size,
                   rows, priv->input_size);
      return FALSE;
    }
  if (priv->num_layers > MAX_LAYERS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "num_layers=%" G_GINT64_FORMAT " is more than Gnn builds (at most %d)",
                   priv->num_layers, MAX_LAYERS);
      return FALSE;
    }
  return TRUE;
}

/* Registers one layer and direction's parameters under torch's names. */
static gboolean
create_layer (GnnRNNBase  *self,
              gint64       layer,
              guint        direction,
              GError     **error)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (self);
  gint64 directions = priv->bidirectional ? 2 : 1;
  gint64 out = priv->proj_size > 0 ? priv->proj_size : priv->hidden_size;
  gint64 gates = gnn_rnn_gate_count (priv->mode) * priv->hidden_size;
  gint64 in = layer == 0 ? priv->input_size : out * directions;
  const gint64 shapes[GNN_RNN_N_WEIGHTS][2] = {
    [GNN_RNN_W_IH] = { gates, in }, [GNN_RNN_W_HH] = { gates, out },
    [GNN_RNN_B_IH] = { gates, 0 }, [GNN_RNN_B_HH] = { gates, 0 },
    [GNN_RNN_W_HR] = { priv->proj_size, priv->hidden_size },
  };
  const guint ndims[GNN_RNN_N_WEIGHTS] = { 2, 2, 1, 1, 2 };
  char **names = priv->names + (layer * directions + direction) * GNN_RNN_N_WEIGHTS;

  for (guint k = 0; k < GNN_RNN_N_WEIGHTS; k++)
    {
      g_autoptr(GnnParameter) param = NULL;

      if (names[k][0] == '\0')
        continue;
      param = gnn_parameter_new_empty (priv->dtype, shapes[k], ndims[k], error);
      if (param == NULL ||
          !gnn_module_register_parameter (GNN_MODULE (self), names[k], param, error))
        return FALSE;
    }
  return TRUE;
}

/* torch's parameter names, "" for the ones this configuration lacks. */
static GStrv
parameter_names (GnnRNNBasePrivate *priv)
{
  static const char *const stems[GNN_RNN_N_WEIGHTS] = {
    "weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr",
  };
  gint64 directions = priv->bidirectional ? 2 : 1;
  gint64 n = priv->num_layers * directions * GNN_RNN_N_WEIGHTS;
  GStrv names = g_new0 (char *, n + 1);

  for (gint64 layer = 0; layer < priv->num_layers; layer++)
    for (gint64 d = 0; d < directions; d++)
      for (guint k = 0; k < GNN_RNN_N_WEIGHTS; k++)
        {
          gboolean present = (k != GNN_RNN_B_IH && k != GNN_RNN_B_HH) || priv->bias;

          present = present && (k != GNN_RNN_W_HR || priv->proj_size > 0);
          names[(layer * directions + d) * GNN_RNN_N_WEIGHTS + k] =
            present ? g_strdup_printf ("%s_l%" G_GINT64_FORMAT "%s", stems[k], layer,
                                       d == 1 ? "_reverse" : "")
                    : g_strdup ("");
        }
  return names;
}

static gboolean
create_parameters (GnnRNNBase  *self,
                   GError     **error)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (self);
  if (priv->hidden_size > G_MAXINT64 / gnn_rnn_gate_count (priv->mode))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "hidden_size=%" G_GINT64_FORMAT " is too large: the gate count overflows",
                   priv->hidden_size);
      return FALSE;
    }
  priv->names = parameter_names (priv);
  for (gint64 layer = 0; layer < priv->num_layers; layer++)
    for (guint d = 0; d < (priv->bidirectional ? 2u : 1u); d++)
      if (!create_layer (self, layer, d, error))
        return FALSE;
  return gnn_rnn_init_uniform (GNN_MODULE (self), priv->hidden_size, priv->generator, error);
}

static void
gnn_rnn_base_constructed (GObject *object)
{
  GnnRNNBase *self = GNN_RNN_BASE (object);
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (self);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_rnn_base_parent_class)->constructed (object);
  /* torch's words for the settings it refuses; the module's name before
   * an allocation's error */
  if (!check_settings (priv, &error))
    gnn_nn_set_construct_error (object, error);
  else if (!create_parameters (self, &error))
    {
      g_prefix_error (&error, "%s: ", gnn_module_get_name (GNN_MODULE (self)));
      gnn_nn_set_construct_error (object, error);
    }
  g_clear_object (&priv->generator);
}

static char *
gnn_rnn_base_extra_repr (GnnModule *module)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (GNN_RNN_BASE (module));
  GString *s = g_string_new (NULL);

  g_string_printf (s, "%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, priv->input_size,
                   priv->hidden_size);
  if (priv->proj_size != 0)
    g_string_append_printf (s, ", proj_size=%" G_GINT64_FORMAT, priv->proj_size);
  if (priv->num_layers != 1)
    g_string_append_printf (s, ", num_layers=%" G_GINT64_FORMAT, priv->num_layers);
  if (!priv->bias)
    g_string_append (s, ", bias=False");
  if (priv->batch_first)
    g_string_append (s, ", batch_first=True");
  if (priv->dropout != 0)
    {
      g_autofree char *p = gnn_nn_format_float (priv->dropout);

      g_string_append_printf (s, ", dropout=%s", p);
    }
  if (priv->bidirectional)
    g_string_append (s, ", bidirectional=True");
  return g_string_free (s, FALSE);
}

static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  return gnn_rnn_base_reset_parameters (GNN_RNN_BASE (module), NULL, error);
}

static void
gnn_rnn_base_finalize (GObject *object)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (GNN_RNN_BASE (object));

  g_clear_object (&priv->generator);
  g_clear_pointer (&priv->bad_nonlinearity, g_free);
  g_clear_pointer (&priv->names, g_strfreev);
  G_OBJECT_CLASS (gnn_rnn_base_parent_class)->finalize (object);
}

static void
gnn_rnn_base_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (GNN_RNN_BASE (object));

  switch (prop_id)
    {
    case PROP_INPUT_SIZE: g_value_set_int64 (value, priv->input_size); break;
    case PROP_HIDDEN_SIZE: g_value_set_int64 (value, priv->hidden_size); break;
    case PROP_NUM_LAYERS: g_value_set_int64 (value, priv->num_layers); break;
    case PROP_HAS_BIAS: g_value_set_boolean (value, priv->bias); break;
    case PROP_BATCH_FIRST: g_value_set_boolean (value, priv->batch_first); break;
    case PROP_DROPOUT: g_value_set_double (value, priv->dropout); break;
    case PROP_BIDIRECTIONAL: g_value_set_boolean (value, priv->bidirectional); break;
    case PROP_PROJ_SIZE: g_value_set_int64 (value, priv->proj_size); break;
    case PROP_DTYPE: g_value_set_enum (value, priv->dtype); break;
    case PROP_MODE: g_value_set_string (value, mode_name (priv->mode)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_rnn_base_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (GNN_RNN_BASE (object));

  switch (prop_id)
    {
    case PROP_INPUT_SIZE: priv->input_size = g_value_get_int64 (value); break;
    case PROP_HIDDEN_SIZE: priv->hidden_size = g_value_get_int64 (value); break;
    case PROP_NUM_LAYERS: priv->num_layers = g_value_get_int64 (value); break;
    case PROP_HAS_BIAS: priv->bias = g_value_get_boolean (value); break;
    case PROP_BATCH_FIRST: priv->batch_first = g_value_get_boolean (value); break;
    case PROP_DROPOUT: priv->dropout = g_value_get_double (value); break;
    case PROP_BIDIRECTIONAL: priv->bidirectional = g_value_get_boolean (value); break;
    case PROP_PROJ_SIZE: priv->proj_size = g_value_get_int64 (value); break;
    case PROP_DTYPE: priv->dtype = g_value_get_enum (value); break;
    case PROP_GENERATOR: g_set_object (&priv->generator, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_rnn_base_class_init (GnnRNNBaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_rnn_base_constructed;
  object_class->finalize = gnn_rnn_base_finalize;
  object_class->get_property = gnn_rnn_base_get_property;
  object_class->set_property = gnn_rnn_base_set_property;
  module_class->forward_args = gnn_rnn_base_forward;
  module_class->extra_repr = gnn_rnn_base_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnRNNBase:input-size:
   *
   * The number of features of each input step (the last dimension of the
   * input). A negative size fails construction with torch's message.
   *
   * Since: 0.1
   */
  properties[PROP_INPUT_SIZE] =
    g_param_spec_int64 ("input-size", NULL, NULL, G_MININT64, G_MAXINT64, 0, construct);
  /**
   * GnnRNNBase:hidden-size:
   *
   * The number of features of the hidden state (of the cell, for an LSTM
   * with a projection).
   *
   * Since: 0.1
   */
  properties[PROP_HIDDEN_SIZE] =
    g_param_spec_int64 ("hidden-size", NULL, NULL, G_MININT64, G_MAXINT64, 1, construct);
  /**
   * GnnRNNBase:num-layers:
   *
   * The number of stacked layers, each taking the previous one's output.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_LAYERS] =
    g_param_spec_int64 ("num-layers", NULL, NULL, G_MININT64, G_MAXINT64, 1, construct);
  /**
   * GnnRNNBase:has-bias:
   *
   * Whether the layers have the biases `bias_ih_lk` and `bias_hh_lk`
   * (torch's `bias=`).
   *
   * Since: 0.1
   */
  properties[PROP_HAS_BIAS] = g_param_spec_boolean ("has-bias", NULL, NULL, TRUE, construct);
  /**
   * GnnRNNBase:batch-first:
   *
   * Whether batched inputs and outputs are `[N, L, features]` rather than
   * `[L, N, features]` (the hidden state is `[layers, N, features]` either
   * way).
   *
   * Since: 0.1
   */
  properties[PROP_BATCH_FIRST] = g_param_spec_boolean ("batch-first", NULL, NULL, FALSE, construct);
  /**
   * GnnRNNBase:dropout:
   *
   * The probability of dropout on the outputs of every layer but the last,
   * in training mode; a value outside [0, 1] fails construction.
   *
   * Since: 0.1
   */
  properties[PROP_DROPOUT] =
    g_param_spec_double ("dropout", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, construct);
  /**
   * GnnRNNBase:bidirectional:
   *
   * Whether each layer also runs over the sequence backwards, its output
   * the two directions' outputs side by side.
   *
   * Since: 0.1
   */
  properties[PROP_BIDIRECTIONAL] =
    g_param_spec_boolean ("bidirectional", NULL, NULL, FALSE, construct);
  /**
   * GnnRNNBase:proj-size:
   *
   * LSTM only: when above 0, the hidden state is projected to this many
   * features (`weight_hr_lk`), which are the output and h_n.
   *
   * Since: 0.1
   */
  properties[PROP_PROJ_SIZE] =
    g_param_spec_int64 ("proj-size", NULL, NULL, G_MININT64, G_MAXINT64, 0, construct);
  /**
   * GnnRNNBase:dtype:
   *
   * The dtype of the parameters (torch's `dtype=`).
   *
   * Since: 0.1
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32, construct);
  /**
   * GnnRNNBase:generator:
   *
   * The generator the initial parameters are drawn from, used during
   * construction only; %NULL draws from the default generator.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnRNNBase:mode:
   *
   * torch's `mode`: "LSTM", "GRU", "RNN_TANH" or "RNN_RELU".
   *
   * Since: 0.1
   */
  properties[PROP_MODE] =
    g_param_spec_string ("mode", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_rnn_base_init (GnnRNNBase *self)
{
  GnnRNNBasePrivate *priv = gnn_rnn_base_priv (self);

  priv->hidden_size = 1;
  priv->num_layers = 1;
  priv->bias = TRUE;
  priv->dtype = GNN_DTYPE_F32;
  priv->mode = GNN_RNN_MODE_TANH;
}

/**
 * gnn_rnn_base_get_input_size:
 * @self: a recurrent network
 *
 * Gets the number of features of each input step.
 *
 * Returns: the value of [property@Gnn.RNNBase:input-size]
 *
 * Since: 0.1
 */
gint64
gnn_rnn_base_get_input_size (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return gnn_rnn_base_priv (self)->input_size;
}

/**
 * gnn_rnn_base_get_hidden_size:
 * @self: a recurrent network
 *
 * Gets the number of features of the hidden state.
 *
 * Returns: the value of [property@Gnn.RNNBase:hidden-size]
 *
 * Since: 0.1
 */
gint64
gnn_rnn_base_get_hidden_size (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return gnn_rnn_base_priv (self)->hidden_size;
}

/**
 * gnn_rnn_base_get_num_layers:
 * @self: a recurrent network
 *
 * Gets the number of stacked layers.
 *
 * Returns: the value of [property@Gnn.RNNBase:num-layers]
 *
 * Since: 0.1
 */
gint64
gnn_rnn_base_get_num_layers (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return gnn_rnn_base_priv (self)->num_layers;
}

/**
 * gnn_rnn_base_get_proj_size:
 * @self: a recurrent network
 *
 * Gets the projection size of an LSTM (0: none).
 *
 * Returns: the value of [property@Gnn.RNNBase:proj-size]
 *
 * Since: 0.1
 */
gint64
gnn_rnn_base_get_proj_size (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return gnn_rnn_base_priv (self)->proj_size;
}

/**
 * gnn_rnn_base_get_bidirectional:
 * @self: a recurrent network
 *
 * Gets whether the layers also run backwards.
 *
 * Returns: the value of [property@Gnn.RNNBase:bidirectional]
 *
 * Since: 0.1
 */
gboolean
gnn_rnn_base_get_bidirectional (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), FALSE);
  return gnn_rnn_base_priv (self)->bidirectional;
}

/**
 * gnn_rnn_base_get_batch_first:
 * @self: a recurrent network
 *
 * Gets whether batched inputs and outputs put the batch first.
 *
 * Returns: the value of [property@Gnn.RNNBase:batch-first]
 *
 * Since: 0.1
 */
gboolean
gnn_rnn_base_get_batch_first (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), FALSE);
  return gnn_rnn_base_priv (self)->batch_first;
}

/**
 * gnn_rnn_base_get_dropout:
 * @self: a recurrent network
 *
 * Gets the dropout probability between layers.
 *
 * Returns: the value of [property@Gnn.RNNBase:dropout]
 *
 * Since: 0.1
 */
double
gnn_rnn_base_get_dropout (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0.0);
  return gnn_rnn_base_priv (self)->dropout;
}

/**
 * gnn_rnn_base_get_mode:
 * @self: a recurrent network
 *
 * Gets torch's name of the network's kind.
 *
 * Returns: the value of [property@Gnn.RNNBase:mode]
 *
 * Since: 0.1
 */
const char *
gnn_rnn_base_get_mode (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), NULL);
  return mode_name (gnn_rnn_base_priv (self)->mode);
}

/**
 * gnn_rnn_base_reset_parameters:
 * @self: a recurrent network
 * @generator: (nullable): the generator to draw from, or %NULL for the
 *   default generator
 * @error: return location for a #GError
 *
 * Re-initializes every parameter in place as torch's `reset_parameters()`
 * does: U(-1/√hidden_size, 1/√hidden_size). Meta parameters get memory
 * first.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_rnn_base_reset_parameters (GnnRNNBase    *self,
                               GnnGenerator  *generator,
                               GError       **error)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);
  return gnn_rnn_init_uniform (GNN_MODULE (self), gnn_rnn_base_priv (self)->hidden_size,
                               generator, error);
}

/* --- shared with the cells ------------------------------------------------- */

gboolean
gnn_rnn_init_uniform (GnnModule    *module,
                      gint64        hidden_size,
                      GnnGenerator *generator,
                      GError      **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();   /* writes into parameters */
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (module, "", FALSE, NULL);
  double bound = hidden_size > 0 ? 1.0 / sqrt ((double) hidden_size) : 0.0;
  GnnGenerator *gen = generator != NULL ? generator : gnn_nn_default_generator_lock ();
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < params->len; i++)
    {
      GnnTensor *p = params->pdata[i];

      ok = gnn_tensor_materialize (p, error) &&
           (bound > 0 ? gnn_tensor_uniform_ (p, -bound, bound, gen, error)
                      : gnn_tensor_fill_ (p, 0.0, error));
    }
  if (generator == NULL)
    gnn_nn_default_generator_unlock ();
  return ok;
}

gboolean
gnn_rnn_check_dtype (GnnTensor  *operand,
                     GnnTensor  *weight,
                     GError    **error)
{
  if (gnn_tensor_get_dtype (operand) == gnn_tensor_get_dtype (weight))
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE, "mat1 and mat2 must have the same dtype");
  return FALSE;
}

gboolean
gnn_rnn_size (GnnTensor  *t,
              gint        dim,
              gint64     *size,
              GError    **error)
{
  guint ndim = gnn_tensor_get_ndim (t);
  gint lo = ndim == 0 ? -1 : -(gint) ndim, hi = ndim == 0 ? 0 : (gint) ndim - 1;

  if (dim < lo || dim > hi)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                   lo, hi, dim);
      return FALSE;
    }
  *size = ndim == 0 ? 1 : gnn_tensor_get_size (t, dim < 0 ? dim + (gint) ndim : dim, NULL);
  return TRUE;
}
