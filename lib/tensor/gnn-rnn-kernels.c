/* gnn-rnn-kernels.c: the fused gate kernels of a recurrent step and their
 * backward (see gnn-rnn-private.h)
 *
 * One pass over a step's gates: the nonlinearities, the cell update and the
 * new state, so a step reads its gates once instead of once per op. The
 * float32 loops call no libm function: exp is a Cephes-style polynomial
 * (2^n · p(r), within 2 ulp) and tanh a polynomial near 0 with
 * 1 - 2 / (exp (2x) + 1) beyond, so gcc vectorizes them, and
 * GNN_DISPATCH_KERNEL builds them per CPU level (the same bits on each: no FMA
 * contraction, no reassociation). Float64 uses libm (tests and the rare
 * double model). Built with -O3 (a kernel source).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-rnn-private.h"
#include "tensor/gnn-cpu-private.h"

/* Selects between both computed branches (tanh's two forms, relu) without
 * a conditional branch: allow if-conversion (no code here enables traps). */
#pragma GCC optimize ("no-trapping-math")

/* --- float32 math -------------------------------------------------------- */

GNN_KERNEL_INLINE float
bits_to_float (gint32 bits)
{
  union { gint32 i; float f; } u = { .i = bits };

  return u.f;
}

/* exp (x) for x clamped to [-87, 88], so that 2^n stays a normal float. */
GNN_KERNEL_INLINE float
exp_f32 (float x)
{
  const float shifter = 12582912.0f;   /* 1.5 · 2^23: adding it rounds to an integer */
  float n, r, r2, p;
  gint32 ni;

  x = x < -87.0f ? -87.0f : x;
  x = x > 88.0f ? 88.0f : x;
  n = x * 1.44269504088896341f + shifter;
  ni = (gint32) (n - shifter);
  n = n - shifter;
  r = x - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  r2 = r * r;
  p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r2 + r + 1.0f;
  return p * bits_to_float ((ni + 127) << 23);
}

GNN_KERNEL_INLINE float
sigmoid_f32 (float x)
{
  return 1.0f / (1.0f + exp_f32 (-x));
}

/* Cephes tanhf: an odd polynomial for |x| < 0.625, else from exp. */
GNN_KERNEL_INLINE float
tanh_f32 (float x)
{
  float a = x < 0 ? -x : x;
  float z = x * x;
  float small = ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z
                  + 1.33314422036e-1f) * z - 3.33332819422e-1f) * z * x + x;
  float large = 1.0f - 2.0f / (exp_f32 (2.0f * a) + 1.0f);

  large = x < 0 ? -large : large;
  return a < 0.625f ? small : large;
}

GNN_KERNEL_INLINE double
sigmoid_f64 (double x)
{
  return 1.0 / (1.0 + exp (-x));
}

#define tanh_f64 tanh

/* --- the kernels, once per dtype ----------------------------------------- */

/* Each kernel is a loop over rows calling an inlined row function whose
 * operands are restrict parameters: gcc vectorizes that inner loop, where
 * restrict pointers declared inside the row loop left it scalar. */
