/* gnn-elementwise.c: the drivers every elementwise op runs through — torch's
 * type promotion (gnn-promote.c) applied once here, operands converted to
 * the compute dtype, broadcasting, the walk over strided geometry, in-place
 * writes with torch's cast rule — so the op files only declare kernels
 *
 * float16 and bfloat16 compute in float32 and round the result back, as
 * torch's CPU kernels do.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-promote-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-parallel-private.h"

void
gnn_set_not_implemented (GError    **error,
                         const char *cpu_name,
                         GnnDType    dtype)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"%s\" not implemented for '%s'",
               cpu_name, gnn_torch_scalar_name (dtype));
}

gboolean
gnn_check_no_internal_overlap (GnnTensor *self,
                               GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  for (guint d = 0; d < p->ndim; d++)
    if (p->strides[d] == 0 && p->shape[d] > 1)
      {
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                             "unsupported operation: more than one element of the written-to "
                             "tensor refers to a single memory location. Please clone() the "
                             "tensor before performing the operation.");
        return FALSE;
      }
  return TRUE;
}

GnnTensor *
gnn_ew_cast (GnnTensor *t,
             GnnDType   dtype,
             GError   **error)
{
  if (gnn_tensor_priv (t)->dtype == dtype)
    return g_object_ref (t);
  return gnn_tensor_copy_checked (t, dtype, error);
}

/* The dtype kernels run in for a result dtype. */
static GnnDType
compute_dtype (GnnDType dtype)
{
  return dtype == GNN_DTYPE_F16 || dtype == GNN_DTYPE_BF16 ? GNN_DTYPE_F32 : dtype;
}

GnnDType
gnn_ew_result_dtype (const GnnBinaryOp *op,
                     GnnTensor         *a,
                     GnnTensor         *b)
{
  GnnDType r = gnn_result_type_n ((GnnTensor *[]) { a, b }, 2);

  if ((op->flags & GNN_EW_FLOAT_RESULT) && !gnn_dtype_is_floating (r))
    r = GNN_DTYPE_F32;
  return r;
}

/* An operand seen in the compute dtype through the broadcast shape. A 0-d
 * operand of another dtype (a wrapped number) is converted into @scalar,
 * no tensor allocated; others are cast into a copy when they differ. */
typedef struct
{
  GnnTensor    *owned;
  const guint8 *data;
  gint64        strides[GNN_MAX_DIMS];
  gint64        scalar;
} Operand;

static void
operand_clear (Operand *o)
{
  g_clear_object (&o->owned);
}

static gboolean
operand_init (Operand      *o,
              GnnTensor    *t,
              GnnDType      dtype,
              const gint64 *shape,
              guint         ndim,
              gboolean      private_copy,
              GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  memset (o, 0, sizeof *o);
  if (p->ndim == 0 && (p->dtype != dtype || private_copy))
    {
      gnn_strided_copy (dtype, (guint8 *) &o->scalar, NULL, p->dtype, gnn_tensor_priv_data (p),
                        NULL, NULL, 0);
      o->data = (const guint8 *) &o->scalar;
      return TRUE;
    }
  if (p->dtype != dtype || private_copy)
    {
      o->owned = gnn_tensor_copy_checked (t, dtype, error);
      if (o->owned == NULL)
        return FALSE;
      t = o->owned;
      p = gnn_tensor_priv (t);
    }
  gnn_broadcast_strides (t, shape, ndim, o->strides);
  o->data = gnn_tensor_priv_data (p);
  return TRUE;
}

/* FALSE + ZeroDivisionError when an integer divisor operand holds a zero. */
static gboolean
check_divisor (const Operand *o,
               GnnDType       dtype,
               const gint64  *shape,
               guint          ndim,
               GError       **error)
{
  const gint64 *strides[1] = { o->strides };
  gsize size = gnn_dtype_get_size (dtype);
  GnnNdIter it;

  if (gnn_dtype_is_floating (dtype))
    return TRUE;
  gnn_nditer_init (&it, shape, ndim, 1, strides);
  while (gnn_nditer_next (&it))
    for (gint64 i = 0; i < it.inner_size; i++)
      if (gnn_dtype_read (dtype, o->data + (it.offsets[0] + i * it.inner_strides[0]) *
                                  (gint64) size) == 0.0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_ZERO_DIVISION, "ZeroDivisionError");
          return FALSE;
        }
  return TRUE;
}

