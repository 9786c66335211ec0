/* GnnValue: construction, nesting, references, accessors, repr, equality. */
#include <math.h>
#include <gnn/gnn.h>

static GnnTensor *
scalar (double v)
{
  return gnn_tensor_new_scalar (v, GNN_DTYPE_F32);
}

static void
test_scalars (void)
{
  g_autoptr(GnnValue) none = gnn_value_new_none ();
  g_autoptr(GnnValue) b = gnn_value_new_bool (42);
  g_autoptr(GnnValue) i = gnn_value_new_int (G_MININT64);
  g_autoptr(GnnValue) d = gnn_value_new_double (0.5);
  g_autoptr(GnnValue) s = gnn_value_new_string ("mean");

  g_assert_true (gnn_value_is_none (none));
  g_assert_cmpint (gnn_value_get_kind (none), ==, GNN_VALUE_NONE);
  g_assert_cmpint (gnn_value_get_kind (b), ==, GNN_VALUE_BOOL);
  g_assert_true (gnn_value_get_bool (b) == TRUE);   /* normalized to TRUE */
  g_assert_cmpint (gnn_value_get_int (i), ==, G_MININT64);
  g_assert_cmpfloat (gnn_value_get_double (d), ==, 0.5);
  g_assert_cmpstr (gnn_value_get_string (s), ==, "mean");
  /* Python's number tower: a bool is an int, an int reads as a float */
  g_assert_cmpint (gnn_value_get_int (b), ==, 1);
  g_assert_cmpfloat (gnn_value_get_double (i), ==, (double) G_MININT64);
  g_assert_cmpstr (gnn_value_get_type_name (none), ==, "NoneType");
  g_assert_cmpstr (gnn_value_get_type_name (b), ==, "bool");
  g_assert_cmpstr (gnn_value_get_type_name (i), ==, "int");
  g_assert_cmpstr (gnn_value_get_type_name (d), ==, "float");
  g_assert_cmpstr (gnn_value_get_type_name (s), ==, "str");
}

static void
test_null_gives_none (void)
{
  g_autoptr(GnnValue) t = gnn_value_new_tensor (NULL);
  g_autoptr(GnnValue) taken = gnn_value_take_tensor (NULL);
  g_autoptr(GnnValue) s = gnn_value_new_string (NULL);
  g_autoptr(GnnValue) o = gnn_value_new_object (NULL);

  g_assert_true (gnn_value_is_none (t));
  g_assert_true (gnn_value_is_none (taken));
  g_assert_true (gnn_value_is_none (s));
  g_assert_true (gnn_value_is_none (o));
}

static void
test_tensor_held_by_reference (void)
{
  GnnTensor *x = scalar (3);
  GWeakRef weak;
  GnnValue *v;

  g_weak_ref_init (&weak, x);
  v = gnn_value_new_tensor (x);
  g_assert_true (gnn_value_get_tensor (v) == x);           /* the tensor, not a copy */
  g_assert_true (gnn_value_get_object (v) == G_OBJECT (x));
  g_assert_cmpstr (gnn_value_get_type_name (v), ==, "Tensor");
  g_object_unref (x);
  g_assert_true (gnn_value_get_tensor (v) == x);           /* kept alive by the value */
  gnn_value_unref (v);
  g_assert_null (g_weak_ref_get (&weak));
  g_weak_ref_clear (&weak);
}

static void
test_take_tensor (void)
{
  GnnTensor *x = scalar (1);
  GWeakRef weak;
  GnnValue *v;

  g_weak_ref_init (&weak, x);
  v = gnn_value_take_tensor (x);     /* the caller's reference moves in */
  gnn_value_unref (v);
  g_assert_null (g_weak_ref_get (&weak));
  g_weak_ref_clear (&weak);
}

