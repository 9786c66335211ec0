/* gnn-tensor-rnn.c: one recurrent layer in one direction, forward (see
 * gnn-rnn-private.h for the layout; the backward is
 * lib/autograd/gnn-backward-rnn.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-rnn-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-gemm-small-private.h"

void
gnn_rnn_gemm (GnnDType        dtype,
              CBLAS_TRANSPOSE ta,
              CBLAS_TRANSPOSE tb,
              gint64          m,
              gint64          n,
              gint64          k,
              double          alpha,
              gconstpointer   a,
              gint64          lda,
              gconstpointer   b,
              gint64          ldb,
              double          beta,
              gpointer        c,
              gint64          ldc)
{
  gboolean f32 = dtype == GNN_DTYPE_F32;

  if (m == 0 || n == 0)
    return;
  if (k == 0)
    {
      /* C = beta · C: BLAS would read the empty operands' leading dims */
      for (gint64 i = 0; i < m; i++)
        for (gint64 j = 0; j < n; j++)
          {
            if (f32)
              ((float *) c)[i * ldc + j] = beta == 0 ? 0.0f : (float) beta * ((float *) c)[i * ldc + j];
            else
              ((double *) c)[i * ldc + j] = beta == 0 ? 0.0 : beta * ((double *) c)[i * ldc + j];
          }
      return;
    }
  if (f32 && alpha == 1 && beta == 0 &&
      gnn_sgemm_small_fits (ta == CblasTrans, tb == CblasTrans, m, n, k))
    {
      gnn_sgemm_small (ta == CblasTrans, tb == CblasTrans, m, n, k, a, lda, b, ldb, NULL, c, ldc);
      return;
    }
  if (m == 1)
    {
      /* one row of C: op (B)ᵀ times the row of op (A) */
      gint64 inc_a = ta == CblasNoTrans ? 1 : lda;
      CBLAS_TRANSPOSE t = tb == CblasTrans ? CblasNoTrans : CblasTrans;
      gint64 rows = tb == CblasTrans ? n : k, cols = tb == CblasTrans ? k : n;

      if (f32)
        cblas_sgemv (CblasRowMajor, t, (int) rows, (int) cols, (float) alpha, b, (int) ldb, a,
                     (int) inc_a, (float) beta, c, 1);
      else
        cblas_dgemv (CblasRowMajor, t, (int) rows, (int) cols, alpha, b, (int) ldb, a,
                     (int) inc_a, beta, c, 1);
      return;
    }
  if (f32)
    gnn_parallel_gemm_f32 (ta, tb, m, n, k, (float) alpha, a, lda, b, ldb, (float) beta, c, ldc);
  else
    gnn_parallel_gemm_f64 (ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void
gnn_rnn_workspace_layout (GnnRnnMode        mode,
                          const GnnRnnDims *d,
                          gint64            batch,
                          gboolean          keep,
                          GnnRnnWorkspace  *ws)
{
  gint64 at = 0;
  gint64 rows = keep ? d->n : batch;

#define PLACE(field, present, count) \
  G_STMT_START { ws->field = (present) ? at : -1; at += (present) ? (count) : 0; } G_STMT_END
  PLACE (gates, TRUE, d->n * d->gates);
  PLACE (hgates, mode == GNN_RNN_MODE_GRU, rows * d->gates);
  PLACE (h_prev, keep, d->n * d->out);
  PLACE (c_prev, keep && mode == GNN_RNN_MODE_LSTM, d->n * d->hidden);
  PLACE (tanh_c, mode == GNN_RNN_MODE_LSTM, rows * d->hidden);
  PLACE (h_pre, mode == GNN_RNN_MODE_LSTM && d->proj, rows * d->hidden);
#undef PLACE
  ws->total = at;
}

/* Copies @n elements of @size bytes (memcpy with a zero-length guard). */
static inline void
copy_elems (gpointer      dst,
            gconstpointer src,
            gint64        n,
            gsize         size)
{
  if (n > 0)
    memcpy (dst, src, (gsize) n * size);
}

/* Each of @rows rows of @dst (@width wide) set to @row, or to zeros. */
static void
fill_rows (guint8       *dst,
           const guint8 *row,
           gint64        rows,
           gint64        width,
           gsize         size)
{
  gsize bytes = (gsize) width * size;

  for (gint64 r = 0; r < rows; r++)
    {
      if (row != NULL)
        memcpy (dst + (gsize) r * bytes, row, bytes);
      else
        memset (dst + (gsize) r * bytes, 0, bytes);
    }
}

typedef struct
{
  GnnDType        dtype;
  gsize           size;
  GnnRnnMode      mode;
  GnnRnnDims      d;
  GnnRnnWorkspace ws;
  gboolean        keep;
  gint64          batch;
  const guint8   *x, *w_ih, *w_hh, *b_ih, *b_hh, *w_hr;
  guint8         *y, *h, *c;   /* output rows; the state carried (h_n, c_n regions) */
  guint8         *work;
} Forward;

#define AT(base, elems) ((base) + (gsize) (elems) * f->size)

/* The input side of every step in one product: gates = x · W_ihᵀ + biases. */
static gboolean
input_projection (Forward  *f,
                  GError  **error)
{
  guint8 *gates = AT (f->work, f->ws.gates);
  g_autofree guint8 *bias = NULL;
  gboolean both = f->mode != GNN_RNN_MODE_GRU && f->b_ih != NULL;

  if (both)
    {
      /* LSTM and Elman steps add b_ih + b_hh to the same sum: fold both */
      bias = g_try_malloc ((gsize) f->d.gates * f->size);
      if (bias == NULL && f->d.gates > 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY, "rnn: out of memory");
          return FALSE;
        }
      for (gint64 j = 0; j < f->d.gates; j++)
        {
          if (f->dtype == GNN_DTYPE_F32)
            ((float *) bias)[j] = ((const float *) f->b_ih)[j] + ((const float *) f->b_hh)[j];
          else
            ((double *) bias)[j] = ((const double *) f->b_ih)[j] + ((const double *) f->b_hh)[j];
        }
    }
  fill_rows (gates, both ? bias : f->b_ih, f->d.n, f->d.gates, f->size);
  gnn_rnn_gemm (f->dtype, CblasNoTrans, CblasTrans, f->d.n, f->d.gates, f->d.input, 1.0,
                f->x, f->d.input, f->w_ih, f->d.input, 1.0, gates, f->d.gates);
  return TRUE;
}

