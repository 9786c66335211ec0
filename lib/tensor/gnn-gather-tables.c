/* gnn-gather-tables.c: gathers through per-dimension index tables and their
 * scatter-add backward (see gnn-gather-tables-private.h)
 *
 * The output is walked line by line (the last dimension): the other
 * dimensions' tables give the line's input offset once, and the last
 * dimension's table is applied along the line. Planes (the outer
 * dimension) are split among the threads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-gather-tables-private.h"
#include "tensor/gnn-parallel-private.h"

static gint64
plane_size (const gint64 *sizes,
            guint         k)
{
  gint64 n = 1;

  for (guint d = 0; d < k; d++)
    n *= sizes[d];
  return n;
}

/* Walks the lines of one plane: for each, the input offset of its other
 * dimensions (-1 when a table says "no input") and the line's index. */
typedef struct
{
  const GnnGatherTables *t;
  gint64 idx[GNN_MAX_DIMS];
  gint64 stride[GNN_MAX_DIMS];
  gint64 line, lines;
} LineWalk;

static void
line_walk_init (LineWalk              *w,
                const GnnGatherTables *t)
{
  gint64 s = 1;

  w->t = t;
  for (guint d = t->k; d-- > 0;)
    {
      w->stride[d] = s;
      s *= t->in[d];
      w->idx[d] = 0;
    }
  w->line = 0;
  w->lines = t->k > 0 ? plane_size (t->out, t->k - 1) : 0;
}

/* The current line's input offset, or -1; then steps to the next line. */
static gint64
line_walk_next (LineWalk *w)
{
  const GnnGatherTables *t = w->t;
  gint64 base = 0;
  gboolean hole = FALSE;

  for (guint d = 0; d + 1 < t->k; d++)
    {
      gint64 v = t->table[d][w->idx[d]];

      hole = hole || v < 0;
      base += MAX (v, 0) * w->stride[d];
    }
  for (guint d = t->k - 1; d-- > 0;)
    if (++w->idx[d] < t->out[d])
      break;
    else
      w->idx[d] = 0;
  w->line++;
  return hole ? -1 : base;
}

typedef struct
{
  const GnnGatherTables *t;
  gsize elem_size;
  const guint8 *in;
  guint8 *out;
  const guint8 *fill;
} GatherJob;

#define GATHER_LINE(T)                                                          \
  G_STMT_START {                                                                \
    const T *s = (const T *) src;                                               \
    T *o = (T *) dst, f;                                                        \
                                                                                \
    if (job->fill != NULL)                                                      \
      memcpy (&f, job->fill, sizeof f);                                         \
    else                                                                        \
      memset (&f, 0, sizeof f);                                                 \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i] = base < 0 || tab[i] < 0 ? f : s[tab[i]];                            \
  } G_STMT_END

static void
gather_range (gint64   p0,
              gint64   p1,
              gpointer data)
{
  const GatherJob *job = data;
  const GnnGatherTables *t = job->t;
  gsize es = job->elem_size;
  gint64 in_plane = plane_size (t->in, t->k), out_plane = plane_size (t->out, t->k);
  gint64 n = t->out[t->k - 1];
  const gint64 *tab = t->table[t->k - 1];

  for (gint64 p = p0; p < p1; p++)
    {
      LineWalk w;

      line_walk_init (&w, t);
      while (w.line < w.lines)
        {
          guint8 *dst = job->out + (gsize) (p * out_plane + w.line * n) * es;
          gint64 base = line_walk_next (&w);
          const guint8 *src = job->in + (gsize) (p * in_plane + MAX (base, 0)) * es;

          if (es == 4)
            GATHER_LINE (guint32);
          else if (es == 8)
            GATHER_LINE (guint64);
          else if (es == 2)
            GATHER_LINE (guint16);
          else
            for (gint64 i = 0; i < n; i++)
              {
                if (base < 0 || tab[i] < 0)
                  {
                    if (job->fill != NULL)
                      memcpy (dst + (gsize) i * es, job->fill, es);
                    else
                      memset (dst + (gsize) i * es, 0, es);
                  }
                else
                  memcpy (dst + (gsize) i * es, src + (gsize) tab[i] * es, es);
              }
        }
    }
}

void
gnn_gather_tables (const GnnGatherTables *t,
                   gsize                  elem_size,
                   const void            *in,
                   void                  *out,
                   const void            *fill)
{
  gint64 out_plane = plane_size (t->out, t->k);

  if (t->k == 0)
    {
      memcpy (out, in, (gsize) t->outer * elem_size);
      return;
    }
  if (out_plane == 0 || t->outer == 0)
    return;
  gnn_parallel_for (t->outer, gnn_parallel_grain (out_plane), gather_range,
                    &(GatherJob) { t, elem_size, in, out, fill });
}

#define DEFINE_GATHER_BACKWARD(T, suffix)                                               \
typedef struct                                                                          \
{                                                                                       \
  const GnnGatherTables *t;                                                             \
  const T *gout;                                                                        \
  T *gin;                                                                               \
} ScatterJob_##suffix;                                                                  \
                                                                                        \
static void                                                                             \
scatter_range_##suffix (gint64 p0, gint64 p1, gpointer data)                            \
{                                                                                       \
  const ScatterJob_##suffix *job = data;                                                \
  const GnnGatherTables *t = job->t;                                                    \
  gint64 in_plane = plane_size (t->in, t->k), out_plane = plane_size (t->out, t->k);    \
  gint64 n = t->out[t->k - 1];                                                          \
  const gint64 *tab = t->table[t->k - 1];                                               \
                                                                                        \
  memset (job->gin + p0 * in_plane, 0, sizeof (T) * (gsize) ((p1 - p0) * in_plane));   \
  for (gint64 p = p0; p < p1; p++)                                                      \
    {                                                                                   \
      LineWalk w;                                                                       \
                                                                                        \
      line_walk_init (&w, t);                                                           \
      while (w.line < w.lines)                                                          \
        {                                                                               \
          const T *g = job->gout + p * out_plane + w.line * n;                          \
          gint64 base = line_walk_next (&w);                                            \
          T *dst = job->gin + p * in_plane + base;                                      \
                                                                                        \
          if (base < 0)                                                                 \
            continue;                                                                   \
          for (gint64 i = 0; i < n; i++)                                                \
            if (tab[i] >= 0)                                                            \
              dst[tab[i]] += g[i];                                                      \
        }                                                                               \
    }                                                                                   \
}                                                                                       \
                                                                                        \
void                                                                                    \
gnn_gather_tables_backward_##suffix (const GnnGatherTables *t, const T *gout, T *gin)   \
{                                                                                       \
  gint64 in_plane = plane_size (t->in, t->k);                                           \
                                                                                        \
  if (t->k == 0)                                                                        \
    {                                                                                   \
      memcpy (gin, gout, sizeof (T) * (gsize) t->outer);                                \
      return;                                                                           \
    }                                                                                   \
  if (in_plane == 0 || t->outer == 0)                                                   \
    return;                                                                             \
  gnn_parallel_for (t->outer, gnn_parallel_grain (in_plane), scatter_range_##suffix,    \
                    &(ScatterJob_##suffix) { t, gout, gin });                           \
}

DEFINE_GATHER_BACKWARD (float, f32)
DEFINE_GATHER_BACKWARD (double, f64)
