/* gnn-init.c: torch.nn.init — the gains and fans, and the initializers,
 * each filling a tensor in place outside autograd (torch's no_grad) from a
 * generator (NULL: the default one)
 *
 * The random fills are the tensor's own uniform_ / normal_; the others
 * compute their values row-major in double and copy them in, so any view
 * (strides, offsets) is filled as PyTorch fills it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gnn/gnn.h>

#include "tensor/gnn-tensor-private.h"

/* Every initializer runs as torch's under torch.no_grad(). */
#define NO_GRAD g_autoptr(GnnNoGradGuard) no_grad_guard = gnn_no_grad_guard_new ()

static gboolean
fail (GError    **error,
      const char *message)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, message);
  return FALSE;
}

/**
 * gnn_init_calculate_gain:
 * @nonlinearity: the function after the layer: `"linear"`, `"conv1d"` ..
 *   `"conv_transpose3d"`, `"sigmoid"`, `"tanh"`, `"relu"`, `"leaky_relu"` or
 *   `"selu"`
 * @param: the negative slope of `"leaky_relu"`, or NAN for PyTorch's `None`
 *   (0.01)
 * @error: return location for a #GError
 *
 * The recommended gain for @nonlinearity, like
 * `torch.nn.init.calculate_gain(nonlinearity, param)`: 1 for the linear
 * functions and sigmoid, 5/3 for tanh, √2 for relu, √(2 / (1 + slope²)) for
 * leaky_relu, 3/4 for selu.
 *
 * Returns: the gain, or 0 with @error set for another @nonlinearity
 *   ("Unsupported nonlinearity foo")
 *
 * Since: 0.1
 */
double
gnn_init_calculate_gain (const char  *nonlinearity,
                         double       param,
                         GError     **error)
{
  static const char *const linear[] = {
    "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "sigmoid",
  };

  g_return_val_if_fail (nonlinearity != NULL, 0);
  for (guint i = 0; i < G_N_ELEMENTS (linear); i++)
    if (strcmp (nonlinearity, linear[i]) == 0)
      return 1.0;
  if (strcmp (nonlinearity, "tanh") == 0)
    return 5.0 / 3;
  if (strcmp (nonlinearity, "relu") == 0)
    return sqrt (2.0);
  if (strcmp (nonlinearity, "leaky_relu") == 0)
    {
      double slope = isnan (param) ? 0.01 : param;

      return sqrt (2.0 / (1 + slope * slope));
    }
  if (strcmp (nonlinearity, "selu") == 0)
    return 3.0 / 4;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Unsupported nonlinearity %s",
               nonlinearity);
  return 0;
}

/**
 * gnn_init_calculate_fan_in_and_fan_out:
 * @tensor: a weight of at least 2 dimensions
 * @fan_in: (out): size(1) times the receptive field (the product of the
 *   sizes from dimension 2 on)
 * @fan_out: (out): size(0) times the receptive field
 * @error: return location for a #GError
 *
 * PyTorch's `torch.nn.init._calculate_fan_in_and_fan_out(tensor)`.
 *
 * Returns: %TRUE, or %FALSE with @error set for fewer than 2 dimensions
 *   ("Fan in and fan out can not be computed for tensor with fewer than 2
 *   dimensions")
 *
 * Since: 0.1
 */
gboolean
gnn_init_calculate_fan_in_and_fan_out (GnnTensor *tensor,
                                       gint64    *fan_in,
                                       gint64    *fan_out,
                                       GError   **error)
{
  guint ndim = 0;
  const gint64 *shape;
  gint64 receptive = 1;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  shape = gnn_tensor_get_shape (tensor, &ndim);
  if (ndim < 2)
    return fail (error, "Fan in and fan out can not be computed for tensor with fewer than 2 "
                 "dimensions");
  for (guint d = 2; d < ndim; d++)
    receptive *= shape[d];
  if (fan_in != NULL)
    *fan_in = shape[1] * receptive;
  if (fan_out != NULL)
    *fan_out = shape[0] * receptive;
  return TRUE;
}

