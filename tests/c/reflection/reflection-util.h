/* reflection-util.h: what the reflection tests share — every instantiable
 * Gnn type, the fixture objects that stand in for required object
 * properties, building an object from properties (GInitable included) and
 * calling each kind of object's main method.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>
#include <gio/gio.h>
#include <gnn/gnn.h>

#include "gnn-type-list.h"

/* --- types ---------------------------------------------------------------- */

G_GNUC_UNUSED static void
collect_gnn_types (GType      parent,
                   GPtrArray *out)
{
  guint n = 0;
  g_autofree GType *children = g_type_children (parent, &n);

  for (guint i = 0; i < n; i++)
    {
      if (g_str_has_prefix (g_type_name (children[i]), "Gnn"))
        g_ptr_array_add (out, GSIZE_TO_POINTER (children[i]));
      collect_gnn_types (children[i], out);
    }
}

G_GNUC_UNUSED static gint
compare_type_names (gconstpointer a,
                    gconstpointer b)
{
  return strcmp (g_type_name (GPOINTER_TO_SIZE (*(gpointer *) a)),
                 g_type_name (GPOINTER_TO_SIZE (*(gpointer *) b)));
}

/* Every instantiable (non-abstract) GObject type whose name starts with
 * "Gnn", sorted by name, after registering every type the headers declare. */
G_GNUC_UNUSED static GPtrArray *
reflection_instantiable_types (void)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  GPtrArray *types = g_ptr_array_new ();

  for (gsize i = 0; i < G_N_ELEMENTS (gnn_test_type_getters); i++)
    g_type_ensure (gnn_test_type_getters[i] ());
  collect_gnn_types (G_TYPE_OBJECT, all);
  for (guint i = 0; i < all->len; i++)
    if (!G_TYPE_IS_ABSTRACT (GPOINTER_TO_SIZE (all->pdata[i])))
      g_ptr_array_add (types, all->pdata[i]);
  g_ptr_array_sort (types, compare_type_names);
  return types;
}

/* --- fixtures ------------------------------------------------------------- */

/* Small, valid objects for object-typed properties: a 4-item TensorDataset
 * (x: float [4, 3], y: int64 [4]), a SequentialSampler over it, an SGD
 * optimizer over one parameter that has a gradient, a generator, tensors. */
typedef struct
{
  GPtrArray *objects;
} Fixtures;

G_GNUC_UNUSED static GnnTensor *
fixture_floats (const gint64 *shape,
                guint         ndim)
{
  gint64 numel = 1;
  g_autoptr(GnnTensor) flat = NULL;

  for (guint d = 0; d < ndim; d++)
    numel *= shape[d];
  flat = gnn_tensor_arange (0, (double) numel, 1, GNN_DTYPE_F32, NULL);
  return gnn_tensor_reshape (flat, shape, ndim, NULL);
}

G_GNUC_UNUSED static void
fixtures_init (Fixtures *f)
{
  const gint64 xs[2] = { 4, 3 }, ys[1] = { 4 }, ws[1] = { 3 };
  const gint64 labels[4] = { 0, 1, 2, 1 };
  g_autoptr(GnnTensor) x = fixture_floats (xs, 2);
  g_autoptr(GnnTensor) y = gnn_tensor_new_from_int64s (labels, 4, ys, 1, NULL);
  GnnTensor *pair[2] = { x, y };
  g_autoptr(GnnTensor) w = fixture_floats (ws, 1);
  g_autoptr(GnnTensor) grad = fixture_floats (ws, 1);
  g_autoptr(GnnParameter) param = gnn_parameter_new (w, TRUE);
  g_autoptr(GPtrArray) params = g_ptr_array_new ();
  GnnTensorDataset *dataset = gnn_tensor_dataset_new (pair, 2, NULL);
  GObject *sgd;

  g_object_set (param, "grad", grad, NULL);
  g_ptr_array_add (params, param);
  sgd = g_initable_new (GNN_TYPE_SGD, NULL, NULL, "lr", 0.1, NULL);
  g_assert_nonnull (sgd);
  g_assert_true (gnn_optimizer_add_params (GNN_OPTIMIZER (sgd), params, NULL));

  f->objects = g_ptr_array_new_with_free_func (g_object_unref);
  g_assert_nonnull (dataset);
  g_ptr_array_add (f->objects, dataset);
  g_ptr_array_add (f->objects, gnn_sequential_sampler_new (GNN_DATASET (dataset)));
  g_ptr_array_add (f->objects, sgd);
  g_ptr_array_add (f->objects, gnn_generator_new (7));
  g_ptr_array_add (f->objects, g_object_ref (param));
  g_ptr_array_add (f->objects, fixture_floats (ws, 1));
  g_ptr_array_add (f->objects, gnn_tensor_new_from_int64s (labels, 3, ws, 1, NULL));
  g_ptr_array_add (f->objects, gnn_collate_new ());
}

