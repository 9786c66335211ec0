/* gnn-pickle.c: a restricted unpickler for torch's checkpoints — a stack
 * machine over pickle's binary opcodes (protocols 2 to 5) that builds
 * values and never calls, imports or runs anything
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-torch-private.h"

/*
 * Python's pickle calls whatever a GLOBAL names (os.system, builtins.eval)
 * with REDUCE. Here GLOBAL looks the name up in a fixed table and fails on
 * anything else, and REDUCE, NEWOBJ and BUILD only run the constructors the
 * table's entries stand for (collections.OrderedDict, torch._utils's tensor
 * rebuild functions, Parameter, torch.Size), checking their arguments. The
 * opcodes that exist to call or import (INST, OBJ, EXT*, NEWOBJ_EX, PERSID
 * in text form, out-of-band buffers) are errors.
 *
 * Bounds: every value, string, container slot, memo entry and mark is
 * charged to a budget (the caller's: the file's size), so no pickle makes
 * this allocate more than that; the values live in one arena freed at
 * once, so cycles made through the memo cannot leak (walkers bound their
 * depth and visits).
 */

#define MAX_MEMO (1u << 20)
#define MAX_GLOBAL_NAME 256

struct _GnnPickle
{
  GPtrArray  *arena;        /* every GnnPkValue made (owned) */
  GnnPkValue *root;
};

typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
  gsize         budget;     /* bytes left to allocate */
  GnnPickle    *pickle;
  GPtrArray    *stack;      /* GnnPkValue* (borrowed from the arena) */
  GArray       *marks;      /* guint: stack lengths at each MARK */
  GHashTable   *memo;       /* index → GnnPkValue* */
  GError      **error;
} Machine;

static GnnPkValue none_value = { GNN_PK_NONE, { 0 } };
static GnnPkValue true_value = { GNN_PK_BOOL, { .b = TRUE } };
static GnnPkValue false_value = { GNN_PK_BOOL, { .b = FALSE } };

/* --- errors and the budget ----------------------------------------------------- */

G_GNUC_PRINTF (2, 3) static gboolean
fail (Machine    *m,
      const char *format,
      ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (m->error != NULL && *m->error == NULL)
    g_set_error (m->error, GNN_ERROR, GNN_ERROR_FORMAT, "invalid pickle: %s (at byte %" G_GSIZE_FORMAT ")",
                 text, m->pos);
  return FALSE;
}

static gboolean
charge (Machine *m,
        gsize    bytes)
{
  if (bytes > m->budget)
    {
      if (m->error != NULL && *m->error == NULL)
        g_set_error (m->error, GNN_ERROR, GNN_ERROR_MEMORY,
                     "invalid pickle: it would need more memory than the file's size allows "
                     "(at byte %" G_GSIZE_FORMAT ")", m->pos);
      return FALSE;
    }
  m->budget -= bytes;
  return TRUE;
}

/* --- values ---------------------------------------------------------------------- */

static void
value_free (GnnPkValue *v)
{
  switch (v->kind)
    {
    case GNN_PK_STR:
    case GNN_PK_BYTES:
      g_free (v->v.str.data);
      break;
    case GNN_PK_TUPLE:
    case GNN_PK_LIST:
    case GNN_PK_SET:
      g_ptr_array_unref (v->v.items);
      break;
    case GNN_PK_DICT:
      g_ptr_array_unref (v->v.dict.keys);
      g_ptr_array_unref (v->v.dict.values);
      break;
    case GNN_PK_STORAGE:
      g_free (v->v.storage.key);
      break;
    case GNN_PK_TENSOR:
      g_free (v->v.tensor);
      break;
    default:
      break;
    }
  g_free (v);
}

static GnnPkValue *
value_new (Machine   *m,
           GnnPkKind  kind)
{
  GnnPkValue *v;

  if (!charge (m, sizeof (GnnPkValue) + sizeof (gpointer)))
    return NULL;
  v = g_new0 (GnnPkValue, 1);
  v->kind = kind;
  g_ptr_array_add (m->pickle->arena, v);
  return v;
}

/* What a GPtrArray costs before its items. */
#define ARRAY_COST (4 * sizeof (gpointer))

static GnnPkValue *
seq_new (Machine   *m,
         GnnPkKind  kind)
{
  GnnPkValue *v = charge (m, ARRAY_COST) ? value_new (m, kind) : NULL;

  if (v != NULL)
    v->v.items = g_ptr_array_new ();
  return v;
}

