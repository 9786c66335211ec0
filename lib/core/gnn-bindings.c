/* gnn-bindings.c: recognizing classes written in a language binding
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core/gnn-bindings-private.h"

/* GJS marks each GType it registers for a JavaScript class with this
 * qdata (gjs/object.cpp, ObjectBase::custom_type_quark()). */
#define GJS_CUSTOM_TYPE_QUARK "gjs::custom-type"

gboolean
gnn_javascript_loaded (void)
{
  return g_quark_try_string (GJS_CUSTOM_TYPE_QUARK) != 0;
}

gboolean
gnn_type_is_own_javascript (GType type)
{
  GQuark quark = g_quark_try_string (GJS_CUSTOM_TYPE_QUARK);

  return quark != 0 && g_type_get_qdata (type, quark) != NULL;
}

gboolean
gnn_type_is_javascript (GType type)
{
  if (!gnn_javascript_loaded ())
    return FALSE;
  for (GType t = type; t != 0; t = g_type_parent (t))
    if (gnn_type_is_own_javascript (t))
      return TRUE;
  return FALSE;
}
