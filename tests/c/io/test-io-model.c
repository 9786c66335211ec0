/* Model files: the structure a module tree can have survives a round trip
 * (modules registered twice, empty slots, tied parameters, frozen ones,
 * non-persistent buffers, per-module training flags, other dtypes, program
 * types), loading is zero copy, and hostile "gnn.model" metadata is refused
 * with a GError naming the culprit. */
#include <string.h>

#include <glib/gstdio.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* --- a module type of the program (not one of the library's) ---------------- */

#define TEST_TYPE_NET (test_net_get_type ())
G_DECLARE_FINAL_TYPE (TestNet, test_net, TEST, NET, GnnModule)

struct _TestNet
{
  GnnModule parent_instance;
  int       width;
};

enum { PROP_0, PROP_WIDTH };

G_DEFINE_FINAL_TYPE (TestNet, test_net, GNN_TYPE_MODULE)

static GnnTensor *
test_net_forward (GnnModule *module, GnnTensor *input, GError **error)
{
  GnnModule *fc = GNN_MODULE (gnn_module_get_child (module, "fc", error));

  return fc != NULL ? gnn_module_call (fc, input, error) : NULL;
}

static void
test_net_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  g_value_set_int (value, TEST_NET (object)->width);
}

static void
test_net_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  TEST_NET (object)->width = g_value_get_int (value);
}

static void
test_net_constructed (GObject *object)
{
  g_autoptr(GnnLinear) fc = gnn_linear_new (TEST_NET (object)->width, 2, TRUE, NULL, NULL);

  G_OBJECT_CLASS (test_net_parent_class)->constructed (object);
  gnn_module_register_module (GNN_MODULE (object), "fc", GNN_MODULE (fc), NULL);
}

