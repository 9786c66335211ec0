/* Registration rules, the generic setter, lookups and their messages. */
#include "test-module-types.h"

static void
test_register_order_and_lookup (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GnnTensor) b = test_tensor_new (2);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_register_parameter (box, "p", p, &error));
  g_assert_true (gnn_module_register_buffer (box, "b", b, TRUE, &error));
  g_assert_true (gnn_module_register_module (box, "leaf", leaf, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_module_get_child (box, "p", NULL) == G_OBJECT (p));
  g_assert_true (gnn_module_get_child (box, "b", NULL) == G_OBJECT (b));
  g_assert_true (gnn_module_get_child (box, "leaf", NULL) == G_OBJECT (leaf));
  g_assert_true (gnn_module_has_child (box, "leaf"));
  g_assert_false (gnn_module_has_child (box, "nope"));
}

static void
test_register_parameter_dot (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_module_register_parameter (box, "a.b", p, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NAME);
  g_assert_cmpstr (error->message, ==, "parameter name can't contain \".\"");
  g_assert_false (gnn_module_has_child (box, "a.b"));
}

static void
test_register_buffer_empty_name (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnTensor) b = test_tensor_new (2);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_module_register_buffer (box, "", b, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NAME);
  g_assert_cmpstr (error->message, ==, "buffer name can't be empty string \"\"");
}

static void
test_register_existing_attribute (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GnnTensor) b = test_tensor_new (2);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_register_parameter (box, "x", p, NULL));
  g_assert_false (gnn_module_register_buffer (box, "x", b, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NAME);
  g_assert_cmpstr (error->message, ==, "attribute 'x' already exists");
  g_assert_true (gnn_module_get_child (box, "x", NULL) == G_OBJECT (p));
}

static void
test_register_property_name_taken (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GError) error = NULL;

  /* "training" is a property of every module, as in PyTorch */
  g_assert_false (gnn_module_register_parameter (box, "training", p, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NAME);
  g_assert_cmpstr (error->message, ==, "attribute 'training' already exists");
}

static void
test_register_module_messages (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) t = test_tensor_new (2);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;

  g_assert_false (gnn_module_register_module (box, "x", (GnnModule *) t, &e1));
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (e1->message, ==, "GnnTensor is not a Module subclass");
  g_assert_false (gnn_module_register_module (box, "a.b", leaf, &e2));
  g_assert_cmpstr (e2->message, ==, "module name can't contain \".\", got: a.b");
  g_assert_false (gnn_module_register_module (box, "", leaf, &e3));
  g_assert_cmpstr (e3->message, ==, "module name can't be empty string \"\"");
}

static void
test_register_parameter_wrong_type (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnTensor) t = test_tensor_new (2);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_module_register_parameter (box, "w", (GnnParameter *) t, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "cannot assign 'GnnTensor' object to parameter 'w' (GnnParameter or NULL required)");
}

static void
test_set_child_sorts_by_kind (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(GPtrArray) children = NULL;

  g_assert_true (gnn_module_set_child (box, "x", G_OBJECT (leaf), NULL));
  children = gnn_module_named_children (box, NULL);
  g_assert_cmpuint (children->len, ==, 1);
  /* a parameter under the same name moves it out of the modules (PyTorch
   * checks for a Parameter first; the reverse is an error, see below) */
  g_assert_true (gnn_module_set_child (box, "x", G_OBJECT (p), NULL));
  g_clear_pointer (&children, g_ptr_array_unref);
  children = gnn_module_named_children (box, NULL);
  g_assert_cmpuint (children->len, ==, 0);
  params = gnn_module_named_parameters (box, NULL, FALSE, &names);
  g_assert_cmpuint (params->len, ==, 1);
  g_assert_cmpstr (names[0], ==, "x");
}

static void
test_set_child_module_into_parameter_fails (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_set_child (box, "x", G_OBJECT (p), NULL));
  g_assert_false (gnn_module_set_child (box, "x", G_OBJECT (leaf), &error));
  g_assert_cmpstr (error->message, ==,
                   "cannot assign 'TestLeaf' as parameter 'x' (GnnParameter or NULL expected)");
  g_assert_true (gnn_module_get_child (box, "x", NULL) == G_OBJECT (p));
}

static void
test_set_child_wrong_kind_into_parameter (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) p = test_param_new (2);
  g_autoptr(GnnTensor) t = test_tensor_new (2);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_set_child (box, "w", G_OBJECT (p), NULL));
  g_assert_false (gnn_module_set_child (box, "w", G_OBJECT (t), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "cannot assign 'GnnTensor' as parameter 'w' (GnnParameter or NULL expected)");
  g_assert_true (gnn_module_get_child (box, "w", NULL) == G_OBJECT (p));
}

