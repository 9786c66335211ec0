/* Child slots declared as GObject properties. */
#include "test-module-types.h"

/* TestSlotted: slots "fc1" (TestLeaf), "scale" (GnnParameter), "stats"
 * (GnnTensor) and an ordinary property "label" whose set/get_property the
 * class assigns AFTER installing the slots. */
#define TEST_TYPE_SLOTTED (test_slotted_get_type ())
G_DECLARE_DERIVABLE_TYPE (TestSlotted, test_slotted, TEST, SLOTTED, GnnModule)

struct _TestSlottedClass
{
  GnnModuleClass parent_class;
};

typedef struct
{
  char *label;
} TestSlottedPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (TestSlotted, test_slotted, GNN_TYPE_MODULE)

enum { SLOTTED_PROP_0, SLOTTED_PROP_LABEL };

static void
test_slotted_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TestSlottedPrivate *priv = test_slotted_get_instance_private (TEST_SLOTTED (object));

  g_assert_cmpuint (prop_id, ==, SLOTTED_PROP_LABEL);
  g_free (priv->label);
  priv->label = g_value_dup_string (value);
}

static void
test_slotted_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TestSlottedPrivate *priv = test_slotted_get_instance_private (TEST_SLOTTED (object));

  g_assert_cmpuint (prop_id, ==, SLOTTED_PROP_LABEL);
  g_value_set_string (value, priv->label);
}

static void
test_slotted_finalize (GObject *object)
{
  TestSlottedPrivate *priv = test_slotted_get_instance_private (TEST_SLOTTED (object));

  g_free (priv->label);
  G_OBJECT_CLASS (test_slotted_parent_class)->finalize (object);
}

static void
test_slotted_class_init (TestSlottedClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  gnn_module_class_install_child_slot (module_class, "fc1", TEST_TYPE_LEAF);
  gnn_module_class_install_child_slot (module_class, "scale", GNN_TYPE_PARAMETER);
  gnn_module_class_install_child_slot (module_class, "stats", GNN_TYPE_TENSOR);

  /* own functions assigned after the slots */
  object_class->set_property = test_slotted_set_property;
  object_class->get_property = test_slotted_get_property;
  object_class->finalize = test_slotted_finalize;
  g_object_class_install_property (object_class, SLOTTED_PROP_LABEL,
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
test_slotted_init (TestSlotted *self)
{
}

/* TestSlottedSub: own functions assigned BEFORE its slot "head". */
#define TEST_TYPE_SLOTTED_SUB (test_slotted_sub_get_type ())
G_DECLARE_FINAL_TYPE (TestSlottedSub, test_slotted_sub, TEST, SLOTTED_SUB, TestSlotted)

struct _TestSlottedSub
{
  TestSlotted parent_instance;
  int         depth;
};

G_DEFINE_FINAL_TYPE (TestSlottedSub, test_slotted_sub, TEST_TYPE_SLOTTED)

enum { SUB_PROP_0, SUB_PROP_DEPTH };

static void
test_slotted_sub_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  g_assert_cmpuint (prop_id, ==, SUB_PROP_DEPTH);
  TEST_SLOTTED_SUB (object)->depth = g_value_get_int (value);
}

static void
test_slotted_sub_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  g_assert_cmpuint (prop_id, ==, SUB_PROP_DEPTH);
  g_value_set_int (value, TEST_SLOTTED_SUB (object)->depth);
}