static void
test_object_kinds (void)
{
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GnnParameter) p = gnn_parameter_new (x, TRUE);
  g_autoptr(GnnSequential) seq = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnValue) tv = gnn_value_new_object (G_OBJECT (x));
  g_autoptr(GnnValue) pv = gnn_value_new_object (G_OBJECT (p));
  g_autoptr(GnnValue) mv = gnn_value_new_object (G_OBJECT (seq));

  /* a tensor (a parameter too) passed as an object is a tensor */
  g_assert_cmpint (gnn_value_get_kind (tv), ==, GNN_VALUE_TENSOR);
  g_assert_cmpint (gnn_value_get_kind (pv), ==, GNN_VALUE_TENSOR);
  g_assert_true (gnn_value_get_tensor (pv) == GNN_TENSOR (p));
  g_assert_cmpint (gnn_value_get_kind (mv), ==, GNN_VALUE_OBJECT);
  g_assert_true (gnn_value_get_object (mv) == G_OBJECT (seq));
  g_assert_null (gnn_value_get_tensor (mv));
  g_assert_cmpstr (gnn_value_get_type_name (mv), ==, "Sequential");   /* as torch prints it */
}

static void
test_nested_tuple_take (void)
{
  g_autoptr(GnnTensor) out = scalar (1);
  g_autoptr(GnnTensor) h = scalar (2);
  g_autoptr(GnnTensor) c = scalar (3);
  /* an LSTM's (output, (h_n, c_n)) in one expression */
  g_autoptr(GnnValue) v = gnn_value_new_tuple_take (2, gnn_value_new_tensor (out),
                                                    gnn_value_new_tuple_take (2, gnn_value_new_tensor (h),
                                                                              gnn_value_new_tensor (c)));
  GnnValue *inner;
  gsize n = 0;
  GnnValue **items = gnn_value_get_items (v, &n);

  g_assert_cmpint (gnn_value_get_kind (v), ==, GNN_VALUE_TUPLE);
  g_assert_cmpuint (gnn_value_get_length (v), ==, 2);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (gnn_value_get_tensor (items[0]) == out);
  inner = gnn_value_get_item (v, 1);
  g_assert_cmpint (gnn_value_get_kind (inner), ==, GNN_VALUE_TUPLE);
  g_assert_true (gnn_value_get_tensor (gnn_value_get_item (inner, 0)) == h);
  g_assert_true (gnn_value_get_tensor (gnn_value_get_item (inner, 1)) == c);
}

static void
test_take_null_item_is_none (void)
{
  g_autoptr(GnnValue) v = gnn_value_new_tuple_take (2, gnn_value_new_int (1), NULL);
  g_autoptr(GnnValue) l = gnn_value_new_list_take (0);

  g_assert_true (gnn_value_is_none (gnn_value_get_item (v, 1)));
  g_assert_cmpint (gnn_value_get_kind (l), ==, GNN_VALUE_LIST);
  g_assert_cmpuint (gnn_value_get_length (l), ==, 0);
}

static void
test_array_constructors_reference_items (void)
{
  GnnValue *item = gnn_value_new_int (7);
  GnnValue *items[] = { item, item };
  g_autoptr(GnnValue) tuple = gnn_value_new_tuple (items, 2);
  g_autoptr(GnnValue) list = gnn_value_new_list (items, 2);

  gnn_value_unref (item);   /* the containers hold their own references */
  g_assert_cmpint (gnn_value_get_int (gnn_value_get_item (tuple, 1)), ==, 7);
  g_assert_cmpint (gnn_value_get_int (gnn_value_get_item (list, 0)), ==, 7);
  g_assert_cmpint (gnn_value_get_kind (list), ==, GNN_VALUE_LIST);
}

