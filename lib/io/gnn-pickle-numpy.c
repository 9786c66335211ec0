/* gnn-pickle-numpy.c: numpy arrays, dtypes and scalars in the restricted
 * unpickler — the values numpy's __reduce__ spells, rebuilt by checking
 * them, never by calling numpy
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "core/gnn-checked-private.h"
#include "io/gnn-io-private.h"
#include "io/gnn-pickle-machine-private.h"

/*
 * numpy pickles an array in one of two ways:
 *   protocols 2-4: _reconstruct(ndarray, (0,), b'b') makes an empty array,
 *     then BUILD gives it (version, shape, dtype, is_fortran, raw bytes);
 *   protocol 5: _frombuffer(buffer, dtype, shape, order).
 * A dtype is dtype(typestr, False, True) then BUILD with
 * (3, byteorder, subarray, names, fields, elsize, alignment, flags); a
 * scalar is scalar(dtype, raw bytes). Only the plain numeric dtypes Gnn
 * has are accepted, in little-endian or single-byte order; the raw bytes
 * must hold exactly shape × itemsize bytes.
 */

static const struct
{
  const char *typestr;
  GnnDType    dtype;
} numpy_dtypes[] = {
  { "f4", GNN_DTYPE_F32 }, { "f8", GNN_DTYPE_F64 }, { "f2", GNN_DTYPE_F16 },
  { "i8", GNN_DTYPE_I64 }, { "i4", GNN_DTYPE_I32 }, { "i2", GNN_DTYPE_I16 },
  { "i1", GNN_DTYPE_I8 }, { "u1", GNN_DTYPE_U8 }, { "b1", GNN_DTYPE_BOOL },
};

static GnnPkValue *
arg (GPtrArray *args,
     guint      i)
{
  return g_ptr_array_index (args, i);
}

static GnnPkValue *
array_new (GnnPickleMachine *m)
{
  GnnPkValue *v = gnn_pickle_charge (m, sizeof (GnnPkArray)) ? gnn_pickle_value_new (m, GNN_PK_NDARRAY)
                                                               : NULL;

  if (v != NULL)
    v->v.array = g_new0 (GnnPkArray, 1);
  return v;
}

/* dtype(typestr, align, copy): an unbuilt dtype until BUILD gives its byte order. */
static GnnPkValue *
dtype_new (GnnPickleMachine *m,
           GPtrArray        *args)
{
  GnnPkValue *typestr, *v;
  const char *text;

  if (args->len != 3 || arg (args, 0)->kind != GNN_PK_STR)
    {
      gnn_pickle_fail (m, "numpy.dtype is called with something other than (typestr, align, copy)");
      return NULL;
    }
  typestr = arg (args, 0);
  text = typestr->v.str.data;
  /* a byte order in the typestr itself: only little-endian or none */
  if (text[0] == '<' || text[0] == '|' || text[0] == '=')
    text++;
  for (guint i = 0; i < G_N_ELEMENTS (numpy_dtypes); i++)
    if (strcmp (numpy_dtypes[i].typestr, text) == 0)
      {
        v = gnn_pickle_value_new (m, GNN_PK_NP_DTYPE);
        if (v != NULL)
          {
            v->v.np_dtype.dtype = numpy_dtypes[i].dtype;
            v->v.np_dtype.itemsize = gnn_dtype_get_size (numpy_dtypes[i].dtype);
            /* a typestr with its byte order needs no BUILD */
            v->v.np_dtype.built = text != typestr->v.str.data;
          }
        return v;
      }
  {
    g_autofree char *display = gnn_io_escape_utf8 (typestr->v.str.data, -1);

    if (m->error != NULL && *m->error == NULL)
      g_set_error (m->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "numpy dtype '%s' is not supported (Gnn loads numpy arrays of float16/32/64, "
                   "int8/16/32/64, uint8 and bool)", display);
  }
  return NULL;
}

/* BUILD on a dtype: (3, byteorder, subarray, names, fields, elsize, alignment, flags). */
static gboolean
dtype_build (GnnPickleMachine *m,
             GnnPkValue       *dtype,
             GnnPkValue       *state)
{
  GnnPkValue *order;

  if (dtype->v.np_dtype.built)
    return gnn_pickle_fail (m, "a numpy dtype's state is set twice");
  if (state->kind != GNN_PK_TUPLE || state->v.items->len < 5 || arg (state->v.items, 0)->kind != GNN_PK_INT ||
      arg (state->v.items, 1)->kind != GNN_PK_STR)
    return gnn_pickle_fail (m, "a numpy dtype's state is not (version, byteorder, ...)");
  for (guint i = 2; i < 5; i++)
    if (arg (state->v.items, i)->kind != GNN_PK_NONE)
      {
        if (m->error != NULL && *m->error == NULL)
          g_set_error (m->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "numpy arrays of structured or subarray dtypes are not supported");
        return FALSE;
      }
  order = arg (state->v.items, 1);
  if (strcmp (order->v.str.data, ">") == 0 && dtype->v.np_dtype.itemsize > 1)
    {
      if (m->error != NULL && *m->error == NULL)
        g_set_error (m->error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                     "big-endian numpy arrays are not supported (convert with "
                     "array.astype(array.dtype.newbyteorder('<')) before pickling)");
      return FALSE;
    }
  if (strcmp (order->v.str.data, "<") != 0 && strcmp (order->v.str.data, "|") != 0 &&
      strcmp (order->v.str.data, "=") != 0 && strcmp (order->v.str.data, ">") != 0)
    return gnn_pickle_fail (m, "a numpy dtype's byte order is not one of <, >, |, =");
  dtype->v.np_dtype.built = TRUE;
  return TRUE;
}

