/* gnn-tensor-record-private.h: the op-recording hook between tensor ops and autograd
 *
 * The tensor side knows nothing of autograd's nodes: every differentiable op
 * calls gnn_tensor_record() after computing its result, and every in-place op
 * calls gnn_tensor_record_inplace() before modifying its operand. Both return
 * at once (one branch per input) unless grad mode is on and an input requires
 * grad; then they call the recorder that lib/autograd installs at load time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

typedef enum
{
  /* pointwise */
  GNN_OP_ADD,
  GNN_OP_SUB,
  GNN_OP_MUL,
  GNN_OP_DIV,
  GNN_OP_ADD_SCALAR,
  GNN_OP_MUL_SCALAR,
  GNN_OP_POW,
  GNN_OP_RELU,
  GNN_OP_GELU,
  GNN_OP_TANH,
  GNN_OP_SIGMOID,
  GNN_OP_EXP,
  GNN_OP_LOG,
  GNN_OP_NEG,
  GNN_OP_ABS,
  GNN_OP_SQRT,
  GNN_OP_WHERE,
  /* reductions */
  GNN_OP_SUM,
  GNN_OP_MEAN,
  GNN_OP_MAX,
  GNN_OP_MIN,
  GNN_OP_SOFTMAX,
  GNN_OP_LOG_SOFTMAX,
  /* linear algebra and joining */
  GNN_OP_MATMUL,
  GNN_OP_CAT,
  GNN_OP_STACK,
  /* views and copies */
  GNN_OP_VIEW,
  GNN_OP_RESHAPE,
  GNN_OP_SQUEEZE,
  GNN_OP_UNSQUEEZE,
  GNN_OP_NARROW,
  GNN_OP_SELECT,
  GNN_OP_TRANSPOSE,
  GNN_OP_PERMUTE,
  GNN_OP_EXPAND,
  GNN_OP_INDEX_SELECT,
  GNN_OP_CLONE,
  GNN_OP_TO_DTYPE,
  GNN_OP_COPY,          /* copy_: input 0 is the overwritten value, input 1 the source */
  /* nn */
  GNN_OP_CONVOLUTION,
  GNN_OP_MAX_POOL2D,
  GNN_OP_AVG_POOL2D,
  GNN_OP_LAYER_NORM,
  GNN_OP_BATCH_NORM,
  GNN_OP_GROUP_NORM,
  GNN_OP_EMBEDDING,
  /* resampling */
  GNN_OP_PAD,
  GNN_OP_INTERPOLATE,
  GNN_OP_ADAPTIVE_AVG_POOL,
  GNN_OP_ADAPTIVE_MAX_POOL,
  GNN_OP_FOLD,          /* im2col (flag) or col2im */
  GNN_OP_PIXEL_SHUFFLE,
  GNN_N_OPS
} GnnOpKind;

/* Op parameters the backward needs (only the fields an op uses are set). */
typedef struct
{
  gint       dim;                   /* softmax, cat, stack, narrow, select, index_select, squeeze */
  gint       dims[GNN_MAX_DIMS];    /* reductions (wrapped or not), permute, transpose (2) */
  guint      n_dims;
  gboolean   keepdim;
  gint64     start;                 /* narrow start, select index */
  double     scalar;                /* mul_scalar factor, pow exponent, eps */
  gint64     ints[16];              /* conv/pool geometry, layer_norm normalized_shape */
  guint      n_ints;
  gboolean   flag;                  /* batch_norm training, pool ceil_mode / count_include_pad */
  GnnTensor *extra[2];              /* non-differentiable tensors to save: index, condition, running stats */
} GnnOpParams;

/* Installed by lib/autograd. */
typedef GnnTensor *(*GnnRecordFunc)        (GnnOpKind op, GnnTensor *out, GnnTensor *const *inputs,
                                            guint n_inputs, const GnnOpParams *params);
typedef gboolean   (*GnnRecordInplaceFunc) (GnnOpKind op, GnnTensor *self, GnnTensor *other,
                                            GError **error);

typedef const char *(*GnnNodeNameFunc)   (gpointer grad_fn);

void gnn_tensor_set_recorder (GnnRecordFunc        record,
                              GnnRecordInplaceFunc record_inplace,
                              GnnNodeNameFunc      node_name);

/* Thread-local: TRUE inside a no-grad scope (zero-initialized: grad mode on). */
extern _Thread_local gboolean gnn_grad_mode_off;

GnnTensor *gnn_tensor_record_slow (GnnOpKind op, GnnTensor *out, GnnTensor *const *inputs,
                                   guint n_inputs, const GnnOpParams *params);
gboolean   gnn_tensor_record_inplace_slow (GnnOpKind op, GnnTensor *self, GnnTensor *other,
                                           GError **error);

/* Whether an op on @inputs (entries may be %NULL) would be recorded: grad
 * mode is on and some input requires grad. One branch when grad is off. */
static inline gboolean
gnn_tensor_would_record (GnnTensor *const *inputs,
                         guint             n_inputs)
{
  if (gnn_grad_mode_off)
    return FALSE;
  for (guint i = 0; i < n_inputs; i++)
    if (inputs[i] != NULL && G_UNLIKELY (gnn_tensor_priv (inputs[i])->requires_grad))
      return TRUE;
  return FALSE;
}

/* Records @out (transfer full, may be %NULL on error: returned as is) as the
 * result of @op on @inputs (entries may be %NULL). Returns @out. */
static inline GnnTensor *
gnn_tensor_record (GnnOpKind          op,
                   GnnTensor         *out,
                   GnnTensor *const  *inputs,
                   guint              n_inputs,
                   const GnnOpParams *params)
{
  if (out == NULL || !gnn_tensor_would_record (inputs, n_inputs))
    return out;
  return gnn_tensor_record_slow (op, out, inputs, n_inputs, params);
}

/* Called by an in-place op after validating its arguments and before
 * modifying @self (@other may be %NULL). Rebases @self's history onto a new
 * node, or fails like PyTorch for a leaf that requires grad. */
static inline gboolean
gnn_tensor_record_inplace (GnnOpKind   op,
                           GnnTensor  *self,
                           GnnTensor  *other,
                           GError    **error)
{
  if (gnn_grad_mode_off)
    return TRUE;
  if (G_LIKELY (!gnn_tensor_priv (self)->requires_grad &&
                (other == NULL || !gnn_tensor_priv (other)->requires_grad)))
    return TRUE;
  return gnn_tensor_record_inplace_slow (op, self, other, error);
}

/* The node's PyTorch-style name ("AddBackward0"), or %NULL. */
const char *gnn_tensor_grad_fn_name (GnnTensor *self);

G_END_DECLS
