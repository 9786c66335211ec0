/* gnn-autograd.c: the op table and the recorder (graph nodes, saved tensors,
 * the in-place checks); the backward engine is gnn-autograd-engine.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

/* What each op's backward needs: which inputs (bit i) and whether the
 * output. needed_by[i]: the inputs (bits) whose gradients read saved input
 * i, for the in-place check (torch saves, hence checks, it only when one of
 * them needs a gradient); 0 (the default) is all of them. */
typedef struct
{
  GnnBackwardFunc backward;
  guint           save_inputs;
  gboolean        save_output;
  const char     *name;
  guint           needed_by[2];
} OpInfo;

#define IN0 1u
#define IN1 2u
#define IN2 4u

static const OpInfo op_info[GNN_N_OPS] = {
  [GNN_OP_ADD]          = { gnn_backward_add,          0,         FALSE, "AddBackward0" },
  [GNN_OP_SUB]          = { gnn_backward_sub,          0,         FALSE, "SubBackward0" },
  [GNN_OP_MUL]          = { gnn_backward_mul,          IN0 | IN1, FALSE, "MulBackward0", { IN1, IN0 } },
  [GNN_OP_DIV]          = { gnn_backward_div,          IN0 | IN1, FALSE, "DivBackward0", { IN1, 0 } },
  [GNN_OP_ADD_SCALAR]   = { gnn_backward_identity,     0,         FALSE, "AddBackward1" },
  [GNN_OP_MUL_SCALAR]   = { gnn_backward_mul_scalar,   0,         FALSE, "MulBackward1" },
  [GNN_OP_POW]          = { gnn_backward_unary,        IN0,       FALSE, "PowBackward0" },
  [GNN_OP_RELU]         = { gnn_backward_unary,        0,         TRUE,  "ReluBackward0" },
  [GNN_OP_GELU]         = { gnn_backward_unary,        IN0,       FALSE, "GeluBackward0" },
  [GNN_OP_TANH]         = { gnn_backward_unary,        0,         TRUE,  "TanhBackward0" },
  [GNN_OP_SIGMOID]      = { gnn_backward_unary,        0,         TRUE,  "SigmoidBackward0" },
  [GNN_OP_EXP]          = { gnn_backward_unary,        0,         TRUE,  "ExpBackward0" },
  [GNN_OP_LOG]          = { gnn_backward_unary,        IN0,       FALSE, "LogBackward0" },
  [GNN_OP_NEG]          = { gnn_backward_neg,          0,         FALSE, "NegBackward0" },
  [GNN_OP_ABS]          = { gnn_backward_unary,        IN0,       FALSE, "AbsBackward0" },
  [GNN_OP_SQRT]         = { gnn_backward_unary,        0,         TRUE,  "SqrtBackward0" },
  [GNN_OP_WHERE]        = { gnn_backward_where,        0,         FALSE, "WhereBackward0" },
  [GNN_OP_SUM]          = { gnn_backward_sum,          0,         FALSE, "SumBackward1" },
  [GNN_OP_MEAN]         = { gnn_backward_mean,         0,         FALSE, "MeanBackward1" },
  [GNN_OP_MAX]          = { gnn_backward_max,          IN0,       TRUE,  "AmaxBackward0" },
  [GNN_OP_MIN]          = { gnn_backward_max,          IN0,       TRUE,  "AminBackward0" },
  [GNN_OP_SOFTMAX]      = { gnn_backward_softmax,      0,         TRUE,  "SoftmaxBackward0" },
  [GNN_OP_LOG_SOFTMAX]  = { gnn_backward_log_softmax,  0,         TRUE,  "LogSoftmaxBackward0" },
  [GNN_OP_MATMUL]       = { gnn_backward_matmul,       IN0 | IN1, FALSE, "MmBackward0", { IN1, IN0 } },
  [GNN_OP_CAT]          = { gnn_backward_cat,          0,         FALSE, "CatBackward0" },
  [GNN_OP_STACK]        = { gnn_backward_stack,        0,         FALSE, "StackBackward0" },
  [GNN_OP_VIEW]         = { gnn_backward_reshape,      0,         FALSE, "ViewBackward0" },
  [GNN_OP_RESHAPE]      = { gnn_backward_reshape,      0,         FALSE, "ViewBackward0" },
  [GNN_OP_SQUEEZE]      = { gnn_backward_reshape,      0,         FALSE, "SqueezeBackward1" },
  [GNN_OP_UNSQUEEZE]    = { gnn_backward_reshape,      0,         FALSE, "UnsqueezeBackward0" },
  [GNN_OP_NARROW]       = { gnn_backward_narrow,       0,         FALSE, "SliceBackward0" },
  [GNN_OP_SELECT]       = { gnn_backward_select,       0,         FALSE, "SelectBackward0" },
  [GNN_OP_TRANSPOSE]    = { gnn_backward_transpose,    0,         FALSE, "TransposeBackward0" },
  [GNN_OP_PERMUTE]      = { gnn_backward_permute,      0,         FALSE, "PermuteBackward0" },
  [GNN_OP_EXPAND]       = { gnn_backward_expand,       0,         FALSE, "ExpandBackward0" },
  [GNN_OP_INDEX_SELECT] = { gnn_backward_index_select, 0,         FALSE, "IndexSelectBackward0" },
  [GNN_OP_CLONE]        = { gnn_backward_identity,     0,         FALSE, "CloneBackward0" },
  [GNN_OP_TO_DTYPE]     = { gnn_backward_to_dtype,     0,         FALSE, "ToCopyBackward0" },
  [GNN_OP_COPY]         = { gnn_backward_copy,         0,         FALSE, "CopyBackwards" },
  [GNN_OP_CONVOLUTION]  = { gnn_backward_convolution, IN0 | IN1, FALSE, "ConvolutionBackward0" },
  [GNN_OP_MAX_POOL2D]   = { gnn_backward_max_pool2d,   0,         FALSE, "MaxPool2DWithIndicesBackward0" },
  [GNN_OP_AVG_POOL2D]   = { gnn_backward_avg_pool2d,   0,         FALSE, "AvgPool2DBackward0" },
  [GNN_OP_LAYER_NORM]   = { gnn_backward_layer_norm,   IN0 | IN1, FALSE, "NativeLayerNormBackward0" },
  [GNN_OP_BATCH_NORM]   = { gnn_backward_batch_norm,   IN0 | IN1, FALSE, "NativeBatchNormBackward0" },
  [GNN_OP_GROUP_NORM]   = { gnn_backward_group_norm,   IN0 | IN1, FALSE, "NativeGroupNormBackward0" },
  [GNN_OP_EMBEDDING]    = { gnn_backward_embedding,    0,         FALSE, "EmbeddingBackward0" },
  /* nn activations (gnn-backward-activation.c) */
  [GNN_OP_LEAKY_RELU]   = { gnn_backward_activation,   IN0,       FALSE, "LeakyReluBackward0" },
  [GNN_OP_ELU]          = { gnn_backward_activation,   IN0,       FALSE, "EluBackward0" },
  [GNN_OP_CELU]         = { gnn_backward_activation,   IN0,       FALSE, "CeluBackward0" },
  [GNN_OP_SILU]         = { gnn_backward_activation,   IN0,       FALSE, "SiluBackward0" },
  [GNN_OP_MISH]         = { gnn_backward_activation,   IN0,       FALSE, "MishBackward0" },
  [GNN_OP_HARDTANH]     = { gnn_backward_activation,   IN0,       FALSE, "HardtanhBackward0" },
  [GNN_OP_HARDSWISH]    = { gnn_backward_activation,   IN0,       FALSE, "HardswishBackward0" },
  [GNN_OP_HARDSIGMOID]  = { gnn_backward_activation,   IN0,       FALSE, "HardsigmoidBackward0" },
  [GNN_OP_SOFTPLUS]     = { gnn_backward_activation,   IN0,       FALSE, "SoftplusBackward0" },
  [GNN_OP_SOFTSIGN]     = { gnn_backward_activation,   IN0,       FALSE, "DivBackward0" },
  [GNN_OP_TANHSHRINK]   = { gnn_backward_activation,   IN0,       FALSE, "SubBackward0" },
  [GNN_OP_THRESHOLD]    = { gnn_backward_activation,   IN0,       FALSE, "ThresholdBackward0" },
  [GNN_OP_GELU_TANH]    = { gnn_backward_activation,   IN0,       FALSE, "GeluBackward0" },
  [GNN_OP_HARDSHRINK]   = { gnn_backward_activation,   IN0,       FALSE, "HardshrinkBackward0" },
  [GNN_OP_SOFTSHRINK]   = { gnn_backward_activation,   IN0,       FALSE, "SoftshrinkBackward0" },
  [GNN_OP_LOG_SIGMOID]  = { gnn_backward_activation,   IN0,       FALSE, "LogSigmoidBackward0" },
  [GNN_OP_GLU]          = { gnn_backward_glu,          IN0,       FALSE, "GluBackward0" },
  [GNN_OP_PRELU]        = { gnn_backward_prelu,        IN0 | IN1, FALSE, "PreluBackward0" },
  /* nn losses (gnn-backward-loss.c; names from gnn_backward_loss_name) */
  [GNN_OP_L1_LOSS]      = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_MSE_LOSS]     = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_SMOOTH_L1_LOSS] = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_HUBER_LOSS]   = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_BCE_LOSS]     = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_BCE_LOGITS_LOSS] = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_KL_DIV_LOSS]  = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_POISSON_NLL_LOSS] = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_SOFT_MARGIN_LOSS] = { gnn_backward_pointwise_loss, IN0 | IN1, FALSE, NULL },
  [GNN_OP_NLL_LOSS]     = { gnn_backward_nll_loss,     0,         FALSE, NULL },
  [GNN_OP_CTC_LOSS]     = { gnn_backward_ctc_loss,     IN0,       FALSE, NULL },
  [GNN_OP_MULTI_MARGIN_LOSS] = { gnn_backward_multi_margin_loss, IN0, FALSE, "MultiMarginLossBackward0" },
  [GNN_OP_MULTILABEL_MARGIN_LOSS] = { gnn_backward_multilabel_margin_loss, IN0, FALSE,
                                      "MultilabelMarginLossBackward0" },
  [GNN_OP_RRELU]        = { gnn_backward_rrelu,        0,         FALSE, "RreluWithNoiseBackward0" },
  /* saves the input and the weights w_ih, w_hh, w_hr (inputs 0, 3, 4, 7) */
  [GNN_OP_RNN_LAYER]    = { gnn_backward_rnn_layer,    IN0 | 1u << 3 | 1u << 4 | 1u << 7,
                            FALSE, "RnnLayerBackward0" },
  [GNN_OP_ATTENTION_PROBS] = { gnn_backward_attention_probs, IN0 | IN1, TRUE, "MaskedSoftmaxBackward0" },
  [GNN_OP_ATTENTION_APPLY] = { gnn_backward_attention_apply, IN0 | IN1, FALSE, "BmmBackward0" },
  [GNN_OP_PAD]          = { gnn_backward_pad,          0,         FALSE, "ConstantPadNdBackward0" },
  [GNN_OP_INTERPOLATE]  = { gnn_backward_interpolate,  0,         FALSE, "UpsampleNearest2DBackward1" },
  [GNN_OP_ADAPTIVE_AVG_POOL] = { gnn_backward_adaptive_avg_pool, 0, FALSE, "AdaptiveAvgPool2DBackward0" },
  [GNN_OP_ADAPTIVE_MAX_POOL] = { gnn_backward_adaptive_max_pool, 0, FALSE, "AdaptiveMaxPool2DBackward0" },
  [GNN_OP_FOLD]         = { gnn_backward_fold,         0,         FALSE, "Col2ImBackward0" },
  [GNN_OP_PIXEL_SHUFFLE] = { gnn_backward_pixel_shuffle, 0,       FALSE, "PixelShuffleBackward0" },
  [GNN_OP_ADD_ALPHA]    = { gnn_backward_add_alpha,    0,         FALSE, "AddBackward0" },
  [GNN_OP_SUB_ALPHA]    = { gnn_backward_add_alpha,    0,         FALSE, "SubBackward0" },
  [GNN_OP_DIV_ROUNDED]  = { gnn_backward_zero,         0,         FALSE, "DivBackward2" },
  [GNN_OP_REMAINDER]    = { gnn_backward_remainder,    IN0 | IN1, FALSE, "RemainderBackward1" },
  [GNN_OP_FMOD]         = { gnn_backward_remainder,    IN0 | IN1, FALSE, "FmodBackward1" },
  [GNN_OP_POW_TENSOR]   = { gnn_backward_pow_tensor,   IN0 | IN1, FALSE, "PowBackward1" },
  [GNN_OP_ATAN2]        = { gnn_backward_atan2,        IN0 | IN1, FALSE, "Atan2Backward0" },
  [GNN_OP_MAXIMUM]      = { gnn_backward_maximum,      IN0 | IN1, FALSE, "MaximumBackward0" },
  [GNN_OP_MINIMUM]      = { gnn_backward_maximum,      IN0 | IN1, FALSE, "MinimumBackward0" },
  [GNN_OP_CLAMP]        = { gnn_backward_clamp,        IN0 | IN1 | IN2, FALSE, "ClampBackward0" },
  [GNN_OP_LERP]         = { gnn_backward_lerp,         IN0 | IN1 | IN2, FALSE, "LerpBackward1" },
  [GNN_OP_ADDCMUL]      = { gnn_backward_addcmul,      IN1 | IN2, FALSE, "AddcmulBackward0" },
  [GNN_OP_ADDCDIV]      = { gnn_backward_addcdiv,      IN1 | IN2, FALSE, "AddcdivBackward0" },
  [GNN_OP_MASKED_FILL]  = { gnn_backward_masked_fill,  0,         FALSE, "MaskedFillBackward1" },
  [GNN_OP_SIN]          = { gnn_backward_unary,        IN0,       FALSE, "SinBackward0" },
  [GNN_OP_COS]          = { gnn_backward_unary,        IN0,       FALSE, "CosBackward0" },
  [GNN_OP_TAN]          = { gnn_backward_unary,        IN0,       FALSE, "TanBackward0" },
  [GNN_OP_ASIN]         = { gnn_backward_unary,        IN0,       FALSE, "AsinBackward0" },
  [GNN_OP_ACOS]         = { gnn_backward_unary,        IN0,       FALSE, "AcosBackward0" },
  [GNN_OP_ATAN]         = { gnn_backward_unary,        IN0,       FALSE, "AtanBackward0" },
  [GNN_OP_SINH]         = { gnn_backward_unary,        IN0,       FALSE, "SinhBackward0" },
  [GNN_OP_COSH]         = { gnn_backward_unary,        IN0,       FALSE, "CoshBackward0" },
  [GNN_OP_ASINH]        = { gnn_backward_unary,        IN0,       FALSE, "AsinhBackward0" },
  [GNN_OP_ACOSH]        = { gnn_backward_unary,        IN0,       FALSE, "AcoshBackward0" },
  [GNN_OP_ATANH]        = { gnn_backward_unary,        IN0,       FALSE, "AtanhBackward0" },
  [GNN_OP_LOG2]         = { gnn_backward_unary,        IN0,       FALSE, "Log2Backward0" },
  [GNN_OP_LOG10]        = { gnn_backward_unary,        IN0,       FALSE, "Log10Backward0" },
  [GNN_OP_LOG1P]        = { gnn_backward_unary,        IN0,       FALSE, "Log1PBackward0" },
  [GNN_OP_EXPM1]        = { gnn_backward_unary,        IN0,       FALSE, "Expm1Backward0" },
  [GNN_OP_EXP2]         = { gnn_backward_unary,        IN0,       FALSE, "Exp2Backward0" },
  [GNN_OP_RSQRT]        = { gnn_backward_unary,        IN0,       FALSE, "RsqrtBackward0" },
  [GNN_OP_RECIPROCAL]   = { gnn_backward_unary,        IN0,       FALSE, "ReciprocalBackward0" },
  [GNN_OP_ERF]          = { gnn_backward_unary,        IN0,       FALSE, "ErfBackward0" },
  [GNN_OP_FRAC]         = { gnn_backward_identity,     0,         FALSE, "FracBackward0" },
  [GNN_OP_SIGN]         = { gnn_backward_zero,         0,         FALSE, "SignBackward0" },
  [GNN_OP_FLOOR]        = { gnn_backward_zero,         0,         FALSE, "FloorBackward0" },
  [GNN_OP_CEIL]         = { gnn_backward_zero,         0,         FALSE, "CeilBackward0" },
  [GNN_OP_ROUND]        = { gnn_backward_zero,         0,         FALSE, "RoundBackward0" },
  [GNN_OP_TRUNC]        = { gnn_backward_zero,         0,         FALSE, "TruncBackward0" },
  [GNN_OP_GATHER]       = { gnn_backward_gather,       0,         FALSE, "GatherBackward0" },
  [GNN_OP_SCATTER]      = { gnn_backward_scatter,      0,         FALSE, "ScatterBackward0" },
  [GNN_OP_SCATTER_ADD]  = { gnn_backward_scatter,      0,         FALSE, "ScatterAddBackward0" },
  [GNN_OP_INDEX_ADD]    = { gnn_backward_index_add,    0,         FALSE, "IndexAddBackward0" },
  [GNN_OP_INDEX_COPY]   = { gnn_backward_index_copy,   0,         FALSE, "IndexCopyBackward0" },
  [GNN_OP_INDEX_PUT]    = { gnn_backward_index_put,    0,         FALSE, "IndexPutBackward0" },
  [GNN_OP_INDEX_FILL]   = { gnn_backward_index_copy,   0,         FALSE, "IndexFillBackward1" },
  [GNN_OP_PROD]         = { gnn_backward_prod,         IN0,       TRUE,  "ProdBackward1" },
  [GNN_OP_LOGSUMEXP]    = { gnn_backward_logsumexp,    IN0,       TRUE,  "LogsumexpBackward0" },
  [GNN_OP_VAR]          = { gnn_backward_var,          IN0,       FALSE, "VarBackward0" },
  [GNN_OP_STD]          = { gnn_backward_var,          IN0,       TRUE,  "StdBackward0" },
  [GNN_OP_NORM]         = { gnn_backward_norm,         IN0,       TRUE,  "NormBackward1" },
  [GNN_OP_MAX_DIM]      = { gnn_backward_select_indices, 0,       FALSE, "MaxBackward0" },
  [GNN_OP_MIN_DIM]      = { gnn_backward_select_indices, 0,       FALSE, "MinBackward0" },
  [GNN_OP_SORT]         = { gnn_backward_select_indices, 0,       FALSE, "SortBackward0" },
  [GNN_OP_TOPK]         = { gnn_backward_select_indices, 0,       FALSE, "TopkBackward0" },
  [GNN_OP_CUMSUM]       = { gnn_backward_cumsum,       0,         FALSE, "CumsumBackward0" },
  [GNN_OP_CUMPROD]      = { gnn_backward_cumprod,      IN0,       TRUE,  "CumprodBackward0" },
  [GNN_OP_FLIP]         = { gnn_backward_flip,         0,         FALSE, "FlipBackward0" },
  [GNN_OP_ROLL]         = { gnn_backward_roll,         0,         FALSE, "RollBackward0" },
  [GNN_OP_TRIL]         = { gnn_backward_triangle,     0,         FALSE, "TrilBackward0" },
  [GNN_OP_TRIU]         = { gnn_backward_triangle,     0,         FALSE, "TriuBackward0" },
  [GNN_OP_REPEAT]       = { gnn_backward_repeat,       0,         FALSE, "RepeatBackward0" },
  [GNN_OP_MASKED_SELECT] = { gnn_backward_masked_select, 0,       FALSE, "MaskedSelectBackward0" },
  [GNN_OP_DIAGONAL]     = { gnn_backward_diagonal,     0,         FALSE, "DiagonalBackward0" },
  [GNN_OP_DIAG_EMBED]   = { gnn_backward_diagonal,     0,         FALSE, "DiagBackward0" },
  [GNN_OP_BMM]          = { gnn_backward_matmul,       IN0 | IN1, FALSE, "BmmBackward0" },
  [GNN_OP_ADDMM]        = { gnn_backward_addmm,        IN1 | IN2, FALSE, "AddmmBackward0" },
  [GNN_OP_BADDBMM]      = { gnn_backward_addmm,        IN1 | IN2, FALSE, "BaddbmmBackward0" },
  [GNN_OP_FILL]         = { gnn_backward_zero,         0,         FALSE, "FillBackward2" },
  [GNN_OP_ZERO]         = { gnn_backward_zero,         0,         FALSE, "ZeroBackward0" },
  [GNN_OP_BERNOULLI]    = { gnn_backward_zero,         0,         FALSE, "BernoulliBackward0" },
  [GNN_OP_BERNOULLI_SCALAR] = { gnn_backward_zero,     0,         FALSE, "BernoulliBackward2" },
  [GNN_OP_KTHVALUE]     = { gnn_backward_select_indices, 0,       FALSE, "KthvalueBackward0" },
  [GNN_OP_MEDIAN_DIM]   = { gnn_backward_select_indices, 0,       FALSE, "MedianBackward1" },
  [GNN_OP_NANMEDIAN_DIM] = { gnn_backward_select_indices, 0,      FALSE, "NanmedianBackward1" },
  [GNN_OP_MEDIAN_ALL]   = { gnn_backward_select_flat,  0,         FALSE, "MedianBackward0" },
  [GNN_OP_NANMEDIAN_ALL] = { gnn_backward_select_flat, 0,         FALSE, "NanmedianBackward0" },
  [GNN_OP_UNIFORM]      = { gnn_backward_zero,         0,         FALSE, "UniformBackward0" },
  [GNN_OP_NORMAL]       = { gnn_backward_zero,         0,         FALSE, "NormalBackward0" },
  [GNN_OP_CUSTOM]       = { NULL,                      0,         FALSE, "CustomBackward" },
  [GNN_OP_MAX_UNPOOL]   = { gnn_backward_max_unpool,   0,         FALSE, "MaxUnpool2DBackward0" },
  [GNN_OP_MAX_POOL3D]   = { gnn_backward_max_pool3d,   0,         FALSE, "MaxPool3DWithIndicesBackward0" },
  [GNN_OP_AVG_POOL3D]   = { gnn_backward_avg_pool3d,   0,         FALSE, "AvgPool3DBackward0" },
  [GNN_OP_FRACTIONAL_MAX_POOL] = { gnn_backward_fractional_max_pool, 0, FALSE, "FractionalMaxPool2DBackward0" },
  [GNN_OP_EMBEDDING_BAG] = { gnn_backward_embedding_bag, IN0 | IN1, FALSE, "EmbeddingBagBackward0", { IN1, IN0 } },
  [GNN_OP_ERFC]         = { gnn_backward_unary,        IN0,       FALSE, "ErfcBackward0" },
  [GNN_OP_ERFINV]       = { gnn_backward_unary,        IN0,       FALSE, "ErfinvBackward0" },
  [GNN_OP_LGAMMA]       = { gnn_backward_unary,        IN0,       FALSE, "LgammaBackward0" },
  [GNN_OP_DIGAMMA]      = { gnn_backward_unary,        IN0,       FALSE, "DigammaBackward0" },
  [GNN_OP_LOGIT]        = { gnn_backward_unary,        IN0,       FALSE, "LogitBackward0" },
  [GNN_OP_NAN_TO_NUM]   = { gnn_backward_nan_to_num,   IN0,       FALSE, "NanToNumBackward0" },
  [GNN_OP_HYPOT]        = { gnn_backward_hypot,        IN0 | IN1, TRUE,  "HypotBackward0" },
  [GNN_OP_FMAX]         = { gnn_backward_fmax,         IN0 | IN1, FALSE, "FmaxBackward0" },
  [GNN_OP_FMIN]         = { gnn_backward_fmax,         IN0 | IN1, FALSE, "FminBackward0" },
  [GNN_OP_COMPARE_]     = { gnn_backward_zero,         0,         FALSE, NULL },
  [GNN_OP_MODE]         = { gnn_backward_select_indices, 0,       FALSE, "ModeBackward0" },
  [GNN_OP_CUMMAX]       = { gnn_backward_cummax,       0,         FALSE, "CummaxBackward0" },
  [GNN_OP_CUMMIN]       = { gnn_backward_cummax,       0,         FALSE, "CumminBackward0" },
  [GNN_OP_LOGCUMSUMEXP] = { gnn_backward_logcumsumexp, IN0,       TRUE,  "LogcumsumexpBackward0" },
  [GNN_OP_BLOCK_DIAG]   = { gnn_backward_block_diag,   0,         FALSE, "BlockDiagBackward0" },
  [GNN_OP_DIAG_EMBED_ND] = { gnn_backward_diag_embed,  0,         FALSE, "DiagEmbedBackward0" },
  [GNN_OP_ROT90]        = { gnn_backward_rot90,        0,         FALSE, "Rot90Backward0" },
  [GNN_OP_TAKE]         = { gnn_backward_take,         0,         FALSE, "TakeBackward0" },
  [GNN_OP_MASKED_SCATTER] = { gnn_backward_masked_scatter, 0,     FALSE, "MaskedScatterBackward0" },
  [GNN_OP_LINALG_SOLVE] = { gnn_backward_linalg_solve, IN0,      TRUE,  "LinalgSolveExBackward0" },
  [GNN_OP_LINALG_INV]   = { gnn_backward_linalg_inv,   0,         TRUE,  "LinalgInvExBackward0" },
  [GNN_OP_LINALG_DET]   = { gnn_backward_linalg_det,   IN0,       TRUE,  "LinalgDetBackward0" },
  [GNN_OP_LINALG_SLOGDET] = { gnn_backward_linalg_slogdet, IN0,   FALSE, "LinalgSlogdetBackward0" },
  [GNN_OP_LINALG_CHOLESKY] = { gnn_backward_linalg_cholesky, 0,   TRUE,  "LinalgCholeskyExBackward0" },
  [GNN_OP_BERNOULLI_TENSOR] = { gnn_backward_zero,     0,         FALSE, "BernoulliBackward1" },
};

