/* bench-libtorch.cpp: the libtorch C++ side of the benchmarks
 *
 * The C++ anchor of bench/module.py, bench/cnn.py and bench/resnet.py: the
 * same cases as their C drivers (bench-module, bench-cnn, bench-resnet),
 * written against Debian's libtorch (torch 1.13's C++ API), printing the same
 * JSON lines so the scripts can put Gnn / libtorch C++ / PyTorch side by
 * side. Built only when libtorch's headers are installed (bench/meson.build).
 *
 *   bench-libtorch module --cases build_walk,call_linear_0,... [--reps 5]
 *                         [--min-time 0.2] [--layers 1000] [--sd-modules 100]
 *   bench-libtorch cnn    --batches N --batch-size 64 [--data-dir DIR]
 *   bench-libtorch resnet --case train|infer --batch B --size S --steps N
 *
 * Threads: torch::set_num_threads (OMP_NUM_THREADS, which the scripts set).
 * The module cases run under torch::NoGradGuard (like the C driver's no-grad
 * scope); libtorch's modules have no hooks, so the call is the forward. The
 * state_dict case builds torch's state_dict from C++ (named_parameters and
 * named_buffers, detached, into an ordered dict): libtorch has no
 * Module::state_dict of its own.
 *
 * --smoke runs each mode on tiny sizes and checks its results; it asserts no
 * timing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <torch/torch.h>

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace nn = torch::nn;

namespace {

[[noreturn]] void
die (const std::string &what)
{
  std::fprintf (stderr, "bench-libtorch: %s\n", what.c_str ());
  std::exit (1);
}

double
now_seconds ()
{
  return std::chrono::duration<double> (std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

/* --name value options after the mode; flags (--smoke) map to "1". */
std::map<std::string, std::string>
parse_options (int argc, char **argv)
{
  std::map<std::string, std::string> opts;

  for (int i = 2; i < argc; i++)
    {
      std::string name = argv[i];

      if (name.rfind ("--", 0) != 0)
        die ("unexpected argument " + name);
      name = name.substr (2);
      if (name == "smoke")
        opts[name] = "1";
      else if (i + 1 < argc)
        opts[name] = argv[++i];
      else
        die ("--" + name + " needs a value");
    }
  return opts;
}

std::string
option (const std::map<std::string, std::string> &opts, const char *name, const char *fallback)
{
  auto it = opts.find (name);
  return it == opts.end () ? fallback : it->second;
}

/* bench-util.h's method: one untimed call, one timed call to calibrate
 * `inner` (calls per repetition of at least min_time s), one warm-up
 * repetition, `reps` timed repetitions; best and median seconds per call. */
struct Timing
{
  double best, median;
  long inner;
  int reps;
};

Timing
measure (const std::function<void ()> &fn, int reps, double min_time, long max_inner)
{
  auto time_calls = [&] (long inner) {
    double start = now_seconds ();
    for (long i = 0; i < inner; i++)
      fn ();
    return now_seconds () - start;
  };
  time_calls (1);
  double once = time_calls (1);
  long inner = once >= min_time ? 1 : (long) std::ceil (min_time / std::max (once, 1e-9));
  inner = std::min (std::max (inner, 1L), max_inner);
  time_calls (inner);
  std::vector<double> per;
  for (int r = 0; r < reps; r++)
    per.push_back (time_calls (inner) / (double) inner);
  std::sort (per.begin (), per.end ());
  return { per[0], per[per.size () / 2], inner, reps };
}

void
print_info (const char *mode)
{
  std::printf ("{\"type\": \"info\", \"side\": \"libtorch\", \"mode\": \"%s\", \"libtorch_version\": \"%s\", "
               "\"threads\": %d}\n", mode, TORCH_VERSION, torch::get_num_threads ());
  std::fflush (stdout);
}

void
print_result (const std::string &name, long size, const Timing &t)
{
  std::printf ("{\"type\": \"result\", \"case\": \"%s\", \"size\": %ld, \"best_seconds\": %.9g, "
               "\"median_seconds\": %.9g, \"inner\": %ld, \"reps\": %d}\n",
               name.c_str (), size, t.best, t.median, t.inner, t.reps);
  std::fflush (stdout);
}