static void
test_net_class_init (TestNetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = test_net_get_property;
  object_class->set_property = test_net_set_property;
  object_class->constructed = test_net_constructed;
  GNN_MODULE_CLASS (klass)->forward = test_net_forward;
  g_object_class_install_property (object_class, PROP_WIDTH,
    g_param_spec_int ("width", NULL, NULL, 1, 64, 3,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
test_net_init (TestNet *self)
{
}

/* --- helpers ------------------------------------------------------------------ */

static GnnModule *
save_and_load (GnnModule *module, GnnLoadFlags flags)
{
  g_autofree char *path = tmp_path ("model.safetensors");
  g_autoptr(GError) error = NULL;
  GnnModule *loaded;

  g_assert_true (gnn_module_save_model (module, path, NULL, &error));
  g_assert_no_error (error);
  loaded = gnn_module_load_model (path, flags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  return loaded;
}

static GnnModule *
child (GnnModule *m, const char *path)
{
  GnnModule *c = gnn_module_get_submodule (m, path, NULL);

  g_assert_nonnull (c);
  return c;
}

/* --- round trips ---------------------------------------------------------------- */

/* ModuleDict {seq: Sequential(Linear, ReLU, <the same ReLU>, Linear, Linear
 * tied to the previous one, BatchNorm1d in eval mode), skip: empty} with a
 * frozen bias, a non-persistent buffer and a frozen extra parameter. */
static GnnModule *
make_structured (void)
{
  g_autoptr(GnnModuleDict) root = gnn_module_dict_new ();
  g_autoptr(GnnLinear) l0 = gnn_linear_new (4, 3, TRUE, NULL, NULL);
  g_autoptr(GnnReLU) relu = gnn_relu_new (FALSE);
  g_autoptr(GnnLinear) l3 = gnn_linear_new (3, 3, TRUE, NULL, NULL);
  g_autoptr(GnnLinear) l4 = gnn_linear_new (3, 3, FALSE, NULL, NULL);
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new (3, 1e-5, 0.1, TRUE, TRUE, NULL);
  GnnModule *layers[] = { GNN_MODULE (l0), GNN_MODULE (relu), GNN_MODULE (relu), GNN_MODULE (l3),
                          GNN_MODULE (l4), GNN_MODULE (bn) };
  g_autoptr(GnnSequential) seq = gnn_sequential_new (layers, G_N_ELEMENTS (layers));
  const gint64 mshape[1] = { 3 };
  g_autoptr(GnnTensor) mask = gnn_tensor_full (mshape, 1, 0.5, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) scale_data = gnn_tensor_full (mshape, 1, 2.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnParameter) scale = gnn_parameter_new (scale_data, FALSE);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_set_child (GNN_MODULE (l4), "weight",
                                       gnn_module_get_child (GNN_MODULE (l3), "weight", NULL), &error));
  gnn_tensor_set_requires_grad (GNN_TENSOR (gnn_module_get_child (GNN_MODULE (l0), "bias", NULL)),
                                FALSE);
  g_assert_true (gnn_module_register_buffer (GNN_MODULE (seq), "mask", mask, FALSE, &error));
  g_assert_true (gnn_module_register_parameter (GNN_MODULE (seq), "scale", scale, &error));
  g_assert_true (gnn_module_register_module (GNN_MODULE (root), "seq", GNN_MODULE (seq), &error));
  g_assert_true (gnn_module_register_module (GNN_MODULE (root), "skip", NULL, &error));
  gnn_module_eval (GNN_MODULE (bn));
  return GNN_MODULE (g_steal_pointer (&root));
}

static void
test_round_trip_structure (void)
{
  g_autoptr(GnnModule) model = make_structured ();
  g_autoptr(GnnModule) loaded = save_and_load (model, GNN_LOAD_FLAGS_NONE);
  g_autofree char *ra = gnn_module_to_string (model);
  g_autofree char *rb = gnn_module_to_string (loaded);
  GnnModule *seq = child (loaded, "seq");
  const gint64 xs[2] = { 2, 4 };
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, -3, xs, 2);
  g_autoptr(GnnTensor) ya = gnn_module_call (child (model, "seq"), x, NULL);
  g_autoptr(GnnTensor) yb = gnn_module_call (seq, x, NULL);
  g_auto(GStrv) names = gnn_module_get_registered_names (loaded, GNN_CHILD_MODULE);
  GnnTensor *mask;

  g_assert_true (GNN_IS_MODULE_DICT (loaded));
  g_assert_cmpstr (ra, ==, rb);
  gnn_test_assert_same_state (model, loaded);
  g_assert_nonnull (ya);
  g_assert_true (gnn_tensor_equal (ya, yb));

  /* "skip" is an empty slot; "2" is the ReLU of "1" */
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[1], ==, "skip");
  g_assert_null (gnn_module_get_child (loaded, "skip", NULL));
  g_assert_true (child (seq, "1") == child (seq, "2"));
  /* tied weight, frozen bias and parameter */
  g_assert_true (gnn_module_get_child (child (seq, "3"), "weight", NULL) ==
                 gnn_module_get_child (child (seq, "4"), "weight", NULL));
  g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (gnn_module_get_child (child (seq, "0"),
                                                                                    "bias", NULL))));
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (gnn_module_get_child (child (seq, "0"),
                                                                                   "weight", NULL))));
  g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (gnn_module_get_child (seq, "scale", NULL))));
  /* the non-persistent buffer with its values */
  g_assert_false (gnn_module_is_buffer_persistent (seq, "mask"));
  mask = GNN_TENSOR (gnn_module_get_child (seq, "mask", NULL));
  g_assert_false (gnn_tensor_is_meta (mask));
  g_assert_cmpfloat (gnn_tensor_get_element (mask, (gint64[]) { 2 }, 1, NULL), ==, 0.5);
  /* training flags per module */
  g_assert_true (gnn_module_get_training (loaded));
  g_assert_true (gnn_module_get_training (child (seq, "0")));
  g_assert_false (gnn_module_get_training (child (seq, "5")));
}

static void
test_round_trip_dtype_and_program_types (void)
{
  g_autoptr(GObject) net = g_object_new (TEST_TYPE_NET, "width", 5, NULL);
  g_autoptr(GnnModule) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("net.safetensors");
  g_autoptr(GnnModule) refused = NULL;

  g_assert_true (gnn_module_to_dtype (GNN_MODULE (net), GNN_DTYPE_F64, &error));
  g_assert_true (gnn_module_save_model (GNN_MODULE (net), path, NULL, &error));

  /* a type of the program: refused unless the caller allows it */
  refused = gnn_module_load_model (path, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_null (refused);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_nonnull (strstr (error->message, "\"TestNet\", which is not one of Gnn's own types"));
  g_clear_error (&error);

  loaded = gnn_module_load_model (path, GNN_LOAD_FLAGS_ALLOW_TYPES, &error);
  g_assert_no_error (error);
  g_assert_true (TEST_IS_NET (loaded));
  g_assert_cmpint (TEST_NET (loaded)->width, ==, 5);
  g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (gnn_module_get_child (child (loaded, "fc"),
                                                                             "weight", NULL))),
                   ==, GNN_DTYPE_F64);
  gnn_test_assert_same_state (GNN_MODULE (net), loaded);
}

