/* gnn-tensor-record-private.h: the op-recording hook between tensor ops and autograd
 *
 * The tensor side knows nothing of autograd's nodes: every differentiable op
 * calls gnn_tensor_record() after computing its result, and every in-place op
 * calls gnn_tensor_record_inplace() before modifying its operand (which also
 * bumps the operand's version counter, in every grad mode). Both return at
 * once (one branch per input) unless grad mode is on and an input requires
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
  /* nn activations (gnn-tensor-activation.c; args[] holds their settings) */
  GNN_OP_LEAKY_RELU,
  GNN_OP_ELU,
  GNN_OP_CELU,
  GNN_OP_SILU,
  GNN_OP_MISH,
  GNN_OP_HARDTANH,
  GNN_OP_HARDSWISH,
  GNN_OP_HARDSIGMOID,
  GNN_OP_SOFTPLUS,
  GNN_OP_SOFTSIGN,
  GNN_OP_TANHSHRINK,
  GNN_OP_THRESHOLD,
  GNN_OP_GELU_TANH,
  GNN_OP_HARDSHRINK,
  GNN_OP_SOFTSHRINK,
  GNN_OP_LOG_SIGMOID,
  GNN_OP_GLU,
  GNN_OP_PRELU,
  /* nn losses (gnn-pointwise-loss.c: elementwise, reduced in one pass;
   * ints[0] the reduction, args[] the settings, extra[] weight, pos_weight) */
  GNN_OP_L1_LOSS,
  GNN_OP_MSE_LOSS,
  GNN_OP_SMOOTH_L1_LOSS,
  GNN_OP_HUBER_LOSS,
  GNN_OP_BCE_LOSS,
  GNN_OP_BCE_LOGITS_LOSS,
  GNN_OP_KL_DIV_LOSS,
  GNN_OP_POISSON_NLL_LOSS,
  GNN_OP_SOFT_MARGIN_LOSS,
  GNN_OP_NLL_LOSS,      /* gnn-tensor-nll.c: extra[0] the targets, extra[1] the class weights */
  GNN_OP_CTC_LOSS,      /* gnn-tensor-ctc.c: extra[0] the targets, extra[1] the lengths */
  GNN_OP_RNN_LAYER,     /* one recurrent layer and direction: lib/tensor/gnn-rnn-private.h */
  /* attention (gnn-attention-private.h) */
  GNN_OP_ATTENTION_PROBS, /* inputs: q, k, float masks; scalar: scale, scalar2: dropout p;
                             flag: causal; extra[0]: P before dropout */
  GNN_OP_ATTENTION_APPLY, /* inputs: probs, value */
  /* resampling */
  GNN_OP_PAD,
  GNN_OP_INTERPOLATE,
  GNN_OP_ADAPTIVE_AVG_POOL,
  GNN_OP_ADAPTIVE_MAX_POOL,
  GNN_OP_FOLD,          /* im2col (flag) or col2im */
  GNN_OP_PIXEL_SHUFFLE,
  /* pointwise: alpha, rounding, binary math, fused ops */
  GNN_OP_ADD_ALPHA,
  GNN_OP_SUB_ALPHA,
  GNN_OP_DIV_ROUNDED,   /* trunc / floor division: zero gradients */
  GNN_OP_REMAINDER,
  GNN_OP_FMOD,
  GNN_OP_POW_TENSOR,
  GNN_OP_ATAN2,
  GNN_OP_MAXIMUM,
  GNN_OP_MINIMUM,
  GNN_OP_CLAMP,         /* inputs: self, min, max (either may be NULL) */
  GNN_OP_LERP,          /* inputs: self, end, weight */
  GNN_OP_ADDCMUL,       /* inputs: self, tensor1, tensor2; scalar: value */
  GNN_OP_ADDCDIV,
  GNN_OP_MASKED_FILL,   /* inputs: self, value; extra[0]: the mask */
  /* unary math (gradients from the saved input) */
  GNN_OP_SIN,
  GNN_OP_COS,
  GNN_OP_TAN,
  GNN_OP_ASIN,
  GNN_OP_ACOS,
  GNN_OP_ATAN,
  GNN_OP_SINH,
  GNN_OP_COSH,
  GNN_OP_ASINH,
  GNN_OP_ACOSH,
  GNN_OP_ATANH,
  GNN_OP_LOG2,
  GNN_OP_LOG10,
  GNN_OP_LOG1P,
  GNN_OP_EXPM1,
  GNN_OP_EXP2,
  GNN_OP_RSQRT,
  GNN_OP_RECIPROCAL,
  GNN_OP_ERF,
  GNN_OP_FRAC,
  /* piecewise constant: zero gradients */
  GNN_OP_SIGN,
  GNN_OP_FLOOR,
  GNN_OP_CEIL,
  GNN_OP_ROUND,
  GNN_OP_TRUNC,
  /* gather / scatter (params: dim, extra[0] the index) */
  GNN_OP_GATHER,
  GNN_OP_SCATTER,       /* inputs: self, src (a wrapped number: the value form) */
  GNN_OP_SCATTER_ADD,
  GNN_OP_INDEX_ADD,     /* inputs: self, source; scalar: alpha */
  GNN_OP_INDEX_COPY,
  GNN_OP_INDEX_FILL,    /* inputs: self, value */
  /* reductions, scans, selections */
  GNN_OP_PROD,
  GNN_OP_LOGSUMEXP,
  GNN_OP_VAR,           /* scalar: correction */
  GNN_OP_STD,
  GNN_OP_NORM,          /* scalar: p; flag: linalg.vector_norm */
  GNN_OP_MAX_DIM,       /* dim, keepdim; extra[0]: the positions (keepdim shape) */
  GNN_OP_MIN_DIM,
  GNN_OP_SORT,          /* dim; extra[0]: the positions */
  GNN_OP_TOPK,
  GNN_OP_CUMSUM,        /* dim */
  GNN_OP_CUMPROD,
  /* rearrangements */
  GNN_OP_FLIP,          /* dims */
  GNN_OP_ROLL,          /* ints: shifts; dims (n_dims 0: flattened) */
  GNN_OP_TRIL,          /* start: the diagonal */
  GNN_OP_TRIU,
  GNN_OP_REPEAT,        /* ints: repeats */
  GNN_OP_MASKED_SELECT, /* ints: the broadcast shape; extra[0]: the picked offsets in it */
  GNN_OP_DIAGONAL,      /* a view: start = offset, dims[0..1] */
  GNN_OP_DIAG_EMBED,    /* a vector onto a matrix diagonal: start = the diagonal */
  /* products */
  GNN_OP_BMM,
  GNN_OP_ADDMM,         /* inputs: self, mat1, mat2; scalar: alpha, scalar2: beta */
  GNN_OP_BADDBMM,
  GNN_OP_FILL,          /* fill_ of a tensor in the graph: nothing flows to the old values */
  GNN_OP_ZERO,
  GNN_OP_BERNOULLI,     /* samples: the probabilities get a zero gradient */
  GNN_OP_BERNOULLI_SCALAR, /* bernoulli_ (p) of a tensor in the graph, as fill_ */
  GNN_OP_KTHVALUE,      /* as MAX_DIM: dim, keepdim; extra[0]: the positions (keepdim shape) */
  GNN_OP_MEDIAN_DIM,
  GNN_OP_NANMEDIAN_DIM,
  GNN_OP_MEDIAN_ALL,    /* extra[0]: the 0-d position in the flattened input */
  GNN_OP_NANMEDIAN_ALL,
  GNN_OP_UNIFORM,       /* uniform_ / normal_ of a tensor in the graph, as fill_ */
  GNN_OP_NORMAL,
  GNN_OP_CUSTOM,        /* a GnnAutogradFunction (its node is made by lib/autograd) */
  GNN_OP_MAX_UNPOOL,    /* dim: 2 or 3 spatial dims; extra[0]: the indices */
  GNN_OP_MAX_POOL3D,    /* gnn-pool3d-private.h's ints; extra[0]: the indices */
  GNN_OP_AVG_POOL3D,
  GNN_OP_FRACTIONAL_MAX_POOL, /* dim: 2 or 3 spatial dims; extra[0]: the indices in each plane's volume */
  GNN_OP_EMBEDDING_BAG, /* gnn-embedding-bag-private.h */
  /* special functions (gradients from the saved input) */
  GNN_OP_ERFC,
  GNN_OP_ERFINV,
  GNN_OP_LGAMMA,
  GNN_OP_DIGAMMA,
  GNN_OP_LOGIT,         /* scalar: eps, or < 0 for none */
  GNN_OP_NAN_TO_NUM,
  GNN_OP_HYPOT,
  GNN_OP_FMAX,
  GNN_OP_FMIN,
  GNN_OP_COMPARE_,      /* eq_ ... ge_ (start: which): zero gradients */
  GNN_OP_MODE,          /* as KTHVALUE */
  GNN_OP_CUMMAX,        /* dim; extra[0]: the positions */
  GNN_OP_CUMMIN,
  GNN_OP_LOGCUMSUMEXP,  /* dim */
  GNN_OP_BLOCK_DIAG,    /* n inputs */
  GNN_OP_DIAG_EMBED_ND, /* start: offset; dims[0..1] */
  GNN_OP_ROT90,         /* start: k; dims[0..1] */
  GNN_OP_TAKE,          /* extra[0]: the flat positions */
  GNN_OP_MASKED_SCATTER, /* inputs: self, source; extra[0]: the mask (self's shape) */
  GNN_OP_BERNOULLI_TENSOR, /* bernoulli_ (p tensor): zero gradients */
  /* torch.linalg through LAPACK (gnn-linalg-lapack.c) */
  GNN_OP_LINALG_SOLVE,  /* inputs: A, B; flag: B is a (batch of) vector(s) */
  GNN_OP_LINALG_INV,
  GNN_OP_LINALG_DET,
  GNN_OP_LINALG_SLOGDET, /* output: logabsdet */
  GNN_OP_LINALG_CHOLESKY, /* flag: upper */
  /* multi-class hinge losses (gnn-tensor-margin-loss.c): ints[0] the
   * reduction; extra[0] the targets */
  GNN_OP_MULTI_MARGIN_LOSS, /* ints[1] p, ints[2] per-sample output; scalar: margin; extra[1]: weight */
  GNN_OP_MULTILABEL_MARGIN_LOSS, /* ints[1] per-sample output; extra[1]: is_target (uint8) */
  GNN_OP_INDEX_PUT,     /* in place on self; inputs: self, values; dim: the indexed dims;
                         * ints: the indices' broadcast shape; extra[0]: the flat positions
                         * in the merged indexed dims; flag: accumulate */
  GNN_OP_RRELU,         /* gnn-tensor-rrelu.c: extra[0] the slopes (1 where x > 0); flag: in place */
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
  double     scalar;                /* mul_scalar factor, pow exponent, eps, alpha */
  double     scalar2;               /* addmm / baddbmm beta, attention dropout p */
  double     args[4];               /* activation and loss settings (slope, alpha, beta, margin ...) */
  gint64     ints[16];              /* conv/pool geometry, layer_norm normalized_shape */
  guint      n_ints;
  gboolean   flag;                  /* batch_norm training, pool ceil_mode / count_include_pad */
  GnnTensor *extra[2];              /* non-differentiable tensors to save: index, condition, running stats */
} GnnOpParams;

