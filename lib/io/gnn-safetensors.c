/* gnn-safetensors.c: saving and loading state dicts as safetensors files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "io/gnn-io-private.h"
#include "io/gnn-safetensors-private.h"
#include "tensor/gnn-tensor-private.h"

/*
 * The format (https://github.com/huggingface/safetensors): an 8-byte
 * little-endian header size N, N bytes of UTF-8 JSON
 *
 *   {"__metadata__": {"k": "v"},
 *    "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}, ...}
 *
 * then the tensors' bytes, packed row-major and little-endian. Offsets are
 * relative to the start of the data, and the tensors tile the data exactly.
 *
 * Order. JSON objects are unordered, but json-glib keeps the members in file
 * order, and the loader inserts the tensors into the state dict in that
 * order; the writer writes the header in the state dict's order. So a
 * Gnn → file → Gnn round trip keeps the state dict order, as does a file
 * written by Python's json.dump of an ordered dict. The *data* is laid out
 * by decreasing element size (stably, like the reference writer), which
 * keeps every tensor aligned for its dtype when the header is padded to 8
 * bytes: loading then never has to copy to fix alignment.
 */

#define MAX_JSON_DEPTH 32

/* --- dtypes ---------------------------------------------------------------- */

static const struct
{
  const char *name;
  GnnDType    dtype;
} dtype_names[] = {
  { "F32", GNN_DTYPE_F32 },
  { "F64", GNN_DTYPE_F64 },
  { "F16", GNN_DTYPE_F16 },
  { "BF16", GNN_DTYPE_BF16 },
  { "I64", GNN_DTYPE_I64 },
  { "I32", GNN_DTYPE_I32 },
  { "I16", GNN_DTYPE_I16 },
  { "I8", GNN_DTYPE_I8 },
  { "U8", GNN_DTYPE_U8 },
  { "BOOL", GNN_DTYPE_BOOL },
};

/* Valid in the format, but Gnn has no such tensors. */
static const char * const foreign_dtypes[] = {
  "U16", "U32", "U64", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F4", "F6_E2M3", "F6_E3M2", "C64",
};

const char *
gnn_safetensors_dtype_to_string (GnnDType dtype)
{
  for (guint i = 0; i < G_N_ELEMENTS (dtype_names); i++)
    if (dtype_names[i].dtype == dtype)
      return dtype_names[i].name;
  return NULL;
}

gboolean
gnn_safetensors_dtype_from_string (const char *str,
                                   GnnDType   *dtype,
                                   gboolean   *known)
{
  for (guint i = 0; i < G_N_ELEMENTS (dtype_names); i++)
    if (strcmp (dtype_names[i].name, str) == 0)
      {
        *dtype = dtype_names[i].dtype;
        *known = TRUE;
        return TRUE;
      }
  *known = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (foreign_dtypes); i++)
    if (strcmp (foreign_dtypes[i], str) == 0)
      *known = TRUE;
  return FALSE;
}

/* --- reading --------------------------------------------------------------- */

typedef struct
{
  const char *name;      /* owned by the parsed JSON */
  GnnDType    dtype;
  guint       ndim;
  gint64      shape[GNN_MAX_DIMS];
  guint64     nbytes;
  guint64     begin;
  guint64     end;
} Entry;

#define FORMAT_ERROR(error, ...) \
  g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "invalid safetensors: " __VA_ARGS__)

static gboolean
node_get_uint (JsonNode *node,
               guint64  *out)
{
  gint64 v;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  v = json_node_get_int (node);
  if (v < 0)
    return FALSE;
  *out = (guint64) v;
  return TRUE;
}

/* The header is valid UTF-8, but JSON escapes can still spell invalid
 * text: "\ud800" (a lone surrogate) decodes to bytes that are not UTF-8.
 * Such names could not be keys for bindings; the reference loader rejects
 * them too. */
