/* gnn-tensor-einsum.c: torch.einsum — the equation parsed into labels, the
 * operands contracted left to right as torch does: repeated labels become
 * diagonals, labels nobody needs later are summed out, and each pair is
 * one batched matrix product (permute + reshape + matmul on BLAS). Every
 * step is a recorded op, so the gradient comes with them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* 52 letters, then the dims an ellipsis stands for */
#define N_LETTERS 52
#define MAX_LABELS (N_LETTERS + GNN_MAX_DIMS)

static int
letter_label (char c)
{
  if (c >= 'a' && c <= 'z')
    return c - 'a';
  if (c >= 'A' && c <= 'Z')
    return 26 + (c - 'A');
  return -1;
}

/* A term: its letter labels in order, with the ellipsis position (-1: none). */
typedef struct
{
  int  labels[GNN_MAX_DIMS];
  guint n;
  int  ellipsis;       /* index in labels[] where the ellipsis dims go */
} Term;

static gboolean
parse_term (const char *s,
            gsize       len,
            Term       *t,
            GError    **error)
{
  t->n = 0;
  t->ellipsis = -1;
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == ' ')
        continue;
      if (s[i] == '.')
        {
          if (t->ellipsis >= 0 || i + 2 >= len || s[i + 1] != '.' || s[i + 2] != '.')
            {
              g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                   "einsum(): found '.' for operand that is not part of any "
                                   "ellipsis");
              return FALSE;
            }
          t->ellipsis = (int) t->n;
          i += 2;
          continue;
        }
      if (letter_label (s[i]) < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "einsum(): invalid subscript given at index %" G_GSIZE_FORMAT " in the "
                       "equation string, subscripts must be in [a-zA-Z]", i);
          return FALSE;
        }
      if (t->n >= GNN_MAX_DIMS)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "einsum(): too many subscripts");
          return FALSE;
        }
      t->labels[t->n++] = letter_label (s[i]);
    }
  return TRUE;
}

/* A tensor with one label per dim. */
typedef struct
{
  GnnTensor *t;
  int        labels[GNN_MAX_DIMS];
  guint      n;
} Labeled;

static gint
find_label (const Labeled *x,
            int            label)
{
  for (guint i = 0; i < x->n; i++)
    if (x->labels[i] == label)
      return (gint) i;
  return -1;
}

static gboolean
replace (Labeled   *x,
         GnnTensor *t)
{
  if (t == NULL)
    return FALSE;
  g_object_unref (x->t);
  x->t = t;
  return TRUE;
}

/* x->t permuted by @perm, unless that is the identity. */
static gboolean
permute_to (Labeled    *x,
            const gint *perm,
            guint       n,
            GError    **error)
{
  for (guint i = 0; i < n; i++)
    if (perm[i] != (gint) i)
      return replace (x, gnn_tensor_permute (x->t, perm, n, error));
  return TRUE;
}

/* x->t broadcast to @shape, unless it has it. */
static gboolean
expand_to (Labeled      *x,
           const gint64 *shape,
           guint         n,
           GError      **error)
{
  const gint64 *have = gnn_tensor_get_shape (x->t, NULL);

  if (gnn_tensor_get_ndim (x->t) == n && memcmp (have, shape, sizeof (gint64) * n) == 0)
    return TRUE;
  return replace (x, gnn_tensor_expand (x->t, shape, n, error));
}

/* Diagonals of repeated labels (ii -> i): the diagonal ends up last. */
static gboolean
merge_repeated (Labeled *x,
                GError **error)
{
  for (guint i = 0; i < x->n; i++)
    for (guint j = i + 1; j < x->n; j++)
      if (x->labels[i] == x->labels[j])
        {
          int label = x->labels[i];
          guint k = 0;

          if (!replace (x, gnn_tensor_diagonal (x->t, 0, (gint) i, (gint) j, error)))
            return FALSE;
          for (guint d = 0; d < x->n; d++)
            if (d != i && d != j)
              x->labels[k++] = x->labels[d];
          x->labels[k++] = label;
          x->n = k;
          return merge_repeated (x, error);
        }
  return TRUE;
}

