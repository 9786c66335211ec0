/* test-autograd-math.c: gradient checks of the promoted binary ops, the
 * unary math functions and the fused pointwise ops (clamp, lerp, addcmul,
 * addcdiv, masked_fill), their in-place forms, and the gradient dtype of
 * promoted operands.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

#define E error

static GnnTensor *
num (double v)
{
  return gnn_tensor_new_wrapped_number (v);
}

/* in place on a copy: clone, op_, return the copy */
#define INPLACE(name, call)                                                     \
static GnnTensor *                                                              \
name (GnnTensor **in, GError **E)                                               \
{                                                                               \
  GnnTensor *t = gnn_tensor_clone (in[0]);                                      \
  if (!(call))                                                                  \
    g_clear_object (&t);                                                        \
  return t;                                                                     \
}

static GnnTensor *b_add_alpha (GnnTensor **in, GError **E) { return gnn_tensor_add_alpha (in[0], in[1], -2.5, E); }
static GnnTensor *b_sub_alpha (GnnTensor **in, GError **E) { return gnn_tensor_sub_alpha (in[0], in[1], 3, E); }
static GnnTensor *b_remainder (GnnTensor **in, GError **E) { return gnn_tensor_remainder (in[0], in[1], E); }
static GnnTensor *b_fmod (GnnTensor **in, GError **E) { return gnn_tensor_fmod (in[0], in[1], E); }
static GnnTensor *b_pow_tensor (GnnTensor **in, GError **E) { return gnn_tensor_pow_tensor (in[0], in[1], E); }
static GnnTensor *
b_pow_base (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) base = num (2.5);

  return gnn_tensor_pow_tensor (base, in[0], E);
}
static GnnTensor *b_atan2 (GnnTensor **in, GError **E) { return gnn_tensor_atan2 (in[0], in[1], E); }
static GnnTensor *b_maximum (GnnTensor **in, GError **E) { return gnn_tensor_maximum (in[0], in[1], E); }
static GnnTensor *b_minimum (GnnTensor **in, GError **E) { return gnn_tensor_minimum (in[0], in[1], E); }
static GnnTensor *
b_clamp_numbers (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) lo = num (-0.3);
  g_autoptr(GnnTensor) hi = num (0.4);

  return gnn_tensor_clamp (in[0], lo, hi, E);
}
static GnnTensor *b_clamp_tensors (GnnTensor **in, GError **E) { return gnn_tensor_clamp (in[0], in[1], in[2], E); }
static GnnTensor *b_clamp_min (GnnTensor **in, GError **E) { return gnn_tensor_clamp (in[0], in[1], NULL, E); }
static GnnTensor *
b_lerp_number (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) w = num (0.3);

  return gnn_tensor_lerp (in[0], in[1], w, E);
}
static GnnTensor *b_lerp_tensor (GnnTensor **in, GError **E) { return gnn_tensor_lerp (in[0], in[1], in[2], E); }
static GnnTensor *b_addcmul (GnnTensor **in, GError **E) { return gnn_tensor_addcmul (in[0], in[1], in[2], 0.5, E); }
static GnnTensor *b_addcdiv (GnnTensor **in, GError **E) { return gnn_tensor_addcdiv (in[0], in[1], in[2], -2, E); }
static GnnTensor *
b_masked_fill (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) zero = num (0);
  g_autoptr(GnnTensor) mask = gnn_tensor_gt (in[0], zero, E);

  return gnn_tensor_masked_fill (in[0], mask, in[1], E);
}
static GnnTensor *b_sin (GnnTensor **in, GError **E) { return gnn_tensor_sin (in[0], E); }
static GnnTensor *b_cos (GnnTensor **in, GError **E) { return gnn_tensor_cos (in[0], E); }
static GnnTensor *b_tan (GnnTensor **in, GError **E) { return gnn_tensor_tan (in[0], E); }
static GnnTensor *b_asin (GnnTensor **in, GError **E) { return gnn_tensor_asin (in[0], E); }
static GnnTensor *b_acos (GnnTensor **in, GError **E) { return gnn_tensor_acos (in[0], E); }
static GnnTensor *b_atan (GnnTensor **in, GError **E) { return gnn_tensor_atan (in[0], E); }
static GnnTensor *b_sinh (GnnTensor **in, GError **E) { return gnn_tensor_sinh (in[0], E); }
static GnnTensor *b_cosh (GnnTensor **in, GError **E) { return gnn_tensor_cosh (in[0], E); }
static GnnTensor *b_asinh (GnnTensor **in, GError **E) { return gnn_tensor_asinh (in[0], E); }
static GnnTensor *b_acosh (GnnTensor **in, GError **E) { return gnn_tensor_acosh (in[0], E); }
static GnnTensor *b_atanh (GnnTensor **in, GError **E) { return gnn_tensor_atanh (in[0], E); }
static GnnTensor *b_log2 (GnnTensor **in, GError **E) { return gnn_tensor_log2 (in[0], E); }
static GnnTensor *b_log10 (GnnTensor **in, GError **E) { return gnn_tensor_log10 (in[0], E); }
static GnnTensor *b_log1p (GnnTensor **in, GError **E) { return gnn_tensor_log1p (in[0], E); }
static GnnTensor *b_expm1 (GnnTensor **in, GError **E) { return gnn_tensor_expm1 (in[0], E); }
static GnnTensor *b_exp2 (GnnTensor **in, GError **E) { return gnn_tensor_exp2 (in[0], E); }
static GnnTensor *b_rsqrt (GnnTensor **in, GError **E) { return gnn_tensor_rsqrt (in[0], E); }
static GnnTensor *b_reciprocal (GnnTensor **in, GError **E) { return gnn_tensor_reciprocal (in[0], E); }
static GnnTensor *b_erf (GnnTensor **in, GError **E) { return gnn_tensor_erf (in[0], E); }
static GnnTensor *b_frac (GnnTensor **in, GError **E) { return gnn_tensor_frac (in[0], E); }
static GnnTensor *b_square (GnnTensor **in, GError **E) { return gnn_tensor_square (in[0], E); }
INPLACE (b_sin_, gnn_tensor_sin_ (t, E))
INPLACE (b_exp_, gnn_tensor_exp_ (t, E))
INPLACE (b_pow_, gnn_tensor_pow_ (t, 3, E))
INPLACE (b_clamp_, gnn_tensor_clamp_ (t, in[1], NULL, E))
INPLACE (b_addcmul_, gnn_tensor_addcmul_ (t, in[1], in[1], 2, E))
INPLACE (b_add_alpha_, gnn_tensor_add_alpha_ (t, in[1], 0.5, E))
INPLACE (b_lerp_, gnn_tensor_lerp_ (t, in[1], in[2], E))
#undef E

