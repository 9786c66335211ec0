/* classifier.c: a trainable GnnModule subclass in C, from class to inference
 *
 * The PyTorch program it mirrors:
 *
 *   class Classifier(nn.Module):
 *       def __init__(self, in_features=784, hidden=64, n_classes=10, activation="relu"):
 *           super().__init__()
 *           self.fc1 = nn.Linear(in_features, hidden)
 *           self.act = {"relu": nn.ReLU, "tanh": nn.Tanh, "gelu": nn.GELU}[activation]()
 *           self.fc2 = nn.Linear(hidden, n_classes)
 *           self.temperature = nn.Parameter(torch.ones(1))
 *
 *       def forward(self, x):
 *           return self.fc2(self.act(self.fc1(x))) / self.temperature
 *
 *   loader = DataLoader(FashionItems(images, labels), batch_size=64, shuffle=True,
 *                       num_workers=2)
 *   opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
 *   for x, y in loader:
 *       opt.zero_grad(); F.cross_entropy(model(x), y).backward(); opt.step()
 *   gnn.save(model, "classifier.safetensors")     # architecture + weights
 *
 * and then, in a second process that knows nothing of the training,
 * model = gnn.load("classifier.safetensors") and its test accuracy.
 *
 * What the C side shows:
 *   - ExClassifier: G_DECLARE_FINAL_TYPE on GnnModule; its configuration is
 *     construct-only properties (so g_object_new(), the bindings and model
 *     files can build it), its children are declared slots (GObject
 *     properties backed by the module registry), a bad configuration is a
 *     GError from GInitable, and typed accessors return GnnLinear *;
 *   - ExFashionItems: a GnnDataset subclass normalizing and flattening
 *     Fashion-MNIST images on the fly, read by 2 worker threads;
 *   - training with autograd and SGD, gnn_module_save_model(), and the
 *     model rebuilt by gnn_module_load_model() in a child process.
 *
 *   gnn-example-classifier [DATA_DIR]          train, save, check the reload
 *   gnn-example-classifier --infer MODEL DATA_DIR   the second process
 *
 * Exits 77 (skipped) without Debian's dataset-fashion-mnist, 1 on any error
 * or when the model does not learn (test accuracy under 70 %).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <gnn/gnn.h>

#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#define N_TRAIN          10000
#define N_TEST           2000
#define PIXEL_MEAN       0.2860
#define PIXEL_STD        0.3530

/* --- ExFashionItems: a dataset over decoded images ----------------------------- */

#define EX_TYPE_FASHION_ITEMS (ex_fashion_items_get_type ())
G_DECLARE_FINAL_TYPE (ExFashionItems, ex_fashion_items, EX, FASHION_ITEMS, GnnDataset)

struct _ExFashionItems
{
  GnnDataset  parent_instance;
  GnnTensor  *images;   /* float32 [N, 28, 28], pixels in [0, 1] */
  GnnTensor  *labels;   /* int64 [N] */
};

enum { ITEMS_PROP_0, ITEMS_PROP_IMAGES, ITEMS_PROP_LABELS };

static void ex_fashion_items_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (ExFashionItems, ex_fashion_items, GNN_TYPE_DATASET,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      ex_fashion_items_initable_iface_init))

static gint64
ex_fashion_items_get_length (GnnDataset *dataset)
{
  return gnn_tensor_get_size (EX_FASHION_ITEMS (dataset)->images, 0, NULL);
}

/* Item i is ((images[i] - mean) / std flattened to 784 floats, labels[i]).
 * Only reads the dataset, so worker threads may call it at once. */
