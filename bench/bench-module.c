/* bench-module.c: times Gnn's module object model
 *
 * The C half of bench/module.py, which runs this program, measures the same
 * things in PyTorch and prints the comparison. This driver prints one JSON
 * object per line on stdout:
 *
 *   {"type": "info", "gnn_version": "0.1.0", ...}
 *   {"type": "result", "case": "build", "best_seconds": ..., ...}
 *
 * The cases:
 *   build        gnn_sequential_new() of --layers Linear(16,16) layers, then
 *                unref (construction, kaiming init and destruction: PyTorch's
 *                side drops the model at once too);
 *   walk         gnn_module_named_parameters() with names on that model,
 *                results freed (PyTorch: list(model.named_parameters()));
 *   build_walk   both in one call;
 *   call_<m>_<h> gnn_module_call() on m = identity | linear (Linear(16,16)
 *                on a 1x16 input) with h = 0 hooks or 2 no-op hooks (a
 *                forward pre-hook and a forward hook); the output is unrefed;
 *                Like PyTorch's side (under torch.no_grad()), the call and
 *                forward cases run in a no-grad scope;
 *   mlp          gnn_module_call() on Sequential(Linear(64,64), ReLU,
 *                Linear(64,10)) with a 1×64 input (tiny-MLP inference);
 *   lstm_cell    gnn_module_call_args() of LSTMCell(1, 51) on (x, (h, c)) at
 *                batch 1;
 *   encoder_layer  TransformerEncoderLayer(512, 8) in eval on (16, 1, 512);
 *   forward_<m>  gnn_module_forward() on the same module; each call_ case
 *                also times forward, its repetitions interleaved with the
 *                calls', and prints {"type": "overhead", ...}: the call
 *                path's overhead is call - forward;
 *   state_dict   gnn_module_state_dict() of a Sequential of --sd-modules
 *                Linear(16,16) layers, then unref;
 *   gobject_floor what any GObject-based build of --layers Linear layers
 *                costs before it does anything of its own: per layer, one
 *                object of a class with the Linear's two construct
 *                properties set (in, out features) and two objects of a
 *                class with a property (the weight and bias tensors), all
 *                created with g_object_new() and freed; no data, no
 *                initialization, no registry (Gnn-only: module.py prints it
 *                under the table);
 *   gobject_floor_data  the floor plus the data any build + walk must
 *                produce: per layer two malloc'd buffers (16×16 and 16
 *                floats) filled from a vectorized 32-bit counter hash, and
 *                the walk's array of the 2,000 tensors with their names.
 *
 * The method, mirrored line for line in module.py (and bench-tensor.c):
 *   1. one untimed call, then one timed call to calibrate `inner`, the
 *      number of calls that make a repetition last at least --min-time s;
 *   2. one untimed warm-up repetition, then --reps timed repetitions;
 *   3. report the best and the median seconds per call.
 * Every case checks its results (names, values, hook counts, keys) before
 * it is timed, so a broken path cannot post a fast time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gnn/gnn.h>

#include "bench-util.h"

#define FEATURES 16

#define MAX_INNER 10000000

typedef BenchTiming Timing;

static gboolean
measure (BenchFunc func,
         gpointer  data,
         guint     reps,
         double    min_time,
         Timing   *timing,
         GError  **error)
{
  return bench_measure_n (&func, 1, data, reps, min_time, MAX_INNER, timing, error);
}

static void
print_result (const char   *name,
              guint         size,
              const Timing *t)
{
  printf ("{\"type\": \"result\", \"case\": \"%s\", \"size\": %u", name, size);
  bench_print_timing_end (t);
}

static gboolean
fail_check (GError    **error,
            const char *what,
            const char *detail)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "wrong result: %s (%s)", what, detail);
  return FALSE;
}

/* --- build and walk ------------------------------------------------------ */

typedef struct
{
  guint      n_layers;
  GnnModule *model;   /* for walk */
} BuildData;

