/* gnn-io-file.c: opening, writing and atomically replacing files, with
 * GIO error codes and messages that are always valid UTF-8
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "io/gnn-io-private.h"

/* --- messages ---------------------------------------------------------------- */

char *
gnn_io_escape_utf8 (const char *text,
                    gssize      len)
{
  const char *p = text, *end;
  GString *out;

  if (len < 0)
    len = strlen (text);
  end = text + len;
  out = g_string_sized_new (len);
  while (p < end)
    {
      const char *valid_end;

      g_utf8_validate_len (p, end - p, &valid_end);
      g_string_append_len (out, p, valid_end - p);
      if (valid_end == end)
        break;
      g_string_append_printf (out, "\\x%02x", (guchar) *valid_end);
      p = valid_end + 1;
    }
  return g_string_free (out, FALSE);
}

void
gnn_io_error_ensure_utf8 (GError **error)
{
  char *escaped;

  if (error == NULL || *error == NULL || g_utf8_validate ((*error)->message, -1, NULL))
    return;
  escaped = gnn_io_escape_utf8 ((*error)->message, -1);
  g_free ((*error)->message);
  (*error)->message = escaped;
}

void
gnn_io_set_error_errno (GError     **error,
                        int          saved_errno,
                        const char  *path,
                        const char  *what)
{
  g_autofree char *display = gnn_io_escape_utf8 (path, -1);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s: %s: %s",
               display, what, g_strerror (saved_errno));
}

static const char *
file_kind (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "not a regular file";
}

static void
set_not_regular (GError     **error,
                 const char  *path,
                 mode_t       mode,
                 const char  *action)
{
  g_autofree char *display = gnn_io_escape_utf8 (path, -1);

  g_set_error (error, G_IO_ERROR,
               S_ISDIR (mode) ? G_IO_ERROR_IS_DIRECTORY : G_IO_ERROR_NOT_REGULAR_FILE,
               "%s: %s %s, not a regular file", display, action, file_kind (mode));
}

/* --- reading ----------------------------------------------------------------- */

int
gnn_io_open_regular (const char  *path,
                     GError     **error)
{
  struct stat st;
  int fd;

  /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      gnn_io_set_error_errno (error, errno, path, "cannot open");
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      gnn_io_set_error_errno (error, errno, path, "cannot stat");
      close (fd);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      set_not_regular (error, path, st.st_mode, "cannot load");
      close (fd);
      return -1;
    }
  return fd;
}

GBytes *
gnn_io_map_file (const char  *path,
                 GError     **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local_error = NULL;
  int fd;

  fd = gnn_io_open_regular (path, error);
  if (fd < 0)
    return NULL;
  gnn_io_remove_stale_temps (path);
  /* MAP_PRIVATE, readable and writable: tensors are writable objects, and a
   * write to a loaded tensor copies the page (copy-on-write) instead of
   * reaching the file. The mapping outlives the descriptor. */
  mapped = g_mapped_file_new_from_fd (fd, TRUE, &local_error);
  close (fd);
  if (mapped == NULL)
    {
      g_autofree char *display = gnn_io_escape_utf8 (path, -1);

      g_set_error (error, local_error->domain, local_error->code, "%s: cannot map: %s",
                   display, local_error->message);
      gnn_io_error_ensure_utf8 (error);
      return NULL;
    }
  return g_mapped_file_get_bytes (mapped);
}

GnnStateDict *
gnn_io_load_file (const char        *path,
                  GnnIoBytesLoader   loader,
                  GnnLoadFlags       flags,
                  GError           **error)
{
  g_autoptr(GBytes) bytes = gnn_io_map_file (path, error);
  GnnStateDict *state_dict;

  if (bytes == NULL)
    return NULL;
  state_dict = loader (bytes, flags, error);
  if (state_dict == NULL)
    {
      g_autofree char *display = gnn_io_escape_utf8 (path, -1);

      g_prefix_error (error, "%s: ", display);
    }
  return state_dict;
}

