/* Sizes that overflow, memory that cannot be had, NULL arrays: each is a
 * GError (or, for a NULL array, a critical) and never a crash. Expected
 * messages are torch 1.13's where it has one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

#include "gnn-test-util.h"

/* Under ASan a failed huge allocation must return NULL, as libc's does. */
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "allocator_may_return_null=1";
}

#define F32 GNN_DTYPE_F32
#define HUGE_32 ((gint64) 1 << 32)

static GnnTensor *
zeros1 (gint64 n)
{
  return gnn_tensor_zeros ((gint64[]) { n }, 1, F32, NULL);
}

/* zeros(0).reshape(-1, 0) divided 0 by 0 (SIGFPE). */
static void
test_infer_zero_numel (void)
{
  g_autoptr(GnnTensor) z = zeros1 (0);
  const char *want = "cannot reshape tensor of 0 elements into shape [-1, 0] because the "
                     "unspecified dimension size -1 can be any value and is ambiguous";
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GnnTensor) r = gnn_tensor_reshape (z, (gint64[]) { -1, 0 }, 2, &e1);
  g_autoptr(GnnTensor) v = gnn_tensor_view (z, (gint64[]) { -1, 0 }, 2, &e2);
  g_autoptr(GnnTensor) ok = gnn_tensor_reshape (z, (gint64[]) { 3, 0 }, 2, NULL);

  g_assert_null (r);
  g_assert_null (v);
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_error (e2, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (e1->message, ==, want);
  g_assert_cmpstr (e2->message, ==, want);
  g_assert_nonnull (ok);
}

/* The product of the target sizes wraps: refused, not matched against 0. */
static void
test_reshape_size_overflow (void)
{
  g_autoptr(GnnTensor) z = zeros1 (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) r = gnn_tensor_reshape (z, (gint64[]) { HUGE_32, HUGE_32, 0 }, 3, &error);

  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "overflow"));
}

/* start + length wrapped past G_MAXINT64 and the view read out of bounds. */
static void
test_narrow_length_overflow (void)
{
  g_autoptr(GnnTensor) t = zeros1 (5);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) n = gnn_tensor_narrow (t, 0, 2, G_MAXINT64, &error);

  g_assert_null (n);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==,
                   "start (2) + length (9223372036854775807) exceeds dimension size (5).");
}

/* Shapes whose element count (or byte size) wraps past int64 are refused
 * wherever a shape is made: creation, expand, broadcasting, cat. */