/**
 * gnn_init_uniform_:
 * @tensor: a floating-point tensor, filled in place
 * @a: the lower bound
 * @b: the upper bound
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * Fills @tensor from U(@a, @b) outside autograd, like
 * `torch.nn.init.uniform_(tensor, a, b)`.
 *
 * Returns: %TRUE, or %FALSE with @error set (see [method@Gnn.Tensor.uniform_])
 *
 * Since: 0.1
 */
gboolean
gnn_init_uniform_ (GnnTensor     *tensor,
                   double         a,
                   double         b,
                   GnnGenerator  *generator,
                   GError       **error)
{
  NO_GRAD;

  return gnn_tensor_uniform_ (tensor, a, b, generator, error);
}

/**
 * gnn_init_normal_:
 * @tensor: a floating-point tensor, filled in place
 * @mean: the mean
 * @std: the standard deviation
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * Fills @tensor from N(@mean, @std²) outside autograd, like
 * `torch.nn.init.normal_(tensor, mean, std)`.
 *
 * Returns: %TRUE, or %FALSE with @error set (see [method@Gnn.Tensor.normal_])
 *
 * Since: 0.1
 */
gboolean
gnn_init_normal_ (GnnTensor     *tensor,
                  double         mean,
                  double         std,
                  GnnGenerator  *generator,
                  GError       **error)
{
  NO_GRAD;

  return gnn_tensor_normal_ (tensor, mean, std, generator, error);
}

/* The inverse error function: a rational first guess refined by two Newton
 * steps (full double precision on (-1, 1)). */
static double
erfinv (double y)
{
  double w, x;

  if (y <= -1)
    return y == -1 ? -INFINITY : NAN;
  if (y >= 1)
    return y == 1 ? INFINITY : NAN;
  w = -log ((1 - y) * (1 + y));
  if (w < 5)
    {
      w -= 2.5;
      x = 2.81022636e-08;
      x = 3.43273939e-07 + x * w;
      x = -3.5233877e-06 + x * w;
      x = -4.39150654e-06 + x * w;
      x = 0.00021858087 + x * w;
      x = -0.00125372503 + x * w;
      x = -0.00417768164 + x * w;
      x = 0.246640727 + x * w;
      x = 1.50140941 + x * w;
    }
  else
    {
      w = sqrt (w) - 3;
      x = -0.000200214257;
      x = 0.000100950558 + x * w;
      x = 0.00134934322 + x * w;
      x = -0.00367342844 + x * w;
      x = 0.00573950773 + x * w;
      x = -0.0076224613 + x * w;
      x = 0.00943887047 + x * w;
      x = 1.00167406 + x * w;
      x = 2.83297682 + x * w;
    }
  x *= y;
  for (int i = 0; i < 2; i++)
    x -= (erf (x) - y) / (M_2_SQRTPI * exp (-x * x));
  return x;
}

/* Writes @values (row-major, @tensor's element count) into @tensor. */
static gboolean
write_values (GnnTensor     *tensor,
              const double  *values,
              GError    **error)
{
  guint ndim = 0;
  const gint64 *shape = gnn_tensor_get_shape (tensor, &ndim);
  g_autoptr(GnnTensor) src = gnn_tensor_new_from_doubles (values, (gsize) gnn_tensor_get_numel (tensor),
                                                          shape, ndim, error);

  return src != NULL && gnn_tensor_copy_values_ (tensor, src, error);
}

/* The cumulative distribution function of the standard normal. */
static double
norm_cdf (double x)
{
  return (1 + erf (x / G_SQRT2)) / 2;
}

/**
 * gnn_init_trunc_normal_:
 * @tensor: a floating-point tensor, filled in place
 * @mean: the mean of the normal distribution
 * @std: its standard deviation
 * @a: the lower cutoff
 * @b: the upper cutoff
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * Fills @tensor from N(@mean, @std²) truncated to [@a, @b] outside
 * autograd, like `torch.nn.init.trunc_normal_(tensor, mean, std, a, b)`,
 * and with its method: a uniform draw between the cutoffs' cumulative
 * probabilities mapped through the inverse CDF, then clamped to [@a, @b].
 *
 * Returns: %TRUE, or %FALSE with @error set for a non-float @tensor
 *
 * Since: 0.1
 */
