/* test-autograd-reduce.c: gradient checks of the reductions, scans and
 * index-based ops: prod (with zeros), var/std, logsumexp, norms, max/min
 * along a dim, sort, topk, cumsum, cumprod (with zeros), gather, scatter,
 * scatter_add, index_add/copy/fill, kthvalue, median/nanmedian (along a dim
 * and over all elements).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

#define E error

static GnnTensor *
index_of (const gint64 *v,
          gsize         n,
          const gint64 *shape,
          guint         ndim)
{
  return gnn_tensor_new_from_int64s (v, n, shape, ndim, NULL);
}

/* zero one element: products and scans through an exact zero */
static GnnTensor *
with_zero (GnnTensor *x,
           GError   **E)
{
  g_autoptr(GnnTensor) mask = gnn_tensor_zeros (gnn_tensor_get_shape (x, NULL),
                                                gnn_tensor_get_ndim (x), GNN_DTYPE_BOOL, NULL);
  g_autoptr(GnnTensor) zero = gnn_tensor_new_wrapped_number (0);

  ((guint8 *) gnn_tensor_get_data (mask))[1] = 1;
  return gnn_tensor_masked_fill (x, mask, zero, E);
}

static GnnTensor *b_prod_all (GnnTensor **in, GError **E) { return gnn_tensor_prod (in[0], NULL, 0, FALSE, E); }
static GnnTensor *b_prod_dim (GnnTensor **in, GError **E) { return gnn_tensor_prod (in[0], (gint[]) { 1 }, 1, TRUE, E); }
static GnnTensor *
b_prod_zero (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) z = with_zero (in[0], E);

  return gnn_tensor_prod (z, (gint[]) { -1 }, 1, FALSE, E);
}
static GnnTensor *b_var (GnnTensor **in, GError **E) { return gnn_tensor_var (in[0], (gint[]) { 1 }, 1, 1, FALSE, E); }
static GnnTensor *b_var_all (GnnTensor **in, GError **E) { return gnn_tensor_var (in[0], NULL, 0, 0, FALSE, E); }
static GnnTensor *b_std (GnnTensor **in, GError **E) { return gnn_tensor_std (in[0], (gint[]) { 0 }, 1, 1, TRUE, E); }
static GnnTensor *
b_var_mean (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) mean = NULL;
  g_autoptr(GnnTensor) var = gnn_tensor_var_mean (in[0], (gint[]) { 1 }, 1, 1, FALSE, &mean, E);

  return var != NULL ? gnn_tensor_add (var, mean, E) : NULL;
}
static GnnTensor *b_logsumexp (GnnTensor **in, GError **E) { return gnn_tensor_logsumexp (in[0], (gint[]) { 1 }, 1, FALSE, E); }
static GnnTensor *b_norm2 (GnnTensor **in, GError **E) { return gnn_tensor_norm (in[0], 2, NULL, 0, FALSE, E); }
static GnnTensor *b_norm1 (GnnTensor **in, GError **E) { return gnn_tensor_norm (in[0], 1, (gint[]) { 1 }, 1, FALSE, E); }
static GnnTensor *b_norm3 (GnnTensor **in, GError **E) { return gnn_tensor_norm (in[0], 3, (gint[]) { 0 }, 1, TRUE, E); }
static GnnTensor *b_norm_half (GnnTensor **in, GError **E) { return gnn_tensor_vector_norm (in[0], 0.5, (gint[]) { 1 }, 1, FALSE, E); }
static GnnTensor *b_norm_inf (GnnTensor **in, GError **E) { return gnn_tensor_vector_norm (in[0], INFINITY, (gint[]) { 1 }, 1, FALSE, E); }
static GnnTensor *b_max_dim (GnnTensor **in, GError **E) { return gnn_tensor_max_dim (in[0], 1, FALSE, NULL, E); }
static GnnTensor *b_min_dim (GnnTensor **in, GError **E) { return gnn_tensor_min_dim (in[0], 0, TRUE, NULL, E); }
static GnnTensor *b_sort (GnnTensor **in, GError **E) { return gnn_tensor_sort (in[0], 1, TRUE, FALSE, NULL, E); }
static GnnTensor *b_topk (GnnTensor **in, GError **E) { return gnn_tensor_topk (in[0], 2, 0, TRUE, TRUE, NULL, E); }
static GnnTensor *b_cumsum (GnnTensor **in, GError **E) { return gnn_tensor_cumsum (in[0], 1, E); }
static GnnTensor *b_cumsum0 (GnnTensor **in, GError **E) { return gnn_tensor_cumsum (in[0], 0, E); }
static GnnTensor *b_cumprod (GnnTensor **in, GError **E) { return gnn_tensor_cumprod (in[0], -1, E); }
static GnnTensor *
b_cumprod_zero (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) z = with_zero (in[0], E);

  return gnn_tensor_cumprod (z, 1, E);
}
static GnnTensor *
b_gather (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = index_of ((gint64[]) { 0, 2, 2, 1, 3, 3 }, 6, SHAPE (3, 2));

  return gnn_tensor_gather (in[0], 1, idx, E);
}
static GnnTensor *
b_scatter (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = index_of ((gint64[]) { 0, 2, 1, 3, 3, 0 }, 6, SHAPE (3, 2));

  return gnn_tensor_scatter (in[0], 1, idx, in[1], E);
}
static GnnTensor *
b_scatter_add (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = index_of ((gint64[]) { 0, 0, 1, 3, 3, 3 }, 6, SHAPE (3, 2));

  return gnn_tensor_scatter_add (in[0], 1, idx, in[1], E);
}
static GnnTensor *
b_index_add (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = index_of ((gint64[]) { 2, 0, 2 }, 3, SHAPE (3));

  return gnn_tensor_index_add (in[0], 1, idx, in[1], -1.5, E);
}
static GnnTensor *
b_index_copy (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = index_of ((gint64[]) { 3, 1 }, 2, SHAPE (2));

  return gnn_tensor_index_copy (in[0], 1, idx, in[1], E);
}
static GnnTensor *
b_index_fill (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = index_of ((gint64[]) { 0, 2 }, 2, SHAPE (2));

  return gnn_tensor_index_fill (in[0], 0, idx, in[1], E);
}
static GnnTensor *b_kthvalue (GnnTensor **in, GError **E) { return gnn_tensor_kthvalue (in[0], 2, 1, FALSE, NULL, E); }
static GnnTensor *b_median_dim (GnnTensor **in, GError **E) { return gnn_tensor_median_dim (in[0], 0, TRUE, NULL, E); }
static GnnTensor *b_nanmedian_dim (GnnTensor **in, GError **E) { return gnn_tensor_nanmedian_dim (in[0], -1, FALSE, NULL, E); }
static GnnTensor *b_median (GnnTensor **in, GError **E) { return gnn_tensor_median (in[0], E); }
static GnnTensor *b_nanmedian (GnnTensor **in, GError **E) { return gnn_tensor_nanmedian (in[0], E); }
#undef E

