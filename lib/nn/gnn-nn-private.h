/* gnn-nn-private.h: helpers shared by the layers and containers of lib/nn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <gnn/gnn.h>

G_BEGIN_DECLS

/* g_object_unref() for a GPtrArray of objects that may hold NULL (empty
 * child slots). */
void          gnn_nn_unref_nullable           (gpointer object);

/* The default generator (gnn_generator_get_default) that layers use when
 * given none, locked (gnn_generator_default_lock). */
GnnGenerator *gnn_nn_default_generator_lock   (void);
void          gnn_nn_default_generator_unlock (void);

/* For reset_parameters: fills the parameter or buffer @name of @module
 * (skipped when the slot is empty) with @value, giving a meta tensor memory
 * first. */
gboolean      gnn_nn_reset_fill               (GnnModule  *module,
                                               const char *name,
                                               double      value,
                                               GError    **error);

/* Python's repr() of a float: gnn_format_double_shortest() (lib/core, the
 * library's one float formatter) with ".0" added to an integral value
 * ("0.5", "1.0"). */
char         *gnn_nn_format_float             (double value);

/* Python's repr() of a setting PyTorch keeps as given, int or float, whose
 * default is an int (Softplus's beta=1): an integral value prints as an
 * int ("20"), any other as gnn_nn_format_float() does ("0.1"). */
char         *gnn_nn_format_number            (double value);

/* The construct-from-properties contract (docs/overview.md): a layer built
 * by g_object_new() alone checks its properties together and allocates its
 * parameters in `constructed`; a failure is recorded on the object with
 * gnn_nn_set_construct_error() (which takes @error) instead of leaving a
 * half-built module. GInitable's init, installed with
 * gnn_nn_initable_iface_init(), returns that error (so g_initable_new()
 * gives NULL + GError), and gnn_nn_check_constructed() makes forward refuse
 * with it when the object was used without init. */
void          gnn_nn_set_construct_error      (gpointer         object,
                                               GError          *error);
gboolean      gnn_nn_check_constructed        (gpointer         object,
                                               GError         **error);
void          gnn_nn_initable_iface_init      (GInitableIface  *iface);

/* g_initable_new() for the layer constructors: NULL + @error when the
 * object recorded a construct error. */
gpointer      gnn_nn_initable_new             (GType            type,
                                               GError         **error,
                                               const char      *first_property,
                                               ...) G_GNUC_NULL_TERMINATED;

/* Settings kept as doubles (booleans and integers too) and shown as
 * construct properties: the GValue of a setting by its pspec's type, and
 * back. */
void          gnn_nn_setting_get              (double        setting,
                                               GValue       *value,
                                               GParamSpec   *pspec);
double        gnn_nn_setting_set              (const GValue *value,
                                               GParamSpec   *pspec);
/* A readable, writable construct property with id @prop_id: a double in
 * [@minimum, @maximum], a boolean, or an int. */
void          gnn_nn_class_add_double         (GObjectClass *object_class,
                                               guint         prop_id,
                                               const char   *name,
                                               double        minimum,
                                               double        maximum,
                                               double        default_value);
void          gnn_nn_class_add_boolean        (GObjectClass *object_class,
                                               guint         prop_id,
                                               const char   *name,
                                               gboolean      default_value);
void          gnn_nn_class_add_int            (GObjectClass *object_class,
                                               guint         prop_id,
                                               const char   *name,
                                               gint          minimum,
                                               gint          maximum,
                                               gint          default_value);

/* The tensor a layer's forward reads as @name (its `weight`): the
 * parameter, or the plain tensor attribute a weight reparametrization
 * (weight_norm, spectral_norm) keeps in its place; NULL + error when it is
 * neither (an empty slot: "Conv2d.weight is None"). */
GnnTensor    *gnn_nn_weight                   (GnnModule    *module,
                                               const char   *name,
                                               GError      **error);

/* A shape as Python prints a list (@open "[") or a tuple (@open "(": a
 * 1-tuple gets its trailing comma): "[3, 2]", "(3, 2)", "(5,)". */
char         *gnn_nn_format_shape             (const gint64 *shape,
                                               guint         n,
                                               const char   *open,
                                               const char   *close);

