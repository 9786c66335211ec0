/* The general call: forward_args, every call shape through every hook kind,
 * dispatch between forward and forward_args, Sequential passing tuples. */
#include "test-module-types.h"

static GnnTensor *
scalar (double v)
{
  return gnn_tensor_new_scalar (v, GNN_DTYPE_F32);
}

static GnnValue *
scalar_value (double v)
{
  return gnn_value_take_tensor (scalar (v));
}

static double
item (GnnValue *v)
{
  g_assert_nonnull (gnn_value_get_tensor (v));
  return gnn_tensor_item (gnn_value_get_tensor (v), NULL);
}

static double
item_at (GnnValue *v, gsize i)
{
  return item (gnn_value_get_item (v, i));
}

/* --- module types ------------------------------------------------------- */

/* TestToy: forward(x, h=None, scale=1.0) -> (y, h_n), y = x * scale + h,
 * h_n = y; the example of docs/overview.md. */
#define TEST_TYPE_TOY (test_toy_get_type ())
G_DECLARE_FINAL_TYPE (TestToy, test_toy, TEST, TOY, GnnModule)

struct _TestToy
{
  GnnModule parent_instance;
  guint     calls;
};

G_DEFINE_FINAL_TYPE (TestToy, test_toy, GNN_TYPE_MODULE)

static GnnValue *
test_toy_forward_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GError **error)
{
  GnnTensor *x, *h = NULL;
  double scale = 1.0;
  g_autoptr(GnnTensor) y = NULL;

  if (!gnn_args_parse (args, kwargs, "TestToy.forward", error,
                       "x", GNN_ARG_TENSOR, &x,
                       "h", GNN_ARG_OPTIONAL_TENSOR, &h,
                       "scale", GNN_ARG_DOUBLE | GNN_ARG_OPTIONAL, &scale,
                       NULL))
    return NULL;
  TEST_TOY (module)->calls++;
  y = gnn_tensor_mul_scalar (x, scale, error);
  if (y != NULL && h != NULL)
    {
      GnnTensor *sum = gnn_tensor_add (y, h, error);

      g_object_unref (y);
      y = sum;
    }
  if (y == NULL)
    return NULL;
  return gnn_value_new_tuple_take (2, gnn_value_new_tensor (y), gnn_value_new_tensor (y));
}

static void
test_toy_class_init (TestToyClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward_args = test_toy_forward_args;
}

static void
test_toy_init (TestToy *self)
{
}

/* TestFirst: forward(pair) -> pair[0], a module after one returning a
 * tuple (torch's idiom for Sequential(lstm, SelectFirst(), linear)). */
#define TEST_TYPE_FIRST (test_first_get_type ())
G_DECLARE_FINAL_TYPE (TestFirst, test_first, TEST, FIRST, GnnModule)

struct _TestFirst
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (TestFirst, test_first, GNN_TYPE_MODULE)

static GnnValue *
test_first_forward_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GError **error)
{
  GnnValue *pair;

  if (!gnn_args_parse (args, kwargs, "TestFirst.forward", error, "pair", GNN_ARG_VALUE, &pair, NULL))
    return NULL;
  if (gnn_value_get_kind (pair) != GNN_VALUE_TUPLE || gnn_value_get_length (pair) == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "First takes a tuple, not %s",
                   gnn_value_get_type_name (pair));
      return NULL;
    }
  return gnn_value_ref (gnn_value_get_item (pair, 0));
}

static void
test_first_class_init (TestFirstClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward_args = test_first_forward_args;
}

static void
test_first_init (TestFirst *self)
{
}

/* TestBoth: one class with both vfuncs (they differ here only so that the
 * test sees which ran): forward x * 2, forward_args x * 3. */
#define TEST_TYPE_BOTH (test_both_get_type ())
G_DECLARE_DERIVABLE_TYPE (TestBoth, test_both, TEST, BOTH, GnnModule)

struct _TestBothClass
{
  GnnModuleClass parent_class;
};

G_DEFINE_TYPE (TestBoth, test_both, GNN_TYPE_MODULE)

static GnnTensor *
test_both_forward (GnnModule *module, GnnTensor *input, GError **error)
{
  return gnn_tensor_mul_scalar (input, 2.0, error);
}

static GnnValue *
test_both_forward_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GError **error)
{
  GnnTensor *x;

  if (!gnn_args_parse (args, kwargs, "TestBoth.forward", error, "x", GNN_ARG_TENSOR, &x, NULL))
    return NULL;
  return gnn_value_take_tensor (gnn_tensor_mul_scalar (x, 3.0, error));
}

static void
test_both_class_init (TestBothClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = test_both_forward;
  GNN_MODULE_CLASS (klass)->forward_args = test_both_forward_args;
}

static void
test_both_init (TestBoth *self)
{
}

/* TestBothTensor: a subclass overriding only forward (x * 5): it wins for
 * every call, the general one included. */
