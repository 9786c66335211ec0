/* gnn-torch-save.c: writing state dicts as torch.save does (a zip of a
 * protocol-2 pickle and the storages), readable by torch.load
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <zip.h>

#include "io/gnn-io-private.h"
#include "io/gnn-model-private.h"
#include "tensor/gnn-tensor-private.h"

/*
 * The pickle uses only the opcodes torch 1.13's weights_only unpickler
 * reads (no BINFLOAT, SHORT_BINUNICODE or MEMOIZE), so a state dict written
 * here loads with torch.load(f, weights_only=True). Floats in a checkpoint
 * (its "gnn.checkpoint" layout) need BINFLOAT, which torch.load reads by
 * default and weights_only reads from torch 2.0.
 *
 * Each distinct storage is written once, as torch does, under
 * archive/data/<n>; tensors keep their offsets and strides into it. The
 * entries are stored uncompressed with their data 64-byte aligned (the
 * local headers padded with an extra field, as torch's writer does), so
 * both torch and Gnn can map them.
 */

#define ARCHIVE "archive/"
#define ALIGNMENT 64
#define PADDING_FIELD 0x4246   /* "FB", torch's */

/* --- the pickle --------------------------------------------------------------------- */

typedef struct
{
  GByteArray   *out;
  GnnStateDict *state;
  GPtrArray    *storages;    /* GnnStorage*, their key is the index */
  GArray       *dtypes;      /* GnnDType per storage */
  GPtrArray    *packed;      /* contiguous copies of views that overlap themselves */
  GError      **error;
} Pickler;

static void
emit (Pickler    *p,
      const void *data,
      gsize       len)
{
  g_byte_array_append (p->out, data, len);
}

static void
emit_op (Pickler *p,
         guint8   op)
{
  emit (p, &op, 1);
}

static void
emit_u32 (Pickler *p,
          guint32  v)
{
  guint32 le = GUINT32_TO_LE (v);

  emit (p, &le, 4);
}

static void
emit_int (Pickler *p,
          gint64   v)
{
  if (v >= 0 && v < 256)
    {
      emit_op (p, 'K');
      emit_op (p, (guint8) v);
    }
  else if (v >= 0 && v < 65536)
    {
      guint16 le = GUINT16_TO_LE ((guint16) v);

      emit_op (p, 'M');
      emit (p, &le, 2);
    }
  else if (v >= G_MININT32 && v <= G_MAXINT32)
    {
      emit_op (p, 'J');
      emit_u32 (p, (guint32) (gint32) v);
    }
  else
    {
      guint64 le = GUINT64_TO_LE ((guint64) v);

      emit_op (p, 0x8a);   /* LONG1 */
      emit_op (p, 8);
      emit (p, &le, 8);
    }
}

static void
emit_str_len (Pickler    *p,
              const char *text,
              gsize       len)
{
  emit_op (p, 'X');   /* BINUNICODE */
  emit_u32 (p, (guint32) len);
  emit (p, text, len);
}

static void
emit_str (Pickler    *p,
          const char *text)
{
  emit_str_len (p, text, strlen (text));
}

static void
emit_float (Pickler *p,
            double   v)
{
  guint64 bits;
  guint64 be;

  memcpy (&bits, &v, 8);
  be = GUINT64_TO_BE (bits);
  emit_op (p, 'G');
  emit (p, &be, 8);
}

static void
emit_global (Pickler    *p,
             const char *module,
             const char *name)
{
  emit_op (p, 'c');
  emit (p, module, strlen (module));
  emit_op (p, '\n');
  emit (p, name, strlen (name));
  emit_op (p, '\n');
}

/* collections.OrderedDict() */
static void
emit_ordered_dict (Pickler *p)
{
  emit_global (p, "collections", "OrderedDict");
  emit_op (p, ')');
  emit_op (p, 'R');
}

