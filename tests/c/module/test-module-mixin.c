/* Mixins: GInterfaces whose per-instance init runs once, prerequisites first. */
#include "test-module-types.h"

static int config_inits;
static int norm_inits;

/* HasConfig: registers buffer "config". */
#define TEST_TYPE_HAS_CONFIG (test_has_config_get_type ())
G_DECLARE_INTERFACE (TestHasConfig, test_has_config, TEST, HAS_CONFIG, GnnModule)
struct _TestHasConfigInterface { GTypeInterface g_iface; };
G_DEFINE_INTERFACE (TestHasConfig, test_has_config, GNN_TYPE_MODULE)

static void
has_config_init (GnnModule *module, gpointer user_data)
{
  g_autoptr(GnnTensor) t = test_tensor_new (1);

  /* the final type's name, although GnnModule's instance init is running */
  g_assert_true (g_str_has_prefix (gnn_module_get_name (module), "Test"));
  config_inits++;
  g_assert_true (gnn_module_register_buffer (module, "config", t, TRUE, NULL));
}

static void
test_has_config_default_init (TestHasConfigInterface *iface)
{
  gnn_mixin_register (TEST_TYPE_HAS_CONFIG, has_config_init, NULL, NULL);
}

/* HasNorm (requires HasConfig): registers buffer "norm". */
#define TEST_TYPE_HAS_NORM (test_has_norm_get_type ())
G_DECLARE_INTERFACE (TestHasNorm, test_has_norm, TEST, HAS_NORM, GnnModule)
struct _TestHasNormInterface { GTypeInterface g_iface; };
G_DEFINE_INTERFACE (TestHasNorm, test_has_norm, TEST_TYPE_HAS_CONFIG)

static void
has_norm_init (GnnModule *module, gpointer user_data)
{
  g_autoptr(GnnTensor) t = test_tensor_new (1);

  norm_inits++;
  g_assert_true (gnn_module_has_child (module, "config"));   /* prerequisite first */
  g_assert_true (gnn_module_register_buffer (module, "norm", t, TRUE, NULL));
}

static void
test_has_norm_default_init (TestHasNormInterface *iface)
{
  gnn_mixin_register (TEST_TYPE_HAS_NORM, has_norm_init, NULL, NULL);
}

/* HasDropout (requires HasConfig): registers buffer "drop". */
#define TEST_TYPE_HAS_DROPOUT (test_has_dropout_get_type ())
G_DECLARE_INTERFACE (TestHasDropout, test_has_dropout, TEST, HAS_DROPOUT, GnnModule)
struct _TestHasDropoutInterface { GTypeInterface g_iface; };
G_DEFINE_INTERFACE (TestHasDropout, test_has_dropout, TEST_TYPE_HAS_CONFIG)

static void
has_dropout_init (GnnModule *module, gpointer user_data)
{
  g_autoptr(GnnTensor) t = test_tensor_new (1);

  g_assert_true (gnn_module_has_child (module, "config"));
  g_assert_true (gnn_module_register_buffer (module, "drop", t, TRUE, NULL));
}

static void
test_has_dropout_default_init (TestHasDropoutInterface *iface)
{
  gnn_mixin_register (TEST_TYPE_HAS_DROPOUT, has_dropout_init, NULL, NULL);
}

/* TestBoth: a diamond (HasNorm and HasDropout both require HasConfig). */
#define TEST_TYPE_BOTH (test_both_get_type ())
G_DECLARE_DERIVABLE_TYPE (TestBoth, test_both, TEST, BOTH, GnnModule)
struct _TestBothClass { GnnModuleClass parent_class; };

static void test_both_config_iface (TestHasConfigInterface *iface) {}
static void test_both_norm_iface (TestHasNormInterface *iface) {}
static void test_both_dropout_iface (TestHasDropoutInterface *iface) {}

G_DEFINE_TYPE_WITH_CODE (TestBoth, test_both, GNN_TYPE_MODULE,
                         G_IMPLEMENT_INTERFACE (TEST_TYPE_HAS_CONFIG, test_both_config_iface)
                         G_IMPLEMENT_INTERFACE (TEST_TYPE_HAS_NORM, test_both_norm_iface)
                         G_IMPLEMENT_INTERFACE (TEST_TYPE_HAS_DROPOUT, test_both_dropout_iface))

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
                         G_IMPLEMENT_INTERFACE (TEST_TYPE_HAS_CONFIG, test_both_config_iface))
static void test_config_only_class_init (TestConfigOnlyClass *klass) {}
static void test_config_only_init (TestConfigOnly *self) {}

#define TEST_TYPE_CONFIG_THEN_NORM (test_config_then_norm_get_type ())
G_DECLARE_FINAL_TYPE (TestConfigThenNorm, test_config_then_norm, TEST, CONFIG_THEN_NORM, TestConfigOnly)
struct _TestConfigThenNorm { TestConfigOnly parent_instance; };
G_DEFINE_FINAL_TYPE_WITH_CODE (TestConfigThenNorm, test_config_then_norm, TEST_TYPE_CONFIG_ONLY,
                               G_IMPLEMENT_INTERFACE (TEST_TYPE_HAS_NORM, test_both_norm_iface))
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