static gboolean
is_wrapped (GnnTensor *const *inputs,
            guint             i)
{
  return inputs[i] == NULL || gnn_tensor_priv (inputs[i])->wrapped_number;
}

static const char *
node_name (GnnOpKind          op,
           const GnnOpParams *params,
           GnnTensor *const  *inputs)
{
  switch (op)
    {
    case GNN_OP_SUM:
      return params->n_dims == 0 ? "SumBackward0" : "SumBackward1";
    case GNN_OP_MEAN:
      return params->n_dims == 0 ? "MeanBackward0" : "MeanBackward1";
    case GNN_OP_MAX:
      return params->n_dims == 0 ? "MaxBackward1" : "AmaxBackward0";
    case GNN_OP_MIN:
      return params->n_dims == 0 ? "MinBackward1" : "AminBackward0";
    /* torch names the forms with a number operand separately */
    case GNN_OP_SUB:
    case GNN_OP_SUB_ALPHA:
      return is_wrapped (inputs, 0) ? "RsubBackward1" : op_info[op].name;
    case GNN_OP_REMAINDER:
      return is_wrapped (inputs, 1) ? "RemainderBackward0" : "RemainderBackward1";
    case GNN_OP_FMOD:
      return is_wrapped (inputs, 1) ? "FmodBackward0" : "FmodBackward1";
    case GNN_OP_POW_TENSOR:
      return is_wrapped (inputs, 1) ? "PowBackward0" : "PowBackward1";
    case GNN_OP_CLAMP:
      return is_wrapped (inputs, 1) && is_wrapped (inputs, 2) ? "ClampBackward1" : "ClampBackward0";
    case GNN_OP_LERP:
      return is_wrapped (inputs, 2) ? "LerpBackward0" : "LerpBackward1";
    case GNN_OP_MASKED_FILL:
      return is_wrapped (inputs, 1) ? "MaskedFillBackward0" : "MaskedFillBackward1";
    case GNN_OP_COMPARE_:
      {
        static const char *const names[][2] = {
          { "EqBackward0", "EqBackward1" }, { "NeBackward0", "NeBackward1" },
          { "LtBackward0", "LtBackward1" }, { "LeBackward0", "LeBackward1" },
          { "GtBackward0", "GtBackward1" }, { "GeBackward0", "GeBackward1" },
        };

        return names[params->start][is_wrapped (inputs, 1) ? 0 : 1];
      }
    case GNN_OP_PROD:
      return params->n_dims == 0 ? "ProdBackward0" : "ProdBackward1";
    case GNN_OP_NORM:
      return params->flag ? "LinalgVectorNormBackward0" : "NormBackward1";
    case GNN_OP_SCATTER:
      return is_wrapped (inputs, 1) ? "ScatterBackward1" : "ScatterBackward0";
    case GNN_OP_INDEX_FILL:
      return is_wrapped (inputs, 1) ? "IndexFillBackward0" : "IndexFillBackward1";
    case GNN_OP_MATMUL:
      {
        guint a = gnn_tensor_priv (inputs[0])->ndim, b = gnn_tensor_priv (inputs[1])->ndim;

        if (a == 1 && b == 1)
          return "DotBackward0";
        if (a == 2 && b == 1)
          return "MvBackward0";
        if (a <= 2 && b == 2)
          return a == 1 ? "SqueezeBackward3" : "MmBackward0";
        return a == 2 && b > 2 ? "CloneBackward0" : "UnsafeViewBackward0";
      }
    case GNN_OP_FOLD:
      return params->flag ? "Im2ColBackward0" : "Col2ImBackward0";
    case GNN_OP_PIXEL_SHUFFLE:
      return params->flag ? "PixelUnshuffleBackward0" : "PixelShuffleBackward0";
    case GNN_OP_MAX_UNPOOL:
      return params->dim == 3 ? "MaxUnpool3DBackward0" : "MaxUnpool2DBackward0";
    case GNN_OP_FRACTIONAL_MAX_POOL:
      return params->dim == 3 ? "FractionalMaxPool3DBackward0" : "FractionalMaxPool2DBackward0";
    case GNN_OP_GROUP_NORM:
      /* torch runs instance norm as a batch norm of a view */
      return params->flag ? "ViewBackward0" : op_info[op].name;
    case GNN_OP_RRELU:
      return params->flag ? "RreluWithNoiseBackward1" : op_info[op].name;
    case GNN_OP_PAD:
      return gnn_backward_pad_name ((GnnPaddingMode) params->dim, params->n_ints);
    case GNN_OP_INTERPOLATE:
    case GNN_OP_ADAPTIVE_AVG_POOL:
    case GNN_OP_ADAPTIVE_MAX_POOL:
      return gnn_backward_resample_name (op, params);
    default:
      return op_info[op].name != NULL ? op_info[op].name : gnn_backward_loss_name (op, params);
    }
}


