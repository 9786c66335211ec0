/* gnn-rnn-private.h: one recurrent layer in one direction as one graph node
 *
 * torch's CPU LSTM runs each time step as a handful of recorded ops (a
 * matrix product, an add, the gate nonlinearities, the cell update), and
 * its backward sums the weight gradients step by step. Here a layer in one
 * direction is one op: the input projection of every step is one GEMM, each
 * step is one GEMM (the recurrent product) and one fused gate kernel, and
 * the backward runs the steps in reverse with one fused kernel and one GEMM
 * per step, then computes the weight and input gradients with one GEMM each
 * over all steps.
 *
 * The sequence is in packed layout: step t holds rows offsets[t] ..
 * offsets[t] + sizes[t] of an [N, features] matrix, the sizes non-increasing
 * (a PackedSequence's batch_sizes; an unpacked time-major [T, B, features]
 * input is the case of every size B). A layer carries its hidden state (and
 * cell) in a [B, ·] buffer whose first sizes[t] rows step t reads and
 * overwrites: in the forward direction a sequence that has ended keeps its
 * last state there (its h_n), in the reverse direction a sequence that has
 * not started yet still holds its initial state.
 *
 * The node has one output, the buffer [output | h_n | c_n] (flattened); the
 * three tensors returned are views into it (narrow + view), so their
 * gradients reach the node through the engine's single-output path.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cblas.h>

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

typedef enum
{
  GNN_RNN_MODE_TANH,
  GNN_RNN_MODE_RELU,
  GNN_RNN_MODE_LSTM,
  GNN_RNN_MODE_GRU,
} GnnRnnMode;

/* Gates per hidden unit: the rows of weight_ih are gates · hidden_size. */
static inline gint64
gnn_rnn_gate_count (GnnRnnMode mode)
{
  return mode == GNN_RNN_MODE_LSTM ? 4 : mode == GNN_RNN_MODE_GRU ? 3 : 1;
}

/* The weights of one layer and direction, torch's order. */
enum
{
  GNN_RNN_W_IH,
  GNN_RNN_W_HH,
  GNN_RNN_B_IH,     /* nullable */
  GNN_RNN_B_HH,     /* nullable */
  GNN_RNN_W_HR,     /* nullable: LSTM projection */
  GNN_RNN_N_WEIGHTS
};

/* The node's inputs, in order. */
enum
{
  GNN_RNN_IN_INPUT,
  GNN_RNN_IN_H0,
  GNN_RNN_IN_C0,
  GNN_RNN_IN_WEIGHTS,   /* + GNN_RNN_W_* */
  GNN_RNN_N_INPUTS = GNN_RNN_IN_WEIGHTS + GNN_RNN_N_WEIGHTS
};

/* How the steps are laid out. */
typedef struct
{
  GnnRnnMode    mode;
  gboolean      reverse;
  gint64        steps;         /* T >= 1 */
  gint64        batch;         /* B: rows of the state (sizes[0] when packed) */
  const gint64 *batch_sizes;   /* T non-increasing sizes, or NULL: every step B rows */
} GnnRnnLayout;

/* The sizes of one layer. */
typedef struct
{
  gint64 n;        /* rows of the sequence */
  gint64 input;    /* I */
  gint64 hidden;   /* H */
  gint64 out;      /* P: the projection size, or H */
  gint64 gates;    /* G = gates · H */
  gboolean proj;
} GnnRnnDims;

/* Where the per-row arrays of the workspace start (elements; -1: absent).
 * With @keep (autograd records the layer) every array has one row per
 * sequence row; without, the arrays the steps only pass on are B rows of
 * scratch. */
typedef struct
{
  gint64 gates;    /* [N, G] pre-activations of the input side, then the gates */
  gint64 hgates;   /* GRU: [N or B, G] W_hh h + b_hh */
  gint64 h_prev;   /* [N, P] the state each step started from (keep) */
  gint64 c_prev;   /* LSTM: [N, H] the cell each step started from (keep) */
  gint64 tanh_c;   /* LSTM: [N or B, H] tanh of the new cell */
  gint64 h_pre;    /* LSTM with projection: [N or B, H] o · tanh (c) */
  gint64 total;
} GnnRnnWorkspace;

