/* Meta construction (no memory, no random draws), errors on use, to_empty,
 * reset_parameters, and loading by assignment (zero copy, strict, atomic). */
#include <string.h>

#include <glib/gstdio.h>
#include <gnn/gnn.h>

static char *tmp_dir;

static GBytes *
state_of (GnnGenerator *gen)
{
  return gnn_generator_get_state (gen);
}

static GnnLinear *
meta_linear (gint64 in, gint64 out, GnnGenerator *gen)
{
  GnnDevice previous = gnn_set_default_device (GNN_DEVICE_META);
  GnnLinear *l = gnn_linear_new (in, out, TRUE, gen, NULL);

  g_assert_cmpint (gnn_set_default_device (previous), ==, GNN_DEVICE_META);
  g_assert_nonnull (l);
  return l;
}

static GnnTensor *
param (gpointer module, const char *name)
{
  return GNN_TENSOR (gnn_module_get_child (GNN_MODULE (module), name, NULL));
}

static void
test_meta_construct (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);
  g_autoptr(GBytes) before = state_of (gen);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GnnLinear) l = meta_linear (4, 8, gen);
  g_autofree char *repr = NULL;
  guint ndim;
  const gint64 *shape;

  /* no draws */
  after = state_of (gen);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpint (gnn_get_default_device (), ==, GNN_DEVICE_CPU);

  /* shape, dtype, requires-grad, no memory */
  g_assert_true (gnn_tensor_is_meta (param (l, "weight")));
  g_assert_cmpint (gnn_tensor_get_device (param (l, "bias")), ==, GNN_DEVICE_META);
  shape = gnn_tensor_get_shape (param (l, "weight"), &ndim);
  g_assert_cmpuint (ndim, ==, 2);
  g_assert_cmpint (shape[0], ==, 8);
  g_assert_cmpint (shape[1], ==, 4);
  g_assert_cmpint (gnn_tensor_get_dtype (param (l, "weight")), ==, GNN_DTYPE_F32);
  g_assert_true (gnn_tensor_get_requires_grad (param (l, "weight")));
  g_assert_null (gnn_tensor_get_data (param (l, "weight")));
  g_assert_null (gnn_tensor_get_bytes (param (l, "weight")));
  g_assert_cmpint (gnn_module_count_parameters (GNN_MODULE (l), FALSE), ==, 40);

  /* torch 1.13's repr */
  repr = gnn_tensor_to_string (param (l, "weight"));
  g_assert_cmpstr (repr, ==, "Parameter containing:\n"
                             "tensor(..., device='meta', size=(8, 4), requires_grad=True)");
  g_clear_pointer (&repr, g_free);
  repr = gnn_tensor_to_string (param (l, "bias"));
  g_assert_cmpstr (repr, ==, "Parameter containing:\n"
                             "tensor(..., device='meta', size=(8,), requires_grad=True)");
  g_clear_pointer (&repr, g_free);
  repr = gnn_module_to_string (GNN_MODULE (l));
  g_assert_cmpstr (repr, ==, "Linear(in_features=4, out_features=8, bias=True)");
}

static void
test_meta_factories (void)
{
  gint64 shape[] = { 2, 3 };
  GnnDevice previous = gnn_set_default_device (GNN_DEVICE_META);
  g_autoptr(GnnTensor) e = gnn_tensor_empty (shape, 2, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) z = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) o = gnn_tensor_ones (NULL, 0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) c = NULL;
  g_autofree char *repr = NULL;
  g_autoptr(GError) error = NULL;

  gnn_set_default_device (previous);
  g_assert_true (gnn_tensor_is_meta (e) && gnn_tensor_is_meta (z) && gnn_tensor_is_meta (o));
  repr = gnn_tensor_to_string (e);
  g_assert_cmpstr (repr, ==, "tensor(..., device='meta', size=(2, 3), dtype=torch.int64)");
  g_clear_pointer (&repr, g_free);
  repr = gnn_tensor_to_string (o);
  g_assert_cmpstr (repr, ==, "tensor(..., device='meta', size=())");

  /* views and contiguous copies stay meta */
  t = gnn_tensor_transpose (z, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_is_meta (t));
  c = gnn_tensor_contiguous (t);
  g_assert_true (gnn_tensor_is_meta (c));

  /* the CPU default is back */
  g_clear_object (&t);
  t = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, NULL);
  g_assert_false (gnn_tensor_is_meta (t));
  g_assert_cmpstr (gnn_device_get_name (GNN_DEVICE_META), ==, "meta");
}