static void
ex_fashion_items_get_item (GnnDataset  *dataset,
                           gint64       index,
                           GPtrArray  **item,
                           GError     **error)
{
  ExFashionItems *self = EX_FASHION_ITEMS (dataset);
  const gint64 flat[] = { 28 * 28 };
  g_autoptr(GnnTensor) image = gnn_tensor_select (self->images, 0, index, error);
  g_autoptr(GnnTensor) shifted = image ? gnn_tensor_add_scalar (image, -PIXEL_MEAN, error) : NULL;
  g_autoptr(GnnTensor) scaled = shifted ? gnn_tensor_mul_scalar (shifted, 1 / PIXEL_STD, error) : NULL;
  g_autoptr(GnnTensor) x = scaled ? gnn_tensor_reshape (scaled, flat, 1, error) : NULL;
  g_autoptr(GnnTensor) y = x ? gnn_tensor_select (self->labels, 0, index, error) : NULL;

  if (y == NULL)
    return;
  *item = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (*item, g_steal_pointer (&x));
  g_ptr_array_add (*item, g_steal_pointer (&y));
}

/* A dataset built with g_object_new() is checked here: g_initable_new()
 * (and the bindings) report a bad pair of tensors as a GError. */
static gboolean
ex_fashion_items_initable_init (GInitable     *initable,
                                GCancellable  *cancellable,
                                GError       **error)
{
  ExFashionItems *self = EX_FASHION_ITEMS (initable);

  if (self->images == NULL || self->labels == NULL ||
      gnn_tensor_get_ndim (self->images) != 3 || gnn_tensor_get_ndim (self->labels) != 1 ||
      gnn_tensor_get_size (self->images, 0, NULL) != gnn_tensor_get_size (self->labels, 0, NULL))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "FashionItems: expected images [N, 28, 28] and labels [N]");
      return FALSE;
    }
  return TRUE;
}

static void
ex_fashion_items_initable_iface_init (GInitableIface *iface)
{
  iface->init = ex_fashion_items_initable_init;
}

static void
ex_fashion_items_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  ExFashionItems *self = EX_FASHION_ITEMS (object);

  if (prop_id == ITEMS_PROP_IMAGES)
    self->images = g_value_dup_object (value);
  else if (prop_id == ITEMS_PROP_LABELS)
    self->labels = g_value_dup_object (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ex_fashion_items_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ExFashionItems *self = EX_FASHION_ITEMS (object);

  if (prop_id == ITEMS_PROP_IMAGES)
    g_value_set_object (value, self->images);
  else if (prop_id == ITEMS_PROP_LABELS)
    g_value_set_object (value, self->labels);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ex_fashion_items_finalize (GObject *object)
{
  ExFashionItems *self = EX_FASHION_ITEMS (object);

  g_clear_object (&self->images);
  g_clear_object (&self->labels);
  G_OBJECT_CLASS (ex_fashion_items_parent_class)->finalize (object);
}

static void
ex_fashion_items_class_init (ExFashionItemsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnDatasetClass *dataset_class = GNN_DATASET_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ex_fashion_items_set_property;
  object_class->get_property = ex_fashion_items_get_property;
  object_class->finalize = ex_fashion_items_finalize;
  dataset_class->get_length = ex_fashion_items_get_length;
  dataset_class->get_item = ex_fashion_items_get_item;
  g_object_class_install_property (object_class, ITEMS_PROP_IMAGES,
      g_param_spec_object ("images", NULL, NULL, GNN_TYPE_TENSOR, flags));
  g_object_class_install_property (object_class, ITEMS_PROP_LABELS,
      g_param_spec_object ("labels", NULL, NULL, GNN_TYPE_TENSOR, flags));
}

static void
ex_fashion_items_init (ExFashionItems *self)
{
}

/* --- ExClassifier: the module --------------------------------------------------- */

#define EX_TYPE_CLASSIFIER (ex_classifier_get_type ())
G_DECLARE_FINAL_TYPE (ExClassifier, ex_classifier, EX, CLASSIFIER, GnnModule)

struct _ExClassifier
{
  GnnModule  parent_instance;
  /* configuration (construct-only properties); the children and the
   * temperature live in the module registry, not here */
  gint64     in_features;
  gint64     hidden;
  gint64     n_classes;
  char      *activation;
  GError    *construct_error;   /* what GInitable.init reports */
};

enum {
  PROP_0,
  PROP_IN_FEATURES,
  PROP_HIDDEN,
  PROP_N_CLASSES,
  PROP_ACTIVATION,
};

static void ex_classifier_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (ExClassifier, ex_classifier, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      ex_classifier_initable_iface_init))

