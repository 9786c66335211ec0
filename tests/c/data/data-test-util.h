/* data-test-util.h: datasets and helpers shared by the data tests
 * (a static library, see meson.build).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

/* What a Probe does at its fault_index. */
typedef enum { FAULT_NONE, FAULT_ERROR, FAULT_SIGKILL, FAULT_SEGV, FAULT_EXIT } Fault;

/* A map-style dataset whose item i is (i, worker id or -1, worker seed %
 * 1000003 or 0) as 0-d tensors, with two more fields when made with
 * @process_fields: (probe_init_marker, pid). It can sleep, delay by a
 * pseudo-random amount per index, and fault at fault_index (by default an
 * error "probe refuses item i"); it counts its calls (atomic). */
typedef struct
{
  GnnDataset parent_instance;
  gint64     length;
  gint64     fault_index;
  Fault      fault;
  guint      max_delay_us;
  guint      sleep_us;
  gint       calls;
  gboolean   process_fields;
} Probe;
typedef struct { GnnDatasetClass parent_class; } ProbeClass;
GType probe_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Probe, g_object_unref)

/* Set by the process tests' worker-init handler, in the worker. */
extern int probe_init_marker;

Probe *probe_new (gint64 length, gboolean process_fields);

/* An iterable dataset: a stream of 0..n-1 (as 0-d int64 tensors); with
 * shard, worker w of W yields the values v with v % W == w. Fails at
 * fail_value if >= 0; counts create_iterator calls (atomic). */
typedef struct
{
  GnnIterableDataset parent_instance;
  gint64   n;
  gboolean shard;
  gint64   fail_value;
  gint     iterators;
  gboolean seekable;    /* its iterators implement skip (arithmetic) */
  gint     seeks;       /* skip calls (atomic) */
} Counter;
typedef struct { GnnIterableDatasetClass parent_class; } CounterClass;
GType counter_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Counter, g_object_unref)

Counter *counter_new (gint64 n, gboolean shard);

/* int64 properties viewing struct fields (gint64 or gint sized), numbered
 * from 1, default 0 or -1 (bit i of @defaults_minus_one): test datasets
 * keep their configuration in properties so spawned workers rebuild them. */
typedef struct { const char *name; gsize offset; gsize size; } FieldProp;
void install_field_props (GObjectClass *klass, const FieldProp *props, guint n,
                          gint64 defaults_minus_one);

/* A loader with num-workers, seed 1234 and worker-mode set. */
GnnDataLoader *loader_new (GnnDataset   *ds,
                           gint64        batch_size,
                           gboolean      shuffle,
                           gint          num_workers,
                           GnnWorkerMode mode);

/* Appends the values of the 1-d tensor @idx to @order (gint64). */
void append_indices (GArray    *order,
                     GnnTensor *idx);

/* One epoch of a loader over a Probe whose items have @n_fields fields:
 * the indices (field 0) in delivery order, batch sizes appended to
 * @batch_sizes if not NULL; NULL + @error on failure. */
GArray *run_epoch (GnnDataLoader *loader,
                   guint          n_fields,
                   GArray        *batch_sizes,
                   GError       **error);

/* Asserts that @order holds each of 0..n-1 exactly once. */
void assert_each_index_once (GArray *order,
                             gint64  n);

/* @n busy threads, often inside malloc: what a forked child could inherit
 * locked. */
typedef struct _Spinners Spinners;
Spinners *spinners_start (guint n);
void      spinners_stop  (Spinners *spinners);
