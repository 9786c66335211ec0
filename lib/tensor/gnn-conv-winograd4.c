/* gnn-conv-winograd4.c: float32 3×3 stride-1 conv2d as Winograd F(4×4, 3×3),
 * eight images at a time, CPU-dispatched
 *
 * Each 4×4 block of outputs (a tile) comes from a 6×6 input patch d and the
 * 3×3 kernel g as Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A (Lavin & Gray): 36
 * products per tile and channel pair, 2.25 per output where F(2×2, 3×3)
 * (gnn-conv-winograd.c) needs 4. Summed over input channels, each of the 36
 * transform positions k is a GEMM M[k] [cout, cols] = U[k] [cout, cin] ·
 * V[k] [cin, cols], as there.
 *
 * The difference is the order of V's and M's columns: tile-major, then the
 * eight images of a group (column = tile · 8 + image). A tile position of
 * eight images is one 8-float vector, so every transform is plain vertical
 * arithmetic on vectors loaded at fixed offsets. Along a row of tiles there
 * is too little to vectorize: a 14×14 map has four tiles per row (F(2×2)
 * splits its planes by parity for that reason, and an F(4×4) along rows of
 * tiles lost its 27 % fewer products to gathers; bench/README.md). The
 * planes of a group are interleaved once per channel ([row][column][image])
 * and the outputs de-interleaved at the end.
 *
 * Groups of exactly eight images only: gnn-conv-winograd.c runs these for
 * the first ⌊n / 8⌋ · 8 images of a batch and F(2×2) for the rest. Blocks
 * are a group's rows of tiles, as many as keep V and M near BLOCK_BYTES.
 * Both gradients start from the output gradient's Z = A dY Aᵀ: the weight
 * gradient is dU[k] = Σ Z[k] · V[k]ᵀ, then dg = Gᵀ dU G; the input gradient
 * is the forward transposed, dV[k] = U[k]ᵀ · Z[k], then B dV Bᵀ added at
 * each patch's place (patches overlap by two rows and columns). That costs
 * one transform of the input's channels where a second convolution (of the
 * output gradient with the flipped kernel) would transform the output
 * gradient's channels again: 5.6 % of a CNN training step (bench/README.md).
 * The transforms multiply by up to 8 and by ¼, ⅙ and 1/24: results differ
 * from im2col's by a few float32 roundings of the largest terms.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-cpu-private.h"
#include "tensor/gnn-parallel-private.h"

#define TILE 4                /* outputs per tile side */
#define PATCH (TILE + 2)      /* input patch side */
#define POSITIONS (PATCH * PATCH)
#define LANES GNN_WINOGRAD4_IMAGES
/* Bytes of V and M (or Z) per block. */
#define BLOCK_BYTES (2 << 20)

typedef float Vec __attribute__ ((vector_size (LANES * sizeof (float))));

#define LOAD(v, p) memcpy (&(v), (p), sizeof (Vec))
#define STORE(p, v) memcpy ((p), &(v), sizeof (Vec))

/* The 1-D transforms (on floats or on vectors), applied to the columns and
 * then the rows of a tile.
 * Bᵀ = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0;
 *       0 2 -1 -2 1 0; 0 4 0 -5 0 1] */
#define BT6(T, d, r)                                                            \
  G_STMT_START {                                                                \
    T a14_ = (d)[4] - 4.0f * (d)[2], b13_ = (d)[3] - 4.0f * (d)[1];            \
    T c14_ = (d)[4] - (d)[2], e13_ = 2.0f * ((d)[3] - (d)[1]);                 \
    (r)[0] = 4.0f * (d)[0] - 5.0f * (d)[2] + (d)[4];                           \
    (r)[1] = a14_ + b13_;                                                       \
    (r)[2] = a14_ - b13_;                                                       \
    (r)[3] = c14_ + e13_;                                                       \
    (r)[4] = c14_ - e13_;                                                       \
    (r)[5] = 4.0f * (d)[1] - 5.0f * (d)[3] + (d)[5];                           \
  } G_STMT_END

/* B = (Bᵀ)ᵀ, for the input gradient: the transpose of V = Bᵀ d B */
#define B6(T, v, r)                                                             \
  G_STMT_START {                                                                \
    T s12_ = (v)[1] + (v)[2], d21_ = (v)[2] - (v)[1];                          \
    T s34_ = (v)[3] + (v)[4], d34_ = (v)[3] - (v)[4];                          \
    (r)[0] = 4.0f * (v)[0];                                                     \
    (r)[1] = 4.0f * (d21_ + (v)[5]) - 2.0f * d34_;                             \
    (r)[2] = -5.0f * (v)[0] - 4.0f * s12_ - s34_;                              \
    (r)[3] = 2.0f * d34_ - d21_ - 5.0f * (v)[5];                               \
    (r)[4] = (v)[0] + s12_ + s34_;                                              \
    (r)[5] = (v)[5];                                                            \
  } G_STMT_END

