/* mixins.c: a module composed of mixins, with a diamond
 *
 * A mixin is a GInterface whose prerequisite is GnnModule and which
 * registers a per-instance init with gnn_mixin_register();
 * GNN_DEFINE_MIXIN() writes both, GNN_IMPLEMENT_MIXIN() adds one to a
 * module type. Here:
 *
 *            HasStep            (registers buffer "step")
 *           /       \
 *     HasScale     HasShift     (parameters "scale" and "shift")
 *           \       /
 *           ScaleShift          (a module implementing both)
 *
 * HasStep is reached twice, through HasScale and through HasShift, yet its
 * init runs once per instance, before the inits that depend on it: GnnModule
 * walks g_type_interfaces() of the final type, which lists each interface
 * once, prerequisites first. (Python's cooperative __init__ needs every class
 * to call super().__init__() exactly right for the same guarantee.)
 *
 * Exits 1 if the guarantee does not hold, so it runs as a test.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

static int step_inits;   /* how many times HasStep's init ran */

/* --- HasStep: the shared prerequisite ------------------------------------- */

#define EX_TYPE_HAS_STEP (ex_has_step_get_type ())
G_DECLARE_INTERFACE (ExHasStep, ex_has_step, EX, HAS_STEP, GnnModule)

/* Runs from GnnModule's instance init: the registry exists, the subclass's
 * own instance init has not run yet. */
static void
has_step_init (GnnModule *module, gpointer user_data)
{
  g_autoptr(GnnTensor) step = gnn_tensor_new_scalar (0, GNN_DTYPE_I64);

  step_inits++;
  /* A buffer, not a parameter: part of the state dict, not trained. */
  gnn_module_register_buffer (module, "step", step, TRUE, NULL);
}

/* The interface type, whose default_init (run once per interface type)
 * registers has_step_init with gnn_mixin_register(). */
GNN_DEFINE_MIXIN (ExHasStep, ex_has_step, GNN_TYPE_MODULE, has_step_init)

/* --- HasScale and HasShift: two mixins requiring HasStep -------------------- */

#define EX_TYPE_HAS_SCALE (ex_has_scale_get_type ())
G_DECLARE_INTERFACE (ExHasScale, ex_has_scale, EX, HAS_SCALE, GnnModule)

static void
has_scale_init (GnnModule *module, gpointer user_data)
{
  const float one = 1;
  const gint64 shape = 1;
  g_autoptr(GnnTensor) data = gnn_tensor_new_from_floats (&one, 1, &shape, 1, NULL);
  g_autoptr(GnnParameter) scale = gnn_parameter_new (data, TRUE);

  /* The prerequisite ran first, so this mixin may rely on it. */
  g_assert (gnn_module_has_child (module, "step"));
  gnn_module_register_parameter (module, "scale", scale, NULL);
}

GNN_DEFINE_MIXIN (ExHasScale, ex_has_scale, EX_TYPE_HAS_STEP, has_scale_init)

#define EX_TYPE_HAS_SHIFT (ex_has_shift_get_type ())
G_DECLARE_INTERFACE (ExHasShift, ex_has_shift, EX, HAS_SHIFT, GnnModule)

static void
has_shift_init (GnnModule *module, gpointer user_data)
{
  const float zero = 0;
  const gint64 shape = 1;
  g_autoptr(GnnTensor) data = gnn_tensor_new_from_floats (&zero, 1, &shape, 1, NULL);
  g_autoptr(GnnParameter) shift = gnn_parameter_new (data, TRUE);

  g_assert (gnn_module_has_child (module, "step"));
  gnn_module_register_parameter (module, "shift", shift, NULL);
}

GNN_DEFINE_MIXIN (ExHasShift, ex_has_shift, EX_TYPE_HAS_STEP, has_shift_init)

/* --- ScaleShift: the diamond -------------------------------------------------- */

#define EX_TYPE_SCALE_SHIFT (ex_scale_shift_get_type ())
G_DECLARE_FINAL_TYPE (ExScaleShift, ex_scale_shift, EX, SCALE_SHIFT, GnnModule)
struct _ExScaleShift { GnnModule parent_instance; };

/* GObject wants a prerequisite interface added before the interfaces that
 * require it, so HasStep is listed first. It is still one interface of the
 * type, hence one init, however many mixins require it. */
G_DEFINE_FINAL_TYPE_WITH_CODE (ExScaleShift, ex_scale_shift, GNN_TYPE_MODULE,
                               GNN_IMPLEMENT_MIXIN (EX_TYPE_HAS_STEP)
                               GNN_IMPLEMENT_MIXIN (EX_TYPE_HAS_SCALE)
                               GNN_IMPLEMENT_MIXIN (EX_TYPE_HAS_SHIFT))

/* forward: x * scale + shift, with the children the mixins registered. */
static GnnTensor *
ex_scale_shift_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  GnnParameter *scale, *shift;
  g_autoptr(GnnTensor) scaled = NULL;

  /* (transfer none): the registry keeps them alive. */
  if ((scale = gnn_module_get_parameter (module, "scale", error)) == NULL ||
      (shift = gnn_module_get_parameter (module, "shift", error)) == NULL)
    return NULL;
  scaled = gnn_tensor_mul (input, GNN_TENSOR (scale), error);
  if (scaled == NULL)
    return NULL;
  return gnn_tensor_add (scaled, GNN_TENSOR (shift), error);
}

static void
ex_scale_shift_class_init (ExScaleShiftClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = ex_scale_shift_forward;
}

/* By the time the subclass's own init runs, every mixin child exists. */
static void
ex_scale_shift_init (ExScaleShift *self)
{
}

int
main (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = g_object_new (EX_TYPE_SCALE_SHIFT, NULL);
  g_autoptr(GnnModule) b = g_object_new (EX_TYPE_SCALE_SHIFT, NULL);
  g_autoptr(GnnStateDict) state = gnn_module_state_dict (a);
  g_auto(GStrv) keys = gnn_state_dict_get_keys (state);
  g_autofree char *joined = g_strjoinv (", ", keys);
  const float xs[] = { 1, 2, 3 };
  const gint64 shape = 3;
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats (xs, 3, &shape, 1, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autofree char *text = NULL;

  /* Two instances, one HasStep init each: once per instance, not per path
   * through the diamond. */
  g_print ("HasStep inits for 2 instances: %d\n", step_inits);
  /* Parameters first, then persistent buffers, as in PyTorch. */
  g_print ("state dict keys: %s\n", joined);

  y = gnn_module_call (a, x, &error);
  if (y == NULL)
    {
      g_printerr ("forward failed: %s\n", error->message);
      return 1;
    }
  text = gnn_tensor_to_string (y);
  g_print ("a(%s) = %s\n", "[1, 2, 3]", text);

  return step_inits == 2 && g_strcmp0 (joined, "scale, shift, step") == 0 ? 0 : 1;
}
