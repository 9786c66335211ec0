/* gnn-rnn-cell.c: one step of a recurrent network (torch.nn.RNNCellBase,
 * RNNCell, LSTMCell, GRUCell): a one-step run of the layer op
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-rnn-module-private.h"

/**
 * GnnRNNCellBase:
 *
 * The base of the recurrent cells [class@Gnn.RNNCell],
 * [class@Gnn.LSTMCell] and [class@Gnn.GRUCell], like torch's
 * `RNNCellBase`: one time step of the matching network for a batch
 * `[N, input_size]` (or one sample `[input_size]`).
 *
 * The parameters are torch's: `weight_ih` `[gates · hidden_size,
 * input_size]`, `weight_hh` `[gates · hidden_size, hidden_size]` and, with
 * [property@Gnn.RNNCellBase:has-bias], `bias_ih` and `bias_hh`
 * `[gates · hidden_size]` (empty slots without), each also a child-slot
 * property; all start as U(-1/√hidden_size, 1/√hidden_size), drawn from
 * [property@Gnn.RNNCellBase:generator] or the default generator.
 *
 * Forward is torch's `forward(input, hx=None)` through
 * [method@Gnn.Module.call_args]: RNNCell and GRUCell return h', LSTMCell
 * `(h', c')`. The step is one node of the autograd graph: the two products
 * and one fused gate kernel (see [class@Gnn.RNNBase]).
 *
 * Since: 0.1
 */
typedef struct
{
  gint64        input_size;
  gint64        hidden_size;
  gboolean      bias;
  GnnDType      dtype;
  GnnGenerator *generator;
  GnnRnnMode    mode;
  char         *bad_nonlinearity;   /* RNNCell: refused by forward, as torch */
} GnnRNNCellBasePrivate;

enum {
  PROP_0,
  PROP_INPUT_SIZE,
  PROP_HIDDEN_SIZE,
  PROP_HAS_BIAS,
  PROP_DTYPE,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnRNNCellBase, gnn_rnn_cell_base, GNN_TYPE_MODULE,
                                  G_ADD_PRIVATE (GnnRNNCellBase)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_nn_initable_iface_init))

static GnnRNNCellBasePrivate *
cell_priv (gpointer self)
{
  return gnn_rnn_cell_base_get_instance_private (GNN_RNN_CELL_BASE (self));
}

static void
set_mode (gpointer    self,
          GnnRnnMode  mode,
          const char *bad_nonlinearity)
{
  GnnRNNCellBasePrivate *priv = cell_priv (self);

  priv->mode = mode;
  g_free (priv->bad_nonlinearity);
  priv->bad_nonlinearity = g_strdup (bad_nonlinearity);
}

static const char *const weight_names[] = { "weight_ih", "weight_hh", "bias_ih", "bias_hh" };

static gboolean
create_parameters (GnnRNNCellBase  *self,
                   GError         **error)
{
  GnnRNNCellBasePrivate *priv = cell_priv (self);
  gint64 gates, shapes[4][2];
  const guint ndims[4] = { 2, 2, 1, 1 };

  if (priv->hidden_size > G_MAXINT64 / 4 || priv->hidden_size < G_MININT64 / 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "hidden_size=%" G_GINT64_FORMAT " is too large: the gate count overflows",
                   priv->hidden_size);
      return FALSE;
    }
  gates = gnn_rnn_gate_count (priv->mode) * priv->hidden_size;
  shapes[0][0] = shapes[1][0] = shapes[2][0] = shapes[3][0] = gates;
  shapes[0][1] = priv->input_size;
  shapes[1][1] = priv->hidden_size;
  for (guint k = 0; k < 2; k++)
    if (shapes[k][0] < 0 || shapes[k][1] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": [%"
                     G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
                     shapes[k][0] < 0 ? shapes[k][0] : shapes[k][1], shapes[k][0], shapes[k][1]);
        return FALSE;
      }
  for (guint k = 0; k < 4; k++)
    {
      g_autoptr(GnnParameter) param = NULL;

      if (k >= 2 && !priv->bias)
        {
          if (!gnn_module_register_parameter (GNN_MODULE (self), weight_names[k], NULL, error))
            return FALSE;
          continue;
        }
      param = gnn_parameter_new_empty (priv->dtype, shapes[k], ndims[k], error);
      if (param == NULL ||
          !gnn_module_register_parameter (GNN_MODULE (self), weight_names[k], param, error))
        return FALSE;
    }
  return gnn_rnn_init_uniform (GNN_MODULE (self), priv->hidden_size, priv->generator, error);
}

