/* gnn-optim-private.h: internals shared by the optimizers and LR schedulers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <math.h>

#include <gnn/gnn.h>
#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-cpu-private.h"
#include "core/gnn-format-private.h"
#include "optim/gnn-optim-props-private.h"

G_BEGIN_DECLS

/* --- parameter groups ------------------------------------------------------
 *
 * A group owns a run of the optimizer's flat parameter list (PyTorch's
 * state-dict indices: groups in order, parameters in order) and one value
 * per option — the optimizer's bag properties, in bag order, so an
 * optimizer reads `options[PROP_X]` with the enum it installed (the base
 * class's lr is index 0, a subclass's PROP_X is its index). Extras are the
 * keys torch allows beyond the options (initial_lr, max_lr, a user's
 * "name"): numbers, booleans and strings as GVariants, in insertion order. */
typedef struct
{
  guint      first;
  guint      n_params;
  guint      n_options;
  GValue    *options;
  GPtrArray *extra_names;    /* char * */
  GPtrArray *extra_values;   /* GVariant * */
} GnnParamGroup;

#define GNN_OPTIM_LR 0       /* the options index of lr */

GnnParamGroup *gnn_param_group_new       (GnnOptimizer *self);
GnnParamGroup *gnn_param_group_copy      (const GnnParamGroup *group);
void           gnn_param_group_free      (gpointer group);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnParamGroup, gnn_param_group_free)

GVariant      *gnn_param_group_get_extra (const GnnParamGroup *group, const char *name);
void           gnn_param_group_set_extra (GnnParamGroup *group, const char *name, GVariant *value);

GnnParamGroup *gnn_optimizer_group       (GnnOptimizer *self, guint group);
/* The option index of @name (torch's spelling or the property's), or -1. */
int            gnn_optimizer_option_index (GnnOptimizer *self, const char *name);

/* Used by the state-dict codec: the groups (GnnParamGroup) and the
 * per-parameter states (GnnStateDict, parallel to the flat parameters). */
GPtrArray     *gnn_optimizer_get_groups  (GnnOptimizer *self);
GPtrArray     *gnn_optimizer_get_flat_params (GnnOptimizer *self);
GPtrArray     *gnn_optimizer_get_states  (GnnOptimizer *self);
void           gnn_optimizer_replace_groups_and_states (GnnOptimizer *self, GPtrArray *groups,
                                                        GPtrArray *states);

/* PyTorch's group.setdefault('initial_lr', group['lr']). */
double   gnn_optimizer_setdefault_initial_lr (GnnOptimizer *self, guint group);

/* Checks that the optimizer passed its hyper-parameter validation (running
 * it on first use for objects built with g_object_new). */
gboolean gnn_optimizer_ensure_initialized (GnnOptimizer *self, GError **error);

/* Every gradient has its parameter's shape and dtype, and storage. */
gboolean   gnn_optimizer_check_grads (GnnOptimizer *self, GError **error);
/* Runs @closure with gradient recording on (PyTorch's torch.enable_grad());
 * a closure that returns no loss without an error is an error. */
GnnTensor *gnn_optim_call_closure (GnnOptimizerClosure closure, gpointer user_data,
                                   GError **error);

/* --- the update loop -------------------------------------------------------- */

/* Called for every parameter that has a gradient, group by group; @grad is
 * contiguous, of the parameter's shape and dtype. */
typedef gboolean (*GnnOptimUpdateFunc) (GnnOptimizer  *self,
                                        const GValue  *options,
                                        GnnTensor     *param,
                                        GnnTensor     *grad,
                                        GnnStateDict  *state,
                                        gpointer       data,
                                        GError       **error);

gboolean gnn_optim_foreach_param (GnnOptimizer *self, GnnOptimUpdateFunc func, gpointer data,
                                  GError **error);

/* The update a class's step applies to each parameter (the base class's
 * step runs it through gnn_optim_foreach_param). */
