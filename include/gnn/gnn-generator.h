/* gnn-generator.h: explicit, seeded random number generator
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

#define GNN_TYPE_GENERATOR (gnn_generator_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGenerator, gnn_generator, GNN, GENERATOR, GObject)

GNN_AVAILABLE_IN_ALL
GnnGenerator *gnn_generator_new           (guint64       seed);
GNN_AVAILABLE_IN_ALL
void          gnn_generator_manual_seed   (GnnGenerator *self,
                                           guint64       seed);
GNN_AVAILABLE_IN_ALL
guint64       gnn_generator_get_seed      (GnnGenerator *self);
GNN_AVAILABLE_IN_ALL
guint64       gnn_generator_next_u64      (GnnGenerator *self);
GNN_AVAILABLE_IN_ALL
double        gnn_generator_next_double   (GnnGenerator *self);
GNN_AVAILABLE_IN_ALL
double        gnn_generator_next_normal   (GnnGenerator *self);
GNN_AVAILABLE_IN_ALL
guint64       gnn_generator_next_below    (GnnGenerator *self,
                                           guint64       bound);
GNN_AVAILABLE_IN_ALL
GBytes       *gnn_generator_get_state     (GnnGenerator *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_generator_set_state     (GnnGenerator *self,
                                           GBytes       *state,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnGenerator *gnn_generator_fork          (GnnGenerator *self,
                                           guint64       stream);

GNN_AVAILABLE_IN_ALL
GnnGenerator *gnn_generator_get_default   (void);
GNN_AVAILABLE_IN_ALL
guint64       gnn_draw_seed               (GnnGenerator *generator);
GNN_AVAILABLE_IN_ALL
GnnGenerator *gnn_manual_seed             (guint64       seed);
GNN_AVAILABLE_IN_ALL
guint64       gnn_initial_seed            (void);

G_END_DECLS
