/* gnn-safetensors-write.c: saving state dicts as safetensors files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "io/gnn-io-private.h"
#include "io/gnn-safetensors-private.h"
#include "tensor/gnn-tensor-private.h"

static gboolean
check_utf8 (const char  *what,
            const char  *str,
            GError     **error)
{
  if (g_utf8_validate (str, -1, NULL))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
               "safetensors: %s is not valid UTF-8", what);
  return FALSE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Stable order of the data: larger elements first, so that every tensor is
 * aligned for its dtype (sizes are powers of two and the data starts at a
 * multiple of 8). */
static int
compare_layout (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  GnnTensor **tensors = user_data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  gsize sa = gnn_dtype_get_size (gnn_tensor_get_dtype (tensors[ia]));
  gsize sb = gnn_dtype_get_size (gnn_tensor_get_dtype (tensors[ib]));

  if (sa != sb)
    return sa > sb ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

static char *
build_header (GnnStateDict  *self,
              char         **keys,
              GnnTensor    **tensors,
              guint64       *offsets,
              GHashTable    *metadata,
              gsize         *len_out,
              GError       **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_auto(GStrv) own_meta = gnn_state_dict_get_metadata_keys (self);
  g_autoptr(GPtrArray) extra = g_ptr_array_new ();
  GString *header;

  /* __metadata__: the state dict's own entries, then @metadata's (sorted,
   * overriding equal keys) */
  if (metadata != NULL)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, metadata);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (gnn_state_dict_get_metadata (self, key) == NULL)
          g_ptr_array_add (extra, key);
      g_ptr_array_sort (extra, compare_strings);
    }

  json_builder_begin_object (builder);
  if (own_meta[0] != NULL || extra->len > 0)
    {
      json_builder_set_member_name (builder, "__metadata__");
      json_builder_begin_object (builder);
      for (guint i = 0; own_meta[i] != NULL; i++)
        {
          const char *value = NULL;

          if (metadata != NULL)
            value = g_hash_table_lookup (metadata, own_meta[i]);
          if (value == NULL)
            value = gnn_state_dict_get_metadata (self, own_meta[i]);
          if (!check_utf8 ("a metadata key", own_meta[i], error) ||
              !check_utf8 ("a metadata value", value, error))
            return NULL;
          json_builder_set_member_name (builder, own_meta[i]);
          json_builder_add_string_value (builder, value);
        }
      for (guint i = 0; i < extra->len; i++)
        {
          const char *key = g_ptr_array_index (extra, i);
          const char *value = g_hash_table_lookup (metadata, key);

          if (value == NULL)
            continue;
          if (!check_utf8 ("a metadata key", key, error) ||
              !check_utf8 ("a metadata value", value, error))
            return NULL;
          json_builder_set_member_name (builder, key);
          json_builder_add_string_value (builder, value);
        }
      json_builder_end_object (builder);
    }

  for (guint i = 0; keys[i] != NULL; i++)
    {
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (tensors[i], &ndim);

      json_builder_set_member_name (builder, keys[i]);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "dtype");
      json_builder_add_string_value (builder,
                                     gnn_safetensors_dtype_to_string (gnn_tensor_get_dtype (tensors[i])));
      json_builder_set_member_name (builder, "shape");
      json_builder_begin_array (builder);
      for (guint d = 0; d < ndim; d++)
        json_builder_add_int_value (builder, shape[d]);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "data_offsets");
      json_builder_begin_array (builder);
      json_builder_add_int_value (builder, offsets[2 * i]);
      json_builder_add_int_value (builder, offsets[2 * i + 1]);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  header = g_string_new (NULL);
  json_generator_to_gstring (generator, header);
  /* Pad with spaces so the data starts at a multiple of 8. */
  while (header->len % 8 != 0)
    g_string_append_c (header, ' ');
  *len_out = header->len;
  return g_string_free (header, FALSE);
}

static gboolean
write_file (const char    *path,
            const char    *header,
            gsize          header_len,
            GnnTensor    **tensors,
            const guint   *layout,
            guint          n,
            GError       **error)
{
  guint64 le_len = GUINT64_TO_LE ((guint64) header_len);
  GnnIoReplace replace;
  gboolean ok;

  if (!gnn_io_replace_begin (&replace, path, error))
    return FALSE;
  ok = gnn_io_write_all (replace.fd, (const guint8 *) &le_len, 8, path, error) &&
       gnn_io_write_all (replace.fd, (const guint8 *) header, header_len, path, error);
  for (guint i = 0; ok && i < n; i++)
    {
      GnnTensor *tensor = tensors[layout[i]];
      g_autoptr(GnnTensor) packed = NULL;
      guint64 nbytes = gnn_tensor_get_nbytes (tensor);

      if (nbytes == 0)
        continue;
      /* Views are written packed, row-major. */
      packed = gnn_tensor_contiguous_checked (tensor, error);
      ok = packed != NULL && gnn_io_write_all (replace.fd, gnn_tensor_priv_data (gnn_tensor_priv (packed)), nbytes,
                             path, error);
    }
  if (!ok)
    {
      gnn_io_replace_abort (&replace);
      return FALSE;
    }
  return gnn_io_replace_commit (&replace, error);
}

