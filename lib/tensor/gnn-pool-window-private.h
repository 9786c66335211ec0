/* gnn-pool-window-private.h: the window arithmetic every pooling op shares
 * (1-d, 2-d and 3-d max/avg pools and their backwards)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* PyTorch's pooling_output_shape: the output length of one axis. */
static inline gint64
gnn_pool_out_size (gint64   in,
                   gint64   k,
                   gint64   pad,
                   gint64   stride,
                   gint64   dilation,
                   gboolean ceil_mode)
{
  gint64 num = in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  gint64 out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;

  /* the last window must start inside the input or the left padding */
  if (ceil_mode && (out - 1) * stride >= in + pad)
    out--;
  return out;
}

/* The taps k in [*first, *end) of a window of @taps taps starting at @start
 * with spacing @step that fall inside [0, size): the window walk skips the
 * padding instead of testing every tap of a huge window. */
static inline void
gnn_pool_window_taps (gint64  start,
                      gint64  step,
                      gint64  taps,
                      gint64  size,
                      gint64 *first,
                      gint64 *end)
{
  *first = start < 0 ? (-start + step - 1) / step : 0;
  *end = start < size ? MIN (taps, (size - start + step - 1) / step) : 0;
}

G_END_DECLS
