/* Winograd conv2d, F(2×2, 3×3) and, for groups of 8 images, F(4×4, 3×3)
 * (lib/tensor/gnn-conv-winograd.c, gnn-conv-winograd4.c), and the
 * direct kernel of one-input-channel convolutions (gnn-conv-direct.c: random
 * kernel sizes up to 3×3, paddings, widths over several column blocks, an
 * infinite input) against the im2col + GEMM kernels, both compiled into this test: forward, input
 * gradient and weight gradient on random shapes (odd sizes, padding 0, 1 and
 * 2, batch 1 and 3 (F(2×2)), 8 (F(4×4)) and 11 (both), channel counts that
 * are not multiples of 8), within a
 * float32 tolerance relative to the largest magnitude of the result. Then
 * the public API (conv2d and its autograd backward) under GNN_CONV_ALGO=
 * winograd and =im2col, each in a subprocess (the variable is read once),
 * against the same kernels, and float64 through the public API. The
 * forward over eight strips of one image (gnn-conv-winograd-strips.c)
 * against im2col. Infinite
 * and NaN operands give im2col's results through the dispatching entry
 * points. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"
#include "tensor/gnn-conv-kernels-private.h"

/* Winograd rounds differently from a direct sum: ~2e-7 of the result's
 * scale for F(2×2, 3×3), ~3e-6 for F(4×4, 3×3) (whose transforms multiply
 * by up to 8 and by 1/24); an indexing mistake is off by O(1). */
#define REL_TOL 2e-5

typedef struct
{
  gint64 n, cin, cout, h, w, pad;
} Case;

static GnnConvGeom
geom_of (const Case *c)
{
  GnnConvGeom g = { .d = 1, .kd = 1, .od = 1, .sd = 1, .dd = 1 };

  g.n = c->n, g.cin = c->cin, g.h = c->h, g.w = c->w, g.cout = c->cout, g.cin_g = c->cin;
  g.kh = g.kw = 3, g.groups = 1, g.cout_g = c->cout;
  g.sh = g.sw = g.dh = g.dw = 1, g.ph = g.pw = c->pad;
  g.oh = c->h + 2 * c->pad - 2, g.ow = c->w + 2 * c->pad - 2;
  return g;
}

static float *
random_floats (GRand *rng, gint64 n)
{
  float *v = g_new (float, (gsize) MAX (n, 1));

  for (gint64 i = 0; i < n; i++)
    v[i] = (float) g_rand_double_range (rng, -1.0, 1.0);
  return v;
}

/* |got - want| ≤ REL_TOL · max |want| for every element. */
static void
assert_close (const float *got, const float *want, gint64 n, const char *what, const Case *c)
{
  double scale = 0, worst = 0;

  for (gint64 i = 0; i < n; i++)
    scale = MAX (scale, fabs (want[i]));
  for (gint64 i = 0; i < n; i++)
    worst = MAX (worst, fabs ((double) got[i] - want[i]));
  if (!(worst <= REL_TOL * MAX (scale, 1e-30)))
    g_error ("%s, n %" G_GINT64_FORMAT " cin %" G_GINT64_FORMAT " cout %" G_GINT64_FORMAT
             " %" G_GINT64_FORMAT "×%" G_GINT64_FORMAT " pad %" G_GINT64_FORMAT
             ": max error %g at scale %g", what, c->n, c->cin, c->cout, c->h, c->w, c->pad,
             worst, scale);
}

/* The random operands of one case, and their sizes. */
typedef struct
{
  GnnConvGeom g;
  gint64      nx, nw, ny;
  float      *x, *wt, *bias, *go;
} Operands;

static Operands
operands_new (GRand *rng, const Case *c)
{
  Operands o;

  o.g = geom_of (c);
  o.nx = c->n * c->cin * c->h * c->w, o.nw = c->cout * c->cin * 9;
  o.ny = c->n * c->cout * o.g.oh * o.g.ow;
  o.x = random_floats (rng, o.nx);
  o.wt = random_floats (rng, o.nw);
  o.bias = random_floats (rng, c->cout);
  o.go = random_floats (rng, o.ny);
  return o;
}

static void
operands_clear (Operands *o)
{
  g_free (o->x), g_free (o->wt), g_free (o->bias), g_free (o->go);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Operands, operands_clear)