/* Aᵀ = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1] */
#define AT4(T, m, y)                                                            \
  G_STMT_START {                                                                \
    T s12_ = (m)[1] + (m)[2], d12_ = (m)[1] - (m)[2];                          \
    T s34_ = (m)[3] + (m)[4], d34_ = (m)[3] - (m)[4];                          \
    (y)[0] = (m)[0] + s12_ + s34_;                                              \
    (y)[1] = d12_ + 2.0f * d34_;                                                \
    (y)[2] = s12_ + 4.0f * s34_;                                                \
    (y)[3] = d12_ + 8.0f * d34_ + (m)[5];                                       \
  } G_STMT_END

/* A = (Aᵀ)ᵀ, 6 × 4 */
#define A6(T, g, z)                                                             \
  G_STMT_START {                                                                \
    T s02_ = (g)[0] + (g)[2], s13_ = (g)[1] + (g)[3];                          \
    T f02_ = (g)[0] + 4.0f * (g)[2], f13_ = 2.0f * (g)[1] + 8.0f * (g)[3];     \
    (z)[0] = (g)[0];                                                            \
    (z)[1] = s02_ + s13_;                                                       \
    (z)[2] = s02_ - s13_;                                                       \
    (z)[3] = f02_ + f13_;                                                       \
    (z)[4] = f02_ - f13_;                                                       \
    (z)[5] = (g)[3];                                                            \
  } G_STMT_END

/* G = [¼ 0 0; -⅙ -⅙ -⅙; -⅙ ⅙ -⅙; 1/24 1/12 ⅙; 1/24 -1/12 ⅙; 0 0 1], by
 * multiplications (a division costs a dozen of them; the rounded
 * reciprocals change results by an ulp) */
#define SIXTH (1.0f / 6.0f)
#define TWELFTH (1.0f / 12.0f)
#define TWENTY_FOURTH (1.0f / 24.0f)
#define G6(f, u)                                                                \
  G_STMT_START {                                                                \
    float s02_ = (f)[0] + (f)[2], q02_ = (f)[0] * TWENTY_FOURTH + (f)[2] * SIXTH; \
    (u)[0] = (f)[0] * 0.25f;                                                    \
    (u)[1] = -(s02_ + (f)[1]) * SIXTH;                                          \
    (u)[2] = -(s02_ - (f)[1]) * SIXTH;                                          \
    (u)[3] = q02_ + (f)[1] * TWELFTH;                                           \
    (u)[4] = q02_ - (f)[1] * TWELFTH;                                           \
    (u)[5] = (f)[2];                                                            \
  } G_STMT_END

/* Gᵀ, 3 × 6 */
#define GT3(d, r)                                                               \
  G_STMT_START {                                                                \
    float s12_ = ((d)[1] + (d)[2]) * SIXTH, d12_ = ((d)[2] - (d)[1]) * SIXTH;  \
    float s34_ = ((d)[3] + (d)[4]) * TWENTY_FOURTH;                             \
    float d34_ = ((d)[3] - (d)[4]) * TWELFTH;                                   \
    (r)[0] = (d)[0] * 0.25f - s12_ + s34_;                                      \
    (r)[1] = d12_ + d34_;                                                       \
    (r)[2] = 4.0f * s34_ - s12_ + (d)[5];                                       \
  } G_STMT_END

/* One convolution: groups of LANES images [cin, h, w] padded by (ph, pw),
 * 0..2, to [cout, oh, ow], tiled in th × tw tiles of 4×4 outputs (the last
 * ones cut when oh or ow is not a multiple of 4). */
typedef struct
{
  gint64 n, cin, h, w, cout, oh, ow, ph, pw;
  gint64 th, tw;
  gint64 rows_per_block;  /* rows of tiles per block */
} Shape;

static Shape
shape_new (gint64 n, gint64 cin, gint64 h, gint64 w, gint64 cout,
           gint64 oh, gint64 ow, gint64 ph, gint64 pw)
{
  Shape s = { n, cin, h, w, cout, oh, ow, ph, pw,
              (oh + TILE - 1) / TILE, (ow + TILE - 1) / TILE, 0 };
  gint64 per_row = POSITIONS * (cin + cout) * s.tw * LANES * (gint64) sizeof (float);

  s.rows_per_block = CLAMP (BLOCK_BYTES / MAX (per_row, 1), 1, s.th);
  return s;
}

/* Floats from one position's [rows, cols] matrix to the next in V, M and
 * Z: rounded up to 4 KiB plus one cache line, so that the 36 streams a
 * transform reads or writes at once fall in different L1 sets. */
static gint64
position_stride (gint64 rows,
                 gint64 cols)
{
  return ((rows * cols + 1023) & ~(gint64) 1023) + 16;
}

