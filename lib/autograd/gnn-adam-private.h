/* gnn-adam-private.h: the hyper-parameters, properties and update shared by
 * GnnAdam and GnnAdamW (torch 1.13 _single_tensor_adam / _adamw)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "autograd/gnn-optim-private.h"

G_BEGIN_DECLS

/* The property ids of both types. */
enum {
  GNN_ADAM_PROP_0,
  GNN_ADAM_PROP_BETA1,
  GNN_ADAM_PROP_BETA2,
  GNN_ADAM_PROP_EPS,
  GNN_ADAM_PROP_WEIGHT_DECAY,
  GNN_ADAM_PROP_AMSGRAD,
  GNN_ADAM_N_PROPS
};

/* The values of those properties, held by each instance. */
typedef struct
{
  double   beta1;
  double   beta2;
  double   eps;
  double   weight_decay;
  gboolean amsgrad;
} GnnAdamParams;

/* Everything one step reads. */
typedef struct
{
  double   lr, beta1, beta2, eps, weight_decay;
  gboolean amsgrad, maximize, decoupled;
} GnnAdamHyper;

/* PyTorch's defaults (betas (0.9, 0.999), eps 1e-8) and @weight_decay. */
void     gnn_adam_params_init (GnnAdamParams *params, double weight_decay);

/* Installs "beta1", "beta2", "eps", "weight-decay" (default
 * @weight_decay) and "amsgrad" with the ids above. */
void     gnn_adam_install_properties (GObjectClass *object_class, double weight_decay);

void     gnn_adam_params_get_property (GnnAdamParams *params, GObject *object, guint prop_id,
                                       GValue *value, GParamSpec *pspec);
void     gnn_adam_params_set_property (GnnAdamParams *params, GObject *object, guint prop_id,
                                       const GValue *value, GParamSpec *pspec);

/* The optimizer's validate and step for @params; @decoupled selects AdamW's
 * weight decay. */
gboolean gnn_adam_params_validate (GnnOptimizer *self, const GnnAdamParams *params,
                                   gboolean decoupled, GError **error);
gboolean gnn_adam_params_step (GnnOptimizer *self, const GnnAdamParams *params,
                               gboolean decoupled, GError **error);

gboolean gnn_adam_update (GnnOptimizer *self, const GnnAdamHyper *h, GError **error);
gboolean gnn_adam_validate_hyper (const GnnAdamHyper *h, GError **error);
gboolean gnn_adam_validate_state (GnnOptimizer *self, guint index, GnnStateDict *state,
                                  GError **error);

G_END_DECLS
