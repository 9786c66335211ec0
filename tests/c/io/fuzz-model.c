/* libFuzzer harness for model files' metadata (lib/io/gnn-model-read.c,
 * gnn-property-codec.c): each input is the text of the "gnn.model"
 * metadata, beside a few tensors (weight [3, 2], bias [3], 0.weight,
 * 0.bias, running_mean, gnn.nonpersistent.mask) so that rebuilt modules can
 * find weights; a module that comes back is printed, called and saved
 * again. Seeds: tests/io/model-corpus; dictionary tests/io/model.dict.
 */
#include <gnn/gnn.h>

#include "fuzz-util.h"

static GnnStateDict *
make_state (void)
{
  static const struct { const char *name; gint64 shape[2]; guint ndim; } tensors[] = {
    { "weight", { 3, 2 }, 2 }, { "bias", { 3 }, 1 }, { "0.weight", { 3, 2 }, 2 },
    { "0.bias", { 3 }, 1 }, { "running_mean", { 3 }, 1 }, { "gnn.nonpersistent.mask", { 3 }, 1 },
  };
  GnnStateDict *sd = gnn_state_dict_new ();

  for (guint i = 0; i < G_N_ELEMENTS (tensors); i++)
    {
      g_autoptr(GnnTensor) t = gnn_tensor_ones (tensors[i].shape, tensors[i].ndim, GNN_DTYPE_F32,
                                                NULL);

      gnn_state_dict_insert (sd, tensors[i].name, t);
    }
  return sd;
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GnnStateDict) sd = make_state ();
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) module = NULL;

  gnn_state_dict_set_metadata (sd, "gnn.model", text);
  module = gnn_module_new_from_state_dict (sd, GNN_LOAD_FLAGS_NONE, &error);
  if (module == NULL)
    {
      fuzz_check_error (error);
      return 0;
    }
  fuzz_exercise_module (module);
  return 0;
}