/* The module's tensors are the state dict's (the mapped file): no copy. */
static void
test_zero_copy (void)
{
  g_autoptr(GnnLinear) linear = gnn_linear_new (16, 8, TRUE, NULL, NULL);
  g_autofree char *path = tmp_path ("zc.safetensors");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnModule) loaded = NULL;

  g_assert_true (gnn_module_save_model (GNN_MODULE (linear), path, NULL, &error));
  sd = gnn_state_dict_load (path, &error);
  g_assert_no_error (error);
  loaded = gnn_module_new_from_state_dict (sd, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_get_data (GNN_TENSOR (gnn_module_get_child (loaded, "weight", NULL))) ==
                 gnn_tensor_get_data (gnn_state_dict_lookup (sd, "weight")));
}

static void
test_not_a_model_file (void)
{
  g_autoptr(GnnLinear) linear = gnn_linear_new (2, 2, TRUE, NULL, NULL);
  g_autofree char *path = tmp_path ("plain.safetensors");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) loaded = NULL;

  g_assert_true (gnn_module_save (GNN_MODULE (linear), path, NULL, &error));
  loaded = gnn_module_load_model (path, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_null (loaded);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "not a model file"));
}

/* --- hostile metadata -------------------------------------------------------------- */

static GnnStateDict *
linear_state (gint64 out, gint64 in)
{
  GnnStateDict *sd = gnn_state_dict_new ();
  const gint64 ws[2] = { out, in }, bs[1] = { out };
  g_autoptr(GnnTensor) w = gnn_tensor_zeros (ws, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_zeros (bs, 1, GNN_DTYPE_F32, NULL);

  gnn_state_dict_insert (sd, "weight", w);
  gnn_state_dict_insert (sd, "bias", b);
  return sd;
}

/* Loads @modules (the JSON list) with a Linear(2, 3)'s tensors; expects an
 * error @code whose message contains @needle. */
static void
expect_refused (const char *modules,
                GnnError    code,
                const char *needle)
{
  g_autoptr(GnnStateDict) sd = linear_state (3, 2);
  g_autofree char *text = g_strdup_printf ("{\"format\": \"gnn.model\", \"version\": 1, "
                                           "\"modules\": %s}", modules);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) loaded = NULL;

  gnn_state_dict_set_metadata (sd, "gnn.model", text);
  loaded = gnn_module_new_from_state_dict (sd, GNN_LOAD_FLAGS_NONE, &error);
  if (loaded != NULL)
    g_error ("accepted: %s", modules);
  g_assert_error (error, GNN_ERROR, (int) code);
  if (strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

#define LINEAR "\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 2, \"out-features\": 3}"

static void
test_hostile_types (void)
{
  expect_refused ("[{\"type\": \"GnnNope\"}]", GNN_ERROR_TYPE, "\"GnnNope\", which is not a Gnn type");
  expect_refused ("[{\"type\": \"TestNet\"}]", GNN_ERROR_TYPE, "not one of Gnn's own types");
  expect_refused ("[{\"type\": \"GnnSGD\"}]", GNN_ERROR_TYPE, "not an instantiable GnnModule");
  expect_refused ("[{\"type\": \"GnnModule\"}]", GNN_ERROR_TYPE, "not an instantiable GnnModule");
  expect_refused ("[{\"type\": 7}]", GNN_ERROR_FORMAT, "has no \"type\" string");
  expect_refused ("[{}]", GNN_ERROR_FORMAT, "has no \"type\" string");
}

static void
test_hostile_properties (void)
{
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": \"2\"}}]",
                  GNN_ERROR_TYPE, "property \"in-features\" must be an integer, not a string");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": -1}}]",
                  GNN_ERROR_INVALID_ARGUMENT, "property \"in-features\" is out of its range");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 1.5}}]",
                  GNN_ERROR_TYPE, "must be an integer, not a number");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"has-bias\": 1}}]",
                  GNN_ERROR_TYPE, "property \"has-bias\" must be a boolean");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"nope\": 1}}]",
                  GNN_ERROR_KEY, "has no configuration property \"nope\"");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"training\": true}}]",
                  GNN_ERROR_KEY, "has no configuration property \"training\"");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": [1]}]",
                  GNN_ERROR_FORMAT, "its properties are a list, not an object");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 1099511627776, "
                  "\"out-features\": 1099511627776}}]", GNN_ERROR_SHAPE, "overflows");
  expect_refused ("[{\"type\": \"GnnLinear\", \"properties\": {\"dtype\": \"float128\"}}]",
                  GNN_ERROR_INVALID_ARGUMENT, "has no value \"float128\" (GnnDType)");
  expect_refused ("[{\"type\": \"GnnLayerNorm\", \"properties\": {\"normalized-shape\": \"[1, 'a']\"}}]",
                  GNN_ERROR_FORMAT, "is not a GVariant of type ax");
  expect_refused ("[{\"type\": \"GnnLayerNorm\", \"properties\": {\"normalized-shape\": 3}}]",
                  GNN_ERROR_TYPE, "must be a GVariant in text form");
  expect_refused ("[{" LINEAR ", \"training\": \"yes\"}]", GNN_ERROR_FORMAT,
                  "\"training\" is not a boolean");
}