/* torch refuses bool operands of sub (wrapped bools included). */
static gboolean
check_sub_operands (GnnTensor *a,
                    GnnTensor *b,
                    GError   **error)
{
  gboolean ab = gnn_tensor_priv (a)->dtype == GNN_DTYPE_BOOL;
  gboolean bb = gnn_tensor_priv (b)->dtype == GNN_DTYPE_BOOL;

  if (ab && bb)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.");
      return FALSE;
    }
  if (ab || bb)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "Subtraction, the `-` operator, with a bool tensor is not "
                           "supported. If you are trying to invert a mask, use the `~` or "
                           "`logical_not()` operator instead.");
      return FALSE;
    }
  return TRUE;
}

/* --- the walk -------------------------------------------------------------- */

typedef struct
{
  GnnBinaryKernel kernel;
  guint8         *o;
  const guint8   *a, *b;
  gint64          os, as, bs;
  gsize           osize, isize;
} BinaryRun;

static void
binary_range (gint64   begin,
              gint64   end,
              gpointer data)
{
  const BinaryRun *r = data;

  r->kernel (end - begin,
             r->o + begin * r->os * (gint64) r->osize, r->os,
             r->a + begin * r->as * (gint64) r->isize, r->as,
             r->b + begin * r->bs * (gint64) r->isize, r->bs);
}

static void
run_binary (GnnBinaryKernel kernel,
            const gint64   *shape,
            guint           ndim,
            guint8         *o,
            gsize           osize,
            const gint64   *o_strides,
            const Operand  *a,
            const Operand  *b,
            gsize           isize)
{
  const gint64 *strides[3] = { o_strides, a->strides, b->strides };
  GnnNdIter it;

  gnn_nditer_init (&it, shape, ndim, 3, strides);
  /* one long run (contiguous or broadcast scalar): split among the threads */
  if (!it.done && it.ndim == 1 && it.inner_size >= 2 * GNN_PARALLEL_GRAIN_ELEMS)
    {
      BinaryRun r = { kernel, o, a->data, b->data, it.strides[0][0], it.strides[1][0],
                      it.strides[2][0], osize, isize };

      gnn_parallel_for (it.inner_size, GNN_PARALLEL_GRAIN_ELEMS, binary_range, &r);
      return;
    }
  while (gnn_nditer_next (&it))
    kernel (it.inner_size,
            o + it.offsets[0] * (gint64) osize, it.inner_strides[0],
            a->data + it.offsets[1] * (gint64) isize, it.inner_strides[1],
            b->data + it.offsets[2] * (gint64) isize, it.inner_strides[2]);
}

/* --- binary ----------------------------------------------------------------- */

GnnTensor *
gnn_ew_binary (const GnnBinaryOp *op,
               GnnTensor         *a,
               GnnTensor         *b,
               GError           **error)
{
  GnnTensorPrivate *ap, *bp, *outp;
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;
  GnnDType result, compute;
  GnnBinaryKernel kernel;
  Operand oa, ob;
  GnnTensor *out;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_TENSOR (a), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (b), NULL);
  ap = gnn_tensor_priv (a);
  bp = gnn_tensor_priv (b);
  if ((op->flags & GNN_EW_SUB) && !check_sub_operands (a, b, error))
    return NULL;
  result = gnn_ew_result_dtype (op, a, b);
  compute = compute_dtype (result);
  kernel = op->kernels[compute];
  if (kernel == NULL)
    {
      gnn_set_not_implemented (error, op->cpu_name, result);
      return NULL;
    }
  if (!gnn_broadcast_shapes (ap->shape, ap->ndim, bp->shape, bp->ndim, shape, &ndim, error))
    return NULL;
  if (!operand_init (&oa, a, compute, shape, ndim, FALSE, error))
    return NULL;
  if (!operand_init (&ob, b, compute, shape, ndim, FALSE, error))
    {
      operand_clear (&oa);
      return NULL;
    }
  ok = !(op->flags & GNN_EW_INT_DIVISOR) || check_divisor (&ob, compute, shape, ndim, error);
  out = ok ? gnn_tensor_new_contiguous_checked ((op->flags & GNN_EW_BOOL_OUT) ? GNN_DTYPE_BOOL
                                                                            : compute,
                                                shape, ndim, FALSE, error)
           : NULL;
  if (out != NULL)
    {
      outp = gnn_tensor_priv (out);
      run_binary (kernel, shape, ndim, gnn_tensor_priv_data (outp),
                  gnn_dtype_get_size (outp->dtype), outp->strides, &oa, &ob,
                  gnn_dtype_get_size (compute));
      if (!(op->flags & GNN_EW_BOOL_OUT) && result != compute)
        {
          GnnTensor *rounded = gnn_tensor_copy_checked (out, result, error);

          g_object_unref (out);
          out = rounded;
        }
    }
  operand_clear (&oa);
  operand_clear (&ob);
  return out;
}