static const char *
node_get_name (gpointer grad_fn)
{
  return ((GnnNode *) grad_fn)->name;
}

static void
meta_from (GnnMeta   *meta,
           GnnTensor *t)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  meta->dtype = p->dtype;
  meta->ndim = p->ndim;
  memcpy (meta->shape, p->shape, sizeof (gint64) * p->ndim);
}

/* A new tensor object sharing @t's storage and geometry, outside the graph. */
static GnnTensor *
detached_view (GnnTensor *t)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  GnnTensor *view = gnn_tensor_new_view (t, p->shape, p->strides, p->ndim, p->offset);

  gnn_tensor_priv (view)->wrapped_number = p->wrapped_number;
  return view;
}

static gboolean
is_float (GnnDType dtype)
{
  return dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64;
}

/* Creates a node for @op with edges to @inputs' grad_fns or leaves. */
static GnnNode *
node_new (GnnOpKind          op,
          GnnTensor *const  *inputs,
          guint              n_inputs,
          const GnnOpParams *params)
{
  GnnNode *node = g_new0 (GnnNode, 1);

  g_atomic_ref_count_init (&node->ref_count);
  node->op = op;
  node->backward = op_info[op].backward;
  node->name = node_name (op, params, inputs);
  node->n_outputs = 1;
  node->grads_out = g_new0 (GnnTensor *, 1);
  node->n_inputs = n_inputs;
  node->edges = g_new0 (GnnEdge, n_inputs);
  node->inputs = g_new0 (GnnMeta, n_inputs);
  /* one block: the saved tensors, then their versions */
  node->saved = g_malloc0 (n_inputs * (sizeof (GnnTensor *) + sizeof (guint)));
  node->saved_versions = (guint *) (node->saved + n_inputs);
  if (params != NULL)
    {
      node->params = *params;
      for (guint i = 0; i < G_N_ELEMENTS (node->params.extra); i++)
        if (node->params.extra[i] != NULL)
          {
            node->params.extra[i] = op == GNN_OP_BATCH_NORM   /* running stats change later */
                                    ? gnn_tensor_clone (node->params.extra[i])
                                    : detached_view (node->params.extra[i]);
            node->extra_versions[i] =
              gnn_storage_get_version (gnn_tensor_priv (node->params.extra[i])->storage);
          }
    }
  for (guint i = 0; i < n_inputs; i++)
    {
      GnnTensorPrivate *p;

      if (inputs[i] == NULL)
        continue;
      p = gnn_tensor_priv (inputs[i]);
      meta_from (&node->inputs[i], inputs[i]);
      if (!p->requires_grad || !is_float (p->dtype))
        continue;
      if (p->grad_fn != NULL)
        {
          node->edges[i].node = gnn_node_ref (p->grad_fn);
          node->edges[i].input_nr = p->grad_fn_output;
        }
      else
        node->edges[i].leaf = g_object_ref (inputs[i]);
    }
  return node;
}