static void
check_case (GRand *rng, const Case *c)
{
  g_auto(Operands) o = operands_new (rng, c);
  g_autofree float *y_ref = g_new (float, o.ny), *y = g_new (float, o.ny);
  /* the gradients start from the same nonzero values: both add to them */
  g_autofree float *gx_ref = random_floats (rng, o.nx), *gw_ref = random_floats (rng, o.nw);
  g_autofree float *gb_ref = random_floats (rng, c->cout);
  g_autofree float *gx = g_memdup2 (gx_ref, sizeof (float) * o.nx);
  g_autofree float *gw = g_memdup2 (gw_ref, sizeof (float) * o.nw);
  g_autofree float *gb = g_memdup2 (gb_ref, sizeof (float) * c->cout);

  g_assert_true (gnn_conv2d_winograd_fits (&o.g));
  gnn_conv_im2col_forward_f32 (&o.g, o.x, o.wt, o.bias, y_ref);
  gnn_conv2d_winograd_forward_f32 (&o.g, o.x, o.wt, o.bias, y);
  assert_close (y, y_ref, o.ny, "forward", c);
  gnn_conv2d_winograd_forward_f32 (&o.g, o.x, o.wt, NULL, y);
  for (gint64 i = 0; i < o.ny; i++)
    y[i] += o.bias[(i / (o.g.oh * o.g.ow)) % c->cout];
  assert_close (y, y_ref, o.ny, "forward without bias", c);

  gnn_conv_im2col_backward_f32 (&o.g, o.x, o.wt, o.go, gx_ref, gw_ref, gb_ref);
  gnn_conv2d_winograd_backward_f32 (&o.g, o.x, o.wt, o.go, gx, gw, gb);
  assert_close (gx, gx_ref, o.nx, "input gradient", c);
  assert_close (gw, gw_ref, o.nw, "weight gradient", c);
  assert_close (gb, gb_ref, c->cout, "bias gradient", c);
  /* each gradient alone */
  memset (gx, 0, sizeof (float) * o.nx);
  memset (gx_ref, 0, sizeof (float) * o.nx);
  gnn_conv_im2col_backward_f32 (&o.g, o.x, o.wt, o.go, gx_ref, NULL, NULL);
  gnn_conv2d_winograd_backward_f32 (&o.g, NULL, o.wt, o.go, gx, NULL, NULL);
  assert_close (gx, gx_ref, o.nx, "input gradient alone", c);
  memset (gw, 0, sizeof (float) * o.nw);
  memset (gw_ref, 0, sizeof (float) * o.nw);
  gnn_conv_im2col_backward_f32 (&o.g, o.x, NULL, o.go, NULL, gw_ref, NULL);
  gnn_conv2d_winograd_backward_f32 (&o.g, o.x, NULL, o.go, NULL, gw, NULL);
  assert_close (gw, gw_ref, o.nw, "weight gradient alone", c);
  memcpy (gb, gb_ref, sizeof (float) * c->cout);
  gnn_conv_im2col_backward_f32 (&o.g, NULL, NULL, o.go, NULL, NULL, gb_ref);
  gnn_conv2d_winograd_backward_f32 (&o.g, NULL, NULL, o.go, NULL, NULL, gb);
  assert_close (gb, gb_ref, c->cout, "bias gradient alone", c);
}

static void
test_kernels_fixed (void)
{
  static const Case cases[] = {
    { 1, 1, 1, 3, 3, 0 },    /* one output */
    { 1, 1, 1, 1, 1, 1 },    /* one pixel, all padding */
    { 1, 3, 5, 4, 4, 1 },
    { 3, 5, 7, 7, 5, 1 },    /* odd output sizes: cut tiles */
    { 3, 7, 3, 6, 9, 0 },
    { 1, 2, 3, 5, 2, 2 },    /* padding 2: the input gradient pads by 0 */
    { 3, 9, 11, 14, 14, 1 },
    { 2, 32, 64, 14, 14, 1 },/* conv2 of the CNN */
    { 8, 32, 64, 14, 14, 1 },/* the same, one group of F(4×4) */
    { 8, 3, 5, 4, 4, 0 },    /* F(4×4): two outputs, two tiles cut */
    { 8, 2, 3, 5, 2, 2 },    /* F(4×4), padding 2 */
    { 2, 1, 32, 28, 28, 1 }, /* conv1 of the CNN */
  };
  g_autoptr(GRand) rng = g_rand_new_with_seed (13);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (rng, &cases[i]);
}

static void
test_kernels_random (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (2026);

  for (guint i = 0; i < 40; i++)
    {
      Case c;

      c.n = (const gint64[]) { 1, 3, 8, 11 }[g_rand_int_range (rng, 0, 4)];
      c.cin = g_rand_int_range (rng, 1, 20);
      c.cout = g_rand_int_range (rng, 1, 20);
      c.pad = g_rand_int_range (rng, 0, 2);
      c.h = g_rand_int_range (rng, 3 - 2 * c.pad, 18);
      c.w = g_rand_int_range (rng, 3 - 2 * c.pad, 18);
      check_case (rng, &c);
    }
}

