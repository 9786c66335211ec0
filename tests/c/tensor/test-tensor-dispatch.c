/* Run-time CPU dispatch of the elementwise and reduction kernels
 * (gnn-cpu-private.h): each level this CPU has is forced with GNN_CPU_LEVEL
 * in a subprocess (the level is read once per process).
 *
 * Elementwise (and the derivative loops of relu/tanh/sigmoid/exp/abs
 * backward): every result must equal, bit for bit, the same C expression
 * evaluated here element by element — the AVX2/AVX-512 copies only widen
 * the loops, they never change the arithmetic. Contiguous, broadcast-scalar
 * and strided operands, lengths that are not a multiple of any vector width.
 * The counter-based uniform fill is checked the same way against its
 * scalar stream.
 *
 * Reductions (sum, mean, max, min, softmax, log_softmax over each dim of
 * a matrix, contiguous and transposed): each level's results are checked
 * against references (exact sums of dyadic values, expf softmax within
 * float tolerance) and written to a file; the last case asserts that every
 * level wrote the same bytes as the baseline. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

#define N 1037

static GnnTensor *
floats (GRand *rng, gint64 n, float **values)
{
  *values = g_new (float, n);
  for (gint64 i = 0; i < n; i++)
    (*values)[i] = (float) g_rand_double_range (rng, -4.0, 4.0);
  (*values)[0] = -0.0f;   /* relu and abs keep their sign rules */
  return gnn_tensor_new_from_floats (*values, n, (gint64[]) { n }, 1, NULL);
}

static void
assert_bits (GnnTensor *t, const float *want, gint64 n, const char *what)
{
  g_autofree float *got = NULL;
  gsize len = 0;

  got = gnn_tensor_to_floats (t, &len);
  g_assert_cmpuint (len, ==, (gsize) n);
  for (gint64 i = 0; i < n; i++)
    if (memcmp (&got[i], &want[i], sizeof (float)) != 0)
      g_error ("%s: element %" G_GINT64_FORMAT " is %a, expected %a", what, i, got[i], want[i]);
}

typedef GnnTensor *(*Binary) (GnnTensor *, GnnTensor *, GError **);
typedef GnnTensor *(*Unary) (GnnTensor *, GError **);

static float f_add (float x, float y) { return x + y; }
static float f_sub (float x, float y) { return x - y; }
static float f_mul (float x, float y) { return x * y; }
static float f_div (float x, float y) { return x / y; }
static float f_relu (float x) { return x < 0 ? 0.0f : x; }
static float f_neg (float x) { return -x; }
static float f_abs (float x) { return (float) fabs (x); }
static float f_exp (float x) { return expf (x); }
static float f_tanh (float x) { return tanhf (x); }

/* grad_in = grad_out * f'(v), as the generic backward computes it (double
 * product, rounded once); v is the op's input for relu and abs, its
 * output for tanh, sigmoid and exp. */
static double d_relu (double v) { return v > 0 ? 1.0 : 0.0; }
static double d_tanh (double v) { return 1.0 - v * v; }
static double d_sigmoid (double v) { return v * (1.0 - v); }
static double d_exp (double v) { return v; }
static double d_abs (double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; }

