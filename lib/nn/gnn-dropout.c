/* gnn-dropout.c: random zeroing during training (torch.nn.Dropout)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "tensor/gnn-dtype-check-private.h"

/**
 * GnnDropout:
 *
 * Randomly zeroes elements during training, like `torch.nn.Dropout(p=0.5,
 * inplace=False)`: in training mode (see [property@Gnn.Module:training])
 * each element is zeroed with probability [property@Gnn.Dropout:p] and the
 * others are scaled by 1 / (1 - p) (inverted dropout), so evaluation needs
 * no rescaling. In evaluation mode, or when p is 0 or the input is empty,
 * forward returns the input itself; when p is 1 every element is zeroed.
 *
 * The mask is drawn from [property@Gnn.Dropout:generator] (an element is
 * kept when a uniform draw in [0, 1) is below 1 - p); without one, from
 * the default generator ([func@Gnn.Generator.get_default]). Inputs
 * must be float32 or float64. Forward is [func@Gnn.dropout] with the
 * layer's settings.
 *
 * Since: 0.1
 */
struct _GnnDropout
{
  GnnModule parent_instance;

  double p;
  gboolean inplace;
  GnnGenerator *generator;
};

enum {
  PROP_0,
  PROP_P,
  PROP_INPLACE,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnDropout, gnn_dropout, GNN_TYPE_MODULE)

/* Torch's check of p, for F.dropout and the layer's constructor. */
static gboolean
check_p (double   p,
         GError **error)
{
  g_autofree char *text = NULL;

  if (p >= 0.0 && p <= 1.0)
    return TRUE;
  text = gnn_nn_format_float (p);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "dropout probability has to be between 0 and 1, but got %s", text);
  return FALSE;
}

/* The scaled keep mask (1 / (1 - p) or 0 per element) for @input, drawn
 * from @generator or the default one. */
static GnnTensor *
make_mask (double         p,
           GnnGenerator  *generator,
           GnnTensor     *input,
           GError       **error)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (input, &ndim);
  GnnDType dtype = gnn_tensor_get_dtype (input);
  g_autoptr(GnnTensor) mask = NULL;
  GnnGenerator *gen;
  double keep = 1.0 - p;
  double scale = 1.0 / keep;
  gint64 n;

  if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
    {
      /* torch multiplies by a float mask in place of the input's dtype */
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "result type Float can't be cast to the desired output type %s",
                   gnn_torch_scalar_name (dtype));
      return NULL;
    }
  if (p == 1.0)
    return gnn_tensor_new_scalar (0.0, dtype);
  mask = gnn_tensor_empty (shape, ndim, dtype, error);
  if (mask == NULL)
    return NULL;
  n = gnn_tensor_get_numel (mask);

  gen = generator != NULL ? generator : gnn_nn_default_generator_lock ();
  if (dtype == GNN_DTYPE_F32)
    {
      float *data = gnn_tensor_get_data (mask);

      for (gint64 i = 0; i < n; i++)
        data[i] = gnn_generator_next_double (gen) < keep ? (float) scale : 0.0f;
    }
  else
    {
      double *data = gnn_tensor_get_data (mask);

      for (gint64 i = 0; i < n; i++)
        data[i] = gnn_generator_next_double (gen) < keep ? scale : 0.0;
    }
  if (generator == NULL)
    gnn_nn_default_generator_unlock ();
  return g_steal_pointer (&mask);
}

