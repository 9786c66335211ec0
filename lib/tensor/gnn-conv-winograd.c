/* gnn-conv-winograd.c: float32 3×3 stride-1 conv2d as Winograd F(2×2, 3×3)
 *
 * Each 2×2 block of outputs (a tile) comes from a 4×4 input patch d and the
 * 3×3 kernel g as Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A: 16 products per tile and
 * channel pair instead of im2col's 36, so 2.25× less GEMM arithmetic. Summed
 * over input channels, each of the 16 transform positions k is a GEMM
 *
 *   M[k] [cout, tiles] = U[k] [cout, cin] · V[k] [cin, tiles]
 *
 * with U the transformed weights (computed per call: the weights change at
 * every optimizer step) and V the transformed input tiles. The tiles of a
 * few whole images at a time form a block whose V and M stay in the caches
 * (4 MiB: larger blocks keep OpenBLAS's threads busier, see bench/README.md);
 * the transforms are add/subtract loops vectorized over a row or a plane of
 * tiles.
 *
 * The input gradient is the same convolution of the output gradient with the
 * flipped, transposed kernel and padding 2 - p. The weight gradient is the
 * transpose of the forward: dU[k] = (A dY Aᵀ)[k] · V[k]ᵀ summed over tiles,
 * then dg = Gᵀ dU G. The transforms only add, subtract and halve, so the
 * result differs from im2col's by float32 rounding only (~1e-6 relative).
 *
 * Batches of 8 images or more run F(4×4, 3×3) (gnn-conv-winograd4.c, 1.8×
 * fewer products per output) for their first ⌊n / 8⌋ · 8 images: this file
 * computes the rest, and small batches, whose F(4×4) would pad the group
 * of 8.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-parallel-private.h"

/* Bytes of transformed tiles (V and M together) per block of images. */
#define BLOCK_BYTES (4 << 20)

/* One Winograd convolution: input [n, cin, h, w] padded by (ph, pw), 0..2,
 * to the output [n, cout, oh, ow], tiled in th × tw tiles of 2×2 outputs
 * (the last ones cut when oh or ow is odd). */
typedef struct
{
  gint64 n, cin, h, w, cout, oh, ow, ph, pw;
  gint64 th, tw, tiles;   /* tiles per image = th · tw */
} Shape;

static Shape
shape_new (gint64 n, gint64 cin, gint64 h, gint64 w, gint64 cout,
           gint64 oh, gint64 ow, gint64 ph, gint64 pw)
{
  Shape s = { n, cin, h, w, cout, oh, ow, ph, pw, (oh + 1) / 2, (ow + 1) / 2, 0 };

  s.tiles = s.th * s.tw;
  return s;
}

/* Images per block when each image's tiles take @per_tile floats. */
static gint64
block_images (const Shape *s,
              gint64       per_tile)
{
  gint64 per_image = MAX (16 * per_tile * s->tiles * (gint64) sizeof (float), 1);

  return CLAMP (BLOCK_BYTES / per_image, 1, s->n);
}

/* input_plane() computes whole groups of 4 tiles, writing up to 3 past a
 * row of tiles: the next row overwrites them, the rows of V have this much
 * slack after the last. Without a remainder loop gcc's vector loop covers
 * a row of tiles (7 for a 14×14 map). */
#define TW4(tw) (((tw) + 3) & ~(gint64) 3)
#define V_SLACK 4

/* Scratch of one call: the padded input plane split by row and column
 * parity (so that every transform loop reads with unit stride), and four
 * per-tile arrays for the output-side transforms. */
typedef struct
{
  gint64 stride;        /* row length of a parity plane: TW4 (tw) + 1 */
  float *par[4];        /* [row parity · 2 + column parity][th + 1][stride] */
  float *q[4];          /* [tiles] each */
} Work;

/* FALSE if the buffers cannot be allocated. */
static gboolean
work_init (Work        *wk,
           const Shape *s)
{
  gint64 plane = (s->th + 1) * (TW4 (s->tw) + 1);
  float *buf = gnn_conv_try_alloc (4, plane + s->tiles, sizeof (float), TRUE);

  if (buf == NULL)
    return FALSE;
  wk->stride = TW4 (s->tw) + 1;
  for (gint64 i = 0; i < 4; i++)
    {
      wk->par[i] = buf + i * plane;
      wk->q[i] = buf + 4 * plane + i * s->tiles;
    }
  return TRUE;
}

