/* gnn-generator.c: xoshiro256** seeded through splitmix64
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "core/gnn-fork-private.h"
#include "tensor/gnn-tensor-private.h"

/**
 * GnnGenerator:
 *
 * A random number generator (xoshiro256**, seeded through splitmix64).
 * Everything random in Gnn (initializers, random fills, samplers, dropout)
 * takes one, so the same seed gives the same results; given none, it draws
 * from the process's default generator ([func@Gnn.Generator.get_default],
 * PyTorch's `torch.default_generator`), which [func@Gnn.manual_seed]
 * reseeds. A generator is not thread-safe: give each thread its own, e.g.
 * with [method@Gnn.Generator.fork]. The default generator is the
 * exception: the library draws from it under a lock whenever a function is
 * given %NULL, and seeding it or saving or restoring its state takes the
 * same lock (its `next_*` draws called directly do not).
 *
 * Since: 0.1
 */
struct _GnnGenerator
{
  GObject parent_instance;
  guint64 seed;
  guint64 s[4];
  gboolean has_spare_normal;
  double spare_normal;
};

enum {
  PROP_0,
  PROP_SEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The default generator: created on first use, never freed; its lock is
 * taken by the library around draws for a %NULL generator and by the
 * seeding and state functions below (never nested: a leaf lock). */
GNN_FORK_SAFE_MUTEX (default_lock);
static GnnGenerator *default_generator;

static inline gboolean
is_default (GnnGenerator *self)
{
  return self == g_atomic_pointer_get (&default_generator);
}

G_DEFINE_FINAL_TYPE (GnnGenerator, gnn_generator, G_TYPE_OBJECT)

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static inline guint64
rotl (guint64 x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
xoshiro_next (guint64 s[4])
{
  guint64 result = rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

static void
gnn_generator_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  GnnGenerator *self = GNN_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_SEED:
      g_value_set_uint64 (value, self->seed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_generator_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  GnnGenerator *self = GNN_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_SEED:
      gnn_generator_manual_seed (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_generator_class_init (GnnGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = gnn_generator_get_property;
  object_class->set_property = gnn_generator_set_property;

  /**
   * GnnGenerator:seed:
   *
   * The seed the generator was last seeded with. Setting it reseeds.
   *
   * Since: 0.1
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_generator_init (GnnGenerator *self)
{
}

/**
 * gnn_generator_new:
 * @seed: the seed
 *
 * Creates a generator seeded with @seed.
 *
 * Returns: (transfer full): a generator seeded with @seed
 *
 * Since: 0.1
 */
GnnGenerator *
gnn_generator_new (guint64 seed)
{
  return g_object_new (GNN_TYPE_GENERATOR, "seed", seed, NULL);
}

/**
 * gnn_generator_manual_seed:
 * @self: a #GnnGenerator
 * @seed: the seed
 *
 * Reseeds the generator, like `torch.Generator.manual_seed`.
 *
 * Since: 0.1
 */
void
gnn_generator_manual_seed (GnnGenerator *self,
                           guint64       seed)
{
  guint64 x = seed;

  gboolean locked;

  g_return_if_fail (GNN_IS_GENERATOR (self));
  locked = is_default (self);
  if (locked)
    g_mutex_lock (&default_lock);
  self->seed = seed;
  for (int i = 0; i < 4; i++)
    self->s[i] = splitmix64 (&x);
  self->has_spare_normal = FALSE;
  if (locked)
    g_mutex_unlock (&default_lock);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
}

/**
 * gnn_generator_get_seed:
 * @self: a #GnnGenerator
 *
 * Gets the seed last given to the generator.
 *
 * Returns: the seed last given
 *
 * Since: 0.1
 */
guint64
gnn_generator_get_seed (GnnGenerator *self)
{
  guint64 seed;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0);
  if (!is_default (self))
    return self->seed;
  g_mutex_lock (&default_lock);
  seed = self->seed;
  g_mutex_unlock (&default_lock);
  return seed;
}

/**
 * gnn_generator_next_u64:
 * @self: a #GnnGenerator
 *
 * Draws 64 random bits.
 *
 * Returns: 64 uniformly random bits
 *
 * Since: 0.1
 */
guint64
gnn_generator_next_u64 (GnnGenerator *self)
{
  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0);
  return xoshiro_next (self->s);
}

/**
 * gnn_generator_next_double:
 * @self: a #GnnGenerator
 *
 * Draws a uniform double in [0, 1).
 *
 * Returns: a uniformly distributed double in [0, 1)
 *
 * Since: 0.1
 */
double
gnn_generator_next_double (GnnGenerator *self)
{
  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0.0);
  return (double) (xoshiro_next (self->s) >> 11) * 0x1.0p-53;
}

/**
 * gnn_generator_next_normal:
 * @self: a #GnnGenerator
 *
 * Draws a standard normal sample.
 *
 * Returns: a standard normal sample (Box–Muller, pairs cached)
 *
 * Since: 0.1
 */
double
gnn_generator_next_normal (GnnGenerator *self)
{
  double u1, u2, r;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0.0);
  if (self->has_spare_normal)
    {
      self->has_spare_normal = FALSE;
      return self->spare_normal;
    }
  do
    u1 = gnn_generator_next_double (self);
  while (u1 <= 0.0);
  u2 = gnn_generator_next_double (self);
  r = sqrt (-2.0 * log (u1));
  self->spare_normal = r * sin (2.0 * G_PI * u2);
  self->has_spare_normal = TRUE;
  return r * cos (2.0 * G_PI * u2);
}

/**
 * gnn_generator_next_below:
 * @self: a #GnnGenerator
 * @bound: the exclusive upper bound, greater than 0
 *
 * Draws a uniform integer below @bound.
 *
 * Returns: a uniformly distributed integer in [0, @bound), without modulo bias
 *
 * Since: 0.1
 */
guint64
gnn_generator_next_below (GnnGenerator *self,
                          guint64       bound)
{
  guint64 threshold, r;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0);
  g_return_val_if_fail (bound > 0, 0);
  threshold = -bound % bound;
  do
    r = xoshiro_next (self->s);
  while (r < threshold);
  return r % bound;
}

/**
 * gnn_generator_get_state:
 * @self: a #GnnGenerator
 *
 * Returns the full state (to save in a checkpoint and restore with
 * [method@Gnn.Generator.set_state]).
 *
 * Returns: (transfer full): the state, 48 bytes
 *
 * Since: 0.1
 */
GBytes *
gnn_generator_get_state (GnnGenerator *self)
{
  guint64 state[6];

  gboolean locked;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), NULL);
  locked = is_default (self);
  if (locked)
    g_mutex_lock (&default_lock);
  state[0] = self->seed;
  memcpy (&state[1], self->s, sizeof self->s);
  if (locked)
    g_mutex_unlock (&default_lock);
  state[5] = 0;   /* reserved; the cached normal is dropped on restore */
  return g_bytes_new (state, sizeof state);
}

