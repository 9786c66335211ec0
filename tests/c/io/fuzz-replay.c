/* fuzz-replay: runs a libFuzzer harness over the files of a seed corpus
 * without libFuzzer, so that the normal and sanitizer builds replay the
 * corpora as tests (a crash or a failed check fails the test).
 *
 *   fuzz-replay-torch tests/io/torch-corpus
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GDir) dir = g_dir_open (argv[i], 0, &error);
      const char *name;

      if (dir == NULL)
        g_error ("%s", error->message);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (argv[i], name, NULL);
          g_autofree char *data = NULL;
          gsize len;

          if (!g_file_get_contents (path, &data, &len, &error))
            g_error ("%s", error->message);
          LLVMFuzzerTestOneInput ((const guint8 *) data, len);
          n++;
        }
    }
  g_print ("%u inputs replayed\n", n);
  return n > 0 ? 0 : 1;
}
