/* gnn-random-horizontal-flip.c: a flip left to right with probability p
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"

/**
 * GnnRandomHorizontalFlip:
 *
 * torchvision's `transforms.RandomHorizontalFlip(p=0.5)`: [func@Gnn.vision_hflip]
 * when a uniform draw is below [property@Gnn.RandomHorizontalFlip:p], else the
 * input itself (see [class@Gnn.Transform] for the generator).
 *
 * Since: 0.1
 */
struct _GnnRandomHorizontalFlip
{
  GnnTransform parent_instance;
  double       p;
};

enum { PROP_0, PROP_P, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnRandomHorizontalFlip, gnn_random_horizontal_flip, GNN_TYPE_TRANSFORM)

gboolean
gnn_random_horizontal_flip_draw (GnnRandomHorizontalFlip *self)
{
  return gnn_vision_draw_below (self->p);
}

static GnnTensor *
gnn_random_horizontal_flip_apply (GnnTransform  *transform,
                                  GnnTensor     *input,
                                  GError       **error)
{
  if (!gnn_random_horizontal_flip_draw (GNN_RANDOM_HORIZONTAL_FLIP (transform)))
    return g_object_ref (input);
  return gnn_vision_hflip (input, error);
}

static void
gnn_random_horizontal_flip_class_init (GnnRandomHorizontalFlipClass *klass)
{
  GNN_TRANSFORM_CLASS (klass)->apply = gnn_random_horizontal_flip_apply;

  /**
   * GnnRandomHorizontalFlip:p:
   *
   * The probability of the flip.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (G_OBJECT_CLASS (klass), PROP_P,
    g_param_spec_double ("p", NULL, NULL, 0.0, 1.0, 0.5,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomHorizontalFlip, p));
}

static void
gnn_random_horizontal_flip_init (GnnRandomHorizontalFlip *self)
{
  self->p = 0.5;
}

/**
 * gnn_random_horizontal_flip_new:
 * @p: the probability of the flip, in [0, 1]
 *
 * Creates the transform, like `transforms.RandomHorizontalFlip(p)`.
 *
 * Returns: (transfer full): the transform
 *
 * Since: 0.1
 */
GnnRandomHorizontalFlip *
gnn_random_horizontal_flip_new (double p)
{
  return g_object_new (GNN_TYPE_RANDOM_HORIZONTAL_FLIP, "p", p, NULL);
}
