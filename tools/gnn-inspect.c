/* gnn-inspect: describe a safetensors file, a model file, a training
 * checkpoint or a torch .pt/.pth file
 *
 *   gnn-inspect FILE                      table of tensors, totals, metadata;
 *                                         for a model file or checkpoint the
 *                                         architecture and parameter counts
 *   gnn-inspect --tree FILE               the tensors grouped by module path
 *   gnn-inspect --tensors MODEL           the tensor table of a model file too
 *   gnn-inspect --run MODEL --input-shape 1,1,28,28
 *                                         one forward pass on random input:
 *                                         output shape and time
 *   gnn-inspect --summary MODEL --input-shape 1,1,28,28
 *                                         torchinfo's per-layer table
 *
 * The file is mapped, validated and described without reading the tensor
 * data (except to run a model). Exit status 0 on success, 1 on a bad file,
 * 2 on bad usage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <locale.h>
#include <string.h>

#include <gnn/gnn.h>

#include "gnn-inspect.h"

static const char *
st_dtype (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "F32";
    case GNN_DTYPE_F64: return "F64";
    case GNN_DTYPE_F16: return "F16";
    case GNN_DTYPE_BF16: return "BF16";
    case GNN_DTYPE_I64: return "I64";
    case GNN_DTYPE_I32: return "I32";
    case GNN_DTYPE_I16: return "I16";
    case GNN_DTYPE_I8: return "I8";
    case GNN_DTYPE_U8: return "U8";
    case GNN_DTYPE_BOOL: return "BOOL";
    default: return "?";
    }
}

char *
inspect_shape_string (GnnTensor *t)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);
  GString *s = g_string_new ("[");

  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* 1234567 → "1,234,567" */
char *
inspect_grouped (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  GString *s = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

/* --- tree ------------------------------------------------------------------ */

/* Names are split into at most this many levels (the rest of a deeper name
 * stays one dotted leaf name), so a name of 200,000 dots neither nests
 * 200,000 levels nor indents lines by 400,000 columns. */
#define MAX_TREE_DEPTH 64
/* Longer names overflow the NAME column instead of widening every line. */
#define MAX_NAME_WIDTH 100

typedef struct _Node Node;
struct _Node
{
  char       *name;
  GPtrArray  *children;   /* Node*, first-seen order (owned) */
  GHashTable *groups;     /* name → non-leaf child in children, for lookups */
  GnnTensor  *tensor;     /* leaves only (borrowed) */
  guint64     numel;
  int         depth;      /* -1 for the root */
};

static Node *
node_new (const char *name,
          int         depth)
{
  Node *node = g_new0 (Node, 1);

  node->name = g_strdup (name);
  node->depth = depth;
  return node;
}

static void
node_add (Node *node,
          Node *child)
{
  if (node->children == NULL)
    node->children = g_ptr_array_new ();
  g_ptr_array_add (node->children, child);
}

static Node *
node_group (Node       *node,
            const char *name)
{
  Node *child;

  if (node->groups == NULL)
    node->groups = g_hash_table_new (g_str_hash, g_str_equal);
  child = g_hash_table_lookup (node->groups, name);
  if (child == NULL)
    {
      child = node_new (name, node->depth + 1);
      node_add (node, child);
      g_hash_table_insert (node->groups, child->name, child);
    }
  return child;
}

/* Calls @func on every node, parents before children, in order, with an
 * explicit stack instead of recursion. */
static void
tree_walk (Node *root,
           void (*func) (Node *node, gpointer data),
           gpointer data)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, root);
  while (stack->len > 0)
    {
      Node *node = g_ptr_array_steal_index (stack, stack->len - 1);

      if (node->children != NULL)
        for (guint i = node->children->len; i > 0; i--)
          g_ptr_array_add (stack, g_ptr_array_index (node->children, i - 1));
      func (node, data);
    }
}

static void
node_width (Node     *node,
            gpointer  data)
{
  int *width = data;

  if (node->depth >= 0)
    *width = MAX (*width, 2 * node->depth + (int) strlen (node->name));
}

static void
print_node (Node     *node,
            gpointer  data)
{
  int name_width = *(int *) data;
  int indent = 2 * node->depth;
  g_autofree char *params = NULL;

  if (node->depth < 0)
    return;
  params = inspect_grouped (node->numel);
  if (node->tensor != NULL)
    {
      g_autofree char *shape = inspect_shape_string (node->tensor);

      g_print ("%*s%-*s  %-5s %-20s %14s\n", indent, "", MAX (name_width - indent, 0), node->name,
               st_dtype (gnn_tensor_get_dtype (node->tensor)), shape, params);
    }
  else
    g_print ("%*s%-*s  %-26s %14s\n", indent, "", MAX (name_width - indent, 0), node->name, "",
             params);
}