G_GNUC_UNUSED static void
fixtures_clear (Fixtures *f)
{
  g_clear_pointer (&f->objects, g_ptr_array_unref);
}

/* The first fixture that fits @type, or NULL. */
G_GNUC_UNUSED static GObject *
fixtures_find (Fixtures *f,
               GType     type)
{
  for (guint i = 0; i < f->objects->len; i++)
    if (G_TYPE_CHECK_INSTANCE_TYPE (f->objects->pdata[i], type))
      return f->objects->pdata[i];
  return NULL;
}

/* A fixture that does not fit @type (for "wrong-type object" values). */
G_GNUC_UNUSED static GObject *
fixtures_find_wrong (Fixtures *f,
                     GType     type,
                     guint     salt)
{
  for (guint i = 0; i < f->objects->len; i++)
    {
      GObject *o = f->objects->pdata[(i + salt) % f->objects->len];

      if (!G_TYPE_CHECK_INSTANCE_TYPE (o, type))
        return o;
    }
  return NULL;
}

/* Object properties a type cannot be built without (PyTorch's required
 * constructor arguments): they get a fixture in every build. */
G_GNUC_UNUSED static gboolean
is_required_object_property (GParamSpec *pspec)
{
  static const char *const names[] = {
    "data-source", "dataset", "sampler", "optimizer",
  };

  if (!G_IS_PARAM_SPEC_OBJECT (pspec) || !(pspec->flags & G_PARAM_WRITABLE))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (pspec->name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* --- building ------------------------------------------------------------- */

/* A list of (name, value) pairs for g_object_new_with_properties(). */
typedef struct
{
  GPtrArray *names;
  GArray    *values;
} PropList;

G_GNUC_UNUSED static void
prop_list_init (PropList *l)
{
  l->names = g_ptr_array_new ();
  l->values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_array_set_clear_func (l->values, (GDestroyNotify) g_value_unset);
}

G_GNUC_UNUSED static void
prop_list_clear (PropList *l)
{
  g_clear_pointer (&l->names, g_ptr_array_unref);
  g_clear_pointer (&l->values, g_array_unref);
}

/* Appends @name; returns the (zeroed) GValue to initialize. */
G_GNUC_UNUSED static GValue *
prop_list_add (PropList   *l,
               const char *name)
{
  GValue zero = G_VALUE_INIT;

  g_ptr_array_add (l->names, (gpointer) name);
  g_array_append_val (l->values, zero);
  return &g_array_index (l->values, GValue, l->values->len - 1);
}

/* Adds a fixture for every required object property not in @l yet. */
G_GNUC_UNUSED static void
prop_list_add_required (PropList *l,
                        GType     type,
                        Fixtures *f)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (type);
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_CLASS (klass), &n);

  for (guint i = 0; i < n; i++)
    {
      GObject *fixture;
      gboolean present = FALSE;

      if (!is_required_object_property (pspecs[i]))
        continue;
      for (guint j = 0; j < l->names->len; j++)
        present |= strcmp (l->names->pdata[j], pspecs[i]->name) == 0;
      fixture = fixtures_find (f, pspecs[i]->value_type);
      if (present || fixture == NULL)
        continue;
      g_value_init (prop_list_add (l, pspecs[i]->name), pspecs[i]->value_type);
      g_value_set_object (&g_array_index (l->values, GValue, l->values->len - 1), fixture);
    }
}

/* g_object_new_with_properties() and, for a GInitable, g_initable_init():
 * NULL with @error set when the object refuses its properties. */
G_GNUC_UNUSED static GObject *
build_object (GType      type,
              PropList  *l,
              GError   **error)
{
  g_autoptr(GObject) object =
    g_object_new_with_properties (type, l->names->len, (const char **) l->names->pdata,
                                  (const GValue *) l->values->data);

  if (object == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "g_object_new returned NULL");
      return NULL;
    }
  if (G_IS_INITABLE (object) && !g_initable_init (G_INITABLE (object), NULL, error))
    return NULL;
  return g_steal_pointer (&object);
}

