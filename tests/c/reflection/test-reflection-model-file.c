/* test-reflection-model-file.c: every module type of the library survives
 * a model file (gnn_module_save_model → gnn_module_load_model): the same
 * type, configuration, state dict, training flag, printed form and outputs.
 * Each type is built twice — bare, and with every configuration property
 * moved off its default where the class accepts it — so a new layer is
 * covered as soon as its header is in include/gnn.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>

#include "gnn-test-util.h"
#include "reflection-util.h"

static const char *const pending[] = {
  NULL,
};

static Fixtures fixtures;

/* A valid value other than the default, or FALSE when there is none. */
static gboolean
other_value (GParamSpec *pspec,
             GValue     *value)
{
  g_value_init (value, pspec->value_type);
  g_param_value_set_default (pspec, value);
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN:
      g_value_set_boolean (value, !g_value_get_boolean (value));
      return TRUE;
    case G_TYPE_INT:
      if (g_value_get_int (value) < G_PARAM_SPEC_INT (pspec)->maximum)
        g_value_set_int (value, g_value_get_int (value) + 1);
      return TRUE;
    case G_TYPE_UINT:
      if (g_value_get_uint (value) < G_PARAM_SPEC_UINT (pspec)->maximum)
        g_value_set_uint (value, g_value_get_uint (value) + 1);
      return TRUE;
    case G_TYPE_INT64:
      if (g_value_get_int64 (value) < G_PARAM_SPEC_INT64 (pspec)->maximum)
        g_value_set_int64 (value, g_value_get_int64 (value) + 1);
      return TRUE;
    case G_TYPE_UINT64:
      if (g_value_get_uint64 (value) < G_PARAM_SPEC_UINT64 (pspec)->maximum)
        g_value_set_uint64 (value, g_value_get_uint64 (value) + 1);
      return TRUE;
    case G_TYPE_DOUBLE:
      {
        GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (pspec);
        double v = g_value_get_double (value);
        double next = v != 0 ? v * 0.5 : MIN (0.25, d->maximum);

        if (next >= d->minimum && next <= d->maximum)
          g_value_set_double (value, next);
        return TRUE;
      }
    case G_TYPE_ENUM:
      {
        GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;

        for (guint i = 0; i < klass->n_values; i++)
          if (klass->values[i].value != g_value_get_enum (value))
            {
              g_value_set_enum (value, klass->values[i].value);
              break;
            }
        return TRUE;
      }
    default:
      g_value_unset (value);
      return FALSE;
    }
}

/* The type with each scalar configuration property moved off its default,
 * one at a time, keeping the changes the class accepts. */
static GObject *
build_varied (GType type)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (type);
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_CLASS (klass), &n);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  GObject *best = NULL;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);
  for (guint i = 0; i < n; i++)
    {
      GValue value = G_VALUE_INIT;
      PropList props;
      GObject *candidate;

      if ((pspecs[i]->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE ||
          !(pspecs[i]->flags & (G_PARAM_CONSTRUCT | G_PARAM_CONSTRUCT_ONLY)) ||
          !other_value (pspecs[i], &value))
        continue;
      g_ptr_array_add (names, (gpointer) pspecs[i]->name);
      g_array_append_val (values, value);
      prop_list_init (&props);
      for (guint k = 0; k < names->len; k++)
        {
          GValue *v = prop_list_add (&props, names->pdata[k]);

          g_value_init (v, G_VALUE_TYPE (&g_array_index (values, GValue, k)));
          g_value_copy (&g_array_index (values, GValue, k), v);
        }
      candidate = build_object (type, &props, NULL);
      prop_list_clear (&props);
      if (candidate == NULL)
        {
          g_ptr_array_set_size (names, names->len - 1);
          g_array_set_size (values, values->len - 1);
          continue;
        }
      g_clear_object (&best);
      best = candidate;
    }
  return best;
}

