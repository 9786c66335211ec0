/* gnn-ddp-reducer.c: gradient buckets averaged during backward (torch's
 * c10d::Reducer)
 *
 * Parameters are grouped into buckets in reverse registration order (about
 * the order backward produces their gradients): the first bucket is small
 * so that communication starts early, the others up to bucket_cap_mb, one
 * dtype per bucket. A gradient-ready hook on each parameter copies its
 * final .grad into its bucket's flat buffer; when a bucket is full it is
 * averaged with one all_reduce on the communication thread while backward
 * goes on. Buckets are launched strictly in index order, so every rank
 * issues the same collectives in the same order. At the end of backward a
 * queued callback launches what is left, waits, and copies the averages
 * back into .grad.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "distributed/gnn-distributed-private.h"
#include "autograd/gnn-grad-hooks-private.h"
#include "tensor/gnn-pointwise-private.h"

typedef struct
{
  GnnDType   dtype;
  gint64     numel;
  GnnTensor *flat;
  GArray    *members;   /* guint: parameter indices */
  guint      pending;   /* members not ready in this backward */
  GnnWork   *work;
} Bucket;

typedef struct
{
  GnnReducer *reducer;
  guint       index;
} HookData;

struct _GnnReducer
{
  GnnProcessGroup *group;
  GPtrArray       *params;
  char           **names;
  gboolean         find_unused;
  gboolean         as_view;     /* gradient_as_bucket_view */
  double           scale;       /* 1 / world size */
  guint           *bucket_of;   /* per parameter */
  gint64          *offset_of;   /* per parameter, in elements */
  guint           *hook_ids;
  HookData        *hook_data;
  gboolean        *ready;
  GArray          *buckets;     /* Bucket */

  gboolean         expect_backward;
  gboolean         callback_queued;
  guint            next_bucket;
  char            *unused_error;
};

static void
bucket_reset (Bucket *b)
{
  b->pending = b->members->len;
  g_clear_object (&b->work);
}

static void
build_buckets (GnnReducer *r,
               gsize       first_bucket_bytes,
               gsize       bucket_bytes)
{
  /* Open bucket per dtype while walking backwards. */
  gint open[GNN_DTYPE_BOOL + 1];

  for (guint d = 0; d <= GNN_DTYPE_BOOL; d++)
    open[d] = -1;
  for (guint k = r->params->len; k-- > 0;)
    {
      GnnTensor *p = g_ptr_array_index (r->params, k);
      GnnDType dtype = gnn_tensor_get_dtype (p);
      gsize elt = gnn_dtype_get_size (dtype);
      Bucket *b = open[dtype] >= 0 ? &g_array_index (r->buckets, Bucket, open[dtype]) : NULL;
      gsize cap = open[dtype] == 0 ? first_bucket_bytes : bucket_bytes;

      if (b != NULL && b->members->len > 0 &&
          (gsize) (b->numel + gnn_tensor_get_numel (p)) * elt > cap)
        b = NULL;
      if (b == NULL)
        {
          Bucket nb = { dtype, 0, NULL, g_array_new (FALSE, FALSE, sizeof (guint)), 0, NULL };

          g_array_append_val (r->buckets, nb);
          open[dtype] = (gint) r->buckets->len - 1;
          b = &g_array_index (r->buckets, Bucket, open[dtype]);
        }
      r->bucket_of[k] = (guint) open[dtype];
      r->offset_of[k] = b->numel;
      b->numel += gnn_tensor_get_numel (p);
      g_array_append_val (b->members, k);
    }
  for (guint i = 0; i < r->buckets->len; i++)
    {
      Bucket *b = &g_array_index (r->buckets, Bucket, i);

      b->flat = gnn_tensor_zeros (&b->numel, 1, b->dtype, NULL);
      bucket_reset (b);
    }
}

/* A flat view of parameter @k's slot in its bucket. */
static GnnTensor *
slot_view (GnnReducer *r,
           guint       k)
{
  Bucket *b = &g_array_index (r->buckets, Bucket, r->bucket_of[k]);
  GnnTensor *p = g_ptr_array_index (r->params, k);

  return gnn_tensor_narrow (b->flat, 0, r->offset_of[k], gnn_tensor_get_numel (p), NULL);
}

static void
launch_ready_buckets (GnnReducer *r)
{
  while (r->next_bucket < r->buckets->len)
    {
      Bucket *b = &g_array_index (r->buckets, Bucket, r->next_bucket);
      g_autoptr(GError) error = NULL;

      if (b->pending > 0)
        return;
      /* The slots already hold grad / world (copy_grad_in): a SUM averages. */
      b->work = gnn_process_group_all_reduce_unverified (r->group, b->flat, GNN_REDUCE_OP_SUM,
                                                         &error);
      /* A broken group: the failure is reported when the work is waited for. */
      if (b->work == NULL)
        {
          b->work = gnn_work_new ("DDP bucket all_reduce", 0, NULL, NULL, NULL);
          gnn_work_fail (b->work, error->message);
        }
      r->next_bucket++;
    }
}

