/* gnn_tensor_to_string() against PyTorch 1.13's repr(): the expected texts
 * were produced by torch 1.13 (repr of the same tensor) and pasted here. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

/* Checks the text of @t (taking ownership of @t) against @expected. */
static void
assert_repr (GnnTensor  *t,
             const char *expected)
{
  g_autoptr(GnnTensor) owned = t;
  g_autofree char *s = NULL;

  g_assert_nonnull (owned);
  s = gnn_tensor_to_string (owned);
  g_assert_cmpstr (s, ==, expected);
}

static GnnTensor *
from_doubles (const double *v,
              gsize         n,
              const gint64 *shape,
              guint         ndim,
              GnnDType      dtype)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_doubles (v, n, shape, ndim, &error);
  GnnTensor *out;

  g_assert_no_error (error);
  out = gnn_tensor_to_dtype (t, dtype, &error);
  g_assert_no_error (error);
  return out;
}

static GnnTensor *
from_int64s (const gint64 *v,
             gsize         n,
             const gint64 *shape,
             guint         ndim,
             GnnDType      dtype)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (v, n, shape, ndim, &error);
  GnnTensor *out;

  g_assert_no_error (error);
  out = gnn_tensor_to_dtype (t, dtype, &error);
  g_assert_no_error (error);
  return out;
}

/* arange(start, end) of @dtype viewed as @shape. */
static GnnTensor *
arange_view (double        start,
             double        end,
             GnnDType      dtype,
             const gint64 *shape,
             guint         ndim)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_arange (start, end, 1.0, dtype, &error);
  GnnTensor *out;

  g_assert_no_error (error);
  if (shape == NULL)
    return g_steal_pointer (&t);
  out = gnn_tensor_view (t, shape, ndim, &error);
  g_assert_no_error (error);
  return out;
}

#define D(...) (const double[]) { __VA_ARGS__ }, G_N_ELEMENTS (((const double[]) { __VA_ARGS__ }))
#define I(...) (const gint64[]) { __VA_ARGS__ }, G_N_ELEMENTS (((const gint64[]) { __VA_ARGS__ }))
#define S(...) (const gint64[]) { __VA_ARGS__ }, G_N_ELEMENTS (((const gint64[]) { __VA_ARGS__ }))

static void
test_vector (void)
{
  assert_repr (from_doubles (D (1, 2, 3), S (3), GNN_DTYPE_F32),
               "tensor([1., 2., 3.])");
}

static void
test_matrix (void)
{
  assert_repr (from_doubles (D (1.5, -2.25, 3.125, 4), S (2, 2), GNN_DTYPE_F32),
               "tensor([[ 1.5000, -2.2500],\n"
               "        [ 3.1250,  4.0000]])");
}

static void
test_scalar (void)
{
  assert_repr (gnn_tensor_new_scalar (3.0, GNN_DTYPE_F32), "tensor(3.)");
}

static void
test_scalar_float64 (void)
{
  assert_repr (gnn_tensor_new_scalar (2.5, GNN_DTYPE_F64), "tensor(2.5000, dtype=torch.float64)");
}

static void
test_scalar_int64 (void)
{
  assert_repr (gnn_tensor_new_scalar (-7, GNN_DTYPE_I64), "tensor(-7)");
}

static void
test_scalar_bool (void)
{
  assert_repr (gnn_tensor_new_scalar (1, GNN_DTYPE_BOOL), "tensor(True)");
}

static void
test_empty (void)
{
  assert_repr (gnn_tensor_zeros ((gint64[]) { 0 }, 1, GNN_DTYPE_F32, NULL), "tensor([])");
}

static void
test_empty_size (void)
{
  assert_repr (gnn_tensor_zeros ((gint64[]) { 0, 3 }, 2, GNN_DTYPE_F32, NULL), "tensor([], size=(0, 3))");
}

static void
test_empty_int64 (void)
{
  assert_repr (gnn_tensor_zeros ((gint64[]) { 0 }, 1, GNN_DTYPE_I64, NULL), "tensor([], dtype=torch.int64)");
}

static void
test_empty_bool (void)
{
  assert_repr (gnn_tensor_zeros ((gint64[]) { 2, 0, 4 }, 3, GNN_DTYPE_BOOL, NULL),
               "tensor([], size=(2, 0, 4), dtype=torch.bool)");
}

