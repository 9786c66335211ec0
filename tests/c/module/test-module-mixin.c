/* Mixins: GInterfaces whose per-instance init runs once, prerequisites first. */
#include "test-module-types.h"

static int config_inits;
static int norm_inits;

/* HasConfig: registers buffer "config". */
#define TEST_TYPE_HAS_CONFIG (test_has_config_get_type ())
G_DECLARE_INTERFACE (TestHasConfig, test_has_config, TEST, HAS_CONFIG, GnnModule)

static void
has_config_init (GnnModule *module, gpointer user_data)
{
  g_autoptr(GnnTensor) t = test_tensor_new (1);

  /* the final type's name, although GnnModule's instance init is running */
  g_assert_true (g_str_has_prefix (gnn_module_get_name (module), "Test"));
  config_inits++;
  g_assert_true (gnn_module_register_buffer (module, "config", t, TRUE, NULL));
}

GNN_DEFINE_MIXIN (TestHasConfig, test_has_config, GNN_TYPE_MODULE, has_config_init)

/* HasNorm (requires HasConfig): registers buffer "norm". */
#define TEST_TYPE_HAS_NORM (test_has_norm_get_type ())
G_DECLARE_INTERFACE (TestHasNorm, test_has_norm, TEST, HAS_NORM, GnnModule)

static void
has_norm_init (GnnModule *module, gpointer user_data)
{
  g_autoptr(GnnTensor) t = test_tensor_new (1);

  norm_inits++;
  g_assert_true (gnn_module_has_child (module, "config"));   /* prerequisite first */
  g_assert_true (gnn_module_register_buffer (module, "norm", t, TRUE, NULL));
}

GNN_DEFINE_MIXIN (TestHasNorm, test_has_norm, TEST_TYPE_HAS_CONFIG, has_norm_init)

/* HasDropout (requires HasConfig): registers buffer "drop". */
#define TEST_TYPE_HAS_DROPOUT (test_has_dropout_get_type ())
G_DECLARE_INTERFACE (TestHasDropout, test_has_dropout, TEST, HAS_DROPOUT, GnnModule)

static void
has_dropout_init (GnnModule *module, gpointer user_data)
{
  g_autoptr(GnnTensor) t = test_tensor_new (1);

  g_assert_true (gnn_module_has_child (module, "config"));
  g_assert_true (gnn_module_register_buffer (module, "drop", t, TRUE, NULL));
}

GNN_DEFINE_MIXIN (TestHasDropout, test_has_dropout, TEST_TYPE_HAS_CONFIG, has_dropout_init)

/* TestBoth: a diamond (HasNorm and HasDropout both require HasConfig). */
#define TEST_TYPE_BOTH (test_both_get_type ())
G_DECLARE_DERIVABLE_TYPE (TestBoth, test_both, TEST, BOTH, GnnModule)
struct _TestBothClass { GnnModuleClass parent_class; };

G_DEFINE_TYPE_WITH_CODE (TestBoth, test_both, GNN_TYPE_MODULE,
                         GNN_IMPLEMENT_MIXIN (TEST_TYPE_HAS_CONFIG)
                         GNN_IMPLEMENT_MIXIN (TEST_TYPE_HAS_NORM)
                         GNN_IMPLEMENT_MIXIN (TEST_TYPE_HAS_DROPOUT))

static void test_both_class_init (TestBothClass *klass) {}
static void test_both_init (TestBoth *self)
{
  /* subclass inits run after GnnModule's, so the mixins are there already */
  g_assert_true (gnn_module_has_child (GNN_MODULE (self), "norm"));
}

/* TestBothSub: inherits the diamond, adds nothing. */
#define TEST_TYPE_BOTH_SUB (test_both_sub_get_type ())
G_DECLARE_FINAL_TYPE (TestBothSub, test_both_sub, TEST, BOTH_SUB, TestBoth)
struct _TestBothSub { TestBoth parent_instance; };
G_DEFINE_FINAL_TYPE (TestBothSub, test_both_sub, TEST_TYPE_BOTH)
static void test_both_sub_class_init (TestBothSubClass *klass) {}
static void test_both_sub_init (TestBothSub *self) {}