/* A large block count: more images than fit one block of transformed tiles
 * (F(2×2) for the last 5 of 37), and a map whose rows of tiles take three
 * blocks of one F(4×4) group. */
static void
test_kernels_many_blocks (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (5);
  Case c = { 37, 24, 40, 15, 13, 1 };
  Case tall = { 8, 24, 40, 60, 21, 1 };

  check_case (rng, &c);
  check_case (rng, &tall);
}

/* The direct kernel (one input channel, up to 3×3 taps) against im2col:
 * forward with and without bias, weight and bias gradients added to
 * nonzero starting values. */
static void
check_direct (GRand *rng, gint64 n, gint64 cout, gint64 h, gint64 w, gint64 kh, gint64 kw,
              gint64 ph, gint64 pw)
{
  GnnConvGeom g = { .d = 1, .kd = 1, .od = 1, .sd = 1, .dd = 1 };
  Case c = { n, 1, cout, h, w, ph };
  gint64 nx, nw, ny;
  g_autofree float *x = NULL, *wt = NULL, *bias = NULL, *go = NULL, *y = NULL, *y_ref = NULL;
  g_autofree float *gw = NULL, *gw_ref = NULL, *gb = NULL, *gb_ref = NULL;

  g.n = n, g.cin = g.cin_g = 1, g.h = h, g.w = w, g.cout = g.cout_g = cout, g.groups = 1;
  g.kh = kh, g.kw = kw, g.sh = g.sw = g.dh = g.dw = 1, g.ph = ph, g.pw = pw;
  g.oh = h + 2 * ph - kh + 1, g.ow = w + 2 * pw - kw + 1;
  /* rows narrower than one vector stay with im2col */
  g_assert_true (gnn_conv2d_direct_fits (&g) == (g.ow >= 8));
  if (g.ow < 8)
    return;
  nx = n * h * w, nw = cout * kh * kw, ny = n * cout * g.oh * g.ow;
  x = random_floats (rng, nx), wt = random_floats (rng, nw);
  bias = random_floats (rng, cout), go = random_floats (rng, ny);
  y = g_new (float, ny), y_ref = g_new (float, ny);
  gw_ref = random_floats (rng, nw), gb_ref = random_floats (rng, cout);
  gw = g_memdup2 (gw_ref, sizeof (float) * nw), gb = g_memdup2 (gb_ref, sizeof (float) * cout);

  gnn_conv_im2col_forward_f32 (&g, x, wt, bias, y_ref);
  gnn_conv2d_direct_forward_f32 (&g, x, wt, bias, y);
  assert_close (y, y_ref, ny, "direct forward", &c);
  gnn_conv_im2col_forward_f32 (&g, x, wt, NULL, y_ref);
  gnn_conv2d_direct_forward_f32 (&g, x, wt, NULL, y);
  assert_close (y, y_ref, ny, "direct forward without bias", &c);
  gnn_conv_im2col_backward_f32 (&g, x, wt, go, NULL, gw_ref, gb_ref);
  gnn_conv2d_direct_weight_grad_f32 (&g, x, go, gw, gb);
  assert_close (gw, gw_ref, nw, "direct weight gradient", &c);
  assert_close (gb, gb_ref, cout, "direct bias gradient", &c);
  /* each alone */
  memcpy (gb, gb_ref, sizeof (float) * cout);
  gnn_conv2d_direct_weight_grad_f32 (&g, x, go, NULL, gb);
  gnn_conv_im2col_backward_f32 (&g, NULL, NULL, go, NULL, NULL, gb_ref);
  assert_close (gb, gb_ref, cout, "direct bias gradient alone", &c);
  memcpy (gw, gw_ref, sizeof (float) * nw);
  gnn_conv2d_direct_weight_grad_f32 (&g, x, go, gw, NULL);
  gnn_conv_im2col_backward_f32 (&g, x, wt, go, NULL, gw_ref, NULL);
  assert_close (gw, gw_ref, nw, "direct weight gradient alone", &c);
}

