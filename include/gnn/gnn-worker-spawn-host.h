/* gnn-worker-spawn-host.h: how a language runtime starts and rebuilds
 * spawned data loader workers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-dataset.h>
#include <gnn/gnn-collate.h>
#include <gnn/gnn-worker-info.h>
#include <gnn/gnn-data-loader.h>

G_BEGIN_DECLS

#define GNN_TYPE_WORKER_SPAWN_HOST (gnn_worker_spawn_host_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnWorkerSpawnHost, gnn_worker_spawn_host, GNN, WORKER_SPAWN_HOST, GObject)

/**
 * GnnWorkerSpawnHostClass:
 * @parent_class: the parent class
 * @save: in the parent, at loader start: the dataset, the collation and
 *   whatever else the workers need, as an opaque payload
 * @rebuild: in a worker: the dataset and the collation from the payload
 * @worker_init: in a worker, once the worker info is current and before
 *   the first item: the binding's per-worker initialization
 *
 * The virtual methods of [class@Gnn.WorkerSpawnHost].
 *
 * Since: 0.1
 */
struct _GnnWorkerSpawnHostClass
{
  GObjectClass parent_class;

  GBytes     *(*save)        (GnnWorkerSpawnHost  *self,
                              GnnDataLoader       *loader,
                              GnnDataset          *dataset,
                              GnnCollate          *collate,
                              GError             **error);
  GnnDataset *(*rebuild)     (GnnWorkerSpawnHost  *self,
                              GBytes              *payload,
                              GnnCollate         **collate,
                              GError             **error);
  gboolean    (*worker_init) (GnnWorkerSpawnHost  *self,
                              GnnWorkerInfo       *info,
                              GError             **error);

  /*< private >*/
  gpointer padding[8];
};

/**
 * GnnWorkerSpawnHostClass::save:
 * @self: a #GnnWorkerSpawnHost
 * @loader: (nullable): the loader starting its workers
 * @dataset: its dataset
 * @collate: its collation
 * @error: return location for a #GError
 *
 * Saves what the workers need. %NULL without an error means "no payload":
 * the workers rebuild the dataset from its type name and properties.
 *
 * Returns: (transfer full) (nullable): the payload
 *
 * Since: 0.1
 */

/**
 * GnnWorkerSpawnHostClass::rebuild:
 * @self: a #GnnWorkerSpawnHost
 * @payload: what @save returned in the parent
 * @collate: (out) (transfer full): the collation
 * @error: return location for a #GError
 *
 * Rebuilds the dataset and the collation in a worker.
 *
 * Returns: (transfer full) (nullable): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */

/**
 * GnnWorkerSpawnHostClass::worker_init:
 * @self: a #GnnWorkerSpawnHost
 * @info: the worker's info (also [func@Gnn.get_worker_info])
 * @error: return location for a #GError
 *
 * Initializes a worker before its first item.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */

GNN_AVAILABLE_IN_ALL
GBytes     *gnn_worker_spawn_host_save        (GnnWorkerSpawnHost  *self,
                                               GnnDataLoader       *loader,
                                               GnnDataset          *dataset,
                                               GnnCollate          *collate,
                                               GError             **error);
GNN_AVAILABLE_IN_ALL
GnnDataset *gnn_worker_spawn_host_rebuild     (GnnWorkerSpawnHost  *self,
                                               GBytes              *payload,
                                               GnnCollate         **collate,
                                               GError             **error);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_worker_spawn_host_worker_init (GnnWorkerSpawnHost  *self,
                                               GnnWorkerInfo       *info,
                                               GError             **error);
GNN_AVAILABLE_IN_ALL
GStrv       gnn_worker_spawn_host_dup_argv    (GnnWorkerSpawnHost  *self);
GNN_AVAILABLE_IN_ALL
void        gnn_worker_spawn_host_set_argv    (GnnWorkerSpawnHost  *self,
                                               const char * const  *argv);

GNN_AVAILABLE_IN_ALL
void        gnn_set_worker_spawn_host         (GnnWorkerSpawnHost  *host);

G_END_DECLS