static GnnPkValue *
dict_new (Machine  *m,
          gboolean  ordered)
{
  GnnPkValue *v = charge (m, 2 * ARRAY_COST) ? value_new (m, GNN_PK_DICT) : NULL;

  if (v != NULL)
    {
      v->v.dict.keys = g_ptr_array_new ();
      v->v.dict.values = g_ptr_array_new ();
      v->v.dict.ordered = ordered;
    }
  return v;
}

static gboolean
seq_add (Machine    *m,
         GnnPkValue *seq,
         GnnPkValue *item)
{
  if (!charge (m, sizeof (gpointer)))
    return FALSE;
  g_ptr_array_add (seq->v.items, item);
  return TRUE;
}

static gboolean
dict_set (Machine    *m,
          GnnPkValue *dict,
          GnnPkValue *key,
          GnnPkValue *value)
{
  if (!charge (m, 2 * sizeof (gpointer)))
    return FALSE;
  g_ptr_array_add (dict->v.dict.keys, key);
  g_ptr_array_add (dict->v.dict.values, value);
  return TRUE;
}

static GnnPkValue *
tensor_new (Machine *m)
{
  GnnPkValue *v = charge (m, sizeof (GnnPkTensor)) ? value_new (m, GNN_PK_TENSOR) : NULL;

  if (v != NULL)
    v->v.tensor = g_new0 (GnnPkTensor, 1);
  return v;
}

static GnnPkValue *
int_new (Machine *m,
         gint64   i)
{
  GnnPkValue *v = value_new (m, GNN_PK_INT);

  if (v != NULL)
    v->v.i = i;
  return v;
}

/* --- reading ---------------------------------------------------------------------- */

static const guint8 *
take (Machine *m,
      gsize    n)
{
  const guint8 *p;

  if (n > m->len - m->pos)
    {
      fail (m, "it ends in the middle of an opcode (needs %" G_GSIZE_FORMAT " more bytes, has %"
            G_GSIZE_FORMAT ")", n, m->len - m->pos);
      return NULL;
    }
  p = m->data + m->pos;
  m->pos += n;
  return p;
}

static gboolean
take_uint (Machine *m,
           gsize    n,
           guint64 *out)
{
  const guint8 *p = take (m, n);

  if (p == NULL)
    return FALSE;
  *out = 0;
  for (gsize i = n; i > 0; i--)
    *out = (*out << 8) | p[i - 1];
  return TRUE;
}

/* UTF-8 where NUL is a character like any other (Python strings may hold
 * it; names made from them are checked for it later). */
static gboolean
utf8_validate_with_nul (const char *text,
                        gsize       len)
{
  const char *end = text + len;

  while (text < end)
    {
      const char *nul = memchr (text, '\0', end - text);
      const char *stop = nul != NULL ? nul : end;

      if (!g_utf8_validate_len (text, stop - text, NULL))
        return FALSE;
      text = stop + (nul != NULL);
    }
  return TRUE;
}

/* A string or bytes value of @n bytes at the read position. */
static GnnPkValue *
take_string (Machine   *m,
             GnnPkKind  kind,
             guint64    n)
{
  const guint8 *p;
  GnnPkValue *v;

  if (n > m->len - m->pos)
    {
      fail (m, "a string of %" G_GUINT64_FORMAT " bytes runs past the end", n);
      return NULL;
    }
  if (!charge (m, n + 1))
    return NULL;
  p = take (m, n);
  if (kind == GNN_PK_STR && !utf8_validate_with_nul ((const char *) p, n))
    {
      fail (m, "a string is not valid UTF-8");
      return NULL;
    }
  v = value_new (m, kind);
  if (v == NULL)
    return NULL;
  v->v.str.data = g_malloc (n + 1);
  memcpy (v->v.str.data, p, n);
  v->v.str.data[n] = '\0';
  v->v.str.len = n;
  return v;
}

/* A line of a text opcode (GLOBAL's module and name). */
static char *
take_line (Machine *m)
{
  const guint8 *start = m->data + m->pos;
  const guint8 *end = memchr (start, '\n', MIN (m->len - m->pos, MAX_GLOBAL_NAME + 1));

  if (end == NULL)
    {
      fail (m, "a GLOBAL name is unterminated or longer than %d bytes", MAX_GLOBAL_NAME);
      return NULL;
    }
  m->pos += end - start + 1;
  return g_strndup ((const char *) start, end - start);
}

/* --- the stack ------------------------------------------------------------------ */

static guint
stack_base (Machine *m)
{
  return m->marks->len > 0 ? g_array_index (m->marks, guint, m->marks->len - 1) : 0;
}

