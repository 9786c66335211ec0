/* gnn-weight-norms.c: torch.nn.utils.weight_norm and spectral_norm, the
 * reparametrizations of a module's weight recomputed by a forward pre-hook
 *
 * As in PyTorch: weight_norm replaces the parameter `weight` by `weight_g`
 * (its norm over every dim but `dim`) and `weight_v` (its direction);
 * spectral_norm renames it `weight_orig` and adds the buffers `weight_u`
 * and `weight_v` (the power iteration's vectors). Before every forward the
 * hook computes `weight` from them and keeps it as a plain tensor
 * attribute of the module (gnn_module_set_tensor_attribute), where the
 * layer's forward reads it; it is in no parameter list and no state dict,
 * so the state dict keys are PyTorch's. Each applied reparametrization is
 * remembered on the module (object data) with its hook, so that it can be
 * found and removed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gnn/gnn.h>

#include "nn/gnn-nn-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

typedef enum
{
  WEIGHT_NORM,
  SPECTRAL_NORM,
} Kind;

static const char *const kind_names[] = { "weight_norm", "spectral_norm" };

typedef struct
{
  Kind           kind;
  char          *name;
  gint           dim;                  /* weight_norm: -1 for the whole tensor */
  gint           n_power_iterations;   /* spectral_norm */
  double         eps;
  GnnHookHandle *handle;
} Reparam;

static void
reparam_free (Reparam *r)
{
  g_free (r->name);
  g_clear_object (&r->handle);
  g_free (r);
}

G_DEFINE_QUARK (gnn-weight-reparametrizations, reparams)

/* The reparametrizations applied to @module (created on demand). */
static GPtrArray *
reparams_of (GnnModule *module,
             gboolean   create)
{
  GPtrArray *list = g_object_get_qdata (G_OBJECT (module), reparams_quark ());

  if (list == NULL && create)
    {
      list = g_ptr_array_new_with_free_func ((GDestroyNotify) reparam_free);
      g_object_set_qdata_full (G_OBJECT (module), reparams_quark (), list,
                               (GDestroyNotify) g_ptr_array_unref);
    }
  return list;
}

static Reparam *
find_reparam (GnnModule  *module,
              Kind        kind,
              const char *name)
{
  GPtrArray *list = reparams_of (module, FALSE);

  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      Reparam *r = g_ptr_array_index (list, i);

      if (r->kind == kind && strcmp (r->name, name) == 0)
        return r;
    }
  return NULL;
}

/* "<name><suffix>" */
static char *
member (const Reparam *r,
        const char    *suffix)
{
  return g_strconcat (r->name, suffix, NULL);
}

/* The tensor registered (or kept) under "<name><suffix>". */
static GnnTensor *
lookup (GnnModule     *module,
        const Reparam *r,
        const char    *suffix,
        GError       **error)
{
  g_autofree char *key = member (r, suffix);
  GObject *value = gnn_module_get_child (module, key, error);

  if (value == NULL || !GNN_IS_TENSOR (value))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_KEY, "%s: '%s' is empty", kind_names[r->kind], key);
      return NULL;
    }
  return GNN_TENSOR (value);
}

/* --- weight_norm ------------------------------------------------------------ */

/* PyTorch's norm_except_dim (v, 2, dim): the norm over every dim but @dim,
 * kept as size 1; over the whole tensor for -1. */
static GnnTensor *
norm_except_dim (GnnTensor  *v,
                 gint        dim,
                 GError    **error)
{
  guint ndim = gnn_tensor_get_ndim (v), n = 0;
  gint dims[GNN_MAX_DIMS];

  if (dim == -1)
    return gnn_tensor_norm (v, 2.0, NULL, 0, FALSE, error);
  for (guint d = 0; d < ndim; d++)
    if ((gint) d != dim)
      dims[n++] = (gint) d;
  if (n == 0)                /* a 1-d weight: each element is its own norm */
    return gnn_tensor_abs (v, error);
  return gnn_tensor_norm (v, 2.0, dims, n, TRUE, error);
}

