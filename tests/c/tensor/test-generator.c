/* GnnGenerator: seeding, state save/restore, bounded integers, forks. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

static void
test_same_seed_same_sequence (void)
{
  g_autoptr(GnnGenerator) a = gnn_generator_new (1234);
  g_autoptr(GnnGenerator) b = gnn_generator_new (1234);

  for (int i = 0; i < 1000; i++)
    g_assert_cmpuint (gnn_generator_next_u64 (a), ==, gnn_generator_next_u64 (b));
  for (int i = 0; i < 100; i++)
    g_assert_cmpfloat (gnn_generator_next_normal (a), ==, gnn_generator_next_normal (b));
}

static void
test_different_seeds_differ (void)
{
  g_autoptr(GnnGenerator) a = gnn_generator_new (1);
  g_autoptr(GnnGenerator) b = gnn_generator_new (2);
  int same = 0;

  for (int i = 0; i < 100; i++)
    same += gnn_generator_next_u64 (a) == gnn_generator_next_u64 (b);
  g_assert_cmpint (same, ==, 0);
}

static void
test_manual_seed_restarts (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (77);
  guint64 first[10];

  for (int i = 0; i < 10; i++)
    first[i] = gnn_generator_next_u64 (g);
  gnn_generator_next_normal (g);   /* leaves a cached normal behind */
  gnn_generator_manual_seed (g, 77);
  g_assert_cmpuint (gnn_generator_get_seed (g), ==, 77);
  for (int i = 0; i < 10; i++)
    g_assert_cmpuint (gnn_generator_next_u64 (g), ==, first[i]);
}

static void
test_zero_seed_works (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (0);
  guint64 x = gnn_generator_next_u64 (g);
  guint64 y = gnn_generator_next_u64 (g);

  g_assert_true (x != 0 || y != 0);
  g_assert_cmpuint (x, !=, y);
}

static void
test_state_round_trip (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (99);
  g_autoptr(GnnGenerator) other = gnn_generator_new (5);
  g_autoptr(GBytes) state = NULL;
  g_autoptr(GError) error = NULL;
  guint64 expected[20];

  for (int i = 0; i < 37; i++)
    gnn_generator_next_u64 (g);
  state = gnn_generator_get_state (g);
  g_assert_cmpuint (g_bytes_get_size (state), ==, 48);
  for (int i = 0; i < 20; i++)
    expected[i] = gnn_generator_next_u64 (g);

  /* Restore into the same generator and into another one. */
  g_assert_true (gnn_generator_set_state (g, state, &error));
  g_assert_no_error (error);
  for (int i = 0; i < 20; i++)
    g_assert_cmpuint (gnn_generator_next_u64 (g), ==, expected[i]);
  g_assert_true (gnn_generator_set_state (other, state, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_generator_get_seed (other), ==, 99);
  for (int i = 0; i < 20; i++)
    g_assert_cmpuint (gnn_generator_next_u64 (other), ==, expected[i]);
}

static void
test_state_normals_round_trip (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (3);
  g_autoptr(GBytes) state = NULL;
  double expected[11];

  /* Saved on a pair boundary, normals replay exactly. */
  gnn_generator_next_normal (g);
  gnn_generator_next_normal (g);
  state = gnn_generator_get_state (g);
  for (int i = 0; i < 11; i++)
    expected[i] = gnn_generator_next_normal (g);
  g_assert_true (gnn_generator_set_state (g, state, NULL));
  for (int i = 0; i < 11; i++)
    g_assert_cmpfloat (gnn_generator_next_normal (g), ==, expected[i]);
}

static void
test_state_bad_size_fails (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (3);
  g_autoptr(GBytes) bad = g_bytes_new ("abc", 3);
  g_autoptr(GError) error = NULL;
  guint64 before, after;
  g_autoptr(GnnGenerator) twin = gnn_generator_new (3);

  g_assert_false (gnn_generator_set_state (g, bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "48 bytes, got 3"));
  /* Unchanged by the failed call. */
  before = gnn_generator_next_u64 (g);
  after = gnn_generator_next_u64 (twin);
  g_assert_cmpuint (before, ==, after);
}

static void
test_state_all_zero_fails (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (3);
  guint64 zeros[6] = { 0, };
  g_autoptr(GBytes) bad = g_bytes_new (zeros, sizeof zeros);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_generator_set_state (g, bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "all zero"));
}