static void
work_clear (Work *wk)
{
  gnn_conv_free (wk->par[0]);
}

/* Copies @plane [h, w] into the parity planes at offset (ph, pw). The padding
 * around it was zeroed by work_init() and is never written. */
static void
split_plane (const Shape *s,
             const float *plane,
             Work        *wk)
{
  gint64 end = s->pw + s->w;

  for (gint64 y = 0; y < s->h; y++)
    {
      gint64 r = y + s->ph, col = s->pw;
      const float *row = plane + y * s->w;
      float *ev = wk->par[2 * (r & 1)] + (r >> 1) * wk->stride;
      float *od = wk->par[2 * (r & 1) + 1] + (r >> 1) * wk->stride;

      /* padded column col goes to ev or od [col / 2]; scalar pairs: a row is
       * too short for vectors to pay for their set-up */
      if (col & 1)
        od[col >> 1] = row[col - s->pw], col++;
      for (; col + 1 < end; col += 2)
        {
          ev[col >> 1] = row[col - s->pw];
          od[col >> 1] = row[col + 1 - s->pw];
        }
      if (col < end)
        ev[col >> 1] = row[col - s->pw];
    }
}

/* Row i of V = Bᵀ d B for a row of tiles: q = a + sign · b on d's rows
 * (Bᵀ's row i), then Bᵀ on the columns (even [tx], odd [tx], even [tx + 1],
 * odd [tx + 1]) of q. A function of its own so that its four output
 * streams stay in registers (all sixteen at once spill). */
static inline void
tile_row (const float *restrict ae,
          const float *restrict ao,
          const float *restrict be,
          const float *restrict bo,
          float                 sign,
          gint64                n,
          float *restrict       d0,
          float *restrict       d1,
          float *restrict       d2,
          float *restrict       d3)
{
#pragma GCC ivdep
  for (gint64 tx = 0; tx < n; tx++)
    {
      float e0 = ae[tx] + sign * be[tx], o0 = ao[tx] + sign * bo[tx];
      float e1 = ae[tx + 1] + sign * be[tx + 1], o1 = ao[tx + 1] + sign * bo[tx + 1];

      d0[tx] = e0 - e1;
      d1[tx] = o0 + e1;
      d2[tx] = e1 - o0;
      d3[tx] = o0 - o1;
    }
}

/* The transforms run over planes (one image's channel), split among the
 * threads by gnn_parallel_for(); each range has its own Work. A job holds
 * the arguments of one transform of one block of images. */
typedef struct
{
  const Shape *s;
  gint64 ld;              /* tiles of the block: a row of V, M or Z */
  const float *in;        /* x (input_plane), go (grad_plane) */
  float *tiles;           /* V, M or Z */
  const float *bias;      /* output_plane */
  gboolean add;
  float *out;
  gint *no_memory;        /* set (atomically) by a range that lacks its Work */
} TileJob;

/* Planes per range: a plane's transform is a few hundred nanoseconds, a
 * parallel region costs tens of microseconds. */
#define PLANES_GRAIN 64

/* V = Bᵀ d B for the tiles of the block's planes [p0, p1) (p = image · cin +
 * channel of @in, [nb, cin, h, w]) into v[k][c][t] (row length ld + V_SLACK,
 * tile t = image · tiles + ty · tw + tx). Bᵀ = [1 0 -1 0; 0 1 1 0; 0 -1 1 0;
 * 0 1 0 -1]; d's rows 0..3 are the even, odd, next even and next odd rows
 * of the parity planes (e, o, e1, o1). */
