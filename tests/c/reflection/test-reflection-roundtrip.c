/* test-reflection-roundtrip.c: the construct-from-properties contract
 * (docs/overview.md, "Objects are built from their properties"): every
 * instantiable Gnn type can be built (a) bare with g_object_new() alone and
 * (b) from the construct properties read off an instance made by its usual
 * constructor, and the rebuilt object reads back the same properties.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "reflection-util.h"

/* Types that still break the contract: the test prints what they do and
 * reports them as TODO instead of failing, and says so when one passes. */
static const char *const pending[] = {
  NULL,   /* none left */
};

static Fixtures fixtures;

/* --- instances made by the usual C constructors, with non-default values */

static GObject *
make_usual (GType type)
{
  GnnDataset *ds = GNN_DATASET (fixtures_find (&fixtures, GNN_TYPE_DATASET));
  GnnGenerator *gen = GNN_GENERATOR (fixtures_find (&fixtures, GNN_TYPE_GENERATOR));
  GnnOptimizer *opt = GNN_OPTIMIZER (fixtures_find (&fixtures, GNN_TYPE_OPTIMIZER));
  GnnSampler *sampler = GNN_SAMPLER (fixtures_find (&fixtures, GNN_TYPE_SAMPLER));
  const gint64 shape[2] = { 2, 3 };

  if (type == GNN_TYPE_LINEAR)
    return G_OBJECT (gnn_linear_new (3, 2, FALSE, gen, NULL));
  if (type == GNN_TYPE_CONV2D)
    return G_OBJECT (gnn_conv2d_new (2, 4, 3, 2, 1, FALSE, NULL));
  if (type == GNN_TYPE_MAX_POOL2D)
    return G_OBJECT (gnn_max_pool2d_new_full (3, 2, 0, 0, 1, 1, 2, 1, TRUE, NULL));
  if (type == GNN_TYPE_AVG_POOL2D)
    return G_OBJECT (gnn_avg_pool2d_new_full (3, 2, 1, 2, 1, 0, TRUE, FALSE, 5, NULL));
  if (type == GNN_TYPE_EMBEDDING)
    return G_OBJECT (gnn_embedding_new (5, 3, gen, NULL));
  if (type == GNN_TYPE_BATCH_NORM1D)
    return G_OBJECT (gnn_batch_norm1d_new (3, 1e-3, 0.2, FALSE, FALSE, NULL));
  if (type == GNN_TYPE_BATCH_NORM2D)
    return G_OBJECT (gnn_batch_norm2d_new (2, 1e-4, 0.3, TRUE, FALSE, NULL));
  if (type == GNN_TYPE_LAYER_NORM)
    return G_OBJECT (gnn_layer_norm_new (shape, 2, 1e-3, FALSE, NULL));
  if (type == GNN_TYPE_DROPOUT)
    return G_OBJECT (gnn_dropout_new (0.25, TRUE, gen, NULL));
  if (type == GNN_TYPE_FLATTEN)
    return G_OBJECT (gnn_flatten_new (0, -2));
  if (type == GNN_TYPE_GELU)
    return G_OBJECT (gnn_gelu_new ("tanh"));
  if (type == GNN_TYPE_SOFTMAX)
    return G_OBJECT (gnn_softmax_new (1));
  if (type == GNN_TYPE_LOG_SOFTMAX)
    return G_OBJECT (gnn_log_softmax_new (0));
  if (type == GNN_TYPE_MSE_LOSS)
    return G_OBJECT (gnn_mse_loss_new (GNN_REDUCTION_SUM));
  if (type == GNN_TYPE_NLL_LOSS)
    return G_OBJECT (gnn_nll_loss_new (NULL, 2, GNN_REDUCTION_NONE));
  if (type == GNN_TYPE_CROSS_ENTROPY_LOSS)
    return G_OBJECT (gnn_cross_entropy_loss_new (NULL, 1, GNN_REDUCTION_SUM, 0.1));
  if (type == GNN_TYPE_BCE_WITH_LOGITS_LOSS)
    return G_OBJECT (gnn_bce_with_logits_loss_new (NULL, NULL, GNN_REDUCTION_SUM));
  if (type == GNN_TYPE_GENERATOR)
    return G_OBJECT (gnn_generator_new (12345));
  if (type == GNN_TYPE_RANDOM_SAMPLER)
    return G_OBJECT (gnn_random_sampler_new (ds, TRUE, 7, gen, NULL));
  if (type == GNN_TYPE_DISTRIBUTED_SAMPLER)
    return G_OBJECT (gnn_distributed_sampler_new (ds, 2, 1, FALSE, 9, TRUE, NULL));
  if (type == GNN_TYPE_BATCH_SAMPLER)
    return G_OBJECT (gnn_batch_sampler_new (sampler, 3, TRUE, NULL));
  if (type == GNN_TYPE_DATA_LOADER)
    return G_OBJECT (gnn_data_loader_new (ds, 2, TRUE));
  if (type == GNN_TYPE_WEIGHTED_RANDOM_SAMPLER)
    {
      const double weights[3] = { 0.5, 0.0, 2.0 };

      return G_OBJECT (gnn_weighted_random_sampler_new (weights, 3, 5, TRUE, gen, NULL));
    }
  if (type == GNN_TYPE_IDX_DATASET)   /* Debian's dataset-fashion-mnist (.ci/packages) */
    return G_OBJECT (gnn_idx_dataset_new ("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz",
                                          "/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz",
                                          NULL));
  if (type == GNN_TYPE_STEP_LR)
    return G_OBJECT (gnn_step_lr_new (opt, 3, 0.5, NULL));
  if (type == GNN_TYPE_COSINE_ANNEALING_LR)
    return G_OBJECT (gnn_cosine_annealing_lr_new (opt, 10, 0.01, NULL));
  return NULL;
}

