/* gnn-pool3d.c: 3-d pooling layers (torch.nn.MaxPool3d, torch.nn.AvgPool3d)
 * sharing one configuration and property table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnMaxPool3d:
 *
 * 3-d max pooling over `[N, C, D, H, W]` or `[C, D, H, W]` inputs,
 * `torch.nn.MaxPool3d`, computed by [method@Gnn.Tensor.max_pool3d]; with
 * `return-indices` a call returns torch's `(output, indices)`.
 *
 * Since: 0.1
 */

/**
 * GnnAvgPool3d:
 *
 * 3-d average pooling over `[N, C, D, H, W]` or `[C, D, H, W]` inputs,
 * `torch.nn.AvgPool3d`, computed by [method@Gnn.Tensor.avg_pool3d].
 *
 * Since: 0.1
 */

enum { KIND_KERNEL, KIND_STRIDE, KIND_PADDING, KIND_DILATION, N_KINDS };

enum
{
  PROP_CEIL_MODE = 1 + N_KINDS * 3,
  PROP_RETURN_INDICES,     /* max only */
  PROP_COUNT_INCLUDE_PAD,  /* avg only */
  PROP_DIVISOR_OVERRIDE,   /* avg only */
};

typedef struct
{
  gint64   v[N_KINDS][3];   /* property id 1 + kind * 3 + axis */
  gboolean ceil_mode, return_indices, count_include_pad;
  gint64   divisor_override;
} Pool3d;

struct _GnnMaxPool3d { GnnModule parent_instance; Pool3d pool; };
struct _GnnAvgPool3d { GnnModule parent_instance; Pool3d pool; };

G_DEFINE_FINAL_TYPE (GnnMaxPool3d, gnn_max_pool3d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAvgPool3d, gnn_avg_pool3d, GNN_TYPE_MODULE)

static Pool3d *
pool_of (gpointer object)
{
  return GNN_IS_AVG_POOL3D (object) ? &GNN_AVG_POOL3D (object)->pool : &GNN_MAX_POOL3D (object)->pool;
}

static GnnTensor *
max_forward (GnnModule   *module,
             GnnTensor   *input,
             GnnTensor  **indices,
             GError     **error)
{
  Pool3d *p = pool_of (module);

  return gnn_tensor_max_pool3d (input, p->v[KIND_KERNEL], p->v[KIND_STRIDE], p->v[KIND_PADDING],
                                p->v[KIND_DILATION], p->ceil_mode, indices, error);
}

static GnnTensor *
pool_forward (GnnModule  *module,
              GnnTensor  *input,
              GError    **error)
{
  Pool3d *p = pool_of (module);

  if (GNN_IS_AVG_POOL3D (module))
    return gnn_tensor_avg_pool3d (input, p->v[KIND_KERNEL], p->v[KIND_STRIDE], p->v[KIND_PADDING],
                                  p->ceil_mode, p->count_include_pad, p->divisor_override, error);
  return gnn_nn_forward_without_indices (module, input, p->return_indices, max_forward, error);
}

static GnnValue *
max_forward_args (GnnModule  *module,
                  GnnValue   *args,
                  GnnValue   *kwargs,
                  GError    **error)
{
  return gnn_nn_forward_with_indices (module, args, kwargs, pool_of (module)->return_indices, max_forward,
                                      error);
}

