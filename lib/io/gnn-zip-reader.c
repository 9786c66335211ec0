/* gnn-zip-reader.c: zip archives held in memory, read with libzip, with
 * stored entries handed out as slices of the mapping (zero copy)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <sys/stat.h>

#include <zip.h>

#include "io/gnn-io-private.h"
#include "io/gnn-torch-private.h"

/*
 * libzip parses and checks the container; the archive is read from a
 * source of our own over the mapped bytes (libzip has no call that gives
 * an entry's data offset). To hand out a stored entry without copying it,
 * the reader opens the entry raw and reads its first bytes: the source sees
 * where libzip reads from — the start of the entry's data in the mapping —
 * and the bytes read must be the mapping's bytes there.
 */

typedef struct
{
  const guint8 *data;
  guint64       len;
  guint64       pos;
  guint64       last_read;   /* where the last read started */
  zip_error_t   error;
} MemSource;

struct _GnnZipReader
{
  GBytes     *bytes;
  MemSource   source;
  zip_t      *archive;
  guint       n_entries;
  GHashTable *index_of;      /* raw name → index + 1 */
  guint64     budget;        /* bytes left for decompressed entries */
};

static zip_int64_t
mem_source_callback (void             *userdata,
                     void             *data,
                     zip_uint64_t      len,
                     zip_source_cmd_t  cmd)
{
  MemSource *s = userdata;

  switch (cmd)
    {
    case ZIP_SOURCE_OPEN:
      s->pos = 0;
      return 0;
    case ZIP_SOURCE_READ:
      {
        guint64 n = MIN (len, s->len - s->pos);

        s->last_read = s->pos;
        memcpy (data, s->data + s->pos, n);
        s->pos += n;
        return (zip_int64_t) n;
      }
    case ZIP_SOURCE_CLOSE:
    case ZIP_SOURCE_FREE:
      return 0;
    case ZIP_SOURCE_STAT:
      {
        zip_stat_t *st = data;

        if (len < sizeof (*st))
          {
            zip_error_set (&s->error, ZIP_ER_INVAL, 0);
            return -1;
          }
        zip_stat_init (st);
        st->size = s->len;
        st->valid |= ZIP_STAT_SIZE;
        return sizeof (*st);
      }
    case ZIP_SOURCE_ERROR:
      return zip_error_to_data (&s->error, data, len);
    case ZIP_SOURCE_SEEK:
      {
        zip_int64_t pos = zip_source_seek_compute_offset (s->pos, s->len, data, len, &s->error);

        if (pos < 0)
          return -1;
        s->pos = (guint64) pos;
        return 0;
      }
    case ZIP_SOURCE_TELL:
      return (zip_int64_t) s->pos;
    case ZIP_SOURCE_SUPPORTS:
      return zip_source_make_command_bitmap (ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
                                             ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
                                             ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS,
                                             -1);
    default:
      zip_error_set (&s->error, ZIP_ER_OPNOTSUPP, 0);
      return -1;
    }
}

#define ZIP_ERROR(error, ...) \
  g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "invalid zip archive: " __VA_ARGS__)

void
gnn_zip_reader_free (GnnZipReader *reader)
{
  if (reader == NULL)
    return;
  if (reader->archive != NULL)
    zip_discard (reader->archive);
  zip_error_fini (&reader->source.error);
  g_clear_pointer (&reader->index_of, g_hash_table_unref);
  g_clear_pointer (&reader->bytes, g_bytes_unref);
  g_free (reader);
}

static gboolean
check_entries (GnnZipReader  *reader,
               GError       **error)
{
  for (guint i = 0; i < reader->n_entries; i++)
    {
      const char *name = zip_get_name (reader->archive, i, ZIP_FL_ENC_RAW);
      zip_uint8_t opsys;
      zip_uint32_t attributes;

      if (name == NULL)
        {
          ZIP_ERROR (error, "entry %u has no name: %s", i, zip_strerror (reader->archive));
          return FALSE;
        }
      if (zip_file_get_external_attributes (reader->archive, i, 0, &opsys, &attributes) == 0 &&
          opsys == ZIP_OPSYS_UNIX && S_ISLNK (attributes >> 16))
        {
          g_autofree char *display = gnn_io_escape_utf8 (name, -1);

          ZIP_ERROR (error, "entry \"%s\" is a symbolic link", display);
          return FALSE;
        }
      if (!g_hash_table_insert (reader->index_of, (gpointer) name, GUINT_TO_POINTER (i + 1)))
        {
          g_autofree char *display = gnn_io_escape_utf8 (name, -1);

          ZIP_ERROR (error, "the name \"%s\" is there twice", display);
          return FALSE;
        }
    }
  return TRUE;
}

GnnZipReader *
gnn_zip_reader_new (GBytes  *bytes,
                    GError **error)
{
  g_autoptr(GnnZipReader) reader = g_new0 (GnnZipReader, 1);
  zip_source_t *source;
  zip_error_t zerror;
  gsize len;
  zip_int64_t n;

  reader->bytes = g_bytes_ref (bytes);
  reader->source.data = g_bytes_get_data (bytes, &len);
  reader->source.len = len;
  reader->budget = len;
  reader->index_of = g_hash_table_new (g_str_hash, g_str_equal);
  zip_error_init (&reader->source.error);
  zip_error_init (&zerror);

  source = zip_source_function_create (mem_source_callback, &reader->source, &zerror);
  if (source == NULL)
    {
      ZIP_ERROR (error, "%s", zip_error_strerror (&zerror));
      zip_error_fini (&zerror);
      return NULL;
    }
  reader->archive = zip_open_from_source (source, ZIP_RDONLY | ZIP_CHECKCONS, &zerror);
  if (reader->archive == NULL)
    {
      ZIP_ERROR (error, "%s", zip_error_strerror (&zerror));
      zip_error_fini (&zerror);
      zip_source_free (source);
      return NULL;
    }
  zip_error_fini (&zerror);
  n = zip_get_num_entries (reader->archive, 0);
  if (n < 0 || n > G_MAXUINT)
    {
      ZIP_ERROR (error, "it has %" G_GINT64_FORMAT " entries", (gint64) n);
      return NULL;
    }
  reader->n_entries = (guint) n;
  if (!check_entries (reader, error))
    return NULL;
  return g_steal_pointer (&reader);
}