static GnnModule *
build_model (guint    n_layers,
             GError **error)
{
  g_autoptr(GPtrArray) layers = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_layers; i++)
    {
      GnnLinear *layer = gnn_linear_new (FEATURES, FEATURES, TRUE, NULL, error);

      if (layer == NULL)
        return NULL;
      g_ptr_array_add (layers, layer);
    }
  return GNN_MODULE (gnn_sequential_new ((GnnModule **) layers->pdata, layers->len));
}

static gboolean
op_build (gpointer data, GError **error)
{
  BuildData *d = data;
  GnnModule *model = build_model (d->n_layers, error);

  if (model == NULL)
    return FALSE;
  g_object_unref (model);
  return TRUE;
}

static gboolean
walk (GnnModule *model, GError **error)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, &names);

  if (params->len == 0 || names[0] == NULL)
    return fail_check (error, "named_parameters", "empty");
  return TRUE;
}

static gboolean
op_walk (gpointer data, GError **error)
{
  return walk (((BuildData *) data)->model, error);
}

static gboolean
op_build_walk (gpointer data, GError **error)
{
  BuildData *d = data;
  g_autoptr(GnnModule) model = build_model (d->n_layers, error);

  return model != NULL && walk (model, error);
}

/* Names "0.weight", "0.bias", "1.weight", ... with the right shapes and
 * kaiming-uniform bounds. */
static gboolean
check_model (GnnModule *model,
             guint      n_layers,
             GError   **error)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, &names);
  double bound = 1.0 / sqrt ((double) FEATURES);

  if (params->len != 2 * n_layers || g_strv_length (names) != 2 * n_layers)
    {
      g_autofree char *n = g_strdup_printf ("%u parameters, expected %u", params->len, 2 * n_layers);
      return fail_check (error, "named_parameters count", n);
    }
  for (guint i = 0; i < params->len; i++)
    {
      g_autofree char *want = g_strdup_printf ("%u.%s", i / 2, i % 2 ? "bias" : "weight");
      GnnTensor *p = g_ptr_array_index (params, i);
      g_autofree float *values = NULL;
      gsize n = 0;

      if (strcmp (names[i], want) != 0)
        return fail_check (error, "named_parameters name", names[i]);
      if (gnn_tensor_get_numel (p) != (i % 2 ? FEATURES : FEATURES * FEATURES))
        return fail_check (error, "parameter numel", names[i]);
      values = gnn_tensor_to_floats (p, &n);
      for (gsize k = 0; k < n; k++)
        if (!(fabs (values[k]) <= bound))
          return fail_check (error, "initial value outside the kaiming bound", names[i]);
    }
  return TRUE;
}

/* --- call ---------------------------------------------------------------- */

typedef struct
{
  GnnModule *module;
  GnnTensor *input;
  guint      hook_calls;
} CallData;

static GnnTensor *
noop_pre_hook (GnnModule *module, GnnTensor *input, gpointer user_data, GError **error)
{
  ((CallData *) user_data)->hook_calls++;
  return NULL;
}

static GnnTensor *
noop_hook (GnnModule *module, GnnTensor *input, GnnTensor *output, gpointer user_data,
           GError **error)
{
  ((CallData *) user_data)->hook_calls++;
  return NULL;
}

static gboolean
op_call (gpointer data, GError **error)
{
  CallData *d = data;
  GnnTensor *out = gnn_module_call (d->module, d->input, error);

  if (out == NULL)
    return FALSE;
  g_object_unref (out);
  return TRUE;
}

static gboolean
op_forward (gpointer data, GError **error)
{
  CallData *d = data;
  GnnTensor *out = gnn_module_forward (d->module, d->input, error);

  if (out == NULL)
    return FALSE;
  g_object_unref (out);
  return TRUE;
}

