/* Every malformed file of tests/io/corpus fails to load, cleanly, with the
 * error substring listed in tests/io/corpus/EXPECTED. */
#include <string.h>

#include <gnn/gnn.h>

typedef struct
{
  char *path;
  char *expected;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->path);
  g_free (c->expected);
  g_free (c);
}

static void
test_corpus_file (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) copy_error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_state_dict_load (c->path, &error);
  g_autoptr(GnnStateDict) sd2 = gnn_state_dict_load_with_flags (c->path, GNN_LOAD_FLAGS_COPY,
                                                                &copy_error);

  g_assert_null (sd);
  g_assert_null (sd2);
  g_assert_nonnull (error);
  g_assert_true (error->domain == GNN_ERROR);
  if (strstr (error->message, c->expected) == NULL)
    g_error ("%s: expected \"%s\" in \"%s\"", c->path, c->expected, error->message);
  g_assert_true (g_str_has_prefix (error->message, c->path));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_cmpstr (copy_error->message, ==, error->message);
}

int
main (int argc, char *argv[])
{
  g_autofree char *dir = NULL;
  g_autofree char *list = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) cases = g_ptr_array_new_with_free_func (case_free);
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);

  dir = g_test_build_filename (G_TEST_DIST, "io", "corpus", NULL);
  list = g_build_filename (dir, "EXPECTED", NULL);
  if (!g_file_get_contents (list, &contents, NULL, &error))
    g_error ("%s", error->message);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;
      g_autofree char *file = NULL;
      g_autofree char *test_path = NULL;
      Case *c;

      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      fields = g_strsplit (lines[i], "\t", 2);
      g_assert_cmpuint (g_strv_length (fields), ==, 2);
      file = g_strconcat (fields[0], ".safetensors", NULL);
      c = g_new0 (Case, 1);
      c->path = g_build_filename (dir, file, NULL);
      c->expected = g_strdup (fields[1]);
      g_ptr_array_add (cases, c);
      test_path = g_strdup_printf ("/io/corpus/%s", fields[0]);
      g_test_add_data_func (test_path, c, test_corpus_file);
    }
  g_assert_cmpuint (cases->len, >=, 30);
  return g_test_run ();
}