void
check (bool cond, const std::string &what)
{
  if (!cond)
    die ("wrong result: " + what);
}

/* --- module: the object model and small calls ------------------------------- */

constexpr int FEATURES = 16;

nn::Sequential
linear_chain (int n)
{
  nn::Sequential model;

  for (int i = 0; i < n; i++)
    model->push_back (nn::Linear (FEATURES, FEATURES));
  return model;
}

void
check_names (const std::vector<std::string> &names, int n_layers, const char *what)
{
  check ((int) names.size () == 2 * n_layers, std::string (what) + " length");
  for (int i = 0; i < 2 * n_layers; i++)
    check (names[i] == std::to_string (i / 2) + (i % 2 ? ".bias" : ".weight"), std::string (what) + " names");
}

std::vector<std::string>
parameter_names (const nn::Sequential &model)
{
  std::vector<std::string> names;

  for (const auto &item : model->named_parameters ())
    names.push_back (item.key ());
  return names;
}

/* torch.nn.Module.state_dict() in C++: parameters then buffers, detached. */
torch::OrderedDict<std::string, torch::Tensor>
state_dict (const nn::Module &module)
{
  torch::OrderedDict<std::string, torch::Tensor> sd;

  for (const auto &item : module.named_parameters ())
    sd.insert (item.key (), item.value ().detach ());
  for (const auto &item : module.named_buffers ())
    sd.insert (item.key (), item.value ().detach ());
  return sd;
}

int
run_module (const std::map<std::string, std::string> &opts)
{
  bool smoke = opts.count ("smoke") != 0;
  int reps = smoke ? 1 : std::stoi (option (opts, "reps", "5"));
  double min_time = smoke ? 0.0 : std::stod (option (opts, "min-time", "0.2"));
  int layers = smoke ? 10 : std::stoi (option (opts, "layers", "1000"));
  int sd_modules = smoke ? 5 : std::stoi (option (opts, "sd-modules", "100"));
  std::string cases = option (opts, "cases", "build,walk,build_walk,call_identity_0,call_linear_0,mlp,"
                                             "state_dict,lstm_cell,encoder_layer");
  const long max_inner = smoke ? 2 : 10000000;
  torch::NoGradGuard no_grad;
  std::stringstream list (cases);
  std::string c;

  torch::manual_seed (4321);
  print_info ("module");
  while (std::getline (list, c, ','))
    {
      if (c.empty ())
        continue;
      if (c == "build" || c == "walk" || c == "build_walk")
        {
          nn::Sequential model = linear_chain (layers);
          check_names (parameter_names (model), layers, "named_parameters");
          std::function<void ()> fn;
          if (c == "build")
            fn = [&] { linear_chain (layers); };
          else if (c == "walk")
            fn = [&] { model->named_parameters (); };
          else
            fn = [&] { linear_chain (layers)->named_parameters (); };
          print_result (c, layers, measure (fn, reps, min_time, max_inner));
        }
      else if (c == "call_identity_0")
        {
          nn::Identity identity;
          torch::Tensor x = torch::rand ({ 1, FEATURES }) * 2 - 1;
          check (identity->forward (x).equal (x), "identity output");
          print_result (c, FEATURES, measure ([&] { identity->forward (x); }, reps, min_time, max_inner));
        }
      else if (c == "call_linear_0")
        {
          nn::Linear linear (FEATURES, FEATURES);
          torch::Tensor x = torch::rand ({ 1, FEATURES }) * 2 - 1;
          check (linear->forward (x).allclose (x.matmul (linear->weight.t ()) + linear->bias), "linear output");
          print_result (c, FEATURES, measure ([&] { linear->forward (x); }, reps, min_time, max_inner));
        }
      else if (c == "mlp")
        {
          nn::Sequential mlp (nn::Linear (64, 64), nn::ReLU (), nn::Linear (64, 10));
          torch::Tensor x = torch::rand ({ 1, 64 }) * 2 - 1;
          auto l0 = mlp[0]->as<nn::Linear> (), l2 = mlp[2]->as<nn::Linear> ();
          torch::Tensor want = torch::relu (x.matmul (l0->weight.t ()) + l0->bias).matmul (l2->weight.t ()) + l2->bias;
          check (mlp->forward (x).allclose (want, 1e-5, 1e-5), "mlp output");
          print_result (c, 64, measure ([&] { mlp->forward (x); }, reps, min_time, max_inner));
        }
      else if (c == "state_dict")
        {
          nn::Sequential model = linear_chain (sd_modules);
          std::vector<std::string> keys = state_dict (*model).keys ();
          check_names (keys, sd_modules, "state_dict keys");
          print_result (c, sd_modules, measure ([&] { state_dict (*model); }, reps, min_time, max_inner));
        }
      else if (c == "lstm_cell")
        {
          /* the sine-wave predictor's first cell, batch 1, (x, (h, c)) */
          nn::LSTMCell cell (1, 51);
          torch::Tensor x = torch::zeros ({ 1, 1 }), h = torch::zeros ({ 1, 51 }), cs = torch::zeros ({ 1, 51 });
          auto out = cell->forward (x, std::make_tuple (h, cs));
          check (std::get<0> (out).sizes () == torch::IntArrayRef ({ 1, 51 }), "lstm cell output shape");
          print_result (c, 51, measure ([&] { cell->forward (x, std::make_tuple (h, cs)); },
                                        reps, min_time, max_inner));
        }
      else if (c == "encoder_layer")
        {
          /* TransformerEncoderLayer(512, 8) (2048, dropout 0.1) in eval on
           * (seq 16, batch 1, 512): bench/transformer.py's layer-b1 */
          nn::TransformerEncoderLayer layer (nn::TransformerEncoderLayerOptions (512, 8).dim_feedforward (2048)
                                             .dropout (0.1));
          layer->eval ();
          torch::Tensor src = torch::randn ({ 16, 1, 512 });
          check (layer->forward (src).sizes () == src.sizes (), "encoder layer output shape");
          print_result (c, 512, measure ([&] { layer->forward (src); }, reps, min_time, max_inner));
        }
      else
        die ("unknown module case '" + c + "'");
    }
  return 0;
}