/* Children are walked before their parent is freed: the stack holds them. */
static void
free_node (Node     *node,
           gpointer  data)
{
  g_free (node->name);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_clear_pointer (&node->groups, g_hash_table_unref);
  g_free (node);
}

static void
print_tree (GnnStateDict *sd, char **keys)
{
  Node *root = node_new ("", -1);
  int width = 4;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);
      g_auto(GStrv) parts = g_strsplit (keys[i], ".", MAX_TREE_DEPTH);
      guint n = g_strv_length (parts);
      Node *node = root;
      Node *leaf;

      for (guint p = 0; p + 1 < n; p++)
        {
          node->numel += gnn_tensor_get_numel (t);
          node = node_group (node, parts[p]);
        }
      node->numel += gnn_tensor_get_numel (t);
      leaf = node_new (n > 0 ? parts[n - 1] : "", node->depth + 1);
      leaf->tensor = t;
      leaf->numel = gnn_tensor_get_numel (t);
      node_add (node, leaf);
    }
  tree_walk (root, node_width, &width);
  width = MIN (width, MAX_NAME_WIDTH);
  g_print ("%-*s  %-5s %-20s %14s\n", width, "NAME", "DTYPE", "SHAPE", "PARAMS");
  tree_walk (root, print_node, &width);
  tree_walk (root, free_node, NULL);
}

/* --- table ----------------------------------------------------------------- */

static void
print_table (GnnStateDict *sd, char **keys)
{
  int width = 4;

  for (guint i = 0; keys[i] != NULL; i++)
    width = MAX (width, (int) strlen (keys[i]));
  g_print ("%-*s  %-5s %-20s %14s\n", width, "NAME", "DTYPE", "SHAPE", "BYTES");
  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);
      g_autofree char *shape = inspect_shape_string (t);
      g_autofree char *bytes = inspect_grouped (gnn_tensor_get_nbytes (t));

      g_print ("%-*s  %-5s %-20s %14s\n", width, keys[i], st_dtype (gnn_tensor_get_dtype (t)),
               shape, bytes);
    }
}

static gboolean
parse_shape (const char  *text,
             gint64      *shape,
             guint       *ndim,
             GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  *ndim = g_strv_length (parts);
  if (*ndim == 0 || *ndim > GNN_MAX_DIMS)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--input-shape takes 1 to %d sizes separated by commas", GNN_MAX_DIMS);
      return FALSE;
    }
  for (guint i = 0; i < *ndim; i++)
    {
      guint64 v;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, G_MAXINT32, &v, NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--input-shape: \"%s\" is not a size", parts[i]);
          return FALSE;
        }
      shape[i] = (gint64) v;
    }
  return TRUE;
}

/* Any of the files gnn-inspect reads, as a state dict (a torch file is told
 * by its first bytes). */
static GnnStateDict *
load_file (const char  *path,
           GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  guint8 magic[4] = { 0 };

  if (stream != NULL)
    g_input_stream_read_all (G_INPUT_STREAM (stream), magic, 4, NULL, NULL, NULL);
  if (memcmp (magic, "PK\x03\x04", 4) == 0)
    return gnn_state_dict_load_torch (path, GNN_LOAD_FLAGS_NONE, error);
  return gnn_state_dict_load (path, error);
}

static void
print_totals (GnnStateDict *sd,
              char        **keys)
{
  guint64 numel = 0, nbytes = 0, state = 0;
  guint n_state = 0;
  g_autofree char *total_params = NULL;
  g_autofree char *total_bytes = NULL;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);

      nbytes += gnn_tensor_get_nbytes (t);
      /* a checkpoint's optimizer state is not the model's parameters */
      if (g_str_has_prefix (keys[i], "optimizer."))
        {
          state += gnn_tensor_get_numel (t);
          n_state++;
        }
      else
        numel += gnn_tensor_get_numel (t);
    }
  total_params = inspect_grouped (numel);
  total_bytes = inspect_grouped (nbytes);
  g_print ("\n%u tensors, %s parameters, %s bytes\n", g_strv_length (keys), total_params,
           total_bytes);
  if (n_state > 0)
    {
      g_autofree char *total_state = inspect_grouped (state);

      g_print ("optimizer state: %s values in %u tensors\n", total_state, n_state);
    }
}