/* Saves @t (a copy of its current values if @copy) and the version it is
 * at, for gnn_node_check_saved(). */
static void
save_input (GnnNode   *node,
            guint      i,
            GnnTensor *t,
            gboolean   copy)
{
  node->saved[i] = copy ? gnn_tensor_clone (t) : detached_view (t);
  node->saved_versions[i] = gnn_storage_get_version (gnn_tensor_priv (node->saved[i])->storage);
  node->has_saved = TRUE;
}

static void
save_output (GnnNode   *node,
             GnnTensor *out)
{
  node->saved_out = detached_view (out);
  node->saved_out_version = gnn_storage_get_version (gnn_tensor_priv (out)->storage);
  node->has_saved = TRUE;
}

static void
attach_output (GnnTensor *out,
               GnnNode   *node,
               guint      output_nr)
{
  GnnTensorPrivate *p = gnn_tensor_priv (out);

  if (p->grad_fn_destroy != NULL && p->grad_fn != NULL)
    p->grad_fn_destroy (p->grad_fn);
  p->grad_fn = node;
  p->grad_fn_destroy = (GDestroyNotify) gnn_node_unref;
  p->grad_fn_output = output_nr;
  p->requires_grad = TRUE;
  if (G_UNLIKELY (p->retains_grad))   /* an in-place op's new node keeps it */
    gnn_node_add_retainer (node, out, output_nr);
}

