/* test-tensor-cache.c: freed large tensors wait in the cache for reuse;
 * gnn_empty_cache () returns them, gnn_set_cache_limit () caps the cache
 * (0 turns it off) and a lowered cap frees what is beyond it at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

#include "gnn-test-util.h"

#define MIB ((guint64) 1 << 20)

/* A float32 tensor of @mib MiB. */
static GnnTensor *
alloc (gint64 mib)
{
  GnnTensor *t = gnn_tensor_zeros ((gint64[]) { mib, 1 << 18 }, 2, GNN_DTYPE_F32, NULL);

  g_assert_nonnull (t);
  return t;
}

static void
alloc_and_free (gint64 mib)
{
  g_object_unref (alloc (mib));
}

static void
test_empty_cache (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("the cache is off under AddressSanitizer");
#else
  g_assert_cmpuint (gnn_get_cache_limit (), ==, 512 * MIB);
  gnn_empty_cache ();
  g_assert_cmpuint (gnn_get_cache_size (), ==, 0);
  alloc_and_free (8);
  g_assert_cmpuint (gnn_get_cache_size (), >=, 8 * MIB);
  /* the same size again reuses the block: the cache does not grow */
  alloc_and_free (8);
  g_assert_cmpuint (gnn_get_cache_size (), <, 16 * MIB);
  gnn_empty_cache ();
  g_assert_cmpuint (gnn_get_cache_size (), ==, 0);
#endif
}

static void
test_cache_limit (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("the cache is off under AddressSanitizer");
#else
  GnnTensor *a, *b;

  gnn_empty_cache ();
  /* (a miss frees cached blocks first: both are alive at once) */
  a = alloc (8);
  b = alloc (10);
  g_object_unref (a);
  g_object_unref (b);
  g_assert_cmpuint (gnn_get_cache_size (), >=, 18 * MIB);
  /* lowering the cap frees the oldest blocks beyond it now */
  gnn_set_cache_limit (12 * MIB);
  g_assert_cmpuint (gnn_get_cache_limit (), ==, 12 * MIB);
  g_assert_cmpuint (gnn_get_cache_size (), <=, 12 * MIB);
  /* a block over a quarter of the cap is never kept */
  gnn_empty_cache ();
  alloc_and_free (4);
  g_assert_cmpuint (gnn_get_cache_size (), ==, 0);
  gnn_set_cache_limit (0);
  alloc_and_free (1 + 4);
  g_assert_cmpuint (gnn_get_cache_size (), ==, 0);
  gnn_set_cache_limit (512 * MIB);
  alloc_and_free (6);
  g_assert_cmpuint (gnn_get_cache_size (), >=, 6 * MIB);
  gnn_empty_cache ();
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/cache/empty", test_empty_cache);
  g_test_add_func ("/tensor/cache/limit", test_cache_limit);
  return g_test_run ();
}