/* The output of one call equals x for Identity, x Wᵀ + b for Linear. */
static gboolean
check_call (CallData *d,
            gboolean  linear,
            GError  **error)
{
  g_autoptr(GnnTensor) out = gnn_module_call (d->module, d->input, error);
  g_autofree float *x = NULL, *y = NULL, *w = NULL, *b = NULL;
  gsize nx = 0, ny = 0, nw = 0, nb = 0;

  if (out == NULL)
    return FALSE;
  x = gnn_tensor_to_floats (d->input, &nx);
  y = gnn_tensor_to_floats (out, &ny);
  if (ny != FEATURES || nx != FEATURES)
    return fail_check (error, "call output size", linear ? "linear" : "identity");
  if (linear)
    {
      GnnTensor *wt = GNN_TENSOR (gnn_module_get_parameter (d->module, "weight", error));
      GnnTensor *bt = wt != NULL ? GNN_TENSOR (gnn_module_get_parameter (d->module, "bias", error)) : NULL;

      if (bt == NULL)
        return FALSE;
      w = gnn_tensor_to_floats (wt, &nw);
      b = gnn_tensor_to_floats (bt, &nb);
      if (nw != FEATURES * FEATURES || nb != FEATURES)
        return fail_check (error, "linear parameter sizes", "weight/bias");
    }
  for (guint o = 0; o < FEATURES; o++)
    {
      double want = x[o];

      if (linear)
        {
          want = b[o];
          for (guint k = 0; k < FEATURES; k++)
            want += (double) x[k] * w[o * FEATURES + k];
        }
      if (fabs (y[o] - want) > 1e-5 * (1.0 + fabs (want)))
        return fail_check (error, "call output value", linear ? "linear" : "identity");
    }
  return TRUE;
}

static gboolean
bench_call (const char *module_name,
            guint       n_hooks,
            gboolean    forward_only,
            guint       reps,
            double      min_time,
            GError    **error)
{
  gboolean linear = g_str_equal (module_name, "linear");
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1234);
  g_autoptr(GnnModule) module = NULL;
  g_autoptr(GnnTensor) input = NULL;
  g_autoptr(GnnHookHandle) pre = NULL;
  g_autoptr(GnnHookHandle) post = NULL;
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();   /* as torch.no_grad() */
  g_autofree char *name = NULL;
  const gint64 shape[2] = { 1, FEATURES };
  float values[FEATURES];
  CallData d = { 0 };
  guint calls_before;
  Timing t;

  for (guint i = 0; i < FEATURES; i++)
    values[i] = (float) (2.0 * gnn_generator_next_double (gen) - 1.0);
  input = gnn_tensor_new_from_floats (values, FEATURES, shape, 2, error);
  if (input == NULL)
    return FALSE;
  if (linear)
    {
      module = (GnnModule *) gnn_linear_new (FEATURES, FEATURES, TRUE, gen, error);
      if (module == NULL)
        return FALSE;
    }
  else
    module = GNN_MODULE (gnn_identity_new ());
  d.module = module;
  d.input = input;
  if (n_hooks > 0)
    {
      pre = gnn_module_register_forward_pre_hook (module, noop_pre_hook, &d, NULL,
                                                  GNN_HOOK_FLAGS_NONE);
      post = gnn_module_register_forward_hook (module, noop_hook, &d, NULL,
                                               GNN_HOOK_FLAGS_NONE);
    }

  if (!check_call (&d, linear, error))
    return FALSE;
  if (d.hook_calls != (n_hooks > 0 ? 2u : 0u))
    return fail_check (error, "hook calls", module_name);

  calls_before = d.hook_calls;
  if (forward_only)
    {
      if (!measure (op_forward, &d, reps, min_time, &t, error))
        return FALSE;
    }
  else
    {
      /* The call-path overhead is call - forward, a small difference of two
       * times: measured in one run with their repetitions interleaved (call,
       * forward, call, ...), so load from other processes hits both alike.
       * Calibrated on op_call; both use the same `inner`. */
      const BenchFunc funcs[2] = { op_call, op_forward };
      Timing both[2], tf;

      if (!bench_measure_n (funcs, 2, &d, reps, min_time, MAX_INNER, both, error))
        return FALSE;
      t = both[0];
      tf = both[1];
      /* calibration 2 + warm-up + reps repetitions of `inner` calls */
      if (n_hooks > 0 && d.hook_calls - calls_before != 2u * (2 + (reps + 1) * t.inner))
        return fail_check (error, "hook calls while timed", module_name);
      /* The same run's forward, interleaved with the calls: the overhead. */
      printf ("{\"type\": \"overhead\", \"case\": \"call_%s_%u\", \"call_best_seconds\": %.6g"
              ", \"forward_best_seconds\": %.6g, \"call_median_seconds\": %.6g"
              ", \"forward_median_seconds\": %.6g, \"inner\": %u, \"reps\": %u}\n",
              module_name, n_hooks, t.best, tf.best, t.median, tf.median, t.inner, t.reps);
    }

  if (forward_only)
    name = g_strdup_printf ("forward_%s", module_name);
  else
    name = g_strdup_printf ("call_%s_%u", module_name, n_hooks);
  print_result (name, FEATURES, &t);
  return TRUE;
}