static void
assert_meta_error (GError *error, const char *op)
{
  g_autofree char *expected = g_strdup_printf ("%s: tensor has no storage (meta)", op);

  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_meta_errors (void)
{
  g_autoptr(GnnLinear) l = meta_linear (4, 8, NULL);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  GnnTensor *w = param (l, "weight");
  gint64 shape[] = { 1, 4 };
  gint64 idx[] = { 0, 0 };
  g_autoptr(GnnTensor) x = gnn_tensor_ones (shape, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) cpu = gnn_tensor_ones ((gint64[]) { 8, 4 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "meta.safetensors", NULL);
  gsize n = 99;

  g_assert_null (gnn_module_call (GNN_MODULE (l), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "Linear: parameter 'weight' has no storage (meta)"));
  g_clear_error (&error);

  g_assert_null (gnn_tensor_matmul (x, w, &error));
  assert_meta_error (error, "matmul");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_add (w, w, &error));
  assert_meta_error (error, "add");
  g_clear_error (&error);
  g_assert_false (gnn_tensor_mul_ (w, cpu, &error));
  assert_meta_error (error, "mul_");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_sum (w, NULL, 0, FALSE, &error));
  assert_meta_error (error, "sum");
  g_clear_error (&error);
  g_assert_false (gnn_tensor_copy_ (cpu, w, &error));
  assert_meta_error (error, "copy_");
  g_clear_error (&error);
  gnn_tensor_item (w, &error);
  assert_meta_error (error, "item");
  g_clear_error (&error);
  gnn_tensor_get_element (w, idx, 2, &error);
  assert_meta_error (error, "element access");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_cat ((GnnTensor *[]) { cpu, w }, 2, 0, &error));
  assert_meta_error (error, "cat");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_stack ((GnnTensor *[]) { w, w }, 2, 0, &error));
  assert_meta_error (error, "stack");
  g_clear_error (&error);
  {
    g_autoptr(GPtrArray) params = gnn_module_named_parameters (GNN_MODULE (l), NULL, TRUE, NULL);
    g_autoptr(GnnSGD) sgd = gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL);

    gnn_tensor_set_grad (w, cpu);
    g_assert_false (gnn_optimizer_step (GNN_OPTIMIZER (sgd), &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "no storage (meta)"));
    g_clear_error (&error);
    gnn_tensor_set_grad (w, NULL);
  }
  g_assert_null (gnn_mse_loss (cpu, w, GNN_REDUCTION_MEAN, &error));
  assert_meta_error (error, "mse_loss");
  g_clear_error (&error);
  {
    g_autoptr(GPtrArray) items = g_ptr_array_new ();

    g_ptr_array_add (items, cpu);
    g_ptr_array_add (items, w);
    g_assert_null (gnn_default_collate (items, 1, &error));
    assert_meta_error (error, "default_collate");
    g_clear_error (&error);
  }
  {
    /* a loader over meta rows reports them (no row gather from NULL) */
    GnnTensor *columns[] = { w };
    g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (columns, 1, NULL);
    g_autoptr(GnnDataLoader) loader = gnn_data_loader_new (GNN_DATASET (ds), 2, FALSE);
    g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (loader, &error);
    GPtrArray *batch = NULL;

    g_assert_no_error (error);
    g_assert_false (gnn_data_loader_iter_next (it, &batch, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "no storage (meta)"));
    g_clear_error (&error);
  }
  g_assert_null (gnn_tensor_to_floats (w, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_false (gnn_tensor_equal (w, cpu));

  /* initialization is a no-op that validates, as in PyTorch */
  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_fill_ (w, 1.0, NULL));
  gnn_no_grad_pop ();
  g_assert_false (gnn_tensor_kaiming_uniform_ (param (l, "bias"), 0, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);

  /* saving */
  g_assert_false (gnn_module_save (GNN_MODULE (l), path, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "tensor has no storage (meta)"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* copy-loading into a meta module: refused up front */
  sd = gnn_state_dict_new ();
  gnn_state_dict_insert (sd, "weight", cpu);
  gnn_state_dict_insert (sd, "bias", gnn_tensor_zeros ((gint64[]) { 8 }, 1, GNN_DTYPE_F32, NULL));
  g_object_unref (gnn_state_dict_lookup (sd, "bias"));
  g_assert_false (gnn_module_load_state_dict (GNN_MODULE (l), sd, TRUE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "load with assign"));
  g_assert_true (gnn_tensor_is_meta (w));
}

static void
test_to_empty_and_reset (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnLinear) ref = NULL;
  g_autoptr(GnnLinear) l = meta_linear (5, 3, NULL);
  GnnTensor *w = param (l, "weight");
  g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 2, 5 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GError) error = NULL;
  GnnModule *parts[3];
  g_autoptr(GnnSequential) seq = NULL;
  g_autoptr(GPtrArray) params = NULL;
  GnnDevice previous;

  g_assert_true (gnn_module_to_empty (GNN_MODULE (l), &error));
  g_assert_no_error (error);
  g_assert_true (param (l, "weight") == w);   /* same object */
  g_assert_false (gnn_tensor_is_meta (w));
  g_assert_true (gnn_tensor_get_requires_grad (w));
  y = gnn_module_call (GNN_MODULE (l), x, &error);
  g_assert_no_error (error);
  g_assert_nonnull (y);

  /* reset_parameters = the normal initialization, from the same generator */
  g_assert_true (gnn_linear_reset_parameters (l, gen, &error));
  g_clear_object (&gen);
  gen = gnn_generator_new (3);
  ref = gnn_linear_new (5, 3, TRUE, gen, NULL);
  g_assert_true (gnn_tensor_equal (param (l, "weight"), param (ref, "weight")));
  g_assert_true (gnn_tensor_equal (param (l, "bias"), param (ref, "bias")));

  /* the whole tree: meta tensors get memory and their layer's init */
  previous = gnn_set_default_device (GNN_DEVICE_META);
  parts[0] = GNN_MODULE (gnn_linear_new (4, 4, TRUE, NULL, NULL));
  parts[1] = GNN_MODULE (gnn_layer_norm_new ((gint64[]) { 4 }, 1, 1e-5, TRUE, NULL));
  parts[2] = GNN_MODULE (gnn_batch_norm2d_new (4, 1e-5, 0.1, TRUE, TRUE, NULL));
  gnn_set_default_device (previous);
  seq = gnn_sequential_new (parts, 3);
  for (guint i = 0; i < 3; i++)
    g_object_unref (parts[i]);
  g_assert_true (gnn_module_reset_parameters (GNN_MODULE (seq), &error));
  g_assert_no_error (error);
  params = gnn_module_named_parameters (GNN_MODULE (seq), NULL, TRUE, NULL);
  for (guint i = 0; i < params->len; i++)
    g_assert_false (gnn_tensor_is_meta (g_ptr_array_index (params, i)));
  g_assert_cmpfloat (gnn_tensor_get_element (param (parts[1], "weight"), (gint64[]) { 2 }, 1, NULL),
                     ==, 1.0);
  g_assert_cmpfloat (gnn_tensor_get_element (param (parts[2], "running_var"), (gint64[]) { 0 }, 1,
                                             NULL), ==, 1.0);
}

/* A saved Linear(4, 8) whose values differ from a fresh one. */
static char *
saved_linear (const char *name)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (11);
  g_autoptr(GnnLinear) src = gnn_linear_new (4, 8, TRUE, gen, NULL);
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_true (gnn_module_save (GNN_MODULE (src), path, NULL, NULL));
  return path;
}

