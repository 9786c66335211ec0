/* gnn-hardtanh.c: the Hardtanh activation (torch.nn.Hardtanh)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnHardtanh:
 *
 * Like `torch.nn.Hardtanh(min_val=-1.0, max_val=1.0, inplace=False)`: clamps
 * every element to [[property@Gnn.Hardtanh:min-val],
 * [property@Gnn.Hardtanh:max-val]] (see [method@Gnn.Tensor.hardtanh]). A
 * max-val not above min-val fails construction ([iface@Gio.Initable]), as
 * PyTorch's assertion does.
 *
 * Since: 0.1
 */
struct _GnnHardtanh
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnHardtanh, gnn_hardtanh, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

/* PyTorch asserts max_val > min_val when the module is built. */
static void
gnn_hardtanh_constructed (GObject *object)
{
  const double *v = GNN_ACTIVATION_BASE (object)->values;

  G_OBJECT_CLASS (gnn_hardtanh_parent_class)->constructed (object);
  if (!(v[1] > v[0]))
    {
      g_autofree char *lo = gnn_nn_format_float (v[0]);
      g_autofree char *hi = gnn_nn_format_float (v[1]);

      gnn_nn_set_construct_error (object, g_error_new (GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                                       "Hardtanh: max_val (%s) must be larger "
                                                       "than min_val (%s)", hi, lo));
    }
}

static GnnTensor *
gnn_hardtanh_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  if (v[2] != 0)
    return gnn_activation_inplace_result (gnn_tensor_hardtanh_ (input, v[0], v[1], error), input);
  return gnn_tensor_hardtanh (input, v[0], v[1], error);
}

static char *
gnn_hardtanh_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;
  g_autofree char *s0 = gnn_nn_format_float (v[0]);
  g_autofree char *s1 = gnn_nn_format_float (v[1]);

  return g_strdup_printf ("min_val=%s, max_val=%s%s",
                          s0,
                          s1,
                          gnn_activation_inplace_repr (v[2] != 0, FALSE));
}

static void
gnn_hardtanh_class_init (GnnHardtanhClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = gnn_hardtanh_constructed;
  gnn_activation_class_setup (object_class, gnn_hardtanh_forward, gnn_hardtanh_extra_repr);
  /**
   * GnnHardtanh:min-val:
   *
   * The lower bound.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 1, "min-val", -G_MAXDOUBLE, G_MAXDOUBLE, -1.0);
  /**
   * GnnHardtanh:max-val:
   *
   * The upper bound.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, 2, "max-val", -G_MAXDOUBLE, G_MAXDOUBLE, 1.0);
  /**
   * GnnHardtanh:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 3, "inplace", FALSE);
}

static void
gnn_hardtanh_init (GnnHardtanh *self)
{
}

/**
 * gnn_hardtanh_new:
 * @min_val: the value of [property@Gnn.Hardtanh:min-val]
 * @max_val: the value of [property@Gnn.Hardtanh:max-val]
 * @inplace: the value of [property@Gnn.Hardtanh:inplace]
 * @error: return location for a #GError
 *
 * Creates the layer, like `torch.nn.Hardtanh(min_val=-1.0, max_val=1.0,
 * inplace=False)`; `g_object_new (GNN_TYPE_HARDTANH, NULL)` gives PyTorch's
 * defaults.
 *
 * Returns: (transfer full): a new GnnHardtanh, or %NULL with @error set if
 *   @max_val is not above @min_val
 *
 * Since: 0.1
 */
GnnHardtanh *
gnn_hardtanh_new (double    min_val,
                  double    max_val,
                  gboolean  inplace,
                  GError  **error)
{
  return gnn_nn_initable_new (GNN_TYPE_HARDTANH, error,
                              "min-val", min_val,
                              "max-val", max_val,
                              "inplace", inplace,
                              NULL);
}