/* --- tiny MLP ------------------------------------------------------------ */

#define MLP_IN 64
#define MLP_HIDDEN 64
#define MLP_OUT 10

/* y = W2 relu(W1 x + b1) + b2 in double, against the model's output. */
static gboolean
check_mlp (GnnModule *model,
           GnnTensor *input,
           GError   **error)
{
  const char *names[4] = { "0.weight", "0.bias", "2.weight", "2.bias" };
  g_autofree float *p[4] = { NULL };
  g_autofree float *x = NULL, *y = NULL;
  g_autoptr(GnnTensor) out = gnn_module_call (model, input, error);
  double h[MLP_HIDDEN];
  gsize n = 0;

  if (out == NULL)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      GnnParameter *t = gnn_module_get_parameter (model, names[i], error);

      if (t == NULL)
        return FALSE;
      p[i] = gnn_tensor_to_floats (GNN_TENSOR (t), &n);
    }
  x = gnn_tensor_to_floats (input, &n);
  y = gnn_tensor_to_floats (out, &n);
  if (n != MLP_OUT)
    return fail_check (error, "mlp output size", "expected 10");
  for (guint o = 0; o < MLP_HIDDEN; o++)
    {
      h[o] = p[1][o];
      for (guint k = 0; k < MLP_IN; k++)
        h[o] += (double) x[k] * p[0][o * MLP_IN + k];
      h[o] = MAX (h[o], 0.0);
    }
  for (guint o = 0; o < MLP_OUT; o++)
    {
      double want = p[3][o];

      for (guint k = 0; k < MLP_HIDDEN; k++)
        want += h[k] * p[2][o * MLP_HIDDEN + k];
      if (fabs (y[o] - want) > 1e-4 * (1.0 + fabs (want)))
        return fail_check (error, "mlp output value", "differs from x W1ᵀ + b1, relu, W2ᵀ + b2");
    }
  return TRUE;
}

static gboolean
bench_mlp (guint    reps,
           double   min_time,
           GError **error)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (4321);
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnTensor) input = NULL;
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  const gint64 shape[2] = { 1, MLP_IN };
  float values[MLP_IN];
  GnnModule *layers[3];
  CallData d = { 0 };
  Timing t;

  for (guint i = 0; i < MLP_IN; i++)
    values[i] = (float) (2.0 * gnn_generator_next_double (gen) - 1.0);
  input = gnn_tensor_new_from_floats (values, MLP_IN, shape, 2, error);
  if (input == NULL)
    return FALSE;
  layers[0] = GNN_MODULE (gnn_linear_new (MLP_IN, MLP_HIDDEN, TRUE, gen, error));
  if (layers[0] == NULL)
    return FALSE;
  layers[1] = GNN_MODULE (gnn_relu_new (FALSE));
  layers[2] = GNN_MODULE (gnn_linear_new (MLP_HIDDEN, MLP_OUT, TRUE, gen, error));
  if (layers[2] == NULL)
    {
      g_object_unref (layers[0]);
      g_object_unref (layers[1]);
      return FALSE;
    }
  model = GNN_MODULE (gnn_sequential_new (layers, 3));
  for (guint i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  if (!check_mlp (model, input, error))
    return FALSE;
  d.module = model;
  d.input = input;
  if (!measure (op_call, &d, reps, min_time, &t, error))
    return FALSE;
  print_result ("mlp", MLP_IN, &t);
  return TRUE;
}

