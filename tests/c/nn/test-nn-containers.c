/* Containers: Sequential, ModuleList, ModuleDict, ParameterList,
 * ParameterDict — indexing, slicing, errors and repr (PyTorch 1.13 text). */
#include <string.h>
#include <gnn/gnn.h>

static GnnModule *
linear (gint64 in, gint64 out)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  return GNN_MODULE (gnn_linear_new (in, out, TRUE, gen, NULL));
}

static GnnSequential *
mlp (void)
{
  g_autoptr(GnnModule) l1 = linear (4, 8);
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GnnModule) l2 = linear (8, 3);
  GnnModule *mods[] = { l1, relu, l2 };

  return gnn_sequential_new (mods, 3);
}

static GnnTensor *
ramp (gint64 rows, gint64 cols)
{
  gint64 shape[2] = { rows, cols };
  g_autofree float *v = g_new (float, rows * cols);

  for (gint64 i = 0; i < rows * cols; i++)
    v[i] = (float) (i % 7) * 0.25f - 0.75f;
  return gnn_tensor_new_from_floats (v, rows * cols, shape, 2, NULL);
}

static void
test_sequential_keys_and_repr (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autofree char *text = gnn_module_to_string (GNN_MODULE (seq));
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (GNN_MODULE (seq), "", TRUE, &names);

  g_assert_cmpstr (text, ==,
                   "Sequential(\n"
                   "  (0): Linear(in_features=4, out_features=8, bias=True)\n"
                   "  (1): ReLU()\n"
                   "  (2): Linear(in_features=8, out_features=3, bias=True)\n"
                   ")");
  g_assert_cmpuint (params->len, ==, 4);
  g_assert_cmpstr (names[0], ==, "0.weight");
  g_assert_cmpstr (names[1], ==, "0.bias");
  g_assert_cmpstr (names[2], ==, "2.weight");
  g_assert_cmpstr (names[3], ==, "2.bias");
}

static void
test_sequential_get_negative (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 3);
  g_assert_true (GNN_IS_RELU (gnn_sequential_get (seq, -2, &error)));
  g_assert_true (gnn_sequential_get (seq, -1, &error) == gnn_sequential_get (seq, 2, &error));
  g_assert_no_error (error);
}

static void
test_sequential_get_out_of_range (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_sequential_get (seq, 3, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "index 3 is out of range");
  g_clear_error (&error);
  g_assert_null (gnn_sequential_get (seq, -4, &error));
  g_assert_cmpstr (error->message, ==, "index -4 is out of range");
}

static void
test_sequential_slice_keeps_keys (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GnnSequential) tail = gnn_sequential_slice (seq, 1, G_MAXINT64, 1, NULL);
  g_autoptr(GnnSequential) rev = gnn_sequential_slice (seq, G_MAXINT64, G_MININT64, -2, NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) kids = gnn_module_named_children (GNN_MODULE (tail), &names);
  g_auto(GStrv) rnames = NULL;
  g_autoptr(GPtrArray) rkids = gnn_module_named_children (GNN_MODULE (rev), &rnames);

  g_assert_cmpuint (kids->len, ==, 2);
  g_assert_cmpstr (names[0], ==, "1");
  g_assert_cmpstr (names[1], ==, "2");
  g_assert_true (g_ptr_array_index (kids, 1) == (gpointer) gnn_sequential_get (seq, 2, NULL));
  g_assert_cmpuint (rkids->len, ==, 2);
  g_assert_cmpstr (rnames[0], ==, "2");
  g_assert_cmpstr (rnames[1], ==, "0");
}

/* Steps near the int64 limits take one element, as Python's slices do
 * (ml[1::sys.maxsize] is [ml[1]]); the index arithmetic must not wrap. */