static gboolean
check_name_utf8 (const char  *what,
                 const char  *text,
                 GError     **error)
{
  g_autofree char *escaped = NULL;

  if (g_utf8_validate (text, -1, NULL))
    return TRUE;
  escaped = gnn_io_escape_utf8 (text, -1);
  FORMAT_ERROR (error, "%s is not valid UTF-8 once its escapes are decoded (a lone "
                "surrogate such as \\ud800?): \"%s\"", what, escaped);
  return FALSE;
}

static gboolean
parse_metadata (JsonNode      *node,
                GnnStateDict  *state_dict,
                GError       **error)
{
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      FORMAT_ERROR (error, "__metadata__ is not an object of strings");
      return FALSE;
    }
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);

      if (!check_name_utf8 ("a __metadata__ key", l->data, error))
        return FALSE;
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          FORMAT_ERROR (error, "__metadata__ value of \"%s\" is not a string", (char *) l->data);
          return FALSE;
        }
      if (!check_name_utf8 ("a __metadata__ value", json_node_get_string (value), error))
        return FALSE;
      gnn_state_dict_set_metadata (state_dict, l->data, json_node_get_string (value));
    }
  return TRUE;
}

static gboolean
parse_entry (const char  *name,
             JsonNode    *node,
             Entry       *entry,
             GError     **error)
{
  JsonObject *object;
  JsonNode *member;
  JsonArray *array;
  const char *dtype_str;
  gboolean known;
  guint64 numel = 1;

  entry->name = name;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      FORMAT_ERROR (error, "entry of tensor \"%s\" is not an object", name);
      return FALSE;
    }
  object = json_node_get_object (node);

  /* dtype */
  member = json_object_get_member (object, "dtype");
  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member) ||
      json_node_get_value_type (member) != G_TYPE_STRING)
    {
      FORMAT_ERROR (error, "tensor \"%s\" has no dtype string", name);
      return FALSE;
    }
  dtype_str = json_node_get_string (member);
  if (!gnn_safetensors_dtype_from_string (dtype_str, &entry->dtype, &known))
    {
      if (known)
        g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                     "safetensors: tensor \"%s\" has dtype %s, which Gnn does not support",
                     name, dtype_str);
      else
        FORMAT_ERROR (error, "tensor \"%s\" has unknown dtype \"%s\"", name, dtype_str);
      return FALSE;
    }

  /* shape */
  member = json_object_get_member (object, "shape");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    {
      FORMAT_ERROR (error, "tensor \"%s\" has no shape array", name);
      return FALSE;
    }
  array = json_node_get_array (member);
  if (json_array_get_length (array) > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "safetensors: tensor \"%s\" has %u dimensions; Gnn supports at most %d",
                   name, json_array_get_length (array), GNN_MAX_DIMS);
      return FALSE;
    }
  entry->ndim = json_array_get_length (array);
  for (guint i = 0; i < entry->ndim; i++)
    {
      JsonNode *dim = json_array_get_element (array, i);
      guint64 size;

      if (!node_get_uint (dim, &size))
        {
          if (JSON_NODE_HOLDS_VALUE (dim) && json_node_get_value_type (dim) == G_TYPE_INT64)
            FORMAT_ERROR (error, "shape of tensor \"%s\" has a negative size %" G_GINT64_FORMAT
                          " at dimension %u", name, json_node_get_int (dim), i);
          else
            FORMAT_ERROR (error, "shape of tensor \"%s\" has a size that is not an integer "
                          "at dimension %u", name, i);
          return FALSE;
        }
      entry->shape[i] = (gint64) size;
      if (!g_uint64_checked_mul (&numel, numel, size) || numel > G_MAXINT64)
        {
          FORMAT_ERROR (error, "shape of tensor \"%s\" overflows: its number of elements "
                        "exceeds 2^63", name);
          return FALSE;
        }
    }
  if (!g_uint64_checked_mul (&entry->nbytes, numel, gnn_dtype_get_size (entry->dtype)) ||
      entry->nbytes > G_MAXINT64)
    {
      FORMAT_ERROR (error, "shape of tensor \"%s\" overflows: its size in bytes exceeds 2^63", name);
      return FALSE;
    }

  /* data_offsets */
  member = json_object_get_member (object, "data_offsets");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member) ||
      json_array_get_length (json_node_get_array (member)) != 2 ||
      !node_get_uint (json_array_get_element (json_node_get_array (member), 0), &entry->begin) ||
      !node_get_uint (json_array_get_element (json_node_get_array (member), 1), &entry->end))
    {
      FORMAT_ERROR (error, "data_offsets of tensor \"%s\" are not [begin, end] with "
                    "non-negative integers", name);
      return FALSE;
    }
  if (entry->end < entry->begin)
    {
      FORMAT_ERROR (error, "data_offsets of tensor \"%s\" end before they begin "
                    "([%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "])",
                    name, entry->begin, entry->end);
      return FALSE;
    }
  if (entry->end - entry->begin != entry->nbytes)
    {
      g_autofree char *shape = gnn_shape_to_string (entry->shape, entry->ndim);

      FORMAT_ERROR (error, "tensor \"%s\" has %" G_GUINT64_FORMAT " bytes (data_offsets [%"
                    G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]) but shape %s of %s needs %"
                    G_GUINT64_FORMAT " (numel × dtype size)",
                    name, entry->end - entry->begin, entry->begin, entry->end, shape,
                    dtype_str, entry->nbytes);
      return FALSE;
    }
  return TRUE;
}

