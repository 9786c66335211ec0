/* test-tensor-fill.c: fill_ and fill_int_ refuse a value the dtype cannot
 * hold with PyTorch's message, instead of the undefined conversion that
 * stored INT64_MIN for NaN or 2^70; fill_int_ is exact beyond 2^53 and
 * takes torch's integer rules (uint8 takes -1 as 255).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"

static GnnTensor *
zeros (GnnDType dtype)
{
  return gnn_tensor_zeros ((gint64[]) { 2 }, 1, dtype, NULL);
}

/* a macro: the call must run before its error is read */
#define assert_refused(call, error, type) G_STMT_START {   \
    gboolean ok_ = (call);                                  \
    assert_refused_ (ok_, (error), (type));                 \
  } G_STMT_END

static void
assert_refused_ (gboolean    ok,
                 GError     *error,
                 const char *type)
{
  g_autofree char *expected = g_strdup_printf ("value cannot be converted to type %s without overflow",
                                               type);

  g_assert_false (ok);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_float_values_into_integers (void)
{
  static const struct { GnnDType dtype; const char *type; double bad; double good; double stored; } rows[] = {
    { GNN_DTYPE_I64, "int64_t", NAN, 2.7, 2 },
    { GNN_DTYPE_I64, "int64_t", INFINITY, -2.7, -2 },
    { GNN_DTYPE_I64, "int64_t", 0x1p70, -0x1p63, -0x1p63 },
    { GNN_DTYPE_I64, "int64_t", 0x1p63, 1e18, 1e18 },
    { GNN_DTYPE_I32, "int", 1e10, 3e5, 3e5 },
    { GNN_DTYPE_I16, "int16_t", 3e5, -129, -129 },
    { GNN_DTYPE_I8, "int8_t", 255.5, -0.5, 0 },
    { GNN_DTYPE_U8, "uint8_t", -1.0, 255.0, 255 },
    { GNN_DTYPE_U8, "uint8_t", -0.5, 2.7, 2 },
    { GNN_DTYPE_F32, "float", 1e39, INFINITY, INFINITY },
    { GNN_DTYPE_F16, "at::Half", 3e5, 2.0, 2 },
    { GNN_DTYPE_BF16, "at::BFloat16", 1e39, 1e10, 9999220736.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autoptr(GnnTensor) t = zeros (rows[i].dtype);
      g_autoptr(GError) error = NULL;
      double v;

      assert_refused (gnn_tensor_fill_ (t, rows[i].bad, &error), error, rows[i].type);
      g_assert_cmpfloat (gnn_tensor_get_element (t, (gint64[]) { 0 }, 1, NULL), ==, 0.0);
      g_assert_cmpuint (gnn_tensor_get_version (t), ==, 0);
      g_assert_true (gnn_tensor_fill_ (t, rows[i].good, NULL));
      v = gnn_tensor_get_element (t, (gint64[]) { 1 }, 1, NULL);
      g_assert_cmpfloat (v, ==, rows[i].stored);
    }
}

/* NaN and infinities are float values; bool takes anything. */
static void
test_float_and_bool_take_special_values (void)
{
  g_autoptr(GnnTensor) f = zeros (GNN_DTYPE_F32);
  g_autoptr(GnnTensor) b = zeros (GNN_DTYPE_BOOL);

  g_assert_true (gnn_tensor_fill_ (f, NAN, NULL));
  g_assert_true (isnan (gnn_tensor_get_element (f, (gint64[]) { 0 }, 1, NULL)));
  g_assert_true (gnn_tensor_fill_ (b, NAN, NULL));
  g_assert_cmpfloat (gnn_tensor_get_element (b, (gint64[]) { 0 }, 1, NULL), ==, 1.0);
  g_assert_true (gnn_tensor_fill_int_ (b, G_MININT64, NULL));
}

static void
test_int_values (void)
{
  g_autoptr(GnnTensor) i64 = zeros (GNN_DTYPE_I64);
  g_autoptr(GnnTensor) u8 = zeros (GNN_DTYPE_U8);
  g_autoptr(GnnTensor) i8 = zeros (GNN_DTYPE_I8);
  g_autoptr(GnnTensor) f16 = zeros (GNN_DTYPE_F16);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autoptr(GError) error3 = NULL;
  const gint64 *data;

  /* exact where a double would round (2^62 + 1) */
  g_assert_true (gnn_tensor_fill_int_ (i64, (G_GINT64_CONSTANT (1) << 62) + 1, NULL));
  data = gnn_tensor_get_data (i64);
  g_assert_cmpint (data[1], ==, (G_GINT64_CONSTANT (1) << 62) + 1);
  g_assert_true (gnn_tensor_fill_int_ (i64, G_MININT64, NULL));
  g_assert_cmpint (((const gint64 *) gnn_tensor_get_data (i64))[0], ==, G_MININT64);

  /* unsigned: a negative value wraps once, as torch's uint8[...] = -1 */
  g_assert_true (gnn_tensor_fill_int_ (u8, -1, NULL));
  g_assert_cmpfloat (gnn_tensor_get_element (u8, (gint64[]) { 0 }, 1, NULL), ==, 255.0);
  g_assert_true (gnn_tensor_fill_int_ (u8, -129, NULL));
  g_assert_cmpfloat (gnn_tensor_get_element (u8, (gint64[]) { 0 }, 1, NULL), ==, 127.0);
  assert_refused (gnn_tensor_fill_int_ (u8, -300, &error), error, "uint8_t");
  assert_refused (gnn_tensor_fill_int_ (i8, 128, &error2), error2, "int8_t");
  assert_refused (gnn_tensor_fill_int_ (f16, 65520, &error3), error3, "at::Half");
  g_assert_true (gnn_tensor_fill_int_ (f16, -65504, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/fill/float-values-into-integers", test_float_values_into_integers);
  g_test_add_func ("/tensor/fill/special-values", test_float_and_bool_take_special_values);
  g_test_add_func ("/tensor/fill/int-values", test_int_values);
  return g_test_run ();
}
