/* data-test-util.c: datasets and helpers shared by the data tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data-test-util.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

/* --- Probe ------------------------------------------------------------------ */

G_DEFINE_TYPE (Probe, probe, GNN_TYPE_DATASET)

int probe_init_marker;

static gint64 probe_get_length (GnnDataset *ds) { return ((Probe *) ds)->length; }

static void
crash (void)
{
  struct rlimit no_core = { 0, 0 };

  setrlimit (RLIMIT_CORE, &no_core);
  /* Die by SIGSEGV exactly as a wild write would, but without one: ASan and
   * UBSan intercept real invalid writes (and exit normally), so restore the
   * default action first. */
  signal (SIGSEGV, SIG_DFL);
  raise (SIGSEGV);
}

static void
probe_get_item (GnnDataset *ds, gint64 index, GPtrArray **item, GError **error)
{
  Probe *self = (Probe *) ds;
  GnnWorkerInfo *info = gnn_get_worker_info ();

  g_atomic_int_inc (&self->calls);
  if (self->sleep_us > 0)
    g_usleep (self->sleep_us);
  if (self->max_delay_us > 0)   /* a deterministic pseudo-random delay per index */
    g_usleep ((guint) ((guint64) (index * 2654435761u) % self->max_delay_us));
  if (index == self->fault_index)
    switch (self->fault)
      {
      case FAULT_ERROR:
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "probe refuses item %" G_GINT64_FORMAT, index);
        return;
      case FAULT_SIGKILL:
        kill (getpid (), SIGKILL);
        break;
      case FAULT_SEGV:
        crash ();
        break;
      case FAULT_EXIT:
        _exit (3);
      case FAULT_NONE:
        break;
      }
  *item = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (*item, gnn_tensor_new_scalar ((double) index, GNN_DTYPE_I64));
  g_ptr_array_add (*item, gnn_tensor_new_scalar (info ? (double) gnn_worker_info_get_id (info) : -1, GNN_DTYPE_I64));
  g_ptr_array_add (*item, gnn_tensor_new_scalar (info ? (double) (gnn_worker_info_get_seed (info) % 1000003) : 0,
                                                 GNN_DTYPE_F64));
  if (self->process_fields)
    {
      g_ptr_array_add (*item, gnn_tensor_new_scalar (probe_init_marker, GNN_DTYPE_I64));
      g_ptr_array_add (*item, gnn_tensor_new_scalar (getpid (), GNN_DTYPE_I64));
    }
}

/* Probe and Counter keep their configuration in properties (int64 views of
 * their fields), so spawned workers rebuild them as configured. */
static const FieldProp probe_props[] = {
  { "length", G_STRUCT_OFFSET (Probe, length), sizeof (gint64) },
  { "fault-index", G_STRUCT_OFFSET (Probe, fault_index), sizeof (gint64) },
  { "fault", G_STRUCT_OFFSET (Probe, fault), sizeof (Fault) },
  { "max-delay-us", G_STRUCT_OFFSET (Probe, max_delay_us), sizeof (guint) },
  { "sleep-us", G_STRUCT_OFFSET (Probe, sleep_us), sizeof (guint) },
  { "process-fields", G_STRUCT_OFFSET (Probe, process_fields), sizeof (gboolean) },
};
static const FieldProp counter_props[] = {
  { "n", G_STRUCT_OFFSET (Counter, n), sizeof (gint64) },
  { "shard", G_STRUCT_OFFSET (Counter, shard), sizeof (gboolean) },
  { "fail-value", G_STRUCT_OFFSET (Counter, fail_value), sizeof (gint64) },
  { "seekable", G_STRUCT_OFFSET (Counter, seekable), sizeof (gboolean) },
};

static void
field_prop_get (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  const FieldProp *f = g_param_spec_get_qdata (pspec, g_quark_from_static_string ("field"));
  guint8 *at = (guint8 *) object + f->offset;

  g_value_set_int64 (value, f->size == sizeof (gint64) ? *(gint64 *) at : *(gint *) at);
}