static void
test_hostile_tree (void)
{
  g_autoptr(GString) deep = g_string_new ("[{\"type\": \"GnnSequential\"}");

  expect_refused ("[]", GNN_ERROR_FORMAT, "\"modules\" is empty");
  expect_refused ("[1]", GNN_ERROR_FORMAT, "node 0 is not an object");
  expect_refused ("[{" LINEAR ", \"parent\": 0}]", GNN_ERROR_FORMAT, "the root) has a parent");
  expect_refused ("[{" LINEAR "}, {\"parent\": 1, \"name\": \"a\", \"type\": \"GnnReLU\"}]",
                  GNN_ERROR_FORMAT, "node 1 has no \"parent\" among the modules before it");
  expect_refused ("[{" LINEAR "}, {\"parent\": 0, \"name\": \"a.b\", \"type\": \"GnnReLU\"}]",
                  GNN_ERROR_FORMAT, "node 1 has no valid \"name\"");
  expect_refused ("[{" LINEAR "}, {\"parent\": 0, \"name\": \"\", \"type\": \"GnnReLU\"}]",
                  GNN_ERROR_FORMAT, "node 1 has no valid \"name\"");
  expect_refused ("[{" LINEAR "}, {\"parent\": 0, \"name\": \"a\", \"type\": \"GnnReLU\"}, "
                  "{\"parent\": 0, \"name\": \"a\", \"type\": \"GnnReLU\"}]",
                  GNN_ERROR_FORMAT, "repeats the name \"a\"");
  /* a cycle: the root registered inside itself */
  expect_refused ("[{" LINEAR "}, {\"parent\": 0, \"name\": \"me\", \"same_as\": 0}]",
                  GNN_ERROR_INVALID_ARGUMENT, "module 'me'");
  expect_refused ("[{" LINEAR "}, {\"parent\": 0, \"name\": \"x\", \"same_as\": 5}]",
                  GNN_ERROR_FORMAT, "is \"same_as\" no module before it");
  expect_refused ("[{" LINEAR "}, {\"parent\": 0, \"name\": \"x\", \"empty\": true}, "
                  "{\"parent\": 1, \"name\": \"y\", \"type\": \"GnnReLU\"}]",
                  GNN_ERROR_FORMAT, "node 2 has no \"parent\"");
  /* 5,000 levels deep: refused at level 1025, before any module is built
   * (100,000 levels spent 30 s in json-glib's allocations under ASan) */
  for (guint i = 1; i <= 5000; i++)
    g_string_append_printf (deep, ", {\"parent\": %u, \"name\": \"m\", \"type\": \"GnnSequential\"}",
                            i - 1);
  g_string_append_c (deep, ']');
  expect_refused (deep->str, GNN_ERROR_FORMAT, "deeper than 1024 levels");
}

