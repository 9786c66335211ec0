/* gnn-backward-pool3d.c: gradients of 3-d max and average pooling (and
 * of fractional max pooling), in
 * doubles (as the 2-d average pool's)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-pool3d-private.h"

static void
geometry (GnnNode       *node,
          GnnPool3dGeom *g)
{
  gnn_pool3d_geom_from_params (g, node->params.ints, node->inputs[0].shape, node->inputs[0].ndim,
                               node->out.shape);
}

/* Each output's gradient to the winner forward saved in extra[0] (its
 * position in a plane of @vol elements; windows overlap: accumulated). */
static gboolean
scatter_to_winners (GnnNode    *node,
                    GnnTensor  *grad,
                    gint64      planes,
                    gint64      vol,
                    gint64      n_out,
                    GnnTensor **grads,
                    GError    **error)
{
  g_autoptr(GnnTensor) ic = gnn_tensor_contiguous_checked (node->params.extra[0], error);
  g_autofree double *go = NULL;
  const gint64 *idx;
  double *gx;

  if (ic == NULL)
    return FALSE;
  idx = gnn_tensor_data_or_null (ic);
  go = gnn_ag_doubles (grad);
  gx = g_new0 (double, MAX (planes * vol, 1));
  for (gint64 pl = 0; pl < planes; pl++)
    for (gint64 o = 0; o < n_out; o++)
      {
        gint64 at = idx[pl * n_out + o];

        if (at >= 0)
          gx[pl * vol + at] += go[pl * n_out + o];
      }
  grads[0] = gnn_ag_from_doubles (gx, &node->inputs[0]);
  return TRUE;
}

gboolean
gnn_backward_max_pool3d (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  GnnPool3dGeom g;

  geometry (node, &g);
  return scatter_to_winners (node, grad, g.planes, g.in[0] * g.in[1] * g.in[2], g.out[0] * g.out[1] * g.out[2],
                             grads, error);
}

/* Fractional max pooling's: params.dim spatial dims, the rest planes. */
gboolean
gnn_backward_fractional_max_pool (GnnNode    *node,
                                  GnnTensor  *grad,
                                  GnnTensor **grads,
                                  GError    **error)
{
  const GnnMeta *im = &node->inputs[0];
  guint n = (guint) node->params.dim;
  gint64 planes = 1, vol = 1, n_out = 1;

  for (guint d = 0; d < im->ndim; d++)
    {
      if (d < im->ndim - n)
        planes *= im->shape[d];
      else
        vol *= im->shape[d], n_out *= node->out.shape[d];
    }
  return scatter_to_winners (node, grad, planes, vol, n_out, grads, error);
}

/* Each window's gradient, divided by its divisor, to every input element
 * inside it. */
gboolean
gnn_backward_avg_pool3d (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  GnnPool3dGeom g;
  g_autofree double *go = gnn_ag_doubles (grad);
  const double *o;
  gint64 vol;
  double *gx;

  geometry (node, &g);
  vol = g.in[0] * g.in[1] * g.in[2];
  gx = g_new0 (double, MAX (g.planes * vol, 1));
  o = go;
  for (gint64 pl = 0; pl < g.planes; pl++)
    for (gint64 ot = 0; ot < g.out[0]; ot++)
      for (gint64 oh = 0; oh < g.out[1]; oh++)
        for (gint64 ow = 0; ow < g.out[2]; ow++)
          {
            gint64 lo[3], hi[3], divisor = gnn_pool3d_avg_divisor (&g, ot, oh, ow, lo, hi);
            double share = *o++ / (double) divisor;

            for (gint64 t = lo[0]; t < hi[0]; t++)
              for (gint64 h = lo[1]; h < hi[1]; h++)
                for (gint64 w = lo[2]; w < hi[2]; w++)
                  gx[pl * vol + (t * g.in[1] + h) * g.in[2] + w] += share;
          }
  grads[0] = gnn_ag_from_doubles (gx, &node->inputs[0]);
  return TRUE;
}