static void
test_direct_kernels (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (31);

  check_direct (rng, 2, 32, 28, 28, 3, 3, 1, 1);   /* conv1 of the CNN */
  check_direct (rng, 1, 1, 1, 8, 1, 1, 0, 0);      /* one vector */
  check_direct (rng, 1, 1, 1, 7, 1, 1, 0, 0);      /* narrower: not direct */
  check_direct (rng, 2, 3, 5, 12, 3, 2, 1, 0);     /* 1.5 vectors: overlapping starts */
  check_direct (rng, 3, 5, 9, 70, 3, 3, 1, 1);     /* three column blocks, the last partial */
  check_direct (rng, 2, 3, 8, 64, 3, 3, 0, 1);     /* exactly two full blocks */
  check_direct (rng, 1, 4, 3, 3, 3, 3, 2, 2);      /* more padding than input */
  for (guint i = 0; i < 30; i++)
    {
      gint64 kh = g_rand_int_range (rng, 1, 4), kw = g_rand_int_range (rng, 1, 4);
      gint64 ph = g_rand_int_range (rng, 0, 3), pw = g_rand_int_range (rng, 0, 3);
      gint64 h = g_rand_int_range (rng, MAX (kh - 2 * ph, 1), 20);
      gint64 w = g_rand_int_range (rng, MAX (kw - 2 * pw, 1), 45);

      check_direct (rng, g_rand_int_range (rng, 1, 5), g_rand_int_range (rng, 1, 40),
                    h, w, kh, kw, ph, pw);
    }
}

/* An infinite input pixel in the last column: the direct weight gradient
 * must have NaN/inf exactly where im2col's has (the columns past the
 * output's width in a block are masked, not multiplied by 0). */
static void
test_direct_inf_input (void)
{
  GnnConvGeom g = { .d = 1, .kd = 1, .od = 1, .sd = 1, .dd = 1 };
  float x[5 * 13], wt[2 * 9] = { 0 }, go[2 * 5 * 13];
  float gw[18] = { 0 }, gw_ref[18] = { 0 }, gb[2] = { 0 }, gb_ref[2] = { 0 };

  /* 13 columns: vectors at 0 and 5 (and 5 again), overlapping */
  g.n = 1, g.cin = g.cin_g = 1, g.h = 5, g.w = 13, g.cout = g.cout_g = 2, g.groups = 1;
  g.kh = g.kw = 3, g.sh = g.sw = g.dh = g.dw = 1, g.ph = g.pw = 1, g.oh = 5, g.ow = 13;
  g_assert_true (gnn_conv2d_direct_fits (&g));
  for (guint i = 0; i < G_N_ELEMENTS (x); i++)
    x[i] = (float) i / 7.0f;
  x[2 * 13 + 12] = INFINITY;
  for (guint i = 0; i < G_N_ELEMENTS (go); i++)
    go[i] = 1.0f + (float) i / 16.0f;
  gnn_conv_im2col_backward_f32 (&g, x, wt, go, NULL, gw_ref, gb_ref);
  gnn_conv2d_direct_weight_grad_f32 (&g, x, go, gw, gb);
  for (guint i = 0; i < 18; i++)
    {
      g_assert_cmpint (isnan (gw[i]), ==, isnan (gw_ref[i]));
      g_assert_cmpint (isinf (gw[i]), ==, isinf (gw_ref[i]));
      if (isfinite (gw_ref[i]))
        g_assert_cmpfloat_with_epsilon (gw[i], gw_ref[i], 1e-5 * fabs (gw_ref[i]) + 1e-4);
    }
  g_assert_cmpfloat_with_epsilon (gb[0], gb_ref[0], 1e-4);
}

/* Infinities and NaNs in the operands: Winograd would spread them through
 * their tiles (NaN where PyTorch's direct sums give ±inf, or outside the
 * receptive field), so the dispatching entry points must give im2col's
 * pattern of NaN, ±inf and finite values, the finite ones within the
 * tolerance: F(4×4) (8 images) and F(2×2) (3 images), a value in the
 * corner, in the middle and in the weights, and a NaN in the output
 * gradient. */
static void
assert_same_non_finite (const float *got, const float *want, gint64 n, const char *what,
                        const Case *c)
{
  g_autofree float *got_finite = g_new (float, (gsize) n);
  g_autofree float *want_finite = g_new (float, (gsize) n);

  for (gint64 i = 0; i < n; i++)
    {
      if (isnan (got[i]) != isnan (want[i]) || isinf (got[i]) != isinf (want[i]) ||
          (isinf (want[i]) && signbit (got[i]) != signbit (want[i])))
        g_error ("%s, n %" G_GINT64_FORMAT ": element %" G_GINT64_FORMAT " is %g, im2col's %g",
                 what, c->n, i, got[i], want[i]);
      got_finite[i] = isfinite (want[i]) ? got[i] : 0;
      want_finite[i] = isfinite (want[i]) ? want[i] : 0;
    }
  assert_close (got_finite, want_finite, n, what, c);
}

