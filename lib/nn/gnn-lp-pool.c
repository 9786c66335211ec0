/* gnn-lp-pool.c: power-average pooling layers (torch.nn.LPPool1d/2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnLPPool1d:
 *
 * `torch.nn.LPPool1d(norm_type, kernel_size, stride=None,
 * ceil_mode=False)`: [method@Gnn.Tensor.lp_pool1d] over `[N, C, L]` or
 * `[C, L]` inputs.
 *
 * Since: 0.1
 */

/**
 * GnnLPPool2d:
 *
 * `torch.nn.LPPool2d(norm_type, kernel_size, stride=None,
 * ceil_mode=False)`: [method@Gnn.Tensor.lp_pool2d] over `[N, C, H, W]` or
 * `[C, H, W]` inputs.
 *
 * Since: 0.1
 */

struct _GnnLPPool1d
{
  GnnActivationBase base;   /* norm-type, kernel-size, stride, ceil-mode */
};

struct _GnnLPPool2d
{
  GnnActivationBase base;   /* norm-type, kernel-h, kernel-w, stride-h, stride-w, ceil-mode */
};

G_DEFINE_FINAL_TYPE (GnnLPPool1d, gnn_lp_pool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnLPPool2d, gnn_lp_pool2d, GNN_TYPE_MODULE)

static GnnTensor *
lp_pool1d_forward (GnnModule  *module,
                   GnnTensor  *input,
                   GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  return gnn_tensor_lp_pool1d (input, v[0], (gint64) v[1], (gint64) v[2], v[3] != 0, error);
}

static GnnTensor *
lp_pool2d_forward (GnnModule  *module,
                   GnnTensor  *input,
                   GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  return gnn_tensor_lp_pool2d (input, v[0], (gint64) v[1], (gint64) v[2], (gint64) v[3], (gint64) v[4],
                               v[5] != 0, error);
}

/* torch prints the arguments as given: an int kernel of a 2-d layer as
 * one number, a stride of None as None. */
static char *
lp_pool_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  gboolean two = GNN_IS_LP_POOL2D (module);
  g_autofree char *p = gnn_nn_format_number (v[0]);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "norm_type=%s", p);
  if (two)
    {
      gnn_nn_append_pair (s, "kernel_size", (gint64) v[1], (gint64) v[2], TRUE);
      if (v[3] == 0 && v[4] == 0)
        g_string_append (s, ", stride=None");
      else
        gnn_nn_append_pair (s, "stride", (gint64) v[3], (gint64) v[4], TRUE);
    }
  else
    {
      g_string_append_printf (s, ", kernel_size=%" G_GINT64_FORMAT, (gint64) v[1]);
      if (v[2] == 0)
        g_string_append (s, ", stride=None");
      else
        g_string_append_printf (s, ", stride=%" G_GINT64_FORMAT, (gint64) v[2]);
    }
  g_string_append_printf (s, ", ceil_mode=%s", gnn_nn_bool_str (v[two ? 5 : 3] != 0));
  return g_string_free (s, FALSE);
}

static void
gnn_lp_pool1d_class_init (GnnLPPool1dClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, lp_pool1d_forward, lp_pool_extra_repr);
  /**
   * GnnLPPool1d:norm-type:
   *
   * The power p (`norm_type`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "norm-type", -G_MAXDOUBLE, G_MAXDOUBLE, 2.0);
  /**
   * GnnLPPool1d:kernel-size:
   *
   * The window length (`kernel_size`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 2, "kernel-size", -G_MAXINT32, G_MAXINT32, 1);
  /**
   * GnnLPPool1d:stride:
   *
   * The stride; 0 means the kernel size (torch's `None`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 3, "stride", -G_MAXINT32, G_MAXINT32, 0);
  /**
   * GnnLPPool1d:ceil-mode:
   *
   * Whether to round the output size up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 4, "ceil-mode", FALSE);
}

static void
gnn_lp_pool2d_class_init (GnnLPPool2dClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, lp_pool2d_forward, lp_pool_extra_repr);
  /**
   * GnnLPPool2d:norm-type:
   *
   * The power p (`norm_type`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "norm-type", -G_MAXDOUBLE, G_MAXDOUBLE, 2.0);
  /**
   * GnnLPPool2d:kernel-h:
   *
   * The window height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 2, "kernel-h", -G_MAXINT32, G_MAXINT32, 1);
  /**
   * GnnLPPool2d:kernel-w:
   *
   * The window width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 3, "kernel-w", -G_MAXINT32, G_MAXINT32, 1);
  /**
   * GnnLPPool2d:stride-h:
   *
   * The vertical stride; 0 for both strides means the kernel size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 4, "stride-h", -G_MAXINT32, G_MAXINT32, 0);
  /**
   * GnnLPPool2d:stride-w:
   *
   * The horizontal stride.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 5, "stride-w", -G_MAXINT32, G_MAXINT32, 0);
  /**
   * GnnLPPool2d:ceil-mode:
   *
   * Whether to round the output size up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 6, "ceil-mode", FALSE);
}

static void
gnn_lp_pool1d_init (GnnLPPool1d *self)
{
}

static void
gnn_lp_pool2d_init (GnnLPPool2d *self)
{
}