static const char *
storage_class (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "FloatStorage";
    case GNN_DTYPE_F64: return "DoubleStorage";
    case GNN_DTYPE_F16: return "HalfStorage";
    case GNN_DTYPE_BF16: return "BFloat16Storage";
    case GNN_DTYPE_I64: return "LongStorage";
    case GNN_DTYPE_I32: return "IntStorage";
    case GNN_DTYPE_I16: return "ShortStorage";
    case GNN_DTYPE_I8: return "CharStorage";
    case GNN_DTYPE_U8: return "ByteStorage";
    case GNN_DTYPE_BOOL: return "BoolStorage";
    default: return NULL;
    }
}

static gboolean
overlaps_itself (GnnTensorPrivate *tp)
{
  /* expanded (stride 0) or interleaved views: written as a packed copy */
  guint order[GNN_MAX_DIMS];
  guint n = 0;
  gint64 span = 1;

  for (guint d = 0; d < tp->ndim; d++)
    if (tp->shape[d] > 1)
      order[n++] = d;
  for (guint i = 1; i < n; i++)   /* insertion sort by stride */
    for (guint j = i; j > 0 && tp->strides[order[j - 1]] > tp->strides[order[j]]; j--)
      {
        guint t = order[j];

        order[j] = order[j - 1];
        order[j - 1] = t;
      }
  for (guint i = 0; i < n; i++)
    {
      if (tp->strides[order[i]] < span)
        return TRUE;
      span += tp->strides[order[i]] * (tp->shape[order[i]] - 1);
    }
  return FALSE;
}

/* _rebuild_tensor_v2(storage pid, offset, size, stride, requires_grad, OrderedDict()) */
static gboolean
emit_tensor (Pickler    *p,
             const char *name,
             GnnTensor  *tensor)
{
  GnnTensorPrivate *tp = gnn_tensor_priv (tensor);
  gsize elsize = gnn_dtype_get_size (tp->dtype);
  g_autofree char *key = NULL;
  guint index;

  if (gnn_tensor_priv_is_meta (tp))
    {
      g_set_error (p->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "cannot save \"%s\": tensor has no storage (meta)", name);
      return FALSE;
    }
  if (tp->numel > 0 && overlaps_itself (tp))
    {
      GnnTensor *packed = gnn_tensor_copy_checked (tensor, tp->dtype, p->error);

      if (packed == NULL)
        return FALSE;
      g_ptr_array_add (p->packed, packed);
      tp = gnn_tensor_priv (packed);
    }
  if (!g_ptr_array_find (p->storages, tp->storage, &index))
    {
      index = p->storages->len;
      g_ptr_array_add (p->storages, gnn_storage_ref (tp->storage));
      g_array_append_val (p->dtypes, tp->dtype);
    }
  else if (g_array_index (p->dtypes, GnnDType, index) != tp->dtype)
    {
      g_set_error (p->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "cannot save \"%s\": it shares its storage with a tensor of another dtype "
                   "(torch cannot save that either)", name);
      return FALSE;
    }
  key = g_strdup_printf ("%u", index);

  emit_global (p, "torch._utils", "_rebuild_tensor_v2");
  emit_op (p, '(');
  /* the persistent id ('storage', torch.<T>Storage, key, 'cpu', numel) */
  emit_op (p, '(');
  emit_str (p, "storage");
  emit_global (p, "torch", storage_class (tp->dtype));
  emit_str (p, key);
  emit_str (p, "cpu");
  emit_int (p, (gint64) (tp->storage->nbytes / elsize));
  emit_op (p, 't');
  emit_op (p, 'Q');   /* BINPERSID */
  emit_int (p, tp->offset);
  emit_op (p, '(');
  for (guint d = 0; d < tp->ndim; d++)
    emit_int (p, tp->shape[d]);
  emit_op (p, 't');
  emit_op (p, '(');
  for (guint d = 0; d < tp->ndim; d++)
    emit_int (p, tp->strides[d]);
  emit_op (p, 't');
  emit_op (p, gnn_tensor_get_requires_grad (tensor) && !GNN_IS_PARAMETER (tensor) ? 0x88 : 0x89);
  emit_ordered_dict (p);
  emit_op (p, 't');
  emit_op (p, 'R');
  return TRUE;
}

static gboolean emit_layout (Pickler *p, JsonNode *node, guint depth);

