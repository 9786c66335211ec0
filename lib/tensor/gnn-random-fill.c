/* gnn-random-fill.c: counter-based uniform fills for the initializers
 *
 * A float tensor's uniform fill takes one 64-bit key from the generator
 * (one xoshiro256** draw) and derives element k of the fill (row-major)
 * from the SplitMix64 output for a counter c: mix (key + (c + 1) · γ). No
 * element depends on the one before, so the loop vectorizes (xoshiro's
 * state is a serial chain: 27 instructions per float, most of building a
 * Linear), and the values still depend only on the generator's state and
 * the logical index, not on the tensor's strides or on how the caller
 * chunks the fill.
 *
 * float64: counter k, its top 52 bits as the mantissa of a double in
 * [1, 2), minus 1. float32: counter k / 2, the low 32 bits for an even k and
 * the high 32 bits for an odd one (a float needs 24), placed the same way:
 * one mix per two floats, since AVX2 emulates the 64-bit multiplies (exact,
 * and no int64 → double conversion, which AVX2 lacks either). Rounding
 * a + (b − a)·u may still land on b; such a value is replaced by the
 * largest one below b (probability ~2⁻²⁴ in float32), so results stay in
 * [a, b) without a data-dependent redraw.
 *
 * Normal fills (Box–Muller, like torch's normal_fill) pair element 2j
 * with 2j + 1: u1 in (0, 1] and u2 in [0, 1) give r = √(−2 log u1), then
 * r·cos 2πu2 and r·sin 2πu2, with the log and sin/cos of
 * gnn-vecmath-private.h so the loop vectorizes. float32: one mix per pair
 * (counter j), the low 24 bits for u1 (k + 1)/2²⁴ and the top 24 for u2 —
 * tails reach 5.77σ; float64: counters 2j and 2j + 1, 52 bits each.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-cpu-private.h"
#include "tensor/gnn-vecmath-private.h"

#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ull

static inline __attribute__ ((always_inline)) guint64
mix (guint64 key,
     guint64 counter)
{
  guint64 z = key + (counter + 1) * SPLITMIX_GAMMA;

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* 52 random bits (the top of @z, or 32 of them followed by zeros) as a
 * uniform double in [0, 1). */
static inline __attribute__ ((always_inline)) double
unit_of_bits (guint64 mantissa)
{
  guint64 bits = 0x3ff0000000000000ull | mantissa;
  double u;

  memcpy (&u, &bits, sizeof u);
  return u - 1.0;
}

static inline __attribute__ ((always_inline)) double
unit_double (guint64 key,
             guint64 counter)
{
  return unit_of_bits (mix (key, counter) >> 12);
}

/* Element k's 32 bits of counter k / 2, as a uniform double. */
#define UNIT_LOW(z) unit_of_bits (((z) & 0xffffffffull) << 20)
#define UNIT_HIGH(z) unit_of_bits (((z) >> 32) << 20)

static inline __attribute__ ((always_inline)) float
to_range_f32 (double u,
              double a,
              double width,
              float  top,
              float  below_top)
{
  float v = (float) (a + width * u);

  return v >= top ? below_top : v;
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
  gint64 i = 0;

  if (n > 0 && (first & 1))
    dst[i++] = to_range_f32 (UNIT_HIGH (mix (key, first >> 1)), a, width, top, below_top);
  /* first + i is even from here: one mix, two elements */
  for (; i + 1 < n; i += 2)
    {
      guint64 z = mix (key, (first + (guint64) i) >> 1);

      dst[i] = to_range_f32 (UNIT_LOW (z), a, width, top, below_top);
      dst[i + 1] = to_range_f32 (UNIT_HIGH (z), a, width, top, below_top);
    }
  if (i < n)
    dst[i] = to_range_f32 (UNIT_LOW (mix (key, (first + (guint64) i) >> 1)), a, width, top,
                           below_top);
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

GNN_DISPATCH_KERNEL (fill_f32,
                 (guint64 key, guint64 first, float *dst, gint64 n, double a, double width,
                  float top, float below_top),
                 (key, first, dst, n, a, width, top, below_top))
GNN_DISPATCH_KERNEL (fill_f64,
                 (guint64 key, guint64 first, double *dst, gint64 n, double a, double width,
                  double top, double below_top),
                 (key, first, dst, n, a, width, top, below_top))

/* Strided elements go through a small contiguous block. */
#define FILL_BLOCK 256

/* The exported fills: a constant for an empty range, the kernel straight
 * into contiguous memory, or through a small block for strided memory. */
#define DEFINE_UNIFORM_FILL(T, suffix, NEXT_BELOW)                              \
void                                                                            \
gnn_random_fill_uniform_##suffix (guint64 key,                                  \
                                  guint64 first,                                \
                                  T      *dst,                                  \
                                  gint64  n,                                    \
                                  gint64  stride,                               \
                                  double  a,                                    \
                                  double  b)                                    \
{                                                                               \
  T top = (T) b;                                                                \
  T below_top = NEXT_BELOW (top, -INFINITY);                                    \
  T block[FILL_BLOCK];                                                          \
                                                                                \
  if (!(b > a))                                                                 \
    {                                                                           \
      for (gint64 i = 0; i < n; i++)                                            \
        dst[i * stride] = (T) a;                                                \
      return;                                                                   \
    }                                                                           \
  if (stride == 1)                                                              \
    {                                                                           \
      fill_##suffix (key, first, dst, n, a, b - a, top, below_top);             \
      return;                                                                   \
    }                                                                           \
  for (gint64 done = 0; done < n; done += FILL_BLOCK)                           \
    {                                                                           \
      gint64 len = MIN (FILL_BLOCK, n - done);                                  \
                                                                                \
      fill_##suffix (key, first + (guint64) done, block, len, a, b - a, top,    \
                     below_top);                                                \
      for (gint64 i = 0; i < len; i++)                                          \
        dst[(done + i) * stride] = block[i];                                    \
    }                                                                           \
}