/* v × (g / ‖v‖), PyTorch's _weight_norm */
static GnnTensor *
weight_norm_compute (GnnModule  *module,
                     Reparam    *r,
                     GError    **error)
{
  GnnTensor *g, *v;
  g_autoptr(GnnTensor) norm = NULL;
  g_autoptr(GnnTensor) scale = NULL;

  TRY (g = lookup (module, r, "_g", error));
  TRY (v = lookup (module, r, "_v", error));
  TRY (norm = norm_except_dim (v, r->dim, error));
  TRY (scale = gnn_tensor_div (g, norm, error));
  return gnn_tensor_mul (v, scale, error);
}

/* --- spectral_norm ---------------------------------------------------------- */

/* The weight as a matrix of size(dim) rows (PyTorch's
 * reshape_weight_to_matrix), recorded for autograd. */
static GnnTensor *
weight_matrix (GnnTensor  *weight,
               gint        dim,
               GError    **error)
{
  guint ndim = gnn_tensor_get_ndim (weight);
  g_autoptr(GnnTensor) moved = NULL;
  const gint64 shape[2] = { gnn_tensor_get_size (weight, dim, NULL), -1 };

  if (dim != 0)
    {
      gint perm[GNN_MAX_DIMS];
      guint k = 0;

      perm[k++] = dim;
      for (guint d = 0; d < ndim; d++)
        if ((gint) d != dim)
          perm[k++] = (gint) d;
      TRY (moved = gnn_tensor_permute (weight, perm, ndim, error));
    }
  else
    moved = g_object_ref (weight);
  return gnn_tensor_reshape (moved, shape, 2, error);
}

/* normalize (mat @ x, dim 0) written into @out (the buffer u or v). */
static gboolean
power_step (GnnTensor  *mat,
            GnnTensor  *x,
            double      eps,
            GnnTensor  *out,
            GError    **error)
{
  g_autoptr(GnnTensor) prod = gnn_tensor_matmul (mat, x, error);
  g_autoptr(GnnTensor) unit = prod != NULL ? gnn_normalize (prod, 2.0, 0, eps, error) : NULL;

  return unit != NULL && gnn_tensor_copy_ (out, unit, error);
}

/* W / σ(W) with σ = uᵀ W v; with @power_iteration (training), the power
 * iteration first updates the buffers u and v in place, outside autograd. */
static GnnTensor *
spectral_norm_compute (GnnModule  *module,
                       Reparam    *r,
                       gboolean    power_iteration,
                       GError    **error)
{
  GnnTensor *weight, *u, *v;
  g_autoptr(GnnTensor) mat = NULL;
  g_autoptr(GnnTensor) uc = NULL;
  g_autoptr(GnnTensor) vc = NULL;
  g_autoptr(GnnTensor) wv = NULL;
  g_autoptr(GnnTensor) sigma = NULL;

  TRY (weight = lookup (module, r, "_orig", error));
  TRY (u = lookup (module, r, "_u", error));
  TRY (v = lookup (module, r, "_v", error));
  TRY (mat = weight_matrix (weight, r->dim, error));
  if (power_iteration)
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      g_autoptr(GnnTensor) mat_t = NULL;

      TRY (mat_t = gnn_tensor_transpose (mat, 0, 1, error));
      for (gint i = 0; i < r->n_power_iterations; i++)
        if (!power_step (mat_t, u, r->eps, v, error) || !power_step (mat, v, r->eps, u, error))
          return NULL;
    }
  /* clones: later in-place updates of the buffers must not reach the graph */
  uc = gnn_tensor_clone (u);
  vc = gnn_tensor_clone (v);
  TRY (wv = gnn_tensor_matmul (mat, vc, error));
  TRY (sigma = gnn_tensor_matmul (uc, wv, error));
  return gnn_tensor_div (weight, sigma, error);
}

/* --- the hook --------------------------------------------------------------- */

static GnnTensor *
compute (GnnModule  *module,
         Reparam    *r,
         gboolean    power_iteration,
         GError    **error)
{
  return r->kind == WEIGHT_NORM ? weight_norm_compute (module, r, error)
                                : spectral_norm_compute (module, r, power_iteration, error);
}

/* Before every forward (whatever the call's arguments): the weight from
 * its parts, kept as the plain attribute the layer's forward reads. */
