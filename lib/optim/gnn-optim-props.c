/* gnn-optim-props.c: generic property storage for the optimizers and LR
 * schedulers (one get/set_property for all of them), and the text form of
 * their values in state-dict metadata
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "optim/gnn-optim-private.h"

/* What one class installed: its properties get bag indices first .. first+n-1. */
typedef struct
{
  guint        first;
  guint        n;
  GParamSpec **pspecs;     /* all of the hierarchy's, first + n, index order */
} BagClass;

G_DEFINE_QUARK (gnn-optim-bag-class, bag_class)
G_DEFINE_QUARK (gnn-optim-bag-values, bag_values)

static BagClass *
bag_class_lookup (GType type)
{
  for (; type != 0; type = g_type_parent (type))
    {
      BagClass *bc = g_type_get_qdata (type, bag_class_quark ());
      if (bc != NULL)
        return bc;
    }
  return NULL;
}

typedef struct
{
  guint   n;
  GValue *values;
} BagValues;

static void
bag_values_free (gpointer data)
{
  BagValues *bv = data;

  for (guint i = 0; i < bv->n; i++)
    g_value_unset (&bv->values[i]);
  g_free (bv->values);
  g_free (bv);
}

static BagValues *
bag_values (GObject *object)
{
  BagValues *bv = g_object_get_qdata (object, bag_values_quark ());
  BagClass *bc;

  if (G_LIKELY (bv != NULL))
    return bv;
  bc = bag_class_lookup (G_OBJECT_TYPE (object));
  bv = g_new0 (BagValues, 1);
  bv->n = bc != NULL ? bc->first + bc->n : 0;
  bv->values = g_new0 (GValue, bv->n);
  for (guint i = 0; i < bv->n; i++)
    {
      g_value_init (&bv->values[i], bc->pspecs[i]->value_type);
      g_param_value_set_default (bc->pspecs[i], &bv->values[i]);
    }
  g_object_set_qdata_full (object, bag_values_quark (), bv, bag_values_free);
  return bv;
}

guint
gnn_optim_bag_index (GParamSpec *pspec)
{
  BagClass *bc = g_type_get_qdata (pspec->owner_type, bag_class_quark ());

  g_assert (bc != NULL && pspec->param_id >= 1 && pspec->param_id <= bc->n);
  return bc->first + pspec->param_id - 1;
}

guint
gnn_optim_bag_size (GObject *object)
{
  return bag_values (object)->n;
}

GParamSpec **
gnn_optim_bag_pspecs (GObject *object)
{
  BagClass *bc = bag_class_lookup (G_OBJECT_TYPE (object));

  return bc != NULL ? bc->pspecs : NULL;
}

const GValue *
gnn_optim_prop_value (gpointer object,
                      GType    owner,
                      guint    index)
{
  BagClass *bc = g_type_get_qdata (owner, bag_class_quark ());

  return &bag_values (G_OBJECT (object))->values[bc->first + index];
}

const GValue *
gnn_optim_bag_values (GObject *object)
{
  return bag_values (object)->values;
}

static void
bag_get_property (GObject    *object,
                  guint       prop_id,
                  GValue     *value,
                  GParamSpec *pspec)
{
  (void) prop_id;
  g_value_copy (&bag_values (object)->values[gnn_optim_bag_index (pspec)], value);
}

static void
bag_set_property (GObject      *object,
                  guint         prop_id,
                  const GValue *value,
                  GParamSpec   *pspec)
{
  GValue *slot = &bag_values (object)->values[gnn_optim_bag_index (pspec)];

  (void) prop_id;
  g_value_unset (slot);
  g_value_init (slot, pspec->value_type);
  g_value_copy (value, slot);
}