static void
attach (GnnTensor *out,
        GnnNode   *node)
{
  attach_output (out, node, 0);
}

GnnNode *
gnn_node_new_custom (const char       *name,
                     GnnTensor *const *inputs,
                     guint             n_inputs,
                     guint             n_outputs,
                     GnnBackwardFunc   backward,
                     gpointer          custom,
                     GDestroyNotify    custom_free)
{
  GnnNode *node = node_new (GNN_OP_CUSTOM, inputs, n_inputs, NULL);

  node->owned_name = g_strdup (name);
  node->name = node->owned_name;
  node->backward = backward;
  node->custom = custom;
  node->custom_free = custom_free;
  node->n_outputs = MAX (n_outputs, 1);
  g_free (node->grads_out);
  node->grads_out = g_new0 (GnnTensor *, node->n_outputs);
  return node;
}

void
gnn_node_attach (GnnNode   *node,
                 GnnTensor *out,
                 guint      output_nr)
{
  if (output_nr == 0)
    meta_from (&node->out, out);
  attach_output (out, gnn_node_ref (node), output_nr);
}

static void
unref_nullable (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

void
gnn_node_save_extra (GnnNode   *node,
                     GnnTensor *t)
{
  guint version = t != NULL ? gnn_storage_get_version (gnn_tensor_priv (t)->storage) : 0;

  if (node->saved_extra == NULL)
    {
      node->saved_extra = g_ptr_array_new_with_free_func (unref_nullable);
      node->saved_extra_versions = g_array_new (FALSE, FALSE, sizeof (guint));
    }
  node->has_saved = TRUE;
  /* torch keeps None in its place */
  g_ptr_array_add (node->saved_extra, t != NULL ? detached_view (t) : NULL);
  g_array_append_val (node->saved_extra_versions, version);
}

/* The inputs @node's backward will read: mul needs each factor only for the
 * other one's gradient, div its dividend only for the divisor's (so
 * `y = x * 2; x.add_(1)` stays possible, as in torch). */
static guint
save_mask (GnnNode      *node,
           const OpInfo *info)
{
  switch (node->op)
    {
    case GNN_OP_MUL:
      return (gnn_node_needs_grad (node, 1) ? IN0 : 0) | (gnn_node_needs_grad (node, 0) ? IN1 : 0);
    case GNN_OP_DIV:
      return IN1 | (gnn_node_needs_grad (node, 1) ? IN0 : 0);
    default:
      return info->save_inputs;
    }
}

static GnnTensor *
record (GnnOpKind          op,
        GnnTensor         *out,
        GnnTensor *const  *inputs,
        guint              n_inputs,
        const GnnOpParams *params)
{
  const OpInfo *info = &op_info[op];
  GnnNode *node;
  gboolean any = FALSE;

  if (!is_float (gnn_tensor_priv (out)->dtype))
    return out;
  node = node_new (op, inputs, n_inputs, params);
  for (guint i = 0; i < n_inputs; i++)
    any = any || gnn_node_needs_grad (node, i);
  if (!any)
    {
      gnn_node_unref (node);
      return out;
    }
  for (guint i = 0; i < n_inputs; i++)
    if ((save_mask (node, info) & (1u << i)) && inputs[i] != NULL)
      save_input (node, i, inputs[i], FALSE);
  meta_from (&node->out, out);
  if (info->save_output)
    save_output (node, out);
  if (node->params.extra[0] != NULL || node->params.extra[1] != NULL)
    node->has_saved = TRUE;
  attach (out, node);
  return out;
}

GnnNode *
gnn_node_new_inplace (GnnOpKind          op,
                      GnnTensor         *self,
                      GnnTensor *const  *others,
                      guint              n_others,
                      const GnnOpParams *params)
{
  GnnTensor *inputs[1 + GNN_MAX_INPLACE_OPERANDS] = { self };
  const OpInfo *info = &op_info[op];
  GnnNode *node;

  for (guint i = 0; i < n_others; i++)
    inputs[1 + i] = others[i];
  node = node_new (op, inputs, 1 + n_others, params);
  for (guint i = 0; i < node->n_inputs; i++)
    if ((save_mask (node, info) & (1u << i)) && inputs[i] != NULL)
      {
        /* @self is about to change: keep its current values. */
        gboolean copy = i == 0 || gnn_tensor_shares_storage (inputs[i], self);

        save_input (node, i, inputs[i], copy);
      }
  meta_from (&node->out, self);
  if (info->save_output)
    /* @self holds the output once the op has written it: at the new
     * version (the in-place recorders bump it before making the node) */
    save_output (node, self);
  if (node->params.extra[0] != NULL || node->params.extra[1] != NULL)
    node->has_saved = TRUE;
  return node;
}

void
gnn_node_note_inplace (GnnTensor *self)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self);

  sp->storage->inplace_name = ((GnnNode *) sp->grad_fn)->name;
  sp->storage->inplace_version = gnn_storage_get_version (sp->storage);
}

