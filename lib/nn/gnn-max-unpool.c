/* gnn-max-unpool.c: max unpooling layers (torch.nn.MaxUnpool1d/2d/3d), one
 * configuration and property table for the three
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnMaxUnpool1d:
 *
 * `torch.nn.MaxUnpool1d`: the inverse of [class@Gnn.MaxPool1d] with
 * `return-indices`; a call takes torch's `(input, indices,
 * output_size=None)` and computes [method@Gnn.Tensor.max_unpool_with_geometry].
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool2d:
 *
 * `torch.nn.MaxUnpool2d`: the inverse of [class@Gnn.MaxPool2d] with
 * `return-indices`; a call takes torch's `(input, indices,
 * output_size=None)`.
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool3d:
 *
 * `torch.nn.MaxUnpool3d`: a call takes torch's `(input, indices,
 * output_size=None)`.
 *
 * Since: 0.1
 */

enum { KIND_KERNEL, KIND_STRIDE, KIND_PADDING, N_KINDS };

/* property ids: 1 + kind * 3 + axis */
#define PROP_ID(kind, axis) (1 + (kind) * 3 + (axis))

typedef struct
{
  gint64 v[N_KINDS][3];   /* kernel, stride (0: the kernel), padding */
} Unpool;

struct _GnnMaxUnpool1d { GnnModule parent_instance; Unpool u; };
struct _GnnMaxUnpool2d { GnnModule parent_instance; Unpool u; };
struct _GnnMaxUnpool3d { GnnModule parent_instance; Unpool u; };

G_DEFINE_FINAL_TYPE (GnnMaxUnpool1d, gnn_max_unpool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnMaxUnpool2d, gnn_max_unpool2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnMaxUnpool3d, gnn_max_unpool3d, GNN_TYPE_MODULE)

static guint
n_spatial (gpointer object)
{
  return GNN_IS_MAX_UNPOOL1D (object) ? 1 : GNN_IS_MAX_UNPOOL2D (object) ? 2 : 3;
}

static Unpool *
unpool_of (gpointer object)
{
  if (GNN_IS_MAX_UNPOOL1D (object))
    return &GNN_MAX_UNPOOL1D (object)->u;
  if (GNN_IS_MAX_UNPOOL2D (object))
    return &GNN_MAX_UNPOOL2D (object)->u;
  return &GNN_MAX_UNPOOL3D (object)->u;
}

/* torch's forward(input, indices, output_size=None) */
static GnnValue *
unpool_forward_args (GnnModule  *module,
                     GnnValue   *args,
                     GnnValue   *kwargs,
                     GError    **error)
{
  g_autofree char *function = g_strconcat (gnn_module_get_name (module), ".forward", NULL);
  Unpool *u = unpool_of (module);
  guint n = n_spatial (module);
  GnnTensor *input, *indices;
  GnnValue *output_size = NULL;
  gint64 size[5];
  gsize n_size = 0;
  GnnTensor *out;

  if (!gnn_args_parse (args, kwargs, function, error, "input", GNN_ARG_TENSOR, &input,
                       "indices", GNN_ARG_TENSOR, &indices,
                       "output_size", GNN_ARG_OPTIONAL_VALUE, &output_size, NULL))
    return NULL;
  if (output_size != NULL)
    {
      GnnValueKind kind = gnn_value_get_kind (output_size);

      if (kind != GNN_VALUE_TUPLE && kind != GNN_VALUE_LIST)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "object of type '%s' has no len()",
                       gnn_value_get_type_name (output_size));
          return NULL;
        }
      n_size = gnn_value_get_length (output_size);
      for (gsize i = 0; i < n_size; i++)
        {
          GnnValue *item = gnn_value_get_item (output_size, i);

          if (gnn_value_get_kind (item) != GNN_VALUE_INT || i >= G_N_ELEMENTS (size))
            {
              g_set_error (error, GNN_ERROR, i >= G_N_ELEMENTS (size) ? GNN_ERROR_INVALID_ARGUMENT : GNN_ERROR_TYPE,
                           "output_size should be a sequence containing %u or %u ints", n, n + 2);
              return NULL;
            }
          size[i] = gnn_value_get_int (item);
        }
    }
  out = gnn_tensor_max_unpool_with_geometry (input, indices, u->v[KIND_KERNEL], u->v[KIND_STRIDE],
                                             u->v[KIND_PADDING], n, output_size != NULL ? size : NULL,
                                             n_size, error);
  return out != NULL ? gnn_value_take_tensor (out) : NULL;
}

static void
append_tuple (GString      *s,
              const char   *name,
              const gint64 *v,
              guint         n)
{
  g_string_append_printf (s, "%s%s=(", s->len > 0 ? ", " : "", name);
  for (guint d = 0; d < n; d++)
    g_string_append_printf (s, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, v[d]);
  g_string_append (s, n == 1 ? ",)" : ")");
}