static void
test_numel_overflow_everywhere (void)
{
  g_autoptr(GnnTensor) one = zeros1 (1);
  g_autoptr(GnnTensor) col_big = NULL;
  g_autoptr(GnnTensor) row_big = NULL;
  g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL, e5 = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_expand (one, (gint64[]) { HUGE_32, HUGE_32 }, 2, &e1);
  g_autoptr(GnnTensor) z = gnn_tensor_zeros ((gint64[]) { 0, HUGE_32, HUGE_32 }, 3, F32, &e2);
  g_autoptr(GnnTensor) b = gnn_tensor_empty ((gint64[]) { G_MAXINT64 / 2, 4 }, 2, GNN_DTYPE_U8, &e3);

  g_assert_null (x);
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_null (z);
  g_assert_error (e2, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_null (b);
  g_assert_error (e3, GNN_ERROR, GNN_ERROR_SHAPE);

  /* [2**31, 1] + [1, 2**33] broadcasts to 2**64 elements: zero-copy views */
  col_big = gnn_tensor_expand (one, (gint64[]) { (gint64) 1 << 31, 1 }, 2, NULL);
  row_big = gnn_tensor_expand (one, (gint64[]) { 1, (gint64) 1 << 33 }, 2, NULL);
  g_assert_nonnull (col_big);
  g_assert_nonnull (row_big);
  {
    g_autoptr(GnnTensor) s = gnn_tensor_add (col_big, row_big, &e4);
    g_assert_null (s);
    g_assert_error (e4, GNN_ERROR, GNN_ERROR_SHAPE);
  }
  /* cat along a dim whose total wraps */
  {
    g_autoptr(GnnTensor) big = gnn_tensor_expand (one, (gint64[]) { G_MAXINT64 / 8 }, 1, NULL);
    GnnTensor *parts[] = { big, big, big, big, big, big, big, big, big };
    g_autoptr(GnnTensor) c = gnn_tensor_cat (parts, G_N_ELEMENTS (parts), 0, &e5);

    g_assert_nonnull (big);
    g_assert_null (c);
    g_assert_error (e5, GNN_ERROR, GNN_ERROR_SHAPE);
  }
}

/* A value count whose byte size wraps to 4 must not pass as one float. */
static void
test_value_count_overflow (void)
{
  float v = 1.0f;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (&v, ((gsize) 1 << 62) + 1,
                                                       (gint64[]) { 1 }, 1, &error);

  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

/* A result that cannot be allocated is GNN_ERROR_MEMORY naming the bytes
 * and the shape; 2**62 bytes exceed any address space, overcommit or not. */
static void
test_out_of_memory_is_an_error (void)
{
  g_autoptr(GnnTensor) one = zeros1 (1);
  g_autoptr(GnnTensor) huge = gnn_tensor_expand (one, (gint64[]) { (gint64) 1 << 60 }, 1, NULL);
  g_autoptr(GnnTensor) mat = gnn_tensor_zeros ((gint64[]) { 1, 1, 1 }, 3, F32, NULL);
  g_autoptr(GnnTensor) batch = NULL;
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 1, 1 }, 2, F32, NULL);
  g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL;
  g_autoptr(GnnTensor) c = NULL;
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) r = NULL;
  g_autoptr(GnnTensor) m = NULL;
  gsize n = 99;

  g_assert_nonnull (huge);
  d = gnn_tensor_to_dtype (huge, GNN_DTYPE_I32, &e1);
  g_assert_null (d);
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_MEMORY);
  g_assert_cmpstr (e1->message, ==,
                   "cannot allocate 4611686018427387904 bytes for a tensor of shape "
                   "[1152921504606846976]");
  c = gnn_tensor_contiguous (huge);
  g_assert_null (c);
  g_assert_null (gnn_tensor_to_floats (huge, &n));
  g_assert_cmpuint (n, ==, 0);
  r = gnn_tensor_relu (huge, &e2);
  g_assert_null (r);
  g_assert_error (e2, GNN_ERROR, GNN_ERROR_MEMORY);

  /* batched matmul over a huge broadcast batch */
  batch = gnn_tensor_expand (mat, (gint64[]) { (gint64) 1 << 30, (gint64) 1 << 30, 1 }, 3, NULL);
  g_assert_nonnull (batch);
  m = gnn_tensor_matmul (batch, w, &e3);
  g_assert_null (m);
  g_assert_error (e3, GNN_ERROR, GNN_ERROR_MEMORY);
  g_assert_nonnull (strstr (e3->message, "[1073741824, 1073741824, 1]"));

  /* a reshape that must copy */
  {
    g_autoptr(GnnTensor) two = gnn_tensor_zeros ((gint64[]) { 2, 1 }, 2, F32, NULL);
    g_autoptr(GnnTensor) x = gnn_tensor_expand (two, (gint64[]) { 2, (gint64) 1 << 59 }, 2, NULL);
    g_autoptr(GnnTensor) t = gnn_tensor_transpose (x, 0, 1, NULL);
    g_autoptr(GnnTensor) flat = gnn_tensor_reshape (t, (gint64[]) { -1 }, 1, &e4);

    g_assert_null (flat);
    g_assert_error (e4, GNN_ERROR, GNN_ERROR_MEMORY);
  }
}

/* Ops that read a non-contiguous input make a packed copy first; when it
 * cannot be allocated (an expanded view can be far larger than its
 * storage) they fail with GNN_ERROR_MEMORY, not by reading NULL. The
 * results here are small; the copies (256 MB, 64 MB) exceed the capped
 * address space. */
static void
check_packed_copy_out_of_memory (gconstpointer data)
{
  g_autoptr(GnnTensor) one = gnn_tensor_zeros ((gint64[]) { 1, 1, 1, 1 }, 4, F32, NULL);
  g_autoptr(GnnTensor) image = gnn_tensor_expand (one, (gint64[]) { 1, 1, 8192, 8192 }, 4,
                                                  NULL);
  g_autoptr(GnnTensor) row = gnn_tensor_zeros ((gint64[]) { 1, 1024 }, 2, F32, NULL);
  g_autoptr(GnnTensor) table = gnn_tensor_expand (row, (gint64[]) { 16384, 1024 }, 2, NULL);
  g_autoptr(GnnTensor) ids = gnn_tensor_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) c = NULL;

  g_assert_nonnull (image);
  g_assert_nonnull (table);
  gnn_test_cap_address_space (32u << 20);
  a = gnn_tensor_max_pool2d (image, 64, 64, 64, 64, 0, 0, 1, 1, FALSE, &e1);
  g_assert_null (a);
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_MEMORY);
  b = gnn_tensor_avg_pool2d (image, 64, 64, 64, 64, 0, 0, FALSE, TRUE, 0, &e2);
  g_assert_null (b);
  g_assert_error (e2, GNN_ERROR, GNN_ERROR_MEMORY);
  c = gnn_tensor_embedding (table, ids, &e3);
  g_assert_null (c);
  g_assert_error (e3, GNN_ERROR, GNN_ERROR_MEMORY);
}

