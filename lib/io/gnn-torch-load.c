/* gnn-torch-load.c: loading the files torch.save writes (PyTorch >= 1.6:
 * a zip archive of a pickle and its storages) without Python
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-model-private.h"
#include "io/gnn-torch-private.h"
#include "tensor/gnn-tensor-private.h"

/*
 * torch.save(obj, f) writes a zip whose entries all start with one archive
 * name: <name>/data.pkl (the pickle of obj, where each storage is a
 * persistent id ('storage', torch.FloatStorage, '<key>', 'cpu', numel)),
 * <name>/data/<key> (each storage's bytes, stored uncompressed, 64-byte
 * aligned), <name>/version, and since torch 2.0 <name>/byteorder.
 *
 * The result is a GnnStateDict. A dict of tensors (model.state_dict()) is
 * the state dict itself. Anything else (a checkpoint: {'epoch': 3, 'model':
 * ..., 'optimizer': ...}) has its tensors under dotted names
 * ("model.fc.weight", "optimizer.state.0.exp_avg") and its structure and
 * plain values as JSON in the metadata entry "gnn.checkpoint" — the layout
 * Gnn.save writes for checkpoints, which Python's Gnn.load rebuilds.
 */

#define MAX_DEPTH 64
/* Memory for the unpickler: the file's size, at least this much. */
#define MIN_PICKLE_BUDGET (1u << 20)

typedef struct
{
  GnnZipReader *zip;
  char         *prefix;      /* "archive/" */
  GnnLoadFlags  flags;
  GHashTable   *storages;    /* key → GnnStorage* */
  GHashTable   *dtypes;      /* key → GnnDType + 1 */
  GHashTable   *tensors;     /* GnnPkValue* → GnnTensor* (a tensor pickled once, shared) */
  GnnStateDict *out;
  guint         visits_left;
  GError      **error;
} Loader;

#define FORMAT_ERROR(error, ...) \
  g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "invalid torch file: " __VA_ARGS__)

/* --- storages and tensors ------------------------------------------------------------ */

static GnnStorage *
load_storage (Loader     *l,
              GnnPkValue *pk)
{
  const char *key = pk->v.storage.key;
  GnnStorage *storage = g_hash_table_lookup (l->storages, key);
  g_autofree char *name = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize elsize = gnn_dtype_get_size (pk->v.storage.dtype);
  guint64 nbytes;
  gboolean zero_copy;
  const guint8 *data;
  gint64 index;

  if (storage != NULL)
    {
      if (GPOINTER_TO_INT (g_hash_table_lookup (l->dtypes, key)) - 1 != (int) pk->v.storage.dtype)
        {
          FORMAT_ERROR (l->error, "storage \"%s\" is used with two dtypes", key);
          return NULL;
        }
      return storage;
    }
  if (!g_uint64_checked_mul (&nbytes, (guint64) pk->v.storage.numel, elsize) || nbytes > G_MAXSIZE)
    {
      FORMAT_ERROR (l->error, "storage \"%s\" of %" G_GINT64_FORMAT " elements overflows", key,
                    pk->v.storage.numel);
      return NULL;
    }
  name = g_strconcat (l->prefix, "data/", key, NULL);
  index = gnn_zip_reader_find (l->zip, name);
  if (index < 0)
    {
      FORMAT_ERROR (l->error, "storage \"%s\" has no entry \"%s\"", key, name);
      return NULL;
    }
  if (gnn_zip_reader_get_size (l->zip, index) < nbytes)
    {
      FORMAT_ERROR (l->error, "storage \"%s\" of %" G_GUINT64_FORMAT " bytes runs past the end of "
                    "its entry \"%s\" (%" G_GUINT64_FORMAT " bytes)", key, nbytes, name,
                    gnn_zip_reader_get_size (l->zip, index));
      return NULL;
    }
  bytes = gnn_zip_reader_read (l->zip, index, &zero_copy, l->error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, NULL);
  if (nbytes == 0)
    storage = gnn_storage_new (0, FALSE);
  else if (zero_copy && (l->flags & GNN_LOAD_FLAGS_COPY) == 0 && (guintptr) data % elsize == 0)
    storage = gnn_storage_new_wrap ((gpointer) data, nbytes, (GDestroyNotify) g_bytes_unref,
                                    g_bytes_ref (bytes));
  else
    {
      /* compressed, unaligned or asked for: memory of its own */
      storage = gnn_storage_new (nbytes, FALSE);
      if (storage == NULL)
        {
          g_set_error (l->error, GNN_ERROR, GNN_ERROR_MEMORY,
                       "cannot allocate %" G_GUINT64_FORMAT " bytes for storage \"%s\"", nbytes, key);
          return NULL;
        }
      memcpy (storage->data, data, nbytes);
    }
  g_hash_table_insert (l->storages, g_strdup (key), storage);
  g_hash_table_insert (l->dtypes, g_strdup (key), GINT_TO_POINTER ((int) pk->v.storage.dtype + 1));
  return storage;
}

