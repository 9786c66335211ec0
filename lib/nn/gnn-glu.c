/* gnn-glu.c: the GLU activation (torch.nn.GLU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnGLU:
 *
 * Like `torch.nn.GLU(dim=-1)`: the gated linear unit: splits its input in two
 * halves a and b along [property@Gnn.GLU:dim] and computes `a × sigmoid (b)`
 * (see [method@Gnn.Tensor.glu]).
 *
 * Since: 0.1
 */
struct _GnnGLU
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnGLU, gnn_glu, GNN_TYPE_MODULE)

static GnnTensor *
gnn_glu_forward (GnnModule  *module,
                 GnnTensor  *input,
                 GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  return gnn_tensor_glu (input, (gint) v[0], error);
}

static char *
gnn_glu_extra_repr (GnnModule *module)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  return g_strdup_printf ("dim=%d",
                          (gint) v[0]);
}

static void
gnn_glu_class_init (GnnGLUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_glu_forward, gnn_glu_extra_repr);
  /**
   * GnnGLU:dim:
   *
   * The dimension to halve (negative counts from the end).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 1, "dim", G_MININT, G_MAXINT, -1);
}

static void
gnn_glu_init (GnnGLU *self)
{
}

/**
 * gnn_glu_new:
 * @dim: the value of [property@Gnn.GLU:dim]
 *
 * Creates the layer, like `torch.nn.GLU(dim=-1)`; `g_object_new
 * (GNN_TYPE_GLU, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnGLU
 *
 * Since: 0.1
 */
GnnGLU *
gnn_glu_new (gint      dim)
{
  return g_object_new (GNN_TYPE_GLU,
                       "dim", dim,
                       NULL);
}
