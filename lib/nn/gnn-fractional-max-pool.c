/* gnn-fractional-max-pool.c: fractional max pooling layers
 * (torch.nn.FractionalMaxPool2d / 3d), one configuration and property table
 * for the two
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnFractionalMaxPool2d:
 *
 * `torch.nn.FractionalMaxPool2d`: [method@Gnn.Tensor.fractional_max_pool2d]
 * with a window and either an output size or an output ratio. The random
 * samples come from the default generator at each call, unless given at
 * construction (torch's `_random_samples`, then the `_random_samples`
 * buffer, as in torch's state dict).
 *
 * Since: 0.1
 */

/**
 * GnnFractionalMaxPool3d:
 *
 * `torch.nn.FractionalMaxPool3d`: [method@Gnn.Tensor.fractional_max_pool3d]
 * as [class@Gnn.FractionalMaxPool2d] over three axes.
 *
 * Since: 0.1
 */

enum { KIND_KERNEL, KIND_OUTPUT, N_INT_KINDS };

/* property ids: ints 1 + kind * 3 + axis, then the ratios, then the rest */
#define PROP_ID(kind, axis) (1 + (kind) * 3 + (axis))
enum
{
  PROP_RATIO = 1 + N_INT_KINDS * 3,
  PROP_RETURN_INDICES = PROP_RATIO + 3,
  PROP_RANDOM_SAMPLES,
};

typedef struct
{
  gint64     v[N_INT_KINDS][3];   /* kernel; output size (0: none) */
  double     ratio[3];            /* 0: none */
  gboolean   return_indices;
  GnnTensor *samples;             /* construct-time only, then the buffer */
} FracPool;

struct _GnnFractionalMaxPool2d { GnnModule parent_instance; FracPool f; };
struct _GnnFractionalMaxPool3d { GnnModule parent_instance; FracPool f; };

static void frac_initable_init (GInitableIface *iface) { gnn_nn_initable_iface_init (iface); }

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnFractionalMaxPool2d, gnn_fractional_max_pool2d, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, frac_initable_init))
G_DEFINE_FINAL_TYPE_WITH_CODE (GnnFractionalMaxPool3d, gnn_fractional_max_pool3d, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, frac_initable_init))

static guint
n_spatial (gpointer object)
{
  return GNN_IS_FRACTIONAL_MAX_POOL2D (object) ? 2 : 3;
}

static FracPool *
frac_of (gpointer object)
{
  if (GNN_IS_FRACTIONAL_MAX_POOL2D (object))
    return &GNN_FRACTIONAL_MAX_POOL2D (object)->f;
  return &GNN_FRACTIONAL_MAX_POOL3D (object)->f;
}

static gboolean
has_output_size (const FracPool *f,
                 guint           n)
{
  for (guint a = 0; a < n; a++)
    if (f->v[KIND_OUTPUT][a] != 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_ratio (const FracPool *f,
           guint           n)
{
  for (guint a = 0; a < n; a++)
    if (f->ratio[a] != 0)
      return TRUE;
  return FALSE;
}

/* torch's __init__ checks, in its words: a ratio as Python prints the
 * argument (one number when all axes share it). */
static void
frac_constructed (GObject *object)
{
  FracPool *f = frac_of (object);
  guint n = n_spatial (object);
  GError *error = NULL;
  gboolean ratio_ok = TRUE, same = TRUE;

  G_OBJECT_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (object)))->constructed (object);
  for (guint a = 0; a < n; a++)
    {
      ratio_ok = ratio_ok && f->ratio[a] > 0 && f->ratio[a] < 1;
      same = same && f->ratio[a] == f->ratio[0];
    }
  if (!has_output_size (f, n) && !has_ratio (f, n))
    g_set_error (&error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "FractionalMaxPool%ud requires specifying either an output size, or a pooling ratio", n);
  else if (has_output_size (f, n) && has_ratio (f, n))
    g_set_error_literal (&error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "only one of output_size and output_ratio may be specified");
  else if (has_ratio (f, n) && !ratio_ok)
    {
      GString *got = g_string_new (same ? "" : "(");

      for (guint a = 0; a < (same ? 1 : n); a++)
        {
          g_autofree char *v = gnn_nn_format_float (f->ratio[a]);

          g_string_append_printf (got, "%s%s", a ? ", " : "", v);
        }
      if (!same)
        g_string_append_c (got, ')');
      g_set_error (&error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "output_ratio must be between 0 and 1 (got %s)",
                   got->str);
      g_string_free (got, TRUE);
    }
  gnn_module_register_buffer (GNN_MODULE (object), "_random_samples", f->samples, TRUE, NULL);
  g_clear_object (&f->samples);
  if (error != NULL)
    gnn_nn_set_construct_error (object, error);
}