static void
mark_ready (GnnReducer *r,
            guint       k)
{
  Bucket *b = &g_array_index (r->buckets, Bucket, r->bucket_of[k]);

  r->ready[k] = TRUE;
  b->pending--;
}

/* Whether @grad already is parameter @k's slot (gradient_as_bucket_view). */
static gboolean
grad_is_slot (GnnTensor *grad,
              GnnTensor *slot)
{
  return gnn_tensor_get_data (grad) == gnn_tensor_get_data (slot) &&
         gnn_tensor_get_numel (grad) == gnn_tensor_get_numel (slot) &&
         gnn_tensor_is_contiguous (grad);
}

/* Like torch's Reducer, the division by the world size happens here, in
 * the copy into the bucket (slot = grad * (1 / world), one pass over data
 * that is hot in cache), not as a separate pass after the all_reduce. With
 * gradient_as_bucket_view the parameter's .grad then becomes the slot, so
 * the average lands in it without a copy back, and a .grad that already is
 * the slot (accumulated in place) is only scaled. */
static void
copy_grad_in (GnnReducer *r,
              guint       k)
{
  GnnTensor *p = g_ptr_array_index (r->params, k);
  GnnTensor *grad = gnn_tensor_get_grad (p);
  g_autoptr(GnnTensor) slot = slot_view (r, k);

  if (grad == NULL)
    {
      gnn_tensor_fill_ (slot, 0.0, NULL);
      return;
    }
  if (r->as_view && grad_is_slot (grad, slot))
    {
      gnn_tensor_mul_scalar_into (slot, slot, r->scale, NULL);
      return;
    }
  {
    g_autoptr(GnnTensor) dense = gnn_tensor_contiguous (grad);   /* a strided .grad is rare */

    if (!gnn_tensor_mul_scalar_into (slot, dense, r->scale, NULL))
      {
        gnn_tensor_fill_ (slot, 0.0, NULL);
        return;
      }
  }
  if (r->as_view)
    {
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (p, &ndim);
      g_autoptr(GnnTensor) shaped = gnn_tensor_reshape (slot, shape, ndim, NULL);

      gnn_tensor_set_grad (p, shaped);
    }
}

static void
copy_grads_out (GnnReducer *r,
                Bucket     *b)
{
  for (guint m = 0; m < b->members->len; m++)
    {
      guint k = g_array_index (b->members, guint, m);
      GnnTensor *p = g_ptr_array_index (r->params, k);
      g_autoptr(GnnTensor) slot = slot_view (r, k);
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (p, &ndim);
      g_autoptr(GnnTensor) shaped = NULL;
      GnnTensor *grad = gnn_tensor_get_grad (p);

      if (grad != NULL && r->as_view && grad_is_slot (grad, slot))
        continue;   /* the average is already in .grad */
      shaped = gnn_tensor_reshape (slot, shape, ndim, NULL);
      if (grad != NULL && gnn_tensor_copy_values_ (grad, shaped, NULL))
        continue;
      {
        g_autoptr(GnnTensor) copy = gnn_tensor_clone (shaped);

        gnn_tensor_set_grad (p, copy);
      }
    }
}

static void
reset_pass (GnnReducer *r)
{
  for (guint i = 0; i < r->buckets->len; i++)
    bucket_reset (&g_array_index (r->buckets, Bucket, i));
  memset (r->ready, 0, sizeof (gboolean) * r->params->len);
  r->next_bucket = 0;
  r->expect_backward = FALSE;
  r->callback_queued = FALSE;
}

static char *
unused_message (GnnReducer *r)
{
  g_autoptr(GString) idx = g_string_new (NULL);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint k = 0; k < r->params->len; k++)
    if (!r->ready[k])
      {
        g_string_append_printf (idx, "%s%u", idx->len ? " " : "", k);
        g_string_append_printf (names, "%s%s", names->len ? ", " : "", r->names[k]);
      }
  return g_strdup_printf (
    "Expected to have finished reduction in the prior iteration before starting a new one. "
    "This error indicates that your module has parameters that were not used in producing "
    "loss. You can enable unused parameter detection by passing the keyword argument "
    "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by "
    "making sure all `forward` function outputs participate in calculating loss. "
    "Parameter indices which did not receive grad for rank %d: %s "
    "(parameters: %s)", gnn_process_group_get_rank (r->group), idx->str, names->str);
}

