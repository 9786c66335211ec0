/* gnn-tensor-format.c: PyTorch 1.13's repr() of tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* torch._tensor_str.PRINT_OPTS defaults. */
#define PRINT_PRECISION 4
#define PRINT_THRESHOLD 1000
#define PRINT_EDGEITEMS 3
#define PRINT_LINEWIDTH 80

/* The state of torch._tensor_str._Formatter, for one tensor. */
typedef struct
{
  gboolean floating;
  gboolean int_mode;
  gboolean sci_mode;
  gsize    max_width;
} Formatter;

/* What the printing walk needs about the tensor. */
typedef struct
{
  GnnTensorPrivate *p;
  const guint8     *base;       /* storage data at element 0 of the storage */
  gsize             elsize;
  gboolean          summarize;
  Formatter         fmt;
} Printer;

static const char *
torch_dtype_name (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "torch.float32";
    case GNN_DTYPE_F64: return "torch.float64";
    case GNN_DTYPE_F16: return "torch.float16";
    case GNN_DTYPE_BF16: return "torch.bfloat16";
    case GNN_DTYPE_I64: return "torch.int64";
    case GNN_DTYPE_I32: return "torch.int32";
    case GNN_DTYPE_I16: return "torch.int16";
    case GNN_DTYPE_I8: return "torch.int8";
    case GNN_DTYPE_U8: return "torch.uint8";
    case GNN_DTYPE_BOOL: return "torch.bool";
    default: return "torch.unknown";
    }
}

static gint64
read_integer (GnnDType      dtype,
              const guint8 *p)
{
  switch (dtype)
    {
    case GNN_DTYPE_I64: return *(const gint64 *) p;
    case GNN_DTYPE_I32: return *(const gint32 *) p;
    case GNN_DTYPE_I16: return *(const gint16 *) p;
    case GNN_DTYPE_I8: return *(const gint8 *) p;
    case GNN_DTYPE_U8: return *(const guint8 *) p;
    case GNN_DTYPE_BOOL: return *(const guint8 *) p != 0;
    default: return (gint64) gnn_dtype_read (dtype, p);
    }
}

/* Python's format of a float with the given spec ('e', 'f'), which prints
 * non-finite values as "nan", "inf" and "-inf" (never "-nan"). Locale
 * independent. Appends to @out. */
static void
append_py_float (GString *out,
                 double   value,
                 char     conv,
                 int      precision)
{
  char fmt[16];
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 400];

  if (isnan (value))
    {
      g_string_append (out, "nan");
      return;
    }
  if (isinf (value))
    {
      g_string_append (out, value < 0 ? "-inf" : "inf");
      return;
    }
  g_snprintf (fmt, sizeof fmt, "%%.%d%c", precision, conv);
  g_ascii_formatd (buf, sizeof buf, fmt, value);
  g_string_append (out, buf);
}

/* Formatter.format() without the padding. */
static void
append_value_raw (GString         *out,
                  const Formatter *f,
                  GnnDType         dtype,
                  const guint8    *ptr)
{
  if (f->floating)
    {
      double v = gnn_dtype_read (dtype, ptr);

      if (f->sci_mode)
        append_py_float (out, v, 'e', PRINT_PRECISION);
      else if (f->int_mode)
        {
          append_py_float (out, v, 'f', 0);
          if (isfinite (v))
            g_string_append_c (out, '.');
        }
      else
        append_py_float (out, v, 'f', PRINT_PRECISION);
    }
  else if (dtype == GNN_DTYPE_BOOL)
    g_string_append (out, *ptr ? "True" : "False");
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT, read_integer (dtype, ptr));
}

/* Formatter.format(): right-aligned to the formatter's width. */
static void
append_value (GString         *out,
              const Formatter *f,
              GnnDType         dtype,
              const guint8    *ptr)
{
  gsize start = out->len;
  gsize len;

  append_value_raw (out, f, dtype, ptr);
  len = out->len - start;
  if (len < f->max_width)
    {
      gsize pad = f->max_width - len;

      g_string_set_size (out, out->len + pad);
      memmove (out->str + start + pad, out->str + start, len);
      memset (out->str + start, ' ', pad);
    }
}

/* --- the formatter ------------------------------------------------------- */

/* Indices of dimension @d that the summary (torch's get_summarized_data)
 * keeps; fills @idx (at most 2 × edgeitems entries when summarizing). */