static void
check_backward (GRand *rng, const float *values)
{
  static const struct { const char *name; Unary op; double (*deriv) (double); gboolean on_out; } ops[] = {
    { "relu backward", gnn_tensor_relu, d_relu, FALSE },
    { "tanh backward", gnn_tensor_tanh, d_tanh, TRUE },
    { "sigmoid backward", gnn_tensor_sigmoid, d_sigmoid, TRUE },
    { "exp backward", gnn_tensor_exp, d_exp, TRUE },
    { "abs backward", gnn_tensor_abs, d_abs, FALSE },
  };
  g_autofree float *gv = NULL;
  g_autofree float *want = g_new (float, N);
  g_autoptr(GnnTensor) g = floats (rng, N, &gv);
  g_autofree float *av = g_memdup2 (values, N * sizeof (float));
  g_autoptr(GnnTensor) a = NULL;

  /* zeros of both signs where the gradient is not zero: the derivatives'
   * edge (relu and abs give 0 there) */
  av[5] = 0.0f, av[7] = -0.0f, gv[5] = 1.5f, gv[7] = -2.5f;
  a = gnn_tensor_new_from_floats (av, N, (gint64[]) { N }, 1, NULL);
  g_clear_object (&g);
  g = gnn_tensor_new_from_floats (gv, N, (gint64[]) { N }, 1, NULL);

  for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
    {
      g_autoptr(GnnTensor) x = gnn_tensor_clone (a);
      g_autoptr(GnnTensor) y = NULL;
      g_autofree float *yv = NULL;
      g_autoptr(GError) error = NULL;

      gnn_tensor_set_requires_grad (x, TRUE);
      y = ops[o].op (x, &error);
      g_assert_no_error (error);
      yv = gnn_tensor_to_floats (y, NULL);
      g_assert_true (gnn_tensor_backward (y, g, FALSE, &error));
      for (gint64 i = 0; i < N; i++)
        {
          double v = ops[o].on_out ? yv[i] : av[i];

          want[i] = (float) ((double) gv[i] * ops[o].deriv (v));
        }
      assert_bits (gnn_tensor_get_grad (x), want, N, ops[o].name);
    }
}

/* The counter-based uniform fill (gnn-random-fill.c): SplitMix64 of
 * key + (c + 1)·γ; float64 element k: c = k, the top 52 bits as the
 * mantissa of a double in [1, 2); float32 element k: c = k / 2, the low
 * (even k) or high (odd k) 32 bits as the mantissa's top. */
