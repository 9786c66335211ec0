/* gnn-pickle.c: a restricted unpickler for torch's checkpoints — a stack
 * machine over pickle's binary opcodes (protocols 2 to 5) that builds
 * values and never calls, imports or runs anything
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "io/gnn-io-private.h"
#include "io/gnn-pickle-machine-private.h"

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

static GnnPkValue none_value = { GNN_PK_NONE, { 0 } };
static GnnPkValue true_value = { GNN_PK_BOOL, { .b = TRUE } };
static GnnPkValue false_value = { GNN_PK_BOOL, { .b = FALSE } };

/* --- errors and the budget ----------------------------------------------------- */

gboolean
gnn_pickle_fail (GnnPickleMachine *m,
                 const char       *format,
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

gboolean
gnn_pickle_charge (GnnPickleMachine *m,
                   gsize             bytes)
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
    case GNN_PK_NDARRAY:
      g_free (v->v.array);
      break;
    default:
      break;
    }
  g_free (v);
}

GnnPkValue *
gnn_pickle_value_new (GnnPickleMachine *m,
                      GnnPkKind         kind)
{
  GnnPkValue *v;

  if (!gnn_pickle_charge (m, sizeof (GnnPkValue) + sizeof (gpointer)))
    return NULL;
  v = g_new0 (GnnPkValue, 1);
  v->kind = kind;
  g_ptr_array_add (m->pickle->arena, v);
  return v;
}

/* What a GPtrArray costs before its items. */
#define ARRAY_COST (4 * sizeof (gpointer))

GnnPkValue *
gnn_pickle_seq_new (GnnPickleMachine *m,
                    GnnPkKind         kind)
{
  GnnPkValue *v = gnn_pickle_charge (m, ARRAY_COST) ? gnn_pickle_value_new (m, kind) : NULL;

  if (v != NULL)
    v->v.items = g_ptr_array_new ();
  return v;
}

GnnPkValue *
gnn_pickle_dict_new (GnnPickleMachine *m,
                     gboolean          ordered)
{
  GnnPkValue *v = gnn_pickle_charge (m, 2 * ARRAY_COST) ? gnn_pickle_value_new (m, GNN_PK_DICT) : NULL;

  if (v != NULL)
    {
      v->v.dict.keys = g_ptr_array_new ();
      v->v.dict.values = g_ptr_array_new ();
      v->v.dict.ordered = ordered;
    }
  return v;
}

gboolean
gnn_pickle_seq_add (GnnPickleMachine *m,
                    GnnPkValue       *seq,
                    GnnPkValue       *item)
{
  if (!gnn_pickle_charge (m, sizeof (gpointer)))
    return FALSE;
  g_ptr_array_add (seq->v.items, item);
  return TRUE;
}

gboolean
gnn_pickle_dict_set (GnnPickleMachine *m,
                     GnnPkValue       *dict,
                     GnnPkValue       *key,
                     GnnPkValue       *value)
{
  if (!gnn_pickle_charge (m, 2 * sizeof (gpointer)))
    return FALSE;
  g_ptr_array_add (dict->v.dict.keys, key);
  g_ptr_array_add (dict->v.dict.values, value);
  return TRUE;
}

GnnPkValue *
gnn_pickle_tensor_new (GnnPickleMachine *m)
{
  GnnPkValue *v = gnn_pickle_charge (m, sizeof (GnnPkTensor)) ? gnn_pickle_value_new (m, GNN_PK_TENSOR) : NULL;

  if (v != NULL)
    v->v.tensor = g_new0 (GnnPkTensor, 1);
  return v;
}

static GnnPkValue *
int_new (GnnPickleMachine *m,
         gint64            i)
{
  GnnPkValue *v = gnn_pickle_value_new (m, GNN_PK_INT);

  if (v != NULL)
    v->v.i = i;
  return v;
}

/* --- reading ---------------------------------------------------------------------- */

