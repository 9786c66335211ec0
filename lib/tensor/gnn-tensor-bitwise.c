/* gnn-tensor-bitwise.c: bitwise ops on integer and bool tensors (`&`, `|`,
 * `^`, `~`) and logical ops on every dtype (nonzero is true; bool results)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"

#define AND_E(T, W, x, y) ((T) ((x) & (y)))
#define OR_E(T, W, x, y)  ((T) ((x) | (y)))
#define XOR_E(T, W, x, y) ((T) ((x) ^ (y)))
#define NOT_I(T, W, x, p) ((T) ~(x))
#define NOT_B(T, W, x, p) ((T) !(x))

#define DEFINE_BITWISE(op, EXPR)                                                \
  GNN_FOR_INTEGRAL (GNN_GEN_BINARY, op, EXPR)                                   \
  GNN_FOR_BOOL (GNN_GEN_BINARY, op, EXPR)                                       \
  GNN_FOR_INTEGRAL (GNN_GEN_INPLACE, op##_ip, EXPR)                             \
  GNN_FOR_BOOL (GNN_GEN_INPLACE, op##_ip, EXPR)

DEFINE_BITWISE (band, AND_E)
DEFINE_BITWISE (bor, OR_E)
DEFINE_BITWISE (bxor, XOR_E)
GNN_FOR_INTEGRAL (GNN_GEN_UNARY, bnot, NOT_I)
GNN_FOR_BOOL (GNN_GEN_UNARY, bnot, NOT_B)

#define BITWISE_OP(op, name)                                                    \
  { name, name "_cpu", 0, { GNN_TABLE_INTEGRAL (op), GNN_TABLE_BOOL (op) },     \
    { GNN_TABLE_INTEGRAL (op##_ip), GNN_TABLE_BOOL (op##_ip) } }

static const GnnBinaryOp op_bitwise_and = BITWISE_OP (band, "bitwise_and");
static const GnnBinaryOp op_bitwise_or = BITWISE_OP (bor, "bitwise_or");
static const GnnBinaryOp op_bitwise_xor = BITWISE_OP (bxor, "bitwise_xor");
static const GnnUnaryOp op_bitwise_not = {
  "bitwise_not", "bitwise_not_cpu", 0, { GNN_TABLE_INTEGRAL (bnot), GNN_TABLE_BOOL (bnot) }
};

/* Logical ops compare with zero in the promoted dtype (NaN is true). */
#define LAND_E(T, W, x, y) ((guint8) (((x) != 0) & ((y) != 0)))
#define LOR_E(T, W, x, y)  ((guint8) (((x) != 0) | ((y) != 0)))
#define LXOR_E(T, W, x, y) ((guint8) (((x) != 0) ^ ((y) != 0)))
#define LNOT_E(T, W, x, p) ((guint8) ((x) == 0))

#define DEFINE_LOGICAL(op, EXPR)                                                \
  GNN_FOR_NUMERIC (GNN_GEN_TO_BOOL, op, EXPR)                                   \
  GNN_FOR_BOOL (GNN_GEN_TO_BOOL, op, EXPR)

DEFINE_LOGICAL (land, LAND_E)
DEFINE_LOGICAL (lor, LOR_E)
DEFINE_LOGICAL (lxor, LXOR_E)
GNN_FOR_NUMERIC (GNN_GEN_UNARY_TO_BOOL, lnot, LNOT_E)
GNN_FOR_BOOL (GNN_GEN_UNARY_TO_BOOL, lnot, LNOT_E)

#define LOGICAL_OP(op, name)                                                    \
  { name, name "_cpu", GNN_EW_BOOL_OUT, { GNN_TABLE_NUMERIC (op), GNN_TABLE_BOOL (op) }, \
    { NULL } }

static const GnnBinaryOp op_logical_and = LOGICAL_OP (land, "logical_and");
static const GnnBinaryOp op_logical_or = LOGICAL_OP (lor, "logical_or");
static const GnnBinaryOp op_logical_xor = LOGICAL_OP (lxor, "logical_xor");
static const GnnUnaryOp op_logical_not = {
  "logical_not", "logical_not_cpu", GNN_EW_BOOL_OUT,
  { GNN_TABLE_NUMERIC (lnot), GNN_TABLE_BOOL (lnot) }
};

/* None of these is differentiable: nothing is recorded (torch refuses to
 * differentiate them; their integer or bool results never require grad). */
static GnnTensor *
binary (const GnnBinaryOp *op,
        GnnTensor         *a,
        GnnTensor         *b,
        GError           **error)
{
  GNN_CHECK_STORAGE (op->name, a, error, NULL);
  GNN_CHECK_STORAGE (op->name, b, error, NULL);
  return gnn_ew_binary (op, a, b, error);
}

static gboolean
binary_ (const GnnBinaryOp *op,
         GnnTensor         *self,
         GnnTensor         *other,
         GError           **error)
{
  GNN_CHECK_STORAGE (op->name, self, error, FALSE);
  GNN_CHECK_STORAGE (op->name, other, error, FALSE);
  return gnn_ew_binary_ (op, self, other, GNN_N_OPS, NULL, error);
}

