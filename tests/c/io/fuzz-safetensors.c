/* libFuzzer harness for the safetensors loader.
 *
 * Build (clang; -Dfuzzing=true alone instruments a static copy of the
 * library with -fsanitize=fuzzer-no-link,address,undefined for the harnesses):
 *   CC=clang meson setup build-fuzz -Dfuzzing=true -Dintrospection=false
 *   meson compile -C build-fuzz fuzz-safetensors fuzz-idx
 * Run (seeds: the malformed corpus, plus whatever the fuzzer finds):
 *   mkdir -p /tmp/st-corpus
 *   build-fuzz/tests/c/io/fuzz-safetensors /tmp/st-corpus tests/io/corpus \
 *     -dict=tests/io/safetensors.dict -max_total_time=600 -max_len=4096
 * .ci/run does the same for 60 s per harness when clang is installed.
 *
 * Each input goes through gnn_state_dict_load_from_bytes, the function the
 * file loader calls after mapping, with and without copying; when it loads,
 * every tensor's bytes are read so that a bad offset would show up under ASan.
 */
#include <gnn/gnn.h>

static void
touch (GnnStateDict *sd)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  volatile guint8 sink = 0;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);
      const guint8 *p = gnn_tensor_get_data (t);
      gsize n = gnn_tensor_get_nbytes (t);

      for (gsize j = 0; j < n; j++)
        sink ^= p[j];
    }
  (void) sink;
}

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
        gnn_state_dict_load_from_bytes (bytes, copy ? GNN_LOAD_FLAGS_COPY : GNN_LOAD_FLAGS_NONE,
                                        &error);

      if (sd != NULL)
        touch (sd);
      else
        g_assert (error != NULL && error->message != NULL &&
                  g_utf8_validate (error->message, -1, NULL));
    }
  return 0;
}