static int
compare_offsets (gconstpointer a,
                 gconstpointer b)
{
  const Entry *ea = *(const Entry * const *) a;
  const Entry *eb = *(const Entry * const *) b;

  if (ea->begin != eb->begin)
    return ea->begin < eb->begin ? -1 : 1;
  if (ea->end != eb->end)
    return ea->end < eb->end ? -1 : 1;
  return 0;
}

/* The tensors must tile [0, data_len) exactly: no gap, no overlap. */
static gboolean
check_tiling (Entry   *entries,
              guint    n_entries,
              guint64  data_len,
              GError **error)
{
  g_autofree Entry **sorted = g_new (Entry *, n_entries + 1);   /* never NULL for qsort */
  const Entry *prev = NULL;
  guint64 pos = 0;

  for (guint i = 0; i < n_entries; i++)
    sorted[i] = &entries[i];
  qsort (sorted, n_entries, sizeof (Entry *), compare_offsets);

  for (guint i = 0; i < n_entries; i++)
    {
      const Entry *e = sorted[i];

      if (e->begin < pos)
        {
          FORMAT_ERROR (error, "data_offsets of tensor \"%s\" [%" G_GUINT64_FORMAT ", %"
                        G_GUINT64_FORMAT "] overlap tensor \"%s\" [%" G_GUINT64_FORMAT ", %"
                        G_GUINT64_FORMAT "]",
                        e->name, e->begin, e->end, prev->name, prev->begin, prev->end);
          return FALSE;
        }
      if (e->begin > pos)
        {
          FORMAT_ERROR (error, "data_offsets are not contiguous: bytes [%" G_GUINT64_FORMAT
                        ", %" G_GUINT64_FORMAT ") before tensor \"%s\" belong to no tensor",
                        pos, e->begin, e->name);
          return FALSE;
        }
      pos = e->end;
      prev = e;
    }
  if (pos != data_len)
    {
      if (pos > data_len)
        FORMAT_ERROR (error, "data_offsets of tensor \"%s\" end at %" G_GUINT64_FORMAT
                      ", past the end of the data (%" G_GUINT64_FORMAT " bytes)",
                      prev->name, pos, data_len);
      else
        FORMAT_ERROR (error, "data_offsets do not cover the data: the tensors end at %"
                      G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes", pos, data_len);
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
make_tensor (GBytes       *bytes,
             const guint8 *data,
             const Entry  *e,
             GnnLoadFlags  flags,
             GError      **error)
{
  const guint8 *p = data + e->begin;
  GnnTensor *tensor;

  if (e->nbytes == 0)
    return gnn_tensor_empty (e->shape, e->ndim, e->dtype, error);
  /* Unaligned data (a writer that neither pads its header nor orders its
   * tensors by element size) is copied: kernels need aligned elements. */
  if ((flags & GNN_LOAD_FLAGS_COPY) != 0 || ((guintptr) p) % gnn_dtype_get_size (e->dtype) != 0)
    return gnn_tensor_new_from_data (p, e->nbytes, e->dtype, e->shape, e->ndim, error);

  tensor = gnn_tensor_new_wrap ((gpointer) p, e->nbytes, e->dtype, e->shape, e->ndim,
                                (GDestroyNotify) g_bytes_unref, g_bytes_ref (bytes), error);
  if (tensor == NULL)
    g_bytes_unref (bytes);
  return tensor;
}

static GnnStateDict *
load_from_bytes (GBytes       *bytes,
                 GnnLoadFlags  flags,
                 GError      **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GnnStateDict) state_dict = NULL;
  g_autoptr(GList) members = NULL;
  g_autofree Entry *entries = NULL;
  const guint8 *data;
  const char *header;
  JsonNode *root;
  JsonObject *object;
  gsize size;
  guint64 header_len, data_len;
  guint n_entries = 0;

  data = g_bytes_get_data (bytes, &size);
  if (size < 8)
    {
      FORMAT_ERROR (error, "%" G_GSIZE_FORMAT " bytes are too few for the 8-byte header size", size);
      return NULL;
    }
  memcpy (&header_len, data, 8);
  header_len = GUINT64_FROM_LE (header_len);
  if (header_len > GNN_SAFETENSORS_MAX_HEADER)
    {
      FORMAT_ERROR (error, "header size %" G_GUINT64_FORMAT " is too large (the limit is %d bytes)",
                    header_len, GNN_SAFETENSORS_MAX_HEADER);
      return NULL;
    }
  if (header_len > size - 8)
    {
      FORMAT_ERROR (error, "header size %" G_GUINT64_FORMAT " runs past the end of the data "
                    "(%" G_GSIZE_FORMAT " bytes after the size)", header_len, size - 8);
      return NULL;
    }
  header = (const char *) data + 8;
  data_len = size - 8 - header_len;

  parser = gnn_io_json_parse (header, header_len, MAX_JSON_DEPTH, "invalid safetensors: header",
                              error);
  if (parser == NULL)
    return NULL;
  root = json_parser_get_root (parser);
  object = json_node_get_object (root);

  state_dict = gnn_state_dict_new ();
  members = json_object_get_members (object);
  entries = g_new0 (Entry, json_object_get_size (object) + 1);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (object, name);

      if (!check_name_utf8 ("a tensor name", name, error))
        return NULL;

      if (strcmp (name, "__metadata__") == 0)
        {
          if (!parse_metadata (node, state_dict, error))
            return NULL;
          continue;
        }
      if (!parse_entry (name, node, &entries[n_entries], error))
        return NULL;
      n_entries++;
    }
  if (!check_tiling (entries, n_entries, data_len, error))
    return NULL;

  /* Valid: only now create tensors, in header order. */
  for (guint i = 0; i < n_entries; i++)
    {
      g_autoptr(GnnTensor) tensor = make_tensor (bytes, data + 8 + header_len, &entries[i],
                                                 flags, error);

      if (tensor == NULL)
        return NULL;
      gnn_state_dict_insert (state_dict, entries[i].name, tensor);
    }
  return g_steal_pointer (&state_dict);
}

/**
 * gnn_state_dict_load_from_bytes:
 * @bytes: the contents of a safetensors file
 * @flags: loading options
 * @error: return location for a #GError
 *
 * Reads a state dict from safetensors data held in memory (see
 * [func@Gnn.StateDict.load] for the rules checked). Without
 * %GNN_LOAD_FLAGS_COPY the tensors borrow the memory of @bytes, keeping a
 * reference to it: writing to them writes into that memory, so pass
 * %GNN_LOAD_FLAGS_COPY when @bytes is shared with code that expects it to
 * stay unchanged.
 *
 * Returns: (transfer full): a new state dict, or %NULL if @bytes is not valid
 *   safetensors data (%GNN_ERROR_FORMAT naming the rule and the tensor,
 *   %GNN_ERROR_DTYPE for dtypes Gnn cannot hold such as U16,
 *   %GNN_ERROR_NOT_SUPPORTED for more than 16 dimensions)
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_state_dict_load_from_bytes (GBytes       *bytes,
                                GnnLoadFlags  flags,
                                GError      **error)
{
  GnnStateDict *state_dict;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  state_dict = load_from_bytes (bytes, flags, error);
  /* Names and dtypes from the file reach messages: keep them UTF-8. */
  gnn_io_error_ensure_utf8 (error);
  return state_dict;
}