void gnn_rnn_workspace_layout (GnnRnnMode       mode,
                               const GnnRnnDims *dims,
                               gint64           batch,
                               gboolean         keep,
                               GnnRnnWorkspace *ws);

/* Runs the layer. @input is [N, I]; @h0 [B, P] and, for an LSTM, @c0
 * [B, H]; @weights torch's w_ih [G, I], w_hh [G, P], b_ih [G], b_hh [G]
 * (both or neither), w_hr [P, H] (LSTM only), all of one float dtype.
 * Returns the output [N, P], h_n [B, P] and c_n [B, H] (LSTM), views of
 * one buffer, each only where its pointer is not NULL, recorded for autograd when grad mode is on and an
 * operand requires grad. Shapes are the caller's to check (the module
 * words torch's messages); a mismatch here is GNN_ERROR_SHAPE. */
gboolean gnn_rnn_layer (const GnnRnnLayout *layout,
                        GnnTensor          *input,
                        GnnTensor          *h0,
                        GnnTensor          *c0,
                        GnnTensor *const   *weights,
                        GnnTensor         **output,
                        GnnTensor         **h_n,
                        GnnTensor         **c_n,
                        GError            **error);

/* C = alpha · op (A) · op (B) + beta · C, row-major, float32 (@dtype F32)
 * or float64, through the small-matrix kernel, GEMV or the threads' GEMM,
 * whichever suits the shape; any of m, n, k may be 0. */
void gnn_rnn_gemm (GnnDType        dtype,
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
                   gint64          ldc);

/* --- the fused step kernels (gnn-rnn-kernels.c), per dtype ---------------- */

/* LSTM step over @rows rows: @gates [rows, 4H] pre-activations in, the
 * gates i, f, g, o out; @c [rows, H] the previous cell in, the new one out;
 * @tanh_c tanh of the new cell; @h [rows, H] o · tanh (c). */
void gnn_rnn_lstm_forward  (GnnDType dtype, gint64 rows, gint64 hidden, gpointer gates,
                            gpointer c, gpointer tanh_c, gpointer h);
/* Its backward: @dh [rows, H] (the gradient of h) and @dc [rows, H] (the
 * gradient of the new cell from later steps, replaced by that of the
 * previous cell) in; @dgates [rows, 4H] the pre-activation gradients out. */
void gnn_rnn_lstm_backward (GnnDType dtype, gint64 rows, gint64 hidden, gconstpointer gates,
                            gconstpointer c_prev, gconstpointer tanh_c, gconstpointer dh,
                            gpointer dc, gpointer dgates);
/* GRU step: @xg [rows, 3H] input-side pre-activations (with b_ih) in, the
 * gates r, z, n out; @hg [rows, 3H] W_hh h + b_hh; @h_prev, @h [rows, H]. */
void gnn_rnn_gru_forward   (GnnDType dtype, gint64 rows, gint64 hidden, gpointer xg,
                            gconstpointer hg, gconstpointer h_prev, gpointer h);
/* Its backward: @dh [rows, H] in, dh · z (the direct path to h_prev) out;
 * @dxg, @dhg [rows, 3H] the gradients of the input-side and recurrent
 * pre-activations. */
void gnn_rnn_gru_backward  (GnnDType dtype, gint64 rows, gint64 hidden, gconstpointer gates,
                            gconstpointer hg, gconstpointer h_prev, gpointer dh,
                            gpointer dxg, gpointer dhg);
/* Elman step: tanh or relu of @n pre-activations in place. */
void gnn_rnn_simple_forward  (GnnDType dtype, gboolean relu, gint64 n, gpointer gates);
/* Its backward: @dgates = @dh · f' (from the activations @gates). */
void gnn_rnn_simple_backward (GnnDType dtype, gboolean relu, gint64 n, gconstpointer gates,
                              gconstpointer dh, gpointer dgates);

G_END_DECLS