GnnStateDict *
gnn_io_load_any_from_bytes (GBytes        *bytes,
                            GnnLoadFlags   flags,
                            GError       **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  if (len >= 4 && memcmp (data, "PK\x03\x04", 4) == 0)
    return gnn_state_dict_load_torch_from_bytes (bytes, flags, error);
  return gnn_state_dict_load_from_bytes (bytes, flags, error);
}

/* --- writing ----------------------------------------------------------------- */

gboolean
gnn_io_write_all (int            fd,
                  const guint8  *data,
                  guint64        len,
                  const char    *path,
                  GError       **error)
{
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, (guint64) 1 << 30));

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          gnn_io_set_error_errno (error, errno, path, "cannot write");
          return FALSE;
        }
      data += n;
      len -= n;
    }
  return TRUE;
}

/* ".<base>.gnn-tmp.": the start of every temporary name of @path. The base
 * is shortened so that the whole name fits in NAME_MAX. */
static char *
temp_prefix (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  if (strlen (base) > 160)
    base[160] = '\0';
  return g_strconcat (".", base, ".gnn-tmp.", NULL);
}

/* How old an unlocked temporary must be to count as stale: a writer locks
 * its file the moment it creates it, so younger ones may be a live
 * writer's between the two steps (and clocks of NFS hosts differ). */
#define STALE_AGE_SECONDS 60

/* Whether the temporary @name can be a dead writer's: every writer holds an
 * exclusive flock on its file while it writes, and the kernel (through
 * lockd on NFS, between hosts) drops it when the writer dies. A pid in the
 * name is only trusted when it is alive here: on another host, or in
 * another pid namespace, a dead pid here says nothing. */
static gboolean
temp_is_stale (const char *dir_name,
               const char *name,
               guint64     pid)
{
  g_autofree char *temp = g_build_filename (dir_name, name, NULL);
  struct stat st;
  gboolean stale;
  int fd;

  if ((pid_t) pid == getpid () || kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
    return FALSE;
  /* read-write: NFS implements flock with byte-range locks, whose
   * exclusive kind needs a writable descriptor */
  fd = g_open (temp, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
  if (fd < 0)
    return FALSE;
  stale = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) &&
          (gint64) st.st_mtime < g_get_real_time () / G_USEC_PER_SEC - STALE_AGE_SECONDS &&
          flock (fd, LOCK_EX | LOCK_NB) == 0;
  close (fd);
  return stale;
}

void
gnn_io_remove_stale_temps (const char *path)
{
  g_autofree char *dir_name = g_path_get_dirname (path);
  g_autofree char *prefix = temp_prefix (path);
  gsize prefix_len = strlen (prefix);
  g_autoptr(GDir) dir = g_dir_open (dir_name, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      char *end = NULL;
      guint64 pid;

      if (strncmp (name, prefix, prefix_len) != 0)
        continue;
      pid = g_ascii_strtoull (name + prefix_len, &end, 10);
      if (end == name + prefix_len || *end != '.' || pid == 0 || pid > G_MAXINT)
        continue;
      if (temp_is_stale (dir_name, name, pid))
        {
          g_autofree char *stale = g_build_filename (dir_name, name, NULL);

          (void) g_unlink (stale);
        }
    }
}

static char *
temp_template (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *prefix = temp_prefix (path);
  g_autofree char *name = g_strdup_printf ("%s%d.XXXXXX", prefix, (int) getpid ());

  return g_build_filename (dir, name, NULL);
}

/* Fills the XXXXXX of @tmpl with random letters. */
static void
randomize_template (char *tmpl)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char *x = tmpl + strlen (tmpl) - 6;

  for (guint i = 0; i < 6; i++)
    x[i] = letters[g_random_int_range (0, sizeof letters - 1)];
}