/* --- real layers at batch 1 (issue 30 item 3) -------------------------------- */

typedef struct
{
  GnnModule *module;
  GnnValue  *args;
} LayerCall;

static gboolean
op_call_args (gpointer data, GError **error)
{
  LayerCall *d = data;
  g_autoptr(GnnValue) out = gnn_module_call_args (d->module, d->args, NULL, error);

  return out != NULL;
}

/* The output's first tensor (the item itself, or the first of a tuple) has
 * @numel elements. */
static gboolean
check_layer (LayerCall  *d,
             gint64      numel,
             const char *what,
             GError    **error)
{
  g_autoptr(GnnValue) out = gnn_module_call_args (d->module, d->args, NULL, error);
  GnnValue *first = out;

  if (out == NULL)
    return FALSE;
  if (gnn_value_get_kind (out) == GNN_VALUE_TUPLE)
    first = gnn_value_get_item (out, 0);
  if (gnn_value_get_kind (first) != GNN_VALUE_TENSOR ||
      gnn_tensor_get_numel (gnn_value_get_tensor (first)) != numel)
    return fail_check (error, what, "output shape");
  return TRUE;
}

/* lstm_cell: LSTMCell(1, 51) (the sine-wave predictor's cell) on (x, (h, c))
 * at batch 1; encoder_layer: TransformerEncoderLayer(512, 8) (2048, dropout
 * 0.1) in eval on (seq 16, batch 1, 512), bench/transformer.py's layer-b1.
 * No gradient recording, as torch's side. */
static gboolean
bench_layer (const char *name,
             guint       reps,
             double      min_time,
             GError    **error)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (2468);
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  g_autoptr(GnnModule) module = NULL;
  g_autoptr(GnnValue) args = NULL;
  gboolean lstm = g_str_equal (name, "lstm_cell");
  const gint64 xs[2] = { 1, 1 }, hs[2] = { 1, 51 }, src_shape[3] = { 16, 1, 512 };
  LayerCall d;
  Timing t;

  if (lstm)
    {
      g_autoptr(GnnTensor) x = gnn_tensor_zeros (xs, 2, GNN_DTYPE_F32, error);
      g_autoptr(GnnTensor) h = gnn_tensor_zeros (hs, 2, GNN_DTYPE_F32, error);
      g_autoptr(GnnTensor) c = gnn_tensor_zeros (hs, 2, GNN_DTYPE_F32, error);

      module = (GnnModule *) gnn_lstm_cell_new (1, 51, TRUE, gen, error);
      if (module == NULL)
        return FALSE;
      args = gnn_value_new_tuple_take (2, gnn_value_new_tensor (x),
                                       gnn_value_new_tuple_take (2, gnn_value_new_tensor (h),
                                                                 gnn_value_new_tensor (c)));
    }
  else
    {
      g_autoptr(GnnTensor) src = gnn_tensor_empty (src_shape, 3, GNN_DTYPE_F32, error);

      if (src == NULL || !gnn_tensor_normal_ (src, 0.0, 1.0, gen, error))
        return FALSE;
      module = (GnnModule *) gnn_transformer_encoder_layer_new (512, 8, error);
      if (module == NULL)
        return FALSE;
      gnn_module_eval (module);
      args = gnn_value_new_tuple_take (1, gnn_value_new_tensor (src));
    }
  d = (LayerCall) { module, args };
  if (!check_layer (&d, lstm ? 51 : 16 * 512, name, error) ||
      !measure (op_call_args, &d, reps, min_time, &t, error))
    return FALSE;
  print_result (name, lstm ? 51 : 512, &t);
  return TRUE;
}

/* --- state_dict ---------------------------------------------------------- */

