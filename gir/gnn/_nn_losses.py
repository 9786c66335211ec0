# _nn_losses.py: torch.nn's loss modules (C classes: here their torch
# signatures) and
# torch.nn.functional's losses with torch's signatures, each a call of the C
# function (Gnn.l1_loss, Gnn.cross_entropy ...): the reduction string (or
# the legacy size_average / reduce pair) is mapped onto Gnn.Reduction, the
# rest passes through.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._creation import tensor
from ._gi import EXPORTS, Gnn, call_c, trampoline
from ._signature import only, torch_class, torch_factory

_REDUCTIONS = {'none': Gnn.Reduction.NONE, 'mean': Gnn.Reduction.MEAN,
               'sum': Gnn.Reduction.SUM, 'batchmean': Gnn.Reduction.BATCHMEAN}


def reduction_enum(reduction, size_average=None, reduce=None):
    """torch's _Reduction: the legacy pair wins when given; an unknown
    string is torch's ValueError (batchmean is refused by the C losses that
    have no such reduction, with torch's message)."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = 'mean' if size_average and reduce else 'sum' if reduce else 'none'
    if reduction not in _REDUCTIONS:
        raise ValueError('{} is not a valid value for reduction'.format(reduction))
    return _REDUCTIONS[reduction]


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction='mean', label_smoothing=0.0):
    return Gnn.cross_entropy(input, target, weight, ignore_index,
                             reduction_enum(reduction, size_average, reduce),
                             float(label_smoothing))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction='mean'):
    return Gnn.nll_loss(input, target, weight, ignore_index,
                        reduction_enum(reduction, size_average, reduce))


def mse_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return Gnn.mse_loss(input, target, reduction_enum(reduction, size_average, reduce))


def l1_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return Gnn.l1_loss(input, target, reduction_enum(reduction, size_average, reduce))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0):
    return Gnn.smooth_l1_loss(input, target, reduction_enum(reduction, size_average, reduce),
                              float(beta))


def huber_loss(input, target, reduction='mean', delta=1.0):
    return Gnn.huber_loss(input, target, reduction_enum(reduction), float(delta))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction='mean'):
    return Gnn.binary_cross_entropy(input, target, weight,
                                    reduction_enum(reduction, size_average, reduce))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction='mean', pos_weight=None):
    return Gnn.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                reduction_enum(reduction, size_average, reduce))


def kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False):
    return Gnn.kl_div(input, target, reduction_enum(reduction, size_average, reduce),
                      bool(log_target))


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction='mean'):
    return Gnn.poisson_nll_loss(input, target, bool(log_input), bool(full), float(eps),
                                reduction_enum(reduction, size_average, reduce))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
    return Gnn.gaussian_nll_loss(input, target, var, bool(full), float(eps),
                                 reduction_enum(reduction))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction='mean'):
    return Gnn.multilabel_soft_margin_loss(input, target, weight,
                                           reduction_enum(reduction, size_average, reduce))


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction='mean'):
    return Gnn.hinge_embedding_loss(input, target, float(margin),
                                    reduction_enum(reduction, size_average, reduce))


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction='mean'):
    return Gnn.margin_ranking_loss(input1, input2, target, float(margin),
                                   reduction_enum(reduction, size_average, reduce))


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction='mean'):
    return Gnn.cosine_embedding_loss(input1, input2, target, float(margin),
                                     reduction_enum(reduction, size_average, reduce))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return Gnn.soft_margin_loss(input, target, reduction_enum(reduction, size_average, reduce))


def _as_tensor(value):
    """ctc_loss's lengths may be sequences of ints, as torch takes them."""
    return value if isinstance(value, Gnn.Tensor) else tensor(value)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean',
             zero_infinity=False):
    return Gnn.ctc_loss(log_probs, targets, _as_tensor(input_lengths),
                        _as_tensor(target_lengths), blank, reduction_enum(reduction),
                        bool(zero_infinity))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction='mean'):
    return Gnn.triplet_margin_loss(anchor, positive, negative, float(margin), float(p),
                                   float(eps), bool(swap),
                                   reduction_enum(reduction, size_average, reduce))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction='mean'):
    return Gnn.multi_margin_loss(input, target, p, float(margin), weight,
                                 reduction_enum(reduction, size_average, reduce))


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return Gnn.multilabel_margin_loss(input, target,
                                      reduction_enum(reduction, size_average, reduce))


