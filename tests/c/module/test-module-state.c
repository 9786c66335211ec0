/* State dicts (save, load, atomic failures, messages) and printing. */
#include "test-module-types.h"

static GnnModule *
make_net (void)
{
  GnnModule *root = test_box_new ();
  g_autoptr(GnnModule) fc = test_leaf_new ();
  g_autoptr(GnnTensor) scratch = test_tensor_new (4);

  g_assert_true (gnn_module_register_module (root, "fc", fc, NULL));
  g_assert_true (gnn_module_register_buffer (fc, "scratch", scratch, FALSE, NULL));
  return root;
}

static char *
keys_of (GnnStateDict *sd)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  return g_strjoinv ("|", keys);
}

static void
test_state_dict_basic (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) a = test_tensor_new (1);
  g_autoptr(GnnTensor) b = test_tensor_new (2);
  g_autofree char *keys = NULL;

  gnn_state_dict_insert (sd, "x", a);
  gnn_state_dict_insert (sd, "y", b);
  gnn_state_dict_insert (sd, "x", b);
  keys = keys_of (sd);
  g_assert_cmpstr (keys, ==, "x|y");
  g_assert_true (gnn_state_dict_lookup (sd, "x") == b);
  g_assert_cmpuint (gnn_state_dict_get_length (sd), ==, 2);
  g_assert_true (gnn_state_dict_remove (sd, "x"));
  g_assert_false (gnn_state_dict_remove (sd, "x"));
  g_assert_null (gnn_state_dict_lookup (sd, "x"));
  gnn_state_dict_set_metadata (sd, "format", "pt");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "format"), ==, "pt");
}

static void
test_state_dict_keys (void)
{
  g_autoptr(GnnModule) net = make_net ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autofree char *keys = NULL;

  gnn_module_register_parameter (net, "scale", p, NULL);
  gnn_module_register_parameter (net, "none", NULL, NULL);
  sd = gnn_module_state_dict (net);
  keys = keys_of (sd);
  /* own parameters, then children; non-persistent buffers and empty slots skipped */
  g_assert_cmpstr (keys, ==, "scale|fc.weight|fc.running");
}

static void
test_shared_module_under_both_paths (void)
{
  g_autoptr(GnnModule) root = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnStateDict) sd = NULL;
  g_autofree char *keys = NULL;

  gnn_module_register_module (root, "a", leaf, NULL);
  gnn_module_register_module (root, "b", leaf, NULL);
  sd = gnn_module_state_dict (root);
  keys = keys_of (sd);
  g_assert_cmpstr (keys, ==, "a.weight|a.running|b.weight|b.running");
}

static void
test_round_trip (void)
{
  g_autoptr(GnnModule) src = make_net ();
  g_autoptr(GnnModule) dst = make_net ();
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) missing = NULL;
  g_auto(GStrv) unexpected = NULL;
  g_autoptr(GError) error = NULL;
  GnnTensor *w_src = GNN_TENSOR (gnn_module_get_parameter (src, "fc.weight", NULL));
  GnnTensor *w_dst = GNN_TENSOR (gnn_module_get_parameter (dst, "fc.weight", NULL));

  gnn_tensor_fill_ (w_src, 5.0, NULL);
  sd = gnn_module_state_dict (src);
  g_assert_true (gnn_module_load_state_dict (dst, sd, TRUE, &missing, &unexpected, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (missing), ==, 0);
  g_assert_cmpuint (g_strv_length (unexpected), ==, 0);
  g_assert_true (gnn_tensor_equal (w_src, w_dst));
  g_assert_false (w_src == w_dst);   /* copied, not shared */
}

static void
test_strict_missing_unexpected_message (void)
{
  g_autoptr(GnnModule) net = make_net ();
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (net);
  g_autoptr(GnnTensor) extra = test_tensor_new (1);
  g_autoptr(GnnTensor) w5 = gnn_tensor_full ((gint64[]) { 2, 3 }, 2, 5.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnStateDict) other = gnn_state_dict_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) missing = NULL;
  g_auto(GStrv) unexpected = NULL;
  GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (net, "fc.weight", NULL));

  gnn_state_dict_insert (other, "fc.weight", w5);
  gnn_state_dict_insert (other, "fc.bias", extra);
  gnn_state_dict_insert (other, "head.x", extra);
  g_assert_false (gnn_module_load_state_dict (net, other, TRUE, &missing, &unexpected, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for TestBox:\n\t"
                   "Missing key(s) in state_dict: \"fc.running\". \n\t"
                   "Unexpected key(s) in state_dict: \"fc.bias\", \"head.x\". ");
  g_assert_cmpstr (missing[0], ==, "fc.running");
  g_assert_cmpuint (g_strv_length (unexpected), ==, 2);
  /* atomic: nothing was copied */
  g_assert_cmpfloat (gnn_tensor_get_element (w, (gint64[]) { 0, 0 }, 2, NULL), ==, 1.0);
}

