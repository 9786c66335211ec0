/* gnn-upsample-private.h: for the fixed-mode subclasses of GnnUpsample
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Sets the mode and corner alignment whatever the properties said (for a
 * subclass's constructed: UpsamplingNearest2d, UpsamplingBilinear2d). */
void gnn_upsample_fix_mode (GnnUpsample        *self,
                            GnnInterpolateMode  mode,
                            gboolean            align_corners);

G_END_DECLS
