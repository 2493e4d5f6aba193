"""ember.nn.functional: normalization (batch_norm, layer_norm, group_norm, instance_norm,
rms_norm, local_response_norm). Batch, layer and group norm share one kernel: normalize a view
of the input over some axes, then scale and shift along others; each records one node."""
import math

from .. import _dtype
from .._device import backend_of
from .._memory_format import contiguous_format, follow, row_major, suggested
from .._tensor import Tensor, wrap
from ._argument_types import check_ints, is_int, tensors
from .._ops.activations import apply
from ..autograd.grad_mode import _state as _grad_state, no_grad
from .. import _warn
from . import _batch_norm_kernel as _bn, _layer_norm_kernel as _ln

__all__ = ["batch_norm", "layer_norm", "group_norm", "instance_norm", "rms_norm",
           "local_response_norm"]


from ._normalization_ops import NativeBatchNorm, NativeGroupNorm, NativeLayerNorm, \
    _compute_dtype, _normalize


def _run(op, input, weight, bias, shape, axes, wshape, waxes, eps, training=True, stats=None,
         row_major_out=False, shown=None):
    """Normalize `input` seen as `shape`; `stats` = (mean, rstd) arrays replace the batch's.
    `row_major_out`: the result is row-major whatever the input's layout. `shown`: the node's
    values for torch's saved ones (`Op.shows`), with `stats_shape`, torch's statistics' shape."""
    x = input._data
    xp = backend_of(x).xp
    dtype = _compute_dtype(xp, x.dtype)
    xv = x.reshape(shape).astype(dtype, copy=False)
    w = None if weight is None else weight._data.reshape(wshape).astype(dtype, copy=False)
    b = None if bias is None else bias._data.reshape(wshape).astype(dtype, copy=False)
    if stats is None and op is NativeLayerNorm and x.size and _ln.applies(xv, w, b):
        # torch's moments and rounding (NOTE [ torch's layer norm moments ])
        out, mean, rstd = _ln.layer_norm(xp.ascontiguousarray(xv),
                                         None if w is None else w.reshape(-1),
                                         None if b is None else b.reshape(-1), eps)
        mean, rstd, var = mean[:, None], rstd[:, None], None
    elif stats is None and op is NativeGroupNorm and x.size and _ln.applies(xv, w, b):
        out, mean, rstd = _ln.group_norm(xv, w, b, eps)     # (torch's rounding, as above)
        var = None
    elif stats is None:
        out, mean, rstd, var = _normalize(xp, xv, w, b, axes, eps)
    elif op is NativeBatchNorm and _bn.applies(xv, w, b):
        (mean, rstd), var = stats, None         # (NOTE [ torch's batch norm arithmetic ])
        out = _bn.transform(xv, mean.reshape(-1), rstd.reshape(-1),
                            None if w is None else w.reshape(-1),
                            None if b is None else b.reshape(-1))
    elif op is NativeBatchNorm and _bn.half_applies(x):
        (mean, rstd), var = stats, None         # (NOTE [ torch's half precision batch norm ])
        out = _bn.half_transform(xv, mean.reshape(-1), rstd.reshape(-1),
                                 None if w is None else w.reshape(-1),
                                 None if b is None else b.reshape(-1))
    else:
        (mean, rstd), var = stats, None
        scale = rstd if w is None else rstd * w
        shift = -mean * scale if b is None else b - mean * scale
        out = xv * scale
        out += shift
    result = out.reshape(x.shape).astype(x.dtype, copy=False)
    if row_major_out:
        result = row_major(xp, result)
    elif not x.flags.c_contiguous:
        # NOTE: NumPy keeps a permuted input's layout (and gives a dim of size 1 a stride of
        # its own choosing); torch allocates its suggested format: channels-last with its
        # formula's strides (1x2x3x3: 18, 1, 6, 2), otherwise row-major.
        result = row_major(xp, result) if suggested(x) is contiguous_format else \
            follow(xp, result, x)
    bias_shape, bias_dtype = (None, None) if bias is None else (bias._data.shape,
                                                                 bias._data.dtype)
    half = op is NativeLayerNorm and x.dtype.itemsize == 2 and all(
        t is None or t._data.dtype == x.dtype for t in (weight, bias))
    if half:
        # NOTE [ Half precision layer norm ]: torch keeps a float16/bfloat16 layer norm's
        # statistics in the input's dtype, and its backward reads them back from there; it
        # adds the weight's and bias's gradients row after row into sums of that dtype,
        # rounding at each row.
        mean, rstd = (a.astype(x.dtype).astype(dtype) for a in (mean, rstd))
    params = {"shape": shape, "axes": axes, "wshape": wshape, "waxes": waxes, "eps": eps,
              "training": training, "bias_shape": bias_shape, "bias_dtype": bias_dtype,
              "result1": wrap(mean), "result2": wrap(rstd), "half": half, **(shown or {})}
    return apply(op, (input, weight, bias), result, params), mean, var


