/* gnn-data-loader-state.c: what a loader state depends on, and the check
 * that refuses a state another loader produced
 *
 * A resumed pass samples its epoch again and skips the batches already
 * handed out: that gives the batches the interrupted pass would have given
 * only if the epoch is cut the same way. A state therefore records the
 * configuration its epoch came from — dataset length, batch size, sampler
 * kind and seed, drop_last — and a loader refuses a state whose record
 * differs from its own, naming the field, instead of skipping or repeating
 * samples. The loader's own seed is not recorded: the state carries its
 * generator's state, which replaces it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-worker-private.h"

/* The sampler that draws the indices, if it has one of its own. */
static GObject *
own_sampler (const GnnLoaderConfig *c)
{
  if (c->batch_sampler != NULL)
    return G_OBJECT (gnn_batch_sampler_get_sampler (c->batch_sampler));
  return c->sampler != NULL ? G_OBJECT (c->sampler) : NULL;
}

/* "GnnRandomSampler", "GnnBatchSampler(GnnSequentialSampler)",
 * "iterable"... what cuts the epoch into batches. */
static char *
sampler_kind (const GnnLoaderConfig *c)
{
  GObject *inner = own_sampler (c);

  if (GNN_IS_ITERABLE_DATASET (c->dataset))
    return g_strdup ("iterable");
  if (c->batch_sampler != NULL)
    return g_strdup_printf ("%s(%s)", G_OBJECT_TYPE_NAME (c->batch_sampler),
                            inner != NULL ? G_OBJECT_TYPE_NAME (inner) : "none");
  if (c->sampler != NULL)
    return g_strdup (G_OBJECT_TYPE_NAME (c->sampler));
  return g_strdup (c->shuffle ? "GnnRandomSampler" : "GnnSequentialSampler");
}

/* A sampler's own "seed" property (DistributedSampler's), as a uint64. */
static gboolean
sampler_seed (const GnnLoaderConfig *c,
              guint64               *seed)
{
  GObject *sampler = own_sampler (c);
  GParamSpec *pspec;
  g_auto(GValue) value = G_VALUE_INIT;
  g_auto(GValue) as_u64 = G_VALUE_INIT;

  if (sampler == NULL)
    return FALSE;
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (sampler), "seed");
  if (pspec == NULL || !(pspec->flags & G_PARAM_READABLE))
    return FALSE;
  g_value_init (&value, pspec->value_type);
  g_object_get_property (sampler, "seed", &value);
  g_value_init (&as_u64, G_TYPE_UINT64);
  if (!g_value_transform (&value, &as_u64))
    return FALSE;
  *seed = g_value_get_uint64 (&as_u64);
  return TRUE;
}

void
gnn_loader_state_add_config (const GnnLoaderConfig *c,
                             GVariantDict          *dict)
{
  GnnBatchSampler *bs = c->batch_sampler;
  g_autofree char *kind = sampler_kind (c);
  guint64 seed;

  if (c->dataset != NULL && !GNN_IS_ITERABLE_DATASET (c->dataset))
    g_variant_dict_insert (dict, "dataset-length", "x", gnn_dataset_get_length (c->dataset));
  g_variant_dict_insert (dict, "batch-size", "x",
                         bs != NULL ? gnn_batch_sampler_get_batch_size (bs) : c->batch_size);
  g_variant_dict_insert (dict, "drop-last", "b",
                         bs != NULL ? gnn_batch_sampler_get_drop_last (bs) : c->drop_last);
  g_variant_dict_insert (dict, "sampler", "s", kind);
  if (sampler_seed (c, &seed))
    g_variant_dict_insert (dict, "sampler-seed", "t", seed);
}