/* Typed accessors over the registry (transfer none): what a slot holds,
 * checked by GNN_MODULE_CHILD (NULL, not a bad cast, if it were empty). */
static GnnLinear *
ex_classifier_get_fc1 (ExClassifier *self)
{
  return GNN_MODULE_CHILD (self, "fc1", GNN, LINEAR, NULL);
}

static GnnLinear *
ex_classifier_get_fc2 (ExClassifier *self)
{
  return GNN_MODULE_CHILD (self, "fc2", GNN, LINEAR, NULL);
}

static GnnParameter *
ex_classifier_get_temperature (ExClassifier *self)
{
  return GNN_MODULE_CHILD (self, "temperature", GNN, PARAMETER, NULL);
}

static GnnModule *
new_activation (const char  *name,
                GError     **error)
{
  if (g_strcmp0 (name, "relu") == 0)
    return GNN_MODULE (gnn_relu_new (FALSE));
  if (g_strcmp0 (name, "tanh") == 0)
    return g_object_new (GNN_TYPE_TANH, NULL);
  if (g_strcmp0 (name, "gelu") == 0)
    return g_object_new (GNN_TYPE_GELU, NULL);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "Classifier: activation must be relu, tanh or gelu, got '%s'", name);
  return NULL;
}

/* Built from the properties in constructed, so that a plain g_object_new()
 * gives a whole module; setting a slot property registers the child. */
static gboolean
create_children (ExClassifier  *self,
                 GError       **error)
{
  const gint64 one[] = { 1 };
  g_autoptr(GnnLinear) fc1 = gnn_linear_new (self->in_features, self->hidden, TRUE, NULL, error);
  g_autoptr(GnnModule) act = fc1 ? new_activation (self->activation, error) : NULL;
  g_autoptr(GnnLinear) fc2 = act ? gnn_linear_new (self->hidden, self->n_classes, TRUE, NULL,
                                                   error) : NULL;
  g_autoptr(GnnTensor) ones = fc2 ? gnn_tensor_ones (one, 1, GNN_DTYPE_F32, error) : NULL;
  g_autoptr(GnnParameter) temperature = ones ? gnn_parameter_new (ones, TRUE) : NULL;

  if (temperature == NULL)
    return FALSE;
  /* registration order is torch's: fc1, act, fc2, then the parameter */
  g_object_set (self, "fc1", fc1, "act", act, "fc2", fc2, "temperature", temperature, NULL);
  return TRUE;
}

static void
ex_classifier_constructed (GObject *object)
{
  ExClassifier *self = EX_CLASSIFIER (object);

  G_OBJECT_CLASS (ex_classifier_parent_class)->constructed (object);
  create_children (self, &self->construct_error);
}

static gboolean
ex_classifier_initable_init (GInitable     *initable,
                             GCancellable  *cancellable,
                             GError       **error)
{
  ExClassifier *self = EX_CLASSIFIER (initable);

  if (self->construct_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->construct_error));
      return FALSE;
    }
  return TRUE;
}

static void
ex_classifier_initable_iface_init (GInitableIface *iface)
{
  iface->init = ex_classifier_initable_init;
}

/* fc2(act(fc1(x))) / temperature: each call goes through the children's
 * call path (their hooks run), autograd records every op. */
static GnnTensor *
ex_classifier_forward (GnnModule  *module,
                       GnnTensor  *input,
                       GError    **error)
{
  ExClassifier *self = EX_CLASSIFIER (module);
  g_autoptr(GnnTensor) h = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) logits = NULL;

  if (self->construct_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->construct_error));
      return NULL;
    }
  h = gnn_module_call (GNN_MODULE (ex_classifier_get_fc1 (self)), input, error);
  a = h ? gnn_module_call (GNN_MODULE (gnn_module_get_child (module, "act", NULL)), h, error) : NULL;
  logits = a ? gnn_module_call (GNN_MODULE (ex_classifier_get_fc2 (self)), a, error) : NULL;
  if (logits == NULL)
    return NULL;
  return gnn_tensor_div (logits, GNN_TENSOR (ex_classifier_get_temperature (self)), error);
}

