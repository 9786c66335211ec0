/* test-vision-compose.c: Compose applied from loader-like worker threads
 * while its transform list changes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gnn/gnn.h>
#include <math.h>

#define N_APPLIES 3000
#define N_EDITS   400

typedef struct {
  GnnCompose *compose;
  GnnTensor  *input;
  gint        wrong;   /* outputs that match neither pipeline */
  gint        failed;  /* applies that returned an error */
} Shared;

/* Each apply sees the list before or after an edit, never a mix or a
 * freed list: one Normalize gives (x - 1) / 2, two give ((x - 1) / 2 - 1) / 2. */
static gpointer
apply_many (gpointer data)
{
  Shared *shared = data;

  for (guint i = 0; i < N_APPLIES; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) out = gnn_transform_apply (GNN_TRANSFORM (shared->compose),
                                                      shared->input, &error);
      g_autofree float *v = NULL;
      gsize n = 0;

      if (out == NULL)
        {
          g_atomic_int_inc (&shared->failed);
          continue;
        }
      v = gnn_tensor_to_floats (out, &n);
      for (gsize j = 0; j < n; j++)
        {
          float x = (float) j, once = (x - 1.0f) / 2.0f, twice = (once - 1.0f) / 2.0f;

          if (fabsf (v[j] - once) > 1e-6f && fabsf (v[j] - twice) > 1e-6f)
            {
              g_atomic_int_inc (&shared->wrong);
              break;
            }
        }
    }
  return NULL;
}

static GnnTransform *
normalize_one_two (void)
{
  const double mean[] = { 1.0 }, std[] = { 2.0 };
  g_autoptr(GError) error = NULL;
  GnnNormalize *norm = gnn_normalize_new (mean, 1, std, 1, FALSE, &error);

  g_assert_no_error (error);
  return GNN_TRANSFORM (norm);
}

static void
test_compose_edit_while_applying (void)
{
  g_autoptr(GnnTransform) first = normalize_one_two ();
  g_autoptr(GnnTransform) second = normalize_one_two ();
  g_autoptr(GnnCompose) compose = gnn_compose_new (&first, 1);
  g_autoptr(GListStore) store = NULL;
  float values[16];
  Shared shared = { compose, NULL, 0, 0 };
  GThread *threads[2];

  for (guint j = 0; j < G_N_ELEMENTS (values); j++)
    values[j] = (float) j;
  shared.input = gnn_tensor_new_from_floats (values, 16, (gint64[]) { 1, 4, 4 }, 3, NULL);
  g_object_get (compose, "transforms", &store, NULL);
  g_assert_true (G_IS_LIST_STORE (store));

  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    threads[t] = g_thread_new ("apply", apply_many, &shared);
  for (guint e = 0; e < N_EDITS; e++)
    {
      g_list_store_append (store, second);
      g_thread_yield ();
      g_list_store_remove (store, 1);
    }
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    g_thread_join (threads[t]);

  g_assert_cmpint (shared.failed, ==, 0);
  g_assert_cmpint (shared.wrong, ==, 0);
  g_object_unref (shared.input);
}

/* After an edit, the next apply uses the new list. */
static void
test_compose_edit_takes_effect (void)
{
  g_autoptr(GnnTransform) first = normalize_one_two ();
  g_autoptr(GnnTransform) second = normalize_one_two ();
  g_autoptr(GnnCompose) compose = gnn_compose_new (&first, 1);
  g_autoptr(GListStore) store = NULL;
  const float values[] = { 5.0f };
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats (values, 1, (gint64[]) { 1, 1, 1 }, 3, NULL);
  g_autoptr(GnnTensor) once = NULL, twice = NULL;
  g_autofree float *a = NULL, *b = NULL;
  gsize n;

  once = gnn_transform_apply (GNN_TRANSFORM (compose), x, NULL);
  g_object_get (compose, "transforms", &store, NULL);
  g_list_store_append (store, second);
  twice = gnn_transform_apply (GNN_TRANSFORM (compose), x, NULL);
  a = gnn_tensor_to_floats (once, &n);
  b = gnn_tensor_to_floats (twice, &n);
  g_assert_cmpfloat (a[0], ==, 2.0f);
  g_assert_cmpfloat (b[0], ==, 0.5f);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vision/compose/edit-while-applying", test_compose_edit_while_applying);
  g_test_add_func ("/vision/compose/edit-takes-effect", test_compose_edit_takes_effect);
  return g_test_run ();
}