/* @other must broadcast to @self's shape without growing it. */
static gboolean
check_inplace_shape (GnnTensor *self,
                     GnnTensor *other,
                     GError   **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *bp = gnn_tensor_priv (other);
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;

  if (!gnn_broadcast_shapes (sp->shape, sp->ndim, bp->shape, bp->ndim, shape, &ndim, error))
    return FALSE;
  if (ndim != sp->ndim || memcmp (shape, sp->shape, sizeof (gint64) * ndim) != 0)
    {
      g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);
      g_autofree char *bs = gnn_shape_to_string (shape, ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "output with shape %s doesn't match the broadcast shape %s", ss, bs);
      return FALSE;
    }
  return TRUE;
}

static gboolean
record_inplace (GnnOpKind          kind,
                GnnTensor         *self,
                GnnTensor *const  *others,
                guint              n_others,
                const GnnOpParams *params,
                GError           **error)
{
  if (kind == GNN_N_OPS)
    return TRUE;
  return gnn_tensor_record_inplace_full (kind, self, others, n_others, params, error);
}

gboolean
gnn_ew_assign_ (GnnTensor         *self,
                GnnTensor         *values,
                GnnOpKind          kind,
                GnnTensor *const  *others,
                guint              n_others,
                const GnnOpParams *params,
                GError           **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self);

  if (!check_inplace_shape (self, values, error) ||
      !gnn_check_can_cast (gnn_tensor_priv (values)->dtype, sp->dtype, error) ||
      !gnn_check_no_internal_overlap (self, error) ||
      !record_inplace (kind, self, others, n_others, params, error))
    return FALSE;
  return gnn_tensor_write_values_ (self, values, error);
}

gboolean
gnn_ew_binary_ (const GnnBinaryOp *op,
                GnnTensor         *self,
                GnnTensor         *other,
                GnnOpKind          kind,
                const GnnOpParams *params,
                GError           **error)
{
  GnnTensorPrivate *sp, *bp;
  GnnDType result, compute;
  GnnInplaceKernel kernel;
  Operand ob;
  const gint64 *strides[2];
  gsize size;
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (other), FALSE);
  sp = gnn_tensor_priv (self);
  bp = gnn_tensor_priv (other);
  if ((op->flags & GNN_EW_SUB) && !check_sub_operands (self, other, error))
    return FALSE;
  result = gnn_ew_result_dtype (op, self, other);
  compute = compute_dtype (result);
  if (op->kernels[compute] == NULL)
    {
      gnn_set_not_implemented (error, op->cpu_name, result);
      return FALSE;
    }
  if (!gnn_check_can_cast ((op->flags & GNN_EW_BOOL_OUT) ? GNN_DTYPE_BOOL : result, sp->dtype,
                           error) ||
      !check_inplace_shape (self, other, error) ||
      !gnn_check_no_internal_overlap (self, error))
    return FALSE;

  kernel = op->inplace[sp->dtype];
  if (kernel == NULL || compute != sp->dtype || (op->flags & GNN_EW_BOOL_OUT))
    {
      /* computed in another dtype than @self's: out of place, then stored */
      g_autoptr(GnnTensor) values = gnn_ew_binary (op, self, other, error);

      return values != NULL &&
             gnn_ew_assign_ (self, values, kind, &other, 1, params, error);
    }

  /* @other may overlap @self (x.add_(x), a row of x added to x): read it
   * from a private copy so every element sees the values from before */
  if (!operand_init (&ob, other, sp->dtype, sp->shape, sp->ndim, bp->storage == sp->storage,
                     error))
    return FALSE;
  if (((op->flags & GNN_EW_INT_DIVISOR) &&
       !check_divisor (&ob, sp->dtype, sp->shape, sp->ndim, error)) ||
      !record_inplace (kind, self, &other, 1, params, error))
    {
      operand_clear (&ob);
      return FALSE;
    }
  size = gnn_dtype_get_size (sp->dtype);
  strides[0] = sp->strides;
  strides[1] = ob.strides;
  gnn_nditer_init (&it, sp->shape, sp->ndim, 2, strides);
  while (gnn_nditer_next (&it))
    kernel (it.inner_size,
            gnn_tensor_priv_data (sp) + it.offsets[0] * (gint64) size, it.inner_strides[0],
            ob.data + it.offsets[1] * (gint64) size, it.inner_strides[1]);
  operand_clear (&ob);
  return TRUE;
}