/* torch.nn.init.xavier_uniform_ / xavier_normal_ with gain 1 (a no-op on
 * empty and meta tensors). */
gboolean      gnn_nn_xavier_                  (GnnTensor    *tensor,
                                               gboolean      normal,
                                               GnnGenerator *generator,
                                               GError      **error);

/* Python's bool repr. */
#define gnn_nn_bool_str(b) ((b) ? "True" : "False")

/* Normalizes a Python-style index into [0, len): "index <i> is out of range". */
gboolean      gnn_nn_normalize_index          (gint64   index,
                                               guint    len,
                                               guint   *out,
                                               GError **error);

/* Python's slice.indices(len): clamps start/stop, fills the selected
 * positions into @positions (a GArray of guint). FALSE if step is zero. */
GArray       *gnn_nn_slice_positions          (guint    len,
                                               gint64   start,
                                               gint64   stop,
                                               gint64   step,
                                               GError **error);

/* The module map entries (GnnMapEntry*) of a container, registration order. */
GPtrArray    *gnn_nn_module_entries           (GnnModule *self);
/* The parameter map entries (GnnMapEntry*). */
GPtrArray    *gnn_nn_parameter_entries        (GnnModule *self);

/* Renames the child modules "0".."n-1" in their current order (PyTorch's
 * `self._modules = OrderedDict(zip(str_indices, values))`). */
gboolean      gnn_nn_renumber_modules         (GnnModule *self,
                                               GError   **error);

/* Inserts @module at @index (-n <= index <= n, else "Index out of range: i")
 * shifting "i".."n-1" up by one, like Sequential.insert. */
gboolean      gnn_nn_insert_module            (GnnModule *self,
                                               gint64     index,
                                               GnnModule *module,
                                               GError   **error);

G_END_DECLS

G_BEGIN_DECLS

/* "Parameter containing: [torch.float32 of size 2x3]" lines of
 * ParameterList (dtype names) and ParameterDict (tensor type names). */
char         *gnn_nn_parameter_lines          (GnnModule *self,
                                               gboolean   type_names);

/* The tensor in the parameter or buffer slot @name of @module, or NULL
 * (no slot, or an empty one). */
GnnTensor    *gnn_nn_optional_tensor          (GnnModule  *module,
                                               const char *name);

/* Wraps a plain tensor into a parameter (shares its storage). */
GnnParameter *gnn_nn_as_parameter             (GnnTensor *value);

/* torch's embedding table (Embedding, EmbeddingBag): N(0, 1) from
 * @generator (NULL: the default one), the padding row (-1: none) zeroed;
 * NULL with @error when it cannot be allocated. */
GnnParameter *gnn_nn_embedding_weight_new     (gint64          num_embeddings,
                                               gint64          embedding_dim,
                                               gint64          padding_row,
                                               GnnGenerator   *generator,
                                               GError        **error);
/* reset_parameters of such a table: the "weight" of @module drawn again. */
gboolean      gnn_nn_embedding_reset          (GnnModule      *module,
                                               gint64          padding_row,
                                               GError        **error);

/* A max pooling layer's forward with its indices: @indices is NULL when
 * they are not wanted. */
typedef GnnTensor *(*GnnNnIndicesForward)     (GnnModule   *module,
                                               GnnTensor   *input,
                                               GnnTensor  **indices,
                                               GError     **error);

/* The general forward of a max pooling layer with `return_indices`:
 * torch's `(output, indices)` when @return_indices, else the output. */
GnnValue     *gnn_nn_forward_with_indices     (GnnModule            *module,
                                               GnnValue             *args,
                                               GnnValue             *kwargs,
                                               gboolean              return_indices,
                                               GnnNnIndicesForward   forward,
                                               GError              **error);

/* The one-tensor forward of such a layer: the output, or with
 * @return_indices an error pointing to the general call. */
GnnTensor    *gnn_nn_forward_without_indices  (GnnModule            *module,
                                               GnnTensor            *input,
                                               gboolean              return_indices,
                                               GnnNnIndicesForward   forward,
                                               GError              **error);

G_END_DECLS
