/* Samplers: lengths, orders, PyTorch's messages, distributed shards. */
#include <string.h>
#include <gnn/gnn.h>

static GnnDataset *
make_dataset (gint64 n)
{
  g_autoptr(GnnTensor) y = gnn_tensor_arange (0, (double) n, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { y };

  return GNN_DATASET (gnn_tensor_dataset_new (ts, 1, NULL));
}

/* Asserts @idx is a permutation of 0..n-1. */
static void
assert_permutation (const gint64 *idx, gsize n)
{
  g_autofree gboolean *seen = g_new0 (gboolean, n);

  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpint (idx[i], >=, 0);
      g_assert_cmpint (idx[i], <, (gint64) n);
      g_assert_false (seen[idx[i]]);
      seen[idx[i]] = TRUE;
    }
}

static void
test_sequential (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (5);
  g_autoptr(GnnSequentialSampler) s = gnn_sequential_sampler_new (ds);
  GnnSamplerIter iter;
  gint64 index, expect = 0;

  g_assert_cmpint (gnn_sampler_get_length (GNN_SAMPLER (s)), ==, 5);
  g_assert_true (gnn_sampler_iter_init (&iter, GNN_SAMPLER (s), NULL));
  while (gnn_sampler_iter_next (&iter, &index))
    g_assert_cmpint (index, ==, expect++);
  gnn_sampler_iter_clear (&iter);
  g_assert_cmpint (expect, ==, 5);
}

static void
test_random_new_permutation_each_epoch (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (50);
  g_autoptr(GnnGenerator) g = gnn_generator_new (7);
  g_autoptr(GnnRandomSampler) s = gnn_random_sampler_new (ds, FALSE, -1, g, NULL);
  g_autofree gint64 *a = NULL, *b = NULL;
  gsize na, nb;

  a = gnn_sampler_sample (GNN_SAMPLER (s), &na, NULL);
  b = gnn_sampler_sample (GNN_SAMPLER (s), &nb, NULL);
  g_assert_cmpuint (na, ==, 50);
  assert_permutation (a, na);
  assert_permutation (b, nb);
  g_assert_true (memcmp (a, b, 50 * sizeof (gint64)) != 0);
}

static void
test_random_same_seed_same_order (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (30);
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (3);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (3);
  g_autoptr(GnnRandomSampler) s1 = gnn_random_sampler_new (ds, FALSE, -1, g1, NULL);
  g_autoptr(GnnRandomSampler) s2 = gnn_random_sampler_new (ds, FALSE, -1, g2, NULL);
  g_autofree gint64 *a = NULL, *b = NULL;
  gsize n;

  a = gnn_sampler_sample (GNN_SAMPLER (s1), &n, NULL);
  b = gnn_sampler_sample (GNN_SAMPLER (s2), &n, NULL);
  g_assert_true (memcmp (a, b, n * sizeof (gint64)) == 0);
}

static void
test_random_num_samples_without_replacement (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (4);
  g_autoptr(GnnRandomSampler) s = gnn_random_sampler_new (ds, FALSE, 10, NULL, NULL);
  g_autofree gint64 *a = NULL;
  gsize n;

  g_assert_cmpint (gnn_sampler_get_length (GNN_SAMPLER (s)), ==, 10);
  a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  g_assert_cmpuint (n, ==, 10);
  /* two whole permutations, then 2 indices of a third */
  assert_permutation (a, 4);
  assert_permutation (a + 4, 4);
  g_assert_cmpint (a[8], !=, a[9]);
}

static void
test_random_with_replacement (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (3);
  g_autoptr(GnnRandomSampler) s = gnn_random_sampler_new (ds, TRUE, 1000, NULL, NULL);
  g_autofree gint64 *a = NULL;
  gsize n, counts[3] = { 0 };

  a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  g_assert_cmpuint (n, ==, 1000);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpint (a[i], >=, 0);
      g_assert_cmpint (a[i], <, 3);
      counts[a[i]]++;
    }
  for (int i = 0; i < 3; i++)
    g_assert_cmpuint (counts[i], >, 250);
}

static void
test_random_bad_num_samples (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnRandomSampler) s = gnn_random_sampler_new (ds, FALSE, 0, NULL, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "num_samples should be a positive integer value, but got num_samples=0");
}