static void
ex_classifier_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ExClassifier *self = EX_CLASSIFIER (object);

  switch (prop_id)
    {
    case PROP_IN_FEATURES: self->in_features = g_value_get_int64 (value); break;
    case PROP_HIDDEN: self->hidden = g_value_get_int64 (value); break;
    case PROP_N_CLASSES: self->n_classes = g_value_get_int64 (value); break;
    case PROP_ACTIVATION:
      g_free (self->activation);
      self->activation = g_value_dup_string (value);
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ex_classifier_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ExClassifier *self = EX_CLASSIFIER (object);

  switch (prop_id)
    {
    case PROP_IN_FEATURES: g_value_set_int64 (value, self->in_features); break;
    case PROP_HIDDEN: g_value_set_int64 (value, self->hidden); break;
    case PROP_N_CLASSES: g_value_set_int64 (value, self->n_classes); break;
    case PROP_ACTIVATION: g_value_set_string (value, self->activation); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ex_classifier_finalize (GObject *object)
{
  ExClassifier *self = EX_CLASSIFIER (object);

  g_free (self->activation);
  g_clear_error (&self->construct_error);
  G_OBJECT_CLASS (ex_classifier_parent_class)->finalize (object);
}

static void
ex_classifier_class_init (ExClassifierClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = ex_classifier_constructed;
  object_class->set_property = ex_classifier_set_property;
  object_class->get_property = ex_classifier_get_property;
  object_class->finalize = ex_classifier_finalize;
  module_class->forward = ex_classifier_forward;

  g_object_class_install_property (object_class, PROP_IN_FEATURES,
      g_param_spec_int64 ("in-features", NULL, NULL, 1, G_MAXINT32, 784, flags));
  g_object_class_install_property (object_class, PROP_HIDDEN,
      g_param_spec_int64 ("hidden", NULL, NULL, 1, G_MAXINT32, 64, flags));
  g_object_class_install_property (object_class, PROP_N_CLASSES,
      g_param_spec_int64 ("n-classes", NULL, NULL, 1, G_MAXINT32, 10, flags));
  g_object_class_install_property (object_class, PROP_ACTIVATION,
      g_param_spec_string ("activation", NULL, NULL, "relu", flags));

  /* The children: GObject properties whose values live in the registry
   * (g_object_set() registers, g_object_get() reads it back). */
  gnn_module_class_install_child_slot (module_class, "fc1", GNN_TYPE_LINEAR);
  gnn_module_class_install_child_slot (module_class, "act", GNN_TYPE_MODULE);
  gnn_module_class_install_child_slot (module_class, "fc2", GNN_TYPE_LINEAR);
  gnn_module_class_install_child_slot (module_class, "temperature", GNN_TYPE_PARAMETER);
}

static void
ex_classifier_init (ExClassifier *self)
{
}

/* --- data, training, evaluation ------------------------------------------------ */

/* The first @limit images and labels of a split, or NULL with a GNN_ERROR_IO
 * when dataset-fashion-mnist is not installed. */
static GnnDataset *
load_split (const char  *dir,
            const char  *split,
            gint64       limit,
            GError     **error)
{
  g_autofree char *images_name = g_strdup_printf ("%s-images-idx3-ubyte.gz", split);
  g_autofree char *labels_name = g_strdup_printf ("%s-labels-idx1-ubyte.gz", split);
  g_autofree char *images_path = g_build_filename (dir, images_name, NULL);
  g_autofree char *labels_path = g_build_filename (dir, labels_name, NULL);
  g_autoptr(GnnIdxDataset) idx = gnn_idx_dataset_new (images_path, labels_path, error);
  g_autoptr(GnnTensor) images = NULL;
  g_autoptr(GnnTensor) labels = NULL;

  if (idx == NULL)
    return NULL;
  images = gnn_tensor_narrow (gnn_idx_dataset_get_images (idx), 0, 0, limit, error);
  labels = images ? gnn_tensor_narrow (gnn_idx_dataset_get_labels (idx), 0, 0, limit, error) : NULL;
  if (labels == NULL)
    return NULL;
  return g_initable_new (EX_TYPE_FASHION_ITEMS, NULL, error, "images", images, "labels", labels,
                         NULL);
}

/* Test accuracy in [0, 1], in eval mode and without recording a graph. */
static double
evaluate (GnnModule   *model,
          GnnDataset  *test,
          GError     **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  g_autoptr(GnnDataLoader) loader = gnn_data_loader_new (test, 500, FALSE);
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, error);
  GPtrArray *batch;
  gint64 correct = 0;

  if (iter == NULL)
    return -1;
  gnn_module_eval (model);
  while (gnn_data_loader_iter_next (iter, &batch, error))
    {
      g_autoptr(GPtrArray) owned = batch;
      g_autoptr(GnnTensor) logits = gnn_module_call (model, g_ptr_array_index (batch, 0), error);
      g_autoptr(GnnTensor) predicted = logits ? gnn_tensor_argmax (logits, 1, FALSE, error) : NULL;
      g_autoptr(GnnTensor) hits = predicted ? gnn_tensor_eq (predicted, g_ptr_array_index (batch, 1),
                                                             error) : NULL;
      g_autoptr(GnnTensor) total = hits ? gnn_tensor_sum (hits, NULL, 0, FALSE, error) : NULL;

      if (total == NULL)
        return -1;
      correct += (gint64) gnn_tensor_item (total, NULL);
    }
  if (error != NULL && *error != NULL)
    return -1;
  gnn_module_train (model, TRUE);
  return (double) correct / (double) gnn_dataset_get_length (test);
}

/* One epoch: shuffled batches of 64 from 2 worker threads, cross-entropy,
 * backward, SGD with momentum. Returns the mean loss, or -1. */
static double
train_epoch (GnnModule   *model,
             GnnDataset  *train,
             GError     **error)
{
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GnnSGD) sgd = gnn_sgd_new (params, 0.05, 0.9, 0.0, 0.0, FALSE, error);
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  GPtrArray *batch;
  double loss_sum = 0;
  gint64 n_batches = 0;

  if (sgd == NULL)
    return -1;
  loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", train, "batch-size", (gint64) 64,
                         "shuffle", TRUE, "num-workers", 2, "seed", (guint64) 1, NULL);
  iter = gnn_data_loader_iter (loader, error);
  if (iter == NULL)
    return -1;
  while (gnn_data_loader_iter_next (iter, &batch, error))
    {
      g_autoptr(GPtrArray) owned = batch;
      g_autoptr(GnnTensor) logits = NULL;
      g_autoptr(GnnTensor) loss = NULL;

      gnn_optimizer_zero_grad (GNN_OPTIMIZER (sgd), TRUE);
      logits = gnn_module_call (model, g_ptr_array_index (batch, 0), error);
      loss = logits ? gnn_cross_entropy (logits, g_ptr_array_index (batch, 1), NULL, -100,
                                         GNN_REDUCTION_MEAN, 0.0, error) : NULL;
      if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error) ||
          !gnn_optimizer_step (GNN_OPTIMIZER (sgd), error))
        return -1;
      loss_sum += gnn_tensor_item (loss, NULL);
      n_batches++;
    }
  if (error != NULL && *error != NULL)
    return -1;
  return loss_sum / (double) MAX (n_batches, 1);
}