/* Step t: its rows r0 .. r0 + bs of the sequence, the first bs of the state. */
static void
run_step (Forward *f,
          gint64   r0,
          gint64   bs)
{
  const GnnRnnDims *d = &f->d;
  gint64 wrow = f->keep ? r0 : 0;   /* rows of the per-row scratch arrays */
  guint8 *gates = AT (f->work, f->ws.gates + r0 * d->gates);
  guint8 *y = AT (f->y, r0 * d->out);

  if (f->keep)
    {
      copy_elems (AT (f->work, f->ws.h_prev + r0 * d->out), f->h, bs * d->out, f->size);
      if (f->mode == GNN_RNN_MODE_LSTM)
        copy_elems (AT (f->work, f->ws.c_prev + r0 * d->hidden), f->c, bs * d->hidden, f->size);
    }

  switch (f->mode)
    {
    case GNN_RNN_MODE_LSTM:
      {
        guint8 *tanh_c = AT (f->work, f->ws.tanh_c + wrow * d->hidden);
        guint8 *h_pre = d->proj ? AT (f->work, f->ws.h_pre + wrow * d->hidden) : y;

        gnn_rnn_gemm (f->dtype, CblasNoTrans, CblasTrans, bs, d->gates, d->out, 1.0, f->h,
                      d->out, f->w_hh, d->out, 1.0, gates, d->gates);
        gnn_rnn_lstm_forward (f->dtype, bs, d->hidden, gates, f->c, tanh_c, h_pre);
        if (d->proj)
          gnn_rnn_gemm (f->dtype, CblasNoTrans, CblasTrans, bs, d->out, d->hidden, 1.0, h_pre,
                        d->hidden, f->w_hr, d->hidden, 0.0, y, d->out);
        break;
      }
    case GNN_RNN_MODE_GRU:
      {
        guint8 *hg = AT (f->work, f->ws.hgates + wrow * d->gates);

        fill_rows (hg, f->b_hh, bs, d->gates, f->size);
        gnn_rnn_gemm (f->dtype, CblasNoTrans, CblasTrans, bs, d->gates, d->out, 1.0, f->h,
                      d->out, f->w_hh, d->out, f->b_hh != NULL ? 1.0 : 0.0, hg, d->gates);
        gnn_rnn_gru_forward (f->dtype, bs, d->hidden, gates, hg, f->h, y);
        break;
      }
    case GNN_RNN_MODE_TANH:
    case GNN_RNN_MODE_RELU:
    default:
      gnn_rnn_gemm (f->dtype, CblasNoTrans, CblasTrans, bs, d->gates, d->out, 1.0, f->h,
                    d->out, f->w_hh, d->out, 1.0, gates, d->gates);
      gnn_rnn_simple_forward (f->dtype, f->mode == GNN_RNN_MODE_RELU, bs * d->gates, gates);
      copy_elems (y, gates, bs * d->out, f->size);
      break;
    }
  copy_elems (f->h, y, bs * d->out, f->size);
}