/* --- cnn: the gnn-train CNN over Fashion-MNIST ------------------------------ */

std::vector<unsigned char>
gunzip (const std::string &path)
{
  gzFile f = gzopen (path.c_str (), "rb");
  std::vector<unsigned char> bytes;
  unsigned char buf[1 << 16];
  int n;

  if (f == nullptr)
    die ("cannot open " + path);
  while ((n = gzread (f, buf, sizeof buf)) > 0)
    bytes.insert (bytes.end (), buf, buf + n);
  gzclose (f);
  if (n < 0)
    die ("cannot read " + path);
  return bytes;
}

int
run_cnn (const std::map<std::string, std::string> &opts)
{
  bool smoke = opts.count ("smoke") != 0;
  long batch = smoke ? 4 : std::stol (option (opts, "batch-size", "64"));
  long batches = smoke ? 3 : std::stol (option (opts, "batches", "200"));
  std::string dir = option (opts, "data-dir", "/usr/share/datasets/fashion-mnist");
  torch::Tensor images, labels;

  torch::manual_seed (0);
  if (smoke)
    {
      images = torch::randn ({ batches * batch, 1, 28, 28 });
      labels = torch::arange (batches * batch, torch::kLong).remainder (10);
    }
  else
    {
      std::vector<unsigned char> img = gunzip (dir + "/train-images-idx3-ubyte.gz");
      std::vector<unsigned char> lab = gunzip (dir + "/train-labels-idx1-ubyte.gz");
      long n = batches * batch;
      check ((long) img.size () >= 16 + n * 784 && (long) lab.size () >= 8 + n, "Fashion-MNIST size");
      images = torch::from_blob (img.data () + 16, { n, 1, 28, 28 }, torch::kUInt8).to (torch::kFloat)
                 .div (255.0).sub (0.2860).div (0.3530);
      labels = torch::from_blob (lab.data () + 8, { n }, torch::kUInt8).to (torch::kLong);
    }
  nn::Sequential model (nn::Conv2d (nn::Conv2dOptions (1, 32, 3).padding (1)), nn::MaxPool2d (2),
                        nn::ReLU (nn::ReLUOptions (true)),
                        nn::Conv2d (nn::Conv2dOptions (32, 64, 3).padding (1)), nn::MaxPool2d (2),
                        nn::ReLU (nn::ReLUOptions (true)), nn::Flatten (), nn::Linear (64 * 7 * 7, 128),
                        nn::ReLU (nn::ReLUOptions (true)), nn::Linear (128, 10));
  torch::optim::SGD optimizer (model->parameters (), torch::optim::SGDOptions (0.01).momentum (0.9));
  auto train_step = [&] (long i) {
    optimizer.zero_grad ();
    torch::Tensor loss = torch::nn::functional::cross_entropy (model->forward (images.narrow (0, i * batch, batch)),
                                                               labels.narrow (0, i * batch, batch));
    loss.backward ();
    optimizer.step ();
    return loss.item<double> ();
  };

  print_info ("cnn");
  model->train ();
  train_step (0);
  double start = now_seconds (), sum = 0;
  for (long i = 0; i < batches; i++)
    sum += train_step (i);
  double train_s = now_seconds () - start;
  check (std::isfinite (sum), "finite loss");
  model->eval ();
  double fwd_s;
  {
    torch::NoGradGuard no_grad;
    model->forward (images.narrow (0, 0, batch));
    start = now_seconds ();
    for (long i = 0; i < batches; i++)
      model->forward (images.narrow (0, i * batch, batch));
    fwd_s = now_seconds () - start;
  }
  std::printf ("{\"type\": \"result\", \"case\": \"train\", \"seconds\": %.6f, \"batches\": %ld, \"loss\": %.6f}\n",
               train_s, batches, sum / (double) batches);
  std::printf ("{\"type\": \"result\", \"case\": \"forward\", \"seconds\": %.6f, \"batches\": %ld}\n",
               fwd_s, batches);
  return 0;
}

