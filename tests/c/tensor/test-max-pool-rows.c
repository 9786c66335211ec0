/* float32 max_pool2d without indices through the row loop
 * (lib/tensor/gnn-max-pool-rows.c) against the general loop, which
 * max_pool2d_with_indices takes: the same bits for windows of 1-4 taps a
 * side, strides 1-3, paddings up to half the window, dilations 1-2, floor
 * and ceil modes, on inputs full of ties, ±0, -inf and NaNs (the first
 * maximum in scan order wins, the last NaN; zero signs must match). */
#include <string.h>
#include <math.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static float
draw (GRand *rng)
{
  static const float specials[] = { 0.0f, -0.0f, 1.0f, -1.0f, -INFINITY, INFINITY };
  double u = g_rand_double (rng);

  if (u < 0.03)
    return NAN;
  if (u < 0.5)
    return specials[g_rand_int_range (rng, 0, G_N_ELEMENTS (specials))];
  return (float) g_rand_int_range (rng, -3, 4) * 0.5f;
}

static void
test_rows_match_general (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (5);
  guint checked = 0;

  for (guint trial = 0; trial < 400; trial++)
    {
      gint64 kh = g_rand_int_range (rng, 1, 5), kw = g_rand_int_range (rng, 1, 5);
      gint64 sh = g_rand_int_range (rng, 1, 4), sw = g_rand_int_range (rng, 1, 4);
      gint64 ph = g_rand_int_range (rng, 0, kh / 2 + 1), pw = g_rand_int_range (rng, 0, kw / 2 + 1);
      gint64 dh = g_rand_int_range (rng, 1, 3), dw = g_rand_int_range (rng, 1, 3);
      gint64 h = g_rand_int_range (rng, 1, 20), w = g_rand_int_range (rng, 1, 40);
      gboolean ceil_mode = g_rand_boolean (rng);
      gint64 shape[4] = { 2, 3, h, w };
      gsize n = (gsize) (2 * 3 * h * w);
      g_autofree float *v = g_new (float, n);
      g_autoptr (GnnTensor) x = NULL;
      g_autoptr (GnnTensor) fast = NULL;
      g_autoptr (GnnTensor) general = NULL;
      g_autoptr (GnnTensor) idx = NULL;
      g_autoptr (GError) e1 = NULL;
      g_autoptr (GError) e2 = NULL;

      for (gsize i = 0; i < n; i++)
        v[i] = draw (rng);
      x = gnn_tensor_new_from_floats (v, n, shape, 4, NULL);
      fast = gnn_tensor_max_pool2d (x, kh, kw, sh, sw, ph, pw, dh, dw, ceil_mode, &e1);
      general = gnn_tensor_max_pool2d_with_indices (x, kh, kw, sh, sw, ph, pw, dh, dw, ceil_mode, &idx, &e2);
      /* too small an input fails alike */
      g_assert_true ((fast == NULL) == (general == NULL));
      if (fast == NULL)
        continue;
      g_assert_cmpint (gnn_tensor_get_numel (fast), ==, gnn_tensor_get_numel (general));
      g_assert_cmpmem (gnn_tensor_get_data (fast), gnn_tensor_get_numel (fast) * sizeof (float),
                       gnn_tensor_get_data (general), gnn_tensor_get_numel (general) * sizeof (float));
      checked++;
    }
  g_assert_cmpuint (checked, >, 200);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/max-pool-rows/matches-general", test_rows_match_general);
  return g_test_run ();
}