gboolean
gnn_loader_state_check (const GnnLoaderConfig  *c,
                        GVariant               *state,
                        gint64                  n_batches,
                        GError                **error)
{
  static const char *const fields[] = {
    "dataset-length", "batch-size", "drop-last", "sampler", "sampler-seed",
  };
  g_autoptr(GVariant) own = NULL;
  GVariantDict dict;
  gint64 pass = 0, batches = 0;

  /* "pass" is counted on from: the last one cannot be */
  if (g_variant_lookup (state, "pass", "x", &pass) && pass == G_MAXINT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "DataLoader state: \"pass\" is %" G_GINT64_FORMAT ", out of range", pass);
      return FALSE;
    }
  g_variant_dict_init (&dict, NULL);
  gnn_loader_state_add_config (c, &dict);
  own = g_variant_ref_sink (g_variant_dict_end (&dict));
  /* A field this loader records must be in the state as it is here (the
   * state of another kind of loader lacks some and has others). */
  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autoptr(GVariant) mine = g_variant_lookup_value (own, fields[i], NULL);
      g_autoptr(GVariant) theirs = g_variant_lookup_value (state, fields[i], NULL);
      g_autofree char *a = NULL, *b = NULL;

      if (mine == NULL && theirs == NULL)
        continue;
      if (mine != NULL && theirs != NULL && g_variant_equal (mine, theirs))
        continue;
      a = theirs != NULL ? g_variant_print (theirs, FALSE) : g_strdup ("missing");
      b = mine != NULL ? g_variant_print (mine, FALSE) : g_strdup ("not recorded");
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "DataLoader state: \"%s\" is %s in the state but %s in this loader: the "
                   "state comes from a loader configured otherwise", fields[i], a, b);
      return FALSE;
    }
  /* a map-style pass has as many batches as the loader's length */
  if (!GNN_IS_ITERABLE_DATASET (c->dataset) &&
      g_variant_lookup (state, "batches", "x", &batches) && batches > n_batches)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "DataLoader state: \"batches\" is %" G_GINT64_FORMAT ", past the end of a "
                   "pass of %" G_GINT64_FORMAT " batches", batches, n_batches);
      return FALSE;
    }
  return TRUE;
}

gboolean
gnn_loader_state_restore_generator (GnnGenerator  *g,
                                    GVariant      *state,
                                    const char    *key,
                                    GError       **error)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (state, key, G_VARIANT_TYPE_BYTESTRING);
  g_autoptr(GBytes) bytes = NULL;

  if (v == NULL && g == NULL)
    return TRUE;
  if (v == NULL || g == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                   "DataLoader state: \"%s\" %s", key,
                   v == NULL ? "is missing" : "has no generator to restore in this loader");
      return FALSE;
    }
  bytes = g_variant_get_data_as_bytes (v);
  if (!gnn_generator_set_state (g, bytes, error))
    {
      g_prefix_error (error, "DataLoader state: \"%s\": ", key);
      return FALSE;
    }
  return TRUE;
}

/* A resumed pass over an iterable dataset: the items each stream skips
 * and whose turn is first, from @resume's "stream-batches" and
 * "next-stream". */
gboolean
gnn_loader_state_resume_streams (GnnEpoch   *epoch,
                                 GVariant   *resume,
                                 gsize       batches,
                                 GError    **error)
{
  g_autoptr(GVariant) counts = NULL;
  const gint64 *per_stream;
  gsize n = 0;
  guint32 next = 0;

  if (resume != NULL)
    counts = g_variant_lookup_value (resume, "stream-batches", G_VARIANT_TYPE ("ax"));
  if (counts == NULL)
    {
      if (batches == 0)
        return TRUE;
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_KEY,
                           "DataLoader state: resuming a pass over an IterableDataset needs "
                           "\"stream-batches\"");
      return FALSE;
    }
  per_stream = g_variant_get_fixed_array (counts, &n, sizeof (gint64));
  if (n != epoch->n_streams)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "DataLoader state: the pass over an IterableDataset had %" G_GSIZE_FORMAT
                   " streams (one per worker), this loader makes %u: resume it with the same "
                   "num_workers", n, epoch->n_streams);
      return FALSE;
    }
  if (!g_variant_lookup (resume, "next-stream", "u", &next) || next >= n)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_KEY,
                           "DataLoader state: \"next-stream\" is missing or out of range");
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      if (per_stream[i] < 0 || (epoch->batch_size > 0 &&
                                per_stream[i] > G_MAXINT64 / (gint64) epoch->batch_size))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "DataLoader state: stream %" G_GSIZE_FORMAT " has a bad batch count "
                       "(%" G_GINT64_FORMAT ")", i, per_stream[i]);
          return FALSE;
        }
      epoch->skip[i] = per_stream[i] * (gint64) epoch->batch_size;
    }
  epoch->first_stream = next;
  return TRUE;
}