/* One block: a group's tile rows [ty0, ty1). A job holds one transform's
 * arguments; its ranges are channels. */
typedef struct
{
  const Shape *s;
  gint64 ty0, ty1;
  gint64 cols;            /* (ty1 - ty0) · tw · LANES: a row of V, M or Z */
  gint64 kstride;         /* position_stride () of V, M or Z */
  const float *in;        /* the group's x, or go for the gradient */
  float *tiles;           /* V, M or Z */
  const float *bias;
  float *out;             /* the group's output */
  float *bias_grad;       /* grad_range (): gb, or NULL */
  gint *no_memory;        /* set (atomically) by a range that lacks its buffer */
} TileJob;

/* Transposes the 8 × 8 floats of @r in place: unpack pairs, then pairs of
 * pairs, then halves (__builtin_shufflevector, which GCC ≥ 12 and clang
 * both have, maps each onto one AVX instruction). */
static inline __attribute__ ((always_inline)) void
transpose8 (Vec r[LANES])
{
  Vec t[LANES], u[LANES];

  for (gint i = 0; i < LANES; i += 2)
    {
      t[i] = __builtin_shufflevector (r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
      t[i + 1] = __builtin_shufflevector (r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
  for (gint i = 0; i < LANES; i += 4)
    {
      u[i] = __builtin_shufflevector (t[i], t[i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[i + 1] = __builtin_shufflevector (t[i], t[i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
      u[i + 2] = __builtin_shufflevector (t[i + 1], t[i + 3], 0, 1, 8, 9, 4, 5, 12, 13);
      u[i + 3] = __builtin_shufflevector (t[i + 1], t[i + 3], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  for (gint i = 0; i < 4; i++)
    {
      r[i] = __builtin_shufflevector (u[i], u[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
      r[i + 4] = __builtin_shufflevector (u[i], u[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

/* dst[r][x][image] = src[image][r][x] for @rows rows (@stride floats apart
 * in the source, @dst_stride in the destination) and x < @n, by 8 × 8
 * transposes; a last partial block is moved back to end at n (rewriting a
 * few columns with the same values). Rows of fewer than 8 go one by one. */
static inline __attribute__ ((always_inline)) void
interleave_rows_typed (const float *const *src,
                       gint64              rows,
                       gint64              stride,
                       gint64              n,
                       float              *dst,
                       gint64              dst_stride)
{
  for (gint64 row = 0; row < rows; row++, dst += dst_stride)
    {
      gint64 off = row * stride;

      if (n < LANES)
        {
          for (gint64 x = 0; x < n; x++)
            for (gint i = 0; i < LANES; i++)
              dst[x * LANES + i] = src[i][off + x];
          continue;
        }
      for (gint64 x0 = 0; x0 < n; x0 += LANES)
        {
          gint64 x = MIN (x0, n - LANES);
          Vec r[LANES];

          for (gint i = 0; i < LANES; i++)
            LOAD (r[i], src[i] + off + x);
          transpose8 (r);
          for (gint i = 0; i < LANES; i++)
            STORE (dst + (x + i) * LANES, r[i]);
        }
    }
}

/* The reverse: dst[image][r][x] (+)= src[r][x][image]. A moved-back last
 * block adds only its new columns (the others are masked to 0). */
static inline __attribute__ ((always_inline)) void
deinterleave_rows_typed (const float  *src,
                         gint64        src_stride,
                         gint64        rows,
                         gint64        n,
                         gboolean      add,
                         float *const *dst,
                         gint64        stride)
{
  typedef gint32 IVec __attribute__ ((vector_size (LANES * sizeof (gint32))));
  const IVec lane = { 0, 1, 2, 3, 4, 5, 6, 7 };

  for (gint64 row = 0; row < rows; row++, src += src_stride)
    {
      gint64 off = row * stride;

      if (n < LANES)
        {
          for (gint64 x = 0; x < n; x++)
            for (gint i = 0; i < LANES; i++)
              dst[i][off + x] = (add ? dst[i][off + x] : 0.0f) + src[x * LANES + i];
          continue;
        }
      for (gint64 x0 = 0; x0 < n; x0 += LANES)
        {
          gint64 x = MIN (x0, n - LANES);
          IVec fresh = lane >= (gint32) (x0 - x);
          Vec r[LANES];

          for (gint i = 0; i < LANES; i++)
            LOAD (r[i], src + (x + i) * LANES);
          transpose8 (r);
          for (gint i = 0; i < LANES; i++)
            {
              if (add)
                {
                  Vec old;

                  LOAD (old, dst[i] + off + x);
                  r[i] = old + (Vec) ((IVec) r[i] & fresh);
                }
              STORE (dst[i] + off + x, r[i]);
            }
        }
    }
}

/* A separable tile transform T (@n taps → PATCH values) of each tile of the
 * block read from @buf (interleave()d rows 4 · ty0 .., @width columns)
 * into the 36 rows of @dst at the tile's column: T on each column of the
 * tile's @n × @n taps into t, then on each row of t. With Bᵀ on 6 × 6
 * patches: V = Bᵀ d B. With A on the 4 × 4 output-gradient tiles: Z = A g
 * Aᵀ. */
#define DEFINE_TILE_TRANSFORM(name, n, TRANSFORM)                               \
static inline __attribute__ ((always_inline)) void                              \
name##_typed (const float *buf,                                                 \
              gint64       width,                                               \
              gint64       ntr,                                                 \
              gint64       tw,                                                  \
              float       *dst,                                                 \
              gint64       kstride)                                             \
{                                                                               \
  for (gint64 ty = 0; ty < ntr; ty++)                                           \
    for (gint64 tx = 0; tx < tw; tx++)                                          \
      {                                                                         \
        const float *p = buf + (TILE * ty * width + TILE * tx) * LANES;         \
        float *col = dst + (ty * tw + tx) * LANES;                              \
        Vec t[PATCH][n];                                                        \
                                                                                \
        for (gint64 j = 0; j < n; j++)                                          \
          {                                                                     \
            Vec d[n], r[PATCH];                                                 \
                                                                                \
            for (gint64 i = 0; i < n; i++)                                      \
              LOAD (d[i], p + (i * width + j) * LANES);                         \
            TRANSFORM (Vec, d, r);                                              \
            for (gint64 a = 0; a < PATCH; a++)                                  \
              t[a][j] = r[a];                                                   \
          }                                                                     \
        for (gint64 a = 0; a < PATCH; a++)                                      \
          {                                                                     \
            Vec r[PATCH];                                                       \
                                                                                \
            TRANSFORM (Vec, t[a], r);                                           \
            for (gint64 b = 0; b < PATCH; b++)                                  \
              STORE (col + (a * PATCH + b) * kstride, r[b]);                    \
          }                                                                     \
      }                                                                         \
}

DEFINE_TILE_TRANSFORM (input_tiles, PATCH, BT6)
DEFINE_TILE_TRANSFORM (grad_tiles, TILE, A6)

/* A separable transform T (PATCH → @n values) back from the 36 rows of a
 * channel's M or dV (zeroed as read: the next block's GEMMs add to them)
 * for each tile of the block, into @buf at the tile's place (@width columns
 * of 8-float vectors): T on each row of the tile's 6 × 6, then on each
 * column of the result, plus @bias; stored, or with @accumulate added.
 * With Aᵀ (n = 4): the outputs Y = Aᵀ M A. With B (n = 6): the input
 * gradient dd = B dV Bᵀ, whose 6×6 patches overlap their neighbours' by two
 * rows or columns: their sums add up, in a fixed order. */
#define DEFINE_TILE_UNTRANSFORM(name, n, TRANSFORM, accumulate)                 \
static inline __attribute__ ((always_inline)) void                              \
name##_typed (float *m,                                                         \
              gint64 kstride,                                                   \
              gint64 ntr,                                                       \
              gint64 tw,                                                        \
              float  bias,                                                      \
              float *buf,                                                       \
              gint64 width)                                                     \
{                                                                               \
  Vec zero = { 0 };                                                             \
                                                                                \
  for (gint64 ty = 0; ty < ntr; ty++)                                           \
    for (gint64 tx = 0; tx < tw; tx++)                                          \
      {                                                                         \
        float *src = m + (ty * tw + tx) * LANES;                                \
        float *p = buf + (TILE * ty * width + TILE * tx) * LANES;               \
        Vec t[PATCH][n];                                                        \
                                                                                \
        for (gint64 a = 0; a < PATCH; a++)                                      \
          {                                                                     \
            Vec d[PATCH], r[n];                                                 \
                                                                                \
            for (gint64 b = 0; b < PATCH; b++)                                  \
              {                                                                 \
                LOAD (d[b], src + (a * PATCH + b) * kstride);                   \
                STORE (src + (a * PATCH + b) * kstride, zero);                  \
              }                                                                 \
            TRANSFORM (Vec, d, r);                                              \
            for (gint64 j = 0; j < n; j++)                                      \
              t[a][j] = r[j];                                                   \
          }                                                                     \
        for (gint64 j = 0; j < n; j++)                                          \
          {                                                                     \
            Vec d[PATCH], r[n];                                                 \
                                                                                \
            for (gint64 a = 0; a < PATCH; a++)                                  \
              d[a] = t[a][j];                                                   \
            TRANSFORM (Vec, d, r);                                              \
            for (gint64 i = 0; i < n; i++)                                      \
              {                                                                 \
                float *at = p + (i * width + j) * LANES;                        \
                Vec v = r[i] + bias;                                            \
                                                                                \
                if (accumulate)                                                 \
                  {                                                             \
                    Vec old;                                                    \
                                                                                \
                    LOAD (old, at);                                             \
                    v += old;                                                   \
                  }                                                             \
                STORE (at, v);                                                  \
              }                                                                 \
          }                                                                     \
      }                                                                         \
}

DEFINE_TILE_UNTRANSFORM (output_tiles, TILE, AT4, FALSE)
DEFINE_TILE_UNTRANSFORM (back_tiles, PATCH, B6, TRUE)

/* *@sum = the sum of the @n vectors at @buf: per lane, then a fixed tree. */
static inline __attribute__ ((always_inline)) void
sum_vectors_typed (const float *buf,
                   gint64       n,
                   float       *sum)
{
  Vec acc = { 0 };

  for (gint64 i = 0; i < n; i++)
    {
      Vec v;

      LOAD (v, buf + i * LANES);
      acc += v;
    }
  *sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

GNN_DISPATCH_KERNEL (sum_vectors, (const float *buf, gint64 n, float *sum), (buf, n, sum))
GNN_DISPATCH_KERNEL (back_tiles,
                 (float *m, gint64 kstride, gint64 ntr, gint64 tw, float bias, float *buf, gint64 width),
                 (m, kstride, ntr, tw, bias, buf, width))
GNN_DISPATCH_KERNEL (input_tiles,
                 (const float *buf, gint64 width, gint64 ntr, gint64 tw, float *v, gint64 kstride),
                 (buf, width, ntr, tw, v, kstride))
GNN_DISPATCH_KERNEL (output_tiles,
                 (float *m, gint64 kstride, gint64 ntr, gint64 tw, float bias, float *buf, gint64 width),
                 (m, kstride, ntr, tw, bias, buf, width))
GNN_DISPATCH_KERNEL (interleave_rows,
                 (const float *const *src, gint64 rows, gint64 stride, gint64 n, float *dst,
                  gint64 dst_stride),
                 (src, rows, stride, n, dst, dst_stride))
GNN_DISPATCH_KERNEL (deinterleave_rows,
                 (const float *src, gint64 src_stride, gint64 rows, gint64 n, gboolean add,
                  float *const *dst, gint64 stride),
                 (src, src_stride, rows, n, add, dst, stride))
GNN_DISPATCH_KERNEL (grad_tiles,
                 (const float *buf, gint64 width, gint64 ntr, gint64 tw, float *z, gint64 kstride),
                 (buf, width, ntr, tw, z, kstride))

/* Interleaves rows [r0, r0 + nr) of channel @c of the group's planes @in
 * ([LANES, channels, plane_h, plane_w]) into @buf ([nr][width][LANES]):
 * row r, column x hold plane row r - @pad_y, column x - @pad_x. The rest of
 * @buf (the padding) is left as it is: zero, since the range allocated it
 * so and every channel writes the same places. */
static void
interleave (const float *in,
            gint64       channels,
            gint64       c,
            gint64       plane_h,
            gint64       plane_w,
            gint64       r0,
            gint64       nr,
            gint64       pad_y,
            gint64       pad_x,
            gint64       width,
            float       *buf)
{
  gint64 first = MAX (r0, pad_y), end = MIN (r0 + nr, plane_h + pad_y);
  const float *src[LANES];

  if (first >= end)
    return;
  for (gint64 image = 0; image < LANES; image++)
    src[image] = in + ((image * channels + c) * plane_h + first - pad_y) * plane_w;
  interleave_rows (src, end - first, plane_w, MIN (plane_w, width - pad_x),
                   buf + ((first - r0) * width + pad_x) * LANES, width * LANES);
}

/* Rows of interleaved scratch per block: 4 per row of tiles, plus 2. */
static gint64
scratch_floats (const Shape *s)
{
  return (TILE * s->rows_per_block + 2) * (TILE * s->tw + 2) * LANES;
}

/* A range's interleaved buffer, or NULL with the job's no_memory set. */
static float *
range_buffer (const TileJob *job,
              gboolean       zeroed)
{
  float *buf = gnn_conv_try_alloc (scratch_floats (job->s), 1, sizeof (float), zeroed);

  if (buf == NULL)
    g_atomic_int_set (job->no_memory, 1);
  return buf;
}

static void
input_range (gint64   c0,
             gint64   c1,
             gpointer data)
{
  const TileJob *job = data;
  const Shape *s = job->s;
  gint64 width = TILE * s->tw + 2, ntr = job->ty1 - job->ty0;
  float *buf = range_buffer (job, TRUE);

  if (buf == NULL)
    return;
  for (gint64 c = c0; c < c1; c++)
    {
      interleave (job->in, s->cin, c, s->h, s->w, TILE * job->ty0, TILE * ntr + 2, s->ph, s->pw,
                  width, buf);
      input_tiles (buf, width, ntr, s->tw, job->tiles + c * job->cols, job->kstride);
    }
  gnn_conv_free (buf);
}

static void
grad_range (gint64   o0,
            gint64   o1,
            gpointer data)
{
  const TileJob *job = data;
  const Shape *s = job->s;
  gint64 width = TILE * s->tw, ntr = job->ty1 - job->ty0;
  float *buf = range_buffer (job, TRUE);

  if (buf == NULL)
    return;
  for (gint64 o = o0; o < o1; o++)
    {
      interleave (job->in, s->cout, o, s->oh, s->ow, TILE * job->ty0, TILE * ntr, 0, 0, width, buf);
      grad_tiles (buf, width, ntr, s->tw, job->tiles + o * job->cols, job->kstride);
      if (job->bias_grad != NULL)
        {
          /* the block's rows of the gradient, read once for both: the bias
           * gradient is their sum (blocks do not overlap here) */
          float sum;

          sum_vectors (buf, TILE * ntr * width, &sum);
          job->bias_grad[o] += sum;
        }
    }
  gnn_conv_free (buf);
}

/* The output transform, then its rows [4 · ty0, oh) of the block to the
 * group's planes. */
static void
output_range (gint64   o0,
              gint64   o1,
              gpointer data)
{
  const TileJob *job = data;
  const Shape *s = job->s;
  gint64 width = TILE * s->tw, ntr = job->ty1 - job->ty0, y0 = TILE * job->ty0;
  gint64 y1 = MIN (TILE * job->ty1, s->oh);
  float *buf = range_buffer (job, FALSE);

  if (buf == NULL)
    return;
  for (gint64 o = o0; o < o1; o++)
    {
      float *planes[LANES];

      output_tiles (job->tiles + o * job->cols, job->kstride, ntr, s->tw,
                    job->bias != NULL ? job->bias[o] : 0.0f, buf, width);
      for (gint64 image = 0; image < LANES; image++)
        planes[image] = job->out + ((image * s->cout + o) * s->oh + y0) * s->ow;
      deinterleave_rows (buf, width * LANES, y1 - y0, s->ow, FALSE, planes, s->ow);
    }
  gnn_conv_free (buf);
}

/* The input gradient's back transform of channels [c0, c1) of the block,
 * overlap-added in a zeroed interleaved buffer, whose rows that fall
 * inside the input are then added to the group's gx planes (the two rows a
 * block shares with the next are added by both). */
static void
input_grad_range (gint64   c0,
                  gint64   c1,
                  gpointer data)
{
  const TileJob *job = data;
  const Shape *s = job->s;
  gint64 width = TILE * s->tw + 2, ntr = job->ty1 - job->ty0, r0 = TILE * job->ty0;
  gint64 first = MAX (r0, s->ph), end = MIN (r0 + TILE * ntr + 2, s->h + s->ph);
  gsize bytes = (gsize) scratch_floats (s) * sizeof (float);
  float *buf = range_buffer (job, FALSE);

  if (buf == NULL)
    return;
  for (gint64 c = c0; c < c1; c++)
    {
      float *planes[LANES];

      memset (buf, 0, bytes);
      back_tiles (job->tiles + c * job->cols, job->kstride, ntr, s->tw, 0.0f, buf, width);
      if (first >= end)
        continue;
      for (gint64 image = 0; image < LANES; image++)
        planes[image] = job->out + ((image * s->cin + c) * s->h + first - s->ph) * s->w;
      deinterleave_rows (buf + ((first - r0) * width + s->pw) * LANES, width * LANES, end - first,
                         s->w, TRUE, planes, s->w);
    }
  gnn_conv_free (buf);
}

/* Channels per range: a channel's transform is a few microseconds, a
 * parallel region costs tens. */
#define CHANNELS_GRAIN 8

/* Kernels per range of the weight transforms: one is ~50 ns, a parallel
 * region costs tens of microseconds (at 2 threads the transforms were 6 %
 * of a ResNet-18 step on the caller alone, its worker idle). */
#define KERNELS_GRAIN 1024

typedef struct
{
  gint64       plane_k;   /* cout · cin */
  gint64       stride;    /* between the POSITIONS planes of u / du */
  const float *wt;        /* weight_tiles: the kernels */
  float       *u;
  const float *du;        /* add_weight_grad: dU, into gw */
  float       *gw;
} KernelJob;

/* U = G g Gᵀ of kernels [p0, p1) (o · cin + c) of job->wt ([cout, cin, 3, 3])
 * into u[k][p]. */
static void
weight_tiles_range (gint64   p0,
                    gint64   p1,
                    gpointer data)
{
  const KernelJob *job = data;

  for (gint64 p = p0; p < p1; p++)
    {
      const float *f = job->wt + p * 9;
      float gg[PATCH][3];

      for (gint64 j = 0; j < 3; j++)
        {
          float col[3] = { f[j], f[3 + j], f[6 + j] }, r[PATCH];

          G6 (col, r);
          for (gint64 i = 0; i < PATCH; i++)
            gg[i][j] = r[i];
        }
      for (gint64 i = 0; i < PATCH; i++)
        {
          float r[PATCH];

          G6 (gg[i], r);
          for (gint64 j = 0; j < PATCH; j++)
            job->u[(i * PATCH + j) * job->stride + p] = r[j];
        }
    }
}

/* U of every kernel of @wt ([cout, cin, 3, 3]) into u[k][o][c]
 * (position_stride (cout, cin) apart); NULL if it cannot be allocated. */
static float *
weight_tiles (gint64       cout,
              gint64       cin,
              const float *wt)
{
  gint64 plane_k = position_stride (cout, cin);
  KernelJob job = { cout * cin, plane_k, wt, NULL, NULL, NULL };

  job.u = gnn_conv_try_alloc (POSITIONS, plane_k, sizeof (float), FALSE);
  if (job.u != NULL)
    gnn_parallel_for (job.plane_k, KERNELS_GRAIN, weight_tiles_range, &job);
  return job.u;
}

gboolean
gnn_conv2d_winograd4_forward_f32 (const GnnConvGeom *g,
                                  const float       *x,
                                  const float       *wt,
                                  const float       *bias,
                                  float             *out)
{
  Shape s = shape_new (g->n, g->cin, g->h, g->w, g->cout, g->oh, g->ow, g->ph, g->pw);
  gint64 cols_max = s.rows_per_block * s.tw * LANES, uk = position_stride (g->cout, g->cin);
  float *u, *v, *m;
  gint no_memory;

  g_return_val_if_fail (g->n % LANES == 0, FALSE);
  u = weight_tiles (g->cout, g->cin, wt);
  v = gnn_conv_try_alloc (POSITIONS, position_stride (s.cin, cols_max), sizeof (float), FALSE);
  /* zeroed, and zeroed again by output_tiles () as it reads it: the GEMMs
   * add to it (beta = 1) */
  m = gnn_conv_try_alloc (POSITIONS, position_stride (s.cout, cols_max), sizeof (float), TRUE);
  no_memory = u == NULL || v == NULL || m == NULL;
  for (gint64 g0 = 0; g0 < s.n && !no_memory; g0 += LANES)
    for (gint64 ty0 = 0; ty0 < s.th && !g_atomic_int_get (&no_memory); ty0 += s.rows_per_block)
      {
        gint64 ty1 = MIN (ty0 + s.rows_per_block, s.th), cols = (ty1 - ty0) * s.tw * LANES;
        gint64 vk = position_stride (s.cin, cols), mk = position_stride (s.cout, cols);
        TileJob in = { &s, ty0, ty1, cols, vk, x + g0 * s.cin * s.h * s.w, v, NULL, NULL, NULL,
                       &no_memory };
        TileJob y = { &s, ty0, ty1, cols, mk, NULL, m, bias, out + g0 * s.cout * s.oh * s.ow,
                      NULL, &no_memory };

        gnn_parallel_for (s.cin, CHANNELS_GRAIN, input_range, &in);
        if (g_atomic_int_get (&no_memory))
          break;
        gnn_parallel_gemm_batch_f32 (POSITIONS, CblasNoTrans, CblasNoTrans, s.cout, cols, s.cin, 1.0f,
                                     u, uk, s.cin, v, vk, cols, 1.0f, m, mk, cols);
        gnn_parallel_for (s.cout, CHANNELS_GRAIN, output_range, &y);
      }
  gnn_conv_free (u);
  gnn_conv_free (v);
  gnn_conv_free (m);
  return !g_atomic_int_get (&no_memory);
}

/* gw += Gᵀ dU G for kernels [p0, p1) of job->du (rows job->stride apart). */
static void
add_weight_grad_range (gint64   p0,
                       gint64   p1,
                       gpointer data)
{
  const KernelJob *job = data;

  for (gint64 p = p0; p < p1; p++)
    {
      float d[PATCH], r[3], half[3][PATCH];

      for (gint64 b = 0; b < PATCH; b++)
        {
          for (gint64 a = 0; a < PATCH; a++)
            d[a] = job->du[(a * PATCH + b) * job->stride + p];
          GT3 (d, r);
          for (gint64 i = 0; i < 3; i++)
            half[i][b] = r[i];
        }
      for (gint64 i = 0; i < 3; i++)
        {
          GT3 (half[i], r);
          for (gint64 j = 0; j < 3; j++)
            job->gw[p * 9 + 3 * i + j] += r[j];
        }
    }
}

/* All three gradients from the output gradient's interleaved blocks, which
 * are read once: the bias gradient is their sum; from their Z = A dY Aᵀ
 * come the weight gradient dU[k] = Σ Z[k] · V[k]ᵀ (then Gᵀ dU G) and the
 * input gradient as the transpose of the forward, dV[k] = U[k]ᵀ · Z[k],
 * then B dV Bᵀ added into gx at each patch's place (back_tiles ()), instead
 * of a second convolution whose input transform would run over the output
 * gradient's channels again. */
gboolean
gnn_conv2d_winograd4_backward_f32 (const GnnConvGeom *g,
                                   const float       *x,
                                   const float       *wt,
                                   const float       *go,
                                   float             *gx,
                                   float             *gw,
                                   float             *gb)
{
  Shape s = shape_new (g->n, g->cin, g->h, g->w, g->cout, g->oh, g->ow, g->ph, g->pw);
  gint64 cols_max = s.rows_per_block * s.tw * LANES, plane_k = g->cout * g->cin;
  gint64 uk = position_stride (g->cout, g->cin);
  float *z, *u = NULL, *dv = NULL, *v = NULL, *du = NULL;
  gint no_memory;

  g_return_val_if_fail (g->n % LANES == 0, FALSE);
  if (gx == NULL && gw == NULL)
    {
      /* no transform needed: the bias gradient alone is im2col's plain sum */
      return gb == NULL || gnn_conv_im2col_backward_f32 (g, NULL, NULL, go, NULL, NULL, gb);
    }
  z = gnn_conv_try_alloc (POSITIONS, position_stride (s.cout, cols_max), sizeof (float), FALSE);
  no_memory = z == NULL;
  if (gx != NULL)
    {
      u = weight_tiles (g->cout, g->cin, wt);
      /* zeroed, and zeroed again by back_tiles () as it reads it */
      dv = gnn_conv_try_alloc (POSITIONS, position_stride (s.cin, cols_max), sizeof (float), TRUE);
      no_memory |= u == NULL || dv == NULL;
    }
  if (gw != NULL)
    {
      v = gnn_conv_try_alloc (POSITIONS, position_stride (s.cin, cols_max), sizeof (float), FALSE);
      du = gnn_conv_try_alloc (POSITIONS, uk, sizeof (float), TRUE);
      no_memory |= v == NULL || du == NULL;
    }
  for (gint64 g0 = 0; g0 < s.n && !no_memory; g0 += LANES)
    for (gint64 ty0 = 0; ty0 < s.th && !g_atomic_int_get (&no_memory); ty0 += s.rows_per_block)
      {
        gint64 ty1 = MIN (ty0 + s.rows_per_block, s.th), cols = (ty1 - ty0) * s.tw * LANES;
        gint64 vk = position_stride (s.cin, cols), zk = position_stride (s.cout, cols);
        TileJob grad = { &s, ty0, ty1, cols, zk, go + g0 * s.cout * s.oh * s.ow, z, NULL, NULL,
                         gb, &no_memory };

        gnn_parallel_for (s.cout, CHANNELS_GRAIN, grad_range, &grad);
        if (g_atomic_int_get (&no_memory))
          break;
        if (gw != NULL)
          {
            TileJob in = { &s, ty0, ty1, cols, vk, x + g0 * s.cin * s.h * s.w, v, NULL, NULL,
                           NULL, &no_memory };

            gnn_parallel_for (s.cin, CHANNELS_GRAIN, input_range, &in);
            if (g_atomic_int_get (&no_memory))
              break;
            gnn_parallel_gemm_batch_f32 (POSITIONS, CblasNoTrans, CblasTrans, s.cout, s.cin, cols, 1.0f,
                                         z, zk, cols, v, vk, cols, 1.0f, du, uk, s.cin);
          }
        if (gx != NULL)
          {
            TileJob back = { &s, ty0, ty1, cols, vk, NULL, dv, NULL, gx + g0 * s.cin * s.h * s.w,
                             NULL, &no_memory };

            gnn_parallel_gemm_batch_f32 (POSITIONS, CblasTrans, CblasNoTrans, s.cin, cols, s.cout, 1.0f,
                                         u, uk, s.cin, z, zk, cols, 1.0f, dv, vk, cols);
            gnn_parallel_for (s.cin, CHANNELS_GRAIN, input_grad_range, &back);
          }
      }
  if (gw != NULL && !g_atomic_int_get (&no_memory))
    {
      KernelJob job = { plane_k, uk, NULL, NULL, du, gw };

      gnn_parallel_for (plane_k, KERNELS_GRAIN, add_weight_grad_range, &job);
    }
  gnn_conv_free (z);
  gnn_conv_free (u);
  gnn_conv_free (dv);
  gnn_conv_free (v);
  gnn_conv_free (du);
  return !g_atomic_int_get (&no_memory);
}