static void
gnn_rnn_cell_base_constructed (GObject *object)
{
  GnnRNNCellBasePrivate *priv = cell_priv (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_rnn_cell_base_parent_class)->constructed (object);
  if (!create_parameters (GNN_RNN_CELL_BASE (object), &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&priv->generator);
}

/* --- forward ------------------------------------------------------------------ */

/* The state tensors of the call: given (unsqueezed for one sample), or zeros. */
static gboolean
read_states (GnnRNNCellBase  *self,
             GnnValue        *hx,
             gboolean         batched,
             gint64           batch,
             GnnDType         dtype,
             GnnTensor      **states,
             GError         **error)
{
  GnnRNNCellBasePrivate *priv = cell_priv (self);
  gboolean lstm = priv->mode == GNN_RNN_MODE_LSTM;
  guint n = lstm ? 2 : 1;

  if (hx == NULL)
    {
      gint64 shape[2] = { batch, priv->hidden_size };

      if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
        dtype = priv->dtype;   /* the input's dtype error comes later, as torch's */
      states[0] = gnn_tensor_zeros (shape, 2, dtype, error);
      if (states[0] != NULL && lstm)
        states[1] = g_object_ref (states[0]);   /* torch: hx = (zeros, zeros) */
      return states[0] != NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      GnnValue *v = lstm ? (gnn_value_get_kind (hx) == GNN_VALUE_TUPLE ||
                            gnn_value_get_kind (hx) == GNN_VALUE_LIST) &&
                           gnn_value_get_length (hx) == 2 ? gnn_value_get_item (hx, i) : NULL
                         : hx;

      if (v == NULL || gnn_value_get_kind (v) != GNN_VALUE_TENSOR)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       lstm ? "%s.forward(): hx must be a tuple (h_0, c_0) of tensors, not %s"
                            : "%s.forward(): argument 'hx' (position 2) must be Tensor, not %s",
                       gnn_module_get_name (GNN_MODULE (self)), gnn_value_get_type_name (hx));
          return FALSE;
        }
      states[i] = batched ? g_object_ref (gnn_value_get_tensor (v))
                          : gnn_tensor_unsqueeze (gnn_value_get_tensor (v), 0, error);
      if (states[i] == NULL)
        return FALSE;
    }
  return TRUE;
}

/* torch's check_rnn_cell_forward_input and _hidden (LSTMCell labels both
 * of its states 0, as torch does), then the products' dtype check. */
static gboolean
check_step (GnnRNNCellBase  *self,
            GnnTensor       *input,
            GnnTensor      **states,
            GnnTensor       *weight,
            GError         **error)
{
  GnnRNNCellBasePrivate *priv = cell_priv (self);
  gint64 features, batch, state_batch, state_features;

  if (!gnn_rnn_size (input, 1, &features, error))
    return FALSE;
  if (features != priv->input_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "input has inconsistent input_size: got %" G_GINT64_FORMAT " expected %"
                   G_GINT64_FORMAT, features, priv->input_size);
      return FALSE;
    }
  batch = gnn_tensor_get_size (input, 0, NULL);
  for (guint i = 0; i < 2 && states[i] != NULL; i++)
    {
      if (!gnn_rnn_size (states[i], 0, &state_batch, error))
        return FALSE;
      if (state_batch != batch)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Input batch size %" G_GINT64_FORMAT " doesn't match hidden0 batch size %"
                       G_GINT64_FORMAT, batch, state_batch);
          return FALSE;
        }
      if (!gnn_rnn_size (states[i], 1, &state_features, error))
        return FALSE;
      if (state_features != priv->hidden_size)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "hidden0 has inconsistent hidden_size: got %" G_GINT64_FORMAT ", expected %"
                       G_GINT64_FORMAT, state_features, priv->hidden_size);
          return FALSE;
        }
      if (gnn_tensor_get_ndim (states[i]) != 2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "hidden0 must be 2-D [batch, hidden_size], got %u-D",
                       gnn_tensor_get_ndim (states[i]));
          return FALSE;
        }
    }
  return gnn_rnn_check_dtype (input, weight, error) &&
         gnn_rnn_check_dtype (states[0], weight, error) &&
         (states[1] == NULL || gnn_rnn_check_dtype (states[1], weight, error));
}