static gboolean
emit_pairs (Pickler   *p,
            JsonArray *pairs,
            guint      depth)
{
  emit_op (p, '(');
  for (guint i = 0; i < json_array_get_length (pairs); i++)
    {
      JsonNode *pair = json_array_get_element (pairs, i);
      JsonNode *key;

      if (!JSON_NODE_HOLDS_ARRAY (pair) || json_array_get_length (json_node_get_array (pair)) != 2)
        return FALSE;
      key = json_array_get_element (json_node_get_array (pair), 0);
      if (JSON_NODE_HOLDS_NULL (key))
        emit_op (p, 'N');
      else if (!JSON_NODE_HOLDS_VALUE (key))
        return FALSE;
      else if (json_node_get_value_type (key) == G_TYPE_STRING)
        emit_str (p, json_node_get_string (key));
      else if (json_node_get_value_type (key) == G_TYPE_INT64)
        emit_int (p, json_node_get_int (key));
      else if (json_node_get_value_type (key) == G_TYPE_BOOLEAN)
        emit_op (p, json_node_get_boolean (key) ? 0x88 : 0x89);
      else
        return FALSE;
      if (!emit_layout (p, json_array_get_element (json_node_get_array (pair), 1), depth + 1))
        return FALSE;
    }
  emit_op (p, 'u');   /* SETITEMS */
  return TRUE;
}

static gboolean
emit_value (Pickler  *p,
            JsonNode *value)
{
  if (JSON_NODE_HOLDS_NULL (value))
    emit_op (p, 'N');
  else if (!JSON_NODE_HOLDS_VALUE (value))
    return FALSE;
  else if (json_node_get_value_type (value) == G_TYPE_BOOLEAN)
    emit_op (p, json_node_get_boolean (value) ? 0x88 : 0x89);
  else if (json_node_get_value_type (value) == G_TYPE_INT64)
    emit_int (p, json_node_get_int (value));
  else if (json_node_get_value_type (value) == G_TYPE_DOUBLE)
    emit_float (p, json_node_get_double (value));
  else if (json_node_get_value_type (value) == G_TYPE_STRING)
    emit_str (p, json_node_get_string (value));
  else
    return FALSE;
  return TRUE;
}

/* One node of the gnn.checkpoint layout (see gir/gnn/_checkpoint.py). */
static gboolean
emit_layout (Pickler  *p,
             JsonNode *node,
             guint     depth)
{
  JsonObject *object;
  const char *kind;
  JsonNode *body;

  if (depth > 64 || !JSON_NODE_HOLDS_OBJECT (node) ||
      json_object_get_size (json_node_get_object (node)) < 1)
    return FALSE;
  object = json_node_get_object (node);
  {
    g_autoptr(GList) members = json_object_get_members (object);

    kind = members->data;
  }
  body = json_object_get_member (object, kind);
  if (strcmp (kind, "tensor") == 0)
    {
      GnnTensor *tensor;

      if (!JSON_NODE_HOLDS_VALUE (body) || json_node_get_value_type (body) != G_TYPE_STRING)
        return FALSE;
      tensor = gnn_state_dict_lookup (p->state, json_node_get_string (body));
      if (tensor == NULL)
        {
          g_set_error (p->error, GNN_ERROR, GNN_ERROR_KEY,
                       "the checkpoint layout names a tensor \"%s\" the state dict does not have",
                       json_node_get_string (body));
          return FALSE;
        }
      return emit_tensor (p, json_node_get_string (body), tensor);
    }
  if (strcmp (kind, "value") == 0)
    return emit_value (p, body);
  if (strcmp (kind, "float") == 0)
    {
      double value;

      if (!gnn_io_json_get_double (body, &value))
        return FALSE;
      emit_float (p, value);
      return TRUE;
    }
  if (strcmp (kind, "bytes") == 0 && JSON_NODE_HOLDS_VALUE (body) &&
      json_node_get_value_type (body) == G_TYPE_STRING)
    {
      gsize len;
      g_autofree guchar *data = g_base64_decode (json_node_get_string (body), &len);
      GString *latin1 = g_string_new (NULL);

      /* protocol 2's bytes: _codecs.encode('<latin-1 text>', 'latin1') */
      for (gsize i = 0; i < len; i++)
        g_string_append_unichar (latin1, data[i]);
      emit_global (p, "_codecs", "encode");
      emit_str_len (p, latin1->str, latin1->len);
      emit_str (p, "latin1");
      emit_op (p, 0x86);   /* TUPLE2 */
      emit_op (p, 'R');
      g_string_free (latin1, TRUE);
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (body))
    return FALSE;
  if (strcmp (kind, "dict") == 0)
    {
      emit_op (p, '}');
      return emit_pairs (p, json_node_get_array (body), depth);
    }
  if (strcmp (kind, "state_dict") == 0)
    {
      emit_ordered_dict (p);
      return emit_pairs (p, json_node_get_array (body), depth);
    }
  if (strcmp (kind, "list") == 0 || strcmp (kind, "tuple") == 0)
    {
      JsonArray *items = json_node_get_array (body);
      gboolean list = kind[0] == 'l';

      if (list)
        emit_op (p, ']');
      emit_op (p, '(');
      for (guint i = 0; i < json_array_get_length (items); i++)
        if (!emit_layout (p, json_array_get_element (items, i), depth + 1))
          return FALSE;
      emit_op (p, list ? 'e' : 't');   /* APPENDS / TUPLE */
      return TRUE;
    }
  return FALSE;
}

