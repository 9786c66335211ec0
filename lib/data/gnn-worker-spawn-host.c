/* gnn-worker-spawn-host.c: the hook through which a language runtime
 * starts spawned workers and rebuilds their dataset (GNN_WORKER_MODE_SPAWN)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A C program's spawned worker is the program itself again, and its dataset
 * comes back from its GType name and properties (gnn-spawn.c). Neither works
 * for an interpreter: re-running /proc/self/exe with the same argv runs the
 * whole script again, and a dataset class defined in the script has no
 * stable GType name in a fresh interpreter (PyGObject names it after the
 * module the script runs as) nor a constructor that takes its state as
 * properties. The host is the binding's answer to both: its argv starts the
 * interpreter in worker mode, save() turns the dataset and collation (and
 * whatever the binding keeps beside them: Python's worker_init_fn) into an
 * opaque payload in the parent — failing there, at loader start, with the
 * binding's own explanation — and rebuild() and worker_init() undo it in
 * the worker, which serves through the same loop as every process worker.
 * It is a class with virtual methods rather than a set of callbacks because
 * bindings implement vfuncs that throw GErrors and have out-arguments
 * reliably, which several callbacks sharing one user_data are not.
 */
#include "data/gnn-process-private.h"

typedef struct
{
  GMutex lock;
  GStrv  argv;
} GnnWorkerSpawnHostPrivate;

/**
 * GnnWorkerSpawnHost:
 *
 * How a language binding starts spawned data loader workers
 * (%GNN_WORKER_MODE_SPAWN) and rebuilds their dataset. Once a host is set
 * with [func@Gnn.set_worker_spawn_host], a loader starting spawned workers
 * asks it for a payload ([vfunc@Gnn.WorkerSpawnHost.save]); a worker is then
 * `argv` (the interpreter in worker mode, which calls
 * [func@Gnn.worker_main_if_worker]) and gets its dataset and collation from
 * [vfunc@Gnn.WorkerSpawnHost.rebuild] instead of from their type names and
 * properties. The Python binding installs one when it is imported: the
 * worker is a fresh `sys.executable` running the parent's main script as
 * `__mp_main__`, and the payload is a pickle.
 *
 * Since: 0.1
 */
G_DEFINE_TYPE_WITH_PRIVATE (GnnWorkerSpawnHost, gnn_worker_spawn_host, G_TYPE_OBJECT)

