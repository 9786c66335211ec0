/* test-mpi.c: process groups and DDP under mpirun
 *
 *   mpirun -np N test-mpi SCENARIO
 *
 * Every rank runs the same scenario (so collectives match) and asserts its
 * outcome; a failed assertion aborts the rank and mpirun exits non-zero.
 * run-mpi.py launches these for meson test (suite 'mpi').
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gnn/gnn.h>

static GnnProcessGroup *pg;
static gint rank, world;

static void
wait_ok (GnnWork *work)
{
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (work);
  g_assert_true (gnn_work_wait (work, 20000, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_work_is_completed (work));
  g_object_unref (work);
}

static GnnTensor *
floats (const float *v, gint64 n)
{
  return gnn_tensor_new_from_floats (v, n, &n, 1, NULL);
}

static void
assert_floats (GnnTensor *t, const float *expected, gint64 n, double tol)
{
  const float *x = gnn_tensor_get_data (t);

  g_assert_cmpint (gnn_tensor_get_numel (t), ==, n);
  for (gint64 i = 0; i < n; i++)
    if (tol == 0)
      g_assert_cmpfloat (x[i], ==, expected[i]);
    else
      g_assert_cmpfloat_with_epsilon (x[i], expected[i], tol);
}

/* --- collectives ------------------------------------------------------------ */

static void
scenario_collectives (void)
{
  g_autoptr(GError) error = NULL;
  float mine[3] = { rank + 1, -(float) rank, 10.0f * rank };
  float sum[3] = { 0 }, mx[3], mn[3], avg[3];

  for (gint r = 0; r < world; r++)
    {
      float v[3] = { r + 1, -(float) r, 10.0f * r };

      for (int i = 0; i < 3; i++)
        {
          sum[i] += v[i];
          mx[i] = r == 0 ? v[i] : MAX (mx[i], v[i]);
          mn[i] = r == 0 ? v[i] : MIN (mn[i], v[i]);
        }
    }
  for (int i = 0; i < 3; i++)
    avg[i] = sum[i] / world;

  {
    g_autoptr(GnnTensor) t = floats (mine, 3);
    wait_ok (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_SUM, &error));
    assert_floats (t, sum, 3, 0);
  }
  {
    g_autoptr(GnnTensor) t = floats (mine, 3);
    wait_ok (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_AVG, &error));
    assert_floats (t, avg, 3, 1e-6);
  }
  {
    g_autoptr(GnnTensor) t = floats (mine, 3);
    wait_ok (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_MAX, &error));
    assert_floats (t, mx, 3, 0);
  }
  {
    g_autoptr(GnnTensor) t = floats (mine, 3);
    wait_ok (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_MIN, &error));
    assert_floats (t, mn, 3, 0);
  }
  {
    gint64 v = (gint64) rank * 1000000000000LL, one = 1;
    g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (&v, 1, &one, 1, NULL);
    gint64 expected = 0;

    for (gint r = 0; r < world; r++)
      expected += (gint64) r * 1000000000000LL;
    wait_ok (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_SUM, &error));
    g_assert_cmpint (*(gint64 *) gnn_tensor_get_data (t), ==, expected);
    /* AVG of integers is refused, like torch's gloo/MPI backends */
    g_assert_null (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_AVG, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
    g_clear_error (&error);
  }
  {
    /* broadcast from the last rank */
    float src_v[2] = { 7.5f, -1.25f }, other[2] = { 0, 0 };
    g_autoptr(GnnTensor) t = floats (rank == world - 1 ? src_v : other, 2);

    wait_ok (gnn_process_group_broadcast (pg, t, world - 1, &error));
    assert_floats (t, src_v, 2, 0);
    g_assert_null (gnn_process_group_broadcast (pg, t, world, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "src"));
    g_clear_error (&error);
  }
  {
    float in[2] = { rank, rank * rank };
    g_autoptr(GnnTensor) t = floats (in, 2);
    g_autoptr(GPtrArray) outs = g_ptr_array_new_with_free_func (g_object_unref);

    for (gint r = 0; r < world; r++)
      g_ptr_array_add (outs, gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL));
    wait_ok (gnn_process_group_all_gather (pg, (GnnTensor **) outs->pdata, world, t, &error));
    for (gint r = 0; r < world; r++)
      assert_floats (g_ptr_array_index (outs, r), (float[]) { r, r * r }, 2, 0);
    /* one output per rank, not fewer */
    g_assert_null (gnn_process_group_all_gather (pg, (GnnTensor **) outs->pdata, world - 1, t, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  {
    /* reduce_scatter: rank r's inputs[i] = (r + 1) * (i + 1); output on i = sum_r */
    g_autoptr(GPtrArray) ins = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr(GnnTensor) out = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
    float expected = 0;

    for (gint i = 0; i < world; i++)
      {
        float v[2] = { (rank + 1) * (i + 1), 1 };

        g_ptr_array_add (ins, floats (v, 2));
      }
    for (gint r = 0; r < world; r++)
      expected += (r + 1) * (rank + 1);
    wait_ok (gnn_process_group_reduce_scatter (pg, out, (GnnTensor **) ins->pdata, world,
                                               GNN_REDUCE_OP_SUM, &error));
    assert_floats (out, (float[]) { expected, world }, 2, 0);
  }
  {
    /* non-contiguous tensors are refused with torch's message */
    g_autoptr(GnnTensor) m = gnn_tensor_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);
    g_autoptr(GnnTensor) mt = gnn_tensor_transpose (m, 0, 1, NULL);

    g_assert_null (gnn_process_group_all_reduce (pg, mt, GNN_REDUCE_OP_SUM, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "Tensors must be contiguous"));
    g_clear_error (&error);
  }
  {
    /* async: several collectives in flight, then waits in order */
    g_autoptr(GnnTensor) a = floats ((float[]) { 1 }, 1);
    g_autoptr(GnnTensor) b = floats ((float[]) { 2 }, 1);
    GnnWork *wa = gnn_process_group_all_reduce (pg, a, GNN_REDUCE_OP_SUM, &error);
    GnnWork *wb = gnn_process_group_all_reduce (pg, b, GNN_REDUCE_OP_SUM, &error);

    wait_ok (gnn_process_group_barrier (pg, &error));
    wait_ok (wa);
    wait_ok (wb);
    assert_floats (a, (float[]) { world }, 1, 0);
    assert_floats (b, (float[]) { 2 * world }, 1, 0);
  }
  g_assert_true (gnn_init_process_group ("mpi", &error) == NULL);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED);
  g_assert_nonnull (strstr (error->message, "twice"));
}