/* --- resnet: torchvision's ResNet-18 layout --------------------------------- */

nn::Conv2d
conv (long in, long out, long k, long stride, long pad)
{
  return nn::Conv2d (nn::Conv2dOptions (in, out, k).stride (stride).padding (pad).bias (false));
}

struct BasicBlockImpl : nn::Module
{
  nn::Conv2d conv1 { nullptr }, conv2 { nullptr };
  nn::BatchNorm2d bn1 { nullptr }, bn2 { nullptr };
  nn::Sequential downsample { nullptr };

  BasicBlockImpl (long in, long out, long stride)
  {
    conv1 = register_module ("conv1", conv (in, out, 3, stride, 1));
    bn1 = register_module ("bn1", nn::BatchNorm2d (out));
    conv2 = register_module ("conv2", conv (out, out, 3, 1, 1));
    bn2 = register_module ("bn2", nn::BatchNorm2d (out));
    if (stride != 1 || in != out)
      downsample = register_module ("downsample", nn::Sequential (conv (in, out, 1, stride, 0),
                                                                  nn::BatchNorm2d (out)));
  }

  torch::Tensor
  forward (torch::Tensor x)
  {
    torch::Tensor identity = downsample ? downsample->forward (x) : x;
    torch::Tensor y = bn1->forward (conv1->forward (x)).relu_ ();

    y = bn2->forward (conv2->forward (y));
    y += identity;
    return y.relu_ ();
  }
};
TORCH_MODULE (BasicBlock);

/* torchvision.models.resnet18(): the same modules, names and initialization
 * (kaiming_normal_ fan_out for convolutions, BatchNorm weight 1, bias 0). */
struct ResNet18Impl : nn::Module
{
  nn::Conv2d conv1 { nullptr };
  nn::BatchNorm2d bn1 { nullptr };
  nn::Sequential layers[4] = { nullptr, nullptr, nullptr, nullptr };
  nn::Linear fc { nullptr };

