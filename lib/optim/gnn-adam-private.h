/* gnn-adam-private.h: the update shared by GnnAdam and GnnAdamW
 * (torch 1.13 _single_tensor_adam, with AdamW's decoupled weight decay as a
 * switch)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "optim/gnn-optim-private.h"

G_BEGIN_DECLS

/* Everything one step reads. */
typedef struct
{
  double   lr, beta1, beta2, eps, weight_decay;
  gboolean amsgrad, maximize, decoupled;
} GnnAdamHyper;

gboolean gnn_adam_update (GnnOptimizer *self, const GnnAdamHyper *h, GError **error);
gboolean gnn_adam_validate_hyper (const GnnAdamHyper *h, GError **error);
gboolean gnn_adam_validate_state (GnnOptimizer *self, guint index, GnnStateDict *state,
                                  GError **error);

G_END_DECLS