static void
input_plane (const TileJob *job,
             gint64         p,
             Work          *wk)
{
  const Shape *s = job->s;
  gint64 ldv = job->ld + V_SLACK, plane_k = s->cin * ldv, tw4 = TW4 (s->tw), ps = wk->stride;
  float *dst = job->tiles + (p % s->cin) * ldv + (p / s->cin) * s->tiles;

  split_plane (s, job->in + p * s->h * s->w, wk);
  for (gint64 ty = 0; ty < s->th; ty++, dst += s->tw)
    {
      const float *ee = wk->par[0] + ty * ps, *eo = wk->par[1] + ty * ps;
      const float *oe = wk->par[2] + ty * ps, *oo = wk->par[3] + ty * ps;
      float *d[16];

      for (gint64 k = 0; k < 16; k++)
        d[k] = dst + k * plane_k;
      /* Bᵀ's rows: d0 - d2, d1 + d2, d2 - d1, d1 - d3 */
      tile_row (ee, eo, ee + ps, eo + ps, -1.0f, tw4, d[0], d[1], d[2], d[3]);
      tile_row (oe, oo, ee + ps, eo + ps, 1.0f, tw4, d[4], d[5], d[6], d[7]);
      tile_row (ee + ps, eo + ps, oe, oo, -1.0f, tw4, d[8], d[9], d[10], d[11]);
      tile_row (oe, oo, oe + ps, oo + ps, -1.0f, tw4, d[12], d[13], d[14], d[15]);
    }
}

/* The range functions, each with its own Work. The input transform's
 * ranges are channels, each over all images of the block in order:
 * input_plane() writes up to 3 tiles past the last row of a plane, into the
 * next image's first tiles (or the slack after the last image), so the next
 * image of the same channel must be transformed after it, by the same
 * thread. The other transforms write exactly their own plane. */
static void
input_tiles_range (gint64   c0,
                   gint64   c1,
                   gpointer data)
{
  const TileJob *job = data;
  gint64 cin = job->s->cin, nb = job->ld / job->s->tiles;
  Work wk;

  if (!work_init (&wk, job->s))
    {
      g_atomic_int_set (job->no_memory, 1);
      return;
    }
  for (gint64 c = c0; c < c1; c++)
    for (gint64 b = 0; b < nb; b++)
      input_plane (job, b * cin + c, &wk);
  work_clear (&wk);
}

#define DEFINE_TILES_RANGE(name, plane_func)                                    \
static void                                                                     \
name (gint64 p0, gint64 p1, gpointer data)                                      \
{                                                                               \
  const TileJob *job = data;                                                    \
  Work wk;                                                                      \
                                                                                \
  if (!work_init (&wk, job->s))                                                 \
    {                                                                           \
      g_atomic_int_set (job->no_memory, 1);                                     \
      return;                                                                   \
    }                                                                           \
  for (gint64 p = p0; p < p1; p++)                                              \
    plane_func (data, p, &wk);                                                  \
  work_clear (&wk);                                                             \
}

static void output_plane (const TileJob *job, gint64 p, Work *wk);
static void grad_plane (const TileJob *job, gint64 p, Work *wk);
DEFINE_TILES_RANGE (output_tiles_range, output_plane)
DEFINE_TILES_RANGE (grad_tiles_range, grad_plane)

/* Runs the input transform of a block of @nb images (ranges of channels). */
static void
transform_input (const TileJob *job,
                 gint64         nb)
{
  gnn_parallel_for (job->s->cin, MAX (PLANES_GRAIN / nb, 1), input_tiles_range, (gpointer) job);
}

/* Runs the output-side transform @range over the @planes planes of a block. */
static void
transform_planes (GnnParallelFunc range,
                  gint64          planes,
                  const TileJob  *job)
{
  gnn_parallel_for (planes, PLANES_GRAIN, range, (gpointer) job);
}

/* Y = Aᵀ m A (+ bias) of the tiles m[k][o][t] of the block's planes [p0,
 * p1) (p = image · cout + o) into @out ([nb, cout, oh, ow]), added to it
 * when @add; Aᵀ = [1 1 1 0; 0 1 -1 -1]. The transform runs over all tiles
 * of a plane at once, then the four outputs of each tile go to their places
 * (cut at odd oh or ow). */