static void
test_set_child_wrong_kind_into_module (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) t = test_tensor_new (2);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_set_child (box, "m", G_OBJECT (leaf), NULL));
  g_assert_false (gnn_module_set_child (box, "m", G_OBJECT (t), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "cannot assign 'GnnTensor' as child module 'm' (GnnModule or NULL expected)");
  g_assert_true (gnn_module_get_child (box, "m", NULL) == G_OBJECT (leaf));
}

static void
test_set_child_null_keeps_slot (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) children = NULL;

  g_assert_true (gnn_module_set_child (box, "m", G_OBJECT (leaf), NULL));
  g_assert_true (gnn_module_set_child (box, "m", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_module_has_child (box, "m"));
  g_assert_null (gnn_module_get_child (box, "m", &error));
  g_assert_no_error (error);
  children = gnn_module_named_children (box, NULL);
  g_assert_cmpuint (children->len, ==, 0);
}

static void
test_set_child_buffer_keeps_persistence (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnTensor) a = test_tensor_new (2);
  g_autoptr(GnnTensor) b = test_tensor_new (3);

  g_assert_true (gnn_module_register_buffer (box, "stats", a, FALSE, NULL));
  g_assert_true (gnn_module_set_child (box, "stats", G_OBJECT (b), NULL));
  g_assert_true (gnn_module_get_child (box, "stats", NULL) == G_OBJECT (b));
  g_assert_false (gnn_module_is_buffer_persistent (box, "stats"));
}

static void
test_set_child_plain_tensor_new_name_fails (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnTensor) t = test_tensor_new (2);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_module_set_child (box, "t", G_OBJECT (t), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_nonnull (strstr (error->message, "'t'"));
  g_assert_nonnull (strstr (error->message, "gnn_module_register_buffer"));
  g_assert_false (gnn_module_has_child (box, "t"));
}

static void
test_get_child_missing_message (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_get_child (leaf, "foo", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==, "'TestLeaf' object has no attribute 'foo'");
}

static void
test_delete_child (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_delete_child (leaf, "weight", &error));
  g_assert_false (gnn_module_has_child (leaf, "weight"));
  g_assert_false (gnn_module_delete_child (leaf, "weight", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==, "'TestLeaf' object has no attribute 'weight'");
}

static GnnModule *
make_tree (void)
{
  GnnModule *root = test_box_new ();
  g_autoptr(GnnModule) enc = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();

  g_assert_true (gnn_module_register_module (enc, "fc", leaf, NULL));
  g_assert_true (gnn_module_register_module (root, "enc", enc, NULL));
  return root;
}

static void
test_get_submodule_paths (void)
{
  g_autoptr(GnnModule) root = make_tree ();
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  GnnModule *fc;

  g_assert_true (gnn_module_get_submodule (root, "", NULL) == root);
  fc = gnn_module_get_submodule (root, "enc.fc", NULL);
  g_assert_true (TEST_IS_LEAF (fc));
  g_assert_null (gnn_module_get_submodule (root, "enc.nope", &e1));
  g_assert_cmpstr (e1->message, ==, "TestBox has no attribute `nope`");
  g_assert_null (gnn_module_get_submodule (root, "enc.fc.weight", &e2));
  g_assert_cmpstr (e2->message, ==, "`weight` is not an nn.Module");
}

static void
test_get_parameter_and_buffer_paths (void)
{
  g_autoptr(GnnModule) root = make_tree ();
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;

  g_assert_true (GNN_IS_PARAMETER (gnn_module_get_parameter (root, "enc.fc.weight", NULL)));
  g_assert_true (GNN_IS_TENSOR (gnn_module_get_buffer (root, "enc.fc.running", NULL)));
  g_assert_null (gnn_module_get_parameter (root, "enc.fc.running", &e1));
  g_assert_cmpstr (e1->message, ==, "`running` is not an nn.Parameter");
  g_assert_null (gnn_module_get_buffer (root, "enc.fc.weight", &e2));
  g_assert_cmpstr (e2->message, ==, "`weight` is not a buffer");
  g_assert_null (gnn_module_get_parameter (root, "enc.fc.bias", &e3));
  g_assert_cmpstr (e3->message, ==, "TestLeaf has no attribute `bias`");
}


