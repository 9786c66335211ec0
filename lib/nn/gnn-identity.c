/* gnn-identity.c: a placeholder that returns its input (torch.nn.Identity)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"

/**
 * GnnIdentity:
 *
 * A placeholder layer that returns its input unchanged, like
 * `torch.nn.Identity()`: the output is the input tensor itself (a new
 * reference), not a copy.
 *
 * Since: 0.1
 */
struct _GnnIdentity
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnIdentity, gnn_identity, GNN_TYPE_MODULE)

static GnnTensor *
gnn_identity_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  return g_object_ref (input);
}

static void
gnn_identity_class_init (GnnIdentityClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_identity_forward;
}

static void
gnn_identity_init (GnnIdentity *self)
{
}

/**
 * gnn_identity_new:
 *
 * Creates the layer, like `torch.nn.Identity()`.
 *
 * Returns: (transfer full): a new GnnIdentity
 *
 * Since: 0.1
 */
GnnIdentity *
gnn_identity_new (void)
{
  return g_object_new (GNN_TYPE_IDENTITY, NULL);
}