static gboolean
op_state_dict (gpointer data, GError **error)
{
  GnnStateDict *sd = gnn_module_state_dict (data);

  if (gnn_state_dict_get_length (sd) == 0)
    {
      g_object_unref (sd);
      return fail_check (error, "state_dict", "empty");
    }
  g_object_unref (sd);
  return TRUE;
}

static gboolean
check_state_dict (GnnModule *model,
                  guint      n_modules,
                  GError   **error)
{
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (model);
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);

  if (g_strv_length (keys) != 2 * n_modules)
    return fail_check (error, "state_dict length", "keys");
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *want = g_strdup_printf ("%u.%s", i / 2, i % 2 ? "bias" : "weight");

      if (strcmp (keys[i], want) != 0)
        return fail_check (error, "state_dict key", keys[i]);
      if ((gpointer) gnn_state_dict_lookup (sd, keys[i]) !=
          (gpointer) gnn_module_get_parameter (model, keys[i], NULL))
        return fail_check (error, "state_dict tensor is not the parameter", keys[i]);
    }
  return TRUE;
}

/* --- GObject floor ------------------------------------------------------ */

/* A class with two construct-only properties (a Linear's features) and a
 * constructed vfunc, and a class with one property (a tensor): the least
 * GObject machinery a layer of three objects pays. */
typedef struct { GObject parent; gint64 a, b; } FloorLayer;
typedef struct { GObjectClass parent; } FloorLayerClass;
typedef struct { GObject parent; gint64 v; float *data; } FloorTensor;
typedef struct { GObjectClass parent; } FloorTensorClass;
static GType floor_layer_get_type (void);
static GType floor_tensor_get_type (void);
G_DEFINE_TYPE (FloorLayer, floor_layer, G_TYPE_OBJECT)
G_DEFINE_TYPE (FloorTensor, floor_tensor, G_TYPE_OBJECT)

static void
floor_set (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  gint64 *fields = G_TYPE_CHECK_INSTANCE_TYPE (object, floor_layer_get_type ())
                   ? &((FloorLayer *) object)->a : &((FloorTensor *) object)->v;

  fields[id - 1] = g_value_get_int64 (value);
}

static void
floor_get (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  const gint64 *fields = G_TYPE_CHECK_INSTANCE_TYPE (object, floor_layer_get_type ())
                         ? &((FloorLayer *) object)->a : &((FloorTensor *) object)->v;

  g_value_set_int64 (value, fields[id - 1]);
}

static void
floor_layer_constructed (GObject *object)
{
  G_OBJECT_CLASS (floor_layer_parent_class)->constructed (object);
}

static void
floor_layer_class_init (FloorLayerClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);

  oc->set_property = floor_set, oc->get_property = floor_get;
  oc->constructed = floor_layer_constructed;
  for (guint i = 1; i <= 2; i++)
    g_object_class_install_property (oc, i, g_param_spec_int64 (i == 1 ? "in-features" : "out-features",
                                                                NULL, NULL, 0, G_MAXINT64, 0,
                                                                G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                                G_PARAM_STATIC_STRINGS));
}

static void
floor_tensor_finalize (GObject *object)
{
  g_free (((FloorTensor *) object)->data);
  G_OBJECT_CLASS (floor_tensor_parent_class)->finalize (object);
}