static void
field_prop_set (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  const FieldProp *f = g_param_spec_get_qdata (pspec, g_quark_from_static_string ("field"));
  guint8 *at = (guint8 *) object + f->offset;

  if (f->size == sizeof (gint64))
    *(gint64 *) at = g_value_get_int64 (value);
  else
    *(gint *) at = (gint) g_value_get_int64 (value);
}

void
install_field_props (GObjectClass *klass, const FieldProp *props, guint n, gint64 defaults_minus_one)
{
  klass->get_property = field_prop_get;
  klass->set_property = field_prop_set;
  for (guint i = 0; i < n; i++)
    {
      gint64 def = (defaults_minus_one >> i) & 1 ? -1 : 0;
      GParamSpec *pspec = g_param_spec_int64 (props[i].name, NULL, NULL, G_MININT64, G_MAXINT64, def,
                                              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

      g_param_spec_set_qdata (pspec, g_quark_from_static_string ("field"), (gpointer) &props[i]);
      g_object_class_install_property (klass, i + 1, pspec);
    }
}

static void
probe_class_init (ProbeClass *klass)
{
  GNN_DATASET_CLASS (klass)->get_length = probe_get_length;
  GNN_DATASET_CLASS (klass)->get_item = probe_get_item;
  /* fault-index defaults to -1; fault to FAULT_ERROR (set in init, written out) */
  install_field_props (G_OBJECT_CLASS (klass), probe_props, G_N_ELEMENTS (probe_props), 1 << 1);
}

static void
probe_init (Probe *self)
{
  self->fault_index = -1;
  self->fault = FAULT_ERROR;
}

Probe *
probe_new (gint64 length, gboolean process_fields)
{
  Probe *p = g_object_new (probe_get_type (), NULL);

  p->length = length;
  p->process_fields = process_fields;
  return p;
}

/* --- Counter ---------------------------------------------------------------- */

typedef struct
{
  GnnItemIterator parent_instance;
  gint64 next, n, step, fail_value;
} CountIter;
typedef struct { GnnItemIteratorClass parent_class; } CountIterClass;
GType count_iter_get_type (void);
G_DEFINE_TYPE (CountIter, count_iter, GNN_TYPE_ITEM_ITERATOR)

static void
count_iter_next (GnnItemIterator *it, GPtrArray **item, GError **error)
{
  CountIter *self = (CountIter *) it;

  if (self->next >= self->n)
    return;
  if (self->next == self->fail_value)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "stream broke at %" G_GINT64_FORMAT, self->next);
      return;
    }
  *item = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (*item, gnn_tensor_new_scalar ((double) self->next, GNN_DTYPE_I64));
  self->next += self->step;
}

static void count_iter_class_init (CountIterClass *klass) { GNN_ITEM_ITERATOR_CLASS (klass)->next = count_iter_next; }
static void count_iter_init (CountIter *self) { }

/* The same stream, able to seek. */
typedef struct { CountIter parent_instance; gint *seeks; } SeekIter;
typedef struct { CountIterClass parent_class; } SeekIterClass;
GType seek_iter_get_type (void);
G_DEFINE_TYPE (SeekIter, seek_iter, count_iter_get_type ())

static gint64
seek_iter_skip (GnnItemIterator *it, gint64 n, GError **error)
{
  CountIter *self = (CountIter *) it;
  gint64 left = self->next >= self->n ? 0 : (self->n - self->next + self->step - 1) / self->step;
  gint64 done = MIN (n, left);

  g_atomic_int_inc (((SeekIter *) it)->seeks);
  self->next += done * self->step;
  return done;
}

static void seek_iter_class_init (SeekIterClass *klass) { GNN_ITEM_ITERATOR_CLASS (klass)->skip = seek_iter_skip; }
static void seek_iter_init (SeekIter *self) { }

G_DEFINE_TYPE (Counter, counter, GNN_TYPE_ITERABLE_DATASET)

static GnnItemIterator *
counter_create_iterator (GnnIterableDataset *ds, GError **error)
{
  Counter *self = (Counter *) ds;
  CountIter *it = g_object_new (self->seekable ? seek_iter_get_type () : count_iter_get_type (), NULL);
  GnnWorkerInfo *info = gnn_get_worker_info ();

  g_atomic_int_inc (&self->iterators);
  it->n = self->n;
  it->step = 1;
  it->fail_value = self->fail_value;
  if (self->seekable)
    ((SeekIter *) it)->seeks = &self->seeks;
  if (self->shard && info != NULL)
    {
      it->next = gnn_worker_info_get_id (info);
      it->step = gnn_worker_info_get_num_workers (info);
    }
  return GNN_ITEM_ITERATOR (it);
}