static GnnValue *
recompute_hook (GnnModule  *module,
                GnnValue   *args,
                GnnValue   *kwargs,
                gpointer    user_data,
                GError    **error)
{
  Reparam *r = user_data;
  g_autoptr(GnnTensor) weight = compute (module, r, gnn_module_get_training (module), error);

  if (weight != NULL)
    gnn_module_set_tensor_attribute (module, r->name, weight, error);
  return NULL;
}

/* Registers @r on @module and its hook; the weight is computed once now,
 * as PyTorch sets it at apply time. */
static gboolean
install (GnnModule  *module,
         Reparam    *r,
         GError    **error)
{
  r->handle = gnn_module_register_forward_pre_hook_args (module, recompute_hook, r, NULL,
                                                         GNN_HOOK_FLAGS_NONE);
  g_ptr_array_add (reparams_of (module, TRUE), r);
  return TRUE;
}

/* PyTorch's checks before applying: one hook of a kind per name, and a
 * parameter to reparametrize. */
static GnnParameter *
check_apply (GnnModule  *module,
             Kind        kind,
             const char *name,
             GError    **error)
{
  GObject *weight;

  if (find_reparam (module, kind, name) != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Cannot register two %s hooks on the same parameter %s", kind_names[kind], name);
      return NULL;
    }
  weight = gnn_module_get_child (module, name, error);
  if (weight == NULL && error != NULL && *error != NULL)
    return NULL;
  if (weight == NULL || !GNN_IS_PARAMETER (weight) || gnn_tensor_is_meta (GNN_TENSOR (weight)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "`%s` cannot be applied as parameter `%s` is %s",
                   kind == WEIGHT_NORM ? "WeightNorm" : "SpectralNorm", name,
                   weight == NULL ? "None" : GNN_IS_PARAMETER (weight) ? "uninitialized (meta)"
                                                                        : "not a parameter");
      return NULL;
    }
  return GNN_PARAMETER (weight);
}

/* Registers a new parameter "<name><suffix>" sharing @value's memory. */
static gboolean
register_part (GnnModule  *module,
               Reparam    *r,
               const char *suffix,
               GnnTensor  *value,
               gboolean    as_buffer,
               GError    **error)
{
  g_autofree char *key = member (r, suffix);
  g_autoptr(GnnTensor) detached = gnn_tensor_detach (value);
  g_autoptr(GnnParameter) param = NULL;

  if (as_buffer)
    return gnn_module_register_buffer (module, key, detached, TRUE, error);
  param = gnn_parameter_new (detached, TRUE);
  return gnn_module_register_parameter (module, key, param, error);
}

/**
 * gnn_weight_norm:
 * @module: the module whose parameter is reparametrized
 * @name: the parameter's name (PyTorch's default is `"weight"`)
 * @dim: the dimension the norm is kept per slice of (PyTorch's default is
 *   0: one norm per output channel), or %GNN_NORM_DIM_NONE (or -1) for one
 *   norm of the whole tensor
 * @error: return location for a #GError
 *
 * Weight normalization, like `torch.nn.utils.weight_norm(module, name,
 * dim)`: the parameter @name is replaced by `<name>_g` (its norm over
 * every dim but @dim) and `<name>_v` (the parameter itself), and a forward
 * pre-hook recomputes @name = `v × g / ‖v‖` before every forward, as a
 * plain tensor attribute of @module (see
 * [method@Gnn.Module.set_tensor_attribute]). The state dict holds
 * `<name>_g` and `<name>_v`, PyTorch's keys.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed) if @name is
 *   not a parameter of @module or already has a weight norm ("Cannot
 *   register two weight_norm hooks on the same parameter weight")
 *
 * Since: 0.1
 */
