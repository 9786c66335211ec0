/* gnn-process-group.c: collectives on tensors over MPI (torch.distributed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "distributed/gnn-distributed-private.h"

/**
 * GnnProcessGroup:
 *
 * A group of processes (ranks) that run collectives on tensors, like
 * PyTorch's `ProcessGroupMPI`: `torch.distributed.init_process_group
 * ("mpi")` is [func@Gnn.init_process_group].
 *
 * The only backend is `"mpi"` (Open MPI): start the program with `mpirun -np
 * N program …`; rank and world size come from the environment mpirun gives
 * each process (a program started without mpirun is rank 0 of 1). MPI is
 * initialized once per process with `MPI_Init_thread` at
 * `MPI_THREAD_SERIALIZED`; every MPI call then runs on one communication
 * thread, so collectives are asynchronous: each returns a [class@Gnn.Work]
 * at once and overlaps with computation until [method@Gnn.Work.wait]. All
 * ranks must issue the same collectives in the same order.
 *
 * Collectives work in place on contiguous tensors of any dtype (float16 and
 * bfloat16 only for broadcast and all_gather). Errors never abort a healthy
 * rank: the communicator returns MPI errors (`MPI_ERRORS_RETURN`) as
 * #GError, and a wait that exceeds [property@Gnn.ProcessGroup:timeout]
 * fails with %GNN_ERROR_TIMEOUT and marks the group broken (see
 * [method@Gnn.Work.wait]). A Gnn built without MPI keeps these types; the
 * constructor then fails with %GNN_ERROR_NOT_SUPPORTED ("Gnn was built
 * without MPI …").
 *
 * Since: 0.1
 */
struct _GnnProcessGroup
{
  GObject  parent_instance;

  char    *backend;
  gpointer comm;
  gint     rank;
  gint     world_size;
  gint64   timeout_ms;
};

enum { PROP_0, PROP_BACKEND, PROP_RANK, PROP_WORLD_SIZE, PROP_TIMEOUT, N_PROPS };
static GParamSpec *properties[N_PROPS];

#define DEFAULT_TIMEOUT_MS (30 * 60 * 1000)   /* torch's default_pg_timeout */

static void gnn_process_group_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnProcessGroup, gnn_process_group, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      gnn_process_group_initable_iface_init))

static gboolean
gnn_process_group_initable_init (GInitable     *initable,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  GnnProcessGroup *self = GNN_PROCESS_GROUP (initable);
  g_autoptr(GnnWork) work = NULL;
  GnnCommOp *op;

  if (self->comm != NULL)
    return TRUE;
  if (g_strcmp0 (self->backend, "mpi") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid backend: '%s'; Gnn's process groups support \"mpi\" (Open MPI)",
                   self->backend);
      return FALSE;
    }
  if (!gnn_mpi_ensure_initialized (error))
    return FALSE;
  gnn_mpi_world_info (&self->rank, &self->world_size);
  /* Each group talks on its own communicator, so its collectives never
   * match another group's. */
  work = gnn_work_new ("MPI_Comm_dup", self->timeout_ms, NULL, NULL, NULL);
  op = gnn_work_get_op (work);
  op->kind = GNN_COMM_DUP;
  gnn_mpi_submit (work);
  if (!gnn_work_wait (work, -1, error))
    return FALSE;
  self->comm = op->result_comm;
  return TRUE;
}

static void
gnn_process_group_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_process_group_initable_init;
}

static void
gnn_process_group_finalize (GObject *object)
{
  GnnProcessGroup *self = GNN_PROCESS_GROUP (object);

  if (self->comm != NULL && !gnn_mpi_is_broken ())
    {
      g_autoptr(GnnWork) work = gnn_work_new ("MPI_Comm_free", self->timeout_ms, NULL, NULL, NULL);

      gnn_work_get_op (work)->kind = GNN_COMM_FREE;
      gnn_work_get_op (work)->comm = self->comm;
      gnn_mpi_submit (work);
    }
  g_free (self->backend);
  G_OBJECT_CLASS (gnn_process_group_parent_class)->finalize (object);
}

