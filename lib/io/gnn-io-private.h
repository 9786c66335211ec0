/* gnn-io-private.h: file handling shared by the io subsystem
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <gnn/gnn.h>

G_BEGIN_DECLS

/* @text with every byte that is not part of valid UTF-8 written as "\xNN":
 * file names and names read from files may hold any bytes, GError messages
 * must not (bindings fail to convert them). */
char     *gnn_io_escape_utf8 (const char *text, gssize len);

/* Escapes @error's message in place when it is not valid UTF-8. */
void      gnn_io_error_ensure_utf8 (GError **error);

/* A G_IO_ERROR with the code of @saved_errno (g_io_error_from_errno) and the
 * message "<path>: <what>: <strerror>". */
void      gnn_io_set_error_errno (GError **error, int saved_errno, const char *path,
                                  const char *what);

/* Opens @path read-only without ever blocking (a FIFO or device would block
 * in open or read) and refuses what is not a regular file:
 * G_IO_ERROR_IS_DIRECTORY / G_IO_ERROR_NOT_REGULAR_FILE naming the path.
 * Returns the descriptor (close-on-exec) or -1. */
int       gnn_io_open_regular (const char *path, GError **error);

/* The contents of the regular file @path, mapped privately (copy on write),
 * with the errors of gnn_io_open_regular() and "<path>: cannot map: ...".
 * Removes the stale temporaries of @path first. */
GBytes   *gnn_io_map_file (const char *path, GError **error);

/* A state dict from the bytes of a file (gnn_state_dict_load_from_bytes,
 * gnn_state_dict_load_torch_from_bytes). */
typedef GnnStateDict *(*GnnIoBytesLoader) (GBytes *bytes, GnnLoadFlags flags, GError **error);

/* @loader over the mapped file @path, its errors prefixed with the path. */
GnnStateDict *gnn_io_load_file (const char        *path,
                                GnnIoBytesLoader   loader,
                                GnnLoadFlags       flags,
                                GError           **error);

/* safetensors or torch.save's zip, told by the first bytes. */
GnnStateDict *gnn_io_load_any_from_bytes (GBytes *bytes, GnnLoadFlags flags, GError **error);

/* gnn_state_dict_save with @metadata plus @key = @description (the JSON of
 * a model file's or checkpoint's structure, which wins over a user's key). */
gboolean  gnn_io_save_with_description (GnnStateDict  *state_dict,
                                        const char    *path,
                                        GHashTable    *metadata,
                                        const char    *key,
                                        const char    *description,
                                        GError       **error);

gboolean  gnn_io_write_all (int fd, const guint8 *data, guint64 len, const char *path,
                            GError **error);

/* Replacing a file atomically: begin creates an unnamed (O_TMPFILE) or
 * named temporary file beside @path, commit syncs it and renames it over
 * @path, abort removes it. Named temporaries carry the writer's pid, so
 * gnn_io_remove_stale_temps() can remove those a killed writer left. */
typedef struct
{
  char *path;
  char *tmp_path;   /* NULL while the file is unnamed */
  int   fd;
} GnnIoReplace;

gboolean  gnn_io_replace_begin (GnnIoReplace *replace, const char *path, GError **error);
gboolean  gnn_io_replace_commit (GnnIoReplace *replace, GError **error);
void      gnn_io_replace_abort (GnnIoReplace *replace);

/* Removes the temporaries of @path left by writers that no longer run
 * (best effort: errors are ignored). */
void      gnn_io_remove_stale_temps (const char *path);

/* Parses @text (@len bytes) as one JSON object, with the checks json-glib
 * does not make: valid UTF-8 without NUL, strict JSON (no comments, single
 * quotes, other escapes or raw control characters; one value), nesting at
 * most @max_depth levels (json-glib's parser recurses per level), \u escapes
 * that decode to valid UTF-8 without NUL, no name twice in an object.
 * Errors are GNN_ERROR_FORMAT whose message starts with @what ("invalid
 * safetensors: header" → "invalid safetensors: header has ..."). */
JsonParser *gnn_io_json_parse (const char *text, gsize len, guint max_depth, const char *what,
                               GError **error);

/* A double as JSON for json-glib's generator: a number, or its shortest
 * exact form as a string where the generator would write invalid JSON (an
 * exponent) or JSON has no number (inf, -inf, nan). */
JsonNode   *gnn_io_json_double (double value);
/* A JSON number, or a string gnn_io_json_double() wrote. */
gboolean    gnn_io_json_get_double (JsonNode *node, double *out);

/* A node holding @object / @array, whose reference it takes (json-glib's
 * json_node_init_object/array add one of their own). */
JsonNode   *gnn_io_json_take_object (JsonObject *object);
JsonNode   *gnn_io_json_take_array (JsonArray *array);

G_END_DECLS