static void
output_plane (const TileJob *job,
              gint64         p,
              Work          *wk)
{
  const Shape *s = job->s;
  gint64 ld = job->ld, plane_k = s->cout * ld, o = p % s->cout;
  gboolean add = job->add;
  float *restrict y00 = wk->q[0], *restrict y01 = wk->q[1];
  float *restrict y10 = wk->q[2], *restrict y11 = wk->q[3];
  float *src = job->tiles + o * ld + (p / s->cout) * s->tiles;
  float bv = job->bias != NULL ? job->bias[o] : 0.0f;
  float *plane = job->out + p * s->oh * s->ow;

  float *restrict m0 = src, *restrict m1 = m0 + plane_k, *restrict m2 = m1 + plane_k;
  float *restrict m3 = m2 + plane_k, *restrict m4 = m3 + plane_k;
  float *restrict m5 = m4 + plane_k, *restrict m6 = m5 + plane_k;
  float *restrict m7 = m6 + plane_k, *restrict m8 = m7 + plane_k;
  float *restrict m9 = m8 + plane_k, *restrict m10 = m9 + plane_k;
  float *restrict m11 = m10 + plane_k, *restrict m12 = m11 + plane_k;
  float *restrict m13 = m12 + plane_k, *restrict m14 = m13 + plane_k;
  float *restrict m15 = m14 + plane_k;

#pragma GCC ivdep
  for (gint64 t = 0; t < s->tiles; t++)
    {
      float s00 = m0[t] + m4[t] + m8[t], s01 = m1[t] + m5[t] + m9[t];
      float s02 = m2[t] + m6[t] + m10[t], s03 = m3[t] + m7[t] + m11[t];
      float s10 = m4[t] - m8[t] - m12[t], s11 = m5[t] - m9[t] - m13[t];
      float s12 = m6[t] - m10[t] - m14[t], s13 = m7[t] - m11[t] - m15[t];

      m0[t] = m1[t] = m2[t] = m3[t] = m4[t] = m5[t] = m6[t] = m7[t] = 0;
      m8[t] = m9[t] = m10[t] = m11[t] = m12[t] = m13[t] = m14[t] = m15[t] = 0;

      y00[t] = s00 + s01 + s02 + bv;
      y01[t] = s01 - s02 - s03 + bv;
      y10[t] = s10 + s11 + s12 + bv;
      y11[t] = s11 - s12 - s13 + bv;
    }
  for (gint64 oy = 0; oy < s->oh; oy++)
    {
      const float *restrict ev = (oy & 1 ? y10 : y00) + (oy >> 1) * s->tw;
      const float *restrict od = (oy & 1 ? y11 : y01) + (oy >> 1) * s->tw;
      float *restrict row = plane + oy * s->ow;
      gint64 half = s->ow / 2;

      if (add)
        {
          for (gint64 u = 0; u < half; u++)
            {
              row[2 * u] += ev[u];
              row[2 * u + 1] += od[u];
            }
          if (s->ow & 1)
            row[s->ow - 1] += ev[half];
        }
      else
        {
          for (gint64 u = 0; u < half; u++)
            {
              row[2 * u] = ev[u];
              row[2 * u + 1] = od[u];
            }
          if (s->ow & 1)
            row[s->ow - 1] = ev[half];
        }
    }
}

/* U = G g Gᵀ of each kernel g of @wt ([cout, cin, 3, 3]) into u[k][o][c],
 * rotated by 180° when @flip; G = [1 0 0; ½ ½ ½; ½ -½ ½; 0 0 1]. */
static void
weight_tiles (gint64       cout,
              gint64       cin,
              const float *wt,
              gboolean     flip,
              float       *u)
{
  gint64 plane_k = cout * cin;

  for (gint64 o = 0; o < cout; o++)
    for (gint64 c = 0; c < cin; c++)
      {
        const float *g = wt + (o * cin + c) * 9;
        float f[9], gg[4][3];

        for (gint64 i = 0; i < 9; i++)
          f[i] = flip ? g[8 - i] : g[i];
        for (gint64 j = 0; j < 3; j++)
          {
            gg[0][j] = f[j];
            gg[1][j] = 0.5f * (f[j] + f[3 + j] + f[6 + j]);
            gg[2][j] = 0.5f * (f[j] - f[3 + j] + f[6 + j]);
            gg[3][j] = f[6 + j];
          }
        for (gint64 i = 0; i < 4; i++)
          {
            float *dst = u + 4 * i * plane_k + o * cin + c;

            dst[0] = gg[i][0];
            dst[plane_k] = 0.5f * (gg[i][0] + gg[i][1] + gg[i][2]);
            dst[2 * plane_k] = 0.5f * (gg[i][0] - gg[i][1] + gg[i][2]);
            dst[3 * plane_k] = gg[i][2];
          }
      }
}

/* y = conv (x, U) + bias over the shape @s, U = u[k] [cout, cin]; for the
 * @input_grad (the flipped kernels), U is the transpose of u[k] [cin, cout]
 * and the result is added to y. FALSE if a buffer cannot be allocated. */