static void
gnn_process_group_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnProcessGroup *self = GNN_PROCESS_GROUP (object);

  switch (prop_id)
    {
    case PROP_BACKEND: g_value_set_string (value, self->backend); break;
    case PROP_RANK: g_value_set_int (value, self->rank); break;
    case PROP_WORLD_SIZE: g_value_set_int (value, self->world_size); break;
    case PROP_TIMEOUT: g_value_set_int64 (value, self->timeout_ms); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_process_group_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnProcessGroup *self = GNN_PROCESS_GROUP (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_free (self->backend);
      self->backend = g_value_dup_string (value);
      if (self->backend == NULL)
        self->backend = g_strdup ("mpi");
      break;
    case PROP_TIMEOUT: self->timeout_ms = g_value_get_int64 (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_process_group_class_init (GnnProcessGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_process_group_finalize;
  object_class->get_property = gnn_process_group_get_property;
  object_class->set_property = gnn_process_group_set_property;

  /**
   * GnnProcessGroup:backend:
   *
   * The backend: `"mpi"`, the only one.
   *
   * Since: 0.1
   */
  properties[PROP_BACKEND] =
    g_param_spec_string ("backend", NULL, NULL, "mpi",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnProcessGroup:rank:
   *
   * This process's rank, in [0, world size).
   *
   * Since: 0.1
   */
  properties[PROP_RANK] =
    g_param_spec_int ("rank", NULL, NULL, 0, G_MAXINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnProcessGroup:world-size:
   *
   * The number of ranks.
   *
   * Since: 0.1
   */
  properties[PROP_WORLD_SIZE] =
    g_param_spec_int ("world-size", NULL, NULL, 1, G_MAXINT, 1,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnProcessGroup:timeout:
   *
   * How long, in milliseconds, [method@Gnn.Work.wait] waits by default
   * (torch's `timeout=`; 30 minutes by default).
   *
   * Since: 0.1
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_int64 ("timeout", NULL, NULL, 1, G_MAXINT64 / 1000000, DEFAULT_TIMEOUT_MS,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_process_group_init (GnnProcessGroup *self)
{
  self->backend = g_strdup ("mpi");
  self->world_size = 1;
  self->timeout_ms = DEFAULT_TIMEOUT_MS;
}

/**
 * gnn_process_group_new:
 * @backend: (nullable): `"mpi"` (the default when %NULL)
 * @error: return location for a #GError
 *
 * Joins the process group of every rank that mpirun started (MPI's world),
 * initializing MPI in this process on first use.
 *
 * Returns: (transfer full): the group, or %NULL with @error set: an unknown
 *   backend (%GNN_ERROR_INVALID_ARGUMENT), a Gnn built without MPI
 *   (%GNN_ERROR_NOT_SUPPORTED) or an MPI failure (%GNN_ERROR_DISTRIBUTED)
 *
 * Since: 0.1
 */
GnnProcessGroup *
gnn_process_group_new (const char  *backend,
                       GError     **error)
{
  return g_initable_new (GNN_TYPE_PROCESS_GROUP, NULL, error, "backend", backend, NULL);
}

/**
 * gnn_process_group_is_available:
 *
 * Whether this Gnn was built with MPI (`torch.distributed.is_mpi_available ()`).
 *
 * Returns: %TRUE if process groups can be created
 *
 * Since: 0.1
 */
gboolean
gnn_process_group_is_available (void)
{
#ifdef GNN_HAVE_MPI
  return TRUE;
#else
  return FALSE;
#endif
}

/**
 * gnn_process_group_get_rank:
 * @self: a #GnnProcessGroup
 *
 * This process's rank in the group.
 *
 * Returns: this process's rank (`dist.get_rank ()`)
 *
 * Since: 0.1
 */
gint
gnn_process_group_get_rank (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), 0);
  return self->rank;
}

/**
 * gnn_process_group_get_world_size:
 * @self: a #GnnProcessGroup
 *
 * The number of ranks in the group.
 *
 * Returns: the number of ranks (`dist.get_world_size ()`)
 *
 * Since: 0.1
 */
gint
gnn_process_group_get_world_size (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), 1);
  return self->world_size;
}

/**
 * gnn_process_group_get_backend:
 * @self: a #GnnProcessGroup
 *
 * The name of the group's backend.
 *
 * Returns: the backend's name, `"mpi"`
 *
 * Since: 0.1
 */
const char *
gnn_process_group_get_backend (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  return self->backend;
}

/**
 * gnn_process_group_get_timeout:
 * @self: a #GnnProcessGroup
 *
 * Reads [property@Gnn.ProcessGroup:timeout].
 *
 * Returns: the default wait timeout in milliseconds
 *
 * Since: 0.1
 */
gint64
gnn_process_group_get_timeout (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), 0);
  return self->timeout_ms;
}

/**
 * gnn_process_group_set_timeout:
 * @self: a #GnnProcessGroup
 * @timeout_ms: the default wait timeout in milliseconds, positive
 *
 * Sets how long waits on this group's collectives last by default.
 *
 * Since: 0.1
 */
void
gnn_process_group_set_timeout (GnnProcessGroup *self,
                               gint64           timeout_ms)
{
  g_return_if_fail (GNN_IS_PROCESS_GROUP (self));
  g_return_if_fail (timeout_ms > 0);
  g_object_set (self, "timeout", timeout_ms, NULL);
}

/**
 * gnn_process_group_is_broken:
 * @self: a #GnnProcessGroup
 *
 * Whether a collective timed out (or MPI failed) so that no collective can
 * run any more in this process.
 *
 * Returns: %TRUE once the group is unusable
 *
 * Since: 0.1
 */
gboolean
gnn_process_group_is_broken (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), TRUE);
  return gnn_mpi_is_broken ();
}

/* --- collectives ----------------------------------------------------------- */

static gboolean
check_tensor (GnnTensor  *t,
              const char *what,
              GnnReduceOp op,
              gboolean    reduces,
              GError    **error)
{
  GnnDType dtype = gnn_tensor_get_dtype (t);

  if (gnn_tensor_is_meta (t))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: the tensor is on the meta device and has no data; materialize it first "
                   "(Module.to_empty, or load_state_dict with assign)", what);
      return FALSE;
    }
  if (!gnn_tensor_is_contiguous (t))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: Tensors must be contiguous", what);
      return FALSE;
    }
  if (reduces && (dtype == GNN_DTYPE_F16 || dtype == GNN_DTYPE_BF16))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: cannot reduce %s tensors over MPI",
                   what, gnn_dtype_get_name (dtype));
      return FALSE;
    }
  if (reduces && op == GNN_REDUCE_OP_AVG && !gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: ReduceOp.AVG needs a floating-point tensor, got %s", what,
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  return TRUE;
}