gboolean
gnn_init_trunc_normal_ (GnnTensor     *tensor,
                        double         mean,
                        double         std,
                        double         a,
                        double         b,
                        GnnGenerator  *generator,
                        GError       **error)
{
  double l = norm_cdf ((a - mean) / std), u = norm_cdf ((b - mean) / std);
  g_autofree double *v = NULL;
  gsize n = 0;
  NO_GRAD;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  if (!gnn_tensor_uniform_ (tensor, 2 * l - 1, 2 * u - 1, generator, error))
    return FALSE;
  if (gnn_tensor_is_meta (tensor))
    return TRUE;
  v = gnn_tensor_to_doubles (tensor, &n);
  for (gsize i = 0; i < n; i++)
    v[i] = CLAMP (erfinv (v[i]) * std * G_SQRT2 + mean, a, b);
  return write_values (tensor, v, error);
}

/**
 * gnn_init_constant_:
 * @tensor: a tensor, filled in place
 * @val: the value
 * @error: return location for a #GError
 *
 * Fills @tensor with @val outside autograd, like
 * `torch.nn.init.constant_(tensor, val)`.
 *
 * Returns: %TRUE, or %FALSE with @error set (see [method@Gnn.Tensor.fill_])
 *
 * Since: 0.1
 */
gboolean
gnn_init_constant_ (GnnTensor  *tensor,
                    double      val,
                    GError    **error)
{
  NO_GRAD;

  return gnn_tensor_fill_ (tensor, val, error);
}

/**
 * gnn_init_ones_:
 * @tensor: a tensor, filled in place
 * @error: return location for a #GError
 *
 * Fills @tensor with ones outside autograd, like `torch.nn.init.ones_`.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_init_ones_ (GnnTensor  *tensor,
                GError    **error)
{
  return gnn_init_constant_ (tensor, 1.0, error);
}

/**
 * gnn_init_zeros_:
 * @tensor: a tensor, filled in place
 * @error: return location for a #GError
 *
 * Fills @tensor with zeros outside autograd, like `torch.nn.init.zeros_`.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_init_zeros_ (GnnTensor  *tensor,
                 GError    **error)
{
  return gnn_init_constant_ (tensor, 0.0, error);
}

/**
 * gnn_init_eye_:
 * @tensor: a 2-dimensional tensor, filled in place
 * @error: return location for a #GError
 *
 * Fills @tensor with the identity matrix (ones on the diagonal, zeros
 * elsewhere) outside autograd, like `torch.nn.init.eye_(tensor)`.
 *
 * Returns: %TRUE, or %FALSE with @error set for another number of
 *   dimensions ("Only tensors with 2 dimensions are supported")
 *
 * Since: 0.1
 */
gboolean
gnn_init_eye_ (GnnTensor  *tensor,
               GError    **error)
{
  guint ndim = 0;
  const gint64 *shape;
  g_autofree double *v = NULL;
  NO_GRAD;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  shape = gnn_tensor_get_shape (tensor, &ndim);
  if (ndim != 2)
    return fail (error, "Only tensors with 2 dimensions are supported");
  if (gnn_tensor_is_meta (tensor))
    return TRUE;
  v = g_new0 (double, MAX (shape[0] * shape[1], 1));
  for (gint64 i = 0; i < MIN (shape[0], shape[1]); i++)
    v[i * shape[1] + i] = 1;
  return write_values (tensor, v, error);
}

