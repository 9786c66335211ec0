/* gnn-property-codec.c: an object's configuration properties to JSON and
 * back, checked against the properties' specs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "io/gnn-io-private.h"
#include "io/gnn-model-private.h"
#include "io/gnn-library-types.h"

/* --- types ------------------------------------------------------------------ */

static GHashTable *
library_types (void)
{
  static GHashTable *types;

  if (g_once_init_enter (&types))
    {
      GHashTable *set = g_hash_table_new (NULL, NULL);

      for (gsize i = 0; i < G_N_ELEMENTS (gnn_library_type_getters); i++)
        g_hash_table_add (set, GSIZE_TO_POINTER (gnn_library_type_getters[i] ()));
      g_once_init_leave (&types, set);
    }
  return types;
}

gboolean
gnn_io_is_library_type (GType type)
{
  return g_hash_table_contains (library_types (), GSIZE_TO_POINTER (type));
}

GType
gnn_io_lookup_type (const char  *name,
                    GType        base,
                    gboolean     allow_foreign,
                    const char  *what,
                    GError     **error)
{
  GType type;

  library_types ();   /* registers every library type first */
  type = g_type_from_name (name);
  if (type == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s has type \"%s\", which is %s", what, name,
                   allow_foreign ? "not registered (import the module that defines it first)"
                                 : "not a Gnn type");
      return 0;
    }
  if (!allow_foreign && !gnn_io_is_library_type (type))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s has type \"%s\", which is not one of Gnn's own types: classes "
                   "defined in a program or a binding are rebuilt only when the caller "
                   "allows them (GNN_LOAD_FLAGS_ALLOW_TYPES; weights_only=False in Python)",
                   what, name);
      return 0;
    }
  if (!g_type_is_a (type, base) || G_TYPE_IS_ABSTRACT (type) || !G_TYPE_IS_INSTANTIATABLE (type))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s has type \"%s\", which is not an instantiable %s", what, name,
                   g_type_name (base));
      return 0;
    }
  return type;
}

/* --- property lists ---------------------------------------------------------- */

void
gnn_prop_list_init (GnnPropList *list)
{
  list->names = g_ptr_array_new ();
  list->values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_array_set_clear_func (list->values, (GDestroyNotify) g_value_unset);
}

void
gnn_prop_list_clear (GnnPropList *list)
{
  g_clear_pointer (&list->names, g_ptr_array_unref);
  g_clear_pointer (&list->values, g_array_unref);
}

static GValue *
prop_list_add (GnnPropList *list,
               GParamSpec  *pspec)
{
  GValue zero = G_VALUE_INIT;
  GValue *value;

  g_ptr_array_add (list->names, (gpointer) g_intern_string (pspec->name));
  g_array_append_val (list->values, zero);
  value = &g_array_index (list->values, GValue, list->values->len - 1);
  g_value_init (value, pspec->value_type);
  return value;
}

gboolean
gnn_props_is_config (GParamSpec *pspec)
{
  return (pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE &&
         (pspec->flags & (G_PARAM_CONSTRUCT | G_PARAM_CONSTRUCT_ONLY)) != 0 &&
         (pspec->flags & G_PARAM_DEPRECATED) == 0 &&
         pspec->owner_type != G_TYPE_OBJECT;
}

/* --- encoding ---------------------------------------------------------------- */

static void
set_unsupported (GError     **error,
                 GObject     *object,
                 GParamSpec  *pspec)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "property \"%s\" of %s has type %s, which cannot be saved", pspec->name,
               G_OBJECT_TYPE_NAME (object), g_type_name (pspec->value_type));
}

