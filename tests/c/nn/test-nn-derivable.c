/* Built-in layers derived in C: a subclass of each commonly subclassed
 * layer overrides forward, chains up to the parent's and changes its
 * output; a call of the subclass runs the override (through the module
 * call path) and the parent's forward. tests/python/test_nn_derivable_vs_torch.py
 * does the same from Python, side by side with torch. */
#include <gnn/gnn.h>

/* A subclass's class: which forward it overrides (the one-tensor vfunc,
 * chaining up through the parent class struct, or the general one,
 * chaining up through gnn_module_forward_args_as). */
typedef struct
{
  GType    parent;
  gboolean general;
} Derived;

static int calls;

/* Doubles the output, or the first item of a tuple output. */
static GnnValue *
doubled (GnnValue  *out,
         GError   **error)
{
  GnnTensor *t = out != NULL ? gnn_value_get_tensor (out) : NULL;
  gsize n = 0;
  GnnValue **items;
  GnnValue *first;
  GnnValue *result;

  if (out == NULL)
    return NULL;
  if (t != NULL)
    {
      result = gnn_value_take_tensor (gnn_tensor_mul_scalar (t, 2.0, error));
      gnn_value_unref (out);
      return result;
    }
  items = gnn_value_get_items (out, &n);
  g_assert_cmpuint (n, ==, 2);
  first = gnn_value_take_tensor (gnn_tensor_mul_scalar (gnn_value_get_tensor (items[0]), 2.0, error));
  result = gnn_value_new_tuple_take (2, first, gnn_value_ref (items[1]));
  gnn_value_unref (out);
  return result;
}

static GnnTensor *
derived_forward (GnnModule  *module,
                 GnnTensor  *input,
                 GError    **error)
{
  GnnModuleClass *parent = g_type_class_peek_parent (GNN_MODULE_GET_CLASS (module));
  g_autoptr(GnnTensor) y = parent->forward (module, input, error);

  calls++;
  return y != NULL ? gnn_tensor_mul_scalar (y, 2.0, error) : NULL;
}

static GnnValue *
derived_forward_args (GnnModule  *module,
                      GnnValue   *args,
                      GnnValue   *kwargs,
                      GError    **error)
{
  GType parent = g_type_parent (G_OBJECT_TYPE (module));

  calls++;
  return doubled (gnn_module_forward_args_as (module, parent, args, kwargs, error), error);
}

static void
derived_class_init (gpointer klass,
                    gpointer data)
{
  const Derived *d = data;

  if (d->general)
    GNN_MODULE_CLASS (klass)->forward_args = derived_forward_args;
  else
    GNN_MODULE_CLASS (klass)->forward = derived_forward;
}

static GType
derive (GType    parent,
        gboolean general)
{
  g_autofree char *name = g_strdup_printf ("Test%s%s", g_type_name (parent), general ? "Args" : "");
  GType type = g_type_from_name (name);
  GTypeQuery query;
  Derived *d;

  if (type != 0)
    return type;
  g_type_query (parent, &query);
  d = g_new (Derived, 1);
  d->parent = parent;
  d->general = general;
  return g_type_register_static (parent, name,
                                 &(GTypeInfo) { query.class_size, NULL, NULL, derived_class_init, NULL,
                                                d, query.instance_size, 0, NULL },
                                 0);
}

static GnnTensor *
random_input (const gint64 *shape,
              guint         ndim)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x = gnn_tensor_zeros (shape, ndim, GNN_DTYPE_F32, &error);

  g_assert_no_error (error);
  g_assert_true (gnn_init_uniform_ (x, -1.0, 1.0, NULL, &error));
  return x;
}

/* A layer of @type and its input, each case one built-in layer. */
typedef struct
{
  const char *name;
  gint64      shape[5];
  guint       ndim;
  gboolean    integer_input;
  gboolean    three_inputs;   /* attention: (query, key, value) */
} Case;

static GnnModule *
build (const char *name,
       GType       type)
{
  g_autoptr(GError) error = NULL;
  GnnModule *m = NULL;

  if (g_str_has_prefix (name, "Conv"))
    m = g_initable_new (type, NULL, &error, "in-channels", (gint64) 2, "out-channels", (gint64) 3,
                        g_str_equal (name, "Conv1d") ? "kernel-size" : "kernel-h", (gint64) 2, NULL);
  else if (g_str_has_prefix (name, "BatchNorm"))
    m = g_initable_new (type, NULL, &error, "num-features", (gint64) 2, NULL);
  else if (g_str_equal (name, "LayerNorm"))
    m = g_initable_new (type, NULL, &error, "normalized-shape",
                        g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]) { 4 }, 1, sizeof (gint64)),
                        NULL);
  else if (g_str_equal (name, "Embedding"))
    m = g_initable_new (type, NULL, &error, "num-embeddings", (gint64) 5, "embedding-dim", (gint64) 3, NULL);
  else if (g_str_equal (name, "RNN") || g_str_equal (name, "LSTM") || g_str_equal (name, "GRU"))
    m = g_initable_new (type, NULL, &error, "input-size", (gint64) 4, "hidden-size", (gint64) 3, NULL);
  else if (g_str_equal (name, "MultiheadAttention"))
    m = g_initable_new (type, NULL, &error, "embed-dim", (gint64) 4, "num-heads", (gint64) 2, NULL);
  else if (g_str_equal (name, "TransformerEncoderLayer"))
    m = g_initable_new (type, NULL, &error, "d-model", (gint64) 4, "nhead", (gint64) 2,
                        "dim-feedforward", (gint64) 8, NULL);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  gnn_module_eval (m);   /* no dropout: the two forwards must agree */
  return m;
}

