/* Traversal order, deduplication, train/eval, apply, grads. */
#include "test-module-types.h"

/* root
 *   a (leaf)
 *   b (box)
 *     c (leaf)
 *     a2 = a again (shared)
 *   empty = NULL slot */
static GnnModule *
make_tree (GnnModule **a_out)
{
  GnnModule *root = test_box_new ();
  g_autoptr(GnnModule) a = test_leaf_new ();
  g_autoptr(GnnModule) b = test_box_new ();
  g_autoptr(GnnModule) c = test_leaf_new ();

  g_assert_true (gnn_module_register_module (root, "a", a, NULL));
  g_assert_true (gnn_module_register_module (b, "c", c, NULL));
  g_assert_true (gnn_module_register_module (b, "a2", a, NULL));
  g_assert_true (gnn_module_register_module (root, "b", b, NULL));
  g_assert_true (gnn_module_register_module (root, "empty", NULL, NULL));
  if (a_out != NULL)
    *a_out = a;
  return root;
}

static void
test_named_modules_preorder_dedup (void)
{
  g_autoptr(GnnModule) root = make_tree (NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) mods = gnn_module_named_modules (root, NULL, &names);
  g_autofree char *joined = g_strjoinv ("|", names);

  g_assert_cmpstr (joined, ==, "|a|b|b.c");
  g_assert_cmpuint (mods->len, ==, 4);
  g_assert_true (g_ptr_array_index (mods, 0) == root);
}

static void
test_named_modules_prefix (void)
{
  g_autoptr(GnnModule) root = make_tree (NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) mods = gnn_module_named_modules (root, "net", &names);
  g_autofree char *joined = g_strjoinv ("|", names);

  g_assert_cmpstr (joined, ==, "net|net.a|net.b|net.b.c");
}

static void
test_named_children_skip_empty (void)
{
  g_autoptr(GnnModule) root = make_tree (NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) kids = gnn_module_named_children (root, &names);
  g_autofree char *joined = g_strjoinv ("|", names);

  g_assert_cmpstr (joined, ==, "a|b");
  g_assert_cmpuint (kids->len, ==, 2);
}

static void
test_named_parameters_recurse (void)
{
  g_autoptr(GnnModule) root = make_tree (NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (root, NULL, TRUE, &names);
  g_autofree char *joined = g_strjoinv ("|", names);

  g_assert_cmpstr (joined, ==, "a.weight|b.c.weight");
  g_assert_cmpuint (params->len, ==, 2);
}

static void
test_named_parameters_no_recurse (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (leaf, "x", FALSE, &names);

  g_assert_cmpuint (params->len, ==, 1);
  g_assert_cmpstr (names[0], ==, "x.weight");
}

static void
test_tied_parameters_once (void)
{
  g_autoptr(GnnModule) root = test_box_new ();
  g_autoptr(GnnModule) a = test_leaf_new ();
  g_autoptr(GnnModule) b = test_leaf_new ();
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_autofree char *joined = NULL;

  /* tie b.weight to a.weight */
  g_assert_true (gnn_module_set_child (b, "weight", gnn_module_get_child (a, "weight", NULL), NULL));
  gnn_module_register_module (root, "a", a, NULL);
  gnn_module_register_module (root, "b", b, NULL);
  params = gnn_module_named_parameters (root, NULL, TRUE, &names);
  joined = g_strjoinv ("|", names);
  g_assert_cmpstr (joined, ==, "a.weight");
  g_assert_cmpint (gnn_module_count_parameters (root, FALSE), ==, 6);
}

static void
test_named_buffers_include_non_persistent (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) t = test_tensor_new (2);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) bufs = NULL;
  g_autofree char *joined = NULL;

  gnn_module_register_buffer (leaf, "scratch", t, FALSE, NULL);
  bufs = gnn_module_named_buffers (leaf, NULL, TRUE, &names);
  joined = g_strjoinv ("|", names);
  g_assert_cmpstr (joined, ==, "running|scratch");
}

