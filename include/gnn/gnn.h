/* gnn.h: the one header to include
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define GNN_INSIDE

#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-version.h>
#include <gnn/gnn-enum-types.h>
#include <gnn/gnn-error.h>
#include <gnn/gnn-dtype.h>
#include <gnn/gnn-device.h>
#include <gnn/gnn-threads.h>
#include <gnn/gnn-memory.h>

/* tensor */
#include <gnn/gnn-generator.h>
#include <gnn/gnn-tensor.h>
#include <gnn/gnn-parameter.h>
#include <gnn/gnn-tensor-nn.h>
#include <gnn/gnn-tensor-pool.h>
#include <gnn/gnn-tensor-fractional-pool.h>
#include <gnn/gnn-tensor-activation.h>
#include <gnn/gnn-tensor-math.h>
#include <gnn/gnn-tensor-indexing.h>
#include <gnn/gnn-tensor-composite.h>
#include <gnn/gnn-tensor-sample.h>
#include <gnn/gnn-tensor-reduce.h>
#include <gnn/gnn-tensor-linalg.h>
#include <gnn/gnn-linalg.h>
#include <gnn/gnn-tensor-index-put.h>
#include <gnn/gnn-value.h>
#include <gnn/gnn-args.h>

/* module (keep one line per header) */
#include <gnn/gnn-hook-handle.h>
#include <gnn/gnn-state-dict.h>
#include <gnn/gnn-module.h>
#include <gnn/gnn-mixin.h>
#include <gnn/gnn-io.h>

