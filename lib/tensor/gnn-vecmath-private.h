/* gnn-vecmath-private.h: branch-free log and sin/cos of 2πu for vector loops
 *
 * libm's log and sincos are calls GCC cannot vectorize, and they were
 * half of building a network whose weights are normal (Box–Muller). These
 * are plain C polynomials (no libm call, no -ffast-math, the same bits at
 * every GNN_DISPATCH_KERNEL level since ISO C mode never contracts to FMA)
 * for the only domains the random fills need, so they have no special
 * cases:
 *
 * - log of a positive normal finite number: fdlibm's e_log(f).c reduction
 *   (m in (√2/2, √2], log(1+f) = 2s + s·R(s²), s = f / (2 + f)), < 1 ulp;
 * - sin and cos of 2πu for u in [0, 1]: the quadrant is round(4u) and the
 *   remainder u − q/4 is exact, so there is no Cody–Waite step; Cephes'
 *   minimax polynomials on [−π/4, π/4], ~1 ulp.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

#define GNN_VECMATH_INLINE static inline __attribute__ ((always_inline))

/* log (x) for a positive normal finite float */
GNN_VECMATH_INLINE float
gnn_vec_logf (float x)
{
  guint32 bits, mbits;
  gint32 e, above;
  float m, f, s, z, w, r, hfsq, k;

  memcpy (&bits, &x, sizeof bits);
  e = (gint32) (bits >> 23) - 127;
  mbits = (bits & 0x007fffffu) | 0x3f800000u;   /* m in [1, 2) */
  above = mbits > 0x3fb504f3u ? 1 : 0;          /* m > √2: halve it */
  mbits -= (guint32) above << 23;
  e += above;
  memcpy (&m, &mbits, sizeof m);
  f = m - 1.0f;
  s = f / (2.0f + f);
  z = s * s;
  w = z * z;
  r = z * (0.66666662693f + w * 0.28498786688f) + w * (0.40000972152f + w * 0.24279078841f);
  hfsq = 0.5f * f * f;
  k = (float) e;
  return k * 6.9313812256e-01f - ((hfsq - (s * (hfsq + r) + k * 9.0580006145e-06f)) - f);
}

/* log (x) for a positive normal finite double */
GNN_VECMATH_INLINE double
gnn_vec_log (double x)
{
  guint64 bits, mbits;
  gint32 e, above;
  double m, f, s, z, w, t1, t2, hfsq, k;

  memcpy (&bits, &x, sizeof bits);
  e = (gint32) (bits >> 52) - 1023;
  mbits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  above = mbits > 0x3ff6a09e667f3bcdull ? 1 : 0;
  mbits -= (guint64) above << 52;
  e += above;
  memcpy (&m, &mbits, sizeof m);
  f = m - 1.0;
  s = f / (2.0 + f);
  z = s * s;
  w = z * z;
  t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 +
                                            w * 1.531383769920937332e-01));
  t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01 +
                                            w * (1.818357216161805012e-01 +
                                                 w * 1.479819860511658591e-01)));
  hfsq = 0.5 * f * f;
  k = (double) e;
  return k * 6.93147180369123816490e-01 -
         ((hfsq - (s * (hfsq + t2 + t1) + k * 1.90821492927058770002e-10)) - f);
}

/* The quadrant q = round(4u) of 2πu maps (sin t, cos t) of the remainder t
 * to (sin, cos) of 2πu: q odd swaps them, and the signs follow q's bits. */
#define GNN_VEC_QUADRANT(q, st, ct, s_out, c_out)                               \
  G_STMT_START {                                                                \
    gint32 odd_ = (q) & 1;                                                      \
    __typeof__ (st) cs_ = odd_ ? (st) : (ct);                                   \
    __typeof__ (st) sn_ = odd_ ? (ct) : (st);                                   \
    *(c_out) = (((q) + 1) & 2) ? -cs_ : cs_;                                    \
    *(s_out) = ((q) & 2) ? -sn_ : sn_;                                          \
  } G_STMT_END

/* sin (2πu) and cos (2πu) for u in [0, 1] */
GNN_VECMATH_INLINE void
gnn_vec_sincos_2pi_f (float  u,
                      float *s_out,
                      float *c_out)
{
  gint32 q = (gint32) (u * 4.0f + 0.5f);
  float t = (u - (float) q * 0.25f) * 6.28318530717958647692f;   /* |t| <= π/4 */
  float z = t * t;
  float st = ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * t + t;
  float ct = ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z +
              4.166664568298827e-2f) * z * z - 0.5f * z + 1.0f;

  GNN_VEC_QUADRANT (q, st, ct, s_out, c_out);
}

GNN_VECMATH_INLINE void
gnn_vec_sincos_2pi (double  u,
                    double *s_out,
                    double *c_out)
{
  gint32 q = (gint32) (u * 4.0 + 0.5);
  double t = (u - (double) q * 0.25) * 6.28318530717958647692;
  double z = t * t;
  double st = t + t * z * (((((1.58962301576546568060e-10 * z - 2.50507477628578072866e-8) * z +
                               2.75573136213857245213e-6) * z - 1.98412698295895385996e-4) * z +
                             8.33333333332211858878e-3) * z - 1.66666666666666307295e-1);
  double ct = 1.0 - 0.5 * z +
              z * z * (((((-1.13585365213876817300e-11 * z + 2.08757008419747316778e-9) * z -
                          2.75573141792967388112e-7) * z + 2.48015872888517045348e-5) * z -
                        1.38888888888730564116e-3) * z + 4.16666666666665929218e-2);

  GNN_VEC_QUADRANT (q, st, ct, s_out, c_out);
}