/* --- checks and operands --------------------------------------------------- */

static gboolean
check_operand (GnnTensor  *t,
               const char *what,
               GnnDType    dtype,
               guint       ndim,
               gint64      d0,
               gint64      d1,
               GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  if (p->dtype != dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "rnn: %s has dtype %s, expected %s", what, gnn_dtype_get_name (p->dtype),
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  if (p->ndim != ndim || p->shape[0] != d0 || (ndim == 2 && p->shape[1] != d1))
    {
      g_autofree char *s = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "rnn: %s has shape %s, expected [%"
                   G_GINT64_FORMAT "%s%" G_GINT64_FORMAT "]", what, s, d0,
                   ndim == 2 ? ", " : "", ndim == 2 ? d1 : (gint64) 0);
      return FALSE;
    }
  return TRUE;
}

/* The operand's elements, contiguous: @t itself or a copy kept in @hold. */
static const guint8 *
packed_data (GnnTensor  *t,
             GnnTensor **hold,
             GError    **error)
{
  if (t == NULL)
    return NULL;
  *hold = gnn_tensor_contiguous_checked (t, error);
  if (*hold == NULL)
    return NULL;
  return gnn_tensor_priv_data (gnn_tensor_priv (*hold));
}

/* The views output, h_n, c_n of the node's buffer, each only when its
 * pointer in @parts is not NULL. */
static gboolean
split_buffer (GnnTensor         *buffer,
              gboolean           recorded,
              const GnnRnnDims  *d,
              gint64             batch,
              GnnTensor        **parts[3],
              GError           **error)
{
  gint64 starts[3] = { 0, d->n * d->out, d->n * d->out + batch * d->out };
  gint64 shapes[3][2] = { { d->n, d->out }, { batch, d->out }, { batch, d->hidden } };

  for (guint i = 0; i < 3; i++)
    {
      if (parts[i] == NULL)
        continue;
      if (recorded)
        {
          g_autoptr(GnnTensor) slice = gnn_tensor_narrow (buffer, 0, starts[i],
                                                          shapes[i][0] * shapes[i][1], error);

          *parts[i] = slice != NULL ? gnn_tensor_view (slice, shapes[i], 2, error) : NULL;
          if (*parts[i] == NULL)
            return FALSE;
        }
      else
        {
          gint64 strides[2] = { shapes[i][1], 1 };

          *parts[i] = gnn_tensor_new_view (buffer, shapes[i], strides, 2,
                                           gnn_tensor_priv (buffer)->offset + starts[i]);
        }
    }
  return TRUE;
}

