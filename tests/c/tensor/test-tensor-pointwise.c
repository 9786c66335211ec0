/* Pointwise ops: arithmetic, in-place updates, activations, comparisons, where.
 * Reference values were computed with torch 1.13 (noted where not obvious). */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

#include "tensor/gnn-tensor-private.h"

/* --- helpers ------------------------------------------------------------- */

static GnnTensor *
floats (const float  *v,
        gsize         n,
        const gint64 *shape,
        guint         ndim)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_from_floats (v, n, shape, ndim, &error);

  g_assert_no_error (error);
  return t;
}

/* Int64 values converted to @dtype (any dtype, bool included). */
static GnnTensor *
ints_as (GnnDType      dtype,
         const gint64 *v,
         gsize         n,
         const gint64 *shape,
         guint         ndim)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (v, n, shape, ndim, &error);
  GnnTensor *out;

  g_assert_no_error (error);
  out = gnn_tensor_to_dtype (t, dtype, &error);
  g_assert_no_error (error);
  return out;
}

static GnnTensor *
floats_as (GnnDType      dtype,
           const float  *v,
           gsize         n,
           const gint64 *shape,
           guint         ndim)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = floats (v, n, shape, ndim);
  GnnTensor *out = gnn_tensor_to_dtype (t, dtype, &error);

  g_assert_no_error (error);
  return out;
}

/* Compares all elements (in row-major order) within @tol; NaN matches NaN. */
static void
assert_values (GnnTensor    *t,
               const double *expected,
               gsize         n,
               double        tol)
{
  gsize got_n;
  g_autofree double *got = NULL;

  g_assert_nonnull (t);
  got = gnn_tensor_to_doubles (t, &got_n);
  g_assert_cmpuint (got_n, ==, n);
  for (gsize i = 0; i < n; i++)
    {
      if (isnan (expected[i]))
        g_assert_true (isnan (got[i]));
      else if (isinf (expected[i]))
        g_assert_cmpfloat (got[i], ==, expected[i]);
      else if (fabs (got[i] - expected[i]) > tol)
        g_error ("element %" G_GSIZE_FORMAT ": got %.10g, expected %.10g (tolerance %g)",
                 i, got[i], expected[i], tol);
    }
}

#define ASSERT_VALUES(t, tol, ...)                                              \
  do {                                                                          \
    const double expected_[] = { __VA_ARGS__ };                                 \
    assert_values ((t), expected_, G_N_ELEMENTS (expected_), (tol));            \
  } while (0)

static const GnnDType numeric_dtypes[] = {
  GNN_DTYPE_F32, GNN_DTYPE_F64, GNN_DTYPE_I64, GNN_DTYPE_I32,
  GNN_DTYPE_I16, GNN_DTYPE_I8, GNN_DTYPE_U8,
};

static const GnnDType int_dtypes[] = {
  GNN_DTYPE_I64, GNN_DTYPE_I32, GNN_DTYPE_I16, GNN_DTYPE_I8, GNN_DTYPE_U8,
};

/* --- binary arithmetic --------------------------------------------------- */

static void
test_add_same_shape (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) b = floats ((float[]) { 10, 20, 30, 40, 50, 60 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_add (a, b, &error);

  g_assert_no_error (error);
  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  g_assert_true (gnn_tensor_is_contiguous (c));
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F32);
  ASSERT_VALUES (c, 0, 11, 22, 33, 44, 55, 66);
}

/* Long enough for vector bodies plus a scalar tail. */
static void
test_add_long_contiguous (void)
{
  const gsize n = 1037;
  g_autofree float *va = g_new (float, n);
  g_autofree float *vb = g_new (float, n);
  g_autofree double *want = g_new (double, n);
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL;

  for (gsize i = 0; i < n; i++)
    {
      va[i] = (float) i * 0.5f;
      vb[i] = (float) i - 7.0f;
      want[i] = (double) (va[i] + vb[i]);
    }
  a = floats (va, n, (gint64[]) { (gint64) n }, 1);
  b = floats (vb, n, (gint64[]) { (gint64) n }, 1);
  c = gnn_tensor_add (a, b, NULL);
  assert_values (c, want, n, 0);
}