/* --- DDP ---------------------------------------------------------------------- */

#define N_GLOBAL 12   /* divisible by 2 and 3 ranks */
#define N_IN 5
#define N_OUT 3

/* Linear(5, 16)-ReLU-Linear(16, 3), initialized from @seed. */
static GnnModule *
make_mlp (guint64 seed)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (seed);
  GnnModule *layers[3] = {
    GNN_MODULE (gnn_linear_new (N_IN, 16, TRUE, gen, NULL)),
    GNN_MODULE (gnn_relu_new (FALSE)),
    GNN_MODULE (gnn_linear_new (16, N_OUT, TRUE, gen, NULL)),
  };
  GnnModule *seq = GNN_MODULE (gnn_sequential_new (layers, 3));

  for (int i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  return seq;
}

/* The global batch (same on every rank) and this rank's rows of it. */
static void
make_batch (guint64 seed, GnnTensor **x, GnnTensor **y)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (seed);

  *x = gnn_tensor_empty ((gint64[]) { N_GLOBAL, N_IN }, 2, GNN_DTYPE_F32, NULL);
  *y = gnn_tensor_empty ((gint64[]) { N_GLOBAL, N_OUT }, 2, GNN_DTYPE_F32, NULL);
  gnn_tensor_normal_ (*x, 0, 1, gen, NULL);
  gnn_tensor_normal_ (*y, 0, 1, gen, NULL);
}

static GnnTensor *
my_rows (GnnTensor *t)
{
  gint64 per = N_GLOBAL / world;
  g_autoptr(GnnTensor) view = gnn_tensor_narrow (t, 0, rank * per, per, NULL);

  return gnn_tensor_contiguous (view);
}

/* Forward through the one-tensor call, or (@general) through the general
 * one, which DDP forwards with its arguments as they are. */
static void
loss_backward_via (GnnModule *model, GnnTensor *x, GnnTensor *y, gboolean general)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnMSELoss) mse = gnn_mse_loss_new (GNN_REDUCTION_MEAN);
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  if (general)
    {
      g_autoptr(GnnValue) args = gnn_value_new_tuple (NULL, 0);
      g_autoptr(GnnValue) kwargs = gnn_value_new_dict_take ("input", gnn_value_new_tensor (x), NULL);
      g_autoptr(GnnValue) value = gnn_module_call_args (model, args, kwargs, &error);

      g_assert_no_error (error);
      out = g_object_ref (gnn_value_get_tensor (value));
    }
  else
    out = gnn_module_call (model, x, &error);
  g_assert_no_error (error);
  loss = gnn_mse_loss_compute (mse, out, y, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
}

