/* gnn-cpu.c: run-time CPU dispatch (see gnn-cpu-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-cpu-private.h"
#include "tensor/gnn-gemm-small-private.h"

static const char *const level_names[] = { "baseline", "avx2", "avx512" };

const char *
gnn_cpu_level_name (GnnCpuLevel level)
{
  return level <= GNN_CPU_LEVEL_AVX512 ? level_names[level] : "unknown";
}

GnnCpuLevel
gnn_cpu_level_supported (void)
{
#if defined(GNN_HAVE_CPU_VARIANTS) && defined(__x86_64__)
  __builtin_cpu_init ();
  if (__builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512vl"))
    return GNN_CPU_LEVEL_AVX512;
  if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    return GNN_CPU_LEVEL_AVX2;
#endif
  return GNN_CPU_LEVEL_BASELINE;
}

static gint cpu_level = -1;

GnnCpuLevel
gnn_cpu_level (void)
{
  gint level = g_atomic_int_get (&cpu_level);
  const char *want;

  if (G_LIKELY (level >= 0))
    return (GnnCpuLevel) level;
  level = (gint) gnn_cpu_level_supported ();
  want = g_getenv ("GNN_CPU_LEVEL");
  if (want != NULL)
    {
      gint cap = -1;

      for (guint i = 0; i < G_N_ELEMENTS (level_names); i++)
        if (strcmp (want, level_names[i]) == 0)
          cap = (gint) i;
      if (cap < 0)
        g_warning ("GNN_CPU_LEVEL=%s is not one of baseline, avx2, avx512: ignored", want);
      else
        level = MIN (level, cap);
    }
  g_atomic_int_set (&cpu_level, level);
  return (GnnCpuLevel) level;
}

void
gnn_sgemm_small (gboolean     trans_a,
                 gboolean     trans_b,
                 gint64       m,
                 gint64       n,
                 gint64       k,
                 const float *a,
                 gint64       lda,
                 const float *b,
                 gint64       ldb,
                 const float *bias,
                 float       *c,
                 gint64       ldc)
{
  switch (gnn_cpu_level ())
    {
#ifdef GNN_HAVE_CPU_VARIANTS
    case GNN_CPU_LEVEL_AVX512:
      gnn_sgemm_small_avx512 (trans_a, trans_b, m, n, k, a, lda, b, ldb, bias, c, ldc);
      return;
    case GNN_CPU_LEVEL_AVX2:
      gnn_sgemm_small_avx2 (trans_a, trans_b, m, n, k, a, lda, b, ldb, bias, c, ldc);
      return;
#endif
    default:
      gnn_sgemm_small_baseline (trans_a, trans_b, m, n, k, a, lda, b, ldb, bias, c, ldc);
    }
}