static void
test_next_double_range (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (11);
  double sum = 0;
  int n = 100000;

  for (int i = 0; i < n; i++)
    {
      double x = gnn_generator_next_double (g);

      g_assert_cmpfloat (x, >=, 0.0);
      g_assert_cmpfloat (x, <, 1.0);
      sum += x;
    }
  g_assert_cmpfloat_with_epsilon (sum / n, 0.5, 0.01);
}

static void
test_next_normal_stats (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (12);
  double s = 0, ss = 0;
  int n = 100000;

  for (int i = 0; i < n; i++)
    {
      double x = gnn_generator_next_normal (g);

      g_assert_true (isfinite (x));
      s += x;
      ss += x * x;
    }
  g_assert_cmpfloat_with_epsilon (s / n, 0.0, 0.02);
  g_assert_cmpfloat_with_epsilon (sqrt (ss / n - (s / n) * (s / n)), 1.0, 0.02);
}

static void
test_next_below_bounds (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (13);
  guint64 bounds[] = { 1, 2, 3, 7, 1000, G_GUINT64_CONSTANT (1) << 63,
                       G_MAXUINT64 };

  for (guint b = 0; b < G_N_ELEMENTS (bounds); b++)
    for (int i = 0; i < 2000; i++)
      g_assert_cmpuint (gnn_generator_next_below (g, bounds[b]), <, bounds[b]);
  for (int i = 0; i < 100; i++)
    g_assert_cmpuint (gnn_generator_next_below (g, 1), ==, 0);
}

static void
test_next_below_uniform (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (14);
  int counts[10] = { 0, };
  int n = 100000;
  double chi2 = 0;

  for (int i = 0; i < n; i++)
    counts[gnn_generator_next_below (g, 10)]++;
  for (int k = 0; k < 10; k++)
    {
      double d = counts[k] - n / 10.0;

      chi2 += d * d / (n / 10.0);
    }
  /* 9 degrees of freedom: P(chi2 > 27.9) = 0.001 */
  g_assert_cmpfloat (chi2, <, 27.9);
}

static void
test_next_below_hits_all (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (15);
  gboolean seen[7] = { FALSE, };

  for (int i = 0; i < 1000; i++)
    seen[gnn_generator_next_below (g, 7)] = TRUE;
  for (int k = 0; k < 7; k++)
    g_assert_true (seen[k]);
}

static void
test_fork_independent (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (21);
  g_autoptr(GnnGenerator) twin = gnn_generator_new (21);
  g_autoptr(GnnGenerator) f0 = gnn_generator_fork (g, 0);
  g_autoptr(GnnGenerator) f1 = gnn_generator_fork (g, 1);
  g_autoptr(GnnGenerator) f0_again = gnn_generator_fork (g, 0);
  int same01 = 0, same_parent = 0;

  /* Forking does not advance the parent. */
  for (int i = 0; i < 50; i++)
    g_assert_cmpuint (gnn_generator_next_u64 (g), ==, gnn_generator_next_u64 (twin));
  for (int i = 0; i < 100; i++)
    {
      guint64 a = gnn_generator_next_u64 (f0);
      guint64 b = gnn_generator_next_u64 (f1);
      guint64 c = gnn_generator_next_u64 (f0_again);
      guint64 p = gnn_generator_next_u64 (twin);

      g_assert_cmpuint (a, ==, c);
      same01 += a == b;
      same_parent += a == p;
    }
  g_assert_cmpint (same01, ==, 0);
  g_assert_cmpint (same_parent, ==, 0);
}

static void
test_fork_depends_on_seed (void)
{
  g_autoptr(GnnGenerator) a = gnn_generator_new (1);
  g_autoptr(GnnGenerator) b = gnn_generator_new (2);
  g_autoptr(GnnGenerator) fa = gnn_generator_fork (a, 3);
  g_autoptr(GnnGenerator) fb = gnn_generator_fork (b, 3);

  g_assert_cmpuint (gnn_generator_get_seed (fa), !=, gnn_generator_get_seed (fb));
  g_assert_cmpuint (gnn_generator_next_u64 (fa), !=, gnn_generator_next_u64 (fb));
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           gpointer    user_data)
{
  (*(int *) user_data)++;
}