#define TEST_TYPE_BOTH_TENSOR (test_both_tensor_get_type ())
G_DECLARE_FINAL_TYPE (TestBothTensor, test_both_tensor, TEST, BOTH_TENSOR, TestBoth)

struct _TestBothTensor
{
  TestBoth parent_instance;
};

G_DEFINE_FINAL_TYPE (TestBothTensor, test_both_tensor, TEST_TYPE_BOTH)

static GnnTensor *
test_both_tensor_forward (GnnModule *module, GnnTensor *input, GError **error)
{
  return gnn_tensor_mul_scalar (input, 5.0, error);
}

static void
test_both_tensor_class_init (TestBothTensorClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = test_both_tensor_forward;
}

static void
test_both_tensor_init (TestBothTensor *self)
{
}

/* TestDoubler: a one-tensor layer (forward x * 2) that can be derived. */
#define TEST_TYPE_DOUBLER (test_doubler_get_type ())
G_DECLARE_DERIVABLE_TYPE (TestDoubler, test_doubler, TEST, DOUBLER, GnnModule)

struct _TestDoublerClass
{
  GnnModuleClass parent_class;
};

G_DEFINE_TYPE (TestDoubler, test_doubler, GNN_TYPE_MODULE)

static void
test_doubler_class_init (TestDoublerClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = test_both_forward;
}

static void
test_doubler_init (TestDoubler *self)
{
}

/* TestLeafPlus: a subclass of TestDoubler whose forward takes (x, y) and
 * chains up to the parent's forward for x: 2x + y. */
#define TEST_TYPE_LEAF_PLUS (test_leaf_plus_get_type ())
G_DECLARE_FINAL_TYPE (TestLeafPlus, test_leaf_plus, TEST, LEAF_PLUS, TestDoubler)

struct _TestLeafPlus
{
  TestDoubler parent_instance;
};

G_DEFINE_FINAL_TYPE (TestLeafPlus, test_leaf_plus, TEST_TYPE_DOUBLER)

static GnnValue *
test_leaf_plus_forward_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GError **error)
{
  GnnTensor *x, *y;
  g_autoptr(GnnValue) parent_args = NULL;
  g_autoptr(GnnValue) doubled = NULL;

  if (!gnn_args_parse (args, kwargs, "TestLeafPlus.forward", error,
                       "x", GNN_ARG_TENSOR, &x, "y", GNN_ARG_TENSOR, &y, NULL))
    return NULL;
  parent_args = gnn_value_new_tuple_take (1, gnn_value_new_tensor (x));
  doubled = gnn_module_forward_args_as (module, TEST_TYPE_DOUBLER, parent_args, NULL, error);
  if (doubled == NULL)
    return NULL;
  return gnn_value_take_tensor (gnn_tensor_add (gnn_value_get_tensor (doubled), y, error));
}

static void
test_leaf_plus_class_init (TestLeafPlusClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward_args = test_leaf_plus_forward_args;
}

static void
test_leaf_plus_init (TestLeafPlus *self)
{
}

/* --- forward_args and the general call ----------------------------------- */

static void
test_toy_call_args (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (2, scalar_value (3), scalar_value (1));
  g_autoptr(GnnValue) kwargs = gnn_value_new_dict_take ("scale", gnn_value_new_int (2), NULL);
  g_autoptr(GnnValue) out = gnn_module_call_args (toy, args, kwargs, NULL);
  g_autoptr(GnnValue) x_only = gnn_value_new_tuple_take (1, scalar_value (3));
  g_autoptr(GnnValue) out2 = gnn_module_call_args (toy, x_only, NULL, NULL);

  g_assert_cmpint (gnn_value_get_kind (out), ==, GNN_VALUE_TUPLE);
  g_assert_cmpfloat (item_at (out, 0), ==, 7.0);
  g_assert_cmpfloat (item_at (out, 1), ==, 7.0);
  g_assert_cmpfloat (item_at (out2, 0), ==, 3.0);
}

static void
test_toy_errors_are_pythons (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnValue) none = gnn_value_new_tuple (NULL, 0);
  g_autoptr(GnnValue) kw = gnn_value_new_dict_take ("y", scalar_value (1), NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_call_args (toy, none, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "TestToy.forward() missing 1 required positional argument: 'x'");
  g_clear_error (&error);
  g_assert_null (gnn_module_call_args (toy, none, kw, &error));
  g_assert_cmpstr (error->message, ==, "TestToy.forward() got an unexpected keyword argument 'y'");
  g_assert_cmpuint (TEST_TOY (toy)->calls, ==, 0);
}

