/* gnn-pair-private.h: the (height, width) settings shared by the 2-d layers
 * (Conv2d, MaxPool2d, AvgPool2d): kernel_size, stride, padding, dilation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* One pair of construct-only int64 properties "<name>-h", "<name>-w". */
typedef struct
{
  const char *name;
  gint64      minimum;
  gint64      default_value;
} GnnPairSpec;

/* One integer constructor argument and its lower bound (the upper one is
 * G_MAXINT32). */
typedef struct
{
  const char *name;
  gint64      value;
  gint64      minimum;
} GnnIntArg;

/* A construct-only int64 property in [minimum, G_MAXINT32]. */
GParamSpec *gnn_nn_int_property       (const char        *name,
                                       gint64             minimum,
                                       gint64             default_value);

/* A construct-only boolean property. */
GParamSpec *gnn_nn_bool_property      (const char        *name,
                                       gboolean           default_value);

/* Creates properties[first], properties[first + 1], … for each spec in
 * order: "<name>-h" then "<name>-w". */
void        gnn_nn_pair_properties    (GParamSpec       **properties,
                                       guint              first,
                                       const GnnPairSpec *specs,
                                       guint              n_specs);

/* Appends ", " (unless @s is empty) and "name=2" for a square setting when
 * @collapse_square, else "name=(2, 3)" (how PyTorch prints an int or a
 * tuple argument). */
void        gnn_nn_append_pair        (GString          *s,
                                       const char       *name,
                                       gint64            h,
                                       gint64            w,
                                       gboolean          collapse_square);

/* "<layer>: <name> must be a positive integer, got <v>" (or
 * "a non-negative integer" for a minimum of 0) for the first argument out
 * of range. */
gboolean    gnn_nn_check_int_args     (const char       *layer,
                                       const GnnIntArg  *args,
                                       guint             n_args,
                                       GError          **error);

/* The pooling layers' checks: sizes in range, and the strides both
 * positive or both 0 (PyTorch's `stride=None`). */
gboolean    gnn_nn_check_pool_args    (const char       *layer,
                                       gint64            kernel_h,
                                       gint64            kernel_w,
                                       gint64            stride_h,
                                       gint64            stride_w,
                                       gint64            padding_h,
                                       gint64            padding_w,
                                       gint64            dilation_h,
                                       gint64            dilation_w,
                                       GError          **error);

/* stride=None: a (0, 0) stride becomes the kernel size. */
void        gnn_nn_pool_default_stride (gint64          *stride_h,
                                        gint64          *stride_w,
                                        gint64           kernel_h,
                                        gint64           kernel_w);

G_END_DECLS