static void
test_hostile_json (void)
{
  g_autoptr(GString) nested = g_string_new ("[{" LINEAR ", \"x\": ");

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (nested, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (nested, ']');
  g_string_append (nested, "}]");
  expect_refused (nested->str, GNN_ERROR_FORMAT, "nests deeper than");
  expect_refused ("{}", GNN_ERROR_FORMAT, "no \"modules\" list");
  expect_refused ("[{" LINEAR "}] junk", GNN_ERROR_FORMAT, "not JSON");
  expect_refused ("[{" LINEAR ", \"type\": \"GnnReLU\"}]", GNN_ERROR_FORMAT, "twice");

  {
    g_autoptr(GnnStateDict) sd = linear_state (3, 2);
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnModule) loaded = NULL;

    gnn_state_dict_set_metadata (sd, "gnn.model",
                                 "{\"format\": \"gnn.model\", \"version\": 99, \"modules\": []}");
    loaded = gnn_module_new_from_state_dict (sd, GNN_LOAD_FLAGS_NONE, &error);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "written by a newer Gnn"));
  }
}

static void
test_hostile_weights (void)
{
  g_autoptr(GnnStateDict) small = linear_state (3, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) loaded = NULL;

  /* a node without its tensors, or extra ones */
  expect_refused ("[{" LINEAR "}, {\"parent\": 0, \"name\": \"more\", \"type\": \"GnnLinear\"}]",
                  GNN_ERROR_KEY, "Missing key(s) in state_dict: \"more.weight\"");
  expect_refused ("[{\"type\": \"GnnReLU\"}]", GNN_ERROR_KEY,
                  "Unexpected key(s) in state_dict: \"weight\", \"bias\"");
  expect_refused ("[{" LINEAR ", \"parameters\": [{\"name\": \"weight\"}, {\"name\": \"bias\", "
                  "\"same_as\": \"nowhere.w\"}]}]", GNN_ERROR_FORMAT, "which is not a parameter");
  expect_refused ("[{" LINEAR ", \"parameters\": [{\"name\": \"weight\"}, {\"name\": \"x\"}]}]",
                  GNN_ERROR_FORMAT, "parameter 'x' has no tensor \"x\"");
  expect_refused ("[{" LINEAR ", \"buffers\": [{\"name\": \"m\", \"persistent\": false}]}]",
                  GNN_ERROR_FORMAT, "has no tensor \"gnn.nonpersistent.m\"");
  expect_refused ("[{" LINEAR ", \"parameters\": [{\"name\": 1}]}]", GNN_ERROR_FORMAT,
                  "entry 0 of \"parameters\" is malformed");
  expect_refused ("[{" LINEAR ", \"parameters\": {}}]", GNN_ERROR_FORMAT, "\"parameters\" is not a list");

  /* a tensor of the wrong shape */
  gnn_state_dict_set_metadata (small, "gnn.model",
                               "{\"format\": \"gnn.model\", \"version\": 1, \"modules\": [{" LINEAR "}]}");
  loaded = gnn_module_new_from_state_dict (small, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_null (loaded);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "size mismatch for weight"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_type_ensure (TEST_TYPE_NET);
  tmp_dir = g_dir_make_tmp ("gnn-io-model-XXXXXX", NULL);
  g_test_add_func ("/io/model/round-trip/structure", test_round_trip_structure);
  g_test_add_func ("/io/model/round-trip/dtype-and-program-types", test_round_trip_dtype_and_program_types);
  g_test_add_func ("/io/model/zero-copy", test_zero_copy);
  g_test_add_func ("/io/model/not-a-model-file", test_not_a_model_file);
  g_test_add_func ("/io/model/hostile/types", test_hostile_types);
  g_test_add_func ("/io/model/hostile/properties", test_hostile_properties);
  g_test_add_func ("/io/model/hostile/tree", test_hostile_tree);
  g_test_add_func ("/io/model/hostile/json", test_hostile_json);
  g_test_add_func ("/io/model/hostile/weights", test_hostile_weights);
  status = g_test_run ();
  gnn_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
