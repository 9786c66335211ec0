/* gnn-gemm-small.c: a float32 GEMM for small matrices (see the header)
 *
 * Two loop orders, written with fixed-width vectors (GCC's vector
 * extension) so no sum is reassociated behind the compiler's back:
 *   B row-major (NoTrans): 4 columns of a row of C at a time, accumulated
 *     in registers as A(i, p) times 4 contiguous entries of row p of B;
 *   B transposed (Linear's x·Wᵀ): each C(i, j) is a dot product of a row of
 *     A and a row of Bᵀ, summed in independent lanes (a fixed-width vector,
 *     then a fixed tree), so the order does not depend on the compiler;
 *     LANES of them at a time share the loads of the row of A and are
 *     finished together by one transposing tree of shuffles and adds.
 * Lanes of 4 floats are SSE registers, the x86-64 baseline (8 would be
 * expanded element by element without -mavx). lib/meson.build also
 * compiles this file with -mavx2 and with -mavx512f (8 lanes each) under
 * other names; gnn-cpu.c picks one at run time (GNN_CPU_LEVEL forces one).
 * Results differ from OpenBLAS's, and between the variants, by float
 * rounding only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-gemm-small-private.h"

#ifndef GNN_SGEMM_SMALL_VARIANT
# define GNN_SGEMM_SMALL_VARIANT gnn_sgemm_small_baseline
# define LANES 4
#endif

typedef float Lanes __attribute__ ((vector_size (LANES * sizeof (float))));

/* unaligned loads; no function returns a Lanes (an ABI that depends on -mavx) */
#define LOAD_LANES(v, p) memcpy (&(v), (p), sizeof (Lanes))

/* the sum of the lanes, as a fixed tree (halves added until one is left) */
#define HSUM(v, out)                                    \
  G_STMT_START {                                        \
    float h_[LANES];                                    \
    memcpy (h_, &(v), sizeof h_);                       \
    for (guint w_ = LANES / 2; w_ >= 1; w_ /= 2)        \
      for (guint q_ = 0; q_ < w_; q_++)                 \
        h_[q_] += h_[q_ + w_];                          \
    (out) = h_[0];                                      \
  } G_STMT_END

/* Σ_p x[p·incx] · y[p], with x contiguous when incx == 1. */
static inline float
dot (const float *x,
     gint64       incx,
     const float *y,
     gint64       k)
{
  float s;
  gint64 p = 0;

  if (incx == 1 && k >= LANES)
    {
      Lanes acc = { 0 };

      for (; p + LANES <= k; p += LANES)
        {
          Lanes xv, yv;

          LOAD_LANES (xv, x + p);
          LOAD_LANES (yv, y + p);
          acc += xv * yv;
        }
      HSUM (acc, s);
    }
  else
    s = 0.0f;
  for (; p < k; p++)
    s += x[p * incx] * y[p];
  return s;
}

/* two-source lane shuffle (GCC and clang spell it differently) */
#ifdef __clang__
# define SHUFFLE(a, b, ...) __builtin_shufflevector ((a), (b), __VA_ARGS__)
#else
typedef gint32 LaneIndex __attribute__ ((vector_size (LANES * sizeof (gint32))));
# define SHUFFLE(a, b, ...) __builtin_shuffle ((a), (b), (LaneIndex) { __VA_ARGS__ })
#endif

/* out[r] = the sum of the lanes of s[r], r < LANES, as one vector: a
 * transposing tree (adjacent lanes, then pairs of pairs, then halves), so
 * LANES dot products are finished with log2(LANES) adds of whole vectors
 * instead of one horizontal sum each. */