static void
loss_backward (GnnModule *model, GnnTensor *x, GnnTensor *y)
{
  loss_backward_via (model, x, y, FALSE);
}

/* The "-view" scenarios run with gradient_as_bucket_view. */
static gboolean grad_view;

static GnnDistributedDataParallel *
wrap (GnnModule *model, double bucket_mb, gboolean find_unused)
{
  g_autoptr(GError) error = NULL;
  GnnDistributedDataParallel *ddp =
    g_initable_new (GNN_TYPE_DISTRIBUTED_DATA_PARALLEL, NULL, &error, "module", model,
                    "bucket-cap-mb", bucket_mb, "find-unused-parameters", find_unused,
                    "gradient-as-bucket-view", grad_view, NULL);

  g_assert_no_error (error);
  return ddp;
}

/* A bare model with the DDP model's current weights. */
static GnnModule *
reference_copy (GnnDistributedDataParallel *ddp)
{
  g_autoptr(GError) error = NULL;
  GnnModule *ref = make_mlp (999);
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (ddp));

  g_assert_cmpuint (gnn_state_dict_consume_prefix (sd, "module."), ==, 4);
  g_assert_true (gnn_module_load_state_dict (ref, sd, TRUE, NULL, NULL, &error));
  g_assert_no_error (error);
  return ref;
}

static void
assert_grads_equal (GnnModule *a, GnnModule *b, double tol)
{
  g_autoptr(GPtrArray) pa = gnn_module_named_parameters (a, NULL, TRUE, NULL);
  g_autoptr(GPtrArray) pb = gnn_module_named_parameters (b, NULL, TRUE, NULL);

  g_assert_cmpuint (pa->len, ==, pb->len);
  for (guint i = 0; i < pa->len; i++)
    {
      GnnTensor *ga = gnn_tensor_get_grad (g_ptr_array_index (pa, i));
      GnnTensor *gb = gnn_tensor_get_grad (g_ptr_array_index (pb, i));

      g_assert_nonnull (ga);
      g_assert_nonnull (gb);
      g_assert_true (gnn_tensor_allclose (ga, gb, tol, tol));
    }
}

/* Every rank's parameters are bit-identical to rank 0's. */
static void
assert_params_same_across_ranks (GnnModule *model)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);

  for (guint i = 0; i < params->len; i++)
    {
      g_autoptr(GnnTensor) mine = gnn_tensor_clone (g_ptr_array_index (params, i));
      g_autoptr(GnnTensor) theirs = gnn_tensor_clone (mine);
      g_autoptr(GnnTensor) flat = gnn_tensor_reshape (theirs, (gint64[]) { gnn_tensor_get_numel (mine) }, 1, NULL);

      wait_ok (gnn_process_group_broadcast (pg, flat, 0, &error));
      g_assert_true (gnn_tensor_equal (mine, theirs));
    }
}

