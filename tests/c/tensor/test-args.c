/* gnn_args_parse: Python's binding of positional and keyword arguments,
 * defaults, None, and every error message (CPython 3.11's and torch's). */
#include <gnn/gnn.h>

static GnnValue *
tensor_value (double v)
{
  return gnn_value_take_tensor (gnn_tensor_new_scalar (v, GNN_DTYPE_F32));
}

/* MultiheadAttention.forward(query, key, value, key_padding_mask=None,
 * need_weights=True, attn_mask=None, average_attn_weights=True) */
typedef struct
{
  GnnTensor *query, *key, *value, *key_padding_mask, *attn_mask;
  gboolean   need_weights, average_attn_weights;
} Mha;

static gboolean
parse_mha (GnnValue *args, GnnValue *kwargs, Mha *m, GError **error)
{
  m->query = m->key = m->value = m->key_padding_mask = m->attn_mask = NULL;
  m->need_weights = m->average_attn_weights = TRUE;
  return gnn_args_parse (args, kwargs, "MultiheadAttention.forward", error,
                         "query", GNN_ARG_TENSOR, &m->query,
                         "key", GNN_ARG_TENSOR, &m->key,
                         "value", GNN_ARG_TENSOR, &m->value,
                         "key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &m->key_padding_mask,
                         "need_weights", GNN_ARG_BOOL | GNN_ARG_OPTIONAL, &m->need_weights,
                         "attn_mask", GNN_ARG_OPTIONAL_TENSOR, &m->attn_mask,
                         "average_attn_weights", GNN_ARG_BOOL | GNN_ARG_OPTIONAL,
                         &m->average_attn_weights,
                         NULL);
}

