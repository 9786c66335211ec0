/* gnn-multihead-attention.c: multi-head attention (torch.nn.MultiheadAttention)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-mha-private.h"
#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

/**
 * GnnMultiheadAttention:
 *
 * Multi-head attention, `torch.nn.MultiheadAttention(embed_dim, num_heads,
 * dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
 * kdim=None, vdim=None, batch_first=False)`:
 * `softmax (Q Kᵀ / √head_dim + masks) V` per head over projections of the
 * query, key and value, the heads joined by the output projection.
 *
 * Its parameters have PyTorch's names, order and state-dict keys: when the
 * key and value have the query's feature size, one packed `in_proj_weight`
 * (3·embed_dim, embed_dim) (the slots `q_proj_weight`, `k_proj_weight`,
 * `v_proj_weight` empty), otherwise the three separate ones (and
 * `in_proj_weight` empty); `in_proj_bias` (3·embed_dim) with
 * [property@Gnn.MultiheadAttention:bias]; `bias_k` and `bias_v` (1, 1,
 * embed_dim) with [property@Gnn.MultiheadAttention:add-bias-kv]; and the
 * child `out_proj`, a [class@Gnn.NonDynamicallyQuantizableLinear]. They are
 * initialized as PyTorch initializes them: Xavier-uniform projections, zero
 * biases, Xavier-normal `bias_k`/`bias_v`, `out_proj`'s weight as a Linear's.
 *
 * Forward (a [vfunc@Gnn.Module.forward_args]) is PyTorch's
 * `forward(query, key, value, key_padding_mask=None, need_weights=True,
 * attn_mask=None, average_attn_weights=True)` and returns the tuple
 * `(attn_output, attn_weights)` (%NULL weights unless need_weights); see
 * [method@Gnn.MultiheadAttention.attend] for the shapes and masks. The
 * projections are single GEMMs, the heads are views of them and the
 * attention runs one GEMM per (batch, head) with a fused masked softmax;
 * with batch_first the inputs are read as they are.
 *
 * Since: 0.1
 */
typedef struct
{
  gint64        embed_dim;
  gint64        num_heads;
  double        dropout;
  gboolean      bias;
  gboolean      add_bias_kv;
  gboolean      add_zero_attn;
  gint64        kdim;          /* -1: None (embed_dim) */
  gint64        vdim;
  gboolean      batch_first;
  GnnDType      dtype;
  GnnGenerator *generator;     /* construction only */
} GnnMultiheadAttentionPrivate;