static void
test_sequential_slice_huge_step (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GnnSequential) fwd = gnn_sequential_slice (seq, 1, G_MAXINT64, G_MAXINT64, NULL);
  g_autoptr(GnnSequential) back = gnn_sequential_slice (seq, 2, G_MININT64, G_MININT64, NULL);
  g_autoptr(GnnSequential) last = gnn_sequential_slice (seq, -1, G_MININT64, -G_MAXINT64, NULL);

  g_assert_cmpuint (gnn_sequential_get_length (fwd), ==, 1);
  g_assert_true (gnn_sequential_get (fwd, 0, NULL) == gnn_sequential_get (seq, 1, NULL));
  g_assert_cmpuint (gnn_sequential_get_length (back), ==, 1);
  g_assert_true (gnn_sequential_get (back, 0, NULL) == gnn_sequential_get (seq, 2, NULL));
  g_assert_cmpuint (gnn_sequential_get_length (last), ==, 1);
}

static void
test_sequential_slice_zero_step (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_sequential_slice (seq, 0, 2, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "slice step cannot be zero");
}

static void
test_sequential_append_insert_pop (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GnnModule) tanh = GNN_MODULE (gnn_tanh_new ());
  g_autoptr(GnnModule) sig = GNN_MODULE (gnn_sigmoid_new ());
  g_autoptr(GnnModule) popped = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (gnn_sequential_append (seq, tanh, NULL));
  g_assert_true (gnn_sequential_insert (seq, 1, sig, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 5);
  g_assert_true (gnn_sequential_get (seq, 1, NULL) == sig);
  g_assert_true (gnn_sequential_get (seq, 4, NULL) == tanh);

  popped = gnn_sequential_pop (seq, 0, &error);
  g_assert_no_error (error);
  g_assert_true (GNN_IS_LINEAR (popped));
  text = gnn_module_to_string (GNN_MODULE (seq));
  g_assert_cmpstr (text, ==,
                   "Sequential(\n"
                   "  (0): Sigmoid()\n"
                   "  (1): ReLU()\n"
                   "  (2): Linear(in_features=8, out_features=3, bias=True)\n"
                   "  (3): Tanh()\n"
                   ")");
}

/* insert shifts the numbered keys: a Sequential with other keys (named
 * children, or a slice that kept its keys) is refused with nothing
 * changed, where shifting would overwrite and duplicate children. */