/* Sums out the labels for which @keep is FALSE. */
static gboolean
sum_out (Labeled        *x,
         const gboolean *keep,
         GError        **error)
{
  gint dims[GNN_MAX_DIMS];
  guint n = 0, k = 0;

  for (guint d = 0; d < x->n; d++)
    if (!keep[x->labels[d]])
      dims[n++] = (gint) d;
  if (n == 0)
    return TRUE;
  if (!replace (x, gnn_tensor_sum (x->t, dims, n, FALSE, error)))
    return FALSE;
  for (guint d = 0; d < x->n; d++)
    if (keep[x->labels[d]])
      x->labels[k++] = x->labels[d];
  x->n = k;
  return TRUE;
}

/* Permutes @x to the labels @order (all of its labels), then reshapes into
 * the groups of sizes @groups (n_groups entries, each a product). */
static gboolean
arrange (Labeled     *x,
         const int   *order,
         guint        n_order,
         const gint64 *sizes,
         const guint *group_len,
         guint        n_groups,
         GError     **error)
{
  gint perm[GNN_MAX_DIMS] = { 0 };
  gint64 shape[GNN_MAX_DIMS];
  guint at = 0;

  for (guint i = 0; i < n_order; i++)
    perm[i] = find_label (x, order[i]);
  if (!permute_to (x, perm, n_order, error))
    return FALSE;
  /* size-1 dims stand for the label's full size (broadcasting) */
  {
    gint64 full[GNN_MAX_DIMS];

    for (guint i = 0; i < n_order; i++)
      full[i] = sizes[order[i]];
    if (!expand_to (x, full, n_order, error))
      return FALSE;
  }
  for (guint g = 0; g < n_groups; g++)
    {
      shape[g] = 1;
      for (guint i = 0; i < group_len[g]; i++)
        shape[g] *= sizes[order[at++]];
    }
  memcpy (x->labels, order, sizeof (int) * n_order);
  x->n = n_order;
  if (gnn_tensor_get_ndim (x->t) == n_groups &&
      memcmp (gnn_tensor_get_shape (x->t, NULL), shape, sizeof (gint64) * n_groups) == 0)
    return TRUE;
  return replace (x, gnn_tensor_reshape (x->t, shape, n_groups, error));
}

/* @a := a ⊗ b over their labels: shared labels needed later are batch dims,
 * shared ones not needed are contracted, the rest stay. */
static gboolean
contract_pair (Labeled        *a,
               Labeled        *b,
               const gboolean *needed,
               const gint64   *sizes,
               GError        **error)
{
  int batch[MAX_LABELS], con[MAX_LABELS], aonly[MAX_LABELS], bonly[MAX_LABELS];
  int order_a[GNN_MAX_DIMS], order_b[GNN_MAX_DIMS], out_labels[GNN_MAX_DIMS];
  guint nb = 0, nc = 0, na = 0, nbo = 0, k = 0;
  gint64 out_shape[GNN_MAX_DIMS];

  for (guint i = 0; i < a->n; i++)
    {
      int l = a->labels[i];

      if (find_label (b, l) >= 0)
        {
          if (needed[l])
            batch[nb++] = l;
          else
            con[nc++] = l;
        }
      else
        aonly[na++] = l;
    }
  for (guint i = 0; i < b->n; i++)
    if (find_label (a, b->labels[i]) < 0)
      bonly[nbo++] = b->labels[i];
  if (nb + na + nbo > GNN_MAX_DIMS)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "einsum(): too many dimensions");
      return FALSE;
    }
  memcpy (order_a, batch, sizeof (int) * nb);
  memcpy (order_a + nb, aonly, sizeof (int) * na);
  memcpy (order_a + nb + na, con, sizeof (int) * nc);
  memcpy (order_b, batch, sizeof (int) * nb);
  memcpy (order_b + nb, con, sizeof (int) * nc);
  memcpy (order_b + nb + nc, bonly, sizeof (int) * nbo);
  if (!arrange (a, order_a, nb + na + nc, sizes, (guint[]) { nb, na, nc }, 3, error) ||
      !arrange (b, order_b, nb + nc + nbo, sizes, (guint[]) { nb, nc, nbo }, 3, error) ||
      !replace (a, gnn_tensor_matmul (a->t, b->t, error)))
    return FALSE;
  for (guint i = 0; i < nb; i++)
    out_labels[k++] = batch[i];
  for (guint i = 0; i < na; i++)
    out_labels[k++] = aonly[i];
  for (guint i = 0; i < nbo; i++)
    out_labels[k++] = bonly[i];
  for (guint i = 0; i < k; i++)
    out_shape[i] = sizes[out_labels[i]];
  memcpy (a->labels, out_labels, sizeof (int) * k);
  a->n = k;
  return replace (a, gnn_tensor_reshape (a->t, out_shape, k, error));
}

