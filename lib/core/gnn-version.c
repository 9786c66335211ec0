/* gnn-version.c: the version of the library in use, at run time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The GNN_*_VERSION macros give the version a program was compiled
 * against; these functions the version of the libgnn-1.0 it runs with
 * (GTK's gtk_get_major_version() / gtk_check_version()).
 */
#include <gnn/gnn.h>

/**
 * gnn_get_major_version:
 *
 * Returns the major version of the Gnn library in use (for 0.1.0, 0),
 * which can differ from %GNN_MAJOR_VERSION, the version the program was
 * compiled against.
 *
 * Returns: the major version of the library
 *
 * Since: 0.1
 */
guint
gnn_get_major_version (void)
{
  return GNN_MAJOR_VERSION;
}

/**
 * gnn_get_minor_version:
 *
 * Returns the minor version of the Gnn library in use (for 0.1.0, 1).
 *
 * Returns: the minor version of the library
 *
 * Since: 0.1
 */
guint
gnn_get_minor_version (void)
{
  return GNN_MINOR_VERSION;
}

/**
 * gnn_get_micro_version:
 *
 * Returns the micro version of the Gnn library in use (for 0.1.0, 0).
 *
 * Returns: the micro version of the library
 *
 * Since: 0.1
 */
guint
gnn_get_micro_version (void)
{
  return GNN_MICRO_VERSION;
}

/**
 * gnn_check_version:
 * @required_major: the required major version
 * @required_minor: the required minor version
 * @required_micro: the required micro version
 *
 * Checks that the Gnn library in use is compatible with the given version:
 * same major version, and at least @required_major.@required_minor.@required_micro
 * (glib_check_version()'s rule). Pass %GNN_MAJOR_VERSION,
 * %GNN_MINOR_VERSION, %GNN_MICRO_VERSION to check that the library a
 * program runs with is the one it was compiled against or a later one.
 *
 * Returns: (nullable): %NULL when compatible, else a string describing the
 *   mismatch, owned by Gnn
 *
 * Since: 0.1
 */
const char *
gnn_check_version (guint required_major,
                   guint required_minor,
                   guint required_micro)
{
  guint64 have = ((guint64) GNN_MAJOR_VERSION << 32) | ((guint64) GNN_MINOR_VERSION << 16) |
                 GNN_MICRO_VERSION;
  guint64 want = ((guint64) required_major << 32) | ((guint64) MIN (required_minor, 0xffff) << 16) |
                 MIN (required_micro, 0xffff);

  if (required_major > GNN_MAJOR_VERSION)
    return "Gnn version too old (major mismatch)";
  if (required_major != GNN_MAJOR_VERSION)   /* older: != avoids "< 0" in series 0 */
    return "Gnn version too new (major mismatch)";
  if (want > have)
    return "Gnn version too old (micro mismatch)";
  return NULL;
}