def _float_kernel(input, kernel):
    if not input.is_floating_point():
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


def _same_dtypes(input, *others, kernel=None):
    """torch's CPU dtype checks of a normalisation's input and parameters (in torch's order).

    Parameters of another dtype than the input's make a "mixed" call, which torch allows
    only as half precision input with float32 parameters (all of them); otherwise the
    kernel (named `kernel`, when integers reach it) meets the first mismatched parameter."""
    params = [t for t in others if t is not None]
    if params and params[0].dtype is not input.dtype:
        if any(t.dtype is not _dtype.float32 for t in params):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input.dtype not in (_dtype.float16, _dtype.bfloat16):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    if kernel is not None:
        _float_kernel(input, kernel)
    for t in params:
        if t.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found "
                               f"{t.dtype._scalar_name}")


def _dims(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


# -- layer norm ----------------------------------------------------------------------------------

def _normalized_shape(normalized_shape, fn):
    if isinstance(normalized_shape, int) or not hasattr(normalized_shape, "__iter__"):
        raise TypeError(f"{fn}(): argument 'normalized_shape' (position 2) must be tuple of "
                        f"ints, not {type(normalized_shape).__name__}")
    return tuple(int(n) for n in normalized_shape)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalize over the last len(normalized_shape) dims, then scale by `weight` and shift by
    `bias` (both of shape `normalized_shape`)."""
    if eps.__class__ is not float:
        eps = _float_argument(eps, "layer_norm", "eps", 5)
    shape = _normalized_shape(normalized_shape, "layer_norm")
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {_dims(t.shape)} and normalized_shape = "
                               f"{_dims(shape)}")
    k = len(shape)
    if input.ndim < k or tuple(input.shape[input.ndim - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={_dims(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{_dims(input.shape)}")
    _same_dtypes(input, weight, bias, kernel="LayerNormKernelImpl")
    inner = math.prod(shape)
    view = (math.prod(input.shape[:input.ndim - k]), inner)
    # NOTE: torch normalizes a row-major copy into a row-major result
    shown = {"bias_tensor": bias, "normalized_shape": shape,
             "stats_shape": tuple(input.shape[:input.ndim - k]) + (1,) * k}
    return _run(NativeLayerNorm, input, weight, bias, view, (1,), (1, inner), (0,), eps,
                row_major_out=True, shown=shown)[0]


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input / sqrt(mean(input**2 over the last dims) + eps) * weight; `eps` None means the
    dtype's machine epsilon. Composed of ember ops, as torch composes it."""
    shape = _normalized_shape(normalized_shape, "rms_norm")
    k = len(shape)
    if input.ndim < k:
        raise ValueError(f"Input tensor must have at least {k} dimensions, but got {input.ndim}")
    if tuple(input.shape[input.ndim - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={_dims(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size"
                           f"{_dims(input.shape)}")
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {_dims(weight.shape)} and normalized_shape = "
                           f"{_dims(shape)}")
    _float_kernel(input, "rms_norm")
    if weight is not None and weight.dtype != input.dtype:
        _warn.warn(f"Mismatch dtype between input and weight: input dtype = "
                   f"{input.dtype._cpp_name}, weight dtype = {weight.dtype._cpp_name}, Cannot "
                   f"dispatch to fused implementation.", stacklevel=3)
    # NOTE: half precision computes in float32 (its eps too) and rounds once at the end.
    x = input.float() if input.dtype.itemsize < 4 else input
    if eps is None:
        eps = _dtype.finfo(x.dtype).eps
    dims = tuple(range(input.ndim - k, input.ndim))
    out = x * (x.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    if weight is not None:
        out = out * weight
    return out.to(input.dtype) if out.dtype != input.dtype else out   # torch: type_as(input)


# -- batch norm ----------------------------------------------------------------------------------

def _verify_batch_size(size):
    if size[0] * math.prod(size[2:]) == 1:         # (no division: size[1] may be 0)
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{size}")


def _check_channels(name, t, channels):
    if t is not None and t.numel() != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalize each channel (dim 1) over the batch and the other dims; in training the
    running statistics (if given) move by `momentum` toward the batch's (unbiased variance);
    otherwise they are used in place of the batch's."""
    if training:
        _verify_batch_size(input.size())
    if not (running_mean.__class__ is Tensor or running_mean is None) \
            or not (running_var.__class__ is Tensor or running_var is None) \
            or not (weight is None or isinstance(weight, Tensor)) \
            or not (bias is None or isinstance(bias, Tensor)) or not isinstance(input, Tensor):
        _norm_tensors("batch_norm", input, weight, bias, running_mean, running_var)
    _check_momentum("batch_norm", momentum)
    if input.numel() == 0:
        # NOTE: torch's batch_norm returns at once for an empty input, before any check of
        # the channels: a copy scaled by weight[0] and shifted by bias[0] (so that the
        # gradient still reaches them), with the running statistics left as they are.
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out
    # (torch counts no channels below two dims, and its kernel then indexes dim 1)
    channels = input.shape[1] if input.ndim > 1 else 0
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        _check_channels(name, t, channels)
    if input.ndim < 2:
        if not training and (running_mean is None or running_var is None):
            missing = "running_mean" if running_mean is None else "running_var"
            raise RuntimeError(f"{missing} must be defined in evaluation mode")
        n = input.ndim
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(n, 1)}, {max(n, 1) - 1}], but got 1)")
    _float_kernel(input, "batch_norm")
    _same_dtypes(input, weight, bias, running_mean, running_var)
    n = input.shape[0]
    view = (n, channels, input.numel() // max(n * channels, 1))
    wshape = (1, channels, 1)
    if not training:
        if running_mean is None or running_var is None:
            missing = "running_mean" if running_mean is None else "running_var"
            raise RuntimeError(f"{missing} must be defined in evaluation mode")
        xp = backend_of(input._data).xp
        dtype = _compute_dtype(xp, input._data.dtype)
        mean = running_mean._data.astype(dtype).reshape(wshape)
        if _bn.applies(input._data, running_var._data):
            rstd = _bn.running_invstd(running_var._data, eps).reshape(wshape)
        else:
            rstd = 1 / xp.sqrt(running_var._data.astype(dtype).reshape(wshape) + eps)
        shown = {"running_mean": running_mean, "running_var": running_var, "stats_shape": (0,)}
        return _run(NativeBatchNorm, input, weight, bias, view, (0, 2), wshape, (0, 2), eps,
                    training=False, stats=(mean, rstd), shown=shown)[0]
    shown = {"running_mean": running_mean, "running_var": running_var,
             "stats_shape": (channels,)}
    return batch_norm_training(input, weight, bias, running_mean, running_var, view, momentum,
                               eps, shown)[0]


def batch_norm_training(input, weight, bias, running_mean, running_var, view, momentum, eps,
                        shown=None):
    """(output, mean, rstd) of batch norm in training mode over `input` seen as `view` (N, C,
    L), the statistics as (C,) arrays; the running statistics (if given) move toward the
    batch's (its unbiased variance)."""
    channels, wshape = view[1], (1, view[1], 1)
    params = [None if t is None else t._data for t in (weight, bias, running_mean, running_var)]
    if _bn.applies(input._data, *params):
        # torch's arithmetic (NOTE [ torch's batch norm arithmetic ])
        mean, rstd, var_sum = _bn.batch_statistics(input._data.reshape(view), eps) \
            if view[2] > 1 else _bn.row_statistics(input._data.reshape(view[:2]), eps)
        out = _run(NativeBatchNorm, input, weight, bias, view, (0, 2), wshape, (0, 2), eps,
                   stats=(mean.reshape(wshape), rstd.reshape(wshape)), shown=shown)[0]
        with no_grad():
            if running_mean is not None:
                running_mean.copy_(wrap(_bn.moved_mean(params[2], mean, momentum)))
            if running_var is not None:
                running_var.copy_(wrap(_bn.moved_var(params[3], var_sum, view[0] * view[2],
                                                     momentum)))
        return out, mean, rstd
    if _bn.half_applies(input._data) and view[2] > 1:
        return _half_batch_norm_training(input, weight, bias, running_mean, running_var, view,
                                         momentum, eps, shown)
    out, mean, var = _run(NativeBatchNorm, input, weight, bias, view, (0, 2), wshape, (0, 2),
                          eps, shown=shown)
    count = view[0] * view[2]
    # NOTE: the running variance takes the unbiased batch variance, as torch's does.
    _move_toward(running_mean, mean.reshape(channels), momentum)
    _move_toward(running_var, var.reshape(channels) * (count / max(count - 1, 1)), momentum)
    xp = backend_of(var).xp
    rstd = 1 / xp.sqrt(var + eps) if var.size and mean.size else var + float("nan")
    return out, mean.reshape(channels), rstd.astype(input._data.dtype).reshape(channels)


def _half_batch_norm_training(input, weight, bias, running_mean, running_var, view, momentum,
                              eps, shown):
    """batch_norm_training of a float16/bfloat16 input (NOTE [ torch's half precision batch
    norm ])."""
    x = input._data
    dtype = stats_dtype(input, weight, bias, running_mean, running_var)._np
    mean, rstd, var_sum, moving = _bn.half_statistics(x.reshape(view).astype(_bn._F32), eps,
                                                      dtype)
    wshape = (1, view[1], 1)
    out = _run(NativeBatchNorm, input, weight, bias, view, (0, 2), wshape, (0, 2), eps,
               stats=(mean.reshape(wshape), rstd.reshape(wshape)), shown=shown)[0]
    if running_mean is not None:
        with no_grad():
            moved = _bn.half_moved(running_mean._data, running_var._data, moving, var_sum,
                                   view[0] * view[2], momentum)
            running_mean.copy_(wrap(moved[0]))
            running_var.copy_(wrap(moved[1]))
    return out, mean, rstd


def stats_dtype(input, *params):
    """The dtype of batch norm's saved statistics: float32 for a half precision input with
    float32 parameters (torch's "mixed" call), otherwise the input's."""
    given = [t for t in params if t is not None]
    if given and given[0].dtype is not input.dtype and given[0].dtype is _dtype.float32:
        return _dtype.float32
    return input.dtype


def _float_argument(value, fn, name, position):
    """`value` as torch's parser takes a float argument: a real number or a one-element
    tensor of no dimensions."""
    if isinstance(value, Tensor) and value.dim() == 0:
        return value.item()
    if isinstance(value, (int, float)) or hasattr(value, "__float__") and \
            not isinstance(value, (complex, Tensor)):
        return value
    raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be float, not "
                    f"{type(value).__name__}")


def _check_momentum(fn, momentum):
    """torch's functional forms take a number only (momentum None, the modules' cumulative
    average, is worked out by the modules)."""
    if momentum is None:
        raise TypeError(f"{fn}(): argument 'momentum' (position 7) must be float, not NoneType")


def _move_toward(running, batch, momentum):
    """running = (1 - momentum) * running + momentum * batch, in place (one write)."""
    if running is not None:
        old = running._data
        with no_grad():
            running.copy_(wrap((old * (1 - momentum) + batch * momentum).astype(old.dtype)))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalize each channel of each sample over its spatial dims: batch norm of the input
    seen as one sample of N*C channels (so torch's graph ends in a view)."""
    if use_input_stats:
        _verify_spatial_size(input.size())
    _norm_tensors("instance_norm", input, weight, bias, running_mean, running_var)
    _check_momentum("instance_norm", momentum)
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    n, c = input.shape[0], input.shape[1]
    shape = (1, n * c) + tuple(input.shape[2:])
    # NOTE: torch accepts running statistics of another dtype than a float32/float64 input
    # here (not in batch_norm): they are updated in the input's dtype and copied back.
    cast = input.dtype.itemsize >= 4 and input.is_floating_point()
    rm = None if running_mean is None else running_mean.repeat(n)
    rv = None if running_var is None else running_var.repeat(n)
    if cast and rm is not None:
        rm, rv = rm.to(input.dtype), rv.to(input.dtype)
    w = None if weight is None else weight.repeat(n)
    b = None if bias is None else bias.repeat(n)
    out = batch_norm(input.contiguous().view(shape), rm, rv, w, b, use_input_stats,
                     momentum, eps)
    with no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(n, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(n, c).mean(0))
    return out.view(input.shape)


def _norm_tensors(name, input, weight, bias, running_mean, running_var):
    """torch's TypeError for a statistic or an affine parameter that is no tensor, numbered
    as torch.batch_norm/instance_norm(input, weight, bias, running_mean, running_var, ...)
    take them."""
    tensors(name, (1, "input", input, False), (2, "weight", weight, True),
            (3, "bias", bias, True), (4, "running_mean", running_mean, True),
            (5, "running_var", running_var, True))


def _verify_spatial_size(size):
    if math.prod(size[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                         f"{size}")


# -- group norm ----------------------------------------------------------------------------------

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Split the channels (dim 1) into `num_groups` groups and normalize each group of each
    sample; then scale and shift per channel."""
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    n, c = input.shape[0], input.shape[1]
    if num_groups == 0:     # torch's Python wrapper divides by it first
        raise ZeroDivisionError("integer division or modulo by zero")
    # (torch's Python wrapper checks the batch before its binding and kernel check the rest)
    _verify_batch_size([n * c // num_groups, num_groups] + list(input.shape[2:]))
    tensors("group_norm", (3, "weight", weight, True), (4, "bias", bias, True))
    if num_groups <= 0 or c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {_dims(input.shape)} and "
                           f"num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape "
                               f"{_dims(t.shape)} and input of shape {_dims(input.shape)}")
    _same_dtypes(input, weight, bias, kernel="GroupNormKernelImpl")
    view = (n, num_groups, c // num_groups, input.numel() // max(n * c, 1))
    wshape = (1, num_groups, c // num_groups, 1)
    shown = {"N": n, "C": c, "HxW": view[3], "group": num_groups, "stats_shape": (n, num_groups)}
    return _run(NativeGroupNorm, input, weight, bias, view, (2, 3), wshape, (0, 3), eps,
                shown=shown)[0]


# -- local response norm -------------------------------------------------------------------------

def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha/size * sum of squares over `size` neighbouring channels) ** beta,
    composed of ember ops (as torch composes it)."""
    dim = input.ndim
    if dim < 3:
        # NOTE: torch's message has this run of spaces (a wrapped string literal).
        raise ValueError(f"Expected 3D or higher dimensionality{' ' * 26}input (got {dim} "
                         f"dimensions)")
    if input.numel() == 0:
        return input
    if not is_int(size):      # torch pads by size // 2 first: a float fails there
        check_ints("pad", "pad", 2, (0, 0) * (dim - 2) + (size // 2, (size - 1) // 2))
    if size < 1:
        _bad_lrn_size(size, input.shape[1], dim)
    _lrn_pool_dtype(input, dim)
    from ._padding import pad
    sq = (input * input).unsqueeze(1)
    if dim == 3:
        sq = pad(sq, (0, 0, size // 2, (size - 1) // 2))
        window = _window_sum(sq, size, 2).squeeze(1)
    else:
        shape = input.shape
        sq = sq.reshape(shape[0], 1, shape[1], shape[2], -1)
        sq = pad(sq, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        window = _window_sum(sq, size, 2).squeeze(1).reshape(shape)
    div = (window / size * alpha + k).pow(beta)
    return input / div


def _lrn_pool_dtype(input, dim):
    """torch averages over the channels with avg_pool2d (3-D input) or avg_pool3d (more):
    its error for a dtype the pool's CPU kernel lacks (avg_pool3d has no 16-bit one)."""
    kept = (_dtype.float32, _dtype.float64, _dtype.int64) + \
        ((_dtype.float16, _dtype.bfloat16) if dim == 3 else ())
    if input.dtype not in kept:
        kernel = "avg_pool2d" if dim == 3 else "avg_pool3d_out_frame"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


def _bad_lrn_size(size, channels, dim):
    """torch's errors for size < 1: its padding (by size // 2 and (size - 1) // 2) or its
    average pooling over `size` channels fails."""
    if channels + size // 2 + (size - 1) // 2 < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    kernel = f"kH: {size} kW: 1" if dim == 3 else f"kT: {size} kH: 1 kW: 1"
    raise RuntimeError(f"kernel size should be greater than zero, but got {kernel}")


def _window_sum(t, size, dim):
    """Sums of `size` consecutive entries along `dim` (stride 1)."""
    count = t.shape[dim] - size + 1
    total = t.narrow(dim, 0, count)
    for i in range(1, size):
        total = total + t.narrow(dim, i, count)
    return total



# -- the legacy cross-map LRN (nn.CrossMapLRN2d) ---------------------------------------------------

def _cross_map_scale(xp, x, size, alpha, k):
    """k + alpha/size * the running sum of squares torch's legacy loop keeps per channel: the
    first channels' window, then one channel added ahead and one dropped behind (it drops only
    past `pre_pad`, so the window is uneven, as torch's is)."""
    channels = x.shape[1]
    squares = x * x
    pre_pad = int((size - 1) / 2 + 1)
    scale = xp.empty_like(x)
    first = xp.zeros_like(x[:, 0])
    for c in range(min(pre_pad, channels)):
        first = first + squares[:, c]
    scale[:, 0] = first
    for c in range(1, channels):
        current = scale[:, c - 1]
        if c < channels - pre_pad + 1:
            current = current + squares[:, c + pre_pad - 1]
        if c > pre_pad:
            current = current - squares[:, c - pre_pad]
        scale[:, c] = current
    return scale * x.dtype.type(alpha / size) + x.dtype.type(k)


def _cross_map_grad(xp, x, output, scale, grad, size, alpha, beta):
    """torch's legacy backward: scale**-beta * grad, less 2*alpha*beta/size * x times the sum
    of grad*output/scale over each channel's `size`-wide window (shifted by the padding)."""
    channels = x.shape[1]
    grad_input = scale ** x.dtype.type(-beta) * grad
    front = int(size - (size - 1) / 2)
    padded = xp.zeros((x.shape[0], channels + size - 1) + x.shape[2:], x.dtype)
    padded[:, front:front + channels] = grad * output / scale
    accum = padded[:, :size - 1].sum(axis=1)
    factor = x.dtype.type(2 * alpha * beta / size)
    for c in range(channels):
        accum = accum + padded[:, c + size - 1]
        grad_input[:, c] -= factor * x[:, c] * accum
        accum = accum - padded[:, c]
    return grad_input


def _cross_map_function():
    """torch's legacy `CrossMapLRN2d` autograd Function (node `CrossMapLRN2dBackward`), made on
    first use."""
    global _CrossMapLRN2d
    if _CrossMapLRN2d is None:
        from ..autograd import Function

        class CrossMapLRN2d(Function):
            @staticmethod
            def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
                if input.dim() != 4:
                    raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got "
                                     f"{input.dim()}D instead.")
                x = input._data
                xp = backend_of(x).xp
                scale = _cross_map_scale(xp, x, size, alpha, k)
                output = scale ** x.dtype.type(-beta) * x
                ctx.params = (size, alpha, beta)
                ctx.scale = scale
                result = wrap(output)
                ctx.save_for_backward(input, result)
                return result

            @staticmethod
            def backward(ctx, grad_output):
                input, output = ctx.saved_tensors
                if _grad_state.enabled and (grad_output.requires_grad or output.requires_grad):
                    # torch's backward writes with out=, which create_graph refuses
                    raise RuntimeError("mul(): functions with out=... arguments don't support "
                                       "automatic differentiation, but one of the arguments "
                                       "requires grad.")
                x = input._data
                grad = _cross_map_grad(backend_of(x).xp, x, output._data, ctx.scale,
                                       grad_output._data, *ctx.params)
                return wrap(grad), None, None, None, None

        _CrossMapLRN2d = CrossMapLRN2d
    return _CrossMapLRN2d


_CrossMapLRN2d = None
