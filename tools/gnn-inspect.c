/* gnn-inspect: describe a safetensors file
 *
 *   gnn-inspect FILE.safetensors          table of tensors, totals, metadata
 *   gnn-inspect --tree FILE.safetensors   the same grouped by module path
 *
 * The file is mapped, validated and described without reading the tensor
 * data. Exit status 0 on success, 1 on a bad file, 2 on bad usage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <locale.h>
#include <string.h>

#include <gnn/gnn.h>

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

static char *
shape_string (GnnTensor *t)
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
static char *
grouped (guint64 n)
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
  params = grouped (node->numel);
  if (node->tensor != NULL)
    {
      g_autofree char *shape = shape_string (node->tensor);

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
      g_autofree char *shape = shape_string (t);
      g_autofree char *bytes = grouped (gnn_tensor_get_nbytes (t));

      g_print ("%-*s  %-5s %-20s %14s\n", width, keys[i], st_dtype (gnn_tensor_get_dtype (t)),
               shape, bytes);
    }
}

int
main (int argc, char *argv[])
{
  gboolean tree = FALSE;
  GOptionEntry entries[] = {
    { "tree", 't', 0, G_OPTION_ARG_NONE, &tree, "Group the tensors by module path", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE.safetensors");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) meta = NULL;
  g_autofree char *total_params = NULL;
  g_autofree char *total_bytes = NULL;
  guint64 numel = 0, nbytes = 0;

  setlocale (LC_ALL, "");
  g_option_context_set_summary (context, "Lists the tensors, dtypes, shapes, sizes and metadata "
                                "of a safetensors file.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gnn-inspect: %s\n", error->message);
      return 2;
    }
  if (argc != 2)
    {
      g_printerr ("gnn-inspect: expected one FILE.safetensors (see --help)\n");
      return 2;
    }

  sd = gnn_state_dict_load (argv[1], &error);
  if (sd == NULL)
    {
      g_printerr ("gnn-inspect: %s\n", error->message);
      return 1;
    }

  keys = gnn_state_dict_get_keys (sd);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);

      numel += gnn_tensor_get_numel (t);
      nbytes += gnn_tensor_get_nbytes (t);
    }

  if (tree)
    print_tree (sd, keys);
  else
    print_table (sd, keys);

  total_params = grouped (numel);
  total_bytes = grouped (nbytes);
  g_print ("\n%u tensors, %s parameters, %s bytes\n", g_strv_length (keys), total_params,
           total_bytes);

  meta = gnn_state_dict_get_metadata_keys (sd);
  if (meta[0] != NULL)
    {
      g_print ("\nmetadata:\n");
      for (guint i = 0; meta[i] != NULL; i++)
        g_print ("  %s: %s\n", meta[i], gnn_state_dict_get_metadata (sd, meta[i]));
    }
  return 0;
}
