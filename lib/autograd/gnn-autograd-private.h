/* gnn-autograd-private.h: graph nodes and backward functions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

typedef struct _GnnNode GnnNode;

/* Computes the gradients of the node's inputs from @grad (the gradient of
 * its output): sets grads[i] (transfer full) for every i with
 * gnn_node_needs_grad (node, i); may leave others NULL. */
typedef gboolean (*GnnBackwardFunc) (GnnNode    *node,
                                     GnnTensor  *grad,
                                     GnnTensor **grads,
                                     GError    **error);

/* Geometry of an input or output, kept after the tensors are gone. */
typedef struct
{
  GnnDType dtype;
  guint    ndim;
  gint64   shape[GNN_MAX_DIMS];
} GnnMeta;

/* Where an input's gradient goes: output @input_nr of a node, a leaf's
 * .grad, or nowhere. */
typedef struct
{
  GnnNode   *node;
  GnnTensor *leaf;
  guint      input_nr;
} GnnEdge;

struct _GnnNode
{
  gatomicrefcount ref_count;
  GnnOpKind       op;
  const char     *name;
  GnnBackwardFunc backward;
  guint           n_inputs;
  GnnEdge        *edges;
  GnnMeta        *inputs;
  GnnMeta         out;            /* output 0 */
  guint           n_outputs;      /* 1 except for custom functions */
  GnnTensor     **saved;          /* n_inputs detached copies or views, NULL where unneeded */
  guint          *saved_versions; /* their storages' versions when saved (same block as saved) */
  GPtrArray      *saved_extra;    /* what a custom function saved (ctx.save_for_backward) */
  GArray         *saved_extra_versions; /* guint: their versions when saved */
  GnnTensor      *saved_out;      /* detached view of the output, if needed */
  guint           saved_out_version;
  GnnOpParams     params;         /* extra[] owned */
  guint           extra_versions[G_N_ELEMENTS (((GnnOpParams *) NULL)->extra)];
  gboolean        has_saved;
  gboolean        freed;          /* saved tensors released by a backward pass */
  char           *owned_name;     /* a custom function's "<Name>Backward" */
  gpointer        custom;         /* a custom function's context, freed with the node */
  GDestroyNotify  custom_free;
  gpointer        wrapper;        /* the GnnGradFn standing for it, if one is alive */
  GPtrArray      *retainers;      /* tensors whose .grad keeps an output's gradient */
  GPtrArray      *tensor_hooks;   /* Tensor.register_hook on its outputs (gnn-tensor-hooks.c) */
  /* scratch for one backward pass */
  guint           deps;
  GnnTensor     **grads_out;      /* n_outputs gradients of the outputs */
};

GnnNode *gnn_node_ref   (GnnNode *node);
void     gnn_node_unref (GnnNode *node);
/* Drops the tensors @node saved for backward (after a pass without
 * retain_graph, and when it dies). */
void     gnn_node_release_saved (GnnNode *node);

static inline gboolean
gnn_node_needs_grad (GnnNode *node,
                     guint    i)
{
  return node->edges[i].node != NULL || node->edges[i].leaf != NULL;
}

/* gnn-saved-version.c: torch's "one of the variables needed for gradient
 * computation has been modified by an inplace operation" error for @saved,
 * saved at version @expected; @producer is the grad_fn torch would name
 * ("which is output 0 of …"), %NULL for a leaf. */
void gnn_saved_version_error (GnnTensor  *saved,
                              guint       expected,
                              const char *producer,
                              GError    **error);
/* Before a node's backward reads what it saved: every saved tensor that the
 * gradients it computes need is at the version it was saved at, or
 * torch's error. */
gboolean gnn_node_check_saved (GnnNode *node, GError **error);
/* Names @self's storage's last in-place node (its grad_fn now) and the
 * version it made, for the message of a saved tensor found changed. */
void gnn_node_note_inplace (GnnTensor *self);

/* A node for a custom function (gnn-autograd-function.c): edges to
 * @inputs, @n_outputs outputs, @backward reading node->grads_out; @custom
 * is freed with the node. */
GnnNode *gnn_node_new_custom (const char       *name,
                              GnnTensor *const *inputs,
                              guint             n_inputs,
                              guint             n_outputs,
                              GnnBackwardFunc   backward,
                              gpointer          custom,
                              GDestroyNotify    custom_free);
/* Makes @node the history of @out as its output @output_nr. */
void     gnn_node_attach     (GnnNode *node, GnnTensor *out, guint output_nr);
/* Saves @t for @node's backward through the one save path (a detached
 * view; @t's own node learns that its output is needed). */
