/* The call path: forward, pre-hooks, hooks, global hooks, always-call, handles. */
#include "test-module-types.h"

static GnnTensor *
scalar (double v)
{
  return gnn_tensor_new_scalar (v, GNN_DTYPE_F32);
}

static double
value_of (GnnTensor *t)
{
  return gnn_tensor_item (t, NULL);
}

static GnnTensor *
log_pre (GnnModule *module, GnnTensor *input, gpointer user_data, GError **error)
{
  g_string_append_printf (user_data, "pre(%g);", value_of (input));
  return NULL;
}

static GnnTensor *
log_post (GnnModule *module, GnnTensor *input, GnnTensor *output, gpointer user_data, GError **error)
{
  if (output != NULL)
    g_string_append_printf (user_data, "post(%g);", value_of (output));
  else
    g_string_append (user_data, "post(NULL);");
  return NULL;
}

static GnnTensor *
global_pre (GnnModule *module, GnnTensor *input, gpointer user_data, GError **error)
{
  g_string_append (user_data, "gpre;");
  return NULL;
}

static GnnTensor *
global_post (GnnModule *module, GnnTensor *input, GnnTensor *output, gpointer user_data, GError **error)
{
  g_string_append (user_data, "gpost;");
  return NULL;
}

static GnnTensor *
add_one_pre (GnnModule *module, GnnTensor *input, gpointer user_data, GError **error)
{
  return gnn_tensor_add_scalar (input, 1.0, error);
}

static GnnTensor *
negate_post (GnnModule *module, GnnTensor *input, GnnTensor *output, gpointer user_data, GError **error)
{
  return gnn_tensor_mul_scalar (output, -1.0, error);
}

static GnnTensor *
failing_pre (GnnModule *module, GnnTensor *input, gpointer user_data, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "pre-hook says no");
  return NULL;
}

static void
test_no_hooks_calls_forward (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, NULL);

  g_assert_cmpfloat (value_of (y), ==, 6.0);
}

static void
test_missing_forward (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_module_call (box, x, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "Module [TestBox] is missing the required \"forward\" function");
}

static void
test_pre_hook_replaces_input (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GnnHookHandle) h = gnn_module_register_forward_pre_hook (leaf, add_one_pre, NULL, NULL, 0);
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, NULL);

  g_assert_cmpfloat (value_of (y), ==, 8.0);
  g_assert_cmpfloat (value_of (x), ==, 3.0);
}

static void
test_hook_replaces_output (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GnnHookHandle) h = gnn_module_register_forward_hook (leaf, negate_post, NULL, NULL, 0);
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, NULL);

  g_assert_cmpfloat (value_of (y), ==, -6.0);
}

static void
test_order_global_first_and_prepend (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_pre_hook (leaf, log_pre, log, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_pre_hook (leaf, add_one_pre, NULL, NULL,
                                                                      GNN_HOOK_FLAGS_PREPEND);
  g_autoptr(GnnHookHandle) h3 = gnn_module_register_forward_hook (leaf, log_post, log, NULL, 0);
  g_autoptr(GnnHookHandle) g1 = gnn_module_register_global_forward_pre_hook (global_pre, log, NULL, 0);
  g_autoptr(GnnHookHandle) g2 = gnn_module_register_global_forward_hook (global_post, log, NULL, 0);
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, NULL);

  /* prepended add_one ran before log_pre, which sees 2 */
  g_assert_cmpstr (log->str, ==, "gpre;pre(2);gpost;post(4);");
  gnn_hook_handle_remove (g1);
  gnn_hook_handle_remove (g2);
}

static void
test_handle_remove (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnHookHandle) h = gnn_module_register_forward_pre_hook (leaf, log_pre, log, NULL, 0);
  g_autoptr(GnnTensor) y1 = NULL;
  g_autoptr(GnnTensor) y2 = NULL;

  y1 = gnn_module_call (leaf, x, NULL);
  g_assert_true (gnn_hook_handle_is_active (h));
  gnn_hook_handle_remove (h);
  gnn_hook_handle_remove (h);
  g_assert_false (gnn_hook_handle_is_active (h));
  y2 = gnn_module_call (leaf, x, NULL);
  g_assert_cmpstr (log->str, ==, "pre(1);");
}