static GnnWork *
start (GnnProcessGroup *self,
       GnnWork         *work,
       GnnCommKind      kind,
       GError         **error)
{
  GnnCommOp *op = gnn_work_get_op (work);

  if (gnn_mpi_is_broken ())
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED, "%s", gnn_mpi_broken_reason ());
      g_object_unref (work);
      return NULL;
    }
  op->kind = kind;
  op->comm = self->comm;
  gnn_mpi_submit (work);
  return work;
}

/* AVG = SUM / world size, on the communication thread after the call,
 * with the tensor library's vectorized division (bit-identical to x / n).
 * Not an autograd operation, like the collective itself: a parameter that
 * requires grad is averaged in place as torch's all_reduce does. */
typedef struct { GnnTensor *tensor; GnnTensor *world; } Divide;

static void
divide_free (gpointer data)
{
  Divide *d = data;

  g_object_unref (d->world);
  g_free (d);
}

static gboolean
finish_divide (GnnWork  *work,
               gpointer  data,
               GError  **error)
{
  Divide *d = data;
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();

  return gnn_tensor_div_ (d->tensor, d->world, error);
}

static GnnWork *
work_for (GnnProcessGroup *self,
          const char      *name,
          GnnTensor       *result,
          GnnReduceOp      op)
{
  Divide *d = NULL;

  if (op == GNN_REDUCE_OP_AVG && self->world_size > 1)
    {
      d = g_new (Divide, 1);
      d->tensor = result;   /* kept alive by the work */
      d->world = gnn_tensor_new_scalar (self->world_size, gnn_tensor_get_dtype (result));
    }
  return gnn_work_new (name, self->timeout_ms, d ? finish_divide : NULL, d, d ? divide_free : NULL);
}

static GnnWork *
all_reduce (GnnProcessGroup  *self,
            GnnTensor        *tensor,
            GnnReduceOp       op,
            gboolean          verify,
            GError          **error)
{
  GnnWork *work;
  GnnCommOp *c;

  if (!check_tensor (tensor, "all_reduce", op, TRUE, error))
    return NULL;
  work = work_for (self, "all_reduce", tensor, op);
  gnn_work_keep (work, tensor);
  c = gnn_work_get_op (work);
  c->recv = gnn_tensor_get_data (tensor);
  c->count = (gsize) gnn_tensor_get_numel (tensor);
  c->dtype = gnn_tensor_get_dtype (tensor);
  c->op = op;
  c->verify = verify;
  return start (self, work, GNN_COMM_ALL_REDUCE, error);
}

