/* test-distributed-local.c: what works without mpirun (and without MPI)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gnn/gnn.h>

static void
test_consume_prefix (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) a = gnn_tensor_new_scalar (1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) b = gnn_tensor_new_scalar (2, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) c = gnn_tensor_new_scalar (3, GNN_DTYPE_F32);
  g_auto(GStrv) keys = NULL;

  gnn_state_dict_insert (sd, "module.0.weight", a);
  gnn_state_dict_insert (sd, "head", b);
  gnn_state_dict_insert (sd, "module.0.bias", c);
  g_assert_cmpuint (gnn_state_dict_consume_prefix (sd, "module."), ==, 2);
  keys = gnn_state_dict_get_keys (sd);
  /* order kept, only prefixed keys renamed */
  g_assert_cmpstrv (keys, ((const char *[]) { "0.weight", "head", "0.bias", NULL }));
  g_assert_true (gnn_state_dict_lookup (sd, "0.bias") == c);
  g_assert_cmpuint (gnn_state_dict_consume_prefix (sd, "module."), ==, 0);
}

static void
test_ddp_needs_a_group (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) lin = gnn_linear_new (2, 2, TRUE, NULL, NULL);
  GnnDistributedDataParallel *ddp;

  g_assert_null (gnn_get_default_process_group ());
  g_assert_false (gnn_distributed_is_initialized ());
  ddp = gnn_distributed_data_parallel_new (GNN_MODULE (lin), NULL, &error);
  g_assert_null (ddp);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED);
  g_assert_nonnull (strstr (error->message, "Default process group has not been initialized"));
}

static void
test_sampler_needs_a_group (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (&t, 1, NULL);

  g_assert_null (gnn_distributed_sampler_new_for_group (GNN_DATASET (ds), NULL, TRUE, 0, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED);
}

static void
test_unknown_backend (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProcessGroup) pg = gnn_process_group_new ("nccl", &error);

  g_assert_null (pg);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "nccl"));
}

/* Only in a build without MPI: the types exist and say why they cannot work. */
static void
test_without_mpi (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProcessGroup) pg = NULL;

  if (gnn_process_group_is_available ())
    {
      g_test_skip ("built with MPI");
      return;
    }
  g_assert_true (g_type_is_a (GNN_TYPE_DISTRIBUTED_DATA_PARALLEL, GNN_TYPE_MODULE));
  pg = gnn_process_group_new ("mpi", &error);
  g_assert_null (pg);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "built without MPI"));
  g_clear_error (&error);
  g_assert_null (gnn_init_process_group (NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_null (gnn_get_default_process_group ());
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/distributed/state-dict/consume-prefix", test_consume_prefix);
  g_test_add_func ("/distributed/ddp/needs-a-group", test_ddp_needs_a_group);
  g_test_add_func ("/distributed/sampler/needs-a-group", test_sampler_needs_a_group);
  g_test_add_func ("/distributed/process-group/unknown-backend", test_unknown_backend);
  g_test_add_func ("/distributed/process-group/without-mpi", test_without_mpi);
  return g_test_run ();
}
