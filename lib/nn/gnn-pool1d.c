/* gnn-pool1d.c: 1-d pooling layers (torch.nn.MaxPool1d, torch.nn.AvgPool1d)
 * sharing one configuration and property table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnMaxPool1d:
 *
 * 1-d max pooling over `[N, C, L]` or `[C, L]` inputs,
 * `torch.nn.MaxPool1d`, computed by [method@Gnn.Tensor.max_pool1d]. It has
 * no parameters; the configuration is held in construct-only properties,
 * checked by forward with torch's messages.
 *
 * Since: 0.1
 */

/**
 * GnnAvgPool1d:
 *
 * 1-d average pooling over `[N, C, L]` or `[C, L]` inputs,
 * `torch.nn.AvgPool1d`, computed by [method@Gnn.Tensor.avg_pool1d]. It has
 * no parameters; the configuration is held in construct-only properties,
 * checked by forward with torch's messages.
 *
 * Since: 0.1
 */

enum
{
  PROP_0,
  PROP_KERNEL_SIZE,
  PROP_STRIDE,
  PROP_PADDING,
  PROP_DILATION,           /* max only */
  PROP_CEIL_MODE,
  PROP_COUNT_INCLUDE_PAD,  /* avg only */
  PROP_RETURN_INDICES,     /* max only */
  N_PROPS
};

typedef struct
{
  gint64   kernel_size, stride, padding, dilation;
  gboolean ceil_mode, count_include_pad, return_indices;
} Pool1d;

struct _GnnMaxPool1d
{
  GnnModule parent_instance;
  Pool1d    pool;
};

struct _GnnAvgPool1d
{
  GnnModule parent_instance;
  Pool1d    pool;
};

G_DEFINE_FINAL_TYPE (GnnMaxPool1d, gnn_max_pool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAvgPool1d, gnn_avg_pool1d, GNN_TYPE_MODULE)

static Pool1d *
pool_of (gpointer object)
{
  if (GNN_IS_AVG_POOL1D (object))
    return &GNN_AVG_POOL1D (object)->pool;
  return &GNN_MAX_POOL1D (object)->pool;
}

static GnnTensor *
max_forward (GnnModule   *module,
             GnnTensor   *input,
             GnnTensor  **indices,
             GError     **error)
{
  Pool1d *p = pool_of (module);

  if (indices != NULL)
    return gnn_tensor_max_pool1d_with_indices (input, p->kernel_size, p->stride, p->padding, p->dilation,
                                               p->ceil_mode, indices, error);
  return gnn_tensor_max_pool1d (input, p->kernel_size, p->stride, p->padding, p->dilation, p->ceil_mode, error);
}

static GnnTensor *
pool_forward (GnnModule  *module,
              GnnTensor  *input,
              GError    **error)
{
  Pool1d *p = pool_of (module);

  if (GNN_IS_AVG_POOL1D (module))
    return gnn_tensor_avg_pool1d (input, p->kernel_size, p->stride, p->padding, p->ceil_mode,
                                  p->count_include_pad, error);
  return gnn_nn_forward_without_indices (module, input, p->return_indices, max_forward, error);
}

/* torch's `(output, indices)` with return_indices. */
static GnnValue *
max_forward_args (GnnModule  *module,
                  GnnValue   *args,
                  GnnValue   *kwargs,
                  GError    **error)
{
  return gnn_nn_forward_with_indices (module, args, kwargs, pool_of (module)->return_indices, max_forward,
                                      error);
}

static char *
pool_extra_repr (GnnModule *module)
{
  Pool1d *p = pool_of (module);
  gint64 stride = p->stride == 0 ? p->kernel_size : p->stride;

  /* torch keeps MaxPool1d's ints as given and makes AvgPool1d's 1-tuples */
  if (GNN_IS_AVG_POOL1D (module))
    return g_strdup_printf ("kernel_size=(%" G_GINT64_FORMAT ",), stride=(%" G_GINT64_FORMAT ",), padding=(%"
                            G_GINT64_FORMAT ",)", p->kernel_size, stride, p->padding);
  return g_strdup_printf ("kernel_size=%" G_GINT64_FORMAT ", stride=%" G_GINT64_FORMAT ", padding=%"
                          G_GINT64_FORMAT ", dilation=%" G_GINT64_FORMAT ", ceil_mode=%s", p->kernel_size,
                          stride, p->padding, p->dilation, gnn_nn_bool_str (p->ceil_mode));
}

