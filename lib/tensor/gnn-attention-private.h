/* gnn-attention-private.h: scaled dot-product attention over heads, the
 * ops (gnn-tensor-attention.c) and their kernels (gnn-attention-kernels.c)
 *
 * Attention is two recorded ops, as torch 1.13's multi_head_attention_forward
 * composes it, each a few batched GEMMs and one pass over the rows:
 *
 *   probs:  P = dropout (softmax (scale · Q Kᵀ + masks))     [B, H, L, S]
 *   apply:  O = P V                                           [B, H, L, Dv]
 *
 * so that the weights P are a tensor of the graph (need_weights returns
 * them, differentiable). Q, K and V are [B, H, rows, cols] views whose
 * columns are contiguous: the heads of a projection are read where the
 * projection wrote them (no split-heads copy), and O is written straight
 * into the memory order the output projection reads (order[] below), so
 * merging the heads back is a view too. Without autograd, dropout or
 * weights, gnn_attention_fused() runs both per (batch, head) with P in a
 * scratch tile. Every (batch, head) item is one unit of the intra-op
 * threads; each GEMM inside runs on one thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* How a mask enters the scores. */
typedef enum
{
  GNN_ATTN_MASK_ADD,           /* floating: added to the scaled scores */
  GNN_ATTN_MASK_TRUE_MASKED,   /* nonzero (True) positions get -inf: MultiheadAttention's */
  GNN_ATTN_MASK_FALSE_MASKED,  /* zero (False) positions get -inf: scaled_dot_product_attention's bool */
} GnnAttnMaskKind;

typedef struct
{
  GnnTensor       *tensor;     /* broadcastable to [B, H, L, S] */
  GnnAttnMaskKind  kind;
} GnnAttnMask;

#define GNN_ATTN_MAX_MASKS 2

/* --- ops ----------------------------------------------------------------- */

/* P = dropout (softmax (scale · Q Kᵀ + masks), p) for Q [B, H, L, D] and
 * K [B, H, S, D] of one floating dtype; float masks of that dtype (bool,
 * uint8 or the dtype for the *_MASKED kinds). @causal masks key j > query
 * i. Recorded ("MaskedSoftmaxBackward0"): gradients for Q, K and float ADD
 * masks. Returns a contiguous [B, H, L, S]. */
GnnTensor *gnn_attention_probs (GnnTensor         *query,
                                GnnTensor         *key,
                                const GnnAttnMask *masks,
                                guint              n_masks,
                                gboolean           causal,
                                double             scale,
                                double             dropout_p,
                                GnnGenerator      *generator,
                                GError           **error);

/* O = P V for P [B, H, L, S] and V [B, H, S, Dv]: a [B, H, L, Dv] tensor
 * whose memory holds its dims in the order @order (outermost first; NULL:
 * 0, 1, 2, 3). Recorded ("BmmBackward0"). */
GnnTensor *gnn_attention_apply (GnnTensor         *probs,
                                GnnTensor         *value,
                                const guint       *order,
                                GError           **error);

/* gnn_attention_apply (gnn_attention_probs (...)) without dropout and
 * without recording: nothing but the output is allocated. */
GnnTensor *gnn_attention_fused (GnnTensor         *query,
                                GnnTensor         *key,
                                GnnTensor         *value,
                                const GnnAttnMask *masks,
                                guint              n_masks,
                                gboolean           causal,
                                double             scale,
                                const guint       *order,
                                GError           **error);

/* --- kernels ------------------------------------------------------------- */

/* A [B, H, rows, cols] operand with unit column stride. */
typedef struct
{
  guint8 *data;                /* element [0, 0, 0, 0] */
  gint64  sb, sh, sr;          /* strides in elements */
} GnnAttnMat;

typedef struct
{
  const guint8    *data;
  GnnDType         dtype;
  GnnAttnMaskKind  kind;
  gint64           sb, sh, sl, ss;   /* 0 along broadcast dims */
} GnnAttnMaskView;

typedef struct
{
  GnnDType        dtype;              /* F32 or F64 */
  gint64          B, H, L, S, D, Dv;
  double          scale;
  gboolean        causal;
  GnnAttnMat      q, k, v;
  GnnAttnMaskView masks[GNN_ATTN_MAX_MASKS];
  guint           n_masks;
  double          dropout_p;
  guint64         dropout_key;        /* counter-based stream: thread-count independent */
} GnnAttnGeom;

/* Writes P into @p (contiguous [B, H, L, S]) and, with dropout, the
 * dropped and rescaled P into @p_drop (FALSE: its draws' scratch could
 * not be allocated). */
gboolean gnn_attn_probs_kernel          (const GnnAttnGeom *g,
                                         void              *p,
                                         void              *p_drop);
/* O = P V into @o ([B, H, L, Dv] strides); P contiguous. */
void     gnn_attn_apply_kernel          (const GnnAttnGeom *g,
                                         const void        *p,
                                         const GnnAttnMat  *o);
/* Both, P in a scratch tile per thread; FALSE if it cannot be allocated. */
gboolean gnn_attn_fused_kernel          (const GnnAttnGeom *g,
                                         const GnnAttnMat  *o);
/* dP = dO Vᵀ into @dp (contiguous, or NULL), dV = Pᵀ dO into @dv (or NULL). */
void     gnn_attn_apply_backward_kernel (const GnnAttnGeom *g,
                                         const void        *p,
                                         const GnnAttnMat  *dout,
                                         void              *dp,
                                         const GnnAttnMat  *dv);
/* dS = P ∘ (dP - rowsum (dP ∘ P)), dP the gradient of P through dropout;
 * then dQ = scale dS K, dK = scale dSᵀ Q (either may be NULL). @ds: where
 * dS goes when the masks need it (contiguous [B, H, L, S]), else NULL and
 * a scratch tile per thread holds it. FALSE if that cannot be allocated. */
gboolean gnn_attn_probs_backward_kernel (const GnnAttnGeom *g,
                                         const void        *p,
                                         const void        *p_drop,
                                         const void        *dp_drop,
                                         const GnnAttnMat  *dq,
                                         const GnnAttnMat  *dk,
                                         void              *ds);

/* Fills the operands of @g from [B, H, rows, cols] tensors (their columns
 * contiguous: see gnn_attention_operand). */
void     gnn_attn_mat_from_tensor       (GnnAttnMat        *m,
                                         GnnTensor         *t);

/* @t itself when its last dim has unit stride (or size 1), else a packed
 * copy; NULL + GNN_ERROR_MEMORY when the copy cannot be allocated. */
GnnTensor *gnn_attention_operand        (GnnTensor         *t,
                                         GError           **error);

/* A new uninitialized tensor of @like's shape and dtype whose strides keep
 * @like's dims in the same memory order (contiguous when @like has a zero
 * or repeated stride), so gradients of head views land in the layout of
 * the projection they view. NULL + GNN_ERROR_MEMORY. */
GnnTensor *gnn_attention_empty_like     (GnnTensor         *like,
                                         GError           **error);

G_END_DECLS