/* End of backward: launch what is left, wait, copy the averages back. */
static gboolean
finalize_backward (gboolean  ok,
                   gpointer  user_data,
                   GError  **error)
{
  GnnReducer *r = user_data;
  gboolean waited_ok = TRUE;

  if (ok && r->next_bucket < r->buckets->len)
    {
      if (r->find_unused)
        {
          for (guint k = 0; k < r->params->len; k++)
            if (!r->ready[k])
              {
                copy_grad_in (r, k);
                mark_ready (r, k);
              }
          launch_ready_buckets (r);
        }
      else
        {
          g_free (r->unused_error);
          r->unused_error = unused_message (r);
        }
    }
  /* Launched buckets are always waited for, even after a failure, so the
   * flat buffers are not reused while MPI writes into them. */
  for (guint i = 0; i < r->next_bucket; i++)
    {
      Bucket *b = &g_array_index (r->buckets, Bucket, i);
      g_autoptr(GError) local = NULL;

      if (!gnn_work_wait (b->work, -1, &local))
        {
          if (waited_ok && ok)
            g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                        "DistributedDataParallel: averaging gradient bucket %u: ", i);
          waited_ok = FALSE;
        }
      else if (ok && r->unused_error == NULL)
        copy_grads_out (r, b);
    }
  reset_pass (r);
  return waited_ok;
}

static void
grad_ready (GnnTensor *leaf,
            gpointer   user_data)
{
  HookData *h = user_data;
  GnnReducer *r = h->reducer;

  if (!r->expect_backward || r->ready[h->index])
    return;
  if (!r->callback_queued)
    {
      gnn_autograd_queue_callback (finalize_backward, r);
      r->callback_queued = TRUE;
    }
  copy_grad_in (r, h->index);
  mark_ready (r, h->index);
  launch_ready_buckets (r);
}

GnnReducer *
gnn_reducer_new (GnnProcessGroup *group,
                 GPtrArray       *params,
                 char           **names,
                 gsize            first_bucket_bytes,
                 gsize            bucket_bytes,
                 gboolean         find_unused,
                 gboolean         gradient_as_bucket_view)
{
  GnnReducer *r = g_new0 (GnnReducer, 1);
  guint n = params->len;

  r->group = g_object_ref (group);
  r->params = g_ptr_array_ref (params);
  r->names = g_strdupv (names);
  r->find_unused = find_unused;
  r->as_view = gradient_as_bucket_view;
  r->scale = 1.0 / gnn_process_group_get_world_size (group);
  r->bucket_of = g_new0 (guint, n);
  r->offset_of = g_new0 (gint64, n);
  r->hook_ids = g_new0 (guint, n);
  r->hook_data = g_new0 (HookData, n);
  r->ready = g_new0 (gboolean, n);
  r->buckets = g_array_new (FALSE, FALSE, sizeof (Bucket));
  build_buckets (r, first_bucket_bytes, bucket_bytes);
  for (guint k = 0; k < n; k++)
    {
      r->hook_data[k].reducer = r;
      r->hook_data[k].index = k;
      r->hook_ids[k] = gnn_grad_hook_add (g_ptr_array_index (params, k), grad_ready, &r->hook_data[k]);
    }
  return r;
}

void
gnn_reducer_free (GnnReducer *r)
{
  if (r == NULL)
    return;
  for (guint k = 0; k < r->params->len; k++)
    gnn_grad_hook_remove (g_ptr_array_index (r->params, k), r->hook_ids[k]);
  for (guint i = 0; i < r->buckets->len; i++)
    {
      Bucket *b = &g_array_index (r->buckets, Bucket, i);

      if (b->work != NULL)
        gnn_work_wait (b->work, -1, NULL);
      g_clear_object (&b->work);
      g_clear_object (&b->flat);
      g_array_unref (b->members);
    }
  g_array_unref (r->buckets);
  g_free (r->bucket_of);
  g_free (r->offset_of);
  g_free (r->hook_ids);
  g_free (r->hook_data);
  g_free (r->ready);
  g_free (r->unused_error);
  g_strfreev (r->names);
  g_ptr_array_unref (r->params);
  g_object_unref (r->group);
  g_free (r);
}

gboolean
gnn_reducer_check_prior_iteration (GnnReducer *r,
                                   GError    **error)
{
  if (r->unused_error == NULL)
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD, r->unused_error);
  return FALSE;
}

void
gnn_reducer_prepare_for_backward (GnnReducer *r)
{
  reset_pass (r);
  r->expect_backward = TRUE;
}

guint
gnn_reducer_get_n_buckets (GnnReducer *r)
{
  return r->buckets->len;
}