enum {
  PROP_0,
  PROP_EMBED_DIM,
  PROP_NUM_HEADS,
  PROP_DROPOUT,
  PROP_BIAS,
  PROP_ADD_BIAS_KV,
  PROP_ADD_ZERO_ATTN,
  PROP_KDIM,
  PROP_VDIM,
  PROP_BATCH_FIRST,
  PROP_DTYPE,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_CODE (GnnMultiheadAttention, gnn_multihead_attention, GNN_TYPE_MODULE,
                         G_ADD_PRIVATE (GnnMultiheadAttention)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(self) ((GnnMultiheadAttentionPrivate *) \
                    gnn_multihead_attention_get_instance_private (GNN_MULTIHEAD_ATTENTION (self)))

static gint64
kdim_of (GnnMultiheadAttentionPrivate *p)
{
  return p->kdim >= 0 ? p->kdim : p->embed_dim;
}

static gint64
vdim_of (GnnMultiheadAttentionPrivate *p)
{
  return p->vdim >= 0 ? p->vdim : p->embed_dim;
}

static gboolean
same_embed_dim (GnnMultiheadAttentionPrivate *p)
{
  return kdim_of (p) == p->embed_dim && vdim_of (p) == p->embed_dim;
}

static GnnTensor *
param (GnnMultiheadAttention *self,
       const char            *name)
{
  return (GnnTensor *) gnn_module_get_child (GNN_MODULE (self), name, NULL);
}

/* --- forward -------------------------------------------------------------- */

/* The module's settings and current parameters as the functional's
 * arguments (the parameters read from the registry: an assignment takes
 * effect). */
static gboolean
fill_args (GnnMultiheadAttention *self,
           GnnMhaArgs            *a,
           GError               **error)
{
  GnnMultiheadAttentionPrivate *p = PRIV (self);
  GnnModule *out_proj = GNN_MODULE (gnn_module_get_child (GNN_MODULE (self), "out_proj", NULL));

  if (out_proj == NULL || !GNN_IS_MODULE (out_proj))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "MultiheadAttention.out_proj is empty (None)");
      return FALSE;
    }
  memset (a, 0, sizeof *a);
  a->embed_dim = p->embed_dim;
  a->num_heads = p->num_heads;
  a->in_proj_weight = param (self, "in_proj_weight");
  a->in_proj_bias = param (self, "in_proj_bias");
  a->bias_k = param (self, "bias_k");
  a->bias_v = param (self, "bias_v");
  a->add_zero_attn = p->add_zero_attn;
  a->dropout_p = p->dropout;
  a->out_proj_weight = (GnnTensor *) gnn_module_get_child (out_proj, "weight", NULL);
  a->out_proj_bias = (GnnTensor *) gnn_module_get_child (out_proj, "bias", NULL);
  a->training = gnn_module_get_training (GNN_MODULE (self));
  a->use_separate_proj_weight = !same_embed_dim (p);
  a->q_proj_weight = param (self, "q_proj_weight");
  a->k_proj_weight = param (self, "k_proj_weight");
  a->v_proj_weight = param (self, "v_proj_weight");
  a->batch_first = p->batch_first;
  if (a->out_proj_weight == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "MultiheadAttention.out_proj.weight is empty (None)");
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_multihead_attention_attend:
 * @self: a multi-head attention layer
 * @query: the queries, (L, N, embed_dim) (or (N, L, embed_dim) with
 *   [property@Gnn.MultiheadAttention:batch-first]; (L, embed_dim) unbatched)
 * @key: the keys, (S, N, kdim)
 * @value: the values, (S, N, vdim)
 * @key_padding_mask: (nullable): (N, S) ((S) unbatched): bool, %TRUE for
 *   keys to ignore, or floating, added to the scores
 * @need_weights: whether to return the attention weights too
 * @attn_mask: (nullable): (L, S) or (N·num_heads, L, S): bool or uint8
 *   (%TRUE/nonzero: may not attend) or floating (added to the scores)
 * @average_attn_weights: average the returned weights over the heads
 * @attn_weights: (out) (optional) (nullable) (transfer full): the attention
 *   weights (after dropout, as torch 1.13 returns them): (N, L, S)
 *   averaged or (N, num_heads, L, S); %NULL unless @need_weights
 * @error: return location for a #GError
 *
 * The forward of `torch.nn.MultiheadAttention` without hooks, its checks
 * and messages included ("The shape of the 2D attn_mask is
 * torch.Size([4, 3]), but should be (3, 3)."). In training mode with a
 * nonzero [property@Gnn.MultiheadAttention:dropout] the weights are dropped
 * out. Calls with hooks go through [method@Gnn.Module.call_args].
 *
 * Returns: (transfer full): the attention output, shaped like @query with
 *   embed_dim features, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multihead_attention_attend (GnnMultiheadAttention  *self,
                                GnnTensor              *query,
                                GnnTensor              *key,
                                GnnTensor              *value,
                                GnnTensor              *key_padding_mask,
                                gboolean                need_weights,
                                GnnTensor              *attn_mask,
                                gboolean                average_attn_weights,
                                GnnTensor             **attn_weights,
                                GError                **error)
{
  GnnMhaArgs a;
  GnnTensor *output = NULL, *weights = NULL;

  g_return_val_if_fail (GNN_IS_MULTIHEAD_ATTENTION (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (query) && GNN_IS_TENSOR (key) && GNN_IS_TENSOR (value), NULL);
  g_return_val_if_fail (key_padding_mask == NULL || GNN_IS_TENSOR (key_padding_mask), NULL);
  g_return_val_if_fail (attn_mask == NULL || GNN_IS_TENSOR (attn_mask), NULL);

  if (attn_weights != NULL)
    *attn_weights = NULL;
  if (!gnn_nn_check_constructed (self, error))
    return NULL;
  /* the module checks the padding mask's dtype before anything else */
  if (key_padding_mask != NULL && gnn_tensor_get_dtype (key_padding_mask) != GNN_DTYPE_BOOL &&
      !gnn_dtype_is_floating (gnn_tensor_get_dtype (key_padding_mask)))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "only bool and floating types of key_padding_mask are supported");
      return NULL;
    }
  if (!fill_args (self, &a, error))
    return NULL;
  a.key_padding_mask = key_padding_mask;
  a.need_weights = need_weights;
  a.attn_mask = attn_mask;
  a.average_attn_weights = average_attn_weights;
  if (!gnn_mha_forward (query, key, value, &a, &output, &weights, error))
    return NULL;
  if (attn_weights != NULL)
    *attn_weights = weights;
  else
    g_clear_object (&weights);
  return output;
}

static GnnValue *
gnn_multihead_attention_forward_args (GnnModule  *module,
                                      GnnValue   *args,
                                      GnnValue   *kwargs,
                                      GError    **error)
{
  GnnTensor *query, *key, *value, *key_padding_mask = NULL, *attn_mask = NULL;
  gboolean need_weights = TRUE, average = TRUE;
  g_autoptr(GnnTensor) output = NULL;
  g_autoptr(GnnTensor) weights = NULL;

  if (!gnn_args_parse (args, kwargs, "MultiheadAttention.forward", error,
                       "query", GNN_ARG_TENSOR, &query,
                       "key", GNN_ARG_TENSOR, &key,
                       "value", GNN_ARG_TENSOR, &value,
                       "key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &key_padding_mask,
                       "need_weights", GNN_ARG_BOOL | GNN_ARG_OPTIONAL, &need_weights,
                       "attn_mask", GNN_ARG_OPTIONAL_TENSOR, &attn_mask,
                       "average_attn_weights", GNN_ARG_BOOL | GNN_ARG_OPTIONAL, &average,
                       NULL))
    return NULL;
  output = gnn_multihead_attention_attend (GNN_MULTIHEAD_ATTENTION (module), query, key, value,
                                           key_padding_mask, need_weights, attn_mask, average,
                                           &weights, error);
  if (output == NULL)
    return NULL;
  return gnn_value_new_tuple_take (2, gnn_value_take_tensor (g_steal_pointer (&output)),
                                   weights != NULL ? gnn_value_take_tensor (g_steal_pointer (&weights))
                                                   : gnn_value_new_none ());
}

/* --- parameters ----------------------------------------------------------- */

/* torch's _reset_parameters (out_proj's weight keeps a Linear's init). */
static gboolean
init_parameters (GnnMultiheadAttention  *self,
                 GnnGenerator           *generator,
                 GError                **error)
{
  static const char *const xavier_uniform[] = { "in_proj_weight", "q_proj_weight",
                                                "k_proj_weight", "v_proj_weight" };
  static const char *const xavier_normal[] = { "bias_k", "bias_v" };
  GnnModule *out_proj = GNN_MODULE (gnn_module_get_child (GNN_MODULE (self), "out_proj", NULL));
  GnnGenerator *gen = generator != NULL ? generator : gnn_nn_default_generator_lock ();
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < G_N_ELEMENTS (xavier_uniform); i++)
    if (param (self, xavier_uniform[i]) != NULL)
      ok = gnn_nn_xavier_ (param (self, xavier_uniform[i]), FALSE, gen, error);
  if (ok && param (self, "in_proj_bias") != NULL)
    ok = gnn_nn_reset_fill (GNN_MODULE (self), "in_proj_bias", 0.0, error) &&
         (out_proj == NULL || !GNN_IS_MODULE (out_proj) ||
          gnn_nn_reset_fill (out_proj, "bias", 0.0, error));
  for (guint i = 0; ok && i < G_N_ELEMENTS (xavier_normal); i++)
    if (param (self, xavier_normal[i]) != NULL)
      ok = gnn_nn_xavier_ (param (self, xavier_normal[i]), TRUE, gen, error);
  if (generator == NULL)
    gnn_nn_default_generator_unlock ();
  return ok;
}