static inline void
sum_lanes_transposed (const Lanes *s,
                      Lanes       *out)
{
#if LANES == 8
  Lanes c[4], d[2];

  for (guint q = 0; q < 4; q++)
    c[q] = SHUFFLE (s[2 * q], s[2 * q + 1], 0, 8, 2, 10, 4, 12, 6, 14) +
           SHUFFLE (s[2 * q], s[2 * q + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  for (guint q = 0; q < 2; q++)
    d[q] = SHUFFLE (c[2 * q], c[2 * q + 1], 0, 1, 8, 9, 4, 5, 12, 13) +
           SHUFFLE (c[2 * q], c[2 * q + 1], 2, 3, 10, 11, 6, 7, 14, 15);
  *out = SHUFFLE (d[0], d[1], 0, 1, 2, 3, 8, 9, 10, 11) +
         SHUFFLE (d[0], d[1], 4, 5, 6, 7, 12, 13, 14, 15);
#elif LANES == 4
  Lanes c[2];

  for (guint q = 0; q < 2; q++)
    c[q] = SHUFFLE (s[2 * q], s[2 * q + 1], 0, 4, 2, 6) +
           SHUFFLE (s[2 * q], s[2 * q + 1], 1, 5, 3, 7);
  *out = SHUFFLE (c[0], c[1], 0, 1, 4, 5) + SHUFFLE (c[0], c[1], 2, 3, 6, 7);
#else
# error "sum_lanes_transposed: LANES must be 4 or 8"
#endif
}

/* crow[r] = bias[r] + Σ_p ai[p] · b[r·ldb + p] for the LANES rows r of b
 * (Linear's x·Wᵀ, one row of x): LANES dot products at once sharing the
 * loads of ai, finished together by sum_lanes_transposed(). */
static inline void
dot_lanes_rows (const float *ai,
                const float *b,
                gint64       ldb,
                gint64       k,
                const float *bias,
                float       *crow)
{
  Lanes s[LANES] = { { 0 } }, r;
  float tail[LANES];
  gint64 p = 0;

  for (; p + LANES <= k; p += LANES)
    {
      Lanes av;

      LOAD_LANES (av, ai + p);
      for (guint q = 0; q < LANES; q++)
        {
          Lanes bv;

          LOAD_LANES (bv, b + q * ldb + p);
          s[q] += av * bv;
        }
    }
  sum_lanes_transposed (s, &r);
  if (p < k)
    {
      for (guint q = 0; q < LANES; q++)
        {
          float t = 0.0f;

          for (gint64 pp = p; pp < k; pp++)
            t += ai[pp] * b[q * ldb + pp];
          tail[q] = t;
        }
      {
        Lanes tv;

        LOAD_LANES (tv, tail);
        r += tv;
      }
    }
  if (bias != NULL)
    {
      Lanes bv;

      LOAD_LANES (bv, bias);
      r += bv;
    }
  memcpy (crow, &r, sizeof r);
}

GNN_SGEMM_SMALL_DECLARE (GNN_SGEMM_SMALL_VARIANT)
{
  /* A(i, p) = a[i·ars + p·acs] */
  gint64 ars = trans_a ? 1 : lda, acs = trans_a ? lda : 1;

  if (!trans_b)
    {
      for (gint64 i = 0; i < m; i++)
        {
          float *crow = c + i * ldc;
          const float *ai = a + i * ars;
          gint64 j = 0;

          /* LANES columns at a time, their sums held in registers over p */
          for (; j + LANES <= n; j += LANES)
            {
              Lanes acc = { 0 };

              if (bias != NULL)
                LOAD_LANES (acc, bias + j);
              for (gint64 p = 0; p < k; p++)
                {
                  Lanes bv;

                  LOAD_LANES (bv, b + p * ldb + j);
                  acc += ai[p * acs] * bv;
                }
              memcpy (crow + j, &acc, sizeof acc);
            }
          for (; j < n; j++)
            {
              float s = bias != NULL ? bias[j] : 0.0f;

              for (gint64 p = 0; p < k; p++)
                s += ai[p * acs] * b[p * ldb + j];
              crow[j] = s;
            }
        }
      return;
    }

  for (gint64 i = 0; i < m; i++)
    {
      float *restrict crow = c + i * ldc;
      const float *ai = a + i * ars;
      gint64 j = 0;

      /* LANES dot products at a time share the loads of the row of A */
      if (acs == 1 && k >= LANES)
        for (; j + LANES <= n; j += LANES)
          dot_lanes_rows (ai, b + j * ldb, ldb, k, bias != NULL ? bias + j : NULL, crow + j);
      /* then four */
      if (acs == 1)
        for (; j + 4 <= n; j += 4)
          {
            const float *b0 = b + j * ldb, *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
            Lanes s0 = { 0 }, s1 = { 0 }, s2 = { 0 }, s3 = { 0 };
            float r[4];
            gint64 p = 0;

            for (; p + LANES <= k; p += LANES)
              {
                Lanes av, v0, v1, v2, v3;

                LOAD_LANES (av, ai + p);
                LOAD_LANES (v0, b0 + p);
                LOAD_LANES (v1, b1 + p);
                LOAD_LANES (v2, b2 + p);
                LOAD_LANES (v3, b3 + p);
                s0 += av * v0;
                s1 += av * v1;
                s2 += av * v2;
                s3 += av * v3;
              }
            HSUM (s0, r[0]);
            HSUM (s1, r[1]);
            HSUM (s2, r[2]);
            HSUM (s3, r[3]);
            for (; p < k; p++)
              {
                r[0] += ai[p] * b0[p];
                r[1] += ai[p] * b1[p];
                r[2] += ai[p] * b2[p];
                r[3] += ai[p] * b3[p];
              }
            for (guint q = 0; q < 4; q++)
              crow[j + q] = (bias != NULL ? bias[j + q] : 0.0f) + r[q];
          }
      for (; j < n; j++)
        crow[j] = (bias != NULL ? bias[j] : 0.0f) + dot (ai, acs, b + j * ldb, k);
    }
}