static gboolean
push (Machine    *m,
      GnnPkValue *v)
{
  if (v == NULL || !charge (m, sizeof (gpointer)))
    return FALSE;
  g_ptr_array_add (m->stack, v);
  return TRUE;
}

static GnnPkValue *
pop (Machine *m)
{
  if (m->stack->len <= stack_base (m))
    {
      fail (m, "an opcode pops an empty stack");
      return NULL;
    }
  return g_ptr_array_steal_index (m->stack, m->stack->len - 1);
}

static GnnPkValue *
top (Machine *m)
{
  if (m->stack->len <= stack_base (m))
    {
      fail (m, "an opcode reads an empty stack");
      return NULL;
    }
  return g_ptr_array_index (m->stack, m->stack->len - 1);
}

/* The items since the last MARK, removed from the stack (caller frees). */
static GPtrArray *
pop_mark (Machine *m)
{
  GPtrArray *items;
  guint base;

  if (m->marks->len == 0)
    {
      fail (m, "an opcode needs a MARK and there is none");
      return NULL;
    }
  base = g_array_index (m->marks, guint, m->marks->len - 1);
  g_array_set_size (m->marks, m->marks->len - 1);
  items = g_ptr_array_sized_new (m->stack->len - base);
  for (guint i = base; i < m->stack->len; i++)
    g_ptr_array_add (items, g_ptr_array_index (m->stack, i));
  g_ptr_array_set_size (m->stack, base);
  return items;
}

static GnnPkValue *
tuple_of (Machine     *m,
          GnnPkValue **items,
          guint        n)
{
  GnnPkValue *t = seq_new (m, GNN_PK_TUPLE);

  for (guint i = 0; t != NULL && i < n; i++)
    if (!seq_add (m, t, items[i]))
      return NULL;
  return t;
}

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

static GnnPkValue *
make_global (Machine    *m,
             const char *module,
             const char *name)
{
  g_autofree char *escaped_module = gnn_io_escape_utf8 (module, -1);
  g_autofree char *escaped_name = gnn_io_escape_utf8 (name, -1);

  for (guint i = 0; i < G_N_ELEMENTS (allowed_globals); i++)
    if (strcmp (allowed_globals[i].module, module) == 0 && strcmp (allowed_globals[i].name, name) == 0)
      {
        GnnPkValue *v = value_new (m, GNN_PK_GLOBAL);

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
               "load (only tensors, storages, torch.Size, Parameter, OrderedDict and bytes are allowed, "
               "as in torch.load(weights_only=True); nothing in a file is ever run)",
               escaped_module, escaped_name);
  return NULL;
}

/* --- constructors (REDUCE, NEWOBJ, BUILD) ------------------------------------------ */

static gboolean
is_global (GnnPkValue  *v,
           GnnPkGlobal  which)
{
  return v->kind == GNN_PK_GLOBAL && v->v.global.which == which;
}

