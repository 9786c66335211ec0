/* gnn-image-private.h: building images inside lib/vision
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* An image over @storage (the reference is taken over), HWC with @strides
 * (NULL: contiguous) from element @offset. */
GnnImage *gnn_image_new_with_storage  (GnnStorage *storage, gint64 height, gint64 width,
                                       gint64 channels, const gint64 *strides, gint64 offset);
/* A contiguous image of @channels (1 to 4), zeroed or not. */
GnnImage *gnn_image_new_uninitialized (gint64 height, gint64 width, gint64 channels,
                                       gboolean zeroed, GError **error);
/* The address of the first value. */
guint8   *gnn_image_data              (GnnImage *self);

/* Decoding refuses images of more pixels than this (PIL's decompression
 * bomb limit, twice Image.MAX_IMAGE_PIXELS); the fuzz harness lowers it. */
#define GNN_IMAGE_MAX_PIXELS G_GINT64_CONSTANT (178956970)
void      gnn_image_set_max_pixels    (gint64 max_pixels);

/* PIL's luminance of 8-bit RGB (Convert.c, L24): ITU-R 601-2 in 16.16
 * fixed point. */
static inline guint8
gnn_pil_luminance (guint8 r, guint8 g, guint8 b)
{
  return (guint8) (((guint32) r * 19595 + (guint32) g * 38470 + (guint32) b * 7471 + 0x8000) >> 16);
}

G_END_DECLS