/**
 * gnn_init_dirac_:
 * @tensor: a convolution weight of 3, 4 or 5 dimensions, filled in place
 * @groups: the number of groups of the convolution (PyTorch's default is 1)
 * @error: return location for a #GError
 *
 * Fills @tensor with the Dirac delta outside autograd, like
 * `torch.nn.init.dirac_(tensor, groups)`: a convolution with it keeps the
 * identity of as many input channels as it can in each group (1 at the
 * centre of the kernel for output channel `g × out/groups + d` and input
 * channel d).
 *
 * Returns: %TRUE, or %FALSE with @error set (PyTorch's messages) for
 *   another number of dimensions or a size(0) not divisible by @groups
 *
 * Since: 0.1
 */
gboolean
gnn_init_dirac_ (GnnTensor  *tensor,
                 gint64      groups,
                 GError    **error)
{
  guint ndim = 0;
  const gint64 *shape;
  gint64 per_group, min_dim, numel, strides[GNN_MAX_DIMS];
  g_autofree double *v = NULL;
  NO_GRAD;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  shape = gnn_tensor_get_shape (tensor, &ndim);
  if (ndim < 3 || ndim > 5)
    return fail (error, "Only tensors with 3, 4, or 5 dimensions are supported");
  if (groups <= 0 || shape[0] % groups != 0)
    return fail (error, "dim 0 must be divisible by groups");
  if (gnn_tensor_is_meta (tensor))
    return TRUE;
  per_group = shape[0] / groups;
  min_dim = MIN (per_group, shape[1]);
  numel = gnn_tensor_get_numel (tensor);
  gnn_contiguous_strides (shape, ndim, strides);
  v = g_new0 (double, MAX (numel, 1));
  for (gint64 g = 0; g < groups; g++)
    for (gint64 d = 0; d < min_dim; d++)
      {
        gint64 at = (g * per_group + d) * strides[0] + d * strides[1];

        for (guint k = 2; k < ndim; k++)
          at += shape[k] / 2 * strides[k];
        v[at] = 1;
      }
  return write_values (tensor, v, error);
}

/* The fan PyTorch's kaiming initializers use: "fan_in" or "fan_out". */
static gboolean
correct_fan (GnnTensor   *tensor,
             const char  *mode,
             double      *fan,
             GError     **error)
{
  g_autofree char *lower = g_ascii_strdown (mode != NULL ? mode : "fan_in", -1);
  gint64 fan_in = 0, fan_out = 0;

  if (strcmp (lower, "fan_in") != 0 && strcmp (lower, "fan_out") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Mode %s not supported, please use one of ['fan_in', 'fan_out']", lower);
      return FALSE;
    }
  if (!gnn_init_calculate_fan_in_and_fan_out (tensor, &fan_in, &fan_out, error))
    return FALSE;
  *fan = (double) (strcmp (lower, "fan_in") == 0 ? fan_in : fan_out);
  return TRUE;
}

/* The standard deviation of xavier_* (Glorot): gain √(2 / (fan_in + fan_out)). */
static gboolean
xavier_std (GnnTensor  *tensor,
            double      gain,
            double     *std,
            GError    **error)
{
  gint64 fan_in = 0, fan_out = 0;

  if (!gnn_init_calculate_fan_in_and_fan_out (tensor, &fan_in, &fan_out, error))
    return FALSE;
  *std = gain * sqrt (2.0 / (double) (fan_in + fan_out));
  return TRUE;
}

/**
 * gnn_init_xavier_uniform_:
 * @tensor: a weight of at least 2 dimensions, filled in place
 * @gain: the scaling factor (PyTorch's default is 1)
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * Glorot initialization, like `torch.nn.init.xavier_uniform_(tensor, gain)`:
 * U(-a, a) with a = gain × √(6 / (fan_in + fan_out)).
 *
 * Returns: %TRUE, or %FALSE with @error set for fewer than 2 dimensions
 *
 * Since: 0.1
 */
gboolean
gnn_init_xavier_uniform_ (GnnTensor     *tensor,
                          double         gain,
                          GnnGenerator  *generator,
                          GError       **error)
{
  double std;

  if (!xavier_std (tensor, gain, &std, error))
    return FALSE;
  return gnn_init_uniform_ (tensor, -sqrt (3.0) * std, sqrt (3.0) * std, generator, error);
}