void
gnn_optim_class_install_properties (GObjectClass  *klass,
                                    GParamSpec   **pspecs,
                                    guint          n_pspecs)
{
  GType type = G_OBJECT_CLASS_TYPE (klass);
  BagClass *parent = bag_class_lookup (g_type_parent (type));
  BagClass *bc = g_new0 (BagClass, 1);   /* lives as long as the type */
  g_autofree GParamSpec **with_slot0 = g_new0 (GParamSpec *, n_pspecs + 1);

  bc->first = parent != NULL ? parent->first + parent->n : 0;
  bc->n = n_pspecs;
  bc->pspecs = g_new0 (GParamSpec *, bc->first + bc->n);
  if (parent != NULL)
    memcpy (bc->pspecs, parent->pspecs, bc->first * sizeof (GParamSpec *));
  memcpy (bc->pspecs + bc->first, pspecs, bc->n * sizeof (GParamSpec *));
  g_type_set_qdata (type, bag_class_quark (), bc);

  klass->get_property = bag_get_property;
  klass->set_property = bag_set_property;
  /* GObject's prop_id 0 is invalid: the enum index i is prop_id i + 1 */
  memcpy (with_slot0 + 1, pspecs, n_pspecs * sizeof (GParamSpec *));
  g_object_class_install_properties (klass, n_pspecs + 1, with_slot0);
}

/* --- property constructors ----------------------------------------------- */

#define SETTING_FLAGS (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS)

GParamSpec *
gnn_optim_double_property (const char *name,
                           double      default_value)
{
  return g_param_spec_double (name, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, default_value,
                              SETTING_FLAGS);
}

GParamSpec *
gnn_optim_double_range_property (const char *name,
                                 double      minimum,
                                 double      maximum,
                                 double      default_value)
{
  return g_param_spec_double (name, NULL, NULL, minimum, maximum, default_value, SETTING_FLAGS);
}

GParamSpec *
gnn_optim_bool_property (const char *name,
                         gboolean    default_value)
{
  return g_param_spec_boolean (name, NULL, NULL, default_value, SETTING_FLAGS);
}

GParamSpec *
gnn_optim_int64_property (const char *name,
                          gint64      minimum,
                          gint64      maximum,
                          gint64      default_value)
{
  return g_param_spec_int64 (name, NULL, NULL, minimum, maximum, default_value, SETTING_FLAGS);
}

GParamSpec *
gnn_optim_string_property (const char *name,
                           const char *default_value)
{
  return g_param_spec_string (name, NULL, NULL, default_value, SETTING_FLAGS);
}

GParamSpec *
gnn_optim_variant_property (const char *name,
                            const char *type_string,
                            GVariant   *default_value)
{
  return g_param_spec_variant (name, NULL, NULL, G_VARIANT_TYPE (type_string), default_value,
                               SETTING_FLAGS);
}

GParamSpec *
gnn_optim_doubles_property (const char *name,
                            double      default_value)
{
  return gnn_optim_variant_property (name, "ad", default_value == default_value
                                     ? g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &default_value,
                                                                  1, sizeof (double))
                                     : NULL);
}

GParamSpec *
gnn_optim_object_property (const char *name,
                           GType       type)
{
  return g_param_spec_object (name, NULL, NULL, type, SETTING_FLAGS);
}

char *
gnn_optim_torch_name (const char *property_name)
{
  char *name = g_strdup (property_name);

  g_strdelimit (name, "-", '_');
  return name;
}

/* --- values <-> variants <-> text ------------------------------------------ */

GVariant *
gnn_optim_value_to_variant (const GValue *value)
{
  GVariant *v;

  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value)))
    {
    case G_TYPE_DOUBLE:
      v = g_variant_new_double (g_value_get_double (value));
      break;
    case G_TYPE_BOOLEAN:
      v = g_variant_new_boolean (g_value_get_boolean (value));
      break;
    case G_TYPE_INT:
      v = g_variant_new_int64 (g_value_get_int (value));
      break;
    case G_TYPE_UINT:
      v = g_variant_new_int64 (g_value_get_uint (value));
      break;
    case G_TYPE_INT64:
      v = g_variant_new_int64 (g_value_get_int64 (value));
      break;
    case G_TYPE_STRING:
      v = g_variant_new_maybe (G_VARIANT_TYPE_STRING,
                               g_value_get_string (value) != NULL
                               ? g_variant_new_string (g_value_get_string (value)) : NULL);
      break;
    case G_TYPE_VARIANT:
      v = g_value_get_variant (value);
      return v != NULL ? g_variant_ref (v) : NULL;
    default:
      return NULL;
    }
  return g_variant_ref_sink (v);
}

/* A number of any GVariant numeric type as a double and an int64 (a
 * double truncated); FALSE for other types. */