#define DEFINE_RNN_KERNELS(T, TAG, SIGMOID, TANH)                                              \
GNN_KERNEL_INLINE void                                                                         \
lstm_forward_row_##TAG (gint64 hidden, T *restrict gi, T *restrict gf, T *restrict gg,         \
                        T *restrict go, T *restrict c, T *restrict tanh_c, T *restrict h)      \
{                                                                                              \
  for (gint64 j = 0; j < hidden; j++)                                                          \
    {                                                                                          \
      T i = SIGMOID (gi[j]), f = SIGMOID (gf[j]), g = TANH (gg[j]), o = SIGMOID (go[j]);       \
      T cn = f * c[j] + i * g;                                                                 \
      T tc = TANH (cn);                                                                        \
                                                                                               \
      gi[j] = i, gf[j] = f, gg[j] = g, go[j] = o;                                              \
      c[j] = cn;                                                                               \
      tanh_c[j] = tc;                                                                          \
      h[j] = o * tc;                                                                           \
    }                                                                                          \
}                                                                                              \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
lstm_forward_##TAG##_typed (gint64 rows, gint64 hidden, T *gates, T *c, T *tanh_c, T *h)       \
{                                                                                              \
  for (gint64 r = 0; r < rows; r++)                                                            \
    {                                                                                          \
      T *g = gates + r * 4 * hidden;                                                           \
                                                                                               \
      lstm_forward_row_##TAG (hidden, g, g + hidden, g + 2 * hidden, g + 3 * hidden,           \
                              c + r * hidden, tanh_c + r * hidden, h + r * hidden);            \
    }                                                                                          \
}                                                                                              \
GNN_DISPATCH_KERNEL (lstm_forward_##TAG, (gint64 rows, gint64 hidden, T *gates, T *c, T *tanh_c,   \
                                      T *h), (rows, hidden, gates, c, tanh_c, h))               \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
lstm_backward_row_##TAG (gint64 hidden, const T *restrict gi, const T *restrict gf,            \
                         const T *restrict gg, const T *restrict go, const T *restrict cp,     \
                         const T *restrict tc, const T *restrict dh, T *restrict dc,           \
                         T *restrict di, T *restrict df, T *restrict dg, T *restrict dout)     \
{                                                                                              \
  for (gint64 j = 0; j < hidden; j++)                                                          \
    {                                                                                          \
      T i = gi[j], f = gf[j], g = gg[j], o = go[j], t = tc[j];                                 \
      T d = dc[j] + dh[j] * o * ((T) 1 - t * t);                                               \
                                                                                               \
      dout[j] = dh[j] * t * o * ((T) 1 - o);                                                   \
      di[j] = d * g * i * ((T) 1 - i);                                                         \
      df[j] = d * cp[j] * f * ((T) 1 - f);                                                     \
      dg[j] = d * i * ((T) 1 - g * g);                                                         \
      dc[j] = d * f;                                                                           \
    }                                                                                          \
}                                                                                              \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
lstm_backward_##TAG##_typed (gint64 rows, gint64 hidden, const T *gates, const T *c_prev,      \
                             const T *tanh_c, const T *dh, T *dc, T *dgates)                   \
{                                                                                              \
  for (gint64 r = 0; r < rows; r++)                                                            \
    {                                                                                          \
      const T *g = gates + r * 4 * hidden;                                                     \
      T *d = dgates + r * 4 * hidden;                                                          \
                                                                                               \
      lstm_backward_row_##TAG (hidden, g, g + hidden, g + 2 * hidden, g + 3 * hidden,          \
                               c_prev + r * hidden, tanh_c + r * hidden, dh + r * hidden,      \
                               dc + r * hidden, d, d + hidden, d + 2 * hidden, d + 3 * hidden); \
    }                                                                                          \
}                                                                                              \
GNN_DISPATCH_KERNEL (lstm_backward_##TAG, (gint64 rows, gint64 hidden, const T *gates,         \
                                       const T *c_prev, const T *tanh_c, const T *dh, T *dc,   \
                                       T *dgates),                                             \
                 (rows, hidden, gates, c_prev, tanh_c, dh, dc, dgates))                        \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