static gboolean
emit_root (Pickler *p)
{
  const char *layout = gnn_state_dict_get_metadata (p->state, GNN_CHECKPOINT_KEY);

  emit_op (p, 0x80);   /* PROTO 2 */
  emit_op (p, 2);
  if (layout == NULL)
    {
      g_auto(GStrv) keys = gnn_state_dict_get_keys (p->state);

      emit_ordered_dict (p);
      emit_op (p, '(');
      for (guint i = 0; keys[i] != NULL; i++)
        {
          emit_str (p, keys[i]);
          if (!emit_tensor (p, keys[i], gnn_state_dict_lookup (p->state, keys[i])))
            return FALSE;
        }
      emit_op (p, 'u');
    }
  else
    {
      g_autoptr(JsonParser) parser = gnn_io_json_parse (layout, strlen (layout), 256,
                                                        "the " GNN_CHECKPOINT_KEY " metadata",
                                                        p->error);

      if (parser == NULL)
        return FALSE;
      if (!emit_layout (p, json_parser_get_root (parser), 0))
        {
          if (p->error == NULL || *p->error == NULL)
            g_set_error (p->error, GNN_ERROR, GNN_ERROR_FORMAT,
                         "the " GNN_CHECKPOINT_KEY " metadata is not a checkpoint layout Gnn can "
                         "write for torch");
          return FALSE;
        }
    }
  emit_op (p, '.');
  return TRUE;
}

/* --- the zip ---------------------------------------------------------------------------- */

/* libzip writes the archive through this source into the replacement file. */
typedef struct
{
  int          fd;
  guint64      pos;
  guint64      size;
  zip_error_t  error;
  int          saved_errno;
} FdSink;

