/* gnn-format-private.c: number formatting shared by the subsystems
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "core/gnn-format-private.h"

char *
gnn_format_double_shortest (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    return g_strdup ("nan");
  if (isinf (value))
    return g_strdup (value > 0 ? "inf" : "-inf");
  for (int precision = 1; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  return g_strdup (buf);
}

const char *
gnn_format_type_name (GType type)
{
  const char *name = g_type_name (type);
  const char *plus = strrchr (name, '+');

  if (plus != NULL && plus[1] != '\0')
    return plus + 1;
  if (g_str_has_prefix (name, "Gjs_") && name[4] != '\0')
    return name + 4;
  if (g_str_has_prefix (name, "Gnn") && g_ascii_isupper (name[3]))
    return name + 3;
  return name;
}
