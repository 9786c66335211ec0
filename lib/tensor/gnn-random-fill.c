/* gnn-random-fill.c: counter-based uniform fills for the initializers
 *
 * A float tensor's uniform fill takes one 64-bit key from the generator
 * (one xoshiro256** draw) and gives element k of the fill (row-major) the
 * SplitMix64 output for counter k: mix (key + (k + 1) · γ). No element
 * depends on the one before, so the loop vectorizes (xoshiro's state is a
 * serial chain: 27 instructions per float, most of building a Linear), and
 * the values still depend only on the generator's state and the logical
 * index, not on the tensor's strides or on how the caller chunks the fill.
 *
 * The uniform in [0, 1) takes the top 52 bits of the mix as the mantissa of
 * a double in [1, 2), minus 1 (exact, no int64 → double conversion, which
 * AVX2 lacks). Rounding a + (b − a)·u may still land on b; such a value is
 * replaced by the largest one below b (probability ~2⁻²⁴ in float32), so
 * results stay in [a, b) without a data-dependent redraw.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-cpu-private.h"

#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ull

static inline __attribute__ ((always_inline)) double
unit_double (guint64 key,
             guint64 counter)
{
  guint64 z = key + (counter + 1) * SPLITMIX_GAMMA;
  guint64 bits;
  double u;

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  bits = 0x3ff0000000000000ull | (z >> 12);
  memcpy (&u, &bits, sizeof u);
  return u - 1.0;
}

static inline __attribute__ ((always_inline)) void
fill_f32_typed (guint64 key,
                guint64 first,
                float  *dst,
                gint64  n,
                double  a,
                double  width,
                float   top,
                float   below_top)
{
  for (gint64 i = 0; i < n; i++)
    {
      float v = (float) (a + width * unit_double (key, first + (guint64) i));

      dst[i] = v >= top ? below_top : v;
    }
}

static inline __attribute__ ((always_inline)) void
fill_f64_typed (guint64 key,
                guint64 first,
                double *dst,
                gint64  n,
                double  a,
                double  width,
                double  top,
                double  below_top)
{
  for (gint64 i = 0; i < n; i++)
    {
      double v = a + width * unit_double (key, first + (guint64) i);

      dst[i] = v >= top ? below_top : v;
    }
}

DISPATCH_KERNEL (fill_f32,
                 (guint64 key, guint64 first, float *dst, gint64 n, double a, double width,
                  float top, float below_top),
                 (key, first, dst, n, a, width, top, below_top))
DISPATCH_KERNEL (fill_f64,
                 (guint64 key, guint64 first, double *dst, gint64 n, double a, double width,
                  double top, double below_top),
                 (key, first, dst, n, a, width, top, below_top))

/* Strided elements go through a small contiguous block. */
#define FILL_BLOCK 256

void
gnn_random_fill_uniform_f32 (guint64 key,
                             guint64 first,
                             float  *dst,
                             gint64  n,
                             gint64  stride,
                             double  a,
                             double  b)
{
  float top = (float) b;
  float below_top = nextafterf (top, -INFINITY);
  float block[FILL_BLOCK];

  if (!(b > a))
    {
      for (gint64 i = 0; i < n; i++)
        dst[i * stride] = (float) a;
      return;
    }
  if (stride == 1)
    {
      fill_f32 (key, first, dst, n, a, b - a, top, below_top);
      return;
    }
  for (gint64 done = 0; done < n; done += FILL_BLOCK)
    {
      gint64 len = MIN (FILL_BLOCK, n - done);

      fill_f32 (key, first + (guint64) done, block, len, a, b - a, top, below_top);
      for (gint64 i = 0; i < len; i++)
        dst[(done + i) * stride] = block[i];
    }
}

void
gnn_random_fill_uniform_f64 (guint64 key,
                             guint64 first,
                             double *dst,
                             gint64  n,
                             gint64  stride,
                             double  a,
                             double  b)
{
  double below_top = nextafter (b, -INFINITY);
  double block[FILL_BLOCK];

  if (!(b > a))
    {
      for (gint64 i = 0; i < n; i++)
        dst[i * stride] = a;
      return;
    }
  if (stride == 1)
    {
      fill_f64 (key, first, dst, n, a, b - a, b, below_top);
      return;
    }
  for (gint64 done = 0; done < n; done += FILL_BLOCK)
    {
      gint64 len = MIN (FILL_BLOCK, n - done);

      fill_f64 (key, first + (guint64) done, block, len, a, b - a, b, below_top);
      for (gint64 i = 0; i < len; i++)
        dst[(done + i) * stride] = block[i];
    }
}
