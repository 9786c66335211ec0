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

/* One parameter's update, its state created on the first. */
void     gnn_adam_update (const GnnAdamHyper *h, GnnTensor *param, GnnTensor *grad,
                          GnnStateDict *state);
/* PyTorch's constructor checks, in its order. */
gboolean gnn_adam_validate_hyper (const GnnAdamHyper *h, GError **error);

G_END_DECLS