gboolean
gnn_io_replace_begin (GnnIoReplace  *replace,
                      const char    *path,
                      GError       **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *tmp = NULL;
  struct stat st;

  replace->path = NULL;
  replace->tmp_path = NULL;
  replace->fd = -1;

  /* rename() would replace /dev/null, a FIFO or a socket like a file. */
  if (stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      set_not_regular (error, path, st.st_mode, "refusing to replace");
      return FALSE;
    }
  gnn_io_remove_stale_temps (path);

#ifdef O_TMPFILE
  /* Unnamed until committed, so a killed writer leaves nothing behind;
   * linking it needs /proc/self/fd. */
  if (g_file_test ("/proc/self/fd", G_FILE_TEST_IS_DIR))
    {
      replace->fd = g_open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
      if (replace->fd >= 0)
        {
          /* locked before it has a name: see temp_is_stale () */
          (void) flock (replace->fd, LOCK_EX | LOCK_NB);
          replace->path = g_strdup (path);
          return TRUE;
        }
      /* Not supported by this file system: a named temporary instead. */
    }
#endif

  tmp = temp_template (path);
  replace->fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0666);
  if (replace->fd < 0)
    {
      g_autofree char *what = g_strdup_printf ("cannot create a temporary file in %s", dir);

      gnn_io_set_error_errno (error, errno, path, what);
      return FALSE;
    }
  /* a lock nobody else can hold yet (the name is new and random); where
   * the file system has no locks the age rule alone protects it */
  (void) flock (replace->fd, LOCK_EX | LOCK_NB);
  replace->path = g_strdup (path);
  replace->tmp_path = g_steal_pointer (&tmp);
  return TRUE;
}

void
gnn_io_replace_abort (GnnIoReplace *replace)
{
  if (replace->fd >= 0)
    close (replace->fd);
  replace->fd = -1;
  if (replace->tmp_path != NULL)
    (void) g_unlink (replace->tmp_path);
  g_clear_pointer (&replace->tmp_path, g_free);
  g_clear_pointer (&replace->path, g_free);
}

/* Gives the unnamed temporary file a name beside its target. */
static gboolean
link_unnamed (GnnIoReplace  *replace,
              GError       **error)
{
  g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", replace->fd);
  g_autofree char *tmp = temp_template (replace->path);

  for (guint attempt = 0; attempt < 100; attempt++)
    {
      randomize_template (tmp);
      if (linkat (AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0)
        {
          replace->tmp_path = g_steal_pointer (&tmp);
          return TRUE;
        }
      if (errno != EEXIST)
        break;
    }
  gnn_io_set_error_errno (error, errno, replace->path, "cannot link the temporary file");
  return FALSE;
}

static void
fsync_directory (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

  /* Durability of the rename; best effort (some file systems refuse). */
  if (fd >= 0)
    {
      (void) fsync (fd);
      close (fd);
    }
}

gboolean
gnn_io_replace_commit (GnnIoReplace  *replace,
                       GError       **error)
{
  int fd = replace->fd;

  if (fsync (fd) != 0)
    {
      gnn_io_set_error_errno (error, errno, replace->path, "cannot sync");
      gnn_io_replace_abort (replace);
      return FALSE;
    }
  if (replace->tmp_path == NULL && !link_unnamed (replace, error))
    {
      gnn_io_replace_abort (replace);
      return FALSE;
    }
  replace->fd = -1;
  if (close (fd) != 0)
    {
      gnn_io_set_error_errno (error, errno, replace->path, "cannot close");
      gnn_io_replace_abort (replace);
      return FALSE;
    }
  if (g_rename (replace->tmp_path, replace->path) != 0)
    {
      gnn_io_set_error_errno (error, errno, replace->path, "cannot rename the temporary file to it");
      gnn_io_replace_abort (replace);
      return FALSE;
    }
  fsync_directory (replace->path);
  g_clear_pointer (&replace->tmp_path, g_free);
  g_clear_pointer (&replace->path, g_free);
  return TRUE;
}