static gint64
kept_indices (Printer *pr,
              guint    d,
              gint64  *idx,
              gint64   capacity)
{
  gint64 n = pr->p->shape[d];
  gint64 k = 0;

  if (pr->summarize && n > 2 * PRINT_EDGEITEMS)
    {
      for (gint64 i = 0; i < PRINT_EDGEITEMS; i++)
        idx[k++] = i;
      for (gint64 i = n - PRINT_EDGEITEMS; i < n; i++)
        idx[k++] = i;
      return k;
    }
  for (gint64 i = 0; i < n && k < capacity; i++)
    idx[k++] = i;
  return k;
}

/* Calls @func on every element the formatter looks at (all of them, or
 * only the summary's when summarizing). */
typedef void (*ElementFunc) (const guint8 *ptr, gpointer user_data);

static void
foreach_kept_element (Printer     *pr,
                      ElementFunc  func,
                      gpointer     user_data)
{
  GnnTensorPrivate *p = pr->p;
  g_autofree gint64 *lists = NULL;
  gint64 counts[GNN_MAX_DIMS];
  gint64 pos[GNN_MAX_DIMS];
  gint64 cap = 0;

  if (p->ndim == 0)
    {
      func (pr->base + p->offset * (gint64) pr->elsize, user_data);
      return;
    }
  /* Without summarizing numel <= threshold, so every shape[d] is small;
   * with it, a kept list holds at most 2 × edgeitems indices. */
  for (guint d = 0; d < p->ndim; d++)
    cap = MAX (cap, pr->summarize ? MIN (p->shape[d], 2 * PRINT_EDGEITEMS) : p->shape[d]);
  cap = MAX (cap, 1);
  lists = g_new (gint64, (gsize) cap * p->ndim);
  for (guint d = 0; d < p->ndim; d++)
    {
      counts[d] = kept_indices (pr, d, lists + (gsize) cap * d, cap);
      if (counts[d] == 0)
        return;
      pos[d] = 0;
    }

  for (;;)
    {
      gint64 off = p->offset;
      gint d;

      for (guint e = 0; e < p->ndim; e++)
        off += lists[(gsize) cap * e + pos[e]] * p->strides[e];
      func (pr->base + off * (gint64) pr->elsize, user_data);

      for (d = (gint) p->ndim - 1; d >= 0; d--)
        {
          if (++pos[d] < counts[d])
            break;
          pos[d] = 0;
        }
      if (d < 0)
        break;
    }
}

typedef struct
{
  Printer *pr;
  gboolean any;
  double   min_abs;
  double   max_abs;
  gboolean int_mode;
  GString *scratch;
} FloatScan;

static void
scan_float (const guint8 *ptr,
            gpointer      user_data)
{
  FloatScan *s = user_data;
  double v = gnn_dtype_read (s->pr->p->dtype, ptr);
  double a;

  if (!isfinite (v) || v == 0.0)
    return;
  a = fabs (v);
  if (!s->any)
    {
      s->min_abs = s->max_abs = a;
      s->any = TRUE;
    }
  else
    {
      s->min_abs = MIN (s->min_abs, a);
      s->max_abs = MAX (s->max_abs, a);
    }
  if (v != ceil (v))
    s->int_mode = FALSE;
}

static void
measure_float (const guint8 *ptr,
               gpointer      user_data)
{
  FloatScan *s = user_data;
  Formatter *f = &s->pr->fmt;
  double v = gnn_dtype_read (s->pr->p->dtype, ptr);
  gsize len;

  if (!isfinite (v) || v == 0.0)
    return;
  g_string_truncate (s->scratch, 0);
  if (f->sci_mode)
    append_py_float (s->scratch, v, 'e', PRINT_PRECISION);
  else if (f->int_mode)
    append_py_float (s->scratch, v, 'f', 0);
  else
    append_py_float (s->scratch, v, 'f', PRINT_PRECISION);
  len = s->scratch->len + (!f->sci_mode && f->int_mode ? 1 : 0);
  f->max_width = MAX (f->max_width, len);
}

static void
measure_integer (const guint8 *ptr,
                 gpointer      user_data)
{
  FloatScan *s = user_data;
  Formatter *f = &s->pr->fmt;

  g_string_truncate (s->scratch, 0);
  append_value_raw (s->scratch, f, s->pr->p->dtype, ptr);
  f->max_width = MAX (f->max_width, s->scratch->len);
}