static GnnTensor *
frac_forward_indices (GnnModule   *module,
                      GnnTensor   *input,
                      GnnTensor  **indices,
                      GError     **error)
{
  FracPool *f = frac_of (module);
  guint n = n_spatial (module);
  GnnTensor *samples;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  samples = gnn_module_get_buffer (module, "_random_samples", NULL);
  if (n == 2)
    return gnn_tensor_fractional_max_pool2d (input, f->v[KIND_KERNEL], has_output_size (f, n) ? f->v[KIND_OUTPUT] : NULL,
                                             has_output_size (f, n) ? NULL : f->ratio, samples, indices, error);
  return gnn_tensor_fractional_max_pool3d (input, f->v[KIND_KERNEL], has_output_size (f, n) ? f->v[KIND_OUTPUT] : NULL,
                                           has_output_size (f, n) ? NULL : f->ratio, samples, indices, error);
}

static GnnTensor *
frac_forward (GnnModule  *module,
              GnnTensor  *input,
              GError    **error)
{
  return gnn_nn_forward_without_indices (module, input, frac_of (module)->return_indices, frac_forward_indices,
                                         error);
}

static GnnValue *
frac_forward_args (GnnModule  *module,
                   GnnValue   *args,
                   GnnValue   *kwargs,
                   GError    **error)
{
  return gnn_nn_forward_with_indices (module, args, kwargs, frac_of (module)->return_indices,
                                      frac_forward_indices, error);
}