static gboolean
winograd_conv (const Shape *s,
               const float *x,
               const float *u,
               gboolean     input_grad,
               const float *bias,
               float       *y)
{
  gint64 chunk = block_images (s, s->cin + s->cout), ld_max = chunk * s->tiles;
  float *v = gnn_conv_try_alloc (16 * s->cin, ld_max + V_SLACK, sizeof (float), FALSE);
  /* zero, and zeroed again by output_plane() as it reads it: the GEMMs add
   * to it (beta = 1), since OpenBLAS's beta = 0 pass over C costs more */
  float *m = gnn_conv_try_alloc (16 * s->cout, ld_max, sizeof (float), TRUE);
  gint no_memory = v == NULL || m == NULL;

  for (gint64 b0 = 0; b0 < s->n && !no_memory; b0 += chunk)
    {
      gint64 nb = MIN (chunk, s->n - b0), ld = nb * s->tiles;
      TileJob in = { s, ld, x + b0 * s->cin * s->h * s->w, v, NULL, FALSE, NULL, &no_memory };
      TileJob out = { s, ld, NULL, m, bias, input_grad, y + b0 * s->cout * s->oh * s->ow,
                      &no_memory };

      transform_input (&in, nb);
      if (g_atomic_int_get (&no_memory))
        break;
      gnn_parallel_gemm_batch_f32 (16, input_grad ? CblasTrans : CblasNoTrans, CblasNoTrans,
                                   s->cout, ld, s->cin, 1.0f, u, s->cout * s->cin,
                                   input_grad ? s->cout : s->cin, v, s->cin * (ld + V_SLACK),
                                   ld + V_SLACK, 1.0f, m, s->cout * ld, ld);
      transform_planes (output_tiles_range, nb * s->cout, &out);
    }
  gnn_conv_free (v);
  gnn_conv_free (m);
  return !g_atomic_int_get (&no_memory);
}

gboolean
gnn_conv2d_winograd_fits (const GnnConvGeom *g)
{
  /* padding up to 2: the input gradient's convolution pads by 2 - p */
  return gnn_conv_geom_is_2d (g) && g->kh == 3 && g->kw == 3 && g->sh == 1 && g->sw == 1 && g->dh == 1 && g->dw == 1 &&
         g->groups == 1 && g->ph <= 2 && g->pw <= 2 &&
         g->n > 0 && g->cin > 0 && g->cout > 0 && g->oh > 0 && g->ow > 0;
}

/* out (+)= conv (in, U) over @s with U the (flipped, transposed) transform
 * of @wt ([cout, cin, 3, 3]): the forward, or with @flip the input gradient.
 * FALSE if a buffer cannot be allocated. */
static gboolean
conv_with_weights (const Shape       *s,
                   const GnnConvGeom *g,
                   const float       *in,
                   const float       *wt,
                   gboolean           flip,
                   const float       *bias,
                   float             *out)
{
  float *u = gnn_conv_try_alloc (16 * g->cout, g->cin, sizeof (float), FALSE);
  gboolean ok;

  if (u == NULL)
    return FALSE;
  weight_tiles (g->cout, g->cin, wt, flip, u);
  ok = winograd_conv (s, in, u, flip, bias, out);
  gnn_conv_free (u);
  return ok;
}

/* The first ⌊n / 8⌋ · 8 images of a batch go to F(4×4, 3×3), the rest here:
 * @head gets those images' geometry, @tail the rest's, and the return value
 * is the rest's first image. */
static gint64
split_batch (const GnnConvGeom *g,
             GnnConvGeom       *head,
             GnnConvGeom       *tail)
{
  gint64 n4 = g->n - g->n % GNN_WINOGRAD4_IMAGES;

  *head = *g, *tail = *g;
  head->n = n4, tail->n = g->n - n4;
  return n4;
}

gboolean
gnn_conv2d_winograd_forward_f32 (const GnnConvGeom *g,
                                 const float       *x,
                                 const float       *wt,
                                 const float       *bias,
                                 float             *out)
{
  GnnConvGeom head, tail;
  gint64 n4 = split_batch (g, &head, &tail);
  Shape s = shape_new (tail.n, g->cin, g->h, g->w, g->cout, g->oh, g->ow, g->ph, g->pw);

  return (head.n == 0 || gnn_conv2d_winograd4_forward_f32 (&head, x, wt, bias, out)) &&
         (tail.n == 0 ||
          conv_with_weights (&s, &tail, x + n4 * g->cin * g->h * g->w, wt, FALSE, bias,
                             out + n4 * g->cout * g->oh * g->ow));
}