static JsonNode *
encode_value (GObject               *object,
              GParamSpec            *pspec,
              const GValue          *value,
              GnnPropsEncodeObject   encode_object,
              gpointer               data,
              GError               **error)
{
  GType type = G_TYPE_FUNDAMENTAL (pspec->value_type);

  switch (type)
    {
    case G_TYPE_BOOLEAN:
      return json_node_init_boolean (json_node_alloc (), g_value_get_boolean (value));
    case G_TYPE_CHAR:
      return json_node_init_int (json_node_alloc (), g_value_get_schar (value));
    case G_TYPE_UCHAR:
      return json_node_init_int (json_node_alloc (), g_value_get_uchar (value));
    case G_TYPE_INT:
      return json_node_init_int (json_node_alloc (), g_value_get_int (value));
    case G_TYPE_UINT:
      return json_node_init_int (json_node_alloc (), g_value_get_uint (value));
    case G_TYPE_LONG:
      return json_node_init_int (json_node_alloc (), g_value_get_long (value));
    case G_TYPE_INT64:
      return json_node_init_int (json_node_alloc (), g_value_get_int64 (value));
    case G_TYPE_ULONG:
    case G_TYPE_UINT64:
      {
        guint64 v = type == G_TYPE_ULONG ? g_value_get_ulong (value) : g_value_get_uint64 (value);
        g_autofree char *text = NULL;

        if (v <= G_MAXINT64)
          return json_node_init_int (json_node_alloc (), (gint64) v);
        text = g_strdup_printf ("%" G_GUINT64_FORMAT, v);
        return json_node_init_string (json_node_alloc (), text);
      }
    case G_TYPE_FLOAT:
      return gnn_io_json_double (g_value_get_float (value));
    case G_TYPE_DOUBLE:
      return gnn_io_json_double (g_value_get_double (value));
    case G_TYPE_ENUM:
      {
        g_autoptr(GEnumClass) klass = g_type_class_ref (pspec->value_type);
        GEnumValue *ev = g_enum_get_value (klass, g_value_get_enum (value));

        if (ev == NULL)
          return json_node_init_int (json_node_alloc (), g_value_get_enum (value));
        return json_node_init_string (json_node_alloc (), ev->value_nick);
      }
    case G_TYPE_FLAGS:
      {
        g_autoptr(GFlagsClass) klass = g_type_class_ref (pspec->value_type);
        JsonArray *array = json_array_new ();
        guint bits = g_value_get_flags (value);

        for (guint i = 0; i < klass->n_values; i++)
          if (klass->values[i].value != 0 && (bits & klass->values[i].value) == klass->values[i].value)
            {
              json_array_add_string_element (array, klass->values[i].value_nick);
              bits &= ~klass->values[i].value;
            }
        return gnn_io_json_take_array (array);
      }
    case G_TYPE_STRING:
      if (g_value_get_string (value) == NULL)
        return json_node_init_null (json_node_alloc ());
      if (!g_utf8_validate (g_value_get_string (value), -1, NULL))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                       "property \"%s\" of %s is not valid UTF-8", pspec->name,
                       G_OBJECT_TYPE_NAME (object));
          return NULL;
        }
      return json_node_init_string (json_node_alloc (), g_value_get_string (value));
    case G_TYPE_VARIANT:
      {
        g_autofree char *text = NULL;

        if (g_value_get_variant (value) == NULL)
          return json_node_init_null (json_node_alloc ());
        text = g_variant_print (g_value_get_variant (value), TRUE);
        return json_node_init_string (json_node_alloc (), text);
      }
    case G_TYPE_BOXED:
      if (pspec->value_type == G_TYPE_STRV)
        {
          const char * const *strv = g_value_get_boxed (value);
          JsonArray *array;

          if (strv == NULL)
            return json_node_init_null (json_node_alloc ());
          array = json_array_new ();
          for (guint i = 0; strv[i] != NULL; i++)
            json_array_add_string_element (array, strv[i]);
          return gnn_io_json_take_array (array);
        }
      break;
    case G_TYPE_OBJECT:
      if (g_value_get_object (value) == NULL)
        return json_node_init_null (json_node_alloc ());
      if (encode_object != NULL)
        return encode_object (g_value_get_object (value), pspec, data, error);
      break;
    default:
      break;
    }
  set_unsupported (error, object, pspec);
  return NULL;
}

