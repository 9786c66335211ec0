/* gnn-pair-private.c: the (height, width) settings shared by the 2-d layers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pair-private.h"

GParamSpec *
gnn_nn_int_property (const char *name,
                     gint64      minimum,
                     gint64      default_value)
{
  return g_param_spec_int64 (name, NULL, NULL, minimum, G_MAXINT32, default_value,
                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
}

GParamSpec *
gnn_nn_bool_property (const char *name,
                      gboolean    default_value)
{
  return g_param_spec_boolean (name, NULL, NULL, default_value,
                               G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
}

void
gnn_nn_pair_properties (GParamSpec        **properties,
                        guint               first,
                        const GnnPairSpec  *specs,
                        guint               n_specs)
{
  for (guint i = 0; i < n_specs; i++)
    {
      g_autofree char *h = g_strconcat (specs[i].name, "-h", NULL);
      g_autofree char *w = g_strconcat (specs[i].name, "-w", NULL);

      /* G_PARAM_STATIC_STRINGS: the names must outlive the class. */
      properties[first + 2 * i] =
        gnn_nn_int_property (g_intern_string (h), specs[i].minimum, specs[i].default_value);
      properties[first + 2 * i + 1] =
        gnn_nn_int_property (g_intern_string (w), specs[i].minimum, specs[i].default_value);
    }
}

void
gnn_nn_append_pair (GString    *s,
                    const char *name,
                    gint64      h,
                    gint64      w,
                    gboolean    collapse_square)
{
  if (s->len > 0)
    g_string_append (s, ", ");
  if (collapse_square && h == w)
    g_string_append_printf (s, "%s=%" G_GINT64_FORMAT, name, h);
  else
    g_string_append_printf (s, "%s=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", name, h, w);
}

gboolean
gnn_nn_check_int_args (const char       *layer,
                       const GnnIntArg  *args,
                       guint             n_args,
                       GError          **error)
{
  for (guint i = 0; i < n_args; i++)
    if (args[i].value < args[i].minimum || args[i].value > G_MAXINT32)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: %s must be %s, got %" G_GINT64_FORMAT, layer, args[i].name,
                     args[i].minimum > 0 ? "a positive integer" : "a non-negative integer",
                     args[i].value);
        return FALSE;
      }
  return TRUE;
}

gboolean
gnn_nn_check_pool_args (const char  *layer,
                        gint64       kernel_h,
                        gint64       kernel_w,
                        gint64       stride_h,
                        gint64       stride_w,
                        gint64       padding_h,
                        gint64       padding_w,
                        gint64       dilation_h,
                        gint64       dilation_w,
                        GError     **error)
{
  const GnnIntArg args[] = {
    { "kernel_size", kernel_h, 1 }, { "kernel_size", kernel_w, 1 },
    { "stride", stride_h, 0 }, { "stride", stride_w, 0 },
    { "padding", padding_h, 0 }, { "padding", padding_w, 0 },
    { "dilation", dilation_h, 1 }, { "dilation", dilation_w, 1 },
  };

  if (!gnn_nn_check_int_args (layer, args, G_N_ELEMENTS (args), error))
    return FALSE;
  if ((stride_h == 0) != (stride_w == 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: stride must be positive on both axes or 0 on both (for the kernel size), got (%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", layer, stride_h, stride_w);
      return FALSE;
    }
  return TRUE;
}

void
gnn_nn_pool_default_stride (gint64 *stride_h,
                            gint64 *stride_w,
                            gint64  kernel_h,
                            gint64  kernel_w)
{
  if (*stride_h == 0 && *stride_w == 0)
    {
      *stride_h = kernel_h;
      *stride_w = kernel_w;
    }
}