/**
 * gnn_state_dict_load_with_flags:
 * @path: (type filename): a safetensors file
 * @flags: loading options
 * @error: return location for a #GError
 *
 * Like [func@Gnn.StateDict.load], with options: %GNN_LOAD_FLAGS_COPY copies
 * the tensors out of the file, which is then unmapped before returning.
 *
 * Returns: (transfer full): a new state dict, or %NULL on error
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_state_dict_load_with_flags (const char   *path,
                                GnnLoadFlags  flags,
                                GError      **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return gnn_io_load_file (path, gnn_state_dict_load_from_bytes, flags, error);
}

/**
 * gnn_state_dict_load:
 * @path: (type filename): a safetensors file
 * @error: return location for a #GError
 *
 * Loads a state dict from a safetensors file, like Python's
 * `safetensors.torch.load_file`. The file is mapped, not read: the tensors
 * borrow the mapping (zero copy) and keep it alive while any of them
 * exists, and pages are read from disk when first touched. The mapping is
 * private: writing to a loaded tensor changes that tensor only, never the
 * file. (Truncating the file while it is mapped is undefined behaviour for
 * the mapping, as with any mapped file; [method@Gnn.StateDict.save] never
 * does that, since it replaces files by renaming.)
 *
 * The tensors come in the header's order, and `__metadata__` becomes the
 * state dict's metadata. Every rule of the format is checked before any
 * tensor is created: the header size (at most 100,000,000 bytes, within the
 * file), UTF-8 JSON object, no duplicate names, known dtypes, non-negative
 * shapes whose byte size does not overflow, data_offsets `[begin, end]` with
 * `end - begin` = numel × dtype size, tensors tiling the data with no gap
 * or overlap. A broken rule is a %GNN_ERROR_FORMAT error whose message
 * starts with the path and names the rule and the tensor. Headers not padded
 * to 8 bytes are accepted (misaligned tensors are then copied).
 *
 * A file that cannot be opened or mapped is a %G_IO_ERROR error with the
 * code from `errno` (%G_IO_ERROR_NOT_FOUND, %G_IO_ERROR_PERMISSION_DENIED,
 * ...) whose message starts with the path; a directory, FIFO or device is
 * refused without reading it (%G_IO_ERROR_IS_DIRECTORY,
 * %G_IO_ERROR_NOT_REGULAR_FILE). Messages are valid UTF-8: bytes of the path
 * or of names that are not are written as `\xNN`.
 *
 * Use [method@Gnn.Module.load] or [method@Gnn.Module.load_state_dict] to
 * load the result into a model (strictly and atomically).
 *
 * Returns: (transfer full): a new state dict, or %NULL on error
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_state_dict_load (const char  *path,
                     GError     **error)
{
  return gnn_state_dict_load_with_flags (path, GNN_LOAD_FLAGS_NONE, error);
}
