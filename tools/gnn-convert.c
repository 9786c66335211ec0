/* gnn-convert: PyTorch weights + a Gnn architecture → a Gnn model file
 *
 *   gnn-convert --arch ARCH WEIGHTS -o OUT.safetensors
 *
 * ARCH is a Gnn model file (its weights are not used) or the JSON of its
 * "gnn.model" metadata; WEIGHTS is a file of torch.save (a state dict, or a
 * checkpoint holding one: --key model. picks the tensors under "model." and
 * strips the prefix; --key module. undoes DataParallel's) or a safetensors
 * file. The weights must fit the architecture exactly (strict loading: the
 * error lists missing and unexpected keys and shape mismatches). Nothing
 * needs Python; for a whole torch module (a .pt of torch.save(model)), see
 * `python3 -m gnn.convert`, which writes the architecture from the module.
 *
 * Exit status 0 on success, 1 on a bad file, 2 on bad usage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <locale.h>
#include <string.h>

#include <gio/gio.h>
#include <gnn/gnn.h>

static gboolean
is_zip (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  guint8 magic[4] = { 0 };

  if (stream != NULL)
    g_input_stream_read_all (G_INPUT_STREAM (stream), magic, 4, NULL, NULL, NULL);
  return memcmp (magic, "PK\x03\x04", 4) == 0;
}

/* The "gnn.model" text of ARCH: a model file's metadata or a JSON file. */
static char *
read_architecture (const char  *path,
                   GError     **error)
{
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GError) local_error = NULL;
  char *text = NULL;
  gsize len;

  sd = gnn_state_dict_load (path, &local_error);
  if (sd != NULL)
    {
      const char *model = gnn_state_dict_get_metadata (sd, "gnn.model");

      if (model == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                     "%s: not a model file (a state dict has no architecture)", path);
      return g_strdup (model);
    }
  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  if (strlen (text) != len || len == 0 || text[0] != '{')
    {
      g_free (text);
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: neither a model file nor the JSON of a \"gnn.model\" description "
                   "(%s)", path, local_error->message);
      return NULL;
    }
  return text;
}

/* The tensors of @sd under @prefix, without it. */
static GnnStateDict *
select_prefix (GnnStateDict *sd,
               const char   *prefix)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  GnnStateDict *out = gnn_state_dict_new ();

  for (guint i = 0; keys[i] != NULL; i++)
    if (g_str_has_prefix (keys[i], prefix))
      gnn_state_dict_insert (out, keys[i] + strlen (prefix), gnn_state_dict_lookup (sd, keys[i]));
  return out;
}

int
main (int argc, char *argv[])
{
  g_autofree char *arch = NULL;
  g_autofree char *key = NULL;
  g_autofree char *output = NULL;
  GOptionEntry entries[] = {
    { "arch", 'a', 0, G_OPTION_ARG_FILENAME, &arch, "The architecture: a Gnn model file or the "
      "JSON of its gnn.model description", "ARCH" },
    { "key", 'k', 0, G_OPTION_ARG_STRING, &key, "Take the weights under this prefix of the "
      "checkpoint's names (model., module.)", "PREFIX" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The model file to write", "OUT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("WEIGHTS");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) weights = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autofree char *text = NULL;

  setlocale (LC_ALL, "");
  g_option_context_set_summary (context, "Builds a Gnn model file from PyTorch weights (a .pt/.pth "
                                "file of torch.save, or safetensors) and a Gnn architecture.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gnn-convert: %s\n", error->message);
      return 2;
    }
  if (argc != 2 || arch == NULL || output == NULL)
    {
      g_printerr ("gnn-convert: expected --arch ARCH WEIGHTS -o OUT (see --help)\n");
      return 2;
    }

  text = read_architecture (arch, &error);
  if (text != NULL)
    weights = is_zip (argv[1]) ? gnn_state_dict_load_torch (argv[1], GNN_LOAD_FLAGS_NONE, &error)
                               : gnn_state_dict_load (argv[1], &error);
  if (weights != NULL && key != NULL)
    {
      GnnStateDict *selected = select_prefix (weights, key);

      g_object_unref (weights);
      weights = selected;
    }
  if (weights != NULL)
    {
      gnn_state_dict_set_metadata (weights, "gnn.model", text);
      model = gnn_module_new_from_state_dict (weights, GNN_LOAD_FLAGS_NONE, &error);
    }
  if (model == NULL || !gnn_module_save_model (model, output, NULL, &error))
    {
      g_printerr ("gnn-convert: %s\n", error->message);
      return 1;
    }
  {
    g_autofree char *repr = gnn_module_to_string (model);

    g_print ("%s\nwritten to %s (%" G_GINT64_FORMAT " parameters)\n", repr, output,
             gnn_module_count_parameters (model, FALSE));
  }
  return 0;
}
