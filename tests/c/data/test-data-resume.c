/* Resuming a pass mid-epoch: the batches (and worker seeds) the
 * uninterrupted run would have yielded, in every worker mode and count. */
#include <string.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

typedef struct { GnnWorkerMode mode; gint workers; } Config;

static const Config configs[] = {
  { GNN_WORKER_MODE_THREADS, 0 }, { GNN_WORKER_MODE_THREADS, 1 }, { GNN_WORKER_MODE_THREADS, 3 },
  { GNN_WORKER_MODE_PROCESSES, 2 }, { GNN_WORKER_MODE_SPAWN, 2 },
};

/* Appends (index, worker seed) of every item of the next @n batches (all
 * with n < 0) to @out; returns the number of batches read. */
static gint
take (GnnDataLoaderIter *iter, gint n, GArray *out)
{
  GPtrArray *batch;
  gint k = 0;

  while ((n < 0 || k < n) && gnn_data_loader_iter_next (iter, &batch, NULL))
    {
      gint64 size = gnn_tensor_get_size (g_ptr_array_index (batch, 0), 0, NULL);

      for (gint64 i = 0; i < size; i++)
        {
          gint64 v[2] = {
            (gint64) gnn_tensor_get_element (g_ptr_array_index (batch, 0), &i, 1, NULL),
            (gint64) gnn_tensor_get_element (g_ptr_array_index (batch, 2), &i, 1, NULL),
          };

          g_array_append_vals (out, v, 2);
        }
      g_ptr_array_unref (batch);
      k++;
    }
  return k;
}

static GnnDataLoader *
make_loader (Probe *ds, const Config *c, gboolean own_sampler)
{
  GnnDataLoader *l = loader_new (GNN_DATASET (ds), 4, !own_sampler, c->workers, c->mode);

  if (own_sampler)
    {
      g_autoptr(GnnGenerator) g = gnn_generator_new (99);
      g_autoptr(GnnRandomSampler) s = gnn_random_sampler_new (GNN_DATASET (ds), FALSE, -1, g, NULL);

      g_object_set (l, "sampler", s, NULL);
    }
  return l;
}

/* Two passes straight, against: k batches, state saved, loader dropped, a
 * new loader (another worker mode/count) resumed from the state printed
 * and parsed back, then the rest and the next pass. */
static void
check_resume (gboolean own_sampler)
{
  g_autoptr(Probe) ds = probe_new (23, FALSE);

  for (gsize a = 0; a < G_N_ELEMENTS (configs); a++)
    for (gint k = 0; k <= 6; k += 3)
      {
        const Config *b = &configs[(a + 1 + (gsize) k) % G_N_ELEMENTS (configs)];
        g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (gint64));
        g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (gint64));
        g_autofree char *text = NULL;
        g_autoptr(GVariant) parsed = NULL;
        g_autoptr(GError) error = NULL;

        {
          g_autoptr(GnnDataLoader) l = make_loader (ds, &configs[a], own_sampler);

          for (int pass = 0; pass < 2; pass++)
            {
              g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, NULL);

              take (it, -1, want);
            }
        }
        {
          g_autoptr(GnnDataLoader) l = make_loader (ds, &configs[a], own_sampler);
          g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, NULL);
          g_autoptr(GVariant) state = NULL;

          g_assert_cmpint (take (it, k, got), ==, k);
          state = gnn_data_loader_get_state (l);
          text = g_variant_print (state, TRUE);
        }
        parsed = g_variant_parse (NULL, text, NULL, NULL, &error);
        g_assert_no_error (error);
        {
          g_autoptr(GnnDataLoader) l = make_loader (ds, b, own_sampler);

          g_assert_true (gnn_data_loader_load_state (l, parsed, &error));
          for (int pass = 0; pass < 2; pass++)
            {
              g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, &error);

              g_assert_no_error (error);
              take (it, -1, got);
            }
        }
        /* indices always; worker seeds when the worker count is the same */
        g_assert_cmpuint (got->len, ==, want->len);
        for (guint i = 0; i < want->len; i += 2)
          {
            g_assert_cmpint (g_array_index (got, gint64, i), ==, g_array_index (want, gint64, i));
            if (b->workers == configs[a].workers)
              g_assert_cmpint (g_array_index (got, gint64, i + 1), ==, g_array_index (want, gint64, i + 1));
          }
      }
}