/* Copies a Fortran-order buffer into C order (same shape). */
static void
fortran_to_c (const guint8 *src,
              guint8       *dst,
              const gint64 *size,
              guint         ndim,
              gsize         itemsize,
              gint64        numel)
{
  gint64 index[GNN_MAX_DIMS] = { 0 };
  gint64 fstride[GNN_MAX_DIMS];

  for (guint d = 0; d < ndim; d++)
    fstride[d] = d == 0 ? 1 : fstride[d - 1] * size[d - 1];
  for (gint64 i = 0; i < numel; i++)
    {
      gint64 offset = 0;

      for (guint d = 0; d < ndim; d++)
        offset += index[d] * fstride[d];
      memcpy (dst + i * itemsize, src + offset * itemsize, itemsize);
      for (guint d = ndim; d-- > 0;)
        if (++index[d] < size[d])
          break;
        else
          index[d] = 0;
    }
}

/* Fills @array from a shape tuple, a built dtype and raw bytes that must
 * hold exactly the elements (reordered to C order when @fortran). */
static gboolean
array_fill (GnnPickleMachine *m,
            GnnPkValue       *array,
            GnnPkValue       *shape,
            GnnPkValue       *dtype,
            gboolean          fortran,
            GnnPkValue       *raw)
{
  GnnPkArray *a = array->v.array;
  gint64 nbytes = 1;

  if (shape->kind != GNN_PK_TUPLE && shape->kind != GNN_PK_LIST)
    return gnn_pickle_fail (m, "a numpy array's shape is not a tuple");
  if (dtype->kind != GNN_PK_NP_DTYPE || !dtype->v.np_dtype.built)
    return gnn_pickle_fail (m, "a numpy array's dtype is not a numpy dtype");
  if (raw->kind != GNN_PK_BYTES)
    return gnn_pickle_fail (m, "a numpy array's data is not bytes (object arrays are not supported)");
  if (shape->v.items->len > GNN_MAX_DIMS)
    return gnn_pickle_fail (m, "a numpy array has %u dimensions; Gnn supports at most %d",
                            shape->v.items->len, GNN_MAX_DIMS);
  for (guint d = 0; d < shape->v.items->len; d++)
    {
      GnnPkValue *n = arg (shape->v.items, d);

      if (n->kind != GNN_PK_INT || n->v.i < 0)
        return gnn_pickle_fail (m, "a numpy array's shape holds something other than a non-negative integer");
      a->size[d] = n->v.i;
    }
  if (!gnn_shape_numel_checked (a->size, shape->v.items->len, dtype->v.np_dtype.itemsize, &nbytes))
    return gnn_pickle_fail (m, "a numpy array's shape overflows");
  nbytes *= dtype->v.np_dtype.itemsize;
  if ((guint64) nbytes != raw->v.str.len)
    return gnn_pickle_fail (m, "a numpy array's shape and dtype need %" G_GINT64_FORMAT " bytes and its data has %"
                            G_GSIZE_FORMAT, nbytes, raw->v.str.len);
  /* a bool byte other than 0 or 1 is no value torch or numpy makes */
  if (dtype->v.np_dtype.dtype == GNN_DTYPE_BOOL)
    for (gint64 i = 0; i < nbytes; i++)
      if ((guint8) raw->v.str.data[i] > 1)
        return gnn_pickle_fail (m, "a numpy bool array holds a byte other than 0 or 1");
  a->ndim = shape->v.items->len;
  a->dtype = dtype->v.np_dtype.dtype;
  if (fortran && a->ndim > 1 && nbytes > 0)
    {
      GnnPkValue *reordered = gnn_pickle_value_new (m, GNN_PK_BYTES);

      if (reordered == NULL || !gnn_pickle_charge (m, nbytes + 1))
        return FALSE;
      reordered->v.str.data = g_malloc (nbytes + 1);
      reordered->v.str.data[nbytes] = '\0';
      reordered->v.str.len = nbytes;
      fortran_to_c ((const guint8 *) raw->v.str.data, (guint8 *) reordered->v.str.data, a->size, a->ndim,
                    dtype->v.np_dtype.itemsize, nbytes / dtype->v.np_dtype.itemsize);
      raw = reordered;
    }
  a->data = raw;
  return TRUE;
}