static void
test_non_strict_reports_keys (void)
{
  g_autoptr(GnnModule) net = make_net ();
  g_autoptr(GnnTensor) w5 = gnn_tensor_full ((gint64[]) { 2, 3 }, 2, 5.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) extra = test_tensor_new (1);
  g_autoptr(GnnStateDict) other = gnn_state_dict_new ();
  g_auto(GStrv) missing = NULL;
  g_auto(GStrv) unexpected = NULL;
  GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (net, "fc.weight", NULL));

  gnn_state_dict_insert (other, "fc.weight", w5);
  gnn_state_dict_insert (other, "zzz", extra);
  g_assert_true (gnn_module_load_state_dict (net, other, FALSE, &missing, &unexpected, NULL));
  g_assert_cmpstr (missing[0], ==, "fc.running");
  g_assert_cmpstr (unexpected[0], ==, "zzz");
  g_assert_cmpfloat (gnn_tensor_get_element (w, (gint64[]) { 1, 2 }, 2, NULL), ==, 5.0);
}

static void
test_size_mismatch_fails_even_non_strict (void)
{
  g_autoptr(GnnModule) net = make_net ();
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (net);
  g_autoptr(GnnTensor) bad = gnn_tensor_full ((gint64[]) { 3, 2 }, 2, 7.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) r = gnn_tensor_full ((gint64[]) { 3 }, 1, 9.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;
  GnnTensor *running = gnn_module_get_buffer (net, "fc.running", NULL);

  gnn_state_dict_insert (sd, "fc.weight", bad);
  gnn_state_dict_insert (sd, "fc.running", r);
  g_assert_false (gnn_module_load_state_dict (net, sd, FALSE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for TestBox:\n\t"
                   "size mismatch for fc.weight: copying a param with shape [3, 2] from checkpoint, "
                   "the shape in current model is [2, 3].");
  /* atomic: the valid running buffer was not copied either */
  g_assert_cmpfloat (gnn_tensor_get_element (running, (gint64[]) { 0 }, 1, NULL), ==, 0.0);
}

static void
test_to_string_layout (void)
{
  g_autoptr(GnnModule) root = test_box_new ();
  g_autoptr(GnnModule) inner = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnModule) empty = test_box_new ();
  g_autofree char *text = NULL;
  g_autofree char *leaf_text = NULL;
  g_autofree char *empty_text = NULL;

  gnn_module_register_module (inner, "fc", leaf, NULL);
  gnn_module_register_module (root, "inner", inner, NULL);
  gnn_module_register_module (root, "out", leaf, NULL);
  gnn_module_register_module (root, "none", NULL, NULL);
  text = gnn_module_to_string (root);
  g_assert_cmpstr (text, ==,
                   "TestBox(\n"
                   "  (inner): TestBox(\n"
                   "    (fc): TestLeaf(factor=2)\n"
                   "  )\n"
                   "  (out): TestLeaf(factor=2)\n"
                   "  (none): None\n"
                   ")");
  leaf_text = gnn_module_to_string (leaf);
  g_assert_cmpstr (leaf_text, ==, "TestLeaf(factor=2)");
  empty_text = gnn_module_to_string (empty);
  g_assert_cmpstr (empty_text, ==, "TestBox()");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/state-dict/basic", test_state_dict_basic);
  g_test_add_func ("/module/state-dict/keys", test_state_dict_keys);
  g_test_add_func ("/module/state-dict/shared-module-both-paths", test_shared_module_under_both_paths);
  g_test_add_func ("/module/load-state-dict/round-trip", test_round_trip);
  g_test_add_func ("/module/load-state-dict/strict-message", test_strict_missing_unexpected_message);
  g_test_add_func ("/module/load-state-dict/non-strict-reports-keys", test_non_strict_reports_keys);
  g_test_add_func ("/module/load-state-dict/size-mismatch-atomic", test_size_mismatch_fails_even_non_strict);
  g_test_add_func ("/module/to-string/layout", test_to_string_layout);

  return g_test_run ();
}