static void
test_resume_shuffled (void)
{
  check_resume (FALSE);
}

static void
test_resume_with_own_sampler_generator (void)
{
  check_resume (TRUE);
}

/* With persistent workers a pass reuses the workers (and seeds) of the
 * pass that started them; a pass resumed in a new loader starts its
 * workers from those seeds, so it and the next pass see the worker seeds
 * the uninterrupted run saw. */
static void
test_resume_persistent_worker_seeds (void)
{
  static const Config persistent[] = {
    { GNN_WORKER_MODE_THREADS, 2 }, { GNN_WORKER_MODE_PROCESSES, 2 },
  };

  for (gsize a = 0; a < G_N_ELEMENTS (persistent); a++)
    {
      g_autoptr(Probe) ds = probe_new (23, FALSE);
      g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GVariant) state = NULL;
      g_autoptr(GError) error = NULL;
      const Config *c = &persistent[a];

      {
        g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, TRUE, c->workers, c->mode);

        g_object_set (l, "persistent-workers", TRUE, NULL);
        for (int pass = 0; pass < 3; pass++)
          {
            g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, NULL);

            take (it, -1, pass == 0 ? got : want);   /* pass 0 is not compared */
          }
      }
      g_array_set_size (got, 0);
      {
        g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, TRUE, c->workers, c->mode);
        g_autoptr(GnnDataLoaderIter) first = NULL;
        g_autoptr(GnnDataLoaderIter) second = NULL;
        g_autoptr(GArray) skipped = g_array_new (FALSE, FALSE, sizeof (gint64));

        g_object_set (l, "persistent-workers", TRUE, NULL);
        first = gnn_data_loader_iter (l, NULL);
        take (first, -1, skipped);
        second = gnn_data_loader_iter (l, NULL);
        g_assert_cmpint (take (second, 2, got), ==, 2);
        state = gnn_data_loader_get_state (l);
      }
      {
        g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, TRUE, c->workers, c->mode);

        g_object_set (l, "persistent-workers", TRUE, NULL);
        g_assert_true (gnn_data_loader_load_state (l, state, &error));
        for (int pass = 1; pass < 3; pass++)
          {
            g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, &error);

            g_assert_no_error (error);
            take (it, -1, got);
          }
      }
      g_assert_cmpuint (got->len, ==, want->len);
      for (guint i = 0; i < want->len; i++)   /* (index, worker seed) pairs */
        g_assert_cmpint (g_array_index (got, gint64, i), ==, g_array_index (want, gint64, i));
    }
}

/* A batch that fails is not counted as yielded: a state saved after the
 * error resumes with that batch (once the fault is gone), in every worker
 * mode; and a loaded state is what get_state reports until a pass resumes
 * from it. */