GnnWork *
gnn_process_group_all_reduce_unverified (GnnProcessGroup  *self,
                                         GnnTensor        *tensor,
                                         GnnReduceOp       op,
                                         GError          **error)
{
  return all_reduce (self, tensor, op, FALSE, error);
}

/**
 * gnn_process_group_all_reduce:
 * @self: a #GnnProcessGroup
 * @tensor: the tensor to reduce in place, contiguous
 * @op: how to combine the ranks' tensors
 * @error: return location for a #GError
 *
 * Starts reducing @tensor across all ranks, like `dist.all_reduce (tensor,
 * op, async_op=True)`: when done, every rank's @tensor holds the result.
 *
 * Every rank first checks, with one small exchange, that all ranks reduce
 * tensors of the same element count and dtype with the same @op (and are
 * at an all_reduce at all); when they do not, the work fails on every rank
 * with an error naming what differs, and no tensor changes.
 *
 * Returns: (transfer full): the work handle, or %NULL with @error set (a
 *   non-contiguous tensor, a dtype @op cannot reduce, a broken group)
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_all_reduce (GnnProcessGroup  *self,
                              GnnTensor        *tensor,
                              GnnReduceOp       op,
                              GError          **error)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  return all_reduce (self, tensor, op, TRUE, error);
}

/**
 * gnn_process_group_broadcast:
 * @self: a #GnnProcessGroup
 * @tensor: the tensor to send (on @src) or to overwrite (elsewhere)
 * @src: the rank whose tensor is sent
 * @error: return location for a #GError
 *
 * Starts copying rank @src's @tensor into every rank's @tensor, like
 * `dist.broadcast (tensor, src, async_op=True)`. All ranks' tensors must
 * have the same size and dtype.
 *
 * Returns: (transfer full): the work handle, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_broadcast (GnnProcessGroup  *self,
                             GnnTensor        *tensor,
                             gint              src,
                             GError          **error)
{
  GnnWork *work;
  GnnCommOp *c;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  if (src < 0 || src >= self->world_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "broadcast: invalid src rank %d (the world size is %d)", src, self->world_size);
      return NULL;
    }
  if (!check_tensor (tensor, "broadcast", GNN_REDUCE_OP_SUM, FALSE, error))
    return NULL;
  work = gnn_work_new ("broadcast", self->timeout_ms, NULL, NULL, NULL);
  gnn_work_keep (work, tensor);
  c = gnn_work_get_op (work);
  c->recv = gnn_tensor_get_data (tensor);
  c->count = (gsize) gnn_tensor_get_numel (tensor);
  c->dtype = gnn_tensor_get_dtype (tensor);
  c->root = src;
  c->verify = TRUE;
  return start (self, work, GNN_COMM_BROADCAST, error);
}

/* Checks that @n tensors match @like in dtype and element count. */
static gboolean
check_list (GnnProcessGroup *self,
            const char      *what,
            GnnTensor      **list,
            guint            n,
            GnnTensor       *like,
            GError         **error)
{
  if ((gint) n != self->world_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: got %u tensors, expected one per rank (world size %d)", what, n,
                   self->world_size);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (list[i]), FALSE);
      if (gnn_tensor_get_dtype (list[i]) != gnn_tensor_get_dtype (like) ||
          gnn_tensor_get_numel (list[i]) != gnn_tensor_get_numel (like))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: tensor %u has %" G_GINT64_FORMAT " elements of %s, expected %"
                       G_GINT64_FORMAT " of %s", what, i, gnn_tensor_get_numel (list[i]),
                       gnn_dtype_get_name (gnn_tensor_get_dtype (list[i])),
                       gnn_tensor_get_numel (like), gnn_dtype_get_name (gnn_tensor_get_dtype (like)));
          return FALSE;
        }
      if (!check_tensor (list[i], what, GNN_REDUCE_OP_SUM, FALSE, error))
        return FALSE;
    }
  return TRUE;
}

/* all_gather receives into one packed buffer, then splits it. */
typedef struct { GnnTensor *packed; GPtrArray *outputs; } Unpack;

static void
unpack_free (gpointer data)
{
  Unpack *u = data;

  g_object_unref (u->packed);
  g_ptr_array_unref (u->outputs);
  g_free (u);
}

static gboolean
finish_unpack (GnnWork  *work,
               gpointer  data,
               GError  **error)
{
  Unpack *u = data;
  const guint8 *src = gnn_tensor_get_data (u->packed);

  for (guint i = 0; i < u->outputs->len; i++)
    {
      GnnTensor *out = g_ptr_array_index (u->outputs, i);
      gsize bytes = gnn_tensor_get_nbytes (out);

      memcpy (gnn_tensor_get_data (out), src, bytes);
      src += bytes;
    }
  return TRUE;
}

