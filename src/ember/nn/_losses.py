"""The loss functions of ember.nn.functional: the ones torch records as their own nodes call
the Ops of `_loss_ops.py`; the others are composed of ember ops, as torch composes them."""
import math

from .. import _dtype
from .._creation import full_like, zeros_like
from .._ops import activations as _act
from .._ops.dim_activations import log_softmax as _log_softmax
from .._ops.compare import where as _where
from .._tensor import Tensor
from ..autograd.grad_mode import is_grad_enabled as _grad_enabled
from . import _loss_ops, _nll_ops
from ._distance import pairwise_distance
from ._loss_ops import _shape_text
from ._loss_ops import check_reduction as _check_reduction
from ._argument_types import attribute_error, symint_argument, tensors
from .._ops.argument_errors import parser_error
from .. import _warn


def logsigmoid(input):
    return _act.unary_call(_act.LogSigmoid, input, {}, "log_sigmoid")


def _legacy_reduction(size_average, reduce, reduction):
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    _warn.warn(f"size_average and reduce args will be deprecated, please use "
               f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


def _reduce(losses, reduction):
    _check_reduction(reduction)
    if reduction == "mean":
        return losses.mean()
    if reduction == "sum":
        return losses.sum()
    return losses


def _broadcast_target(input, target, stacklevel=3):
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        # torch compares target.size() with input.size() first: a NumPy array's `size` is an
        # int, so it fails there ("'int' object is not callable")
        target.size(), input.size()
    if tuple(target.shape) != tuple(input.shape):
        _warn.warn(f"Using a target size ({target.shape}) that is different to the input "
                   f"size ({input.shape}). This will likely lead to incorrect results due to "
                   f"broadcasting. Please ensure they have the same size.", UserWarning,
                   stacklevel=stacklevel)
        from .._geometry import broadcast_shapes
        shape = broadcast_shapes(tuple(input.shape), tuple(target.shape))
        # (torch's broadcast_tensors leaves a tensor of the broadcast shape as it is)
        if tuple(input.shape) != shape:
            input = input.expand(shape)
        if tuple(target.shape) != shape:
            target = target.expand(shape)
    return input, target


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    _check_reduction(reduction)     # (torch's Python broadcasts first)
    return _loss_ops.pointwise_loss(_loss_ops.MseLoss, input, target, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute error."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    _check_reduction(reduction)
    return _reduce((input - target).abs(), reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared error below `beta`, absolute error above it."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)   # (before the other checks, as torch)
    _check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:     # torch's Python hands beta 0 to l1_loss (its graph: AbsBackward0)
        return _reduce((input - target).abs(), reduction)
    return _loss_ops.pointwise_loss(_loss_ops.SmoothL1Loss, input, target, reduction,
                                    {"beta": beta})


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Squared error below `delta`, delta-scaled absolute error above it."""
    if not isinstance(target, Tensor):      # (torch's Python compares target.size() first)
        raise attribute_error(target, "size")
    _check_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    input, target = _broadcast_target(input, target)
    return _loss_ops.pointwise_loss(_loss_ops.HuberLoss, input, target, reduction,
                                    {"delta": delta})


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Negative log likelihood of class indices, given log-probabilities `input`."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if not isinstance(target, Tensor):
        tensors("nll_loss_nd", (1, "self", input, False), (2, "target", target, False))
    ignore_index = symint_argument("nll_loss_nd", "ignore_index", 5, ignore_index)
    return _nll_ops.nll_loss(input, target, weight, ignore_index, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """log_softmax over the class dim (1, or 0 for unbatched input) then NLL; `target` holds
    class indices or class probabilities."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    ignore_index = symint_argument("cross_entropy_loss", "ignore_index", 5, ignore_index)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing}")
    if weight is None and not label_smoothing:
        loss = _nll_ops.cross_entropy_2d(input, target, ignore_index, reduction)
        if loss is not None:
            return loss
    for position, (arg, x) in enumerate((("input", input), ("target", target)), 1):
        if not isinstance(x, Tensor):
            from .._ops.argument_errors import type_name
            raise TypeError(f"cross_entropy_loss(): argument '{arg}' (position {position}) must "
                            f"be Tensor, not {type_name(x)}")
    class_dim = 0 if input.ndim == 1 else 1
    # NOTE: as in torch, a target of the input's shape holds probabilities, any other holds
    # class indices.
    if tuple(target.shape) == tuple(input.shape):
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class "
                               "probabilities, got " + target.dtype._scalar_name)
        if ignore_index >= 0:       # (torch lets any negative index through, unused)
            raise RuntimeError("ignore_index is not supported for floating point target")
        if not input.ndim:          # (torch asks for size(1) before the log_softmax)
            raise IndexError("Dimension specified as 1 but tensor has no dimensions")
        n_classes = input.shape[class_dim]
        if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
            raise RuntimeError(f"cross_entropy: weight tensor should be defined either for "
                               f"all {n_classes} classes or no classes but got weight tensor "
                               f"of shape: {_loss_ops._shape_text(weight.shape)}")
    logp = _log_softmax(input, class_dim)
    n_classes = input.shape[class_dim]
    w = None
    if weight is not None:
        w = weight.reshape((-1,) + (1,) * (input.ndim - class_dim - 1))
    if tuple(target.shape) == tuple(input.shape):
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        terms = logp * target if w is None else logp * target * w
        # torch negates after summing (NegBackward0 on top, -0.0 for a sum of zeros); an empty
        # batch's mean is the sum filled with NaN (FillBackward2), not 0 / 0
        if reduction == "none":
            return -terms.sum(class_dim)
        if reduction == "sum":
            return -terms.sum()
        if not input.numel():
            return -terms.sum().fill_(float("nan"))
        return _loss_ops.divide_by_number(-terms.sum(), input.numel() // n_classes)
    nll = _nll_ops.nll_loss(logp, target, weight, ignore_index, reduction)
    if label_smoothing <= 0:
        return nll
    ignored = target == ignore_index
    smooth = -(logp if w is None else logp * w).sum(class_dim)
    smooth = _where(ignored, 0.0, smooth)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / (~ignored).sum()
        else:
            safe = _where(ignored, 0, target)
            smooth = smooth.sum() / (weight[safe] * (~ignored)).sum()
    else:
        smooth = _reduce(smooth, reduction)
    # (torch's C++ scales both by numbers: MulBackward1 nodes)
    return (_loss_ops.multiply_by_number(nll, 1 - label_smoothing)
            + _loss_ops.multiply_by_number(smooth, label_smoothing / n_classes))


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0, options=None):
    """cross_entropy(linear(input, linear_weight, linear_bias), target, ...), with the logits
    shaped (N, C, *out_features) when linear_weight is (C, *out_features, in_features).
    `ignore_index=None` means -100 for class-index targets (and must stay None for class
    probabilities). torch's chunked path (`options` given) never materializes all logits; ember
    accepts `options`, checks them and warns for the configurations torch's chunked path refuses
    as torch does, but always computes the reference way (so the graph is the reference one)."""
    from . import functional as F
    _check_linear_cross_entropy(input, linear_weight, linear_bias)
    num_batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    num_classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    logits_shape = (*num_batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains "
                           "probabilities")
    ignore_index = -100 if ignore_index is None else ignore_index
    if options is not None:
        if (out_features or reduction not in ("mean", "sum", "none") or label_smoothing != 0.0
                or target.dtype != _dtype.int64):
            bias_shape = tuple(linear_bias.shape) if linear_bias is not None else None
            _warn.warn(
                f"linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
                f"{{'mean','sum','none'}}, label_smoothing == 0, target.dtype == int64, "
                f"out_features == (). Got reduction={reduction!r}, label_smoothing="
                f"{label_smoothing}, target.dtype={target.dtype}, out_features={out_features}, "
                f"tracing=False, linear_bias.shape={bias_shape}.", stacklevel=2)
        else:
            options._check_chunk_size(num_batches[0] if num_batches else 1, in_features,
                                      num_classes)
    classes = math.prod(out_features, start=num_classes)
    logits = F.linear(input, linear_weight.reshape(classes, in_features),
                      None if linear_bias is None else linear_bias.reshape(classes))
    return cross_entropy(logits.reshape(logits_shape), target, weight=weight,
                         reduction=reduction, ignore_index=ignore_index,
                         label_smoothing=label_smoothing)


def _check_linear_cross_entropy(input, linear_weight, linear_bias):
    if not isinstance(input, Tensor):      # (torch's Python reads their dim() first)
        raise attribute_error(input, "dim")
    if not 1 <= input.ndim <= 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.ndim}")
    if not isinstance(linear_weight, Tensor):
        raise attribute_error(linear_weight, "dim")
    if linear_weight.ndim < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.ndim}")
    if input.shape[-1] != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions "
                           f"(in_features), got {input.shape[-1]} and "
                           f"{linear_weight.shape[-1]}, respectively")
    wanted = tuple(linear_weight.shape[:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != wanted:
        raise RuntimeError(f"expected linear_bias shape {wanted}, got "
                           f"{tuple(linear_bias.shape)}")
    if linear_weight.ndim > 2 and input.ndim == 1:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, "
                           f"(N, {input.shape[-1]}), got unbatched input with shape "
                           f"{tuple(input.shape)}")


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """-(target log(input) + (1 - target) log(1 - input)), logs clamped at -100."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if not isinstance(target, Tensor):      # (torch's Python compares target.size() first)
        raise attribute_error(target, "size")
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         f"size.")
    if weight is not None:
        _check_bce_weight(input, weight)
        weight = weight.expand(input.shape)
    return _loss_ops.binary_cross_entropy(input, target, weight, reduction)


def _check_bce_weight(input, weight):
    """torch checks that binary_cross_entropy's weight broadcasts to the input's shape: sizes
    that broadcast neither way first, then a shape wider than the input."""
    w, x = tuple(weight.shape), tuple(input.shape)
    padded = (1,) * (len(w) - len(x)) + x
    for i in range(1, len(w) + 1):
        if 1 != w[-i] != padded[-i] != 1:
            raise RuntimeError(f"Attempting to broadcast a dimension of length {w[-i]} at -{i}! "
                               f"Mismatching argument at index 1 had torch.Size({list(w)}); but "
                               f"expected shape should be broadcastable to {list(padded)}")
    _check_broadcast_into(x, x, w)


def _check_broadcast_into(out, a, b):
    """The in-place broadcast of shapes a and b must keep the shape `out`, as torch's loss
    kernels require of their weights."""
    from .._geometry import broadcast_shapes
    shape = broadcast_shapes(tuple(a), tuple(b))
    if tuple(shape) != tuple(out):
        raise RuntimeError(f"output with shape {list(out)} doesn't match the broadcast shape "
                           f"{list(shape)}")


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
                                     reduce=None, reduction="mean", pos_weight=None):
    """Binary cross entropy of sigmoid(input), computed stably from the logits."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if not isinstance(target, Tensor):      # (torch's Python compares target.size() first)
        raise attribute_error(target, "size")
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    if pos_weight is not None:
        _check_broadcast_into(input.shape, pos_weight.shape, input.shape)
    if weight is not None:
        _check_broadcast_into(input.shape, input.shape, weight.shape)
    return _loss_ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                      reduction)