/* nn */
#include <gnn/gnn-sequential.h>
#include <gnn/gnn-module-list.h>
#include <gnn/gnn-module-dict.h>
#include <gnn/gnn-parameter-list.h>
#include <gnn/gnn-parameter-dict.h>
#include <gnn/gnn-linear.h>
#include <gnn/gnn-bilinear.h>
#include <gnn/gnn-non-dynamically-quantizable-linear.h>
#include <gnn/gnn-multihead-attention.h>
#include <gnn/gnn-transformer-encoder-layer.h>
#include <gnn/gnn-transformer-encoder.h>
#include <gnn/gnn-transformer-decoder-layer.h>
#include <gnn/gnn-transformer-decoder.h>
#include <gnn/gnn-transformer.h>
#include <gnn/gnn-identity.h>
#include <gnn/gnn-flatten.h>
#include <gnn/gnn-unflatten.h>
#include <gnn/gnn-fold.h>
#include <gnn/gnn-unfold.h>
#include <gnn/gnn-pixel-shuffle.h>
#include <gnn/gnn-pixel-unshuffle.h>
#include <gnn/gnn-relu.h>
#include <gnn/gnn-gelu.h>
#include <gnn/gnn-tanh.h>
#include <gnn/gnn-sigmoid.h>
#include <gnn/gnn-softmax.h>
#include <gnn/gnn-log-softmax.h>
#include <gnn/gnn-dropout.h>
#include <gnn/gnn-dropout-nd.h>
#include <gnn/gnn-dropout1d.h>
#include <gnn/gnn-dropout2d.h>
#include <gnn/gnn-dropout3d.h>
#include <gnn/gnn-alpha-dropout.h>
#include <gnn/gnn-feature-alpha-dropout.h>
#include <gnn/gnn-layer-norm.h>
#include <gnn/gnn-batch-norm.h>
#include <gnn/gnn-group-norm.h>
#include <gnn/gnn-instance-norm-nd.h>
#include <gnn/gnn-instance-norm1d.h>
#include <gnn/gnn-instance-norm2d.h>
#include <gnn/gnn-instance-norm3d.h>
#include <gnn/gnn-local-response-norm.h>
#include <gnn/gnn-embedding.h>
#include <gnn/gnn-embedding-bag.h>
#include <gnn/gnn-conv-nd.h>
#include <gnn/gnn-conv1d.h>
#include <gnn/gnn-conv2d.h>
#include <gnn/gnn-conv3d.h>
#include <gnn/gnn-conv-transpose1d.h>
#include <gnn/gnn-conv-transpose2d.h>
#include <gnn/gnn-conv-transpose3d.h>
#include <gnn/gnn-max-pool1d.h>
#include <gnn/gnn-avg-pool1d.h>
#include <gnn/gnn-max-pool2d.h>
#include <gnn/gnn-max-unpool.h>
#include <gnn/gnn-fractional-max-pool.h>
#include <gnn/gnn-pool3d.h>
#include <gnn/gnn-lp-pool.h>
#include <gnn/gnn-channel-shuffle.h>
#include <gnn/gnn-avg-pool2d.h>
#include <gnn/gnn-packed-sequence.h>
#include <gnn/gnn-rnn.h>
#include <gnn/gnn-rnn-cell.h>
#include <gnn/gnn-adaptive-pool-nd.h>
#include <gnn/gnn-adaptive-avg-pool1d.h>
#include <gnn/gnn-adaptive-avg-pool2d.h>
#include <gnn/gnn-adaptive-avg-pool3d.h>
#include <gnn/gnn-adaptive-max-pool1d.h>
#include <gnn/gnn-adaptive-max-pool2d.h>
#include <gnn/gnn-adaptive-max-pool3d.h>
#include <gnn/gnn-upsample.h>
#include <gnn/gnn-upsampling-nearest2d.h>
#include <gnn/gnn-upsampling-bilinear2d.h>
#include <gnn/gnn-pad-nd.h>
#include <gnn/gnn-constant-pad1d.h>
#include <gnn/gnn-constant-pad2d.h>
#include <gnn/gnn-constant-pad3d.h>
#include <gnn/gnn-zero-pad2d.h>
#include <gnn/gnn-reflection-pad1d.h>
#include <gnn/gnn-reflection-pad2d.h>
#include <gnn/gnn-reflection-pad3d.h>
#include <gnn/gnn-replication-pad1d.h>
#include <gnn/gnn-replication-pad2d.h>
#include <gnn/gnn-replication-pad3d.h>
#include <gnn/gnn-cross-entropy-loss.h>
#include <gnn/gnn-nll-loss.h>
#include <gnn/gnn-mse-loss.h>
#include <gnn/gnn-bce-with-logits-loss.h>
#include <gnn/gnn-functional.h>
#include <gnn/gnn-functional-vector.h>
#include <gnn/gnn-functional-losses.h>
#include <gnn/gnn-init.h>
#include <gnn/gnn-nn-utils.h>
/* losses and activations (nnfunc) */
#include <gnn/gnn-l1-loss.h>
#include <gnn/gnn-smooth-l1-loss.h>
#include <gnn/gnn-huber-loss.h>
#include <gnn/gnn-bce-loss.h>
#include <gnn/gnn-kl-div-loss.h>
#include <gnn/gnn-poisson-nll-loss.h>
#include <gnn/gnn-gaussian-nll-loss.h>
#include <gnn/gnn-multi-label-soft-margin-loss.h>
#include <gnn/gnn-hinge-embedding-loss.h>
#include <gnn/gnn-soft-margin-loss.h>
#include <gnn/gnn-margin-ranking-loss.h>
#include <gnn/gnn-cosine-embedding-loss.h>
#include <gnn/gnn-triplet-margin-loss.h>
#include <gnn/gnn-triplet-margin-with-distance-loss.h>
#include <gnn/gnn-multi-margin-loss.h>
#include <gnn/gnn-multi-label-margin-loss.h>
#include <gnn/gnn-ctc-loss.h>
#include <gnn/gnn-relu6.h>
#include <gnn/gnn-leaky-relu.h>
#include <gnn/gnn-rrelu.h>
#include <gnn/gnn-prelu.h>
#include <gnn/gnn-elu.h>
#include <gnn/gnn-selu.h>
#include <gnn/gnn-celu.h>
#include <gnn/gnn-silu.h>
#include <gnn/gnn-mish.h>
#include <gnn/gnn-hardtanh.h>
#include <gnn/gnn-hardswish.h>
#include <gnn/gnn-hardsigmoid.h>
#include <gnn/gnn-softplus.h>
#include <gnn/gnn-softsign.h>
#include <gnn/gnn-tanhshrink.h>
#include <gnn/gnn-hardshrink.h>
#include <gnn/gnn-softshrink.h>
#include <gnn/gnn-threshold.h>
#include <gnn/gnn-glu.h>
#include <gnn/gnn-log-sigmoid.h>
#include <gnn/gnn-softmin.h>
#include <gnn/gnn-softmax2d.h>

/* vision */
#include <gnn/gnn-basic-block.h>
#include <gnn/gnn-bottleneck.h>
#include <gnn/gnn-resnet.h>
#include <gnn/gnn-vgg.h>
#include <gnn/gnn-alex-net.h>
#include <gnn/gnn-squeeze-net.h>
#include <gnn/gnn-mobile-net-v2.h>
#include <gnn/gnn-dense-net.h>