static GnnTensor *
packed_new (GnnTensor *like,
            gint       world)
{
  gint64 n = gnn_tensor_get_numel (like) * world;

  return gnn_tensor_empty (&n, 1, gnn_tensor_get_dtype (like), NULL);
}

/**
 * gnn_process_group_all_gather:
 * @self: a #GnnProcessGroup
 * @outputs: (array length=n_outputs): one tensor per rank, each of
 *   @input's size and dtype, contiguous
 * @n_outputs: the number of @outputs, the world size
 * @input: this rank's tensor
 * @error: return location for a #GError
 *
 * Starts gathering every rank's @input into @outputs (rank i's into
 * `outputs[i]`) on every rank, like `dist.all_gather (outputs, input,
 * async_op=True)`.
 *
 * Returns: (transfer full): the work handle, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_all_gather (GnnProcessGroup  *self,
                              GnnTensor       **outputs,
                              guint             n_outputs,
                              GnnTensor        *input,
                              GError          **error)
{
  Unpack *u;
  GnnWork *work;
  GnnCommOp *c;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  if (!check_tensor (input, "all_gather", GNN_REDUCE_OP_SUM, FALSE, error) ||
      !check_list (self, "all_gather", outputs, n_outputs, input, error))
    return NULL;
  u = g_new0 (Unpack, 1);
  u->packed = packed_new (input, self->world_size);
  u->outputs = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_outputs; i++)
    g_ptr_array_add (u->outputs, g_object_ref (outputs[i]));
  work = gnn_work_new ("all_gather", self->timeout_ms, finish_unpack, u, unpack_free);
  gnn_work_keep (work, input);
  c = gnn_work_get_op (work);
  c->send = gnn_tensor_get_data (input);
  c->recv = gnn_tensor_get_data (u->packed);
  c->count = (gsize) gnn_tensor_get_numel (input);
  c->dtype = gnn_tensor_get_dtype (input);
  c->verify = TRUE;
  return start (self, work, GNN_COMM_ALL_GATHER, error);
}

/**
 * gnn_process_group_reduce_scatter:
 * @self: a #GnnProcessGroup
 * @output: this rank's result, contiguous
 * @inputs: (array length=n_inputs): one tensor per rank, each of @output's
 *   size and dtype
 * @n_inputs: the number of @inputs, the world size
 * @op: how to combine the ranks' tensors
 * @error: return location for a #GError
 *
 * Starts reducing `inputs[i]` across ranks into rank i's @output, like
 * `dist.reduce_scatter (output, inputs, op, async_op=True)`. The inputs are
 * copied when the call starts.
 *
 * Returns: (transfer full): the work handle, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_reduce_scatter (GnnProcessGroup  *self,
                                  GnnTensor        *output,
                                  GnnTensor       **inputs,
                                  guint             n_inputs,
                                  GnnReduceOp       op,
                                  GError          **error)
{
  g_autoptr(GnnTensor) packed = NULL;
  GnnWork *work;
  GnnCommOp *c;
  guint8 *dst;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (output), NULL);
  if (!check_tensor (output, "reduce_scatter", op, TRUE, error) ||
      !check_list (self, "reduce_scatter", inputs, n_inputs, output, error))
    return NULL;
  packed = packed_new (output, self->world_size);
  dst = gnn_tensor_get_data (packed);
  for (guint i = 0; i < n_inputs; i++)
    {
      memcpy (dst, gnn_tensor_get_data (inputs[i]), gnn_tensor_get_nbytes (inputs[i]));
      dst += gnn_tensor_get_nbytes (inputs[i]);
    }
  work = work_for (self, "reduce_scatter", output, op);
  gnn_work_keep (work, output);
  gnn_work_keep (work, packed);
  c = gnn_work_get_op (work);
  c->send = gnn_tensor_get_data (packed);
  c->recv = gnn_tensor_get_data (output);
  c->count = (gsize) gnn_tensor_get_numel (output);
  c->dtype = gnn_tensor_get_dtype (output);
  c->op = op;
  c->verify = TRUE;
  return start (self, work, GNN_COMM_REDUCE_SCATTER, error);
}

/**
 * gnn_process_group_barrier:
 * @self: a #GnnProcessGroup
 * @error: return location for a #GError
 *
 * Starts a barrier, like `dist.barrier (async_op=True)`: the work completes
 * when every rank has entered it.
 *
 * Returns: (transfer full): the work handle, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_barrier (GnnProcessGroup  *self,
                           GError          **error)
{
  GnnWork *work;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  work = gnn_work_new ("barrier", self->timeout_ms, NULL, NULL, NULL);
  gnn_work_get_op (work)->verify = TRUE;   /* all ranks at a barrier, not some at a collective */
  return start (self, work, GNN_COMM_BARRIER, error);
}

