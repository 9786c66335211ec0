/* gnn-loss-private.h: what the loss modules of lib/nn share (CrossEntropyLoss,
 * NLLLoss, MSELoss, BCEWithLogitsLoss): the "reduction" property, the
 * forward that asks for a target, and the optional weight buffers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* The instance layout every loss starts with: its struct's first member. */
typedef struct
{
  GnnModule parent_instance;
  char     *reduction;
} GnnLossBase;

#define GNN_LOSS_BASE(obj) ((GnnLossBase *) (obj))

/* The property id of "reduction"; a loss's own properties start after it. */
#define GNN_LOSS_PROP_REDUCTION 1
#define GNN_LOSS_N_PROPS        2

/* PyTorch's reduction string ("none", "mean", "sum"), NULL if invalid. */
const char *gnn_loss_reduction_name   (GnnReduction   reduction);

/* PyTorch's _Reduction.get_enum of the loss's "reduction", with its message
 * ("foo is not a valid value for reduction"). */
gboolean    gnn_loss_get_reduction    (GnnLossBase   *self,
                                       GnnReduction  *out,
                                       GError       **error);

/* Sets up a loss class: finalize, get/set_property (handling "reduction"
 * only; a loss with more properties overrides them and chains to
 * gnn_loss_get_property / gnn_loss_set_property for "reduction"), the
 * forward that fails with PyTorch's "<Name>.forward() missing 1 required
 * positional argument: 'target'" pointing to @compute_name, and installs
 * the "reduction" property (id GNN_LOSS_PROP_REDUCTION). */
void        gnn_loss_class_setup      (GObjectClass  *object_class,
                                       const char    *compute_name);

void        gnn_loss_get_property     (GObject       *object,
                                       guint          prop_id,
                                       GValue        *value,
                                       GParamSpec    *pspec);
void        gnn_loss_set_property     (GObject       *object,
                                       guint          prop_id,
                                       const GValue  *value,
                                       GParamSpec    *pspec);

/* An optional tensor buffer @name: the class slot (class_init) and the
 * empty registration (instance init), PyTorch's register_buffer(name, None). */
void        gnn_loss_class_add_buffer (GObjectClass  *object_class,
                                       const char    *name);
void        gnn_loss_init_buffer      (GnnLossBase   *self,
                                       const char    *name);
/* The buffer @name (transfer none), or NULL when empty. */
GnnTensor  *gnn_loss_buffer           (GnnLossBase   *self,
                                       const char    *name);

G_END_DECLS