static void
count_destroy (gpointer data)
{
  (*(int *) data)++;
}

static GnnTensor *
noop_pre (GnnModule *module, GnnTensor *input, gpointer user_data, GError **error)
{
  return NULL;
}

static void
test_destroy_notify_on_remove (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  int destroyed = 0;
  GnnHookHandle *h = gnn_module_register_forward_pre_hook (leaf, noop_pre, &destroyed, count_destroy, 0);

  gnn_hook_handle_remove (h);
  g_assert_cmpint (destroyed, ==, 0);   /* the handle still refers to it */
  g_object_unref (h);
  g_assert_cmpint (destroyed, ==, 1);
}

static void
test_handle_outlives_module (void)
{
  GnnModule *leaf = test_leaf_new ();
  int destroyed = 0;
  g_autoptr(GnnHookHandle) h = gnn_module_register_forward_pre_hook (leaf, noop_pre, &destroyed, count_destroy, 0);

  g_object_unref (leaf);
  g_assert_false (gnn_hook_handle_is_active (h));
  gnn_hook_handle_remove (h);
  g_assert_false (gnn_hook_handle_is_active (h));
}

static void
test_pre_hook_error_fails_call (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_pre_hook (leaf, failing_pre, NULL, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_hook (leaf, log_post, log, NULL,
                                                                  GNN_HOOK_FLAGS_ALWAYS_CALL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "pre-hook says no");
  g_assert_cmpstr (log->str, ==, "post(NULL);");
}

static void
test_always_call_on_failing_forward (void)
{
  g_autoptr(GnnModule) box = test_box_new ();   /* no forward: fails */
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_hook (box, global_post, log, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_hook (box, log_post, log, NULL,
                                                                  GNN_HOOK_FLAGS_ALWAYS_CALL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_module_call (box, x, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (log->str, ==, "post(NULL);");   /* only the always-call hook */
}

static GnnTensor *
failing_post (GnnModule *module, GnnTensor *input, GnnTensor *output, gpointer user_data, GError **error)
{
  g_string_append (user_data, "fail;");
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "hook says no");
  return NULL;
}

static void
test_always_call_after_failing_hook (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_hook (leaf, log_post, log, NULL,
                                                                  GNN_HOOK_FLAGS_ALWAYS_CALL);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_hook (leaf, failing_post, log, NULL, 0);
  g_autoptr(GnnHookHandle) h3 = gnn_module_register_forward_hook (leaf, log_post, log, NULL,
                                                                  GNN_HOOK_FLAGS_ALWAYS_CALL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, &error);

  g_assert_null (y);
  g_assert_cmpstr (error->message, ==, "hook says no");
  /* the first always-call hook already ran; the third runs after the failure */
  g_assert_cmpstr (log->str, ==, "post(2);fail;post(2);");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/call/no-hooks-calls-forward", test_no_hooks_calls_forward);
  g_test_add_func ("/module/call/missing-forward", test_missing_forward);
  g_test_add_func ("/module/hooks/pre-hook-replaces-input", test_pre_hook_replaces_input);
  g_test_add_func ("/module/hooks/hook-replaces-output", test_hook_replaces_output);
  g_test_add_func ("/module/hooks/order-global-first-and-prepend", test_order_global_first_and_prepend);
  g_test_add_func ("/module/hooks/handle-remove", test_handle_remove);
  g_test_add_func ("/module/hooks/destroy-notify-on-remove", test_destroy_notify_on_remove);
  g_test_add_func ("/module/hooks/handle-outlives-module", test_handle_outlives_module);
  g_test_add_func ("/module/hooks/pre-hook-error-fails-call", test_pre_hook_error_fails_call);
  g_test_add_func ("/module/hooks/always-call-on-failing-forward", test_always_call_on_failing_forward);
  g_test_add_func ("/module/hooks/always-call-after-failing-hook", test_always_call_after_failing_hook);

  return g_test_run ();
}