static void
scenario_ddp (void)
{
  g_autoptr(GError) error = NULL;
  /* different initial weights per rank: DDP must broadcast rank 0's */
  g_autoptr(GnnModule) model = make_mlp (100 + rank);
  /* one bucket with gradient views (to see them side by side), many without */
  g_autoptr(GnnDistributedDataParallel) ddp = wrap (model, grad_view ? 25 : 0.0005, FALSE);
  g_autoptr(GnnModule) ref = reference_copy (ddp);
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GPtrArray) ddp_params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GPtrArray) ref_params = gnn_module_named_parameters (ref, NULL, TRUE, NULL);
  g_autoptr(GnnSGD) opt = gnn_sgd_new (ddp_params, 0.1, 0.9, 0, 0, FALSE, &error);
  g_autoptr(GnnSGD) ref_opt = gnn_sgd_new (ref_params, 0.1, 0.9, 0, 0, FALSE, &error);

  g_assert_true (gnn_distributed_data_parallel_get_module (ddp) == model);
  if (grad_view)
    g_assert_cmpuint (gnn_distributed_data_parallel_get_n_buckets (ddp), ==, 1);
  else
    g_assert_cmpuint (gnn_distributed_data_parallel_get_n_buckets (ddp), >, 1);
  assert_params_same_across_ranks (model);
  for (int step = 0; step < 4; step++)
    {
      g_autoptr(GnnTensor) xr = NULL;
      g_autoptr(GnnTensor) yr = NULL;

      g_clear_object (&x);
      g_clear_object (&y);
      make_batch (step, &x, &y);
      xr = my_rows (x);
      yr = my_rows (y);
      gnn_optimizer_zero_grad (GNN_OPTIMIZER (opt), TRUE);
      gnn_optimizer_zero_grad (GNN_OPTIMIZER (ref_opt), TRUE);
      /* odd steps call DDP the general way: model(input=x) */
      loss_backward_via (GNN_MODULE (ddp), xr, yr, step % 2 == 1);
      loss_backward (ref, x, y);   /* single process, the concatenated batch */
      assert_grads_equal (model, ref, 1e-5);
      if (grad_view)
        {
          /* the gradients are the bucket: 2.bias, then 2.weight, side by side */
          GnnTensor *b2 = gnn_tensor_get_grad (GNN_TENSOR (gnn_module_get_parameter (model, "2.bias", NULL)));
          GnnTensor *w2 = gnn_tensor_get_grad (GNN_TENSOR (gnn_module_get_parameter (model, "2.weight", NULL)));

          g_assert_true ((float *) gnn_tensor_get_data (w2) ==
                         (float *) gnn_tensor_get_data (b2) + gnn_tensor_get_numel (b2));
        }
      g_assert_true (gnn_optimizer_step (GNN_OPTIMIZER (opt), &error));
      g_assert_true (gnn_optimizer_step (GNN_OPTIMIZER (ref_opt), &error));
    }
  assert_params_same_across_ranks (model);
  {
    /* state dict: module.-prefixed keys; reload into a bare model */
    g_autoptr(GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (ddp));
    g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
    g_autoptr(GnnModule) bare = make_mlp (5);

    g_assert_cmpstr (keys[0], ==, "module.0.weight");
    g_assert_cmpstr (keys[3], ==, "module.2.bias");
    gnn_state_dict_consume_prefix (sd, "module.");
    g_assert_true (gnn_module_load_state_dict (bare, sd, TRUE, NULL, NULL, &error));
    g_assert_true (gnn_tensor_equal (GNN_TENSOR (gnn_module_get_parameter (bare, "2.bias", NULL)),
                                     GNN_TENSOR (gnn_module_get_parameter (model, "2.bias", NULL))));
  }
  {
    /* a model built on the meta device has no data to broadcast: a clear
     * error on every rank, no collective with a NULL buffer */
    GnnDevice old = gnn_set_default_device (GNN_DEVICE_META);
    g_autoptr(GnnModule) meta = make_mlp (3);
    g_autoptr(GError) local = NULL;
    g_autoptr(GnnDistributedDataParallel) none = NULL;
    g_autoptr(GnnWork) work = NULL;
    GnnTensor *bias = GNN_TENSOR (gnn_module_get_parameter (meta, "2.bias", NULL));

    gnn_set_default_device (old);
    g_assert_true (gnn_tensor_is_meta (bias));
    work = gnn_process_group_all_reduce (pg, bias, GNN_REDUCE_OP_SUM, &local);
    g_assert_null (work);
    g_assert_error (local, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (local->message, "meta device"));
    g_clear_error (&local);
    none = g_initable_new (GNN_TYPE_DISTRIBUTED_DATA_PARALLEL, NULL, &local, "module", meta, NULL);
    g_assert_null (none);
    g_assert_nonnull (local);
    g_assert_nonnull (strstr (local->message, "meta device"));
    assert_params_same_across_ranks (model);   /* the group still works */
  }
}