gru_forward_row_##TAG (gint64 hidden, T *restrict xr, T *restrict xz, T *restrict xn,          \
                       const T *restrict hr, const T *restrict hz, const T *restrict hn,       \
                       const T *restrict hp, T *restrict h)                                    \
{                                                                                              \
  for (gint64 j = 0; j < hidden; j++)                                                          \
    {                                                                                          \
      T rg = SIGMOID (xr[j] + hr[j]), z = SIGMOID (xz[j] + hz[j]);                             \
      T n = TANH (xn[j] + rg * hn[j]);                                                         \
                                                                                               \
      xr[j] = rg, xz[j] = z, xn[j] = n;                                                        \
      h[j] = ((T) 1 - z) * n + z * hp[j];                                                      \
    }                                                                                          \
}                                                                                              \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
gru_forward_##TAG##_typed (gint64 rows, gint64 hidden, T *xg, const T *hg, const T *h_prev,    \
                           T *h)                                                               \
{                                                                                              \
  for (gint64 r = 0; r < rows; r++)                                                            \
    {                                                                                          \
      T *x = xg + r * 3 * hidden;                                                              \
      const T *hh = hg + r * 3 * hidden;                                                       \
                                                                                               \
      gru_forward_row_##TAG (hidden, x, x + hidden, x + 2 * hidden, hh, hh + hidden,           \
                             hh + 2 * hidden, h_prev + r * hidden, h + r * hidden);            \
    }                                                                                          \
}                                                                                              \
GNN_DISPATCH_KERNEL (gru_forward_##TAG, (gint64 rows, gint64 hidden, T *xg, const T *hg,       \
                                     const T *h_prev, T *h), (rows, hidden, xg, hg, h_prev, h)) \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
gru_backward_row_##TAG (gint64 hidden, const T *restrict gr, const T *restrict gz,             \
                        const T *restrict gn, const T *restrict hn, const T *restrict hp,      \
                        T *restrict dh, T *restrict dxr, T *restrict dxz, T *restrict dxn,     \
                        T *restrict dhr, T *restrict dhz, T *restrict dhn)                     \
{                                                                                              \
  for (gint64 j = 0; j < hidden; j++)                                                          \
    {                                                                                          \
      T rg = gr[j], z = gz[j], n = gn[j], d = dh[j];                                           \
      T dn = d * ((T) 1 - z) * ((T) 1 - n * n);                                                \
      T dz = d * (hp[j] - n) * z * ((T) 1 - z);                                                \
      T dr = dn * hn[j] * rg * ((T) 1 - rg);                                                   \
                                                                                               \
      dxr[j] = dr, dxz[j] = dz, dxn[j] = dn;                                                   \
      dhr[j] = dr, dhz[j] = dz, dhn[j] = dn * rg;                                              \
      dh[j] = d * z;                                                                           \
    }                                                                                          \
}                                                                                              \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
gru_backward_##TAG##_typed (gint64 rows, gint64 hidden, const T *gates, const T *hg,           \
                            const T *h_prev, T *dh, T *dxg, T *dhg)                            \
{                                                                                              \
  for (gint64 r = 0; r < rows; r++)                                                            \
    {                                                                                          \
      const T *g = gates + r * 3 * hidden;                                                     \
      T *dx = dxg + r * 3 * hidden, *dhh = dhg + r * 3 * hidden;                               \
                                                                                               \
      gru_backward_row_##TAG (hidden, g, g + hidden, g + 2 * hidden,                           \
                              hg + r * 3 * hidden + 2 * hidden, h_prev + r * hidden,           \
                              dh + r * hidden, dx, dx + hidden, dx + 2 * hidden, dhh,          \
                              dhh + hidden, dhh + 2 * hidden);                                 \
    }                                                                                          \
}                                                                                              \
GNN_DISPATCH_KERNEL (gru_backward_##TAG, (gint64 rows, gint64 hidden, const T *gates, const T *hg, \
                                      const T *h_prev, T *dh, T *dxg, T *dhg),                 \
                 (rows, hidden, gates, hg, h_prev, dh, dxg, dhg))                              \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