static void
test_slotted_sub_class_init (TestSlottedSubClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = test_slotted_sub_set_property;
  object_class->get_property = test_slotted_sub_get_property;
  g_object_class_install_property (object_class, SUB_PROP_DEPTH,
    g_param_spec_int ("depth", NULL, NULL, 0, 100, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  gnn_module_class_install_child_slot (GNN_MODULE_CLASS (klass), "head", TEST_TYPE_LEAF);
}

static void
test_slotted_sub_init (TestSlottedSub *self)
{
}

/* TestThreaded: a slotted class first instantiated from many threads. */
#define TEST_TYPE_THREADED (test_threaded_get_type ())
G_DECLARE_FINAL_TYPE (TestThreaded, test_threaded, TEST, THREADED, GnnModule)
struct _TestThreaded { GnnModule parent_instance; };
G_DEFINE_FINAL_TYPE (TestThreaded, test_threaded, GNN_TYPE_MODULE)

static void
test_threaded_class_init (TestThreadedClass *klass)
{
  gnn_module_class_install_child_slot (GNN_MODULE_CLASS (klass), "body", TEST_TYPE_LEAF);
}

static void
test_threaded_init (TestThreaded *self)
{
}

static gpointer
make_threaded (gpointer data)
{
  for (int i = 0; i < 50; i++)
    {
      g_autoptr(GnnModule) leaf = test_leaf_new ();
      g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_THREADED, "body", leaf, NULL);
      g_autoptr(GnnModule) got = NULL;

      g_object_get (net, "body", &got, NULL);
      g_assert_true (got == leaf);
    }
  return NULL;
}

static void
test_first_instances_from_threads (void)
{
  GThread *threads[8];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("slots", make_threaded, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
}

static void
test_set_registers (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, NULL);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GPtrArray) children = NULL;
  g_auto(GStrv) names = NULL;

  g_object_set (net, "fc1", leaf, NULL);
  children = gnn_module_named_children (net, &names);
  g_assert_cmpuint (children->len, ==, 1);
  g_assert_cmpstr (names[0], ==, "fc1");
  g_assert_true (g_ptr_array_index (children, 0) == leaf);
}

static void
test_get_reads_registry (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, NULL);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnModule) got = NULL;
  g_autoptr(GnnModule) none = NULL;

  g_object_get (net, "fc1", &none, NULL);
  g_assert_null (none);
  g_assert_true (gnn_module_set_child (net, "fc1", G_OBJECT (leaf), NULL));
  g_object_get (net, "fc1", &got, NULL);
  g_assert_true (got == leaf);
}

static void
test_tensor_slots (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, NULL);
  g_autoptr(GnnParameter) p = test_param_new (3);
  g_autoptr(GnnTensor) t = test_tensor_new (3);
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(GPtrArray) buffers = NULL;

  g_object_set (net, "scale", p, "stats", t, NULL);
  params = gnn_module_named_parameters (net, NULL, FALSE, NULL);
  buffers = gnn_module_named_buffers (net, NULL, FALSE, NULL);
  g_assert_cmpuint (params->len, ==, 1);
  g_assert_cmpuint (buffers->len, ==, 1);
  g_assert_true (gnn_module_is_buffer_persistent (net, "stats"));
}

static void
test_null_registers_empty_slot (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, NULL);

  g_object_set (net, "fc1", NULL, NULL);
  g_assert_true (gnn_module_has_child (net, "fc1"));
  g_assert_null (gnn_module_get_child (net, "fc1", NULL));
}

static void
test_wrong_type_rejected (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, NULL);
  g_autoptr(GnnModule) box = test_box_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_module_set_child (net, "fc1", G_OBJECT (box), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "cannot assign 'TestBox' as child slot 'fc1' of 'TestSlotted' (TestLeaf or NULL expected)");
  g_assert_false (gnn_module_has_child (net, "fc1"));
}

static void
count_notify (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  (*(int *) user_data)++;
}

static void
test_notify_on_change (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, NULL);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  int n = 0;

  g_signal_connect (net, "notify::fc1", G_CALLBACK (count_notify), &n);
  g_object_set (net, "fc1", leaf, NULL);
  g_assert_cmpint (n, ==, 1);
  g_object_set (net, "fc1", leaf, NULL);     /* same value: no notify */
  g_assert_cmpint (n, ==, 1);
  gnn_module_delete_child (net, "fc1", NULL);  /* any registry change */
  g_assert_cmpint (n, ==, 2);
  gnn_module_set_child (net, "fc1", G_OBJECT (leaf), NULL);
  g_assert_cmpint (n, ==, 3);
}

static void
test_listed_as_properties (void)
{
  GObjectClass *klass = g_type_class_ref (TEST_TYPE_SLOTTED);
  g_autofree GParamSpec **pspecs = NULL;
  guint n;
  gboolean seen_fc1 = FALSE, seen_label = FALSE, seen_training = FALSE;

  pspecs = g_object_class_list_properties (klass, &n);
  for (guint i = 0; i < n; i++)
    {
      if (strcmp (pspecs[i]->name, "fc1") == 0)
        {
          seen_fc1 = TRUE;
          g_assert_true (pspecs[i]->value_type == TEST_TYPE_LEAF);
        }
      seen_label |= strcmp (pspecs[i]->name, "label") == 0;
      seen_training |= strcmp (pspecs[i]->name, "training") == 0;
    }
  g_assert_true (seen_fc1 && seen_label && seen_training);
  g_type_class_unref (klass);
}