static zip_int64_t
fd_sink_callback (void             *userdata,
                  void             *data,
                  zip_uint64_t      len,
                  zip_source_cmd_t  cmd)
{
  FdSink *s = userdata;

  switch (cmd)
    {
    case ZIP_SOURCE_OPEN:
    case ZIP_SOURCE_CLOSE:
    case ZIP_SOURCE_FREE:
    case ZIP_SOURCE_BEGIN_WRITE:
    case ZIP_SOURCE_COMMIT_WRITE:
    case ZIP_SOURCE_ROLLBACK_WRITE:
    case ZIP_SOURCE_REMOVE:
      return 0;
    case ZIP_SOURCE_READ:
      return 0;   /* a new archive: nothing to read */
    case ZIP_SOURCE_STAT:
      {
        zip_stat_t *st = ZIP_SOURCE_GET_ARGS (zip_stat_t, data, len, &s->error);

        if (st == NULL)
          return -1;
        zip_stat_init (st);
        st->size = 0;
        st->valid |= ZIP_STAT_SIZE;
        return sizeof (*st);
      }
    case ZIP_SOURCE_ERROR:
      return zip_error_to_data (&s->error, data, len);
    case ZIP_SOURCE_SEEK:
    case ZIP_SOURCE_TELL:
      return 0;
    case ZIP_SOURCE_WRITE:
      {
        const guint8 *bytes = data;
        zip_uint64_t done = 0;

        while (done < len)
          {
            gssize n = pwrite (s->fd, bytes + done, MIN (len - done, (zip_uint64_t) 1 << 30),
                               (off_t) (s->pos + done));

            if (n < 0 && errno == EINTR)
              continue;
            if (n <= 0)
              {
                s->saved_errno = n < 0 ? errno : ENOSPC;
                zip_error_set (&s->error, ZIP_ER_WRITE, s->saved_errno);
                return -1;
              }
            done += n;
          }
        s->pos += len;
        s->size = MAX (s->size, s->pos);
        return (zip_int64_t) len;
      }
    case ZIP_SOURCE_SEEK_WRITE:
      {
        zip_int64_t pos = zip_source_seek_compute_offset (s->pos, s->size, data, len, &s->error);

        if (pos < 0)
          return -1;
        s->pos = (guint64) pos;
        return 0;
      }
    case ZIP_SOURCE_TELL_WRITE:
      return (zip_int64_t) s->pos;
    case ZIP_SOURCE_SUPPORTS:
      return ZIP_SOURCE_SUPPORTS_WRITABLE;
    default:
      zip_error_set (&s->error, ZIP_ER_OPNOTSUPP, 0);
      return -1;
    }
}

typedef struct
{
  char         *name;
  const guint8 *data;
  guint64       len;
} Entry;

/* Adds the entries, stored, with a padding field that puts each one's data
 * at a multiple of ALIGNMENT: the local header is 30 bytes + the name +
 * the extra fields, and libzip writes the entries in order with nothing
 * between them (sizes below 4 GiB: no zip64 field, no data descriptor on a
 * seekable output). */
static gboolean
add_entries (zip_t   *archive,
             GArray  *entries,
             GError **error)
{
  guint64 offset = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      zip_source_t *source = zip_source_buffer (archive, e->data, e->len, 0);
      guint64 header = 30 + strlen (e->name);
      guint64 pad = (ALIGNMENT - (offset + header + 4) % ALIGNMENT) % ALIGNMENT;
      guint8 padding[ALIGNMENT];
      zip_int64_t index;

      memset (padding, 'Z', sizeof padding);
      if (source == NULL)
        goto fail;
      index = zip_file_add (archive, e->name, source, ZIP_FL_ENC_UTF_8);
      if (index < 0)
        {
          zip_source_free (source);
          goto fail;
        }
      if (zip_set_file_compression (archive, index, ZIP_CM_STORE, 0) != 0 ||
          zip_file_set_dostime (archive, index, 0, (1 << 5) | 1, 0) != 0 ||   /* 1980-01-01 */
          (e->len < G_MAXUINT32 &&
           zip_file_extra_field_set (archive, index, PADDING_FIELD, ZIP_EXTRA_FIELD_NEW, padding,
                                     (zip_uint16_t) pad, ZIP_FL_LOCAL) != 0))
        goto fail;
      offset += header + 4 + pad + e->len;
    }
  return TRUE;

fail:
  g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "cannot write the zip archive: %s",
               zip_strerror (archive));
  return FALSE;
}

static gboolean
write_zip (const char  *path,
           GArray      *entries,
           GError     **error)
{
  GnnIoReplace replace;
  FdSink sink = { -1, 0, 0, { 0 }, 0 };
  zip_source_t *source;
  zip_error_t zerror;
  zip_t *archive;

  if (!gnn_io_replace_begin (&replace, path, error))
    return FALSE;
  sink.fd = replace.fd;
  zip_error_init (&sink.error);
  zip_error_init (&zerror);
  source = zip_source_function_create (fd_sink_callback, &sink, &zerror);
  archive = source != NULL ? zip_open_from_source (source, ZIP_CREATE | ZIP_TRUNCATE, &zerror) : NULL;
  if (archive == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "cannot write the zip archive: %s",
                   zip_error_strerror (&zerror));
      if (source != NULL)
        zip_source_free (source);
      goto fail;
    }
  if (!add_entries (archive, entries, error))
    {
      zip_discard (archive);
      goto fail;
    }
  if (zip_close (archive) != 0)
    {
      if (sink.saved_errno != 0)
        gnn_io_set_error_errno (error, sink.saved_errno, path, "cannot write");
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "cannot write the zip archive: %s",
                     zip_strerror (archive));
      zip_discard (archive);
      goto fail;
    }
  zip_error_fini (&sink.error);
  zip_error_fini (&zerror);
  return gnn_io_replace_commit (&replace, error);