/* gx += conv (go, flipped wtᵀ) with padding 2 - p: [n, cout, oh, ow] → [n, cin, h, w]. */
static gboolean
input_grad (const GnnConvGeom *g,
            const float       *wt,
            const float       *go,
            float             *gx)
{
  Shape s = shape_new (g->n, g->cout, g->oh, g->ow, g->cin, g->h, g->w, 2 - g->ph, 2 - g->pw);

  return conv_with_weights (&s, g, go, wt, TRUE, NULL, gx);
}

/* Z = A dY Aᵀ of the 2×2 output-gradient tiles of plane @p (image · cout +
 * o) of @in ([nb, cout, oh, ow]) into z[k][o][t]; A = [1 0; 1 1; 1 -1;
 * 0 -1], outputs past oh, ow count as 0. The mirror of output_plane(): the
 * plane's tiles are split into four arrays first, then transformed all at
 * once. */
static void
grad_plane (const TileJob *job,
            gint64         p,
            Work          *wk)
{
  const Shape *s = job->s;
  gint64 ld = job->ld, plane_k = s->cout * ld, half = s->ow / 2;
  float *restrict g00 = wk->q[0], *restrict g01 = wk->q[1];
  float *restrict g10 = wk->q[2], *restrict g11 = wk->q[3];
  const float *plane = job->in + p * s->oh * s->ow;
  float *restrict z0 = job->tiles + (p % s->cout) * ld + (p / s->cout) * s->tiles;
  float *restrict z1 = z0 + plane_k;
  float *restrict z2 = z1 + plane_k, *restrict z3 = z2 + plane_k;
  float *restrict z4 = z3 + plane_k, *restrict z5 = z4 + plane_k;
  float *restrict z6 = z5 + plane_k, *restrict z7 = z6 + plane_k;
  float *restrict z8 = z7 + plane_k, *restrict z9 = z8 + plane_k;
  float *restrict z10 = z9 + plane_k, *restrict z11 = z10 + plane_k;
  float *restrict z12 = z11 + plane_k, *restrict z13 = z12 + plane_k;
  float *restrict z14 = z13 + plane_k, *restrict z15 = z14 + plane_k;

  for (gint64 oy = 0; oy < s->oh; oy++)
    {
      const float *restrict row = plane + oy * s->ow;
      float *restrict ev = (oy & 1 ? g10 : g00) + (oy >> 1) * s->tw;
      float *restrict od = (oy & 1 ? g11 : g01) + (oy >> 1) * s->tw;

      for (gint64 u = 0; u < half; u++)
        {
          ev[u] = row[2 * u];
          od[u] = row[2 * u + 1];
        }
      if (s->ow & 1)
        ev[half] = row[s->ow - 1], od[half] = 0;
    }
  if (s->oh & 1)
    for (gint64 u = 0; u < s->tw; u++)
      g10[(s->th - 1) * s->tw + u] = g11[(s->th - 1) * s->tw + u] = 0;
#pragma GCC ivdep
  for (gint64 t = 0; t < s->tiles; t++)
    {
      /* A dY: rows (a, b), (a + c, b + d), (a - c, b - d), (-c, -d);
       * then each row (p, q) → (p, p + q, p - q, -q) */
      float a = g00[t], bb = g01[t], c = g10[t], d = g11[t];
      float p1 = a + c, q1 = bb + d, p2 = a - c, q2 = bb - d;

      z0[t] = a, z1[t] = a + bb, z2[t] = a - bb, z3[t] = -bb;
      z4[t] = p1, z5[t] = p1 + q1, z6[t] = p1 - q1, z7[t] = -q1;
      z8[t] = p2, z9[t] = p2 + q2, z10[t] = p2 - q2, z11[t] = -q2;
      z12[t] = -c, z13[t] = -c - d, z14[t] = d - c, z15[t] = d;
    }
}