static guint64
splitmix (guint64 key, guint64 c)
{
  guint64 z = key + (c + 1) * 0x9e3779b97f4a7c15ull;

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double
unit_of (guint64 mantissa)
{
  guint64 bits = 0x3ff0000000000000ull | mantissa;
  double u;

  memcpy (&u, &bits, sizeof u);
  return u - 1.0;
}

static double
splitmix_unit (guint64 key, guint64 k)
{
  return unit_of (splitmix (key, k) >> 12);
}

static double
splitmix_unit_f32 (guint64 key, guint64 k)
{
  guint64 z = splitmix (key, k / 2);

  return unit_of ((k & 1 ? z >> 32 : z & 0xffffffffull) << 20);
}

/* Each level's fill equals the scalar stream bit for bit (float32 and
 * float64, packed and strided); the key is the generator's next draw. */
static void
check_uniform_fill (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (5);
  g_autoptr(GnnGenerator) keys = gnn_generator_new (5);
  g_autoptr(GnnTensor) f = gnn_tensor_zeros ((gint64[]) { N }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) wide = gnn_tensor_zeros ((gint64[]) { N, 2 }, 2, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) strided = gnn_tensor_select (wide, 1, 1, NULL);
  g_autofree float *got = NULL;
  gsize len = 0;
  guint64 key;
  const double a = -0.3, b = 0.7;

  g_assert_true (gnn_tensor_uniform_ (f, a, b, gen, NULL));
  key = gnn_generator_next_u64 (keys);
  got = gnn_tensor_to_floats (f, &len);
  g_assert_cmpuint (len, ==, N);
  for (gint64 k = 0; k < N; k++)
    {
      float want = (float) (a + (b - a) * splitmix_unit_f32 (key, (guint64) k));

      g_assert_cmpfloat (got[k], ==, want >= (float) b ? nextafterf ((float) b, -INFINITY) : want);
    }
  g_assert_true (gnn_tensor_uniform_ (strided, a, b, gen, NULL));
  key = gnn_generator_next_u64 (keys);
  for (gint64 k = 0; k < N; k++)
    {
      double want = a + (b - a) * splitmix_unit (key, (guint64) k);

      g_assert_cmpfloat (gnn_tensor_get_element (strided, &k, 1, NULL), ==, want);
      g_assert_cmpfloat (gnn_tensor_get_element (wide, (gint64[]) { k, 0 }, 2, NULL), ==, 0.0);
    }
}

static void
check_all_ops (void)
{
  static const struct { const char *name; Binary op; float (*ref) (float, float); } binary[] = {
    { "add", gnn_tensor_add, f_add }, { "sub", gnn_tensor_sub, f_sub },
    { "mul", gnn_tensor_mul, f_mul }, { "div", gnn_tensor_div, f_div },
  };
  static const struct { const char *name; Unary op; float (*ref) (float); } unary[] = {
    { "relu", gnn_tensor_relu, f_relu }, { "neg", gnn_tensor_neg, f_neg },
    { "abs", gnn_tensor_abs, f_abs }, { "exp", gnn_tensor_exp, f_exp },
    { "tanh", gnn_tensor_tanh, f_tanh },
  };
  g_autoptr(GRand) rng = g_rand_new_with_seed (6);
  g_autofree float *av = NULL, *bv = NULL, *sv = NULL;
  g_autofree float *want = g_new (float, N);
  g_autoptr(GnnTensor) a = floats (rng, N, &av);
  g_autoptr(GnnTensor) b = floats (rng, N, &bv);
  g_autoptr(GnnTensor) s = floats (rng, 1, &sv);
  /* every other element of a 2N vector: a stride-2 operand */
  g_autofree float *wv = NULL;
  g_autoptr(GnnTensor) wide = floats (rng, 2 * N, &wv);
  g_autoptr(GnnTensor) pairs = gnn_tensor_view (wide, (gint64[]) { N, 2 }, 2, NULL);
  g_autoptr(GnnTensor) strided = gnn_tensor_select (pairs, 1, 0, NULL);

  g_assert_nonnull (strided);
  check_uniform_fill ();
  for (guint o = 0; o < G_N_ELEMENTS (binary); o++)
    {
      g_autoptr(GnnTensor) r1 = binary[o].op (a, b, NULL);
      g_autoptr(GnnTensor) r2 = binary[o].op (a, s, NULL);
      g_autoptr(GnnTensor) r3 = binary[o].op (s, b, NULL);
      g_autoptr(GnnTensor) r4 = binary[o].op (strided, b, NULL);

      for (gint64 i = 0; i < N; i++)
        want[i] = binary[o].ref (av[i], bv[i]);
      assert_bits (r1, want, N, binary[o].name);
      for (gint64 i = 0; i < N; i++)
        want[i] = binary[o].ref (av[i], sv[0]);
      assert_bits (r2, want, N, binary[o].name);
      for (gint64 i = 0; i < N; i++)
        want[i] = binary[o].ref (sv[0], bv[i]);
      assert_bits (r3, want, N, binary[o].name);
      for (gint64 i = 0; i < N; i++)
        want[i] = binary[o].ref (wv[2 * i], bv[i]);
      assert_bits (r4, want, N, binary[o].name);
    }
  for (guint o = 0; o < G_N_ELEMENTS (unary); o++)
    {
      g_autoptr(GnnTensor) r1 = unary[o].op (a, NULL);
      g_autoptr(GnnTensor) r2 = unary[o].op (strided, NULL);

      for (gint64 i = 0; i < N; i++)
        want[i] = unary[o].ref (av[i]);
      assert_bits (r1, want, N, unary[o].name);
      for (gint64 i = 0; i < N; i++)
        want[i] = unary[o].ref (wv[2 * i]);
      assert_bits (r2, want, N, unary[o].name);
    }
  /* in place */
  {
    g_autoptr(GnnTensor) c = gnn_tensor_clone (a);

    g_assert_true (gnn_tensor_add_ (c, b, NULL));
    g_assert_true (gnn_tensor_relu_ (c, NULL));
    for (gint64 i = 0; i < N; i++)
      want[i] = f_relu (av[i] + bv[i]);
    assert_bits (c, want, N, "add_ then relu_");
  }
  check_backward (rng, av);
}

#define ROWS 61
#define COLS 17   /* ROWS * COLS == N */

static void
append (GByteArray *out, GnnTensor *t)
{
  g_autofree float *v = NULL;
  gsize len = 0;

  g_assert_nonnull (t);
  v = gnn_tensor_to_floats (t, &len);
  g_byte_array_append (out, (const guint8 *) v, (guint) (len * sizeof (float)));
}

/* The reductions of one level: checked, and their bytes written to
 * $GNN_TEST_DISPATCH_DIR/<level>.bin for the cross-level comparison. */
static void
check_reductions (const char *level)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (11);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree float *dyadic = g_new (float, N);
  g_autofree float *rough = NULL;
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) r = NULL;
  g_autoptr(GnnTensor) dm = NULL;
  g_autoptr(GnnTensor) rm = NULL;
  g_autoptr(GnnTensor) rt = NULL;
  g_autofree char *file = NULL;
  g_autoptr(GError) error = NULL;

  /* multiples of 1/1024 below 4: every partial sum is exact in the double
   * accumulators, whatever the order */
  for (gint64 i = 0; i < N; i++)
    dyadic[i] = (float) (g_rand_int_range (rng, -4096, 4096) / 1024.0);
  d = gnn_tensor_new_from_floats (dyadic, N, (gint64[]) { N }, 1, NULL);
  r = floats (rng, N, &rough);
  dm = gnn_tensor_view (d, (gint64[]) { ROWS, COLS }, 2, NULL);
  rm = gnn_tensor_view (r, (gint64[]) { ROWS, COLS }, 2, NULL);
  rt = gnn_tensor_transpose (rm, 0, 1, NULL);   /* strided input */

  for (gint dim = 0; dim < 2; dim++)
    {
      g_autoptr(GnnTensor) sum = gnn_tensor_sum (dm, &dim, 1, FALSE, NULL);
      g_autofree float *got = NULL;
      gsize len = 0;
      gint64 outer = dim == 0 ? COLS : ROWS, inner = dim == 0 ? ROWS : COLS;

      got = gnn_tensor_to_floats (sum, &len);
      g_assert_cmpuint (len, ==, (gsize) outer);
      for (gint64 o = 0; o < outer; o++)
        {
          double want = 0;

          for (gint64 k = 0; k < inner; k++)
            want += dyadic[dim == 0 ? k * COLS + o : o * COLS + k];
          g_assert_cmpfloat (got[o], ==, (float) want);
        }
      append (out, sum);
      for (guint t = 0; t < 2; t++)
        {
          GnnTensor *x = t == 0 ? rm : rt;
          g_autoptr(GnnTensor) s = gnn_tensor_sum (x, &dim, 1, TRUE, NULL);
          g_autoptr(GnnTensor) mean = gnn_tensor_mean (x, &dim, 1, FALSE, NULL);
          g_autoptr(GnnTensor) mx = gnn_tensor_max (x, &dim, 1, FALSE, NULL);
          g_autoptr(GnnTensor) mn = gnn_tensor_min (x, &dim, 1, FALSE, NULL);
          g_autoptr(GnnTensor) sm = gnn_tensor_softmax (x, dim, &error);
          g_autoptr(GnnTensor) lsm = gnn_tensor_log_softmax (x, dim, &error);

          g_assert_no_error (error);
          append (out, s), append (out, mean), append (out, mx), append (out, mn);
          append (out, sm), append (out, lsm);
        }
    }
  {
    /* whole-tensor reductions, and softmax rows against expf */
    g_autoptr(GnnTensor) all = gnn_tensor_sum (d, NULL, 0, FALSE, NULL);
    g_autoptr(GnnTensor) sm = gnn_tensor_softmax (rm, 1, NULL);
    g_autofree float *y = NULL;
    double want = 0;
    gsize len = 0;

    for (gint64 i = 0; i < N; i++)
      want += dyadic[i];
    g_assert_cmpfloat (gnn_tensor_item (all, NULL), ==, (float) want);
    y = gnn_tensor_to_floats (sm, &len);
    for (gint64 row = 0; row < ROWS; row++)
      {
        float m = -INFINITY;
        double z = 0;

        for (gint64 k = 0; k < COLS; k++)
          m = MAX (m, rough[row * COLS + k]);
        for (gint64 k = 0; k < COLS; k++)
          z += expf (rough[row * COLS + k] - m);
        for (gint64 k = 0; k < COLS; k++)
          g_assert_cmpfloat_with_epsilon (y[row * COLS + k],
                                          expf (rough[row * COLS + k] - m) / z, 1e-6);
      }
  }
  file = g_strdup_printf ("%s/%s.bin", g_getenv ("GNN_TEST_DISPATCH_DIR"), level);
  g_assert_true (g_file_set_contents (file, (const char *) out->data, out->len, &error));
  g_assert_no_error (error);
}