/* TestConfigOnly, and TestConfigThenNorm deriving from it adding HasNorm. */
#define TEST_TYPE_CONFIG_ONLY (test_config_only_get_type ())
G_DECLARE_DERIVABLE_TYPE (TestConfigOnly, test_config_only, TEST, CONFIG_ONLY, GnnModule)
struct _TestConfigOnlyClass { GnnModuleClass parent_class; };
G_DEFINE_TYPE_WITH_CODE (TestConfigOnly, test_config_only, GNN_TYPE_MODULE,
                         GNN_IMPLEMENT_MIXIN (TEST_TYPE_HAS_CONFIG))
static void test_config_only_class_init (TestConfigOnlyClass *klass) {}
static void test_config_only_init (TestConfigOnly *self) {}

#define TEST_TYPE_CONFIG_THEN_NORM (test_config_then_norm_get_type ())
G_DECLARE_FINAL_TYPE (TestConfigThenNorm, test_config_then_norm, TEST, CONFIG_THEN_NORM, TestConfigOnly)
struct _TestConfigThenNorm { TestConfigOnly parent_instance; };
G_DEFINE_FINAL_TYPE_WITH_CODE (TestConfigThenNorm, test_config_then_norm, TEST_TYPE_CONFIG_ONLY,
                               GNN_IMPLEMENT_MIXIN (TEST_TYPE_HAS_NORM))
static void test_config_then_norm_class_init (TestConfigThenNormClass *klass) {}
static void test_config_then_norm_init (TestConfigThenNorm *self) {}

static char *
buffer_names (GnnModule *module)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) buffers = gnn_module_named_buffers (module, NULL, FALSE, &names);

  return g_strjoinv (",", names);
}

static void
test_diamond_single_init (void)
{
  g_autoptr(GnnModule) m = NULL;
  g_autofree char *names = NULL;

  config_inits = 0;
  m = g_object_new (TEST_TYPE_BOTH, NULL);
  names = buffer_names (m);
  g_assert_cmpstr (names, ==, "config,drop,norm");
  g_assert_cmpint (config_inits, ==, 1);
}

static void
test_inherited_diamond (void)
{
  g_autoptr(GnnModule) m = NULL;
  g_autofree char *names = NULL;

  config_inits = 0;
  m = g_object_new (TEST_TYPE_BOTH_SUB, NULL);
  names = buffer_names (m);
  g_assert_cmpstr (names, ==, "config,drop,norm");
  g_assert_cmpint (config_inits, ==, 1);
}

static void
test_per_instance (void)
{
  g_autoptr(GnnModule) a = NULL;
  g_autoptr(GnnModule) b = NULL;

  config_inits = 0;
  norm_inits = 0;
  a = g_object_new (TEST_TYPE_BOTH, NULL);
  b = g_object_new (TEST_TYPE_BOTH, NULL);
  g_assert_cmpint (config_inits, ==, 2);
  g_assert_cmpint (norm_inits, ==, 2);
  g_assert_true (gnn_module_get_child (a, "config", NULL) != gnn_module_get_child (b, "config", NULL));
}

static void
test_base_class_mixins_first (void)
{
  g_autoptr(GnnModule) m = g_object_new (TEST_TYPE_CONFIG_THEN_NORM, NULL);
  g_autofree char *names = buffer_names (m);

  g_assert_cmpstr (names, ==, "config,norm");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/mixin/diamond-single-init", test_diamond_single_init);
  g_test_add_func ("/module/mixin/inherited-diamond", test_inherited_diamond);
  g_test_add_func ("/module/mixin/per-instance", test_per_instance);
  g_test_add_func ("/module/mixin/base-class-mixins-first", test_base_class_mixins_first);

  return g_test_run ();
}