static int
compare_strides (gconstpointer a,
                 gconstpointer b)
{
  const gint64 *da = a, *db = b;

  return da[1] < db[1] ? -1 : da[1] > db[1];
}

/* Whether two elements of the view share memory (a stride of 0 over a size
 * above 1, or strides that interleave): such tensors are refused. */
static gboolean
overlaps_itself (const gint64 *size,
                 const gint64 *stride,
                 guint         ndim)
{
  gint64 dims[GNN_MAX_DIMS][2];
  guint n = 0;
  gint64 span = 1;   /* elements covered by the dims so far, + 1 */

  for (guint d = 0; d < ndim; d++)
    if (size[d] > 1)
      {
        dims[n][0] = size[d];
        dims[n][1] = stride[d];
        n++;
      }
  qsort (dims, n, sizeof dims[0], compare_strides);
  for (guint d = 0; d < n; d++)
    {
      if (dims[d][1] < span)
        return TRUE;
      span = dims[d][1] * (dims[d][0] - 1) + span;   /* bounded: checked by the caller */
    }
  return FALSE;
}

static GnnTensor *
make_tensor (Loader     *l,
             GnnPkValue *pk)
{
  GnnTensor *tensor = g_hash_table_lookup (l->tensors, pk);
  GnnPkValue *spk = pk->v.tensor->storage;
  GnnDType dtype = spk->v.storage.dtype;
  GnnStorage *storage;
  gint64 numel = 1, last = pk->v.tensor->offset;
  g_autoptr(GnnTensor) view = NULL;

  if (tensor != NULL)
    return tensor;
  if (!gnn_shape_numel_checked (pk->v.tensor->size, pk->v.tensor->ndim, gnn_dtype_get_size (dtype),
                                &numel))
    {
      FORMAT_ERROR (l->error, "a tensor's shape overflows");
      return NULL;
    }
  for (guint d = 0; d < pk->v.tensor->ndim && numel > 0; d++)
    {
      gint64 step;

      if (!gnn_checked_mul (pk->v.tensor->size[d] - 1, pk->v.tensor->stride[d], &step) ||
          !gnn_checked_add (last, step, &last))
        {
          FORMAT_ERROR (l->error, "a tensor's strides overflow");
          return NULL;
        }
    }
  storage = load_storage (l, spk);
  if (storage == NULL)
    return NULL;
  if (numel > 0 && last >= spk->v.storage.numel)
    {
      g_autofree char *shape = gnn_shape_to_string (pk->v.tensor->size, pk->v.tensor->ndim);

      FORMAT_ERROR (l->error, "a tensor of shape %s at offset %" G_GINT64_FORMAT " reaches element %"
                    G_GINT64_FORMAT " of storage \"%s\", which has %" G_GINT64_FORMAT, shape,
                    pk->v.tensor->offset, last, spk->v.storage.key, spk->v.storage.numel);
      return NULL;
    }
  if (numel > 0 && overlaps_itself (pk->v.tensor->size, pk->v.tensor->stride, pk->v.tensor->ndim))
    {
      FORMAT_ERROR (l->error, "a tensor of storage \"%s\" has strides that make its elements "
                    "overlap", spk->v.storage.key);
      return NULL;
    }
  if (numel == 0)
    view = gnn_tensor_empty (pk->v.tensor->size, pk->v.tensor->ndim, dtype, l->error);
  else
    view = gnn_tensor_new_with_storage (storage, dtype, pk->v.tensor->size, pk->v.tensor->stride,
                                        pk->v.tensor->ndim, pk->v.tensor->offset);
  if (view == NULL)
    return NULL;
  if (pk->v.tensor->parameter)
    tensor = GNN_TENSOR (gnn_parameter_new (view, pk->v.tensor->requires_grad));
  else
    {
      tensor = g_object_ref (view);
      if (pk->v.tensor->requires_grad)
        gnn_tensor_set_requires_grad (tensor, TRUE);
    }
  g_hash_table_insert (l->tensors, pk, tensor);
  return tensor;
}

