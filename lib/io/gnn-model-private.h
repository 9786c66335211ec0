/* gnn-model-private.h: objects described as (type name, properties) in
 * JSON — what model files and training checkpoints are made of
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <gnn/gnn.h>

G_BEGIN_DECLS

/* The metadata keys of a model file (docs/from-pytorch.md describes it). */
#define GNN_MODEL_KEY "gnn.model"
#define GNN_MODEL_FORMAT "gnn.model"
#define GNN_MODEL_VERSION 1
/* A checkpoint's structure (nesting, order, plain values) beside its
 * tensors: the layout Python's Gnn.save writes and Gnn.load rebuilds
 * (gir/gnn/_checkpoint.py), also made from torch's checkpoints. */
#define GNN_CHECKPOINT_KEY "gnn.checkpoint"
/* Non-persistent buffers are not in state_dict(): their values go into the
 * file under this prefix + their dotted path. */
#define GNN_MODEL_NONPERSISTENT_PREFIX "gnn.nonpersistent."
/* The tree of modules nests at most this deep (the format is flat, but
 * module paths and state-dict keys grow with the depth). */
#define GNN_MODEL_MAX_DEPTH 1024
/* Objects nested as property values (a generator) nest at most this deep. */
#define GNN_MODEL_MAX_OBJECT_DEPTH 4

/* --- types ------------------------------------------------------------------ */

/* Whether @type is one of the library's own public types (the generated
 * list of every get_type function in include/gnn). */
gboolean  gnn_io_is_library_type (GType type);

/* The GType named @name, a subtype of @base: a library type, or with
 * @allow_foreign any registered type (a binding's class its caller has
 * imported). Never loads or runs anything. @what names the object in
 * errors ("module 'fc'"). */
GType     gnn_io_lookup_type (const char  *name,
                              GType        base,
                              gboolean     allow_foreign,
                              const char  *what,
                              GError     **error);

/* --- properties ------------------------------------------------------------- */

/* Whether @pspec is configuration in the reflection contract's sense:
 * readable, writable, CONSTRUCT or CONSTRUCT_ONLY, not GObject's own. */
gboolean  gnn_props_is_config (GParamSpec *pspec);

/* An object-valued property's value as JSON, or NULL with @error. */
typedef JsonNode *(*GnnPropsEncodeObject) (GObject     *value,
                                           GParamSpec  *pspec,
                                           gpointer     data,
                                           GError     **error);
/* The object a JSON value stands for (a new reference), or NULL with @error. */
typedef GObject  *(*GnnPropsDecodeObject) (JsonNode    *node,
                                           GParamSpec  *pspec,
                                           gpointer     data,
                                           GError     **error);

/* (name, value) pairs for g_object_new_with_properties(). */
typedef struct
{
  GPtrArray *names;    /* const char *, interned pspec names */
  GArray    *values;   /* GValue */
} GnnPropList;

void      gnn_prop_list_init  (GnnPropList *list);
void      gnn_prop_list_clear (GnnPropList *list);

/* The configuration of @object as a JSON object {"name": value}: booleans,
 * numbers (non-finite doubles and uint64 beyond int64 as strings), enums as
 * nicks, flags as lists of nicks, strings, variants in GVariant text form,
 * string arrays, and objects through @encode_object (NULL values as null).
 * Other types are an error naming the property. */
JsonNode *gnn_props_encode (GObject              *object,
                            GnnPropsEncodeObject  encode_object,
                            gpointer              data,
                            GError              **error);

/* Decodes @node (a JSON object, or NULL for none) into @out for @type:
 * every member must be a configuration property of @type, of the right
 * JSON type, and within the property's range (g_param_value_validate()
 * leaves it unchanged). Errors are GNN_ERROR_FORMAT / GNN_ERROR_TYPE /
 * GNN_ERROR_INVALID_ARGUMENT naming @what, the type and the property. */
gboolean  gnn_props_decode (GType                 type,
                            JsonNode             *node,
                            GnnPropsDecodeObject  decode_object,
                            gpointer              data,
                            const char           *what,
                            GnnPropList          *out,
                            GError              **error);

/* g_object_new_with_properties() and, for a GInitable, g_initable_init(). */
GObject  *gnn_props_new_object (GType         type,
                                GnnPropList  *props,
                                GError      **error);

/* Whether each property in @props has that value in @object. */
gboolean  gnn_props_match (GObject     *object,
                           GnnPropList *props);

/* The default object codec for values that follow the reflection contract
 * themselves (a GnnGenerator): {"type": name, "properties": {...}}, nested
 * at most GNN_MODEL_MAX_OBJECT_DEPTH deep; library types only unless
 * @allow_foreign. */
JsonNode *gnn_props_encode_plain_object (GObject     *value,
                                         guint        depth,
                                         GError     **error);
GObject  *gnn_props_decode_plain_object (JsonNode    *node,
                                         GType        value_type,
                                         gboolean     allow_foreign,
                                         guint        depth,
                                         const char  *what,
                                         GError     **error);

/* --- model trees -------------------------------------------------------------- */

/* The format nests: root → modules → node → properties → nested object
 * properties (GNN_MODEL_MAX_OBJECT_DEPTH levels of two) → values; a
 * training checkpoint adds two levels above. */
#define GNN_MODEL_MAX_JSON_DEPTH 32

/* @module's tree as JSON (gnn-model-write.c describes the format); the
 * non-persistent buffers' values go into @extra under their keys. */
JsonNode  *gnn_model_describe (GnnModule     *module,
                               GnnStateDict  *extra,
                               GError       **error);

/* Rebuilds the module tree @tree describes (on the meta device) and assigns
 * it the tensors of @state_dict whose keys start with @prefix ("" for a
 * model file, "model." in a training checkpoint), strictly: every key under
 * @prefix must be the model's. @flags: GNN_LOAD_FLAGS_ALLOW_TYPES. */
GnnModule *gnn_model_build (JsonNode      *tree,
                            GnnStateDict  *state_dict,
                            const char    *prefix,
                            GnnLoadFlags   flags,
                            GError       **error);

/* The JSON text of @node. */
char      *gnn_io_json_to_text (JsonNode *node);

G_END_DECLS
