/* gnn-io-json.c: parsing JSON from files with the checks json-glib does
 * not make (nesting depth, strict JSON, duplicate names, escapes)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <string.h>

#include <math.h>

#include "core/gnn-format-private.h"
#include "io/gnn-io-private.h"

/* A GNN_ERROR_FORMAT whose message is @what followed by the formatted text. */
G_GNUC_PRINTF (3, 4) static void
json_error (GError     **error,
            const char  *what,
            const char  *format,
            ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s%s", what, text);
}

static gboolean
read_hex4 (const char *text,
           gsize       len,
           gsize       at,
           guint      *out)
{
  guint v = 0;

  if (at + 4 > len)
    return FALSE;
  for (gsize k = at; k < at + 4; k++)
    {
      int digit = g_ascii_xdigit_value (text[k]);

      if (digit < 0)
        return FALSE;
      v = v * 16 + digit;
    }
  *out = v;
  return TRUE;
}

/* A "\uXXXX" escape at *i (the backslash): it must be complete, not NUL
 * (names are C strings), and surrogates must come in pairs, as the
 * reference loader requires; json-glib would decode a lone surrogate into
 * bytes that are not UTF-8 (and leaks on some malformed escapes). Moves *i
 * to the escape's last character. */
static gboolean
check_unicode_escape (const char  *text,
                      gsize        len,
                      gsize       *i,
                      const char  *what,
                      GError     **error)
{
  gsize at = *i;
  guint cp, low;

  if (!read_hex4 (text, len, at + 2, &cp))
    {
      json_error (error, what, " has a malformed \\u escape at byte %" G_GSIZE_FORMAT, at);
      return FALSE;
    }
  if (cp == 0)
    {
      json_error (error, what, " has a \\u0000 escape (a NUL character) at byte %"
                    G_GSIZE_FORMAT, at);
      return FALSE;
    }
  *i = at + 5;
  if (cp < 0xd800 || cp > 0xdfff)
    return TRUE;
  if (cp <= 0xdbff && at + 7 < len && text[at + 6] == '\\' && text[at + 7] == 'u' &&
      read_hex4 (text, len, at + 8, &low) && low >= 0xdc00 && low <= 0xdfff)
    {
      *i = at + 11;
      return TRUE;
    }
  json_error (error, what, " has a lone surrogate \\u%04x at byte %" G_GSIZE_FORMAT
                " (its text is not valid UTF-8)", cp, at);
  return FALSE;
}

/* Checks json-glib does not make, before it parses. Its parser recurses
 * per nesting level, so a header of a million '[' would exhaust the stack
 * (valid headers nest three levels deep). It accepts more than JSON, and
 * any extension could hide a bracket or a quote from this count: several
 * top-level values in a row ("{...}{...}", keeping one and leaking the
 * others, where the format has exactly one object); comments ('#' to the
 * line's end, C-style, stray '/' sequences: the fuzzer found
 * `[1/, ... /]}} {}`); single-quoted strings (a '"' inside one would start a
 * string for this count, which then never ends: `{'"': [[[[...`); octal and
 * other escapes ("\0" is a NUL, which would cut a name short); raw control
 * characters in strings. So outside strings only JSON's structural
 * characters, numbers and literals pass, inside them only JSON's escapes,
 * and the text must be one complete object. */
static gboolean
check_structure (const char *text,
                 gsize       len,
                 guint       max_depth,
                 const char *what,
                 GError    **error)
{
  gboolean in_string = FALSE, opened = FALSE, closed = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\' && i + 1 < len && text[i + 1] == 'u')
            {
              if (!check_unicode_escape (text, len, &i, what, error))
                return FALSE;
            }
          else if (c == '\\')
            {
              if (i + 1 >= len || strchr ("\"\\/bfnrt", text[i + 1]) == NULL ||
                  text[i + 1] == '\0')
                {
                  json_error (error, what, " has an escape that JSON does not have at byte %"
                                G_GSIZE_FORMAT, i);
                  return FALSE;
                }
              i++;
            }
          else if ((guchar) c < 0x20)
            {
              json_error (error, what, " has a control character (0x%02x) in a string at byte %"
                            G_GSIZE_FORMAT " (JSON requires an escape)", (guint) (guchar) c, i);
              return FALSE;
            }
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '/' || c == '#')
        {
          json_error (error, what, " has '%c' outside a string at byte %" G_GSIZE_FORMAT
                        " (JSON has no comments)", c, i);
          return FALSE;
        }
      if (!opened && !g_ascii_isspace (c) && c != '{')
        {
          json_error (error, what, " is not a JSON object (it starts with '%c' at byte %"
                        G_GSIZE_FORMAT ")", g_ascii_isprint (c) ? c : '?', i);
          return FALSE;
        }
      if (c == '\0' || (!g_ascii_isspace (c) && strchr ("{}[]:,\"-+.0123456789eEtrufalsn", c) == NULL))
        {
          json_error (error, what, " has '%c' outside a string at byte %" G_GSIZE_FORMAT
                        " (not JSON)", g_ascii_isprint (c) ? c : '?', i);
          return FALSE;
        }
      if (!g_ascii_isspace (c))
        opened = TRUE;
      if (closed && !g_ascii_isspace (c))
        {
          json_error (error, what, " has data after its JSON object (at byte %" G_GSIZE_FORMAT ")",
                        i);
          return FALSE;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        {
          if (++depth > max_depth)
            {
              json_error (error, what, " JSON nests deeper than %u levels (at byte %" G_GSIZE_FORMAT ")",
                            max_depth, i);
              return FALSE;
            }
        }
      else if ((c == '}' || c == ']') && depth > 0)
        closed = --depth == 0;
    }
  if (opened && !closed)
    {
      json_error (error, what, " is not JSON: its object %s", in_string ? "has an unterminated "
                    "string" : "is not closed");
      return FALSE;
    }
  return TRUE;
}