/* --- the structure -------------------------------------------------------------------- */

static gboolean
insert_tensor (Loader     *l,
               const char *name,
               GnnPkValue *pk)
{
  GnnTensor *tensor;

  if (gnn_state_dict_contains (l->out, name))
    {
      g_autofree char *display = gnn_io_escape_utf8 (name, -1);

      g_set_error (l->error, GNN_ERROR, GNN_ERROR_NAME,
                   "two tensors of the checkpoint are both named '%s' once joined with dots",
                   display);
      return FALSE;
    }
  tensor = make_tensor (l, pk);
  if (tensor == NULL)
    return FALSE;
  gnn_state_dict_insert (l->out, name, tensor);
  return TRUE;
}

static gboolean
is_str_key (GnnPkValue *key)
{
  return key->kind == GNN_PK_STR && strlen (key->v.str.data) == key->v.str.len;
}

/* A dict key as JSON and as a name part; NULL for keys Gnn cannot keep. */
static JsonNode *
key_node (Loader     *l,
          GnnPkValue *key,
          char      **part)
{
  switch (key->kind)
    {
    case GNN_PK_STR:
      if (!is_str_key (key))
        break;
      *part = g_strdup (key->v.str.data);
      return json_node_init_string (json_node_alloc (), key->v.str.data);
    case GNN_PK_INT:
      *part = g_strdup_printf ("%" G_GINT64_FORMAT, key->v.i);
      return json_node_init_int (json_node_alloc (), key->v.i);
    case GNN_PK_BOOL:
      *part = g_strdup (key->v.b ? "True" : "False");
      return json_node_init_boolean (json_node_alloc (), key->v.b);
    case GNN_PK_NONE:
      *part = g_strdup ("None");
      return json_node_init_null (json_node_alloc ());
    default:
      break;
    }
  FORMAT_ERROR (l->error, "a dict has a key that is not a string without NUL, an int, a bool or None");
  return NULL;
}

static JsonNode *walk (Loader *l, GnnPkValue *v, const char *name, guint depth);

static JsonNode *
tagged (const char *tag,
        JsonNode   *body)
{
  JsonObject *object = json_object_new ();

  json_object_set_member (object, tag, body);
  return gnn_io_json_take_object (object);
}

static char *
join (const char *name,
      const char *part)
{
  return name[0] != '\0' ? g_strconcat (name, ".", part, NULL) : g_strdup (part);
}

static JsonNode *
walk_dict (Loader     *l,
           GnnPkValue *v,
           const char *name,
           guint       depth)
{
  JsonArray *pairs = json_array_new ();
  gboolean tensors_only = v->v.dict.ordered;

  for (guint i = 0; i < v->v.dict.keys->len; i++)
    {
      GnnPkValue *value = g_ptr_array_index (v->v.dict.values, i);
      g_autofree char *part = NULL;
      g_autofree char *child_name = NULL;
      JsonNode *key = key_node (l, g_ptr_array_index (v->v.dict.keys, i), &part);
      JsonNode *child;
      JsonArray *pair;

      tensors_only = tensors_only && value->kind == GNN_PK_TENSOR &&
                     is_str_key (g_ptr_array_index (v->v.dict.keys, i));
      if (key == NULL)
        {
          json_array_unref (pairs);
          return NULL;
        }
      child_name = join (name, part);
      child = walk (l, value, child_name, depth + 1);
      if (child == NULL)
        {
          json_node_unref (key);
          json_array_unref (pairs);
          return NULL;
        }
      pair = json_array_sized_new (2);
      json_array_add_element (pair, key);
      json_array_add_element (pair, child);
      json_array_add_array_element (pairs, pair);
    }
  /* an OrderedDict of tensors is a state dict (Gnn.StateDict in Python) */
  return tagged (tensors_only ? "state_dict" : "dict", gnn_io_json_take_array (pairs));
}

