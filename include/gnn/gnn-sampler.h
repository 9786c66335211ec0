/* gnn-sampler.h: index samplers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>

G_BEGIN_DECLS

#define GNN_TYPE_SAMPLER (gnn_sampler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnSampler, gnn_sampler, GNN, SAMPLER, GObject)

/**
 * GnnSamplerClass:
 * @parent_class: the parent class
 * @get_length: returns the number of indices one epoch yields
 * @sample: returns the indices of one epoch (advancing any random state)
 *   as a #GArray of #gint64
 *
 * The virtual methods of [class@Gnn.Sampler].
 *
 * Since: 0.1
 */
struct _GnnSamplerClass
{
  GObjectClass parent_class;

  gint64   (*get_length) (GnnSampler  *self);
  GArray * (*sample)     (GnnSampler  *self,
                          GError     **error);

  /*< private >*/
  gpointer padding[8];
};

/**
 * GnnSamplerClass::sample:
 * @self: a #GnnSampler
 * @error: return location for a #GError
 *
 * Draws the indices of one epoch. In Python, `do_sample (self)` returns a
 * list of ints.
 *
 * Returns: (transfer full) (element-type gint64): the indices, or %NULL on error
 *
 * Since: 0.1
 */

GNN_AVAILABLE_IN_ALL
gint64   gnn_sampler_get_length (GnnSampler  *self);
GNN_AVAILABLE_IN_ALL
gint64  *gnn_sampler_sample     (GnnSampler  *self,
                                 gsize       *n_indices,
                                 GError     **error);

/**
 * GnnSamplerIter:
 *
 * A stack-allocated iterator over one epoch of a [class@Gnn.Sampler], for C:
 *
 * ```c
 * GnnSamplerIter iter;
 * gint64 index;
 *
 * if (!gnn_sampler_iter_init (&iter, sampler, &error))
 *   return FALSE;
 * while (gnn_sampler_iter_next (&iter, &index))
 *   use (index);
 * gnn_sampler_iter_clear (&iter);
 * ```
 *
 * Since: 0.1
 */
typedef struct {
  /*< private >*/
  gint64  *indices;
  gsize    n_indices;
  gsize    position;
  gpointer padding[4];
} GnnSamplerIter;

GNN_AVAILABLE_IN_ALL
gboolean gnn_sampler_iter_init  (GnnSamplerIter *iter,
                                 GnnSampler     *sampler,
                                 GError        **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_sampler_iter_next  (GnnSamplerIter *iter,
                                 gint64         *index);
GNN_AVAILABLE_IN_ALL
void     gnn_sampler_iter_clear (GnnSamplerIter *iter);

G_END_DECLS
