/* gnn-fold.c: sliding blocks to columns and back (torch.nn.Unfold,
 * torch.nn.Fold), sharing one configuration and property table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnUnfold:
 *
 * Extracts the sliding blocks of `[N, C, H, W]` or `[C, H, W]` inputs as
 * columns, `torch.nn.Unfold`, computed by [method@Gnn.Tensor.im2col]. It
 * has no parameters.
 *
 * Since: 0.1
 */

/**
 * GnnFold:
 *
 * Sums columns of sliding blocks back into `[N, C, output_h, output_w]`
 * images, `torch.nn.Fold`, computed by [method@Gnn.Tensor.col2im]. It has
 * no parameters.
 *
 * Since: 0.1
 */

enum
{
  PROP_0,
  PROP_KERNEL_H,
  PROP_KERNEL_W,
  PROP_DILATION_H,
  PROP_DILATION_W,
  PROP_PADDING_H,
  PROP_PADDING_W,
  PROP_STRIDE_H,
  PROP_STRIDE_W,
  PROP_OUTPUT_H,   /* Fold only */
  PROP_OUTPUT_W,
  N_PROPS
};

/* The settings, indexed by prop id - 1: torch's im2col order. */
typedef struct
{
  gint64 s[10];
} Blocks;

struct _GnnUnfold
{
  GnnModule parent_instance;
  Blocks    blocks;
};

struct _GnnFold
{
  GnnModule parent_instance;
  Blocks    blocks;
};

G_DEFINE_FINAL_TYPE (GnnUnfold, gnn_unfold, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnFold, gnn_fold, GNN_TYPE_MODULE)

static Blocks *
blocks_of (gpointer object)
{
  return GNN_IS_FOLD (object) ? &GNN_FOLD (object)->blocks : &GNN_UNFOLD (object)->blocks;
}

static GnnTensor *
blocks_forward (GnnModule  *module,
                GnnTensor  *input,
                GError    **error)
{
  const gint64 *s = blocks_of (module)->s;

  if (GNN_IS_FOLD (module))
    return gnn_tensor_col2im (input, s[8], s[9], s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], error);
  return gnn_tensor_im2col (input, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], error);
}

static char *
blocks_extra_repr (GnnModule *module)
{
  const gint64 *s = blocks_of (module)->s;
  GString *out = g_string_new (NULL);

  /* an output size is nearly always given as a (height, width) pair */
  if (GNN_IS_FOLD (module))
    gnn_nn_append_pair (out, "output_size", s[8], s[9], FALSE);
  gnn_nn_append_pair (out, "kernel_size", s[0], s[1], TRUE);
  gnn_nn_append_pair (out, "dilation", s[2], s[3], TRUE);
  gnn_nn_append_pair (out, "padding", s[4], s[5], TRUE);
  gnn_nn_append_pair (out, "stride", s[6], s[7], TRUE);
  return g_string_free (out, FALSE);
}

