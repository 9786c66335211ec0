/* gnn-attention-kernels.c: the loops of scaled dot-product attention (see
 * gnn-attention-private.h)
 *
 * One unit of work is one (batch, head) item: its GEMMs (OpenBLAS, or the
 * small-matrix loops below their crossover) and its rows' masked softmax
 * run back to back on one thread while the scores are in cache. Items are
 * split among the intra-op threads; while OpenBLAS runs threads of its own
 * (no gnn_set_num_threads () call) they run in turn, each GEMM on
 * OpenBLAS's threads, as gnn-gemm-parallel.c does. The row loops are
 * compiled per CPU level (GNN_DISPATCH_KERNEL): the same bits at every level.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>
#include <cblas.h>

#include "tensor/gnn-attention-private.h"
#include "tensor/gnn-cpu-private.h"
#include "tensor/gnn-gemm-small-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-vexpf-private.h"

/* GNN_DISPATCH_KERNEL pastes its name: expand SFX () first. */
#define DISPATCH_KERNEL_NAMED(name, PARAMS, ARGS) GNN_DISPATCH_KERNEL (name, PARAMS, ARGS)

/* The row loops select with ?: on floats: let gcc if-convert them (no FP
 * traps are ever enabled; the results are the same). */
#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

#define T float
#define SFX(x) x##_f32
#define SFX_TYPED(x) x##_f32_typed
#define GEMM cblas_sgemm
#define EXP gnn_vexpf
#define SMALL 1
#include "tensor/gnn-attention-template-private.h"
#undef T
#undef SFX
#undef SFX_TYPED
#undef GEMM
#undef EXP
#undef SMALL

#define T double
#define SFX(x) x##_f64
#define SFX_TYPED(x) x##_f64_typed
#define GEMM cblas_dgemm
#define EXP exp
#define SMALL 0
#include "tensor/gnn-attention-template-private.h"
#undef T
#undef SFX
#undef SFX_TYPED
#undef GEMM
#undef EXP
#undef SMALL

#pragma GCC pop_options

/* Items per range: at least ~2^18 multiply-adds, a parallel region costs
 * tens of microseconds. */
static void
run_items (const GnnAttnGeom *g,
           GnnParallelFunc    func,
           gpointer           job)
{
  gint64 items = g->B * g->H;
  gint64 work = MAX (g->L * g->S * (g->D + g->Dv), 1);

  if (items <= 0)
    return;
  if (openblas_get_num_threads () > 1)
    func (0, items, job);
  else
    gnn_parallel_for (items, MAX (((gint64) 1 << 18) / work, 1), func, job);
}

#define DISPATCH(g, job, F32, F64, ...)                                       \
  G_STMT_START {                                                             \
    if ((g)->dtype == GNN_DTYPE_F32)                                         \
      {                                                                      \
        Job_f32 job = { .g = (g), __VA_ARGS__ };                             \
        run_items ((g), F32, &job);                                          \
        failed = job.failed;                                                 \
      }                                                                      \
    else                                                                     \
      {                                                                      \
        Job_f64 job = { .g = (g), __VA_ARGS__ };                             \
        run_items ((g), F64, &job);                                          \
        failed = job.failed;                                                 \
      }                                                                      \
  } G_STMT_END

gboolean
gnn_attn_probs_kernel (const GnnAttnGeom *g,
                       void              *p,
                       void              *p_drop)
{
  gboolean failed;

  DISPATCH (g, job, probs_range_f32, probs_range_f64, .p = p, .pd = p_drop);
  return !failed;
}

void
gnn_attn_apply_kernel (const GnnAttnGeom *g,
                       const void        *p,
                       const GnnAttnMat  *o)
{
  gboolean failed;

  DISPATCH (g, job, apply_range_f32, apply_range_f64, .cp = p, .o = o);
  (void) failed;
}

gboolean
gnn_attn_fused_kernel (const GnnAttnGeom *g,
                       const GnnAttnMat  *o)
{
  gboolean failed;

  DISPATCH (g, job, fused_range_f32, fused_range_f64, .o = o);
  return !failed;
}

void
gnn_attn_apply_backward_kernel (const GnnAttnGeom *g,
                                const void        *p,
                                const GnnAttnMat  *dout,
                                void              *dp,
                                const GnnAttnMat  *dv)
{
  gboolean failed;

  DISPATCH (g, job, apply_backward_range_f32, apply_backward_range_f64,
            .cp = p, .dout = dout, .dp = dp, .dv = dv);
  (void) failed;
}

gboolean
gnn_attn_probs_backward_kernel (const GnnAttnGeom *g,
                                const void        *p,
                                const void        *p_drop,
                                const void        *dp_drop,
                                const GnnAttnMat  *dq,
                                const GnnAttnMat  *dk,
                                void              *ds)
{
  gboolean failed;

  DISPATCH (g, job, probs_backward_range_f32, probs_backward_range_f64,
            .cp = p, .cpd = p_drop, .dpd = dp_drop, .dq = dq, .dk = dk, .ds = ds);
  return !failed;
}
