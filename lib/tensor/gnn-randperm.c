/* gnn-randperm.c: random permutations of indices and generators seeded
 * from the default one, for the samplers and random_split of lib/data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-randperm-private.h"

void
gnn_randperm (GnnGenerator *generator,
              gint64       *out,
              gsize         n)
{
  for (gsize i = 0; i < n; i++)
    out[i] = (gint64) i;
  for (gsize i = n; i > 1; i--)
    {
      gsize j = (gsize) gnn_generator_next_below (generator, i);
      gint64 t = out[i - 1];

      out[i - 1] = out[j];
      out[j] = t;
    }
}

GnnGenerator *
gnn_generator_new_unseeded (void)
{
  /* torch draws such a seed from its default generator, so that
   * torch.manual_seed makes the shuffles reproducible */
  return gnn_generator_new (gnn_draw_seed (NULL));
}