/* The second process: rebuild the model from the file alone (its type is
 * this program's, hence GNN_LOAD_FLAGS_ALLOW_TYPES) and print its accuracy. */
static int
infer (const char *model_path,
       const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnDataset) test = NULL;
  double accuracy;

  g_type_ensure (EX_TYPE_CLASSIFIER);
  model = gnn_module_load_model (model_path, GNN_LOAD_FLAGS_ALLOW_TYPES, &error);
  test = model ? load_split (dir, "t10k", N_TEST, &error) : NULL;
  accuracy = test ? evaluate (model, test, &error) : -1;
  if (accuracy < 0)
    {
      g_printerr ("classifier --infer: %s\n", error->message);
      return 1;
    }
  g_print ("%s: hidden=%" G_GINT64_FORMAT ", accuracy=%.4f\n", G_OBJECT_TYPE_NAME (model),
           EX_CLASSIFIER (model)->hidden, accuracy);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : DEFAULT_DATA_DIR;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataset) train = NULL;
  g_autoptr(GnnDataset) test = NULL;
  g_autoptr(ExClassifier) model = NULL;
  g_autoptr(GObject) bad = NULL;
  g_autofree char *tmpdir = NULL;
  g_autofree char *model_path = NULL;
  g_autofree char *child_out = NULL;
  g_autofree char *expected = NULL;
  double loss, accuracy;
  int status;

  if (argc == 4 && g_str_equal (argv[1], "--infer"))
    return infer (argv[2], argv[3]);

  /* A bad configuration is a GError, not a half-built module. */
  bad = g_initable_new (EX_TYPE_CLASSIFIER, NULL, &error, "activation", "swish", NULL);
  if (bad != NULL || !g_error_matches (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT))
    return 1;
  g_print ("refused: %s\n", error->message);
  g_clear_error (&error);

  train = load_split (dir, "train", N_TRAIN, &error);
  test = train ? load_split (dir, "t10k", N_TEST, &error) : NULL;
  if (test == NULL)
    {
      g_printerr ("classifier: %s\n", error->message);
      return g_error_matches (error, GNN_ERROR, GNN_ERROR_IO) ? 77 : 1;   /* 77: skipped */
    }

  gnn_manual_seed (0);   /* the initial weights, as torch.manual_seed(0) */
  model = g_initable_new (EX_TYPE_CLASSIFIER, NULL, &error, "hidden", (gint64) 64, NULL);
  if (model == NULL)
    goto fail;
  g_print ("fc1: %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
           " parameters\n", gnn_linear_get_in_features (ex_classifier_get_fc1 (model)),
           gnn_linear_get_out_features (ex_classifier_get_fc1 (model)),
           gnn_module_count_parameters (GNN_MODULE (model), TRUE));

  loss = train_epoch (GNN_MODULE (model), train, &error);
  accuracy = loss >= 0 ? evaluate (GNN_MODULE (model), test, &error) : -1;
  if (accuracy < 0)
    goto fail;
  g_print ("one epoch on %d images: mean loss %.4f, test accuracy %.4f, temperature %.4f\n",
           N_TRAIN, loss, accuracy, gnn_tensor_item (GNN_TENSOR (ex_classifier_get_temperature (model)),
                                                     NULL));
  if (accuracy < 0.70)
    {
      g_printerr ("classifier: the model did not learn (accuracy %.4f)\n", accuracy);
      return 1;
    }

  /* The architecture and the weights in one file, then a second process
   * that rebuilds the model from it must predict exactly the same. */
  tmpdir = g_dir_make_tmp ("gnn-classifier-XXXXXX", &error);
  if (tmpdir == NULL)
    goto fail;
  model_path = g_build_filename (tmpdir, "classifier.safetensors", NULL);
  if (!gnn_module_save_model (GNN_MODULE (model), model_path, NULL, &error))
    goto fail;
  {
    const char *child_argv[] = { "/proc/self/exe", "--infer", model_path, dir, NULL };

    if (!g_spawn_sync (NULL, (char **) child_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                       &child_out, NULL, &status, &error) ||
        !g_spawn_check_wait_status (status, &error))
      goto fail;
  }
  g_remove (model_path);
  g_rmdir (tmpdir);
  g_print ("second process: %s", child_out);
  expected = g_strdup_printf ("ExClassifier: hidden=64, accuracy=%.4f\n", accuracy);
  if (!g_str_equal (child_out, expected))
    {
      g_printerr ("classifier: the reloaded model differs (expected: %s)", expected);
      return 1;
    }
  return 0;

fail:
  g_printerr ("classifier: %s\n", error->message);
  return 1;
}
