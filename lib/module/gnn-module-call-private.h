/* gnn-module-call-private.h: the state of one module call (its arguments
 * and output), shared by the call path (gnn-module-call.c) and the hook
 * runner (gnn-module-hooks.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "module/gnn-module-private.h"

G_BEGIN_DECLS

/* A call's arguments: one tensor (the shape of gnn_module_call(), kept as
 * is so the tensor paths allocate nothing), or a tuple and keywords. The
 * tuple is built from the tensor only when a value hook or a forward_args
 * needs it; then both are held and agree. */
typedef struct
{
  GnnTensor *tensor;      /* one positional tensor and no keywords, or NULL */
  gboolean   own_tensor;  /* else borrowed from the caller, who holds it for the call */
  GnnValue  *args;        /* TUPLE, or NULL while only tensor is known */
  GnnValue  *kwargs;      /* non-empty DICT, or NULL */
} GnnCallInput;

/* A call's output: a tensor from forward, or any value from forward_args
 * (a value hook's output is always a value). */
typedef struct
{
  GnnTensor *tensor;
  GnnValue  *value;
} GnnCallOutput;

static inline void
gnn_call_input_init_tensor (GnnCallInput *in,
                            GnnTensor    *tensor)
{
  in->tensor = tensor;
  in->own_tensor = FALSE;
  in->args = NULL;
  in->kwargs = NULL;
}

static inline void
gnn_call_input_init_args (GnnCallInput *in,
                          GnnValue     *args,
                          GnnValue     *kwargs)
{
  in->tensor = NULL;
  in->own_tensor = FALSE;
  in->args = gnn_value_ref (args);
  in->kwargs = kwargs != NULL && gnn_value_get_length (kwargs) > 0 ? gnn_value_ref (kwargs) : NULL;
}

static inline void
gnn_call_input_clear (GnnCallInput *in)
{
  if (in->own_tensor)
    g_object_unref (in->tensor);
  in->tensor = NULL;
  in->own_tensor = FALSE;
  g_clear_pointer (&in->args, gnn_value_unref);
  g_clear_pointer (&in->kwargs, gnn_value_unref);
}

/* Replaces the arguments with one tensor, taking @tensor. */
static inline void
gnn_call_input_take_tensor (GnnCallInput *in,
                            GnnTensor    *tensor)
{
  gnn_call_input_clear (in);
  in->tensor = tensor;
  in->own_tensor = TRUE;
}

/* The one tensor of a call that has exactly one positional tensor and no
 * keywords, else NULL (borrowed). */
static inline GnnTensor *
gnn_call_input_tensor (GnnCallInput *in)
{
  if (in->tensor != NULL)
    return in->tensor;
  if (in->kwargs == NULL && gnn_value_get_length (in->args) == 1)
    return gnn_value_get_tensor (gnn_value_get_item (in->args, 0));
  return NULL;
}

/* The positional arguments as a tuple (borrowed). */
static inline GnnValue *
gnn_call_input_args (GnnCallInput *in)
{
  if (in->args == NULL)
    in->args = gnn_value_new_tuple_take (1, gnn_value_new_tensor (in->tensor));
  return in->args;
}

static inline void
gnn_call_output_clear (GnnCallOutput *out)
{
  g_clear_object (&out->tensor);
  g_clear_pointer (&out->value, gnn_value_unref);
}

static inline gboolean
gnn_call_output_is_set (GnnCallOutput *out)
{
  return out->tensor != NULL || out->value != NULL;
}

/* The output as a tensor if it is one, else NULL (borrowed). */
static inline GnnTensor *
gnn_call_output_tensor (GnnCallOutput *out)
{
  if (out->tensor != NULL)
    return out->tensor;
  return out->value != NULL ? gnn_value_get_tensor (out->value) : NULL;
}

/* The output as a value, or NULL if there is none (borrowed). */
static inline GnnValue *
gnn_call_output_value (GnnCallOutput *out)
{
  if (out->value == NULL && out->tensor != NULL)
    out->value = gnn_value_new_tensor (out->tensor);
  return out->value;
}

static inline void
gnn_call_output_take_tensor (GnnCallOutput *out,
                             GnnTensor     *tensor)
{
  gnn_call_output_clear (out);
  out->tensor = tensor;
}

static inline void
gnn_call_output_take_value (GnnCallOutput *out,
                            GnnValue      *value)
{
  gnn_call_output_clear (out);
  out->value = value;
}

/* Runs @klass's forward (no hooks) on @in into @out. @want_tensor: the
 * caller returns one tensor (gnn_module_call, gnn_module_forward). */
gboolean gnn_module_run_forward     (GnnModule        *self,
                                     GnnModuleClass   *klass,
                                     GnnCallInput     *in,
                                     gboolean          want_tensor,
                                     GnnCallOutput    *out,
                                     GError          **error);

/* The call with hooks (gnn-module-hooks.c): pre-hooks, forward, hooks,
 * always-call hooks on failure; the output is left in @out. */
gboolean gnn_module_call_with_hooks (GnnModule        *self,
                                     GnnModulePrivate *priv,
                                     GnnCallInput     *in,
                                     gboolean          want_tensor,
                                     GnnCallOutput    *out,
                                     GError          **error);

G_END_DECLS