static void
test_resume_after_failed_batch (void)
{
  for (gsize a = 0; a < G_N_ELEMENTS (configs); a++)
    {
      g_autoptr(Probe) ds = probe_new (23, FALSE);
      g_autoptr(GVariant) state = NULL;
      g_autoptr(GError) error = NULL;
      gint64 batches = -1;

      ds->fault = FAULT_ERROR;
      ds->fault_index = 9;   /* batch 2 of 4 items */
      {
        g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, FALSE, configs[a].workers,
                                                 configs[a].mode);
        g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, NULL);
        g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (gint64));
        GPtrArray *batch = NULL;

        g_assert_cmpint (take (it, 2, got), ==, 2);
        g_assert_false (gnn_data_loader_iter_next (it, &batch, &error));
        g_assert_nonnull (strstr (error->message, "probe refuses item 9"));
        g_clear_error (&error);
        state = gnn_data_loader_get_state (l);
      }
      g_assert_true (g_variant_lookup (state, "batches", "x", &batches));
      g_assert_cmpint (batches, ==, 2);

      ds->fault = FAULT_NONE;
      {
        g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, FALSE, configs[a].workers,
                                                 configs[a].mode);
        g_autoptr(GnnDataLoaderIter) it = NULL;
        g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (gint64));
        g_autoptr(GVariant) reported = NULL;

        g_assert_true (gnn_data_loader_load_state (l, state, &error));
        g_assert_no_error (error);
        reported = gnn_data_loader_get_state (l);
        g_assert_true (g_variant_equal (reported, state));
        it = gnn_data_loader_iter (l, &error);
        g_assert_no_error (error);
        g_assert_cmpint (take (it, -1, got), ==, 4);   /* batches 2 .. 5 */
        g_assert_cmpint (g_array_index (got, gint64, 0), ==, 8);
      }
    }
}

static void
test_bad_state (void)
{
  g_autoptr(Probe) ds = probe_new (5, FALSE);
  g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 2, TRUE, 0, GNN_WORKER_MODE_THREADS);
  g_autoptr(GVariant) bad = g_variant_ref_sink (g_variant_new_int32 (3));
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_data_loader_load_state (l, bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_clear_error (&error);
  g_assert_null (gnn_data_loader_iter_new_from_state (l, bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
}

/* The values of the next @n batches of a Counter (all with n < 0). */
static gint
take_values (GnnDataLoaderIter *iter, gint n, GArray *out)
{
  GPtrArray *batch;
  gint k = 0;

  while ((n < 0 || k < n) && gnn_data_loader_iter_next (iter, &batch, NULL))
    {
      GnnTensor *t = g_ptr_array_index (batch, 0);

      for (gint64 i = 0; i < gnn_tensor_get_size (t, 0, NULL); i++)
        {
          gint64 v = (gint64) gnn_tensor_get_element (t, &i, 1, NULL);

          g_array_append_val (out, v);
        }
      g_ptr_array_unref (batch);
      k++;
    }
  return k;
}

/* An iterable dataset (sharded: each worker its stream, of unequal
 * lengths) stopped after k batches and resumed from the printed state by
 * a loader of another mode with the same worker count: the same values in
 * the same order. With a seekable stream the iterators seek. */
static void
check_iterable_resume (gboolean seekable)
{
  static const Config iconfigs[] = {
    { GNN_WORKER_MODE_THREADS, 0 }, { GNN_WORKER_MODE_THREADS, 2 },
    { GNN_WORKER_MODE_PROCESSES, 2 }, { GNN_WORKER_MODE_SPAWN, 2 }, { GNN_WORKER_MODE_THREADS, 3 },
  };

  for (gsize a = 0; a < G_N_ELEMENTS (iconfigs); a++)
    for (gint k = 0; k <= 6; k += 2)
      {
        const Config *c = &iconfigs[a];
        const Config *b = c->workers == 2 ? &iconfigs[1 + (a % 3)] : c;
        g_autoptr(Counter) ds = counter_new (23, TRUE);
        g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (gint64));
        g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (gint64));
        g_autoptr(GError) error = NULL;
        g_autoptr(GVariant) parsed = NULL;
        g_autofree char *text = NULL;

        ds->seekable = seekable;
        {
          g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, FALSE, c->workers, c->mode);
          g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, NULL);

          take_values (it, -1, want);
        }
        {
          g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, FALSE, c->workers, c->mode);
          g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, NULL);
          g_autoptr(GVariant) state = NULL;

          g_assert_cmpint (take_values (it, k, got), ==, k);
          state = gnn_data_loader_get_state (l);
          text = g_variant_print (state, TRUE);
        }
        parsed = g_variant_parse (NULL, text, NULL, NULL, &error);
        g_assert_no_error (error);
        {
          g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, FALSE, b->workers, b->mode);
          g_autoptr(GnnDataLoaderIter) it = NULL;

          g_assert_true (gnn_data_loader_load_state (l, parsed, &error));
          it = gnn_data_loader_iter (l, &error);
          g_assert_no_error (error);
          take_values (it, -1, got);
        }
        g_assert_cmpuint (got->len, ==, want->len);
        for (guint i = 0; i < want->len; i++)
          g_assert_cmpint (g_array_index (got, gint64, i), ==, g_array_index (want, gint64, i));
        if (seekable && k > 0 && b->mode == GNN_WORKER_MODE_THREADS)
          g_assert_cmpint (g_atomic_int_get (&ds->seeks), >, 0);
      }
}