gboolean
gnn_weight_norm (GnnModule   *module,
                 const char  *name,
                 gint         dim,
                 GError     **error)
{
  GnnParameter *weight;
  g_autoptr(GnnTensor) keep = NULL;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) w = NULL;
  Reparam *r;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  if ((weight = check_apply (module, WEIGHT_NORM, name, error)) == NULL)
    return FALSE;
  if (dim == GNN_NORM_DIM_NONE)
    dim = -1;
  if (dim < -1 || dim >= (gint) gnn_tensor_get_ndim (GNN_TENSOR (weight)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "weight_norm: dim %d is out of range for a parameter of %u dimensions", dim,
                   gnn_tensor_get_ndim (GNN_TENSOR (weight)));
      return FALSE;
    }
  keep = g_object_ref (GNN_TENSOR (weight));
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if ((g = norm_except_dim (keep, dim, error)) == NULL)
      return FALSE;
  }
  r = g_new0 (Reparam, 1);
  r->kind = WEIGHT_NORM, r->name = g_strdup (name), r->dim = dim;
  if (!gnn_module_delete_child (module, name, error) ||
      !register_part (module, r, "_g", g, FALSE, error) ||
      !register_part (module, r, "_v", keep, FALSE, error) ||
      (w = weight_norm_compute (module, r, error)) == NULL ||
      !gnn_module_set_tensor_attribute (module, name, w, error))
    {
      reparam_free (r);
      return FALSE;
    }
  return install (module, r, error);
}

/* Removes @r: the weight computed once more becomes the parameter @name
 * again (appended, as PyTorch registers it anew). */
static gboolean
uninstall (GnnModule   *module,
           Kind         kind,
           const char  *name,
           const char *const *parts,
           GError     **error)
{
  Reparam *r = find_reparam (module, kind, name);
  g_autoptr(GnnTensor) weight = NULL;
  g_autoptr(GnnTensor) detached = NULL;
  g_autoptr(GnnParameter) param = NULL;

  if (r == NULL)
    {
      g_autofree char *repr = gnn_module_to_string (module);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s of '%s' not found in %s",
                   kind_names[kind], name, repr);
      return FALSE;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if ((weight = compute (module, r, FALSE, error)) == NULL)
      return FALSE;
  }
  gnn_hook_handle_remove (r->handle);
  gnn_module_set_tensor_attribute (module, name, NULL, NULL);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *key = member (r, parts[i]);

      gnn_module_delete_child (module, key, NULL);
    }
  detached = gnn_tensor_detach (weight);
  param = gnn_parameter_new (detached, TRUE);
  g_ptr_array_remove (reparams_of (module, FALSE), r);
  return gnn_module_register_parameter (module, name, param, error);
}

/**
 * gnn_remove_weight_norm:
 * @module: a module with a weight norm on @name
 * @name: the reparametrized parameter's name
 * @error: return location for a #GError
 *
 * Undoes [func@Gnn.weight_norm], like
 * `torch.nn.utils.remove_weight_norm(module, name)`: @name is a parameter
 * again, holding the current `v × g / ‖v‖`, and `<name>_g`, `<name>_v` and
 * the hook are gone.
 *
 * Returns: %TRUE, or %FALSE with @error set if @module has no weight norm
 *   on @name ("weight_norm of 'weight' not found in Linear(...)")
 *
 * Since: 0.1
 */
gboolean
gnn_remove_weight_norm (GnnModule   *module,
                        const char  *name,
                        GError     **error)
{
  static const char *const parts[] = { "_g", "_v", NULL };

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return uninstall (module, WEIGHT_NORM, name, parts, error);
}

/* A standard normal vector of @n elements, normalized (PyTorch's initial
 * u and v). */
static GnnTensor *
random_unit (gint64         n,
             GnnDType       dtype,
             double         eps,
             GnnGenerator  *generator,
             GError       **error)
{
  g_autoptr(GnnTensor) draws = gnn_tensor_zeros (&n, 1, dtype, error);

  if (draws == NULL || !gnn_tensor_normal_ (draws, 0.0, 1.0, generator, error))
    return NULL;
  return gnn_normalize (draws, 2.0, 0, eps, error);
}

/**
 * gnn_spectral_norm:
 * @module: the module whose parameter is reparametrized
 * @name: the parameter's name (PyTorch's default is `"weight"`)
 * @n_power_iterations: the power iterations per forward in training
 *   (PyTorch's default is 1), positive
 * @eps: the smallest norm divided by when normalizing (PyTorch's default
 *   is 1e-12)
 * @dim: the dimension of the output channels, or %GNN_NORM_DIM_NONE for
 *   PyTorch's choice (1 for the transposed convolutions, else 0)
 * @generator: (nullable): the generator of the initial vectors u and v;
 *   %NULL for the default
 * @error: return location for a #GError
 *
 * Spectral normalization, like `torch.nn.utils.spectral_norm(module, name,
 * n_power_iterations, eps, dim)`: the parameter @name is renamed
 * `<name>_orig`, the buffers `<name>_u` and `<name>_v` hold the power
 * iteration's vectors, and a forward pre-hook computes @name =
 * `W / σ(W)` before every forward (σ estimated as `uᵀ W v`, after
 * @n_power_iterations steps of the power iteration when the module is
 * training), as a plain tensor attribute of @module. The state dict holds
 * `<name>_orig`, `<name>_u` and `<name>_v`, PyTorch's keys.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed) if
 *   @n_power_iterations is not positive, @name is not a parameter or
 *   already has a spectral norm
 *
 * Since: 0.1
 */
