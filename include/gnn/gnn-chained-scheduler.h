/* gnn-chained-scheduler.h: schedulers that all step at once
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_CHAINED_SCHEDULER (gnn_chained_scheduler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnChainedScheduler, gnn_chained_scheduler, GNN, CHAINED_SCHEDULER, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnChainedScheduler *gnn_chained_scheduler_new (GnnLRScheduler **schedulers,
                                                guint            n_schedulers,
                                                GError         **error);

G_END_DECLS
