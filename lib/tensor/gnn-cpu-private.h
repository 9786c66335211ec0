/* gnn-cpu-private.h: run-time CPU dispatch for the kernels built per level
 *
 * lib/meson.build compiles some kernel files again with -mavx2 and
 * -mavx512f under other names, and GNN_DISPATCH_KERNEL below makes per-level
 * copies of a loop inside one file; the dispatchers call the best variant
 * this CPU runs. The environment variable GNN_CPU_LEVEL = baseline | avx2 |
 * avx512, read once, lowers the level (never above what the CPU has), so
 * tests and benchmarks can force each variant.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  GNN_CPU_LEVEL_BASELINE,   /* x86-64 (SSE2), or any other architecture */
  GNN_CPU_LEVEL_AVX2,       /* AVX2 + FMA */
  GNN_CPU_LEVEL_AVX512,     /* AVX-512F + VL */
} GnnCpuLevel;

/* The highest level both this build and this CPU support. */
GnnCpuLevel gnn_cpu_level_supported (void);

/* The level in use: supported, capped by GNN_CPU_LEVEL. */
GnnCpuLevel gnn_cpu_level (void);

/* "baseline", "avx2", "avx512". */
const char *gnn_cpu_level_name (GnnCpuLevel level);

/* Marks the loops of the dispatched kernels, inlined into each CPU level's
 * copy. */
#define GNN_KERNEL_INLINE static inline __attribute__ ((always_inline))

/* GNN_DISPATCH_KERNEL (name, (params), (args)) defines `static void name
 * (params)` that runs name##_typed (args) — a static inline loop, marked
 * always_inline — compiled three times: for the x86-64 baseline and,
 * with GCC's target attribute, for AVX2 and AVX-512, picking the copy for
 * gnn_cpu_level (). No flag changes the arithmetic (no FMA contraction in
 * ISO C mode, no reassociation): every copy gives the same bits, only
 * wider. Used by the elementwise kernels (gnn-tensor-pointwise.c). */
#if defined(GNN_HAVE_CPU_VARIANTS) && defined(__x86_64__)
# define GNN_DISPATCH_KERNEL(name, PARAMS, ARGS)                                \
static __attribute__ ((target ("avx2,fma"))) void                               \
name##_avx2 PARAMS                                                              \
{                                                                               \
  name##_typed ARGS;                                                            \
}                                                                               \
static __attribute__ ((target ("avx512f,avx512vl,avx512bw,avx2,fma"))) void     \
name##_avx512 PARAMS                                                            \
{                                                                               \
  name##_typed ARGS;                                                            \
}                                                                               \
static void                                                                     \
name PARAMS                                                                     \
{                                                                               \
  switch (gnn_cpu_level ())                                                     \
    {                                                                           \
    case GNN_CPU_LEVEL_AVX512:                                                  \
      name##_avx512 ARGS;                                                       \
      return;                                                                   \
    case GNN_CPU_LEVEL_AVX2:                                                    \
      name##_avx2 ARGS;                                                         \
      return;                                                                   \
    default:                                                                    \
      name##_typed ARGS;                                                        \
    }                                                                           \
}
#else
# define GNN_DISPATCH_KERNEL(name, PARAMS, ARGS)                                \
static void                                                                     \
name PARAMS                                                                     \
{                                                                               \
  name##_typed ARGS;                                                            \
}
#endif

G_END_DECLS
