/* gnn-batch.h: a named, typed batch (or item) of tensors
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
 * GnnBatchKind:
 * @GNN_BATCH_KIND_TUPLE: positional fields (torch: a tuple or list item,
 *   a list batch)
 * @GNN_BATCH_KIND_DICT: fields named by unique keys, in their order
 *   (torch: a dict item or batch)
 * @GNN_BATCH_KIND_BARE: one field that is the item itself (torch: an item
 *   that is a tensor or a number, a batch that is one tensor)
 *
 * What shape of value a [struct@Gnn.Batch] stands for.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_BATCH_KIND_TUPLE,
  GNN_BATCH_KIND_DICT,
  GNN_BATCH_KIND_BARE,
} GnnBatchKind;

typedef struct _GnnBatch GnnBatch;

#define GNN_TYPE_BATCH (gnn_batch_get_type ())

GNN_AVAILABLE_IN_ALL
GType         gnn_batch_get_type       (void) G_GNUC_CONST;

GNN_AVAILABLE_IN_ALL
GnnBatch     *gnn_batch_new            (GnnBatchKind         kind,
                                        const char * const  *names,
                                        GPtrArray           *tensors,
                                        GError             **error);
GNN_AVAILABLE_IN_ALL
GnnBatch     *gnn_batch_new_tuple      (GPtrArray           *tensors);
GNN_AVAILABLE_IN_ALL
GnnBatch     *gnn_batch_new_dict       (const char * const  *names,
                                        GPtrArray           *tensors,
                                        GError             **error);
GNN_AVAILABLE_IN_ALL
GnnBatch     *gnn_batch_new_bare       (GnnTensor           *tensor);

GNN_AVAILABLE_IN_ALL
GnnBatch     *gnn_batch_ref            (GnnBatch            *self);
GNN_AVAILABLE_IN_ALL
void          gnn_batch_unref          (GnnBatch            *self);

GNN_AVAILABLE_IN_ALL
GnnBatchKind  gnn_batch_get_kind       (const GnnBatch      *self);
GNN_AVAILABLE_IN_ALL
guint         gnn_batch_get_n_fields   (const GnnBatch      *self);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_batch_get_field      (const GnnBatch      *self,
                                        guint                index);
GNN_AVAILABLE_IN_ALL
const char   *gnn_batch_get_name       (const GnnBatch      *self,
                                        guint                index);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_batch_lookup         (const GnnBatch      *self,
                                        const char          *name);
GNN_AVAILABLE_IN_ALL
gint          gnn_batch_find_name      (const GnnBatch      *self,
                                        const char          *name);
GNN_AVAILABLE_IN_ALL
char        **gnn_batch_dup_names      (const GnnBatch      *self);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_batch_get_tensors    (const GnnBatch      *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_batch_same_layout    (const GnnBatch      *self,
                                        const GnnBatch      *other);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnBatch, gnn_batch_unref)

G_END_DECLS