static void
frac_get_property (GObject    *object,
                   guint       prop_id,
                   GValue     *value,
                   GParamSpec *pspec)
{
  FracPool *f = frac_of (object);

  if (prop_id >= 1 && prop_id < PROP_RATIO)
    g_value_set_int64 (value, f->v[(prop_id - 1) / 3][(prop_id - 1) % 3]);
  else if (prop_id >= PROP_RATIO && prop_id < PROP_RETURN_INDICES)
    g_value_set_double (value, f->ratio[prop_id - PROP_RATIO]);
  else if (prop_id == PROP_RETURN_INDICES)
    g_value_set_boolean (value, f->return_indices);
  else if (prop_id == PROP_RANDOM_SAMPLES)
    g_value_set_object (value, gnn_module_get_buffer (GNN_MODULE (object), "_random_samples", NULL));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
frac_set_property (GObject      *object,
                   guint         prop_id,
                   const GValue *value,
                   GParamSpec   *pspec)
{
  FracPool *f = frac_of (object);

  if (prop_id >= 1 && prop_id < PROP_RATIO)
    f->v[(prop_id - 1) / 3][(prop_id - 1) % 3] = g_value_get_int64 (value);
  else if (prop_id >= PROP_RATIO && prop_id < PROP_RETURN_INDICES)
    f->ratio[prop_id - PROP_RATIO] = g_value_get_double (value);
  else if (prop_id == PROP_RETURN_INDICES)
    f->return_indices = g_value_get_boolean (value);
  else if (prop_id == PROP_RANDOM_SAMPLES)
    g_set_object (&f->samples, g_value_get_object (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
frac_finalize (GObject *object)
{
  g_clear_object (&frac_of (object)->samples);
  G_OBJECT_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (object)))->finalize (object);
}

/* "kernel-h", "output-h", "output-ratio-h", … ("-d" first in 3-d) */
static void
frac_class_init (GObjectClass *object_class,
                 guint         n)
{
  static const char *const suffixes[2][3] = { { "-h", "-w" }, { "-d", "-h", "-w" } };
  static const char *const kinds[N_INT_KINDS] = { "kernel", "output" };
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);

  object_class->constructed = frac_constructed;
  object_class->finalize = frac_finalize;
  object_class->get_property = frac_get_property;
  object_class->set_property = frac_set_property;
  module_class->forward = frac_forward;
  module_class->forward_args = frac_forward_args;
  for (guint d = 0; d < n; d++)
    {
      g_autofree char *ratio = g_strconcat ("output-ratio", suffixes[n - 2][d], NULL);

      for (guint k = 0; k < N_INT_KINDS; k++)
        {
          g_autofree char *name = g_strconcat (kinds[k], suffixes[n - 2][d], NULL);

          g_object_class_install_property (object_class, PROP_ID (k, d),
                                           gnn_nn_int_property (g_intern_string (name), -G_MAXINT32,
                                                                k == KIND_KERNEL ? 1 : 0));
        }
      g_object_class_install_property (object_class, PROP_RATIO + d,
                                       g_param_spec_double (g_intern_string (ratio), NULL, NULL, -G_MAXDOUBLE,
                                                            G_MAXDOUBLE, 0,
                                                            G_PARAM_READWRITE | G_PARAM_CONSTRUCT |
                                                            G_PARAM_STATIC_STRINGS));
    }
  g_object_class_install_property (object_class, PROP_RETURN_INDICES,
                                   gnn_nn_bool_property ("return-indices", FALSE));
  g_object_class_install_property (object_class, PROP_RANDOM_SAMPLES,
                                   g_param_spec_object ("random-samples", NULL, NULL, GNN_TYPE_TENSOR,
                                                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                        G_PARAM_STATIC_STRINGS));
}

static void
gnn_fractional_max_pool2d_class_init (GnnFractionalMaxPool2dClass *klass)
{
  /**
   * GnnFractionalMaxPool2d:kernel-h:
   *
   * The window's height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool2d:kernel-w:
   *
   * The window's width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool2d:output-h:
   *
   * The output height (`output_size[0]`); 0 when the size comes from the
   * ratio (torch's `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool2d:output-w:
   *
   * The output width (`output_size[1]`); 0 for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool2d:output-ratio-h:
   *
   * The output height as a fraction of the input's, in (0, 1)
   * (`output_ratio[0]`); 0 for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool2d:output-ratio-w:
   *
   * The output width as a fraction of the input's (`output_ratio[1]`); 0
   * for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool2d:return-indices:
   *
   * Whether a call returns torch's `(output, indices)`.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool2d:random-samples:
   *
   * Fixed `[N, C, 2]` random samples (torch's `_random_samples`), kept as
   * the `_random_samples` buffer; %NULL draws new ones at each call.
   *
   * Since: 0.1
   */
  frac_class_init (G_OBJECT_CLASS (klass), 2);
}

static void
gnn_fractional_max_pool3d_class_init (GnnFractionalMaxPool3dClass *klass)
{
  /**
   * GnnFractionalMaxPool3d:kernel-d:
   *
   * The window's depth (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:kernel-h:
   *
   * The window's height (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:kernel-w:
   *
   * The window's width (`kernel_size[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:output-d:
   *
   * The output depth (`output_size[0]`); 0 when the size comes from the
   * ratio (torch's `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:output-h:
   *
   * The output height (`output_size[1]`); 0 for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:output-w:
   *
   * The output width (`output_size[2]`); 0 for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:output-ratio-d:
   *
   * The output depth as a fraction of the input's, in (0, 1); 0 for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:output-ratio-h:
   *
   * The output height as a fraction of the input's; 0 for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:output-ratio-w:
   *
   * The output width as a fraction of the input's; 0 for none.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:return-indices:
   *
   * Whether a call returns torch's `(output, indices)`.
   *
   * Since: 0.1
   */
  /**
   * GnnFractionalMaxPool3d:random-samples:
   *
   * Fixed `[N, C, 3]` random samples (torch's `_random_samples`), kept as
   * the `_random_samples` buffer; %NULL draws new ones at each call.
   *
   * Since: 0.1
   */
  frac_class_init (G_OBJECT_CLASS (klass), 3);
}

static void
frac_init (FracPool *f)
{
  for (guint d = 0; d < 3; d++)
    f->v[KIND_KERNEL][d] = 1;
}

static void
gnn_fractional_max_pool2d_init (GnnFractionalMaxPool2d *self)
{
  frac_init (&self->f);
}

static void
gnn_fractional_max_pool3d_init (GnnFractionalMaxPool3d *self)
{
  frac_init (&self->f);
}
