/* gnn-upsampling-nearest2d.c: nearest 2-d upsampling (torch.nn.UpsamplingNearest2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-upsample-private.h"

/**
 * GnnUpsamplingNearest2d:
 *
 * [class@Gnn.Upsample] in %GNN_INTERPOLATE_MODE_NEAREST, whatever its mode property says: `torch.nn.UpsamplingNearest2d (size, scale_factor)`.
 *
 * Since: 0.1
 */
struct _GnnUpsamplingNearest2d
{
  GnnUpsample parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnUpsamplingNearest2d, gnn_upsampling_nearest2d, GNN_TYPE_UPSAMPLE)

static void
gnn_upsampling_nearest2d_constructed (GObject *object)
{
  G_OBJECT_CLASS (gnn_upsampling_nearest2d_parent_class)->constructed (object);
  gnn_upsample_fix_mode (GNN_UPSAMPLE (object), GNN_INTERPOLATE_MODE_NEAREST, FALSE);
}

static void
gnn_upsampling_nearest2d_class_init (GnnUpsamplingNearest2dClass *klass)
{
  G_OBJECT_CLASS (klass)->constructed = gnn_upsampling_nearest2d_constructed;
}

static void
gnn_upsampling_nearest2d_init (GnnUpsamplingNearest2d *self)
{
}