static void
test_bad_args_kinds (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnValue) list = gnn_value_new_list_take (1, scalar_value (1));
  g_autoptr(GnnValue) tuple = gnn_value_new_tuple_take (1, scalar_value (1));
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_call_args (toy, list, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "the positional arguments of a module call must be a tuple, not list");
  g_clear_error (&error);
  g_assert_null (gnn_module_call_args (toy, tuple, tuple, &error));
  g_assert_cmpstr (error->message, ==, "the keyword arguments of a module call must be a dict, not tuple");
}

static void
test_tensor_call_of_args_module (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnModule) first = g_object_new (TEST_TYPE_FIRST, NULL);
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_module_call (toy, x, &error);
  g_autoptr(GnnValue) other = NULL;
  g_autoptr(GnnTensor) z = NULL;

  /* (y, h) is not one tensor: a clear error naming the general call */
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "TestToy returned a tuple, not a Tensor: call it with "
                   "gnn_module_call_args (gnn_module_call and gnn_module_forward return one tensor)");
  g_assert_cmpuint (TEST_TOY (toy)->calls, ==, 1);
  g_clear_error (&error);
  g_assert_null (gnn_module_forward (toy, x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_clear_error (&error);

  /* call_one hands the tuple back instead */
  g_assert_null (gnn_module_call_one (toy, x, &other, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (item_at (other, 0), ==, 3.0);
  /* without an out argument it fails as gnn_module_call */
  g_assert_null (gnn_module_call_one (toy, x, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_clear_error (&error);

  /* a forward_args module returning one tensor works through call: First
   * gets the tensor, not a tuple, so it refuses it by its own words */
  z = gnn_module_call (first, x, &error);
  g_assert_null (z);
  g_assert_cmpstr (error->message, ==, "First takes a tuple, not Tensor");
}

static void
test_args_call_of_tensor_module (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, scalar_value (3));
  g_autoptr(GnnValue) two = gnn_value_new_tuple_take (2, scalar_value (3), scalar_value (1));
  g_autoptr(GnnValue) str = gnn_value_new_tuple_take (1, gnn_value_new_string ("abc"));
  g_autoptr(GnnValue) none = gnn_value_new_tuple (NULL, 0);
  g_autoptr(GnnValue) kw_x = gnn_value_new_dict_take ("x", scalar_value (1), NULL);
  g_autoptr(GnnValue) kw_input = gnn_value_new_dict_take ("input", scalar_value (4), NULL);
  g_autoptr(GnnValue) out = gnn_module_call_args (leaf, one, NULL, NULL);
  g_autoptr(GnnValue) by_keyword = gnn_module_call_args (leaf, none, kw_input, NULL);
  g_autoptr(GnnTensor) via_one = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (gnn_value_get_kind (out), ==, GNN_VALUE_TENSOR);
  g_assert_cmpfloat (item (out), ==, 6.0);
  g_assert_cmpfloat (item (by_keyword), ==, 8.0);   /* Linear(input=x) works in torch */
  via_one = gnn_module_call_one (leaf, gnn_value_get_tensor (gnn_value_get_item (one, 0)), NULL, NULL);
  g_assert_cmpfloat (gnn_tensor_item (via_one, NULL), ==, 6.0);

  g_assert_null (gnn_module_call_args (leaf, two, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "TestLeaf.forward() takes 2 positional arguments but 3 were given");
  g_clear_error (&error);
  g_assert_null (gnn_module_call_args (leaf, one, kw_x, &error));
  g_assert_cmpstr (error->message, ==, "TestLeaf.forward() got an unexpected keyword argument 'x'");
  g_clear_error (&error);
  g_assert_null (gnn_module_call_args (leaf, none, NULL, &error));
  g_assert_cmpstr (error->message, ==, "TestLeaf.forward() missing 1 required positional argument: 'input'");
  g_clear_error (&error);
  g_assert_null (gnn_module_call_args (leaf, str, NULL, &error));
  g_assert_cmpstr (error->message, ==, "TestLeaf.forward(): argument 'input' (position 1) must be Tensor, not str");
}

static void
test_missing_forward_general (void)
{
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, scalar_value (3));
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_call_args (box, one, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "Module [TestBox] is missing the required \"forward\" function");
}

static void
test_dispatch_same_class (void)
{
  g_autoptr(GnnModule) both = g_object_new (TEST_TYPE_BOTH, NULL);
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (1, gnn_value_new_tensor (x));
  g_autoptr(GnnTensor) y = gnn_module_call (both, x, NULL);
  g_autoptr(GnnTensor) f = gnn_module_forward (both, x, NULL);
  g_autoptr(GnnValue) v = gnn_module_call_args (both, args, NULL, NULL);
  g_autoptr(GnnTensor) o = gnn_module_call_one (both, x, NULL, NULL);

  /* one class set both: the tensor API runs forward, the general one forward_args */
  g_assert_cmpfloat (gnn_tensor_item (y, NULL), ==, 2.0);
  g_assert_cmpfloat (gnn_tensor_item (f, NULL), ==, 2.0);
  g_assert_cmpfloat (item (v), ==, 3.0);
  g_assert_cmpfloat (gnn_tensor_item (o, NULL), ==, 3.0);
}

static void
test_dispatch_subclass_wins (void)
{
  g_autoptr(GnnModule) sub = g_object_new (TEST_TYPE_BOTH_TENSOR, NULL);
  g_autoptr(GnnModule) parent = g_object_new (TEST_TYPE_BOTH, NULL);
  g_autoptr(GnnModule) plus = g_object_new (TEST_TYPE_LEAF_PLUS, NULL);
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (1, gnn_value_new_tensor (x));
  g_autoptr(GnnValue) pair = gnn_value_new_tuple_take (2, scalar_value (3), scalar_value (1));
  g_autoptr(GnnValue) v = gnn_module_call_args (sub, args, NULL, NULL);
  g_autoptr(GnnValue) pv = gnn_module_call_args (parent, args, NULL, NULL);
  g_autoptr(GnnValue) plus_v = gnn_module_call_args (plus, pair, NULL, NULL);
  g_autoptr(GnnValue) as_parent = gnn_module_forward_args_as (sub, TEST_TYPE_BOTH, args, NULL, NULL);
  g_autoptr(GError) error = NULL;

  /* the subclass overrode forward only: it runs for the general call too */
  g_assert_cmpfloat (item (v), ==, 5.0);
  /* the cached choice of the parent class is its own (3), not the child's */
  g_assert_cmpfloat (item (pv), ==, 3.0);
  g_assert_cmpfloat (item (as_parent), ==, 3.0);
  /* Doubler's subclass with forward_args chains up to Doubler's forward */
  g_assert_cmpfloat (item (plus_v), ==, 7.0);
  /* and a one-tensor call reaches its forward_args (which wants two) */
  g_assert_null (gnn_module_call (plus, x, &error));
  g_assert_cmpstr (error->message, ==, "TestLeafPlus.forward() missing 1 required positional argument: 'y'");
}

static GnnValue *
no_output_forward_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GError **error)
{
  return NULL;
}

static void
test_no_output_no_error (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, scalar_value (3));
  GnnModuleClass *klass = GNN_MODULE_GET_CLASS (toy);
  g_autoptr(GError) error = NULL;

  klass->forward_args = no_output_forward_args;
  g_assert_null (gnn_module_call_args (toy, one, NULL, &error));
  klass->forward_args = test_toy_forward_args;
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "forward of TestToy returned no output and no error");
}

/* --- hooks on the general call ------------------------------------------- */

static void
append_value (GString *log, const char *tag, GnnValue *v)
{
  g_autofree char *text = v != NULL ? gnn_value_to_string (v) : g_strdup ("NULL");

  g_string_append_printf (log, "%s:%s;", tag, text);
}

static GnnValue *
log_pre_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  append_value (user_data, "pre", args);
  if (kwargs != NULL)
    append_value (user_data, "kw", kwargs);
  return NULL;
}