JsonNode *
gnn_props_encode (GObject               *object,
                  GnnPropsEncodeObject   encode_object,
                  gpointer               data,
                  GError               **error)
{
  g_autoptr(JsonObject) props = json_object_new ();
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);

  for (guint i = 0; i < n; i++)
    {
      g_auto(GValue) value = G_VALUE_INIT;
      JsonNode *node;

      if (!gnn_props_is_config (pspecs[i]))
        continue;
      g_value_init (&value, pspecs[i]->value_type);
      g_object_get_property (object, pspecs[i]->name, &value);
      node = encode_value (object, pspecs[i], &value, encode_object, data, error);
      if (node == NULL)
        return NULL;
      json_object_set_member (props, pspecs[i]->name, node);
    }
  return json_node_init_object (json_node_alloc (), props);
}

/* --- decoding ---------------------------------------------------------------- */

static const char *
json_kind (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "a list";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN: return "a boolean";
    case G_TYPE_INT64: return "an integer";
    case G_TYPE_DOUBLE: return "a number";
    case G_TYPE_STRING: return "a string";
    default: return "a value";
    }
}

static gboolean
holds (JsonNode *node,
       GType     value_type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == value_type;
}

/* An integer: a JSON integer, or a string of digits (uint64 beyond int64). */
static gboolean
read_integer (JsonNode *node,
              gboolean  is_unsigned,
              gint64   *sv,
              guint64  *uv)
{
  if (holds (node, G_TYPE_INT64))
    {
      *sv = json_node_get_int (node);
      *uv = (guint64) *sv;
      return !is_unsigned || *sv >= 0;
    }
  if (is_unsigned && holds (node, G_TYPE_STRING))
    return g_ascii_string_to_unsigned (json_node_get_string (node), 10, 0, G_MAXUINT64, uv, NULL);
  return FALSE;
}

typedef struct
{
  GType        type;
  GParamSpec  *pspec;
  const char  *what;
  GError     **error;
} DecodeContext;

static gboolean
wrong_type (DecodeContext *c,
            JsonNode      *node,
            const char    *expected)
{
  g_set_error (c->error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s (%s): property \"%s\" must be %s, not %s", c->what, g_type_name (c->type),
               c->pspec->name, expected, json_kind (node));
  return FALSE;
}

static gboolean
out_of_range (DecodeContext *c,
              const char    *detail)
{
  g_set_error (c->error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s (%s): property \"%s\" is out of its range%s%s", c->what, g_type_name (c->type),
               c->pspec->name, detail ? ": " : "", detail ? detail : "");
  return FALSE;
}

static gboolean
decode_integer (DecodeContext *c,
                JsonNode      *node,
                GValue        *value)
{
  GType type = G_TYPE_FUNDAMENTAL (c->pspec->value_type);
  gboolean is_unsigned = type == G_TYPE_UCHAR || type == G_TYPE_UINT || type == G_TYPE_ULONG ||
                         type == G_TYPE_UINT64;
  gint64 sv = 0;
  guint64 uv = 0;

  if (!read_integer (node, is_unsigned, &sv, &uv))
    return holds (node, G_TYPE_INT64) ? out_of_range (c, "it is negative")
                                      : wrong_type (c, node, "an integer");
  switch (type)
    {
    case G_TYPE_CHAR:
      if (sv < G_MININT8 || sv > G_MAXINT8)
        return out_of_range (c, NULL);
      g_value_set_schar (value, (gint8) sv);
      break;
    case G_TYPE_UCHAR:
      if (uv > G_MAXUINT8)
        return out_of_range (c, NULL);
      g_value_set_uchar (value, (guchar) uv);
      break;
    case G_TYPE_INT:
      if (sv < G_MININT || sv > G_MAXINT)
        return out_of_range (c, NULL);
      g_value_set_int (value, (int) sv);
      break;
    case G_TYPE_UINT:
      if (uv > G_MAXUINT)
        return out_of_range (c, NULL);
      g_value_set_uint (value, (guint) uv);
      break;
    case G_TYPE_LONG:
      if (sv < G_MINLONG || sv > G_MAXLONG)
        return out_of_range (c, NULL);
      g_value_set_long (value, (glong) sv);
      break;
    case G_TYPE_ULONG:
      if (uv > G_MAXULONG)
        return out_of_range (c, NULL);
      g_value_set_ulong (value, (gulong) uv);
      break;
    case G_TYPE_INT64:
      g_value_set_int64 (value, sv);
      break;
    default:
      g_value_set_uint64 (value, uv);
      break;
    }
  return TRUE;
}

