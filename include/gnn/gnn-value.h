/* gnn-value.h: GnnValue, the immutable argument and result values of a
 * module call (torch's IValue)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

/**
 * GnnValueKind:
 * @GNN_VALUE_NONE: Python's `None`
 * @GNN_VALUE_TENSOR: a [class@Gnn.Tensor] (a [class@Gnn.Parameter] too)
 * @GNN_VALUE_BOOL: a boolean
 * @GNN_VALUE_INT: a 64-bit signed integer (Python's `int`)
 * @GNN_VALUE_DOUBLE: a double (Python's `float`)
 * @GNN_VALUE_STRING: a UTF-8 string (Python's `str`)
 * @GNN_VALUE_TUPLE: an immutable sequence of values (Python's `tuple`)
 * @GNN_VALUE_LIST: a sequence of values (Python's `list`)
 * @GNN_VALUE_DICT: string keys, each with a value, in insertion order
 *   (Python's `dict` with `str` keys)
 * @GNN_VALUE_OBJECT: any other #GObject (a module passed as an argument,
 *   a packed sequence, a binding's own object)
 *
 * What a [struct@Gnn.Value] holds.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_VALUE_NONE,
  GNN_VALUE_TENSOR,
  GNN_VALUE_BOOL,
  GNN_VALUE_INT,
  GNN_VALUE_DOUBLE,
  GNN_VALUE_STRING,
  GNN_VALUE_TUPLE,
  GNN_VALUE_LIST,
  GNN_VALUE_DICT,
  GNN_VALUE_OBJECT,
} GnnValueKind;

typedef struct _GnnValue GnnValue;

#define GNN_TYPE_VALUE (gnn_value_get_type ())

GNN_AVAILABLE_IN_ALL
GType         gnn_value_get_type       (void) G_GNUC_CONST;

GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_ref            (GnnValue          *self);
GNN_AVAILABLE_IN_ALL
void          gnn_value_unref          (GnnValue          *self);

/* --- construction -------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_none       (void);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_tensor     (GnnTensor         *tensor);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_take_tensor    (GnnTensor         *tensor);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_bool       (gboolean           value);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_int        (gint64             value);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_double     (double             value);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_string     (const char        *value);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_object     (GObject           *object);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_tuple      (GnnValue * const  *items,
                                        gsize              n_items);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_tensor_tuple (GnnTensor * const *tensors,
                                          gsize              n_tensors);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_list       (GnnValue * const  *items,
                                        gsize              n_items);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_dict       (const char * const *keys,
                                        GnnValue * const  *values,
                                        gsize              n_items);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_tuple_take (gsize              n_items,
                                        ...);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_list_take  (gsize              n_items,
                                        ...);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_new_dict_take  (const char        *first_key,
                                        ...) G_GNUC_NULL_TERMINATED;

/* --- reading ------------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnValueKind  gnn_value_get_kind       (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_value_get_type_name  (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_value_is_none        (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_value_get_tensor     (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_value_get_bool       (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
gint64        gnn_value_get_int        (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
double        gnn_value_get_double     (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_value_get_string     (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
GObject      *gnn_value_get_object     (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
gsize         gnn_value_get_length     (const GnnValue    *self);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_get_item       (const GnnValue    *self,
                                        gsize              index);
GNN_AVAILABLE_IN_ALL
GnnValue    **gnn_value_get_items      (const GnnValue    *self,
                                        gsize             *n_items);
GNN_AVAILABLE_IN_ALL
GnnTensor   **gnn_value_get_tensors    (const GnnValue    *self,
                                        gsize             *n_tensors);
GNN_AVAILABLE_IN_ALL
const char   *gnn_value_get_key        (const GnnValue    *self,
                                        gsize              index);
GNN_AVAILABLE_IN_ALL
const char  **gnn_value_get_keys       (const GnnValue    *self,
                                        gsize             *n_keys);
GNN_AVAILABLE_IN_ALL
GnnValue     *gnn_value_lookup         (const GnnValue    *self,
                                        const char        *key);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_value_equal          (const GnnValue    *a,
                                        const GnnValue    *b);
GNN_AVAILABLE_IN_ALL
char         *gnn_value_to_string      (const GnnValue    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnValue, gnn_value_unref)

G_END_DECLS