static void
test_int64 (void)
{
  assert_repr (from_int64s (I (1, -20, 300), S (3), GNN_DTYPE_I64), "tensor([  1, -20, 300])");
}

static void
test_int64_huge (void)
{
  /* 2^62 is not exact through a double path; it must print exactly. */
  assert_repr (from_int64s (I (G_GINT64_CONSTANT (4611686018427387904), -5, 3), S (3),
                            GNN_DTYPE_I64),
               "tensor([4611686018427387904,                  -5,                   3])");
}

static void
test_int32 (void)
{
  assert_repr (from_int64s (I (1, 2, 3, 4), S (2, 2), GNN_DTYPE_I32), "tensor([[1, 2],\n"
                                                                      "        [3, 4]], dtype=torch.int32)");
}

static void
test_uint8 (void)
{
  assert_repr (from_int64s (I (0, 7, 255), S (3), GNN_DTYPE_U8), "tensor([  0,   7, 255], dtype=torch.uint8)");
}

static void
test_int8 (void)
{
  assert_repr (from_int64s (I (-128, 5, 127), S (3), GNN_DTYPE_I8), "tensor([-128,    5,  127], dtype=torch.int8)");
}

static void
test_bool (void)
{
  assert_repr (from_int64s (I (1, 0, 0, 1), S (2, 2), GNN_DTYPE_BOOL), "tensor([[ True, False],\n"
                                                                       "        [False,  True]])");
}

static void
test_sci_small (void)
{
  assert_repr (from_doubles (D (1e-5, 1.0, 3.5), S (3), GNN_DTYPE_F32), "tensor([1.0000e-05, 1.0000e+00, 3.5000e+00])");
}

static void
test_sci_large (void)
{
  assert_repr (from_doubles (D (1e9, 1.0), S (2), GNN_DTYPE_F32), "tensor([1.0000e+09, 1.0000e+00])");
}

static void
test_sci_int_ratio (void)
{
  assert_repr (from_doubles (D (1, 2000), S (2), GNN_DTYPE_F32), "tensor([1.0000e+00, 2.0000e+03])");
}

static void
test_nonfinite (void)
{
  assert_repr (from_doubles (D (NAN, INFINITY, -INFINITY, 1.5), S (4), GNN_DTYPE_F32),
               "tensor([   nan,    inf,   -inf, 1.5000])");
}

static void
test_nan_int_mode (void)
{
  assert_repr (from_doubles (D (NAN, 1, -2), S (3), GNN_DTYPE_F32), "tensor([nan,  1., -2.])");
}

static void
test_zeros (void)
{
  assert_repr (gnn_tensor_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL), "tensor([[0., 0., 0.],\n"
                                                                               "        [0., 0., 0.]])");
}

static void
test_negative_zero (void)
{
  assert_repr (from_doubles (D (-0.0, 1.5, 2), S (3), GNN_DTYPE_F32), "tensor([-0.0000, 1.5000, 2.0000])");
}

static void
test_line_wrap (void)
{
  assert_repr (arange_view (0, 100, GNN_DTYPE_F32, NULL, 0),
               "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
               "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
               "        28., 29., 30., 31., 32., 33., 34., 35., 36., 37., 38., 39., 40., 41.,\n"
               "        42., 43., 44., 45., 46., 47., 48., 49., 50., 51., 52., 53., 54., 55.,\n"
               "        56., 57., 58., 59., 60., 61., 62., 63., 64., 65., 66., 67., 68., 69.,\n"
               "        70., 71., 72., 73., 74., 75., 76., 77., 78., 79., 80., 81., 82., 83.,\n"
               "        84., 85., 86., 87., 88., 89., 90., 91., 92., 93., 94., 95., 96., 97.,\n"
               "        98., 99.])");
}

static void
test_line_wrap_rows (void)
{
  double v[30];

  for (int i = 0; i < 30; i++)
    v[i] = i * 0.37 - 5;
  assert_repr (from_doubles (v, 30, S (2, 15), GNN_DTYPE_F32),
               "tensor([[-5.0000, -4.6300, -4.2600, -3.8900, -3.5200, -3.1500, -2.7800, -2.4100,\n"
               "         -2.0400, -1.6700, -1.3000, -0.9300, -0.5600, -0.1900,  0.1800],\n"
               "        [ 0.5500,  0.9200,  1.2900,  1.6600,  2.0300,  2.4000,  2.7700,  3.1400,\n"
               "          3.5100,  3.8800,  4.2500,  4.6200,  4.9900,  5.3600,  5.7300]])");
}