static void
test_add_broadcast_row (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) row = floats ((float[]) { 10, 20, 30 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_add (a, row, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_add (row, a, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  ASSERT_VALUES (c, 0, 11, 22, 33, 14, 25, 36);
  ASSERT_VALUES (d, 0, 11, 22, 33, 14, 25, 36);
}

static void
test_add_broadcast_column (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) col = floats ((float[]) { 100, 200 }, 2, (gint64[]) { 2, 1 }, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_sub (a, col, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_sub (col, a, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  ASSERT_VALUES (c, 0, -99, -98, -97, -196, -195, -194);
  ASSERT_VALUES (d, 0, 99, 98, 97, 196, 195, 194);
}

/* A row [1, 3] against a column [2, 1]: both operands broadcast. */
static void
test_add_broadcast_outer (void)
{
  g_autoptr(GnnTensor) row = floats ((float[]) { 1, 2, 3 }, 3, (gint64[]) { 1, 3 }, 2);
  g_autoptr(GnnTensor) col = floats ((float[]) { 10, 20 }, 2, (gint64[]) { 2, 1 }, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_mul (row, col, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  ASSERT_VALUES (c, 0, 10, 20, 30, 20, 40, 60);
}

static void
test_add_broadcast_scalar_shaped (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4 }, 4, (gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) one = floats ((float[]) { 5 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) zero_d = gnn_tensor_new_scalar (-1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) three_d = floats ((float[]) { 2 }, 1, (gint64[]) { 1, 1, 1 }, 3);
  g_autoptr(GnnTensor) c = gnn_tensor_add (a, one, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_add (zero_d, a, NULL);
  g_autoptr(GnnTensor) e = gnn_tensor_mul (a, three_d, NULL);
  g_autoptr(GnnTensor) f = gnn_tensor_add (zero_d, zero_d, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 2 }, 2);
  ASSERT_VALUES (c, 0, 6, 7, 8, 9);
  gnn_test_assert_shape (d, (gint64[]) { 2, 2 }, 2);
  ASSERT_VALUES (d, 0, 0, 1, 2, 3);
  /* A [1, 1, 1] operand adds a leading dim, as in PyTorch. */
  gnn_test_assert_shape (e, (gint64[]) { 1, 2, 2 }, 3);
  ASSERT_VALUES (e, 0, 2, 4, 6, 8);
  g_assert_cmpuint (gnn_tensor_get_ndim (f), ==, 0);
  ASSERT_VALUES (f, 0, -2);
}

/* [2, 1, 3] + [4, 1] -> [2, 4, 3] */
static void
test_add_broadcast_leading_dims (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 1, 3 }, 3);
  g_autoptr(GnnTensor) b = floats ((float[]) { 0, 10, 20, 30 }, 4, (gint64[]) { 4, 1 }, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_add (a, b, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 4, 3 }, 3);
  ASSERT_VALUES (c, 0,
                 1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33,
                 4, 5, 6, 14, 15, 16, 24, 25, 26, 34, 35, 36);
}

static void
test_add_transposed_inputs (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) at = gnn_tensor_transpose (a, 0, 1, NULL);          /* [3, 2] */
  g_autoptr(GnnTensor) b = floats ((float[]) { 10, 20, 30, 40, 50, 60 }, 6, (gint64[]) { 3, 2 }, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_add (at, b, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_add (at, at, NULL);

  g_assert_false (gnn_tensor_is_contiguous (at));
  gnn_test_assert_shape (c, (gint64[]) { 3, 2 }, 2);
  g_assert_true (gnn_tensor_is_contiguous (c));
  ASSERT_VALUES (c, 0, 11, 24, 32, 45, 53, 66);
  ASSERT_VALUES (d, 0, 2, 8, 4, 10, 6, 12);
}

static void
test_add_empty (void)
{
  g_autoptr(GnnTensor) a = gnn_tensor_zeros ((gint64[]) { 0, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_ones ((gint64[]) { 3 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_add (a, b, &error);

  g_assert_no_error (error);
  gnn_test_assert_shape (c, (gint64[]) { 0, 3 }, 2);
  g_assert_cmpint (gnn_tensor_get_numel (c), ==, 0);
}

static void
test_add_each_dtype (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (numeric_dtypes); k++)
    {
      GnnDType dt = numeric_dtypes[k];
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = ints_as (dt, (gint64[]) { 1, 2, 3, 4 }, 4, (gint64[]) { 2, 2 }, 2);
      g_autoptr(GnnTensor) b = ints_as (dt, (gint64[]) { 10, 20 }, 2, (gint64[]) { 2 }, 1);
      g_autoptr(GnnTensor) sum = gnn_tensor_add (a, b, &error);
      g_autoptr(GnnTensor) diff = gnn_tensor_sub (b, a, &error);
      g_autoptr(GnnTensor) prod = gnn_tensor_mul (a, b, &error);
      g_autoptr(GnnTensor) quot = gnn_tensor_div (b, a, &error);

      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (sum), ==, dt);
      ASSERT_VALUES (sum, 0, 11, 22, 13, 24);
      ASSERT_VALUES (diff, 0, 9, 18, 7, 16);
      ASSERT_VALUES (prod, 0, 10, 40, 30, 80);
      /* true division: integers divide in float32, as in torch */
      g_assert_cmpint (gnn_tensor_get_dtype (quot), ==,
                       gnn_dtype_is_floating (dt) ? dt : GNN_DTYPE_F32);
      ASSERT_VALUES (quot, 1e-6, 10, 10, 10.0 / 3, 5);
    }
}

static void
test_add_float64_precision (void)
{
  g_autoptr(GnnTensor) a = gnn_tensor_new_from_doubles ((double[]) { 0.1, 1e16 }, 2,
                                                        (gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_new_from_doubles ((double[]) { 0.2, 1 }, 2,
                                                        (gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_add (a, b, NULL);
  g_autofree double *v = gnn_tensor_to_doubles (c, NULL);

  g_assert_cmpfloat (v[0], ==, 0.1 + 0.2);
  g_assert_cmpfloat (v[1], ==, 1e16 + 1);
}

/* torch: int8 100 + 100 = -56, uint8 0 - 1 = 255, int32 max + 1 = min. */
static void
test_add_integer_wraps (void)
{
  g_autoptr(GnnTensor) a8 = ints_as (GNN_DTYPE_I8, (gint64[]) { 100 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) s8 = gnn_tensor_add (a8, a8, NULL);
  g_autoptr(GnnTensor) z = ints_as (GNN_DTYPE_U8, (gint64[]) { 0 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) o = ints_as (GNN_DTYPE_U8, (gint64[]) { 1 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) u = gnn_tensor_sub (z, o, NULL);
  g_autoptr(GnnTensor) m = ints_as (GNN_DTYPE_I32, (gint64[]) { G_MAXINT32, 1, 65536 }, 3,
                                    (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) one = ints_as (GNN_DTYPE_I32, (gint64[]) { 1 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) s32 = gnn_tensor_add (m, one, NULL);
  g_autoptr(GnnTensor) p32 = gnn_tensor_mul (m, m, NULL);

  ASSERT_VALUES (s8, 0, -56);
  ASSERT_VALUES (u, 0, 255);
  ASSERT_VALUES (s32, 0, G_MININT32, 2, 65537);
  /* torch: [1, 1, 0] (max^2 and 2^32 wrap) */
  ASSERT_VALUES (p32, 0, 1, 1, 0);
}

static void
test_div_float_ieee (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, -1, 0, 6 }, 4, (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) b = floats ((float[]) { 0, 0, 0, 4 }, 4, (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_div (a, b, NULL);

  ASSERT_VALUES (c, 0, INFINITY, -INFINITY, NAN, 1.5);
}

/* Like torch.div (a, b, rounding_mode='trunc'): 7/2=3, -7/2=-3, 5/-2=-2;
 * 'floor': 3, -4, -3, 2; remainder takes the divisor's sign, fmod the
 * dividend's. */
static void
test_div_int_rounding_modes (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (int_dtypes) - 1; k++)   /* signed ones */
    {
      GnnDType dt = int_dtypes[k];
      g_autoptr(GnnTensor) a = ints_as (dt, (gint64[]) { 7, -7, 5, -6 }, 4, (gint64[]) { 4 }, 1);
      g_autoptr(GnnTensor) b = ints_as (dt, (gint64[]) { 2, 2, -2, -3 }, 4, (gint64[]) { 4 }, 1);
      g_autoptr(GnnTensor) t = gnn_tensor_div_mode (a, b, GNN_ROUNDING_MODE_TRUNC, NULL);
      g_autoptr(GnnTensor) f = gnn_tensor_div_mode (a, b, GNN_ROUNDING_MODE_FLOOR, NULL);
      g_autoptr(GnnTensor) fd = gnn_tensor_floor_divide (a, b, NULL);
      g_autoptr(GnnTensor) r = gnn_tensor_remainder (a, b, NULL);
      g_autoptr(GnnTensor) m = gnn_tensor_fmod (a, b, NULL);

      g_assert_cmpint (gnn_tensor_get_dtype (t), ==, dt);
      ASSERT_VALUES (t, 0, 3, -3, -2, 2);
      ASSERT_VALUES (f, 0, 3, -4, -3, 2);
      ASSERT_VALUES (fd, 0, 3, -4, -3, 2);
      ASSERT_VALUES (r, 0, 1, 1, -1, 0);
      ASSERT_VALUES (m, 0, 1, -1, 1, 0);
    }
}

/* torch: floor (-7.5 / 2) = -4, remainder (-7.5, 2) = 0.5, fmod = -1.5 */
static void
test_div_float_rounding_modes (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { -7.5f, 7.5f, 1 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) b = floats ((float[]) { 2, -2, 0 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) t = gnn_tensor_div_mode (a, b, GNN_ROUNDING_MODE_TRUNC, NULL);
  g_autoptr(GnnTensor) f = gnn_tensor_div_mode (a, b, GNN_ROUNDING_MODE_FLOOR, NULL);
  g_autoptr(GnnTensor) r = gnn_tensor_remainder (a, b, NULL);
  g_autoptr(GnnTensor) m = gnn_tensor_fmod (a, b, NULL);

  ASSERT_VALUES (t, 0, -3, -3, INFINITY);
  ASSERT_VALUES (f, 0, -4, -4, INFINITY);
  ASSERT_VALUES (r, 0, 0.5, -0.5, NAN);
  ASSERT_VALUES (m, 0, -1.5, 1.5, NAN);
}

/* Integer division by zero fails like torch ("ZeroDivisionError", which
 * torch 1.13 raises for a // 0 and a % 0 on integer tensors) and leaves the
 * in-place operand unchanged; a zero among other divisors counts too. */
static void
test_div_int_by_zero_fails (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (int_dtypes); k++)
    {
      GnnDType dt = int_dtypes[k];
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) error2 = NULL;
      g_autoptr(GError) error3 = NULL;
      g_autoptr(GnnTensor) a = ints_as (dt, (gint64[]) { 7, 0, 100 }, 3, (gint64[]) { 3 }, 1);
      g_autoptr(GnnTensor) zero = ints_as (dt, (gint64[]) { 0 }, 1, (gint64[]) { 1 }, 1);
      g_autoptr(GnnTensor) mixed = ints_as (dt, (gint64[]) { 1, 0, 2 }, 3, (gint64[]) { 3 }, 1);
      g_autoptr(GnnTensor) c = gnn_tensor_div_mode (a, zero, GNN_ROUNDING_MODE_TRUNC, &error);
      g_autoptr(GnnTensor) r = gnn_tensor_remainder (a, mixed, &error3);
      g_autoptr(GnnTensor) d = gnn_tensor_clone (a);

      g_assert_null (c);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_ZERO_DIVISION);
      g_assert_cmpstr (error->message, ==, "ZeroDivisionError");
      g_assert_null (r);
      g_assert_error (error3, GNN_ERROR, GNN_ERROR_ZERO_DIVISION);
      g_assert_false (gnn_tensor_floor_divide_ (d, mixed, &error2));
      g_assert_error (error2, GNN_ERROR, GNN_ERROR_ZERO_DIVISION);
      ASSERT_VALUES (d, 0, 7, 0, 100);
    }
}

static void
test_div_int_min_by_minus_one (void)
{
  g_autoptr(GnnTensor) a = ints_as (GNN_DTYPE_I64, (gint64[]) { G_MININT64, G_MININT64 }, 2,
                                    (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) b = ints_as (GNN_DTYPE_I64, (gint64[]) { -1, 1 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_div_mode (a, b, GNN_ROUNDING_MODE_TRUNC, NULL);
  g_autoptr(GnnTensor) a8 = ints_as (GNN_DTYPE_I8, (gint64[]) { -128 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) m8 = ints_as (GNN_DTYPE_I8, (gint64[]) { -1 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) c8 = gnn_tensor_floor_divide (a8, m8, NULL);
  g_autoptr(GnnTensor) r8 = gnn_tensor_remainder (a8, m8, NULL);

  g_assert_cmpint (((gint64 *) gnn_tensor_get_data (c))[0], ==, G_MININT64);
  g_assert_cmpint (((gint64 *) gnn_tensor_get_data (c))[1], ==, G_MININT64);
  ASSERT_VALUES (c8, 0, -128);
  ASSERT_VALUES (r8, 0, 0);
}

/* torch.result_type: float32 * int64 is float32; an int64 tensor cannot
 * take a float result in place. */
static void
test_binary_promotes_dtypes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) b = ints_as (GNN_DTYPE_I64, (gint64[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_mul (a, b, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F32);
  ASSERT_VALUES (c, 0, 1, 4);
  g_assert_false (gnn_tensor_sub_ (b, a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==,
                   "result type Float can't be cast to the desired output type Long");
  ASSERT_VALUES (b, 0, 1, 2);
  g_clear_error (&error);
  g_assert_true (gnn_tensor_sub_ (a, b, &error));
  g_assert_no_error (error);
  ASSERT_VALUES (a, 0, 0, 0);
}

static void
test_binary_shape_mismatch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_add (a, b, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "The size of tensor a (3) must match the size of tensor b (4) "
                   "at non-singleton dimension 1");
}

/* float16 and bfloat16 compute in float32 and round back, as torch does. */
static void
test_binary_half_dtypes (void)
{
  GnnDType halves[] = { GNN_DTYPE_F16, GNN_DTYPE_BF16 };

  for (gsize k = 0; k < G_N_ELEMENTS (halves); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = floats_as (halves[k], (float[]) { 1, -2 }, 2, (gint64[]) { 2 }, 1);
      g_autoptr(GnnTensor) c = gnn_tensor_add (a, a, &error);
      g_autoptr(GnnTensor) r = gnn_tensor_relu (a, &error);
      g_autoptr(GnnTensor) l = gnn_tensor_lt (a, a, &error);

      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (c), ==, halves[k]);
      ASSERT_VALUES (c, 0, 2, -4);
      ASSERT_VALUES (r, 0, 1, 0);
      ASSERT_VALUES (l, 0, 0, 0);
      g_assert_true (gnn_tensor_mul_ (a, a, &error));
      ASSERT_VALUES (a, 0, 1, 4);
    }
}

/* bool + bool is or, bool * bool and; sub and neg refuse bools (torch). */
static void
test_binary_bool (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = ints_as (GNN_DTYPE_BOOL, (gint64[]) { 1, 0, 1 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) b = ints_as (GNN_DTYPE_BOOL, (gint64[]) { 1, 0, 0 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) sum = gnn_tensor_add (a, b, &error);
  g_autoptr(GnnTensor) prod = gnn_tensor_mul (a, b, &error);
  g_autoptr(GnnTensor) one = gnn_tensor_new_wrapped_int (1);
  g_autoptr(GnnTensor) plus = gnn_tensor_add (a, one, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (sum), ==, GNN_DTYPE_BOOL);
  ASSERT_VALUES (sum, 0, 1, 0, 1);
  ASSERT_VALUES (prod, 0, 1, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (plus), ==, GNN_DTYPE_I64);
  ASSERT_VALUES (plus, 0, 2, 1, 2);
  g_assert_null (gnn_tensor_sub (a, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "with two bool tensors is not supported"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_neg (a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "Negation, the `-` operator, on a bool tensor"));
}

/* --- in place ------------------------------------------------------------ */

static void
test_inplace_contiguous (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4 }, 4, (gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) b = floats ((float[]) { 4, 3, 2, 1 }, 4, (gint64[]) { 2, 2 }, 2);
  gpointer data = gnn_tensor_get_data (a);

  g_assert_true (gnn_tensor_add_ (a, b, &error));
  g_assert_no_error (error);
  ASSERT_VALUES (a, 0, 5, 5, 5, 5);
  g_assert_true (gnn_tensor_mul_ (a, b, &error));
  ASSERT_VALUES (a, 0, 20, 15, 10, 5);
  g_assert_true (gnn_tensor_sub_ (a, b, &error));
  ASSERT_VALUES (a, 0, 16, 12, 8, 4);
  g_assert_true (gnn_tensor_div_ (a, b, &error));
  ASSERT_VALUES (a, 0, 4, 4, 4, 4);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_get_data (a) == data);
}

static void
test_inplace_broadcast_other (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) row = floats ((float[]) { 1, 10, 100 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) col = floats ((float[]) { 2, 3 }, 2, (gint64[]) { 2, 1 }, 2);
  g_autoptr(GnnTensor) s = gnn_tensor_new_scalar (1, GNN_DTYPE_F32);

  g_assert_true (gnn_tensor_mul_ (a, row, NULL));
  ASSERT_VALUES (a, 0, 1, 20, 300, 4, 50, 600);
  g_assert_true (gnn_tensor_mul_ (a, col, NULL));
  ASSERT_VALUES (a, 0, 2, 40, 600, 12, 150, 1800);
  g_assert_true (gnn_tensor_sub_ (a, s, NULL));
  ASSERT_VALUES (a, 0, 1, 39, 599, 11, 149, 1799);
}

/* Writing through a transposed view updates the base in its own layout. */
static void
test_inplace_into_transposed_view (void)
{
  g_autoptr(GnnTensor) base = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (base, 0, 1, NULL);       /* [3, 2] */
  g_autoptr(GnnTensor) b = floats ((float[]) { 10, 20, 30, 40, 50, 60 }, 6, (gint64[]) { 3, 2 }, 2);
  g_autoptr(GnnTensor) row = floats ((float[]) { 1000, 2000 }, 2, (gint64[]) { 2 }, 1);

  g_assert_true (gnn_tensor_add_ (t, b, NULL));
  /* t[i][j] = base[j][i] + b[i][j] */
  ASSERT_VALUES (base, 0, 11, 32, 53, 24, 45, 66);
  g_assert_true (gnn_tensor_add_ (t, row, NULL));
  ASSERT_VALUES (base, 0, 1011, 1032, 1053, 2024, 2045, 2066);
}

/* A column slice (narrow on dim 1) is strided; neighbours stay untouched. */
static void
test_inplace_into_narrowed_view (void)
{
  g_autoptr(GnnTensor) base = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) mid = gnn_tensor_narrow (base, 1, 1, 1, NULL);      /* [2, 1] */
  g_autoptr(GnnTensor) ten = gnn_tensor_new_scalar (10, GNN_DTYPE_F32);

  g_assert_true (gnn_tensor_mul_ (mid, ten, NULL));
  ASSERT_VALUES (base, 0, 1, 20, 3, 4, 50, 6);
}

static void
test_inplace_shape_mismatch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL);

  /* torch: "output with shape [3] doesn't match the broadcast shape [2, 3]" */
  g_assert_false (gnn_tensor_add_ (a, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "output with shape [3] doesn't match the broadcast shape [2, 3]");
  g_clear_error (&error);

  g_assert_false (gnn_tensor_add_ (a, c, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "The size of tensor a (3) must match the size of tensor b (4) "
                   "at non-singleton dimension 0");
}

static void
test_inplace_alias_self (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3 }, 3, (gint64[]) { 3 }, 1);

  g_assert_true (gnn_tensor_mul_ (a, a, NULL));
  ASSERT_VALUES (a, 0, 1, 4, 9);
  g_assert_true (gnn_tensor_sub_ (a, a, NULL));
  ASSERT_VALUES (a, 0, 0, 0, 0);
}

/* x[1:4] += x[0:3] reads x as it was: [1, 2, 3, 4] -> [1, 3, 5, 7]. PyTorch
 * refuses partial overlap; Gnn defines the result instead. */
static void
test_inplace_alias_overlapping (void)
{
  g_autoptr(GnnTensor) x = floats ((float[]) { 1, 2, 3, 4 }, 4, (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) dst = gnn_tensor_narrow (x, 0, 1, 3, NULL);
  g_autoptr(GnnTensor) src = gnn_tensor_narrow (x, 0, 0, 3, NULL);

  g_assert_true (gnn_tensor_add_ (dst, src, NULL));
  ASSERT_VALUES (x, 0, 1, 3, 5, 7);
}

/* x += x.T uses the old x: [[1, 2], [3, 4]] -> [[2, 5], [5, 8]]. */
static void
test_inplace_alias_transposed (void)
{
  g_autoptr(GnnTensor) x = floats ((float[]) { 1, 2, 3, 4 }, 4, (gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) xt = gnn_tensor_transpose (x, 0, 1, NULL);

  g_assert_true (gnn_tensor_add_ (x, xt, NULL));
  ASSERT_VALUES (x, 0, 2, 5, 5, 8);
}

/* A row of x broadcast over x: every row sees the original first row. */
static void
test_inplace_alias_broadcast_row (void)
{
  g_autoptr(GnnTensor) x = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 3, 2 }, 2);
  g_autoptr(GnnTensor) row0 = gnn_tensor_select (x, 0, 0, NULL);

  g_assert_true (gnn_tensor_sub_ (x, row0, NULL));
  ASSERT_VALUES (x, 0, 0, 0, 2, 2, 4, 4);
}

static void
test_inplace_expanded_self_fails (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) e = gnn_tensor_expand (a, (gint64[]) { 3, 2 }, 2, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_ones ((gint64[]) { 3, 2 }, 2, GNN_DTYPE_F32, NULL);

  g_assert_false (gnn_tensor_add_ (e, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "more than one element of the written-to tensor"));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_relu_ (e, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  ASSERT_VALUES (a, 0, 1, 2);
}

static void
test_inplace_each_dtype (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (numeric_dtypes); k++)
    {
      GnnDType dt = numeric_dtypes[k];
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = ints_as (dt, (gint64[]) { 1, 2, 3, 4 }, 4, (gint64[]) { 2, 2 }, 2);
      g_autoptr(GnnTensor) at = gnn_tensor_transpose (a, 0, 1, NULL);
      g_autoptr(GnnTensor) b = ints_as (dt, (gint64[]) { 10, 20 }, 2, (gint64[]) { 2 }, 1);

      g_assert_true (gnn_tensor_add_ (at, b, &error));
      g_assert_no_error (error);
      /* at = [[1, 3], [2, 4]] + [10, 20] -> a = [[11, 12], [23, 24]] */
      ASSERT_VALUES (a, 0, 11, 12, 23, 24);
    }
}

/* --- scalar operands ----------------------------------------------------- */

static void
test_add_scalar_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) at = gnn_tensor_transpose (a, 0, 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_add_scalar (a, 0.5, &error);
  g_autoptr(GnnTensor) d = gnn_tensor_mul_scalar (at, -2, &error);

  g_assert_no_error (error);
  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  ASSERT_VALUES (c, 0, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5);
  gnn_test_assert_shape (d, (gint64[]) { 3, 2 }, 2);
  ASSERT_VALUES (d, 0, -2, -8, -4, -10, -6, -12);
}

static void
test_scalar_each_dtype (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (numeric_dtypes); k++)
    {
      GnnDType dt = numeric_dtypes[k];
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = ints_as (dt, (gint64[]) { 1, 2, 3 }, 3, (gint64[]) { 3 }, 1);
      g_autoptr(GnnTensor) s = gnn_tensor_add_scalar (a, 4, &error);
      g_autoptr(GnnTensor) m = gnn_tensor_mul_scalar (a, 3, &error);

      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (s), ==, dt);
      ASSERT_VALUES (s, 0, 5, 6, 7);
      ASSERT_VALUES (m, 0, 3, 6, 9);
    }
}

/* torch: uint8 0 + (-1) = 255, int8 100 + 100 = -56. */
static void
test_scalar_integer_wraps (void)
{
  g_autoptr(GnnTensor) u = ints_as (GNN_DTYPE_U8, (gint64[]) { 0, 5 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_add_scalar (u, -1, NULL);
  g_autoptr(GnnTensor) i8 = ints_as (GNN_DTYPE_I8, (gint64[]) { 100 }, 1, (gint64[]) { 1 }, 1);
  g_autoptr(GnnTensor) d = gnn_tensor_add_scalar (i8, 100, NULL);

  ASSERT_VALUES (c, 0, 255, 4);
  ASSERT_VALUES (d, 0, -56);
}

static void
test_scalar_non_integral_on_int_fails (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = ints_as (GNN_DTYPE_I64, (gint64[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1);

  g_assert_null (gnn_tensor_add_scalar (a, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "add_scalar"));
  g_assert_nonnull (strstr (error->message, "0.5"));
  g_assert_nonnull (strstr (error->message, "int64"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_mul_scalar (a, NAN, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "mul_scalar"));
}

static void
test_pow_float (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 4, 2, -3, 0.25f }, 4, (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) sq = gnn_tensor_pow (a, 2, NULL);
  g_autoptr(GnnTensor) cube = gnn_tensor_pow (a, 3, NULL);
  g_autoptr(GnnTensor) rt = gnn_tensor_pow (a, 0.5, NULL);
  g_autoptr(GnnTensor) inv = gnn_tensor_pow (a, -1, NULL);
  g_autoptr(GnnTensor) f = gnn_tensor_pow (a, 1.5, NULL);

  ASSERT_VALUES (sq, 0, 16, 4, 9, 0.0625);
  ASSERT_VALUES (cube, 1e-6, 64, 8, -27, 0.015625);
  ASSERT_VALUES (rt, 1e-7, 2, G_SQRT2, NAN, 0.5);
  ASSERT_VALUES (inv, 1e-7, 0.25, 0.5, -1.0 / 3, 4);
  /* torch: [8.0, 2.828427076, nan, 0.125] */
  ASSERT_VALUES (f, 1e-6, 8, 2.828427076, NAN, 0.125);
}

static void
test_pow_zero_exponent (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { NAN, 0, -5 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_pow (a, 0, NULL);

  ASSERT_VALUES (c, 0, 1, 1, 1);
}

static void
test_pow_int (void)
{
  g_autoptr(GnnTensor) a = ints_as (GNN_DTYPE_I64, (gint64[]) { 2, 3, -2, 0 }, 4,
                                    (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_pow (a, 3, NULL);
  g_autoptr(GnnTensor) z = gnn_tensor_pow (a, 0, NULL);
  g_autoptr(GnnTensor) a8 = ints_as (GNN_DTYPE_I8, (gint64[]) { 2, 3 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) w = gnn_tensor_pow (a8, 7, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_I64);
  ASSERT_VALUES (c, 0, 8, 27, -8, 0);
  ASSERT_VALUES (z, 0, 1, 1, 1, 1);
  /* torch: int8 2**7 = -128, 3**7 = 2187 -> -117 */
  ASSERT_VALUES (w, 0, -128, -117);
}

static void
test_pow_int_bad_exponent (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = ints_as (GNN_DTYPE_I32, (gint64[]) { 2 }, 1, (gint64[]) { 1 }, 1);

  g_assert_null (gnn_tensor_pow (a, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Integers to negative integer powers are not allowed.");
  g_clear_error (&error);
  {
    /* torch: int ** 2.5 is float32 */
    g_autoptr(GnnTensor) f = gnn_tensor_pow (a, 0.5, &error);

    g_assert_no_error (error);
    g_assert_cmpint (gnn_tensor_get_dtype (f), ==, GNN_DTYPE_F32);
    ASSERT_VALUES (f, 1e-6, G_SQRT2);
  }
}

/* --- unary --------------------------------------------------------------- */

/* torch.relu keeps NaN and -0.0. */
static void
test_relu_float (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { -2, -0.0f, 0.5f, NAN, 3 }, 5, (gint64[]) { 5 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_relu (a, NULL);
  g_autofree float *v = gnn_tensor_to_floats (c, NULL);

  ASSERT_VALUES (c, 0, 0, 0, 0.5, NAN, 3);
  g_assert_true (signbit (v[1]));
}

static void
test_relu_int (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (int_dtypes); k++)
    {
      GnnDType dt = int_dtypes[k];
      gint64 first = dt == GNN_DTYPE_U8 ? 253 : -3;    /* unsigned: nothing to clip */
      g_autoptr(GnnTensor) a = ints_as (dt, (gint64[]) { first, 0, 4 }, 3, (gint64[]) { 3 }, 1);
      g_autoptr(GnnTensor) c = gnn_tensor_relu (a, NULL);

      g_assert_cmpint (gnn_tensor_get_dtype (c), ==, dt);
      ASSERT_VALUES (c, 0, dt == GNN_DTYPE_U8 ? 253 : 0, 0, 4);
    }
}

static void
test_relu_transposed (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { -1, 2, -3, 4, -5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) at = gnn_tensor_transpose (a, 0, 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_relu (at, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 3, 2 }, 2);
  ASSERT_VALUES (c, 0, 0, 4, 2, 0, 0, 6);
}

static void
test_relu_inplace_view (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = floats ((float[]) { -1, 2, -3, 4, -5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) first_cols = gnn_tensor_narrow (a, 1, 0, 2, NULL);

  g_assert_true (gnn_tensor_relu_ (first_cols, &error));
  g_assert_no_error (error);
  ASSERT_VALUES (a, 0, 0, 2, -3, 4, 0, 6);
  g_assert_true (gnn_tensor_relu_ (a, &error));
  ASSERT_VALUES (a, 0, 0, 2, 0, 4, 0, 6);
}

static const float act_in[] = { -3, -1, -0.5f, 0, 0.5f, 1, 3 };

/* Reference: torch.nn.functional.gelu (float32, approximate='none'). torch's
 * own float32 kernel is off by ~2e-7 at x = -3, so the tolerance is 1e-6. */
static void
test_gelu_values (void)
{
  g_autoptr(GnnTensor) a = floats (act_in, 7, (gint64[]) { 7 }, 1);
  g_autoptr(GnnTensor) a64 = gnn_tensor_to_dtype (a, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_gelu (a, NULL);
  g_autoptr(GnnTensor) c64 = gnn_tensor_gelu (a64, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F32);
  ASSERT_VALUES (c, 1e-6, -0.004049867, -0.158655286, -0.154268786, 0,
                 0.345731199, 0.841344714, 2.995950222);
  /* float64 torch: [-0.00404969409, -0.158655254, -0.154268769, 0, ...] */
  g_assert_cmpint (gnn_tensor_get_dtype (c64), ==, GNN_DTYPE_F64);
  ASSERT_VALUES (c64, 1e-9, -0.0040496940, -0.1586552539, -0.1542687694, 0,
                 0.3457312306, 0.8413447461, 2.9959503060);
}

static void
test_tanh_values (void)
{
  g_autoptr(GnnTensor) a = floats (act_in, 7, (gint64[]) { 7 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_tanh (a, NULL);

  ASSERT_VALUES (c, 1e-7, -0.995054781, -0.761594176, -0.462117165, 0,
                 0.462117165, 0.761594176, 0.995054781);
}

static void
test_sigmoid_values (void)
{
  g_autoptr(GnnTensor) a = floats (act_in, 7, (gint64[]) { 7 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_sigmoid (a, NULL);
  g_autoptr(GnnTensor) big = floats ((float[]) { -100, 100, -89 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) d = gnn_tensor_sigmoid (big, NULL);

  ASSERT_VALUES (c, 1e-7, 0.047425874, 0.268941432, 0.377540678, 0.5,
                 0.622459352, 0.731058598, 0.952574134);
  /* torch: [0., 1., 0.] without NaN from exp overflow */
  ASSERT_VALUES (d, 1e-30, 0, 1, 0);
}

static void
test_exp_log_sqrt_values (void)
{
  g_autoptr(GnnTensor) a = floats (act_in, 7, (gint64[]) { 7 }, 1);
  g_autoptr(GnnTensor) e = gnn_tensor_exp (a, NULL);
  g_autoptr(GnnTensor) p = floats ((float[]) { 1, G_E, 0, -1, 4 }, 5, (gint64[]) { 5 }, 1);
  g_autoptr(GnnTensor) l = gnn_tensor_log (p, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_sqrt (p, NULL);

  ASSERT_VALUES (e, 1e-5, 0.049787067, 0.367879450, 0.606530666, 1,
                 1.648721218, 2.718281746, 20.085536957);
  ASSERT_VALUES (l, 1e-6, 0, 1, -INFINITY, NAN, 1.386294365);
  ASSERT_VALUES (s, 1e-6, 1, 1.648721218, 0, NAN, 2);
}

static void
test_neg_abs (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { -1.5f, 0, 2 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) n = gnn_tensor_neg (a, NULL);
  g_autoptr(GnnTensor) ab = gnn_tensor_abs (a, NULL);
  g_autoptr(GnnTensor) i8 = ints_as (GNN_DTYPE_I8, (gint64[]) { -128, -5, 7 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) i8abs = gnn_tensor_abs (i8, NULL);
  g_autoptr(GnnTensor) i8neg = gnn_tensor_neg (i8, NULL);
  g_autoptr(GnnTensor) u8 = ints_as (GNN_DTYPE_U8, (gint64[]) { 3, 0 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) u8neg = gnn_tensor_neg (u8, NULL);

  ASSERT_VALUES (n, 0, 1.5, 0, -2);
  ASSERT_VALUES (ab, 0, 1.5, 0, 2);
  /* torch: abs(int8 -128) = -128, -(uint8 3) = 253 */
  ASSERT_VALUES (i8abs, 0, -128, 5, 7);
  ASSERT_VALUES (i8neg, 0, -128, 5, -7);
  ASSERT_VALUES (u8neg, 0, 253, 0);
}

/* torch computes the float functions of integer tensors in float32, and
 * has no gelu for them. */
static void
test_unary_float_functions_of_int (void)
{
  GnnTensor *(*ops[]) (GnnTensor *, GError **) = {
    gnn_tensor_tanh, gnn_tensor_sigmoid, gnn_tensor_exp, gnn_tensor_log, gnn_tensor_sqrt,
  };
  const double want[] = { tanh (2), 1 / (1 + exp (-2)), exp (2), log (2), G_SQRT2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = ints_as (GNN_DTYPE_I32, (gint64[]) { 2 }, 1, (gint64[]) { 1 }, 1);

  for (gsize k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      g_autoptr(GnnTensor) c = ops[k] (a, &error);

      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F32);
      ASSERT_VALUES (c, 1e-6, want[k]);
    }
  g_assert_null (gnn_tensor_gelu (a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "\"gelu_cpu\" not implemented for 'Int'");
}

/* --- comparisons and where ----------------------------------------------- */

static void
test_compare_values (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, NAN }, 4, (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) b = floats ((float[]) { 2, 2, 2, NAN }, 4, (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) eq = gnn_tensor_eq (a, b, NULL);
  g_autoptr(GnnTensor) ne = gnn_tensor_ne (a, b, NULL);
  g_autoptr(GnnTensor) lt = gnn_tensor_lt (a, b, NULL);
  g_autoptr(GnnTensor) le = gnn_tensor_le (a, b, NULL);
  g_autoptr(GnnTensor) gt = gnn_tensor_gt (a, b, NULL);
  g_autoptr(GnnTensor) ge = gnn_tensor_ge (a, b, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (eq), ==, GNN_DTYPE_BOOL);
  ASSERT_VALUES (eq, 0, 0, 1, 0, 0);
  ASSERT_VALUES (ne, 0, 1, 0, 1, 1);
  ASSERT_VALUES (lt, 0, 1, 0, 0, 0);
  ASSERT_VALUES (le, 0, 1, 1, 0, 0);
  ASSERT_VALUES (gt, 0, 0, 0, 1, 0);
  ASSERT_VALUES (ge, 0, 0, 1, 1, 0);
}

static void
test_compare_broadcast (void)
{
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) col = floats ((float[]) { 2, 5 }, 2, (gint64[]) { 2, 1 }, 2);
  g_autoptr(GnnTensor) at = gnn_tensor_transpose (a, 0, 1, NULL);
  g_autoptr(GnnTensor) row = floats ((float[]) { 2, 5 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) c = gnn_tensor_ge (a, col, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_lt (at, row, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  ASSERT_VALUES (c, 0, 0, 1, 1, 0, 1, 1);
  /* at = [[1, 4], [2, 5], [3, 6]] < [2, 5] */
  gnn_test_assert_shape (d, (gint64[]) { 3, 2 }, 2);
  ASSERT_VALUES (d, 0, 1, 1, 0, 0, 0, 0);
}

static void
test_compare_each_dtype (void)
{
  GnnDType dtypes[G_N_ELEMENTS (numeric_dtypes) + 1];

  memcpy (dtypes, numeric_dtypes, sizeof numeric_dtypes);
  dtypes[G_N_ELEMENTS (numeric_dtypes)] = GNN_DTYPE_BOOL;
  for (gsize k = 0; k < G_N_ELEMENTS (dtypes); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = ints_as (dtypes[k], (gint64[]) { 0, 1, 1 }, 3, (gint64[]) { 3 }, 1);
      g_autoptr(GnnTensor) b = ints_as (dtypes[k], (gint64[]) { 1, 1, 0 }, 3, (gint64[]) { 3 }, 1);
      g_autoptr(GnnTensor) lt = gnn_tensor_lt (a, b, &error);
      g_autoptr(GnnTensor) eq = gnn_tensor_eq (a, b, &error);

      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (lt), ==, GNN_DTYPE_BOOL);
      ASSERT_VALUES (lt, 0, 1, 0, 0);
      ASSERT_VALUES (eq, 0, 0, 1, 0);
    }
}

/* Comparisons promote: float32 == float64 compares in float64; shapes
 * must broadcast. */
static void
test_compare_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) b = gnn_tensor_to_dtype (a, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) c = floats ((float[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) eq = gnn_tensor_eq (a, b, &error);

  g_assert_no_error (error);
  ASSERT_VALUES (eq, 0, 1, 1, 1);
  g_assert_null (gnn_tensor_gt (a, c, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "tensor a (3)"));
  g_assert_nonnull (strstr (error->message, "tensor b (2)"));
}

static void
test_where_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) cond = ints_as (GNN_DTYPE_BOOL, (gint64[]) { 1, 0, 0, 1 }, 4,
                                       (gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2, 3, 4 }, 4, (gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) b = floats ((float[]) { -1, -2, -3, -4 }, 4, (gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_where (cond, a, b, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F32);
  ASSERT_VALUES (c, 0, 1, -2, -3, 4);
}

/* condition [2, 1], a [3], b 0-d -> [2, 3] */
static void
test_where_broadcast (void)
{
  g_autoptr(GnnTensor) cond = ints_as (GNN_DTYPE_BOOL, (gint64[]) { 1, 0 }, 2,
                                       (gint64[]) { 2, 1 }, 2);
  g_autoptr(GnnTensor) a = ints_as (GNN_DTYPE_I64, (gint64[]) { 1, 2, 3 }, 3, (gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) b = ints_as (GNN_DTYPE_I64, (gint64[]) { 9 }, 1, NULL, 0);
  g_autoptr(GnnTensor) c = gnn_tensor_where (cond, a, b, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_I64);
  ASSERT_VALUES (c, 0, 1, 2, 3, 9, 9, 9);
}

static void
test_where_from_comparison (void)
{
  g_autoptr(GnnTensor) x = floats ((float[]) { -1, 2, -3, 4 }, 4, (gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) xt = gnn_tensor_transpose (x, 0, 1, NULL);
  g_autoptr(GnnTensor) zero = gnn_tensor_new_scalar (0, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) pos = gnn_tensor_gt (xt, zero, NULL);
  g_autoptr(GnnTensor) r = gnn_tensor_where (pos, xt, zero, NULL);
  g_autoptr(GnnTensor) relu = gnn_tensor_relu (xt, NULL);

  g_assert_true (gnn_tensor_equal (r, relu));
}

static void
test_where_half_dtypes (void)
{
  g_autoptr(GnnTensor) cond = ints_as (GNN_DTYPE_BOOL, (gint64[]) { 0, 1 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) a = floats_as (GNN_DTYPE_F16, (float[]) { 1.5f, 2.5f }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) b = floats_as (GNN_DTYPE_F16, (float[]) { -1, -2 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_where (cond, a, b, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F16);
  ASSERT_VALUES (c, 0, -1, 2.5);
}

static void
test_where_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) fcond = floats ((float[]) { 1, 0 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) cond = ints_as (GNN_DTYPE_BOOL, (gint64[]) { 1, 0 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) a = floats ((float[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) b = ints_as (GNN_DTYPE_I64, (gint64[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) c3 = floats ((float[]) { 1, 2, 3 }, 3, (gint64[]) { 3 }, 1);

  g_assert_null (gnn_tensor_where (fcond, a, a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==,
                   "where expected condition to be a boolean tensor, but got a tensor "
                   "with dtype Float");
  g_clear_error (&error);

  {
    /* a float32 and an int64 operand promote to float32 */
    g_autoptr(GnnTensor) w = gnn_tensor_where (cond, a, b, &error);

    g_assert_no_error (error);
    g_assert_cmpint (gnn_tensor_get_dtype (w), ==, GNN_DTYPE_F32);
    ASSERT_VALUES (w, 0, 1, 2);
  }

  g_assert_null (gnn_tensor_where (cond, a, c3, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "(2)"));
  g_assert_nonnull (strstr (error->message, "(3)"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor/add/same-shape", test_add_same_shape);
  g_test_add_func ("/tensor/add/long-contiguous", test_add_long_contiguous);
  g_test_add_func ("/tensor/add/broadcast-row", test_add_broadcast_row);
  g_test_add_func ("/tensor/sub/broadcast-column", test_add_broadcast_column);
  g_test_add_func ("/tensor/mul/broadcast-outer", test_add_broadcast_outer);
  g_test_add_func ("/tensor/add/broadcast-scalar-shaped", test_add_broadcast_scalar_shaped);
  g_test_add_func ("/tensor/add/broadcast-leading-dims", test_add_broadcast_leading_dims);
  g_test_add_func ("/tensor/add/transposed-inputs", test_add_transposed_inputs);
  g_test_add_func ("/tensor/add/empty", test_add_empty);
  g_test_add_func ("/tensor/arith/each-dtype", test_add_each_dtype);
  g_test_add_func ("/tensor/add/float64-precision", test_add_float64_precision);
  g_test_add_func ("/tensor/arith/integer-wraps", test_add_integer_wraps);
  g_test_add_func ("/tensor/div/float-ieee", test_div_float_ieee);
  g_test_add_func ("/tensor/div/int-rounding-modes", test_div_int_rounding_modes);
  g_test_add_func ("/tensor/div/float-rounding-modes", test_div_float_rounding_modes);
  g_test_add_func ("/tensor/div/int-by-zero-fails", test_div_int_by_zero_fails);
  g_test_add_func ("/tensor/div/int-min-by-minus-one", test_div_int_min_by_minus_one);
  g_test_add_func ("/tensor/arith/promotes-dtypes", test_binary_promotes_dtypes);
  g_test_add_func ("/tensor/arith/shape-mismatch", test_binary_shape_mismatch);
  g_test_add_func ("/tensor/pointwise/half-dtypes", test_binary_half_dtypes);
  g_test_add_func ("/tensor/arith/bool", test_binary_bool);

  g_test_add_func ("/tensor/inplace/contiguous", test_inplace_contiguous);
  g_test_add_func ("/tensor/inplace/broadcast-other", test_inplace_broadcast_other);
  g_test_add_func ("/tensor/inplace/into-transposed-view", test_inplace_into_transposed_view);
  g_test_add_func ("/tensor/inplace/into-narrowed-view", test_inplace_into_narrowed_view);
  g_test_add_func ("/tensor/inplace/shape-mismatch", test_inplace_shape_mismatch);
  g_test_add_func ("/tensor/inplace/alias-self", test_inplace_alias_self);
  g_test_add_func ("/tensor/inplace/alias-overlapping", test_inplace_alias_overlapping);
  g_test_add_func ("/tensor/inplace/alias-transposed", test_inplace_alias_transposed);
  g_test_add_func ("/tensor/inplace/alias-broadcast-row", test_inplace_alias_broadcast_row);
  g_test_add_func ("/tensor/inplace/expanded-self-fails", test_inplace_expanded_self_fails);
  g_test_add_func ("/tensor/inplace/each-dtype", test_inplace_each_dtype);

  g_test_add_func ("/tensor/scalar/values", test_add_scalar_values);
  g_test_add_func ("/tensor/scalar/each-dtype", test_scalar_each_dtype);
  g_test_add_func ("/tensor/scalar/integer-wraps", test_scalar_integer_wraps);
  g_test_add_func ("/tensor/scalar/non-integral-on-int-fails", test_scalar_non_integral_on_int_fails);
  g_test_add_func ("/tensor/pow/float", test_pow_float);
  g_test_add_func ("/tensor/pow/zero-exponent", test_pow_zero_exponent);
  g_test_add_func ("/tensor/pow/int", test_pow_int);
  g_test_add_func ("/tensor/pow/int-bad-exponent", test_pow_int_bad_exponent);

  g_test_add_func ("/tensor/relu/float", test_relu_float);
  g_test_add_func ("/tensor/relu/int", test_relu_int);
  g_test_add_func ("/tensor/relu/transposed", test_relu_transposed);
  g_test_add_func ("/tensor/relu_/into-view", test_relu_inplace_view);
  g_test_add_func ("/tensor/gelu/values", test_gelu_values);
  g_test_add_func ("/tensor/tanh/values", test_tanh_values);
  g_test_add_func ("/tensor/sigmoid/values", test_sigmoid_values);
  g_test_add_func ("/tensor/exp-log-sqrt/values", test_exp_log_sqrt_values);
  g_test_add_func ("/tensor/neg-abs/values", test_neg_abs);
  g_test_add_func ("/tensor/unary/float-functions-of-int", test_unary_float_functions_of_int);

  g_test_add_func ("/tensor/compare/values", test_compare_values);
  g_test_add_func ("/tensor/compare/broadcast", test_compare_broadcast);
  g_test_add_func ("/tensor/compare/each-dtype", test_compare_each_dtype);
  g_test_add_func ("/tensor/compare/errors", test_compare_errors);
  g_test_add_func ("/tensor/where/values", test_where_values);
  g_test_add_func ("/tensor/where/broadcast", test_where_broadcast);
  g_test_add_func ("/tensor/where/from-comparison", test_where_from_comparison);
  g_test_add_func ("/tensor/where/half-dtypes", test_where_half_dtypes);
  g_test_add_func ("/tensor/where/errors", test_where_errors);

  return g_test_run ();
}
