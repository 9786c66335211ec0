/* gnn-torch-private.h: torch's .pt/.pth files — the zip container, the
 * restricted unpickler, and what they produce
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* --- the zip container (gnn-zip-reader.c, on libzip) ----------------------------- */

typedef struct _GnnZipReader GnnZipReader;

/* Opens the zip archive held in @bytes (a mapped file). Checked here, for
 * every entry: libzip's consistency checks (central directory against the
 * local headers), no name twice, no symbolic link. Decompressed entries
 * share one budget: the size of @bytes (a zip bomb is refused). */
GnnZipReader *gnn_zip_reader_new      (GBytes        *bytes,
                                       GError       **error);
void          gnn_zip_reader_free     (GnnZipReader  *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnZipReader, gnn_zip_reader_free)

guint         gnn_zip_reader_get_n_entries (GnnZipReader *reader);
const char   *gnn_zip_reader_get_name (GnnZipReader  *reader,
                                       guint          index);
/* The index of entry @name, or -1. */
gint64        gnn_zip_reader_find     (GnnZipReader  *reader,
                                       const char    *name);
/* The uncompressed size of entry @index. */
guint64       gnn_zip_reader_get_size (GnnZipReader  *reader,
                                       guint          index);
/* The bytes of entry @index: a slice of @bytes when it is stored
 * uncompressed (zero copy; *zero_copy TRUE), else decompressed (CRC
 * checked) into memory of its own within the budget. Encrypted entries are
 * refused. */
GBytes       *gnn_zip_reader_read     (GnnZipReader  *reader,
                                       guint          index,
                                       gboolean      *zero_copy,
                                       GError       **error);

/* --- the restricted unpickler (gnn-pickle.c) -------------------------------------- */

typedef enum
{
  GNN_PK_NONE,
  GNN_PK_BOOL,
  GNN_PK_INT,
  GNN_PK_FLOAT,
  GNN_PK_STR,
  GNN_PK_BYTES,
  GNN_PK_TUPLE,
  GNN_PK_LIST,
  GNN_PK_SET,
  GNN_PK_DICT,
  GNN_PK_GLOBAL,
  GNN_PK_STORAGE,
  GNN_PK_TENSOR,
  GNN_PK_NP_DTYPE,    /* numpy.dtype('u1') & co, little-endian or single-byte */
  GNN_PK_NDARRAY,     /* a numpy array: C-order bytes, dtype, shape */
} GnnPkKind;

/* The globals a pickle may name (anything else is an error at once). */
typedef enum
{
  GNN_PK_GLOBAL_ORDERED_DICT,
  GNN_PK_GLOBAL_REBUILD_TENSOR,
  GNN_PK_GLOBAL_REBUILD_TENSOR_V2,
  GNN_PK_GLOBAL_REBUILD_PARAMETER,
  GNN_PK_GLOBAL_REBUILD_PARAMETER_WITH_STATE,
  GNN_PK_GLOBAL_PARAMETER,
  GNN_PK_GLOBAL_SIZE,
  GNN_PK_GLOBAL_STORAGE_TYPE,   /* torch.FloatStorage & co: dtype in the value */
  GNN_PK_GLOBAL_DTYPE,          /* torch.float32 & co: a value only */
  GNN_PK_GLOBAL_CODECS_ENCODE,  /* _codecs.encode(str, 'latin1'): bytes in protocol 2 */
  GNN_PK_GLOBAL_NP_RECONSTRUCT, /* numpy.core.multiarray._reconstruct: an empty array to BUILD */
  GNN_PK_GLOBAL_NP_NDARRAY,     /* numpy.ndarray: _reconstruct's first argument only */
  GNN_PK_GLOBAL_NP_DTYPE,       /* numpy.dtype(typestr, align, copy) */
  GNN_PK_GLOBAL_NP_SCALAR,      /* numpy.core.multiarray.scalar(dtype, bytes) */
  GNN_PK_GLOBAL_NP_FROMBUFFER,  /* numpy.core.numeric._frombuffer(bytes, dtype, shape, order): protocol 5 */
} GnnPkGlobal;

typedef struct _GnnPkValue GnnPkValue;

/* _rebuild_tensor_v2's arguments (apart, to keep every value small). */
typedef struct
{
  GnnPkValue *storage;
  gint64      offset;
  guint       ndim;
  gint64      size[GNN_MAX_DIMS];
  gint64      stride[GNN_MAX_DIMS];
  gboolean    requires_grad;
  gboolean    parameter;
} GnnPkTensor;

/* A numpy array: @data is a BYTES value of exactly numel × itemsize bytes
 * in C order (Fortran-order arrays are reordered when built). */
typedef struct
{
  GnnDType    dtype;
  guint       ndim;
  gint64      size[GNN_MAX_DIMS];
  GnnPkValue *data;         /* NULL until BUILD gives the state */
} GnnPkArray;

struct _GnnPkValue
{
  GnnPkKind kind;
  union
  {
    gboolean b;
    gint64   i;
    double   f;
    struct { char *data; gsize len; } str;             /* STR (UTF-8), BYTES; NUL-terminated */
    GPtrArray *items;                                  /* TUPLE, LIST, SET: GnnPkValue* */
    struct { GPtrArray *keys, *values; gboolean ordered; } dict;
    struct { GnnPkGlobal which; GnnDType dtype; const char *name; } global;
    struct { char *key; GnnDType dtype; gint64 numel; } storage;
    GnnPkTensor *tensor;
    struct { GnnDType dtype; guint itemsize; gboolean built; } np_dtype;
    GnnPkArray *array;
  } v;
};

typedef struct _GnnPickle GnnPickle;

/* Runs the restricted unpickler over @data (protocol 2 to 5): no opcode
 * can call or import anything; the globals allowed are torch's tensor
 * rebuild functions, storage types, dtypes, torch.Size, Parameter,
 * collections.OrderedDict (torch 1.13's weights_only list for plain
 * checkpoints) and _codecs.encode for latin-1 (how protocol 2 spells
 * bytes; torch 2's list has it), each a known constructor. Every value lives in the
 * returned GnnPickle, whose allocations are bounded by @budget bytes;
 * the memo, the stack and marks are bounded too. */
GnnPickle    *gnn_pickle_load         (const guint8  *data,
                                       gsize          len,
                                       gsize          budget,
                                       GError       **error);
void          gnn_pickle_free         (GnnPickle     *pickle);
GnnPkValue   *gnn_pickle_get_root     (GnnPickle     *pickle);
/* The number of values made (a bound for walks over shared values). */
guint         gnn_pickle_get_n_values (GnnPickle     *pickle);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnPickle, gnn_pickle_free)

/* A new tensor holding a copy of the numpy array @v (an NDARRAY value). */
GnnTensor    *gnn_pickle_array_to_tensor (GnnPkValue  *v,
                                          GError     **error);

G_END_DECLS