static void
print_metadata (GnnStateDict *sd)
{
  g_auto(GStrv) meta = gnn_state_dict_get_metadata_keys (sd);

  if (meta[0] == NULL)
    return;
  g_print ("\nmetadata:\n");
  for (guint i = 0; meta[i] != NULL; i++)
    {
      const char *value = gnn_state_dict_get_metadata (sd, meta[i]);

      if (strcmp (meta[i], "gnn.model") == 0 || strcmp (meta[i], "gnn.training") == 0 ||
          strcmp (meta[i], "gnn.checkpoint") == 0)
        g_print ("  %s: (the description above, %zu bytes of JSON)\n", meta[i], strlen (value));
      else
        g_print ("  %s: %s\n", meta[i], value);
    }
}

int
main (int argc, char *argv[])
{
  gboolean tree = FALSE, tensors = FALSE, run = FALSE, summary = FALSE;
  g_autofree char *input_shape = NULL;
  g_autofree char *input_dtype = NULL;
  GOptionEntry entries[] = {
    { "tree", 't', 0, G_OPTION_ARG_NONE, &tree, "Group the tensors by module path", NULL },
    { "tensors", 0, 0, G_OPTION_ARG_NONE, &tensors, "List the tensors of a model file too", NULL },
    { "run", 'r', 0, G_OPTION_ARG_NONE, &run, "Run one forward pass of the model on random input",
      NULL },
    { "summary", 's', 0, G_OPTION_ARG_NONE, &summary,
      "Print every layer's output shape and parameters (torchinfo's table)", NULL },
    { "input-shape", 'i', 0, G_OPTION_ARG_STRING, &input_shape, "The input's shape for --run and "
      "--summary", "N,C,H,W" },
    { "input-dtype", 0, 0, G_OPTION_ARG_STRING, &input_dtype, "The input's dtype: float32 "
      "(random normal, the default) or int64 (zeros)", "DTYPE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnCheckpoint) checkpoint = NULL;
  g_auto(GStrv) keys = NULL;
  gint64 shape[GNN_MAX_DIMS];
  guint ndim = 0;
  GnnDType dtype = GNN_DTYPE_F32;

  setlocale (LC_ALL, "");
  g_option_context_set_summary (context, "Describes a safetensors file, a Gnn model file or "
                                "training checkpoint, or a PyTorch .pt/.pth file: tensors, dtypes, "
                                "shapes, sizes, metadata, the architecture; runs a model.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      ((run || summary) && (input_shape == NULL || !parse_shape (input_shape, shape, &ndim, &error))))
    {
      if (error == NULL)
        g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "--run and --summary need --input-shape");
      g_printerr ("gnn-inspect: %s\n", error->message);
      return 2;
    }
  if (input_dtype != NULL && strcmp (input_dtype, "float32") != 0 && strcmp (input_dtype, "int64") != 0)
    {
      g_printerr ("gnn-inspect: --input-dtype is float32 or int64, not \"%s\"\n", input_dtype);
      return 2;
    }
  if (g_strcmp0 (input_dtype, "int64") == 0)
    dtype = GNN_DTYPE_I64;
  if (argc != 2)
    {
      g_printerr ("gnn-inspect: expected one FILE (see --help)\n");
      return 2;
    }

  sd = load_file (argv[1], &error);
  if (sd == NULL)
    {
      g_printerr ("gnn-inspect: %s\n", error->message);
      return 1;
    }
  if (gnn_state_dict_get_metadata (sd, "gnn.model") != NULL)
    model = gnn_module_new_from_state_dict (sd, GNN_LOAD_FLAGS_NONE, &error);
  else if (gnn_state_dict_get_metadata (sd, "gnn.training") != NULL)
    {
      checkpoint = gnn_checkpoint_load (argv[1], GNN_LOAD_FLAGS_NONE, &error);
      model = checkpoint != NULL ? g_object_ref (gnn_checkpoint_get_model (checkpoint)) : NULL;
    }
  if (error != NULL)
    {
      g_printerr ("gnn-inspect: %s\n", error->message);
      return 1;
    }
  if ((run || summary) && model == NULL)
    {
      g_printerr ("gnn-inspect: %s: not a model file (it has no architecture to run)\n", argv[1]);
      return 1;
    }

  keys = gnn_state_dict_get_keys (sd);
  if (model != NULL)
    inspect_print_model (model, checkpoint != NULL ? gnn_checkpoint_get_optimizer (checkpoint) : NULL);
  if (model != NULL && (run || summary))
    {
      g_print ("\n");
      if (!inspect_run (model, shape, ndim, dtype, summary, &error))
        {
          g_printerr ("gnn-inspect: %s: the forward pass failed: %s\n", argv[1], error->message);
          return 1;
        }
      return 0;
    }
  if (model != NULL && !tensors && !tree)
    {
      print_metadata (sd);
      return 0;
    }
  if (model != NULL)
    g_print ("\n");
  if (tree)
    print_tree (sd, keys);
  else
    print_table (sd, keys);
  print_totals (sd, keys);
  print_metadata (sd);
  return 0;
}