/**
 * gnn_init_xavier_normal_:
 * @tensor: a weight of at least 2 dimensions, filled in place
 * @gain: the scaling factor (PyTorch's default is 1)
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * Glorot initialization, like `torch.nn.init.xavier_normal_(tensor, gain)`:
 * N(0, std²) with std = gain × √(2 / (fan_in + fan_out)).
 *
 * Returns: %TRUE, or %FALSE with @error set for fewer than 2 dimensions
 *
 * Since: 0.1
 */
gboolean
gnn_init_xavier_normal_ (GnnTensor     *tensor,
                         double         gain,
                         GnnGenerator  *generator,
                         GError       **error)
{
  double std;

  if (!xavier_std (tensor, gain, &std, error))
    return FALSE;
  return gnn_init_normal_ (tensor, 0.0, std, generator, error);
}

/* He initialization: U(-√3 std, √3 std) (@uniform) or N(0, std²) with
 * std = gain / √fan; a tensor with no elements is left as is (PyTorch warns
 * and returns). */
static gboolean
kaiming_fill (GnnTensor     *tensor,
              double         a,
              const char    *mode,
              const char    *nonlinearity,
              GnnGenerator  *generator,
              gboolean       uniform,
              GError       **error)
{
  double fan = 0, gain, std;
  GError *local = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  if (gnn_tensor_get_numel (tensor) == 0)
    return TRUE;
  if (!correct_fan (tensor, mode, &fan, error))
    return FALSE;
  gain = gnn_init_calculate_gain (nonlinearity != NULL ? nonlinearity : "leaky_relu", a, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  std = gain / sqrt (fan);
  return uniform ? gnn_init_uniform_ (tensor, -sqrt (3.0) * std, sqrt (3.0) * std, generator, error)
                 : gnn_init_normal_ (tensor, 0.0, std, generator, error);
}

/**
 * gnn_init_kaiming_uniform_:
 * @tensor: a weight of at least 2 dimensions, filled in place
 * @a: the negative slope of the leaky_relu after the layer (only used with
 *   `"leaky_relu"`; PyTorch's default is 0)
 * @mode: (nullable): `"fan_in"` (the default: the variance of the forward
 *   pass is kept) or `"fan_out"` (that of the backward pass)
 * @nonlinearity: (nullable): the function after the layer, as
 *   [func@Gnn.init_calculate_gain] takes it (%NULL: `"leaky_relu"`)
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * He initialization, like
 * `torch.nn.init.kaiming_uniform_(tensor, a, mode, nonlinearity)`: U(-b, b)
 * with b = gain × √(3 / fan). A tensor without elements is left as is.
 *
 * Returns: %TRUE, or %FALSE with @error set (PyTorch's messages) for fewer
 *   than 2 dimensions, another @mode or @nonlinearity
 *
 * Since: 0.1
 */
gboolean
gnn_init_kaiming_uniform_ (GnnTensor     *tensor,
                           double         a,
                           const char    *mode,
                           const char    *nonlinearity,
                           GnnGenerator  *generator,
                           GError       **error)
{
  return kaiming_fill (tensor, a, mode, nonlinearity, generator, TRUE, error);
}

/**
 * gnn_init_kaiming_normal_:
 * @tensor: a weight of at least 2 dimensions, filled in place
 * @a: the negative slope of the leaky_relu after the layer (only used with
 *   `"leaky_relu"`; PyTorch's default is 0)
 * @mode: (nullable): `"fan_in"` (the default) or `"fan_out"`
 * @nonlinearity: (nullable): the function after the layer (%NULL:
 *   `"leaky_relu"`)
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * He initialization, like
 * `torch.nn.init.kaiming_normal_(tensor, a, mode, nonlinearity)`:
 * N(0, std²) with std = gain / √fan. A tensor without elements is left as
 * is.
 *
 * Returns: %TRUE, or %FALSE with @error set (PyTorch's messages)
 *
 * Since: 0.1
 */
gboolean
gnn_init_kaiming_normal_ (GnnTensor     *tensor,
                          double         a,
                          const char    *mode,
                          const char    *nonlinearity,
                          GnnGenerator  *generator,
                          GError       **error)
{
  return kaiming_fill (tensor, a, mode, nonlinearity, generator, FALSE, error);
}

/* Q of the QR factorization of the m × n matrix @a (m >= n, row-major,
 * overwritten) by Householder reflections, into @q (m × n), with its
 * columns' signs making R's diagonal positive (PyTorch multiplies Q by
 * sign (diag (R))). */
static void
householder_q (double *a,
               gint64  m,
               gint64  n,
               double *q)
{
  g_autofree double *vs = g_new0 (double, MAX (m * n, 1));
  g_autofree double *diag = g_new0 (double, MAX (n, 1));

  for (gint64 k = 0; k < n; k++)
    {
      double norm = 0, alpha, vnorm = 0;
      double *v = vs + k * m;

      for (gint64 i = k; i < m; i++)
        norm += a[i * n + k] * a[i * n + k];
      norm = sqrt (norm);
      alpha = a[k * n + k] > 0 ? -norm : norm;
      for (gint64 i = k; i < m; i++)
        v[i] = a[i * n + k];
      v[k] -= alpha;
      for (gint64 i = k; i < m; i++)
        vnorm += v[i] * v[i];
      if (vnorm > 0)
        for (gint64 j = k; j < n; j++)
          {
            double dot = 0;

            for (gint64 i = k; i < m; i++)
              dot += v[i] * a[i * n + j];
            dot = 2 * dot / vnorm;
            for (gint64 i = k; i < m; i++)
              a[i * n + j] -= dot * v[i];
          }
      for (gint64 i = k; i < m; i++)     /* keep v normalized for Q */
        v[i] = vnorm > 0 ? v[i] / sqrt (vnorm) : 0;
      diag[k] = a[k * n + k];
    }
  /* Q = H_0 ... H_{n-1} applied to the first n columns of the identity */
  for (gint64 i = 0; i < m; i++)
    for (gint64 j = 0; j < n; j++)
      q[i * n + j] = i == j;
  for (gint64 k = n - 1; k >= 0; k--)
    {
      const double *v = vs + k * m;

      for (gint64 j = 0; j < n; j++)
        {
          double dot = 0;

          for (gint64 i = k; i < m; i++)
            dot += v[i] * q[i * n + j];
          for (gint64 i = k; i < m; i++)
            q[i * n + j] -= 2 * dot * v[i];
        }
    }
  for (gint64 j = 0; j < n; j++)
    if (diag[j] < 0)
      for (gint64 i = 0; i < m; i++)
        q[i * n + j] = -q[i * n + j];
}

/**
 * gnn_init_orthogonal_:
 * @tensor: a tensor of at least 2 dimensions, filled in place
 * @gain: the scaling factor (PyTorch's default is 1)
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * Fills @tensor, seen as a matrix of size(0) rows, with a (semi-)orthogonal
 * matrix times @gain, like `torch.nn.init.orthogonal_(tensor, gain)` and by
 * its method: the Q of the QR factorization of a standard normal matrix
 * (transposed when it is wide), its columns' signs set so that R's
 * diagonal is positive. Its rows (or columns, whichever are fewer) are
 * orthonormal. A tensor without elements is left as is.
 *
 * Returns: %TRUE, or %FALSE with @error set for fewer than 2 dimensions
 *   ("Only tensors with 2 or more dimensions are supported")
 *
 * Since: 0.1
 */
gboolean
gnn_init_orthogonal_ (GnnTensor     *tensor,
                      double         gain,
                      GnnGenerator  *generator,
                      GError       **error)
{
  gint64 rows, cols, m, n;
  g_autoptr(GnnTensor) draws = NULL;
  g_autofree double *a = NULL;
  g_autofree double *q = NULL;
  g_autofree double *out = NULL;
  NO_GRAD;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  if (gnn_tensor_get_ndim (tensor) < 2)
    return fail (error, "Only tensors with 2 or more dimensions are supported");
  if (gnn_tensor_get_numel (tensor) == 0 || gnn_tensor_is_meta (tensor))
    return TRUE;
  rows = gnn_tensor_get_size (tensor, 0, NULL);
  cols = gnn_tensor_get_numel (tensor) / rows;
  draws = gnn_tensor_new_contiguous_checked (GNN_DTYPE_F64, (const gint64[]) { rows, cols }, 2,
                                             FALSE, error);
  if (draws == NULL || !gnn_tensor_normal_ (draws, 0.0, 1.0, generator, error))
    return FALSE;
  a = gnn_tensor_to_doubles (draws, NULL);
  m = MAX (rows, cols), n = MIN (rows, cols);
  if (rows < cols)      /* factor the transpose, so that m >= n */
    {
      g_autofree double *t = g_new (double, rows * cols);

      for (gint64 i = 0; i < rows; i++)
        for (gint64 j = 0; j < cols; j++)
          t[j * rows + i] = a[i * cols + j];
      memcpy (a, t, sizeof (double) * rows * cols);
    }
  q = g_new (double, m * n);
  householder_q (a, m, n, q);
  out = g_new (double, rows * cols);
  for (gint64 i = 0; i < rows; i++)
    for (gint64 j = 0; j < cols; j++)
      out[i * cols + j] = gain * (rows < cols ? q[j * n + i] : q[i * n + j]);
  return write_values (tensor, out, error);
}

/**
 * gnn_init_sparse_:
 * @tensor: a 2-dimensional tensor, filled in place
 * @sparsity: the share of each column set to zero
 * @std: the standard deviation of the other elements (PyTorch's default is
 *   0.01)
 * @generator: (nullable): the generator to draw from; %NULL for the default
 * @error: return location for a #GError
 *
 * Fills @tensor from N(0, @std²) and then sets ⌈@sparsity × rows⌉ randomly
 * chosen elements of each column to zero, like
 * `torch.nn.init.sparse_(tensor, sparsity, std)`.
 *
 * Returns: %TRUE, or %FALSE with @error set for another number of
 *   dimensions ("Only tensors with 2 dimensions are supported")
 *
 * Since: 0.1
 */
gboolean
gnn_init_sparse_ (GnnTensor     *tensor,
                  double         sparsity,
                  double         std,
                  GnnGenerator  *generator,
                  GError       **error)
{
  gint64 rows, cols, zeros;
  g_autofree double *v = NULL;
  g_autofree gint64 *perm = NULL;
  GnnGenerator *gen;
  NO_GRAD;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  if (gnn_tensor_get_ndim (tensor) != 2)
    return fail (error, "Only tensors with 2 dimensions are supported");
  rows = gnn_tensor_get_size (tensor, 0, NULL);
  cols = gnn_tensor_get_size (tensor, 1, NULL);
  zeros = MIN ((gint64) ceil (sparsity * (double) rows), rows);
  if (!gnn_tensor_normal_ (tensor, 0.0, std, generator, error))
    return FALSE;
  if (gnn_tensor_is_meta (tensor) || rows == 0)
    return TRUE;
  v = gnn_tensor_to_doubles (tensor, NULL);
  perm = g_new (gint64, rows);
  gen = gnn_generator_acquire (generator);
  for (gint64 c = 0; c < cols; c++)
    {
      /* a random permutation of the rows (Fisher-Yates); its first
       * `zeros` entries are zeroed, as PyTorch's randperm(rows)[:zeros] */
      for (gint64 i = 0; i < rows; i++)
        perm[i] = i;
      for (gint64 i = rows - 1; i > 0; i--)
        {
          gint64 j = (gint64) gnn_generator_next_below (gen, (guint64) i + 1), t = perm[i];

          perm[i] = perm[j], perm[j] = t;
        }
      for (gint64 i = 0; i < zeros; i++)
        v[perm[i] * cols + c] = 0;
    }
  gnn_generator_release (generator);
  return write_values (tensor, v, error);
}