static gboolean
decode_flags (DecodeContext *c,
              JsonNode      *node,
              GValue        *value)
{
  g_autoptr(GFlagsClass) klass = g_type_class_ref (c->pspec->value_type);
  JsonArray *array;
  guint bits = 0;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return wrong_type (c, node, "a list of flag names");
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      GFlagsValue *fv;

      if (!holds (element, G_TYPE_STRING))
        return wrong_type (c, element, "a list of flag names");
      fv = g_flags_get_value_by_nick (klass, json_node_get_string (element));
      if (fv == NULL)
        {
          g_set_error (c->error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s (%s): property \"%s\" has no flag \"%s\"", c->what,
                       g_type_name (c->type), c->pspec->name, json_node_get_string (element));
          return FALSE;
        }
      bits |= fv->value;
    }
  g_value_set_flags (value, bits);
  return TRUE;
}

static gboolean
decode_strv (DecodeContext *c,
             JsonNode      *node,
             GValue        *value)
{
  JsonArray *array;
  GStrvBuilder *builder;

  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return wrong_type (c, node, "a list of strings");
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (!holds (json_array_get_element (array, i), G_TYPE_STRING))
      return wrong_type (c, json_array_get_element (array, i), "a list of strings");
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    g_strv_builder_add (builder, json_array_get_string_element (array, i));
  g_value_take_boxed (value, g_strv_builder_end (builder));
  g_strv_builder_unref (builder);
  return TRUE;
}

static gboolean
decode_variant (DecodeContext *c,
                JsonNode      *node,
                GValue        *value)
{
  GParamSpecVariant *vspec = G_PARAM_SPEC_VARIANT (c->pspec);
  g_autoptr(GError) parse_error = NULL;
  GVariant *variant;

  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!holds (node, G_TYPE_STRING))
    return wrong_type (c, node, "a GVariant in text form");
  variant = g_variant_parse (vspec->type, json_node_get_string (node), NULL, NULL, &parse_error);
  if (variant == NULL)
    {
      g_set_error (c->error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s (%s): property \"%s\" is not a GVariant of type %s: %s", c->what,
                   g_type_name (c->type), c->pspec->name, g_variant_type_peek_string (vspec->type),
                   parse_error->message);
      return FALSE;
    }
  g_value_take_variant (value, variant);   /* g_variant_parse: a full, non-floating reference */
  return TRUE;
}

