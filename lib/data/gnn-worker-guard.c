/* gnn-worker-guard.c: objects that cannot run in data loader workers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A dataset subclassed in JavaScript runs its get_item in SpiderMonkey,
 * which GJS binds to the main thread: called from a worker thread, GJS
 * prints a critical and returns nothing; in a forked process the engine's
 * threads are gone. Python's classes work (the GIL; os.fork), GJS's are
 * refused up front with an error instead of failing item by item.
 */
#include "data/gnn-data-private.h"
#include "core/gnn-bindings-private.h"

/* The JavaScript class reached from @object: itself, or one of the objects
 * its readable object properties hold (a wrapper's inner dataset), to a
 * small depth. */
static GType
find_javascript_type (GObject *object,
                      guint    depth)
{
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs = 0;

  if (gnn_type_is_javascript (G_OBJECT_TYPE (object)))
    return G_OBJECT_TYPE (object);
  if (depth == 0)
    return 0;
  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      g_autoptr(GObject) inner = NULL;
      GType found;

      if (!(pspecs[i]->flags & G_PARAM_READABLE) ||
          !g_type_is_a (pspecs[i]->value_type, G_TYPE_OBJECT))
        continue;
      g_object_get (object, pspecs[i]->name, &inner, NULL);
      if (inner != NULL && (found = find_javascript_type (inner, depth - 1)) != 0)
        return found;
    }
  return 0;
}

gboolean
gnn_workers_check_runnable (GObject     *object,
                            const char  *what,
                            gint         num_workers,
                            GError     **error)
{
  GType js_type;

  if (object == NULL || num_workers <= 0 || !gnn_javascript_loaded ())
    return TRUE;
  js_type = find_javascript_type (object, 2);
  if (js_type == 0)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "DataLoader with num_workers=%d: the %s %s is a JavaScript class, which "
               "cannot run in worker threads or processes (GJS runs JavaScript on the "
               "main thread only); use num_workers=0",
               num_workers, what, g_type_name (js_type));
  return FALSE;
}
