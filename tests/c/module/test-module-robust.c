/* Regression tests for the module breaks of issue 14: cycles, hooks that
 * misbehave, deep trees (iterative walks, bounded call depth). */
#include "test-module-types.h"

#define DEEP 100000

/* --- cycles: a GError, and the container unchanged -------------------------- */

static void
test_cycle_sequential (void)
{
  g_autoptr(GnnSequential) outer = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnSequential) inner = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GError) error = NULL;
  GnnModule *batch[2];

  /* itself */
  g_assert_false (gnn_sequential_append (outer, GNN_MODULE (outer), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "cycle"));
  g_assert_cmpuint (gnn_sequential_get_length (outer), ==, 0);
  g_clear_error (&error);

  /* through a child: outer ∋ inner, then inner.append (outer) */
  g_assert_true (gnn_sequential_append (outer, GNN_MODULE (inner), &error));
  g_assert_false (gnn_sequential_append (inner, GNN_MODULE (outer), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (gnn_sequential_get_length (inner), ==, 0);
  g_clear_error (&error);

  /* extend: all or nothing */
  batch[0] = leaf;
  batch[1] = GNN_MODULE (outer);
  g_assert_false (gnn_sequential_extend (inner, batch, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (gnn_sequential_get_length (inner), ==, 0);
  g_clear_error (&error);

  /* insert: refused before the later children move */
  g_assert_true (gnn_sequential_append (outer, leaf, NULL));
  g_assert_false (gnn_sequential_insert (outer, 0, GNN_MODULE (outer), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (gnn_sequential_get_length (outer), ==, 2);
  g_assert_true (gnn_module_get_child (GNN_MODULE (outer), "0", NULL) == G_OBJECT (inner));
  g_assert_true (gnn_module_get_child (GNN_MODULE (outer), "1", NULL) == G_OBJECT (leaf));
}

static void
test_cycle_module_list_dict_add_module (void)
{
  g_autoptr(GnnModuleList) list = gnn_module_list_new (NULL, 0);
  g_autoptr(GnnModuleDict) dict = gnn_module_dict_new ();
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_module_list_append (list, GNN_MODULE (list), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (gnn_module_list_get_length (list), ==, 0);
  g_clear_error (&error);

  g_assert_false (gnn_module_dict_set (dict, "me", GNN_MODULE (dict), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_false (gnn_module_has_child (GNN_MODULE (dict), "me"));
  g_clear_error (&error);

  g_assert_true (gnn_module_register_module (box, "list", GNN_MODULE (list), NULL));
  g_assert_false (gnn_module_register_module (GNN_MODULE (list), "box", box, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_module_set_child (GNN_MODULE (list), "box", G_OBJECT (box), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_false (gnn_module_has_child (GNN_MODULE (list), "box"));
}

/* --- hooks ------------------------------------------------------------------ */

static GnnTensor *
hook_returns_module (GnnModule *module, GnnTensor *input, GnnTensor *output,
                     gpointer user_data, GError **error)
{
  /* A binding or a careless caller handing back the wrong GType. */
  return (GnnTensor *) test_box_new ();
}

static GnnTensor *
hook_fails (GnnModule *module, GnnTensor *input, GnnTensor *output,
            gpointer user_data, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "global hook says no");
  return NULL;
}

static void
test_hook_wrong_type_and_global_error (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = test_tensor_new (3);
  g_autoptr(GError) error = NULL;
  GnnTensor *y;
  GnnHookHandle *handle;

  handle = gnn_module_register_forward_hook (leaf, hook_returns_module, NULL, NULL, 0);
  y = gnn_module_call (leaf, x, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_nonnull (strstr (error->message, "TestBox"));
  g_clear_error (&error);
  gnn_hook_handle_remove (handle);
  g_object_unref (handle);

  handle = gnn_module_register_global_forward_hook (hook_fails, NULL, NULL, 0);
  y = gnn_module_call (leaf, x, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "global hook says no");
  g_clear_error (&error);
  gnn_hook_handle_remove (handle);
  g_object_unref (handle);

  y = gnn_module_call (leaf, x, &error);
  g_assert_no_error (error);
  g_object_unref (y);
}

typedef struct
{
  GnnHookHandle *later;
  int            later_runs;
} RemoveLater;

static GnnTensor *
hook_removes_later (GnnModule *module, GnnTensor *input, GnnTensor *output,
                    gpointer user_data, GError **error)
{
  RemoveLater *data = user_data;

  gnn_hook_handle_remove (data->later);
  return NULL;
}

static GnnTensor *
hook_counts (GnnModule *module, GnnTensor *input, GnnTensor *output,
             gpointer user_data, GError **error)
{
  ((RemoveLater *) user_data)->later_runs++;
  return NULL;
}

static void
test_hook_removed_during_call_still_runs (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = test_tensor_new (3);
  g_autoptr(GnnHookHandle) first = NULL;
  g_autoptr(GnnTensor) y1 = NULL;
  g_autoptr(GnnTensor) y2 = NULL;
  RemoveLater data = { NULL, 0 };

  first = gnn_module_register_forward_hook (leaf, hook_removes_later, &data, NULL, 0);
  data.later = gnn_module_register_forward_hook (leaf, hook_counts, &data, NULL, 0);
  /* torch runs the hooks captured at call start: the removed one still runs
   * in this call, and not in the next. */
  y1 = gnn_module_call (leaf, x, NULL);
  g_assert_nonnull (y1);
  g_assert_cmpint (data.later_runs, ==, 1);
  y2 = gnn_module_call (leaf, x, NULL);
  g_assert_cmpint (data.later_runs, ==, 1);
  g_object_unref (data.later);
}

static GnnTensor *
count_int (GnnModule *module, GnnTensor *input, GnnTensor *output, gpointer user_data,
           GError **error)
{
  (*(int *) user_data)++;
  return NULL;
}

/* A pre-hook that removes the forward hook in data->later and registers
 * one that counts in data->added_runs. */
typedef struct
{
  GnnHookHandle *later;
  int            later_runs;
  GnnHookHandle *added;
  int            added_runs;
} PreHookEdits;

static GnnTensor *
pre_hook_edits_forward_hooks (GnnModule *module, GnnTensor *input, gpointer user_data,
                              GError **error)
{
  PreHookEdits *data = user_data;

  if (data->later != NULL)
    gnn_hook_handle_remove (data->later);
  if (data->added == NULL)
    data->added = gnn_module_register_forward_hook (module, count_int, &data->added_runs,
                                                    NULL, 0);
  return NULL;
}

/* torch builds the forward hooks' tuple after forward: a forward hook that
 * a pre-hook removed does not run in that call, one it added does. */
static void
test_forward_hooks_taken_after_forward (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = test_tensor_new (3);
  g_autoptr(GnnHookHandle) pre = NULL;
  g_autoptr(GnnTensor) y = NULL;
  PreHookEdits data = { NULL, 0, NULL, 0 };

  pre = gnn_module_register_forward_pre_hook (leaf, pre_hook_edits_forward_hooks, &data, NULL, 0);
  data.later = gnn_module_register_forward_hook (leaf, count_int, &data.later_runs, NULL, 0);
  y = gnn_module_call (leaf, x, NULL);
  g_assert_nonnull (y);
  g_assert_cmpint (data.later_runs, ==, 0);
  g_assert_cmpint (data.added_runs, ==, 1);
  g_object_unref (data.later);
  g_object_unref (data.added);
}

/* A notify::training handler that takes its module out of the parent
 * while train() walks the parent's children. */
static void
on_training_leave_parent (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  g_assert_true (gnn_module_delete_child (GNN_MODULE (user_data), "0", NULL));
}

/* train() sets each child and walks into it; a handler may change the tree
 * meanwhile (here the child deletes itself from the parent, freeing its
 * registry entry), and the walk must not read what it freed (ASan checks
 * this in CI) and still reach the other children. */
static void
test_train_survives_handler_changing_tree (void)
{
  g_autoptr(GnnModule) a = test_leaf_new ();
  g_autoptr(GnnModule) b = test_leaf_new ();
  GnnModule *children[2] = { a, b };
  g_autoptr(GnnSequential) seq = gnn_sequential_new (children, 2);
  gboolean training = TRUE;

  g_signal_connect (a, "notify::training", G_CALLBACK (on_training_leave_parent), seq);
  gnn_module_train (GNN_MODULE (seq), FALSE);
  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 1);
  g_object_get (b, "training", &training, NULL);
  g_assert_false (training);
  g_signal_handlers_disconnect_by_func (a, on_training_leave_parent, seq);
}

/* --- depth ------------------------------------------------------------------ */

/* A chain of @depth Sequentials around one TestLeaf. */
static GnnModule *
make_chain (guint depth)
{
  GnnModule *module = test_leaf_new ();

  for (guint i = 0; i < depth; i++)
    {
      GnnModule *outer = GNN_MODULE (gnn_sequential_new (&module, 1));

      g_object_unref (module);
      module = outer;
    }
  return module;
}

static void
count_apply (GnnModule *module, gpointer user_data)
{
  (*(guint *) user_data)++;
}

static void
test_deep_chain_walks (void)
{
  GnnModule *root = make_chain (DEEP);
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (root, NULL, NULL);
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(GnnStateDict) state = NULL;
  g_auto(GStrv) names = NULL;
  GnnModule *leaf;
  guint applied = 0;

  g_assert_cmpuint (modules->len, ==, DEEP + 1);
  leaf = g_ptr_array_index (modules, DEEP);
  g_assert_true (TEST_IS_LEAF (leaf));

  params = gnn_module_named_parameters (root, NULL, TRUE, &names);
  g_assert_cmpuint (params->len, ==, 1);
  g_assert_cmpuint (strlen (names[0]), ==, 2 * DEEP + strlen ("weight"));

  state = gnn_module_state_dict (root);
  g_assert_cmpuint (gnn_state_dict_get_length (state), ==, 2);

  gnn_module_eval (root);
  g_assert_false (gnn_module_get_training (leaf));
  gnn_module_train (root, TRUE);
  g_assert_true (gnn_module_get_training (leaf));

  gnn_module_apply (root, count_apply, &applied);
  g_assert_cmpuint (applied, ==, DEEP + 1);

  g_clear_pointer (&modules, g_ptr_array_unref);
  /* Finalization of the whole chain must not recurse either. */
  g_object_unref (root);
}

static void
test_deep_chain_call (void)
{
  g_autoptr(GnnModule) shallow = make_chain (1000);
  GnnModule *deep = make_chain (DEEP);
  g_autoptr(GnnTensor) x = test_tensor_new (3);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GError) error = NULL;

  y = gnn_module_call (shallow, x, &error);
  g_assert_no_error (error);
  g_assert_nonnull (y);

  g_assert_null (gnn_module_call (deep, x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "maximum recursion depth exceeded"));
  g_clear_error (&error);
  g_object_unref (deep);

  /* The depth count unwound: a fresh call works. */
  g_clear_object (&y);
  y = gnn_module_call (shallow, x, &error);
  g_assert_no_error (error);
}

static void
test_deep_chain_repr (void)
{
  const guint depth = 4000;
  g_autoptr(GnnModule) root = make_chain (depth);
  g_autofree char *text = gnn_module_to_string (root);
  g_autoptr(GString) expected = g_string_new (NULL);

  /* Built the obvious way: level i opens at indent 2i and closes there. */
  for (guint i = 0; i < depth; i++)
    {
      g_string_append (expected, "Sequential(\n");
      for (guint k = 0; k < 2 * (i + 1); k++)
        g_string_append_c (expected, ' ');
      g_string_append (expected, "(0): ");
    }
  g_string_append (expected, "TestLeaf(factor=2)");
  for (guint i = depth; i-- > 0;)
    {
      g_string_append_c (expected, '\n');
      for (guint k = 0; k < 2 * i; k++)
        g_string_append_c (expected, ' ');
      g_string_append_c (expected, ')');
    }
  g_assert_cmpuint (strlen (text), ==, expected->len);
  g_assert_true (strcmp (text, expected->str) == 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/robust/cycle-sequential", test_cycle_sequential);
  g_test_add_func ("/module/robust/cycle-list-dict-add-module",
                   test_cycle_module_list_dict_add_module);
  g_test_add_func ("/module/robust/hook-wrong-type-global-error",
                   test_hook_wrong_type_and_global_error);
  g_test_add_func ("/module/robust/hook-removed-during-call", test_hook_removed_during_call_still_runs);
  g_test_add_func ("/module/robust/forward-hooks-taken-after-forward",
                   test_forward_hooks_taken_after_forward);
  g_test_add_func ("/module/robust/train-survives-handler-changing-tree",
                   test_train_survives_handler_changing_tree);
  g_test_add_func ("/module/robust/deep-chain-walks", test_deep_chain_walks);
  g_test_add_func ("/module/robust/deep-chain-call", test_deep_chain_call);
  g_test_add_func ("/module/robust/deep-chain-repr", test_deep_chain_repr);
  return g_test_run ();
}