static const Case cases[] = {
  { "prod/all", b_prod_all, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "prod/dim", b_prod_dim, 1, { { 2, 3, 2 } }, { 3 }, { 0 } },
  { "prod/zero", b_prod_zero, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "var/dim", b_var, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "var/all", b_var_all, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "std/keepdim", b_std, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "var-mean", b_var_mean, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "logsumexp", b_logsumexp, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "norm/2", b_norm2, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "norm/1", b_norm1, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "norm/3", b_norm3, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "norm/half", b_norm_half, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "norm/inf", b_norm_inf, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "max-dim", b_max_dim, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "min-dim", b_min_dim, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "sort", b_sort, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "topk", b_topk, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "cumsum/last", b_cumsum, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "cumsum/first", b_cumsum0, 1, { { 3, 4, 2 } }, { 3 }, { 0 } },
  { "cumprod", b_cumprod, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "cumprod/zero", b_cumprod_zero, 1, { { 2, 4 } }, { 2 }, { 0 } },
  { "gather", b_gather, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "scatter", b_scatter, 2, { { 3, 4 }, { 3, 3 } }, { 2, 2 }, { 0, 0 } },
  { "scatter-add", b_scatter_add, 2, { { 3, 4 }, { 3, 2 } }, { 2, 2 }, { 0, 0 } },
  { "index-add", b_index_add, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 0 } },
  { "index-copy", b_index_copy, 2, { { 2, 4 }, { 2, 2 } }, { 2, 2 }, { 0, 0 } },
  { "index-fill", b_index_fill, 2, { { 3, 4 }, { } }, { 2, 0 }, { 0, 0 } },
  { "kthvalue", b_kthvalue, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "median/dim", b_median_dim, 1, { { 5, 3 } }, { 2 }, { 0 } },
  { "nanmedian/dim", b_nanmedian_dim, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "median/all", b_median, 1, { { 3, 3 } }, { 2 }, { 0 } },
  { "nanmedian/all", b_nanmedian, 1, { { 2, 4 } }, { 2 }, { 0 } },
};

