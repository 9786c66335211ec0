/* gnn-image-codec.c: images decoded and encoded by GdkPixbuf
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

static gint64 max_pixels = GNN_IMAGE_MAX_PIXELS;

void
gnn_image_set_max_pixels (gint64 limit)
{
  max_pixels = limit;
}

/* The GdkPixbuf loader for the file's first bytes: only the formats an
 * image dataset holds (torchvision's IMG_EXTENSIONS that GdkPixbuf reads),
 * never a loader picked by GdkPixbuf's own guess (SVG, ICO, XPM, ...). */
static const char *
sniff_format (const guint8 *d,
              gsize         n)
{
  if (n >= 8 && memcmp (d, "\x89PNG\r\n\x1a\n", 8) == 0)
    return "png";
  if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
    return "jpeg";
  if (n >= 2 && d[0] == 'B' && d[1] == 'M')
    return "bmp";
  if (n >= 2 && d[0] == 'P' && d[1] >= '1' && d[1] <= '6')
    return "pnm";
  if (n >= 4 && (memcmp (d, "II*\0", 4) == 0 || memcmp (d, "MM\0*", 4) == 0))
    return "tiff";
  if (n >= 6 && (memcmp (d, "GIF87a", 6) == 0 || memcmp (d, "GIF89a", 6) == 0))
    return "gif";
  return NULL;
}

static guint32
read_le32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* GdkPixbuf's BMP loader first grows its buffer to the header and palette
 * sizes the file declares (found by libFuzzer: a 2.5 GB realloc for a
 * 180-byte file; a 3.7 GB one for a 59-byte file whose colour count
 * overflows 32 bits when multiplied by 4). The whole file is in memory, so
 * a header or palette that says it is longer than the data is corrupt:
 * refused before the loader sees it. */
static gboolean
bmp_header_fits (const guint8 *d,
                 gsize         n,
                 const char   *format)
{
  guint32 pixels_at, info_size;

  if (strcmp (format, "bmp") != 0)
    return TRUE;
  if (n < 18)
    return FALSE;
  pixels_at = read_le32 (d + 10);
  info_size = read_le32 (d + 14);
  if (pixels_at > n || info_size > n - 14)
    return FALSE;
  /* BITMAPINFOHEADER and later: biClrUsed palette entries of 4 bytes
   * follow the header */
  if (info_size >= 40)
    return (guint64) 14 + info_size + (guint64) read_le32 (d + 46) * 4 <= n;
  return TRUE;
}

typedef struct
{
  gint64 width, height;
  gboolean too_large;
} SizeCheck;

static void
on_size_prepared (GdkPixbufLoader *loader,
                  gint             width,
                  gint             height,
                  gpointer         data)
{
  SizeCheck *check = data;

  check->width = width;
  check->height = height;
  if ((gint64) width * height > max_pixels)
    {
      /* a size of 0 makes every loader stop before it allocates */
      check->too_large = TRUE;
      gdk_pixbuf_loader_set_size (loader, 0, 0);
    }
}

/* The pixels of @pixbuf as an image, sharing its memory. */
static GnnImage *
image_from_pixbuf (GdkPixbuf  *pixbuf,
                   const char *name,
                   GError    **error)
{
  gint64 w = gdk_pixbuf_get_width (pixbuf), h = gdk_pixbuf_get_height (pixbuf);
  gint64 c = gdk_pixbuf_get_n_channels (pixbuf), rowstride = gdk_pixbuf_get_rowstride (pixbuf);
  const gint64 strides[3] = { rowstride, c, 1 };
  guint length = 0;
  guint8 *pixels;

  if (gdk_pixbuf_get_bits_per_sample (pixbuf) != 8 || (c != 3 && c != 4) ||
      gdk_pixbuf_get_colorspace (pixbuf) != GDK_COLORSPACE_RGB)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: decoded into an unsupported layout (%d bits, %d channels)", name,
                   gdk_pixbuf_get_bits_per_sample (pixbuf), (int) c);
      return NULL;
    }
  pixels = gdk_pixbuf_get_pixels_with_length (pixbuf, &length);
  return gnn_image_new_with_storage (gnn_storage_new_wrap (pixels, length, g_object_unref,
                                                           g_object_ref (pixbuf)),
                                     h, w, c, strides, 0);
}