/* The most operands an in-place op records besides @self (addcmul_: 2). */
#define GNN_MAX_INPLACE_OPERANDS 3

/* Installed by lib/autograd. */
typedef GnnTensor *(*GnnRecordFunc)        (GnnOpKind op, GnnTensor *out, GnnTensor *const *inputs,
                                            guint n_inputs, const GnnOpParams *params);
/* Bumps @self's version itself when it returns TRUE (see below). */
typedef gboolean   (*GnnRecordInplaceFunc) (GnnOpKind op, GnnTensor *self,
                                            GnnTensor *const *others, guint n_others,
                                            const GnnOpParams *params, GError **error);

typedef const char *(*GnnNodeNameFunc)   (gpointer grad_fn);

void gnn_tensor_set_recorder (GnnRecordFunc        record,
                              GnnRecordInplaceFunc record_inplace,
                              GnnNodeNameFunc      node_name);

/* Thread-local: TRUE inside a no-grad scope (zero-initialized: grad mode on). */
extern _Thread_local gboolean gnn_grad_mode_off;

GnnTensor *gnn_tensor_record_slow (GnnOpKind op, GnnTensor *out, GnnTensor *const *inputs,
                                   guint n_inputs, const GnnOpParams *params);
gboolean   gnn_tensor_record_inplace_slow (GnnOpKind op, GnnTensor *self,
                                           GnnTensor *const *others, guint n_others,
                                           const GnnOpParams *params, GError **error);

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