fail:
  zip_error_fini (&sink.error);
  zip_error_fini (&zerror);
  gnn_io_replace_abort (&replace);
  return FALSE;
}

/**
 * gnn_state_dict_save_torch:
 * @self: a state dict
 * @path: (type filename): the file to write
 * @error: return location for a #GError
 *
 * Writes the state dict as `torch.save(state_dict, path)` does, so that
 * PyTorch reads it with `torch.load` — also with `weights_only=True` of
 * torch 1.13: a zip archive of a protocol-2 pickle (an `OrderedDict` of
 * tensors, each `torch._utils._rebuild_tensor_v2` of a storage, offset,
 * size and stride) and the storages' bytes, stored uncompressed and 64-byte
 * aligned. Tensors that share a storage share it in the file; a view is
 * written with its whole storage, as torch does (an expanded view as a
 * packed copy).
 *
 * A state dict with the `gnn.checkpoint` layout of a checkpoint (as
 * [func@Gnn.StateDict.load_torch] or Python's `Gnn.save` make them) is
 * written with its structure: dicts, lists, tuples, numbers, strings, bytes
 * and nested state dicts, the checkpoint torch would have written (floats
 * need `torch.load` without `weights_only` in torch 1.13). Other metadata
 * is not written: torch's files have no place for it.
 *
 * The file is replaced atomically, as by [method@Gnn.StateDict.save].
 *
 * Returns: %TRUE on success; %FALSE with %GNN_ERROR_NOT_SUPPORTED for meta
 *   tensors or a storage shared by two dtypes, %GNN_ERROR_FORMAT for a
 *   damaged layout, or the I/O errors of [method@Gnn.StateDict.save]
 *
 * Since: 0.1
 */
gboolean
gnn_state_dict_save_torch (GnnStateDict  *self,
                           const char    *path,
                           GError       **error)
{
  Pickler p = { NULL, self, NULL, NULL, NULL, error };
  g_autoptr(GArray) entries = NULL;
  Entry entry;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  p.out = g_byte_array_new ();
  p.storages = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_storage_unref);
  p.dtypes = g_array_new (FALSE, FALSE, sizeof (GnnDType));
  p.packed = g_ptr_array_new_with_free_func (g_object_unref);
  entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  ok = emit_root (&p);
  if (ok)
    {
      entry = (Entry) { g_strdup (ARCHIVE "data.pkl"), p.out->data, p.out->len };
      g_array_append_val (entries, entry);
      entry = (Entry) { g_strdup (ARCHIVE "byteorder"), (const guint8 *) "little", 6 };
      g_array_append_val (entries, entry);
      for (guint i = 0; i < p.storages->len; i++)
        {
          GnnStorage *storage = g_ptr_array_index (p.storages, i);

          entry = (Entry) { g_strdup_printf (ARCHIVE "data/%u", i), storage->data, storage->nbytes };
          g_array_append_val (entries, entry);
        }
      entry = (Entry) { g_strdup (ARCHIVE "version"), (const guint8 *) "3\n", 2 };
      g_array_append_val (entries, entry);
      ok = write_zip (path, entries, error);
    }
  for (guint i = 0; i < entries->len; i++)
    g_free (g_array_index (entries, Entry, i).name);
  g_byte_array_unref (p.out);
  g_ptr_array_unref (p.storages);
  g_array_unref (p.dtypes);
  g_ptr_array_unref (p.packed);
  gnn_io_error_ensure_utf8 (error);
  return ok;
}
