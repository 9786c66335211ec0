/* gnn-dtype.c: dtype sizes, names and converting element access
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/**
 * gnn_dtype_get_size:
 * @dtype: a #GnnDType
 *
 * Gets the size of one element of @dtype.
 *
 * Returns: the size of one element of @dtype, in bytes
 *
 * Since: 0.1
 */
gsize
gnn_dtype_get_size (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F64:
    case GNN_DTYPE_I64:
      return 8;
    case GNN_DTYPE_F32:
    case GNN_DTYPE_I32:
      return 4;
    case GNN_DTYPE_F16:
    case GNN_DTYPE_BF16:
    case GNN_DTYPE_I16:
      return 2;
    case GNN_DTYPE_I8:
    case GNN_DTYPE_U8:
    case GNN_DTYPE_BOOL:
      return 1;
    default:
      return 0;
    }
}

/**
 * gnn_dtype_get_name:
 * @dtype: a #GnnDType
 *
 * Returns PyTorch's name of the dtype without the `torch.` prefix, e.g.
 * `float32`, `int64`, `bool`.
 *
 * Returns: (transfer none): the name, or `unknown` for a value that is no dtype
 *
 * Since: 0.1
 */
const char *
gnn_dtype_get_name (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "float32";
    case GNN_DTYPE_F64: return "float64";
    case GNN_DTYPE_F16: return "float16";
    case GNN_DTYPE_BF16: return "bfloat16";
    case GNN_DTYPE_I64: return "int64";
    case GNN_DTYPE_I32: return "int32";
    case GNN_DTYPE_I16: return "int16";
    case GNN_DTYPE_I8: return "int8";
    case GNN_DTYPE_U8: return "uint8";
    case GNN_DTYPE_BOOL: return "bool";
    default: return "unknown";
    }
}

/**
 * gnn_dtype_is_floating:
 * @dtype: a #GnnDType
 *
 * Checks whether @dtype is a floating-point type.
 *
 * Returns: whether @dtype is a floating-point type
 *
 * Since: 0.1
 */
gboolean
gnn_dtype_is_floating (GnnDType dtype)
{
  return dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64 ||
         dtype == GNN_DTYPE_F16 || dtype == GNN_DTYPE_BF16;
}

/* IEEE half <-> float, round to nearest even; handles subnormals, inf, NaN. */
float
gnn_half_to_float (guint16 h)
{
  guint32 sign = (guint32) (h & 0x8000) << 16;
  guint32 exp = (h >> 10) & 0x1f;
  guint32 mant = h & 0x3ff;
  guint32 bits;
  float f;

  if (exp == 0)
    {
      if (mant == 0)
        bits = sign;
      else
        {
          /* subnormal: value = mant * 2^-24 */
          f = (float) mant * (1.0f / 16777216.0f);
          return sign ? -f : f;
        }
    }
  else if (exp == 31)
    bits = sign | 0x7f800000u | (mant << 13);
  else
    bits = sign | ((exp + 112) << 23) | (mant << 13);

  memcpy (&f, &bits, sizeof f);
  return f;
}

guint16
gnn_float_to_half (float f)
{
  guint32 x;
  guint32 sign, mant;
  gint32 exp;

  memcpy (&x, &f, sizeof x);
  sign = (x >> 16) & 0x8000;
  exp = (gint32) ((x >> 23) & 0xff);
  mant = x & 0x7fffff;

  if (exp == 0xff)
    return (guint16) (sign | 0x7c00 | (mant ? 0x200 : 0));

  exp = exp - 127 + 15;
  if (exp >= 31)
    return (guint16) (sign | 0x7c00);
  if (exp <= 0)
    {
      guint32 shift, half_mant, rem, halfway;

      if (exp < -10)
        return (guint16) sign;
      mant |= 0x800000;
      shift = (guint32) (14 - exp);
      half_mant = mant >> shift;
      rem = mant & ((1u << shift) - 1);
      halfway = 1u << (shift - 1);
      if (rem > halfway || (rem == halfway && (half_mant & 1)))
        half_mant++;
      return (guint16) (sign | half_mant);
    }
  else
    {
      guint32 h = sign | ((guint32) exp << 10) | (mant >> 13);
      guint32 rem = mant & 0x1fff;

      if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
        h++;   /* may carry into the exponent, which is the correct rounding */
      return (guint16) h;
    }
}

float
gnn_bfloat16_to_float (guint16 h)
{
  guint32 bits = (guint32) h << 16;
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

guint16
gnn_float_to_bfloat16 (float f)
{
  guint32 x;

  memcpy (&x, &f, sizeof x);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (guint16) ((x >> 16) | 0x40);   /* quiet NaN */
  x += 0x7fff + ((x >> 16) & 1);           /* round to nearest even */
  return (guint16) (x >> 16);
}

double
gnn_dtype_read (GnnDType dtype, const void *p)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return *(const float *) p;
    case GNN_DTYPE_F64: return *(const double *) p;
    case GNN_DTYPE_F16: return gnn_half_to_float (*(const guint16 *) p);
    case GNN_DTYPE_BF16: return gnn_bfloat16_to_float (*(const guint16 *) p);
    case GNN_DTYPE_I64: return (double) *(const gint64 *) p;
    case GNN_DTYPE_I32: return *(const gint32 *) p;
    case GNN_DTYPE_I16: return *(const gint16 *) p;
    case GNN_DTYPE_I8: return *(const gint8 *) p;
    case GNN_DTYPE_U8: return *(const guint8 *) p;
    case GNN_DTYPE_BOOL: return *(const guint8 *) p ? 1.0 : 0.0;
    default: return 0.0;
    }
}

void
gnn_dtype_write (GnnDType dtype, void *p, double value)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: *(float *) p = (float) value; break;
    case GNN_DTYPE_F64: *(double *) p = value; break;
    case GNN_DTYPE_F16: *(guint16 *) p = gnn_float_to_half ((float) value); break;
    case GNN_DTYPE_BF16: *(guint16 *) p = gnn_float_to_bfloat16 ((float) value); break;
    case GNN_DTYPE_I64: *(gint64 *) p = (gint64) value; break;
    /* through int64, so that an out-of-range integer value wraps as in torch */
    case GNN_DTYPE_I32: *(gint32 *) p = (gint32) (gint64) value; break;
    case GNN_DTYPE_I16: *(gint16 *) p = (gint16) (gint64) value; break;
    case GNN_DTYPE_I8: *(gint8 *) p = (gint8) (gint64) value; break;
    case GNN_DTYPE_U8: *(guint8 *) p = (guint8) (gint64) value; break;
    case GNN_DTYPE_BOOL: *(guint8 *) p = value != 0.0; break;
    default: break;
    }
}
