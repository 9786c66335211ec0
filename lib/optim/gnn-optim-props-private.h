/* gnn-optim-props-private.h: generic property storage for the optimizers and
 * LR schedulers, and the text form of their values in state-dict metadata
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* A class installs its settings with gnn_optim_class_install_properties()
 * instead of writing get/set_property: the values live in one GValue array
 * per instance ("the bag"), in the order of installation down the class
 * hierarchy. The class's enum counts from 0 (its pspecs array has no
 * unused slot 0; GObject's prop_id is the enum value + 1), and subclasses
 * read values with gnn_optim_prop_*(self, OWNER_TYPE, PROP_X). */
void          gnn_optim_class_install_properties (GObjectClass  *klass,
                                                  GParamSpec   **pspecs,
                                                  guint          n_pspecs);

/* The number of bag properties of @object's class and its ancestors, and
 * the index of a property (its owner's offset + enum value). */
guint         gnn_optim_bag_size      (GObject *object);
guint         gnn_optim_bag_index     (GParamSpec *pspec);
/* The bag's pspecs of @object's class, in index order (transfer none). */
GParamSpec  **gnn_optim_bag_pspecs    (GObject *object);
const GValue *gnn_optim_prop_value    (gpointer object, GType owner, guint index);
/* All of them, in index order (an optimizer's defaults, laid out like a
 * group's options). */
const GValue *gnn_optim_bag_values    (GObject *object);

static inline double
gnn_optim_prop_double (gpointer object, GType owner, guint index)
{
  return g_value_get_double (gnn_optim_prop_value (object, owner, index));
}

static inline gint64
gnn_optim_prop_int64 (gpointer object, GType owner, guint index)
{
  return g_value_get_int64 (gnn_optim_prop_value (object, owner, index));
}

static inline gboolean
gnn_optim_prop_bool (gpointer object, GType owner, guint index)
{
  return g_value_get_boolean (gnn_optim_prop_value (object, owner, index));
}

static inline const char *
gnn_optim_prop_string (gpointer object, GType owner, guint index)
{
  return g_value_get_string (gnn_optim_prop_value (object, owner, index));
}

static inline GVariant *
gnn_optim_prop_variant (gpointer object, GType owner, guint index)
{
  return g_value_get_variant (gnn_optim_prop_value (object, owner, index));
}

static inline gpointer
gnn_optim_prop_object (gpointer object, GType owner, guint index)
{
  return g_value_get_object (gnn_optim_prop_value (object, owner, index));
}

/* Settings of every optimizer and scheduler: read-write CONSTRUCT
 * properties (PyTorch's constructor arguments). */
GParamSpec *gnn_optim_double_property (const char *name, double default_value);
GParamSpec *gnn_optim_double_range_property (const char *name, double minimum, double maximum,
                                             double default_value);
GParamSpec *gnn_optim_bool_property   (const char *name, gboolean default_value);
GParamSpec *gnn_optim_int64_property  (const char *name, gint64 minimum, gint64 maximum,
                                       gint64 default_value);
GParamSpec *gnn_optim_string_property (const char *name, const char *default_value);
GParamSpec *gnn_optim_variant_property (const char *name, const char *type_string,
                                        GVariant *default_value);
/* One value or one per parameter group: a variant "ad" holding
 * @default_value (none if NaN). */
GParamSpec *gnn_optim_doubles_property (const char *name, double default_value);
GParamSpec *gnn_optim_object_property (const char *name, GType type);

/* --- values as metadata text ----------------------------------------------
 *
 * Numbers in the shortest form that reads back exactly ("0.001", "1e-08",
 * "inf", "nan"), booleans "true"/"false", strings and absent strings in
 * GVariant text ('strong_wolfe', nothing): GVariant's text format with
 * readable doubles, so one parser reads every value. */

/* A GValue of a bag property as a GVariant (double d, boolean b, integers x,
 * string ms, variant as is), a full reference (not floating); NULL for
 * other types. */
GVariant *gnn_optim_value_to_variant   (const GValue *value);
/* Sets @value (initialized to the property's type) from @variant, which
 * may be any numeric type for a number; FALSE if the types do not fit. */
gboolean  gnn_optim_value_from_variant (GValue *value, GVariant *variant);
char     *gnn_optim_variant_to_text    (GVariant *variant);
/* A variant of any numeric type as a double; FALSE for other types. */
gboolean  gnn_optim_variant_to_double  (GVariant *variant, double *out);
/* Parses @text as @type (NULL: inferred; int32 widened to int64). Errors
 * are GNN_ERROR_FORMAT naming @key. */
GVariant *gnn_optim_variant_from_text  (const char *text, const GVariantType *type,
                                        const char *key, GError **error);

gboolean gnn_optim_parse_double (const char *text, const char *key, double *out, GError **error);
gboolean gnn_optim_parse_int64  (const char *text, const char *key, gint64 *out, GError **error);

/* Writes every bag property of @object as metadata @prefix + name ('-' as
 * '_': weight_decay), and reads them back: every key present, parsed and in
 * range, into a new array of values in bag order (nothing applied). Keys
 * under @prefix that are neither a property nor in @extra_keys are errors. */
void     gnn_optim_props_to_metadata   (GObject *object, const char *prefix, GnnStateDict *sd);
GArray  *gnn_optim_props_from_metadata (GObject *object, const char *prefix, GnnStateDict *sd,
                                        const char * const *extra_keys, GError **error);
void     gnn_optim_props_apply         (GObject *object, GArray *values);

/* "weight-decay" -> "weight_decay" (a new string). */
char    *gnn_optim_torch_name (const char *property_name);

G_END_DECLS
