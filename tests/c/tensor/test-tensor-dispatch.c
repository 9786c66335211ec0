/* Run-time CPU dispatch of the elementwise kernels (gnn-cpu-private.h):
 * each level this CPU has is forced with GNN_CPU_LEVEL in a subprocess (the
 * level is read once per process), and every result must equal, bit for
 * bit, the same C expression evaluated here element by element — the
 * AVX2/AVX-512 copies only widen the loops, they never change the
 * arithmetic. Contiguous, broadcast-scalar and strided operands, lengths
 * that are not a multiple of any vector width. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

#define N 1037

static const char *const levels[] = { "baseline", "avx2", "avx512" };

static gboolean
cpu_has (guint level)
{
#if defined(__x86_64__)
  __builtin_cpu_init ();
  if (level == 1)
    return __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma");
  if (level == 2)
    return __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512vl") &&
           __builtin_cpu_supports ("avx512bw");
#endif
  return level == 0;
}

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
}

static void
test_forced_level (gconstpointer data)
{
  guint level = GPOINTER_TO_UINT (data);

  if (!cpu_has (level))
    {
      g_test_skip ("this CPU lacks the level");
      return;
    }
  if (g_test_subprocess ())
    {
      g_setenv ("GNN_CPU_LEVEL", levels[level], TRUE);
      check_all_ops ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  for (guint level = 0; level < G_N_ELEMENTS (levels); level++)
    {
      g_autofree char *path = g_strdup_printf ("/tensor/dispatch/pointwise/%s", levels[level]);

      g_test_add_data_func (path, GUINT_TO_POINTER (level), test_forced_level);
    }
  g_test_add_func ("/tensor/dispatch/pointwise/default", check_all_ops);
  return g_test_run ();
}
