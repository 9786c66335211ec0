/* test-nn-construct.c: the layers' construct-from-properties contract —
 * a construction that cannot succeed (sizes whose bytes overflow, properties
 * that do not fit together) is a GError from g_initable_new() and from the
 * C constructors, and a layer made by g_object_new() alone refuses forward
 * with the same error; no critical, no half-built module. Also the shared
 * float formatter, through repr.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <gio/gio.h>

#include "gnn-test-util.h"

/* g_initable_new() fails with @code and a message containing @needle, and
 * the same object from g_object_new() refuses forward with that error. */
static void
assert_refused (GType       type,
                gint        code,
                const char *needle,
                const char *first_property,
                ...)
{
  const gint64 shape[4] = { 1, 2, 4, 4 };
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (shape, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) forward_error = NULL;
  g_autoptr(GObject) plain = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GObject *object;
  va_list args;

  va_start (args, first_property);
  object = g_initable_new_valist (type, first_property, args, NULL, &error);
  va_end (args);
  g_assert_null (object);
  g_assert_error (error, GNN_ERROR, code);
  g_assert_nonnull (strstr (error->message, needle));

  va_start (args, first_property);
  plain = g_object_new_valist (type, first_property, args);
  va_end (args);
  g_assert_nonnull (plain);
  out = gnn_module_call (GNN_MODULE (plain), x, &forward_error);
  g_assert_null (out);
  g_assert_error (forward_error, GNN_ERROR, code);
  g_assert_cmpstr (forward_error->message, ==, error->message);
}

static void
test_linear_huge (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) linear = gnn_linear_new (G_GINT64_CONSTANT (1) << 40,
                                                G_GINT64_CONSTANT (1) << 40, TRUE, NULL, &error);

  /* PyTorch's Linear(2**40, 2**40) fails too; here without a critical. */
  g_assert_null (linear);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_true (g_str_has_prefix (error->message, "Linear: "));
  assert_refused (GNN_TYPE_LINEAR, GNN_ERROR_SHAPE, "too large",
                  "in-features", G_MAXINT64, "out-features", (gint64) 2, NULL);
}

static void
test_linear_integer_dtype (void)
{
  /* kaiming_uniform_ refuses integer parameters: a construct error. */
  assert_refused (GNN_TYPE_LINEAR, GNN_ERROR_DTYPE, "kaiming_uniform_",
                  "in-features", (gint64) 2, "out-features", (gint64) 2,
                  "dtype", GNN_DTYPE_I64, NULL);
}

static void
test_conv2d_groups (void)
{
  assert_refused (GNN_TYPE_CONV2D, GNN_ERROR_INVALID_ARGUMENT, "divisible by groups",
                  "in-channels", (gint64) 3, "out-channels", (gint64) 4, "groups", (gint64) 2,
                  NULL);
  assert_refused (GNN_TYPE_CONV2D, GNN_ERROR_SHAPE, "too large",
                  "in-channels", (gint64) G_MAXINT32, "out-channels", (gint64) G_MAXINT32,
                  "kernel-h", (gint64) G_MAXINT32, NULL);
}

static void
test_embedding_huge (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnEmbedding) e = gnn_embedding_new (G_MAXINT32, G_MAXINT32, NULL, &error);

  g_assert_null (e);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_true (g_str_has_prefix (error->message, "Embedding: "));
}

static void
test_layer_norm_shape (void)
{
  const gint64 bad[2] = { 2, -1 };
  /* Not floating: assert_refused passes it to two constructions. */
  g_autoptr(GVariant) shape =
    g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, bad, 2, sizeof (gint64)));

  assert_refused (GNN_TYPE_LAYER_NORM, GNN_ERROR_INVALID_ARGUMENT, "non-negative",
                  "normalized-shape", shape, NULL);
}

static void
test_pool_strides (void)
{
  /* One stride 0 and the other not: neither PyTorch's stride=None nor a
   * stride. */
  assert_refused (GNN_TYPE_MAX_POOL2D, GNN_ERROR_INVALID_ARGUMENT, "MaxPool2d: stride",
                  "kernel-h", (gint64) 2, "kernel-w", (gint64) 2, "stride-w", (gint64) 2, NULL);
  assert_refused (GNN_TYPE_AVG_POOL2D, GNN_ERROR_INVALID_ARGUMENT, "AvgPool2d: stride",
                  "kernel-h", (gint64) 2, "kernel-w", (gint64) 2, "stride-h", (gint64) 1, NULL);
}

static void
test_valid_from_properties (void)
{
  const gint64 shape[2] = { 2, 3 };
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, shape, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) linear = g_initable_new (GNN_TYPE_LINEAR, NULL, &error,
                                              "in-features", (gint64) 3,
                                              "out-features", (gint64) 4, NULL);
  g_autoptr(GnnTensor) y = NULL;
  const gint64 expect[2] = { 2, 4 };

  g_assert_no_error (error);
  y = gnn_module_call (GNN_MODULE (linear), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, expect, 2);
}

/* The one float formatter (gnn_nn_format_float) through the layers' repr:
 * Python's repr of a float. */
static void
test_format_float (void)
{
  static const struct { double p; const char *repr; } cases[] = {
    { 0.1, "p=0.1," }, { 1.0, "p=1.0," }, { 0.0, "p=0.0," }, { 1e-8, "p=1e-08," },
    { 0.3, "p=0.3," },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GnnDropout) d = gnn_dropout_new (cases[i].p, FALSE, NULL, NULL);
      g_autofree char *repr = gnn_module_extra_repr (GNN_MODULE (d));

      g_assert_true (g_str_has_prefix (repr, cases[i].repr));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/construct/linear-huge", test_linear_huge);
  g_test_add_func ("/nn/construct/linear-integer-dtype", test_linear_integer_dtype);
  g_test_add_func ("/nn/construct/conv2d", test_conv2d_groups);
  g_test_add_func ("/nn/construct/embedding-huge", test_embedding_huge);
  g_test_add_func ("/nn/construct/layer-norm-shape", test_layer_norm_shape);
  g_test_add_func ("/nn/construct/pool-strides", test_pool_strides);
  g_test_add_func ("/nn/construct/valid-from-properties", test_valid_from_properties);
  g_test_add_func ("/nn/construct/format-float", test_format_float);
  return g_test_run ();
}