static gint64 *
int_field (Pool1d *p,
           guint   prop_id)
{
  switch (prop_id)
    {
    case PROP_KERNEL_SIZE: return &p->kernel_size;
    case PROP_STRIDE: return &p->stride;
    case PROP_PADDING: return &p->padding;
    case PROP_DILATION: return &p->dilation;
    default: return NULL;
    }
}

static gboolean *
bool_field (Pool1d *p,
            guint   prop_id)
{
  return prop_id == PROP_CEIL_MODE ? &p->ceil_mode
         : prop_id == PROP_COUNT_INCLUDE_PAD ? &p->count_include_pad
         : prop_id == PROP_RETURN_INDICES ? &p->return_indices : NULL;
}

static void
pool_get_property (GObject    *object,
                   guint       prop_id,
                   GValue     *value,
                   GParamSpec *pspec)
{
  Pool1d *p = pool_of (object);

  if (int_field (p, prop_id) != NULL)
    g_value_set_int64 (value, *int_field (p, prop_id));
  else if (bool_field (p, prop_id) != NULL)
    g_value_set_boolean (value, *bool_field (p, prop_id));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
pool_set_property (GObject      *object,
                   guint         prop_id,
                   const GValue *value,
                   GParamSpec   *pspec)
{
  Pool1d *p = pool_of (object);

  if (int_field (p, prop_id) != NULL)
    *int_field (p, prop_id) = g_value_get_int64 (value);
  else if (bool_field (p, prop_id) != NULL)
    *bool_field (p, prop_id) = g_value_get_boolean (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* Installs the properties both layers have, plus dilation (max) or
 * count-include-pad (avg). Any int: bad values are forward's errors. */
static void
pool_class_init (GObjectClass *object_class,
                 gboolean      avg)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);

  object_class->get_property = pool_get_property;
  object_class->set_property = pool_set_property;
  module_class->forward = pool_forward;
  module_class->extra_repr = pool_extra_repr;
  g_object_class_install_property (object_class, PROP_KERNEL_SIZE, gnn_nn_int_property ("kernel-size", -G_MAXINT32, 1));
  g_object_class_install_property (object_class, PROP_STRIDE, gnn_nn_int_property ("stride", -G_MAXINT32, 0));
  g_object_class_install_property (object_class, PROP_PADDING, gnn_nn_int_property ("padding", -G_MAXINT32, 0));
  if (!avg)
    {
      g_object_class_install_property (object_class, PROP_DILATION,
                                       gnn_nn_int_property ("dilation", -G_MAXINT32, 1));
      g_object_class_install_property (object_class, PROP_RETURN_INDICES,
                                       gnn_nn_bool_property ("return-indices", FALSE));
      module_class->forward_args = max_forward_args;
    }
  g_object_class_install_property (object_class, PROP_CEIL_MODE, gnn_nn_bool_property ("ceil-mode", FALSE));
  if (avg)
    g_object_class_install_property (object_class, PROP_COUNT_INCLUDE_PAD,
                                     gnn_nn_bool_property ("count-include-pad", TRUE));
}

static void
pool_init (Pool1d *p)
{
  p->kernel_size = p->dilation = 1;
  p->count_include_pad = TRUE;
}

static void
gnn_max_pool1d_class_init (GnnMaxPool1dClass *klass)
{
  /**
   * GnnMaxPool1d:kernel-size:
   *
   * The window length (`kernel_size`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool1d:stride:
   *
   * The stride (`stride`); 0 means the kernel size (torch's `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool1d:padding:
   *
   * The implicit -inf padding on both sides (`padding`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool1d:dilation:
   *
   * The spacing between window taps (`dilation`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool1d:ceil-mode:
   *
   * Whether to round the output size up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool1d:return-indices:
   *
   * Whether a call returns torch's `(output, indices)`, the indices as
   * [method@Gnn.Tensor.max_unpool] takes them (`return_indices`); the
   * one-tensor [method@Gnn.Module.call] then fails.
   *
   * Since: 0.1
   */
  pool_class_init (G_OBJECT_CLASS (klass), FALSE);
}

static void
gnn_avg_pool1d_class_init (GnnAvgPool1dClass *klass)
{
  /**
   * GnnAvgPool1d:kernel-size:
   *
   * The window length (`kernel_size`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool1d:stride:
   *
   * The stride (`stride`); 0 means the kernel size (torch's `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool1d:padding:
   *
   * The implicit zero padding on both sides (`padding`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool1d:ceil-mode:
   *
   * Whether to round the output size up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool1d:count-include-pad:
   *
   * Whether the zero padding counts in the divisor (`count_include_pad`).
   *
   * Since: 0.1
   */
  pool_class_init (G_OBJECT_CLASS (klass), TRUE);
}

static void
gnn_max_pool1d_init (GnnMaxPool1d *self)
{
  pool_init (&self->pool);
}

static void
gnn_avg_pool1d_init (GnnAvgPool1d *self)
{
  pool_init (&self->pool);
}

/**
 * gnn_max_pool1d_new:
 * @kernel_size: the window length
 * @stride: the stride, or 0 for @kernel_size
 * @padding: the implicit -inf padding on both sides
 * @dilation: the spacing between window taps
 * @ceil_mode: whether to round the output size up
 *
 * Creates a 1-d max pooling layer, `torch.nn.MaxPool1d (kernel_size,
 * stride, padding, dilation, ceil_mode=ceil_mode)`; forward checks the
 * values.
 *
 * Returns: (transfer full): the new layer
 *
 * Since: 0.1
 */
GnnMaxPool1d *
gnn_max_pool1d_new (gint64   kernel_size,
                    gint64   stride,
                    gint64   padding,
                    gint64   dilation,
                    gboolean ceil_mode)
{
  return g_object_new (GNN_TYPE_MAX_POOL1D, "kernel-size", CLAMP (kernel_size, -G_MAXINT32, G_MAXINT32),
                       "stride", CLAMP (stride, -G_MAXINT32, G_MAXINT32),
                       "padding", CLAMP (padding, -G_MAXINT32, G_MAXINT32),
                       "dilation", CLAMP (dilation, -G_MAXINT32, G_MAXINT32), "ceil-mode", ceil_mode, NULL);
}

/**
 * gnn_avg_pool1d_new:
 * @kernel_size: the window length
 * @stride: the stride, or 0 for @kernel_size
 * @padding: the implicit zero padding on both sides
 * @ceil_mode: whether to round the output size up
 * @count_include_pad: whether the zero padding counts in the divisor
 *
 * Creates a 1-d average pooling layer, `torch.nn.AvgPool1d (kernel_size,
 * stride, padding, ceil_mode, count_include_pad)`; forward checks the
 * values.
 *
 * Returns: (transfer full): the new layer
 *
 * Since: 0.1
 */
GnnAvgPool1d *
gnn_avg_pool1d_new (gint64   kernel_size,
                    gint64   stride,
                    gint64   padding,
                    gboolean ceil_mode,
                    gboolean count_include_pad)
{
  return g_object_new (GNN_TYPE_AVG_POOL1D, "kernel-size", CLAMP (kernel_size, -G_MAXINT32, G_MAXINT32),
                       "stride", CLAMP (stride, -G_MAXINT32, G_MAXINT32),
                       "padding", CLAMP (padding, -G_MAXINT32, G_MAXINT32), "ceil-mode", ceil_mode,
                       "count-include-pad", count_include_pad, NULL);
}