static const guint8 *
take (GnnPickleMachine *m,
      gsize             n)
{
  const guint8 *p;

  if (n > m->len - m->pos)
    {
      gnn_pickle_fail (m, "it ends in the middle of an opcode (needs %" G_GSIZE_FORMAT " more bytes, has %"
            G_GSIZE_FORMAT ")", n, m->len - m->pos);
      return NULL;
    }
  p = m->data + m->pos;
  m->pos += n;
  return p;
}

static gboolean
take_uint (GnnPickleMachine *m,
           gsize             n,
           guint64          *out)
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
take_string (GnnPickleMachine *m,
             GnnPkKind         kind,
             guint64           n)
{
  const guint8 *p;
  GnnPkValue *v;

  if (n > m->len - m->pos)
    {
      gnn_pickle_fail (m, "a string of %" G_GUINT64_FORMAT " bytes runs past the end", n);
      return NULL;
    }
  if (!gnn_pickle_charge (m, n + 1))
    return NULL;
  p = take (m, n);
  if (kind == GNN_PK_STR && !utf8_validate_with_nul ((const char *) p, n))
    {
      gnn_pickle_fail (m, "a string is not valid UTF-8");
      return NULL;
    }
  v = gnn_pickle_value_new (m, kind);
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
take_line (GnnPickleMachine *m)
{
  const guint8 *start = m->data + m->pos;
  const guint8 *end = memchr (start, '\n', MIN (m->len - m->pos, MAX_GLOBAL_NAME + 1));

  if (end == NULL)
    {
      gnn_pickle_fail (m, "a GLOBAL name is unterminated or longer than %d bytes", MAX_GLOBAL_NAME);
      return NULL;
    }
  m->pos += end - start + 1;
  return g_strndup ((const char *) start, end - start);
}

/* --- the stack ------------------------------------------------------------------ */

static guint
stack_base (GnnPickleMachine *m)
{
  return m->marks->len > 0 ? g_array_index (m->marks, guint, m->marks->len - 1) : 0;
}

gboolean
gnn_pickle_push (GnnPickleMachine *m,
                 GnnPkValue       *v)
{
  if (v == NULL || !gnn_pickle_charge (m, sizeof (gpointer)))
    return FALSE;
  g_ptr_array_add (m->stack, v);
  return TRUE;
}

GnnPkValue *
gnn_pickle_pop (GnnPickleMachine *m)
{
  if (m->stack->len <= stack_base (m))
    {
      gnn_pickle_fail (m, "an opcode pops an empty stack");
      return NULL;
    }
  return g_ptr_array_steal_index (m->stack, m->stack->len - 1);
}

GnnPkValue *
gnn_pickle_top (GnnPickleMachine *m)
{
  if (m->stack->len <= stack_base (m))
    {
      gnn_pickle_fail (m, "an opcode reads an empty stack");
      return NULL;
    }
  return g_ptr_array_index (m->stack, m->stack->len - 1);
}

/* The items since the last MARK, removed from the stack (caller frees). */
static GPtrArray *
pop_mark (GnnPickleMachine *m)
{
  GPtrArray *items;
  guint base;

  if (m->marks->len == 0)
    {
      gnn_pickle_fail (m, "an opcode needs a MARK and there is none");
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
tuple_of (GnnPickleMachine  *m,
          GnnPkValue       **items,
          guint              n)
{
  GnnPkValue *t = gnn_pickle_seq_new (m, GNN_PK_TUPLE);

  for (guint i = 0; t != NULL && i < n; i++)
    if (!gnn_pickle_seq_add (m, t, items[i]))
      return NULL;
  return t;
}

/* --- the machine ------------------------------------------------------------------- */

static gboolean
memo_put (GnnPickleMachine *m,
          guint64           index,
          GnnPkValue       *v)
{
  if (v == NULL)
    return FALSE;
  if (index >= MAX_MEMO)
    return gnn_pickle_fail (m, "a memo index %" G_GUINT64_FORMAT " is beyond the limit of %u", index, MAX_MEMO);
  if (!g_hash_table_contains (m->memo, GUINT_TO_POINTER ((guint) index)) &&
      !gnn_pickle_charge (m, 4 * sizeof (gpointer)))
    return FALSE;
  g_hash_table_insert (m->memo, GUINT_TO_POINTER ((guint) index), v);
  return TRUE;
}

static gboolean
memo_get (GnnPickleMachine *m,
          guint64           index)
{
  GnnPkValue *v = index < MAX_MEMO ? g_hash_table_lookup (m->memo, GUINT_TO_POINTER ((guint) index))
                                   : NULL;

  if (v == NULL)
    return gnn_pickle_fail (m, "memo entry %" G_GUINT64_FORMAT " was never set", index);
  return gnn_pickle_push (m, v);
}

/* LONG1 / LONG4: little-endian two's complement; Gnn keeps int64. */
static gboolean
op_long (GnnPickleMachine *m,
         guint64           n)
{
  const guint8 *p;
  guint64 u = 0;
  gint64 value;

  if (n > 8)
    {
      /* Python writes the shortest form, but a longer one with the same
       * value (sign extension) is still valid */
      if (n > m->len - m->pos)
        return gnn_pickle_fail (m, "a LONG of %" G_GUINT64_FORMAT " bytes runs past the end", n);
      p = m->data + m->pos;
      for (guint64 i = 8; i < n; i++)
        if (p[i] != ((p[7] & 0x80) ? 0xff : 0x00))
          return gnn_pickle_fail (m, "an integer does not fit in 64 bits");
    }
  p = take (m, n);
  if (p == NULL)
    return FALSE;
  for (guint64 i = MIN (n, 8); i > 0; i--)
    u = (u << 8) | p[i - 1];
  if (n > 0 && n < 8 && (p[n - 1] & 0x80))
    u |= G_MAXUINT64 << (8 * n);
  value = (gint64) u;
  return gnn_pickle_push (m, int_new (m, value));
}

static gboolean
op_tuple_n (GnnPickleMachine *m,
            guint             n)
{
  GnnPkValue *items[3];

  if (m->stack->len < stack_base (m) + n)
    return gnn_pickle_fail (m, "TUPLE%u needs %u items on the stack", n, n);
  for (guint i = 0; i < n; i++)
    items[i] = g_ptr_array_index (m->stack, m->stack->len - n + i);
  g_ptr_array_set_size (m->stack, m->stack->len - n);
  return gnn_pickle_push (m, tuple_of (m, items, n));
}

static gboolean
op_from_mark (GnnPickleMachine *m,
              guint8            op)
{
  g_autoptr(GPtrArray) items = pop_mark (m);
  GnnPkValue *target;

  if (items == NULL)
    return FALSE;
  switch (op)
    {
    case 't':   /* TUPLE */
      return gnn_pickle_push (m, tuple_of (m, (GnnPkValue **) items->pdata, items->len));
    case 'l':   /* LIST */
    case 0x91:  /* FROZENSET */
      target = gnn_pickle_seq_new (m, op == 'l' ? GNN_PK_LIST : GNN_PK_SET);
      for (guint i = 0; target != NULL && i < items->len; i++)
        if (!gnn_pickle_seq_add (m, target, g_ptr_array_index (items, i)))
          return FALSE;
      return gnn_pickle_push (m, target);
    case 'd':   /* DICT */
      if (items->len % 2 != 0)
        return gnn_pickle_fail (m, "DICT has an odd number of items");
      target = gnn_pickle_dict_new (m, FALSE);
      for (guint i = 0; target != NULL && i < items->len; i += 2)
        if (!gnn_pickle_dict_set (m, target, g_ptr_array_index (items, i), g_ptr_array_index (items, i + 1)))
          return FALSE;
      return gnn_pickle_push (m, target);
    case 'e':     /* APPENDS */
    case 0x90:    /* ADDITEMS */
      target = gnn_pickle_top (m);
      if (target == NULL)
        return FALSE;
      if (target->kind != (op == 'e' ? GNN_PK_LIST : GNN_PK_SET))
        return gnn_pickle_fail (m, "%s adds to something that is not a %s", op == 'e' ? "APPENDS" : "ADDITEMS",
                     op == 'e' ? "list" : "set");
      for (guint i = 0; i < items->len; i++)
        if (!gnn_pickle_seq_add (m, target, g_ptr_array_index (items, i)))
          return FALSE;
      return TRUE;
    case 'u':   /* SETITEMS */
      target = gnn_pickle_top (m);
      if (target == NULL)
        return FALSE;
      if (target->kind != GNN_PK_DICT || items->len % 2 != 0)
        return gnn_pickle_fail (m, "SETITEMS sets items of something that is not a dict, or an odd number");
      for (guint i = 0; i < items->len; i += 2)
        if (!gnn_pickle_dict_set (m, target, g_ptr_array_index (items, i), g_ptr_array_index (items, i + 1)))
          return FALSE;
      return TRUE;
    default:   /* POP_MARK */
      return TRUE;
    }
}

static gboolean
op_global (GnnPickleMachine *m,
           gboolean          stack)
{
  g_autofree char *module = NULL;
  g_autofree char *name = NULL;

  if (stack)
    {
      GnnPkValue *n = gnn_pickle_pop (m);
      GnnPkValue *mod = n != NULL ? gnn_pickle_pop (m) : NULL;

      if (mod == NULL)
        return FALSE;
      if (n->kind != GNN_PK_STR || mod->kind != GNN_PK_STR)
        return gnn_pickle_fail (m, "STACK_GLOBAL takes two strings");
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
  return gnn_pickle_push (m, gnn_pickle_make_global (m, module, name));
}

static gboolean
step (GnnPickleMachine *m,
      guint8            op,
      gboolean         *stop)
{
  GnnPkValue *v, *k;
  guint64 n;

  switch (op)
    {
    case 0x80:  /* PROTO */
      if (!take_uint (m, 1, &n))
        return FALSE;
      if (n < 2 || n > 5)
        return gnn_pickle_fail (m, "protocol %" G_GUINT64_FORMAT " is not one of 2 to 5", n);
      return TRUE;
    case 0x95:  /* FRAME: a length hint */
      if (!take_uint (m, 8, &n))
        return FALSE;
      if (n > m->len - m->pos)
        return gnn_pickle_fail (m, "a frame of %" G_GUINT64_FORMAT " bytes runs past the end", n);
      return TRUE;
    case '.':   /* STOP */
      *stop = TRUE;
      return TRUE;
    case '(':   /* MARK */
      if (!gnn_pickle_charge (m, sizeof (guint)))
        return FALSE;
      n = m->stack->len;
      g_array_append_val (m->marks, n);
      return TRUE;
    case '0':   /* POP */
      return gnn_pickle_pop (m) != NULL;
    case '1':   /* POP_MARK */
    case 't': case 'l': case 'd': case 'e': case 'u': case 0x90: case 0x91:
      return op_from_mark (m, op);
    case '2':   /* DUP */
      v = gnn_pickle_top (m);
      return v != NULL && gnn_pickle_push (m, v);
    case 'N':
      return gnn_pickle_push (m, &none_value);
    case 0x88:  /* NEWTRUE */
      return gnn_pickle_push (m, &true_value);
    case 0x89:  /* NEWFALSE */
      return gnn_pickle_push (m, &false_value);
    case 'J':   /* BININT */
      if (!take_uint (m, 4, &n))
        return FALSE;
      return gnn_pickle_push (m, int_new (m, (gint32) (guint32) n));
    case 'K':   /* BININT1 */
    case 'M':   /* BININT2 */
      if (!take_uint (m, op == 'K' ? 1 : 2, &n))
        return FALSE;
      return gnn_pickle_push (m, int_new (m, (gint64) n));
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
        v = gnn_pickle_value_new (m, GNN_PK_FLOAT);
        if (v != NULL)
          memcpy (&v->v.f, &bits, sizeof (double));
        return gnn_pickle_push (m, v);
      }
    case 'X':   /* BINUNICODE */
    case 0x8c:  /* SHORT_BINUNICODE */
    case 0x8d:  /* BINUNICODE8 */
      if (!take_uint (m, op == 'X' ? 4 : op == 0x8c ? 1 : 8, &n))
        return FALSE;
      return gnn_pickle_push (m, take_string (m, GNN_PK_STR, n));
    case 'B':   /* BINBYTES */
    case 'C':   /* SHORT_BINBYTES */
    case 0x8e:  /* BINBYTES8 */
    case 0x96:  /* BYTEARRAY8 */
    case 'T':   /* BINSTRING (Python 2 str) */
    case 'U':   /* SHORT_BINSTRING */
      if (!take_uint (m, (op == 'C' || op == 'U') ? 1 : (op == 'B' || op == 'T') ? 4 : 8, &n))
        return FALSE;
      return gnn_pickle_push (m, take_string (m, GNN_PK_BYTES, n));
    case ')':
      return gnn_pickle_push (m, gnn_pickle_seq_new (m, GNN_PK_TUPLE));
    case 0x85: case 0x86: case 0x87:   /* TUPLE1..3 */
      return op_tuple_n (m, op - 0x84);
    case ']':
      return gnn_pickle_push (m, gnn_pickle_seq_new (m, GNN_PK_LIST));
    case '}':
      return gnn_pickle_push (m, gnn_pickle_dict_new (m, FALSE));
    case 0x8f:  /* EMPTY_SET */
      return gnn_pickle_push (m, gnn_pickle_seq_new (m, GNN_PK_SET));
    case 'a':   /* APPEND */
      v = gnn_pickle_pop (m);
      k = v != NULL ? gnn_pickle_top (m) : NULL;
      if (k == NULL)
        return FALSE;
      if (k->kind != GNN_PK_LIST)
        return gnn_pickle_fail (m, "APPEND adds to something that is not a list");
      return gnn_pickle_seq_add (m, k, v);
    case 's':   /* SETITEM */
      v = gnn_pickle_pop (m);
      k = v != NULL ? gnn_pickle_pop (m) : NULL;
      if (k == NULL || gnn_pickle_top (m) == NULL)
        return FALSE;
      if (gnn_pickle_top (m)->kind != GNN_PK_DICT)
        return gnn_pickle_fail (m, "SETITEM sets an item of something that is not a dict");
      return gnn_pickle_dict_set (m, gnn_pickle_top (m), k, v);
    case 'h':   /* BINGET */
    case 'j':   /* LONG_BINGET */
      return take_uint (m, op == 'h' ? 1 : 4, &n) && memo_get (m, n);
    case 'q':   /* BINPUT */
    case 'r':   /* LONG_BINPUT */
      return take_uint (m, op == 'q' ? 1 : 4, &n) && memo_put (m, n, gnn_pickle_top (m));
    case 0x94:  /* MEMOIZE */
      return memo_put (m, g_hash_table_size (m->memo), gnn_pickle_top (m));
    case 'c':   /* GLOBAL */
      return op_global (m, FALSE);
    case 0x93:  /* STACK_GLOBAL */
      return op_global (m, TRUE);
    case 'R':
      return gnn_pickle_op_reduce (m);
    case 0x81:  /* NEWOBJ: cls.__new__(cls, *args) */
      return gnn_pickle_op_newobj (m);
    case 'b':
      return gnn_pickle_op_build (m);
    case 'Q':
      return gnn_pickle_op_persistent_id (m);
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
            return gnn_pickle_fail (m, "opcode %s is not allowed", named[i][1]);
        return gnn_pickle_fail (m, "unknown opcode 0x%02x", op);
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
  GnnPickleMachine m = { data, len, 0, budget, pickle, NULL, NULL, NULL, error };
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
    ok = gnn_pickle_fail (&m, "STOP leaves %u values and %u marks on the stack instead of one value",
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