/* --- the default group ----------------------------------------------------- */

static GMutex default_lock;
static GnnProcessGroup *default_group;

/**
 * gnn_init_process_group:
 * @backend: (nullable): `"mpi"` (the default when %NULL)
 * @error: return location for a #GError
 *
 * Creates the default process group, like
 * `torch.distributed.init_process_group (backend)`; DDP and
 * the Python functions `Gnn.distributed.*` use it.
 *
 * Returns: (transfer none): the default group, or %NULL with @error set
 *   (see [ctor@Gnn.ProcessGroup.new]; "trying to initialize the default
 *   process group twice!" when it exists)
 *
 * Since: 0.1
 */
GnnProcessGroup *
gnn_init_process_group (const char  *backend,
                        GError     **error)
{
  GnnProcessGroup *group = NULL;

  g_mutex_lock (&default_lock);
  if (default_group != NULL)
    g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                         "trying to initialize the default process group twice!");
  else
    group = default_group = gnn_process_group_new (backend, error);
  g_mutex_unlock (&default_lock);
  return group;
}

/**
 * gnn_get_default_process_group:
 *
 * The default group created by [func@Gnn.init_process_group].
 *
 * Returns: (transfer none) (nullable): the default group, or %NULL before
 *   [func@Gnn.init_process_group]
 *
 * Since: 0.1
 */
GnnProcessGroup *
gnn_get_default_process_group (void)
{
  GnnProcessGroup *group;

  g_mutex_lock (&default_lock);
  group = default_group;
  g_mutex_unlock (&default_lock);
  return group;
}

/**
 * gnn_distributed_is_initialized:
 *
 * Whether [func@Gnn.init_process_group] created the default group.
 *
 * Returns: whether the default group exists (`dist.is_initialized ()`)
 *
 * Since: 0.1
 */
gboolean
gnn_distributed_is_initialized (void)
{
  return gnn_get_default_process_group () != NULL;
}

/**
 * gnn_destroy_process_group:
 *
 * Drops the default group, like `dist.destroy_process_group ()`. MPI itself
 * stays initialized until the process exits (MPI cannot be initialized
 * twice), so a new default group can be created afterwards.
 *
 * Since: 0.1
 */
void
gnn_destroy_process_group (void)
{
  GnnProcessGroup *group;

  g_mutex_lock (&default_lock);
  group = g_steal_pointer (&default_group);
  g_mutex_unlock (&default_lock);
  g_clear_object (&group);
}

/**
 * gnn_distributed_sampler_new_for_group:
 * @dataset: the dataset to shard
 * @group: (nullable): the process group, or %NULL for the default one
 * @shuffle: whether to shuffle (with `seed + epoch`)
 * @seed: the shuffling seed, the same on every rank
 * @drop_last: whether to drop the tail instead of padding
 * @error: return location for a #GError
 *
 * A [class@Gnn.DistributedSampler] for this rank of @group: PyTorch's
 * `DistributedSampler (dataset)` with `num_replicas` and `rank` left to the
 * process group. Call [method@Gnn.DistributedSampler.set_epoch] with the
 * same epoch on every rank.
 *
 * Returns: (transfer full): the sampler, or %NULL with @error set when there
 *   is no group ("Default process group has not been initialized, please
 *   make sure to call init_process_group.")
 *
 * Since: 0.1
 */
GnnDistributedSampler *
gnn_distributed_sampler_new_for_group (GnnDataset       *dataset,
                                       GnnProcessGroup  *group,
                                       gboolean          shuffle,
                                       guint64           seed,
                                       gboolean          drop_last,
                                       GError          **error)
{
  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (group == NULL || GNN_IS_PROCESS_GROUP (group), NULL);
  if (group == NULL)
    group = gnn_get_default_process_group ();
  if (group == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                           "Default process group has not been initialized, please make sure to "
                           "call init_process_group.");
      return NULL;
    }
  return gnn_distributed_sampler_new (dataset, group->world_size, group->rank, shuffle, seed,
                                      drop_last, error);
}