static void
scenario_no_sync (void)
{
  g_autoptr(GnnModule) model = make_mlp (7);
  g_autoptr(GnnDistributedDataParallel) ddp = wrap (model, 25, FALSE);
  g_autoptr(GnnModule) ref = reference_copy (ddp);
  g_autoptr(GnnTensor) xa = NULL;
  g_autoptr(GnnTensor) ya = NULL;
  g_autoptr(GnnTensor) xb = NULL;
  g_autoptr(GnnTensor) yb = NULL;
  g_autoptr(GnnTensor) xar = NULL;
  g_autoptr(GnnTensor) yar = NULL;
  g_autoptr(GnnTensor) xbr = NULL;
  g_autoptr(GnnTensor) ybr = NULL;

  make_batch (11, &xa, &ya);
  make_batch (12, &xb, &yb);
  xar = my_rows (xa), yar = my_rows (ya), xbr = my_rows (xb), ybr = my_rows (yb);

  gnn_distributed_data_parallel_set_require_backward_grad_sync (ddp, FALSE);
  loss_backward (GNN_MODULE (ddp), xar, yar);
  gnn_distributed_data_parallel_set_require_backward_grad_sync (ddp, TRUE);
  {
    /* after the no_sync backward the gradients are local: they differ */
    GnnTensor *g = gnn_tensor_get_grad (GNN_TENSOR (gnn_module_get_parameter (model, "2.bias", NULL)));
    g_autoptr(GnnTensor) max = gnn_tensor_clone (g);
    g_autoptr(GnnTensor) min = gnn_tensor_clone (g);
    g_autoptr(GError) error = NULL;

    wait_ok (gnn_process_group_all_reduce (pg, max, GNN_REDUCE_OP_MAX, &error));
    wait_ok (gnn_process_group_all_reduce (pg, min, GNN_REDUCE_OP_MIN, &error));
    g_assert_false (gnn_tensor_equal (max, min));
  }
  loss_backward (GNN_MODULE (ddp), xbr, ybr);
  loss_backward (ref, xa, ya);
  loss_backward (ref, xb, yb);
  assert_grads_equal (model, ref, 1e-5);
  /* one more synchronized backward accumulates onto the averages (with
   * gradient views: into the bucket itself, which is then only scaled) */
  loss_backward (GNN_MODULE (ddp), xar, yar);
  loss_backward (ref, xa, ya);
  assert_grads_equal (model, ref, 1e-5);
}

/* Sequential + an extra parameter forward never uses. */
static void
scenario_unused (void)
{
  g_autoptr(GError) error = NULL;

  for (int find = 0; find <= 1; find++)
    {
      g_autoptr(GnnModule) model = make_mlp (3);
      g_autoptr(GnnTensor) extra_data = gnn_tensor_ones ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL);
      g_autoptr(GnnParameter) extra = gnn_parameter_new (extra_data, TRUE);
      g_autoptr(GnnDistributedDataParallel) ddp = NULL;
      g_autoptr(GnnTensor) x = NULL;
      g_autoptr(GnnTensor) y = NULL;
      g_autoptr(GnnTensor) out = NULL;

      g_assert_true (gnn_module_register_parameter (model, "unused", extra, &error));
      ddp = wrap (model, 25, find);
      make_batch (1, &x, &y);
      loss_backward (GNN_MODULE (ddp), x, y);
      out = gnn_module_call (GNN_MODULE (ddp), x, &error);
      if (!find)
        {
          g_assert_null (out);
          g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
          g_assert_nonnull (strstr (error->message,
                                    "Expected to have finished reduction in the prior iteration"));
          g_assert_nonnull (strstr (error->message, "unused"));
          g_clear_error (&error);
        }
      else
        {
          GnnTensor *g = gnn_tensor_get_grad (GNN_TENSOR (extra));
          g_autoptr(GnnTensor) zeros = gnn_tensor_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL);

          g_assert_no_error (error);
          g_assert_nonnull (out);
          g_assert_nonnull (g);
          g_assert_true (gnn_tensor_equal (g, zeros));
        }
    }
}

static void
scenario_buffers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new (N_IN, 1e-5, 0.1, TRUE, TRUE, &error);
  g_autoptr(GnnDistributedDataParallel) ddp = wrap (GNN_MODULE (bn), 25, FALSE);
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) xr = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) mean0 = NULL;
  GnnTensor *running;

  make_batch (21, &x, &y);
  xr = my_rows (x);
  out = gnn_module_call (GNN_MODULE (ddp), xr, &error);   /* each rank updates its own stats */
  g_assert_no_error (error);
  /* BatchNorm may replace its buffers: look them up after each call */
  running = gnn_module_get_buffer (GNN_MODULE (bn), "running_mean", NULL);
  mean0 = gnn_tensor_clone (running);
  wait_ok (gnn_process_group_broadcast (pg, mean0, 0, &error));
  if (rank != 0)
    g_assert_false (gnn_tensor_equal (running, mean0));
  /* the next forward (eval: no update) starts by copying rank 0's buffers */
  gnn_module_eval (GNN_MODULE (ddp));
  g_clear_object (&out);
  out = gnn_module_call (GNN_MODULE (ddp), xr, &error);
  g_assert_no_error (error);
  running = gnn_module_get_buffer (GNN_MODULE (bn), "running_mean", NULL);
  g_assert_true (gnn_tensor_equal (running, mean0));
  g_assert_cmpint (*(gint64 *) gnn_tensor_get_data (gnn_module_get_buffer (GNN_MODULE (bn), "num_batches_tracked", NULL)), ==, 1);
}