static gboolean
is_view_op (GnnOpKind op)
{
  return op >= GNN_OP_VIEW && op <= GNN_OP_EXPAND;
}

/* Whether a chain of view nodes from @node reaches a leaf (one that
 * requires grad: only those have edges) — @node's output is a view of it,
 * also when that leaf is itself a view of a tensor outside the graph. */
static gboolean
views_a_leaf (GnnNode *node)
{
  for (; node != NULL && is_view_op (node->op); node = node->edges[0].node)
    if (node->edges[0].leaf != NULL)
      return TRUE;
  return FALSE;
}

/* add_, sub_, mul_, div_, relu_, copy_ … on a tensor in the graph (or with
 * an operand in it): the op becomes a node whose input 0 is @self's previous
 * history and whose inputs 1.. are @others. On a view, the view's base
 * takes the new history (gnn-autograd-views.c). */
static gboolean
record_inplace (GnnOpKind          op,
                GnnTensor         *self,
                GnnTensor *const  *others,
                guint              n_others,
                const GnnOpParams *params,
                GError           **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self);
  GnnNode *prev = sp->grad_fn;

  g_return_val_if_fail (n_others <= GNN_MAX_INPLACE_OPERANDS, FALSE);
  if (sp->requires_grad && prev == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "a leaf Variable that requires grad is being used in an in-place operation.");
      return FALSE;
    }
  /* Writing over values autograd saved is allowed, as in torch: the version
   * moves, and a backward that would read them fails (gnn_node_check_saved()). */
  if (prev != NULL && views_a_leaf (prev))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.");
      return FALSE;
    }
  if (sp->view_base != NULL)
    return gnn_record_inplace_on_view (op, self, others, n_others, params, error);
  gnn_tensor_priv_bump_version (sp);
  if (!is_float (sp->dtype))
    return TRUE;
  attach (self, gnn_node_new_inplace (op, self, others, n_others, params));
  gnn_node_note_inplace (self);
  return TRUE;
}