static void
test_count_parameters (void)
{
  g_autoptr(GnnModule) root = make_tree (NULL);
  GnnParameter *w;

  g_assert_cmpint (gnn_module_count_parameters (root, FALSE), ==, 12);
  w = gnn_module_get_parameter (root, "b.c.weight", NULL);
  gnn_tensor_set_requires_grad (GNN_TENSOR (w), FALSE);
  g_assert_cmpint (gnn_module_count_parameters (root, TRUE), ==, 6);
}

static void
record_name (GnnModule *module, gpointer user_data)
{
  g_string_append_printf (user_data, "%s;", gnn_module_get_name (module));
}

static void
test_apply_children_first (void)
{
  g_autoptr(GnnModule) root = test_box_new ();
  g_autoptr(GnnModule) inner = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GString) log = g_string_new (NULL);

  gnn_module_register_module (inner, "leaf", leaf, NULL);
  gnn_module_register_module (root, "inner", inner, NULL);
  gnn_module_apply (root, record_name, log);
  g_assert_cmpstr (log->str, ==, "TestLeaf;TestBox;TestBox;");
}

static void
test_train_eval_recursive (void)
{
  GnnModule *a;
  g_autoptr(GnnModule) root = make_tree (&a);
  GnnModule *c = gnn_module_get_submodule (root, "b.c", NULL);

  gnn_module_eval (root);
  g_assert_false (gnn_module_get_training (root));
  g_assert_false (gnn_module_get_training (a));
  g_assert_false (gnn_module_get_training (c));
  gnn_module_train (root, TRUE);
  g_assert_true (gnn_module_get_training (c));
}

static void
test_training_property_self_only (void)
{
  g_autoptr(GnnModule) root = make_tree (NULL);
  GnnModule *c = gnn_module_get_submodule (root, "b.c", NULL);

  g_object_set (root, "training", FALSE, NULL);
  g_assert_false (gnn_module_get_training (root));
  g_assert_true (gnn_module_get_training (c));
}

static void
test_requires_grad_ (void)
{
  g_autoptr(GnnModule) root = make_tree (NULL);

  gnn_module_requires_grad_ (root, FALSE);
  g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (gnn_module_get_parameter (root, "b.c.weight", NULL))));
  g_assert_cmpint (gnn_module_count_parameters (root, TRUE), ==, 0);
}

static void
test_zero_grad (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (leaf, "weight", NULL));
  g_autoptr(GnnTensor) g = gnn_tensor_ones ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);

  gnn_tensor_set_grad (w, g);
  gnn_module_zero_grad (leaf, FALSE);
  g_assert_true (gnn_tensor_get_grad (w) == g);
  g_assert_cmpfloat (gnn_tensor_get_element (g, (gint64[]) { 1, 2 }, 2, NULL), ==, 0.0);
  gnn_module_zero_grad (leaf, TRUE);
  g_assert_null (gnn_tensor_get_grad (w));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/traverse/named-modules-preorder-dedup", test_named_modules_preorder_dedup);
  g_test_add_func ("/module/traverse/named-modules-prefix", test_named_modules_prefix);
  g_test_add_func ("/module/traverse/named-children-skip-empty", test_named_children_skip_empty);
  g_test_add_func ("/module/traverse/named-parameters-recurse", test_named_parameters_recurse);
  g_test_add_func ("/module/traverse/named-parameters-no-recurse", test_named_parameters_no_recurse);
  g_test_add_func ("/module/traverse/tied-parameters-once", test_tied_parameters_once);
  g_test_add_func ("/module/traverse/named-buffers-non-persistent", test_named_buffers_include_non_persistent);
  g_test_add_func ("/module/traverse/count-parameters", test_count_parameters);
  g_test_add_func ("/module/traverse/apply-children-first", test_apply_children_first);
  g_test_add_func ("/module/traverse/train-eval-recursive", test_train_eval_recursive);
  g_test_add_func ("/module/traverse/training-property-self-only", test_training_property_self_only);
  g_test_add_func ("/module/traverse/requires-grad", test_requires_grad_);
  g_test_add_func ("/module/traverse/zero-grad", test_zero_grad);

  return g_test_run ();
}
