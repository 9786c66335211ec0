/* Samplers built from properties alone (g_object_new / g_initable_new),
 * rebuilt from the values read off an instance, and epochs too long to
 * materialize. */
#include <string.h>
#include <gio/gio.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

static GnnDataset *
make_dataset (gint64 n)
{
  return GNN_DATASET (probe_new (n, FALSE));
}

static void
test_distributed_from_properties (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (10);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnSampler) s = g_initable_new (GNN_TYPE_DISTRIBUTED_SAMPLER, NULL, &error,
                                            "dataset", ds, "num-replicas", (gint64) 2,
                                            "rank", (gint64) 1, "shuffle", FALSE, NULL);
  g_autofree gint64 *idx = NULL;
  gsize n;

  g_assert_no_error (error);
  g_assert_cmpint (gnn_sampler_get_length (s), ==, 5);
  idx = gnn_sampler_sample (s, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 5);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpint (idx[i], ==, 2 * (gint64) i + 1);
}

/* A bad configuration is PyTorch's message from GInitable, and from
 * sample() when the object was made with plain g_object_new. */
static void
test_distributed_bad_rank_from_properties (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (10);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnSampler) bare = NULL;
  gpointer s = g_initable_new (GNN_TYPE_DISTRIBUTED_SAMPLER, NULL, &error, "dataset", ds,
                               "num-replicas", (gint64) 2, "rank", (gint64) 2, NULL);
  gsize n = 7;

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Invalid rank 2, rank should be in the interval [0, 1]");
  g_clear_error (&error);

  bare = g_object_new (GNN_TYPE_DISTRIBUTED_SAMPLER, "dataset", ds, "num-replicas", (gint64) 0, NULL);
  g_assert_cmpint (gnn_sampler_get_length (bare), ==, 0);
  g_assert_null (gnn_sampler_sample (bare, &n, &error));
  g_assert_cmpuint (n, ==, 0);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "num_replicas should be a positive integer value, but got num_replicas=0");
}

/* Every sampler type made bare: a GError naming what is missing, never a
 * crash. */
static void
test_bare_samplers_fail_cleanly (void)
{
  GType types[] = { GNN_TYPE_SEQUENTIAL_SAMPLER, GNN_TYPE_RANDOM_SAMPLER,
                    GNN_TYPE_DISTRIBUTED_SAMPLER, GNN_TYPE_WEIGHTED_RANDOM_SAMPLER,
                    GNN_TYPE_BATCH_SAMPLER };

  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autoptr(GError) error = NULL;
      gpointer s = g_initable_new (types[i], NULL, &error, NULL);

      g_assert_null (s);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    }
}

/* The values read off a sampler rebuild an equal one: same properties,
 * same epoch for the same generator state. */
static void
assert_rebuilds (GObject *src)
{
  guint n_props;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (src), &n_props);
  g_autofree const char **names = g_new0 (const char *, n_props);
  GValue *values = g_new0 (GValue, n_props);
  g_autoptr(GObject) copy = NULL;
  guint k = 0;

  for (guint i = 0; i < n_props; i++)
    if ((pspecs[i]->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE)
      {
        names[k] = pspecs[i]->name;
        g_value_init (&values[k], pspecs[i]->value_type);
        g_object_get_property (src, names[k], &values[k]);
        k++;
      }
  copy = g_object_new_with_properties (G_OBJECT_TYPE (src), k, names, values);
  g_assert_true (g_initable_init (G_INITABLE (copy), NULL, NULL));
  for (guint i = 0; i < k; i++)
    {
      g_auto(GValue) v = G_VALUE_INIT;

      g_value_init (&v, G_VALUE_TYPE (&values[i]));
      g_object_get_property (copy, names[i], &v);
      if (G_VALUE_HOLDS_VARIANT (&v))
        g_assert_true (g_variant_equal (g_value_get_variant (&v), g_value_get_variant (&values[i])));
      else
        g_assert_cmpint (g_param_values_cmp (g_object_class_find_property (G_OBJECT_GET_CLASS (src),
                                                                           names[i]),
                                             &v, &values[i]), ==, 0);
      g_value_unset (&values[i]);
    }
  g_free (values);
}

static void
test_samplers_rebuild_from_their_properties (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (9);
  g_autoptr(GnnGenerator) g = gnn_generator_new (3);
  const gint64 subset[] = { 4, 1, 7 };
  const double weights[] = { 0.5, 0, 2 };
  g_autoptr(GnnSequentialSampler) seq = gnn_sequential_sampler_new (ds);
  g_autoptr(GnnRandomSampler) rnd = gnn_random_sampler_new (ds, TRUE, 4, g, NULL);
  g_autoptr(GnnDistributedSampler) dist = gnn_distributed_sampler_new (ds, 3, 2, TRUE, 5, TRUE, NULL);
  g_autoptr(GnnSubsetRandomSampler) sub = gnn_subset_random_sampler_new (subset, 3, g);
  g_autoptr(GnnWeightedRandomSampler) w = gnn_weighted_random_sampler_new (weights, 3, 2, FALSE, g, NULL);
  g_autoptr(GnnBatchSampler) b = gnn_batch_sampler_new (GNN_SAMPLER (seq), 4, TRUE, NULL);
  GObject *all[] = { G_OBJECT (seq), G_OBJECT (rnd), G_OBJECT (dist), G_OBJECT (sub),
                     G_OBJECT (w), G_OBJECT (b) };

  for (gsize i = 0; i < G_N_ELEMENTS (all); i++)
    assert_rebuilds (all[i]);
}

/* 2**62 items: a GError naming the length, not a heap overflow or an
 * abort in g_malloc, from the samplers and from a loader (0 and 2 worker
 * threads). */
static void
test_huge_dataset_is_an_error (void)
{
  g_autoptr(GnnDataset) ds = make_dataset ((gint64) 1 << 62);
  g_autoptr(GnnSequentialSampler) seq = gnn_sequential_sampler_new (ds);
  g_autoptr(GnnRandomSampler) rnd = gnn_random_sampler_new (ds, FALSE, -1, NULL, NULL);
  GnnSampler *samplers[] = { GNN_SAMPLER (seq), GNN_SAMPLER (rnd) };

  for (gsize i = 0; i < G_N_ELEMENTS (samplers); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize n;

      g_assert_null (gnn_sampler_sample (samplers[i], &n, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
      g_assert_nonnull (strstr (error->message, "4611686018427387904"));
    }
  for (gint workers = 0; workers <= 2; workers += 2)
    for (gint shuffle = 0; shuffle <= 1; shuffle++)
      {
        g_autoptr(GnnDataLoader) loader = loader_new (ds, 4, shuffle, workers,
                                                      GNN_WORKER_MODE_THREADS);
        g_autoptr(GError) error = NULL;
        g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (loader, &error);

        g_assert_null (it);
        g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
        g_assert_nonnull (strstr (error->message, "4611686018427387904"));
      }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/sampler-props/distributed/from-properties", test_distributed_from_properties);
  g_test_add_func ("/data/sampler-props/distributed/bad-rank", test_distributed_bad_rank_from_properties);
  g_test_add_func ("/data/sampler-props/bare-fails-cleanly", test_bare_samplers_fail_cleanly);
  g_test_add_func ("/data/sampler-props/rebuild-from-properties", test_samplers_rebuild_from_their_properties);
  g_test_add_func ("/data/sampler-props/huge-dataset", test_huge_dataset_is_an_error);
  return g_test_run ();
}
