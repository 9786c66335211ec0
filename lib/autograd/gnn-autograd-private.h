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

/* Where an input's gradient goes: a node, a leaf's .grad, or nowhere. */
typedef struct
{
  GnnNode   *node;
  GnnTensor *leaf;
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
  GnnMeta         out;
  GnnTensor     **saved;          /* n_inputs detached copies or views, NULL where unneeded */
  GnnTensor      *saved_out;      /* detached view of the output, if needed */
  GnnOpParams     params;         /* extra[] owned */
  gboolean        has_saved;
  gboolean        freed;          /* saved tensors released by a backward pass */
  gboolean        output_saved;   /* the output's values are saved (here or by a consumer) */
  /* scratch for one backward pass */
  guint           deps;
  GnnTensor      *grad;
};

GnnNode *gnn_node_ref   (GnnNode *node);
void     gnn_node_unref (GnnNode *node);

static inline gboolean
gnn_node_needs_grad (GnnNode *node,
                     guint    i)
{
  return node->edges[i].node != NULL || node->edges[i].leaf != NULL;
}

/* Sums @grad over the broadcast dims so it gets the shape of @meta. */
GnnTensor *gnn_ag_sum_to (GnnTensor *grad, const GnnMeta *meta, GError **error);
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
/* Double copy of a tensor's elements (row-major). */
double    *gnn_ag_doubles (GnnTensor *t);
/* A tensor of @meta's geometry from row-major doubles (takes @values). */
GnnTensor *gnn_ag_from_doubles (double *values, const GnnMeta *meta);

/* Per-family backward functions. */
gboolean gnn_backward_add         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_sub         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_mul         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_div         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_add_scalar  (GnnNode *, GnnTensor *, GnnTensor **, GError **);
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

gboolean gnn_backward_pad         (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* torch's node name of a pad in @mode over @k dimensions. */
const char *gnn_backward_pad_name (GnnPaddingMode mode, guint k);
gboolean gnn_backward_interpolate (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_fold        (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_pixel_shuffle (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_adaptive_avg_pool (GnnNode *, GnnTensor *, GnnTensor **, GError **);
gboolean gnn_backward_adaptive_max_pool (GnnNode *, GnnTensor *, GnnTensor **, GError **);
/* torch's node names of interpolation and adaptive pooling (by mode and
 * number of dimensions). */
const char *gnn_backward_resample_name (GnnOpKind op, const GnnOpParams *params);

G_END_DECLS