static void
test_seed_property (void)
{
  g_autoptr(GnnGenerator) g = g_object_new (GNN_TYPE_GENERATOR, "seed", (guint64) 555, NULL);
  g_autoptr(GnnGenerator) ref = gnn_generator_new (555);
  guint64 seed = 0;
  int notified = 0;

  g_object_get (g, "seed", &seed, NULL);
  g_assert_cmpuint (seed, ==, 555);
  g_assert_cmpuint (gnn_generator_next_u64 (g), ==, gnn_generator_next_u64 (ref));

  g_signal_connect (g, "notify::seed", G_CALLBACK (notify_cb), &notified);
  g_object_set (g, "seed", (guint64) 555, NULL);
  g_assert_cmpint (notified, ==, 1);
  g_assert_cmpuint (gnn_generator_get_seed (g), ==, 555);
  /* Setting the property reseeds. */
  gnn_generator_manual_seed (ref, 555);
  g_assert_cmpuint (gnn_generator_next_u64 (g), ==, gnn_generator_next_u64 (ref));

  gnn_generator_manual_seed (g, 9);
  g_assert_cmpint (notified, ==, 2);
  g_object_get (g, "seed", &seed, NULL);
  g_assert_cmpuint (seed, ==, 9);
}

/* The default generator: one object, seeded with torch's default seed until
 * gnn_manual_seed; every function given NULL draws from it, so reseeding
 * repeats the layers' weights, the fills and the samplers' orders. */
static void
test_default_one_object (void)
{
  GnnGenerator *d = gnn_generator_get_default ();

  g_assert_true (GNN_IS_GENERATOR (d));
  g_assert_true (gnn_generator_get_default () == d);
  g_assert_true (gnn_manual_seed (5) == d);
  g_assert_cmpuint (gnn_initial_seed (), ==, 5);
  g_assert_cmpuint (gnn_generator_get_seed (d), ==, 5);
}

static GnnTensor *
fill_from_default (void)
{
  const gint64 shape[] = { 7 };
  GnnTensor *t = gnn_tensor_zeros (shape, 1, GNN_DTYPE_F64, NULL);

  g_assert_true (gnn_tensor_normal_ (t, 0.0, 1.0, NULL, NULL));
  return t;
}

static void
test_default_manual_seed_repeats (void)
{
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) c = NULL;
  g_autoptr(GnnLinear) la = NULL;
  g_autoptr(GnnLinear) lb = NULL;
  g_autoptr(GnnGenerator) explicit_gen = gnn_generator_new (11);
  g_autoptr(GnnTensor) e = NULL;
  g_autoptr(GnnTensor) f = NULL;
  const gint64 shape[] = { 7 };

  gnn_manual_seed (11);
  a = fill_from_default ();
  la = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  gnn_manual_seed (11);
  b = fill_from_default ();
  lb = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  g_assert_true (gnn_tensor_equal (a, b));
  {
    GObject *wa = gnn_module_get_child (GNN_MODULE (la), "weight", NULL);
    GObject *wb = gnn_module_get_child (GNN_MODULE (lb), "weight", NULL);

    g_assert_true (gnn_tensor_equal (GNN_TENSOR (wa), GNN_TENSOR (wb)));
  }
  c = fill_from_default ();          /* the stream moved on */
  g_assert_false (gnn_tensor_equal (a, c));

  /* the default generator seeded with s draws what gnn_generator_new (s) draws */
  gnn_manual_seed (11);
  e = gnn_tensor_zeros (shape, 1, GNN_DTYPE_F32, NULL);
  f = gnn_tensor_zeros (shape, 1, GNN_DTYPE_F32, NULL);
  g_assert_true (gnn_tensor_uniform_ (e, -1.0, 1.0, NULL, NULL));
  g_assert_true (gnn_tensor_uniform_ (f, -1.0, 1.0, explicit_gen, NULL));
  g_assert_true (gnn_tensor_equal (e, f));
}

static void
test_default_state_round_trip (void)
{
  GnnGenerator *d = gnn_generator_get_default ();
  g_autoptr(GBytes) state = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;

  gnn_manual_seed (3);
  state = gnn_generator_get_state (d);
  a = fill_from_default ();
  g_assert_true (gnn_generator_set_state (d, state, NULL));
  b = fill_from_default ();
  g_assert_true (gnn_tensor_equal (a, b));
}