/* _reconstruct(ndarray, (0,), b'b'): the empty array BUILD fills. */
static GnnPkValue *
reconstruct (GnnPickleMachine *m,
             GPtrArray        *args)
{
  if (args->len != 3 || !gnn_pickle_is_global (arg (args, 0), GNN_PK_GLOBAL_NP_NDARRAY))
    {
      gnn_pickle_fail (m, "numpy's _reconstruct makes something other than a numpy.ndarray");
      return NULL;
    }
  return array_new (m);
}

/* _frombuffer(buffer, dtype, shape, order) */
static GnnPkValue *
frombuffer (GnnPickleMachine *m,
            GPtrArray        *args)
{
  GnnPkValue *order, *array;

  if (args->len != 4 || arg (args, 3)->kind != GNN_PK_STR)
    {
      gnn_pickle_fail (m, "numpy's _frombuffer takes (buffer, dtype, shape, order)");
      return NULL;
    }
  order = arg (args, 3);
  if (strcmp (order->v.str.data, "C") != 0 && strcmp (order->v.str.data, "F") != 0)
    {
      gnn_pickle_fail (m, "numpy's _frombuffer is given an order other than 'C' or 'F'");
      return NULL;
    }
  array = array_new (m);
  if (array == NULL ||
      !array_fill (m, array, arg (args, 2), arg (args, 1), order->v.str.data[0] == 'F', arg (args, 0)))
    return NULL;
  return array;
}

/* scalar(dtype, raw bytes): a 0-d array. */
static GnnPkValue *
scalar (GnnPickleMachine *m,
        GPtrArray        *args)
{
  GnnPkValue *array, *shape;

  if (args->len != 2)
    {
      gnn_pickle_fail (m, "numpy's scalar takes (dtype, bytes)");
      return NULL;
    }
  array = array_new (m);
  shape = gnn_pickle_seq_new (m, GNN_PK_TUPLE);
  if (array == NULL || shape == NULL || !array_fill (m, array, shape, arg (args, 0), FALSE, arg (args, 1)))
    return NULL;
  return array;
}

GnnPkValue *
gnn_pickle_numpy_reduce (GnnPickleMachine *m,
                         GnnPkGlobal       which,
                         GPtrArray        *args)
{
  switch (which)
    {
    case GNN_PK_GLOBAL_NP_RECONSTRUCT:
      return reconstruct (m, args);
    case GNN_PK_GLOBAL_NP_DTYPE:
      return dtype_new (m, args);
    case GNN_PK_GLOBAL_NP_SCALAR:
      return scalar (m, args);
    case GNN_PK_GLOBAL_NP_FROMBUFFER:
      return frombuffer (m, args);
    default:
      gnn_pickle_fail (m, "numpy.ndarray is called directly");
      return NULL;
    }
}

gboolean
gnn_pickle_numpy_build (GnnPickleMachine *m,
                        GnnPkValue       *object,
                        GnnPkValue       *state)
{
  GPtrArray *items;
  guint first;

  if (object->kind == GNN_PK_NP_DTYPE)
    return dtype_build (m, object, state);
  if (object->v.array->data != NULL)
    return gnn_pickle_fail (m, "a numpy array's state is set twice");
  /* (version, shape, dtype, is_fortran, raw) or, from old numpy, without the version */
  if (state->kind != GNN_PK_TUPLE || (state->v.items->len != 5 && state->v.items->len != 4))
    return gnn_pickle_fail (m, "a numpy array's state is not (version, shape, dtype, is_fortran, data)");
  items = state->v.items;
  first = items->len - 4;
  if (first == 1 && arg (items, 0)->kind != GNN_PK_INT)
    return gnn_pickle_fail (m, "a numpy array's state version is not an integer");
  if (arg (items, first + 2)->kind != GNN_PK_BOOL)
    return gnn_pickle_fail (m, "a numpy array's is_fortran is not a bool");
  return array_fill (m, object, arg (items, first), arg (items, first + 1), arg (items, first + 2)->v.b,
                     arg (items, first + 3));
}

GnnTensor *
gnn_pickle_array_to_tensor (GnnPkValue  *v,
                            GError     **error)
{
  GnnPkArray *a = v->v.array;

  g_return_val_if_fail (v->kind == GNN_PK_NDARRAY, NULL);
  if (a->data == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "invalid pickle: a numpy array is never given its data");
      return NULL;
    }
  return gnn_tensor_new_from_data ((const guint8 *) a->data->v.str.data, a->data->v.str.len, a->dtype, a->size,
                                   a->ndim, error);
}