static void
test_subset_random (void)
{
  gint64 idx[] = { 10, 20, 30, 40 };
  g_autoptr(GnnSubsetRandomSampler) s = gnn_subset_random_sampler_new (idx, 4, NULL);
  g_autofree gint64 *a = NULL;
  gsize n;
  gint64 sum = 0;

  g_assert_cmpint (gnn_sampler_get_length (GNN_SAMPLER (s)), ==, 4);
  a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpint (a[i] % 10, ==, 0);
      sum += a[i];
    }
  g_assert_cmpint (sum, ==, 100);
}

static void
test_weighted_respects_zero_weights (void)
{
  double w[] = { 0.0, 1.0, 0.0, 3.0 };
  g_autoptr(GnnWeightedRandomSampler) s = gnn_weighted_random_sampler_new (w, 4, 4000, TRUE, NULL, NULL);
  g_autofree gint64 *a = NULL;
  gsize n, counts[4] = { 0 };

  a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  g_assert_cmpuint (n, ==, 4000);
  for (gsize i = 0; i < n; i++)
    counts[a[i]]++;
  g_assert_cmpuint (counts[0], ==, 0);
  g_assert_cmpuint (counts[2], ==, 0);
  g_assert_cmpuint (counts[3], >, 2 * counts[1]);
}

static void
test_weighted_without_replacement (void)
{
  double w[] = { 1.0, 1.0, 0.0, 5.0, 2.0 };
  g_autoptr(GnnWeightedRandomSampler) s = gnn_weighted_random_sampler_new (w, 5, 4, FALSE, NULL, NULL);
  g_autofree gint64 *a = NULL;
  gsize n;
  gboolean seen[5] = { FALSE };

  a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  g_assert_cmpuint (n, ==, 4);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_false (seen[a[i]]);
      seen[a[i]] = TRUE;
    }
  g_assert_false (seen[2]);
}

static void
test_weighted_messages (void)
{
  double w[] = { 1.0, -1.0 }, z[] = { 0.0, 0.0 };
  g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL;

  g_assert_null (gnn_weighted_random_sampler_new (w, 2, 0, TRUE, NULL, &e1));
  g_assert_cmpstr (e1->message, ==, "num_samples should be a positive integer value, but got num_samples=0");
  g_assert_null (gnn_weighted_random_sampler_new (w, 2, 3, TRUE, NULL, &e2));
  g_assert_nonnull (strstr (e2->message, "invalid multinomial distribution (encountering probability entry < 0)"));
  g_assert_null (gnn_weighted_random_sampler_new (z, 2, 3, TRUE, NULL, &e3));
  g_assert_nonnull (strstr (e3->message, "invalid multinomial distribution (sum of probabilities <= 0)"));
  g_assert_null (gnn_weighted_random_sampler_new ((double[]) { 1, 1 }, 2, 3, FALSE, NULL, &e4));
  g_assert_nonnull (strstr (e4->message, "cannot sample n_sample > prob_dist.size(-1) samples without replacement"));
}

static void
test_batch_lengths (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (10);
  g_autoptr(GnnSequentialSampler) s = gnn_sequential_sampler_new (ds);
  g_autoptr(GnnBatchSampler) keep = gnn_batch_sampler_new (GNN_SAMPLER (s), 3, FALSE, NULL);
  g_autoptr(GnnBatchSampler) drop = gnn_batch_sampler_new (GNN_SAMPLER (s), 3, TRUE, NULL);
  g_autofree gint64 *a = NULL, *b = NULL;
  gsize n, nb;

  g_assert_cmpint (gnn_batch_sampler_get_length (keep), ==, 4);
  g_assert_cmpint (gnn_batch_sampler_get_length (drop), ==, 3);
  a = gnn_batch_sampler_sample (keep, &n, &nb, NULL);
  g_assert_cmpuint (n, ==, 10);
  g_assert_cmpuint (nb, ==, 4);
  b = gnn_batch_sampler_sample (drop, &n, &nb, NULL);
  g_assert_cmpuint (n, ==, 9);
  g_assert_cmpuint (nb, ==, 3);
  g_assert_cmpint (b[8], ==, 8);
}

static void
test_batch_bad_size (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (10);
  g_autoptr(GnnSequentialSampler) s = gnn_sequential_sampler_new (ds);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchSampler) b = gnn_batch_sampler_new (GNN_SAMPLER (s), 0, FALSE, &error);

  g_assert_null (b);
  g_assert_cmpstr (error->message, ==, "batch_size should be a positive integer value, but got batch_size=0");
}

static void
test_distributed_bad_rank (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (10);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDistributedSampler) s = gnn_distributed_sampler_new (ds, 4, 4, TRUE, 0, FALSE, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Invalid rank 4, rank should be in the interval [0, 3]");
}

