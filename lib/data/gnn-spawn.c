/* gnn-spawn.c: spawned worker processes (GNN_WORKER_MODE_SPAWN)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A spawned worker is a fresh process of the same program: /proc/self/exe
 * again, with the same argv, its socket and the control page on fixed
 * descriptors and GNN_SPAWN_WORKER in the environment. The program's main()
 * calls gnn_worker_main_if_worker() first; in a worker it never returns.
 * Re-executing the program itself (like GStreamer's plugin scanner re-running
 * a helper) rather than a separate `gnn-worker` binary is what lets a C
 * program's own dataset types, compiled into the executable, exist in the
 * worker. Nothing is inherited but the program: the dataset is rebuilt from
 * its GType name and its properties (the construct-from-properties
 * contract), so state the parent changed after construction cannot go
 * stale, and nothing a forked child could inherit half-locked (threads,
 * mutexes) exists in the worker.
 *
 * An interpreter can do neither (the script would run again, its classes
 * have no stable GType names): a spawn host (gnn-worker-spawn-host.c) gives
 * the worker's command line and an opaque payload that replaces the
 * properties in the setup, "(ayx)" instead of "((sa{sv})(sa{sv})x)"; the
 * worker hands it to the host's rebuild and runs the host's worker_init
 * once the worker info is current.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gio/gio.h>

#include "data/gnn-process-private.h"

#define SPAWN_ENV "GNN_SPAWN_WORKER"

/* Set once the program has shown it serves spawned workers (it called
 * gnn_worker_main_if_worker()): spawning a program that does not would run
 * the whole program again. */
static gint entry_seen;

gboolean
gnn_spawn_is_available (void)
{
  return g_atomic_int_get (&entry_seen);
}
#define SOCK_FD 3
#define CONTROL_FD 4

/* --- properties to GVariant and back --------------------------------------- */

static GVariant *serialize_object (GObject *object, const char *owner, GArray *fds,
                                   GError **error);

/* A tensor travels as its memfd (see gnn-shared-tensor.c): (dtype, shape,
 * index of the descriptor sent after the setup, byte offset in it). */
static GVariant *
serialize_tensor (GnnTensor  *tensor,
                  GArray     *fds,
                  GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (tensor);
  gsize offset = 0;
  int fd = gnn_shared_tensor_dup_fd (tensor, &offset, error);

  if (fd < 0)
    return NULL;
  g_array_append_val (fds, fd);
  return g_variant_new ("(u@axut)", (guint32) p->dtype,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, p->shape, p->ndim,
                                                   sizeof (gint64)),
                        fds->len - 1, (guint64) offset);
}

