/* gnn-local-response-norm.c: local response normalization
 * (torch.nn.LocalResponseNorm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnLocalResponseNorm:
 *
 * Local response normalization over the channels of `[N, C, *]` inputs,
 * `torch.nn.LocalResponseNorm`, computed by
 * [method@Gnn.Tensor.local_response_norm]. It has no parameters.
 *
 * Since: 0.1
 */
struct _GnnLocalResponseNorm
{
  GnnModule parent_instance;
  gint64    size;
  double    alpha, beta, k;
};

G_DEFINE_FINAL_TYPE (GnnLocalResponseNorm, gnn_local_response_norm, GNN_TYPE_MODULE)

enum
{
  PROP_0,
  PROP_SIZE,
  PROP_ALPHA,
  PROP_BETA,
  PROP_K,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GnnTensor *
gnn_local_response_norm_forward (GnnModule  *module,
                                 GnnTensor  *input,
                                 GError    **error)
{
  GnnLocalResponseNorm *self = GNN_LOCAL_RESPONSE_NORM (module);

  return gnn_tensor_local_response_norm (input, self->size, self->alpha, self->beta, self->k, error);
}

static char *
gnn_local_response_norm_extra_repr (GnnModule *module)
{
  GnnLocalResponseNorm *self = GNN_LOCAL_RESPONSE_NORM (module);
  g_autofree char *alpha = gnn_nn_format_float (self->alpha);
  g_autofree char *beta = gnn_nn_format_float (self->beta);
  g_autofree char *k = gnn_nn_format_float (self->k);

  return g_strdup_printf ("%" G_GINT64_FORMAT ", alpha=%s, beta=%s, k=%s", self->size, alpha, beta, k);
}

static double *
double_field (GnnLocalResponseNorm *self,
              guint                 prop_id)
{
  return prop_id == PROP_ALPHA ? &self->alpha : prop_id == PROP_BETA ? &self->beta
         : prop_id == PROP_K ? &self->k : NULL;
}

static void
gnn_local_response_norm_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GnnLocalResponseNorm *self = GNN_LOCAL_RESPONSE_NORM (object);

  if (prop_id == PROP_SIZE)
    g_value_set_int64 (value, self->size);
  else if (double_field (self, prop_id) != NULL)
    g_value_set_double (value, *double_field (self, prop_id));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_local_response_norm_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GnnLocalResponseNorm *self = GNN_LOCAL_RESPONSE_NORM (object);

  if (prop_id == PROP_SIZE)
    self->size = g_value_get_int64 (value);
  else if (double_field (self, prop_id) != NULL)
    *double_field (self, prop_id) = g_value_get_double (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_local_response_norm_class_init (GnnLocalResponseNormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = gnn_local_response_norm_get_property;
  object_class->set_property = gnn_local_response_norm_set_property;
  module_class->forward = gnn_local_response_norm_forward;
  module_class->extra_repr = gnn_local_response_norm_extra_repr;

  /**
   * GnnLocalResponseNorm:size:
   *
   * The number of neighbouring channels summed over (`size`).
   *
   * Since: 0.1
   */
  properties[PROP_SIZE] = gnn_nn_int_property ("size", -G_MAXINT32, 1);   /* checked by forward */
  /**
   * GnnLocalResponseNorm:alpha:
   *
   * The multiplicative factor (`alpha`).
   *
   * Since: 0.1
   */
  properties[PROP_ALPHA] = g_param_spec_double ("alpha", NULL, NULL, -INFINITY, INFINITY, 1e-4, flags);
  /**
   * GnnLocalResponseNorm:beta:
   *
   * The exponent (`beta`).
   *
   * Since: 0.1
   */
  properties[PROP_BETA] = g_param_spec_double ("beta", NULL, NULL, -INFINITY, INFINITY, 0.75, flags);
  /**
   * GnnLocalResponseNorm:k:
   *
   * The additive constant (`k`).
   *
   * Since: 0.1
   */
  properties[PROP_K] = g_param_spec_double ("k", NULL, NULL, -INFINITY, INFINITY, 1.0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_local_response_norm_init (GnnLocalResponseNorm *self)
{
  self->size = 1;
  self->alpha = 1e-4;
  self->beta = 0.75;
  self->k = 1.0;
}

/**
 * gnn_local_response_norm_new:
 * @size: the number of neighbouring channels summed over (> 0)
 * @alpha: the multiplicative factor (PyTorch's default is 1e-4)
 * @beta: the exponent (default 0.75)
 * @k: the additive constant (default 1.0)
 *
 * Creates `torch.nn.LocalResponseNorm(size, alpha, beta, k)`.
 *
 * Returns: (transfer full): the new layer
 *
 * Since: 0.1
 */
GnnLocalResponseNorm *
gnn_local_response_norm_new (gint64 size,
                             double alpha,
                             double beta,
                             double k)
{
  return g_object_new (GNN_TYPE_LOCAL_RESPONSE_NORM, "size", CLAMP (size, -G_MAXINT32, G_MAXINT32), "alpha", alpha,
                       "beta", beta, "k", k, NULL);
}