static gint64 counter_get_length (GnnDataset *ds) { return ((Counter *) ds)->n; }

static void
counter_class_init (CounterClass *klass)
{
  GNN_ITERABLE_DATASET_CLASS (klass)->create_iterator = counter_create_iterator;
  GNN_DATASET_CLASS (klass)->get_length = counter_get_length;
  install_field_props (G_OBJECT_CLASS (klass), counter_props, G_N_ELEMENTS (counter_props), 1 << 2);
}

static void counter_init (Counter *self) { self->fail_value = -1; }

Counter *
counter_new (gint64 n, gboolean shard)
{
  Counter *c = g_object_new (counter_get_type (), NULL);

  c->n = n;
  c->shard = shard;
  return c;
}

/* --- loaders ---------------------------------------------------------------- */

GnnDataLoader *
loader_new (GnnDataset *ds, gint64 batch_size, gboolean shuffle, gint num_workers, GnnWorkerMode mode)
{
  GnnDataLoader *l = gnn_data_loader_new (ds, batch_size, shuffle);

  g_object_set (l, "num-workers", num_workers, "seed", (guint64) 1234, "worker-mode", mode, NULL);
  return l;
}

void
append_indices (GArray *order, GnnTensor *idx)
{
  gint64 n = gnn_tensor_get_size (idx, 0, NULL);

  for (gint64 i = 0; i < n; i++)
    {
      gint64 v = (gint64) gnn_tensor_get_element (idx, &i, 1, NULL);

      g_array_append_val (order, v);
    }
}

GArray *
run_epoch (GnnDataLoader *loader, guint n_fields, GArray *batch_sizes, GError **error)
{
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, error);
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (gint64));
  GPtrArray *batch;

  if (iter == NULL)
    return NULL;
  while (gnn_data_loader_iter_next (iter, &batch, error))
    {
      GnnTensor *idx = g_ptr_array_index (batch, 0);
      gint64 n = gnn_tensor_get_size (idx, 0, NULL);

      g_assert_cmpuint (batch->len, ==, n_fields);
      g_assert_cmpint (gnn_tensor_get_dtype (idx), ==, GNN_DTYPE_I64);
      append_indices (out, idx);
      if (batch_sizes != NULL)
        g_array_append_val (batch_sizes, n);
      g_ptr_array_unref (batch);
    }
  if (error != NULL && *error != NULL)
    return NULL;
  return g_steal_pointer (&out);
}

void
assert_each_index_once (GArray *order, gint64 n)
{
  g_autofree gboolean *seen = g_new0 (gboolean, n);

  g_assert_cmpuint (order->len, ==, n);
  for (guint i = 0; i < order->len; i++)
    {
      gint64 v = g_array_index (order, gint64, i);

      g_assert_cmpint (v, >=, 0);
      g_assert_cmpint (v, <, n);
      g_assert_false (seen[v]);
      seen[v] = TRUE;
    }
}

struct _Spinners
{
  gint     stop;
  guint    n;
  GThread *threads[];
};

static gpointer
spin (gpointer data)
{
  Spinners *s = data;

  while (!g_atomic_int_get (&s->stop))
    {
      g_free (g_malloc (64));
      g_usleep (50);   /* busy, without taking the test's two cores */
    }
  return NULL;
}

Spinners *
spinners_start (guint n)
{
  Spinners *s = g_malloc0 (sizeof (Spinners) + n * sizeof (GThread *));

  s->n = n;
  for (guint i = 0; i < n; i++)
    s->threads[i] = g_thread_new ("spin", spin, s);
  return s;
}

void
spinners_stop (Spinners *s)
{
  g_atomic_int_set (&s->stop, 1);
  for (guint i = 0; i < s->n; i++)
    g_thread_join (s->threads[i]);
  g_free (s);
}