static void
on_child (GnnModule  *module,
          const char *name,
          GObject    *child,
          gpointer    user_data)
{
  GPtrArray *events = user_data;
  g_ptr_array_add (events, g_strdup_printf ("%s:%s", name, G_OBJECT_TYPE_NAME (child)));
}

static void
test_child_signals (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnParameter) p = test_param_new (1);
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) removed = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (box, "child-added", G_CALLBACK (on_child), added);
  g_signal_connect (box, "child-removed", G_CALLBACK (on_child), removed);
  gnn_module_set_child (box, "x", G_OBJECT (leaf), NULL);
  gnn_module_set_child (box, "x", G_OBJECT (p), NULL);
  gnn_module_delete_child (box, "x", NULL);

  g_assert_cmpuint (added->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (added, 0), ==, "x:TestLeaf");
  g_assert_cmpstr (g_ptr_array_index (added, 1), ==, "x:GnnParameter");
  g_assert_cmpuint (removed->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (removed, 0), ==, "x:TestLeaf");
  g_assert_cmpstr (g_ptr_array_index (removed, 1), ==, "x:GnnParameter");
}

static void
test_replace_keeps_position (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnParameter) a = test_param_new (1);
  g_autoptr(GnnParameter) b = test_param_new (1);
  g_autoptr(GnnParameter) c = test_param_new (1);
  g_autoptr(GPtrArray) params = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *joined = NULL;

  gnn_module_register_parameter (box, "a", a, NULL);
  gnn_module_register_parameter (box, "b", b, NULL);
  gnn_module_set_child (box, "a", G_OBJECT (c), NULL);
  params = gnn_module_named_parameters (box, NULL, FALSE, &names);
  joined = test_join (names);
  g_assert_cmpstr (joined, ==, "a,b");
  g_assert_true (g_ptr_array_index (params, 0) == c);
}

static void
test_cycle_rejected (void)
{
  g_autoptr(GnnModule) root = test_box_new ();
  g_autoptr(GnnModule) inner = test_box_new ();
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;

  g_assert_true (gnn_module_register_module (root, "inner", inner, NULL));
  g_assert_false (gnn_module_register_module (root, "me", root, &e1));
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_false (gnn_module_set_child (inner, "up", G_OBJECT (root), &e2));
  g_assert_cmpstr (e2->message, ==,
                   "cannot assign 'TestBox' as child module 'up': it contains this module (a cycle)");
  g_assert_false (gnn_module_has_child (inner, "up"));
}

static void
test_get_name (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();

  g_assert_cmpstr (gnn_module_get_name (leaf), ==, "TestLeaf");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/register/order-and-lookup", test_register_order_and_lookup);
  g_test_add_func ("/module/register/parameter-dot", test_register_parameter_dot);
  g_test_add_func ("/module/register/buffer-empty-name", test_register_buffer_empty_name);
  g_test_add_func ("/module/register/existing-attribute", test_register_existing_attribute);
  g_test_add_func ("/module/register/property-name-taken", test_register_property_name_taken);
  g_test_add_func ("/module/register/module-messages", test_register_module_messages);
  g_test_add_func ("/module/register/parameter-wrong-type", test_register_parameter_wrong_type);
  g_test_add_func ("/module/set-child/sorts-by-kind", test_set_child_sorts_by_kind);
  g_test_add_func ("/module/set-child/module-into-parameter-fails", test_set_child_module_into_parameter_fails);
  g_test_add_func ("/module/set-child/wrong-kind-into-parameter", test_set_child_wrong_kind_into_parameter);
  g_test_add_func ("/module/set-child/wrong-kind-into-module", test_set_child_wrong_kind_into_module);
  g_test_add_func ("/module/set-child/null-keeps-slot", test_set_child_null_keeps_slot);
  g_test_add_func ("/module/set-child/buffer-keeps-persistence", test_set_child_buffer_keeps_persistence);
  g_test_add_func ("/module/set-child/plain-tensor-new-name-fails", test_set_child_plain_tensor_new_name_fails);
  g_test_add_func ("/module/set-child/replace-keeps-position", test_replace_keeps_position);
  g_test_add_func ("/module/get-child/missing-message", test_get_child_missing_message);
  g_test_add_func ("/module/delete-child", test_delete_child);
  g_test_add_func ("/module/path/submodule", test_get_submodule_paths);
  g_test_add_func ("/module/path/parameter-and-buffer", test_get_parameter_and_buffer_paths);
  g_test_add_func ("/module/signals/child-added-removed", test_child_signals);
  g_test_add_func ("/module/register/cycle-rejected", test_cycle_rejected);
  g_test_add_func ("/module/name", test_get_name);

  return g_test_run ();
}