static gboolean
variant_number (GVariant *v,
                double   *d,
                gint64   *i)
{
  const GVariantType *t = g_variant_get_type (v);

  if (g_variant_type_equal (t, G_VARIANT_TYPE_DOUBLE))
    {
      *d = g_variant_get_double (v);
      *i = (gint64) *d;
      return TRUE;
    }
  if (g_variant_type_equal (t, G_VARIANT_TYPE_INT64))
    *i = g_variant_get_int64 (v);
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_INT32))
    *i = g_variant_get_int32 (v);
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_UINT32))
    *i = g_variant_get_uint32 (v);
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_INT16))
    *i = g_variant_get_int16 (v);
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_UINT16))
    *i = g_variant_get_uint16 (v);
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_BYTE))
    *i = g_variant_get_byte (v);
  else if (g_variant_type_equal (t, G_VARIANT_TYPE_UINT64) && g_variant_get_uint64 (v) <= G_MAXINT64)
    *i = (gint64) g_variant_get_uint64 (v);
  else
    return FALSE;
  *d = (double) *i;
  return TRUE;
}

gboolean
gnn_optim_variant_to_double (GVariant *variant,
                             double   *out)
{
  gint64 unused;

  return variant_number (variant, out, &unused);
}

gboolean
gnn_optim_value_from_variant (GValue   *value,
                              GVariant *variant)
{
  double d = 0;
  gint64 i = 0;

  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value)))
    {
    case G_TYPE_DOUBLE:
      if (!variant_number (variant, &d, &i))
        return FALSE;
      g_value_set_double (value, d);
      return TRUE;
    case G_TYPE_BOOLEAN:
      if (!g_variant_is_of_type (variant, G_VARIANT_TYPE_BOOLEAN))
        return FALSE;
      g_value_set_boolean (value, g_variant_get_boolean (variant));
      return TRUE;
    case G_TYPE_INT:
    case G_TYPE_UINT:
    case G_TYPE_INT64:
      if (!variant_number (variant, &d, &i) ||
          (g_variant_is_of_type (variant, G_VARIANT_TYPE_DOUBLE) && (double) i != d))
        return FALSE;
      if (G_VALUE_HOLDS_INT64 (value))
        g_value_set_int64 (value, i);
      else if (G_VALUE_HOLDS_INT (value))
        {
          if (i < G_MININT || i > G_MAXINT)
            return FALSE;
          g_value_set_int (value, (int) i);
        }
      else
        {
          if (i < 0 || i > G_MAXUINT)
            return FALSE;
          g_value_set_uint (value, (guint) i);
        }
      return TRUE;
    case G_TYPE_STRING:
      if (g_variant_is_of_type (variant, G_VARIANT_TYPE_STRING))
        {
          g_value_set_string (value, g_variant_get_string (variant, NULL));
          return TRUE;
        }
      if (g_variant_is_of_type (variant, G_VARIANT_TYPE ("ms")))
        {
          g_autoptr (GVariant) inner = g_variant_get_maybe (variant);
          g_value_set_string (value, inner != NULL ? g_variant_get_string (inner, NULL) : NULL);
          return TRUE;
        }
      return FALSE;
    case G_TYPE_VARIANT:      /* the caller validates the type against the pspec */
      g_value_set_variant (value, variant);
      return TRUE;
    default:
      return FALSE;
    }
}