/* --- main methods --------------------------------------------------------- */

/* Reads every readable property (a getter must never crash). */
G_GNUC_UNUSED static void
read_all_properties (GObject *object)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs =
    g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);

  for (guint i = 0; i < n; i++)
    if (pspecs[i]->flags & G_PARAM_READABLE)
      {
        g_auto(GValue) v = G_VALUE_INIT;

        g_value_init (&v, pspecs[i]->value_type);
        g_object_get_property (object, pspecs[i]->name, &v);
      }
}

G_GNUC_UNUSED static void
call_module (GnnModule *module)
{
  const gint64 s2[2] = { 2, 3 }, s4[4] = { 1, 2, 4, 4 }, s1[1] = { 2 };
  const gint64 idx[6] = { 0, 1, 1, 0, 2, 1 }, cls[2] = { 1, 0 };
  g_autoptr(GnnTensor) x2 = fixture_floats (s2, 2);
  g_autoptr(GnnTensor) x4 = fixture_floats (s4, 4);
  g_autoptr(GnnTensor) i2 = gnn_tensor_new_from_int64s (idx, 6, s2, 2, NULL);
  g_autoptr(GnnTensor) target = gnn_tensor_new_from_int64s (cls, 2, s1, 1, NULL);
  GnnTensor *inputs[3] = { x2, x4, i2 };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) out = gnn_module_call (module, inputs[i], &error);

      g_assert_true ((out == NULL) != (error == NULL));
    }
  /* Losses take a target too. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnTensor) out = NULL;

    if (GNN_IS_CROSS_ENTROPY_LOSS (module))
      out = gnn_cross_entropy_loss_compute (GNN_CROSS_ENTROPY_LOSS (module), x2, target, &error);
    else if (GNN_IS_NLL_LOSS (module))
      out = gnn_nll_loss_compute (GNN_NLL_LOSS (module), x2, target, &error);
    else if (GNN_IS_MSE_LOSS (module))
      out = gnn_mse_loss_compute (GNN_MSE_LOSS (module), x2, x2, &error);
    else if (GNN_IS_BCE_WITH_LOGITS_LOSS (module))
      out = gnn_bce_with_logits_loss_compute (GNN_BCE_WITH_LOGITS_LOSS (module), x2, x2, &error);
    else
      return;
    g_assert_true ((out == NULL) != (error == NULL));
  }
}

G_GNUC_UNUSED static void
call_sampler (GnnSampler *sampler)
{
  GnnSamplerIter iter;
  g_autoptr(GError) error = NULL;
  gint64 index;

  gnn_sampler_get_length (sampler);
  if (!gnn_sampler_iter_init (&iter, sampler, &error))
    {
      g_assert_nonnull (error);
      return;
    }
  for (int i = 0; i < 64 && gnn_sampler_iter_next (&iter, &index); i++)
    ;
  gnn_sampler_iter_clear (&iter);
}

/* A transform on a small image, a float tensor image and a uint8 one. */
G_GNUC_UNUSED static void
call_transform (GnnTransform *transform)
{
  const gint64 chw[3] = { 3, 5, 4 };
  g_autoptr(GnnImage) image = gnn_image_new (4, 5, GNN_IMAGE_MODE_RGB, NULL);
  g_autoptr(GnnTensor) floats = fixture_floats (chw, 3);
  g_autoptr(GnnTensor) bytes = gnn_tensor_to_dtype (floats, GNN_DTYPE_U8, NULL);
  GnnTensor *inputs[3] = { GNN_TENSOR (image), floats, bytes };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) out = gnn_transform_apply (transform, inputs[i], &error);

      g_assert_true ((out == NULL) != (error == NULL));
    }
}

/* The object's main method, called on a small input: forward for modules,
 * step for optimizers and schedulers, get_item(0) and the length for
 * datasets, one epoch for samplers, one batch for loaders, an image and
 * tensors through transforms. Refusals are
 * GErrors; nothing may crash. */