static void
assert_mha_error (GnnValue *args, GnnValue *kwargs, const char *message)
{
  g_autoptr(GError) error = NULL;
  Mha m;

  g_assert_false (parse_mha (args, kwargs, &m, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_positional_and_defaults (void)
{
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (3, tensor_value (1), tensor_value (2),
                                                       tensor_value (3));
  g_autoptr(GError) error = NULL;
  Mha m;

  g_assert_true (parse_mha (args, NULL, &m, &error));
  g_assert_no_error (error);
  g_assert_true (m.query == gnn_value_get_tensor (gnn_value_get_item (args, 0)));  /* borrowed */
  g_assert_true (m.value == gnn_value_get_tensor (gnn_value_get_item (args, 2)));
  g_assert_null (m.key_padding_mask);
  g_assert_null (m.attn_mask);
  g_assert_true (m.need_weights);
  g_assert_true (m.average_attn_weights);
}

static void
test_keywords_and_none (void)
{
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (2, tensor_value (1), tensor_value (2));
  g_autoptr(GnnValue) kwargs = gnn_value_new_dict_take ("need_weights", gnn_value_new_bool (FALSE),
                                                        "value", tensor_value (3),
                                                        "key_padding_mask", gnn_value_new_none (),
                                                        "attn_mask", tensor_value (4), NULL);
  g_autoptr(GError) error = NULL;
  Mha m;

  g_assert_true (parse_mha (args, kwargs, &m, &error));
  g_assert_true (m.value == gnn_value_get_tensor (gnn_value_lookup (kwargs, "value")));
  g_assert_true (m.attn_mask == gnn_value_get_tensor (gnn_value_lookup (kwargs, "attn_mask")));
  g_assert_null (m.key_padding_mask);
  g_assert_false (m.need_weights);
  g_assert_true (m.average_attn_weights);
}

static void
test_missing (void)
{
  g_autoptr(GnnValue) none = gnn_value_new_tuple (NULL, 0);
  g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, tensor_value (1));
  g_autoptr(GnnValue) two = gnn_value_new_tuple_take (2, tensor_value (1), tensor_value (2));
  g_autoptr(GnnValue) kw_key = gnn_value_new_dict_take ("key", tensor_value (2), NULL);

  assert_mha_error (two, NULL,
                    "MultiheadAttention.forward() missing 1 required positional argument: 'value'");
  assert_mha_error (one, NULL,
                    "MultiheadAttention.forward() missing 2 required positional arguments: "
                    "'key' and 'value'");
  assert_mha_error (none, NULL,
                    "MultiheadAttention.forward() missing 3 required positional arguments: "
                    "'query', 'key', and 'value'");
  assert_mha_error (NULL, kw_key,
                    "MultiheadAttention.forward() missing 2 required positional arguments: "
                    "'query' and 'value'");
}

static void
test_too_many (void)
{
  g_autoptr(GnnValue) eight = gnn_value_new_tuple_take (8, tensor_value (1), tensor_value (2),
                                                        tensor_value (3), gnn_value_new_none (),
                                                        gnn_value_new_bool (TRUE), gnn_value_new_none (),
                                                        gnn_value_new_bool (TRUE), gnn_value_new_int (0));
  g_autoptr(GnnValue) two = gnn_value_new_tuple_take (2, tensor_value (1), tensor_value (2));
  g_autoptr(GError) error = NULL;
  GnnTensor *input = NULL;

  /* with defaults: "from 4 to 8", self counted as in a bound method */
  assert_mha_error (eight, NULL,
                    "MultiheadAttention.forward() takes from 4 to 8 positional arguments "
                    "but 9 were given");
  /* without: Linear.forward(self, input) */
  g_assert_false (gnn_args_parse (two, NULL, "Linear.forward", &error,
                                  "input", GNN_ARG_TENSOR, &input, NULL));
  g_assert_cmpstr (error->message, ==,
                   "Linear.forward() takes 2 positional arguments but 3 were given");
  g_clear_error (&error);
  /* a free function (no dot) counts no self; one argument "was given" */
  {
    g_autoptr(GnnValue) one = gnn_value_new_tuple_take (1, tensor_value (1));

    /* no parameters: the first name is the NULL that ends the list */
    g_assert_false (gnn_args_parse (one, NULL, "noargs", &error, NULL, NULL));
    g_assert_cmpstr (error->message, ==, "noargs() takes 0 positional arguments but 1 was given");
  }
  g_assert_null (input);
}

static void
test_unexpected_and_multiple (void)
{
  g_autoptr(GnnValue) three = gnn_value_new_tuple_take (3, tensor_value (1), tensor_value (2),
                                                        tensor_value (3));
  g_autoptr(GnnValue) mask = gnn_value_new_dict_take ("mask", tensor_value (4), NULL);
  g_autoptr(GnnValue) key = gnn_value_new_dict_take ("key", tensor_value (4), NULL);
  g_autoptr(GnnValue) nine = gnn_value_new_tuple_take (9, tensor_value (1), tensor_value (2),
                                                       tensor_value (3), NULL, NULL, NULL, NULL,
                                                       NULL, NULL);

  assert_mha_error (three, mask,
                    "MultiheadAttention.forward() got an unexpected keyword argument 'mask'");
  assert_mha_error (three, key,
                    "MultiheadAttention.forward() got multiple values for argument 'key'");
  /* as CPython: keyword errors before too many positionals */
  assert_mha_error (nine, mask,
                    "MultiheadAttention.forward() got an unexpected keyword argument 'mask'");
}

static void
test_wrong_types (void)
{
  g_autoptr(GnnValue) bad_query = gnn_value_new_tuple_take (3, gnn_value_new_string ("q"),
                                                            tensor_value (2), tensor_value (3));
  g_autoptr(GnnValue) bad_flag = gnn_value_new_tuple_take (5, tensor_value (1), tensor_value (2),
                                                           tensor_value (3), gnn_value_new_none (),
                                                           tensor_value (5));
  g_autoptr(GnnValue) three = gnn_value_new_tuple_take (3, tensor_value (1), tensor_value (2),
                                                        tensor_value (3));
  g_autoptr(GnnValue) kw_flag = gnn_value_new_dict_take ("need_weights", gnn_value_new_int (1), NULL);
  g_autoptr(GnnValue) kw_none = gnn_value_new_dict_take ("need_weights", gnn_value_new_none (), NULL);
  g_autoptr(GnnValue) none_query = gnn_value_new_tuple_take (3, NULL, tensor_value (2), tensor_value (3));

  assert_mha_error (bad_query, NULL,
                    "MultiheadAttention.forward(): argument 'query' (position 1) must be Tensor, not str");
  assert_mha_error (bad_flag, NULL,
                    "MultiheadAttention.forward(): argument 'need_weights' (position 5) must be bool, "
                    "not Tensor");
  assert_mha_error (three, kw_flag,
                    "MultiheadAttention.forward(): argument 'need_weights' must be bool, not int");
  /* None where it is not allowed */
  assert_mha_error (three, kw_none,
                    "MultiheadAttention.forward(): argument 'need_weights' must be bool, not NoneType");
  assert_mha_error (none_query, NULL,
                    "MultiheadAttention.forward(): argument 'query' (position 1) must be Tensor, "
                    "not NoneType");
}

static void
test_nothing_written_on_failure (void)
{
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (2, gnn_value_new_int (4), gnn_value_new_string ("x"));
  g_autoptr(GError) error = NULL;
  gint64 n = -1;
  double scale = 2.5;

  g_assert_false (gnn_args_parse (args, NULL, "Toy.forward", &error,
                                  "n", GNN_ARG_INT, &n,
                                  "scale", GNN_ARG_DOUBLE | GNN_ARG_OPTIONAL, &scale, NULL));
  g_assert_cmpstr (error->message, ==,
                   "Toy.forward(): argument 'scale' (position 2) must be float, not str");
  g_assert_cmpint (n, ==, -1);
  g_assert_cmpfloat (scale, ==, 2.5);
}

static void
test_number_tower_and_other_kinds (void)
{
  g_autoptr(GnnSequential) seq = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (6, gnn_value_new_bool (TRUE), gnn_value_new_int (3),
                                                       gnn_value_new_string ("sum"),
                                                       gnn_value_new_object (G_OBJECT (seq)),
                                                       gnn_value_new_list_take (0),
                                                       gnn_value_new_none ());
  g_autoptr(GError) error = NULL;
  gint64 n = 0;
  double scale = 0;
  const char *reduction = "mean";
  GObject *activation = NULL;
  GnnValue *extra = NULL, *hx = (GnnValue *) 0x1;
  double dflt = 7;

  g_assert_true (gnn_args_parse (args, NULL, "toy", &error,
                                 "n", GNN_ARG_INT, &n,                       /* a bool is an int */
                                 "scale", GNN_ARG_DOUBLE, &scale,             /* an int a float */
                                 "reduction", GNN_ARG_STRING, &reduction,
                                 "activation", GNN_ARG_OBJECT, &activation,
                                 "extra", GNN_ARG_VALUE, &extra,
                                 "hx", GNN_ARG_OPTIONAL_VALUE, &hx,           /* None -> NULL */
                                 "dflt", GNN_ARG_DOUBLE | GNN_ARG_OPTIONAL, &dflt,
                                 NULL));
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpfloat (scale, ==, 3.0);
  g_assert_cmpstr (reduction, ==, "sum");
  g_assert_true (activation == G_OBJECT (seq));
  g_assert_cmpint (gnn_value_get_kind (extra), ==, GNN_VALUE_LIST);
  g_assert_null (hx);
  g_assert_cmpfloat (dflt, ==, 7);
}

static void
test_left_out_optional_pointers_are_null (void)
{
  g_autoptr(GnnValue) args = gnn_value_new_tuple (NULL, 0);
  GnnTensor *mask = (GnnTensor *) 0x1;    /* garbage: an optional tensor is reset */
  GnnValue *hx = (GnnValue *) 0x1;
  const char *mode = "nearest";            /* a string keeps its default */

  g_assert_true (gnn_args_parse (args, NULL, "toy", NULL,
                                 "mask", GNN_ARG_OPTIONAL_TENSOR, &mask,
                                 "hx", GNN_ARG_OPTIONAL_VALUE, &hx,
                                 "mode", GNN_ARG_STRING | GNN_ARG_OPTIONAL, &mode, NULL));
  g_assert_null (mask);
  g_assert_null (hx);
  g_assert_cmpstr (mode, ==, "nearest");
}

static void
test_required_after_optional_is_a_critical (void)
{
  if (g_test_subprocess ())
    {
      gint64 a = 0, b = 0;

      gnn_args_parse (NULL, NULL, "toy", NULL,
                      "a", GNN_ARG_INT | GNN_ARG_OPTIONAL, &a,
                      "b", GNN_ARG_INT, &b, NULL);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*gnn_args_parse*");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/args/positional-and-defaults", test_positional_and_defaults);
  g_test_add_func ("/args/keywords-and-none", test_keywords_and_none);
  g_test_add_func ("/args/missing", test_missing);
  g_test_add_func ("/args/too-many", test_too_many);
  g_test_add_func ("/args/unexpected-and-multiple", test_unexpected_and_multiple);
  g_test_add_func ("/args/wrong-types", test_wrong_types);
  g_test_add_func ("/args/nothing-written-on-failure", test_nothing_written_on_failure);
  g_test_add_func ("/args/number-tower-and-other-kinds", test_number_tower_and_other_kinds);
  g_test_add_func ("/args/left-out-optional-pointers-are-null", test_left_out_optional_pointers_are_null);
  g_test_add_func ("/args/required-after-optional-is-a-critical",
                   test_required_after_optional_is_a_critical);

  return g_test_run ();
}