static void
test_packed_copy_out_of_memory (void)
{
  gnn_test_run_capped (check_packed_copy_out_of_memory, NULL);
}

/* copy_ from a view of the same elements (a detached view: loading a
 * module's own state dict) copies nothing and allocates no temporary: it
 * succeeds with the address space capped below the tensor's 64 MB. */
static void
check_copy_from_own_view (gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_ones ((gint64[]) { 4096, 4096 }, 2, F32, &error);
  g_autoptr(GnnTensor) view = NULL;

  g_assert_no_error (error);
  view = gnn_tensor_detach (t);
  gnn_test_cap_address_space (16u << 20);
  g_assert_true (gnn_tensor_copy_ (t, view, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_copy_ (t, t, &error));
  g_assert_cmpfloat (gnn_tensor_get_element (t, (gint64[]) { 4095, 4095 }, 2, NULL), ==, 1.0);
}

static void
test_copy_from_own_view (void)
{
  gnn_test_run_capped (check_copy_from_own_view, NULL);
}

/* NULL arrays with a non-zero length are programmer errors: a critical and
 * NULL/FALSE/0, never a segfault. */
static void
test_null_arrays (void)
{
  g_autoptr(GnnTensor) t = zeros1 (3);
  GError *error = NULL;

#define EXPECT_CRITICAL(call)                                                   \
  G_STMT_START {                                                                \
    g_test_expect_message ("Gnn", G_LOG_LEVEL_CRITICAL, "*assertion*failed*");  \
    call;                                                                       \
    g_test_assert_expected_messages ();                                         \
  } G_STMT_END

  EXPECT_CRITICAL (g_assert_null (gnn_tensor_new_wrap (NULL, 12, F32, (gint64[]) { 3 }, 1,
                                                       NULL, NULL, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_new_wrap ((gpointer) "abcdefghijkl", 12, F32, NULL, 1,
                                                       NULL, NULL, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_new_from_floats (NULL, 3, (gint64[]) { 3 }, 1, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_new_from_data (NULL, 4, F32, NULL, 0, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_zeros (NULL, 2, F32, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_full (NULL, 2, 1.0, F32, &error)));
  EXPECT_CRITICAL (g_assert_cmpfloat (gnn_tensor_get_element (t, NULL, 1, &error), ==, 0.0));
  EXPECT_CRITICAL (g_assert_false (gnn_tensor_set_element (t, NULL, 1, 1.0, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_permute (t, NULL, 1, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_view (t, NULL, 1, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_reshape (t, NULL, 1, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_expand (t, NULL, 1, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_sum (t, NULL, 1, FALSE, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_max (t, NULL, 1, FALSE, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_cat (NULL, 2, 0, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_matmul (t, NULL, &error)));
  EXPECT_CRITICAL (g_assert_null (gnn_tensor_add (NULL, t, &error)));
  EXPECT_CRITICAL (g_assert_cmpuint (gnn_generator_next_u64 (NULL), ==, 0));
  EXPECT_CRITICAL (g_assert_cmpfloat (gnn_generator_next_normal (NULL), ==, 0.0));
  g_assert_no_error (error);
#undef EXPECT_CRITICAL
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/limits/infer-zero-numel", test_infer_zero_numel);
  g_test_add_func ("/tensor/limits/reshape-size-overflow", test_reshape_size_overflow);
  g_test_add_func ("/tensor/limits/narrow-length-overflow", test_narrow_length_overflow);
  g_test_add_func ("/tensor/limits/numel-overflow", test_numel_overflow_everywhere);
  g_test_add_func ("/tensor/limits/value-count-overflow", test_value_count_overflow);
  g_test_add_func ("/tensor/limits/out-of-memory", test_out_of_memory_is_an_error);
  g_test_add_func ("/tensor/limits/packed-copy-out-of-memory", test_packed_copy_out_of_memory);
  g_test_add_func ("/tensor/limits/copy-from-own-view", test_copy_from_own_view);
  g_test_add_func ("/tensor/limits/null-arrays", test_null_arrays);
  return g_test_run ();
}