/* One property value, or NULL with @error naming @owner and the property. */
static GVariant *
serialize_value (const GValue  *value,
                 GParamSpec    *pspec,
                 const char    *owner,
                 GArray        *fds,
                 GError       **error)
{
  GType t = G_TYPE_FUNDAMENTAL (pspec->value_type);

  if (g_type_is_a (pspec->value_type, GNN_TYPE_TENSOR) && g_value_get_object (value) != NULL)
    return serialize_tensor (g_value_get_object (value), fds, error);
  /* a list of objects (a Compose's transforms): its item type and items */
  if (pspec->value_type == G_TYPE_LIST_MODEL && g_value_get_object (value) != NULL)
    {
      GListModel *list = g_value_get_object (value);
      g_autofree char *inner = g_strdup_printf ("%s:%s", owner, pspec->name);
      GVariantBuilder items;

      g_variant_builder_init (&items, G_VARIANT_TYPE ("av"));
      for (guint i = 0; i < g_list_model_get_n_items (list); i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (list, i);
          GVariant *v = serialize_object (item, inner, fds, error);

          if (v == NULL)
            {
              g_variant_builder_clear (&items);
              return NULL;
            }
          g_variant_builder_add (&items, "v", v);
          g_variant_unref (v);
        }
      return g_variant_new ("(sav)", g_type_name (g_list_model_get_item_type (list)), &items);
    }

  switch (t)
    {
    case G_TYPE_BOOLEAN: return g_variant_new_boolean (g_value_get_boolean (value));
    case G_TYPE_INT: return g_variant_new_int32 (g_value_get_int (value));
    case G_TYPE_UINT: return g_variant_new_uint32 (g_value_get_uint (value));
    case G_TYPE_LONG: return g_variant_new_int64 (g_value_get_long (value));
    case G_TYPE_ULONG: return g_variant_new_uint64 (g_value_get_ulong (value));
    case G_TYPE_INT64: return g_variant_new_int64 (g_value_get_int64 (value));
    case G_TYPE_UINT64: return g_variant_new_uint64 (g_value_get_uint64 (value));
    case G_TYPE_DOUBLE: return g_variant_new_double (g_value_get_double (value));
    case G_TYPE_FLOAT: return g_variant_new_double (g_value_get_float (value));
    case G_TYPE_ENUM: return g_variant_new_int32 (g_value_get_enum (value));
    case G_TYPE_FLAGS: return g_variant_new_uint32 (g_value_get_flags (value));
    case G_TYPE_STRING:
      return g_variant_new_maybe (G_VARIANT_TYPE_STRING, g_value_get_string (value) != NULL ?
                                  g_variant_new_string (g_value_get_string (value)) : NULL);
    case G_TYPE_VARIANT:
      if (g_value_get_variant (value) != NULL)
        return g_variant_new_variant (g_value_get_variant (value));
      break;
    case G_TYPE_BOXED:
      if (pspec->value_type == G_TYPE_STRV)
        return g_variant_new_strv (g_value_get_boxed (value), -1);
      break;
    case G_TYPE_OBJECT:
      if (g_value_get_object (value) != NULL)
        {
          g_autofree char *inner = g_strdup_printf ("%s:%s", owner, pspec->name);

          return serialize_object (g_value_get_object (value), inner, fds, error);
        }
      break;
    default:
      break;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "cannot rebuild %s in a spawned worker: property '%s' (%s) does not serialize",
               owner, pspec->name, g_type_name (pspec->value_type));
  return NULL;
}

/* (sa{sv}): the type name and its writable properties (a full reference). */
static GVariant *
serialize_object (GObject     *object,
                  const char  *owner,
                  GArray      *fds,
                  GError     **error)
{
  g_auto(GVariantBuilder) props = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autofree GParamSpec **pspecs = NULL;
  const char *type_name = G_OBJECT_TYPE_NAME (object);
  g_autofree char *name = g_strcmp0 (owner, type_name) == 0 ? g_strdup (owner)
                          : g_strdup_printf ("%s (%s)", owner, type_name);
  guint n;

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  for (guint i = 0; i < n; i++)
    {
      g_auto(GValue) value = G_VALUE_INIT;
      gboolean at_default;
      GVariant *v;

      if ((pspecs[i]->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE)
        continue;
      g_value_init (&value, pspecs[i]->value_type);
      g_object_get_property (object, pspecs[i]->name, &value);
      /* A construct property at its default gets it again in the worker;
       * another one's initial value comes from instance init, so it is sent
       * whenever it serializes. */
      at_default = g_param_value_defaults (pspecs[i], &value);
      if (at_default && (pspecs[i]->flags & (G_PARAM_CONSTRUCT | G_PARAM_CONSTRUCT_ONLY)))
        continue;
      v = serialize_value (&value, pspecs[i], name, fds, at_default ? NULL : error);
      if (v == NULL && at_default)
        continue;
      if (v == NULL)
        return NULL;
      g_variant_take_ref (v);   /* floating or not */
      g_variant_builder_add (&props, "{sv}", pspecs[i]->name, v);
      g_variant_unref (v);
    }
  return g_variant_ref_sink (g_variant_new ("(s@a{sv})", type_name, g_variant_builder_end (&props)));
}

/* The GType called @name, registering it first through its get_type
 * function if the program has not used it yet (GtkBuilder's rule:
 * GnnIdxDataset → gnn_idx_dataset_get_type, looked up in the program). */
static GType
find_type (const char *name)
{
  GType t = g_type_from_name (name);
  g_autoptr(GString) sym = NULL;
  GType (*get_type) (void);

  if (t != 0)
    return t;
  sym = g_string_new (NULL);
  for (gsize i = 0; name[i] != '\0'; i++)
    {
      char c = name[i];

      if (i > 0 && isupper ((guchar) c) &&
          (islower ((guchar) name[i - 1]) ||
           (isupper ((guchar) name[i - 1]) && islower ((guchar) name[i + 1]))))
        g_string_append_c (sym, '_');
      g_string_append_c (sym, (char) tolower ((guchar) c));
    }
  g_string_append (sym, "_get_type");
  *(gpointer *) &get_type = dlsym (RTLD_DEFAULT, sym->str);
  return get_type != NULL ? get_type () : 0;
}

static GObject *deserialize_object (GVariant *v, GType expected, GArray *fds, GError **error);

static GnnTensor *
deserialize_tensor (GVariant  *v,
                    GArray    *fds,
                    GError   **error)
{
  g_autoptr(GVariant) shape = NULL;
  const gint64 *dims;
  guint32 dtype, index;
  guint64 offset;
  gsize ndim;

  if (!g_variant_is_of_type (v, G_VARIANT_TYPE ("(uaxut)")))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FORMAT, "malformed tensor in the worker setup");
      return NULL;
    }
  g_variant_get (v, "(u@axut)", &dtype, &shape, &index, &offset);
  dims = g_variant_get_fixed_array (shape, &ndim, sizeof (gint64));
  if (index >= fds->len || ndim > GNN_MAX_DIMS || dtype > GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FORMAT, "malformed tensor in the worker setup");
      return NULL;
    }
  return gnn_shared_tensor_map (g_array_index (fds, int, index), (gsize) offset,
                                (GnnDType) dtype, dims, (guint) ndim, error);
}

