/* test-core-version.c: the runtime version query and the version macros
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

static void
test_runtime_matches_compile_time (void)
{
  g_autofree char *joined = g_strdup_printf ("%u.%u.%u", gnn_get_major_version (),
                                             gnn_get_minor_version (), gnn_get_micro_version ());

  g_assert_cmpuint (gnn_get_major_version (), ==, GNN_MAJOR_VERSION);
  g_assert_cmpuint (gnn_get_minor_version (), ==, GNN_MINOR_VERSION);
  g_assert_cmpuint (gnn_get_micro_version (), ==, GNN_MICRO_VERSION);
  g_assert_cmpstr (joined, ==, GNN_VERSION_S);
}

static void
test_check_version (void)
{
  guint major = gnn_get_major_version (), minor = gnn_get_minor_version ();
  guint micro = gnn_get_micro_version ();

  g_assert_null (gnn_check_version (major, minor, micro));
  g_assert_null (gnn_check_version (GNN_MAJOR_VERSION, GNN_MINOR_VERSION, GNN_MICRO_VERSION));
  g_assert_true (GNN_CHECK_VERSION (GNN_MAJOR_VERSION, GNN_MINOR_VERSION, GNN_MICRO_VERSION));
  /* an older release of the same series is satisfied */
  if (minor > 0)
    g_assert_null (gnn_check_version (major, minor - 1, 99));
  g_assert_null (gnn_check_version (major, 0, 0));
  /* newer ones are not, and say why */
  g_assert_cmpstr (gnn_check_version (major, minor, micro + 1), ==,
                   "Gnn version too old (micro mismatch)");
  g_assert_cmpstr (gnn_check_version (major, minor + 1, 0), ==,
                   "Gnn version too old (micro mismatch)");
  g_assert_cmpstr (gnn_check_version (major + 1, 0, 0), ==,
                   "Gnn version too old (major mismatch)");
  g_assert_false (GNN_CHECK_VERSION (GNN_MAJOR_VERSION, GNN_MINOR_VERSION, GNN_MICRO_VERSION + 1));
  /* another major series is incompatible in both directions */
  if (major > 0)
    g_assert_cmpstr (gnn_check_version (major - 1, 0, 0), ==,
                     "Gnn version too new (major mismatch)");
  /* huge minors do not wrap into a smaller number */
  g_assert_nonnull (gnn_check_version (major, G_MAXUINT, 0));
}

static void
test_version_macros (void)
{
  g_assert_cmpint (GNN_VERSION_CUR_STABLE, ==,
                   GNN_ENCODE_VERSION (GNN_MAJOR_VERSION, GNN_MINOR_VERSION));
  g_assert_cmpint (GNN_ENCODE_VERSION (0, 1), ==, G_ENCODE_VERSION (0, 1));
  g_assert_cmpint (GNN_VERSION_0_1, ==, GNN_ENCODE_VERSION (0, 1));
  /* by default the program requires and may use the current series */
  g_assert_cmpint (GNN_VERSION_MIN_REQUIRED, ==, GNN_VERSION_CUR_STABLE);
  g_assert_cmpint (GNN_VERSION_MAX_ALLOWED, ==, GNN_VERSION_CUR_STABLE);
  g_assert_cmpint (GNN_VERSION_0_1, <=, GNN_VERSION_CUR_STABLE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/version/runtime-matches-compile-time", test_runtime_matches_compile_time);
  g_test_add_func ("/core/version/check-version", test_check_version);
  g_test_add_func ("/core/version/macros", test_version_macros);
  return g_test_run ();
}
