/* gnn-pickle-machine-private.h: the unpickler's state and the helpers its
 * opcodes (gnn-pickle.c) and its allowed constructors
 * (gnn-pickle-globals.c) share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "io/gnn-torch-private.h"

G_BEGIN_DECLS

typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
  gsize         budget;     /* bytes left to allocate */
  GnnPickle    *pickle;
  GPtrArray    *stack;      /* GnnPkValue* (borrowed from the arena) */
  GArray       *marks;      /* guint: stack lengths at each MARK */
  GHashTable   *memo;       /* index → GnnPkValue* */
  GError      **error;
} GnnPickleMachine;

/* Errors and the budget: each returns FALSE after setting the error. */
G_GNUC_PRINTF (2, 3)
gboolean    gnn_pickle_fail             (GnnPickleMachine *m,
                                         const char       *format,
                                         ...);
gboolean    gnn_pickle_charge           (GnnPickleMachine *m,
                                         gsize             bytes);

/* Values, charged to the budget and owned by the arena (NULL when over). */
GnnPkValue *gnn_pickle_value_new        (GnnPickleMachine *m,
                                         GnnPkKind         kind);
GnnPkValue *gnn_pickle_seq_new          (GnnPickleMachine *m,
                                         GnnPkKind         kind);
GnnPkValue *gnn_pickle_dict_new         (GnnPickleMachine *m,
                                         gboolean          ordered);
gboolean    gnn_pickle_seq_add          (GnnPickleMachine *m,
                                         GnnPkValue       *seq,
                                         GnnPkValue       *item);
gboolean    gnn_pickle_dict_set         (GnnPickleMachine *m,
                                         GnnPkValue       *dict,
                                         GnnPkValue       *key,
                                         GnnPkValue       *value);
GnnPkValue *gnn_pickle_tensor_new       (GnnPickleMachine *m);

/* The stack above the last MARK. */
gboolean    gnn_pickle_push             (GnnPickleMachine *m,
                                         GnnPkValue       *v);
GnnPkValue *gnn_pickle_pop              (GnnPickleMachine *m);
GnnPkValue *gnn_pickle_top              (GnnPickleMachine *m);

/* The allow-list (gnn-pickle-globals.c): GLOBAL's lookup and the opcodes
 * that construct (REDUCE, NEWOBJ, BUILD, BINPERSID). */
GnnPkValue *gnn_pickle_make_global      (GnnPickleMachine *m,
                                         const char       *module,
                                         const char       *name);
gboolean    gnn_pickle_is_global        (GnnPkValue       *v,
                                         GnnPkGlobal       which);
gboolean    gnn_pickle_op_reduce        (GnnPickleMachine *m);
gboolean    gnn_pickle_op_newobj        (GnnPickleMachine *m);
gboolean    gnn_pickle_op_build         (GnnPickleMachine *m);
gboolean    gnn_pickle_op_persistent_id (GnnPickleMachine *m);

/* numpy's arrays, dtypes and scalars (gnn-pickle-numpy.c): REDUCE of a
 * numpy global, BUILD on a numpy dtype or array. */
GnnPkValue *gnn_pickle_numpy_reduce     (GnnPickleMachine *m,
                                         GnnPkGlobal       which,
                                         GPtrArray        *args);
gboolean    gnn_pickle_numpy_build      (GnnPickleMachine *m,
                                         GnnPkValue       *object,
                                         GnnPkValue       *state);

G_END_DECLS