static void
test_resume_iterable (void)
{
  check_iterable_resume (FALSE);
}

static void
test_resume_iterable_seeking (void)
{
  check_iterable_resume (TRUE);
}

/* The streams are the workers' shares: another worker count is refused,
 * and the loader is left as it was. */
static void
test_resume_iterable_needs_same_workers (void)
{
  g_autoptr(Counter) ds = counter_new (10, TRUE);
  g_autoptr(GnnDataLoader) a = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GnnDataLoader) b = loader_new (GNN_DATASET (ds), 2, FALSE, 3, GNN_WORKER_MODE_THREADS);
  g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (a, NULL);
  g_autoptr(GArray) sink = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GVariant) state = NULL, before = NULL, after = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (take_values (it, 1, sink), ==, 1);
  state = gnn_data_loader_get_state (a);
  before = gnn_data_loader_get_state (b);
  g_assert_null (gnn_data_loader_iter_new_from_state (b, state, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "had 2 streams (one per worker), this loader makes 3"));
  after = gnn_data_loader_get_state (b);
  g_assert_true (g_variant_equal (before, after));
}

/* Issue 31 item 12: a state records what its batches depend on, and a
 * loader configured otherwise refuses it naming the field (and is left as
 * it was), instead of skipping or repeating samples. */
static GVariant *
state_after_one_batch (GnnDataLoader *l)
{
  g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (l, NULL);
  GPtrArray *batch = NULL;

  g_assert_true (gnn_data_loader_iter_next (it, &batch, NULL));
  g_ptr_array_unref (batch);
  return gnn_data_loader_get_state (l);
}

static void
assert_refused (GnnDataLoader *l, GVariant *state, const char *field)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) before = gnn_data_loader_get_state (l);
  g_autoptr(GVariant) after = NULL;
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", field);

  g_assert_false (gnn_data_loader_load_state (l, state, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, quoted));
  g_clear_error (&error);
  g_assert_null (gnn_data_loader_iter_new_from_state (l, state, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, quoted));
  after = gnn_data_loader_get_state (l);
  g_assert_true (g_variant_equal (before, after));
}

static GVariant *
with_int64 (GVariant *state, const char *key, gint64 value)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, state);
  g_variant_dict_insert (&dict, key, "x", value);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static void