/* torch._tensor_str._Formatter.__init__ */
static void
formatter_init (Printer *pr)
{
  Formatter *f = &pr->fmt;
  g_autoptr(GString) scratch = g_string_new (NULL);
  FloatScan s = { pr, FALSE, 0.0, 0.0, TRUE, scratch };

  f->floating = gnn_dtype_is_floating (pr->p->dtype);
  f->int_mode = TRUE;
  f->sci_mode = FALSE;
  f->max_width = 1;

  if (!f->floating)
    {
      foreach_kept_element (pr, measure_integer, &s);
      return;
    }

  foreach_kept_element (pr, scan_float, &s);
  if (!s.any)
    return;
  f->int_mode = s.int_mode;
  if (s.max_abs / s.min_abs > 1000.0 || s.max_abs > 1.0e8 ||
      (!f->int_mode && s.min_abs < 1.0e-4))
    f->sci_mode = TRUE;
  foreach_kept_element (pr, measure_float, &s);
}

/* --- the layout ---------------------------------------------------------- */

static void
append_spaces (GString *out,
               gsize    n)
{
  for (gsize i = 0; i < n; i++)
    g_string_append_c (out, ' ');
}

/* torch._tensor_str._vector_str */
static void
append_vector (GString *out,
               Printer *pr,
               guint    d,
               gint64   offset,
               gsize    indent)
{
  GnnTensorPrivate *p = pr->p;
  gint64 n = p->shape[d];
  gsize element_length = pr->fmt.max_width + 2;
  gint64 per_line = 1;
  gboolean cut = pr->summarize && n > 2 * PRINT_EDGEITEMS;
  gint64 n_items = cut ? 2 * PRINT_EDGEITEMS + 1 : n;

  if (indent < PRINT_LINEWIDTH)
    per_line = MAX (1, (gint64) ((PRINT_LINEWIDTH - indent) / element_length));

  g_string_append_c (out, '[');
  for (gint64 k = 0; k < n_items; k++)
    {
      if (k > 0)
        {
          if (k % per_line == 0)
            {
              g_string_append (out, ",\n");
              append_spaces (out, indent + 1);
            }
          else
            g_string_append (out, ", ");
        }
      if (cut && k == PRINT_EDGEITEMS)
        g_string_append (out, " ...");
      else
        {
          gint64 i = k;

          if (cut && k > PRINT_EDGEITEMS)
            i = n - (n_items - k);
          append_value (out, &pr->fmt, p->dtype,
                        pr->base + (offset + i * p->strides[d]) * (gint64) pr->elsize);
        }
    }
  g_string_append_c (out, ']');
}

/* torch._tensor_str._tensor_str_with_formatter, for the sub-tensor made of
 * dimensions @d.. starting at element @offset. */
static void
append_tensor (GString *out,
               Printer *pr,
               guint    d,
               gint64   offset,
               gsize    indent)
{
  GnnTensorPrivate *p = pr->p;
  guint dim = p->ndim - d;
  gint64 n;
  gboolean cut;
  gint64 n_items;

  if (dim == 0)
    {
      append_value (out, &pr->fmt, p->dtype, pr->base + offset * (gint64) pr->elsize);
      return;
    }
  if (dim == 1)
    {
      append_vector (out, pr, d, offset, indent);
      return;
    }

  n = p->shape[d];
  cut = pr->summarize && n > 2 * PRINT_EDGEITEMS;
  n_items = cut ? 2 * PRINT_EDGEITEMS + 1 : n;
  g_string_append_c (out, '[');
  for (gint64 k = 0; k < n_items; k++)
    {
      if (k > 0)
        {
          g_string_append_c (out, ',');
          for (guint j = 0; j < dim - 1; j++)
            g_string_append_c (out, '\n');
          append_spaces (out, indent + 1);
        }
      if (cut && k == PRINT_EDGEITEMS)
        g_string_append (out, "...");
      else
        {
          gint64 i = k;

          if (cut && k > PRINT_EDGEITEMS)
            i = n - (n_items - k);
          append_tensor (out, pr, d + 1, offset + i * p->strides[d], indent + 1);
        }
    }
  g_string_append_c (out, ']');
}