G_GNUC_UNUSED static void
call_main_method (GObject *object)
{
  read_all_properties (object);
  if (GNN_IS_MODULE (object))
    call_module (GNN_MODULE (object));
  else if (GNN_IS_OPTIMIZER (object))
    {
      g_autoptr(GError) error = NULL;

      gnn_optimizer_step (GNN_OPTIMIZER (object), &error);
    }
  else if (GNN_IS_LR_SCHEDULER (object))
    {
      g_autoptr(GError) error = NULL;

      if (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (object), &error))
        gnn_lr_scheduler_step (GNN_LR_SCHEDULER (object), NULL);
    }
  else if (GNN_IS_DATASET (object))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) item = NULL;

      if (gnn_dataset_get_length (GNN_DATASET (object)) > 0)
        item = gnn_dataset_get_item (GNN_DATASET (object), 0, &error);
    }
  else if (GNN_IS_SAMPLER (object))
    call_sampler (GNN_SAMPLER (object));
  else if (GNN_IS_TRANSFORM (object))
    call_transform (GNN_TRANSFORM (object));
  else if (GNN_IS_DATA_LOADER (object))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (GNN_DATA_LOADER (object), &error);
      g_autoptr(GPtrArray) batch = NULL;

      if (iter != NULL)
        gnn_data_loader_iter_next (iter, &batch, NULL);
    }
}

/* --- isolation ------------------------------------------------------------ */

/* Runs @body for @type in a subprocess so that a crash fails this type only.
 * A type on the pending list (owned by another subsystem, see the tests)
 * may fail: it is reported as incomplete (TAP "TODO"); when it passes a
 * message says so. */
G_GNUC_UNUSED static void
run_isolated (GType            type,
              gboolean         pending,
              void           (*body) (GType type))
{
  if (g_test_subprocess ())
    {
      body (type);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  if (!pending)
    {
      if (!g_test_trap_has_passed ())
        g_test_fail_printf ("%s fails (see stderr)", g_type_name (type));
      return;
    }
  if (g_test_trap_has_passed ())
    g_test_message ("%s (pending) passes: take it off the pending list once its fix is in",
                    g_type_name (type));
  else
    g_test_incomplete ("pending: owned by another subsystem (see stderr)");
}

/* The pending list of each test: type names (NULL entries are ignored). */
G_GNUC_UNUSED static gboolean
name_in (GType              type,
         const char *const *names,
         gsize              n_names)
{
  for (gsize i = 0; i < n_names; i++)
    if (names[i] != NULL && strcmp (g_type_name (type), names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* --- main ----------------------------------------------------------------- */

static struct
{
  void              (*body) (GType type);
  const char *const  *pending;
  gsize               n_pending;
} reflection_run;

static void
reflection_test_type (gconstpointer data)
{
  GType type = GPOINTER_TO_SIZE (data);

  run_isolated (type, name_in (type, reflection_run.pending, reflection_run.n_pending),
                reflection_run.body);
}

/* Types whose default instance is large (VGG: 133 M parameters, AlexNet:
 * 61 M, ResNet-18: 11.7 M with 62 children; a tenth of a second to a second
 * each to build, several times that under ASan): the fuzz gives
 * them this many attempts instead of 100, the model-file test saves only
 * their bare instance (a varied one is built once per property). 0 for the
 * other types. */
G_GNUC_UNUSED static guint
reflection_heavy_attempts (GType type)
{
  static const struct { const char *type; guint attempts; } heavy[] = {
    { "GnnVGG", 4 },
    { "GnnAlexNet", 20 },
    { "GnnResNet", 20 },
    { "GnnMobileNetV2", 30 },
    { "GnnDenseNet", 30 },
    /* a varied Transformer (six layers of each stack at random widths)
     * took 11 s to save and load under ASan */
    { "GnnTransformer", 100 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (heavy); i++)
    if (g_str_equal (g_type_name (type), heavy[i].type))
      return heavy[i].attempts;
  return 0;
}

/* One test "/reflection/<name>/<GType name>" per instantiable Gnn type, each
 * running @body in a subprocess (see run_isolated()). */
G_GNUC_UNUSED static int
reflection_main (int                *argc,
                 char             ***argv,
                 const char         *name,
                 void              (*body) (GType type),
                 const char *const  *pending,
                 gsize               n_pending)
{
  g_autoptr(GPtrArray) types = NULL;

  g_test_init (argc, argv, NULL);
  reflection_run.body = body;
  reflection_run.pending = pending;
  reflection_run.n_pending = n_pending;
  types = reflection_instantiable_types ();
  g_assert_cmpuint (types->len, >, 40);
  for (guint i = 0; i < types->len; i++)
    {
      GType type = GPOINTER_TO_SIZE (types->pdata[i]);
      g_autofree char *path = g_strdup_printf ("/reflection/%s/%s", name, g_type_name (type));

      g_test_add_data_func (path, GSIZE_TO_POINTER (type), reflection_test_type);
    }
  return g_test_run ();
}
