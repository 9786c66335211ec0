/* gnn-backward-rnn.c: the gradient of one recurrent layer in one direction
 * (lib/tensor/gnn-rnn-private.h)
 *
 * The steps run in reverse with the gradient of the state carried as the
 * forward carried the state: step t reads and overwrites the first sizes[t]
 * rows of dh (and dc), starting from the gradients of h_n (and c_n), so
 * what is left at the end is the gradient of h0 (and c0). Each step adds
 * the output's gradient of its rows, runs the fused gate backward into its
 * rows of the gate gradients, and passes the gradient on to the previous
 * state with one GEMM. The weight, bias and input gradients then take one
 * GEMM (or one sum) each over all rows, where torch sums step by step.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-rnn-private.h"

typedef struct
{
  GnnDType        dtype;
  gsize           size;
  GnnRnnMode      mode;
  GnnRnnDims      d;
  GnnRnnWorkspace ws;
  const guint8   *work;
} Layer;

static guint8 *
at (gconstpointer base,
    gint64        elems,
    gsize         size)
{
  return (guint8 *) base + (gsize) elems * size;
}

static const guint8 *
data_of (GnnTensor *t)
{
  return t != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (t)) : NULL;
}

/* dst[0 .. n) += src[0 .. n) */
static void
add_into (GnnDType      dtype,
          gint64        n,
          gpointer      dst,
          gconstpointer src)
{
  if (n <= 0)
    return;
  if (dtype == GNN_DTYPE_F32)
    cblas_saxpy ((int) n, 1.0f, src, 1, dst, 1);
  else
    cblas_daxpy ((int) n, 1.0, src, 1, dst, 1);
}

/* The column sums of an [n, width] matrix: a bias's gradient. */
static GnnTensor *
column_sums (const Layer   *l,
             gconstpointer  m,
             const GnnMeta *meta)
{
  GnnTensor *out = gnn_ag_zeros (meta);
  guint8 *o = (guint8 *) data_of (out);
  gint64 width = l->d.gates;

  for (gint64 r = 0; r < l->d.n; r++)
    {
      if (l->dtype == GNN_DTYPE_F32)
        {
          const float *row = (const float *) m + r * width;

          for (gint64 j = 0; j < width; j++)
            ((float *) o)[j] += row[j];
        }
      else
        {
          const double *row = (const double *) m + r * width;

          for (gint64 j = 0; j < width; j++)
            ((double *) o)[j] += row[j];
        }
    }
  return out;
}

/* A contiguous uninitialized (or zeroed) tensor of @meta's geometry. */
static GnnTensor *
tensor_like (const GnnMeta *meta,
             gboolean       zeroed)
{
  return gnn_tensor_new_contiguous (meta->dtype, meta->shape, meta->ndim, zeroed);
}

static GnnTensor *
matrix (GnnDType dtype,
        gint64   rows,
        gint64   cols)
{
  gint64 shape[2] = { rows, cols };

  return gnn_tensor_new_contiguous (dtype, shape, 2, FALSE);
}