gboolean
gnn_spectral_norm (GnnModule     *module,
                   const char    *name,
                   gint           n_power_iterations,
                   double         eps,
                   gint           dim,
                   GnnGenerator  *generator,
                   GError       **error)
{
  GnnParameter *weight;
  g_autoptr(GnnParameter) keep = NULL;
  g_autoptr(GnnTensor) mat = NULL;
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) w = NULL;
  g_autofree char *orig = NULL;
  GnnDType dtype;
  Reparam *r;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  if (n_power_iterations <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected n_power_iterations to be positive, but got n_power_iterations=%d",
                   n_power_iterations);
      return FALSE;
    }
  if ((weight = check_apply (module, SPECTRAL_NORM, name, error)) == NULL)
    return FALSE;
  if (dim == GNN_NORM_DIM_NONE)
    dim = g_str_has_prefix (G_OBJECT_TYPE_NAME (module), "GnnConvTranspose") ? 1 : 0;
  if (dim < 0 || dim >= (gint) MAX (gnn_tensor_get_ndim (GNN_TENSOR (weight)), 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "spectral_norm: dim %d is out of range for a parameter of %u dimensions", dim,
                   gnn_tensor_get_ndim (GNN_TENSOR (weight)));
      return FALSE;
    }
  keep = g_object_ref (weight);
  dtype = gnn_tensor_get_dtype (GNN_TENSOR (keep));
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if ((mat = weight_matrix (GNN_TENSOR (keep), dim, error)) == NULL ||
        (u = random_unit (gnn_tensor_get_size (mat, 0, NULL), dtype, eps, generator, error)) == NULL ||
        (v = random_unit (gnn_tensor_get_size (mat, 1, NULL), dtype, eps, generator, error)) == NULL)
      return FALSE;
  }
  r = g_new0 (Reparam, 1);
  r->kind = SPECTRAL_NORM, r->name = g_strdup (name), r->dim = dim;
  r->n_power_iterations = n_power_iterations, r->eps = eps;
  orig = member (r, "_orig");
  if (!gnn_module_delete_child (module, name, error) ||
      !gnn_module_register_parameter (module, orig, keep, error) ||
      /* PyTorch keeps weight.data as the attribute until the first forward */
      (w = gnn_tensor_detach (GNN_TENSOR (keep))) == NULL ||
      !gnn_module_set_tensor_attribute (module, name, w, error) ||
      !register_part (module, r, "_u", u, TRUE, error) ||
      !register_part (module, r, "_v", v, TRUE, error))
    {
      reparam_free (r);
      return FALSE;
    }
  return install (module, r, error);
}

/**
 * gnn_remove_spectral_norm:
 * @module: a module with a spectral norm on @name
 * @name: the reparametrized parameter's name
 * @error: return location for a #GError
 *
 * Undoes [func@Gnn.spectral_norm], like
 * `torch.nn.utils.remove_spectral_norm(module, name)`: @name is a
 * parameter again, holding the current `W / σ(W)` (without another power
 * iteration), and `<name>_orig`, `<name>_u`, `<name>_v` and the hook are
 * gone.
 *
 * Returns: %TRUE, or %FALSE with @error set if @module has no spectral norm
 *   on @name ("spectral_norm of 'weight' not found in Linear(...)")
 *
 * Since: 0.1
 */
gboolean
gnn_remove_spectral_norm (GnnModule   *module,
                          const char  *name,
                          GError     **error)
{
  static const char *const parts[] = { "_u", "_v", "_orig", NULL };

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return uninstall (module, SPECTRAL_NORM, name, parts, error);
}