static void
test_sequential_insert_needs_numbered_keys (void)
{
  g_autoptr(GnnSequential) named = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GnnSequential) tail = gnn_sequential_slice (seq, 1, G_MAXINT64, 1, NULL);
  g_autoptr(GnnModule) a = GNN_MODULE (gnn_tanh_new ());
  g_autoptr(GnnModule) b = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GnnModule) m = GNN_MODULE (gnn_sigmoid_new ());
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) kids = NULL;

  g_assert_true (gnn_module_register_module (GNN_MODULE (named), "conv", a, NULL));
  g_assert_true (gnn_module_register_module (GNN_MODULE (named), "relu", b, NULL));
  g_assert_false (gnn_sequential_insert (named, 1, m, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_nonnull (strstr (error->message, "named 'conv', not '0'"));
  kids = gnn_module_named_children (GNN_MODULE (named), &names);
  g_assert_cmpuint (kids->len, ==, 2);
  g_assert_cmpstr (names[0], ==, "conv");
  g_assert_cmpstr (names[1], ==, "relu");
  g_clear_error (&error);
  g_assert_false (gnn_sequential_insert (tail, 0, m, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpuint (gnn_sequential_get_length (tail), ==, 2);
}

/* update checks every module before registering the first: one that
 * contains the dict (a cycle) is refused with the dict unchanged. */
static void
test_module_dict_update_is_atomic (void)
{
  g_autoptr(GnnModuleDict) self = gnn_module_dict_new ();
  g_autoptr(GnnModuleDict) other = gnn_module_dict_new ();
  g_autoptr(GnnModule) a = GNN_MODULE (gnn_tanh_new ());
  GnnModule *holds[1] = { NULL };
  g_autoptr(GnnSequential) around = NULL;
  g_autoptr(GError) error = NULL;

  holds[0] = GNN_MODULE (self);
  around = gnn_sequential_new (holds, 1);
  g_assert_true (gnn_module_dict_set (other, "a", a, NULL));
  g_assert_true (gnn_module_dict_set (other, "b", GNN_MODULE (around), NULL));
  g_assert_false (gnn_module_dict_update (self, other, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (gnn_module_dict_get_length (self), ==, 0);
}

static void
test_sequential_insert_out_of_range (void)
{
  g_autoptr(GnnSequential) seq = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_sequential_insert (seq, 2, relu, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "Index out of range: 2");
  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 0);
}

static void
test_sequential_forward_chains (void)
{
  g_autoptr(GnnSequential) seq = mlp ();
  g_autoptr(GnnTensor) x = ramp (2, 4);
  g_autoptr(GnnTensor) out = gnn_module_call (GNN_MODULE (seq), x, NULL);
  g_autoptr(GnnTensor) h1 = gnn_module_call (gnn_sequential_get (seq, 0, NULL), x, NULL);
  g_autoptr(GnnTensor) h2 = gnn_module_call (gnn_sequential_get (seq, 1, NULL), h1, NULL);
  g_autoptr(GnnTensor) h3 = gnn_module_call (gnn_sequential_get (seq, 2, NULL), h2, NULL);

  g_assert_nonnull (out);
  g_assert_cmpint (gnn_tensor_get_size (out, 1, NULL), ==, 3);
  g_assert_true (gnn_tensor_allclose (out, h3, 0, 0));
}

static void
test_sequential_empty_forward_is_identity (void)
{
  g_autoptr(GnnSequential) seq = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnTensor) x = ramp (2, 2);
  g_autoptr(GnnTensor) out = gnn_module_call (GNN_MODULE (seq), x, NULL);
  g_autofree char *text = gnn_module_to_string (GNN_MODULE (seq));

  g_assert_true (out == x);
  g_assert_cmpstr (text, ==, "Sequential()");
}

static void
test_sequential_nested_state_dict (void)
{
  g_autoptr(GnnSequential) inner = mlp ();
  g_autoptr(GnnModule) head = linear (3, 2);
  GnnModule *mods[] = { GNN_MODULE (inner), head };
  g_autoptr(GnnSequential) outer = gnn_sequential_new (mods, 2);
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (outer));
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  const char *expected[] = { "0.0.weight", "0.0.bias", "0.2.weight", "0.2.bias",
                             "1.weight", "1.bias", NULL };

  g_assert_cmpstrv (keys, expected);
}

static void
test_module_list_slice_renumbers (void)
{
  g_autoptr(GnnModule) a = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GnnModule) b = GNN_MODULE (gnn_tanh_new ());
  g_autoptr(GnnModule) c = GNN_MODULE (gnn_sigmoid_new ());
  GnnModule *mods[] = { a, b, c };
  g_autoptr(GnnModuleList) list = gnn_module_list_new (mods, 3);
  g_autoptr(GnnModuleList) tail = gnn_module_list_slice (list, 1, G_MAXINT64, 1, NULL);
  g_autofree char *text = gnn_module_to_string (GNN_MODULE (tail));

  g_assert_cmpstr (text, ==, "ModuleList(\n  (0): Tanh()\n  (1): Sigmoid()\n)");
  g_assert_true (gnn_module_list_get (tail, -1, NULL) == c);
}

static void
test_module_list_pop_renumbers (void)
{
  g_autoptr(GnnModule) a = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GnnModule) b = GNN_MODULE (gnn_tanh_new ());
  g_autoptr(GnnModule) c = GNN_MODULE (gnn_sigmoid_new ());
  GnnModule *mods[] = { a, b, c };
  g_autoptr(GnnModuleList) list = gnn_module_list_new (mods, 3);
  g_autoptr(GnnModule) popped = gnn_module_list_pop (list, 1, NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) kids = gnn_module_named_children (GNN_MODULE (list), &names);

  g_assert_true (popped == b);
  g_assert_cmpuint (kids->len, ==, 2);
  g_assert_cmpstr (names[0], ==, "0");
  g_assert_cmpstr (names[1], ==, "1");
  g_assert_true (g_ptr_array_index (kids, 1) == (gpointer) c);
}

static void
test_module_list_call_fails (void)
{
  g_autoptr(GnnModuleList) list = gnn_module_list_new (NULL, 0);
  g_autoptr(GnnTensor) x = ramp (1, 2);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_call (GNN_MODULE (list), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==,
                   "Module [ModuleList] is missing the required \"forward\" function");
}

