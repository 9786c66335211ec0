/* gnn-cpu-private.h: run-time CPU dispatch for the kernels built per level
 *
 * lib/meson.build compiles some kernel files again with -mavx2 and
 * -mavx512f under other names; the dispatchers call the best variant this
 * CPU runs. The environment variable GNN_CPU_LEVEL = baseline | avx2 |
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

G_END_DECLS
