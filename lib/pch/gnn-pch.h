/* gnn-pch.h: the headers every file of the library parses, precompiled once
 * per target (meson's c_pch; the b_pch option turns it off).
 *
 * Parsing <gnn/gnn.h> (53,000 lines after preprocessing, with GLib, GObject
 * and GIO) was half of the CPU time of compiling the library: 0.17 of
 * 0.35 s per file on average, measured on 20 of its files; with this header
 * precompiled the same 20 files took 2.4 s instead of 5.4 s. Only public and
 * system headers go here, so a file still names the private headers it uses
 * (the layering test reads those includes).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No include guard: a precompiled header is always the main file.
 */

#include <math.h>
#include <string.h>
#include <gio/gio.h>
#include <gnn/gnn.h>