static GType
type_of (const char *name)
{
  g_autofree char *type_name = g_strconcat ("Gnn", name, NULL);
  GType type = g_type_from_name (type_name);

  g_assert_cmpuint (type, !=, 0);
  return type;
}

static void
test_subclass_chains_up (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GError) error = NULL;
  GType type = type_of (c->name);
  gboolean has_forward = GNN_MODULE_CLASS (g_type_class_ref (type))->forward != NULL;

  /* the general override on every layer; the one-tensor one where the
   * parent has a one-tensor forward */
  for (int general = has_forward ? 0 : 1; general <= 1; general++)
    {
      g_autoptr(GnnModule) m = build (c->name, derive (type, general));
      g_autoptr(GnnTensor) x = NULL;
      g_autoptr(GnnValue) args = NULL;
      g_autoptr(GnnValue) out = NULL;
      g_autoptr(GnnValue) parent_out = NULL;
      GnnTensor *y, *y_parent;

      if (c->integer_input)
        x = gnn_tensor_new_from_int64s ((gint64[]) { 0, 4, 2, 2 }, 4, c->shape, c->ndim, &error);
      else
        x = random_input (c->shape, c->ndim);
      g_assert_no_error (error);
      args = c->three_inputs ? gnn_value_new_tensor_tuple ((GnnTensor *[]) { x, x, x }, 3)
                             : gnn_value_new_tensor_tuple (&x, 1);
      calls = 0;
      out = gnn_module_call_args (m, args, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (calls, ==, 1);
      parent_out = gnn_module_forward_args_as (m, type, args, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (calls, ==, 1);   /* the parent's forward does not come back */
      y = gnn_value_get_tensor (out);
      y_parent = gnn_value_get_tensor (parent_out);
      if (y == NULL)
        {
          y = gnn_value_get_tensor (gnn_value_get_item (out, 0));
          y_parent = gnn_value_get_tensor (gnn_value_get_item (parent_out, 0));
        }
      g_assert_nonnull (y);
      g_assert_nonnull (y_parent);
      {
        g_autoptr(GnnTensor) twice = gnn_tensor_mul_scalar (y_parent, 2.0, &error);

        g_assert_no_error (error);
        g_assert_true (gnn_tensor_allclose (y, twice, 1e-5, 1e-6));
      }
      /* the one-tensor call reaches the override too */
      if (!c->three_inputs && (has_forward || general == 0))
        {
          g_autoptr(GnnTensor) y1 = NULL;

          calls = 0;
          y1 = gnn_module_call (m, x, &error);
          g_assert_no_error (error);
          g_assert_cmpint (calls, ==, 1);
          g_assert_true (gnn_tensor_allclose (y1, y, 1e-5, 1e-6));
        }
    }
}

static const Case cases[] = {
  { "Conv1d", { 1, 2, 5 }, 3 },
  { "Conv2d", { 1, 2, 4, 4 }, 4 },
  { "Conv3d", { 2, 3, 3, 3 }, 4 },   /* unbatched [C, D, H, W] */
  { "BatchNorm1d", { 3, 2 }, 2 },
  { "BatchNorm2d", { 2, 2, 3, 3 }, 4 },
  { "BatchNorm3d", { 1, 2, 2, 2, 2 }, 5 },
  { "LayerNorm", { 2, 4 }, 2 },
  { "Embedding", { 2, 2 }, 2, TRUE },
  { "RNN", { 2, 1, 4 }, 3 },
  { "LSTM", { 2, 1, 4 }, 3 },
  { "GRU", { 2, 1, 4 }, 3 },
  { "MultiheadAttention", { 2, 1, 4 }, 3, FALSE, TRUE },
  { "TransformerEncoderLayer", { 2, 1, 4 }, 3 },
};

int
main (int    argc,
      char **argv)
{
  const GType types[] = {
    GNN_TYPE_CONV1D, GNN_TYPE_CONV2D, GNN_TYPE_CONV3D, GNN_TYPE_BATCH_NORM1D, GNN_TYPE_BATCH_NORM2D,
    GNN_TYPE_BATCH_NORM3D, GNN_TYPE_LAYER_NORM, GNN_TYPE_EMBEDDING, GNN_TYPE_RNN, GNN_TYPE_LSTM, GNN_TYPE_GRU,
    GNN_TYPE_MULTIHEAD_ATTENTION, GNN_TYPE_TRANSFORMER_ENCODER_LAYER,
  };

  g_test_init (&argc, &argv, NULL);
  /* registered, for type_of () to find them by name */
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    g_type_ensure (types[i]);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/nn/derivable/%s/subclass-chains-up", cases[i].name);

      g_test_add_data_func (path, &cases[i], test_subclass_chains_up);
    }
  return g_test_run ();
}