void     gnn_optimizer_class_set_update (GnnOptimizerClass *klass, GnnOptimUpdateFunc func);

/* PyTorch's CPU kernels (built by GCC for AVX2 + FMA) fuse `a + alpha * b`
 * — add_ with alpha, the last step of addcmul_ — into one rounding; the
 * update loops do the same, so their bits match. */
#define GNN_FMA(T, a, b, c)                                                   \
  (sizeof (T) == sizeof (float) ? (T) fmaf ((float) (a), (float) (b), (float) (c)) \
                                : (T) fma ((a), (b), (c)))

/* An update loop: always inlined into the per-CPU-level copies that
 * GNN_DISPATCH_KERNEL (tensor/gnn-cpu-private.h) makes of it, so fma is one
 * instruction where the CPU has it. */
#define GNN_OPTIM_KERNEL static inline __attribute__ ((always_inline)) void

/* One call of @fn_f32 or @fn_f64 by the parameter's dtype. */
#define GNN_OPTIM_DISPATCH(param, fn, ...)                                   \
  G_STMT_START {                                                             \
    if (gnn_tensor_get_dtype (param) == GNN_DTYPE_F32)                       \
      fn##_f32 (__VA_ARGS__);                                                \
    else                                                                     \
      fn##_f64 (__VA_ARGS__);                                                \
  } G_STMT_END

/* The state tensor @name, created if missing: shaped like the parameter
 * and filled with @fill, or a 0-d tensor of @dtype holding @init. */
GnnTensor *gnn_optim_state_like_param (GnnStateDict *state, const char *name, GnnTensor *param,
                                       double fill);
GnnTensor *gnn_optim_state_scalar     (GnnStateDict *state, const char *name, GnnDType dtype,
                                       double init);

static inline gpointer
gnn_optim_data (GnnTensor *t)
{
  return t != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (t)) : NULL;
}

/* --- the per-parameter state an optimizer keeps ----------------------------
 *
 * What load_state_dict accepts and converts: tensors shaped like the
 * parameter (converted to its dtype, as torch casts them), 0-d float32
 * (torch's `step` tensors: not cast), 0-d float64 and int64 (torch's Python
 * floats and ints), and tensors of any shape (LBFGS's history, checked by
 * its validate_state). */
typedef enum
{
  GNN_OPTIM_STATE_LIKE_PARAM,
  GNN_OPTIM_STATE_F32,
  GNN_OPTIM_STATE_F64,
  GNN_OPTIM_STATE_I64,
  GNN_OPTIM_STATE_ANY_SHAPE,   /* floating ones converted to the parameter's dtype */
} GnnOptimStateKind;

typedef struct
{
  const char        *name;
  GnnOptimStateKind  kind;
  gboolean           required;   /* present whenever the state is not empty */
} GnnOptimStateEntry;

/* @entries: static, terminated by a NULL name. */
void                      gnn_optimizer_class_set_state_entries (GnnOptimizerClass        *klass,
                                                                 const GnnOptimStateEntry *entries);
const GnnOptimStateEntry *gnn_optimizer_get_state_entries      (GnnOptimizer *self);

/* Only LBFGS: PyTorch refuses a second group. */
void gnn_optimizer_class_set_single_group (GnnOptimizerClass *klass);

/* --- construction ----------------------------------------------------------- */

/* The tail of every gnn_<optimizer>_new(): checks the hyper-parameters
 * of @self (transfer full), rejects an empty @params ("optimizer got an
 * empty parameter list") and adds them as one group. Returns @self or NULL. */
GnnOptimizer *gnn_optim_finish_new (GnnOptimizer *self, GPtrArray *params, GError **error);
/* gnn_<optimizer>_new (params, lr): the other settings at their defaults. */
gpointer      gnn_optim_new_with_lr (GType type, GPtrArray *params, double lr, GError **error);

/* A float as Python's repr() prints it ("-1.0", "1e-08", "0.0001"), for
 * PyTorch's messages ("Invalid learning rate: -0.1"). */