/* Called by every in-place op after validating its arguments and before
 * modifying @self: @others are its other differentiable operands (entries
 * may be %NULL), @params what its backward needs. Bumps the version of
 * @self's storage (always, also in no-grad mode) and, when recording,
 * rebases @self's history onto a new node whose input 0 is @self's previous
 * value — or fails like PyTorch for a leaf that requires grad (or a view of
 * one), leaving the version as it was. An op added later needs nothing else
 * for autograd's in-place checks. */
static inline gboolean
gnn_tensor_record_inplace_full (GnnOpKind          op,
                                GnnTensor         *self,
                                GnnTensor *const  *others,
                                guint              n_others,
                                const GnnOpParams *params,
                                GError           **error)
{
  gboolean any;

  if (gnn_grad_mode_off)
    {
      gnn_tensor_priv_bump_version (gnn_tensor_priv (self));
      return TRUE;
    }
  any = gnn_tensor_priv (self)->requires_grad ||
        (gnn_tensor_priv (self)->view_base != NULL &&
         gnn_tensor_priv (gnn_tensor_priv (self)->view_base)->requires_grad);
  for (guint i = 0; i < n_others && !any; i++)
    any = others[i] != NULL && gnn_tensor_priv (others[i])->requires_grad;
  if (G_LIKELY (!any))
    {
      gnn_tensor_priv_bump_version (gnn_tensor_priv (self));
      return TRUE;
    }
  return gnn_tensor_record_inplace_slow (op, self, others, n_others, params, error);
}

/* The one-operand form (@other may be %NULL). */
static inline gboolean
gnn_tensor_record_inplace (GnnOpKind   op,
                           GnnTensor  *self,
                           GnnTensor  *other,
                           GError    **error)
{
  return gnn_tensor_record_inplace_full (op, self, &other, other != NULL ? 1 : 0, NULL, error);
}

/* The node's PyTorch-style name ("AddBackward0"), or %NULL. */
const char *gnn_tensor_grad_fn_name (GnnTensor *self);

G_END_DECLS