/* torch prints each argument as given: an int for a cube, else a tuple. */
static void
append_size (GString      *s,
             const char   *name,
             const gint64 *v)
{
  if (v[0] == v[1] && v[1] == v[2])
    g_string_append_printf (s, "%s%s=%" G_GINT64_FORMAT, s->len ? ", " : "", name, v[0]);
  else
    g_string_append_printf (s, "%s%s=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                            s->len ? ", " : "", name, v[0], v[1], v[2]);
}

static char *
pool_extra_repr (GnnModule *module)
{
  Pool3d *p = pool_of (module);
  GString *s = g_string_new (NULL);
  gboolean none = p->v[KIND_STRIDE][0] == 0 && p->v[KIND_STRIDE][1] == 0 && p->v[KIND_STRIDE][2] == 0;

  append_size (s, "kernel_size", p->v[KIND_KERNEL]);
  append_size (s, "stride", none ? p->v[KIND_KERNEL] : p->v[KIND_STRIDE]);
  append_size (s, "padding", p->v[KIND_PADDING]);
  if (GNN_IS_MAX_POOL3D (module))
    {
      append_size (s, "dilation", p->v[KIND_DILATION]);
      g_string_append_printf (s, ", ceil_mode=%s", gnn_nn_bool_str (p->ceil_mode));
    }
  return g_string_free (s, FALSE);
}

static gboolean *
bool_field (Pool3d *p,
            guint   prop_id)
{
  return prop_id == PROP_CEIL_MODE ? &p->ceil_mode
         : prop_id == PROP_RETURN_INDICES ? &p->return_indices
         : prop_id == PROP_COUNT_INCLUDE_PAD ? &p->count_include_pad : NULL;
}

static void
pool_get_property (GObject    *object,
                   guint       prop_id,
                   GValue     *value,
                   GParamSpec *pspec)
{
  Pool3d *p = pool_of (object);

  if (prop_id >= 1 && prop_id < PROP_CEIL_MODE)
    g_value_set_int64 (value, p->v[(prop_id - 1) / 3][(prop_id - 1) % 3]);
  else if (bool_field (p, prop_id) != NULL)
    g_value_set_boolean (value, *bool_field (p, prop_id));
  else if (prop_id == PROP_DIVISOR_OVERRIDE)
    g_value_set_int64 (value, p->divisor_override);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
pool_set_property (GObject      *object,
                   guint         prop_id,
                   const GValue *value,
                   GParamSpec   *pspec)
{
  Pool3d *p = pool_of (object);

  if (prop_id >= 1 && prop_id < PROP_CEIL_MODE)
    p->v[(prop_id - 1) / 3][(prop_id - 1) % 3] = g_value_get_int64 (value);
  else if (bool_field (p, prop_id) != NULL)
    *bool_field (p, prop_id) = g_value_get_boolean (value);
  else if (prop_id == PROP_DIVISOR_OVERRIDE)
    p->divisor_override = g_value_get_int64 (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* "kernel-d", "kernel-h", "kernel-w", … as the 3-d convolutions name
 * theirs; any int (forward checks them with torch's messages). */
static void
pool_class_init (GObjectClass *object_class,
                 gboolean      avg)
{
  static const char *const kinds[N_KINDS] = { "kernel", "stride", "padding", "dilation" };
  static const gint64 defaults[N_KINDS] = { 1, 0, 0, 1 };
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);

  object_class->get_property = pool_get_property;
  object_class->set_property = pool_set_property;
  module_class->forward = pool_forward;
  module_class->extra_repr = pool_extra_repr;
  for (guint k = 0; k < (avg ? KIND_DILATION : N_KINDS); k++)
    for (guint a = 0; a < 3; a++)
      {
        g_autofree char *name = g_strconcat (kinds[k], (const char *[]) { "-d", "-h", "-w" }[a], NULL);

        g_object_class_install_property (object_class, 1 + k * 3 + a,
                                         gnn_nn_int_property (g_intern_string (name), -G_MAXINT32,
                                                              defaults[k]));
      }
  g_object_class_install_property (object_class, PROP_CEIL_MODE, gnn_nn_bool_property ("ceil-mode", FALSE));
  if (avg)
    {
      g_object_class_install_property (object_class, PROP_COUNT_INCLUDE_PAD,
                                       gnn_nn_bool_property ("count-include-pad", TRUE));
      g_object_class_install_property (object_class, PROP_DIVISOR_OVERRIDE,
                                       gnn_nn_int_property ("divisor-override", -G_MAXINT32, 0));
    }
  else
    {
      g_object_class_install_property (object_class, PROP_RETURN_INDICES,
                                       gnn_nn_bool_property ("return-indices", FALSE));
      module_class->forward_args = max_forward_args;
    }
}

static void
pool_init (Pool3d *p)
{
  for (guint a = 0; a < 3; a++)
    p->v[KIND_KERNEL][a] = p->v[KIND_DILATION][a] = 1;
  p->count_include_pad = TRUE;
}

static void
gnn_max_pool3d_class_init (GnnMaxPool3dClass *klass)
{
  /**
   * GnnMaxPool3d:kernel-d:
   *
   * The window depth (`kernel_size[0]`); `kernel-h` and `kernel-w` the
   * height and width.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:kernel-h:
   *
   * The window height (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:kernel-w:
   *
   * The window width (`kernel_size[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:stride-d:
   *
   * The stride in depth; 0 on all axes means the kernel size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:stride-h:
   *
   * The vertical stride.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:stride-w:
   *
   * The horizontal stride.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:padding-d:
   *
   * The implicit -inf padding in depth.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:padding-h:
   *
   * The implicit -inf padding on the top and bottom.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:padding-w:
   *
   * The implicit -inf padding on the left and right.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:dilation-d:
   *
   * The spacing between window taps in depth.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:dilation-h:
   *
   * The vertical spacing between window taps.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:dilation-w:
   *
   * The horizontal spacing between window taps.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:ceil-mode:
   *
   * Whether the output size is rounded up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool3d:return-indices:
   *
   * Whether a call returns torch's `(output, indices)` (`return_indices`);
   * the one-tensor [method@Gnn.Module.call] then fails.
   *
   * Since: 0.1
   */
  pool_class_init (G_OBJECT_CLASS (klass), FALSE);
}

static void
gnn_avg_pool3d_class_init (GnnAvgPool3dClass *klass)
{
  /**
   * GnnAvgPool3d:kernel-d:
   *
   * The window depth (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:kernel-h:
   *
   * The window height (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:kernel-w:
   *
   * The window width (`kernel_size[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:stride-d:
   *
   * The stride in depth; 0 on all axes means the kernel size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:stride-h:
   *
   * The vertical stride.
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:stride-w:
   *
   * The horizontal stride.
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:padding-d:
   *
   * The implicit zero padding in depth.
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:padding-h:
   *
   * The implicit zero padding on the top and bottom.
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:padding-w:
   *
   * The implicit zero padding on the left and right.
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:ceil-mode:
   *
   * Whether the output size is rounded up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:count-include-pad:
   *
   * Whether the zero padding counts in the divisor (`count_include_pad`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool3d:divisor-override:
   *
   * A fixed divisor, or 0 to divide by the window size (torch's `None`).
   *
   * Since: 0.1
   */
  pool_class_init (G_OBJECT_CLASS (klass), TRUE);
}

static void
gnn_max_pool3d_init (GnnMaxPool3d *self)
{
  pool_init (&self->pool);
}

static void
gnn_avg_pool3d_init (GnnAvgPool3d *self)
{
  pool_init (&self->pool);
}
