/* float32 max_pool2d with 2×2 windows and stride 2 (lib/tensor/gnn-max-pool-2x2.c)
 * through the public API, at each CPU level this machine has (GNN_CPU_LEVEL
 * in a subprocess), against a scalar reference of PyTorch's rules written
 * here: the first maximum of a window in scan order wins, a NaN beats
 * anything before it (so the last NaN wins); the backward puts 0 + g at
 * the winner (a -0 gradient gives +0) and +0 everywhere else, including the
 * last row and column when h or w is odd. Every width from 1 to 20 window
 * columns (rows of fewer windows than a vector, of a whole number of
 * vectors, and with a moved-back last vector), odd and even sizes, values
 * from {-2 .. 2} so that ties are common, NaNs and -inf. Values, gradients
 * and the sign of every zero must match bit for bit, with gradients
 * recorded (the lanes kernel) and without (eval). */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

/* The winner's offset in the plane of window (oy, ox), by PyTorch's scan. */
static gint64
reference_winner (const float *plane, gint64 w, gint64 oy, gint64 ox)
{
  gint64 best = 2 * oy * w + 2 * ox;

  for (gint64 i = 0; i < 2; i++)
    for (gint64 j = 0; j < 2; j++)
      {
        gint64 at = (2 * oy + i) * w + 2 * ox + j;

        if (plane[at] > plane[best] || isnan (plane[at]))
          best = at;
      }
  return best;
}

static void
assert_same_bits (const float *got, const float *want, gint64 n, const char *what,
                  gint64 h, gint64 w)
{
  for (gint64 i = 0; i < n; i++)
    if (memcmp (&got[i], &want[i], sizeof (float)) != 0)
      g_error ("%s, %" G_GINT64_FORMAT " x %" G_GINT64_FORMAT ": element %" G_GINT64_FORMAT
               " is %g, want %g", what, h, w, i, got[i], want[i]);
}

static void
check_shape (GRand *rng, gint64 planes, gint64 h, gint64 w)
{
  gint64 oh = h / 2, ow = w / 2, nx = planes * h * w, ny = planes * oh * ow;
  g_autofree float *x = g_new (float, nx);
  g_autofree float *g = g_new (float, MAX (ny, 1));
  g_autofree float *y_ref = g_new (float, MAX (ny, 1));
  g_autofree float *gx_ref = g_new0 (float, nx);
  g_autofree float *y = NULL;
  g_autofree float *y_eval = NULL;
  g_autofree float *gx = NULL;
  g_autoptr(GnnTensor) input = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) out_eval = NULL;
  g_autoptr(GnnTensor) grad = NULL;
  g_autoptr(GError) error = NULL;
  gint64 shape[3] = { planes, h, w }, out_shape[3] = { planes, oh, ow };
  gsize len = 0;

  for (gint64 i = 0; i < nx; i++)
    {
      gint32 r = g_rand_int_range (rng, 0, 40);

      x[i] = r == 0 ? NAN : r == 1 ? -INFINITY : (float) g_rand_int_range (rng, -2, 3);
    }
  for (gint64 i = 0; i < ny; i++)
    g[i] = g_rand_int_range (rng, 0, 8) == 0 ? -0.0f : (float) g_rand_double_range (rng, -1, 1);
  for (gint64 p = 0; p < planes; p++)
    for (gint64 oy = 0; oy < oh; oy++)
      for (gint64 ox = 0; ox < ow; ox++)
        {
          gint64 o = (p * oh + oy) * ow + ox, win = reference_winner (x + p * h * w, w, oy, ox);

          y_ref[o] = x[p * h * w + win];
          gx_ref[p * h * w + win] += g[o];     /* +0 + g, as PyTorch */
        }

  input = gnn_tensor_new_from_floats (x, nx, shape, 3, &error);
  g_assert_no_error (error);
  out_eval = gnn_tensor_max_pool2d (input, 2, 2, 2, 2, 0, 0, 1, 1, FALSE, &error);
  g_assert_no_error (error);
  y_eval = gnn_tensor_to_floats (out_eval, &len);
  g_assert_cmpuint (len, ==, (gsize) ny);
  assert_same_bits (y_eval, y_ref, ny, "eval values", h, w);

  gnn_tensor_set_requires_grad (input, TRUE);
  out = gnn_tensor_max_pool2d (input, 2, 2, 2, 2, 0, 0, 1, 1, FALSE, &error);
  g_assert_no_error (error);
  y = gnn_tensor_to_floats (out, &len);
  assert_same_bits (y, y_ref, ny, "values", h, w);
  grad = gnn_tensor_new_from_floats (g, ny, out_shape, 3, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (out, grad, FALSE, &error));
  g_assert_no_error (error);
  gx = gnn_tensor_to_floats (gnn_tensor_get_grad (input), &len);
  g_assert_cmpuint (len, ==, (gsize) nx);
  assert_same_bits (gx, gx_ref, nx, "gradients", h, w);
}

static void
check_all_shapes (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (22);

  for (gint64 w = 2; w <= 41; w++)
    for (gint64 h = 2; h <= 5; h++)
      check_shape (rng, 3, h, w);
  check_shape (rng, 5, 28, 28);
  check_shape (rng, 2, 14, 14);
}

static void
test_level (gconstpointer data)
{
  guint level = GPOINTER_TO_UINT (data);

  if (!gnn_test_cpu_has (level))
    {
      g_test_skip ("this CPU lacks the level");
      return;
    }
  if (g_test_subprocess ())
    {
      g_setenv ("GNN_CPU_LEVEL", gnn_test_cpu_level_name (level), TRUE);
      check_all_shapes ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The backward makes an expanded output gradient contiguous before the
 * kernel reads it. With the address space capped just above what is in use,
 * that copy (16 MB) cannot be allocated: backward must fail with
 * GNN_ERROR_MEMORY, not return FALSE without an error or read NULL. Both
 * saved-winner forms: the u8 lanes (recorded float32 2×2) and the int64
 * indices (3×3 windows). */
static void
check_backward_out_of_memory (gint64 kernel)
{
  const gint64 x_shape[] = { 1, 1, 4096, 4096 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (x_shape, 4, GNN_DTYPE_F32, &error);
  g_autoptr(GnnTensor) y = NULL;

  g_assert_no_error (error);
  gnn_tensor_set_requires_grad (x, TRUE);
  y = gnn_tensor_max_pool2d (x, kernel, kernel, 2, 2, 0, 0, 1, 1, FALSE, &error);
  g_assert_no_error (error);
  gnn_test_backward_out_of_memory (y);
}

static void
run_backward_out_of_memory (gconstpointer data)
{
  check_backward_out_of_memory (GPOINTER_TO_INT (data));
}

static void
test_backward_out_of_memory (gconstpointer data)
{
  gnn_test_run_capped (run_backward_out_of_memory, data);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  for (guint level = 0; level < GNN_TEST_CPU_LEVELS; level++)
    {
      g_autofree char *path = g_strdup_printf ("/tensor/max-pool-2x2/%s",
                                               gnn_test_cpu_level_name (level));

      g_test_add_data_func (path, GUINT_TO_POINTER (level), test_level);
    }
  g_test_add_data_func ("/tensor/max-pool-2x2/backward-out-of-memory/lanes",
                        GINT_TO_POINTER (2), test_backward_out_of_memory);
  g_test_add_data_func ("/tensor/max-pool-2x2/backward-out-of-memory/indices",
                        GINT_TO_POINTER (3), test_backward_out_of_memory);
  return g_test_run ();
}