static gboolean
deserialize_value (GVariant    *v,
                   GParamSpec  *pspec,
                   GValue      *value,
                   GArray      *fds,
                   GError     **error)
{
  g_value_init (value, pspec->value_type);
  if (pspec->value_type == G_TYPE_LIST_MODEL && g_variant_is_of_type (v, G_VARIANT_TYPE ("(sav)")))
    {
      g_autoptr(GVariant) items = NULL;
      const char *item_type;
      GType type;
      GListStore *store;

      g_variant_get (v, "(&s@av)", &item_type, &items);
      type = g_type_from_name (item_type);
      if (type == G_TYPE_INVALID || !G_TYPE_IS_OBJECT (type))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "unknown item type %s of property '%s'",
                       item_type, pspec->name);
          return FALSE;
        }
      store = g_list_store_new (type);
      g_value_take_object (value, store);
      for (gsize i = 0; i < g_variant_n_children (items); i++)
        {
          g_autoptr(GVariant) boxed = g_variant_get_child_value (items, i);
          g_autoptr(GVariant) inner = g_variant_get_variant (boxed);
          g_autoptr(GObject) item = deserialize_object (inner, type, fds, error);

          if (item == NULL)
            return FALSE;
          g_list_store_append (store, item);
        }
      return TRUE;
    }
  if (g_type_is_a (pspec->value_type, GNN_TYPE_TENSOR))
    {
      GnnTensor *t = deserialize_tensor (v, fds, error);

      if (t == NULL)
        return FALSE;
      g_value_take_object (value, t);
      return TRUE;
    }
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN: g_value_set_boolean (value, g_variant_get_boolean (v)); break;
    case G_TYPE_INT: g_value_set_int (value, g_variant_get_int32 (v)); break;
    case G_TYPE_UINT: g_value_set_uint (value, g_variant_get_uint32 (v)); break;
    case G_TYPE_LONG: g_value_set_long (value, (glong) g_variant_get_int64 (v)); break;
    case G_TYPE_ULONG: g_value_set_ulong (value, (gulong) g_variant_get_uint64 (v)); break;
    case G_TYPE_INT64: g_value_set_int64 (value, g_variant_get_int64 (v)); break;
    case G_TYPE_UINT64: g_value_set_uint64 (value, g_variant_get_uint64 (v)); break;
    case G_TYPE_DOUBLE: g_value_set_double (value, g_variant_get_double (v)); break;
    case G_TYPE_FLOAT: g_value_set_float (value, (float) g_variant_get_double (v)); break;
    case G_TYPE_ENUM: g_value_set_enum (value, g_variant_get_int32 (v)); break;
    case G_TYPE_FLAGS: g_value_set_flags (value, g_variant_get_uint32 (v)); break;
    case G_TYPE_STRING:
      {
        g_autoptr(GVariant) s = g_variant_get_maybe (v);

        g_value_set_string (value, s != NULL ? g_variant_get_string (s, NULL) : NULL);
      }
      break;
    case G_TYPE_VARIANT: g_value_take_variant (value, g_variant_get_variant (v)); break;
    case G_TYPE_BOXED: g_value_take_boxed (value, g_variant_dup_strv (v, NULL)); break;
    case G_TYPE_OBJECT:
      {
        GObject *o = deserialize_object (v, pspec->value_type, fds, error);

        if (o == NULL)
          return FALSE;
        g_value_take_object (value, o);
      }
      break;
    default:
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "property '%s' (%s) does not deserialize", pspec->name,
                   g_type_name (pspec->value_type));
      return FALSE;
    }
  return TRUE;
}

