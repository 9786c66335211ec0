/* gnn-tensor.h: n-dimensional strided tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-dtype.h>
#include <gnn/gnn-device.h>
#include <gnn/gnn-generator.h>

G_BEGIN_DECLS

/**
 * GNN_MAX_DIMS:
 *
 * The largest number of dimensions a [class@Gnn.Tensor] can have.
 *
 * Since: 0.1
 */
#define GNN_MAX_DIMS 16

#define GNN_TYPE_TENSOR (gnn_tensor_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnTensor, gnn_tensor, GNN, TENSOR, GObject)

struct _GnnTensorClass
{
  GObjectClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

/* --- creation ------------------------------------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_empty            (const gint64  *shape,
                                            guint          ndim,
                                            GnnDType       dtype,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_zeros            (const gint64  *shape,
                                            guint          ndim,
                                            GnnDType       dtype,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_ones             (const gint64  *shape,
                                            guint          ndim,
                                            GnnDType       dtype,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_full             (const gint64  *shape,
                                            guint          ndim,
                                            double         value,
                                            GnnDType       dtype,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_scalar       (double         value,
                                            GnnDType       dtype);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_arange           (double         start,
                                            double         end,
                                            double         step,
                                            GnnDType       dtype,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_from_data    (const guint8  *data,
                                            gsize          n_bytes,
                                            GnnDType       dtype,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_from_bytes   (GBytes        *bytes,
                                            GnnDType       dtype,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_from_floats  (const float   *values,
                                            gsize          n_values,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_from_doubles (const double  *values,
                                            gsize          n_values,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_from_int64s  (const gint64  *values,
                                            gsize          n_values,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_wrap         (gpointer       data,
                                            gsize          n_bytes,
                                            GnnDType       dtype,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GDestroyNotify destroy,
                                            gpointer       user_data,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_new_from_address (guint64        address,
                                            GnnDType       dtype,
                                            const gint64  *shape,
                                            guint          ndim,
                                            const gint64  *strides,
                                            guint          n_strides,
                                            GObject       *owner,
                                            GError       **error);

/* --- properties and raw access ------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnDType       gnn_tensor_get_dtype        (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
guint          gnn_tensor_get_ndim         (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
const gint64  *gnn_tensor_get_shape        (GnnTensor     *self,
                                            guint         *ndim);
GNN_AVAILABLE_IN_ALL
const gint64  *gnn_tensor_get_strides      (GnnTensor     *self,
                                            guint         *ndim);
GNN_AVAILABLE_IN_ALL
gint64         gnn_tensor_get_size         (GnnTensor     *self,
                                            gint           dim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gint           gnn_tensor_wrap_dim         (GnnTensor     *self,
                                            gint           dim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gint64         gnn_tensor_get_offset       (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
gint64         gnn_tensor_get_numel        (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
gsize          gnn_tensor_get_nbytes       (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_is_contiguous    (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_shares_storage   (GnnTensor     *self,
                                            GnnTensor     *other);
GNN_AVAILABLE_IN_ALL
GnnDevice      gnn_tensor_get_device       (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_is_meta          (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
gpointer       gnn_tensor_get_data         (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
GBytes        *gnn_tensor_get_bytes        (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
guint64        gnn_tensor_get_data_address (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
float         *gnn_tensor_to_floats        (GnnTensor     *self,
                                            gsize         *n_values);
GNN_AVAILABLE_IN_ALL
double        *gnn_tensor_to_doubles       (GnnTensor     *self,
                                            gsize         *n_values);
GNN_AVAILABLE_IN_ALL
double         gnn_tensor_item             (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
double         gnn_tensor_get_element      (GnnTensor     *self,
                                            const gint64  *index,
                                            guint          n_index,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_set_element      (GnnTensor     *self,
                                            const gint64  *index,
                                            guint          n_index,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_get_requires_grad (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
void           gnn_tensor_set_requires_grad (GnnTensor    *self,
                                             gboolean      requires_grad);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_get_grad         (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
void           gnn_tensor_set_grad         (GnnTensor     *self,
                                            GnnTensor     *grad);

/* --- views and copies ---------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_contiguous       (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_clone            (GnnTensor     *self);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_to_dtype         (GnnTensor     *self,
                                            GnnDType       dtype,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_view             (GnnTensor     *self,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_reshape          (GnnTensor     *self,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_flatten          (GnnTensor     *self,
                                            gint           start_dim,
                                            gint           end_dim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_squeeze          (GnnTensor     *self,
                                            gint           dim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_unsqueeze        (GnnTensor     *self,
                                            gint           dim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_narrow           (GnnTensor     *self,
                                            gint           dim,
                                            gint64         start,
                                            gint64         length,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_slice            (GnnTensor     *self,
                                            gint           dim,
                                            gint64         start,
                                            gint64         end,
                                            gint64         step,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_select           (GnnTensor     *self,
                                            gint           dim,
                                            gint64         index,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_index_select     (GnnTensor     *self,
                                            gint           dim,
                                            GnnTensor     *index,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_transpose        (GnnTensor     *self,
                                            gint           dim0,
                                            gint           dim1,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_permute          (GnnTensor     *self,
                                            const gint    *dims,
                                            guint          n_dims,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_expand           (GnnTensor     *self,
                                            const gint64  *shape,
                                            guint          ndim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_fill_            (GnnTensor     *self,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_fill_int_        (GnnTensor     *self,
                                            gint64         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_zero_            (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_copy_            (GnnTensor     *self,
                                            GnnTensor     *src,
                                            GError       **error);

/* --- pointwise ----------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_add              (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_sub              (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_mul              (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_div              (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_add_             (GnnTensor     *self,
                                            GnnTensor     *other,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_sub_             (GnnTensor     *self,
                                            GnnTensor     *other,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_mul_             (GnnTensor     *self,
                                            GnnTensor     *other,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_div_             (GnnTensor     *self,
                                            GnnTensor     *other,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_add_scalar       (GnnTensor     *self,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_mul_scalar       (GnnTensor     *self,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_add_scalar_      (GnnTensor     *self,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_sub_scalar_      (GnnTensor     *self,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_mul_scalar_      (GnnTensor     *self,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_div_scalar_      (GnnTensor     *self,
                                            double         value,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_pow              (GnnTensor     *self,
                                            double         exponent,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_relu             (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_gelu             (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_tanh             (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_sigmoid          (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_exp              (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_log              (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_neg              (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_abs              (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_sqrt             (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_relu_            (GnnTensor     *self,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_eq               (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_ne               (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_lt               (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_le               (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_gt               (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_ge               (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_where            (GnnTensor     *condition,
                                            GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);

/* --- reductions ---------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_sum              (GnnTensor     *self,
                                            const gint    *dims,
                                            guint          n_dims,
                                            gboolean       keepdim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_mean             (GnnTensor     *self,
                                            const gint    *dims,
                                            guint          n_dims,
                                            gboolean       keepdim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_max              (GnnTensor     *self,
                                            const gint    *dims,
                                            guint          n_dims,
                                            gboolean       keepdim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_min              (GnnTensor     *self,
                                            const gint    *dims,
                                            guint          n_dims,
                                            gboolean       keepdim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_argmax           (GnnTensor     *self,
                                            gint           dim,
                                            gboolean       keepdim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_softmax          (GnnTensor     *self,
                                            gint           dim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_log_softmax      (GnnTensor     *self,
                                            gint           dim,
                                            GError       **error);

/* --- linear algebra and joining ------------------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_matmul           (GnnTensor     *a,
                                            GnnTensor     *b,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_cat              (GnnTensor    **tensors,
                                            guint          n_tensors,
                                            gint           dim,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_stack            (GnnTensor    **tensors,
                                            guint          n_tensors,
                                            gint           dim,
                                            GError       **error);

/* --- random initialization ----------------------------------------------- */

GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_uniform_         (GnnTensor     *self,
                                            double         low,
                                            double         high,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_normal_          (GnnTensor     *self,
                                            double         mean,
                                            double         std,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_rand             (const gint64  *shape,
                                            guint          ndim,
                                            GnnDType       dtype,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_randn            (const gint64  *shape,
                                            guint          ndim,
                                            GnnDType       dtype,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_rand_like        (GnnTensor     *self,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_tensor_randn_like       (GnnTensor     *self,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_kaiming_uniform_ (GnnTensor     *self,
                                            double         a,
                                            GnnGenerator  *generator,
                                            GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_kaiming_normal_  (GnnTensor     *self,
                                            double         a,
                                            GnnGenerator  *generator,
                                            GError       **error);

/* --- comparison and printing --------------------------------------------- */

GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_equal            (GnnTensor     *a,
                                            GnnTensor     *b);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_tensor_allclose         (GnnTensor     *a,
                                            GnnTensor     *b,
                                            double         rtol,
                                            double         atol);
GNN_AVAILABLE_IN_ALL
char          *gnn_tensor_to_string        (GnnTensor     *self);

G_END_DECLS