char *
gnn_optim_variant_to_text (GVariant *variant)
{
  if (g_variant_is_of_type (variant, G_VARIANT_TYPE_DOUBLE))
    {
      /* shortest round-trip form; GVariant's own prints 17 digits */
      char *text = gnn_format_double_shortest (g_variant_get_double (variant));

      if (strpbrk (text, ".eni") == NULL)   /* "1" would read back as an integer */
        {
          char *with_point = g_strconcat (text, ".0", NULL);
          g_free (text);
          return with_point;
        }
      return text;
    }
  if (g_variant_is_of_type (variant, G_VARIANT_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, g_variant_get_int64 (variant));
  if (g_variant_is_of_type (variant, G_VARIANT_TYPE ("ad")))
    {
      gsize n = 0;
      const double *v = g_variant_get_fixed_array (variant, &n, sizeof (double));
      GString *out = g_string_new ("[");

      for (gsize i = 0; i < n; i++)
        {
          g_autoptr (GVariant) item = g_variant_ref_sink (g_variant_new_double (v[i]));
          g_autofree char *text = gnn_optim_variant_to_text (item);
          g_string_append_printf (out, i == 0 ? "%s" : ", %s", text);
        }
      g_string_append_c (out, ']');
      return g_string_free (out, FALSE);
    }
  return g_variant_print (variant, FALSE);
}

GVariant *
gnn_optim_variant_from_text (const char          *text,
                             const GVariantType  *type,
                             const char          *key,
                             GError             **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GVariant) v = NULL;

  if (text == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_KEY, "missing key in state dict: '%s'", key);
      return NULL;
    }
  /* booleans as Python prints them, from older files */
  if (type != NULL && g_variant_type_equal (type, G_VARIANT_TYPE_BOOLEAN) &&
      (strcmp (text, "True") == 0 || strcmp (text, "False") == 0))
    return g_variant_ref_sink (g_variant_new_boolean (text[0] == 'T'));
  v = g_variant_parse (type, text, NULL, NULL, &local);
  if (v == NULL)
    {
      const char *what = type == NULL ? "value"
                         : g_variant_type_equal (type, G_VARIANT_TYPE_DOUBLE) ? "number"
                         : g_variant_type_equal (type, G_VARIANT_TYPE_INT64) ? "integer"
                         : g_variant_type_equal (type, G_VARIANT_TYPE_BOOLEAN) ? "boolean"
                         : "value";
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "invalid %s for %s in state dict: '%s'", what, key, text);
      return NULL;
    }
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    {
      GVariant *wide = g_variant_ref_sink (g_variant_new_int64 (g_variant_get_int32 (v)));
      g_variant_unref (v);
      return wide;
    }
  return g_steal_pointer (&v);
}

gboolean
gnn_optim_parse_double (const char  *text,
                        const char  *key,
                        double      *out,
                        GError     **error)
{
  g_autoptr (GVariant) v = gnn_optim_variant_from_text (text, G_VARIANT_TYPE_DOUBLE, key, error);

  if (v == NULL)
    return FALSE;
  *out = g_variant_get_double (v);
  return TRUE;
}

gboolean
gnn_optim_parse_int64 (const char  *text,
                       const char  *key,
                       gint64      *out,
                       GError     **error)
{
  g_autoptr (GVariant) v = gnn_optim_variant_from_text (text, G_VARIANT_TYPE_INT64, key, error);

  if (v == NULL)
    return FALSE;
  *out = g_variant_get_int64 (v);
  return TRUE;
}

char *
gnn_optim_doubles_to_text (const double *values,
                           guint         n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *v = gnn_format_double_shortest (values[i]);
      g_string_append_printf (out, i == 0 ? "%s" : ",%s", v);
    }
  return g_string_free (out, FALSE);
}

GArray *
gnn_optim_doubles_from_text (const char  *text,
                             const char  *key,
                             GError     **error)
{
  g_autoptr (GArray) values = g_array_new (FALSE, TRUE, sizeof (double));
  g_auto (GStrv) parts = NULL;

  if (text == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_KEY, "missing key in state dict: '%s'", key);
      return NULL;
    }
  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; text[0] != '\0' && parts[i] != NULL; i++)
    {
      double v;

      if (!gnn_optim_parse_double (g_strstrip (parts[i]), key, &v, error))
        return NULL;
      g_array_append_val (values, v);
    }
  return g_steal_pointer (&values);
}

/* --- every property as metadata ------------------------------------------- */

static gboolean
is_serialized (GParamSpec *pspec)
{
  GType t = G_TYPE_FUNDAMENTAL (pspec->value_type);

  return t == G_TYPE_DOUBLE || t == G_TYPE_BOOLEAN || t == G_TYPE_INT || t == G_TYPE_UINT ||
         t == G_TYPE_INT64 || t == G_TYPE_STRING || t == G_TYPE_VARIANT;
}

static char *
metadata_key (const char *prefix,
              GParamSpec *pspec)
{
  g_autofree char *name = gnn_optim_torch_name (pspec->name);

  return g_strconcat (prefix, name, NULL);
}