test_refuses_other_loaders_state (void)
{
  g_autoptr(Probe) ds = probe_new (23, FALSE);
  g_autoptr(Probe) longer = probe_new (24, FALSE);
  g_autoptr(Counter) stream = counter_new (23, FALSE);
  g_autoptr(GnnDataLoader) a = loader_new (GNN_DATASET (ds), 4, TRUE, 0, GNN_WORKER_MODE_THREADS);
  g_autoptr(GVariant) state = state_after_one_batch (a);
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (longer), 4, TRUE, 0, GNN_WORKER_MODE_THREADS);
    assert_refused (l, state, "dataset-length");
  }
  {
    g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 5, TRUE, 0, GNN_WORKER_MODE_THREADS);
    assert_refused (l, state, "batch-size");
  }
  {
    g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, FALSE, 0, GNN_WORKER_MODE_THREADS);
    assert_refused (l, state, "sampler");
  }
  {
    g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, TRUE, 0, GNN_WORKER_MODE_THREADS);
    g_object_set (l, "drop-last", TRUE, NULL);
    assert_refused (l, state, "drop-last");
  }
  {
    /* an iterable pass into a map-style loader, and the other way */
    g_autoptr(GnnDataLoader) it = loader_new (GNN_DATASET (stream), 4, FALSE, 0, GNN_WORKER_MODE_THREADS);
    g_autoptr(GVariant) istate = state_after_one_batch (it);
    g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, FALSE, 0, GNN_WORKER_MODE_THREADS);

    assert_refused (l, istate, "dataset-length");
    assert_refused (it, state, "dataset-length");
  }
  {
    /* a DistributedSampler's seed decides its shuffle */
    g_autoptr(GnnDataLoader) l0 = loader_new (GNN_DATASET (ds), 4, FALSE, 0, GNN_WORKER_MODE_THREADS);
    g_autoptr(GnnDataLoader) l1 = loader_new (GNN_DATASET (ds), 4, FALSE, 0, GNN_WORKER_MODE_THREADS);
    g_autoptr(GnnSampler) s0 = g_object_new (GNN_TYPE_DISTRIBUTED_SAMPLER, "dataset", ds,
                                             "num-replicas", (gint64) 1, "rank", (gint64) 0,
                                             "seed", (guint64) 0, NULL);
    g_autoptr(GnnSampler) s1 = g_object_new (GNN_TYPE_DISTRIBUTED_SAMPLER, "dataset", ds,
                                             "num-replicas", (gint64) 1, "rank", (gint64) 0,
                                             "seed", (guint64) 1, NULL);
    g_autoptr(GVariant) dstate = NULL;

    g_object_set (l0, "sampler", s0, NULL);
    g_object_set (l1, "sampler", s1, NULL);
    dstate = state_after_one_batch (l0);
    assert_refused (l1, dstate, "sampler-seed");
  }
  {
    /* batches past the end of the pass (6 of 4 items: 23 items) */
    g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, TRUE, 0, GNN_WORKER_MODE_THREADS);
    g_autoptr(GVariant) past = with_int64 (state, "batches", 7);
    g_autoptr(GVariant) end = with_int64 (state, "batches", 6);
    g_autoptr(GVariant) last = with_int64 (state, "pass", G_MAXINT64);
    g_autoptr(GnnDataLoaderIter) it = NULL;
    GPtrArray *batch = NULL;

    assert_refused (l, past, "batches");
    assert_refused (l, last, "pass");
    it = gnn_data_loader_iter_new_from_state (l, end, &error);   /* the end: an empty rest */
    g_assert_no_error (error);
    g_assert_false (gnn_data_loader_iter_next (it, &batch, &error));
    g_assert_no_error (error);
  }
  {
    /* the same configuration resumes */
    g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 4, TRUE, 2, GNN_WORKER_MODE_THREADS);

    g_assert_true (gnn_data_loader_load_state (l, state, &error));
    g_assert_no_error (error);
  }
}

int
main (int argc, char **argv)
{
  g_type_ensure (probe_get_type ());
  g_type_ensure (counter_get_type ());
  gnn_worker_main_if_worker ();

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/resume/shuffled", test_resume_shuffled);
  g_test_add_func ("/data/resume/own-sampler-generator", test_resume_with_own_sampler_generator);
  g_test_add_func ("/data/resume/bad-state", test_bad_state);
  g_test_add_func ("/data/resume/after-failed-batch", test_resume_after_failed_batch);
  g_test_add_func ("/data/resume/persistent-worker-seeds", test_resume_persistent_worker_seeds);
  g_test_add_func ("/data/resume/iterable", test_resume_iterable);
  g_test_add_func ("/data/resume/iterable-seeking", test_resume_iterable_seeking);
  g_test_add_func ("/data/resume/iterable-needs-same-workers", test_resume_iterable_needs_same_workers);
  g_test_add_func ("/data/resume/refuses-other-loaders-state", test_refuses_other_loaders_state);
  return g_test_run ();
}