/**
 * gnn_dropout:
 * @input: a float32 or float64 tensor
 * @p: the probability of an element to be zeroed, in [0, 1]
 * @training: whether to apply dropout (%FALSE returns @input itself)
 * @inplace: whether to zero and scale @input itself and return it
 * @generator: (nullable): the generator of the mask, or %NULL for the
 *   library-default one
 * @error: return location for a #GError
 *
 * Randomly zeroes elements of @input with probability @p and scales the
 * others by 1 / (1 - p), like
 * `torch.nn.functional.dropout(input, p, training, inplace)` (what
 * [class@Gnn.Dropout] computes in training mode): the product with the mask
 * is recorded (PyTorch's `MulBackward0`). With @training %FALSE, @p 0 or an
 * empty input, @input itself is returned; with @p 1 every element is
 * zeroed.
 *
 * Returns: (transfer full): the result (@input itself when @inplace), or
 *   %NULL with @error set for @p outside [0, 1] ("dropout probability has to
 *   be between 0 and 1, but got 1.5") or an integer @input (PyTorch's
 *   messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_dropout (GnnTensor     *input,
             double         p,
             gboolean       training,
             gboolean       inplace,
             GnnGenerator  *generator,
             GError       **error)
{
  g_autoptr(GnnTensor) mask = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  if (!check_p (p, error))
    return NULL;
  if (!training || p == 0.0 || gnn_tensor_get_numel (input) == 0)
    return g_object_ref (input);
  if (p == 1.0)
    mask = gnn_tensor_new_scalar (0.0, gnn_tensor_get_dtype (input));
  else
    mask = make_mask (p, generator, input, error);
  if (mask == NULL)
    return NULL;
  if (inplace)
    return gnn_tensor_mul_ (input, mask, error) ? g_object_ref (input) : NULL;
  return gnn_tensor_mul (input, mask, error);
}

static GnnTensor *
gnn_dropout_forward (GnnModule  *module,
                     GnnTensor  *input,
                     GError    **error)
{
  GnnDropout *self = GNN_DROPOUT (module);

  return gnn_dropout (input, self->p, gnn_module_get_training (module), self->inplace,
                      self->generator, error);
}

static char *
gnn_dropout_extra_repr (GnnModule *module)
{
  GnnDropout *self = GNN_DROPOUT (module);
  g_autofree char *p = gnn_nn_format_float (self->p);

  return g_strdup_printf ("p=%s, inplace=%s", p, gnn_nn_bool_str (self->inplace));
}

static void
gnn_dropout_finalize (GObject *object)
{
  GnnDropout *self = GNN_DROPOUT (object);

  g_clear_object (&self->generator);
  G_OBJECT_CLASS (gnn_dropout_parent_class)->finalize (object);
}

static void
gnn_dropout_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  GnnDropout *self = GNN_DROPOUT (object);

  switch (prop_id)
    {
    case PROP_P:
      g_value_set_double (value, self->p);
      break;
    case PROP_INPLACE:
      g_value_set_boolean (value, self->inplace);
      break;
    case PROP_GENERATOR:
      g_value_set_object (value, self->generator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_dropout_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  GnnDropout *self = GNN_DROPOUT (object);

  switch (prop_id)
    {
    case PROP_P:
      self->p = g_value_get_double (value);
      break;
    case PROP_INPLACE:
      self->inplace = g_value_get_boolean (value);
      break;
    case PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_dropout_class_init (GnnDropoutClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->finalize = gnn_dropout_finalize;
  object_class->get_property = gnn_dropout_get_property;
  object_class->set_property = gnn_dropout_set_property;
  module_class->forward = gnn_dropout_forward;
  module_class->extra_repr = gnn_dropout_extra_repr;

  /**
   * GnnDropout:p:
   *
   * The probability of an element to be zeroed, in [0, 1].
   *
   * Since: 0.1
   */
  properties[PROP_P] =
    g_param_spec_double ("p", NULL, NULL, 0.0, 1.0, 0.5,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDropout:inplace:
   *
   * Whether forward modifies its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  properties[PROP_INPLACE] =
    g_param_spec_boolean ("inplace", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDropout:generator:
   *
   * The generator the masks are drawn from, or %NULL for the
   * library-default one.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_dropout_init (GnnDropout *self)
{
  self->p = 0.5;
}

/**
 * gnn_dropout_new:
 * @p: the probability of an element to be zeroed
 * @inplace: whether forward modifies its input
 * @generator: (nullable): the generator of the masks, or %NULL for the
 *   library-default one
 * @error: return location for a #GError
 *
 * Creates a dropout layer, like `torch.nn.Dropout(p, inplace)`.
 *
 * Returns: (transfer full): a new dropout layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, "dropout probability has to be between 0
 *   and 1, but got 1.5")
 *
 * Since: 0.1
 */
GnnDropout *
gnn_dropout_new (double         p,
                 gboolean       inplace,
                 GnnGenerator  *generator,
                 GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);

  if (!check_p (p, error))
    return NULL;
  return g_object_new (GNN_TYPE_DROPOUT, "p", p, "inplace", inplace, "generator", generator, NULL);
}

/**
 * gnn_dropout_get_p:
 * @self: a dropout layer
 *
 * Gets the probability of an element to be zeroed.
 *
 * Returns: the value of [property@Gnn.Dropout:p]
 *
 * Since: 0.1
 */
double
gnn_dropout_get_p (GnnDropout *self)
{
  g_return_val_if_fail (GNN_IS_DROPOUT (self), 0.0);

  return self->p;
}

/**
 * gnn_dropout_get_inplace:
 * @self: a dropout layer
 *
 * Gets whether the layer zeroes elements of its input in place.
 *
 * Returns: the value of [property@Gnn.Dropout:inplace]
 *
 * Since: 0.1
 */
gboolean
gnn_dropout_get_inplace (GnnDropout *self)
{
  g_return_val_if_fail (GNN_IS_DROPOUT (self), FALSE);

  return self->inplace;
}

/**
 * gnn_dropout_get_generator:
 * @self: a dropout layer
 *
 * Gets the generator that draws the dropout masks.
 *
 * Returns: (transfer none) (nullable): the value of
 *   [property@Gnn.Dropout:generator]
 *
 * Since: 0.1
 */
GnnGenerator *
gnn_dropout_get_generator (GnnDropout *self)
{
  g_return_val_if_fail (GNN_IS_DROPOUT (self), NULL);

  return self->generator;
}
