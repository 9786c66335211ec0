/* gnn-tensor-record.c: grad mode and the op-recording hook (tensor side)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"

_Thread_local gboolean gnn_grad_mode_off;

/* Saved states of gnn_no_grad_push(), per thread. */
#define NO_GRAD_STACK_DEPTH 256
static _Thread_local guint8 no_grad_stack[NO_GRAD_STACK_DEPTH];
static _Thread_local guint no_grad_depth;

static GnnRecordFunc recorder;
static GnnRecordInplaceFunc inplace_recorder;
static GnnNodeNameFunc node_namer;

void
gnn_tensor_set_recorder (GnnRecordFunc        record,
                         GnnRecordInplaceFunc record_inplace,
                         GnnNodeNameFunc      node_name)
{
  recorder = record;
  inplace_recorder = record_inplace;
  node_namer = node_name;
}

GnnTensor *
gnn_tensor_record_slow (GnnOpKind          op,
                        GnnTensor         *out,
                        GnnTensor *const  *inputs,
                        guint              n_inputs,
                        const GnnOpParams *params)
{
  if (recorder == NULL)
    return out;
  return recorder (op, out, inputs, n_inputs, params);
}

gboolean
gnn_tensor_record_inplace_slow (GnnOpKind          op,
                                GnnTensor         *self,
                                GnnTensor *const  *others,
                                guint              n_others,
                                const GnnOpParams *params,
                                GError           **error)
{
  if (inplace_recorder == NULL)
    {
      gnn_tensor_priv_bump_version (gnn_tensor_priv (self));
      return TRUE;
    }
  return inplace_recorder (op, self, others, n_others, params, error);
}

const char *
gnn_tensor_grad_fn_name (GnnTensor *self)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  if (p->grad_fn == NULL || node_namer == NULL)
    return NULL;
  return node_namer (p->grad_fn);
}

/**
 * gnn_set_grad_enabled:
 * @enabled: whether operations on tensors that require grad are recorded
 *
 * Turns gradient recording on or off for the calling thread, like
 * `torch.set_grad_enabled (enabled)`. Grad mode is on by default in every
 * thread.
 *
 * Since: 0.1
 */
void
gnn_set_grad_enabled (gboolean enabled)
{
  gnn_grad_mode_off = !enabled;
}

/**
 * gnn_is_grad_enabled:
 *
 * Checks whether the calling thread records operations for autograd.
 *
 * Returns: whether the calling thread records operations for autograd, like
 *   `torch.is_grad_enabled ()`
 *
 * Since: 0.1
 */
gboolean
gnn_is_grad_enabled (void)
{
  return !gnn_grad_mode_off;
}

/**
 * gnn_no_grad_push:
 *
 * Enters a no-grad scope in the calling thread (like `with torch.no_grad():`):
 * saves the current grad mode and turns recording off until the matching
 * [func@Gnn.no_grad_pop]. Scopes nest (up to 256 deep).
 *
 * Since: 0.1
 */
void
gnn_no_grad_push (void)
{
  if (no_grad_depth >= NO_GRAD_STACK_DEPTH)
    {
      g_critical ("gnn_no_grad_push: no-grad scopes nested more than %d deep", NO_GRAD_STACK_DEPTH);
      return;
    }
  no_grad_stack[no_grad_depth++] = (guint8) gnn_grad_mode_off;
  gnn_grad_mode_off = TRUE;
}

/**
 * gnn_no_grad_pop:
 *
 * Leaves the innermost no-grad scope of the calling thread, restoring the
 * grad mode from before the matching [func@Gnn.no_grad_push].
 *
 * Since: 0.1
 */
void
gnn_no_grad_pop (void)
{
  if (no_grad_depth == 0)
    {
      g_critical ("gnn_no_grad_pop: no no-grad scope to leave");
      return;
    }
  gnn_grad_mode_off = no_grad_stack[--no_grad_depth];
}

/**
 * gnn_no_grad_guard_new: (skip)
 *
 * Enters a no-grad scope that ends when the returned guard is freed, for
 * `g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();`.
 *
 * Returns: (transfer full): the guard, to free with gnn_no_grad_guard_free()
 *
 * Since: 0.1
 */
GnnNoGradGuard *
gnn_no_grad_guard_new (void)
{
  gnn_no_grad_push ();
  return (GnnNoGradGuard *) GINT_TO_POINTER (1);
}

/**
 * gnn_no_grad_guard_free: (skip)
 * @guard: a guard from gnn_no_grad_guard_new()
 *
 * Leaves the guard's no-grad scope.
 *
 * Since: 0.1
 */
void
gnn_no_grad_guard_free (GnnNoGradGuard *guard)
{
  if (guard != NULL)
    gnn_no_grad_pop ();
}