static void
test_module_list_index_error (void)
{
  g_autoptr(GnnModuleList) list = gnn_module_list_new (NULL, 0);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_list_get (list, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "index 0 is out of range");
}

static void
test_module_dict_order_and_repr (void)
{
  g_autoptr(GnnModuleDict) dict = gnn_module_dict_new ();
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GnnModule) lin = linear (2, 3);
  g_autofree char *text = NULL;
  g_auto(GStrv) keys = NULL;
  const char *expected[] = { "b", "a", NULL };

  g_assert_true (gnn_module_dict_set (dict, "b", relu, NULL));
  g_assert_true (gnn_module_dict_set (dict, "a", lin, NULL));
  keys = gnn_module_dict_get_keys (dict);
  g_assert_cmpstrv (keys, expected);
  g_assert_true (gnn_module_dict_contains (dict, "a"));
  g_assert_true (gnn_module_dict_get (dict, "a", NULL) == lin);
  text = gnn_module_to_string (GNN_MODULE (dict));
  g_assert_cmpstr (text, ==,
                   "ModuleDict(\n"
                   "  (b): ReLU()\n"
                   "  (a): Linear(in_features=2, out_features=3, bias=True)\n"
                   ")");
}

static void
test_module_dict_key_rules (void)
{
  g_autoptr(GnnModuleDict) dict = gnn_module_dict_new ();
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_module_dict_set (dict, "a.b", relu, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NAME);
  g_assert_cmpstr (error->message, ==, "module name can't contain \".\", got: a.b");
  g_clear_error (&error);
  g_assert_false (gnn_module_dict_set (dict, "", relu, &error));
  g_assert_cmpstr (error->message, ==, "module name can't be empty string \"\"");
  g_clear_error (&error);
  g_assert_null (gnn_module_dict_get (dict, "nope", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_nonnull (strstr (error->message, "'nope'"));
  g_assert_cmpuint (gnn_module_dict_get_length (dict), ==, 0);
}

static void
test_module_dict_pop_and_call (void)
{
  g_autoptr(GnnModuleDict) dict = gnn_module_dict_new ();
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new (FALSE));
  g_autoptr(GnnModule) popped = NULL;
  g_autoptr(GnnTensor) x = ramp (1, 2);
  g_autoptr(GError) error = NULL;

  gnn_module_dict_set (dict, "r", relu, NULL);
  popped = gnn_module_dict_pop (dict, "r", NULL);
  g_assert_true (popped == relu);
  g_assert_false (gnn_module_dict_contains (dict, "r"));
  g_assert_null (gnn_module_call (GNN_MODULE (dict), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
}

static void
test_parameter_list_repr_and_keys (void)
{
  gint64 s23[2] = { 2, 3 }, s4[1] = { 4 };
  g_autoptr(GnnTensor) a = gnn_tensor_zeros (s23, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_zeros (s4, 1, GNN_DTYPE_F64, NULL);
  GnnTensor *values[] = { a, b };
  g_autoptr(GnnParameterList) list = gnn_parameter_list_new (values, 2);
  g_autofree char *text = gnn_module_to_string (GNN_MODULE (list));
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (list));
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  const char *expected[] = { "0", "1", NULL };
  GnnParameter *p0 = gnn_parameter_list_get (list, -2, NULL);

  g_assert_cmpstr (text, ==,
                   "ParameterList(\n"
                   "    (0): Parameter containing: [torch.float32 of size 2x3]\n"
                   "    (1): Parameter containing: [torch.float64 of size 4]\n"
                   ")");
  g_assert_cmpstrv (keys, expected);
  g_assert_true (GNN_IS_PARAMETER (p0));
  g_assert_true (gnn_tensor_shares_storage (GNN_TENSOR (p0), a));
}

static void
test_parameter_list_call_fails (void)
{
  g_autoptr(GnnParameterList) list = gnn_parameter_list_new (NULL, 0);
  g_autoptr(GnnTensor) x = ramp (1, 2);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = gnn_module_to_string (GNN_MODULE (list));

  g_assert_cmpstr (text, ==, "ParameterList()");
  g_assert_null (gnn_module_call (GNN_MODULE (list), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "ParameterList should not be called.");
  g_clear_error (&error);
  g_assert_null (gnn_parameter_list_get (list, 0, &error));
  g_assert_cmpstr (error->message, ==, "index 0 is out of range");
}

static void
test_parameter_dict_repr_and_errors (void)
{
  gint64 s23[2] = { 2, 3 }, s4[1] = { 4 };
  g_autoptr(GnnTensor) a = gnn_tensor_zeros (s23, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_zeros (s4, 1, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnParameterDict) dict = gnn_parameter_dict_new ();
  g_autoptr(GnnTensor) x = ramp (1, 2);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (gnn_parameter_dict_set (dict, "a", a, NULL));
  g_assert_true (gnn_parameter_dict_set (dict, "b", b, NULL));
  text = gnn_module_to_string (GNN_MODULE (dict));
  g_assert_cmpstr (text, ==,
                   "ParameterDict(\n"
                   "    (a): Parameter containing: [torch.FloatTensor of size 2x3]\n"
                   "    (b): Parameter containing: [torch.DoubleTensor of size 4]\n"
                   ")");
  g_assert_false (gnn_parameter_dict_set (dict, "x.y", a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NAME);
  g_clear_error (&error);
  g_assert_null (gnn_module_call (GNN_MODULE (dict), x, &error));
  g_assert_cmpstr (error->message, ==, "ParameterDict should not be called.");
  g_clear_error (&error);
  g_assert_nonnull (gnn_parameter_dict_get (dict, "b", NULL));
  g_assert_null (gnn_parameter_dict_get (dict, "c", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nn/sequential/keys-and-repr", test_sequential_keys_and_repr);
  g_test_add_func ("/nn/sequential/get-negative", test_sequential_get_negative);
  g_test_add_func ("/nn/sequential/get-out-of-range", test_sequential_get_out_of_range);
  g_test_add_func ("/nn/sequential/slice-keeps-keys", test_sequential_slice_keeps_keys);
  g_test_add_func ("/nn/sequential/slice-zero-step", test_sequential_slice_zero_step);
  g_test_add_func ("/nn/sequential/slice-huge-step", test_sequential_slice_huge_step);
  g_test_add_func ("/nn/sequential/append-insert-pop", test_sequential_append_insert_pop);
  g_test_add_func ("/nn/sequential/insert-out-of-range", test_sequential_insert_out_of_range);
  g_test_add_func ("/nn/sequential/insert-needs-numbered-keys",
                   test_sequential_insert_needs_numbered_keys);
  g_test_add_func ("/nn/sequential/forward-chains", test_sequential_forward_chains);
  g_test_add_func ("/nn/sequential/empty-forward-is-identity", test_sequential_empty_forward_is_identity);
  g_test_add_func ("/nn/sequential/nested-state-dict", test_sequential_nested_state_dict);
  g_test_add_func ("/nn/module-list/slice-renumbers", test_module_list_slice_renumbers);
  g_test_add_func ("/nn/module-list/pop-renumbers", test_module_list_pop_renumbers);
  g_test_add_func ("/nn/module-list/call-fails", test_module_list_call_fails);
  g_test_add_func ("/nn/module-list/index-error", test_module_list_index_error);
  g_test_add_func ("/nn/module-dict/order-and-repr", test_module_dict_order_and_repr);
  g_test_add_func ("/nn/module-dict/key-rules", test_module_dict_key_rules);
  g_test_add_func ("/nn/module-dict/pop-and-call", test_module_dict_pop_and_call);
  g_test_add_func ("/nn/module-dict/update-is-atomic", test_module_dict_update_is_atomic);
  g_test_add_func ("/nn/parameter-list/repr-and-keys", test_parameter_list_repr_and_keys);
  g_test_add_func ("/nn/parameter-list/call-fails", test_parameter_list_call_fails);
  g_test_add_func ("/nn/parameter-dict/repr-and-errors", test_parameter_dict_repr_and_errors);

  return g_test_run ();
}