static GObject *
deserialize_object (GVariant  *v,
                    GType      expected,
                    GArray    *fds,
                    GError   **error)
{
  g_autoptr(GVariant) props = NULL;
  const char *type_name;
  g_autofree const char **names = NULL;
  g_autofree GValue *values = NULL;
  GObject *object = NULL;
  GVariantIter iter;
  const char *key;
  GVariant *pv;
  GType type;
  guint n = 0, k = 0;

  if (!g_variant_is_of_type (v, G_VARIANT_TYPE ("(sa{sv})")))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FORMAT, "malformed object in the worker setup");
      return NULL;
    }
  g_variant_get (v, "(&s@a{sv})", &type_name, &props);
  type = find_type (type_name);
  if (type == 0 || !g_type_is_a (type, expected) || G_TYPE_IS_ABSTRACT (type))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "cannot rebuild %s in a spawned worker: the type is not registered there "
                   "(register it before calling gnn_worker_main_if_worker(), e.g. with "
                   "g_type_ensure(), or export its get_type function)", type_name);
      return NULL;
    }
  n = (guint) g_variant_n_children (props);
  names = g_new0 (const char *, MAX (n, 1));
  values = g_new0 (GValue, MAX (n, 1));
  g_variant_iter_init (&iter, props);
  while (g_variant_iter_loop (&iter, "{&sv}", &key, &pv))
    {
      GParamSpec *pspec = g_object_class_find_property (g_type_class_peek (type) != NULL ?
                                                        g_type_class_peek (type) :
                                                        g_type_class_ref (type), key);

      if (pspec == NULL || !deserialize_value (pv, pspec, &values[k], fds, error))
        {
          if (pspec == NULL)
            g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                         "cannot rebuild %s in a spawned worker: no property '%s'", type_name, key);
          else
            g_prefix_error (error, "cannot rebuild %s in a spawned worker: ", type_name);
          g_variant_unref (pv);
          goto out;
        }
      names[k++] = key;
    }
  object = g_object_new_with_properties (type, k, names, values);
  if (G_IS_INITABLE (object) && !g_initable_init (G_INITABLE (object), NULL, error))
    {
      g_prefix_error (error, "cannot rebuild %s in a spawned worker: ", type_name);
      g_clear_object (&object);
    }
out:
  for (guint i = 0; i < k; i++)
    g_value_unset (&values[i]);
  return object;
}

static void
close_fd_at (gpointer fd)
{
  close (*(int *) fd);
}

GArray *
gnn_spawn_fds_new (void)
{
  GArray *fds = g_array_new (FALSE, FALSE, sizeof (int));

  g_array_set_clear_func (fds, close_fd_at);
  return fds;
}