static GnnValue *
log_post_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GnnValue *output,
               gpointer user_data, GError **error)
{
  append_value (user_data, "post", output);
  return NULL;
}

static GnnValue *
global_pre_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  g_string_append_printf (user_data, "gpre(%s);", gnn_module_get_name (module));
  return NULL;
}

static GnnValue *
global_post_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GnnValue *output,
                  gpointer user_data, GError **error)
{
  g_string_append_printf (user_data, "gpost(%s);", gnn_module_get_name (module));
  return NULL;
}

/* Replaces the arguments by (x + 1,): a tuple. */
static GnnValue *
add_one_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  GnnTensor *x = gnn_value_get_tensor (gnn_value_get_item (args, 0));

  return gnn_value_new_tuple_take (1, gnn_value_take_tensor (gnn_tensor_add_scalar (x, 1.0, error)));
}

/* Replaces the arguments by x * 10, not a tuple: it becomes (x * 10,). */
static GnnValue *
times_ten_bare (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  GnnTensor *x = gnn_value_get_tensor (gnn_value_get_item (args, 0));

  return gnn_value_take_tensor (gnn_tensor_mul_scalar (x, 10.0, error));
}

/* with_kwargs: (args, {'scale': 100}) */
static GnnValue *
scale_kwargs (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  return gnn_value_new_tuple_take (2, gnn_value_ref (args),
                                   gnn_value_new_dict_take ("scale", gnn_value_new_double (100), NULL));
}

static GnnValue *
bad_with_kwargs (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  return gnn_value_new_int (5);
}

/* Keeps the first item of the output tuple. */
static GnnValue *
first_of_output (GnnModule *module, GnnValue *args, GnnValue *kwargs, GnnValue *output,
                 gpointer user_data, GError **error)
{
  return gnn_value_ref (gnn_value_get_item (output, 0));
}

static GnnValue *
junk_string (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  return gnn_value_new_string ("junk");
}