/* torch's values on a fixed input (values from torch 1.13). */
static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_doubles ((double[]) { 3, NAN, -1, 2, 2, -5 }, 6,
                                                        SHAPE (2, 3), NULL);
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) sorted = gnn_tensor_sort (x, 1, FALSE, FALSE, &idx, &error);
  g_autoptr(GnnTensor) top_idx = NULL;
  g_autoptr(GnnTensor) top = gnn_tensor_topk (x, 1, 1, TRUE, TRUE, &top_idx, &error);
  g_autoptr(GnnTensor) max_idx = NULL;
  g_autoptr(GnnTensor) max = gnn_tensor_max_dim (x, 1, FALSE, &max_idx, &error);
  g_autoptr(GnnTensor) cs = gnn_tensor_cumsum (x, 1, &error);

  g_assert_no_error (error);
  gnn_test_assert_values (sorted, (double[]) { -1, 3, NAN, -5, 2, 2 }, 6, 0);
  gnn_test_assert_values (idx, (double[]) { 2, 0, 1, 2, 0, 1 }, 6, 0);
  gnn_test_assert_values (top, (double[]) { NAN, 2 }, 2, 0);
  gnn_test_assert_values (top_idx, (double[]) { 1, 0 }, 2, 0);
  gnn_test_assert_values (max, (double[]) { NAN, 2 }, 2, 0);
  gnn_test_assert_values (max_idx, (double[]) { 1, 0 }, 2, 0);
  gnn_test_assert_values (cs, (double[]) { 3, NAN, NAN, 2, 4, -1 }, 6, 0);
}

/* torch's messages. */
static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (SHAPE (2, 3), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) i = gnn_tensor_zeros (SHAPE (2, 3), GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) big = index_of ((gint64[]) { 5 }, 1, SHAPE (1, 1));
  g_autoptr(GnnTensor) flat = index_of ((gint64[]) { 0 }, 1, SHAPE (1));

  g_assert_null (gnn_tensor_kthvalue (x, 4, 1, FALSE, NULL, &error));
  g_assert_cmpstr (error->message, ==, "kthvalue(): selected number k out of range for dimension 1");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_gather (x, 1, big, &error));
  g_assert_cmpstr (error->message, ==, "index 5 is out of bounds for dimension 1 with size 3");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_gather (x, 1, flat, &error));
  g_assert_cmpstr (error->message, ==,
                   "Index tensor must have the same number of dimensions as input tensor");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_gather (x, 2, big, &error));
  g_assert_cmpstr (error->message, ==,
                   "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_topk (x, 4, 1, TRUE, TRUE, NULL, &error));
  g_assert_cmpstr (error->message, ==, "selected index k out of range");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_var (i, NULL, 0, 1, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "std and var only support floating point and complex dtypes");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_norm (i, 2, NULL, 0, FALSE, &error));
  g_assert_cmpstr (error->message, ==,
                   "norm(): input dtype should be either floating point or complex. Got Long instead.");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/autograd/gradcheck/%s", cases[i].path);

      g_test_add_data_func (path, &cases[i], test_gradcheck);
    }
  g_test_add_func ("/tensor/reduce-index/values", test_values);
  g_test_add_func ("/tensor/reduce-index/errors", test_errors);
  return g_test_run ();
}