/**
 * gnn_state_dict_save:
 * @self: a state dict
 * @path: (type filename): the file to write
 * @metadata: (nullable) (element-type utf8 utf8): extra `__metadata__`
 *   strings, such as `{"format": "pt"}`; they override the state dict's own
 *   metadata of the same key
 * @error: return location for a #GError
 *
 * Writes the state dict as a safetensors file, like Python's
 * `safetensors.torch.save_file`. The header lists the tensors in the state
 * dict's order (so [func@Gnn.StateDict.load] gives them back in that order)
 * and is padded with spaces to a multiple of 8 bytes; the data is packed
 * (views are written as contiguous copies), ordered by decreasing element
 * size so that every tensor is aligned when mapped. `__metadata__` holds the
 * state dict's metadata followed by @metadata's entries.
 *
 * The file is written as a temporary file in the same directory (unnamed
 * with `O_TMPFILE` where the file system supports it), synced to disk and
 * renamed over @path, so a crash or an error never leaves a partial file
 * under @path; existing mappings of an old @path stay valid. A named
 * temporary file left by a killed writer is removed by the next save or
 * load of @path. An existing @path that is not a regular file (a directory,
 * a device such as `/dev/null`, a FIFO) is never replaced.
 *
 * Returns: %TRUE on success; %FALSE with a %G_IO_ERROR if writing fails
 *   (the code from `errno`, such as %G_IO_ERROR_PERMISSION_DENIED or
 *   %G_IO_ERROR_NO_SPACE; %G_IO_ERROR_IS_DIRECTORY or
 *   %G_IO_ERROR_NOT_REGULAR_FILE for a @path that is not a regular file),
 *   %GNN_ERROR_NAME for a tensor named `__metadata__` or names that are not
 *   UTF-8
 *
 * Since: 0.1
 */
gboolean
gnn_state_dict_save (GnnStateDict  *self,
                     const char    *path,
                     GHashTable    *metadata,
                     GError       **error)
{
  g_auto(GStrv) keys = NULL;
  g_autofree GnnTensor **tensors = NULL;
  g_autofree guint64 *offsets = NULL;
  g_autofree guint *layout = NULL;
  g_autofree char *header = NULL;
  gsize header_len = 0;
  guint64 pos = 0;
  guint n;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "safetensors: saving on big-endian hosts is not supported");
  return FALSE;
#endif

  keys = gnn_state_dict_get_keys (self);
  n = g_strv_length (keys);
  tensors = g_new (GnnTensor *, n + 1);
  offsets = g_new (guint64, 2 * n + 1);
  layout = g_new (guint, n + 1);
  for (guint i = 0; i < n; i++)
    {
      if (strcmp (keys[i], "__metadata__") == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                       "safetensors: cannot save a tensor named \"__metadata__\": "
                       "the name is reserved by the format");
          return FALSE;
        }
      if (!check_utf8 ("a tensor name", keys[i], error))
        return FALSE;
      if (gnn_tensor_is_meta (gnn_state_dict_lookup (self, keys[i])))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "safetensors: cannot save \"%s\": tensor has no storage (meta)", keys[i]);
          return FALSE;
        }
      tensors[i] = gnn_state_dict_lookup (self, keys[i]);
      layout[i] = i;
    }
  g_qsort_with_data (layout, n, sizeof (guint), compare_layout, tensors);
  for (guint i = 0; i < n; i++)
    {
      guint k = layout[i];

      offsets[2 * k] = pos;
      pos += gnn_tensor_get_nbytes (tensors[k]);
      offsets[2 * k + 1] = pos;
    }

  header = build_header (self, keys, tensors, offsets, metadata, &header_len, error);
  if (header == NULL)
    return FALSE;
  if (header_len > GNN_SAFETENSORS_MAX_HEADER)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "safetensors: the header would be %" G_GSIZE_FORMAT " bytes, over the "
                   "format's limit of %d", header_len, GNN_SAFETENSORS_MAX_HEADER);
      return FALSE;
    }
  return write_file (path, header, header_len, tensors, layout, n, error);
}

gboolean
gnn_io_save_with_description (GnnStateDict  *state_dict,
                              const char    *path,
                              GHashTable    *metadata,
                              const char    *key,
                              const char    *description,
                              GError       **error)
{
  g_autoptr(GHashTable) meta = g_hash_table_new (g_str_hash, g_str_equal);

  if (metadata != NULL)
    {
      GHashTableIter iter;
      gpointer k, v;

      g_hash_table_iter_init (&iter, metadata);
      while (g_hash_table_iter_next (&iter, &k, &v))
        g_hash_table_insert (meta, k, v);
    }
  g_hash_table_insert (meta, (gpointer) key, (gpointer) description);
  return gnn_state_dict_save (state_dict, path, meta, error);
}