gboolean
gnn_backward_rnn_layer (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  const gint64 *q = node->params.ints;
  const GnnMeta *xm = &node->inputs[GNN_RNN_IN_INPUT];
  const GnnMeta *wm = &node->inputs[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_IH];
  const GnnMeta *hrm = &node->inputs[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HR];
  gboolean reverse = q[1] != 0;
  gint64 T = q[2], B = q[3];
  Layer l = { 0 };
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) w_ih = NULL;
  g_autoptr(GnnTensor) w_hh = NULL;
  g_autoptr(GnnTensor) w_hr = NULL;
  g_autoptr(GnnTensor) dh = NULL;
  g_autoptr(GnnTensor) dc = NULL;
  g_autoptr(GnnTensor) dgx = NULL;
  g_autoptr(GnnTensor) dgh_own = NULL;
  g_autoptr(GnnTensor) dh_all = NULL;
  g_autoptr(GnnTensor) dh_pre = NULL;
  g_autofree gint64 *offsets = g_new (gint64, T + 1);
  g_autofree gint64 *sizes = g_new (gint64, T);
  const guint8 *gd, *dgh;
  gboolean lstm;
  gint64 G, H, P, N;

  l.mode = (GnnRnnMode) q[0];
  lstm = l.mode == GNN_RNN_MODE_LSTM;
  l.dtype = wm->dtype;
  l.size = gnn_dtype_get_size (l.dtype);
  l.d.n = N = xm->shape[0];
  l.d.input = xm->shape[1];
  l.d.gates = G = wm->shape[0];
  l.d.hidden = H = G / gnn_rnn_gate_count (l.mode);
  l.d.proj = lstm && hrm->ndim == 2;
  l.d.out = P = l.d.proj ? hrm->shape[0] : H;
  gnn_rnn_workspace_layout (l.mode, &l.d, B, TRUE, &l.ws);
  l.work = data_of (node->params.extra[0]);

  offsets[0] = 0;
  for (gint64 t = 0; t < T; t++)
    {
      sizes[t] = node->params.extra[1] != NULL
                 ? ((const gint64 *) data_of (node->params.extra[1]))[t] : B;
      offsets[t + 1] = offsets[t] + sizes[t];
    }

  if ((g = gnn_tensor_contiguous_checked (grad, error)) == NULL ||
      (w_hh = gnn_tensor_contiguous_checked (node->saved[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HH],
                                             error)) == NULL)
    return FALSE;
  gd = data_of (g);

  /* the state's gradient starts as that of h_n (and c_n) */
  {
    gint64 hs[2] = { B, P }, cs[2] = { B, H };

    dh = gnn_tensor_new_contiguous (l.dtype, hs, 2, FALSE);
    memcpy ((guint8 *) data_of (dh), at (gd, N * P, l.size), (gsize) (B * P) * l.size);
    if (lstm)
      {
        dc = gnn_tensor_new_contiguous (l.dtype, cs, 2, FALSE);
        memcpy ((guint8 *) data_of (dc), at (gd, N * P + B * P, l.size), (gsize) (B * H) * l.size);
      }
  }
  dgx = matrix (l.dtype, N, G);
  if (l.mode == GNN_RNN_MODE_GRU)
    dgh_own = matrix (l.dtype, N, G);
  dgh = data_of (dgh_own != NULL ? dgh_own : dgx);
  if (l.d.proj)
    {
      if ((w_hr = gnn_tensor_contiguous_checked (node->saved[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HR],
                                                 error)) == NULL)
        return FALSE;
      dh_all = matrix (l.dtype, N, P);
      dh_pre = matrix (l.dtype, B, H);
    }

  for (gint64 p = T - 1; p >= 0; p--)
    {
      gint64 t = reverse ? T - 1 - p : p;
      gint64 r0 = offsets[t], bs = sizes[t];
      guint8 *dhd = (guint8 *) data_of (dh);
      const guint8 *gates = at (l.work, l.ws.gates + r0 * G, l.size);
      guint8 *dgx_t = at (data_of (dgx), r0 * G, l.size);
      guint8 *dgh_t = at (dgh, r0 * G, l.size);

      add_into (l.dtype, bs * P, dhd, at (gd, r0 * P, l.size));
      switch (l.mode)
        {
        case GNN_RNN_MODE_LSTM:
          {
            const guint8 *dhp = dhd;

            if (l.d.proj)
              {
                memcpy (at (data_of (dh_all), r0 * P, l.size), dhd, (gsize) (bs * P) * l.size);
                gnn_rnn_gemm (l.dtype, CblasNoTrans, CblasNoTrans, bs, H, P, 1.0, dhd, P,
                              data_of (w_hr), H, 0.0, (guint8 *) data_of (dh_pre), H);
                dhp = data_of (dh_pre);
              }
            gnn_rnn_lstm_backward (l.dtype, bs, H, gates,
                                   at (l.work, l.ws.c_prev + r0 * H, l.size),
                                   at (l.work, l.ws.tanh_c + r0 * H, l.size), dhp,
                                   (guint8 *) data_of (dc), dgx_t);
            gnn_rnn_gemm (l.dtype, CblasNoTrans, CblasNoTrans, bs, P, G, 1.0, dgx_t, G,
                          data_of (w_hh), P, 0.0, dhd, P);
            break;
          }
        case GNN_RNN_MODE_GRU:
          gnn_rnn_gru_backward (l.dtype, bs, H, gates, at (l.work, l.ws.hgates + r0 * G, l.size),
                                at (l.work, l.ws.h_prev + r0 * P, l.size), dhd, dgx_t, dgh_t);
          gnn_rnn_gemm (l.dtype, CblasNoTrans, CblasNoTrans, bs, P, G, 1.0, dgh_t, G,
                        data_of (w_hh), P, 1.0, dhd, P);
          break;
        case GNN_RNN_MODE_TANH:
        case GNN_RNN_MODE_RELU:
        default:
          gnn_rnn_simple_backward (l.dtype, l.mode == GNN_RNN_MODE_RELU, bs * H, gates, dhd,
                                   dgx_t);
          gnn_rnn_gemm (l.dtype, CblasNoTrans, CblasNoTrans, bs, P, G, 1.0, dgx_t, G,
                        data_of (w_hh), P, 0.0, dhd, P);
          break;
        }
    }

  if (gnn_node_needs_grad (node, GNN_RNN_IN_H0))
    grads[GNN_RNN_IN_H0] = g_steal_pointer (&dh);
  if (lstm && gnn_node_needs_grad (node, GNN_RNN_IN_C0))
    grads[GNN_RNN_IN_C0] = g_steal_pointer (&dc);
  if (gnn_node_needs_grad (node, GNN_RNN_IN_INPUT))
    {
      if ((w_ih = gnn_tensor_contiguous_checked (node->saved[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_IH],
                                                 error)) == NULL)
        return FALSE;
      grads[GNN_RNN_IN_INPUT] = tensor_like (xm, FALSE);
      gnn_rnn_gemm (l.dtype, CblasNoTrans, CblasNoTrans, N, l.d.input, G, 1.0, data_of (dgx), G,
                    data_of (w_ih), l.d.input, 0.0,
                    (guint8 *) data_of (grads[GNN_RNN_IN_INPUT]), l.d.input);
    }
  if (gnn_node_needs_grad (node, GNN_RNN_IN_WEIGHTS + GNN_RNN_W_IH))
    {
      GnnTensor *gw;

      if ((x = gnn_tensor_contiguous_checked (node->saved[GNN_RNN_IN_INPUT], error)) == NULL)
        return FALSE;
      gw = grads[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_IH] = tensor_like (wm, FALSE);
      gnn_rnn_gemm (l.dtype, CblasTrans, CblasNoTrans, G, l.d.input, N, 1.0, data_of (dgx), G,
                    data_of (x), l.d.input, 0.0, (guint8 *) data_of (gw), l.d.input);
    }
  if (gnn_node_needs_grad (node, GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HH))
    {
      GnnTensor *gw = tensor_like (&node->inputs[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HH], FALSE);

      grads[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HH] = gw;
      gnn_rnn_gemm (l.dtype, CblasTrans, CblasNoTrans, G, P, N, 1.0, dgh, G,
                    at (l.work, l.ws.h_prev, l.size), P, 0.0, (guint8 *) data_of (gw), P);
    }
  if (gnn_node_needs_grad (node, GNN_RNN_IN_WEIGHTS + GNN_RNN_B_IH))
    grads[GNN_RNN_IN_WEIGHTS + GNN_RNN_B_IH] =
      column_sums (&l, data_of (dgx), &node->inputs[GNN_RNN_IN_WEIGHTS + GNN_RNN_B_IH]);
  if (gnn_node_needs_grad (node, GNN_RNN_IN_WEIGHTS + GNN_RNN_B_HH))
    grads[GNN_RNN_IN_WEIGHTS + GNN_RNN_B_HH] =
      column_sums (&l, dgh, &node->inputs[GNN_RNN_IN_WEIGHTS + GNN_RNN_B_HH]);
  if (l.d.proj && gnn_node_needs_grad (node, GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HR))
    {
      GnnTensor *gw = tensor_like (hrm, FALSE);

      grads[GNN_RNN_IN_WEIGHTS + GNN_RNN_W_HR] = gw;
      gnn_rnn_gemm (l.dtype, CblasTrans, CblasNoTrans, P, H, N, 1.0, data_of (dh_all), P,
                    at (l.work, l.ws.h_pre, l.size), H, 0.0, (guint8 *) data_of (gw), H);
    }
  return TRUE;
}