/* The step: h' (and c'), squeezed back for one sample. */
static gboolean
step (GnnRNNCellBase  *self,
      GnnTensor       *input,
      GnnValue        *hx,
      GnnTensor      **h_out,
      GnnTensor      **c_out,
      GError         **error)
{
  GnnRNNCellBasePrivate *priv = cell_priv (self);
  const char *name = gnn_module_get_name (GNN_MODULE (self));
  gboolean lstm = priv->mode == GNN_RNN_MODE_LSTM, batched;
  guint ndim = gnn_tensor_get_ndim (input);
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) h = NULL;
  g_autoptr(GnnTensor) c = NULL;
  GnnTensor *states[2] = { NULL, NULL };
  GnnTensor *weights[GNN_RNN_N_WEIGHTS] = { NULL };
  GnnRnnLayout layout = { priv->mode, FALSE, 1, 0, NULL };
  gboolean ok;

  if (!gnn_nn_check_constructed (self, error))
    return FALSE;
  if (ndim != 1 && ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Expected input to be 1-D or 2-D but received %u-D tensor", name, ndim);
      return FALSE;
    }
  batched = ndim == 2;
  x = batched ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error);
  if (x == NULL)
    return FALSE;
  layout.batch = gnn_tensor_get_size (x, 0, NULL);
  for (guint k = 0; k < 4; k++)
    weights[k] = (GnnTensor *) gnn_module_get_child (GNN_MODULE (self), weight_names[k], NULL);
  if (weights[GNN_RNN_W_IH] == NULL || weights[GNN_RNN_W_HH] == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s: %s is None", name,
                   weights[GNN_RNN_W_IH] == NULL ? "weight_ih" : "weight_hh");
      return FALSE;
    }
  if (!read_states (self, hx, batched, layout.batch, gnn_tensor_get_dtype (x), states, error))
    {
      g_clear_object (&states[0]);
      return FALSE;
    }
  if (priv->bad_nonlinearity != NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Unknown nonlinearity: %s",
                 priv->bad_nonlinearity);
  ok = priv->bad_nonlinearity == NULL &&
       check_step (self, x, states, weights[GNN_RNN_W_IH], error) &&
       gnn_rnn_layer (&layout, x, states[0], states[1], weights, NULL, &h, lstm ? &c : NULL, error);
  g_clear_object (&states[0]);
  g_clear_object (&states[1]);
  if (!ok)
    return FALSE;
  *h_out = batched ? g_steal_pointer (&h) : gnn_tensor_squeeze (h, 0, error);
  if (lstm)
    *c_out = batched ? g_steal_pointer (&c) : gnn_tensor_squeeze (c, 0, error);
  return *h_out != NULL && (!lstm || *c_out != NULL);
}

static GnnValue *
gnn_rnn_cell_base_forward_args (GnnModule  *module,
                                GnnValue   *args,
                                GnnValue   *kwargs,
                                GError    **error)
{
  GnnRNNCellBase *self = GNN_RNN_CELL_BASE (module);
  g_autofree char *function = g_strconcat (gnn_module_get_name (module), ".forward", NULL);
  GnnTensor *input = NULL, *h = NULL, *c = NULL;
  GnnValue *hx = NULL;

  if (!gnn_args_parse (args, kwargs, function, error,
                       "input", GNN_ARG_TENSOR, &input,
                       "hx", GNN_ARG_OPTIONAL_VALUE, &hx,
                       NULL) ||
      !step (self, input, hx, &h, &c, error))
    {
      g_clear_object (&h);
      return NULL;
    }
  if (c != NULL)
    return gnn_value_new_tuple_take (2, gnn_value_take_tensor (h), gnn_value_take_tensor (c));
  return gnn_value_take_tensor (h);
}

/* RNNCell and GRUCell called with one tensor: h' for a zero state. */
static GnnTensor *
one_tensor_forward (GnnModule  *module,
                    GnnTensor  *input,
                    GError    **error)
{
  GnnTensor *h = NULL, *c = NULL;

  if (!step (GNN_RNN_CELL_BASE (module), input, NULL, &h, &c, error))
    return NULL;
  return h;
}

/* The same general forward, set by the class that also sets the one-tensor
 * forward: a class setting both runs each on its own call shape (a
 * forward_args inherited from the base would lose to the newer forward). */
static GnnValue *
one_output_forward_args (GnnModule  *module,
                         GnnValue   *args,
                         GnnValue   *kwargs,
                         GError    **error)
{
  return gnn_rnn_cell_base_forward_args (module, args, kwargs, error);
}