simple_forward_##TAG##_typed (gboolean relu, gint64 n, T *restrict gates)                      \
{                                                                                              \
  if (relu)                                                                                    \
    for (gint64 i = 0; i < n; i++)                                                             \
      gates[i] = gates[i] < 0 ? (T) 0 : gates[i];                                              \
  else                                                                                         \
    for (gint64 i = 0; i < n; i++)                                                             \
      gates[i] = TANH (gates[i]);                                                              \
}                                                                                              \
GNN_DISPATCH_KERNEL (simple_forward_##TAG, (gboolean relu, gint64 n, T *gates), (relu, n, gates))  \
                                                                                               \
GNN_KERNEL_INLINE void                                                                         \
simple_backward_##TAG##_typed (gboolean relu, gint64 n, const T *restrict gates,               \
                               const T *restrict dh, T *restrict dgates)                       \
{                                                                                              \
  if (relu)                                                                                    \
    for (gint64 i = 0; i < n; i++)                                                             \
      dgates[i] = gates[i] > 0 ? dh[i] : (T) 0;                                                \
  else                                                                                         \
    for (gint64 i = 0; i < n; i++)                                                             \
      dgates[i] = dh[i] * ((T) 1 - gates[i] * gates[i]);                                       \
}                                                                                              \
GNN_DISPATCH_KERNEL (simple_backward_##TAG, (gboolean relu, gint64 n, const T *gates, const T *dh, \
                                         T *dgates), (relu, n, gates, dh, dgates))

DEFINE_RNN_KERNELS (float, f32, sigmoid_f32, tanh_f32)
DEFINE_RNN_KERNELS (double, f64, sigmoid_f64, tanh_f64)

/* --- entry points ---------------------------------------------------------- */

void
gnn_rnn_lstm_forward (GnnDType dtype,
                      gint64   rows,
                      gint64   hidden,
                      gpointer gates,
                      gpointer c,
                      gpointer tanh_c,
                      gpointer h)
{
  if (dtype == GNN_DTYPE_F32)
    lstm_forward_f32 (rows, hidden, gates, c, tanh_c, h);
  else
    lstm_forward_f64 (rows, hidden, gates, c, tanh_c, h);
}

void
gnn_rnn_lstm_backward (GnnDType      dtype,
                       gint64        rows,
                       gint64        hidden,
                       gconstpointer gates,
                       gconstpointer c_prev,
                       gconstpointer tanh_c,
                       gconstpointer dh,
                       gpointer      dc,
                       gpointer      dgates)
{
  if (dtype == GNN_DTYPE_F32)
    lstm_backward_f32 (rows, hidden, gates, c_prev, tanh_c, dh, dc, dgates);
  else
    lstm_backward_f64 (rows, hidden, gates, c_prev, tanh_c, dh, dc, dgates);
}

void
gnn_rnn_gru_forward (GnnDType      dtype,
                     gint64        rows,
                     gint64        hidden,
                     gpointer      xg,
                     gconstpointer hg,
                     gconstpointer h_prev,
                     gpointer      h)
{
  if (dtype == GNN_DTYPE_F32)
    gru_forward_f32 (rows, hidden, xg, hg, h_prev, h);
  else
    gru_forward_f64 (rows, hidden, xg, hg, h_prev, h);
}

void
gnn_rnn_gru_backward (GnnDType      dtype,
                      gint64        rows,
                      gint64        hidden,
                      gconstpointer gates,
                      gconstpointer hg,
                      gconstpointer h_prev,
                      gpointer      dh,
                      gpointer      dxg,
                      gpointer      dhg)
{
  if (dtype == GNN_DTYPE_F32)
    gru_backward_f32 (rows, hidden, gates, hg, h_prev, dh, dxg, dhg);
  else
    gru_backward_f64 (rows, hidden, gates, hg, h_prev, dh, dxg, dhg);
}

void
gnn_rnn_simple_forward (GnnDType dtype,
                        gboolean relu,
                        gint64   n,
                        gpointer gates)
{
  if (dtype == GNN_DTYPE_F32)
    simple_forward_f32 (relu, n, gates);
  else
    simple_forward_f64 (relu, n, gates);
}

void
gnn_rnn_simple_backward (GnnDType      dtype,
                         gboolean      relu,
                         gint64        n,
                         gconstpointer gates,
                         gconstpointer dh,
                         gpointer      dgates)
{
  if (dtype == GNN_DTYPE_F32)
    simple_backward_f32 (relu, n, gates, dh, dgates);
  else
    simple_backward_f64 (relu, n, gates, dh, dgates);
}
