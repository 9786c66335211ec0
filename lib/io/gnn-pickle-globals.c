/* gnn-pickle-globals.c: the restricted unpickler's allow-list — the few
 * globals a torch checkpoint may name, and the constructors (REDUCE,
 * NEWOBJ, BUILD, BINPERSID) they stand for, each checking its arguments
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-pickle-machine-private.h"

/* --- globals ---------------------------------------------------------------------- */

static const struct
{
  const char  *module;
  const char  *name;
  GnnPkGlobal  which;
  GnnDType     dtype;
} allowed_globals[] = {
  { "collections", "OrderedDict", GNN_PK_GLOBAL_ORDERED_DICT, 0 },
  { "torch._utils", "_rebuild_tensor", GNN_PK_GLOBAL_REBUILD_TENSOR, 0 },
  { "torch._utils", "_rebuild_tensor_v2", GNN_PK_GLOBAL_REBUILD_TENSOR_V2, 0 },
  { "torch._utils", "_rebuild_parameter", GNN_PK_GLOBAL_REBUILD_PARAMETER, 0 },
  { "torch._utils", "_rebuild_parameter_with_state", GNN_PK_GLOBAL_REBUILD_PARAMETER_WITH_STATE, 0 },
  { "torch.nn.parameter", "Parameter", GNN_PK_GLOBAL_PARAMETER, 0 },
  { "torch", "Size", GNN_PK_GLOBAL_SIZE, 0 },
  { "_codecs", "encode", GNN_PK_GLOBAL_CODECS_ENCODE, 0 },
  { "torch", "FloatStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_F32 },
  { "torch", "DoubleStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_F64 },
  { "torch", "HalfStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_F16 },
  { "torch", "BFloat16Storage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_BF16 },
  { "torch", "LongStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_I64 },
  { "torch", "IntStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_I32 },
  { "torch", "ShortStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_I16 },
  { "torch", "CharStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_I8 },
  { "torch", "ByteStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_U8 },
  { "torch", "BoolStorage", GNN_PK_GLOBAL_STORAGE_TYPE, GNN_DTYPE_BOOL },
  { "torch", "float32", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_F32 },
  { "torch", "float64", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_F64 },
  { "torch", "float16", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_F16 },
  { "torch", "bfloat16", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_BF16 },
  { "torch", "int64", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_I64 },
  { "torch", "int32", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_I32 },
  { "torch", "int16", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_I16 },
  { "torch", "int8", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_I8 },
  { "torch", "uint8", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_U8 },
  { "torch", "bool", GNN_PK_GLOBAL_DTYPE, GNN_DTYPE_BOOL },
  /* numpy (1.x's module names, then 2.x's) */
  { "numpy.core.multiarray", "_reconstruct", GNN_PK_GLOBAL_NP_RECONSTRUCT, 0 },
  { "numpy._core.multiarray", "_reconstruct", GNN_PK_GLOBAL_NP_RECONSTRUCT, 0 },
  { "numpy.core.multiarray", "scalar", GNN_PK_GLOBAL_NP_SCALAR, 0 },
  { "numpy._core.multiarray", "scalar", GNN_PK_GLOBAL_NP_SCALAR, 0 },
  { "numpy.core.numeric", "_frombuffer", GNN_PK_GLOBAL_NP_FROMBUFFER, 0 },
  { "numpy._core.numeric", "_frombuffer", GNN_PK_GLOBAL_NP_FROMBUFFER, 0 },
  { "numpy", "ndarray", GNN_PK_GLOBAL_NP_NDARRAY, 0 },
  { "numpy", "dtype", GNN_PK_GLOBAL_NP_DTYPE, 0 },
};

/* torch globals that weights_only allows but Gnn has no tensors for. */
static const struct
{
  const char *module;
  const char *prefix;
  const char *why;
} unsupported_globals[] = {
  { "torch", "Complex", "complex tensors are not supported" },
  { "torch", "complex", "complex tensors are not supported" },
  { "torch", "QInt", "quantized tensors are not supported" },
  { "torch", "QUInt", "quantized tensors are not supported" },
  { "torch._utils", "_rebuild_sparse", "sparse tensors are not supported" },
  { "torch._utils", "_rebuild_qtensor", "quantized tensors are not supported" },
  { "torch._utils", "_rebuild_meta_tensor_no_storage", "tensors without storage are not supported" },
};

GnnPkValue *
gnn_pickle_make_global (GnnPickleMachine *m,
                        const char       *module,
                        const char       *name)
{
  g_autofree char *escaped_module = gnn_io_escape_utf8 (module, -1);
  g_autofree char *escaped_name = gnn_io_escape_utf8 (name, -1);

  for (guint i = 0; i < G_N_ELEMENTS (allowed_globals); i++)
    if (strcmp (allowed_globals[i].module, module) == 0 && strcmp (allowed_globals[i].name, name) == 0)
      {
        GnnPkValue *v = gnn_pickle_value_new (m, GNN_PK_GLOBAL);

        if (v != NULL)
          {
            v->v.global.which = allowed_globals[i].which;
            v->v.global.dtype = allowed_globals[i].dtype;
            v->v.global.name = allowed_globals[i].name;
          }
        return v;
      }
  for (guint i = 0; i < G_N_ELEMENTS (unsupported_globals); i++)
    if (strcmp (unsupported_globals[i].module, module) == 0 &&
        g_str_has_prefix (name, unsupported_globals[i].prefix))
      {
        g_set_error (m->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "%s.%s: %s", escaped_module,
                     escaped_name, unsupported_globals[i].why);
        return NULL;
      }
  g_set_error (m->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "unsupported global %s.%s: the checkpoint names a Python object Gnn will not "
               "load (only tensors, storages, torch.Size, Parameter, OrderedDict, bytes and numpy arrays "
               "are allowed, as in torch.load(weights_only=True); nothing in a file is ever run)",
               escaped_module, escaped_name);
  return NULL;
}

/* --- constructors (REDUCE, NEWOBJ, BUILD) ------------------------------------------ */

gboolean
gnn_pickle_is_global (GnnPkValue  *v,
                      GnnPkGlobal  which)
{
  return v->kind == GNN_PK_GLOBAL && v->v.global.which == which;
}

/* A tuple of non-negative ints of at most GNN_MAX_DIMS. */
static gboolean
read_dims (GnnPickleMachine *m,
           GnnPkValue       *v,
           const char       *what,
           guint            *ndim,
           gint64           *out)
{
  if (v->kind != GNN_PK_TUPLE && v->kind != GNN_PK_LIST)
    return gnn_pickle_fail (m, "a tensor's %s is not a tuple", what);
  if (v->v.items->len > GNN_MAX_DIMS)
    return gnn_pickle_fail (m, "a tensor's %s has %u dimensions; Gnn supports at most %d", what,
                 v->v.items->len, GNN_MAX_DIMS);
  for (guint i = 0; i < v->v.items->len; i++)
    {
      GnnPkValue *d = g_ptr_array_index (v->v.items, i);

      if (d->kind != GNN_PK_INT || d->v.i < 0)
        return gnn_pickle_fail (m, "a tensor's %s holds something other than a non-negative integer", what);
      out[i] = d->v.i;
    }
  *ndim = v->v.items->len;
  return TRUE;
}

/* An empty dict or None: backward hooks and Python state that Gnn ignores;
 * anything in them is refused. */
static gboolean
is_empty_state (GnnPkValue *v)
{
  return v->kind == GNN_PK_NONE || (v->kind == GNN_PK_DICT && v->v.dict.keys->len == 0) ||
         (v->kind == GNN_PK_TUPLE && v->v.items->len == 0);
}

/* _rebuild_tensor(storage, offset, size, stride) and
 * _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata]) */
static GnnPkValue *
rebuild_tensor (GnnPickleMachine *m,
                GPtrArray        *args,
                gboolean          v2)
{
  GnnPkValue *storage, *offset, *t;
  guint ndim_size = 0, ndim_stride = 0;
  gint64 size[GNN_MAX_DIMS], stride[GNN_MAX_DIMS];

  if (args->len != (v2 ? 6 : 4) && !(v2 && args->len == 7))
    {
      gnn_pickle_fail (m, "_rebuild_tensor%s takes %d arguments, got %u", v2 ? "_v2" : "", v2 ? 6 : 4,
            args->len);
      return NULL;
    }
  storage = g_ptr_array_index (args, 0);
  offset = g_ptr_array_index (args, 1);
  if (storage->kind != GNN_PK_STORAGE || offset->kind != GNN_PK_INT || offset->v.i < 0)
    {
      gnn_pickle_fail (m, "a tensor is rebuilt from something other than a storage and an offset");
      return NULL;
    }
  if (!read_dims (m, g_ptr_array_index (args, 2), "size", &ndim_size, size) ||
      !read_dims (m, g_ptr_array_index (args, 3), "stride", &ndim_stride, stride))
    return NULL;
  if (ndim_size != ndim_stride)
    {
      gnn_pickle_fail (m, "a tensor has %u sizes and %u strides", ndim_size, ndim_stride);
      return NULL;
    }
  if (v2 && (((GnnPkValue *) g_ptr_array_index (args, 4))->kind != GNN_PK_BOOL ||
             !is_empty_state (g_ptr_array_index (args, 5)) ||
             (args->len == 7 && !is_empty_state (g_ptr_array_index (args, 6)))))
    {
      gnn_pickle_fail (m, "a tensor has backward hooks, metadata or a requires_grad that is not a bool");
      return NULL;
    }
  t = gnn_pickle_tensor_new (m);
  if (t == NULL)
    return NULL;
  t->v.tensor->storage = storage;
  t->v.tensor->offset = offset->v.i;
  t->v.tensor->ndim = ndim_size;
  memcpy (t->v.tensor->size, size, ndim_size * sizeof (gint64));
  memcpy (t->v.tensor->stride, stride, ndim_size * sizeof (gint64));
  t->v.tensor->requires_grad = v2 && ((GnnPkValue *) g_ptr_array_index (args, 4))->v.b;
  return t;
}

/* _rebuild_parameter(data, requires_grad, hooks[, state]), Parameter(data[, requires_grad]) */
static GnnPkValue *
rebuild_parameter (GnnPickleMachine *m,
                   GPtrArray        *args,
                   guint             min_args,
                   guint             max_args)
{
  GnnPkValue *data, *t;

  if (args->len < min_args || args->len > max_args)
    {
      gnn_pickle_fail (m, "a Parameter is rebuilt with %u arguments", args->len);
      return NULL;
    }
  data = g_ptr_array_index (args, 0);
  if (data->kind != GNN_PK_TENSOR || (args->len > 1 &&
                                      ((GnnPkValue *) g_ptr_array_index (args, 1))->kind != GNN_PK_BOOL))
    {
      gnn_pickle_fail (m, "a Parameter is rebuilt from something other than a tensor");
      return NULL;
    }
  for (guint i = 2; i < args->len; i++)
    if (!is_empty_state (g_ptr_array_index (args, i)))
      {
        gnn_pickle_fail (m, "a Parameter has backward hooks or Python state");
        return NULL;
      }
  t = gnn_pickle_tensor_new (m);
  if (t == NULL)
    return NULL;
  *t->v.tensor = *data->v.tensor;
  t->v.tensor->parameter = TRUE;
  t->v.tensor->requires_grad = args->len > 1 ? ((GnnPkValue *) g_ptr_array_index (args, 1))->v.b : TRUE;
  return t;
}

static GnnPkValue *
ordered_dict (GnnPickleMachine *m,
              GPtrArray        *args)
{
  GnnPkValue *dict = gnn_pickle_dict_new (m, TRUE);
  GnnPkValue *pairs;

  if (dict == NULL || args->len == 0)
    return dict;
  pairs = g_ptr_array_index (args, 0);
  if (args->len > 1 || (pairs->kind != GNN_PK_LIST && pairs->kind != GNN_PK_TUPLE))
    {
      gnn_pickle_fail (m, "OrderedDict is called with something other than a list of pairs");
      return NULL;
    }
  for (guint i = 0; i < pairs->v.items->len; i++)
    {
      GnnPkValue *pair = g_ptr_array_index (pairs->v.items, i);

      if ((pair->kind != GNN_PK_TUPLE && pair->kind != GNN_PK_LIST) || pair->v.items->len != 2)
        {
          gnn_pickle_fail (m, "OrderedDict is called with an item that is not a pair");
          return NULL;
        }
      if (!gnn_pickle_dict_set (m, dict, g_ptr_array_index (pair->v.items, 0),
                     g_ptr_array_index (pair->v.items, 1)))
        return NULL;
    }
  return dict;
}

/* _codecs.encode(text, 'latin1'): Python 3 bytes pickled with protocol 2;
 * each code point below 256 is one byte. */
static GnnPkValue *
encode_latin1 (GnnPickleMachine *m,
               GPtrArray        *args)
{
  GnnPkValue *text, *encoding, *bytes;
  gsize n = 0;

  if (args->len != 2)
    {
      gnn_pickle_fail (m, "_codecs.encode takes 2 arguments, got %u", args->len);
      return NULL;
    }
  text = g_ptr_array_index (args, 0);
  encoding = g_ptr_array_index (args, 1);
  if (text->kind != GNN_PK_STR || encoding->kind != GNN_PK_STR ||
      (strcmp (encoding->v.str.data, "latin1") != 0 && strcmp (encoding->v.str.data, "latin-1") != 0))
    {
      gnn_pickle_fail (m, "_codecs.encode is called with something other than a string and 'latin1'");
      return NULL;
    }
  bytes = gnn_pickle_value_new (m, GNN_PK_BYTES);
  if (bytes == NULL || !gnn_pickle_charge (m, text->v.str.len + 1))
    return NULL;
  bytes->v.str.data = g_malloc (text->v.str.len + 1);
  for (const char *p = text->v.str.data; p < text->v.str.data + text->v.str.len;
       p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c > 0xff)
        {
          gnn_pickle_fail (m, "_codecs.encode is given a character beyond latin-1");
          return NULL;
        }
      bytes->v.str.data[n++] = (char) c;
    }
  bytes->v.str.data[n] = '\0';
  bytes->v.str.len = n;
  return bytes;
}

/* REDUCE: callable(*args) for the callables the table allows. */
gboolean
gnn_pickle_op_reduce (GnnPickleMachine *m)
{
  GnnPkValue *args = gnn_pickle_pop (m);
  GnnPkValue *callable = args != NULL ? gnn_pickle_pop (m) : NULL;
  GnnPkValue *result = NULL;

  if (callable == NULL)
    return FALSE;
  if (args->kind != GNN_PK_TUPLE)
    return gnn_pickle_fail (m, "REDUCE's arguments are not a tuple");
  if (callable->kind != GNN_PK_GLOBAL)
    return gnn_pickle_fail (m, "REDUCE calls something that is not a global");
  switch (callable->v.global.which)
    {
    case GNN_PK_GLOBAL_ORDERED_DICT:
      result = ordered_dict (m, args->v.items);
      break;
    case GNN_PK_GLOBAL_REBUILD_TENSOR:
    case GNN_PK_GLOBAL_REBUILD_TENSOR_V2:
      result = rebuild_tensor (m, args->v.items, gnn_pickle_is_global (callable, GNN_PK_GLOBAL_REBUILD_TENSOR_V2));
      break;
    case GNN_PK_GLOBAL_REBUILD_PARAMETER:
      result = rebuild_parameter (m, args->v.items, 3, 3);
      break;
    case GNN_PK_GLOBAL_REBUILD_PARAMETER_WITH_STATE:
      result = rebuild_parameter (m, args->v.items, 4, 4);
      break;
    case GNN_PK_GLOBAL_PARAMETER:
      result = rebuild_parameter (m, args->v.items, 1, 2);
      break;
    case GNN_PK_GLOBAL_CODECS_ENCODE:
      result = encode_latin1 (m, args->v.items);
      break;
    case GNN_PK_GLOBAL_SIZE:
      if (args->v.items->len != 1 ||
          (((GnnPkValue *) g_ptr_array_index (args->v.items, 0))->kind != GNN_PK_TUPLE))
        return gnn_pickle_fail (m, "torch.Size is called with something other than a tuple");
      result = g_ptr_array_index (args->v.items, 0);
      break;
    case GNN_PK_GLOBAL_NP_RECONSTRUCT:
    case GNN_PK_GLOBAL_NP_DTYPE:
    case GNN_PK_GLOBAL_NP_SCALAR:
    case GNN_PK_GLOBAL_NP_FROMBUFFER:
    case GNN_PK_GLOBAL_NP_NDARRAY:
      result = gnn_pickle_numpy_reduce (m, callable->v.global.which, args->v.items);
      break;
    default:
      return gnn_pickle_fail (m, "REDUCE calls %s, which is not callable", callable->v.global.name);
    }
  return gnn_pickle_push (m, result);
}

/* BUILD: state on an object; only empty state, or an OrderedDict's
 * attributes (state_dict()'s _metadata, which Gnn does not use). */
gboolean
gnn_pickle_op_build (GnnPickleMachine *m)
{
  GnnPkValue *state = gnn_pickle_pop (m);
  GnnPkValue *object = state != NULL ? gnn_pickle_top (m) : NULL;

  if (object == NULL)
    return FALSE;
  if (object->kind == GNN_PK_NP_DTYPE || object->kind == GNN_PK_NDARRAY)
    return gnn_pickle_numpy_build (m, object, state);
  if (is_empty_state (state))
    return TRUE;
  if (object->kind == GNN_PK_DICT && object->v.dict.ordered && state->kind == GNN_PK_DICT)
    return TRUE;
  return gnn_pickle_fail (m, "BUILD sets state on an object that is not an OrderedDict or a numpy array");
}

/* BINPERSID: ('storage', storage type, key, location, numel). */
gboolean
gnn_pickle_op_persistent_id (GnnPickleMachine *m)
{
  GnnPkValue *pid = gnn_pickle_pop (m);
  GnnPkValue *tag, *type, *key, *numel, *v;

  if (pid == NULL)
    return FALSE;
  if (pid->kind != GNN_PK_TUPLE || pid->v.items->len != 5)
    return gnn_pickle_fail (m, "a persistent id is not a 5-tuple ('storage', type, key, location, numel)");
  tag = g_ptr_array_index (pid->v.items, 0);
  type = g_ptr_array_index (pid->v.items, 1);
  key = g_ptr_array_index (pid->v.items, 2);
  numel = g_ptr_array_index (pid->v.items, 4);
  if ((tag->kind != GNN_PK_STR && tag->kind != GNN_PK_BYTES) || strcmp (tag->v.str.data, "storage") != 0)
    return gnn_pickle_fail (m, "a persistent id is not a storage");
  if (!gnn_pickle_is_global (type, GNN_PK_GLOBAL_STORAGE_TYPE))
    return gnn_pickle_fail (m, "a storage's type is not a torch storage class");
  if (key->kind != GNN_PK_STR || key->v.str.len == 0 || key->v.str.len != strlen (key->v.str.data) ||
      strchr (key->v.str.data, '/') != NULL)
    return gnn_pickle_fail (m, "a storage's key is not a file name");
  if (numel->kind != GNN_PK_INT || numel->v.i < 0)
    return gnn_pickle_fail (m, "a storage's size is not a non-negative integer");
  v = gnn_pickle_value_new (m, GNN_PK_STORAGE);
  if (v == NULL || !gnn_pickle_charge (m, key->v.str.len + 1))
    return FALSE;
  v->v.storage.key = g_strdup (key->v.str.data);
  v->v.storage.dtype = type->v.global.dtype;
  v->v.storage.numel = numel->v.i;
  return gnn_pickle_push (m, v);
}

/* NEWOBJ: cls.__new__(cls, *args) — Parameter and OrderedDict only */
gboolean
gnn_pickle_op_newobj (GnnPickleMachine *m)
{
  GnnPkValue *args = gnn_pickle_pop (m);
  GnnPkValue *cls = args != NULL ? gnn_pickle_pop (m) : NULL;

  if (cls == NULL)
    return FALSE;
  if (!gnn_pickle_is_global (cls, GNN_PK_GLOBAL_PARAMETER) &&
      !gnn_pickle_is_global (cls, GNN_PK_GLOBAL_ORDERED_DICT))
    return gnn_pickle_fail (m, "NEWOBJ makes something other than a Parameter or an OrderedDict");
  if (args->kind != GNN_PK_TUPLE)
    return gnn_pickle_fail (m, "NEWOBJ's arguments are not a tuple");
  if (gnn_pickle_is_global (cls, GNN_PK_GLOBAL_ORDERED_DICT))
    return gnn_pickle_push (m, ordered_dict (m, args->v.items));
  return gnn_pickle_push (m, rebuild_parameter (m, args->v.items, 1, 2));
}
