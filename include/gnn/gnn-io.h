/* gnn-io.h: safetensors files — saving and loading state dicts and modules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gio/gio.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-state-dict.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

/**
 * GnnLoadFlags:
 * @GNN_LOAD_FLAGS_NONE: map the file and borrow its memory (zero copy)
 * @GNN_LOAD_FLAGS_COPY: copy every tensor into memory of its own, so that
 *   nothing refers to the file or buffer once loading returns
 * @GNN_LOAD_FLAGS_ASSIGN: for [method@Gnn.Module.load_with_flags]: the
 *   loaded tensors become the module's parameters and buffers
 *   (%GNN_LOAD_STATE_ASSIGN) instead of being copied into them; without
 *   %GNN_LOAD_FLAGS_COPY the module then uses the mapped file (zero copy)
 *   for as long as it lives, so the file must not be truncated or rewritten
 *   in place meanwhile (a replaced file, as [method@Gnn.StateDict.save]
 *   writes them, is safe; see [func@Gnn.StateDict.load]): add
 *   %GNN_LOAD_FLAGS_COPY when it may be
 * @GNN_LOAD_FLAGS_ALLOW_TYPES: for model files ([func@Gnn.Module.load_model]):
 *   also rebuild modules whose type is not one of Gnn's own (classes of the
 *   program or of a binding), when the caller has registered them; by
 *   default such a type is an error naming it
 *
 * Options of [func@Gnn.StateDict.load_with_flags],
 * [func@Gnn.StateDict.load_from_bytes] (which ignore
 * %GNN_LOAD_FLAGS_ASSIGN) and [method@Gnn.Module.load_with_flags].
 *
 * Since: 0.1
 */
typedef enum /*< flags >*/ {
  GNN_LOAD_FLAGS_NONE = 0,
  GNN_LOAD_FLAGS_COPY = 1 << 0,
  GNN_LOAD_FLAGS_ASSIGN = 1 << 1,
  GNN_LOAD_FLAGS_ALLOW_TYPES = 1 << 2,
} GnnLoadFlags;

/* state dicts */
GNN_AVAILABLE_IN_ALL
gboolean       gnn_state_dict_save             (GnnStateDict *self,
                                                const char   *path,
                                                GHashTable   *metadata,
                                                GError      **error);
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_state_dict_load             (const char   *path,
                                                GError      **error);
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_state_dict_load_with_flags  (const char   *path,
                                                GnnLoadFlags  flags,
                                                GError      **error);
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_state_dict_load_from_bytes  (GBytes       *bytes,
                                                GnnLoadFlags  flags,
                                                GError      **error);

/* modules */
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_save               (GnnModule    *self,
                                              const char   *path,
                                              GHashTable   *metadata,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_load               (GnnModule    *self,
                                              const char   *path,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_load_with_flags    (GnnModule    *self,
                                              const char   *path,
                                              GnnLoadFlags  flags,
                                              GError      **error);

/* PyTorch's files (torch.save) */
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_state_dict_load_torch      (const char   *path,
                                               GnnLoadFlags  flags,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_state_dict_save_torch      (GnnStateDict *self,
                                               const char   *path,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_state_dict_load_torch_from_bytes (GBytes       *bytes,
                                                     GnnLoadFlags  flags,
                                                     GError      **error);

/* model files: architecture + weights */
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_save_model         (GnnModule    *self,
                                              const char   *path,
                                              GHashTable   *metadata,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_load_model         (const char   *path,
                                              GnnLoadFlags  flags,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_new_from_state_dict (GnnStateDict *state_dict,
                                               GnnLoadFlags  flags,
                                               GError      **error);

/* asynchronous forms (GTask) */
GNN_AVAILABLE_IN_ALL
void           gnn_state_dict_load_async     (const char          *path,
                                              GnnLoadFlags         flags,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_state_dict_load_finish    (GAsyncResult        *result,
                                              GError             **error);
GNN_AVAILABLE_IN_ALL
void           gnn_state_dict_save_async     (GnnStateDict        *self,
                                              const char          *path,
                                              GHashTable          *metadata,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_state_dict_save_finish    (GnnStateDict        *self,
                                              GAsyncResult        *result,
                                              GError             **error);
GNN_AVAILABLE_IN_ALL
void           gnn_module_load_model_async   (const char          *path,
                                              GnnLoadFlags         flags,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_load_model_finish  (GAsyncResult        *result,
                                              GError             **error);
GNN_AVAILABLE_IN_ALL
void           gnn_module_save_model_async   (GnnModule           *self,
                                              const char          *path,
                                              GHashTable          *metadata,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_save_model_finish  (GnnModule           *self,
                                              GAsyncResult        *result,
                                              GError             **error);

G_END_DECLS
