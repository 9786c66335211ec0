/* gnn-compose.c: transforms applied one after the other
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnCompose:
 *
 * torchvision's `transforms.Compose(transforms)`: each transform applied to
 * the result of the one before. The transforms are
 * [property@Gnn.Compose:transforms], a list model of [class@Gnn.Transform]
 * (a spawned loader worker rebuilds each from its properties).
 *
 * Since: 0.1
 */
struct _GnnCompose
{
  GnnTransform  parent_instance;
  GListModel   *transforms;
  GPtrArray    *items;   /* the transforms' snapshot (see snapshot ()) */
  GMutex        lock;    /* guards the swap of @items against appliers taking a ref */
};

enum { PROP_0, PROP_TRANSFORMS, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnCompose, gnn_compose, GNN_TYPE_TRANSFORM)

/* The transforms as a plain array, taken when the list is set and when it
 * changes: applying reads only that, since loader worker threads apply the
 * same Compose at once and a GListStore's lookups are not thread-safe (it
 * caches the last position asked for). */
static void
snapshot (GnnCompose *self)
{
  guint n = self->transforms != NULL ? g_list_model_get_n_items (self->transforms) : 0;
  GPtrArray *items = g_ptr_array_new_full (n, g_object_unref);
  GPtrArray *old;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (self->transforms, i));
  g_mutex_lock (&self->lock);
  old = g_steal_pointer (&self->items);
  self->items = items;
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&old, g_ptr_array_unref);
}

/* The current snapshot, held by the caller while it applies. */
static GPtrArray *
snapshot_ref (GnnCompose *self)
{
  GPtrArray *items;

  g_mutex_lock (&self->lock);
  items = g_ptr_array_ref (self->items);
  g_mutex_unlock (&self->lock);
  return items;
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GnnCompose *self)
{
  snapshot (self);
}

static void
gnn_compose_constructed (GObject *object)
{
  GnnCompose *self = GNN_COMPOSE (object);

  G_OBJECT_CLASS (gnn_compose_parent_class)->constructed (object);
  snapshot (self);
  if (self->transforms != NULL)
    g_signal_connect_object (self->transforms, "items-changed", G_CALLBACK (on_items_changed),
                             self, 0);
}

static void
gnn_compose_finalize (GObject *object)
{
  GnnCompose *self = GNN_COMPOSE (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (gnn_compose_parent_class)->finalize (object);
}

static gboolean
gnn_compose_validate (GnnTransform  *transform,
                      GError       **error)
{
  g_autoptr(GPtrArray) items = snapshot_ref (GNN_COMPOSE (transform));

  for (guint i = 0; i < items->len; i++)
    {
      GObject *item = g_ptr_array_index (items, i);

      if (!GNN_IS_TRANSFORM (item))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "Compose: transform %u is a %s, not a GnnTransform", i,
                       item != NULL ? G_OBJECT_TYPE_NAME (item) : "NULL");
          return FALSE;
        }
    }
  return TRUE;
}

/* The Normalize at @i when ToTensor is at @i - 1, else NULL. */
static GnnNormalize *
normalize_after_to_tensor (GPtrArray *items,
                           guint      i)
{
  gpointer t, u;

  if (i == 0 || i >= items->len)
    return NULL;
  t = g_ptr_array_index (items, i - 1);
  u = g_ptr_array_index (items, i);
  return GNN_IS_TO_TENSOR (t) && GNN_IS_NORMALIZE (u) ? GNN_NORMALIZE (u) : NULL;
}

/* Transform @i of @items applied, or with the ones after it in one pass where that
 * gives the same values: ToTensor + Normalize (a lookup table from the
 * uint8 image), and RandomHorizontalFlip before them (its draw made as
 * the flip makes it, the columns then read from the right). *@used: how
 * many transforms were applied. */
static GnnTensor *
apply_fused (GPtrArray     *items,
             guint          i,
             GnnTensor     *value,
             guint         *used,
             GError       **error)
{
  GnnTransform *t = g_ptr_array_index (items, i);
  gboolean flip = GNN_IS_RANDOM_HORIZONTAL_FLIP (t);
  GnnNormalize *norm = normalize_after_to_tensor (items, flip ? i + 2 : i + 1);
  gboolean hflip = FALSE;

  *used = 1;
  if (flip)
    hflip = gnn_random_horizontal_flip_draw (GNN_RANDOM_HORIZONTAL_FLIP (t));
  if (norm != NULL && (flip || GNN_IS_TO_TENSOR (t)))
    {
      const double *mean, *std;
      gsize n_mean, n_std;
      GError *local = NULL;
      GnnTensor *next;

      gnn_normalize_get_values (norm, &mean, &n_mean, &std, &n_std);
      next = gnn_vision_to_normalized_tensor (value, hflip, mean, n_mean, std, n_std, &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
      if (next != NULL)
        {
          *used = flip ? 3 : 2;
          return next;
        }
    }
  if (flip)   /* drawn already */
    return hflip ? gnn_vision_hflip (value, error) : g_object_ref (value);
  return gnn_transform_apply (t, value, error);
}

static GnnTensor *
gnn_compose_apply (GnnTransform  *transform,
                   GnnTensor     *input,
                   GError       **error)
{
  GnnCompose *self = GNN_COMPOSE (transform);
  g_autoptr(GPtrArray) items = snapshot_ref (self);   /* held while applied */
  g_autoptr(GnnTensor) value = g_object_ref (input);

  for (guint i = 0; i < items->len;)
    {
      guint used;
      GnnTensor *next = apply_fused (items, i, value, &used, error);

      if (next == NULL)
        return NULL;
      g_object_unref (value);
      value = next;
      i += used;
    }
  return g_steal_pointer (&value);
}

static void
gnn_compose_class_init (GnnComposeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  object_class->constructed = gnn_compose_constructed;
  object_class->finalize = gnn_compose_finalize;
  transform_class->apply = gnn_compose_apply;
  transform_class->validate = gnn_compose_validate;

  /**
   * GnnCompose:transforms:
   *
   * The transforms, in the order they are applied: a #GListModel of
   * [class@Gnn.Transform] (none: the identity).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_TRANSFORMS,
    g_param_spec_object ("transforms", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnCompose, transforms));
}

static void
gnn_compose_init (GnnCompose *self)
{
  g_mutex_init (&self->lock);
}

/**
 * gnn_compose_new:
 * @transforms: (array length=n_transforms): the transforms, in order
 * @n_transforms: the number of transforms
 *
 * Creates the composition, like `transforms.Compose([...])`.
 *
 * Returns: (transfer full): the transform
 *
 * Since: 0.1
 */
GnnCompose *
gnn_compose_new (GnnTransform **transforms,
                 guint          n_transforms)
{
  g_autoptr(GListStore) store = g_list_store_new (GNN_TYPE_TRANSFORM);

  g_return_val_if_fail (transforms != NULL || n_transforms == 0, NULL);
  for (guint i = 0; i < n_transforms; i++)
    {
      g_return_val_if_fail (GNN_IS_TRANSFORM (transforms[i]), NULL);
      g_list_store_append (store, transforms[i]);
    }
  return g_object_new (GNN_TYPE_COMPOSE, "transforms", store, NULL);
}

/**
 * gnn_compose_get_transforms:
 * @self: a #GnnCompose
 *
 * Gets the transforms (torchvision's `compose.transforms`).
 *
 * Returns: (transfer none) (nullable): the list of transforms
 *
 * Since: 0.1
 */
GListModel *
gnn_compose_get_transforms (GnnCompose *self)
{
  g_return_val_if_fail (GNN_IS_COMPOSE (self), NULL);
  return self->transforms;
}