static JsonNode *
walk_items (Loader     *l,
            GnnPkValue *v,
            const char *name,
            guint       depth)
{
  JsonArray *items = json_array_new ();
  const char *tag = v->kind == GNN_PK_LIST ? "list" : v->kind == GNN_PK_TUPLE ? "tuple" : "set";

  for (guint i = 0; i < v->v.items->len; i++)
    {
      g_autofree char *part = g_strdup_printf ("%u", i);
      g_autofree char *child_name = name[0] != '\0' ? join (name, part) : g_strdup (part);
      JsonNode *child = walk (l, g_ptr_array_index (v->v.items, i), child_name, depth + 1);

      if (child == NULL)
        {
          json_array_unref (items);
          return NULL;
        }
      json_array_add_element (items, child);
    }
  return tagged (tag, gnn_io_json_take_array (items));
}

static JsonNode *
walk (Loader     *l,
      GnnPkValue *v,
      const char *name,
      guint       depth)
{
  if (depth > MAX_DEPTH || l->visits_left == 0)
    {
      FORMAT_ERROR (l->error, "the pickled object nests deeper than %d levels, contains itself or "
                    "repeats itself too often", MAX_DEPTH);
      return NULL;
    }
  l->visits_left--;
  switch (v->kind)
    {
    case GNN_PK_NONE:
      return tagged ("value", json_node_init_null (json_node_alloc ()));
    case GNN_PK_BOOL:
      return tagged ("value", json_node_init_boolean (json_node_alloc (), v->v.b));
    case GNN_PK_INT:
      return tagged ("value", json_node_init_int (json_node_alloc (), v->v.i));
    case GNN_PK_FLOAT:
      {
        JsonNode *number = gnn_io_json_double (v->v.f);

        /* a string for what JSON cannot spell: float(text) in Python */
        return tagged (JSON_NODE_HOLDS_VALUE (number) &&
                       json_node_get_value_type (number) == G_TYPE_STRING ? "float" : "value", number);
      }
    case GNN_PK_STR:
      if (!is_str_key (v))
        break;
      return tagged ("value", json_node_init_string (json_node_alloc (), v->v.str.data));
    case GNN_PK_BYTES:
      {
        g_autofree char *b64 = g_base64_encode ((const guchar *) v->v.str.data, v->v.str.len);

        return tagged ("bytes", json_node_init_string (json_node_alloc (), b64));
      }
    case GNN_PK_TENSOR:
      if (!insert_tensor (l, name, v))
        return NULL;
      return tagged ("tensor", json_node_init_string (json_node_alloc (), name));
    case GNN_PK_DICT:
      return walk_dict (l, v, name, depth);
    case GNN_PK_TUPLE:
    case GNN_PK_LIST:
    case GNN_PK_SET:
      return walk_items (l, v, name, depth);
    default:
      break;
    }
  {
    g_autofree char *display = gnn_io_escape_utf8 (name, -1);

    g_set_error (l->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                 "the checkpoint's entry '%s' is a %s, which Gnn cannot load", display,
                 v->kind == GNN_PK_STORAGE ? "storage outside a tensor" :
                 v->kind == GNN_PK_GLOBAL ? v->v.global.name :
                 v->kind == GNN_PK_NDARRAY || v->kind == GNN_PK_NP_DTYPE ? "numpy value" :
                 "string with a NUL character");
  }
  return NULL;
}

/* A dict of str keys and tensors is the state dict itself. */
static gboolean
is_flat_state_dict (GnnPkValue *v)
{
  if (v->kind != GNN_PK_DICT)
    return FALSE;
  for (guint i = 0; i < v->v.dict.keys->len; i++)
    if (!is_str_key (g_ptr_array_index (v->v.dict.keys, i)) ||
        ((GnnPkValue *) g_ptr_array_index (v->v.dict.values, i))->kind != GNN_PK_TENSOR)
      return FALSE;
  return TRUE;
}

static gboolean
convert (Loader     *l,
         GnnPickle  *pickle)
{
  GnnPkValue *root = gnn_pickle_get_root (pickle);
  g_autoptr(JsonNode) layout = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *text = NULL;

  l->visits_left = 4 * gnn_pickle_get_n_values (pickle) + 1024;
  if (is_flat_state_dict (root))
    {
      /* a key set twice keeps its first place and its last value, as in Python */
      for (guint i = 0; i < root->v.dict.keys->len; i++)
        {
          GnnPkValue *key = g_ptr_array_index (root->v.dict.keys, i);
          GnnTensor *tensor = make_tensor (l, g_ptr_array_index (root->v.dict.values, i));

          if (tensor == NULL)
            return FALSE;
          gnn_state_dict_insert (l->out, key->v.str.data, tensor);
        }
      return TRUE;
    }
  layout = walk (l, root, root->kind == GNN_PK_DICT ? "" : "data", 0);
  if (layout == NULL)
    return FALSE;
  generator = json_generator_new ();
  json_generator_set_root (generator, layout);
  text = json_generator_to_data (generator, NULL);
  gnn_state_dict_set_metadata (l->out, GNN_CHECKPOINT_KEY, text);
  return TRUE;
}