static void
assert_same_properties (GObject *a,
                        GObject *b)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (a), &n);

  for (guint i = 0; i < n; i++)
    {
      g_auto(GValue) va = G_VALUE_INIT;
      g_auto(GValue) vb = G_VALUE_INIT;

      if ((pspecs[i]->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE ||
          !(pspecs[i]->flags & (G_PARAM_CONSTRUCT | G_PARAM_CONSTRUCT_ONLY)))
        continue;
      g_value_init (&va, pspecs[i]->value_type);
      g_value_init (&vb, pspecs[i]->value_type);
      g_object_get_property (a, pspecs[i]->name, &va);
      g_object_get_property (b, pspecs[i]->name, &vb);
      if (g_param_values_cmp (pspecs[i], &va, &vb) != 0)
        {
          g_autofree char *sa = g_strdup_value_contents (&va);
          g_autofree char *sb = g_strdup_value_contents (&vb);

          g_error ("%s: property %s saved %s, loaded %s", G_OBJECT_TYPE_NAME (a),
                   pspecs[i]->name, sa, sb);
        }
    }
}

/* The same output (or both an error) on each of the small inputs. */
static void
assert_same_outputs (GnnModule *a,
                     GnnModule *b)
{
  const gint64 s2[2] = { 2, 3 }, s4[4] = { 1, 2, 4, 4 };
  const gint64 idx[6] = { 0, 1, 1, 0, 2, 1 };
  g_autoptr(GnnTensor) x2 = fixture_floats (s2, 2);
  g_autoptr(GnnTensor) x4 = fixture_floats (s4, 4);
  g_autoptr(GnnTensor) i2 = gnn_tensor_new_from_int64s (idx, 6, s2, 2, NULL);
  GnnTensor *inputs[3] = { x2, x4, i2 };

  gnn_module_eval (a);
  gnn_module_eval (b);
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GnnTensor) ya = gnn_module_call (a, inputs[i], NULL);
      g_autoptr(GnnTensor) yb = gnn_module_call (b, inputs[i], NULL);

      g_assert_true ((ya == NULL) == (yb == NULL));
      if (ya != NULL)
        g_assert_true (gnn_tensor_equal (ya, yb));
    }
}

static void
roundtrip (GnnModule   *module,
           GnnLoadFlags flags)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GnnModule) loaded = NULL;
  g_autofree char *repr_a = NULL;
  g_autofree char *repr_b = NULL;
  int fd = g_file_open_tmp ("gnn-model-XXXXXX.safetensors", &path, &error);

  g_assert_no_error (error);
  close (fd);
  gnn_module_train (module, FALSE);
  if (!gnn_module_save_model (module, path, NULL, &error))
    g_error ("%s: save_model: %s", G_OBJECT_TYPE_NAME (module), error->message);
  loaded = gnn_module_load_model (path, flags, &error);
  g_unlink (path);
  if (loaded == NULL)
    g_error ("%s: load_model: %s", G_OBJECT_TYPE_NAME (module), error->message);

  g_assert_true (G_OBJECT_TYPE (loaded) == G_OBJECT_TYPE (module));
  g_assert_false (gnn_module_get_training (loaded));
  assert_same_properties (G_OBJECT (module), G_OBJECT (loaded));
  gnn_test_assert_same_state (module, loaded);
  repr_a = gnn_module_to_string (module);
  repr_b = gnn_module_to_string (loaded);
  g_assert_cmpstr (repr_a, ==, repr_b);
  assert_same_outputs (module, loaded);
}

static void
model_file_body (GType type)
{
  g_autoptr(GObject) bare = NULL;
  g_autoptr(GObject) varied = NULL;
  PropList props;

  if (!g_type_is_a (type, GNN_TYPE_MODULE))
    return;
  fixtures_init (&fixtures);
  prop_list_init (&props);
  prop_list_add_required (&props, type, &fixtures);
  bare = build_object (type, &props, NULL);
  prop_list_clear (&props);
  if (bare != NULL)
    roundtrip (GNN_MODULE (bare), GNN_LOAD_FLAGS_NONE);
  else
    g_test_message ("%s: no bare instance", g_type_name (type));
  if (reflection_heavy_attempts (type) > 0)
    g_test_message ("%s: heavy, only the bare instance", g_type_name (type));
  else
    varied = build_varied (type);
  if (varied != NULL)
    roundtrip (GNN_MODULE (varied), GNN_LOAD_FLAGS_COPY);
  fixtures_clear (&fixtures);
}

int
main (int argc, char **argv)
{
  return reflection_main (&argc, &argv, "model-file", model_file_body, pending,
                          G_N_ELEMENTS (pending));
}