/* With 10 items over 4 replicas: 3 each, padded by 2 repeated from the start;
 * the union of shards covers everything. */
static void
test_distributed_shards_partition_padded (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (10);
  guint counts[10] = { 0 };

  for (gint64 rank = 0; rank < 4; rank++)
    {
      g_autoptr(GnnDistributedSampler) s = gnn_distributed_sampler_new (ds, 4, rank, TRUE, 5, FALSE, NULL);
      g_autofree gint64 *a = NULL;
      gsize n;

      gnn_distributed_sampler_set_epoch (s, 2);
      g_assert_cmpint (gnn_sampler_get_length (GNN_SAMPLER (s)), ==, 3);
      g_assert_cmpint (gnn_distributed_sampler_get_total_size (s), ==, 12);
      a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
      g_assert_cmpuint (n, ==, 3);
      for (gsize i = 0; i < n; i++)
        counts[a[i]]++;
    }
  for (int i = 0; i < 10; i++)
    g_assert_cmpuint (counts[i], >=, 1);
}

static void
test_distributed_no_shuffle_layout (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (10);
  g_autoptr(GnnDistributedSampler) s = gnn_distributed_sampler_new (ds, 4, 1, FALSE, 0, FALSE, NULL);
  g_autoptr(GnnDistributedSampler) d = gnn_distributed_sampler_new (ds, 4, 3, FALSE, 0, TRUE, NULL);
  g_autofree gint64 *a = NULL, *b = NULL;
  gsize n;

  /* padded: 0..9, 0, 1; rank 1 takes 1, 5, 9 */
  a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (a[0], ==, 1);
  g_assert_cmpint (a[1], ==, 5);
  g_assert_cmpint (a[2], ==, 9);
  /* drop_last: 0..7; rank 3 takes 3, 7 */
  g_assert_cmpint (gnn_sampler_get_length (GNN_SAMPLER (d)), ==, 2);
  b = gnn_sampler_sample (GNN_SAMPLER (d), &n, NULL);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (b[0], ==, 3);
  g_assert_cmpint (b[1], ==, 7);
}

static void
test_distributed_epoch_changes_order (void)
{
  g_autoptr(GnnDataset) ds = make_dataset (100);
  g_autoptr(GnnDistributedSampler) s = gnn_distributed_sampler_new (ds, 2, 0, TRUE, 1, TRUE, NULL);
  g_autofree gint64 *a = NULL, *b = NULL, *c = NULL;
  gsize n;

  a = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  b = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  g_assert_true (memcmp (a, b, n * sizeof (gint64)) == 0);   /* same epoch, same order */
  g_object_set (s, "epoch", (gint64) 1, NULL);
  c = gnn_sampler_sample (GNN_SAMPLER (s), &n, NULL);
  g_assert_true (memcmp (a, c, n * sizeof (gint64)) != 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/sampler/sequential", test_sequential);
  g_test_add_func ("/data/sampler/random/new-permutation-each-epoch", test_random_new_permutation_each_epoch);
  g_test_add_func ("/data/sampler/random/same-seed-same-order", test_random_same_seed_same_order);
  g_test_add_func ("/data/sampler/random/num-samples-without-replacement", test_random_num_samples_without_replacement);
  g_test_add_func ("/data/sampler/random/with-replacement", test_random_with_replacement);
  g_test_add_func ("/data/sampler/random/bad-num-samples", test_random_bad_num_samples);
  g_test_add_func ("/data/sampler/subset-random", test_subset_random);
  g_test_add_func ("/data/sampler/weighted/zero-weights", test_weighted_respects_zero_weights);
  g_test_add_func ("/data/sampler/weighted/without-replacement", test_weighted_without_replacement);
  g_test_add_func ("/data/sampler/weighted/messages", test_weighted_messages);
  g_test_add_func ("/data/sampler/batch/lengths", test_batch_lengths);
  g_test_add_func ("/data/sampler/batch/bad-size", test_batch_bad_size);
  g_test_add_func ("/data/sampler/distributed/bad-rank", test_distributed_bad_rank);
  g_test_add_func ("/data/sampler/distributed/shards-partition-padded", test_distributed_shards_partition_padded);
  g_test_add_func ("/data/sampler/distributed/no-shuffle-layout", test_distributed_no_shuffle_layout);
  g_test_add_func ("/data/sampler/distributed/epoch-changes-order", test_distributed_epoch_changes_order);
  return g_test_run ();
}
