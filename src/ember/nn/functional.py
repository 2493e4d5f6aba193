"""ember.nn.functional: torch.nn.functional's activations, linear maps and dropout (here), and
re-exports of distances (`_distance.py`), losses (`_losses.py`) and padding (`_padding.py`).
The differentiable kernels are Ops in `_ops/activations.py`, `_ops/dim_activations.py`,
`nn/_loss_ops.py` and `nn/_nll_ops.py`."""
import math

import numpy as _np

from .. import _dtype
from .._ops import activations as _act
from .._ops.activations import celu as _celu_op, hardshrink
from .._ops.dim_activations import glu, log_softmax as _log_softmax, softmax as _softmax
from .._ops.registry import FUNCTIONS as _FUNCTIONS
from .._tensor import Tensor, wrap as _wrap
from ._distance import cosine_similarity, normalize, pairwise_distance, pdist
from ._losses import (_legacy_reduction, binary_cross_entropy,  # noqa: F401
                      binary_cross_entropy_with_logits, cosine_embedding_loss, cross_entropy,
                      gaussian_nll_loss, hinge_embedding_loss, huber_loss, kl_div, l1_loss,
                      linear_cross_entropy, margin_ranking_loss, mse_loss,
                      multilabel_soft_margin_loss, nll_loss, poisson_nll_loss, smooth_l1_loss,
                      soft_margin_loss, triplet_margin_loss)
from ._losses import multi_margin_loss, multilabel_margin_loss
from ._ctc import ctc_loss
from ._padding import pad
from ._distance_losses import triplet_margin_with_distance_loss
from ._gumbel import gumbel_softmax
from ._linear_ops import linear_2d as _linear_2d
from ._conv import *  # noqa: F401,F403,E402
from ._pooling import *  # noqa: F401,F403,E402
from ._unpooling import *  # noqa: F401,F403,E402
from ._normalization import *  # noqa: F401,F403,E402
from ._sparse import *  # noqa: F401,F403,E402
from ._attention import *  # noqa: F401,F403,E402
from ._vision import *  # noqa: F401,F403,E402
from .._ops.argument_errors import type_name as _type_name
from .._tensor_likes import dispatch_refusals as _dispatch_refusals
from .._torch_function import NOT_DISPATCHED as _NOT_DISPATCHED, on_refusal as _on_refusal
from ._argument_types import check_int as _check_int, tensors as _tensors
from .. import _warn

# (torch.prelu, which numbers `weight` as the function's argument 2)
prelu = _FUNCTIONS["prelu"]

__all__ = ["relu", "relu6", "leaky_relu", "prelu", "rrelu", "elu", "selu", "celu", "gelu", "silu",
           "mish", "sigmoid", "tanh", "softmax", "log_softmax", "softmin", "softplus", "softsign",
           "hardtanh", "hardswish", "hardsigmoid", "threshold", "glu", "logsigmoid",
           "hardshrink", "softshrink", "tanhshrink", "linear", "bilinear", "dropout",
           "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
           "relu_", "elu_", "leaky_relu_", "hardtanh_", "threshold_", "rrelu_", "celu_", "selu_",
           "one_hot", "normalize", "cosine_similarity", "pairwise_distance", "pdist", "pad",
           "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy",
           "linear_cross_entropy", "nll_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
           "cosine_embedding_loss", "margin_ranking_loss", "triplet_margin_loss",
           "hinge_embedding_loss", "soft_margin_loss", "multilabel_soft_margin_loss",
           "poisson_nll_loss", "gaussian_nll_loss", "multi_margin_loss",
           "multilabel_margin_loss", "ctc_loss", "triplet_margin_with_distance_loss",
           "gumbel_softmax"]


def _unary(op, input, params, name, inplace=False):
    return _act.unary_call(op, input, params, name, inplace)


# -- activations ---------------------------------------------------------------------------------

def relu(input, inplace=False):
    """max(input, 0)."""
    if not isinstance(input, Tensor):
        result = _on_refusal(relu, (input,), {"inplace": inplace})  # NOTE [ Tensor-likes ]
        if result is not _NOT_DISPATCHED:
            return result
        raise TypeError(f"relu{'_' if inplace else ''}(): argument 'input' (position 1) must "
                        f"be Tensor, not {_type_name(input)}")
    return input.relu_() if inplace else input.relu()