/* Splits "lhs[->rhs]" into terms; the implicit output when there is no rhs. */
static gboolean
parse_equation (const char *equation,
                GPtrArray  *lhs,
                Term       *rhs,
                gboolean   *explicit_out,
                GError    **error)
{
  const char *arrow = strstr (equation, "->");
  const char *end = arrow != NULL ? arrow : equation + strlen (equation);
  const char *p = equation;

  while (TRUE)
    {
      const char *comma = memchr (p, ',', (gsize) (end - p));
      const char *stop = comma != NULL ? comma : end;
      Term *t = g_new0 (Term, 1);

      g_ptr_array_add (lhs, t);
      if (!parse_term (p, (gsize) (stop - p), t, error))
        return FALSE;
      if (comma == NULL)
        break;
      p = comma + 1;
    }
  *explicit_out = arrow != NULL;
  if (arrow != NULL)
    return parse_term (arrow + 2, strlen (arrow + 2), rhs, error);
  return TRUE;
}

/**
 * gnn_tensor_einsum:
 * @equation: the subscripts, like "ij,jk->ik", "bij,bjk->bik", "ii->i" or
 *   "...ij,...jk" (implicit output: the labels used once, sorted, after
 *   the ellipsis dims)
 * @operands: (array length=n_operands): the tensors, one per term, of one dtype
 * @n_operands: the number of tensors
 * @error: return location for a #GError
 *
 * Einstein summation (like `torch.einsum (equation, *operands)`):
 * repeated subscripts within a term take a diagonal, subscripts absent
 * from the output are summed; size-1 dims broadcast. Contracted left to
 * right through batched matrix products, differentiable.
 *
 * Returns: (transfer full): the result, or %NULL with @error set (torch's
 *   messages for a malformed equation or mismatched sizes)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_einsum (const char  *equation,
                   GnnTensor  **operands,
                   guint        n_operands,
                   GError     **error)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func (g_free);
  Term out_term = { { 0 }, 0, -1 };
  gboolean explicit_out = FALSE;
  gint64 sizes[MAX_LABELS];
  guint count[MAX_LABELS] = { 0 };
  gboolean in_output[MAX_LABELS] = { FALSE };
  int output[MAX_LABELS];
  guint n_output = 0, ell = 0;
  Labeled *xs;
  GnnTensor *result = NULL;

  g_return_val_if_fail (equation != NULL, NULL);
  g_return_val_if_fail (operands != NULL || n_operands == 0, NULL);
  if (!parse_equation (equation, terms, &out_term, &explicit_out, error))
    return NULL;
  if (terms->len != n_operands)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "einsum(): %s operands were "
                   "provided than specified in the equation",
                   n_operands > terms->len ? "more" : "fewer");
      return NULL;
    }
  if (n_operands == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "einsum(): must provide at least one operand");
      return NULL;
    }

  /* the ellipsis covers the most dims any operand leaves to it */
  for (guint i = 0; i < n_operands; i++)
    {
      Term *t = g_ptr_array_index (terms, i);
      guint nd = gnn_tensor_get_ndim (operands[i]);

      if (t->ellipsis < 0 ? nd != t->n : nd < t->n)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       t->ellipsis < 0
                       ? "einsum(): the number of subscripts in the equation (%u) does not match "
                         "the number of dimensions (%u) for operand %u and no ellipsis was given"
                       : "einsum(): the number of subscripts in the equation (%u) is more than "
                         "the number of dimensions (%u) for operand %u", t->n, nd, i);
          return NULL;
        }
      if (t->ellipsis >= 0)
        ell = MAX (ell, nd - t->n);
    }

  for (guint l = 0; l < MAX_LABELS; l++)
    sizes[l] = 1;
  xs = g_new0 (Labeled, n_operands);
  for (guint i = 0; i < n_operands; i++)
    {
      Term *t = g_ptr_array_index (terms, i);
      guint nd = gnn_tensor_get_ndim (operands[i]), e = t->ellipsis >= 0 ? nd - t->n : 0;
      const gint64 *shape = gnn_tensor_get_shape (operands[i], NULL);
      guint k = 0;

      xs[i].t = g_object_ref (operands[i]);
      for (guint j = 0; j <= t->n; j++)
        {
          if ((int) j == t->ellipsis)
            for (guint q = 0; q < e; q++)
              xs[i].labels[k++] = N_LETTERS + (int) (ell - e + q);
          if (j < t->n)
            xs[i].labels[k++] = t->labels[j];
        }
      xs[i].n = k;
      for (guint d = 0; d < k; d++)
        {
          int l = xs[i].labels[d];

          if (shape[d] != 1 && sizes[l] != 1 && shape[d] != sizes[l])
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "einsum(): subscript %c has size %" G_GINT64_FORMAT " for operand %u "
                           "which does not broadcast with previously seen size %" G_GINT64_FORMAT,
                           l < 26 ? 'a' + l : l < N_LETTERS ? 'A' + l - 26 : '.', shape[d], i,
                           sizes[l]);
              goto out;
            }
          if (shape[d] != 1)
            sizes[l] = shape[d];
          count[l]++;
        }
    }

  /* the output labels */
  if (explicit_out)
    {
      for (guint j = 0; j <= out_term.n; j++)
        {
          if ((int) j == out_term.ellipsis)
            for (guint q = 0; q < ell; q++)
              output[n_output++] = N_LETTERS + (int) q;
          if (j < out_term.n)
            {
              int l = out_term.labels[j];

              if (count[l] == 0)
                {
                  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "einsum(): output subscript %c does not appear in the equation "
                               "for any input operand", l < 26 ? 'a' + l : 'A' + l - 26);
                  goto out;
                }
              if (in_output[l])
                {
                  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "einsum(): output subscript %c appears more than once in the "
                               "output", l < 26 ? 'a' + l : 'A' + l - 26);
                  goto out;
                }
              in_output[l] = TRUE;
              output[n_output++] = l;
            }
        }
      if (out_term.ellipsis < 0)
        for (guint q = 0; q < ell; q++)
          in_output[N_LETTERS + q] = FALSE;
    }
  else
    {
      for (guint q = 0; q < ell; q++)
        output[n_output++] = N_LETTERS + (int) q;
      for (int l = 0; l < N_LETTERS; l++)
        if (count[l] == 1)
          output[n_output++] = l;
    }
  for (guint i = 0; i < n_output; i++)
    in_output[output[i]] = TRUE;

  for (guint i = 0; i < n_operands; i++)
    if (!merge_repeated (&xs[i], error))
      goto out;

  /* left to right: labels needed later are the output's and the rest's */
  for (guint i = 0; i < n_operands; i++)
    {
      gboolean needed[MAX_LABELS];

      memcpy (needed, in_output, sizeof needed);
      for (guint j = i + 1; j < n_operands; j++)
        for (guint d = 0; d < xs[j].n; d++)
          needed[xs[j].labels[d]] = TRUE;
      if (i == 0)
        {
          /* keep what the next operand shares, too */
          gboolean keep[MAX_LABELS];

          memcpy (keep, needed, sizeof keep);
          if (n_operands > 1)
            for (guint d = 0; d < xs[1].n; d++)
              keep[xs[1].labels[d]] = TRUE;
          if (!sum_out (&xs[0], keep, error))
            goto out;
          continue;
        }
      {
        gboolean keep[MAX_LABELS];

        memcpy (keep, needed, sizeof keep);
        for (guint d = 0; d < xs[0].n; d++)
          keep[xs[0].labels[d]] = TRUE;
        if (!sum_out (&xs[i], keep, error) ||
            !contract_pair (&xs[0], &xs[i], needed, sizes, error))
          goto out;
      }
    }

  /* the remaining labels in the output's order */
  if (!sum_out (&xs[0], in_output, error))
    goto out;
  {
    gint perm[GNN_MAX_DIMS];
    gint64 full[GNN_MAX_DIMS];

    for (guint i = 0; i < n_output; i++)
      {
        perm[i] = find_label (&xs[0], output[i]);
        full[i] = sizes[output[i]];
      }
    if (!permute_to (&xs[0], perm, n_output, error) || !expand_to (&xs[0], full, n_output, error))
      goto out;
  }
  result = g_object_ref (xs[0].t);

out:
  for (guint i = 0; i < n_operands; i++)
    g_clear_object (&xs[i].t);
  g_free (xs);
  return result;
}
