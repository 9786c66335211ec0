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
  double last;

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
  g_print ("hello-gnn %d.%d.%d: %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " %s, t[1][2] = %g\n",
           GNN_MAJOR_VERSION, GNN_MINOR_VERSION, GNN_MICRO_VERSION,
           gnn_tensor_get_size (t, 0, NULL), gnn_tensor_get_size (t, 1, NULL),
           gnn_dtype_get_name (gnn_tensor_get_dtype (t)), last);
  return 0;
}