def _distance(distance_function):
    """A Python distance function as the C callback (its exceptions cross
    the C call and are raised again by call_c)."""
    if distance_function is None:
        return None
    return trampoline(lambda x1, x2, user_data: distance_function(x1, x2),
                      'distance_function')


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction='mean'):
    return call_c(Gnn.triplet_margin_with_distance_loss, anchor, positive, negative,
                  _distance(distance_function), None, float(margin), bool(swap),
                  reduction_enum(reduction))


def _triplet_with_distance(*, distance_function=None, margin=1.0, swap=False, reduction='mean'):
    """nn.TripletMarginWithDistanceLoss: the distance function is no
    property (a callback of the C constructor)."""
    reduction_enum(reduction)
    return Gnn.TripletMarginWithDistanceLoss.new(_distance(distance_function), None,
                                                 float(margin), bool(swap),
                                                 reduction_enum(reduction))


functional = EXPORTS['functional']
for _f in (multi_margin_loss, multilabel_margin_loss, triplet_margin_with_distance_loss,
           cross_entropy, nll_loss, mse_loss, l1_loss, smooth_l1_loss, huber_loss,
           binary_cross_entropy, binary_cross_entropy_with_logits, kl_div, poisson_nll_loss,
           gaussian_nll_loss, multilabel_soft_margin_loss, hinge_embedding_loss,
           margin_ranking_loss, cosine_embedding_loss, triplet_margin_loss, ctc_loss,
           soft_margin_loss):
    setattr(functional, _f.__name__, _f)


# --- the modules ----------------------------------------------------------------
# criterion(input, target, ...) is the module call (the losses' C forward
# takes their inputs by name, hooks run); compute(...) is the C method too.

_LEGACY = ('size_average=None, reduce=None, ')
_LOSS = {'size_average': only(None, 'size_average'), 'reduce': only(None, 'reduce')}
for _name, _text in (
        ('CrossEntropyLoss', "weight=None, size_average=None, ignore_index=-100, reduce=None, "
                             "reduction='mean', label_smoothing=0.0"),
        ('NLLLoss', "weight=None, size_average=None, ignore_index=-100, reduce=None, "
                    "reduction='mean'"),
        ('MSELoss', _LEGACY + "reduction='mean'"),
        ('BCEWithLogitsLoss', "weight=None, size_average=None, reduce=None, reduction='mean', "
                              "pos_weight=None"),
        ('L1Loss', _LEGACY + "reduction='mean'"),
        ('SmoothL1Loss', _LEGACY + "reduction='mean', beta=1.0"),
        ('HuberLoss', "reduction='mean', delta=1.0"),
        ('BCELoss', 'weight=None, ' + _LEGACY + "reduction='mean'"),
        ('KLDivLoss', _LEGACY + "reduction='mean', log_target=False"),
        ('PoissonNLLLoss', "log_input=True, full=False, size_average=None, eps=1e-08, "
                           "reduce=None, reduction='mean'"),
        ('GaussianNLLLoss', "*, full=False, eps=1e-06, reduction='mean'"),
        ('MultiLabelSoftMarginLoss', 'weight=None, ' + _LEGACY + "reduction='mean'"),
        ('HingeEmbeddingLoss', 'margin=1.0, ' + _LEGACY + "reduction='mean'"),
        ('MarginRankingLoss', 'margin=0.0, ' + _LEGACY + "reduction='mean'"),
        ('CosineEmbeddingLoss', 'margin=0.0, ' + _LEGACY + "reduction='mean'"),
        ('TripletMarginLoss', 'margin=1.0, p=2.0, eps=1e-06, swap=False, ' + _LEGACY +
                              "reduction='mean'"),
        ('SoftMarginLoss', _LEGACY + "reduction='mean'"),
        ('MultiMarginLoss', "p=1, margin=1.0, weight=None, " + _LEGACY + "reduction='mean'"),
        ('MultiLabelMarginLoss', _LEGACY + "reduction='mean'"),
        ('CTCLoss', "blank=0, reduction='mean', zero_infinity=False")):
    # Gnn.nn (a CORE module's namespace) listed the first four before this
    # module overrode them
    setattr(EXPORTS['nn'], _name, torch_class(_name, _text, _LOSS))
EXPORTS['nn'].TripletMarginWithDistanceLoss = torch_factory(
    'TripletMarginWithDistanceLoss', _triplet_with_distance,
    "*, distance_function=None, margin=1.0, swap=False, reduction='mean'")
