/* gnn-loss-private.h: what the loss modules of lib/nn share (CrossEntropyLoss,
 * NLLLoss, MSELoss, L1Loss, BCELoss, MarginRankingLoss, CTCLoss ...): the
 * "reduction" property, settings kept as numbered properties, the optional
 * weight buffers, and the one place a loss is computed from its inputs
 *
 * A loss takes two to four tensors. Each loss class registers a compute
 * function (gnn_loss_class_setup) that the module call path reaches
 * through the general forward (forward_args: criterion(input, target) from
 * C, Python and GJS, with hooks, the inputs bound by name as Python binds
 * them) and its public `_compute` method through gnn_loss_compute(); a
 * call with the input alone fails with PyTorch's "forward() missing ...
 * required positional argument" message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

#define GNN_LOSS_MAX_SETTINGS 4
#define GNN_LOSS_MAX_INPUTS   4

/* The instance layout every loss starts with: its struct's first member. */
typedef struct
{
  GnnModule parent_instance;
  char     *reduction;
  double    values[GNN_LOSS_MAX_SETTINGS];   /* settings with ids from GNN_LOSS_N_PROPS */
} GnnLossBase;

#define GNN_LOSS_BASE(obj) ((GnnLossBase *) (obj))

/* The property id of "reduction"; a loss's own properties start after it.
 * Settings installed with gnn_nn_class_add_double () and friends at id
 * GNN_LOSS_N_PROPS + k are kept in values[k] by the base. */
#define GNN_LOSS_PROP_REDUCTION 1
#define GNN_LOSS_N_PROPS        2

/* Computes the loss of @self from its inputs (as many as the class said). */
typedef GnnTensor *(*GnnLossComputeFunc) (GnnLossBase       *self,
                                          GnnTensor *const  *inputs,
                                          GError           **error);

/* PyTorch's reduction string ("none", "mean", "sum", "batchmean"), NULL if
 * invalid. */
const char *gnn_loss_reduction_name   (GnnReduction   reduction);

/* PyTorch's _Reduction.get_enum of the loss's "reduction", with its message
 * ("foo is not a valid value for reduction"); "batchmean" only where
 * @batchmean_ok (KLDivLoss). */
gboolean    gnn_loss_get_reduction    (GnnLossBase   *self,
                                       GnnReduction  *out,
                                       GError       **error);
gboolean    gnn_loss_get_reduction_full (GnnLossBase *self,
                                         gboolean     batchmean_ok,
                                         GnnReduction *out,
                                         GError     **error);

/* Sets up a loss class: finalize, get/set_property (handling "reduction"
 * and the settings in values[]; a loss with properties of its own
 * overrides them and chains to gnn_loss_get_property /
 * gnn_loss_set_property), the general forward (forward_args) calling
 * @compute with the inputs named @input_names (NULL-terminated, 2 to
 * GNN_LOSS_MAX_INPUTS; NULL for "input", "target"), and installs the
 * "reduction" property (id GNN_LOSS_PROP_REDUCTION). @compute_name is the
 * public method a wrong number of inputs to gnn_loss_compute() points to. */
void        gnn_loss_class_setup      (GObjectClass       *object_class,
                                       const char         *compute_name,
                                       GnnLossComputeFunc  compute,
                                       const char *const  *input_names);

/* The loss of @self (any loss module) from @inputs: NULL + error (the
 * missing-argument message) when @n_inputs is not the class's count. */
GnnTensor  *gnn_loss_compute          (gpointer           self,
                                       GnnTensor *const  *inputs,
                                       guint              n_inputs,
                                       GError           **error);

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
