/* libFuzzer harness for torch's files: the zip reader, the restricted
 * unpickler and the tensors they make (lib/io/gnn-zip-reader.c,
 * gnn-pickle.c, gnn-torch-load.c).
 *
 * Build and run: see fuzz-safetensors.c; seeds: tests/io/torch-corpus
 * (files torch.save wrote and hostile ones), dictionary tests/io/torch.dict.
 *
 * Each input is a whole file, loaded through
 * gnn_state_dict_load_torch_from_bytes with and without copying; when it
 * loads, every byte every tensor can reach is read (a view past its storage
 * would show up under ASan), and the state dict is written back with
 * gnn_state_dict_save_torch and read again.
 */
#include <unistd.h>

#include <gnn/gnn.h>

#include "fuzz-util.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  /* A private copy, so reads past the input are caught exactly. */
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);

  for (guint copy = 0; copy < 2; copy++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnStateDict) sd =
        gnn_state_dict_load_torch_from_bytes (bytes, copy ? GNN_LOAD_FLAGS_COPY : GNN_LOAD_FLAGS_NONE,
                                              &error);

      if (sd == NULL)
        {
          fuzz_check_error (error);
          continue;
        }
      fuzz_touch_state_dict (sd);
      if (copy)
        fuzz_round_trip_torch (sd);
    }
  return 0;
}
