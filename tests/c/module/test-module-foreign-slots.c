/* Foreign child slots: the object properties of a class written in
 * JavaScript, simulated in C. GJS marks its classes with the type qdata
 * "gjs::custom-type", keeps a property's value in the JS object, and its
 * generated setter stores the value and notifies; FakeJs does the same
 * with a field, so the C suites (and ASan, valgrind) cover the mechanism
 * tests/js/test_module_js_slots.js checks in GJS. */
#include <gnn/gnn.h>

#define FAKE_TYPE_JS (fake_js_get_type ())
G_DECLARE_DERIVABLE_TYPE (FakeJs, fake_js, FAKE, JS, GnnModule)

struct _FakeJsClass
{
  GnnModuleClass parent_class;
};

typedef struct
{
  GObject *held;   /* "the JavaScript object's copy" of the fc1 property */
  gboolean unconvertible;   /* held a JS value GJS cannot convert: get leaves the GValue */
  guint    n_sets; /* calls of the class's own set_property */
} FakeJsPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (FakeJs, fake_js, GNN_TYPE_MODULE)

enum { FAKE_PROP_0, FAKE_PROP_FC1, FAKE_PROP_LABEL };
static GParamSpec *fake_fc1;

/* GJS's generated setter: store, and notify when the value is new. */
static void
fake_js_assign (FakeJs *self, GObject *value)
{
  FakeJsPrivate *priv = fake_js_get_instance_private (self);

  if (value == priv->held)
    return;
  g_set_object (&priv->held, value);
  g_object_notify_by_pspec (G_OBJECT (self), fake_fc1);
}

static void
fake_js_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  FakeJsPrivate *priv = fake_js_get_instance_private (FAKE_JS (object));

  g_assert_cmpuint (prop_id, ==, FAKE_PROP_FC1);   /* "label" is not a slot: never here */
  priv->n_sets++;
  fake_js_assign (FAKE_JS (object), g_value_get_object (value));
}

static void
fake_js_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  FakeJsPrivate *priv = fake_js_get_instance_private (FAKE_JS (object));

  g_assert_cmpuint (prop_id, ==, FAKE_PROP_FC1);
  if (!priv->unconvertible)
    g_value_set_object (value, priv->held);
}

static void
fake_js_finalize (GObject *object)
{
  g_clear_object (&((FakeJsPrivate *) fake_js_get_instance_private (FAKE_JS (object)))->held);
  G_OBJECT_CLASS (fake_js_parent_class)->finalize (object);
}

static void
fake_js_class_init (FakeJsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = fake_js_set_property;
  object_class->get_property = fake_js_get_property;
  object_class->finalize = fake_js_finalize;
  fake_fc1 = g_param_spec_object ("fc1", NULL, NULL, GNN_TYPE_LINEAR, G_PARAM_READWRITE);
  g_object_class_install_property (object_class, FAKE_PROP_FC1, fake_fc1);
  /* an object property that is no module/parameter/tensor: not a slot */
  g_object_class_install_property (object_class, FAKE_PROP_LABEL,
      g_param_spec_object ("label", NULL, NULL, G_TYPE_OBJECT, G_PARAM_READABLE));
}

static void
fake_js_init (FakeJs *self)
{
}

/* A subclass of it (GJS marks every JS class; this one is not marked, as
 * a C subclass would not be) inherits the foreign slot. */
#define FAKE_TYPE_PLAIN (fake_plain_get_type ())
G_DECLARE_FINAL_TYPE (FakePlain, fake_plain, FAKE, PLAIN, FakeJs)
struct _FakePlain { FakeJs parent_instance; };
G_DEFINE_FINAL_TYPE (FakePlain, fake_plain, FAKE_TYPE_JS)
static void fake_plain_class_init (FakePlainClass *klass) { }
static void fake_plain_init (FakePlain *self) { }

static GnnLinear *
new_linear (gint64 out, gboolean bias)
{
  return gnn_linear_new (3, out, bias, NULL, NULL);
}

static void
mark_javascript (GType type)
{
  g_type_set_qdata (type, g_quark_from_static_string ("gjs::custom-type"), GINT_TO_POINTER (1));
}

static char **
parameter_names (GnnModule *module)
{
  char **names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (module, NULL, TRUE, &names);

  return names;
}

static void
test_js_assignment_registers (void)
{
  g_autoptr(FakeJs) net = g_object_new (FAKE_TYPE_JS, NULL);
  g_autoptr(GnnLinear) lin = new_linear (2, TRUE);
  g_auto(GStrv) names = NULL;

  fake_js_assign (net, G_OBJECT (lin));
  g_assert_true (gnn_module_get_child (GNN_MODULE (net), "fc1", NULL) == G_OBJECT (lin));
  names = parameter_names (GNN_MODULE (net));
  g_assert_cmpstrv (names, ((const char *[]) { "fc1.weight", "fc1.bias", NULL }));
}

static void
test_c_set_property_registers_and_syncs (void)
{
  g_autoptr(FakeJs) net = g_object_new (FAKE_TYPE_JS, NULL);
  FakeJsPrivate *priv = fake_js_get_instance_private (net);
  g_autoptr(GnnLinear) lin = new_linear (2, FALSE);
  g_autoptr(GObject) read = NULL;

  g_object_set (net, "fc1", lin, NULL);
  g_assert_true (gnn_module_get_child (GNN_MODULE (net), "fc1", NULL) == G_OBJECT (lin));
  g_assert_true (priv->held == G_OBJECT (lin));   /* written back to "JS" */
  g_object_get (net, "fc1", &read, NULL);
  g_assert_true (read == G_OBJECT (lin));
}