static char *
unpool_extra_repr (GnnModule *module)
{
  Unpool *u = unpool_of (module);
  guint n = n_spatial (module);
  GString *s = g_string_new (NULL);
  gint64 stride[3];

  for (guint d = 0; d < n; d++)
    stride[d] = u->v[KIND_STRIDE][d] == 0 ? u->v[KIND_KERNEL][d] : u->v[KIND_STRIDE][d];
  append_tuple (s, "kernel_size", u->v[KIND_KERNEL], n);
  append_tuple (s, "stride", stride, n);
  append_tuple (s, "padding", u->v[KIND_PADDING], n);
  return g_string_free (s, FALSE);
}

static void
unpool_get_property (GObject    *object,
                     guint       prop_id,
                     GValue     *value,
                     GParamSpec *pspec)
{
  if (prop_id >= 1 && prop_id <= N_KINDS * 3)
    g_value_set_int64 (value, unpool_of (object)->v[(prop_id - 1) / 3][(prop_id - 1) % 3]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
unpool_set_property (GObject      *object,
                     guint         prop_id,
                     const GValue *value,
                     GParamSpec   *pspec)
{
  if (prop_id >= 1 && prop_id <= N_KINDS * 3)
    unpool_of (object)->v[(prop_id - 1) / 3][(prop_id - 1) % 3] = g_value_get_int64 (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* "kernel-size" / "stride" / "padding" for one axis, "kernel-d", "-h", "-w"
 * suffixes for several, as the convolutions name theirs. */
static void
unpool_class_init (GObjectClass *object_class,
                   guint         n)
{
  static const char *const suffixes[3][3] = { { "" }, { "-h", "-w" }, { "-d", "-h", "-w" } };
  static const struct { const char *name; gint64 minimum, default_value; } kinds[N_KINDS] = {
    { "kernel", 1, 1 }, { "stride", 0, 0 }, { "padding", 0, 0 },
  };
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);

  object_class->get_property = unpool_get_property;
  object_class->set_property = unpool_set_property;
  module_class->forward_args = unpool_forward_args;
  module_class->extra_repr = unpool_extra_repr;
  for (guint k = 0; k < N_KINDS; k++)
    for (guint d = 0; d < n; d++)
      {
        g_autofree char *name = n == 1 && k == KIND_KERNEL ? g_strdup ("kernel-size")
                                                           : g_strconcat (kinds[k].name, suffixes[n - 1][d], NULL);

        g_object_class_install_property (object_class, PROP_ID (k, d),
                                         gnn_nn_int_property (g_intern_string (name), kinds[k].minimum,
                                                              kinds[k].default_value));
      }
}

static void
unpool_init (Unpool *u)
{
  for (guint d = 0; d < 3; d++)
    u->v[KIND_KERNEL][d] = 1;
}

static void
gnn_max_unpool1d_class_init (GnnMaxUnpool1dClass *klass)
{
  /**
   * GnnMaxUnpool1d:kernel-size:
   *
   * The pooling window (`kernel_size`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool1d:stride:
   *
   * The pooling stride; 0 means the kernel size (torch's `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool1d:padding:
   *
   * The pooling padding.
   *
   * Since: 0.1
   */
  unpool_class_init (G_OBJECT_CLASS (klass), 1);
}

static void
gnn_max_unpool2d_class_init (GnnMaxUnpool2dClass *klass)
{
  /**
   * GnnMaxUnpool2d:kernel-h:
   *
   * The pooling window's height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool2d:kernel-w:
   *
   * The pooling window's width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool2d:stride-h:
   *
   * The vertical pooling stride; 0 means the kernel size (torch's `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool2d:stride-w:
   *
   * The horizontal pooling stride; 0 means the kernel size.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool2d:padding-h:
   *
   * The vertical pooling padding.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool2d:padding-w:
   *
   * The horizontal pooling padding.
   *
   * Since: 0.1
   */
  unpool_class_init (G_OBJECT_CLASS (klass), 2);
}

static void
gnn_max_unpool3d_class_init (GnnMaxUnpool3dClass *klass)
{
  /**
   * GnnMaxUnpool3d:kernel-d:
   *
   * The pooling window's depth (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:kernel-h:
   *
   * The pooling window's height (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:kernel-w:
   *
   * The pooling window's width (`kernel_size[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:stride-d:
   *
   * The pooling stride in depth; 0 means the kernel size (torch's `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:stride-h:
   *
   * The vertical pooling stride; 0 means the kernel size.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:stride-w:
   *
   * The horizontal pooling stride; 0 means the kernel size.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:padding-d:
   *
   * The pooling padding in depth.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:padding-h:
   *
   * The vertical pooling padding.
   *
   * Since: 0.1
   */
  /**
   * GnnMaxUnpool3d:padding-w:
   *
   * The horizontal pooling padding.
   *
   * Since: 0.1
   */
  unpool_class_init (G_OBJECT_CLASS (klass), 3);
}

static void
gnn_max_unpool1d_init (GnnMaxUnpool1d *self)
{
  unpool_init (&self->u);
}

static void
gnn_max_unpool2d_init (GnnMaxUnpool2d *self)
{
  unpool_init (&self->u);
}

static void
gnn_max_unpool3d_init (GnnMaxUnpool3d *self)
{
  unpool_init (&self->u);
}
