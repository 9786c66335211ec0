/* gnn-sort-keys.c: sort and topk of one slice by 32-bit order keys
 *
 * Every element becomes an unsigned 32-bit key whose integer order is the
 * sort's order: a float's sign-magnitude bits turned into two's order, -0.0
 * read as +0.0 (they are equal to torch), every NaN above +inf; integers
 * offset by 2^31; complemented for a descending order. The word
 * key · 2^32 + position is then unique and its integer order is the order
 * with ties by position — the stable order gnn-tensor-sort.c's pair sort
 * gives, found with plain integer compares:
 * - topk with a small k: one scan keeps the k smallest words in a sorted
 *   buffer; a later element enters only when its key is below the buffer's
 *   last key (an equal key has a larger position), tested 16 keys at a
 *   time so the scan vectorizes;
 * - sort: LSD radix sort of the words on their key bytes (stable, and the
 *   positions start in order); a larger topk: quickselect of the words,
 *   then a radix sort of those k on every byte.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-sort-keys-private.h"

/* up to this k, topk scans with a buffer instead of selecting */
#define SCAN_MAX_K 32
/* below this, insertion sort beats the radix passes */
#define RADIX_MIN_N 64

gboolean
gnn_sort_keys_supported (GnnDType dtype,
                         gint64   n)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32:
    case GNN_DTYPE_I32:
    case GNN_DTYPE_I16:
    case GNN_DTYPE_I8:
    case GNN_DTYPE_U8:
    case GNN_DTYPE_BOOL:
      return n <= (gint64) G_MAXUINT32;
    default:
      return FALSE;
    }
}

gpointer
gnn_sort_keys_scratch (gint64 n)
{
  /* words [n], tmp [n] (guint64), keys [n] (guint32) */
  return g_try_malloc ((gsize) MAX (n, 1) * (2 * sizeof (guint64) + sizeof (guint32)));
}

/* The float loops select with ?: on floats; allow gcc to if-convert them
 * (no FP traps are enabled; the values are unchanged). */
#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

static inline guint32
f32_key (float v)
{
  union { float f; guint32 u; } b = { v + 0.0f };     /* -0.0 + 0.0 = +0.0 */
  guint32 k = b.u ^ ((0u - (b.u >> 31)) | 0x80000000u);

  return v != v ? G_MAXUINT32 : k;
}

#define FILL(CTYPE, KEY)                                                        \
  G_STMT_START {                                                                \
    const CTYPE *x = (const CTYPE *) base;                                      \
    if (stride == 1)                                                            \
      for (gint64 t = 0; t < n; t++)                                            \
        keys[t] = (KEY (x[t])) ^ flip;                                          \
    else                                                                        \
      for (gint64 t = 0; t < n; t++)                                            \
        keys[t] = (KEY (x[t * stride])) ^ flip;                                 \
  } G_STMT_END
#define SIGNED_KEY(v) ((guint32) (gint32) (v) ^ 0x80000000u)
#define UNSIGNED_KEY(v) ((guint32) (v))

static void
fill_keys (GnnDType      dtype,
           const guint8 *base,
           gint64        stride,
           gint64        n,
           guint32       flip,
           guint32      *keys)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: FILL (float, f32_key); break;
    case GNN_DTYPE_I32: FILL (gint32, SIGNED_KEY); break;
    case GNN_DTYPE_I16: FILL (gint16, SIGNED_KEY); break;
    case GNN_DTYPE_I8: FILL (gint8, SIGNED_KEY); break;
    default: FILL (guint8, UNSIGNED_KEY); break;          /* uint8, bool */
    }
}

#pragma GCC pop_options

static inline guint64
word (guint32 key,
      gint64  pos)
{
  return (guint64) key << 32 | (guint64) pos;
}

/* Inserts @w into the ascending v[0 .. n) (room at v[n]). */
static inline void
insert_word (guint64 *v,
             gint64   n,
             guint64  w)
{
  gint64 j = n;

  while (j > 0 && v[j - 1] > w)
    {
      v[j] = v[j - 1];
      j--;
    }
  v[j] = w;
}

