/* gnn-special-math-private.h: the special functions libm lacks — erfinv,
 * digamma and trigamma — written as PyTorch 1.13 computes them
 * (aten/src/ATen/native/Math.h), so values and gradients agree with torch's
 * to rounding. Shared by the forward kernels (lib/tensor) and the
 * derivatives (lib/autograd).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <math.h>
#include <glib.h>

G_BEGIN_DECLS

/* A rational first guess refined by two Newton steps on erf. */
static inline double
gnn_erfinv (double y)
{
  static const double a[4] = { 0.886226899, -1.645349621, 0.914624893, -0.140543331 };
  static const double b[4] = { -2.118377725, 1.442710462, -0.329097515, 0.012229801 };
  static const double c[4] = { -1.970840454, -1.624906493, 3.429567803, 1.641345311 };
  static const double d[2] = { 3.543889200, 1.637067800 };
  double ya = fabs (y), x;

  if (!(ya <= 1.0))
    return NAN;
  if (ya == 1.0)
    return copysign (INFINITY, y);
  if (ya <= 0.7)
    {
      double z = y * y;
      double num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
      double dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0;

      x = y * num / dem;
    }
  else
    {
      double z = sqrt (-log ((1.0 - ya) / 2.0));
      double num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
      double dem = (d[1] * z + d[0]) * z + 1.0;

      x = copysign (num, y) / dem;
    }
  x = x - (erf (x) - y) / (M_2_SQRTPI * exp (-x * x));
  x = x - (erf (x) - y) / (M_2_SQRTPI * exp (-x * x));
  return x;
}

/* ψ(x): -inf at +0 (+inf at -0), NaN at the negative integers, the
 * reflection formula below 0, then the recurrence up to 10 and the
 * asymptotic series. */
static inline double
gnn_digamma (double x)
{
  static const double psi_10 = 2.25175258906672110764;
  static const double A[] = {
    8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
    -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
    8.33333333333333333333E-2,
  };
  double result = 0.0, y = 0.0;

  if (x == 0)
    return copysign (INFINITY, -x);
  if (x < 0)
    {
      double q, r;

      if (x == trunc (x))
        return NAN;
      r = modf (x, &q);
      return gnn_digamma (1 - x) - G_PI / tan (G_PI * r);
    }
  while (x < 10)
    {
      result -= 1 / x;
      x += 1;
    }
  if (x == 10)
    return result + psi_10;
  if (x < 1.0e17)
    {
      double z = 1.0 / (x * x), p = A[0];

      for (guint i = 1; i < G_N_ELEMENTS (A); i++)
        p = p * z + A[i];
      y = z * p;
    }
  return result + log (x) - (0.5 / x) - y;
}

/* ψ'(x), digamma's derivative (torch's polygamma (1, x)). */
static inline double
gnn_trigamma (double x)
{
  double sign = 1.0, result = 0.0, ixx;

  if (x < 0.5)
    {
      double s = sin (G_PI * x);

      sign = -1.0;
      result -= (G_PI * G_PI) / (s * s);
      x = 1 - x;
    }
  for (int i = 0; i < 6; i++)
    {
      result += 1 / (x * x);
      x += 1;
    }
  ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x;
  return sign * result;
}

G_END_DECLS