static void
test_assign_load (void)
{
  g_autofree char *path = saved_linear ("assign.safetensors");
  g_autoptr(GnnLinear) l = meta_linear (4, 8, NULL);
  g_autoptr(GnnLinear) cpu = gnn_linear_new (4, 8, TRUE, NULL, NULL);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (11);
  g_autoptr(GnnLinear) ref = gnn_linear_new (4, 8, TRUE, gen, NULL);
  g_autoptr(GnnStateDict) sd = gnn_state_dict_load (path, NULL);
  GnnTensor *w = param (l, "weight");
  GnnTensor *cw = param (cpu, "weight");
  g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 2, 4 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) yref = NULL;
  g_autoptr(GError) error = NULL;

  /* meta module, through the state dict: the parameter shares the mapping */
  g_assert_true (gnn_module_load_state_dict_with_flags (GNN_MODULE (l), sd,
                                                        GNN_LOAD_STATE_STRICT | GNN_LOAD_STATE_ASSIGN,
                                                        NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (param (l, "weight") == w);
  g_assert_false (gnn_tensor_is_meta (w));
  g_assert_true (gnn_tensor_shares_storage (w, gnn_state_dict_lookup (sd, "weight")));
  g_assert_true (gnn_tensor_get_data (w) == gnn_tensor_get_data (gnn_state_dict_lookup (sd, "weight")));
  g_assert_true (gnn_tensor_get_requires_grad (w));
  g_assert_true (gnn_tensor_equal (w, param (ref, "weight")));
  y = gnn_module_call (GNN_MODULE (l), x, &error);
  yref = gnn_module_call (GNN_MODULE (ref), x, NULL);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_equal (y, yref));

  /* a normal module, straight from the file */
  g_assert_true (gnn_module_load_with_flags (GNN_MODULE (cpu), path, GNN_LOAD_FLAGS_ASSIGN, &error));
  g_assert_no_error (error);
  g_assert_true (param (cpu, "weight") == cw);
  g_assert_true (gnn_tensor_equal (cw, param (ref, "weight")));
  g_assert_true (gnn_tensor_get_requires_grad (cw));

  /* writes are private to the process (copy-on-write mapping) */
  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_fill_ (cw, 5.0, NULL));
  gnn_no_grad_pop ();
  g_clear_object (&sd);
  sd = gnn_state_dict_load (path, NULL);
  g_assert_true (gnn_tensor_equal (gnn_state_dict_lookup (sd, "weight"), param (ref, "weight")));
}