/* The GVariant type a property's text is parsed as (NULL: inferred). */
static const GVariantType *
text_type (GParamSpec *pspec)
{
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_DOUBLE: return G_VARIANT_TYPE_DOUBLE;
    case G_TYPE_BOOLEAN: return G_VARIANT_TYPE_BOOLEAN;
    case G_TYPE_STRING: return G_VARIANT_TYPE ("ms");
    case G_TYPE_VARIANT: return G_PARAM_SPEC_VARIANT (pspec)->type;
    default: return G_VARIANT_TYPE_INT64;
    }
}

void
gnn_optim_props_to_metadata (GObject      *object,
                             const char   *prefix,
                             GnnStateDict *sd)
{
  GParamSpec **pspecs = gnn_optim_bag_pspecs (object);
  guint n = gnn_optim_bag_size (object);

  for (guint i = 0; i < n; i++)
    {
      g_auto (GValue) value = G_VALUE_INIT;
      g_autoptr (GVariant) v = NULL;
      g_autofree char *key = NULL, *text = NULL;

      if (!is_serialized (pspecs[i]))
        continue;
      g_value_init (&value, pspecs[i]->value_type);
      g_object_get_property (object, pspecs[i]->name, &value);
      v = gnn_optim_value_to_variant (&value);
      if (v == NULL)
        continue;      /* an unset variant */
      key = metadata_key (prefix, pspecs[i]);
      text = gnn_optim_variant_to_text (v);
      gnn_state_dict_set_metadata (sd, key, text);
    }
}

static void
value_clear (gpointer data)
{
  g_value_unset (data);
}

GArray *
gnn_optim_props_from_metadata (GObject             *object,
                               const char          *prefix,
                               GnnStateDict        *sd,
                               const char * const  *extra_keys,
                               GError             **error)
{
  GParamSpec **pspecs = gnn_optim_bag_pspecs (object);
  guint n = gnn_optim_bag_size (object);
  g_autoptr (GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_auto (GStrv) meta_keys = gnn_state_dict_get_metadata_keys (sd);
  gsize prefix_len = strlen (prefix);

  g_array_set_clear_func (values, value_clear);
  g_array_set_size (values, n);
  for (guint i = 0; i < n; i++)
    {
      GValue *slot = &g_array_index (values, GValue, i);
      g_autofree char *key = metadata_key (prefix, pspecs[i]);
      const char *text = gnn_state_dict_get_metadata (sd, key);
      g_autoptr (GVariant) v = NULL;

      g_value_init (slot, pspecs[i]->value_type);
      g_object_get_property (object, pspecs[i]->name, slot);
      if (!is_serialized (pspecs[i]))
        continue;
      if (text == NULL && G_TYPE_FUNDAMENTAL (pspecs[i]->value_type) == G_TYPE_VARIANT)
        continue;      /* not written when unset */
      v = gnn_optim_variant_from_text (text, text_type (pspecs[i]), key, error);
      if (v == NULL)
        return NULL;
      if (!gnn_optim_value_from_variant (slot, v) || g_param_value_validate (pspecs[i], slot))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "value of %s in state dict is out of range: '%s'", key, text);
          return NULL;
        }
    }

  for (guint i = 0; meta_keys != NULL && meta_keys[i] != NULL; i++)
    {
      const char *name;
      gboolean known;

      if (!g_str_has_prefix (meta_keys[i], prefix))
        continue;
      name = meta_keys[i] + prefix_len;
      known = extra_keys != NULL && g_strv_contains (extra_keys, name);
      for (guint j = 0; j < n && !known; j++)
        {
          g_autofree char *torch_name = gnn_optim_torch_name (pspecs[j]->name);
          known = is_serialized (pspecs[j]) && strcmp (torch_name, name) == 0;
        }
      if (!known)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "unexpected key in state dict: '%s'", meta_keys[i]);
          return NULL;
        }
    }
  return g_steal_pointer (&values);
}

void
gnn_optim_props_apply (GObject *object,
                       GArray  *values)
{
  GParamSpec **pspecs = gnn_optim_bag_pspecs (object);

  g_object_freeze_notify (object);
  for (guint i = 0; i < values->len; i++)
    if (is_serialized (pspecs[i]))
      g_object_set_property (object, pspecs[i]->name, &g_array_index (values, GValue, i));
  g_object_thaw_notify (object);
}