static gboolean
decode_value (DecodeContext         *c,
              JsonNode              *node,
              GnnPropsDecodeObject   decode_object,
              gpointer               data,
              GValue                *value)
{
  GType type = G_TYPE_FUNDAMENTAL (c->pspec->value_type);
  double dv;

  switch (type)
    {
    case G_TYPE_BOOLEAN:
      if (!holds (node, G_TYPE_BOOLEAN))
        return wrong_type (c, node, "a boolean");
      g_value_set_boolean (value, json_node_get_boolean (node));
      return TRUE;
    case G_TYPE_CHAR:
    case G_TYPE_UCHAR:
    case G_TYPE_INT:
    case G_TYPE_UINT:
    case G_TYPE_LONG:
    case G_TYPE_ULONG:
    case G_TYPE_INT64:
    case G_TYPE_UINT64:
      return decode_integer (c, node, value);
    case G_TYPE_FLOAT:
    case G_TYPE_DOUBLE:
      if (!gnn_io_json_get_double (node, &dv))
        return wrong_type (c, node, "a number");
      if (type == G_TYPE_FLOAT)
        g_value_set_float (value, (float) dv);
      else
        g_value_set_double (value, dv);
      return TRUE;
    case G_TYPE_ENUM:
      {
        g_autoptr(GEnumClass) klass = g_type_class_ref (c->pspec->value_type);
        GEnumValue *ev;

        if (!holds (node, G_TYPE_STRING))
          return wrong_type (c, node, "the name of a value");
        ev = g_enum_get_value_by_nick (klass, json_node_get_string (node));
        if (ev == NULL)
          ev = g_enum_get_value_by_name (klass, json_node_get_string (node));
        if (ev == NULL)
          {
            g_set_error (c->error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "%s (%s): property \"%s\" has no value \"%s\" (%s)", c->what,
                         g_type_name (c->type), c->pspec->name, json_node_get_string (node),
                         g_type_name (c->pspec->value_type));
            return FALSE;
          }
        g_value_set_enum (value, ev->value);
        return TRUE;
      }
    case G_TYPE_FLAGS:
      return decode_flags (c, node, value);
    case G_TYPE_STRING:
      if (JSON_NODE_HOLDS_NULL (node))
        return TRUE;
      if (!holds (node, G_TYPE_STRING))
        return wrong_type (c, node, "a string");
      g_value_set_string (value, json_node_get_string (node));
      return TRUE;
    case G_TYPE_VARIANT:
      return decode_variant (c, node, value);
    case G_TYPE_BOXED:
      if (c->pspec->value_type == G_TYPE_STRV)
        return decode_strv (c, node, value);
      break;
    case G_TYPE_OBJECT:
      {
        GObject *object;

        if (JSON_NODE_HOLDS_NULL (node))
          return TRUE;
        if (decode_object == NULL)
          break;
        object = decode_object (node, c->pspec, data, c->error);
        if (object == NULL)
          return FALSE;
        if (!g_type_is_a (G_OBJECT_TYPE (object), c->pspec->value_type))
          {
            g_set_error (c->error, GNN_ERROR, GNN_ERROR_TYPE,
                         "%s (%s): property \"%s\" must be a %s, not a %s", c->what,
                         g_type_name (c->type), c->pspec->name,
                         g_type_name (c->pspec->value_type), G_OBJECT_TYPE_NAME (object));
            g_object_unref (object);
            return FALSE;
          }
        g_value_take_object (value, object);
        return TRUE;
      }
    default:
      break;
    }
  g_set_error (c->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s (%s): property \"%s\" has type %s, which cannot be loaded", c->what,
               g_type_name (c->type), c->pspec->name, g_type_name (c->pspec->value_type));
  return FALSE;
}

gboolean
gnn_props_decode (GType                  type,
                  JsonNode              *node,
                  GnnPropsDecodeObject   decode_object,
                  gpointer               data,
                  const char            *what,
                  GnnPropList           *out,
                  GError               **error)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (type);
  g_autoptr(GList) members = NULL;
  JsonObject *object;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s (%s): its properties are %s, not an object", what, g_type_name (type),
                   json_kind (node));
      return FALSE;
    }
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_CLASS (klass), l->data);
      DecodeContext c = { type, pspec, what, error };
      GValue *value;

      if (pspec == NULL || !gnn_props_is_config (pspec))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "%s (%s) has no configuration property \"%s\"", what,
                       g_type_name (type), (const char *) l->data);
          return FALSE;
        }
      value = prop_list_add (out, pspec);
      if (!decode_value (&c, json_object_get_member (object, l->data), decode_object, data, value))
        return FALSE;
      /* GObject would warn and keep the default instead */
      if (g_param_value_validate (pspec, value))
        return out_of_range (&c, NULL);
    }
  return TRUE;
}

