/* gnn-conv-nd-private.h: what the convolution layer classes share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* For a subclass's class_init: records @n_spatial (1 to 3) and
 * @transposed on @klass and installs its properties — "in-channels",
 * "out-channels", then per spatial axis "kernel", "stride", "padding",
 * "dilation" (and "output-padding" when transposed) named "<name>-size" /
 * "<name>" for one axis and "<name>-d/-h/-w" for several, "groups",
 * "has-bias", "padding-mode" and "padding-same" (plain convolutions), and
 * the write-only "generator". The subclass documents them. */
void        gnn_conv_nd_class_setup (GnnConvNdClass *klass,
                                     guint           n_spatial,
                                     gboolean        transposed);

/* A layer's torch arguments, per axis; NULL arrays mean the defaults. */
typedef struct
{
  gint64        in_channels;
  gint64        out_channels;
  const gint64 *kernel_size;
  const gint64 *stride;
  const gint64 *padding;
  const gint64 *output_padding;
  const gint64 *dilation;
  gint64        groups;
  gboolean      bias;
  GnnGenerator *generator;
} GnnConvNdArgs;

/* The constructor functions: checks @args with torch's messages (the
 * properties' own range checks only warn), then builds @type from them
 * (NULL + @error when construction fails). */
gpointer    gnn_conv_nd_new         (GType                type,
                                     const GnnConvNdArgs *args,
                                     GError             **error);

G_END_DECLS