static void
check_non_finite (GRand *rng, const Case *c, float value, gint64 x_at, gint64 w_at, gint64 go_at)
{
  g_auto(Operands) o = operands_new (rng, c);
  g_autofree float *y_ref = g_new (float, o.ny), *y = g_new (float, o.ny);
  g_autofree float *gx_ref = g_new0 (float, o.nx), *gx = g_new0 (float, o.nx);
  g_autofree float *gw_ref = g_new0 (float, o.nw), *gw = g_new0 (float, o.nw);
  g_autofree float *gb_ref = g_new0 (float, c->cout), *gb = g_new0 (float, c->cout);

  if (x_at >= 0)
    o.x[x_at] = value;
  if (w_at >= 0)
    o.wt[w_at] = value;
  if (go_at >= 0)
    o.go[go_at] = value;
  g_assert_cmpint (gnn_conv2d_algo_f32 (&o.g), ==, GNN_CONV_ALGO_WINOGRAD);
  gnn_conv_im2col_forward_f32 (&o.g, o.x, o.wt, o.bias, y_ref);
  g_assert_true (gnn_conv_forward_f32 (&o.g, o.x, o.wt, o.bias, y, NULL));
  assert_same_non_finite (y, y_ref, o.ny, "forward", c);
  gnn_conv_im2col_backward_f32 (&o.g, o.x, o.wt, o.go, gx_ref, gw_ref, gb_ref);
  g_assert_true (gnn_conv_backward_f32 (&o.g, o.x, o.wt, o.go, gx, gw, gb, NULL));
  assert_same_non_finite (gx, gx_ref, o.nx, "input gradient", c);
  assert_same_non_finite (gw, gw_ref, o.nw, "weight gradient", c);
  assert_same_non_finite (gb, gb_ref, c->cout, "bias gradient", c);
}

static void
test_non_finite (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (31);
  const float values[] = { NAN, INFINITY, -INFINITY };

  /* 8: one F(4×4) group; 11: a group and an F(2×2) tail (the default rule
   * takes Winograd from 8 images up) */
  for (guint n = 8; n <= 11; n += 3)
    for (guint v = 0; v < G_N_ELEMENTS (values); v++)
      {
        Case c = { n, 4, 4, 8, 8, 1 };
        gint64 plane = c.h * c.w;

        check_non_finite (rng, &c, values[v], 0, -1, -1);
        check_non_finite (rng, &c, values[v], plane + 3 * c.w + 4, -1, -1);
        check_non_finite (rng, &c, values[v], -1, 5, -1);
        check_non_finite (rng, &c, values[v], -1, -1, 2 * plane + 9);
      }
}

/* The kernels' working buffers are sized by the tensors: with the address
 * space capped a little above what the tensors take, conv2d and its
 * backward must fail with GNN_ERROR_MEMORY (not abort) and leave the
 * input's gradient unset. Three cases, each in a subprocess: im2col's
 * columns of a 5×5 kernel (25 × the 16 MB input), F(4×4)'s transformed
 * input (9 × its 34 MB input: one row of 1,024 tiles), and im2col's backward
 * after a forward that succeeded before the cap. */
typedef enum { OOM_IM2COL, OOM_WINOGRAD, OOM_BACKWARD } OomCase;