static void
count_notify (GObject *object, GParamSpec *pspec, gpointer data)
{
  ++*(guint *) data;
}

static void
test_registry_changes_reach_js (void)
{
  g_autoptr(FakeJs) net = g_object_new (FAKE_TYPE_JS, NULL);
  FakeJsPrivate *priv = fake_js_get_instance_private (net);
  g_autoptr(GnnLinear) a = new_linear (2, TRUE);
  g_autoptr(GnnLinear) b = new_linear (4, TRUE);
  guint notified = 0;

  g_signal_connect (net, "notify::fc1", G_CALLBACK (count_notify), &notified);
  g_assert_true (gnn_module_set_child (GNN_MODULE (net), "fc1", G_OBJECT (a), NULL));
  g_assert_true (priv->held == G_OBJECT (a));
  g_assert_cmpuint (notified, ==, 1);
  fake_js_assign (net, G_OBJECT (b));
  g_assert_true (gnn_module_get_child (GNN_MODULE (net), "fc1", NULL) == G_OBJECT (b));
  g_assert_cmpuint (notified, ==, 2);
  g_assert_true (gnn_module_delete_child (GNN_MODULE (net), "fc1", NULL));
  g_assert_null (priv->held);
  g_assert_false (gnn_module_has_child (GNN_MODULE (net), "fc1"));
  g_assert_cmpuint (notified, ==, 3);
}

/* A value the registry refuses is reported and the JS copy reverts. */
static void
test_rejected_value_reverts (void)
{
  g_autoptr(FakeJs) net = g_object_new (FAKE_TYPE_JS, NULL);
  FakeJsPrivate *priv = fake_js_get_instance_private (net);
  g_autoptr(GnnLinear) a = new_linear (2, TRUE);
  g_autoptr(GnnLinear) loop = new_linear (2, TRUE);

  fake_js_assign (net, G_OBJECT (a));
  /* loop holds net: making it net's child would be a cycle, which the
   * registry refuses */
  g_assert_true (gnn_module_register_module (GNN_MODULE (loop), "back", GNN_MODULE (net), NULL));
  g_test_expect_message ("Gnn", G_LOG_LEVEL_WARNING, "*");
  fake_js_assign (net, G_OBJECT (loop));
  g_test_assert_expected_messages ();
  g_assert_true (gnn_module_get_child (GNN_MODULE (net), "fc1", NULL) == G_OBJECT (a));
  g_assert_true (priv->held == G_OBJECT (a));
  g_assert_true (gnn_module_delete_child (GNN_MODULE (loop), "back", NULL));
}

/* What GJS does with a JS value of another type: its getter leaves the
 * GValue alone (and warns); the registered value stays and is written back. */
static void
test_unconvertible_value_keeps_registered (void)
{
  g_autoptr(FakeJs) net = g_object_new (FAKE_TYPE_JS, NULL);
  FakeJsPrivate *priv = fake_js_get_instance_private (net);
  g_autoptr(GnnLinear) a = new_linear (2, TRUE);
  guint sets;

  fake_js_assign (net, G_OBJECT (a));
  sets = priv->n_sets;
  priv->unconvertible = TRUE;
  g_object_notify (G_OBJECT (net), "fc1");
  priv->unconvertible = FALSE;
  g_assert_true (gnn_module_get_child (GNN_MODULE (net), "fc1", NULL) == G_OBJECT (a));
  g_assert_cmpuint (priv->n_sets, ==, sets + 1);   /* written back */
  g_assert_true (priv->held == G_OBJECT (a));
}

static void
test_subclass_inherits_foreign_slots (void)
{
  g_autoptr(FakePlain) plain = g_object_new (FAKE_TYPE_PLAIN, NULL);
  g_autoptr(GnnLinear) lin = new_linear (2, TRUE);

  g_object_set (plain, "fc1", lin, NULL);
  g_assert_true (gnn_module_get_child (GNN_MODULE (plain), "fc1", NULL) == G_OBJECT (lin));
  fake_js_assign (FAKE_JS (plain), NULL);
  g_assert_true (gnn_module_has_child (GNN_MODULE (plain), "fc1"));
  g_assert_null (gnn_module_get_child (GNN_MODULE (plain), "fc1", NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  mark_javascript (FAKE_TYPE_JS);
  g_test_add_func ("/module/foreign-slots/js-assignment-registers", test_js_assignment_registers);
  g_test_add_func ("/module/foreign-slots/c-set-property", test_c_set_property_registers_and_syncs);
  g_test_add_func ("/module/foreign-slots/registry-changes-reach-js", test_registry_changes_reach_js);
  g_test_add_func ("/module/foreign-slots/rejected-value-reverts", test_rejected_value_reverts);
  g_test_add_func ("/module/foreign-slots/unconvertible-value", test_unconvertible_value_keeps_registered);
  g_test_add_func ("/module/foreign-slots/subclass-inherits", test_subclass_inherits_foreign_slots);
  return g_test_run ();
}
