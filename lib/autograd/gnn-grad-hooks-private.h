/* gnn-grad-hooks-private.h: gradient-accumulation hooks and end-of-backward
 * callbacks (the internal API lib/distributed uses to overlap gradient
 * reduction with backward, like torch's AccumulateGrad post hooks and
 * Engine::queue_callback)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

/* Called once per backward pass when @leaf's .grad is final for that pass
 * (every edge of the graph into @leaf has been processed). */
typedef void (*GnnGradReadyFunc) (GnnTensor *leaf,
                                  gpointer   user_data);

/* Called at the end of the backward pass that queued it, with the pass's
 * status; may fail the pass by returning FALSE with @error set. */
typedef gboolean (*GnnBackwardCallback) (gboolean   ok,
                                         gpointer   user_data,
                                         GError   **error);

/* Returns an id for gnn_grad_hook_remove(). @leaf is not referenced: remove
 * the hook before @leaf goes away. */
guint    gnn_grad_hook_add                (GnnTensor          *leaf,
                                           GnnGradReadyFunc    func,
                                           gpointer            user_data);
void     gnn_grad_hook_remove             (GnnTensor          *leaf,
                                           guint               id);
/* Only valid from inside a hook (a backward pass is running on this thread). */
void     gnn_autograd_queue_callback      (GnnBackwardCallback func,
                                           gpointer            user_data);

/* Engine side (gnn-autograd.c). */
void     gnn_grad_hooks_pass_begin        (void);
void     gnn_grad_hooks_count_edge        (GnnTensor          *leaf);
void     gnn_grad_hooks_edge_done         (GnnTensor          *leaf);
gboolean gnn_grad_hooks_pass_end          (gboolean            ok,
                                           GError            **error);

G_END_DECLS