GObject *
gnn_props_new_object (GType         type,
                      GnnPropList  *props,
                      GError      **error)
{
  g_autoptr(GObject) object =
    g_object_new_with_properties (type, props->names->len, (const char **) props->names->pdata,
                                  (const GValue *) props->values->data);

  if (G_IS_INITABLE (object) && !g_initable_init (G_INITABLE (object), NULL, error))
    return NULL;
  return g_steal_pointer (&object);
}

gboolean
gnn_props_match (GObject     *object,
                 GnnPropList *props)
{
  for (guint i = 0; i < props->names->len; i++)
    {
      const char *name = g_ptr_array_index (props->names, i);
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), name);
      g_auto(GValue) current = G_VALUE_INIT;

      if (pspec == NULL)
        return FALSE;
      g_value_init (&current, pspec->value_type);
      g_object_get_property (object, name, &current);
      if (g_param_values_cmp (pspec, &current, &g_array_index (props->values, GValue, i)) != 0)
        return FALSE;
    }
  return TRUE;
}

/* --- plain objects ------------------------------------------------------------ */

static JsonNode *
encode_plain_nested (GObject     *value,
                     GParamSpec  *pspec,
                     gpointer     data,
                     GError     **error)
{
  return gnn_props_encode_plain_object (value, GPOINTER_TO_UINT (data) + 1, error);
}

JsonNode *
gnn_props_encode_plain_object (GObject  *value,
                               guint     depth,
                               GError  **error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonNode *props;

  if (depth >= GNN_MODEL_MAX_OBJECT_DEPTH)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "a %s nests objects in its properties deeper than %d levels",
                   G_OBJECT_TYPE_NAME (value), GNN_MODEL_MAX_OBJECT_DEPTH);
      return NULL;
    }
  props = gnn_props_encode (value, encode_plain_nested, GUINT_TO_POINTER (depth), error);
  if (props == NULL)
    return NULL;
  json_object_set_string_member (object, "type", G_OBJECT_TYPE_NAME (value));
  json_object_set_member (object, "properties", props);
  return json_node_init_object (json_node_alloc (), object);
}

typedef struct
{
  gboolean    allow_foreign;
  guint       depth;
  const char *what;
} PlainDecode;

static GObject *
decode_plain_nested (JsonNode    *node,
                     GParamSpec  *pspec,
                     gpointer     data,
                     GError     **error)
{
  PlainDecode *d = data;

  return gnn_props_decode_plain_object (node, pspec->value_type, d->allow_foreign, d->depth + 1,
                                        d->what, error);
}

GObject *
gnn_props_decode_plain_object (JsonNode    *node,
                               GType        value_type,
                               gboolean     allow_foreign,
                               guint        depth,
                               const char  *what,
                               GError     **error)
{
  g_autofree char *inner = g_strdup_printf ("an object in a property of %s", what);
  PlainDecode d = { allow_foreign, depth, inner };
  GnnPropList props;
  JsonObject *object;
  JsonNode *type_node;
  GObject *result;
  GType type;

  if (depth >= GNN_MODEL_MAX_OBJECT_DEPTH)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s nests objects in its properties deeper than %d levels", what,
                   GNN_MODEL_MAX_OBJECT_DEPTH);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: an object-valued property is %s, not {\"type\": ..., \"properties\": ...}",
                   what, json_kind (node));
      return NULL;
    }
  object = json_node_get_object (node);
  type_node = json_object_get_member (object, "type");
  if (type_node == NULL || !holds (type_node, G_TYPE_STRING))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: an object-valued property has no \"type\" string", what);
      return NULL;
    }
  type = gnn_io_lookup_type (json_node_get_string (type_node), value_type, allow_foreign, inner,
                             error);
  if (type == 0)
    return NULL;
  gnn_prop_list_init (&props);
  if (!gnn_props_decode (type, json_object_get_member (object, "properties"), decode_plain_nested,
                         &d, inner, &props, error))
    {
      gnn_prop_list_clear (&props);
      return NULL;
    }
  result = gnn_props_new_object (type, &props, error);
  gnn_prop_list_clear (&props);
  return result;
}