GVariant *
gnn_spawn_setup_new (const GnnWorkerSetup  *setup,
                     GArray                *fds,
                     GError               **error)
{
  GnnDataset *dataset = setup->dataset;
  GnnCollate *collate = setup->collate;
  g_autoptr(GnnWorkerSpawnHost) host = gnn_worker_spawn_host_dup_default ();
  g_autoptr(GVariant) ds = NULL;
  g_autoptr(GVariant) co = NULL;

  /* A host's payload, when it gives one: "(ayx)"; its error is the
   * loader's start error, as it stands. */
  if (host != NULL)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(GBytes) payload = gnn_worker_spawn_host_save (host, setup->loader, dataset,
                                                              collate, &local);

      if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (payload != NULL)
        return g_variant_ref_sink (g_variant_new ("(@ayx)",
                                                  g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING,
                                                                            payload, TRUE),
                                                  gnn_dataset_get_length (dataset)));
    }
  /* Signal handlers are functions and data of this process: a rebuilt
   * worker has no loader to emit them on. Refused rather than skipped. */
  if (setup->worker_init_connected)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "DataLoader: worker-init handlers cannot run in spawned workers (they "
                           "live in this process); use worker mode THREADS or PROCESSES, or "
                           "initialize in the dataset, which a spawned worker rebuilds");
      return NULL;
    }
  ds = serialize_object (G_OBJECT (dataset), G_OBJECT_TYPE_NAME (dataset), fds, error);
  if (ds == NULL)
    return NULL;
  co = serialize_object (G_OBJECT (collate), G_OBJECT_TYPE_NAME (collate), fds, error);
  if (co == NULL)
    return NULL;
  return g_variant_ref_sink (g_variant_new ("(@(sa{sv})@(sa{sv})x)", ds, co,
                                            gnn_dataset_get_length (dataset)));
}

/* --- the parent's side ---------------------------------------------------- */

gboolean
gnn_spawn_send_setup (int        sock,
                      GVariant  *setup,
                      GArray    *fds,
                      guint      id,
                      guint      num_workers,
                      guint64    seed,
                      GError   **error)
{
  g_autoptr(GVariant) all = g_variant_ref_sink (g_variant_new ("(uutv)", id, num_workers,
                                                                seed, setup));
  g_autoptr(GBytes) data = g_variant_get_data_as_bytes (all);
  gsize size = g_bytes_get_size (data);
  GnnWireMessage m = { GNN_MSG_SETUP, 0, 0, (gint64) size, 0, 0, fds->len };
  guint8 *map;
  int fd = gnn_wire_memfd_new ("gnn-setup", MAX (size, 1), &map);
  gboolean ok;

  if (fd < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                   "DataLoader: cannot create the setup of worker %u: %s", id, g_strerror (errno));
      return FALSE;
    }
  memcpy (map, g_bytes_get_data (data, NULL), size);
  munmap (map, MAX (size, 1));
  ok = gnn_wire_send (sock, &m, NULL, 0, fd, TRUE);
  close (fd);
  /* then the shared tensors' memfds, one a message, in index order */
  for (guint i = 0; ok && i < fds->len; i++)
    {
      GnnWireMessage t = { GNN_MSG_SETUP, 0, i, 0, 0, 0, 0 };

      ok = gnn_wire_send (sock, &t, NULL, 0, g_array_index (fds, int, i), TRUE);
    }
  if (!ok)
    g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                 "DataLoader: cannot send worker %u its setup: %s", id, g_strerror (errno));
  return ok;
}