static void
check_out_of_memory (OomCase which)
{
  gint64 x_shape[4] = { 1, 16, 512, 512 }, w_shape[4] = { 4, 16, 5, 5 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) wt = NULL;
  g_autoptr(GnnTensor) y = NULL;
  gint64 pad = 2;

  if (which == OOM_WINOGRAD)
    {
      gint64 xs[4] = { 8, 64, 4, 4096 }, ws[4] = { 64, 64, 3, 3 };

      memcpy (x_shape, xs, sizeof xs), memcpy (w_shape, ws, sizeof ws), pad = 1;
    }
  x = gnn_tensor_zeros (x_shape, 4, GNN_DTYPE_F32, &error);
  g_assert_no_error (error);
  wt = gnn_tensor_ones (w_shape, 4, GNN_DTYPE_F32, &error);
  g_assert_no_error (error);
  if (which == OOM_BACKWARD)
    {
      gnn_tensor_set_requires_grad (x, TRUE);
      g_autoptr(GnnTensor) gy = NULL;

      y = gnn_tensor_conv2d (x, wt, NULL, 1, 1, pad, pad, 1, 1, 1, &error);
      g_assert_no_error (error);
      gy = gnn_tensor_ones (gnn_tensor_get_shape (y, NULL), 4, GNN_DTYPE_F32, &error);
      g_assert_no_error (error);
      gnn_test_cap_address_space (40u << 20);
      g_assert_false (gnn_tensor_backward (y, gy, FALSE, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_MEMORY);
      g_assert_null (gnn_tensor_get_grad (x));
      return;
    }
  gnn_test_cap_address_space (56u << 20);
  y = gnn_tensor_conv2d (x, wt, NULL, 1, 1, pad, pad, 1, 1, 1, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_MEMORY);
  g_assert_nonnull (strstr (error->message, "conv2d"));
}

static void
run_out_of_memory (gconstpointer data)
{
  check_out_of_memory (GPOINTER_TO_INT (data));
}

static void
test_out_of_memory (gconstpointer data)
{
  if (g_getenv ("GNN_CONV_ALGO") != NULL)
    {
      g_test_skip ("GNN_CONV_ALGO is set");
      return;
    }
  gnn_test_run_capped (run_out_of_memory, data);
}

/* conv2d + backward through the public API in @dtype; the results and
 * gradients as floats in @y, @gx, @gw, @gb. */
static void
public_conv (GnnDType dtype, const Case *c, const float *xv, const float *wv, const float *bv,
             const float *gov, float *y, float *gx, float *gw, float *gb)
{
  GnnConvGeom g = geom_of (c);
  gint64 nx = c->n * c->cin * c->h * c->w, nw = c->cout * c->cin * 9;
  gint64 ny = c->n * c->cout * g.oh * g.ow;
  g_autoptr(GnnTensor) x32 = gnn_tensor_new_from_floats (xv, nx, (gint64[]) { c->n, c->cin, c->h, c->w }, 4, NULL);
  g_autoptr(GnnTensor) w32 = gnn_tensor_new_from_floats (wv, nw, (gint64[]) { c->cout, c->cin, 3, 3 }, 4, NULL);
  g_autoptr(GnnTensor) b32 = gnn_tensor_new_from_floats (bv, c->cout, (gint64[]) { c->cout }, 1, NULL);
  g_autoptr(GnnTensor) go32 = gnn_tensor_new_from_floats (gov, ny, (gint64[]) { c->n, c->cout, g.oh, g.ow }, 4, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_to_dtype (x32, dtype, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_to_dtype (w32, dtype, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_to_dtype (b32, dtype, NULL);
  g_autoptr(GnnTensor) go = gnn_tensor_to_dtype (go32, dtype, NULL);
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *grads[3];
  float *dst[3] = { gx, gw, gb };
  gint64 lens[3] = { nx, nw, c->cout };
  g_autofree float *yv = NULL;
  gsize len = 0;

  gnn_tensor_set_requires_grad (x, TRUE);
  gnn_tensor_set_requires_grad (w, TRUE);
  gnn_tensor_set_requires_grad (b, TRUE);
  out = gnn_tensor_conv2d (x, w, b, 1, 1, c->pad, c->pad, 1, 1, 1, NULL);
  g_assert_nonnull (out);
  g_assert_true (gnn_tensor_backward (out, go, FALSE, NULL));
  yv = gnn_tensor_to_floats (out, &len);
  g_assert_cmpuint (len, ==, (gsize) ny);
  memcpy (y, yv, sizeof (float) * ny);
  grads[0] = gnn_tensor_get_grad (x), grads[1] = gnn_tensor_get_grad (w), grads[2] = gnn_tensor_get_grad (b);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree float *v = NULL;

      g_assert_nonnull (grads[i]);
      v = gnn_tensor_to_floats (grads[i], &len);
      g_assert_cmpuint (len, ==, (gsize) lens[i]);
      memcpy (dst[i], v, sizeof (float) * lens[i]);
    }
}

/* The public API in @dtype against the im2col kernels (float32). */
static void
check_public (GnnDType dtype, Case c)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (77);
  GnnConvGeom g = geom_of (&c);
  gint64 nx = c.n * c.cin * c.h * c.w, nw = c.cout * c.cin * 9, ny = c.n * c.cout * g.oh * g.ow;
  g_autofree float *x = random_floats (rng, nx), *wt = random_floats (rng, nw);
  g_autofree float *bias = random_floats (rng, c.cout), *go = random_floats (rng, ny);
  g_autofree float *y = g_new (float, ny), *y_ref = g_new (float, ny);
  g_autofree float *gx = g_new (float, nx), *gx_ref = g_new0 (float, nx);
  g_autofree float *gw = g_new (float, nw), *gw_ref = g_new0 (float, nw);
  g_autofree float *gb = g_new (float, c.cout), *gb_ref = g_new0 (float, c.cout);

  gnn_conv_im2col_forward_f32 (&g, x, wt, bias, y_ref);
  gnn_conv_im2col_backward_f32 (&g, x, wt, go, gx_ref, gw_ref, gb_ref);
  public_conv (dtype, &c, x, wt, bias, go, y, gx, gw, gb);
  assert_close (y, y_ref, ny, "public forward", &c);
  assert_close (gx, gx_ref, nx, "public input gradient", &c);
  assert_close (gw, gw_ref, nw, "public weight gradient", &c);
  assert_close (gb, gb_ref, c.cout, "public bias gradient", &c);
}

static void
test_public_forced (gconstpointer data)
{
  const char *algo = data;

  if (g_test_subprocess ())
    {
      Case many = { 3, 10, 12, 9, 8, 1 }, one = { 3, 1, 12, 9, 37, 1 };
      GnnConvGeom g = geom_of (&many), g1 = geom_of (&one);
      gboolean im2col = strcmp (algo, "im2col") == 0, direct = strcmp (algo, "direct") == 0;

      g_setenv ("GNN_CONV_ALGO", algo, TRUE);
      g_assert_cmpint (gnn_conv2d_algo_f32 (&g), ==,
                       im2col || direct ? GNN_CONV_ALGO_IM2COL : GNN_CONV_ALGO_WINOGRAD);
      g_assert_cmpint (gnn_conv2d_algo_f32 (&g1), ==,
                       im2col ? GNN_CONV_ALGO_IM2COL
                              : direct ? GNN_CONV_ALGO_DIRECT : GNN_CONV_ALGO_WINOGRAD);
      check_public (GNN_DTYPE_F32, many);
      check_public (GNN_DTYPE_F64, many);
      /* one input channel: with the input gradient (im2col's, beside the
       * direct weight gradient) */
      check_public (GNN_DTYPE_F32, one);
      check_public (GNN_DTYPE_F64, one);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The default rule: Winograd for the CNN's conv2 and for 4 → 8 channels,
 * the direct kernel for its conv1 (one input channel), im2col for 8 → 32 and 3 → 3 channels
 * and for anything that is not a 3×3 stride-1 convolution with padding up
 * to 2. */
static void
test_default_rule (void)
{
  GnnConvGeom conv1 = geom_of (&(Case) { 64, 1, 32, 28, 28, 1 });
  GnnConvGeom conv2 = geom_of (&(Case) { 64, 32, 64, 14, 14, 1 });
  GnnConvGeom wide = geom_of (&(Case) { 64, 8, 32, 14, 14, 1 });
  GnnConvGeom narrow = geom_of (&(Case) { 64, 4, 8, 28, 28, 1 });
  GnnConvGeom few = geom_of (&(Case) { 64, 3, 3, 28, 28, 1 });
  GnnConvGeom strided = conv2, padded = conv2;

  if (g_getenv ("GNN_CONV_ALGO") != NULL)
    {
      g_test_skip ("GNN_CONV_ALGO is set");
      return;
    }
  strided.sh = 2, strided.oh = 7;
  padded.ph = 3, padded.oh = 18;
  g_assert_cmpint (gnn_conv2d_algo_f32 (&conv1), ==, GNN_CONV_ALGO_DIRECT);
  g_assert_cmpint (gnn_conv2d_algo_f32 (&conv2), ==, GNN_CONV_ALGO_WINOGRAD);
  g_assert_cmpint (gnn_conv2d_algo_f32 (&wide), ==, GNN_CONV_ALGO_IM2COL);
  g_assert_cmpint (gnn_conv2d_algo_f32 (&narrow), ==, GNN_CONV_ALGO_WINOGRAD);
  g_assert_cmpint (gnn_conv2d_algo_f32 (&few), ==, GNN_CONV_ALGO_IM2COL);
  /* Winograd needs GNN_WINOGRAD_MIN_N images and maps of GNN_WINOGRAD_MIN_L positions */
  conv2.n = GNN_WINOGRAD_MIN_N - 1;
  g_assert_cmpint (gnn_conv2d_algo_f32 (&conv2), ==, GNN_CONV_ALGO_IM2COL);
  conv2 = geom_of (&(Case) { 64, 32, 64, 3, 3, 1 });
  g_assert_cmpint (conv2.oh * conv2.ow, <, GNN_WINOGRAD_MIN_L);
  g_assert_cmpint (gnn_conv2d_algo_f32 (&conv2), ==, GNN_CONV_ALGO_IM2COL);
  g_assert_false (gnn_conv2d_winograd_fits (&strided));
  g_assert_cmpint (gnn_conv2d_algo_f32 (&strided), ==, GNN_CONV_ALGO_IM2COL);
  g_assert_false (gnn_conv2d_winograd_fits (&padded));
  /* fewer images: F(4×4) over strips on maps of GNN_WINOGRAD_STRIPS_MIN_OH
   * rows (ResNet-18's layer1 at batch 1), im2col on smaller ones */
  conv2 = geom_of (&(Case) { 1, 64, 64, 56, 56, 1 });
  g_assert_cmpint (gnn_conv2d_algo_f32 (&conv2), ==, GNN_CONV_ALGO_WINOGRAD_STRIPS);
  conv2 = geom_of (&(Case) { GNN_WINOGRAD_MIN_N - 1, 64, 64, GNN_WINOGRAD_STRIPS_MIN_OH, 30, 1 });
  g_assert_cmpint (gnn_conv2d_algo_f32 (&conv2), ==, GNN_CONV_ALGO_WINOGRAD_STRIPS);
  conv2 = geom_of (&(Case) { 1, 256, 256, 14, 14, 1 });
  g_assert_cmpint (gnn_conv2d_algo_f32 (&conv2), ==, GNN_CONV_ALGO_IM2COL);
}

/* F(4×4) over eight strips of each image against im2col: map heights that
 * are and are not multiples of 8 and of 4 strip rows, paddings 0-2, one and
 * several images, with and without bias, and through the dispatching entry
 * point (the default rule picks strips for the first case). */
static void
test_strips (void)
{
  static const Case cases[] = {
    { 1, 16, 24, 56, 56, 1 }, { 1, 5, 7, 24, 9, 1 }, { 3, 8, 8, 30, 17, 0 },
    { 2, 9, 4, 57, 20, 2 }, { 1, 4, 4, 8, 8, 1 }, { 1, 3, 6, 11, 5, 0 },
  };
  g_autoptr (GRand) rng = g_rand_new_with_seed (17);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_auto(Operands) o = operands_new (rng, c);
      g_autofree float *y_ref = g_new (float, o.ny), *y = g_new (float, o.ny);

      g_assert_true (gnn_conv2d_winograd_strips_fits (&o.g));
      gnn_conv_im2col_forward_f32 (&o.g, o.x, o.wt, o.bias, y_ref);
      memset (y, 0xff, sizeof (float) * o.ny);
      g_assert_true (gnn_conv2d_winograd_strips_forward_f32 (&o.g, o.x, o.wt, o.bias, y));
      assert_close (y, y_ref, o.ny, "strips forward", c);
      g_assert_true (gnn_conv2d_winograd_strips_forward_f32 (&o.g, o.x, o.wt, NULL, y));
      for (gint64 k = 0; k < o.ny; k++)
        y[k] += o.bias[(k / (o.g.oh * o.g.ow)) % c->cout];
      assert_close (y, y_ref, o.ny, "strips forward without bias", c);
      memset (y, 0xff, sizeof (float) * o.ny);
      g_assert_true (gnn_conv_forward_f32 (&o.g, o.x, o.wt, o.bias, y, NULL));
      assert_close (y, y_ref, o.ny, "dispatched forward", c);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/conv-winograd/kernels/fixed", test_kernels_fixed);
  g_test_add_func ("/tensor/conv-winograd/kernels/random", test_kernels_random);
  g_test_add_func ("/tensor/conv-winograd/kernels/many-blocks", test_kernels_many_blocks);
  g_test_add_func ("/tensor/conv-winograd/default-rule", test_default_rule);
  g_test_add_func ("/tensor/conv-winograd/strips", test_strips);
  g_test_add_func ("/tensor/conv-winograd/non-finite", test_non_finite);
  g_test_add_data_func ("/tensor/conv/out-of-memory/im2col", GINT_TO_POINTER (OOM_IM2COL),
                        test_out_of_memory);
  g_test_add_data_func ("/tensor/conv/out-of-memory/winograd", GINT_TO_POINTER (OOM_WINOGRAD),
                        test_out_of_memory);
  g_test_add_data_func ("/tensor/conv/out-of-memory/backward", GINT_TO_POINTER (OOM_BACKWARD),
                        test_out_of_memory);
  g_test_add_data_func ("/tensor/conv-winograd/public/winograd", "winograd", test_public_forced);
  g_test_add_data_func ("/tensor/conv-winograd/public/im2col", "im2col", test_public_forced);
  g_test_add_data_func ("/tensor/conv-winograd/public/direct", "direct", test_public_forced);
  g_test_add_func ("/tensor/conv-direct/kernels", test_direct_kernels);
  g_test_add_func ("/tensor/conv-direct/inf-input", test_direct_inf_input);
  return g_test_run ();
}