/* data */
#include <gnn/gnn-dataset.h>
#include <gnn/gnn-tensor-dataset.h>
#include <gnn/gnn-subset.h>
#include <gnn/gnn-concat-dataset.h>
#include <gnn/gnn-idx-dataset.h>
#include <gnn/gnn-item-iterator.h>
#include <gnn/gnn-iterable-dataset.h>
#include <gnn/gnn-sampler.h>
#include <gnn/gnn-sequential-sampler.h>
#include <gnn/gnn-random-sampler.h>
#include <gnn/gnn-subset-random-sampler.h>
#include <gnn/gnn-weighted-random-sampler.h>
#include <gnn/gnn-batch-sampler.h>
#include <gnn/gnn-distributed-sampler.h>
#include <gnn/gnn-batch.h>
#include <gnn/gnn-collate.h>
#include <gnn/gnn-worker-mode.h>
#include <gnn/gnn-worker-info.h>
#include <gnn/gnn-data-loader-iter.h>
#include <gnn/gnn-data-loader.h>
#include <gnn/gnn-worker-spawn-host.h>

/* io */

/* autograd */
#include <gnn/gnn-autograd.h>
#include <gnn/gnn-grad-fn.h>
#include <gnn/gnn-autograd-context.h>
#include <gnn/gnn-autograd-function.h>
#include <gnn/gnn-optimizer.h>
#include <gnn/gnn-sgd.h>
#include <gnn/gnn-adam.h>
#include <gnn/gnn-adamw.h>
#include <gnn/gnn-adadelta.h>
#include <gnn/gnn-adagrad.h>
#include <gnn/gnn-adamax.h>
#include <gnn/gnn-nadam.h>
#include <gnn/gnn-radam.h>
#include <gnn/gnn-rmsprop.h>
#include <gnn/gnn-rprop.h>
#include <gnn/gnn-asgd.h>
#include <gnn/gnn-lbfgs.h>
#include <gnn/gnn-lr-scheduler.h>
#include <gnn/gnn-step-lr.h>
#include <gnn/gnn-cosine-annealing-lr.h>
#include <gnn/gnn-multi-step-lr.h>
#include <gnn/gnn-exponential-lr.h>
#include <gnn/gnn-constant-lr.h>
#include <gnn/gnn-linear-lr.h>
#include <gnn/gnn-polynomial-lr.h>
#include <gnn/gnn-cosine-annealing-warm-restarts.h>
#include <gnn/gnn-one-cycle-lr.h>
#include <gnn/gnn-cyclic-lr.h>
#include <gnn/gnn-reduce-lr-on-plateau.h>
#include <gnn/gnn-sequential-lr.h>
#include <gnn/gnn-chained-scheduler.h>
#include <gnn/gnn-lambda-lr.h>
#include <gnn/gnn-multiplicative-lr.h>

/* io: training checkpoints (model + optimizer + scheduler) */
#include <gnn/gnn-checkpoint.h>

/* train: one epoch of forward/loss/backward/step, async and cancellable */
#include <gnn/gnn-trainer.h>

/* distributed */
#include <gnn/gnn-process-group.h>
#include <gnn/gnn-distributed-data-parallel.h>

/* vision */
#include <gnn/gnn-image.h>
#include <gnn/gnn-vision-functional.h>
#include <gnn/gnn-transform.h>
#include <gnn/gnn-compose.h>
#include <gnn/gnn-to-tensor.h>
#include <gnn/gnn-pil-to-tensor.h>
#include <gnn/gnn-normalize.h>
#include <gnn/gnn-lambda.h>
#include <gnn/gnn-resize.h>
#include <gnn/gnn-center-crop.h>
#include <gnn/gnn-random-crop.h>
#include <gnn/gnn-random-resized-crop.h>
#include <gnn/gnn-random-horizontal-flip.h>
#include <gnn/gnn-random-vertical-flip.h>
#include <gnn/gnn-random-rotation.h>
#include <gnn/gnn-color-jitter.h>
#include <gnn/gnn-grayscale.h>
#include <gnn/gnn-pad.h>
#include <gnn/gnn-random-erasing.h>
#include <gnn/gnn-convert-image-dtype.h>
#include <gnn/gnn-vision-dataset.h>
#include <gnn/gnn-mnist.h>
#include <gnn/gnn-fashion-mnist.h>
#include <gnn/gnn-kmnist.h>
#include <gnn/gnn-fake-data.h>
#include <gnn/gnn-cifar10.h>
#include <gnn/gnn-cifar100.h>
#include <gnn/gnn-dataset-folder.h>
#include <gnn/gnn-image-folder.h>
#include <gnn/gnn-vision-utils.h>

#undef GNN_INSIDE
