/* test-module-threads.c: a module's children change in one thread while
 * others run its forward, walk named_parameters / named_modules, build its
 * state_dict, print it or switch it to eval: every reader sees a
 * consistent tree (each walk sees a module's children as they were when it
 * reached it), nothing crashes, and what was taken out is freed once no
 * reader can see it (issue 31 item 15: it segfaulted in
 * gnn_module_walk_enter ~7 runs of 8).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gnn/gnn.h>

#define WIDTH 4
#define N_MUTATIONS 3000
#define N_READERS 4

typedef struct
{
  GnnSequential *seq;
  gint           mutating;     /* atomic: mutators still running */
  gint           reads;        /* atomic */
  gint           failures;     /* atomic */
} Shared;

static GnnModule *
layer (void)
{
  return GNN_MODULE (gnn_linear_new (WIDTH, WIDTH, TRUE, NULL, NULL));
}

/* Children appended, removed (the last), replaced (Python's append, del,
 * seq[1] = m). */
static gpointer
mutate_children (gpointer data)
{
  Shared *s = data;

  for (guint i = 0; i < N_MUTATIONS; i++)
    {
      g_autoptr(GnnModule) fresh = layer ();
      g_autoptr(GnnModule) popped = NULL;

      switch (i % 3)
        {
        case 0:
          g_assert_true (gnn_sequential_append (s->seq, fresh, NULL));
          break;
        case 1:
          popped = gnn_sequential_pop (s->seq, -1, NULL);
          g_assert_nonnull (popped);
          break;
        default:
          g_assert_true (gnn_sequential_set (s->seq, 1, fresh, NULL));
          break;
        }
    }
  g_atomic_int_add (&s->mutating, -1);
  return NULL;
}

/* The weight of a layer that forwards are using, replaced. */
static gpointer
mutate_weights (gpointer data)
{
  Shared *s = data;

  for (guint i = 0; i < N_MUTATIONS; i++)
    {
      g_autoptr(GnnTensor) values = gnn_tensor_full ((gint64[]) { WIDTH, WIDTH }, 2, 0.5,
                                                     GNN_DTYPE_F32, NULL);
      g_autoptr(GnnParameter) w = gnn_parameter_new (values, TRUE);
      /* child 0 stays: the other mutator changes the later ones */
      GnnModule *first = gnn_sequential_get (s->seq, 0, NULL);

      g_assert_true (gnn_module_register_parameter (first, "weight", w, NULL));
    }
  g_atomic_int_add (&s->mutating, -1);
  return NULL;
}

static gboolean
read_once (Shared *s,
           guint   kind)
{
  GnnModule *m = GNN_MODULE (s->seq);

  switch (kind % 5)
    {
    case 0:
      {
        g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 1, WIDTH }, 2, GNN_DTYPE_F32, NULL);
        g_autoptr(GnnTensor) y = gnn_module_call (m, x, NULL);

        return y != NULL && gnn_tensor_get_numel (y) == WIDTH;
      }
    case 1:
      {
        g_auto(GStrv) names = NULL;
        g_autoptr(GPtrArray) params = gnn_module_named_parameters (m, NULL, TRUE, &names);

        /* weight and bias of every layer, in order */
        for (guint i = 0; i < params->len; i++)
          if (!g_str_has_suffix (names[i], i % 2 == 0 ? ".weight" : ".bias"))
            return FALSE;
        return params->len % 2 == 0;
      }
    case 2:
      {
        g_autoptr(GnnStateDict) sd = gnn_module_state_dict (m);

        return gnn_state_dict_get_length (sd) % 2 == 0;
      }
    case 3:
      {
        g_autofree char *repr = gnn_module_to_string (m);

        return g_str_has_prefix (repr, "Sequential(");
      }
    default:
      {
        g_autoptr(GPtrArray) modules = gnn_module_named_modules (m, NULL, NULL);

        gnn_module_train (m, kind % 2 == 0);
        return modules->len >= 1;
      }
    }
}

static gpointer
read_loop (gpointer data)
{
  Shared *s = data;
  guint kind = GPOINTER_TO_UINT (g_thread_self ()) % 5;

  while (g_atomic_int_get (&s->mutating) > 0)
    {
      if (!read_once (s, kind++))
        g_atomic_int_inc (&s->failures);
      g_atomic_int_inc (&s->reads);
    }
  return NULL;
}

static void
notify_gone (gpointer data,
             GObject *where)
{
  g_atomic_int_inc ((gint *) data);
}

static void
test_mutate_while_reading (void)
{
  GnnModule *layers[3] = { layer (), layer (), layer () };
  Shared s = { gnn_sequential_new (layers, 3), 2, 0, 0 };
  GThread *threads[N_READERS + 2];
  gint gone = 0;
  GnnModule *removed;

  for (guint i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  for (guint i = 0; i < N_READERS; i++)
    threads[i] = g_thread_new ("reader", read_loop, &s);
  threads[N_READERS] = g_thread_new ("children", mutate_children, &s);
  threads[N_READERS + 1] = g_thread_new ("weights", mutate_weights, &s);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_assert_cmpint (s.failures, ==, 0);
  g_assert_cmpint (s.reads, >, 0);

  /* what a change takes out is freed once no window is open */
  removed = gnn_sequential_get (s.seq, 0, NULL);
  g_object_weak_ref (G_OBJECT (removed), notify_gone, &gone);
  g_object_unref (gnn_sequential_pop (s.seq, 0, NULL));
  g_assert_cmpint (gone, ==, 1);
  g_object_unref (s.seq);
}

/* A change made inside a walk's callback (apply) affects later walks, not
 * the one running: torch's children() iteration would raise. */
static void
replace_children (GnnModule *module,
                  gpointer   user_data)
{
  if (GNN_IS_SEQUENTIAL (module) && gnn_sequential_get_length (GNN_SEQUENTIAL (module)) < 6)
    {
      g_autoptr(GnnModule) extra = layer ();

      gnn_sequential_append (GNN_SEQUENTIAL (module), extra, NULL);
    }
  (*(guint *) user_data)++;
}

static void
test_change_inside_a_walk (void)
{
  GnnModule *layers[2] = { layer (), layer () };
  g_autoptr(GnnSequential) seq = gnn_sequential_new (layers, 2);
  guint visits = 0;

  g_object_unref (layers[0]);
  g_object_unref (layers[1]);
  gnn_module_apply (GNN_MODULE (seq), replace_children, &visits);
  g_assert_cmpuint (visits, ==, 3);   /* the two layers it had, then itself */
  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/module/threads/mutate-while-reading", test_mutate_while_reading);
  g_test_add_func ("/module/threads/change-inside-a-walk", test_change_inside_a_walk);
  return g_test_run ();
}