/* --- the test ------------------------------------------------------------- */

static gboolean
value_is_state (GParamSpec *pspec)
{
  /* Object-valued properties that are not construct properties are child
   * slots or state (weights, gradients): compared by identity they would
   * differ for every fresh object. */
  return G_IS_PARAM_SPEC_OBJECT (pspec) &&
         !(pspec->flags & (G_PARAM_CONSTRUCT | G_PARAM_CONSTRUCT_ONLY));
}

/* Builds a copy of @source from its readable construct properties; appends
 * the differences to @problems. */
static GObject *
rebuild (GObject *source,
         GString *problems)
{
  GType type = G_OBJECT_TYPE (source);
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (source), &n);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) copy = NULL;
  PropList props;

  prop_list_init (&props);
  for (guint i = 0; i < n; i++)
    {
      GParamSpec *p = pspecs[i];

      if ((p->flags & G_PARAM_READABLE) && (p->flags & G_PARAM_WRITABLE) &&
          (p->flags & (G_PARAM_CONSTRUCT | G_PARAM_CONSTRUCT_ONLY)))
        {
          GValue *v = prop_list_add (&props, p->name);

          g_value_init (v, p->value_type);
          g_object_get_property (source, p->name, v);
        }
    }
  copy = build_object (type, &props, &error);
  prop_list_clear (&props);
  if (copy == NULL)
    {
      g_string_append_printf (problems, "  rebuild from properties failed: %s\n", error->message);
      return NULL;
    }

  for (guint i = 0; i < n; i++)
    {
      GParamSpec *p = pspecs[i];
      g_auto(GValue) a = G_VALUE_INIT;
      g_auto(GValue) b = G_VALUE_INIT;

      if (!(p->flags & G_PARAM_READABLE) || value_is_state (p))
        continue;
      g_value_init (&a, p->value_type);
      g_value_init (&b, p->value_type);
      g_object_get_property (source, p->name, &a);
      g_object_get_property (copy, p->name, &b);
      if (g_param_values_cmp (p, &a, &b) != 0)
        {
          g_autofree char *sa = g_strdup_value_contents (&a);
          g_autofree char *sb = g_strdup_value_contents (&b);

          g_string_append_printf (problems, "  property %s: source %s, rebuilt %s%s\n", p->name, sa, sb,
                                  (p->flags & G_PARAM_WRITABLE) ? "" : " (read-only)");
        }
    }
  return g_steal_pointer (&copy);
}

static void
roundtrip_body (GType type)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autoptr(GObject) bare = NULL;
  g_autoptr(GObject) usual = NULL;
  g_autoptr(GObject) copy = NULL;
  g_autoptr(GError) error = NULL;
  PropList props;

  fixtures_init (&fixtures);
  /* (a) bare: only the required object properties. */
  prop_list_init (&props);
  prop_list_add_required (&props, type, &fixtures);
  bare = build_object (type, &props, &error);
  prop_list_clear (&props);
  if (bare == NULL && !g_type_is_a (type, G_TYPE_INITABLE))
    g_string_append_printf (problems, "  bare construction failed: %s\n", error->message);
  else if (bare == NULL)
    /* A required value (a path, the module to wrap, weights) is missing:
     * refusing with a GError is the contract, keeping a default is not. */
    g_test_message ("%s: bare construction refused: %s", g_type_name (type), error->message);
  else
    call_main_method (bare);

  /* (b) rebuilt from the properties of a usual instance (or of the bare
   * one when the type has no constructor with arguments). */
  usual = make_usual (type);
  if (usual == NULL && bare != NULL)
    usual = g_object_ref (bare);
  if (usual != NULL)
    {
      copy = rebuild (usual, problems);
      if (copy != NULL)
        call_main_method (copy);
    }
  g_clear_object (&bare);
  g_clear_object (&usual);
  g_clear_object (&copy);
  fixtures_clear (&fixtures);

  if (problems->len > 0)
    {
      g_printerr ("%s breaks the contract:\n%s", g_type_name (type), problems->str);
      g_test_fail ();
    }
}

int
main (int argc, char **argv)
{
  return reflection_main (&argc, &argv, "roundtrip", roundtrip_body, pending, G_N_ELEMENTS (pending));
}