DEFINE_UNIFORM_FILL (float, f32, nextafterf)
DEFINE_UNIFORM_FILL (double, f64, nextafter)

/* Normal fills: pairs go through a block of both halves, so a fill may
 * start or end in the middle of a pair. */
#define NORMAL_PAIRS 128

static inline __attribute__ ((always_inline)) void
normal_pairs_f32_typed (guint64 key,
                        guint64 pair,
                        gint64  n_pairs,
                        float   mean,
                        float   std,
                        float  *out)
{
  float u1[NORMAL_PAIRS], u2[NORMAL_PAIRS];

  for (gint64 j = 0; j < n_pairs; j++)
    {
      guint64 z = mix (key, pair + (guint64) j);

      u1[j] = (float) ((gint32) ((z & 0xffffffffull) >> 8) + 1) * 0x1p-24f;
      u2[j] = (float) (gint32) (z >> 40) * 0x1p-24f;
    }
  for (gint64 j = 0; j < n_pairs; j++)
    {
      float r = sqrtf (-2.0f * gnn_vec_logf (u1[j]));
      float s, c;

      gnn_vec_sincos_2pi_f (u2[j], &s, &c);
      out[2 * j] = r * c * std + mean;
      out[2 * j + 1] = r * s * std + mean;
    }
}

static inline __attribute__ ((always_inline)) void
normal_pairs_f64_typed (guint64 key,
                        guint64 pair,
                        gint64  n_pairs,
                        double  mean,
                        double  std,
                        double *out)
{
  double u1[NORMAL_PAIRS], u2[NORMAL_PAIRS];

  for (gint64 j = 0; j < n_pairs; j++)
    {
      u1[j] = 1.0 - unit_double (key, 2 * (pair + (guint64) j));
      u2[j] = unit_double (key, 2 * (pair + (guint64) j) + 1);
    }
  for (gint64 j = 0; j < n_pairs; j++)
    {
      double r = sqrt (-2.0 * gnn_vec_log (u1[j]));
      double s, c;

      gnn_vec_sincos_2pi (u2[j], &s, &c);
      out[2 * j] = r * c * std + mean;
      out[2 * j + 1] = r * s * std + mean;
    }
}

GNN_DISPATCH_KERNEL (normal_pairs_f32,
                 (guint64 key, guint64 pair, gint64 n_pairs, float mean, float std, float *out),
                 (key, pair, n_pairs, mean, std, out))
GNN_DISPATCH_KERNEL (normal_pairs_f64,
                 (guint64 key, guint64 pair, gint64 n_pairs, double mean, double std,
                  double *out),
                 (key, pair, n_pairs, mean, std, out))

/* Elements [first, first + n) of the stream, @stride apart: whole blocks of
 * pairs, of which the first and last may be cut. */
#define DEFINE_NORMAL_FILL(T, suffix)                                           \
void                                                                            \
gnn_random_fill_normal_##suffix (guint64 key,                                   \
                                 guint64 first,                                 \
                                 T      *dst,                                   \
                                 gint64  n,                                     \
                                 gint64  stride,                                \
                                 double  mean,                                  \
                                 double  std)                                   \
{                                                                               \
  T block[2 * NORMAL_PAIRS];                                                    \
  guint64 end = first + (guint64) n;                                            \
                                                                                \
  for (guint64 k = first; k < end;)                                             \
    {                                                                           \
      guint64 pair = k >> 1;                                                    \
      gint64 n_pairs = (gint64) MIN ((guint64) NORMAL_PAIRS,                    \
                                     ((end + 1) >> 1) - pair);                  \
      guint64 skip = k & 1;                                                     \
      guint64 len = MIN (2 * (guint64) n_pairs - skip, end - k);                \
      T *out = dst + (gint64) (k - first) * stride;                             \
                                                                                \
      normal_pairs_##suffix (key, pair, n_pairs, (T) mean, (T) std, block);     \
      if (stride == 1)                                                          \
        memcpy (out, block + skip, len * sizeof (T));                           \
      else                                                                      \
        for (guint64 i = 0; i < len; i++)                                       \
          out[(gint64) i * stride] = block[skip + i];                           \
      k += len;                                                                 \
    }                                                                           \
}

DEFINE_NORMAL_FILL (float, f32)
DEFINE_NORMAL_FILL (double, f64)