def relu6(input, inplace=False):
    """min(max(input, 0), 6), recorded as hardtanh(0, 6) as in torch."""
    if getattr(input, "is_quantized", False) is True:
        from .._quantized_ops import relu6 as quantized_relu6
        return quantized_relu6(input, inplace)
    return hardtanh(input, 0, 6, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clamped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _unary(_act.Hardtanh, input, {"min_val": min_val, "max_val": max_val}, "hardtanh",
                  inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where positive, else negative_slope * input."""
    return _unary(_act.LeakyRelu, input, {"negative_slope": negative_slope}, "leaky_relu",
                  inplace)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU (random slopes while training, their mean otherwise)."""
    return _act.rrelu(input, lower, upper, training, _inplace=inplace)


def elu(input, alpha=1.0, inplace=False):
    """input where positive, else alpha * (exp(input) - 1)."""
    return _unary(_act.Elu, input, {"alpha": alpha, "scale": 1.0, "input_scale": 1.0}, "elu",
                  inplace)


def selu(input, inplace=False):
    """scale * elu(input, alpha) with SELU's constants."""
    return _act.selu_(input) if inplace else _act.selu(input)


def celu(input, alpha=1.0, inplace=False):
    """max(0, input) + min(0, alpha * (exp(input / alpha) - 1))."""
    return _act.celu_(input, alpha) if inplace else _celu_op(input, alpha)


def gelu(input, *, approximate="none"):
    """input * Phi(input), or its tanh approximation (`approximate` is keyword-only, as in
    torch)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _unary(_act.Gelu, input, {"approximate": approximate}, "gelu")


def silu(input, inplace=False):
    """input * sigmoid(input)."""
    return _unary(_act.Silu, input, {}, "silu", inplace)


def mish(input, inplace=False):
    """input * tanh(softplus(input))."""
    return _unary(_act.Mish, input, {}, "mish", inplace)


def hardswish(input, inplace=False):
    """input * relu6(input + 3) / 6."""
    return _unary(_act.Hardswish, input, {}, "hardswish", inplace)


def hardsigmoid(input, inplace=False):
    """relu6(input + 3) / 6."""
    return _unary(_act.Hardsigmoid, input, {}, "hardsigmoid", inplace)


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta * input)) / beta (linear above `threshold`)."""
    return _unary(_act.Softplus, input, {"beta": beta, "threshold": threshold}, "softplus")


def logsigmoid(input):
    """log(sigmoid(input)), computed stably."""
    return _unary(_act.LogSigmoid, input, {}, "log_sigmoid")


def softshrink(input, lambd=0.5):
    """input - lambd above lambd, input + lambd below -lambd, else 0. torch refuses a lambd
    outside [0, the dtype's largest finite value] (after its check of the dtype)."""
    if input.dtype.is_floating_point:
        top = _dtype.finfo(input.dtype).max
        if not 0 <= lambd <= top:
            raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype "
                               f"{input.dtype._scalar_name}, but found {lambd:g}")
    return _unary(_act.Softshrink, input, {"lambd": lambd}, "softshrink")


def threshold(input, threshold, value, inplace=False):
    """input where input > threshold, else value."""
    return _unary(_act.Threshold, input, {"threshold": threshold, "value": value}, "threshold",
                  inplace)


def softsign(input):
    """input / (1 + |input|)."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    """input - tanh(input)."""
    return input - input.tanh()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def _softmax_dim(name, ndim):
    _warn.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
               "to include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(input) / sum(exp(input)) along `dim`."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())     # (torch reads input.dim())
    if not isinstance(input, Tensor):     # torch calls input.softmax(dim): AttributeError
        return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)
    return _softmax(input, dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input) along `dim`."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())     # (torch reads input.dim())
    if not isinstance(input, Tensor):     # torch calls (-input).softmax(dim)
        return (-input).softmax(dim) if dtype is None else (-input).softmax(dim, dtype=dtype)
    return _softmax(-input if dtype is None else -input.to(dtype), dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(input)) along `dim`, computed stably."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())     # (torch reads input.dim())
    if not isinstance(input, Tensor):     # torch calls input.log_softmax(dim): AttributeError
        return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)
    return _log_softmax(input, dim, dtype)


# -- linear maps and dropout ---------------------------------------------------------------------


def linear(input, weight, bias=None):
    """input @ weight.T + bias."""
    out = _linear_2d(input, weight, bias)      # the common float 2-D case, in one kernel
    if out is not None:
        return out
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)) or \
            not (bias is None or isinstance(bias, Tensor)):
        _linear_argument_error(input, weight, bias)
    if input.ndim == 0 or weight.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.ndim}D and {weight.ndim}D")
    if input._data.__class__ is not weight._data.__class__:   # (torch checks input first)
        from .._ops.elementwise import check_same_device
        check_same_device(input, weight)
    addmm = _FUNCTIONS.get("addmm")
    if bias is None or addmm is None or weight.ndim != 2:
        out = input.matmul(weight.t()) if weight.ndim == 2 else input.matmul(weight)
        return out if bias is None else out + bias
    # NOTE: as torch does, one addmm over the flattened leading dims (AddmmBackward0), then a
    # view back when the input is not 2-D (ViewBackward0); a non-contiguous input is a matmul
    # (NOTE [ matmul's graph ]) and an add.
    if input.ndim == 2:
        return addmm(bias, input, weight.t())
    if not input.is_contiguous():       # (torch folds only a contiguous input into its addmm)
        return input.matmul(weight.t()) + bias
    # NOTE: the row count spelled out: reshape(-1, 0) of an empty input would be ambiguous
    rows = input.reshape(math.prod(input.shape[:-1]), input.shape[-1])
    flat = _linear_2d(rows, weight, bias)
    if flat is None:
        flat = addmm(bias, rows, weight.t())
    return flat.view(tuple(input.shape[:-1]) + (weight.shape[0],))


def _linear_argument_error(input, weight, bias):
    for position, (arg, value) in enumerate((("input", input), ("weight", weight),
                                             ("bias", bias)), 1):
        if not isinstance(value, Tensor) and (value is not None or arg != "bias"):
            raise TypeError(f"linear(): argument '{arg}' (position {position}) must be Tensor, "
                            f"not {_type_name(value)}")


def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = input1[..., i] weight[o, i, j] input2[..., j] + bias[o]."""
    _check_bilinear(input1, input2, weight, bias)
    lead = tuple(input1.shape[:-1])
    x1 = input1.reshape(-1, 1, 1, input1.shape[-1])          # (B, 1, 1, in1)
    x2 = input2.reshape(-1, 1, input2.shape[-1])             # (B, 1, in2)
    y = x1.matmul(weight).squeeze(2)                         # (B, out, in2)
    y = (y * x2).sum(-1).view(lead + (weight.shape[0],))
    return y if bias is None else y + bias


def _check_bilinear(input1, input2, weight, bias):
    """torch's checks of F.bilinear's operands, in its order and words."""
    _tensors("bilinear", (1, "input1", input1, False), (2, "input2", input2, False),
            (3, "weight", weight, False), (4, "bias", bias, True))
    named = [("input1", input1), ("input2", input2), ("weight", weight)] + \
        ([("bias", bias)] if bias is not None else [])
    if len({t.dtype for _, t in named}) > 1:
        got = ", ".join(f"{n}: {t.dtype._cpp_name}" for n, t in named)
        raise RuntimeError(f"All tensors must have the same dtype, got {got}")
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and "
                           f"{input2.ndim}")
    if weight.ndim != 3 or input1.ndim == 0:
        return
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: "
                               f"got {input1.shape[i]} and {input2.shape[i]}")
    for n, t, k in (("input1", input1, 1), ("input2", input2, 2)):
        if t.shape[-1] != weight.shape[k]:
            raise RuntimeError(f"bilinear(): {n} size does not match weight size: got "
                               f"{t.shape[-1]} but expected {weight.shape[k]}")
    if bias is not None and bias.ndim and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[0]} but expected {weight.shape[0]}")


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout(input, p, training, inplace, feature=False, alpha=False):
    if not isinstance(input, Tensor):     # (torch's parser refuses it even when not training)
        raise TypeError("dropout of no tensor")     # (worded by _PARSED's refusal path)
    _check_p(p)
    return _act.dropout_impl(input, p, training, inplace, feature, alpha)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p while training, scaling the rest by 1/(1-p)."""
    return _dropout(input, p, training, inplace)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout that keeps SELU's self-normalisation (zero mean, unit variance)."""
    return _dropout(input, p, training, inplace, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels."""
    return _dropout(input, p, training, inplace, feature=True, alpha=True)


def _channel_dropout(input, p, training, inplace, name, spatial):
    """Zero whole channels (dim 1; dim 0 for unbatched input of spatial + 1 dims)."""
    _check_p(p)
    batched = spatial + 2
    if input.ndim not in (batched - 1, batched):
        raise RuntimeError(f"{name}: Expected {batched - 1}D or {batched}D input, but received "
                           f"a {input.ndim}D input. Note that {name} exists to provide "
                           f"channel-wise dropout on inputs with {spatial} spatial dimension"
                           f"{'s' if spatial > 1 else ''}, a channel dimension, and an "
                           f"optional batch dimension (i.e. {batched - 1}D or {batched}D "
                           f"inputs).")
    if input.ndim == batched:
        return _dropout(input, p, training, inplace, feature=True)
    return _unbatched_dropout(input, p, training, inplace)


def _unbatched_dropout(input, p, training, inplace):
    """Channel dropout of an input without its batch dim, as torch's functions do it: in
    place, the input itself gains and loses the batch dim (UnsqueezeBackward1 and
    SqueezeBackward4 nodes, whether or not dropout ran)."""
    if inplace:
        return _dropout(input.unsqueeze_(0), p, training, True, feature=True).squeeze_(0)
    return _dropout(input.unsqueeze(0), p, training, False, feature=True).squeeze(0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) or (C, L) input."""
    return _channel_dropout(input, p, training, inplace, "dropout1d", 1)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) input (3-D input: channels of (N, C, L), as torch
    still does)."""
    _check_p(p)
    _warn_dims(input, "dropout2d", 2)
    if input.ndim == 3:
        _warn.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                   "channel-wise 1D dropout behavior is desired - input is interpreted as "
                   "shape (N, C, L), where C is the channel dim. This behavior will change in "
                   "a future release to interpret the input as one without a batch "
                   "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout "
                   "behavior, please switch to using dropout1d instead.", stacklevel=2)
    return _dropout(input, p, training, inplace, feature=True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) input."""
    _check_p(p)
    _warn_dims(input, "dropout3d", 3)
    if input.ndim == 5:
        return _dropout(input, p, training, inplace, feature=True)
    return _unbatched_dropout(input, p, training, inplace)