static void
test_summarized (void)
{
  assert_repr (arange_view (0, 2000, GNN_DTYPE_F32, NULL, 0),
               "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
               "        1.9990e+03])");
}

static void
test_summarized_2d (void)
{
  assert_repr (arange_view (0, 2000, GNN_DTYPE_F32, S (40, 50)),
               "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n"
               "         4.9000e+01],\n"
               "        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,\n"
               "         9.9000e+01],\n"
               "        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,\n"
               "         1.4900e+02],\n"
               "        ...,\n"
               "        [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,\n"
               "         1.8990e+03],\n"
               "        [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,\n"
               "         1.9490e+03],\n"
               "        [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,\n"
               "         1.9990e+03]])");
}

static void
test_summarized_int64 (void)
{
  assert_repr (arange_view (0, 5000, GNN_DTYPE_I64, NULL, 0),
               "tensor([   0,    1,    2,  ..., 4997, 4998, 4999])");
}

static void
test_summarized_view (void)
{
  g_autoptr(GnnTensor) t = arange_view (0, 3003, GNN_DTYPE_F32, S (3, 1001));

  assert_repr (gnn_tensor_narrow (t, 1, 1, 1000, NULL),
               "tensor([[1.0000e+00, 2.0000e+00, 3.0000e+00,  ..., 9.9800e+02, 9.9900e+02,\n"
               "         1.0000e+03],\n"
               "        [1.0020e+03, 1.0030e+03, 1.0040e+03,  ..., 1.9990e+03, 2.0000e+03,\n"
               "         2.0010e+03],\n"
               "        [2.0030e+03, 2.0040e+03, 2.0050e+03,  ..., 3.0000e+03, 3.0010e+03,\n"
               "         3.0020e+03]])");
}

static void
test_3d (void)
{
  assert_repr (arange_view (-10, 14, GNN_DTYPE_F32, S (2, 3, 4)),
               "tensor([[[-10.,  -9.,  -8.,  -7.],\n"
               "         [ -6.,  -5.,  -4.,  -3.],\n"
               "         [ -2.,  -1.,   0.,   1.]],\n"
               "\n"
               "        [[  2.,   3.,   4.,   5.],\n"
               "         [  6.,   7.,   8.,   9.],\n"
               "         [ 10.,  11.,  12.,  13.]]])");
}

static void
test_4d (void)
{
  assert_repr (arange_view (0, 16, GNN_DTYPE_I64, S (2, 2, 2, 2)),
               "tensor([[[[ 0,  1],\n"
               "          [ 2,  3]],\n"
               "\n"
               "         [[ 4,  5],\n"
               "          [ 6,  7]]],\n"
               "\n"
               "\n"
               "        [[[ 8,  9],\n"
               "          [10, 11]],\n"
               "\n"
               "         [[12, 13],\n"
               "          [14, 15]]]])");
}

static void
test_transposed (void)
{
  g_autoptr(GnnTensor) t = arange_view (0, 6, GNN_DTYPE_F32, S (2, 3));

  assert_repr (gnn_tensor_transpose (t, 0, 1, NULL), "tensor([[0., 3.],\n"
                                                     "        [1., 4.],\n"
                                                     "        [2., 5.]])");
}

static void
test_expanded (void)
{
  g_autoptr(GnnTensor) t = arange_view (0, 3, GNN_DTYPE_F32, NULL, 0);

  assert_repr (gnn_tensor_expand (t, (gint64[]) { 4, 3 }, 2, NULL), "tensor([[0., 1., 2.],\n"
                                                                    "        [0., 1., 2.],\n"
                                                                    "        [0., 1., 2.],\n"
                                                                    "        [0., 1., 2.]])");
}

static void
test_float16 (void)
{
  assert_repr (from_doubles (D (0.1, 0.2, 65504), S (3), GNN_DTYPE_F16), "tensor([9.9976e-02, 1.9995e-01, 6.5504e+04], dtype=torch.float16)");
}

static void
test_bfloat16 (void)
{
  assert_repr (from_doubles (D (0.1, 1.5, -3), S (3), GNN_DTYPE_BF16), "tensor([ 0.1001,  1.5000, -3.0000], dtype=torch.bfloat16)");
}