void     gnn_node_save_extra (GnnNode *node, GnnTensor *t);

/* The node of in-place @op on @self (input 0: @self's values before the
 * op, saved as a copy where backward reads them; inputs 1..: @others). */
GnnNode *gnn_node_new_inplace (GnnOpKind          op,
                               GnnTensor         *self,
                               GnnTensor *const  *others,
                               guint              n_others,
                               const GnnOpParams *params);
/* gnn-autograd-views.c: an in-place op on a view (torch's CopySlices):
 * the view's base gets the new history, the view an AsStrided of it. */
gboolean gnn_record_inplace_on_view (GnnOpKind          op,
                                     GnnTensor         *self,
                                     GnnTensor *const  *others,
                                     guint              n_others,
                                     const GnnOpParams *params,
                                     GError           **error);

/* gnn-autograd-tensor.c: retain_grad — @t (output @output_nr of @node)
 * gets that output's gradient in its .grad during backward. */
void     gnn_node_add_retainer    (GnnNode *node, GnnTensor *t, guint output_nr);
/* Called by the engine before @node's backward runs. */
/* retain_grad's copies of output @output_nr's gradient for the retainers
 * registered in [@lo, @hi) of the hook sequence */
void     gnn_node_retain_range    (GnnNode *node, guint output_nr, guint lo, guint hi);
/* gnn-tensor-hooks.c: the hooks and retain_grad copies of @node's outputs
 * in the order they were registered (as torch 1.13 runs them), on
 * node->grads_out before its backward; a leaf's hooks, run on the gradient
 * it is about to accumulate (returns it, or the hooks' replacement, a new
 * reference). */
guint      gnn_tensor_hook_next_seq  (void);
void       gnn_node_run_output_hooks (GnnNode *node);
GnnTensor *gnn_leaf_run_tensor_hooks (GnnTensor *leaf, GnnTensor *grad);
/* During one pass: counts an edge into @leaf when it has hooks (*@pending
 * created on the first), then at each processed edge sums @grad (nullable)
 * and, at the leaf's last edge, gives the hooked sum in *@ready; FALSE for
 * a leaf without hooks (accumulate as usual). */
void       gnn_leaf_hooks_count      (GHashTable **pending, GnnTensor *leaf);
gboolean   gnn_leaf_hooks_edge       (GHashTable *pending, GnnTensor *leaf, GnnTensor *grad,
                                      GnnTensor **ready);

/* Sums @grad over the broadcast dims so it gets the shape of @meta. */
GnnTensor *gnn_ag_sum_to (GnnTensor *grad, const GnnMeta *meta, GError **error);
/* @grad of a reduction over node->params.dims (n_dims 0: all) reshaped
 * with the reduced dims back as size 1 (unless the op kept them). */
GnnTensor *gnn_ag_grad_keepdim (GnnNode *node, GnnTensor *grad, GError **error);
/* A zero tensor of @meta's shape and dtype. */
GnnTensor *gnn_ag_zeros (const GnnMeta *meta);
/* gnn-backward-kernels.c: o = g * f'(v) for relu, tanh, sigmoid, exp and
 * abs over @n contiguous float32/float64 elements; FALSE (nothing done) for
 * other ops or dtypes. */
gboolean   gnn_backward_unary_kernel (GnnOpKind     op,
                                      GnnDType      dtype,
                                      gint64        n,
                                      gpointer      o,
                                      gconstpointer g,
                                      gconstpointer v);
/* gnn-backward-layer-norm.c: layer_norm's gradient for float32/float64
 * operands (*handled TRUE), else nothing done (FALSE, *handled FALSE). */
gboolean   gnn_backward_layer_norm_native (GnnNode    *node,
                                           GnnTensor  *grad,
                                           GnnTensor **grads,
                                           gboolean   *handled,
                                           GError    **error);
/* Double copy of a tensor's elements (row-major). */
double    *gnn_ag_doubles (GnnTensor *t);
/* A tensor of @meta's geometry from row-major doubles (takes @values). */
GnnTensor *gnn_ag_from_doubles (double *values, const GnnMeta *meta);

/* Per-family backward functions. */
gboolean gnn_backward_add         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_sub         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_mul         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_div         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_mul_scalar  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_unary       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_neg         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_where       (GnnNode *, GnnTensor *, GnnTensor **, GError **);