static const Case cases[] = {
  { "add-alpha", b_add_alpha, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 0 } },
  { "sub-alpha", b_sub_alpha, 2, { { 3 }, { 2, 3 } }, { 1, 2 }, { 0, 0 } },
  { "remainder", b_remainder, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 3 } },
  { "fmod", b_fmod, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 3 } },
  { "pow-tensor", b_pow_tensor, 2, { { 2, 3 }, { 2, 1 } }, { 2, 2 }, { 2, 0 } },
  { "pow-number-base", b_pow_base, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "atan2", b_atan2, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 0 } },
  { "maximum", b_maximum, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 0 } },
  { "minimum", b_minimum, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 0 } },
  { "clamp/numbers", b_clamp_numbers, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "clamp/tensors", b_clamp_tensors, 3, { { 3, 4 }, { 4 }, { 3, 1 } }, { 2, 1, 2 }, { 0, -0.5, 0.5 } },
  { "clamp/min", b_clamp_min, 2, { { 3, 4 }, { 4 } }, { 2, 1 }, { 0, 0 } },
  { "lerp/number", b_lerp_number, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 0 } },
  { "lerp/tensor", b_lerp_tensor, 3, { { 2, 3 }, { 2, 3 }, { 3 } }, { 2, 2, 1 }, { 0, 0, 0 } },
  { "addcmul", b_addcmul, 3, { { 2, 3 }, { 3 }, { 2, 1 } }, { 2, 1, 2 }, { 0, 0, 0 } },
  { "addcdiv", b_addcdiv, 3, { { 2, 3 }, { 2, 3 }, { 3 } }, { 2, 2, 1 }, { 0, 0, 3 } },
  { "masked-fill", b_masked_fill, 2, { { 3, 4 }, { } }, { 2, 0 }, { 0, 0 } },
  { "sin", b_sin, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "cos", b_cos, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "tan", b_tan, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "asin", b_asin, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "acos", b_acos, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "atan", b_atan, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "sinh", b_sinh, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "cosh", b_cosh, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "asinh", b_asinh, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "acosh", b_acosh, 1, { { 3, 4 } }, { 2 }, { 2.5 } },
  { "atanh", b_atanh, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "log2", b_log2, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "log10", b_log10, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "log1p", b_log1p, 1, { { 3, 4 } }, { 2 }, { 1 } },
  { "expm1", b_expm1, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "exp2", b_exp2, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "rsqrt", b_rsqrt, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "reciprocal", b_reciprocal, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "erf", b_erf, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "frac", b_frac, 1, { { 3, 4 } }, { 2 }, { 0.5 } },
  { "square", b_square, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "inplace/sin_", b_sin_, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "inplace/exp_", b_exp_, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "inplace/pow_", b_pow_, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "inplace/clamp_", b_clamp_, 2, { { 3, 4 }, { 4 } }, { 2, 1 }, { 0, 0 } },
  { "inplace/addcmul_", b_addcmul_, 2, { { 3, 4 }, { 4 } }, { 2, 1 }, { 0, 0 } },
  { "inplace/add_alpha_", b_add_alpha_, 2, { { 3, 4 }, { 3, 4 } }, { 2, 2 }, { 0, 0 } },
  { "inplace/lerp_", b_lerp_, 3, { { 3, 4 }, { 4 }, { 3, 4 } }, { 2, 1, 2 }, { 0, 0, 0 } },
};