def _warn_dims(input, name, spatial):
    """dropout2d/3d accept other dims than theirs, with torch's deprecation warning."""
    batched = spatial + 2
    if input.ndim not in (batched - 1, batched):
        _warn.warn(f"{name}: Received a {input.ndim}-D input to {name}, which is deprecated "
                   f"and will result in an error in a future release. To retain the "
                   f"behavior and silence this warning, please use dropout instead. Note "
                   f"that {name} exists to provide channel-wise dropout on inputs with "
                   f"{spatial} spatial dimensions, a channel dimension, and an optional "
                   f"batch dimension (i.e. {batched - 1}D or {batched}D inputs).",
                   stacklevel=3)


# -- encodings -----------------------------------------------------------------------------------

def one_hot(tensor, num_classes=-1):
    """int64 tensor with a trailing dim of `num_classes`: 1 at each value's index."""
    from .._creation import arange
    if num_classes.__class__ is not int:
        _check_int("one_hot", "num_classes", 2, num_classes)
    if tensor.dtype is not _dtype.int64:
        if not isinstance(tensor, Tensor):
            raise TypeError(f"one_hot(): argument 'input' (position 1) must be Tensor, not "
                            f"{_type_name(tensor)}")
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor._data.__class__ is _np.ndarray:
        return _one_hot_numpy(tensor._data, num_classes)
    if tensor.numel() and not tensor.is_meta and bool((tensor < 0).any()):
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if tensor.numel() == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(tensor.max()) + 1
    elif tensor.numel() and not tensor.is_meta and int(tensor.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return (tensor.unsqueeze(-1) == arange(num_classes, device=tensor.device)).long()


def _one_hot_numpy(t, num_classes):
    """one_hot of a CPU tensor's int64 array `t`: the checks above on the array's min and max,
    then a 1 written at each value's position of a zeroed result."""
    if t.size and _np.minimum.reduce(t, axis=None) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not t.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(_np.maximum.reduce(t, axis=None)) + 1
    elif t.size and _np.maximum.reduce(t, axis=None) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = _np.zeros(t.shape + (num_classes,), _np.int64)
    if t.size:
        flat = out.reshape(-1)
        flat[_np.arange(0, flat.size, num_classes) + t.reshape(-1)] = 1
    return _wrap(out)


# -- in-place forms -------------------------------------------------------------------------------

def relu_(input):
    return relu(input, inplace=True)


def elu_(input, alpha=1.0, scale=1.0, input_scale=1.0):
    # (torch's F.elu_ is its native elu_, which takes ELU's scales too)
    return _unary(_act.Elu, input, {"alpha": alpha, "scale": scale, "input_scale": input_scale},
                  "elu", True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    # (torch's F.hardtanh_ is its native hardtanh_, which does not check min_val <= max_val:
    # the result is then max_val everywhere)
    return _unary(_act.Hardtanh, input, {"min_val": min_val, "max_val": max_val}, "hardtanh",
                  True)


def threshold_(input, threshold, value):
    return _unary(_act.Threshold, input, {"threshold": threshold, "value": value},
                  "threshold_", True)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)


def celu_(input, alpha=1.0):
    return _act.celu_(input, alpha)


def selu_(input):
    return _act.selu_(input)



def _export_families():
    from . import _attention, _conv, _normalization, _pooling, _sparse, _unpooling, _vision
    for family in (_conv, _pooling, _unpooling, _normalization, _sparse, _attention, _vision):
        __all__.extend(name for name in family.__all__ if name not in __all__)


_export_families()


def __getattr__(name):
    # torch.nn.functional.grad is torch.nn.grad (imported there); here on first use, as
    # nn.grad imports this module
    if name == "grad":
        from . import grad
        return grad
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The functions whose input torch's argument parser reads first (they are, or end at once in,
# native operators), with the operator's name as its TypeError gives it (the pools check
# their input themselves, with their other int[] arguments: _pooling._refused)
_PARSED = {name: name for name in (
    "relu6", "elu", "elu_", "selu", "selu_", "celu", "celu_", "gelu", "silu", "mish",
    "hardtanh", "hardtanh_", "leaky_relu", "leaky_relu_", "rrelu", "rrelu_", "softplus",
    "hardswish", "hardsigmoid", "softshrink", "hardshrink", "threshold", "threshold_",
    "dropout", "alpha_dropout", "feature_alpha_dropout", "layer_norm", "rms_norm", "pad",
    "pixel_shuffle", "pixel_unshuffle", "one_hot", "channel_shuffle", "native_channel_shuffle",
    "pdist", "adaptive_avg_pool1d", "adaptive_max_pool1d", "multi_margin_loss",
    "multilabel_margin_loss", "poisson_nll_loss", "hinge_embedding_loss")}
_PARSED.update(logsigmoid="log_sigmoid", nll_loss="nll_loss_nd", unfold="im2col",
               fold="col2im", multilabel_soft_margin_loss="log_sigmoid",
               gumbel_softmax="empty_like", adaptive_max_pool1d_with_indices="adaptive_max_pool1d",
               triplet_margin_loss=("triplet_margin_loss", "anchor"),
               cosine_embedding_loss=("cosine_embedding_loss", "input1"))

# The functions whose torch Python code first calls methods of its arguments (NOTE [ What
# torch's Python reads ]): (position, method) in torch's order
_DIM, _SIZE = ((0, "dim"),), ((0, "size"),)
_READS = {**dict.fromkeys(("group_norm", "interpolate", "upsample", "upsample_nearest",
                           "upsample_bilinear", "dropout1d", "dropout2d", "dropout3d", "glu",
                           "local_response_norm", "embedding_bag"), _DIM),
          **dict.fromkeys(("adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool2d",
                           "adaptive_max_pool3d", "adaptive_max_pool2d_with_indices",
                           "adaptive_max_pool3d_with_indices", "max_unpool1d", "max_unpool2d",
                           "max_unpool3d"), _SIZE),
          "binary_cross_entropy": ((1, "size"), (0, "size")),
          "binary_cross_entropy_with_logits": ((1, "size"), (0, "size")),
          "margin_ranking_loss": ((0, "dim"), (1, "dim"), (2, "dim")),
          "affine_grid": ((0, "is_floating_point"),)}

# NOTE [ Tensor-likes ]: F.relu has its own refusal path; sigmoid and tanh are methods' calls
_dispatch_refusals(globals(), skip=("relu", "sigmoid", "tanh"), parsed=_PARSED, reads=_READS)