/* The k smallest words of the slice into buf [0 .. k), ascending (k < n). */
static void
scan_smallest (const guint32 *keys,
               gint64         n,
               gint64         k,
               guint64       *buf)
{
  guint32 limit;
  gint64 t;

  for (t = 0; t < k; t++)
    insert_word (buf, t, word (keys[t], t));
  limit = (guint32) (buf[k - 1] >> 32);
  while (t < n)
    {
      gint64 end = MIN (t + 16, n);

      if (end - t == 16)
        {
          guint32 below = 0;

          for (int j = 0; j < 16; j++)
            below |= keys[t + j] < limit;
          if (!below)
            {
              t = end;
              continue;
            }
        }
      for (; t < end; t++)
        if (keys[t] < limit)
          {
            /* drops the last word */
            insert_word (buf, k - 1, word (keys[t], t));
            limit = (guint32) (buf[k - 1] >> 32);
          }
    }
}

/* Moves the k smallest of the distinct words v[0 .. n) to v[0 .. k). */
static void
select_smallest (guint64 *v,
                 gint64   n,
                 gint64   k)
{
  gint64 lo = 0, hi = n - 1;
  guint64 seed = 0x9e3779b97f4a7c15ull;

  while (lo < hi)
    {
      guint64 pivot, t;
      gint64 i = lo, j = hi;

      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      pivot = v[lo + (gint64) ((seed >> 33) % (guint64) (hi - lo + 1))];
      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              t = v[i];
              v[i] = v[j];
              v[j] = t;
              i++;
              j--;
            }
        }
      if (k - 1 <= j)
        hi = j;
      else if (k - 1 >= i)
        lo = i;
      else
        break;
    }
}

/* Sorts v[0 .. n) ascending by bytes @first_byte .. 7 of each word (the
 * lower bytes already in order where they differ); returns v or tmp,
 * whichever holds the result. */
static guint64 *
sort_words (guint64 *v,
            guint64 *tmp,
            gint64   n,
            guint    first_byte)
{
  guint32 count[8][256];

  if (n < RADIX_MIN_N)
    {
      for (gint64 i = 1; i < n; i++)
        insert_word (v, i, v[i]);
      return v;
    }
  memset (count[first_byte], 0, sizeof (count[0]) * (8 - first_byte));
  for (gint64 i = 0; i < n; i++)
    for (guint b = first_byte; b < 8; b++)
      count[b][(v[i] >> (8 * b)) & 0xff]++;
  for (guint b = first_byte; b < 8; b++)
    {
      guint32 *c = count[b], sum = 0;
      guint64 *swap;

      if (c[(v[0] >> (8 * b)) & 0xff] == (guint32) n)
        continue;                                      /* one digit: nothing moves */
      for (guint d = 0; d < 256; d++)
        {
          guint32 here = c[d];

          c[d] = sum;
          sum += here;
        }
      for (gint64 i = 0; i < n; i++)
        tmp[c[(v[i] >> (8 * b)) & 0xff]++] = v[i];
      swap = v;
      v = tmp;
      tmp = swap;
    }
  return v;
}

void
gnn_sort_keys_slice (GnnDType      dtype,
                     const guint8 *base,
                     gint64        stride,
                     gint64        n,
                     gint64        k,
                     gboolean      desc,
                     gpointer      scratch,
                     gint64       *pos)
{
  guint64 *words = scratch, *tmp = words + MAX (n, 1);
  guint32 *keys = (guint32 *) (tmp + MAX (n, 1));
  const guint64 *out;

  fill_keys (dtype, base, stride, n, desc ? G_MAXUINT32 : 0, keys);
  if (k < n && k <= SCAN_MAX_K)
    {
      scan_smallest (keys, n, k, words);
      out = words;
    }
  else
    {
      for (gint64 t = 0; t < n; t++)
        words[t] = word (keys[t], t);
      if (k < n)
        {
          select_smallest (words, n, k);
          out = sort_words (words, tmp, k, 0);
        }
      else
        out = sort_words (words, tmp, n, 4);
    }
  for (gint64 t = 0; t < k; t++)
    pos[t] = (gint64) (guint32) out[t];
}