/* --- unary ------------------------------------------------------------------ */

typedef struct
{
  GnnUnaryKernel kernel;
  guint8        *o;
  const guint8  *a;
  gint64         os, as;
  gsize          osize, isize;
  double         param;
} UnaryRun;

static void
unary_range (gint64   begin,
             gint64   end,
             gpointer data)
{
  const UnaryRun *r = data;

  r->kernel (end - begin, r->o + begin * r->os * (gint64) r->osize, r->os,
             r->a + begin * r->as * (gint64) r->isize, r->as, r->param);
}

GnnTensor *
gnn_ew_unary (const GnnUnaryOp *op,
              GnnTensor        *self,
              double            param,
              GError          **error)
{
  GnnTensorPrivate *p, *outp;
  GnnDType result, compute;
  GnnUnaryKernel kernel;
  Operand oa;
  const gint64 *strides[2];
  gsize osize, isize;
  GnnTensor *out;
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  result = (op->flags & GNN_EW_FLOAT_RESULT) && !gnn_dtype_is_floating (p->dtype)
           ? GNN_DTYPE_F32 : p->dtype;
  compute = compute_dtype (result);
  kernel = op->kernels[compute];
  if (kernel == NULL)
    {
      gnn_set_not_implemented (error, op->cpu_name, p->dtype);
      return NULL;
    }
  if (!operand_init (&oa, self, compute, p->shape, p->ndim, FALSE, error))
    return NULL;
  out = gnn_tensor_new_contiguous_checked ((op->flags & GNN_EW_BOOL_OUT) ? GNN_DTYPE_BOOL
                                                                        : compute,
                                           p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    {
      operand_clear (&oa);
      return NULL;
    }
  outp = gnn_tensor_priv (out);
  osize = gnn_dtype_get_size (outp->dtype);
  isize = gnn_dtype_get_size (compute);
  strides[0] = outp->strides;
  strides[1] = oa.strides;
  gnn_nditer_init (&it, p->shape, p->ndim, 2, strides);
  if (!it.done && it.ndim == 1 && it.inner_size >= 2 * GNN_PARALLEL_GRAIN_ELEMS)
    {
      UnaryRun r = { kernel, gnn_tensor_priv_data (outp), oa.data, it.strides[0][0],
                     it.strides[1][0], osize, isize, param };

      gnn_parallel_for (it.inner_size, GNN_PARALLEL_GRAIN_ELEMS, unary_range, &r);
    }
  else
    while (gnn_nditer_next (&it))
      kernel (it.inner_size, gnn_tensor_priv_data (outp) + it.offsets[0] * (gint64) osize,
              it.inner_strides[0], oa.data + it.offsets[1] * (gint64) isize,
              it.inner_strides[1], param);
  operand_clear (&oa);
  if (!(op->flags & GNN_EW_BOOL_OUT) && result != compute)
    {
      GnnTensor *rounded = gnn_tensor_copy_checked (out, result, error);

      g_object_unref (out);
      out = rounded;
    }
  return out;
}
