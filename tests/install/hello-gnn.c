/* hello-gnn.c: the smallest out-of-tree Gnn program, built by the install
 * test against the installed headers, pkg-config file and library.
 *
 *   cc hello-gnn.c $(pkg-config --cflags --libs gnn-1.0) -o hello-gnn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

int
main (void)
{
  const float values[] = { 1, 2, 3, 4, 5, 6 };
  const gint64 shape[] = { 2, 3 };
  const gint64 index[] = { 1, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = NULL;
  g_autofree char *text = NULL;
  const char *mismatch;
  double last;

  /* the library it runs with is the one it was built against, or newer */
  mismatch = gnn_check_version (GNN_MAJOR_VERSION, GNN_MINOR_VERSION, GNN_MICRO_VERSION);
  if (mismatch != NULL)
    {
      g_printerr ("hello-gnn: %s\n", mismatch);
      return 1;
    }

  t = gnn_tensor_new_from_floats (values, G_N_ELEMENTS (values), shape, 2, &error);
  if (t == NULL)
    {
      g_printerr ("hello-gnn: %s\n", error->message);
      return 1;
    }

  last = gnn_tensor_get_element (t, index, 2, &error);
  if (error != NULL)
    {
      g_printerr ("hello-gnn: %s\n", error->message);
      return 1;
    }

  text = gnn_tensor_to_string (t);
  g_print ("%s\n", text);
  g_print ("hello-gnn %u.%u.%u: %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " %s, t[1][2] = %g\n",
           gnn_get_major_version (), gnn_get_minor_version (), gnn_get_micro_version (),
           gnn_tensor_get_size (t, 0, NULL), gnn_tensor_get_size (t, 1, NULL),
           gnn_dtype_get_name (gnn_tensor_get_dtype (t)), last);
  return 0;
}