static void
blocks_get_property (GObject    *object,
                     guint       prop_id,
                     GValue     *value,
                     GParamSpec *pspec)
{
  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_OUTPUT_W)
    g_value_set_int64 (value, blocks_of (object)->s[prop_id - 1]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
blocks_set_property (GObject      *object,
                     guint         prop_id,
                     const GValue *value,
                     GParamSpec   *pspec)
{
  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_OUTPUT_W)
    blocks_of (object)->s[prop_id - 1] = g_value_get_int64 (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* The properties of both, plus the output size of Fold. */
static void
blocks_class_init (GObjectClass *object_class,
                   gboolean      fold)
{
  static const GnnPairSpec pairs[] = {
    { "kernel", 1, 1 }, { "dilation", 1, 1 }, { "padding", 0, 0 }, { "stride", 1, 1 }, { "output", 0, 1 },
  };
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);
  GParamSpec *properties[N_PROPS] = { NULL, };

  object_class->get_property = blocks_get_property;
  object_class->set_property = blocks_set_property;
  module_class->forward = blocks_forward;
  module_class->extra_repr = blocks_extra_repr;
  gnn_nn_pair_properties (properties, PROP_KERNEL_H, pairs, G_N_ELEMENTS (pairs) - (fold ? 0 : 1));
  for (guint id = 1; id < N_PROPS; id++)
    if (properties[id] != NULL)
      g_object_class_install_property (object_class, id, properties[id]);
}

static void
blocks_init (Blocks *b)
{
  for (guint i = 0; i < G_N_ELEMENTS (b->s); i++)
    b->s[i] = 1;
  b->s[PROP_PADDING_H - 1] = b->s[PROP_PADDING_W - 1] = 0;
}

static void
gnn_unfold_class_init (GnnUnfoldClass *klass)
{
  /**
   * GnnUnfold:kernel-h:
   *
   * The block height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnUnfold:kernel-w:
   *
   * The block width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnUnfold:dilation-h:
   *
   * The vertical spacing of a block's elements (`dilation[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnUnfold:dilation-w:
   *
   * The horizontal spacing of a block's elements (`dilation[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnUnfold:padding-h:
   *
   * The zero padding on the top and bottom (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnUnfold:padding-w:
   *
   * The zero padding on the left and right (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnUnfold:stride-h:
   *
   * The vertical stride of the blocks (`stride[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnUnfold:stride-w:
   *
   * The horizontal stride of the blocks (`stride[1]`).
   *
   * Since: 0.1
   */
  blocks_class_init (G_OBJECT_CLASS (klass), FALSE);
}

static void
gnn_fold_class_init (GnnFoldClass *klass)
{
  /**
   * GnnFold:output-h:
   *
   * The height of the output (`output_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:output-w:
   *
   * The width of the output (`output_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:kernel-h:
   *
   * The block height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:kernel-w:
   *
   * The block width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:dilation-h:
   *
   * The vertical spacing of a block's elements (`dilation[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:dilation-w:
   *
   * The horizontal spacing of a block's elements (`dilation[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:padding-h:
   *
   * The zero padding on the top and bottom (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:padding-w:
   *
   * The zero padding on the left and right (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:stride-h:
   *
   * The vertical stride of the blocks (`stride[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnFold:stride-w:
   *
   * The horizontal stride of the blocks (`stride[1]`).
   *
   * Since: 0.1
   */
  blocks_class_init (G_OBJECT_CLASS (klass), TRUE);
}

static void
gnn_unfold_init (GnnUnfold *self)
{
  blocks_init (&self->blocks);
}

static void
gnn_fold_init (GnnFold *self)
{
  blocks_init (&self->blocks);
}

/**
 * gnn_unfold_new:
 * @kernel_h: the block height (> 0)
 * @kernel_w: the block width (> 0)
 * @dilation: the spacing of a block's elements on both axes (> 0)
 * @padding: the zero padding on both axes (>= 0)
 * @stride: the stride of the blocks on both axes (> 0)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.Unfold((kernel_h, kernel_w), dilation, padding,
 * stride)`; per-axis settings are properties.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   setting out of range
 *
 * Since: 0.1
 */
GnnUnfold *
gnn_unfold_new (gint64   kernel_h,
                gint64   kernel_w,
                gint64   dilation,
                gint64   padding,
                gint64   stride,
                GError **error)
{
  const GnnIntArg args[] = {
    { "kernel_size", kernel_h, 1 }, { "kernel_size", kernel_w, 1 }, { "dilation", dilation, 1 },
    { "padding", padding, 0 }, { "stride", stride, 1 },
  };

  if (!gnn_nn_check_int_args ("Unfold", args, G_N_ELEMENTS (args), error))
    return NULL;
  return g_object_new (GNN_TYPE_UNFOLD, "kernel-h", kernel_h, "kernel-w", kernel_w, "dilation-h", dilation,
                       "dilation-w", dilation, "padding-h", padding, "padding-w", padding, "stride-h", stride,
                       "stride-w", stride, NULL);
}

/**
 * gnn_fold_new:
 * @output_h: the output height
 * @output_w: the output width
 * @kernel_h: the block height (> 0)
 * @kernel_w: the block width (> 0)
 * @dilation: the spacing of a block's elements on both axes (> 0)
 * @padding: the zero padding on both axes (>= 0)
 * @stride: the stride of the blocks on both axes (> 0)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.Fold((output_h, output_w), (kernel_h, kernel_w),
 * dilation, padding, stride)`; per-axis settings are properties.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   setting out of range
 *
 * Since: 0.1
 */
GnnFold *
gnn_fold_new (gint64   output_h,
              gint64   output_w,
              gint64   kernel_h,
              gint64   kernel_w,
              gint64   dilation,
              gint64   padding,
              gint64   stride,
              GError **error)
{
  const GnnIntArg args[] = {
    { "output_size", output_h, 0 }, { "output_size", output_w, 0 },
    { "kernel_size", kernel_h, 1 }, { "kernel_size", kernel_w, 1 }, { "dilation", dilation, 1 },
    { "padding", padding, 0 }, { "stride", stride, 1 },
  };

  if (!gnn_nn_check_int_args ("Fold", args, G_N_ELEMENTS (args), error))
    return NULL;
  return g_object_new (GNN_TYPE_FOLD, "output-h", output_h, "output-w", output_w, "kernel-h", kernel_h,
                       "kernel-w", kernel_w, "dilation-h", dilation, "dilation-w", dilation, "padding-h", padding,
                       "padding-w", padding, "stride-h", stride, "stride-w", stride, NULL);
}
