/* gnn-vision-props.c: the property store of lib/vision's classes — each
 * property lives in a struct field whose offset is kept with its pspec
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"

static GQuark offset_quark;

static gpointer
field_of (GObject    *object,
          GParamSpec *pspec)
{
  gssize offset = GPOINTER_TO_SIZE (g_param_spec_get_qdata (pspec, offset_quark));

  /* stored + 1 so that offset 0 is not NULL; private fields lie before the
   * instance, at negative offsets */
  return G_STRUCT_MEMBER_P (object, offset - 1);
}

static void
store_get_property (GObject    *object,
                    guint       prop_id,
                    GValue     *value,
                    GParamSpec *pspec)
{
  gpointer field;

  if (g_param_spec_get_qdata (pspec, offset_quark) == NULL)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  field = field_of (object, pspec);
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN: g_value_set_boolean (value, *(gboolean *) field); break;
    case G_TYPE_INT: g_value_set_int (value, *(gint *) field); break;
    case G_TYPE_UINT: g_value_set_uint (value, *(guint *) field); break;
    case G_TYPE_INT64: g_value_set_int64 (value, *(gint64 *) field); break;
    case G_TYPE_UINT64: g_value_set_uint64 (value, *(guint64 *) field); break;
    case G_TYPE_DOUBLE: g_value_set_double (value, *(double *) field); break;
    case G_TYPE_ENUM: g_value_set_enum (value, *(gint *) field); break;
    case G_TYPE_STRING: g_value_set_string (value, *(char **) field); break;
    case G_TYPE_VARIANT: g_value_set_variant (value, *(GVariant **) field); break;
    case G_TYPE_BOXED: g_value_set_boxed (value, *(gpointer *) field); break;
    case G_TYPE_OBJECT:
    case G_TYPE_INTERFACE: g_value_set_object (value, *(GObject **) field); break;
    default: g_assert_not_reached ();
    }
}

static void
store_set_property (GObject      *object,
                    guint         prop_id,
                    const GValue *value,
                    GParamSpec   *pspec)
{
  gpointer field;

  if (g_param_spec_get_qdata (pspec, offset_quark) == NULL)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  field = field_of (object, pspec);
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN: *(gboolean *) field = g_value_get_boolean (value); break;
    case G_TYPE_INT: *(gint *) field = g_value_get_int (value); break;
    case G_TYPE_UINT: *(guint *) field = g_value_get_uint (value); break;
    case G_TYPE_INT64: *(gint64 *) field = g_value_get_int64 (value); break;
    case G_TYPE_UINT64: *(guint64 *) field = g_value_get_uint64 (value); break;
    case G_TYPE_DOUBLE: *(double *) field = g_value_get_double (value); break;
    case G_TYPE_ENUM: *(gint *) field = g_value_get_enum (value); break;
    case G_TYPE_STRING:
      g_free (*(char **) field);
      *(char **) field = g_value_dup_string (value);
      break;
    case G_TYPE_VARIANT:
      g_clear_pointer ((GVariant **) field, g_variant_unref);
      *(GVariant **) field = g_value_dup_variant (value);
      break;
    case G_TYPE_BOXED:
      if (*(gpointer *) field != NULL)
        g_boxed_free (pspec->value_type, *(gpointer *) field);
      *(gpointer *) field = g_value_dup_boxed (value);
      break;
    case G_TYPE_OBJECT:
    case G_TYPE_INTERFACE: g_set_object ((GObject **) field, g_value_get_object (value)); break;
    default: g_assert_not_reached ();
    }
}

void
gnn_vision_class_install_property (GObjectClass *klass,
                                   guint         prop_id,
                                   GParamSpec   *pspec,
                                   gssize        offset)
{
  if (offset_quark == 0)
    offset_quark = g_quark_from_static_string ("gnn-vision-field-offset");
  klass->get_property = store_get_property;
  klass->set_property = store_set_property;
  g_param_spec_set_qdata (pspec, offset_quark, GSIZE_TO_POINTER ((gsize) (offset + 1)));
  g_object_class_install_property (klass, prop_id, pspec);
}

void
gnn_vision_props_clear (GObject *object)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);

  for (guint i = 0; i < n; i++)
    {
      gpointer field;

      if (g_param_spec_get_qdata (pspecs[i], offset_quark) == NULL)
        continue;
      field = field_of (object, pspecs[i]);
      switch (G_TYPE_FUNDAMENTAL (pspecs[i]->value_type))
        {
        case G_TYPE_STRING: g_clear_pointer ((char **) field, g_free); break;
        case G_TYPE_VARIANT: g_clear_pointer ((GVariant **) field, g_variant_unref); break;
        case G_TYPE_BOXED:
          if (*(gpointer *) field != NULL)
            g_boxed_free (pspecs[i]->value_type, *(gpointer *) field);
          *(gpointer *) field = NULL;
          break;
        case G_TYPE_OBJECT:
        case G_TYPE_INTERFACE: g_clear_object ((GObject **) field); break;
        default: break;
        }
    }
}

void
gnn_vision_install_double (GObjectClass *klass,
                           guint         prop_id,
                           const char   *name,
                           double        min,
                           double        max,
                           double        default_value,
                           gssize        offset)
{
  gnn_vision_class_install_property (klass, prop_id,
    g_param_spec_double (name, NULL, NULL, min, max, default_value,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    offset);
}