/* A tuple of non-negative ints of at most GNN_MAX_DIMS. */
static gboolean
read_dims (Machine     *m,
           GnnPkValue  *v,
           const char  *what,
           guint       *ndim,
           gint64      *out)
{
  if (v->kind != GNN_PK_TUPLE && v->kind != GNN_PK_LIST)
    return fail (m, "a tensor's %s is not a tuple", what);
  if (v->v.items->len > GNN_MAX_DIMS)
    return fail (m, "a tensor's %s has %u dimensions; Gnn supports at most %d", what,
                 v->v.items->len, GNN_MAX_DIMS);
  for (guint i = 0; i < v->v.items->len; i++)
    {
      GnnPkValue *d = g_ptr_array_index (v->v.items, i);

      if (d->kind != GNN_PK_INT || d->v.i < 0)
        return fail (m, "a tensor's %s holds something other than a non-negative integer", what);
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
rebuild_tensor (Machine    *m,
                GPtrArray  *args,
                gboolean    v2)
{
  GnnPkValue *storage, *offset, *t;
  guint ndim_size = 0, ndim_stride = 0;
  gint64 size[GNN_MAX_DIMS], stride[GNN_MAX_DIMS];

  if (args->len != (v2 ? 6 : 4) && !(v2 && args->len == 7))
    {
      fail (m, "_rebuild_tensor%s takes %d arguments, got %u", v2 ? "_v2" : "", v2 ? 6 : 4,
            args->len);
      return NULL;
    }
  storage = g_ptr_array_index (args, 0);
  offset = g_ptr_array_index (args, 1);
  if (storage->kind != GNN_PK_STORAGE || offset->kind != GNN_PK_INT || offset->v.i < 0)
    {
      fail (m, "a tensor is rebuilt from something other than a storage and an offset");
      return NULL;
    }
  if (!read_dims (m, g_ptr_array_index (args, 2), "size", &ndim_size, size) ||
      !read_dims (m, g_ptr_array_index (args, 3), "stride", &ndim_stride, stride))
    return NULL;
  if (ndim_size != ndim_stride)
    {
      fail (m, "a tensor has %u sizes and %u strides", ndim_size, ndim_stride);
      return NULL;
    }
  if (v2 && (((GnnPkValue *) g_ptr_array_index (args, 4))->kind != GNN_PK_BOOL ||
             !is_empty_state (g_ptr_array_index (args, 5)) ||
             (args->len == 7 && !is_empty_state (g_ptr_array_index (args, 6)))))
    {
      fail (m, "a tensor has backward hooks, metadata or a requires_grad that is not a bool");
      return NULL;
    }
  t = tensor_new (m);
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
rebuild_parameter (Machine    *m,
                   GPtrArray  *args,
                   guint       min_args,
                   guint       max_args)
{
  GnnPkValue *data, *t;

  if (args->len < min_args || args->len > max_args)
    {
      fail (m, "a Parameter is rebuilt with %u arguments", args->len);
      return NULL;
    }
  data = g_ptr_array_index (args, 0);
  if (data->kind != GNN_PK_TENSOR || (args->len > 1 &&
                                      ((GnnPkValue *) g_ptr_array_index (args, 1))->kind != GNN_PK_BOOL))
    {
      fail (m, "a Parameter is rebuilt from something other than a tensor");
      return NULL;
    }
  for (guint i = 2; i < args->len; i++)
    if (!is_empty_state (g_ptr_array_index (args, i)))
      {
        fail (m, "a Parameter has backward hooks or Python state");
        return NULL;
      }
  t = tensor_new (m);
  if (t == NULL)
    return NULL;
  *t->v.tensor = *data->v.tensor;
  t->v.tensor->parameter = TRUE;
  t->v.tensor->requires_grad = args->len > 1 ? ((GnnPkValue *) g_ptr_array_index (args, 1))->v.b : TRUE;
  return t;
}

static GnnPkValue *
ordered_dict (Machine   *m,
              GPtrArray *args)
{
  GnnPkValue *dict = dict_new (m, TRUE);
  GnnPkValue *pairs;

  if (dict == NULL || args->len == 0)
    return dict;
  pairs = g_ptr_array_index (args, 0);
  if (args->len > 1 || (pairs->kind != GNN_PK_LIST && pairs->kind != GNN_PK_TUPLE))
    {
      fail (m, "OrderedDict is called with something other than a list of pairs");
      return NULL;
    }
  for (guint i = 0; i < pairs->v.items->len; i++)
    {
      GnnPkValue *pair = g_ptr_array_index (pairs->v.items, i);

      if ((pair->kind != GNN_PK_TUPLE && pair->kind != GNN_PK_LIST) || pair->v.items->len != 2)
        {
          fail (m, "OrderedDict is called with an item that is not a pair");
          return NULL;
        }
      if (!dict_set (m, dict, g_ptr_array_index (pair->v.items, 0),
                     g_ptr_array_index (pair->v.items, 1)))
        return NULL;
    }
  return dict;
}

/* _codecs.encode(text, 'latin1'): Python 3 bytes pickled with protocol 2;
 * each code point below 256 is one byte. */
static GnnPkValue *
encode_latin1 (Machine   *m,
               GPtrArray *args)
{
  GnnPkValue *text, *encoding, *bytes;
  gsize n = 0;

  if (args->len != 2)
    {
      fail (m, "_codecs.encode takes 2 arguments, got %u", args->len);
      return NULL;
    }
  text = g_ptr_array_index (args, 0);
  encoding = g_ptr_array_index (args, 1);
  if (text->kind != GNN_PK_STR || encoding->kind != GNN_PK_STR ||
      (strcmp (encoding->v.str.data, "latin1") != 0 && strcmp (encoding->v.str.data, "latin-1") != 0))
    {
      fail (m, "_codecs.encode is called with something other than a string and 'latin1'");
      return NULL;
    }
  bytes = value_new (m, GNN_PK_BYTES);
  if (bytes == NULL || !charge (m, text->v.str.len + 1))
    return NULL;
  bytes->v.str.data = g_malloc (text->v.str.len + 1);
  for (const char *p = text->v.str.data; p < text->v.str.data + text->v.str.len;
       p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c > 0xff)
        {
          fail (m, "_codecs.encode is given a character beyond latin-1");
          return NULL;
        }
      bytes->v.str.data[n++] = (char) c;
    }
  bytes->v.str.data[n] = '\0';
  bytes->v.str.len = n;
  return bytes;
}

/* REDUCE: callable(*args) for the callables the table allows. */
static gboolean
op_reduce (Machine *m)
{
  GnnPkValue *args = pop (m);
  GnnPkValue *callable = args != NULL ? pop (m) : NULL;
  GnnPkValue *result = NULL;

  if (callable == NULL)
    return FALSE;
  if (args->kind != GNN_PK_TUPLE)
    return fail (m, "REDUCE's arguments are not a tuple");
  if (callable->kind != GNN_PK_GLOBAL)
    return fail (m, "REDUCE calls something that is not a global");
  switch (callable->v.global.which)
    {
    case GNN_PK_GLOBAL_ORDERED_DICT:
      result = ordered_dict (m, args->v.items);
      break;
    case GNN_PK_GLOBAL_REBUILD_TENSOR:
    case GNN_PK_GLOBAL_REBUILD_TENSOR_V2:
      result = rebuild_tensor (m, args->v.items, is_global (callable, GNN_PK_GLOBAL_REBUILD_TENSOR_V2));
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
        return fail (m, "torch.Size is called with something other than a tuple");
      result = g_ptr_array_index (args->v.items, 0);
      break;
    default:
      return fail (m, "REDUCE calls %s, which is not callable", callable->v.global.name);
    }
  return push (m, result);
}

/* BUILD: state on an object; only empty state, or an OrderedDict's
 * attributes (state_dict()'s _metadata, which Gnn does not use). */
static gboolean
op_build (Machine *m)
{
  GnnPkValue *state = pop (m);
  GnnPkValue *object = state != NULL ? top (m) : NULL;

  if (object == NULL)
    return FALSE;
  if (is_empty_state (state))
    return TRUE;
  if (object->kind == GNN_PK_DICT && object->v.dict.ordered && state->kind == GNN_PK_DICT)
    return TRUE;
  return fail (m, "BUILD sets state on an object that is not an OrderedDict");
}

/* BINPERSID: ('storage', storage type, key, location, numel). */
static gboolean
op_persistent_id (Machine *m)
{
  GnnPkValue *pid = pop (m);
  GnnPkValue *tag, *type, *key, *numel, *v;

  if (pid == NULL)
    return FALSE;
  if (pid->kind != GNN_PK_TUPLE || pid->v.items->len != 5)
    return fail (m, "a persistent id is not a 5-tuple ('storage', type, key, location, numel)");
  tag = g_ptr_array_index (pid->v.items, 0);
  type = g_ptr_array_index (pid->v.items, 1);
  key = g_ptr_array_index (pid->v.items, 2);
  numel = g_ptr_array_index (pid->v.items, 4);
  if ((tag->kind != GNN_PK_STR && tag->kind != GNN_PK_BYTES) || strcmp (tag->v.str.data, "storage") != 0)
    return fail (m, "a persistent id is not a storage");
  if (!is_global (type, GNN_PK_GLOBAL_STORAGE_TYPE))
    return fail (m, "a storage's type is not a torch storage class");
  if (key->kind != GNN_PK_STR || key->v.str.len == 0 || key->v.str.len != strlen (key->v.str.data) ||
      strchr (key->v.str.data, '/') != NULL)
    return fail (m, "a storage's key is not a file name");
  if (numel->kind != GNN_PK_INT || numel->v.i < 0)
    return fail (m, "a storage's size is not a non-negative integer");
  v = value_new (m, GNN_PK_STORAGE);
  if (v == NULL || !charge (m, key->v.str.len + 1))
    return FALSE;
  v->v.storage.key = g_strdup (key->v.str.data);
  v->v.storage.dtype = type->v.global.dtype;
  v->v.storage.numel = numel->v.i;
  return push (m, v);
}

/* --- the machine ------------------------------------------------------------------- */

static gboolean
memo_put (Machine    *m,
          guint64     index,
          GnnPkValue *v)
{
  if (v == NULL)
    return FALSE;
  if (index >= MAX_MEMO)
    return fail (m, "a memo index %" G_GUINT64_FORMAT " is beyond the limit of %u", index, MAX_MEMO);
  if (!g_hash_table_contains (m->memo, GUINT_TO_POINTER ((guint) index)) &&
      !charge (m, 4 * sizeof (gpointer)))
    return FALSE;
  g_hash_table_insert (m->memo, GUINT_TO_POINTER ((guint) index), v);
  return TRUE;
}

static gboolean
memo_get (Machine *m,
          guint64  index)
{
  GnnPkValue *v = index < MAX_MEMO ? g_hash_table_lookup (m->memo, GUINT_TO_POINTER ((guint) index))
                                   : NULL;

  if (v == NULL)
    return fail (m, "memo entry %" G_GUINT64_FORMAT " was never set", index);
  return push (m, v);
}

/* LONG1 / LONG4: little-endian two's complement; Gnn keeps int64. */
static gboolean
op_long (Machine *m,
         guint64  n)
{
  const guint8 *p;
  guint64 u = 0;
  gint64 value;

  if (n > 8)
    {
      /* Python writes the shortest form, but a longer one with the same
       * value (sign extension) is still valid */
      if (n > m->len - m->pos)
        return fail (m, "a LONG of %" G_GUINT64_FORMAT " bytes runs past the end", n);
      p = m->data + m->pos;
      for (guint64 i = 8; i < n; i++)
        if (p[i] != ((p[7] & 0x80) ? 0xff : 0x00))
          return fail (m, "an integer does not fit in 64 bits");
    }
  p = take (m, n);
  if (p == NULL)
    return FALSE;
  for (guint64 i = MIN (n, 8); i > 0; i--)
    u = (u << 8) | p[i - 1];
  if (n > 0 && n < 8 && (p[n - 1] & 0x80))
    u |= G_MAXUINT64 << (8 * n);
  value = (gint64) u;
  return push (m, int_new (m, value));
}

static gboolean
op_tuple_n (Machine *m,
            guint    n)
{
  GnnPkValue *items[3];

  if (m->stack->len < stack_base (m) + n)
    return fail (m, "TUPLE%u needs %u items on the stack", n, n);
  for (guint i = 0; i < n; i++)
    items[i] = g_ptr_array_index (m->stack, m->stack->len - n + i);
  g_ptr_array_set_size (m->stack, m->stack->len - n);
  return push (m, tuple_of (m, items, n));
}

static gboolean
op_from_mark (Machine   *m,
              guint8     op)
{
  g_autoptr(GPtrArray) items = pop_mark (m);
  GnnPkValue *target;

  if (items == NULL)
    return FALSE;
  switch (op)
    {
    case 't':   /* TUPLE */
      return push (m, tuple_of (m, (GnnPkValue **) items->pdata, items->len));
    case 'l':   /* LIST */
    case 0x91:  /* FROZENSET */
      target = seq_new (m, op == 'l' ? GNN_PK_LIST : GNN_PK_SET);
      for (guint i = 0; target != NULL && i < items->len; i++)
        if (!seq_add (m, target, g_ptr_array_index (items, i)))
          return FALSE;
      return push (m, target);
    case 'd':   /* DICT */
      if (items->len % 2 != 0)
        return fail (m, "DICT has an odd number of items");
      target = dict_new (m, FALSE);
      for (guint i = 0; target != NULL && i < items->len; i += 2)
        if (!dict_set (m, target, g_ptr_array_index (items, i), g_ptr_array_index (items, i + 1)))
          return FALSE;
      return push (m, target);
    case 'e':     /* APPENDS */
    case 0x90:    /* ADDITEMS */
      target = top (m);
      if (target == NULL)
        return FALSE;
      if (target->kind != (op == 'e' ? GNN_PK_LIST : GNN_PK_SET))
        return fail (m, "%s adds to something that is not a %s", op == 'e' ? "APPENDS" : "ADDITEMS",
                     op == 'e' ? "list" : "set");
      for (guint i = 0; i < items->len; i++)
        if (!seq_add (m, target, g_ptr_array_index (items, i)))
          return FALSE;
      return TRUE;
    case 'u':   /* SETITEMS */
      target = top (m);
      if (target == NULL)
        return FALSE;
      if (target->kind != GNN_PK_DICT || items->len % 2 != 0)
        return fail (m, "SETITEMS sets items of something that is not a dict, or an odd number");
      for (guint i = 0; i < items->len; i += 2)
        if (!dict_set (m, target, g_ptr_array_index (items, i), g_ptr_array_index (items, i + 1)))
          return FALSE;
      return TRUE;
    default:   /* POP_MARK */
      return TRUE;
    }
}

static gboolean
op_global (Machine *m,
           gboolean stack)
{
  g_autofree char *module = NULL;
  g_autofree char *name = NULL;

  if (stack)
    {
      GnnPkValue *n = pop (m);
      GnnPkValue *mod = n != NULL ? pop (m) : NULL;

      if (mod == NULL)
        return FALSE;
      if (n->kind != GNN_PK_STR || mod->kind != GNN_PK_STR)
        return fail (m, "STACK_GLOBAL takes two strings");
      module = g_strdup (mod->v.str.data);
      name = g_strdup (n->v.str.data);
    }
  else
    {
      module = take_line (m);
      name = module != NULL ? take_line (m) : NULL;
      if (name == NULL)
        return FALSE;
    }
  return push (m, make_global (m, module, name));
}

static gboolean
step (Machine  *m,
      guint8    op,
      gboolean *stop)
{
  GnnPkValue *v, *k;
  guint64 n;

  switch (op)
    {
    case 0x80:  /* PROTO */
      if (!take_uint (m, 1, &n))
        return FALSE;
      if (n < 2 || n > 5)
        return fail (m, "protocol %" G_GUINT64_FORMAT " is not one of 2 to 5", n);
      return TRUE;
    case 0x95:  /* FRAME: a length hint */
      if (!take_uint (m, 8, &n))
        return FALSE;
      if (n > m->len - m->pos)
        return fail (m, "a frame of %" G_GUINT64_FORMAT " bytes runs past the end", n);
      return TRUE;
    case '.':   /* STOP */
      *stop = TRUE;
      return TRUE;
    case '(':   /* MARK */
      if (!charge (m, sizeof (guint)))
        return FALSE;
      n = m->stack->len;
      g_array_append_val (m->marks, n);
      return TRUE;
    case '0':   /* POP */
      return pop (m) != NULL;
    case '1':   /* POP_MARK */
    case 't': case 'l': case 'd': case 'e': case 'u': case 0x90: case 0x91:
      return op_from_mark (m, op);
    case '2':   /* DUP */
      v = top (m);
      return v != NULL && push (m, v);
    case 'N':
      return push (m, &none_value);
    case 0x88:  /* NEWTRUE */
      return push (m, &true_value);
    case 0x89:  /* NEWFALSE */
      return push (m, &false_value);
    case 'J':   /* BININT */
      if (!take_uint (m, 4, &n))
        return FALSE;
      return push (m, int_new (m, (gint32) (guint32) n));
    case 'K':   /* BININT1 */
    case 'M':   /* BININT2 */
      if (!take_uint (m, op == 'K' ? 1 : 2, &n))
        return FALSE;
      return push (m, int_new (m, (gint64) n));
    case 0x8a:  /* LONG1 */
    case 0x8b:  /* LONG4 */
      if (!take_uint (m, op == 0x8a ? 1 : 4, &n))
        return FALSE;
      return op_long (m, n);
    case 'G':   /* BINFLOAT, big-endian */
      {
        const guint8 *p = take (m, 8);
        guint64 bits = 0;

        if (p == NULL)
          return FALSE;
        for (guint i = 0; i < 8; i++)
          bits = (bits << 8) | p[i];
        v = value_new (m, GNN_PK_FLOAT);
        if (v != NULL)
          memcpy (&v->v.f, &bits, sizeof (double));
        return push (m, v);
      }
    case 'X':   /* BINUNICODE */
    case 0x8c:  /* SHORT_BINUNICODE */
    case 0x8d:  /* BINUNICODE8 */
      if (!take_uint (m, op == 'X' ? 4 : op == 0x8c ? 1 : 8, &n))
        return FALSE;
      return push (m, take_string (m, GNN_PK_STR, n));
    case 'B':   /* BINBYTES */
    case 'C':   /* SHORT_BINBYTES */
    case 0x8e:  /* BINBYTES8 */
    case 0x96:  /* BYTEARRAY8 */
    case 'T':   /* BINSTRING (Python 2 str) */
    case 'U':   /* SHORT_BINSTRING */
      if (!take_uint (m, (op == 'C' || op == 'U') ? 1 : (op == 'B' || op == 'T') ? 4 : 8, &n))
        return FALSE;
      return push (m, take_string (m, GNN_PK_BYTES, n));
    case ')':
      return push (m, seq_new (m, GNN_PK_TUPLE));
    case 0x85: case 0x86: case 0x87:   /* TUPLE1..3 */
      return op_tuple_n (m, op - 0x84);
    case ']':
      return push (m, seq_new (m, GNN_PK_LIST));
    case '}':
      return push (m, dict_new (m, FALSE));
    case 0x8f:  /* EMPTY_SET */
      return push (m, seq_new (m, GNN_PK_SET));
    case 'a':   /* APPEND */
      v = pop (m);
      k = v != NULL ? top (m) : NULL;
      if (k == NULL)
        return FALSE;
      if (k->kind != GNN_PK_LIST)
        return fail (m, "APPEND adds to something that is not a list");
      return seq_add (m, k, v);
    case 's':   /* SETITEM */
      v = pop (m);
      k = v != NULL ? pop (m) : NULL;
      if (k == NULL || top (m) == NULL)
        return FALSE;
      if (top (m)->kind != GNN_PK_DICT)
        return fail (m, "SETITEM sets an item of something that is not a dict");
      return dict_set (m, top (m), k, v);
    case 'h':   /* BINGET */
    case 'j':   /* LONG_BINGET */
      return take_uint (m, op == 'h' ? 1 : 4, &n) && memo_get (m, n);
    case 'q':   /* BINPUT */
    case 'r':   /* LONG_BINPUT */
      return take_uint (m, op == 'q' ? 1 : 4, &n) && memo_put (m, n, top (m));
    case 0x94:  /* MEMOIZE */
      return memo_put (m, g_hash_table_size (m->memo), top (m));
    case 'c':   /* GLOBAL */
      return op_global (m, FALSE);
    case 0x93:  /* STACK_GLOBAL */
      return op_global (m, TRUE);
    case 'R':
      return op_reduce (m);
    case 0x81:  /* NEWOBJ: cls.__new__(cls, *args) — Parameter only */
      {
        GnnPkValue *args = pop (m);
        GnnPkValue *cls = args != NULL ? pop (m) : NULL;

        if (cls == NULL)
          return FALSE;
        if (!is_global (cls, GNN_PK_GLOBAL_PARAMETER) && !is_global (cls, GNN_PK_GLOBAL_ORDERED_DICT))
          return fail (m, "NEWOBJ makes something other than a Parameter or an OrderedDict");
        if (args->kind != GNN_PK_TUPLE)
          return fail (m, "NEWOBJ's arguments are not a tuple");
        if (is_global (cls, GNN_PK_GLOBAL_ORDERED_DICT))
          return push (m, ordered_dict (m, args->v.items));
        return push (m, rebuild_parameter (m, args->v.items, 1, 2));
      }
    case 'b':
      return op_build (m);
    case 'Q':
      return op_persistent_id (m);
    default:
      {
        static const char *const named[][2] = {
          { "i", "INST" }, { "o", "OBJ" }, { "\x82", "EXT1" }, { "\x83", "EXT2" },
          { "\x84", "EXT4" }, { "\x92", "NEWOBJ_EX" }, { "P", "PERSID" }, { "\x97", "NEXT_BUFFER" },
          { "\x98", "READONLY_BUFFER" }, { "I", "INT" }, { "L", "LONG" }, { "F", "FLOAT" },
          { "S", "STRING" }, { "V", "UNICODE" }, { "g", "GET" }, { "p", "PUT" },
        };

        for (guint i = 0; i < G_N_ELEMENTS (named); i++)
          if ((guint8) named[i][0][0] == op)
            return fail (m, "opcode %s is not allowed", named[i][1]);
        return fail (m, "unknown opcode 0x%02x", op);
      }
    }
}

GnnPickle *
gnn_pickle_load (const guint8  *data,
                 gsize          len,
                 gsize          budget,
                 GError       **error)
{
  g_autoptr(GnnPickle) pickle = g_new0 (GnnPickle, 1);
  Machine m = { data, len, 0, budget, pickle, NULL, NULL, NULL, error };
  gboolean stop = FALSE, ok = TRUE;

  pickle->arena = g_ptr_array_new_with_free_func ((GDestroyNotify) value_free);
  m.stack = g_ptr_array_new ();
  m.marks = g_array_new (FALSE, FALSE, sizeof (guint));
  m.memo = g_hash_table_new (NULL, NULL);
  while (ok && !stop)
    {
      const guint8 *op = take (&m, 1);

      ok = op != NULL && step (&m, *op, &stop);
    }
  if (ok && (m.stack->len != 1 || m.marks->len != 0))
    ok = fail (&m, "STOP leaves %u values and %u marks on the stack instead of one value",
               m.stack->len, m.marks->len);
  if (ok)
    pickle->root = g_ptr_array_index (m.stack, 0);
  g_ptr_array_unref (m.stack);
  g_array_unref (m.marks);
  g_hash_table_unref (m.memo);
  if (!ok)
    {
      gnn_io_error_ensure_utf8 (error);
      return NULL;
    }
  return g_steal_pointer (&pickle);
}

void
gnn_pickle_free (GnnPickle *pickle)
{
  if (pickle == NULL)
    return;
  g_ptr_array_unref (pickle->arena);
  g_free (pickle);
}

GnnPkValue *
gnn_pickle_get_root (GnnPickle *pickle)
{
  return pickle->root;
}

guint
gnn_pickle_get_n_values (GnnPickle *pickle)
{
  return pickle->arena->len;
}
