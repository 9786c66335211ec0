/* gnn-unflatten.c: one dimension into several (torch.nn.Unflatten)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

/**
 * GnnUnflatten:
 *
 * Splits dimension [property@Gnn.Unflatten:dim] of its input into the
 * sizes [property@Gnn.Unflatten:unflattened-size] (one of them may be -1,
 * inferred), `torch.nn.Unflatten`: a reshape, the inverse of
 * [class@Gnn.Flatten]. It has no parameters.
 *
 * Since: 0.1
 */
struct _GnnUnflatten
{
  GnnModule parent_instance;
  gint64    dim;
  gint64    sizes[GNN_MAX_DIMS];
  guint     n_sizes;
};

G_DEFINE_FINAL_TYPE (GnnUnflatten, gnn_unflatten, GNN_TYPE_MODULE)

enum
{
  PROP_0,
  PROP_DIM,
  PROP_UNFLATTENED_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GnnTensor *
gnn_unflatten_forward (GnnModule  *module,
                       GnnTensor  *input,
                       GError    **error)
{
  GnnUnflatten *self = GNN_UNFLATTEN (module);
  guint ndim = gnn_tensor_get_ndim (input), d;
  const gint64 *shape = gnn_tensor_get_shape (input, NULL);
  gint64 out[GNN_MAX_DIMS], product = 1;
  gint inferred = -1;

  if (self->dim < G_MININT || self->dim > G_MAXINT || !gnn_wrap_dim ((gint) self->dim, ndim, &d, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "Dimension out of range (got %" G_GINT64_FORMAT ")",
                     self->dim);
      return NULL;
    }
  if (ndim - 1 + self->n_sizes > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "unflatten: the result would have more than %d dims",
                   GNN_MAX_DIMS);
      return NULL;
    }
  for (guint i = 0; i < self->n_sizes; i++)
    if (self->sizes[i] == -1 && inferred < 0)
      inferred = (gint) i;
    else
      product *= self->sizes[i];
  if (self->n_sizes == 0 || (inferred < 0 ? product != shape[d] : product == 0 || shape[d] % product != 0))
    {
      g_autofree char *ss = gnn_shape_to_string (self->sizes, self->n_sizes);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "unflatten: Provided sizes %s don't multiply up to the size of dim %u (%" G_GINT64_FORMAT
                   ") in the input tensor", ss, d, shape[d]);
      return NULL;
    }
  memcpy (out, shape, sizeof (gint64) * d);
  memcpy (out + d, self->sizes, sizeof (gint64) * self->n_sizes);
  if (inferred >= 0)
    out[d + (guint) inferred] = shape[d] / product;
  memcpy (out + d + self->n_sizes, shape + d + 1, sizeof (gint64) * (ndim - d - 1));
  return gnn_tensor_reshape (input, out, ndim - 1 + self->n_sizes, error);
}

static char *
gnn_unflatten_extra_repr (GnnModule *module)
{
  GnnUnflatten *self = GNN_UNFLATTEN (module);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "dim=%" G_GINT64_FORMAT ", unflattened_size=(", self->dim);
  for (guint i = 0; i < self->n_sizes; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", self->sizes[i]);
  g_string_append (s, self->n_sizes == 1 ? ",)" : ")");
  return g_string_free (s, FALSE);
}

static void
gnn_unflatten_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  GnnUnflatten *self = GNN_UNFLATTEN (object);

  switch (prop_id)
    {
    case PROP_DIM:
      g_value_set_int64 (value, self->dim);
      break;
    case PROP_UNFLATTENED_SIZE:
      g_value_take_variant (value, g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, self->sizes, self->n_sizes,
                                                              sizeof (gint64)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_unflatten_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  GnnUnflatten *self = GNN_UNFLATTEN (object);

  switch (prop_id)
    {
    case PROP_DIM:
      self->dim = g_value_get_int64 (value);
      break;
    case PROP_UNFLATTENED_SIZE:
      {
        GVariant *v = g_value_get_variant (value);
        gsize n = 0;
        const gint64 *sizes = v != NULL ? g_variant_get_fixed_array (v, &n, sizeof (gint64)) : NULL;

        /* more than GNN_MAX_DIMS sizes: kept as many, which forward refuses */
        self->n_sizes = (guint) MIN (n, GNN_MAX_DIMS);
        if (n > 0)
          memcpy (self->sizes, sizes, sizeof (gint64) * self->n_sizes);
        if (n > GNN_MAX_DIMS)
          self->n_sizes = GNN_MAX_DIMS;
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_unflatten_class_init (GnnUnflattenClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = gnn_unflatten_get_property;
  object_class->set_property = gnn_unflatten_set_property;
  module_class->forward = gnn_unflatten_forward;
  module_class->extra_repr = gnn_unflatten_extra_repr;

  /**
   * GnnUnflatten:dim:
   *
   * The dimension to split (`dim`), negative counting from the end.
   *
   * Since: 0.1
   */
  properties[PROP_DIM] = g_param_spec_int64 ("dim", NULL, NULL, G_MININT32, G_MAXINT32, 0, flags);
  /**
   * GnnUnflatten:unflattened-size:
   *
   * The sizes the dimension becomes (`unflattened_size`, an `ax` variant);
   * one of them may be -1.
   *
   * Since: 0.1
   */
  properties[PROP_UNFLATTENED_SIZE] = g_param_spec_variant ("unflattened-size", NULL, NULL, G_VARIANT_TYPE ("ax"),
                                                            NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_unflatten_init (GnnUnflatten *self)
{
}

/**
 * gnn_unflatten_new:
 * @dim: the dimension to split, negative counting from the end
 * @unflattened_size: (array length=n_unflattened_size): the sizes it
 *   becomes (one may be -1)
 * @n_unflattened_size: the number of sizes
 *
 * Creates `torch.nn.Unflatten(dim, unflattened_size)`; forward checks the
 * sizes against its input.
 *
 * Returns: (transfer full): the new layer
 *
 * Since: 0.1
 */
GnnUnflatten *
gnn_unflatten_new (gint64        dim,
                   const gint64 *unflattened_size,
                   guint         n_unflattened_size)
{
  g_autoptr(GVariant) sizes = NULL;

  g_return_val_if_fail (unflattened_size != NULL || n_unflattened_size == 0, NULL);
  sizes = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, unflattened_size,
                                                         n_unflattened_size, sizeof (gint64)));
  return g_object_new (GNN_TYPE_UNFLATTEN, "dim", CLAMP (dim, G_MININT32, G_MAXINT32), "unflattened-size", sizes,
                       NULL);
}