/* --- the archive ------------------------------------------------------------------------- */

static gboolean
read_small_entry (GnnZipReader  *zip,
                  const char    *name,
                  char         **out,
                  GError       **error)
{
  gint64 index = gnn_zip_reader_find (zip, name);
  g_autoptr(GBytes) bytes = NULL;
  gboolean zero_copy;
  gsize len;
  const char *data;

  *out = NULL;
  if (index < 0)
    return TRUE;
  if (gnn_zip_reader_get_size (zip, index) > 64)
    {
      FORMAT_ERROR (error, "\"%s\" is larger than it can be", name);
      return FALSE;
    }
  bytes = gnn_zip_reader_read (zip, index, &zero_copy, error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &len);
  *out = g_strstrip (g_strndup (data, len));
  return TRUE;
}

/* The archive name every entry starts with, checks of version and byte
 * order, and the pickle's entry. */
static gint64
find_pickle (Loader  *l,
             GError **error)
{
  const char *first;
  const char *slash;
  g_autofree char *pkl = NULL;
  g_autofree char *byteorder = NULL;
  g_autofree char *byteorder_name = NULL;
  gint64 index;

  if (gnn_zip_reader_get_n_entries (l->zip) == 0)
    {
      FORMAT_ERROR (error, "the zip archive is empty");
      return -1;
    }
  first = gnn_zip_reader_get_name (l->zip, 0);
  slash = strchr (first, '/');
  if (slash == NULL)
    {
      FORMAT_ERROR (error, "its entries are not in one archive folder (not written by torch.save)");
      return -1;
    }
  l->prefix = g_strndup (first, slash - first + 1);
  {
    g_autofree char *constants = g_strconcat (l->prefix, "constants.pkl", NULL);

    if (gnn_zip_reader_find (l->zip, constants) >= 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                     "a TorchScript archive (torch.jit.save) is code, not a checkpoint: save "
                     "the model's state_dict() with torch.save instead");
        return -1;
      }
  }
  pkl = g_strconcat (l->prefix, "data.pkl", NULL);
  index = gnn_zip_reader_find (l->zip, pkl);
  if (index < 0)
    {
      FORMAT_ERROR (error, "it has no \"%s\"", pkl);
      return -1;
    }
  byteorder_name = g_strconcat (l->prefix, "byteorder", NULL);
  if (!read_small_entry (l->zip, byteorder_name, &byteorder, error))
    return -1;
  if (byteorder != NULL && strcmp (byteorder, "little") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "the file was written on a big-endian machine, which Gnn does not read");
      return -1;
    }
  return index;
}

static GnnStateDict *
load_from_bytes (GBytes        *bytes,
                 GnnLoadFlags   flags,
                 GError       **error)
{
  g_autoptr(GnnZipReader) zip = NULL;
  g_autoptr(GnnPickle) pickle = NULL;
  g_autoptr(GBytes) pkl = NULL;
  Loader l = { NULL, NULL, flags, NULL, NULL, NULL, NULL, 0, error };
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  gsize size = g_bytes_get_size (bytes);
  gboolean zero_copy, ok;
  gint64 index;

  if (size >= 2 && data[0] == 0x80 && data[1] <= 5)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "the legacy torch format (before torch 1.6, or "
                   "_use_new_zipfile_serialization=False) is not supported: save it again with "
                   "a newer torch");
      return NULL;
    }
  if (size < 4 || memcmp (data, "PK", 2) != 0)
    {
      FORMAT_ERROR (error, "not a zip archive (torch.save has written zip archives since torch 1.6)");
      return NULL;
    }
  zip = gnn_zip_reader_new (bytes, error);
  if (zip == NULL)
    return NULL;
  l.zip = zip;
  index = find_pickle (&l, error);
  if (index >= 0)
    pkl = gnn_zip_reader_read (zip, index, &zero_copy, error);
  if (pkl != NULL)
    pickle = gnn_pickle_load (g_bytes_get_data (pkl, NULL), g_bytes_get_size (pkl),
                              MAX (size, MIN_PICKLE_BUDGET), error);
  if (pickle == NULL)
    {
      g_free (l.prefix);
      return NULL;
    }
  l.storages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) gnn_storage_unref);
  l.dtypes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  l.tensors = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  l.out = gnn_state_dict_new ();
  ok = convert (&l, pickle);
  g_hash_table_unref (l.storages);
  g_hash_table_unref (l.dtypes);
  g_hash_table_unref (l.tensors);
  g_free (l.prefix);
  if (!ok)
    g_clear_object (&l.out);
  return l.out;
}