/**
 * gnn_tensor_bitwise_and:
 * @a: an integer or bool #GnnTensor
 * @b: an integer or bool #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Bitwise and (like `torch.bitwise_and` and `a & b`), with torch's result
 * dtype; on bool tensors it is the logical and of masks. Floating-point
 * operands fail as in torch ("\"bitwise_and_cpu\" not implemented for
 * 'Float'").
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_and (GnnTensor *a,
                        GnnTensor *b,
                        GError   **error)
{
  return binary (&op_bitwise_and, a, b, error);
}

/**
 * gnn_tensor_bitwise_or:
 * @a: an integer or bool #GnnTensor
 * @b: an integer or bool #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Bitwise or (like `torch.bitwise_or` and `a | b`); see
 * [method@Gnn.Tensor.bitwise_and].
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_or (GnnTensor *a,
                       GnnTensor *b,
                       GError   **error)
{
  return binary (&op_bitwise_or, a, b, error);
}

/**
 * gnn_tensor_bitwise_xor:
 * @a: an integer or bool #GnnTensor
 * @b: an integer or bool #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Bitwise exclusive or (like `torch.bitwise_xor` and `a ^ b`); see
 * [method@Gnn.Tensor.bitwise_and].
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_xor (GnnTensor *a,
                        GnnTensor *b,
                        GError   **error)
{
  return binary (&op_bitwise_xor, a, b, error);
}

/**
 * gnn_tensor_bitwise_not:
 * @self: an integer or bool #GnnTensor
 * @error: return location for a #GError
 *
 * Bitwise not (like `torch.bitwise_not` and `~self`): the logical not of a
 * bool tensor.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a floating-point @self
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_not (GnnTensor *self,
                        GError   **error)
{
  GNN_CHECK_STORAGE ("bitwise_not", self, error, NULL);
  return gnn_ew_unary (&op_bitwise_not, self, 0, error);
}

/**
 * gnn_tensor_bitwise_and_:
 * @self: an integer or bool tensor, updated in place
 * @other: broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * `self &= other` (like `self.bitwise_and_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_bitwise_and_ (GnnTensor *self,
                         GnnTensor *other,
                         GError   **error)
{
  return binary_ (&op_bitwise_and, self, other, error);
}

/**
 * gnn_tensor_bitwise_or_:
 * @self: an integer or bool tensor, updated in place
 * @other: broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * `self |= other` (like `self.bitwise_or_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_bitwise_or_ (GnnTensor *self,
                        GnnTensor *other,
                        GError   **error)
{
  return binary_ (&op_bitwise_or, self, other, error);
}

/**
 * gnn_tensor_bitwise_xor_:
 * @self: an integer or bool tensor, updated in place
 * @other: broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * `self ^= other` (like `self.bitwise_xor_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_bitwise_xor_ (GnnTensor *self,
                         GnnTensor *other,
                         GError   **error)
{
  return binary_ (&op_bitwise_xor, self, other, error);
}

/**
 * gnn_tensor_bitwise_not_:
 * @self: an integer or bool tensor, updated in place
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.bitwise_not].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_bitwise_not_ (GnnTensor *self,
                         GError   **error)
{
  g_autoptr(GnnTensor) values = gnn_tensor_bitwise_not (self, error);

  return values != NULL && gnn_ew_assign_ (self, values, GNN_N_OPS, NULL, 0, NULL, error);
}

/**
 * gnn_tensor_logical_and:
 * @a: a #GnnTensor of any dtype
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Elementwise `a != 0 and b != 0` (like `torch.logical_and`): a bool tensor.
 *
 * Returns: (transfer full): a new contiguous bool tensor, or %NULL with
 *   @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_and (GnnTensor *a,
                        GnnTensor *b,
                        GError   **error)
{
  return binary (&op_logical_and, a, b, error);
}

/**
 * gnn_tensor_logical_or:
 * @a: a #GnnTensor of any dtype
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Elementwise `a != 0 or b != 0` (like `torch.logical_or`): a bool tensor.
 *
 * Returns: (transfer full): a new contiguous bool tensor, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_or (GnnTensor *a,
                       GnnTensor *b,
                       GError   **error)
{
  return binary (&op_logical_or, a, b, error);
}

/**
 * gnn_tensor_logical_xor:
 * @a: a #GnnTensor of any dtype
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Elementwise `(a != 0) != (b != 0)` (like `torch.logical_xor`).
 *
 * Returns: (transfer full): a new contiguous bool tensor, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_xor (GnnTensor *a,
                        GnnTensor *b,
                        GError   **error)
{
  return binary (&op_logical_xor, a, b, error);
}

/**
 * gnn_tensor_logical_not:
 * @self: a #GnnTensor of any dtype
 * @error: return location for a #GError
 *
 * Elementwise `self == 0` (like `torch.logical_not`): a bool tensor.
 *
 * Returns: (transfer full): a new contiguous bool tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_not (GnnTensor *self,
                        GError   **error)
{
  GNN_CHECK_STORAGE ("logical_not", self, error, NULL);
  return gnn_ew_unary (&op_logical_not, self, 0, error);
}