def _integral(t):
    """Whether `t` holds integers or bools (torch's isIntegralType with bool included)."""
    dtype = t.dtype
    return not (dtype.is_floating_point or dtype.is_complex)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL(target || exp(input)) per element: target (log target - input). torch refuses
    integer and bool tensors."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        tensors("kl_div", (1, "input", input, False), (2, "target", target, False))
    if _integral(input) or _integral(target):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if reduction == "mean":
        _warn.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                   "support size.'batchmean' divides only by the batch size, and aligns with "
                   "the KL div math definition.'mean' will be changed to behave the same as "
                   "'batchmean' in the next major release.", UserWarning, stacklevel=2)
    if log_target:
        losses = target.exp() * (target - input)
    else:
        xlogx = _where(target == 0, 0.0, target * target.log())
        losses = xlogx - target * input
    if reduction == "batchmean":
        total = losses.sum()
        return total / input.shape[0] if input.ndim else total
    return _reduce(losses, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                          reduction="mean"):
    """1 - cos(x1, x2) where target is 1; max(0, cos(x1, x2) - margin) where it is -1.
    torch takes 1-D inputs with a 0-d target, or 2-D ones with a 1-D target."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)     # (torch's Python checks it first)
    if not (isinstance(input2, Tensor) and isinstance(target, Tensor)):
        tensors("cosine_embedding_loss", (1, "input1", input1, False),
                (2, "input2", input2, False), (3, "target", target, False))
    dim = target.ndim
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.ndim != dim + 1 or input2.ndim != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found "
                           f"inputs with sizes {_shape_text(input1.shape)} and "
                           f"{_shape_text(input2.shape)}.")
    eps = 1e-12
    prod = (input1 * input2).sum(dim)
    mag1 = (input1 * input1).sum(dim) + eps
    mag2 = (input2 * input2).sum(dim) + eps
    cos = prod / (mag1 * mag2).sqrt()
    zeros = zeros_like(cos)
    # (torch's C++ computes number - tensor as a tensor filled with the number, minus the
    # tensor: SubBackward0)
    pos = _where(target == 1, full_like(cos, 1) - cos, zeros)
    neg = _where(target == -1, (cos - margin).clamp_min(0), zeros)
    return _reduce(pos + neg, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                        reduction="mean"):
    """max(0, -target (input1 - input2) + margin)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)     # (torch's Python checks it first)
    if not (isinstance(input2, Tensor) and isinstance(target, Tensor)):
        for value in (input1, input2, target):  # (torch's Python compares their dim() first)
            if not isinstance(value, Tensor):
                raise attribute_error(value, "dim")
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same "
                           f"dimension but got sizes: input1: {input1.shape}, input2: "
                           f"{input2.shape}, target: {target.shape} ")
    difference = input1 - input2        # (first, as torch: a bool input's error before -target)
    return _reduce(_loss_ops.add_number(-target * difference, margin).clamp_min(0), reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative))."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)     # (torch's Python checks it first)
    if not (isinstance(positive, Tensor) and isinstance(negative, Tensor)):
        tensors("triplet_margin_loss", (1, "anchor", anchor, False),
                (2, "positive", positive, False), (3, "negative", negative, False))
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have "
                           f"the same number of dimensions, but got: anchor {anchor.ndim}D, "
                           f"positive {positive.ndim}D, and negative {negative.ndim}D inputs")
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _reduce((_loss_ops.add_number(d_pos, margin) - d_neg).clamp_min(0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """input where target is 1; max(0, margin - input) where it is -1. torch computes
    margin - input in a tensor like the input, so an integer input truncates the margin (and
    its integer losses have no mean)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)     # (torch's Python checks it first)
    if _integral(input) and input.dtype is not _dtype.bool:
        margin = int(margin)
    zeros = zeros_like(input)
    below = _where(target != 1, (full_like(input, margin) - input).clamp_min(0), zeros)
    above = _where(target != -1, input, zeros)
    return _reduce(below + above, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input)) (two-class logistic loss with targets +-1)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        tensors("soft_margin_loss", (1, "input", input, False), (2, "target", target, False))
    if target.requires_grad and _grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.")
    return _loss_ops.soft_margin_loss(input, target, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """Binary cross entropy of sigmoid(input) per class, averaged over the classes."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.ndim - 1
    losses = losses.sum(class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):   # (checked last, in torch's own words)
        raise ValueError(reduction + " is not valid")
    return _reduce(losses, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """Negative log likelihood of `target` under Poisson(rate), rate = exp(input) (log_input)
    or input; `full` adds Stirling's term."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)     # (torch's Python checks it first)
    if not isinstance(target, Tensor):
        tensors("poisson_nll_loss", (1, "input", input, False), (2, "target", target, False))
    if log_input:
        losses = input.exp() - target * input
    else:
        losses = input - target * (input + eps).log()
    if full:
        # NOTE: computed over every target and masked after, as torch does (so a target of 0
        # that requires grad gets torch's NaN gradient).
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        losses = losses + _where(target <= 1, 0.0, stirling)
    return _reduce(losses, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """Negative log likelihood of `target` under N(input, var), var clamped at `eps` (the
    clamp passes no gradient, as in torch)."""
    # torch's order of checks: the sign of var, its size, then the reduction
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = input.new_full(tuple(input.shape), var)
    elif not isinstance(var, Tensor):
        # torch takes a float or a tensor: anything else reaches torch.any(var < 0) (an int:
        # any(False), which its parser refuses)
        raise parser_error("any", (var < 0,), {}, True)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    shape, var_shape = tuple(input.shape), tuple(var.shape)
    if var_shape != shape:
        if shape[:-1] == var_shape:         # one variance per row: (N, D) and (N,)
            var = var.unsqueeze(-1)
        # otherwise var may differ from input in one dim only, where it is 1 (broadcast)
        elif not (len(var_shape) == len(shape)
                  and sum(v for s, v in zip(shape, var_shape) if s != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not valid")
    var = var + (var.detach().clamp(min=eps) - var.detach())
    losses = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        losses = losses + 0.5 * math.log(2 * math.pi)
    return _reduce(losses, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """Multi-class hinge loss: sum over classes i != target of
    weight[target] * max(0, margin - input[target] + input[i]) ** p, over the class count."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    if not isinstance(target, Tensor):
        tensors("multi_margin_loss", (1, "input", input, False), (2, "target", target, False))
    return _loss_ops.multi_margin_loss(input, target, p, margin, weight, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Multi-label hinge loss: `target` lists each sample's classes, ended by the first -1."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if not isinstance(target, Tensor):
        tensors("multilabel_margin_loss", (1, "input", input, False),
                (2, "target", target, False))
    return _loss_ops.multilabel_margin_loss(input, target, reduction)