__attribute__((constructor)) static void
gnn_autograd_install (void)
{
  gnn_tensor_set_recorder (record, record_inplace, node_get_name);
}

/* Whether @saved was written in place since it was saved at @version. */
static inline gboolean
saved_changed (GnnTensor *saved,
               guint      version)
{
  return gnn_storage_get_version (gnn_tensor_priv (saved)->storage) != version;
}

/* The grad_fn torch names for a saved input found changed: a view's is
 * regenerated once its base changed (AsStridedBackward0); otherwise the
 * tensor's grad_fn as it is now — the node of an in-place op recorded since
 * the save (its storage keeps the last one), else its producer. */
static const char *
changed_input_grad_fn (GnnNode   *producer,
                       GnnTensor *saved,
                       guint      version)
{
  GnnStorage *storage = gnn_tensor_priv (saved)->storage;

  if (producer != NULL && is_view_op (producer->op))
    return "AsStridedBackward0";
  if (storage->inplace_name != NULL && (gint) (storage->inplace_version - version) > 0)
    return storage->inplace_name;
  return producer != NULL ? producer->name : NULL;
}

/* Whether the gradients @node must compute read its saved input @i. */
static gboolean
saved_needed (GnnNode      *node,
              const OpInfo *info,
              guint         i)
{
  if (i >= G_N_ELEMENTS (info->needed_by) || info->needed_by[i] == 0)
    return TRUE;
  for (guint k = 0; k < node->n_inputs && k < 32; k++)
    if ((info->needed_by[i] & (1u << k)) && gnn_node_needs_grad (node, k))
      return TRUE;
  return FALSE;
}