guint
gnn_zip_reader_get_n_entries (GnnZipReader *reader)
{
  return reader->n_entries;
}

const char *
gnn_zip_reader_get_name (GnnZipReader *reader,
                         guint         index)
{
  return zip_get_name (reader->archive, index, ZIP_FL_ENC_RAW);
}

gint64
gnn_zip_reader_find (GnnZipReader *reader,
                     const char   *name)
{
  return (gint64) GPOINTER_TO_UINT (g_hash_table_lookup (reader->index_of, name)) - 1;
}

guint64
gnn_zip_reader_get_size (GnnZipReader *reader,
                         guint         index)
{
  zip_stat_t st;

  if (zip_stat_index (reader->archive, index, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    return 0;
  return st.size;
}

/* The offset of a stored entry's data in the mapping (see the top). */
static gboolean
locate_stored (GnnZipReader  *reader,
               guint          index,
               guint64        size,
               guint64       *offset,
               GError       **error)
{
  zip_file_t *file = zip_fopen_index (reader->archive, index, ZIP_FL_COMPRESSED);
  guint8 head[16];
  zip_int64_t n;

  if (file == NULL)
    {
      ZIP_ERROR (error, "entry \"%s\" cannot be opened: %s",
                 gnn_zip_reader_get_name (reader, index), zip_strerror (reader->archive));
      return FALSE;
    }
  n = zip_fread (file, head, MIN (size, sizeof head));
  zip_fclose (file);
  *offset = reader->source.last_read;
  if (n != (zip_int64_t) MIN (size, sizeof head) || *offset > reader->source.len ||
      size > reader->source.len - *offset ||
      memcmp (reader->source.data + *offset, head, (gsize) n) != 0)
    {
      ZIP_ERROR (error, "the data of entry \"%s\" is not where its header says (or runs past "
                 "the end of the file)", gnn_zip_reader_get_name (reader, index));
      return FALSE;
    }
  return TRUE;
}

static GBytes *
inflate_entry (GnnZipReader  *reader,
               guint          index,
               guint64        size,
               GError       **error)
{
  g_autofree guint8 *buffer = NULL;
  zip_file_t *file;
  zip_int64_t n;
  guint8 extra;

  if (size > reader->budget)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "invalid zip archive: entry \"%s\" is compressed and would expand to %"
                   G_GUINT64_FORMAT " bytes, more than the archive's own size allows (a zip bomb?)",
                   gnn_zip_reader_get_name (reader, index), size);
      return NULL;
    }
  buffer = g_try_malloc (MAX (size, 1));
  if (buffer == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "cannot allocate %" G_GUINT64_FORMAT " bytes for zip entry \"%s\"", size,
                   gnn_zip_reader_get_name (reader, index));
      return NULL;
    }
  file = zip_fopen_index (reader->archive, index, 0);
  if (file == NULL)
    {
      ZIP_ERROR (error, "entry \"%s\" cannot be opened: %s",
                 gnn_zip_reader_get_name (reader, index), zip_strerror (reader->archive));
      return NULL;
    }
  n = zip_fread (file, buffer, size);
  /* one more read reaches the end, where libzip checks the CRC */
  if (n == (zip_int64_t) size)
    n += zip_fread (file, &extra, 1) == 0 ? 0 : 1;
  if (n != (zip_int64_t) size)
    {
      ZIP_ERROR (error, "entry \"%s\" cannot be read: %s", gnn_zip_reader_get_name (reader, index),
                 n < 0 ? zip_file_strerror (file) : "its size is not the one its header says");
      zip_fclose (file);
      return NULL;
    }
  zip_fclose (file);
  reader->budget -= size;
  return g_bytes_new_take (g_steal_pointer (&buffer), size);
}

GBytes *
gnn_zip_reader_read (GnnZipReader  *reader,
                     guint          index,
                     gboolean      *zero_copy,
                     GError       **error)
{
  zip_stat_t st;
  guint64 offset;

  *zero_copy = FALSE;
  if (zip_stat_index (reader->archive, index, 0, &st) != 0)
    {
      ZIP_ERROR (error, "entry %u: %s", index, zip_strerror (reader->archive));
      return NULL;
    }
  if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "zip entry \"%s\" is encrypted", gnn_zip_reader_get_name (reader, index));
      return NULL;
    }
  if (!(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_METHOD))
    {
      ZIP_ERROR (error, "entry \"%s\" has no size", gnn_zip_reader_get_name (reader, index));
      return NULL;
    }
  if (st.size == 0)
    return g_bytes_new (NULL, 0);
  if (st.comp_method != ZIP_CM_STORE)
    return inflate_entry (reader, index, st.size, error);
  if (!(st.valid & ZIP_STAT_COMP_SIZE) || st.comp_size != st.size)
    {
      ZIP_ERROR (error, "entry \"%s\" is stored uncompressed but its sizes differ",
                 gnn_zip_reader_get_name (reader, index));
      return NULL;
    }
  if (!locate_stored (reader, index, st.size, &offset, error))
    return NULL;
  *zero_copy = TRUE;
  return g_bytes_new_from_bytes (reader->bytes, offset, st.size);
}