  explicit ResNet18Impl (long num_classes)
  {
    long in = 64;

    conv1 = register_module ("conv1", conv (3, 64, 7, 2, 3));
    bn1 = register_module ("bn1", nn::BatchNorm2d (64));
    for (int i = 0; i < 4; i++)
      {
        long out = 64L << i, stride = i == 0 ? 1 : 2;
        layers[i] = register_module ("layer" + std::to_string (i + 1),
                                     nn::Sequential (BasicBlock (in, out, stride), BasicBlock (out, out, 1)));
        in = out;
      }
    fc = register_module ("fc", nn::Linear (512, num_classes));
    for (auto &m : modules (false))
      if (auto *c = m->as<nn::Conv2d> ())
        nn::init::kaiming_normal_ (c->weight, 0.0, torch::kFanOut, torch::kReLU);
  }

  torch::Tensor
  forward (torch::Tensor x)
  {
    x = bn1->forward (conv1->forward (x)).relu_ ();
    x = torch::max_pool2d (x, 3, 2, 1);
    for (auto &layer : layers)
      x = layer->forward (x);
    x = torch::adaptive_avg_pool2d (x, { 1, 1 }).flatten (1);
    return fc->forward (x);
  }
};
TORCH_MODULE (ResNet18);

int
run_resnet (const std::map<std::string, std::string> &opts)
{
  bool smoke = opts.count ("smoke") != 0;
  std::string c = option (opts, "case", "train");
  long batch = smoke ? 2 : std::stol (option (opts, "batch", "16"));
  long size = smoke ? 32 : std::stol (option (opts, "size", "64"));
  long steps = smoke ? 2 : std::stol (option (opts, "steps", "5"));
  torch::manual_seed (0);
  ResNet18 model (1000);
  torch::Tensor x = torch::randn ({ batch, 3, size, size });
  torch::Tensor y = torch::arange (batch, torch::kLong).mul (37).remainder (1000);
  std::vector<double> times;
  double loss_sum = 0;

  print_info ("resnet");
  if (c == "train")
    {
      torch::optim::SGD optimizer (model->parameters (), torch::optim::SGDOptions (0.01).momentum (0.9));
      model->train ();
      for (long s = 0; s <= steps; s++)
        {
          double start = now_seconds ();
          optimizer.zero_grad ();
          torch::Tensor loss = torch::nn::functional::cross_entropy (model->forward (x), y);
          loss.backward ();
          optimizer.step ();
          double l = loss.item<double> ();
          if (s > 0)  /* the first step is the warm-up */
            times.push_back (now_seconds () - start), loss_sum += l;
        }
      check (std::isfinite (loss_sum), "finite loss");
    }
  else if (c == "infer")
    {
      torch::NoGradGuard no_grad;
      model->eval ();
      for (long s = 0; s <= steps; s++)
        {
          double start = now_seconds ();
          torch::Tensor out = model->forward (x);
          if (s > 0)
            times.push_back (now_seconds () - start);
          check (out.size (1) == 1000, "output shape");
        }
    }
  else
    die ("unknown resnet case '" + c + "'");
  std::sort (times.begin (), times.end ());
  std::printf ("{\"type\": \"result\", \"case\": \"%s\", \"batch\": %ld, \"size\": %ld, \"steps\": %ld, "
               "\"best_seconds\": %.6f, \"median_seconds\": %.6f, \"loss\": %.6f}\n",
               c.c_str (), batch, size, steps, times.front (), times[times.size () / 2],
               times.empty () ? 0.0 : loss_sum / (double) times.size ());
  return 0;
}

}  // namespace

int
main (int argc, char **argv)
{
  if (argc < 2)
    die ("usage: bench-libtorch module|cnn|resnet [--OPTION VALUE...] [--smoke]");
  std::string mode = argv[1];
  std::map<std::string, std::string> opts = parse_options (argc, argv);
  const char *threads = std::getenv ("OMP_NUM_THREADS");

  if (threads != nullptr && std::atoi (threads) > 0)
    torch::set_num_threads (std::atoi (threads));
  try
    {
      if (mode == "module")
        return run_module (opts);
      if (mode == "cnn")
        return run_cnn (opts);
      if (mode == "resnet")
        return run_resnet (opts);
    }
  catch (const std::exception &e)
    {
      die (e.what ());
    }
  die ("unknown mode '" + mode + "' (module, cnn, resnet)");
}