static gboolean
register_new (GnnMultiheadAttention  *self,
              const char             *name,
              gboolean                wanted,
              gint64                  d0,
              gint64                  d1,
              gint64                  d2,
              guint                   ndim,
              GError                **error)
{
  const gint64 shape[3] = { d0, d1, d2 };
  g_autoptr(GnnParameter) p = NULL;

  if (wanted && (p = gnn_parameter_new_empty (PRIV (self)->dtype, shape, ndim, error)) == NULL)
    return FALSE;
  return gnn_module_register_parameter (GNN_MODULE (self), name, p, error);
}

/* Registers the parameters and out_proj in torch's order. */
static gboolean
create_parameters (GnnMultiheadAttention  *self,
                   GError                **error)
{
  GnnMultiheadAttentionPrivate *p = PRIV (self);
  gint64 E = p->embed_dim;
  gboolean same = same_embed_dim (p);
  g_autoptr(GnnModule) out_proj = NULL;

  if (p->num_heads == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "integer division or modulo by zero");
      return FALSE;
    }
  if ((E / p->num_heads) * p->num_heads != E)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "embed_dim must be divisible by num_heads");
      return FALSE;
    }
  if (E > G_MAXINT64 / 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "embed_dim %" G_GINT64_FORMAT " is too large: in_proj_weight would have "
                   "more than 2**63 rows", E);
      return FALSE;
    }
  if (same)
    {
      if (!register_new (self, "in_proj_weight", TRUE, 3 * E, E, 0, 2, error) ||
          !register_new (self, "q_proj_weight", FALSE, 0, 0, 0, 0, error) ||
          !register_new (self, "k_proj_weight", FALSE, 0, 0, 0, 0, error) ||
          !register_new (self, "v_proj_weight", FALSE, 0, 0, 0, 0, error))
        return FALSE;
    }
  else if (!register_new (self, "q_proj_weight", TRUE, E, E, 0, 2, error) ||
           !register_new (self, "k_proj_weight", TRUE, E, kdim_of (p), 0, 2, error) ||
           !register_new (self, "v_proj_weight", TRUE, E, vdim_of (p), 0, 2, error) ||
           !register_new (self, "in_proj_weight", FALSE, 0, 0, 0, 0, error))
    return FALSE;
  if (!register_new (self, "in_proj_bias", p->bias, 3 * E, 0, 0, 1, error))
    return FALSE;
  out_proj = g_initable_new (GNN_TYPE_NON_DYNAMICALLY_QUANTIZABLE_LINEAR, NULL, error,
                             "in-features", E, "out-features", E, "has-bias", p->bias,
                             "dtype", p->dtype, "generator", p->generator, NULL);
  if (out_proj == NULL || !gnn_module_register_module (GNN_MODULE (self), "out_proj", out_proj, error))
    return FALSE;
  if (p->add_bias_kv &&
      (!register_new (self, "bias_k", TRUE, 1, 1, E, 3, error) ||
       !register_new (self, "bias_v", TRUE, 1, 1, E, 3, error)))
    return FALSE;
  return init_parameters (self, p->generator, error);
}