/**
 * gnn_image_new_from_bytes:
 * @data: the contents of an image file
 * @name: (nullable): what to call the data in error messages (a path)
 * @error: return location for a #GError
 *
 * Decodes an image file held in memory: PNG, JPEG, BMP, PNM (PPM, PGM,
 * PBM), TIFF or GIF (its first frame), through GdkPixbuf. Grey images
 * decode as RGB (GdkPixbuf's only layouts are RGB and RGBA), which is
 * what torchvision's image loader gives too (`Image.open(f).convert('RGB')`);
 * RGB JPEG and PNG files decode to the values PIL decodes.
 *
 * Data of another format, corrupt or truncated data, and images of more
 * than 178,956,970 pixels (PIL's decompression-bomb limit) are
 * %GNN_ERROR_FORMAT errors naming @name.
 *
 * Returns: (transfer full): the image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnImage *
gnn_image_new_from_bytes (GBytes      *data,
                          const char  *name,
                          GError     **error)
{
  g_autoptr(GdkPixbufLoader) loader = NULL;
  g_autoptr(GError) local = NULL;
  SizeCheck check = { 0, 0, FALSE };
  const guint8 *bytes;
  const char *format;
  gboolean ok;
  gsize n;

  g_return_val_if_fail (data != NULL, NULL);
  name = name != NULL ? name : "image data";
  bytes = g_bytes_get_data (data, &n);
  format = sniff_format (bytes, n);
  if (format == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: cannot identify image file (not PNG, JPEG, BMP, PNM, TIFF or GIF)", name);
      return NULL;
    }
  if (!bmp_header_fits (bytes, n, format))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: cannot decode the bmp image: its header declares more bytes than the "
                   "data holds", name);
      return NULL;
    }
  loader = gdk_pixbuf_loader_new_with_type (format, &local);
  if (loader == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: no %s decoder (GdkPixbuf): %s", name, format, local->message);
      return NULL;
    }
  g_signal_connect (loader, "size-prepared", G_CALLBACK (on_size_prepared), &check);
  ok = gdk_pixbuf_loader_write (loader, bytes, n, &local);
  /* close even after a failed write: a loader must not be finalized open */
  ok = gdk_pixbuf_loader_close (loader, ok ? &local : NULL) && ok;
  if (check.too_large)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: Image size (%" G_GINT64_FORMAT " pixels) exceeds limit of %"
                   G_GINT64_FORMAT " pixels, could be decompression bomb DOS attack.",
                   name, check.width * check.height, max_pixels);
      return NULL;
    }
  if (!ok || gdk_pixbuf_loader_get_pixbuf (loader) == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: cannot decode the %s image: %s",
                   name, format, local != NULL ? local->message : "no image in the data");
      return NULL;
    }
  return image_from_pixbuf (gdk_pixbuf_loader_get_pixbuf (loader), name, error);
}

/**
 * gnn_image_new_from_file:
 * @path: (type filename): an image file
 * @error: return location for a #GError
 *
 * Reads and decodes an image file, like PIL's `Image.open(path)`; see
 * [ctor@Gnn.Image.new_from_bytes] for the formats. A file that cannot be
 * read is a %GNN_ERROR_IO error, a file that does not decode a
 * %GNN_ERROR_FORMAT error; both name @path.
 *
 * Returns: (transfer full): the image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnImage *
gnn_image_new_from_file (const char  *path,
                         GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *display = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (!g_file_get_contents (path, &contents, &length, &local))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s", local->message);
      return NULL;
    }
  bytes = g_bytes_new_take (contents, length);
  display = g_filename_display_name (path);
  return gnn_image_new_from_bytes (bytes, display, error);
}

/* The format GdkPixbuf writes for @format or @path's extension. */
static const char *
save_format (const char  *format,
             const char  *path,
             GError     **error)
{
  const char *dot;

  if (format == NULL && path != NULL && (dot = strrchr (path, '.')) != NULL)
    format = dot + 1;
  if (format != NULL && g_ascii_strcasecmp (format, "png") == 0)
    return "png";
  if (format != NULL && (g_ascii_strcasecmp (format, "jpeg") == 0 ||
                         g_ascii_strcasecmp (format, "jpg") == 0))
    return "jpeg";
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s%sunknown file extension or format '%s' (png or jpeg)",
               path != NULL ? path : "", path != NULL ? ": " : "", format ? format : "");
  return NULL;
}