static void
test_assign_strict_atomic (void)
{
  g_autofree char *path = saved_linear ("strict.safetensors");
  g_autoptr(GnnLinear) l = meta_linear (4, 8, NULL);
  g_autoptr(GnnLinear) wrong = meta_linear (4, 9, NULL);
  g_autoptr(GnnStateDict) sd = gnn_state_dict_load (path, NULL);
  g_autoptr(GnnStateDict) partial = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) f64 = gnn_state_dict_new ();
  g_autoptr(GnnTensor) w64 = gnn_tensor_to_dtype (gnn_state_dict_lookup (sd, "weight"),
                                                  GNN_DTYPE_F64, NULL);
  g_auto(GStrv) missing = NULL;
  g_autoptr(GError) error = NULL;
  const GnnLoadStateFlags flags = GNN_LOAD_STATE_STRICT | GNN_LOAD_STATE_ASSIGN;

  /* missing key: nothing assigned, even the key that was there */
  gnn_state_dict_insert (partial, "weight", gnn_state_dict_lookup (sd, "weight"));
  g_assert_false (gnn_module_load_state_dict_with_flags (GNN_MODULE (l), partial, flags,
                                                         &missing, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for Linear:\n"
                   "\tMissing key(s) in state_dict: \"bias\". ");
  g_assert_cmpstr (missing[0], ==, "bias");
  g_assert_true (gnn_tensor_is_meta (param (l, "weight")));
  g_clear_error (&error);

  /* not strict: the present key is assigned */
  g_assert_true (gnn_module_load_state_dict_with_flags (GNN_MODULE (l), partial,
                                                        GNN_LOAD_STATE_ASSIGN, NULL, NULL, &error));
  g_assert_false (gnn_tensor_is_meta (param (l, "weight")));
  g_assert_true (gnn_tensor_is_meta (param (l, "bias")));

  /* unexpected key */
  gnn_state_dict_insert (sd, "extra", gnn_state_dict_lookup (sd, "bias"));
  g_assert_false (gnn_module_load_state_dict_with_flags (GNN_MODULE (l), sd, flags, NULL, NULL,
                                                         &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for Linear:\n"
                   "\tUnexpected key(s) in state_dict: \"extra\". ");
  g_assert_true (gnn_tensor_is_meta (param (l, "bias")));
  g_clear_error (&error);
  gnn_state_dict_remove (sd, "extra");

  /* shape */
  g_assert_false (gnn_module_load_state_dict_with_flags (GNN_MODULE (wrong), sd, flags, NULL, NULL,
                                                         &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for Linear:\n"
                   "\tsize mismatch for weight: copying a param with shape [8, 4] from checkpoint, "
                   "the shape in current model is [9, 4].\n"
                   "\tsize mismatch for bias: copying a param with shape [8] from checkpoint, "
                   "the shape in current model is [9].");
  g_assert_true (gnn_tensor_is_meta (param (wrong, "weight")));
  g_clear_error (&error);

  /* dtype: assignment cannot convert */
  gnn_state_dict_insert (f64, "weight", w64);
  gnn_state_dict_insert (f64, "bias", gnn_state_dict_lookup (sd, "bias"));
  g_assert_false (gnn_module_load_state_dict_with_flags (GNN_MODULE (l), f64, flags, NULL, NULL,
                                                         &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for Linear:\n"
                   "\tdtype mismatch for weight: assigning a param with dtype torch.float64 from "
                   "checkpoint, the dtype in current model is torch.float32.");
  g_assert_true (gnn_tensor_is_meta (param (l, "bias")));
  g_clear_error (&error);

  /* a missing file changes nothing either */
  g_assert_false (gnn_module_load_with_flags (GNN_MODULE (l), "/nonexistent/x.safetensors",
                                              GNN_LOAD_FLAGS_ASSIGN, &error));
  g_assert_nonnull (error);
  g_assert_true (gnn_tensor_is_meta (param (l, "bias")));
}

/* to_dtype converts floating parameters, buffers and gradients in place:
 * the same objects, now float64, holding the same values; an integer
 * buffer stays; an integer dtype is refused with nothing changed. */
static void
test_to_dtype_in_place (void)
{
  g_autoptr(GnnLinear) linear = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  GnnModule *m = GNN_MODULE (linear);
  g_autoptr(GnnTensor) counts = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *weight = GNN_TENSOR (gnn_module_get_child (m, "weight", NULL));
  g_autoptr(GnnTensor) grad = gnn_tensor_ones ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autofree double *before = gnn_tensor_to_doubles (weight, NULL);
  g_autofree double *after = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_register_buffer (m, "counts", counts, TRUE, NULL));
  gnn_tensor_set_grad (weight, grad);
  g_assert_false (gnn_module_to_dtype (m, GNN_DTYPE_I32, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpint (gnn_tensor_get_dtype (weight), ==, GNN_DTYPE_F32);
  g_assert_true (gnn_module_to_dtype (m, GNN_DTYPE_F64, NULL));
  g_assert_true (GNN_TENSOR (gnn_module_get_child (m, "weight", NULL)) == weight);
  g_assert_cmpint (gnn_tensor_get_dtype (weight), ==, GNN_DTYPE_F64);
  g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (gnn_module_get_child (m, "bias", NULL))),
                   ==, GNN_DTYPE_F64);
  g_assert_cmpint (gnn_tensor_get_dtype (gnn_tensor_get_grad (weight)), ==, GNN_DTYPE_F64);
  g_assert_cmpint (gnn_tensor_get_dtype (counts), ==, GNN_DTYPE_I64);
  after = gnn_tensor_to_doubles (weight, NULL);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpfloat (after[i], ==, before[i]);
}

int
main (int argc, char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("gnn-meta-XXXXXX", NULL);
  g_test_add_func ("/module/meta/construct", test_meta_construct);
  g_test_add_func ("/module/meta/factories", test_meta_factories);
  g_test_add_func ("/module/meta/errors", test_meta_errors);
  g_test_add_func ("/module/meta/to-empty-reset", test_to_empty_and_reset);
  g_test_add_func ("/module/to-dtype", test_to_dtype_in_place);
  g_test_add_func ("/module/meta/assign-load", test_assign_load);
  g_test_add_func ("/module/meta/assign-strict-atomic", test_assign_strict_atomic);
  ret = g_test_run ();
  {
    g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmp_dir, name, NULL);
        g_unlink (p);
      }
  }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
