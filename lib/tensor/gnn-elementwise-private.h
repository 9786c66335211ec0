/* gnn-elementwise-private.h: the elementwise machinery shared by the
 * pointwise op files — kernel generators (one 1-d run per call, generated
 * per dtype), op descriptors, and the drivers of gnn-elementwise.c that
 * apply torch's type promotion, broadcast and walk any strided geometry
 *
 * Kernels work on one 1-d run: @n elements, each operand with its own
 * stride (in elements). They are generated per dtype by macros from an
 * expression macro EXPR (T, W, x, y) where T is the element type and W a
 * wide unsigned type for integer arithmetic that must wrap (signed overflow
 * is undefined in C; PyTorch wraps, so do we). Each kernel branches once on
 * the stride pattern so the common cases (all contiguous; one operand a
 * broadcast scalar) are plain loops over restrict pointers that gcc -O3
 * vectorizes, and GNN_DISPATCH_KERNEL compiles every loop for each CPU level.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-cpu-private.h"

G_BEGIN_DECLS

#define GNN_N_DTYPES (GNN_DTYPE_BOOL + 1)

typedef void (*GnnBinaryKernel)  (gint64 n, void *o, gint64 os,
                                  const void *a, gint64 as, const void *b, gint64 bs);
typedef void (*GnnInplaceKernel) (gint64 n, void *s, gint64 ss, const void *b, gint64 bs);
typedef void (*GnnUnaryKernel)   (gint64 n, void *o, gint64 os, const void *a, gint64 as,
                                  double param);

/* --- kernel generators --------------------------------------------------- */

#define GNN_DEFINE_BINARY_KERNEL(name, OT, T, W, EXPR)                          \
static inline __attribute__ ((always_inline)) void                             \
name##_typed (gint64 n, OT *restrict o, gint64 os,                              \
              const T *restrict a, gint64 as, const T *restrict b, gint64 bs)   \
{                                                                               \
  if (os == 1 && as == 1 && bs == 1)                                            \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i] = EXPR (T, W, a[i], b[i]);                                           \
  else if (os == 1 && as == 1 && bs == 0)                                       \
    {                                                                           \
      const T y = b[0];                                                         \
      for (gint64 i = 0; i < n; i++)                                            \
        o[i] = EXPR (T, W, a[i], y);                                            \
    }                                                                           \
  else if (os == 1 && as == 0 && bs == 1)                                       \
    {                                                                           \
      const T x = a[0];                                                         \
      for (gint64 i = 0; i < n; i++)                                            \
        o[i] = EXPR (T, W, x, b[i]);                                            \
    }                                                                           \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i * os] = EXPR (T, W, a[i * as], b[i * bs]);                            \
}                                                                               \
GNN_DISPATCH_KERNEL (name, (gint64 n, void *o, gint64 os, const void *a, gint64 as,  \
                         const void *b, gint64 bs), (n, o, os, a, as, b, bs))

/* s = s op b; @b never aliases @s (drivers copy it first if it might). */
#define GNN_DEFINE_INPLACE_KERNEL(name, T, W, EXPR)                             \
static inline __attribute__ ((always_inline)) void                             \
name##_typed (gint64 n, T *restrict s, gint64 ss, const T *restrict b, gint64 bs) \
{                                                                               \
  if (ss == 1 && bs == 1)                                                       \
    for (gint64 i = 0; i < n; i++)                                              \
      s[i] = EXPR (T, W, s[i], b[i]);                                           \
  else if (ss == 1 && bs == 0)                                                  \
    {                                                                           \
      const T y = b[0];                                                         \
      for (gint64 i = 0; i < n; i++)                                            \
        s[i] = EXPR (T, W, s[i], y);                                            \
    }                                                                           \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      s[i * ss] = EXPR (T, W, s[i * ss], b[i * bs]);                            \
}                                                                               \
GNN_DISPATCH_KERNEL (name, (gint64 n, void *s, gint64 ss, const void *b, gint64 bs), \
                 (n, s, ss, b, bs))

/* Unary expressions are EXPR (T, W, x, param); @param is the op's scalar
 * argument (the exponent of pow), unused by most. OT is the result type. */