static void
test_hooks_see_args_and_replace (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (2, scalar_value (3), scalar_value (1));
  g_autoptr(GnnValue) kwargs = gnn_value_new_dict_take ("scale", gnn_value_new_double (2), NULL);
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_pre_hook_args (toy, log_pre_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_pre_hook_args (toy, add_one_args, NULL, NULL, 0);
  g_autoptr(GnnHookHandle) h3 = gnn_module_register_forward_pre_hook_args (toy, log_pre_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h4 = gnn_module_register_forward_hook_args (toy, log_post_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h5 = gnn_module_register_forward_hook_args (toy, first_of_output, NULL, NULL, 0);
  g_autoptr(GnnHookHandle) h6 = gnn_module_register_forward_hook_args (toy, log_post_args, log, NULL, 0);
  g_autoptr(GnnValue) out = gnn_module_call_args (toy, args, kwargs, NULL);

  /* the replaced arguments (x + 1,) dropped h; the keywords stay */
  g_assert_cmpstr (log->str, ==,
                   "pre:(tensor(3.), tensor(1.));kw:{'scale': 2.0};"
                   "pre:(tensor(4.),);kw:{'scale': 2.0};"
                   "post:(tensor(8.), tensor(8.));post:tensor(8.);");
  g_assert_cmpfloat (item (out), ==, 8.0);
}

static void
test_pre_hook_non_tuple_becomes_one_tuple (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (2, scalar_value (3), scalar_value (1));
  g_autoptr(GnnHookHandle) h = gnn_module_register_forward_pre_hook_args (toy, times_ten_bare, NULL, NULL, 0);
  g_autoptr(GnnValue) out = gnn_module_call_args (toy, args, NULL, NULL);

  g_assert_cmpfloat (item_at (out, 0), ==, 30.0);   /* (30,): h dropped */
}

static void
test_pre_hook_with_kwargs (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (1, scalar_value (3));
  g_autoptr(GnnHookHandle) h = gnn_module_register_forward_pre_hook_args (toy, scale_kwargs, NULL, NULL,
                                                                          GNN_HOOK_FLAGS_WITH_KWARGS);
  g_autoptr(GnnValue) out = gnn_module_call_args (toy, args, NULL, NULL);
  g_autoptr(GnnHookHandle) bad = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat (item_at (out, 0), ==, 300.0);
  gnn_hook_handle_remove (h);
  bad = gnn_module_register_forward_pre_hook_args (toy, bad_with_kwargs, NULL, NULL,
                                                   GNN_HOOK_FLAGS_WITH_KWARGS);
  g_assert_null (gnn_module_call_args (toy, args, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got 5.");
}

static void
test_value_hooks_on_one_tensor_call (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_pre_hook_args (leaf, log_pre_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_pre_hook_args (leaf, add_one_args, NULL, NULL, 0);
  g_autoptr(GnnHookHandle) h3 = gnn_module_register_forward_hook_args (leaf, log_post_args, log, NULL, 0);
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, NULL);

  /* the one-tensor call shows the value hooks torch's 1-tuple */
  g_assert_cmpstr (log->str, ==, "pre:(tensor(3.),);post:tensor(8.);");
  g_assert_cmpfloat (gnn_tensor_item (y, NULL), ==, 8.0);
}

static void
test_value_hook_output_not_tensor_on_tensor_call (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_hook_args (toy, first_of_output, NULL, NULL, 0);
  g_autoptr(GnnTensor) y = gnn_module_call (toy, x, NULL);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_pre_hook_args (leaf, junk_string, NULL, NULL, 0);
  g_autoptr(GError) error = NULL;

  /* a hook turning Toy's tuple into one tensor makes the tensor call work */
  g_assert_cmpfloat (gnn_tensor_item (y, NULL), ==, 3.0);
  /* a pre-hook's junk reaches forward, which refuses it as torch's TypeError */
  g_assert_null (gnn_module_call (leaf, x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "TestLeaf.forward(): argument 'input' (position 1) must be Tensor, not str");
}

static GnnTensor *
tensor_pre (GnnModule *module, GnnTensor *input, gpointer user_data, GError **error)
{
  g_string_append (user_data, "tpre;");
  return gnn_tensor_add_scalar (input, 1.0, error);
}

static GnnTensor *
tensor_post (GnnModule *module, GnnTensor *input, GnnTensor *output, gpointer user_data, GError **error)
{
  g_string_append (user_data, output != NULL ? "tpost;" : "tpost(NULL);");
  return NULL;
}

static void
test_tensor_hooks_on_general_calls (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, scalar_value (3));
  g_autoptr(GnnValue) two = gnn_value_new_tuple_take (2, scalar_value (3), scalar_value (1));
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_pre_hook (leaf, tensor_pre, log, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_pre_hook_args (leaf, log_pre_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h3 = gnn_module_register_forward_hook (leaf, tensor_post, log, NULL, 0);
  g_autoptr(GnnValue) out = gnn_module_call_args (leaf, one, NULL, NULL);
  g_autoptr(GnnHookHandle) t1 = gnn_module_register_forward_pre_hook (toy, tensor_pre, log, NULL, 0);
  g_autoptr(GnnHookHandle) t2 = NULL;
  g_autoptr(GError) error = NULL;

  /* one tensor in and out: tensor hooks work, in registration order with
   * the value hooks */
  g_assert_cmpstr (log->str, ==, "tpre;pre:(tensor(4.),);tpost;");
  g_assert_cmpfloat (item (out), ==, 8.0);

  /* two arguments: the tensor hook refuses, naming the registration to use */
  g_assert_null (gnn_module_call_args (toy, two, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "forward pre-hook of TestToy takes one tensor (it was registered with "
                   "gnn_module_register_forward_pre_hook), but the call has 2 positional arguments: "
                   "register it with gnn_module_register_forward_pre_hook_args to see every call shape");
  g_clear_error (&error);
  gnn_hook_handle_remove (t1);

  /* a tuple output: the tensor forward hook refuses */
  t2 = gnn_module_register_forward_hook (toy, tensor_post, log, NULL, 0);
  g_assert_null (gnn_module_call_args (toy, one, NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "forward hook of TestToy takes one tensor (it was registered with "
                   "gnn_module_register_forward_hook), but the call has a tuple output: "
                   "register it with gnn_module_register_forward_hook_args to see every call shape");
}

static void
test_global_value_hooks (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (1, scalar_value (2));
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_pre_hook_args (toy, log_pre_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_hook_args (toy, log_post_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) g1 = gnn_module_register_global_forward_pre_hook_args (global_pre_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) g2 = gnn_module_register_global_forward_hook_args (global_post_args, log, NULL, 0);
  g_autoptr(GnnValue) out = gnn_module_call_args (toy, args, NULL, NULL);
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnTensor) y = gnn_module_call (leaf, x, NULL);

  gnn_hook_handle_remove (g1);
  gnn_hook_handle_remove (g2);
  /* global hooks first, on every module and every call shape */
  g_assert_cmpstr (log->str, ==,
                   "gpre(TestToy);pre:(tensor(2.),);gpost(TestToy);post:(tensor(2.), tensor(2.));"
                   "gpre(TestLeaf);gpost(TestLeaf);");
}

static GnnValue *
failing_pre_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "pre-hook says no");
  return NULL;
}

static void
test_always_call_general (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnValue) none = gnn_value_new_tuple (NULL, 0);
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, scalar_value (2));
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_hook_args (toy, log_post_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_hook_args (toy, log_post_args, log, NULL,
                                                                       GNN_HOOK_FLAGS_ALWAYS_CALL);
  g_autoptr(GnnHookHandle) h3 = gnn_module_register_global_forward_hook_args (global_post_args, log, NULL,
                                                                              GNN_HOOK_FLAGS_ALWAYS_CALL);
  g_autoptr(GnnHookHandle) h4 = NULL;
  g_autoptr(GError) error = NULL;

  /* forward fails (missing x): only the always-call hooks, output NULL */
  g_assert_null (gnn_module_call_args (toy, none, NULL, &error));
  g_assert_cmpstr (error->message, ==, "TestToy.forward() missing 1 required positional argument: 'x'");
  g_assert_cmpstr (log->str, ==, "gpost(TestToy);post:NULL;");
  g_clear_error (&error);
  g_string_truncate (log, 0);
  /* a pre-hook fails: the same */
  h4 = gnn_module_register_forward_pre_hook_args (toy, failing_pre_args, NULL, NULL, 0);
  g_assert_null (gnn_module_call_args (toy, one, NULL, &error));
  g_assert_cmpstr (error->message, ==, "pre-hook says no");
  g_assert_cmpstr (log->str, ==, "gpost(TestToy);post:NULL;");
  gnn_hook_handle_remove (h3);
}

typedef struct
{
  GnnHookHandle *victim;
  GString       *log;
} RemoveData;

static GnnValue *
remove_other (GnnModule *module, GnnValue *args, GnnValue *kwargs, gpointer user_data, GError **error)
{
  RemoveData *d = user_data;

  g_string_append (d->log, "remover;");
  gnn_hook_handle_remove (d->victim);
  return NULL;
}

static void
test_removal_during_call (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, scalar_value (2));
  RemoveData d = { NULL, log };
  g_autoptr(GnnHookHandle) h1 = gnn_module_register_forward_pre_hook_args (toy, remove_other, &d, NULL, 0);
  g_autoptr(GnnHookHandle) h2 = gnn_module_register_forward_pre_hook_args (toy, log_pre_args, log, NULL, 0);
  g_autoptr(GnnHookHandle) h3 = gnn_module_register_forward_hook_args (toy, log_post_args, log, NULL, 0);
  g_autoptr(GnnValue) out1 = NULL;
  g_autoptr(GnnValue) out2 = NULL;

  d.victim = h2;
  out1 = gnn_module_call_args (toy, one, NULL, NULL);
  /* the removed pre-hook still runs in this call (torch iterates a
   * snapshot), not in the next */
  g_assert_cmpstr (log->str, ==, "remover;pre:(tensor(2.),);post:(tensor(2.), tensor(2.));");
  g_string_truncate (log, 0);
  d.victim = h3;
  out2 = gnn_module_call_args (toy, one, NULL, NULL);
  /* a forward hook removed by a pre-hook does not run: the forward hooks
   * are taken after forward, as torch does */
  g_assert_cmpstr (log->str, ==, "remover;");
}

/* forward_args calling the module itself: the nesting limit holds. */
static GnnValue *
recursive_forward_args (GnnModule *module, GnnValue *args, GnnValue *kwargs, GError **error)
{
  return gnn_module_call_args (module, args, kwargs, error);
}

static void
test_depth_limit_general (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, scalar_value (2));
  GnnModuleClass *klass = GNN_MODULE_GET_CLASS (toy);
  g_autoptr(GError) error = NULL;

  klass->forward_args = recursive_forward_args;
  g_assert_null (gnn_module_call_args (toy, one, NULL, &error));
  klass->forward_args = test_toy_forward_args;
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "maximum recursion depth exceeded while calling TestToy"));
}

static void
test_meta_general (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  GnnDevice previous = gnn_set_default_device (GNN_DEVICE_META);
  g_autoptr(GnnTensor) meta = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnValue) nested = NULL;
  g_autoptr(GError) error = NULL;

  gnn_set_default_device (previous);
  nested = gnn_value_new_tuple_take (1, gnn_value_new_list_take (1, gnn_value_new_tensor (meta)));
  g_assert_null (gnn_module_call_args (toy, nested, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "TestToy: input tensor has no storage (meta)");
}

/* --- Sequential ---------------------------------------------------------------- */

static GnnSequential *
sequential_of (GnnModule *a, GnnModule *b, GnnModule *c)
{
  GnnModule *mods[] = { a, b, c };

  return gnn_sequential_new (mods, c != NULL ? 3 : 2);
}

static void
test_sequential_passes_tuple_on (void)
{
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GnnModule) first = g_object_new (TEST_TYPE_FIRST, NULL);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnSequential) seq = sequential_of (toy, first, leaf);
  g_autoptr(GnnSequential) ends_in_tuple = sequential_of (leaf, toy, NULL);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnHookHandle) h = gnn_module_register_forward_pre_hook_args (first, log_pre_args, log, NULL, 0);
  g_autoptr(GnnTensor) x = scalar (3);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (seq), x, NULL);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (1, gnn_value_new_tensor (x));
  g_autoptr(GnnValue) v = gnn_module_call_args (GNN_MODULE (ends_in_tuple), args, NULL, NULL);
  g_autoptr(GError) error = NULL;

  /* Toy's (y, h) reached First as one argument, not unpacked */
  g_assert_cmpstr (log->str, ==, "pre:((tensor(3.), tensor(3.)),);");
  g_assert_cmpfloat (gnn_tensor_item (y, NULL), ==, 6.0);
  g_assert_cmpint (gnn_value_get_kind (v), ==, GNN_VALUE_TUPLE);
  g_assert_cmpfloat (item_at (v, 0), ==, 6.0);
  /* the tensor API on a chain ending in a tuple */
  g_assert_null (gnn_module_call (GNN_MODULE (ends_in_tuple), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "Sequential returned a tuple, not a Tensor: call it with "
                   "gnn_module_call_args (gnn_module_call and gnn_module_forward return one tensor)");
}

