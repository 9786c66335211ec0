/* gnn-sampler.c: the index sampler base class
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "data/gnn-data-private.h"

/**
 * GnnSampler:
 *
 * A source of dataset indices, one epoch at a time, like
 * `torch.utils.data.Sampler`. Subclasses implement `get_length` and `sample`
 * (Python: `do_get_length`, `do_sample` returning a list of ints). Random
 * samplers draw a new order on every call to [method@Gnn.Sampler.sample].
 * A [class@Gnn.DataLoader] always samples in the calling thread.
 *
 * Since: 0.1
 */

static void gnn_sampler_initable_iface_init (GInitableIface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnSampler, gnn_sampler, G_TYPE_OBJECT,
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_sampler_initable_iface_init))

G_DEFINE_QUARK (gnn-sampler-validate, validate_func)

/* The configuration check of a sampler type, kept off the public class
 * struct: GInitable.init and every sample() run it, so a sampler built
 * from bare properties fails with PyTorch's message instead of crashing. */
void
gnn_sampler_class_set_validate (gpointer                klass,
                                GnnSamplerValidateFunc  func)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), validate_func_quark (), (gpointer) func);
}

gboolean
gnn_sampler_check_config (gpointer   self,
                          GError   **error)
{
  for (GType t = G_OBJECT_TYPE (self); t != 0; t = g_type_parent (t))
    {
      GnnSamplerValidateFunc func = (GnnSamplerValidateFunc) g_type_get_qdata (t, validate_func_quark ());

      if (func != NULL)
        return func (self, error);
    }
  return TRUE;
}

static gboolean
gnn_sampler_initable_init (GInitable     *initable,
                           GCancellable  *cancellable,
                           GError       **error)
{
  return gnn_sampler_check_config (initable, error);
}

static void
gnn_sampler_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_sampler_initable_init;
}

GParamSpec *
gnn_sampler_generator_param_new (void)
{
  return g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                              G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
}

void
gnn_sampler_generator_ensure (GnnGenerator **generator)
{
  if (*generator == NULL)
    *generator = gnn_generator_new_unseeded ();
}

GArray *
gnn_index_garray_try_new (gsize        n,
                          const char  *owner,
                          GError     **error)
{
  gpointer probe;
  GArray *a;

  /* GArray counts in guint; beyond that (or beyond memory) an epoch cannot
   * be materialized: say so instead of overflowing or aborting. */
  probe = n <= G_MAXUINT ? g_try_malloc_n (MAX (n, 1), sizeof (gint64)) : NULL;
  if (probe == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: cannot hold an epoch of %" G_GSIZE_FORMAT " indices (%"
                   G_GSIZE_FORMAT " bytes) in memory", owner, n,
                   n > G_MAXSIZE / sizeof (gint64) ? G_MAXSIZE : n * sizeof (gint64));
      return NULL;
    }
  g_free (probe);
  a = g_array_sized_new (FALSE, FALSE, sizeof (gint64), (guint) MAX (n, 1));
  g_array_set_size (a, (guint) n);
  return a;
}

static void
gnn_sampler_class_init (GnnSamplerClass *klass)
{
}

static void
gnn_sampler_init (GnnSampler *self)
{
}

/**
 * gnn_sampler_get_length: (virtual get_length)
 * @self: a #GnnSampler
 *
 * Gets the number of indices an epoch yields, like `len(sampler)`.
 *
 * Returns: the number of indices one epoch yields, like `len(sampler)`
 *
 * Since: 0.1
 */
gint64
gnn_sampler_get_length (GnnSampler *self)
{
  GnnSamplerClass *klass;

  g_return_val_if_fail (GNN_IS_SAMPLER (self), 0);
  klass = GNN_SAMPLER_GET_CLASS (self);
  if (klass->get_length == NULL)
    {
      g_critical ("%s does not implement get_length", G_OBJECT_TYPE_NAME (self));
      return 0;
    }
  if (!gnn_sampler_check_config (self, NULL))
    return 0;
  return MAX (klass->get_length (self), 0);
}

/**
 * gnn_sampler_sample:
 * @self: a #GnnSampler
 * @n_indices: (out): the number of indices
 * @error: return location for a #GError
 *
 * Draws the indices of one epoch, like `list(sampler)`.
 *
 * Returns: (transfer full) (array length=n_indices): the indices, or %NULL on error
 *
 * Since: 0.1
 */
gint64 *
gnn_sampler_sample (GnnSampler  *self,
                    gsize       *n_indices,
                    GError     **error)
{
  GnnSamplerClass *klass;
  GArray *array;

  g_return_val_if_fail (GNN_IS_SAMPLER (self), NULL);
  g_return_val_if_fail (n_indices != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  *n_indices = 0;
  klass = GNN_SAMPLER_GET_CLASS (self);
  if (klass->sample == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement sample", G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  if (!gnn_sampler_check_config (self, error))
    return NULL;
  array = klass->sample (self, error);
  if (array == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s.sample returned no indices", G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  if (g_array_get_element_size (array) != sizeof (gint64))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s.sample returned an array of %u-byte elements, expected gint64",
                   G_OBJECT_TYPE_NAME (self), g_array_get_element_size (array));
      g_array_unref (array);
      return NULL;
    }
  *n_indices = array->len;
  if (array->len == 0)
    {
      g_array_unref (array);
      return gnn_index_array_new (0);   /* never NULL on success */
    }
  return (gint64 *) g_array_free (array, FALSE);
}

/**
 * gnn_sampler_iter_init: (skip)
 * @iter: an uninitialized #GnnSamplerIter
 * @sampler: a #GnnSampler
 * @error: return location for a #GError
 *
 * Draws one epoch of @sampler into @iter. Free it with
 * gnn_sampler_iter_clear() (also after a failure).
 *
 * Returns: %TRUE, or %FALSE on error
 *
 * Since: 0.1
 */
gboolean
gnn_sampler_iter_init (GnnSamplerIter *iter,
                       GnnSampler     *sampler,
                       GError        **error)
{
  g_return_val_if_fail (iter != NULL, FALSE);
  memset (iter, 0, sizeof *iter);
  iter->indices = gnn_sampler_sample (sampler, &iter->n_indices, error);
  return iter->indices != NULL;
}

/**
 * gnn_sampler_iter_next: (skip)
 * @iter: a #GnnSamplerIter
 * @index: (out): the next index
 *
 * Advances to the next index.
 *
 * Returns: %TRUE with the next index, or %FALSE at the end of the epoch
 *
 * Since: 0.1
 */
gboolean
gnn_sampler_iter_next (GnnSamplerIter *iter,
                       gint64         *index)
{
  g_return_val_if_fail (iter != NULL, FALSE);
  if (iter->position >= iter->n_indices)
    return FALSE;
  *index = iter->indices[iter->position++];
  return TRUE;
}

/**
 * gnn_sampler_iter_clear: (skip)
 * @iter: a #GnnSamplerIter
 *
 * Frees what @iter holds.
 *
 * Since: 0.1
 */
void
gnn_sampler_iter_clear (GnnSamplerIter *iter)
{
  g_return_if_fail (iter != NULL);
  g_clear_pointer (&iter->indices, g_free);
  iter->n_indices = iter->position = 0;
}