GPid
gnn_spawn_worker_start (int      sock,
                        int      control_fd,
                        GError **error)
{
  g_autoptr(GnnWorkerSpawnHost) host = gnn_worker_spawn_host_dup_default ();
  g_auto(GStrv) host_argv = host != NULL ? gnn_worker_spawn_host_dup_argv (host) : NULL;
  g_autofree char *exe = NULL;
  g_autofree char *cmdline = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *value = g_strdup_printf ("%d,%d", SOCK_FD, CONTROL_FD);
  int source_fds[] = { sock, control_fd };
  int target_fds[] = { SOCK_FD, CONTROL_FD };
  gsize len = 0;
  GPid pid = 0;

  if (!gnn_spawn_is_available () && host == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "DataLoader: worker mode SPAWN needs a call to "
                           "gnn_worker_main_if_worker() at the top of the program's main()");
      return 0;
    }
  if (host_argv != NULL)   /* the host's command line (an interpreter in worker mode) */
    for (guint i = 0; host_argv[i] != NULL; i++)
      g_ptr_array_add (argv, host_argv[i]);
  else
    {
      exe = g_file_read_link ("/proc/self/exe", NULL);
      if (exe == NULL || !g_file_get_contents ("/proc/self/cmdline", &cmdline, &len, NULL) || len == 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER,
                               "DataLoader: cannot find this program to spawn a worker");
          return 0;
        }
      g_ptr_array_add (argv, exe);
      for (gsize i = 0; i < len; i += strlen (cmdline + i) + 1)
        if (i > 0)
          g_ptr_array_add (argv, cmdline + i);
    }
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, SPAWN_ENV, value, TRUE);
  /* One compute thread a worker, as torch's workers set: a worker's
   * parallelism is the pool; BLAS threads would only oversubscribe (and
   * starting them is most of an exec's cost). */
  envp = g_environ_setenv (envp, "OPENBLAS_NUM_THREADS", "1", TRUE);
  envp = g_environ_setenv (envp, "OMP_NUM_THREADS", "1", TRUE);
  if (!g_spawn_async_with_pipes_and_fds (NULL, (const char * const *) argv->pdata,
                                         (const char * const *) envp,
                                         G_SPAWN_DO_NOT_REAP_CHILD |
                                         (host_argv != NULL ? G_SPAWN_SEARCH_PATH : 0), NULL, NULL, -1, -1, -1,
                                         source_fds, target_fds, G_N_ELEMENTS (source_fds),
                                         &pid, NULL, NULL, NULL, error))
    {
      g_prefix_error (error, "DataLoader: cannot spawn a worker process: ");
      return 0;
    }
  return pid;
}

/* --- the worker's side ---------------------------------------------------- */

static gboolean
worker_setup (int                  sock,
              GnnProcessWorker    *w,
              GnnWorkerSpawnHost **host,
              GError             **error)
{
  g_autofree guint8 *buf = g_malloc (GNN_WIRE_MAX_MESSAGE);
  const GnnWireMessage *m = (const GnnWireMessage *) buf;
  g_autoptr(GVariant) all = NULL, setup = NULL, ds = NULL, co = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GArray) fds = gnn_spawn_fds_new ();
  guint n_fds;
  guint64 seed;
  gint64 length;
  guint num_workers;
  gpointer map;
  int fd = -1;

  if (gnn_wire_receive (sock, buf, &fd) <= 0 || m->type != GNN_MSG_SETUP || fd < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER, "no setup from the parent");
      return FALSE;
    }
  n_fds = m->extra;
  map = mmap (NULL, MAX ((gsize) m->n, 1), PROT_READ, MAP_SHARED, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER, "cannot map the setup");
      return FALSE;
    }
  bytes = g_bytes_new (map, (gsize) m->n);
  munmap (map, MAX ((gsize) m->n, 1));
  for (guint i = 0; i < n_fds; i++)
    {
      if (gnn_wire_receive (sock, buf, &fd) <= 0 || m->type != GNN_MSG_SETUP ||
          m->seq != i || fd < 0)
        {
          if (fd >= 0)
            close (fd);
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER,
                               "incomplete setup from the parent (shared tensors)");
          return FALSE;
        }
      g_array_append_val (fds, fd);
    }
  all = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE ("(uutv)"), bytes, FALSE));
  if (!g_variant_is_normal_form (all))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FORMAT, "malformed worker setup");
      return FALSE;
    }
  g_variant_get (all, "(uutv)", &w->id, &num_workers, &seed, &setup);
  if (g_variant_is_of_type (setup, G_VARIANT_TYPE ("(ayx)")))
    {
      /* The host's payload: its rebuild gives the dataset and collation. */
      g_autoptr(GVariant) payload = NULL;
      g_autoptr(GBytes) data = NULL;

      *host = gnn_worker_spawn_host_dup_default ();
      if (*host == NULL)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                               "the setup holds a spawn host's payload, but this worker has no "
                               "host (set it before calling gnn_worker_main_if_worker())");
          return FALSE;
        }
      g_variant_get (setup, "(@ayx)", &payload, &length);
      data = g_variant_get_data_as_bytes (payload);
      w->dataset = gnn_worker_spawn_host_rebuild (*host, data, &w->collate, error);
      if (w->dataset == NULL)
        return FALSE;
    }
  else if (!g_variant_is_of_type (setup, G_VARIANT_TYPE ("((sa{sv})(sa{sv})x)")))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FORMAT, "malformed worker setup");
      return FALSE;
    }
  else
    {
      g_variant_get (setup, "(@(sa{sv})@(sa{sv})x)", &ds, &co, &length);
      w->dataset = (GnnDataset *) deserialize_object (ds, GNN_TYPE_DATASET, fds, error);
      if (w->dataset == NULL)
        return FALSE;
    }
  /* State outside the properties would make a different dataset: the
   * length is the check that catches it (never a silent default). */
  if (gnn_dataset_get_length (w->dataset) != length)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "cannot rebuild %s in a spawned worker: rebuilt from its properties it has "
                   "length %" G_GINT64_FORMAT ", the parent's has %" G_GINT64_FORMAT
                   " (its configuration is not all in properties)",
                   G_OBJECT_TYPE_NAME (w->dataset), gnn_dataset_get_length (w->dataset), length);
      return FALSE;
    }
  if (w->collate == NULL)
    w->collate = (GnnCollate *) deserialize_object (co, GNN_TYPE_COLLATE, fds, error);
  if (w->collate == NULL)
    return FALSE;
  w->info = gnn_worker_info_new (w->id, num_workers, seed, w->dataset);
  return TRUE;
}

