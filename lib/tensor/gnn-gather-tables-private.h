/* gnn-gather-tables-private.h: copies whose every output position reads one
 * input position chosen per dimension by a table (padding in every mode,
 * nearest-neighbour resampling), and the scatter-add that is their backward
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* A contiguous input [outer, in[0], …, in[k-1]] and output [outer, out[0],
 * …, out[k-1]]; table[d][o] is the input index along dimension d read by
 * output index o, or -1 for "no input": the output holds the fill value
 * there (constant padding). */
typedef struct
{
  gint64         outer;
  guint          k;
  gint64         in[GNN_MAX_DIMS];
  gint64         out[GNN_MAX_DIMS];
  const gint64  *table[GNN_MAX_DIMS];
} GnnGatherTables;

/* out = in gathered through @t, elements of @elem_size bytes; @fill (one
 * element, may be NULL when no table holds -1) where a table says -1. */
void gnn_gather_tables         (const GnnGatherTables *t,
                                gsize                  elem_size,
                                const void            *in,
                                void                  *out,
                                const void            *fill);

/* gin = the sum over output positions of @gout at the input position each
 * read (gin is fully written, positions read by none get 0). */
void gnn_gather_tables_backward_f32 (const GnnGatherTables *t,
                                     const float           *gout,
                                     float                 *gin);
void gnn_gather_tables_backward_f64 (const GnnGatherTables *t,
                                     const double          *gout,
                                     double                *gin);

/* Padding as a gather (gnn-tensor-pad.c). gnn_pad_geometry fills @t for a
 * pad of the last @k of @ndim dimensions from @in_shape to @out_shape;
 * gnn_pad_tables then builds @t's tables for @mode and the left pads of
 * its dimensions (outermost first) and returns their memory (g_free), or
 * NULL when it cannot be allocated. */
void    gnn_pad_geometry (GnnGatherTables *t,
                          const gint64    *in_shape,
                          const gint64    *out_shape,
                          guint            ndim,
                          guint            k);
gint64 *gnn_pad_tables   (GnnPaddingMode   mode,
                          GnnGatherTables *t,
                          const gint64    *pad_left);

G_END_DECLS
