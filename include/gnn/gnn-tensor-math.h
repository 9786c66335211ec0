/* gnn-tensor-math.h: elementwise math of torch — type promotion and
 * wrapped numbers, division modes, integer, bitwise and logical ops, the
 * unary math functions, clamp, lerp, addcmul/addcdiv, masked_fill
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

/**
 * GnnRoundingMode:
 * @GNN_ROUNDING_MODE_NONE: true division (torch's `rounding_mode=None`)
 * @GNN_ROUNDING_MODE_TRUNC: the quotient rounded toward zero (`'trunc'`)
 * @GNN_ROUNDING_MODE_FLOOR: the quotient rounded down (`'floor'`)
 *
 * How [method@Gnn.Tensor.div_mode] rounds its quotient.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_ROUNDING_MODE_NONE,
  GNN_ROUNDING_MODE_TRUNC,
  GNN_ROUNDING_MODE_FLOOR,
} GnnRoundingMode;

/* --- type promotion and numbers ------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_new_wrapped_number (double        value);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_new_wrapped_int    (gint64        value);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_new_wrapped_bool   (gboolean      value);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_is_wrapped_number  (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
GnnDType   gnn_tensor_result_type        (GnnTensor    *a,
                                          GnnTensor    *b);

/* --- arithmetic with alpha and rounding ------------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_add_alpha      (GnnTensor *a, GnnTensor *b, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sub_alpha      (GnnTensor *a, GnnTensor *b, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_add_alpha_     (GnnTensor *self, GnnTensor *other, double alpha,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sub_alpha_     (GnnTensor *self, GnnTensor *other, double alpha,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_div_mode       (GnnTensor *a, GnnTensor *b, GnnRoundingMode mode,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_div_mode_      (GnnTensor *self, GnnTensor *other, GnnRoundingMode mode,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_floor_divide   (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_floor_divide_  (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_remainder      (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_remainder_     (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_fmod           (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_fmod_          (GnnTensor *self, GnnTensor *other, GError **error);

/* --- binary math ------------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pow_tensor     (GnnTensor *self, GnnTensor *exponent, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_pow_tensor_    (GnnTensor *self, GnnTensor *exponent, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_pow_           (GnnTensor *self, double exponent, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atan2          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_atan2_         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_maximum        (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_minimum        (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hypot          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_hypot_         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_fmax           (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_fmin           (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_eq_            (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_ne_            (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_lt_            (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_le_            (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_gt_            (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_ge_            (GnnTensor *self, GnnTensor *other, GError **error);

/* --- bitwise and logical -------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_and    (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_or     (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_xor    (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_not    (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_bitwise_and_   (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_bitwise_or_    (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_bitwise_xor_   (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_bitwise_not_   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_and    (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_or     (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_xor    (GnnTensor *a, GnnTensor *b, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_not    (GnnTensor *self, GError **error);

/* --- unary math ---------------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sin            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sin_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cos            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_cos_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_tan            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_tan_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_asin           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_asin_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_acos           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_acos_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atan           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_atan_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sinh           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sinh_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cosh           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_cosh_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_asinh          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_asinh_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_acosh          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_acosh_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atanh          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_atanh_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log2           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_log2_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log10          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_log10_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log1p          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_log1p_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_expm1          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_expm1_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_exp2           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_exp2_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rsqrt          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_rsqrt_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_reciprocal     (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_reciprocal_    (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sign           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sign_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_floor          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_floor_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ceil           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_ceil_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_round          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_round_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_trunc          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_trunc_         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_frac           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_frac_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_erf            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_erf_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_erfc           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_erfc_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_erfinv         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_erfinv_        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lgamma         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_lgamma_        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_digamma        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_digamma_       (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logit          (GnnTensor *self, double eps, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_logit_         (GnnTensor *self, double eps, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nan_to_num     (GnnTensor *self, double nan, double posinf, double neginf,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_nan_to_num_    (GnnTensor *self, double nan, double posinf, double neginf,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_square         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_square_        (GnnTensor *self, GError **error);

GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_exp_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_log_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sqrt_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_abs_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_neg_           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_tanh_          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sigmoid_       (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isnan          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isinf          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isfinite       (GnnTensor *self, GError **error);

/* --- clamping, interpolation, fused products, masks ------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_clamp          (GnnTensor *self, GnnTensor *min, GnnTensor *max,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_clamp_         (GnnTensor *self, GnnTensor *min, GnnTensor *max,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lerp           (GnnTensor *self, GnnTensor *end, GnnTensor *weight,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_lerp_          (GnnTensor *self, GnnTensor *end, GnnTensor *weight,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_addcmul        (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2,
                                      double value, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_addcmul_       (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2,
                                      double value, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_addcdiv        (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2,
                                      double value, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_addcdiv_       (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2,
                                      double value, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_masked_fill    (GnnTensor *self, GnnTensor *mask, GnnTensor *value,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_masked_fill_   (GnnTensor *self, GnnTensor *mask, GnnTensor *value,
                                      GError **error);

/* --- closeness ------------------------------------------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isclose        (GnnTensor *a, GnnTensor *b, double rtol, double atol,
                                      gboolean equal_nan, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_allclose_full  (GnnTensor *a, GnnTensor *b, double rtol, double atol,
                                      gboolean equal_nan, GError **error);

/* --- out= -------------------------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_out_           (GnnTensor *out, GnnTensor *result, GError **error);

G_END_DECLS