static void
test_forced_level (gconstpointer data)
{
  guint level = GPOINTER_TO_UINT (data) & 0xff;
  gboolean reductions = GPOINTER_TO_UINT (data) >> 8;

  if (!gnn_test_cpu_has (level))
    {
      g_test_skip ("this CPU lacks the level");
      return;
    }
  if (g_test_subprocess ())
    {
      g_setenv ("GNN_CPU_LEVEL", gnn_test_cpu_level_name (level), TRUE);
      if (reductions)
        check_reductions (gnn_test_cpu_level_name (level));
      else
        check_all_ops ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* Every level that ran wrote the baseline's bytes. */
static void
test_reductions_same_bits (void)
{
  g_autofree char *base_file = g_strdup_printf ("%s/baseline.bin", g_getenv ("GNN_TEST_DISPATCH_DIR"));
  g_autofree char *base = NULL;
  gsize base_len = 0;
  guint compared = 0;

  g_assert_true (g_file_get_contents (base_file, &base, &base_len, NULL));
  g_assert_cmpuint (base_len, >, N * sizeof (float));
  for (guint level = 1; level < GNN_TEST_CPU_LEVELS; level++)
    {
      g_autofree char *file = g_strdup_printf ("%s/%s.bin", g_getenv ("GNN_TEST_DISPATCH_DIR"),
                                               gnn_test_cpu_level_name (level));
      g_autofree char *bytes = NULL;
      gsize len = 0;

      if (!gnn_test_cpu_has (level))
        continue;
      g_assert_true (g_file_get_contents (file, &bytes, &len, NULL));
      g_assert_cmpmem (bytes, len, base, base_len);
      compared++;
    }
  if (compared == 0)
    g_test_skip ("this CPU has only the baseline level");
}

int
main (int argc, char *argv[])
{
  g_autofree char *dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* subprocesses inherit the variable: they write where the parent reads */
  if (g_getenv ("GNN_TEST_DISPATCH_DIR") == NULL)
    {
      dir = g_dir_make_tmp ("gnn-dispatch-XXXXXX", NULL);
      g_assert_nonnull (dir);
      g_setenv ("GNN_TEST_DISPATCH_DIR", dir, TRUE);
    }
  for (guint level = 0; level < GNN_TEST_CPU_LEVELS; level++)
    {
      const char *name = gnn_test_cpu_level_name (level);
      g_autofree char *path = g_strdup_printf ("/tensor/dispatch/pointwise/%s", name);
      g_autofree char *rpath = g_strdup_printf ("/tensor/dispatch/reduce/%s", name);

      g_test_add_data_func (path, GUINT_TO_POINTER (level), test_forced_level);
      g_test_add_data_func (rpath, GUINT_TO_POINTER (level | 0x100), test_forced_level);
    }
  g_test_add_func ("/tensor/dispatch/pointwise/default", check_all_ops);
  g_test_add_func ("/tensor/dispatch/reduce/same-bits", test_reductions_same_bits);
  status = g_test_run ();
  if (dir != NULL)
    gnn_test_remove_tree (dir);
  return status;
}