/* torch._tensor_str._add_suffixes */
static void
add_suffixes (GString    *out,
              GPtrArray  *suffixes,
              gsize       indent)
{
  const char *nl = strrchr (out->str, '\n');
  gssize last_nl = nl ? (gssize) (nl - out->str) : -1;
  gsize last_line_len = (gsize) ((gssize) out->len - last_nl + 1);

  for (guint i = 0; i < suffixes->len; i++)
    {
      const char *suffix = g_ptr_array_index (suffixes, i);
      gsize suffix_len = strlen (suffix);

      if (last_line_len + suffix_len + 2 > PRINT_LINEWIDTH)
        {
          g_string_append (out, ",\n");
          append_spaces (out, indent);
          g_string_append (out, suffix);
          last_line_len = indent + suffix_len;
        }
      else
        {
          g_string_append (out, ", ");
          g_string_append (out, suffix);
          last_line_len += suffix_len + 2;
        }
    }
  g_string_append_c (out, ')');
}

/**
 * gnn_tensor_to_string:
 * @self: a #GnnTensor
 *
 * Formats @self exactly as PyTorch 1.13's `repr(tensor)` does with the
 * default print options: `tensor([[1., 2.],\n        [3., 4.]])`, 4 digits
 * of precision, scientific notation when the magnitudes call for it, lines
 * wrapped at 80 columns, the middle of tensors of more than 1000 elements
 * summarized with `...`, and the suffixes `dtype=torch.int32` (for dtypes
 * other than float32, int64 and bool), `size=(0, 3)` (for empty tensors)
 * and `requires_grad=True`. A [class@Gnn.Parameter] prints as
 * `Parameter containing:\ntensor(..., requires_grad=True)`. A meta tensor
 * prints as `tensor(..., device='meta', size=(8, 4))`.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
gnn_tensor_to_string (GnnTensor *self)
{
  const char *prefix = "tensor(";
  gsize indent = strlen (prefix);
  g_autoptr(GPtrArray) suffixes = NULL;
  GnnTensorPrivate *p;
  GString *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  suffixes = g_ptr_array_new_with_free_func (g_free);
  out = g_string_new (NULL);
  if (GNN_IS_PARAMETER (self))
    g_string_append (out, "Parameter containing:\n");
  g_string_append (out, prefix);

  if (gnn_tensor_priv_is_meta (p))
    {
      /* torch: "tensor(..., device='meta', size=(8, 4))" and dtype unless float32 */
      GString *size = g_string_new ("size=(");

      g_ptr_array_add (suffixes, g_strdup ("device='meta'"));
      for (guint d = 0; d < p->ndim; d++)
        g_string_append_printf (size, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT,
                                p->shape[d]);
      g_string_append (size, p->ndim == 1 ? ",)" : ")");
      g_ptr_array_add (suffixes, g_string_free (size, FALSE));
      if (p->dtype != GNN_DTYPE_F32)
        g_ptr_array_add (suffixes, g_strconcat ("dtype=", torch_dtype_name (p->dtype), NULL));
      g_string_append (out, "...");
    }
  else if (p->numel == 0)
    {
      if (p->ndim != 1)
        {
          GString *size = g_string_new ("size=(");

          for (guint d = 0; d < p->ndim; d++)
            g_string_append_printf (size, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT,
                                    p->shape[d]);
          g_string_append_c (size, ')');
          g_ptr_array_add (suffixes, g_string_free (size, FALSE));
        }
      if (p->dtype != GNN_DTYPE_F32)
        g_ptr_array_add (suffixes, g_strconcat ("dtype=", torch_dtype_name (p->dtype), NULL));
      g_string_append (out, "[]");
    }
  else
    {
      Printer pr = { 0, };

      if (p->dtype != GNN_DTYPE_F32 && p->dtype != GNN_DTYPE_I64 && p->dtype != GNN_DTYPE_BOOL)
        g_ptr_array_add (suffixes, g_strconcat ("dtype=", torch_dtype_name (p->dtype), NULL));

      pr.p = p;
      pr.base = p->storage->data;
      pr.elsize = gnn_dtype_get_size (p->dtype);
      pr.summarize = p->numel > PRINT_THRESHOLD;
      formatter_init (&pr);
      append_tensor (out, &pr, 0, p->offset, indent);
    }

  /* A tensor computed by a recorded op shows its node, like PyTorch. */
  if (p->grad_fn != NULL && gnn_tensor_grad_fn_name (self) != NULL)
    g_ptr_array_add (suffixes, g_strdup_printf ("grad_fn=<%s>", gnn_tensor_grad_fn_name (self)));
  else if (p->grad_fn == NULL && p->requires_grad)
    g_ptr_array_add (suffixes, g_strdup ("requires_grad=True"));

  add_suffixes (out, suffixes, indent);
  return g_string_free (out, FALSE);
}