/* Piecewise-constant ops have zero gradients (torch's FloorBackward0 ...). */
static void
test_rounding_zero_gradients (void)
{
  GnnTensor *(*ops[]) (GnnTensor *, GError **) = {
    gnn_tensor_floor, gnn_tensor_ceil, gnn_tensor_round, gnn_tensor_trunc, gnn_tensor_sign,
  };
  const char *names[] = { "FloorBackward0", "CeilBackward0", "RoundBackward0",
                          "TruncBackward0", "SignBackward0" };

  for (gsize k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = randn (SHAPE (2, 3), 0);
      g_autoptr(GnnTensor) y = ops[k] (x, &error);
      g_autoptr(GnnTensor) s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
      g_autofree double *g = NULL;

      g_assert_no_error (error);
      g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, names[k]);
      g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
      g = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), NULL);
      for (guint i = 0; i < 6; i++)
        g_assert_cmpfloat (g[i], ==, 0.0);
    }
}

/* A float32 leaf added to a float64 tensor gets a float32 gradient. */
static void
test_promoted_operand_gradient_dtype (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_ones (SHAPE (3), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_ones (SHAPE (3), GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) three = gnn_tensor_new_wrapped_number (3.0);
  g_autoptr(GnnTensor) p = NULL;
  g_autoptr(GnnTensor) z = NULL;
  g_autoptr(GnnTensor) s = NULL;
  GnnTensor *g;

  gnn_tensor_set_requires_grad (x, TRUE);
  p = gnn_tensor_mul (x, three, &error);
  z = gnn_tensor_add (p, y, &error);
  s = gnn_tensor_sum (z, NULL, 0, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (p), ==, GNN_DTYPE_F32);
  g_assert_cmpint (gnn_tensor_get_dtype (z), ==, GNN_DTYPE_F64);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (p), ==, "MulBackward0");
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  g = gnn_tensor_get_grad (x);
  g_assert_cmpint (gnn_tensor_get_dtype (g), ==, GNN_DTYPE_F32);
  gnn_test_assert_values (g, (double[]) { 3, 3, 3 }, 3, 0);
}

/* x * 2 saves only the number: a later in-place op on x is fine (torch). */
static void
test_mul_by_number_saves_no_input (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) leaf = randn (SHAPE (3), 0);
  g_autoptr(GnnTensor) x = gnn_tensor_mul (leaf, leaf, &error);
  g_autoptr(GnnTensor) two = num (2);
  g_autoptr(GnnTensor) y = gnn_tensor_mul (x, two, &error);
  g_autoptr(GnnTensor) one = num (1);
  g_autoptr(GnnTensor) s = NULL;

  g_assert_no_error (error);
  g_assert_true (gnn_tensor_add_ (x, one, &error));
  g_assert_no_error (error);
  s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
}

/* torch's node names for the number forms. */
static void
test_node_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(GnnTensor) two = num (2);
  g_autoptr(GnnTensor) r0 = gnn_tensor_remainder (x, two, &error);
  g_autoptr(GnnTensor) r1 = gnn_tensor_remainder (x, x, &error);
  g_autoptr(GnnTensor) p0 = gnn_tensor_pow_tensor (x, two, &error);
  g_autoptr(GnnTensor) p1 = gnn_tensor_pow_tensor (two, x, &error);
  g_autoptr(GnnTensor) c1 = gnn_tensor_clamp (x, two, NULL, &error);
  g_autoptr(GnnTensor) c0 = gnn_tensor_clamp (x, x, NULL, &error);
  g_autoptr(GnnTensor) d = gnn_tensor_div_mode (x, two, GNN_ROUNDING_MODE_FLOOR, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (r0), ==, "RemainderBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (r1), ==, "RemainderBackward1");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (p0), ==, "PowBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (p1), ==, "PowBackward1");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (c1), ==, "ClampBackward1");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (c0), ==, "ClampBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (d), ==, "DivBackward2");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/autograd/gradcheck/%s", cases[i].path);

      g_test_add_data_func (path, &cases[i], test_gradcheck);
    }
  g_test_add_func ("/autograd/math/rounding-zero-gradients", test_rounding_zero_gradients);
  g_test_add_func ("/autograd/math/promoted-operand-gradient-dtype",
                   test_promoted_operand_gradient_dtype);
  g_test_add_func ("/autograd/math/mul-by-number-saves-no-input", test_mul_by_number_saves_no_input);
  g_test_add_func ("/autograd/math/node-names", test_node_names);
  return g_test_run ();
}