/**
 * gnn_generator_set_state:
 * @self: a #GnnGenerator
 * @state: a state from [method@Gnn.Generator.get_state]
 * @error: return location for a #GError
 *
 * Restores a state saved by [method@Gnn.Generator.get_state].
 *
 * Returns: %TRUE, or %FALSE if @state has the wrong size or is all zero
 *
 * Since: 0.1
 */
gboolean
gnn_generator_set_state (GnnGenerator *self,
                         GBytes       *state,
                         GError      **error)
{
  guint64 words[6];
  gsize size;
  gconstpointer data;
  gboolean locked;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);
  data = g_bytes_get_data (state, &size);
  if (size != sizeof words)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "generator state must be %" G_GSIZE_FORMAT " bytes, got %" G_GSIZE_FORMAT,
                   sizeof words, size);
      return FALSE;
    }
  memcpy (words, data, sizeof words);
  if ((words[1] | words[2] | words[3] | words[4]) == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "generator state is all zero");
      return FALSE;
    }
  locked = is_default (self);
  if (locked)
    g_mutex_lock (&default_lock);
  self->seed = words[0];
  memcpy (self->s, &words[1], sizeof self->s);
  self->has_spare_normal = FALSE;
  if (locked)
    g_mutex_unlock (&default_lock);
  return TRUE;
}

