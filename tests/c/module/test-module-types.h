/* Small module types shared by the module test programs. */
#pragma once

#include <string.h>
#include <gnn/gnn.h>

/* TestLeaf: a "weight" parameter [2, 3] of ones and a "running" buffer [3]
 * of zeros; forward multiplies its input by the "factor" property. */
#define TEST_TYPE_LEAF (test_leaf_get_type ())
G_DECLARE_FINAL_TYPE (TestLeaf, test_leaf, TEST, LEAF, GnnModule)

struct _TestLeaf
{
  GnnModule parent_instance;
  double    factor;
};

G_DEFINE_FINAL_TYPE (TestLeaf, test_leaf, GNN_TYPE_MODULE)

static GnnTensor *
test_leaf_forward (GnnModule  *module,
                   GnnTensor  *input,
                   GError    **error)
{
  return gnn_tensor_mul_scalar (input, TEST_LEAF (module)->factor, error);
}

static char *
test_leaf_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("factor=%g", TEST_LEAF (module)->factor);
}

static void
test_leaf_class_init (TestLeafClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = test_leaf_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = test_leaf_extra_repr;
}

static void
test_leaf_init (TestLeaf *self)
{
  g_autoptr(GnnTensor) w = gnn_tensor_ones ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnParameter) p = gnn_parameter_new (w, TRUE);
  g_autoptr(GnnTensor) r = gnn_tensor_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_F32, NULL);

  self->factor = 2.0;
  g_assert_true (gnn_module_register_parameter (GNN_MODULE (self), "weight", p, NULL));
  g_assert_true (gnn_module_register_buffer (GNN_MODULE (self), "running", r, TRUE, NULL));
}

static inline GnnModule *
test_leaf_new (void)
{
  return g_object_new (TEST_TYPE_LEAF, NULL);
}

/* TestBox: an empty module without forward, to hold children. */
#define TEST_TYPE_BOX (test_box_get_type ())
G_DECLARE_FINAL_TYPE (TestBox, test_box, TEST, BOX, GnnModule)

struct _TestBox
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (TestBox, test_box, GNN_TYPE_MODULE)

static void
test_box_class_init (TestBoxClass *klass)
{
}

static void
test_box_init (TestBox *self)
{
}

static inline GnnModule *
test_box_new (void)
{
  return g_object_new (TEST_TYPE_BOX, NULL);
}

static inline GnnParameter *
test_param_new (gint64 n)
{
  g_autoptr(GnnTensor) t = gnn_tensor_zeros (&n, 1, GNN_DTYPE_F32, NULL);
  return gnn_parameter_new (t, TRUE);
}

static inline GnnTensor *
test_tensor_new (gint64 n)
{
  return gnn_tensor_zeros (&n, 1, GNN_DTYPE_F32, NULL);
}

static inline char *
test_join (char **names)
{
  return g_strjoinv (",", names);
}