static void
test_default_seeds_samplers (void)
{
  const gint64 shape[] = { 20 };
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (shape, 1, GNN_DTYPE_F32, NULL);
  GnnTensor *tensors[] = { x };
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (tensors, 1, NULL);
  g_autoptr(GnnRandomSampler) s1 = NULL;
  g_autoptr(GnnRandomSampler) s2 = NULL;
  g_autofree gint64 *o1 = NULL;
  g_autofree gint64 *o2 = NULL;
  gsize n1 = 0, n2 = 0;

  gnn_manual_seed (21);
  s1 = gnn_random_sampler_new (GNN_DATASET (ds), FALSE, -1, NULL, NULL);
  gnn_manual_seed (21);
  s2 = gnn_random_sampler_new (GNN_DATASET (ds), FALSE, -1, NULL, NULL);
  o1 = gnn_sampler_sample (GNN_SAMPLER (s1), &n1, NULL);
  o2 = gnn_sampler_sample (GNN_SAMPLER (s2), &n2, NULL);
  g_assert_cmpuint (n1, ==, 20);
  g_assert_cmpmem (o1, n1 * sizeof (gint64), o2, n2 * sizeof (gint64));
}

static void
test_draw_seed (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (4);
  g_autoptr(GnnGenerator) h = gnn_generator_new (4);
  guint64 a, b;

  gnn_manual_seed (9);
  a = gnn_draw_seed (NULL);
  gnn_manual_seed (9);
  b = gnn_draw_seed (NULL);
  g_assert_cmpuint (a, ==, b);
  g_assert_cmpuint (gnn_draw_seed (NULL), !=, a);      /* the stream moved on */
  g_assert_cmpuint (gnn_draw_seed (g), ==, gnn_generator_next_u64 (h));
}

/* Threads drawing from the default generator (NULL) while another reseeds
 * it: every draw happens under its lock (TSan runs see no race). */
static gpointer
draw_thread (gpointer data)
{
  for (int i = 0; i < 200; i++)
    {
      g_autoptr(GnnTensor) t = fill_from_default ();
      g_assert_nonnull (t);
    }
  return NULL;
}

static void
test_default_threads (void)
{
  GThread *threads[3];

  for (int i = 0; i < 3; i++)
    threads[i] = g_thread_new ("draw", draw_thread, NULL);
  for (int i = 0; i < 200; i++)
    gnn_manual_seed ((guint64) i);
  for (int i = 0; i < 3; i++)
    g_thread_join (threads[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/generator/seed/same-sequence", test_same_seed_same_sequence);
  g_test_add_func ("/generator/seed/different-seeds-differ", test_different_seeds_differ);
  g_test_add_func ("/generator/seed/manual-seed-restarts", test_manual_seed_restarts);
  g_test_add_func ("/generator/seed/zero", test_zero_seed_works);
  g_test_add_func ("/generator/seed/property", test_seed_property);
  g_test_add_func ("/generator/state/round-trip", test_state_round_trip);
  g_test_add_func ("/generator/state/normals-round-trip", test_state_normals_round_trip);
  g_test_add_func ("/generator/state/bad-size", test_state_bad_size_fails);
  g_test_add_func ("/generator/state/all-zero", test_state_all_zero_fails);
  g_test_add_func ("/generator/next-double/range", test_next_double_range);
  g_test_add_func ("/generator/next-normal/stats", test_next_normal_stats);
  g_test_add_func ("/generator/next-below/bounds", test_next_below_bounds);
  g_test_add_func ("/generator/next-below/uniform", test_next_below_uniform);
  g_test_add_func ("/generator/next-below/hits-all", test_next_below_hits_all);
  g_test_add_func ("/generator/fork/independent", test_fork_independent);
  g_test_add_func ("/generator/fork/depends-on-seed", test_fork_depends_on_seed);
  g_test_add_func ("/generator/default/one-object", test_default_one_object);
  g_test_add_func ("/generator/default/manual-seed-repeats", test_default_manual_seed_repeats);
  g_test_add_func ("/generator/default/state-round-trip", test_default_state_round_trip);
  g_test_add_func ("/generator/default/seeds-samplers", test_default_seeds_samplers);
  g_test_add_func ("/generator/default/threads", test_default_threads);
  g_test_add_func ("/generator/default/draw-seed", test_draw_seed);

  return g_test_run ();
}