/* Duplicate members: json-glib keeps the last one silently, so they are
 * caught while parsing. Objects live until the parser goes, so their
 * addresses identify them. */
typedef struct
{
  GHashTable *seen;    /* "%p/name" */
  char       *duplicate;
} DupCheck;

static void
on_object_member (JsonParser *parser,
                  JsonObject *object,
                  const char *member_name,
                  DupCheck   *check)
{
  char *key = g_strdup_printf ("%p/%s", (void *) object, member_name);

  if (!g_hash_table_add (check->seen, key) && check->duplicate == NULL)
    check->duplicate = g_strdup (member_name);
}

JsonParser *
gnn_io_json_parse (const char  *text,
                   gsize        len,
                   guint        max_depth,
                   const char  *what,
                   GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) parse_error = NULL;
  DupCheck dups = { NULL, NULL };
  gboolean parsed;

  if (!g_utf8_validate_len (text, len, NULL))
    {
      json_error (error, what, " is not valid UTF-8 JSON (or contains a NUL byte)");
      return NULL;
    }
  if (!check_structure (text, len, max_depth, what, error))
    return NULL;

  parser = json_parser_new_immutable ();
  dups.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_signal_connect (parser, "object-member", G_CALLBACK (on_object_member), &dups);
  parsed = json_parser_load_from_data (parser, text, len, &parse_error);
  g_clear_pointer (&dups.seen, g_hash_table_unref);
  if (!parsed)
    {
      g_free (dups.duplicate);
      json_error (error, what, " is not JSON: %s", parse_error->message);
      /* json-glib quotes the text, and may cut a character in two */
      gnn_io_error_ensure_utf8 (error);
      return NULL;
    }
  if (dups.duplicate != NULL)
    {
      json_error (error, what, " has the name \"%s\" twice", dups.duplicate);
      g_free (dups.duplicate);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      json_error (error, what, " is not a JSON object");
      return NULL;
    }
  return g_steal_pointer (&parser);
}

JsonNode *
gnn_io_json_double (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *shortest = NULL;

  /* json-glib's generator writes g_ascii_dtostr () and appends ".0" when
   * there is no '.', which turns "1e-08" into "1e-08.0" */
  if (isfinite (value) && strchr (g_ascii_dtostr (buf, sizeof buf, value), 'e') == NULL)
    return json_node_init_double (json_node_alloc (), value);
  shortest = gnn_format_double_shortest (value);
  return json_node_init_string (json_node_alloc (), shortest);
}

gboolean
gnn_io_json_get_double (JsonNode *node,
                        double   *out)
{
  const char *text;
  char *end = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_DOUBLE:
      *out = json_node_get_double (node);
      return TRUE;
    case G_TYPE_INT64:
      *out = (double) json_node_get_int (node);
      return TRUE;
    case G_TYPE_STRING:
      text = json_node_get_string (node);
      if (strcmp (text, "nan") == 0 || strcmp (text, "inf") == 0 || strcmp (text, "-inf") == 0)
        {
          *out = text[0] == 'n' ? NAN : text[0] == '-' ? -INFINITY : INFINITY;
          return TRUE;
        }
      if (text[0] == '\0' || g_ascii_isspace (text[0]))
        return FALSE;
      *out = g_ascii_strtod (text, &end);
      return *end == '\0' && isfinite (*out);
    default:
      return FALSE;
    }
}

JsonNode *
gnn_io_json_take_object (JsonObject *object)
{
  JsonNode *node = json_node_init_object (json_node_alloc (), object);

  json_object_unref (object);   /* the node holds its own reference */
  return node;
}

JsonNode *
gnn_io_json_take_array (JsonArray *array)
{
  JsonNode *node = json_node_init_array (json_node_alloc (), array);

  json_array_unref (array);
  return node;
}
