/* gnn-upsampling-bilinear2d.c: bilinear 2-d upsampling (torch.nn.UpsamplingBilinear2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-upsample-private.h"

/**
 * GnnUpsamplingBilinear2d:
 *
 * [class@Gnn.Upsample] in %GNN_INTERPOLATE_MODE_BILINEAR with aligned corners, whatever its properties say: `torch.nn.UpsamplingBilinear2d (size, scale_factor)`.
 *
 * Since: 0.1
 */
struct _GnnUpsamplingBilinear2d
{
  GnnUpsample parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnUpsamplingBilinear2d, gnn_upsampling_bilinear2d, GNN_TYPE_UPSAMPLE)

static void
gnn_upsampling_bilinear2d_constructed (GObject *object)
{
  G_OBJECT_CLASS (gnn_upsampling_bilinear2d_parent_class)->constructed (object);
  gnn_upsample_fix_mode (GNN_UPSAMPLE (object), GNN_INTERPOLATE_MODE_BILINEAR, TRUE);
}

static void
gnn_upsampling_bilinear2d_class_init (GnnUpsamplingBilinear2dClass *klass)
{
  G_OBJECT_CLASS (klass)->constructed = gnn_upsampling_bilinear2d_constructed;
}

static void
gnn_upsampling_bilinear2d_init (GnnUpsamplingBilinear2d *self)
{
}