static void
test_sequential_takes_one_argument (void)
{
  g_autoptr(GnnModule) first = g_object_new (TEST_TYPE_FIRST, NULL);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnSequential) seq = sequential_of (first, leaf, NULL);
  g_autoptr(GnnSequential) empty = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnValue) two = gnn_value_new_tuple_take (2, scalar_value (1), scalar_value (2));
  g_autoptr(GnnValue) pair = gnn_value_new_tuple_take (1, gnn_value_ref (two));
  g_autoptr(GnnValue) out = gnn_module_call_args (GNN_MODULE (seq), pair, NULL, NULL);
  g_autoptr(GnnValue) same = gnn_module_call_args (GNN_MODULE (empty), pair, NULL, NULL);
  g_autoptr(GError) error = NULL;

  /* a tuple argument goes in as one value */
  g_assert_cmpfloat (item (out), ==, 2.0);
  g_assert_true (gnn_value_equal (same, two));   /* empty: the input itself */
  g_assert_null (gnn_module_call_args (GNN_MODULE (seq), two, NULL, &error));
  g_assert_cmpstr (error->message, ==, "Sequential.forward() takes 2 positional arguments but 3 were given");
}

static GnnValue *
double_output_hook (GnnModule *module, GnnValue *args, GnnValue *kwargs, GnnValue *output,
                    gpointer user_data, GError **error)
{
  return gnn_value_take_tensor (gnn_tensor_mul_scalar (gnn_value_get_tensor (output), 2.0, error));
}