/* gw += Gᵀ dU G for dU[k] [cout, cin] = Σ_tiles Z[k] · V[k]ᵀ; FALSE if a
 * buffer cannot be allocated (@gw then unchanged). */
static gboolean
weight_grad (const GnnConvGeom *g,
             const float       *x,
             const float       *go,
             float             *gw)
{
  Shape s = shape_new (g->n, g->cin, g->h, g->w, g->cout, g->oh, g->ow, g->ph, g->pw);
  gint64 chunk = block_images (&s, s.cin + s.cout), ld_max = chunk * s.tiles;
  gint64 plane_k = g->cout * g->cin;
  float *v = gnn_conv_try_alloc (16 * s.cin, ld_max + V_SLACK, sizeof (float), FALSE);
  float *z = gnn_conv_try_alloc (16 * s.cout, ld_max, sizeof (float), FALSE);
  float *du = gnn_conv_try_alloc (16, plane_k, sizeof (float), TRUE);
  gint no_memory = v == NULL || z == NULL || du == NULL;

  for (gint64 b0 = 0; b0 < s.n && !no_memory; b0 += chunk)
    {
      gint64 nb = MIN (chunk, s.n - b0), ld = nb * s.tiles;
      TileJob in = { &s, ld, x + b0 * s.cin * s.h * s.w, v, NULL, FALSE, NULL, &no_memory };
      TileJob grad = { &s, ld, go + b0 * s.cout * s.oh * s.ow, z, NULL, FALSE, NULL,
                       &no_memory };

      transform_input (&in, nb);
      transform_planes (grad_tiles_range, nb * s.cout, &grad);
      if (g_atomic_int_get (&no_memory))
        break;
      gnn_parallel_gemm_batch_f32 (16, CblasNoTrans, CblasTrans, s.cout, s.cin, ld, 1.0f,
                                   z, s.cout * ld, ld, v, s.cin * (ld + V_SLACK), ld + V_SLACK,
                                   1.0f, du, plane_k, s.cin);
    }
  if (g_atomic_int_get (&no_memory))
    goto done;
  /* Gᵀ = [1 ½ ½ 0; 0 ½ -½ 0; 0 ½ ½ 1] on both sides */
  for (gint64 p = 0; p < plane_k; p++)
    {
      float d[16], r[3][4];

      for (gint64 k = 0; k < 16; k++)
        d[k] = du[k * plane_k + p];
      for (gint64 j = 0; j < 4; j++)
        {
          float h = 0.5f * (d[4 + j] + d[8 + j]);

          r[0][j] = d[j] + h;
          r[1][j] = 0.5f * (d[4 + j] - d[8 + j]);
          r[2][j] = h + d[12 + j];
        }
      for (gint64 i = 0; i < 3; i++)
        {
          float h = 0.5f * (r[i][1] + r[i][2]);

          gw[p * 9 + 3 * i] += r[i][0] + h;
          gw[p * 9 + 3 * i + 1] += 0.5f * (r[i][1] - r[i][2]);
          gw[p * 9 + 3 * i + 2] += h + r[i][3];
        }
    }
done:
  gnn_conv_free (v);
  gnn_conv_free (z);
  gnn_conv_free (du);
  return !g_atomic_int_get (&no_memory);
}

gboolean
gnn_conv2d_winograd_backward_f32 (const GnnConvGeom *g,
                                  const float       *x,
                                  const float       *wt,
                                  const float       *go,
                                  float             *gx,
                                  float             *gw,
                                  float             *gb)
{
  GnnConvGeom head, tail;
  gint64 n4 = split_batch (g, &head, &tail), in_skip = n4 * g->cin * g->h * g->w;
  gint64 out_skip = n4 * g->cout * g->oh * g->ow;

  if (head.n > 0 && !gnn_conv2d_winograd4_backward_f32 (&head, x, wt, go, gx, gw, gb))
    return FALSE;
  if (tail.n == 0)
    return TRUE;
  /* the bias gradient is a plain sum: im2col's loop, which needs no buffers
   * without gx and gw */
  return (gb == NULL ||
          gnn_conv_im2col_backward_f32 (&tail, NULL, NULL, go + out_skip, NULL, NULL, gb)) &&
         (gx == NULL || input_grad (&tail, wt, go + out_skip, gx + in_skip)) &&
         (gw == NULL || weight_grad (&tail, x + in_skip, go + out_skip, gw));
}