static void
test_tensor_tuple (void)
{
  g_autoptr(GnnTensor) a = scalar (1);
  g_autoptr(GnnTensor) b = scalar (2);
  g_autoptr(GnnValue) t = gnn_value_new_tensor_tuple ((GnnTensor *[]) { a, NULL, b }, 3);
  g_autoptr(GnnValue) pair = gnn_value_new_tensor_tuple ((GnnTensor *[]) { a, b }, 2);
  g_autoptr(GnnValue) empty = gnn_value_new_tensor_tuple (NULL, 0);
  g_autofree GnnTensor **tensors = NULL;
  gsize n = 9;

  g_assert_cmpint (gnn_value_get_kind (t), ==, GNN_VALUE_TUPLE);
  g_assert_true (gnn_value_is_none (gnn_value_get_item (t, 1)));   /* NULL is None */
  g_assert_true (gnn_value_get_tensor (gnn_value_get_item (t, 2)) == b);
  /* all tensors: read in one call; anything else: NULL */
  tensors = gnn_value_get_tensors (pair, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (tensors[0] == a && tensors[1] == b);
  g_assert_null (gnn_value_get_tensors (t, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (gnn_value_get_tensors (empty, &n));
  g_assert_null (gnn_value_get_tensors (gnn_value_get_item (pair, 0), &n));
}

static void
test_dict (void)
{
  g_autoptr(GnnValue) d = gnn_value_new_dict_take ("b", gnn_value_new_int (1),
                                                   "a", gnn_value_new_bool (FALSE),
                                                   "b", gnn_value_new_int (2), NULL);
  gsize n = 0;
  const char **keys = gnn_value_get_keys (d, &n);

  /* a repeated key keeps its first position and takes its last value */
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (keys[0], ==, "b");
  g_assert_cmpstr (keys[1], ==, "a");
  g_assert_null (keys[2]);
  g_assert_cmpstr (gnn_value_get_key (d, 1), ==, "a");
  g_assert_cmpint (gnn_value_get_int (gnn_value_lookup (d, "b")), ==, 2);
  g_assert_null (gnn_value_lookup (d, "c"));
  g_assert_cmpint (gnn_value_get_int (gnn_value_get_item (d, 0)), ==, 2);
}

static void
test_dict_arrays (void)
{
  const char *keys[] = { "x", "y" };
  g_autoptr(GnnValue) one = gnn_value_new_int (1);
  g_autoptr(GnnValue) none = gnn_value_new_none ();
  GnnValue *values[] = { one, none };
  g_autoptr(GnnValue) d = gnn_value_new_dict (keys, values, 2);
  g_autoptr(GnnValue) empty = gnn_value_new_dict (NULL, NULL, 0);
  g_autoptr(GnnValue) empty_take = gnn_value_new_dict_take (NULL, NULL);

  g_assert_cmpuint (gnn_value_get_length (d), ==, 2);
  g_assert_true (gnn_value_get_item (d, 0) == one);
  g_assert_cmpuint (gnn_value_get_length (empty), ==, 0);
  g_assert_cmpint (gnn_value_get_kind (empty_take), ==, GNN_VALUE_DICT);
  g_assert_null (gnn_value_get_keys (empty_take, NULL)[0]);
}

static void
test_non_containers_have_no_items (void)
{
  g_autoptr(GnnValue) i = gnn_value_new_int (1);
  gsize n = 5;

  g_assert_cmpuint (gnn_value_get_length (i), ==, 0);
  g_assert_null (gnn_value_get_items (i, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (gnn_value_get_keys (i, &n)[0]);
  g_assert_null (gnn_value_get_tensor (i));
  g_assert_null (gnn_value_get_string (i));
  g_assert_null (gnn_value_get_object (i));
}

static void
test_wrong_kind_accessors_are_criticals (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GnnValue) s = gnn_value_new_string ("x");

      g_assert_cmpint (gnn_value_get_int (s), ==, 0);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*gnn_value_get_int*");
}

static void
test_refcount_shared_item (void)
{
  GnnValue *item = gnn_value_new_string ("shared");
  GnnValue *outer;

  outer = gnn_value_new_tuple_take (2, gnn_value_ref (item), gnn_value_new_list_take (1, gnn_value_ref (item)));
  gnn_value_unref (outer);
  /* still ours: the tuple and the list dropped exactly their references */
  g_assert_cmpstr (gnn_value_get_string (item), ==, "shared");
  g_assert_true (gnn_value_ref (item) == item);
  gnn_value_unref (item);
  gnn_value_unref (item);
}

static void
test_boxed_type (void)
{
  g_autoptr(GnnValue) v = gnn_value_new_int (3);
  GnnValue *copy = g_boxed_copy (GNN_TYPE_VALUE, v);

  g_assert_true (copy == v);   /* a copy is a reference: values are immutable */
  g_boxed_free (GNN_TYPE_VALUE, copy);
  g_assert_true (G_TYPE_IS_BOXED (GNN_TYPE_VALUE));
  g_assert_true (G_TYPE_IS_ENUM (GNN_TYPE_VALUE_KIND));
}

static void
test_to_string (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats ((const float[]) { 1, 2 }, 2, (const gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnValue) v = gnn_value_new_tuple_take (
    7, gnn_value_new_tensor (x), gnn_value_new_none (), gnn_value_new_bool (TRUE),
    gnn_value_new_double (1.0), gnn_value_new_string ("it's"),
    gnn_value_new_list_take (1, gnn_value_new_tuple_take (1, gnn_value_new_int (-3))),
    gnn_value_new_dict_take ("k", gnn_value_new_double (0.1), NULL));
  g_autofree char *text = gnn_value_to_string (v);

  g_assert_cmpstr (text, ==, "(tensor([1., 2.]), None, True, 1.0, \"it's\", [(-3,)], {'k': 0.1})");
}

static void
test_equal (void)
{
  g_autoptr(GnnTensor) x = scalar (1);
  g_autoptr(GnnTensor) y = scalar (1);
  g_autoptr(GnnValue) a = gnn_value_new_tuple_take (2, gnn_value_new_tensor (x),
                                                    gnn_value_new_dict_take ("k", gnn_value_new_int (1), NULL));
  g_autoptr(GnnValue) b = gnn_value_new_tuple_take (2, gnn_value_new_tensor (x),
                                                    gnn_value_new_dict_take ("k", gnn_value_new_int (1), NULL));
  g_autoptr(GnnValue) c = gnn_value_new_tuple_take (2, gnn_value_new_tensor (y),
                                                    gnn_value_new_dict_take ("k", gnn_value_new_int (1), NULL));
  g_autoptr(GnnValue) l = gnn_value_new_list_take (2, gnn_value_new_tensor (x),
                                                   gnn_value_new_dict_take ("k", gnn_value_new_int (1), NULL));
  g_autoptr(GnnValue) nan = gnn_value_new_double (NAN);
  g_autoptr(GnnValue) other_nan = gnn_value_new_double (NAN);

  g_assert_true (gnn_value_equal (a, b));
  g_assert_false (gnn_value_equal (a, c));   /* tensors compare by identity */
  g_assert_false (gnn_value_equal (a, l));   /* a tuple is not a list */
  g_assert_false (gnn_value_equal (nan, other_nan));   /* NaN equals nothing */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/value/scalars", test_scalars);
  g_test_add_func ("/value/null-gives-none", test_null_gives_none);
  g_test_add_func ("/value/tensor-held-by-reference", test_tensor_held_by_reference);
  g_test_add_func ("/value/take-tensor", test_take_tensor);
  g_test_add_func ("/value/object-kinds", test_object_kinds);
  g_test_add_func ("/value/nested-tuple-take", test_nested_tuple_take);
  g_test_add_func ("/value/take-null-item-is-none", test_take_null_item_is_none);
  g_test_add_func ("/value/array-constructors-reference-items", test_array_constructors_reference_items);
  g_test_add_func ("/value/tensor-tuple", test_tensor_tuple);
  g_test_add_func ("/value/dict", test_dict);
  g_test_add_func ("/value/dict-arrays", test_dict_arrays);
  g_test_add_func ("/value/non-containers-have-no-items", test_non_containers_have_no_items);
  g_test_add_func ("/value/wrong-kind-accessors-are-criticals", test_wrong_kind_accessors_are_criticals);
  g_test_add_func ("/value/refcount-shared-item", test_refcount_shared_item);
  g_test_add_func ("/value/boxed-type", test_boxed_type);
  g_test_add_func ("/value/to-string", test_to_string);
  g_test_add_func ("/value/equal", test_equal);

  return g_test_run ();
}