/**
 * gnn_generator_fork:
 * @self: a #GnnGenerator
 * @stream: which independent stream to derive
 *
 * Derives an independent generator from the seed of @self and @stream
 * (e.g. a worker id), without advancing @self.
 *
 * Returns: (transfer full): a new generator
 *
 * Since: 0.1
 */
GnnGenerator *
gnn_generator_fork (GnnGenerator *self,
                    guint64       stream)
{
  guint64 x;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), NULL);
  x = self->seed ^ (0xd1b54a32d192ed03ull * (stream + 1));
  return gnn_generator_new (splitmix64 (&x));
}

/* --- the default generator ------------------------------------------------ */

GnnGenerator *
gnn_generator_default_lock (void)
{
  g_mutex_lock (&default_lock);
  if (default_generator == NULL)
    g_atomic_pointer_set (&default_generator, gnn_generator_new (GNN_DEFAULT_SEED));
  return default_generator;
}

void
gnn_generator_default_unlock (void)
{
  g_mutex_unlock (&default_lock);
}

GnnGenerator *
gnn_generator_acquire (GnnGenerator *generator)
{
  return generator != NULL ? generator : gnn_generator_default_lock ();
}

void
gnn_generator_release (GnnGenerator *generator)
{
  if (generator == NULL)
    gnn_generator_default_unlock ();
}

/**
 * gnn_generator_get_default:
 *
 * Gets the process's default generator, PyTorch's `torch.default_generator`:
 * the one every function given a %NULL generator draws from (initializers,
 * random fills, dropout, samplers built without a generator). A fresh
 * process seeds it with PyTorch's default seed, 67280421310721, so a
 * program that does the same things gets the same numbers on every run;
 * [func@Gnn.manual_seed] reseeds it.
 *
 * The library draws from it under a lock. Pass %NULL rather than this
 * object to a function to draw from it safely from several threads.
 *
 * Returns: (transfer none): the default generator
 *
 * Since: 0.1
 */
GnnGenerator *
gnn_generator_get_default (void)
{
  GnnGenerator *generator = gnn_generator_default_lock ();

  gnn_generator_default_unlock ();
  return generator;
}

/**
 * gnn_draw_seed:
 * @generator: (nullable): the generator to draw from, or %NULL for the
 *   default generator
 *
 * Draws 64 bits to seed another generator from, like torch's
 * `torch.empty((), dtype=torch.int64).random_()`: how a sampler or a loader
 * given no generator gets a seed that [func@Gnn.manual_seed] makes
 * reproducible. The default generator is drawn from under its lock.
 *
 * Returns: a seed
 *
 * Since: 0.1
 */
guint64
gnn_draw_seed (GnnGenerator *generator)
{
  guint64 seed;

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), 0);
  seed = gnn_generator_next_u64 (gnn_generator_acquire (generator));
  gnn_generator_release (generator);
  return seed;
}

/**
 * gnn_manual_seed:
 * @seed: the seed
 *
 * Reseeds the default generator ([func@Gnn.Generator.get_default]), like
 * `torch.manual_seed`: afterwards the layers, initializers, random fills,
 * dropout masks and samplers that are given no generator draw the same
 * numbers on every run.
 *
 * Returns: (transfer none): the default generator
 *
 * Since: 0.1
 */
GnnGenerator *
gnn_manual_seed (guint64 seed)
{
  GnnGenerator *generator = gnn_generator_get_default ();

  gnn_generator_manual_seed (generator, seed);
  return generator;
}

/**
 * gnn_initial_seed:
 *
 * Gets the seed the default generator was last seeded with, like
 * `torch.initial_seed`.
 *
 * Returns: the default generator's seed
 *
 * Since: 0.1
 */
guint64
gnn_initial_seed (void)
{
  return gnn_generator_get_seed (gnn_generator_get_default ());
}
