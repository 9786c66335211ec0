/* libFuzzer harness for the restricted unpickler alone
 * (lib/io/gnn-pickle*.c and the conversion of its values in
 * gnn-torch-load.c): each input is the data.pkl of a torch file whose
 * archive also holds storages "0" to "3" of 64 bytes, so that persistent
 * ids and tensor views can be reached without the fuzzer having to build a
 * zip. Seeds: tests/io/pickle-corpus; dictionary tests/io/torch.dict.
 */
#include <zip.h>

#include <gnn/gnn.h>

#include "fuzz-util.h"

/* archive/data.pkl = @pickle, archive/data/{0..3} = 64 bytes each */
static GBytes *
wrap (const guint8 *pickle,
      size_t        size)
{
  static guint8 storage[64];
  zip_source_t *buffer = zip_source_buffer_create (NULL, 0, 0, NULL);
  zip_t *archive;
  zip_stat_t st;
  guint8 *out;

  zip_source_keep (buffer);
  archive = zip_open_from_source (buffer, ZIP_TRUNCATE, NULL);
  g_assert (archive != NULL);
  g_assert (zip_file_add (archive, "archive/data.pkl",
                          zip_source_buffer (archive, pickle, size, 0), 0) >= 0);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("archive/data/%u", i);
      zip_int64_t index = zip_file_add (archive, name,
                                        zip_source_buffer (archive, storage, sizeof storage, 0), 0);

      g_assert (index >= 0);
      zip_set_file_compression (archive, index, ZIP_CM_STORE, 0);
    }
  g_assert (zip_close (archive) == 0);
  g_assert (zip_source_stat (buffer, &st) == 0 && zip_source_open (buffer) == 0);
  out = g_malloc (st.size);
  g_assert (zip_source_read (buffer, out, st.size) == (zip_int64_t) st.size);
  zip_source_close (buffer);
  zip_source_free (buffer);
  return g_bytes_new_take (out, st.size);
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = wrap (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_state_dict_load_torch_from_bytes (bytes, GNN_LOAD_FLAGS_NONE,
                                                                     &error);

  if (sd == NULL)
    fuzz_check_error (error);
  else
    {
      fuzz_touch_state_dict (sd);
      fuzz_round_trip_torch (sd);
    }
  return 0;
}