static char *loader_warning;

static void
record_warning (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  g_free (loader_warning);
  loader_warning = g_strdup (message);
}

/* After MPI_Init the process has Open MPI's threads: a PROCESSES loader
 * must not fork it. This program serves no spawned workers, so the
 * workers run as threads (one warning) and the batches are right. */
static void
scenario_loader (void)
{
  g_autoptr(GnnTensor) ids = gnn_tensor_arange (0, 20, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *columns[] = { ids };
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (columns, 1, NULL);
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds,
                                                  "batch-size", (gint64) 4, "num-workers", 2,
                                                  "worker-mode", GNN_WORKER_MODE_PROCESSES, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) it = NULL;
  GPtrArray *batch = NULL;
  gint64 next = 0;
  guint handler = g_log_set_handler ("Gnn", G_LOG_LEVEL_WARNING, record_warning, NULL);

  it = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  while (gnn_data_loader_iter_next (it, &batch, &error) && batch != NULL)
    {
      GnnTensor *b = g_ptr_array_index (batch, 0);

      for (gint64 i = 0; i < gnn_tensor_get_size (b, 0, NULL); i++)
        g_assert_cmpint ((gint64) gnn_tensor_get_element (b, &i, 1, NULL), ==, next++);
      g_ptr_array_unref (batch);
    }
  g_assert_no_error (error);
  g_assert_cmpint (next, ==, 20);
  g_log_remove_handler ("Gnn", handler);
  g_assert_nonnull (loader_warning);
  g_assert_nonnull (strstr (loader_warning, "run as threads instead"));
  printf ("rank %d: %s\n", rank, loader_warning);
  g_free (loader_warning);
}

/* Rank world-1 dies while the others are in an all_reduce. */
static void
scenario_killed (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = floats ((float[]) { 1 }, 1);
  g_autoptr(GnnWork) work = NULL;

  wait_ok (gnn_process_group_barrier (pg, &error));
  if (rank == world - 1)
    {
      const char *stamp = g_getenv ("GNN_TEST_KILL_STAMP");
      g_autofree char *now = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_real_time ());

      if (stamp != NULL)
        g_file_set_contents (stamp, now, -1, NULL);
      raise (SIGKILL);
    }
  g_usleep (200000);
  work = gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_SUM, &error);
  g_assert_nonnull (work);
  g_assert_false (gnn_work_wait (work, 2000, &error));
  g_assert_nonnull (error);
  printf ("rank %d: the collective failed as expected: %s\n", rank, error->message);
  fflush (stdout);
  g_clear_error (&error);
  /* the group is now broken: new collectives fail at once */
  g_assert_null (gnn_process_group_barrier (pg, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED);
  printf ("rank %d: later collectives fail at once: %s\n", rank, error->message);
  fflush (stdout);
  _exit (3);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  const char *scenario = argc > 1 ? argv[1] : "";
  g_autofree char *base = NULL;

  pg = gnn_init_process_group ("mpi", &error);
  if (pg == NULL)
    {
      g_printerr ("test-mpi: %s\n", error->message);
      return 77;
    }
  rank = gnn_process_group_get_rank (pg);
  world = gnn_process_group_get_world_size (pg);
  grad_view = g_str_has_suffix (scenario, "-view");
  base = grad_view ? g_strndup (scenario, strlen (scenario) - 5) : g_strdup (scenario);
  scenario = base;
  if (strcmp (scenario, "collectives") == 0)
    scenario_collectives ();
  else if (strcmp (scenario, "ddp") == 0)
    scenario_ddp ();
  else if (strcmp (scenario, "no-sync") == 0)
    scenario_no_sync ();
  else if (strcmp (scenario, "unused") == 0)
    scenario_unused ();
  else if (strcmp (scenario, "buffers") == 0)
    scenario_buffers ();
  else if (strcmp (scenario, "killed") == 0)
    scenario_killed ();
  else if (strcmp (scenario, "loader") == 0)
    scenario_loader ();
  else
    {
      g_printerr ("test-mpi: unknown scenario '%s'\n", scenario);
      return 2;
    }
  printf ("rank %d/%d: %s ok\n", rank, world, scenario);
  gnn_destroy_process_group ();
  return 0;
}