gboolean
gnn_node_check_saved (GnnNode  *node,
                      GError  **error)
{
  const OpInfo *info = &op_info[node->op];

  for (guint i = 0; i < node->n_inputs; i++)
    {
      GnnTensor *saved = node->saved[i];

      if (saved == NULL || G_LIKELY (!saved_changed (saved, node->saved_versions[i])) ||
          !saved_needed (node, info, i))
        continue;
      gnn_saved_version_error (saved, node->saved_versions[i],
                               changed_input_grad_fn (node->edges[i].node, saved,
                                                      node->saved_versions[i]),
                               error);
      return FALSE;
    }
  if (node->saved_out != NULL && saved_changed (node->saved_out, node->saved_out_version))
    {
      /* an output: named after the node that saved it */
      gnn_saved_version_error (node->saved_out, node->saved_out_version, node->name, error);
      return FALSE;
    }
  for (guint i = 0; node->saved_extra != NULL && i < node->saved_extra->len; i++)
    {
      GnnTensor *saved = g_ptr_array_index (node->saved_extra, i);
      guint version = g_array_index (node->saved_extra_versions, guint, i);

      if (saved != NULL && saved_changed (saved, version))
        {
          gnn_saved_version_error (saved, version, NULL, error);
          return FALSE;
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (node->params.extra); i++)
    if (node->params.extra[i] != NULL &&
        saved_changed (node->params.extra[i], node->extra_versions[i]))
      {
        gnn_saved_version_error (node->params.extra[i], node->extra_versions[i], NULL, error);
        return FALSE;
      }
  return TRUE;
}

/**
 * gnn_tensor_detach:
 * @self: a #GnnTensor
 *
 * Returns a tensor sharing @self's storage and geometry that is outside the
 * autograd graph: no grad_fn and `requires_grad` %FALSE (like
 * `tensor.detach ()`).
 *
 * Returns: (transfer full): the detached tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_detach (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return detached_view (self);
}

/**
 * gnn_tensor_get_version:
 * @self: a #GnnTensor
 *
 * The version counter of @self's storage (torch's `tensor._version`): the
 * number of in-place writes into it — in-place ops, fills, copies, the
 * optimizers' updates — through @self or any tensor sharing its storage
 * (views, detached tensors), in every grad mode. Autograd records the
 * version of each tensor it saves for backward, and a backward that would
 * read one at another version fails ("one of the variables needed for
 * gradient computation has been modified by an inplace operation …").
 *
 * Returns: the version, 0 for a tensor never written in place
 *
 * Since: 0.1
 */
guint
gnn_tensor_get_version (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  return gnn_storage_get_version (gnn_tensor_priv (self)->storage);
}