static void
test_float64 (void)
{
  assert_repr (from_doubles (D (0.123456789, -12.5, 100.25), S (3), GNN_DTYPE_F64), "tensor([  0.1235, -12.5000, 100.2500], dtype=torch.float64)");
}

static void
test_requires_grad (void)
{
  GnnTensor *t = from_doubles (D (1, 2), S (2), GNN_DTYPE_F32);

  gnn_tensor_set_requires_grad (t, TRUE);
  assert_repr (t, "tensor([1., 2.], requires_grad=True)");
}

static void
test_requires_grad_suffix_wraps (void)
{
  GnnTensor *t = from_doubles (D (0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000), S (9),
                               GNN_DTYPE_F64);

  gnn_tensor_set_requires_grad (t, TRUE);
  assert_repr (t, "tensor([   0., 1000., 2000., 3000., 4000., 5000., 6000., 7000., 8000.],\n"
                  "       dtype=torch.float64, requires_grad=True)");
}

static void
test_parameter (void)
{
  g_autoptr(GnnTensor) t = from_doubles (D (0.5, -1, 2, 3.25), S (2, 2), GNN_DTYPE_F32);

  assert_repr (GNN_TENSOR (gnn_parameter_new (t, TRUE)), "Parameter containing:\n"
                                                         "tensor([[ 0.5000, -1.0000],\n"
                                                         "        [ 2.0000,  3.2500]], requires_grad=True)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor/format/vector", test_vector);
  g_test_add_func ("/tensor/format/matrix", test_matrix);
  g_test_add_func ("/tensor/format/scalar", test_scalar);
  g_test_add_func ("/tensor/format/scalar-float64", test_scalar_float64);
  g_test_add_func ("/tensor/format/scalar-int64", test_scalar_int64);
  g_test_add_func ("/tensor/format/scalar-bool", test_scalar_bool);
  g_test_add_func ("/tensor/format/empty", test_empty);
  g_test_add_func ("/tensor/format/empty-size", test_empty_size);
  g_test_add_func ("/tensor/format/empty-int64", test_empty_int64);
  g_test_add_func ("/tensor/format/empty-bool", test_empty_bool);
  g_test_add_func ("/tensor/format/int64", test_int64);
  g_test_add_func ("/tensor/format/int64-huge", test_int64_huge);
  g_test_add_func ("/tensor/format/int32", test_int32);
  g_test_add_func ("/tensor/format/uint8", test_uint8);
  g_test_add_func ("/tensor/format/int8", test_int8);
  g_test_add_func ("/tensor/format/bool", test_bool);
  g_test_add_func ("/tensor/format/sci-small", test_sci_small);
  g_test_add_func ("/tensor/format/sci-large", test_sci_large);
  g_test_add_func ("/tensor/format/sci-int-ratio", test_sci_int_ratio);
  g_test_add_func ("/tensor/format/nonfinite", test_nonfinite);
  g_test_add_func ("/tensor/format/nan-int-mode", test_nan_int_mode);
  g_test_add_func ("/tensor/format/zeros", test_zeros);
  g_test_add_func ("/tensor/format/negative-zero", test_negative_zero);
  g_test_add_func ("/tensor/format/line-wrap", test_line_wrap);
  g_test_add_func ("/tensor/format/line-wrap-rows", test_line_wrap_rows);
  g_test_add_func ("/tensor/format/summarized", test_summarized);
  g_test_add_func ("/tensor/format/summarized-2d", test_summarized_2d);
  g_test_add_func ("/tensor/format/summarized-int64", test_summarized_int64);
  g_test_add_func ("/tensor/format/summarized-view", test_summarized_view);
  g_test_add_func ("/tensor/format/3d", test_3d);
  g_test_add_func ("/tensor/format/4d", test_4d);
  g_test_add_func ("/tensor/format/transposed", test_transposed);
  g_test_add_func ("/tensor/format/expanded", test_expanded);
  g_test_add_func ("/tensor/format/float16", test_float16);
  g_test_add_func ("/tensor/format/bfloat16", test_bfloat16);
  g_test_add_func ("/tensor/format/float64", test_float64);
  g_test_add_func ("/tensor/format/requires-grad", test_requires_grad);
  g_test_add_func ("/tensor/format/requires-grad-suffix-wraps", test_requires_grad_suffix_wraps);
  g_test_add_func ("/tensor/format/parameter", test_parameter);

  return g_test_run ();
}