/* A loss is called like any module, loss_fn(pred, y): the call path (hooks
 * run) with the same value as its _compute; the argument count and a
 * tuple output are Python's and the one-tensor API's errors. */
static void
test_call_tensors_loss (void)
{
  g_autoptr(GnnMSELoss) mse = gnn_mse_loss_new (GNN_REDUCTION_SUM);
  g_autoptr(GnnTensor) pred = gnn_tensor_new_from_floats ((float[]) { 1, 2, 3 }, 3,
                                                          (gint64[]) { 3 }, 1, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_new_from_floats ((float[]) { 1, 0, 0 }, 3,
                                                       (gint64[]) { 3 }, 1, NULL);
  g_autoptr(GnnTensor) direct = gnn_mse_loss_compute (mse, pred, y, NULL);
  g_autoptr(GnnTensor) called = gnn_module_call2 (GNN_MODULE (mse), pred, y, NULL);
  g_autoptr(GnnTensor) hooked = NULL;
  g_autoptr(GnnHookHandle) handle = NULL;
  g_autoptr(GnnModule) toy = g_object_new (TEST_TYPE_TOY, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat (gnn_tensor_item (direct, NULL), ==, 13.0);
  g_assert_cmpfloat (gnn_tensor_item (called, NULL), ==, 13.0);
  handle = gnn_module_register_forward_hook_args (GNN_MODULE (mse), double_output_hook, NULL,
                                                  NULL, GNN_HOOK_FLAGS_NONE);
  hooked = gnn_module_call_tensors (GNN_MODULE (mse), (GnnTensor *[]) { pred, y }, 2, NULL);
  g_assert_cmpfloat (gnn_tensor_item (hooked, NULL), ==, 26.0);

  g_assert_null (gnn_module_call_tensors (GNN_MODULE (mse), &pred, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "MSELoss.forward() missing 1 required positional argument: 'target'");
  g_clear_error (&error);
  /* TestToy returns a tuple: the one-tensor API refuses it */
  g_assert_null (gnn_module_call2 (toy, pred, y, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_nonnull (strstr (error->message, "not a Tensor"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/call-args/toy", test_toy_call_args);
  g_test_add_func ("/module/call-args/call-tensors-loss", test_call_tensors_loss);
  g_test_add_func ("/module/call-args/errors-are-pythons", test_toy_errors_are_pythons);
  g_test_add_func ("/module/call-args/bad-args-kinds", test_bad_args_kinds);
  g_test_add_func ("/module/call-args/tensor-call-of-args-module", test_tensor_call_of_args_module);
  g_test_add_func ("/module/call-args/args-call-of-tensor-module", test_args_call_of_tensor_module);
  g_test_add_func ("/module/call-args/missing-forward", test_missing_forward_general);
  g_test_add_func ("/module/call-args/dispatch-same-class", test_dispatch_same_class);
  g_test_add_func ("/module/call-args/dispatch-subclass-wins", test_dispatch_subclass_wins);
  g_test_add_func ("/module/call-args/no-output-no-error", test_no_output_no_error);
  g_test_add_func ("/module/call-args/hooks-see-args-and-replace", test_hooks_see_args_and_replace);
  g_test_add_func ("/module/call-args/pre-hook-non-tuple-becomes-one-tuple",
                   test_pre_hook_non_tuple_becomes_one_tuple);
  g_test_add_func ("/module/call-args/pre-hook-with-kwargs", test_pre_hook_with_kwargs);
  g_test_add_func ("/module/call-args/value-hooks-on-one-tensor-call", test_value_hooks_on_one_tensor_call);
  g_test_add_func ("/module/call-args/value-hook-output-on-tensor-call",
                   test_value_hook_output_not_tensor_on_tensor_call);
  g_test_add_func ("/module/call-args/tensor-hooks-on-general-calls", test_tensor_hooks_on_general_calls);
  g_test_add_func ("/module/call-args/global-value-hooks", test_global_value_hooks);
  g_test_add_func ("/module/call-args/always-call", test_always_call_general);
  g_test_add_func ("/module/call-args/removal-during-call", test_removal_during_call);
  g_test_add_func ("/module/call-args/depth-limit", test_depth_limit_general);
  g_test_add_func ("/module/call-args/meta", test_meta_general);
  g_test_add_func ("/module/call-args/sequential-passes-tuple-on", test_sequential_passes_tuple_on);
  g_test_add_func ("/module/call-args/sequential-takes-one-argument", test_sequential_takes_one_argument);

  return g_test_run ();
}