/**
 * gnn_image_save_to_bytes:
 * @self: a #GnnImage
 * @format: "png" or "jpeg"
 * @error: return location for a #GError
 *
 * Encodes the image through GdkPixbuf (JPEG at GdkPixbuf's default
 * quality, 75, as PIL's). GdkPixbuf writes only RGB and RGBA: an L image is
 * written as RGB with three equal channels, LA as RGBA.
 *
 * Returns: (transfer full): the encoded file, or %NULL with @error set
 *
 * Since: 0.1
 */
GBytes *
gnn_image_save_to_bytes (GnnImage    *self,
                         const char  *format,
                         GError     **error)
{
  g_autoptr(GnnImage) rgb = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  GnnImageMode mode;
  gchar *buffer = NULL;
  gsize size = 0;
  const char *type;
  gint64 w, h;

  g_return_val_if_fail (GNN_IS_IMAGE (self), NULL);
  type = save_format (format, NULL, error);
  if (type == NULL)
    return NULL;
  mode = gnn_image_get_mode (self);
  w = gnn_image_get_width (self);
  h = gnn_image_get_height (self);
  if (w <= 0 || h <= 0 || w > G_MAXINT || h > G_MAXINT / 4 / w)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Image: cannot save an image of %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   " pixels", w, h);
      return NULL;
    }
  /* a contiguous copy in RGB or RGBA (GdkPixbuf's layouts) */
  rgb = gnn_image_convert (self, mode == GNN_IMAGE_MODE_LA || mode == GNN_IMAGE_MODE_RGBA
                                   ? GNN_IMAGE_MODE_RGBA : GNN_IMAGE_MODE_RGB, error);
  if (rgb == NULL)
    return NULL;
  if (strcmp (type, "jpeg") == 0 && gnn_image_get_mode (rgb) == GNN_IMAGE_MODE_RGBA)
    {
      g_object_unref (rgb);
      rgb = gnn_image_convert (self, GNN_IMAGE_MODE_RGB, error);
      if (rgb == NULL)
        return NULL;
    }
  pixbuf = gdk_pixbuf_new_from_data (gnn_image_data (rgb), GDK_COLORSPACE_RGB,
                                     gnn_image_get_mode (rgb) == GNN_IMAGE_MODE_RGBA, 8,
                                     (int) w, (int) h, (int) (w * gnn_image_get_mode (rgb)),
                                     NULL, NULL);
  if (!gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, type, error, NULL))
    return NULL;
  return g_bytes_new_take (buffer, size);
}

/**
 * gnn_image_save:
 * @self: a #GnnImage
 * @path: (type filename): the file to write
 * @format: (nullable): "png" or "jpeg", or %NULL for the one @path's
 *   extension names
 * @error: return location for a #GError
 *
 * Writes the image to a file, like PIL's `image.save(path)` (see
 * [method@Gnn.Image.save_to_bytes]). The file is replaced atomically.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_image_save (GnnImage    *self,
                const char  *path,
                const char  *format,
                GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;
  const char *type;
  gsize size;
  const char *data;

  g_return_val_if_fail (GNN_IS_IMAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  type = save_format (format, path, error);
  if (type == NULL)
    return FALSE;
  bytes = gnn_image_save_to_bytes (self, type, error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &size);
  if (!g_file_set_contents (path, data, (gssize) size, &local))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}