#define GNN_DEFINE_UNARY_KERNEL_TO(name, OT, T, W, EXPR)                        \
static inline __attribute__ ((always_inline)) void                             \
name##_typed (gint64 n, OT *restrict o, gint64 os, const T *restrict a, gint64 as, \
              double param)                                                     \
{                                                                               \
  (void) param;                                                                 \
  if (os == 1 && as == 1)                                                       \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i] = EXPR (T, W, a[i], param);                                          \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i * os] = EXPR (T, W, a[i * as], param);                                \
}                                                                               \
GNN_DISPATCH_KERNEL (name, (gint64 n, void *o, gint64 os, const void *a, gint64 as,  \
                         double param), (n, o, os, a, as, param))

#define GNN_DEFINE_UNARY_KERNEL(name, T, W, EXPR) \
  GNN_DEFINE_UNARY_KERNEL_TO (name, T, T, W, EXPR)

/* Instantiation over dtype families. FLOAT: f32, f64. SIGNED: i64, i32,
 * i16, i8 (W is the unsigned type arithmetic wraps in). UNSIGNED: u8.
 * BOOL: bool (stored as guint8). */
#define GNN_FOR_FLOATS(GEN, op, EXPR)                                           \
  GEN (op##_f32, float, float, EXPR)                                            \
  GEN (op##_f64, double, double, EXPR)
#define GNN_FOR_SIGNED(GEN, op, EXPR)                                           \
  GEN (op##_i64, gint64, guint64, EXPR)                                         \
  GEN (op##_i32, gint32, guint32, EXPR)                                         \
  GEN (op##_i16, gint16, guint32, EXPR)                                         \
  GEN (op##_i8, gint8, guint32, EXPR)
#define GNN_FOR_UNSIGNED(GEN, op, EXPR)                                         \
  GEN (op##_u8, guint8, guint32, EXPR)
#define GNN_FOR_BOOL(GEN, op, EXPR)                                             \
  GEN (op##_bool, guint8, guint32, EXPR)
#define GNN_FOR_INTEGRAL(GEN, op, EXPR)                                         \
  GNN_FOR_SIGNED (GEN, op, EXPR)                                                \
  GNN_FOR_UNSIGNED (GEN, op, EXPR)
#define GNN_FOR_NUMERIC(GEN, op, EXPR)                                          \
  GNN_FOR_FLOATS (GEN, op, EXPR)                                                \
  GNN_FOR_INTEGRAL (GEN, op, EXPR)

/* Float-only ops: single precision calls the float libm functions (as
 * PyTorch computes float32 in float32), double the double ones. */
#define GNN_GEN_F32_F64(GEN, op, FEXPR32, FEXPR64)                              \
  GEN (op##_f32, float, float, FEXPR32)                                         \
  GEN (op##_f64, double, double, FEXPR64)

#define GNN_TABLE_FLOATS(op)   [GNN_DTYPE_F32] = op##_f32, [GNN_DTYPE_F64] = op##_f64
#define GNN_TABLE_SIGNED(op)   [GNN_DTYPE_I64] = op##_i64, [GNN_DTYPE_I32] = op##_i32, \
                               [GNN_DTYPE_I16] = op##_i16, [GNN_DTYPE_I8] = op##_i8
#define GNN_TABLE_UNSIGNED(op) [GNN_DTYPE_U8] = op##_u8
#define GNN_TABLE_BOOL(op)     [GNN_DTYPE_BOOL] = op##_bool
#define GNN_TABLE_INTEGRAL(op) GNN_TABLE_SIGNED (op), GNN_TABLE_UNSIGNED (op)
#define GNN_TABLE_NUMERIC(op)  GNN_TABLE_FLOATS (op), GNN_TABLE_INTEGRAL (op)

/* Binary kernels with the same input and output type. */
#define GNN_GEN_BINARY(name, T, W, EXPR)  GNN_DEFINE_BINARY_KERNEL (name, T, T, W, EXPR)
#define GNN_GEN_INPLACE(name, T, W, EXPR) GNN_DEFINE_INPLACE_KERNEL (name, T, W, EXPR)
/* Comparisons and logical ops write bool (guint8). */
#define GNN_GEN_TO_BOOL(name, T, W, EXPR) GNN_DEFINE_BINARY_KERNEL (name, guint8, T, W, EXPR)
#define GNN_GEN_UNARY(name, T, W, EXPR)   GNN_DEFINE_UNARY_KERNEL (name, T, W, EXPR)
#define GNN_GEN_UNARY_TO_BOOL(name, T, W, EXPR) \
  GNN_DEFINE_UNARY_KERNEL_TO (name, guint8, T, W, EXPR)

/* --- op descriptors ------------------------------------------------------ */

typedef enum
{
  GNN_EW_BOOL_OUT     = 1 << 0,   /* comparisons, logical ops, isnan: a bool result */
  GNN_EW_FLOAT_RESULT = 1 << 1,   /* integer and bool operands give float32 (true division) */
  GNN_EW_INT_DIVISOR  = 1 << 2,   /* an integer zero divisor is torch's ZeroDivisionError */
  GNN_EW_SUB          = 1 << 3,   /* sub: torch refuses bool operands */
} GnnEwFlags;

typedef struct
{
  const char      *name;          /* "add": in-place errors say "add_" */
  const char      *cpu_name;      /* torch's kernel name for "… not implemented for 'Bool'" */
  guint            flags;         /* GnnEwFlags */
  GnnBinaryKernel  kernels[GNN_N_DTYPES];   /* by compute dtype */
  GnnInplaceKernel inplace[GNN_N_DTYPES];   /* optional: s = s op b */
} GnnBinaryOp;

typedef struct
{
  const char     *name;
  const char     *cpu_name;
  guint           flags;          /* FLOAT_RESULT: integer and bool inputs compute in float32 */
  GnnUnaryKernel  kernels[GNN_N_DTYPES];
} GnnUnaryOp;

/* --- drivers (gnn-elementwise.c) ----------------------------------------- */

/* The dtype @op gives for @a and @b (torch.result_type, float32 for the
 * integral results of FLOAT_RESULT ops; before BOOL_OUT). */
GnnDType   gnn_ew_result_dtype (const GnnBinaryOp *op, GnnTensor *a, GnnTensor *b);

/* a op b with promotion and broadcasting: a new contiguous tensor, or NULL
 * + error (a dtype without a kernel, shapes, a zero integer divisor).
 * Records nothing. */
GnnTensor *gnn_ew_binary       (const GnnBinaryOp *op, GnnTensor *a, GnnTensor *b,
                                GError **error);

/* self = self op other, in place: @other broadcasts to @self's shape, the
 * result dtype must cast to @self's (torch's can_cast), @self must not
 * overlap itself. @kind (GNN_N_OPS: not differentiable) is recorded with
 * @params just before @self changes. */
gboolean   gnn_ew_binary_      (const GnnBinaryOp *op, GnnTensor *self, GnnTensor *other,
                                GnnOpKind kind, const GnnOpParams *params, GError **error);

/* op (self) elementwise (@param: the op's scalar argument): a new contiguous
 * tensor of @self's dtype (float32 for integral inputs of FLOAT_RESULT ops,
 * bool for BOOL_OUT ones). Records nothing. */
GnnTensor *gnn_ew_unary        (const GnnUnaryOp *op, GnnTensor *self, double param,
                                GError **error);

/* Writes @values (any dtype castable to @self's, broadcastable to its
 * shape) into @self in place, after recording @kind on @self and @others
 * (gnn_tensor_record_inplace_full): the tail of the in-place ops that
 * compute out of place first. */
gboolean   gnn_ew_assign_      (GnnTensor *self, GnnTensor *values, GnnOpKind kind,
                                GnnTensor *const *others, guint n_others,
                                const GnnOpParams *params, GError **error);

/* FALSE + torch's error when @self's elements overlap (an expanded view):
 * an in-place write would be order-dependent. */
gboolean   gnn_check_no_internal_overlap (GnnTensor *self, GError **error);

/* torch's "\"<cpu_name>\" not implemented for '<Type>'" (GNN_ERROR_DTYPE). */
void       gnn_set_not_implemented (GError **error, const char *cpu_name, GnnDType dtype);

/* @t converted to @dtype when it differs (a contiguous copy, not recorded),
 * else a new reference. */
GnnTensor *gnn_ew_cast         (GnnTensor *t, GnnDType dtype, GError **error);

G_END_DECLS