static void
test_own_property_after_slots (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, "label", "hello", NULL);
  g_autofree char *label = NULL;
  gboolean training;

  g_object_get (net, "label", &label, "training", &training, NULL);
  g_assert_cmpstr (label, ==, "hello");
  g_assert_true (training);
}

static void
test_subclass_own_property_before_slot (void)
{
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED_SUB, "depth", 7, "label", "x", NULL);
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnModule) leaf2 = test_leaf_new ();
  g_autoptr(GnnModule) got = NULL;
  int depth;

  g_object_set (net, "head", leaf, "fc1", leaf2, NULL);
  g_object_get (net, "depth", &depth, "head", &got, NULL);
  g_assert_cmpint (depth, ==, 7);
  g_assert_true (got == leaf);
  g_assert_true (gnn_module_get_child (net, "fc1", NULL) == G_OBJECT (leaf2));
}

static void
test_construct_with_slot (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, "fc1", leaf, NULL);

  g_assert_true (gnn_module_get_child (net, "fc1", NULL) == G_OBJECT (leaf));
}

/* GNN_MODULE_CHILD: the child cast to its type; absent, empty or of
 * another type is a GError, never a bad cast. */
static void
test_typed_child (void)
{
  g_autoptr(GnnModule) leaf = test_leaf_new ();
  g_autoptr(GnnModule) net = g_object_new (TEST_TYPE_SLOTTED, "fc1", leaf, NULL);
  g_autoptr(GError) error = NULL;
  TestLeaf *fc1 = GNN_MODULE_CHILD (net, "fc1", TEST, LEAF, &error);
  GnnParameter *weight = GNN_MODULE_CHILD (leaf, "weight", GNN, PARAMETER, &error);
  GnnTensor *as_tensor = GNN_MODULE_CHILD (leaf, "weight", GNN, TENSOR, &error);

  g_assert_no_error (error);
  g_assert_true (fc1 == TEST_LEAF (leaf));
  g_assert_nonnull (weight);
  g_assert_true (as_tensor == GNN_TENSOR (weight));

  g_assert_null (GNN_MODULE_CHILD (net, "fc1", GNN, LINEAR, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "TestSlotted.fc1 is TestLeaf, not a Linear");
  g_clear_error (&error);
  g_object_set (net, "scale", NULL, NULL);   /* registered empty: torch's None */
  g_assert_null (GNN_MODULE_CHILD (net, "scale", GNN, PARAMETER, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_cmpstr (error->message, ==, "TestSlotted.scale is None, not a Parameter");
  g_clear_error (&error);
  g_assert_null (GNN_MODULE_CHILD (net, "fc9", TEST, LEAF, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_clear_error (&error);
  g_assert_null (gnn_module_get_child_of_type (net, "fc1", GNN_TYPE_PARAMETER, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/module/slots/set-registers", test_set_registers);
  g_test_add_func ("/module/slots/get-reads-registry", test_get_reads_registry);
  g_test_add_func ("/module/slots/tensor-slots", test_tensor_slots);
  g_test_add_func ("/module/slots/null-registers-empty-slot", test_null_registers_empty_slot);
  g_test_add_func ("/module/slots/wrong-type-rejected", test_wrong_type_rejected);
  g_test_add_func ("/module/slots/notify-on-change", test_notify_on_change);
  g_test_add_func ("/module/slots/listed-as-properties", test_listed_as_properties);
  g_test_add_func ("/module/slots/own-property-after-slots", test_own_property_after_slots);
  g_test_add_func ("/module/slots/subclass-own-property-before-slot", test_subclass_own_property_before_slot);
  g_test_add_func ("/module/slots/construct-with-slot", test_construct_with_slot);
  g_test_add_func ("/module/slots/typed-child", test_typed_child);
  g_test_add_func ("/module/slots/first-instances-from-threads", test_first_instances_from_threads);

  return g_test_run ();
}
