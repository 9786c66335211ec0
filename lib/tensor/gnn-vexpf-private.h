/* gnn-vexpf-private.h: a float32 exp that gcc vectorizes, shared by the
 * softmax kernels (gnn-tensor-softmax.c) and attention's masked softmax
 * (gnn-attention-kernels.c)
 *
 * Include it where the loops calling it are compiled with -O3 and
 * no-trapping-math (see the softmax kernels): inlined into every CPU
 * level's copy of the loop.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

/* exp for float32 softmax, written so gcc vectorizes the loops that call it
 * (libm's expf is a call per element). Cephes' range reduction (rounding
 * through the 1.5 * 2^23 trick, no int conversion) and degree-6 polynomial:
 * about 1 ulp. exp (-inf) is exactly 0 (masked logits), NaN propagates. */
static inline __attribute__ ((always_inline)) float
gnn_vexpf (float x)
{
  union { float f; gint32 i; } kb, pow2;
  float xc = x > 88.3762626647949f ? 88.3762626647949f : x;
  float fl, r, z, y;

  xc = xc < -87.3365447504f ? -87.3365447504f : xc;
  kb.f = xc * 1.44269504088896341f + 12582912.0f;
  fl = kb.f - 12582912.0f;                         /* round (xc / ln 2) */
  r = xc - fl * 0.693359375f + fl * 2.12194440e-4f;
  z = r * r;
  y = ((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r
        + 4.1665795894e-2f) * r + 1.6666665459e-1f) * r + 5.0000001201e-1f;
  y = y * z + r + 1.0f;
  /* 2^round (xc / ln 2); shifted unsigned: for a NaN x the exponent is
   * garbage (the result is x) and a signed shift would be undefined */
  pow2.i = (gint32) ((guint32) (kb.i - 0x4B400000 + 127) << 23);
  y *= pow2.f;
  y = x < -87.3365447504f ? 0.0f : y;
  return x != x ? x : y;
}
