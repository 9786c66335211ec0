/* libFuzzer harness for image decoding (lib/vision/gnn-image-codec.c: the
 * bytes go through GdkPixbuf's loaders into a GnnImage).
 *
 * Build and run: see fuzz-safetensors.c; seeds: tests/io/image-corpus
 * (tiny PNG, JPEG, BMP, GIF, PPM, PGM and TIFF files).
 *
 * Every input either decodes or is refused with a GError; a decoded image
 * must have a size and layout that agree with its pixels, which (up to 4 M
 * values) are read whole, converted to every mode and encoded back to PNG. GdkPixbuf's
 * loaders themselves are not instrumented (Debian's modules): what is
 * checked is Gnn's side — the row strides, channel layouts and size limits
 * it reads from them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnImage) image = gnn_image_new_from_bytes (bytes, "fuzz input", &error);
  static const GnnImageMode modes[] = {
    GNN_IMAGE_MODE_L, GNN_IMAGE_MODE_LA, GNN_IMAGE_MODE_RGB, GNN_IMAGE_MODE_RGBA,
  };
  const guint8 *pixels;
  volatile guint sink = 0;
  gint64 numel;

  if (image == NULL)
    {
      g_assert (error != NULL && error->domain == GNN_ERROR);
      return 0;
    }
  numel = gnn_tensor_get_numel (GNN_TENSOR (image));
  g_assert (gnn_image_get_width (image) > 0 && gnn_image_get_height (image) > 0);
  g_assert (numel == gnn_image_get_width (image) * gnn_image_get_height (image) *
                     (gint64) gnn_image_get_mode (image));
  /* A small file can declare a big image (a BMP of 61 bytes decodes to
   * 131075 x 1024 pixels, within PIL's limit): the pixels of such images
   * are not walked, or one input would take longer than the fuzzer's
   * timeout in the conversions below; their decoding is still checked. */
  if (numel > (1 << 22))
    return 0;
  pixels = gnn_tensor_get_data (GNN_TENSOR (image));
  for (gint64 i = 0; i < numel; i++)
    sink += pixels[i];
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr(GnnImage) converted = gnn_image_convert (image, modes[m], NULL);

      g_assert (converted != NULL);
      g_assert (gnn_image_get_width (converted) == gnn_image_get_width (image));
    }
  {
    g_autoptr(GBytes) png = gnn_image_save_to_bytes (image, "png", &error);

    g_assert (png != NULL || error != NULL);
  }
  return 0;
}