/**
 * gnn_worker_main_if_worker:
 *
 * Serves as a data loader worker and exits if this process was started as
 * one (worker mode %GNN_WORKER_MODE_SPAWN); returns at once otherwise.
 * Programs using spawned workers call it first thing in main(), like
 * gst_init(): a spawned worker is a fresh run of the same program, which
 * rebuilds the dataset from its type name and properties. A dataset type
 * the program has not registered yet is found through its get_type
 * function when the executable exports it (link with `-rdynamic`), or can
 * be registered with g_type_ensure() before this call. A program with a
 * spawn host ([class@Gnn.WorkerSpawnHost]) sets it before this call: the
 * worker then rebuilds the dataset from the host's payload.
 *
 * Since: 0.1
 */
void
gnn_worker_main_if_worker (void)
{
  const char *spec = g_getenv (SPAWN_ENV);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnWorkerSpawnHost) host = NULL;
  GnnProcessWorker w = { 0, SOCK_FD, NULL, NULL, NULL, NULL, NULL, NULL };
  GnnWireMessage ready = { GNN_MSG_READY, 0, 0, 0, 0, 0, 0 };
  struct stat st;
  gpointer control;

  g_atomic_int_set (&entry_seen, 1);
  if (spec == NULL)
    return;
  g_unsetenv (SPAWN_ENV);   /* the dataset's own children are not workers */
  if (fstat (CONTROL_FD, &st) != 0 ||
      (control = mmap (NULL, (gsize) st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                       CONTROL_FD, 0)) == MAP_FAILED)
    _exit (126);
  close (CONTROL_FD);
  w.control = control;
  /* With a host, its worker_init runs once the worker info is current
   * (torch's worker_init_fn sees get_worker_info()) and before READY, so
   * that its failure is the loader's start error. */
  if (!worker_setup (SOCK_FD, &w, &host, &error) ||
      (host != NULL && (gnn_worker_info_set_current (w.info),
                        gnn_manual_seed (gnn_worker_info_get_seed (w.info)),
                        !gnn_worker_spawn_host_worker_init (host, w.info, &error))))
    {
      gnn_wire_send_error (w.id, SOCK_FD, &ready, error);
      _exit (1);
    }
  gnn_wire_send (SOCK_FD, &ready, NULL, 0, -1, TRUE);
  gnn_process_worker_main (&w);
  _exit (0);
}