gboolean
gnn_rnn_layer (const GnnRnnLayout *layout,
               GnnTensor          *input,
               GnnTensor          *h0,
               GnnTensor          *c0,
               GnnTensor *const   *weights,
               GnnTensor         **output,
               GnnTensor         **h_n,
               GnnTensor         **c_n,
               GError            **error)
{
  GnnTensor *w_ih = weights[GNN_RNN_W_IH], *w_hh = weights[GNN_RNN_W_HH];
  GnnTensor *b_ih = weights[GNN_RNN_B_IH], *b_hh = weights[GNN_RNN_B_HH];
  GnnTensor *w_hr = weights[GNN_RNN_W_HR];
  gboolean lstm = layout->mode == GNN_RNN_MODE_LSTM;
  GnnTensor *inputs[GNN_RNN_N_INPUTS] = { input, h0, lstm ? c0 : NULL, w_ih, w_hh, b_ih, b_hh,
                                          lstm ? w_hr : NULL };
  g_autoptr(GnnTensor) x_c = NULL;
  g_autoptr(GnnTensor) w_ih_c = NULL;
  g_autoptr(GnnTensor) w_hh_c = NULL;
  g_autoptr(GnnTensor) b_ih_c = NULL;
  g_autoptr(GnnTensor) b_hh_c = NULL;
  g_autoptr(GnnTensor) w_hr_c = NULL;
  g_autoptr(GnnTensor) buffer = NULL;
  g_autoptr(GnnTensor) work = NULL;
  g_autoptr(GnnTensor) sizes = NULL;
  g_autofree gint64 *offsets = NULL;
  GnnTensor **parts[3] = { output, h_n, lstm ? c_n : NULL };
  Forward f = { 0 };
  GnnDType dtype;
  gint64 total, B = layout->batch, T = layout->steps;

  for (guint i = 0; i < 3; i++)
    if (parts[i] != NULL)
      *parts[i] = NULL;
  dtype = gnn_tensor_priv (w_ih)->dtype;
  if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "rnn: expected float32 or float64 weights, got %s", gnn_dtype_get_name (dtype));
      return FALSE;
    }
  f.dtype = dtype;
  f.size = gnn_dtype_get_size (dtype);
  f.mode = layout->mode;
  f.batch = B;
  f.d.gates = gnn_tensor_priv (w_ih)->shape[0];
  f.d.input = gnn_tensor_priv (w_ih)->shape[1];
  f.d.hidden = f.d.gates / gnn_rnn_gate_count (layout->mode);
  f.d.proj = lstm && w_hr != NULL;
  f.d.out = f.d.proj ? gnn_tensor_priv (w_hr)->shape[0] : f.d.hidden;

  /* the rows of each step */
  offsets = g_new (gint64, T + 1);
  offsets[0] = 0;
  for (gint64 t = 0; t < T; t++)
    {
      gint64 bs = layout->batch_sizes != NULL ? layout->batch_sizes[t] : B;

      if (bs < 0 || bs > B || (t > 0 && bs > offsets[t] - offsets[t - 1]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "rnn: batch sizes must be non-increasing and at most %" G_GINT64_FORMAT
                       ", got %" G_GINT64_FORMAT " at step %" G_GINT64_FORMAT, B, bs, t);
          return FALSE;
        }
      offsets[t + 1] = offsets[t] + bs;
    }
  f.d.n = offsets[T];

  if (!check_operand (input, "input", dtype, 2, f.d.n, f.d.input, error) ||
      !check_operand (w_hh, "weight_hh", dtype, 2, f.d.gates, f.d.out, error) ||
      !check_operand (h0, "h0", dtype, 2, B, f.d.out, error) ||
      (lstm && !check_operand (c0, "c0", dtype, 2, B, f.d.hidden, error)) ||
      (b_ih != NULL && !check_operand (b_ih, "bias_ih", dtype, 1, f.d.gates, 0, error)) ||
      (b_hh != NULL && !check_operand (b_hh, "bias_hh", dtype, 1, f.d.gates, 0, error)) ||
      (f.d.proj && !check_operand (w_hr, "weight_hr", dtype, 2, f.d.out, f.d.hidden, error)))
    return FALSE;
  if ((b_ih == NULL) != (b_hh == NULL))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "rnn: give both biases or neither");
      return FALSE;
    }

  f.keep = gnn_tensor_would_record (inputs, GNN_RNN_N_INPUTS);
  gnn_rnn_workspace_layout (f.mode, &f.d, B, f.keep, &f.ws);
  total = f.d.n * f.d.out + B * f.d.out + (lstm ? B * f.d.hidden : 0);
  if ((buffer = gnn_tensor_new_contiguous_checked (dtype, &total, 1, FALSE, error)) == NULL ||
      (work = gnn_tensor_new_contiguous_checked (dtype, &f.ws.total, 1, FALSE, error)) == NULL)
    return FALSE;
  if ((f.x = packed_data (input, &x_c, error)) == NULL ||
      (f.w_ih = packed_data (w_ih, &w_ih_c, error)) == NULL ||
      (f.w_hh = packed_data (w_hh, &w_hh_c, error)) == NULL ||
      (b_ih != NULL && (f.b_ih = packed_data (b_ih, &b_ih_c, error)) == NULL) ||
      (b_hh != NULL && (f.b_hh = packed_data (b_hh, &b_hh_c, error)) == NULL) ||
      (f.d.proj && (f.w_hr = packed_data (w_hr, &w_hr_c, error)) == NULL))
    return FALSE;
  f.y = gnn_tensor_priv_data (gnn_tensor_priv (buffer));
  f.h = f.y + (gsize) (f.d.n * f.d.out) * f.size;
  f.c = f.h + (gsize) (B * f.d.out) * f.size;
  f.work = gnn_tensor_priv_data (gnn_tensor_priv (work));
  {
    /* the state starts as h0 (and c0) */
    g_autoptr(GnnTensor) h_state = NULL;
    g_autoptr(GnnTensor) c_state = NULL;
    gint64 hs[2] = { B, f.d.out }, cs[2] = { B, f.d.hidden }, st[2] = { f.d.out, 1 };
    gint64 cst[2] = { f.d.hidden, 1 };

    h_state = gnn_tensor_new_view (buffer, hs, st, 2, f.d.n * f.d.out);
    if (!gnn_tensor_copy_values_ (h_state, h0, error))
      return FALSE;
    if (lstm)
      {
        c_state = gnn_tensor_new_view (buffer, cs, cst, 2, f.d.n * f.d.out + B * f.d.out);
        if (!gnn_tensor_copy_values_ (c_state, c0, error))
          return FALSE;
      }
  }

  if (!input_projection (&f, error))
    return FALSE;
  for (gint64 p = 0; p < T; p++)
    {
      gint64 t = layout->reverse ? T - 1 - p : p;

      run_step (&f, offsets[t], offsets[t + 1] - offsets[t]);
    }

  if (f.keep)
    {
      GnnOpParams params = { 0 };

      params.ints[0] = f.mode;
      params.ints[1] = layout->reverse;
      params.ints[2] = T;
      params.ints[3] = B;
      params.n_ints = 4;
      params.extra[0] = work;
      if (layout->batch_sizes != NULL)
        {
          sizes = gnn_tensor_new_from_int64s (layout->batch_sizes, (gsize) T, &T, 1, error);
          if (sizes == NULL)
            return FALSE;
          params.extra[1] = sizes;
        }
      gnn_tensor_record (GNN_OP_RNN_LAYER, buffer, inputs, GNN_RNN_N_INPUTS, &params);
    }
  if (!split_buffer (buffer, f.keep, &f.d, B, parts, error))
    {
      for (guint i = 0; i < 3; i++)
        if (parts[i] != NULL)
          g_clear_object (parts[i]);
      return FALSE;
    }
  return TRUE;
}
