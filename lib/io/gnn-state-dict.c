/* gnn-state-dict.c: ordered name → tensor maps with string metadata
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/**
 * GnnStateDict:
 *
 * An insertion-ordered map from dotted names to tensors, plus string
 * metadata, like the `OrderedDict` that PyTorch's `state_dict()` returns.
 * [method@Gnn.Module.state_dict] fills one; [method@Gnn.Module.load_state_dict]
 * reads one. Inserting an existing key replaces its tensor and keeps its
 * position. The tensors are shared, not copied.
 *
 * Since: 0.1
 */
struct _GnnStateDict
{
  GObject     parent_instance;

  GPtrArray  *keys;       /* char*, insertion order */
  GHashTable *tensors;    /* key (owned by keys) → GnnTensor* (owned) */
  GPtrArray  *meta_keys;  /* char*, insertion order */
  GHashTable *metadata;   /* key (owned by meta_keys) → char* (owned) */
};

G_DEFINE_FINAL_TYPE (GnnStateDict, gnn_state_dict, G_TYPE_OBJECT)

static void
gnn_state_dict_finalize (GObject *object)
{
  GnnStateDict *self = GNN_STATE_DICT (object);

  g_clear_pointer (&self->tensors, g_hash_table_unref);
  g_clear_pointer (&self->keys, g_ptr_array_unref);
  g_clear_pointer (&self->metadata, g_hash_table_unref);
  g_clear_pointer (&self->meta_keys, g_ptr_array_unref);

  G_OBJECT_CLASS (gnn_state_dict_parent_class)->finalize (object);
}

static void
gnn_state_dict_class_init (GnnStateDictClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_state_dict_finalize;
}

static void
gnn_state_dict_init (GnnStateDict *self)
{
  self->keys = g_ptr_array_new_with_free_func (g_free);
  self->tensors = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->meta_keys = g_ptr_array_new_with_free_func (g_free);
  self->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
}

/**
 * gnn_state_dict_new:
 *
 * Creates an empty state dict.
 *
 * Returns: (transfer full): a new state dict
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_state_dict_new (void)
{
  return g_object_new (GNN_TYPE_STATE_DICT, NULL);
}

/**
 * gnn_state_dict_insert:
 * @self: a state dict
 * @key: the name
 * @tensor: the tensor (shared, not copied)
 *
 * Sets @key to @tensor: a new key goes last, an existing key keeps its
 * position.
 *
 * Since: 0.1
 */
void
gnn_state_dict_insert (GnnStateDict *self,
                       const char   *key,
                       GnnTensor    *tensor)
{
  gpointer orig_key;

  g_return_if_fail (GNN_IS_STATE_DICT (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (GNN_IS_TENSOR (tensor));

  if (g_hash_table_lookup_extended (self->tensors, key, &orig_key, NULL))
    {
      g_hash_table_insert (self->tensors, orig_key, g_object_ref (tensor));
      return;
    }
  orig_key = g_strdup (key);
  g_ptr_array_add (self->keys, orig_key);
  g_hash_table_insert (self->tensors, orig_key, g_object_ref (tensor));
}

/**
 * gnn_state_dict_lookup:
 * @self: a state dict
 * @key: the name
 *
 * Looks a tensor up by name.
 *
 * Returns: (transfer none) (nullable): the tensor, or %NULL if @key is absent
 *
 * Since: 0.1
 */
GnnTensor *
gnn_state_dict_lookup (GnnStateDict *self,
                       const char   *key)
{
  g_return_val_if_fail (GNN_IS_STATE_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->tensors, key);
}

/**
 * gnn_state_dict_contains:
 * @self: a state dict
 * @key: the name
 *
 * Tells whether @key is present.
 *
 * Returns: %TRUE if @key is present
 *
 * Since: 0.1
 */
gboolean
gnn_state_dict_contains (GnnStateDict *self,
                         const char   *key)
{
  g_return_val_if_fail (GNN_IS_STATE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  return g_hash_table_contains (self->tensors, key);
}

/**
 * gnn_state_dict_remove:
 * @self: a state dict
 * @key: the name
 *
 * Removes @key.
 *
 * Returns: %TRUE if @key was present
 *
 * Since: 0.1
 */
gboolean
gnn_state_dict_remove (GnnStateDict *self,
                       const char   *key)
{
  gpointer orig_key;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  if (!g_hash_table_lookup_extended (self->tensors, key, &orig_key, NULL))
    return FALSE;
  g_hash_table_remove (self->tensors, key);
  g_ptr_array_remove (self->keys, orig_key);   /* frees orig_key */
  return TRUE;
}

/**
 * gnn_state_dict_get_keys:
 * @self: a state dict
 *
 * Lists the names in insertion order.
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys
 *
 * Since: 0.1
 */
char **
gnn_state_dict_get_keys (GnnStateDict *self)
{
  GStrvBuilder *builder;
  char **keys;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->keys->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->keys, i));
  keys = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return keys;
}

/**
 * gnn_state_dict_get_length:
 * @self: a state dict
 *
 * Counts the tensors.
 *
 * Returns: the number of keys
 *
 * Since: 0.1
 */
guint
gnn_state_dict_get_length (GnnStateDict *self)
{
  g_return_val_if_fail (GNN_IS_STATE_DICT (self), 0);

  return self->keys->len;
}

/**
 * gnn_state_dict_set_metadata:
 * @self: a state dict
 * @key: the metadata key
 * @value: (nullable): the value, or %NULL to remove @key
 *
 * Sets a string of metadata (safetensors' `__metadata__`, PyTorch's
 * per-module versions).
 *
 * Since: 0.1
 */
void
gnn_state_dict_set_metadata (GnnStateDict *self,
                             const char   *key,
                             const char   *value)
{
  gpointer orig_key;

  g_return_if_fail (GNN_IS_STATE_DICT (self));
  g_return_if_fail (key != NULL);

  if (g_hash_table_lookup_extended (self->metadata, key, &orig_key, NULL))
    {
      if (value != NULL)
        {
          g_hash_table_insert (self->metadata, orig_key, g_strdup (value));
          return;
        }
      g_hash_table_remove (self->metadata, key);
      g_ptr_array_remove (self->meta_keys, orig_key);
      return;
    }
  if (value == NULL)
    return;
  orig_key = g_strdup (key);
  g_ptr_array_add (self->meta_keys, orig_key);
  g_hash_table_insert (self->metadata, orig_key, g_strdup (value));
}

/**
 * gnn_state_dict_get_metadata:
 * @self: a state dict
 * @key: the metadata key
 *
 * Looks up a string of metadata.
 *
 * Returns: (transfer none) (nullable): the value, or %NULL if absent
 *
 * Since: 0.1
 */
const char *
gnn_state_dict_get_metadata (GnnStateDict *self,
                             const char   *key)
{
  g_return_val_if_fail (GNN_IS_STATE_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->metadata, key);
}

/**
 * gnn_state_dict_get_metadata_keys:
 * @self: a state dict
 *
 * Lists the metadata keys in insertion order.
 *
 * Returns: (transfer full) (array zero-terminated=1): the metadata keys
 *
 * Since: 0.1
 */
char **
gnn_state_dict_get_metadata_keys (GnnStateDict *self)
{
  GStrvBuilder *builder;
  char **keys;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->meta_keys->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->meta_keys, i));
  keys = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return keys;
}
