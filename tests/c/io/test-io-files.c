/* safetensors files as files: GIO error codes, FIFOs and devices never
 * opened for reading or replaced, temporaries of killed writers cleaned up,
 * messages always valid UTF-8. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static char *tmp_dir;

static char *
fresh_dir (void)
{
  g_autofree char *tmpl = g_build_filename (tmp_dir, "case-XXXXXX", NULL);
  char *dir = g_mkdtemp (g_steal_pointer (&tmpl));

  g_assert_nonnull (dir);
  return dir;
}

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static GnnStateDict *
small_state_dict (gint64 n)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = gnn_tensor_zeros (&n, 1, GNN_DTYPE_F32, NULL);

  gnn_state_dict_insert (sd, "w", t);
  return g_steal_pointer (&sd);
}

/* A pid that no process has: a child that has exited and been reaped. */
static pid_t
dead_pid (void)
{
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  return pid;
}

static void
test_load_fifo_does_not_block (void)
{
  g_autofree char *dir = fresh_dir ();
  g_autofree char *path = g_build_filename (dir, "fifo.safetensors", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  /* Used to wait for a writer forever in open(). */
  g_assert_null (gnn_state_dict_load (path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "FIFO"));
}

static void
test_save_refuses_device (void)
{
  g_autoptr(GnnStateDict) sd = small_state_dict (4);
  g_autoptr(GError) error = NULL;
  struct stat st;

  if (stat ("/dev/null", &st) != 0 || !S_ISCHR (st.st_mode))
    {
      g_test_skip ("no /dev/null character device");
      return;
    }
  g_assert_false (gnn_state_dict_save (sd, "/dev/null", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_nonnull (strstr (error->message, "/dev/null"));
  g_assert_nonnull (strstr (error->message, "character device"));
  g_assert_cmpint (stat ("/dev/null", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
}

static void
test_save_refuses_fifo_and_directory (void)
{
  g_autoptr(GnnStateDict) sd = small_state_dict (4);
  g_autofree char *dir = fresh_dir ();
  g_autofree char *fifo = g_build_filename (dir, "fifo.safetensors", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub.safetensors", NULL);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  struct stat st;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);

  g_assert_false (gnn_state_dict_save (sd, fifo, NULL, &e1));
  g_assert_error (e1, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_nonnull (strstr (e1->message, fifo));
  g_assert_cmpint (stat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  g_assert_false (gnn_state_dict_save (sd, sub, NULL, &e2));
  g_assert_error (e2, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_assert_cmpint (stat (sub, &st), ==, 0);
  g_assert_true (S_ISDIR (st.st_mode));
  /* nothing else was created */
  g_assert_cmpuint (count_entries (dir), ==, 2);
}

static void
test_load_permission_denied (void)
{
  g_autoptr(GnnStateDict) sd = small_state_dict (4);
  g_autofree char *dir = fresh_dir ();
  g_autofree char *path = g_build_filename (dir, "locked.safetensors", NULL);
  g_autoptr(GError) error = NULL;

  if (geteuid () == 0)
    {
      g_test_skip ("root reads files whatever their mode");
      return;
    }
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  g_assert_cmpint (g_chmod (path, 0), ==, 0);
  g_assert_null (gnn_state_dict_load (path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, path));
}

static char *
temp_name (const char *dir,
           const char *base,
           pid_t       pid)
{
  g_autofree char *name = g_strdup_printf (".%s.gnn-tmp.%d.a1b2c3", base, (int) pid);

  return g_build_filename (dir, name, NULL);
}

/* Backdates @path's modification time by two hours. */
static void
make_old (const char *path)
{
  struct utimbuf old_times;

  old_times.actime = old_times.modtime = time (NULL) - 7200;
  g_assert_cmpint (g_utime (path, &old_times), ==, 0);
}

/* A temporary is removed only when its writer is gone: its pid is not alive
 * here, it holds no flock (a writer on another host, or in another pid
 * namespace, has a pid that means nothing here but keeps its lock), and it
 * is older than the moment between a writer's creating and locking it. */
static void
test_stale_temps_removed (void)
{
  g_autoptr(GnnStateDict) sd = small_state_dict (4);
  g_autofree char *dir = fresh_dir ();
  g_autofree char *path = g_build_filename (dir, "m.safetensors", NULL);
  g_autofree char *stale = temp_name (dir, "m.safetensors", dead_pid ());
  g_autofree char *live = temp_name (dir, "m.safetensors", getppid ());
  g_autofree char *other = temp_name (dir, "n.safetensors", dead_pid ());
  g_autofree char *locked_base = temp_name (dir, "m.safetensors", dead_pid ());
  g_autofree char *young_base = temp_name (dir, "m.safetensors", dead_pid ());
  g_autofree char *locked = g_strconcat (locked_base, "L", NULL);
  g_autofree char *young = g_strconcat (young_base, "Y", NULL);
  g_autoptr(GnnStateDict) back = NULL;
  int lock_fd;

  /* what a writer killed between creating and renaming its file leaves */
  g_assert_true (g_file_set_contents (stale, "partial", -1, NULL));
  g_assert_true (g_file_set_contents (live, "in progress", -1, NULL));
  g_assert_true (g_file_set_contents (other, "another target", -1, NULL));
  g_assert_true (g_file_set_contents (locked, "another host's writer", -1, NULL));
  g_assert_true (g_file_set_contents (young, "a writer about to lock", -1, NULL));
  make_old (stale), make_old (live), make_old (other), make_old (locked);
  lock_fd = g_open (locked, O_RDWR, 0);
  g_assert_cmpint (lock_fd, >=, 0);
  g_assert_cmpint (flock (lock_fd, LOCK_EX), ==, 0);

  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (live, G_FILE_TEST_EXISTS));     /* its writer runs */
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));    /* not this path's */
  g_assert_true (g_file_test (locked, G_FILE_TEST_EXISTS));   /* its lock is held */
  g_assert_true (g_file_test (young, G_FILE_TEST_EXISTS));    /* too recent */

  /* loading cleans up too, and a released lock frees its file */
  g_assert_true (g_file_set_contents (stale, "partial", -1, NULL));
  make_old (stale);
  close (lock_fd);
  back = gnn_state_dict_load (path, NULL);
  g_assert_nonnull (back);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (locked, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (young, G_FILE_TEST_EXISTS));
}

static void
test_sigkill_during_save_leaves_nothing (void)
{
  g_autoptr(GnnStateDict) sd = small_state_dict (1 << 22);   /* 16 MiB */
  g_autoptr(GnnStateDict) back = NULL;
  g_autofree char *dir = fresh_dir ();
  g_autofree char *path = g_build_filename (dir, "big.safetensors", NULL);
  int status;
  pid_t pid;

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* never outlive a failed test */
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      for (guint i = 0; i < 100000; i++)
        if (!gnn_state_dict_save (sd, path, NULL, NULL))
          _exit (1);
      _exit (0);
    }
  /* Let the writer get through a few saves, then kill it mid-write. */
  while (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_usleep (1000);
  g_usleep (20000);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));

  /* The next save removes whatever the killed writer left. */
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  g_assert_cmpuint (count_entries (dir), ==, 1);
  back = gnn_state_dict_load (path, NULL);
  g_assert_nonnull (back);
}

/* "\ud800" is valid JSON and valid UTF-8 text, but decodes to bytes that
 * are not UTF-8. */
static void
test_lone_surrogate_name (void)
{
  const char header[] = "{\"a\\ud800b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
  guint64 len = GUINT64_TO_LE (sizeof header - 1);
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 zeros[4] = { 0 };

  g_byte_array_append (buf, (const guint8 *) &len, 8);
  g_byte_array_append (buf, (const guint8 *) header, sizeof header - 1);
  g_byte_array_append (buf, zeros, 4);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&buf));

  g_assert_null (gnn_state_dict_load_from_bytes (bytes, GNN_LOAD_FLAGS_NONE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FORMAT);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "lone surrogate \\ud800"));
}

static GBytes *
one_tensor_file (const char *header)
{
  guint64 len = GUINT64_TO_LE (strlen (header));
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  const guint8 zeros[4] = { 0 };

  g_byte_array_append (buf, (const guint8 *) &len, 8);
  g_byte_array_append (buf, (const guint8 *) header, strlen (header));
  g_byte_array_append (buf, zeros, 4);
  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

static void
test_surrogate_pair_name (void)
{
  g_autoptr(GBytes) bytes =
    one_tensor_file ("{\"\\ud83d\\ude00\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_state_dict_load_from_bytes (bytes, GNN_LOAD_FLAGS_NONE, &error);

  g_assert_no_error (error);
  g_assert_true (gnn_state_dict_contains (sd, "\xf0\x9f\x98\x80"));
}

static void
test_non_utf8_path_message (void)
{
  g_autofree char *dir = fresh_dir ();
  g_autofree char *path = g_build_filename (dir, "bad-\xff\xfe.safetensors", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_state_dict_load (path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "bad-\\xff\\xfe.safetensors"));
}

int
main (int argc, char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("gnn-io-files-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/io/files/load/fifo-does-not-block", test_load_fifo_does_not_block);
  g_test_add_func ("/io/files/load/permission-denied", test_load_permission_denied);
  g_test_add_func ("/io/files/load/non-utf8-path-message", test_non_utf8_path_message);
  g_test_add_func ("/io/files/load/lone-surrogate-name", test_lone_surrogate_name);
  g_test_add_func ("/io/files/load/surrogate-pair-name", test_surrogate_pair_name);
  g_test_add_func ("/io/files/save/refuses-device", test_save_refuses_device);
  g_test_add_func ("/io/files/save/refuses-fifo-and-directory", test_save_refuses_fifo_and_directory);
  g_test_add_func ("/io/files/save/stale-temps-removed", test_stale_temps_removed);
  g_test_add_func ("/io/files/save/sigkill-leaves-nothing", test_sigkill_during_save_leaves_nothing);

  ret = g_test_run ();
  gnn_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
