/* The per-thread pool of tensor instances (lib/tensor/gnn-tensor.c): a
 * recycled instance must look like a new one, and tensors that carry weak
 * refs, data or signal handlers must be destroyed exactly as before. */
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static GnnTensor *
small (float value)
{
  float v[4] = { value, value, value, value };

  return gnn_tensor_new_from_floats (v, 4, (gint64[]) { 2, 2 }, 2, NULL);
}

static void
on_weak_notify (gpointer data, GObject *where_the_object_was)
{
  (*(guint *) data)++;
}

static void
on_destroy (gpointer data)
{
  (*(guint *) data)++;
}

static void
on_notify (GObject *object, GParamSpec *pspec, gpointer data)
{
  (*(guint *) data)++;
}

/* Results of ops, dropped and made again many times, come back fresh. */
static void
test_recycled_is_fresh (void)
{
  g_autoptr(GnnTensor) x = small (1.0f);

  for (guint i = 0; i < 200; i++)
    {
      g_autoptr(GnnTensor) y = gnn_tensor_add (x, x, NULL);
      g_autoptr(GnnTensor) z = gnn_tensor_relu (y, NULL);
      g_autofree float *v = NULL;
      gsize n = 0;

      g_assert_cmpuint (G_OBJECT (y)->ref_count, ==, 1);
      g_assert_cmpuint (G_OBJECT (z)->ref_count, ==, 1);
      g_assert_false (gnn_tensor_get_requires_grad (z));
      g_assert_null (gnn_tensor_get_grad (z));
      g_assert_null (gnn_tensor_get_grad_fn_name (z));
      gnn_test_assert_shape (z, (gint64[]) { 2, 2 }, 2);
      v = gnn_tensor_to_floats (z, &n);
      g_assert_cmpfloat (v[3], ==, 2.0f);
      if (i % 3 == 0)
        gnn_tensor_set_requires_grad (y, TRUE);   /* state a recycled one must not keep */
    }
}

/* A weak ref is notified at the last unref; qdata is destroyed. */
static void
test_weak_ref_and_data (void)
{
  g_autoptr(GnnTensor) x = small (1.0f);

  for (guint i = 0; i < 50; i++)
    {
      GnnTensor *y = gnn_tensor_add (x, x, NULL);
      guint weak = 0, destroyed = 0;
      GWeakRef ref;

      g_object_weak_ref (G_OBJECT (y), on_weak_notify, &weak);
      g_object_set_data_full (G_OBJECT (y), "test-data", &destroyed, on_destroy);
      g_weak_ref_init (&ref, y);
      g_object_unref (y);
      g_assert_cmpuint (weak, ==, 1);
      g_assert_cmpuint (destroyed, ==, 1);
      g_assert_null (g_weak_ref_get (&ref));
      g_weak_ref_clear (&ref);
    }
}

/* A signal handler connected to a dropped tensor never fires on the
 * instance's next life. */
static void
test_handlers_do_not_survive (void)
{
  g_autoptr(GnnTensor) x = small (1.0f);
  guint fired = 0;

  for (guint i = 0; i < 50; i++)
    {
      GnnTensor *y = gnn_tensor_add (x, x, NULL);

      g_signal_connect (y, "notify::requires-grad", G_CALLBACK (on_notify), &fired);
      g_object_unref (y);
    }
  for (guint i = 0; i < 50; i++)
    {
      g_autoptr(GnnTensor) y = gnn_tensor_add (x, x, NULL);

      gnn_tensor_set_requires_grad (y, TRUE);
    }
  g_assert_cmpuint (fired, ==, 0);
}

/* Tensors made and dropped in a worker thread are freed when it exits
 * (valgrind/ASan report a leak otherwise). */
static gpointer
worker (gpointer data)
{
  g_autoptr(GnnTensor) x = small (2.0f);

  for (guint i = 0; i < 100; i++)
    g_object_unref (gnn_tensor_mul (x, x, NULL));
  return NULL;
}

static void
test_thread_exit (void)
{
  GThread *t = g_thread_new ("pool-worker", worker, NULL);

  g_thread_join (t);
}

/* The graph's intermediate tensors still reach the leaves' gradients. */
static void
test_autograd_through_pool (void)
{
  for (guint i = 0; i < 20; i++)
    {
      g_autoptr(GnnTensor) w = small (3.0f);
      g_autoptr(GnnTensor) y = NULL;
      g_autoptr(GnnTensor) s = NULL;
      g_autofree float *g = NULL;
      gsize n = 0;

      gnn_tensor_set_requires_grad (w, TRUE);
      y = gnn_tensor_mul (w, w, NULL);
      s = gnn_tensor_sum (y, NULL, 0, FALSE, NULL);
      g_clear_object (&y);   /* the graph keeps what backward needs */
      g_assert_true (gnn_tensor_backward (s, NULL, FALSE, NULL));
      g = gnn_tensor_to_floats (gnn_tensor_get_grad (w), &n);
      g_assert_cmpfloat (g[0], ==, 6.0f);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/pool/recycled-is-fresh", test_recycled_is_fresh);
  g_test_add_func ("/tensor/pool/weak-ref-and-data", test_weak_ref_and_data);
  g_test_add_func ("/tensor/pool/handlers-do-not-survive", test_handlers_do_not_survive);
  g_test_add_func ("/tensor/pool/thread-exit", test_thread_exit);
  g_test_add_func ("/tensor/pool/autograd", test_autograd_through_pool);
  return g_test_run ();
}