/**
 * gnn_state_dict_load_torch_from_bytes:
 * @bytes: the contents of a file written by `torch.save`
 * @flags: %GNN_LOAD_FLAGS_COPY to copy the tensors out of @bytes
 * @error: return location for a #GError
 *
 * [func@Gnn.StateDict.load_torch] for a file held in memory. Without
 * %GNN_LOAD_FLAGS_COPY the tensors of storages stored uncompressed and
 * aligned borrow the memory of @bytes.
 *
 * Returns: (transfer full): a new state dict, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_state_dict_load_torch_from_bytes (GBytes        *bytes,
                                      GnnLoadFlags   flags,
                                      GError       **error)
{
  GnnStateDict *state_dict;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  state_dict = load_from_bytes (bytes, flags, error);
  gnn_io_error_ensure_utf8 (error);
  return state_dict;
}

/**
 * gnn_state_dict_load_torch:
 * @path: (type filename): a file written by `torch.save` (a `.pt`, `.pth`
 *   or `.bin` file of PyTorch 1.6 or later)
 * @flags: %GNN_LOAD_FLAGS_COPY to copy the tensors out of the file
 * @error: return location for a #GError
 *
 * Reads a PyTorch checkpoint without Python and without running anything
 * from the file: the zip archive is read with libzip, and its pickle with a
 * restricted unpickler written for this, which knows pickle's binary
 * opcodes (protocols 2 to 5) and allows the globals of
 * `torch.load(weights_only=True)` for plain checkpoints only —
 * `collections.OrderedDict`, `torch._utils._rebuild_tensor_v2` and
 * `_rebuild_parameter`, `torch.nn.Parameter`, `torch.Size`, torch's storage
 * types and dtypes. Any other global (`os.system`, a module class of a
 * pickled model) is a %GNN_ERROR_NOT_SUPPORTED error naming it; complex,
 * quantized and sparse tensors are refused the same way. Half, bfloat16 and
 * bool tensors keep their dtype.
 *
 * The tensors of a storage stored uncompressed and aligned (as torch.save
 * writes them) share the memory-mapped file, like [func@Gnn.StateDict.load]
 * (zero copy; pass %GNN_LOAD_FLAGS_COPY to copy); views keep their storage
 * offsets and strides, and tensors that share a storage in the file share it
 * here. Compressed storages are decompressed within a budget of the file's
 * size (a zip bomb is refused); the CRC of stored ones is not checked, as
 * torch does not check it either.
 *
 * `model.state_dict()` comes back as the state dict itself, in the file's
 * order. Any other object — a checkpoint dict nesting state dicts, an
 * optimizer's state, numbers, strings, lists — has its tensors under dotted
 * names ("model.fc.weight", "optimizer.state.0.momentum_buffer") and its
 * structure as JSON in the metadata entry `gnn.checkpoint`, the layout
 * Python's `Gnn.load` rebuilds.
 *
 * Every limit of the format is checked with a %GNN_ERROR_FORMAT error
 * naming it: a truncated or inconsistent archive, a pickle that is
 * malformed, nests deeper than 64 levels or needs more memory than the
 * file's size, storages missing or shorter than their tensors, views
 * reaching past their storage or overlapping themselves, two tensors under
 * the same dotted name.
 *
 * Returns: (transfer full): a new state dict, or %NULL with @error set
 *   (also the errors of [func@Gnn.StateDict.load] for files that cannot be
 *   opened)
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_state_dict_load_torch (const char    *path,
                           GnnLoadFlags   flags,
                           GError       **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return gnn_io_load_file (path, gnn_state_dict_load_torch_from_bytes, flags, error);
}