char    *gnn_optim_format_float (double value);

/* FALSE with PyTorch's "Invalid <what>: <value>" unless @ok. */
gboolean gnn_optim_check (gboolean ok, const char *what, double value, GError **error);
/* "Invalid beta parameter at index <i>: <value>" unless 0 <= beta < 1. */
gboolean gnn_optim_check_beta (double beta, guint index, GError **error);

/* --- LR schedulers ---------------------------------------------------------- */

/* The number of groups scheduled (the base rates'), and the base rates. */
guint         gnn_lr_scheduler_n_groups     (GnnLRScheduler *self);
const double *gnn_lr_scheduler_base_lrs     (GnnLRScheduler *self);
void          gnn_lr_scheduler_set_base_lrs (GnnLRScheduler *self, const double *lrs, guint n);
void          gnn_lr_scheduler_set_position (GnnLRScheduler *self, gint64 last_epoch,
                                             gint64 step_count);
/* The last-epoch property: the epoch given at construction. */
gint64        gnn_lr_scheduler_get_initial_last_epoch (GnnLRScheduler *self);
/* Sets each scheduled group's rate from @lrs, then records the groups'
 * rates as the last ones (PyTorch's _last_lr). */
void          gnn_lr_scheduler_apply_lrs    (GnnLRScheduler *self, const double *lrs);
void          gnn_lr_scheduler_record_last_lrs (GnnLRScheduler *self);
/* PyTorch's _initial_step: the step count restarts at 0, then step(). */
gboolean      gnn_lr_scheduler_initial_step (GnnLRScheduler *self, GError **error);
/* For schedulers whose optimizer is their schedulers' (ChainedScheduler). */
void          gnn_lr_scheduler_set_optimizer (GnnLRScheduler *self, GnnOptimizer *optimizer);
/* One value per scheduled group from a setting given as one value or one
 * per group (a variant "ad"); @what names it in the error: "expected 2
 * values for max_lr, got 3". */
gboolean      gnn_lr_scheduler_per_group (GnnLRScheduler *self, GVariant *values, guint n_groups,
                                          const char *what, double *out, GError **error);
/* A group's numeric option or key (KeyError-like error naming it). */
gboolean      gnn_optim_group_number (GnnOptimizer *optimizer, guint group, const char *name,
                                      double *out, GError **error);
void          gnn_optim_group_set_number (GnnOptimizer *optimizer, guint group, const char *name,
                                          double value);

/* Schedulers made of schedulers (SequentialLR, ChainedScheduler): the
 * list property's items (a new array of references; NULL and an error
 * naming @owner if one is not a scheduler), and their states nested under
 * "_schedulers.<index>." — loaded all or none. */
GPtrArray *gnn_lr_scheduler_children       (GListModel *list, const char *owner, GError **error);
void       gnn_lr_scheduler_save_children  (GPtrArray *children, GnnStateDict *sd);
gboolean   gnn_lr_scheduler_load_children  (GPtrArray *children, GnnStateDict *sd, GError **error);

/* A list of doubles as "0.1,0.01" and back (empty text: no values). */
char   *gnn_optim_doubles_to_text   (const double *values, guint n);
GArray *gnn_optim_doubles_from_text (const char *text, const char *key, GError **error);

/* Python's // and % (the results of -7 // 2 and -7 % 2 are -4 and 1). */
static inline gint64
gnn_optim_floor_div (gint64 a, gint64 b)
{
  gint64 q = a / b;

  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static inline gint64
gnn_optim_py_mod (gint64 a, gint64 b)
{
  gint64 r = a % b;

  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/* The type name without "Gnn" (torch's class name: "Adam"). */
static inline const char *
gnn_optim_type_name (gpointer object)
{
  const char *name = G_OBJECT_TYPE_NAME (object);

  return g_str_has_prefix (name, "Gnn") ? name + 3 : name;
}

G_END_DECLS