static void
floor_tensor_class_init (FloorTensorClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);

  oc->set_property = floor_set, oc->get_property = floor_get;
  oc->finalize = floor_tensor_finalize;
  g_object_class_install_property (oc, 1, g_param_spec_int64 ("numel", NULL, NULL, 0, G_MAXINT64, 0,
                                                              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void floor_layer_init (FloorLayer *self) { }
static void floor_tensor_init (FloorTensor *self) { }

static gboolean
op_gobject_floor (gpointer data, GError **error)
{
  guint n = GPOINTER_TO_UINT (data);
  g_autoptr(GPtrArray) objects = g_ptr_array_new_full (3 * n, g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (objects, g_object_new (floor_layer_get_type (), "in-features", (gint64) FEATURES,
                                              "out-features", (gint64) FEATURES, NULL));
      g_ptr_array_add (objects, g_object_new (floor_tensor_get_type (), NULL));
      g_ptr_array_add (objects, g_object_new (floor_tensor_get_type (), NULL));
    }
  if (((FloorLayer *) objects->pdata[0])->b != FEATURES)
    return fail_check (error, "gobject_floor", "construct property not set");
  return TRUE;
}

/* The data every build + named_parameters must produce on top of the
 * floor, as cheaply as C can: per layer a 16×16 and a 16 float buffer
 * (plain malloc, no alignment), filled with values in [-1/4, 1/4) from a
 * 32-bit counter hash the compiler vectorizes (cheaper than any seeded
 * generator worth the name), and the walk's result: the 2 tensors
 * referenced in an array with their dotted names. No registry, no
 * checks: a lower bound for any GObject-based design. */
static void
floor_fill (float *out, guint n, guint32 key)
{
  for (guint k = 0; k < n; k++)
    {
      guint32 x = key * 0x9E3779B9u + k * 0x85EBCA6Bu;

      x ^= x >> 15;
      x *= 0x2C1B3C6Du;
      x ^= x >> 12;
      out[k] = (float) (x >> 8) * (0.5f / 16777216.0f) - 0.25f;
    }
}

static FloorTensor *
floor_tensor_new_data (guint n, guint32 key)
{
  FloorTensor *t = g_object_new (floor_tensor_get_type (), NULL);

  t->data = g_malloc (n * sizeof (float));
  floor_fill (t->data, n, key);
  return t;
}

static gboolean
op_gobject_floor_data (gpointer data, GError **error)
{
  guint n = GPOINTER_TO_UINT (data);
  g_autoptr(GPtrArray) objects = g_ptr_array_new_full (3 * n, g_object_unref);
  g_autoptr(GPtrArray) values = g_ptr_array_new_full (2 * n, g_object_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new_full (2 * n + 1, g_free);
  static guint32 key;
  char name[32];

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (objects, g_object_new (floor_layer_get_type (), "in-features", (gint64) FEATURES,
                                              "out-features", (gint64) FEATURES, NULL));
      g_ptr_array_add (objects, floor_tensor_new_data (FEATURES * FEATURES, key++));
      g_ptr_array_add (objects, floor_tensor_new_data (FEATURES, key++));
    }
  for (guint i = 0; i < n; i++)
    for (guint j = 1; j <= 2; j++)
      {
        gsize len = (gsize) g_snprintf (name, sizeof name, "%u.%s", i, j == 1 ? "weight" : "bias");

        g_ptr_array_add (values, g_object_ref (objects->pdata[3 * i + j]));
        g_ptr_array_add (names, g_strndup (name, len));
      }
  if (fabsf (((FloorTensor *) objects->pdata[1])->data[3]) > 0.25f)
    return fail_check (error, "gobject_floor_data", "value out of range");
  return TRUE;
}

/* --- main ---------------------------------------------------------------- */

static const char *all_cases =
  "build,walk,build_walk,call_identity_0,call_identity_2,forward_identity,"
  "call_linear_0,call_linear_2,forward_linear,mlp,lstm_cell,encoder_layer,state_dict,gobject_floor,"
  "gobject_floor_data";

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cases_arg = NULL;
  g_auto(GStrv) cases = NULL;
  gint layers = 1000;
  gint sd_modules = 100;
  gint reps = 5;
  double min_time = 0.2;
  gboolean smoke = FALSE;
  GOptionEntry entries[] = {
    { "cases", 0, 0, G_OPTION_ARG_STRING, &cases_arg, "Comma-separated cases (default: all)", "CASES" },
    { "layers", 0, 0, G_OPTION_ARG_INT, &layers, "Linear(16,16) layers of the build/walk model (default 1000)", "N" },
    { "sd-modules", 0, 0, G_OPTION_ARG_INT, &sd_modules, "Linear(16,16) layers of the state_dict model (default 100)", "N" },
    { "reps", 0, 0, G_OPTION_ARG_INT, &reps, "Timed repetitions (default 5)", "N" },
    { "min-time", 0, 0, G_OPTION_ARG_DOUBLE, &min_time, "Minimum seconds per repetition (default 0.2)", "SECONDS" },
    { "smoke", 0, 0, G_OPTION_ARG_NONE, &smoke, "Tiny sizes, one repetition: checks the driver still works (meson test)", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("- time Gnn's module object model (run through bench/module.py)");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-module: %s\n", error->message);
      return 1;
    }
  if (smoke)
    {
      layers = 10;
      sd_modules = 5;
      reps = 1;
      min_time = 0.0;
    }
  if (reps < 1 || layers < 1 || sd_modules < 1 || min_time < 0.0)
    {
      g_printerr ("bench-module: --reps, --layers and --sd-modules must be positive, "
                  "--min-time not negative\n");
      return 1;
    }
  cases = g_strsplit (cases_arg ? cases_arg : all_cases, ",", -1);

  printf ("{\"type\": \"info\", \"gnn_version\": \"%s\", \"layers\": %d, \"sd_modules\": %d}\n",
          GNN_VERSION_S, layers, sd_modules);
  fflush (stdout);

  for (guint i = 0; cases[i] != NULL; i++)
    {
      const char *c = cases[i];
      gboolean ok;
      Timing t;

      if (g_str_equal (c, "build") || g_str_equal (c, "walk") || g_str_equal (c, "build_walk"))
        {
          g_autoptr(GnnModule) model = build_model ((guint) layers, &error);
          BuildData d = { (guint) layers, model };
          BenchFunc func = g_str_equal (c, "build") ? op_build
                           : g_str_equal (c, "walk") ? op_walk : op_build_walk;

          ok = model != NULL && check_model (model, (guint) layers, &error) &&
               measure (func, &d, (guint) reps, min_time, &t, &error);
          if (ok)
            print_result (c, (guint) layers, &t);
        }
      else if (g_str_has_prefix (c, "call_identity_") || g_str_has_prefix (c, "call_linear_"))
        {
          const char *us = strrchr (c, '_');
          g_autofree char *module_name = g_strndup (c + 5, us - (c + 5));
          guint n_hooks = (guint) g_ascii_strtoull (us + 1, NULL, 10);

          if (n_hooks != 0 && n_hooks != 2)
            {
              g_printerr ("bench-module: %s: only 0 or 2 hooks\n", c);
              return 1;
            }
          ok = bench_call (module_name, n_hooks, FALSE, (guint) reps, min_time, &error);
        }
      else if (g_str_equal (c, "forward_identity") || g_str_equal (c, "forward_linear"))
        ok = bench_call (c + strlen ("forward_"), 0, TRUE, (guint) reps, min_time, &error);
      else if (g_str_equal (c, "mlp"))
        ok = bench_mlp ((guint) reps, min_time, &error);
      else if (g_str_equal (c, "lstm_cell") || g_str_equal (c, "encoder_layer"))
        ok = bench_layer (c, (guint) reps, min_time, &error);
      else if (g_str_equal (c, "state_dict"))
        {
          g_autoptr(GnnModule) model = build_model ((guint) sd_modules, &error);

          ok = model != NULL && check_state_dict (model, (guint) sd_modules, &error) &&
               measure (op_state_dict, model, (guint) reps, min_time, &t, &error);
          if (ok)
            print_result (c, (guint) sd_modules, &t);
        }
      else if (g_str_equal (c, "gobject_floor") || g_str_equal (c, "gobject_floor_data"))
        {
          ok = measure (g_str_equal (c, "gobject_floor") ? op_gobject_floor : op_gobject_floor_data,
                        GUINT_TO_POINTER ((guint) layers), (guint) reps, min_time, &t, &error);
          if (ok)
            print_result (c, (guint) layers, &t);
        }
      else
        {
          g_printerr ("bench-module: unknown case '%s' (known: %s)\n", c, all_cases);
          return 1;
        }
      if (!ok)
        {
          g_printerr ("bench-module: %s: %s\n", c, error->message);
          return 1;
        }
    }
  return 0;
}
