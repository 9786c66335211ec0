/* fuzz-util.h: what the libFuzzer harnesses of lib/io do with what loads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <unistd.h>

#include <gnn/gnn.h>

/* A refusal is a GError with a UTF-8 message, never a crash. */
static inline void
fuzz_check_error (GError *error)
{
  g_assert (error != NULL && error->message != NULL && g_utf8_validate (error->message, -1, NULL));
}

/* Reads every element every tensor can reach (through its strides). */
static inline void
fuzz_touch_state_dict (GnnStateDict *sd)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  volatile double sink = 0;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);
      g_autoptr(GnnTensor) packed = gnn_tensor_contiguous (t);
      const guint8 *p = packed != NULL ? gnn_tensor_get_data (packed) : NULL;
      gsize n = packed != NULL ? gnn_tensor_get_nbytes (packed) : 0;

      for (gsize j = 0; j < n; j++)
        sink += p[j];
    }
  (void) sink;
}

/* Writes @sd as a torch file and reads it back: it must load. */
static inline void
fuzz_round_trip_torch (GnnStateDict *sd)
{
  static char *dir;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) back = NULL;

  if (dir == NULL)
    dir = g_dir_make_tmp ("gnn-fuzz-XXXXXX", NULL);
  path = g_build_filename (dir, "round-trip.pth", NULL);
  if (!gnn_state_dict_save_torch (sd, path, &error))
    {
      fuzz_check_error (error);
      return;
    }
  back = gnn_state_dict_load_torch (path, GNN_LOAD_FLAGS_COPY, &error);
  if (back == NULL)
    g_error ("a file written by gnn_state_dict_save_torch does not load: %s", error->message);
  g_assert (gnn_state_dict_get_length (back) == gnn_state_dict_get_length (sd));
  unlink (path);
}

/* Prints, calls and saves a module a model file gave; what saves must load
 * back. */
static inline void
fuzz_exercise_module (GnnModule *module)
{
  static char *dir;
  const gint64 shape[2] = { 2, 2 };
  g_autoptr(GnnTensor) x = gnn_tensor_ones (shape, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_module_call (module, x, NULL);
  g_autofree char *repr = gnn_module_to_string (module);
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (module);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) back = NULL;

  fuzz_touch_state_dict (sd);
  if (dir == NULL)
    dir = g_dir_make_tmp ("gnn-fuzz-XXXXXX", NULL);
  path = g_build_filename (dir, "model.safetensors", NULL);
  if (!gnn_module_save_model (module, path, NULL, &error))
    {
      fuzz_check_error (error);
      return;
    }
  back = gnn_module_load_model (path, GNN_LOAD_FLAGS_COPY, &error);
  if (back == NULL)
    g_error ("a saved model file does not load: %s\n%s", error->message, repr);
  unlink (path);
}