static char *
gnn_rnn_cell_base_extra_repr (GnnModule *module)
{
  GnnRNNCellBasePrivate *priv = cell_priv (module);
  GString *s = g_string_new (NULL);

  g_string_printf (s, "%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, priv->input_size,
                   priv->hidden_size);
  if (!priv->bias)
    g_string_append (s, ", bias=False");
  if (GNN_IS_RNN_CELL (module))
    {
      g_autofree char *nonlinearity = NULL;

      g_object_get (module, "nonlinearity", &nonlinearity, NULL);
      if (g_strcmp0 (nonlinearity, "tanh") != 0)
        g_string_append_printf (s, ", nonlinearity=%s", nonlinearity != NULL ? nonlinearity : "None");
    }
  return g_string_free (s, FALSE);
}

static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  return gnn_rnn_cell_base_reset_parameters (GNN_RNN_CELL_BASE (module), NULL, error);
}

static void
gnn_rnn_cell_base_finalize (GObject *object)
{
  GnnRNNCellBasePrivate *priv = cell_priv (object);

  g_clear_object (&priv->generator);
  g_clear_pointer (&priv->bad_nonlinearity, g_free);
  G_OBJECT_CLASS (gnn_rnn_cell_base_parent_class)->finalize (object);
}

static void
gnn_rnn_cell_base_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  GnnRNNCellBasePrivate *priv = cell_priv (object);

  switch (prop_id)
    {
    case PROP_INPUT_SIZE: g_value_set_int64 (value, priv->input_size); break;
    case PROP_HIDDEN_SIZE: g_value_set_int64 (value, priv->hidden_size); break;
    case PROP_HAS_BIAS: g_value_set_boolean (value, priv->bias); break;
    case PROP_DTYPE: g_value_set_enum (value, priv->dtype); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_rnn_cell_base_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  GnnRNNCellBasePrivate *priv = cell_priv (object);

  switch (prop_id)
    {
    case PROP_INPUT_SIZE: priv->input_size = g_value_get_int64 (value); break;
    case PROP_HIDDEN_SIZE: priv->hidden_size = g_value_get_int64 (value); break;
    case PROP_HAS_BIAS: priv->bias = g_value_get_boolean (value); break;
    case PROP_DTYPE: priv->dtype = g_value_get_enum (value); break;
    case PROP_GENERATOR: g_set_object (&priv->generator, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_rnn_cell_base_class_init (GnnRNNCellBaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_rnn_cell_base_constructed;
  object_class->finalize = gnn_rnn_cell_base_finalize;
  object_class->get_property = gnn_rnn_cell_base_get_property;
  object_class->set_property = gnn_rnn_cell_base_set_property;
  module_class->forward_args = gnn_rnn_cell_base_forward_args;
  module_class->extra_repr = gnn_rnn_cell_base_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnRNNCellBase:input-size:
   *
   * The number of input features.
   *
   * Since: 0.1
   */
  properties[PROP_INPUT_SIZE] =
    g_param_spec_int64 ("input-size", NULL, NULL, G_MININT64, G_MAXINT64, 0, construct);
  /**
   * GnnRNNCellBase:hidden-size:
   *
   * The number of features of the hidden state.
   *
   * Since: 0.1
   */
  properties[PROP_HIDDEN_SIZE] =
    g_param_spec_int64 ("hidden-size", NULL, NULL, G_MININT64, G_MAXINT64, 0, construct);
  /**
   * GnnRNNCellBase:has-bias:
   *
   * Whether the cell has `bias_ih` and `bias_hh` (torch's `bias=`).
   *
   * Since: 0.1
   */
  properties[PROP_HAS_BIAS] = g_param_spec_boolean ("has-bias", NULL, NULL, TRUE, construct);
  /**
   * GnnRNNCellBase:dtype:
   *
   * The dtype of the parameters.
   *
   * Since: 0.1
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32, construct);
  /**
   * GnnRNNCellBase:generator:
   *
   * The generator the initial parameters are drawn from, used during
   * construction only; %NULL draws from the default generator.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnRNNCellBase:weight-ih:
   *
   * The `weight_ih` parameter `[gates · hidden_size, input_size]`.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "weight_ih", GNN_TYPE_PARAMETER);
  /**
   * GnnRNNCellBase:weight-hh:
   *
   * The `weight_hh` parameter `[gates · hidden_size, hidden_size]`.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "weight_hh", GNN_TYPE_PARAMETER);
  /**
   * GnnRNNCellBase:bias-ih:
   *
   * The `bias_ih` parameter `[gates · hidden_size]`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "bias_ih", GNN_TYPE_PARAMETER);
  /**
   * GnnRNNCellBase:bias-hh:
   *
   * The `bias_hh` parameter `[gates · hidden_size]`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "bias_hh", GNN_TYPE_PARAMETER);
}

static void
gnn_rnn_cell_base_init (GnnRNNCellBase *self)
{
  GnnRNNCellBasePrivate *priv = cell_priv (self);

  priv->bias = TRUE;
  priv->dtype = GNN_DTYPE_F32;
  priv->mode = GNN_RNN_MODE_TANH;
}

/**
 * gnn_rnn_cell_base_get_input_size:
 * @self: a recurrent cell
 *
 * Gets the number of input features.
 *
 * Returns: the value of [property@Gnn.RNNCellBase:input-size]
 *
 * Since: 0.1
 */
gint64
gnn_rnn_cell_base_get_input_size (GnnRNNCellBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_CELL_BASE (self), 0);
  return cell_priv (self)->input_size;
}

/**
 * gnn_rnn_cell_base_get_hidden_size:
 * @self: a recurrent cell
 *
 * Gets the number of features of the hidden state.
 *
 * Returns: the value of [property@Gnn.RNNCellBase:hidden-size]
 *
 * Since: 0.1
 */
gint64
gnn_rnn_cell_base_get_hidden_size (GnnRNNCellBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_CELL_BASE (self), 0);
  return cell_priv (self)->hidden_size;
}

/**
 * gnn_rnn_cell_base_reset_parameters:
 * @self: a recurrent cell
 * @generator: (nullable): the generator to draw from, or %NULL for the
 *   default generator
 * @error: return location for a #GError
 *
 * Re-initializes every parameter in place as torch's `reset_parameters()`
 * does: U(-1/√hidden_size, 1/√hidden_size).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_rnn_cell_base_reset_parameters (GnnRNNCellBase  *self,
                                    GnnGenerator    *generator,
                                    GError         **error)
{
  g_return_val_if_fail (GNN_IS_RNN_CELL_BASE (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);
  return gnn_rnn_init_uniform (GNN_MODULE (self), cell_priv (self)->hidden_size, generator, error);
}

/* --- the cells --------------------------------------------------------------------- */

/**
 * GnnRNNCell:
 *
 * An Elman cell, like `torch.nn.RNNCell(input_size, hidden_size,
 * bias=True, nonlinearity='tanh')`: h' = f(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh).
 * See [class@Gnn.RNNCellBase].
 *
 * Since: 0.1
 */
struct _GnnRNNCell
{
  GnnRNNCellBase parent_instance;

  char *nonlinearity;
};

enum {
  CELL_PROP_0,
  CELL_PROP_NONLINEARITY,
};

G_DEFINE_FINAL_TYPE (GnnRNNCell, gnn_rnn_cell, GNN_TYPE_RNN_CELL_BASE)

static void
gnn_rnn_cell_finalize (GObject *object)
{
  g_free (GNN_RNN_CELL (object)->nonlinearity);
  G_OBJECT_CLASS (gnn_rnn_cell_parent_class)->finalize (object);
}

static void
gnn_rnn_cell_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  if (prop_id == CELL_PROP_NONLINEARITY)
    g_value_set_string (value, GNN_RNN_CELL (object)->nonlinearity);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_rnn_cell_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  GnnRNNCell *self = GNN_RNN_CELL (object);
  const char *name = g_value_get_string (value);
  gboolean relu = g_strcmp0 (name, "relu") == 0;

  if (prop_id != CELL_PROP_NONLINEARITY)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_free (self->nonlinearity);
  self->nonlinearity = g_strdup (name);
  set_mode (self, relu ? GNN_RNN_MODE_RELU : GNN_RNN_MODE_TANH,
            relu || g_strcmp0 (name, "tanh") == 0 ? NULL : name != NULL ? name : "None");
}

static void
gnn_rnn_cell_class_init (GnnRNNCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_rnn_cell_finalize;
  object_class->get_property = gnn_rnn_cell_get_property;
  object_class->set_property = gnn_rnn_cell_set_property;
  GNN_MODULE_CLASS (klass)->forward = one_tensor_forward;
  GNN_MODULE_CLASS (klass)->forward_args = one_output_forward_args;

  /**
   * GnnRNNCell:nonlinearity:
   *
   * "tanh" or "relu"; forward refuses any other name ("Unknown
   * nonlinearity: x"), as torch does.
   *
   * Since: 0.1
   */
  g_object_class_install_property (object_class, CELL_PROP_NONLINEARITY,
    g_param_spec_string ("nonlinearity", NULL, NULL, "tanh",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
gnn_rnn_cell_init (GnnRNNCell *self)
{
}

/**
 * GnnLSTMCell:
 *
 * An LSTM cell, like `torch.nn.LSTMCell(input_size, hidden_size,
 * bias=True)`: forward returns `(h', c')`. See [class@Gnn.RNNCellBase] and
 * [class@Gnn.LSTM] for the equations.
 *
 * Since: 0.1
 */
struct _GnnLSTMCell
{
  GnnRNNCellBase parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnLSTMCell, gnn_lstm_cell, GNN_TYPE_RNN_CELL_BASE)

static void
gnn_lstm_cell_class_init (GnnLSTMCellClass *klass)
{
}

static void
gnn_lstm_cell_init (GnnLSTMCell *self)
{
  set_mode (self, GNN_RNN_MODE_LSTM, NULL);
}

/**
 * GnnGRUCell:
 *
 * A GRU cell, like `torch.nn.GRUCell(input_size, hidden_size, bias=True)`.
 * See [class@Gnn.RNNCellBase] and [class@Gnn.GRU] for the equations.
 *
 * Since: 0.1
 */
struct _GnnGRUCell
{
  GnnRNNCellBase parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnGRUCell, gnn_gru_cell, GNN_TYPE_RNN_CELL_BASE)

static void
gnn_gru_cell_class_init (GnnGRUCellClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = one_tensor_forward;
  GNN_MODULE_CLASS (klass)->forward_args = one_output_forward_args;
}

static void
gnn_gru_cell_init (GnnGRUCell *self)
{
  set_mode (self, GNN_RNN_MODE_GRU, NULL);
}

/* --- constructors ------------------------------------------------------------------ */

/**
 * gnn_rnn_cell_new:
 * @input_size: the number of input features
 * @hidden_size: the number of features of the hidden state
 * @bias: whether the cell has biases
 * @nonlinearity: "tanh" or "relu"
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the default generator
 * @error: return location for a #GError
 *
 * Creates an Elman cell of float32 parameters, like `torch.nn.RNNCell
 * (input_size, hidden_size, bias, nonlinearity)`.
 *
 * Returns: (transfer full): the cell, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRNNCell *
gnn_rnn_cell_new (gint64         input_size,
                  gint64         hidden_size,
                  gboolean       bias,
                  const char    *nonlinearity,
                  GnnGenerator  *generator,
                  GError       **error)
{
  g_return_val_if_fail (nonlinearity != NULL, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_nn_initable_new (GNN_TYPE_RNN_CELL, error, "input-size", input_size,
                              "hidden-size", hidden_size, "has-bias", bias,
                              "nonlinearity", nonlinearity, "generator", generator, NULL);
}

/**
 * gnn_lstm_cell_new:
 * @input_size: the number of input features
 * @hidden_size: the number of features of the hidden state
 * @bias: whether the cell has biases
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the default generator
 * @error: return location for a #GError
 *
 * Creates an LSTM cell of float32 parameters, like `torch.nn.LSTMCell
 * (input_size, hidden_size, bias)`.
 *
 * Returns: (transfer full): the cell, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLSTMCell *
gnn_lstm_cell_new (gint64         input_size,
                   gint64         hidden_size,
                   gboolean       bias,
                   GnnGenerator  *generator,
                   GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_nn_initable_new (GNN_TYPE_LSTM_CELL, error, "input-size", input_size,
                              "hidden-size", hidden_size, "has-bias", bias,
                              "generator", generator, NULL);
}

/**
 * gnn_gru_cell_new:
 * @input_size: the number of input features
 * @hidden_size: the number of features of the hidden state
 * @bias: whether the cell has biases
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the default generator
 * @error: return location for a #GError
 *
 * Creates a GRU cell of float32 parameters, like `torch.nn.GRUCell
 * (input_size, hidden_size, bias)`.
 *
 * Returns: (transfer full): the cell, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGRUCell *
gnn_gru_cell_new (gint64         input_size,
                  gint64         hidden_size,
                  gboolean       bias,
                  GnnGenerator  *generator,
                  GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_nn_initable_new (GNN_TYPE_GRU_CELL, error, "input-size", input_size,
                              "hidden-size", hidden_size, "has-bias", bias,
                              "generator", generator, NULL);
}