enum { PROP_0, PROP_ARGV, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
gnn_worker_spawn_host_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  GnnWorkerSpawnHost *self = GNN_WORKER_SPAWN_HOST (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      g_value_take_boxed (value, gnn_worker_spawn_host_dup_argv (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_worker_spawn_host_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  GnnWorkerSpawnHost *self = GNN_WORKER_SPAWN_HOST (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      gnn_worker_spawn_host_set_argv (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_worker_spawn_host_finalize (GObject *object)
{
  GnnWorkerSpawnHostPrivate *priv =
    gnn_worker_spawn_host_get_instance_private (GNN_WORKER_SPAWN_HOST (object));

  g_strfreev (priv->argv);
  g_mutex_clear (&priv->lock);
  G_OBJECT_CLASS (gnn_worker_spawn_host_parent_class)->finalize (object);
}

static GBytes *
default_save (GnnWorkerSpawnHost  *self,
              GnnDataLoader       *loader,
              GnnDataset          *dataset,
              GnnCollate          *collate,
              GError             **error)
{
  return NULL;   /* the properties path */
}

static GnnDataset *
default_rebuild (GnnWorkerSpawnHost  *self,
                 GBytes              *payload,
                 GnnCollate         **collate,
                 GError             **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s cannot rebuild a dataset from a payload", G_OBJECT_TYPE_NAME (self));
  return NULL;
}

static gboolean
default_worker_init (GnnWorkerSpawnHost  *self,
                     GnnWorkerInfo       *info,
                     GError             **error)
{
  return TRUE;
}

static void
gnn_worker_spawn_host_class_init (GnnWorkerSpawnHostClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = gnn_worker_spawn_host_get_property;
  object_class->set_property = gnn_worker_spawn_host_set_property;
  object_class->finalize = gnn_worker_spawn_host_finalize;
  klass->save = default_save;
  klass->rebuild = default_rebuild;
  klass->worker_init = default_worker_init;

  /**
   * GnnWorkerSpawnHost:argv:
   *
   * The command line of a worker (the program first, found in `PATH` if
   * it has no slash), or %NULL for the program itself with its arguments
   * (`/proc/self/exe`). A save() may update it before the workers start.
   *
   * Since: 0.1
   */
  properties[PROP_ARGV] =
    g_param_spec_boxed ("argv", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_worker_spawn_host_init (GnnWorkerSpawnHost *self)
{
  GnnWorkerSpawnHostPrivate *priv = gnn_worker_spawn_host_get_instance_private (self);

  g_mutex_init (&priv->lock);
}

/**
 * gnn_worker_spawn_host_save: (virtual save)
 * @self: a #GnnWorkerSpawnHost
 * @loader: (nullable): the loader starting its workers
 * @dataset: its dataset
 * @collate: its collation
 * @error: return location for a #GError
 *
 * Saves what spawned workers need to rebuild @dataset and @collate.
 *
 * Returns: (transfer full) (nullable): the payload, or %NULL (with @error
 *   set on failure; without, the workers use the properties path)
 *
 * Since: 0.1
 */
GBytes *
gnn_worker_spawn_host_save (GnnWorkerSpawnHost  *self,
                            GnnDataLoader       *loader,
                            GnnDataset          *dataset,
                            GnnCollate          *collate,
                            GError             **error)
{
  g_return_val_if_fail (GNN_IS_WORKER_SPAWN_HOST (self), NULL);
  g_return_val_if_fail (GNN_IS_DATASET (dataset) && GNN_IS_COLLATE (collate), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return GNN_WORKER_SPAWN_HOST_GET_CLASS (self)->save (self, loader, dataset, collate, error);
}

/**
 * gnn_worker_spawn_host_rebuild: (virtual rebuild)
 * @self: a #GnnWorkerSpawnHost
 * @payload: what [method@Gnn.WorkerSpawnHost.save] returned in the parent
 * @collate: (out) (transfer full) (optional) (nullable): the collation
 * @error: return location for a #GError
 *
 * Rebuilds a worker's dataset and collation from @payload.
 *
 * Returns: (transfer full) (nullable): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnDataset *
gnn_worker_spawn_host_rebuild (GnnWorkerSpawnHost  *self,
                               GBytes              *payload,
                               GnnCollate         **collate,
                               GError             **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GnnCollate) co = NULL;
  GnnDataset *ds;

  g_return_val_if_fail (GNN_IS_WORKER_SPAWN_HOST (self), NULL);
  g_return_val_if_fail (payload != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ds = GNN_WORKER_SPAWN_HOST_GET_CLASS (self)->rebuild (self, payload, &co, &local);
  if (ds != NULL && !GNN_IS_DATASET (ds))
    g_clear_object (&ds);
  if (ds != NULL && co != NULL && !GNN_IS_COLLATE (co))
    g_clear_object (&co);
  if (ds == NULL && local == NULL)
    local = g_error_new (GNN_ERROR, GNN_ERROR_WORKER, "%s did not rebuild a dataset",
                         G_OBJECT_TYPE_NAME (self));
  if (ds == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (co == NULL)
    co = gnn_collate_new ();
  if (collate != NULL)
    *collate = g_steal_pointer (&co);
  return ds;
}

/**
 * gnn_worker_spawn_host_worker_init: (virtual worker_init)
 * @self: a #GnnWorkerSpawnHost
 * @info: the worker's info
 * @error: return location for a #GError
 *
 * Runs the binding's initialization of a spawned worker, after
 * [func@Gnn.get_worker_info] returns @info and before the first item.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_worker_spawn_host_worker_init (GnnWorkerSpawnHost  *self,
                                   GnnWorkerInfo       *info,
                                   GError             **error)
{
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (GNN_IS_WORKER_SPAWN_HOST (self), FALSE);
  g_return_val_if_fail (GNN_IS_WORKER_INFO (info), FALSE);

  if (GNN_WORKER_SPAWN_HOST_GET_CLASS (self)->worker_init (self, info, &local) && local == NULL)
    return TRUE;
  if (local == NULL)
    local = g_error_new_literal (GNN_ERROR, GNN_ERROR_WORKER, "worker initialization failed");
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/**
 * gnn_worker_spawn_host_dup_argv:
 * @self: a #GnnWorkerSpawnHost
 *
 * The command line of a worker ([property@Gnn.WorkerSpawnHost:argv]).
 *
 * Returns: (transfer full) (nullable): a copy of it, or %NULL for the
 *   program itself
 *
 * Since: 0.1
 */
GStrv
gnn_worker_spawn_host_dup_argv (GnnWorkerSpawnHost *self)
{
  GnnWorkerSpawnHostPrivate *priv;
  GStrv argv;

  g_return_val_if_fail (GNN_IS_WORKER_SPAWN_HOST (self), NULL);

  priv = gnn_worker_spawn_host_get_instance_private (self);
  g_mutex_lock (&priv->lock);
  argv = g_strdupv (priv->argv);
  g_mutex_unlock (&priv->lock);
  return argv;
}

/**
 * gnn_worker_spawn_host_set_argv:
 * @self: a #GnnWorkerSpawnHost
 * @argv: (nullable) (array zero-terminated=1): the command line of a worker
 *
 * Sets [property@Gnn.WorkerSpawnHost:argv].
 *
 * Since: 0.1
 */
void
gnn_worker_spawn_host_set_argv (GnnWorkerSpawnHost *self,
                                const char * const *argv)
{
  GnnWorkerSpawnHostPrivate *priv;
  GStrv old;

  g_return_if_fail (GNN_IS_WORKER_SPAWN_HOST (self));

  priv = gnn_worker_spawn_host_get_instance_private (self);
  g_mutex_lock (&priv->lock);
  old = priv->argv;
  priv->argv = argv != NULL && argv[0] != NULL ? g_strdupv ((GStrv) argv) : NULL;
  g_mutex_unlock (&priv->lock);
  g_strfreev (old);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGV]);
}

/* --- the process's host --------------------------------------------------- */

G_LOCK_DEFINE_STATIC (the_host);
static GnnWorkerSpawnHost *the_host;

/**
 * gnn_set_worker_spawn_host:
 * @host: (nullable): the host, or %NULL for none
 *
 * Sets how this process starts spawned data loader workers and rebuilds
 * their datasets (see [class@Gnn.WorkerSpawnHost]); a host also makes
 * %GNN_WORKER_MODE_SPAWN available without a call to
 * [func@Gnn.worker_main_if_worker] in the parent (the worker calls it).
 * The Python binding sets its own when it is imported.
 *
 * Since: 0.1
 */
void
gnn_set_worker_spawn_host (GnnWorkerSpawnHost *host)
{
  GnnWorkerSpawnHost *old;

  g_return_if_fail (host == NULL || GNN_IS_WORKER_SPAWN_HOST (host));

  if (host != NULL)
    g_object_ref (host);
  G_LOCK (the_host);
  old = the_host;
  the_host = host;
  G_UNLOCK (the_host);
  g_clear_object (&old);
}

GnnWorkerSpawnHost *
gnn_worker_spawn_host_dup_default (void)
{
  GnnWorkerSpawnHost *h;

  G_LOCK (the_host);
  h = the_host != NULL ? g_object_ref (the_host) : NULL;
  G_UNLOCK (the_host);
  return h;
}