gboolean gnn_backward_sum         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_mean        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_max         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_softmax     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_log_softmax (GnnNode *, GnnTensor *, GnnTensor **, GError **);

gboolean gnn_backward_matmul      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_addmm       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_diagonal    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_cat         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_stack       (GnnNode *, GnnTensor *, GnnTensor **, GError **);

gboolean gnn_backward_reshape     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_narrow      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_select      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_transpose   (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_permute     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_expand      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_index_select (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_identity    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_to_dtype    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_copy        (GnnNode *, GnnTensor *, GnnTensor **, GError **);

gboolean gnn_backward_convolution (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_max_pool2d  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_avg_pool2d  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_layer_norm  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_batch_norm  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_group_norm  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_embedding   (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_rnn_layer   (GnnNode *, GnnTensor *, GnnTensor **, GError **);

/* nn activations (gnn-backward-activation.c) */
gboolean gnn_backward_activation  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_glu         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_prelu       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* nn losses (gnn-backward-loss.c) */
gboolean gnn_backward_pointwise_loss (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_nll_loss    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* ctc_loss (gnn-backward-ctc.c) */
gboolean gnn_backward_ctc_loss    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_multi_margin_loss (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_multilabel_margin_loss (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_rrelu       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_index_put   (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* PyTorch's node name of a loss op, which depends on its settings */
const char *gnn_backward_loss_name (GnnOpKind op, const GnnOpParams *params);

gboolean gnn_backward_attention_probs (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_attention_apply (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_pad         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* torch's node name of a pad in @mode over @k dimensions. */
const char *gnn_backward_pad_name (GnnPaddingMode mode, guint k);
gboolean gnn_backward_interpolate (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_fold        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_pixel_shuffle (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_max_unpool  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_fractional_max_pool (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_max_pool3d  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_avg_pool3d  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_embedding_bag (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_adaptive_avg_pool (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_adaptive_max_pool (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* torch's node names of interpolation and adaptive pooling (by mode and
 * number of dimensions). */
const char *gnn_backward_resample_name (GnnOpKind op, const GnnOpParams *params);
/* gnn-backward-math.c */
gboolean gnn_backward_add_alpha   (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_zero        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_remainder   (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_pow_tensor  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_atan2       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_maximum     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_nan_to_num  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_hypot       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_fmax        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_clamp       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_lerp        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_addcmul     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_addcdiv     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_masked_fill (GnnNode *, GnnTensor *, GnnTensor **, GError **);

/* gnn-backward-index.c */
gboolean gnn_backward_gather      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_scatter     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_index_add   (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_index_copy  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_select_indices (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_select_flat (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_masked_select (GnnNode *, GnnTensor *, GnnTensor **, GError **);

/* gnn-backward-stats.c */
gboolean gnn_backward_var        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_norm       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_prod       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_logsumexp  (GnnNode *, GnnTensor *, GnnTensor **, GError **);

/* gnn-backward-rearrange.c */
gboolean gnn_backward_flip       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_roll       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_triangle   (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_repeat     (GnnNode *, GnnTensor *, GnnTensor **, GError **);

/* gnn-backward-scan.c */
gboolean gnn_backward_cumsum     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_cumprod    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_cummax     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_logcumsumexp (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* gnn-backward-blocks.c */
gboolean gnn_backward_block_diag  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_diag_embed  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_rot90       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_take        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* gnn-backward-linalg.c */
gboolean gnn_backward_linalg_solve    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_linalg_inv      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_linalg_det      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_linalg_slogdet  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_linalg_cholesky (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* solve's and lstsq's right-hand side B (input 1; params.flag: B was a
 * batch of vectors): @t (a gradient or a saved tensor) as matrices [*, n,
 * k], and a gradient @gb of those matrices summed and shaped back to B. */
GnnTensor *gnn_ag_rhs_matrices (GnnNode *node, GnnTensor *t, GError **error);
GnnTensor *gnn_ag_rhs_grad     (GnnNode *node, GnnTensor *gb, GError **error);
/* A batch of matrices transposed (torch's .mT). */
static inline GnnTensor *
gnn_ag_mT (GnnTensor  *t,
           GError    **error)
{
  return gnn_tensor_transpose (t, -1, -2, error);
}
/* gnn-backward-decomp.c */
gboolean gnn_backward_linalg_qr       (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_linalg_eigh     (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_linalg_svd      (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_linalg_lstsq    (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_masked_scatter (GnnNode *, GnnTensor *, GnnTensor **, GError **);

G_END_DECLS