static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  static const char *const names[] = { "in_proj_weight", "q_proj_weight", "k_proj_weight",
                                       "v_proj_weight", "in_proj_bias", "bias_k", "bias_v" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GnnTensor *t = param (GNN_MULTIHEAD_ATTENTION (module), names[i]);

      if (t != NULL && !gnn_tensor_materialize (t, error))
        return FALSE;
    }
  return init_parameters (GNN_MULTIHEAD_ATTENTION (module), NULL, error);
}

/* --- GObject -------------------------------------------------------------- */

static void
gnn_multihead_attention_constructed (GObject *object)
{
  GnnMultiheadAttentionPrivate *p = PRIV (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_multihead_attention_parent_class)->constructed (object);
  if (!create_parameters (GNN_MULTIHEAD_ATTENTION (object), &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&p->generator);
}

static void
gnn_multihead_attention_finalize (GObject *object)
{
  g_clear_object (&PRIV (object)->generator);
  G_OBJECT_CLASS (gnn_multihead_attention_parent_class)->finalize (object);
}

static void
gnn_multihead_attention_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GnnMultiheadAttentionPrivate *p = PRIV (object);

  switch (prop_id)
    {
    case PROP_EMBED_DIM: g_value_set_int64 (value, p->embed_dim); break;
    case PROP_NUM_HEADS: g_value_set_int64 (value, p->num_heads); break;
    case PROP_DROPOUT: g_value_set_double (value, p->dropout); break;
    case PROP_BIAS: g_value_set_boolean (value, p->bias); break;
    case PROP_ADD_BIAS_KV: g_value_set_boolean (value, p->add_bias_kv); break;
    case PROP_ADD_ZERO_ATTN: g_value_set_boolean (value, p->add_zero_attn); break;
    case PROP_KDIM: g_value_set_int64 (value, kdim_of (p)); break;
    case PROP_VDIM: g_value_set_int64 (value, vdim_of (p)); break;
    case PROP_BATCH_FIRST: g_value_set_boolean (value, p->batch_first); break;
    case PROP_DTYPE: g_value_set_enum (value, p->dtype); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_multihead_attention_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GnnMultiheadAttentionPrivate *p = PRIV (object);

  switch (prop_id)
    {
    case PROP_EMBED_DIM: p->embed_dim = g_value_get_int64 (value); break;
    case PROP_NUM_HEADS: p->num_heads = g_value_get_int64 (value); break;
    case PROP_DROPOUT: p->dropout = g_value_get_double (value); break;
    case PROP_BIAS: p->bias = g_value_get_boolean (value); break;
    case PROP_ADD_BIAS_KV: p->add_bias_kv = g_value_get_boolean (value); break;
    case PROP_ADD_ZERO_ATTN: p->add_zero_attn = g_value_get_boolean (value); break;
    case PROP_KDIM: p->kdim = g_value_get_int64 (value); break;
    case PROP_VDIM: p->vdim = g_value_get_int64 (value); break;
    case PROP_BATCH_FIRST: p->batch_first = g_value_get_boolean (value); break;
    case PROP_DTYPE: p->dtype = g_value_get_enum (value); break;
    case PROP_GENERATOR: g_set_object (&p->generator, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

#define CONSTRUCT_FLAGS (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS)

static void
gnn_multihead_attention_class_init (GnnMultiheadAttentionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_multihead_attention_constructed;
  object_class->finalize = gnn_multihead_attention_finalize;
  object_class->get_property = gnn_multihead_attention_get_property;
  object_class->set_property = gnn_multihead_attention_set_property;
  module_class->forward_args = gnn_multihead_attention_forward_args;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnMultiheadAttention:embed-dim:
   *
   * The model's feature size (PyTorch's `embed_dim`), split among the heads.
   *
   * Since: 0.1
   */
  properties[PROP_EMBED_DIM] =
    g_param_spec_int64 ("embed-dim", NULL, NULL, 0, G_MAXINT64, 0, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:num-heads:
   *
   * The number of heads; it must divide
   * [property@Gnn.MultiheadAttention:embed-dim] ("embed_dim must be
   * divisible by num_heads").
   *
   * Since: 0.1
   */
  properties[PROP_NUM_HEADS] =
    g_param_spec_int64 ("num-heads", NULL, NULL, 0, G_MAXINT64, 1, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:dropout:
   *
   * The probability of dropping an attention weight in training mode
   * (outside [0, 1] refused by forward, as PyTorch's dropout refuses it).
   *
   * Since: 0.1
   */
  properties[PROP_DROPOUT] =
    g_param_spec_double ("dropout", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:bias:
   *
   * Whether the input and output projections have biases.
   *
   * Since: 0.1
   */
  properties[PROP_BIAS] =
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:add-bias-kv:
   *
   * Whether learned `bias_k` and `bias_v` are appended to the keys and
   * values along the sequence.
   *
   * Since: 0.1
   */
  properties[PROP_ADD_BIAS_KV] =
    g_param_spec_boolean ("add-bias-kv", NULL, NULL, FALSE, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:add-zero-attn:
   *
   * Whether a zero key and value are appended to every head's sequence.
   *
   * Since: 0.1
   */
  properties[PROP_ADD_ZERO_ATTN] =
    g_param_spec_boolean ("add-zero-attn", NULL, NULL, FALSE, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:kdim:
   *
   * The keys' feature size; -1 (PyTorch's None) is
   * [property@Gnn.MultiheadAttention:embed-dim], which it reads back as.
   *
   * Since: 0.1
   */
  properties[PROP_KDIM] =
    g_param_spec_int64 ("kdim", NULL, NULL, -1, G_MAXINT64, -1, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:vdim:
   *
   * The values' feature size; -1 (None) is
   * [property@Gnn.MultiheadAttention:embed-dim].
   *
   * Since: 0.1
   */
  properties[PROP_VDIM] =
    g_param_spec_int64 ("vdim", NULL, NULL, -1, G_MAXINT64, -1, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:batch-first:
   *
   * Whether batched inputs and outputs are (batch, seq, feature) rather
   * than (seq, batch, feature).
   *
   * Since: 0.1
   */
  properties[PROP_BATCH_FIRST] =
    g_param_spec_boolean ("batch-first", NULL, NULL, FALSE, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:dtype:
   *
   * The dtype of the parameters (PyTorch's `dtype=`).
   *
   * Since: 0.1
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32, CONSTRUCT_FLAGS);
  /**
   * GnnMultiheadAttention:generator:
   *
   * The generator the initial parameters are drawn from, during
   * construction only; %NULL draws from the default generator.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnMultiheadAttention:in-proj-weight:
   *
   * The packed query, key and value projection (3·embed_dim, embed_dim),
   * or %NULL when kdim or vdim differ from embed_dim.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "in_proj_weight", GNN_TYPE_PARAMETER);
  /**
   * GnnMultiheadAttention:q-proj-weight:
   *
   * The query projection (embed_dim, embed_dim) when the projections are
   * separate, else %NULL.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "q_proj_weight", GNN_TYPE_PARAMETER);
  /**
   * GnnMultiheadAttention:k-proj-weight:
   *
   * The key projection (embed_dim, kdim) when the projections are
   * separate, else %NULL.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "k_proj_weight", GNN_TYPE_PARAMETER);
  /**
   * GnnMultiheadAttention:v-proj-weight:
   *
   * The value projection (embed_dim, vdim) when the projections are
   * separate, else %NULL.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "v_proj_weight", GNN_TYPE_PARAMETER);
  /**
   * GnnMultiheadAttention:in-proj-bias:
   *
   * The packed projection biases (3·embed_dim), or %NULL without bias.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "in_proj_bias", GNN_TYPE_PARAMETER);
  /**
   * GnnMultiheadAttention:bias-k:
   *
   * The key appended to the sequence (1, 1, embed_dim) with add-bias-kv.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "bias_k", GNN_TYPE_PARAMETER);
  /**
   * GnnMultiheadAttention:bias-v:
   *
   * The value appended to the sequence (1, 1, embed_dim) with add-bias-kv.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "bias_v", GNN_TYPE_PARAMETER);
  /**
   * GnnMultiheadAttention:out-proj:
   *
   * The output projection, a [class@Gnn.NonDynamicallyQuantizableLinear]
   * (embed_dim → embed_dim).
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "out_proj", GNN_TYPE_MODULE);
}

static void
gnn_multihead_attention_init (GnnMultiheadAttention *self)
{
  GnnMultiheadAttentionPrivate *p = PRIV (self);

  p->num_heads = 1;
  p->bias = TRUE;
  p->kdim = -1;
  p->vdim = -1;
  p->dtype = GNN_DTYPE_F32;
}

/**
 * gnn_multihead_attention_new:
 * @embed_dim: the model's feature size
 * @num_heads: the number of heads, dividing @embed_dim
 * @error: return location for a #GError
 *
 * Creates `torch.nn.MultiheadAttention(embed_dim, num_heads)`: no dropout,
 * biases, sequence-first inputs. Other settings:
 * `g_initable_new (GNN_TYPE_MULTIHEAD_ATTENTION, NULL, &error, "embed-dim",
 * …, "batch-first", TRUE, NULL)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *   ("embed_dim must be divisible by num_heads")
 *
 * Since: 0.1
 */
GnnMultiheadAttention *
gnn_multihead_attention_new (gint64   embed_dim,
                             gint64   num_heads,
                             GError **error)
{
  if (embed_dim < 0 || num_heads < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "MultiheadAttention: embed_dim and num_heads must be non-negative, got %"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT, embed_dim, num_heads);
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_MULTIHEAD_ATTENTION, error, "embed-dim", embed_dim,
                              "num-heads", num_heads, NULL);
}

/**
 * gnn_multihead_attention_get_embed_dim:
 * @self: a multi-head attention layer
 *
 * Gets the model's feature size.
 *
 * Returns: the value of [property@Gnn.MultiheadAttention:embed-dim]
 *
 * Since: 0.1
 */
gint64
gnn_multihead_attention_get_embed_dim (GnnMultiheadAttention *self)
{
  g_return_val_if_fail (GNN_IS_MULTIHEAD_ATTENTION (self), 0);
  return PRIV (self)->embed_dim;
}

/**
 * gnn_multihead_attention_get_num_heads:
 * @self: a multi-head attention layer
 *
 * Gets the number of heads.
 *
 * Returns: the value of [property@Gnn.MultiheadAttention:num-heads]
 *
 * Since: 0.1
 */
gint64
gnn_multihead_attention_get_num_heads (GnnMultiheadAttention *self)
{
  g_return_val_if_fail (GNN_IS_MULTIHEAD_ATTENTION (self), 0);
  return PRIV (self)->num_heads;
}
