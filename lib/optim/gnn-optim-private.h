/* gnn-optim-private.h: internals shared by the optimizers and LR schedulers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>
#include "tensor/gnn-tensor-private.h"
#include "core/gnn-format-private.h"

G_BEGIN_DECLS

/* PyTorch's group.setdefault('initial_lr', group['lr']): the first scheduler
 * attached to an optimizer records its rate; later ones reuse it. */
double   gnn_optimizer_setdefault_initial_lr (GnnOptimizer *self);

/* Checks that the optimizer passed its hyper-parameter validation (running
 * it on first use for objects built with g_object_new). */
gboolean gnn_optimizer_ensure_initialized (GnnOptimizer *self, GError **error);

/* Hyper-parameters as string metadata: every read-write, non-construct-only
 * property of a scalar type whose owner is @base_type or a subtype, keyed
 * @prefix + name with '-' turned into '_' (torch's spelling: weight_decay). */
typedef struct
{
  GParamSpec *pspec;
  GValue      value;
} GnnOptimStagedProp;

void     gnn_optim_props_to_metadata (GObject *object, GType base_type,
                                      const char *prefix, GnnStateDict *sd);
/* Parses every such property from @sd into a new array of staged values
 * (nothing is applied). Errors: a missing key, an unparsable value, or a key
 * under @prefix that is not a property and not listed in @extra_keys. */
GArray  *gnn_optim_props_from_metadata (GObject *object, GType base_type,
                                        const char *prefix, GnnStateDict *sd,
                                        const char * const *extra_keys,
                                        GError **error);
void     gnn_optim_props_apply (GObject *object, GArray *staged);

gboolean gnn_optim_parse_double (const char *text, const char *key, double *out, GError **error);
gboolean gnn_optim_parse_int64 (const char *text, const char *key, gint64 *out, GError **error);

/* Construct-only-free, read-write hyper-parameter properties (the flags
 * every optimizer property uses). */
GParamSpec *gnn_optim_double_property (const char *name, double default_value);
GParamSpec *gnn_optim_bool_property (const char *name, gboolean default_value);

/* The tail of every gnn_<optimizer>_new(): checks the hyper-parameters
 * of @self (transfer full), rejects an empty @params ("optimizer got an
 * empty parameter list") and adds them. Returns @self or NULL. */
GnnOptimizer *gnn_optim_finish_new (GnnOptimizer *self, GPtrArray *params, GError **error);

G_END_DECLS
