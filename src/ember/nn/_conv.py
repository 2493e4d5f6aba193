"""ember.nn.functional: convolutions (conv1d/2d/3d, conv_transpose1d/2d/3d, conv_tbc), and
unfold / fold from `_fold.py`. One op, `Convolution` (torch's ConvolutionBackward0), serves both
directions; the weight gradient is a second op, so that gradients of gradients are convolutions
again. The array kernels live in `_conv_kernels.py` (see NOTE [ Convolution kernels ] there)."""
import math

import numpy as np

from .. import _memory_format as _mf
from .._device import MetaArray, backend_of
from .._ops._op import Op
from .._parallel import get_num_threads
from .._ops.activations import apply
from ..autograd.grad_mode import _state as _grad_state
from . import _conv_kernels as kernels
from ._fold import fold, unfold
from ._padding import constant_pad
from .._ops.argument_errors import type_name
from ._argument_types import conv_refused, conv_transpose_refused, is_int
from .._config import warn_once

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "conv_tbc", "unfold", "fold"]


# -- the ops -----------------------------------------------------------------------------------

class Convolution(Op):
    """convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
    groups), as torch's aten::convolution. Backward: the input gradient is the convolution in
    the other direction, the weight gradient a ConvolutionWeight op, the bias gradient a sum."""
    inputs = ("input", "weight", "bias")
    # (torch saves both whichever needs grad: writing either in place before backward is an
    # error even where that gradient would not read it)
    saves = {"input": ("input", "weight"), "weight": ("input", "weight")}
    # torch also saves the arguments (grad_fn._saved_stride, ...) and the bias's size
    shows = {"bias_sym_sizes_opt": "_bias_size", "dilation": "dilation", "groups": "groups",
             "output_padding": "output_padding", "padding": "padding", "stride": "stride",
             "transposed": "transposed"}

    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        need_input, need_weight, need_bias = ctx.needs_input_grad
        params = (ctx.stride, ctx.padding, ctx.dilation)
        # NOTE: the forward's columns serve the weight gradient once, then go (a second
        # backward through a retained graph recomputes them).
        columns = ctx.__dict__.pop("_columns", None)
        if ctx._input_shape[1] == 0 and not ctx.transposed:     # nothing flows back
            return (grad.new_zeros(ctx._input_shape) if need_input else None,
                    grad.new_zeros(ctx._weight_shape) if need_weight else None, None)
        grad_input = grad_weight = grad_bias = None
        if need_input:
            if ctx.transposed:
                grad_input = convolution(grad, weight, None, *params, False, None, ctx.groups)
                if tuple(grad_input.shape) != ctx._input_shape:
                    # an output_padding of at least the stride (allowed below the dilation)
                    # adds output positions past the last window: the input ends before them
                    for d, size in enumerate(ctx._input_shape[2:], 2):
                        grad_input = grad_input.narrow(d, 0, size)
            else:
                extra = _output_padding_for(ctx._input_shape[2:], grad.shape[2:], ctx._kernel,
                                            *params)
                grad_input = convolution(grad, weight, None, *params, True, extra, ctx.groups)
        if need_weight:
            if ctx.transposed:
                grad_weight = conv_weight(grad, input, ctx._kernel, *params, ctx.groups)
            else:
                grad_weight = conv_weight(input, grad, ctx._kernel, *params, ctx.groups, columns)
        if need_bias:
            grad_bias = grad.sum(dim=[0] + list(range(2, grad.ndim)))
        return grad_input, grad_weight, grad_bias


def _output_padding_for(in_size, out_size, kernel, stride, padding, dilation):
    """The output_padding with which the transposed convolution of `out_size` gives `in_size`."""
    return tuple(i + 2 * p - ((o - 1) * s + d * (k - 1) + 1) for i, o, k, s, p, d
                 in zip(in_size, out_size, kernel, stride, padding, dilation))


def _transposed_forward(xp, x, w, b, stride, padding, dilation, groups, output_padding):
    """The transposed convolution plus bias. bfloat16 computes in float32 and rounds once, as
    torch's CPU kernel does (its float16 kernel rounds each step, as the kernel here does)."""
    dtype = x.dtype
    if x.__class__ is MetaArray:            # geometry only (NOTE [ The meta backend ])
        size = tuple((i - 1) * s - 2 * p + d * (k - 1) + o + 1 for i, k, s, p, d, o in zip(
            x.shape[2:], w.shape[2:], stride, padding, dilation, output_padding or
            (0,) * (x.ndim - 2)))
        return MetaArray((x.shape[0], w.shape[1] * groups) + size, dtype)
    wide = dtype.name == "bfloat16"
    if wide:
        x, w = x.astype(xp.float32), w.astype(xp.float32)
        b = None if b is None else b.astype(xp.float32)
    out = kernels.conv_transpose(xp, x, w, stride, padding, dilation, groups, output_padding)
    if b is not None:
        out += b.reshape((-1,) + (1,) * (out.ndim - 2))
    return out.astype(dtype) if wide else out


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    """aten::convolution on checked arguments (tuples over the spatial dims): runs the kernel
    and records a Convolution node."""
    x, w = input._data, weight._data
    if x.__class__ is not w.__class__:
        from .._ops.elementwise import check_same_device
        check_same_device(input, weight)
    bias_size = (0,) if bias is None else bias._data.shape
    xp = backend_of(x).xp
    columns = None
    if transposed:
        out = _transposed_forward(xp, x, w, None if bias is None else bias._data, stride,
                                  padding, dilation, groups, output_padding)
    elif x.__class__ is MetaArray:          # geometry only (NOTE [ The meta backend ])
        size = kernels.output_size(x.shape[2:], w.shape[2:], stride, padding, dilation)
        out = MetaArray((x.shape[0], w.shape[0]) + tuple(size), x.dtype)
    elif x.shape[1] == 0:
        # NOTE: as torch does, an input without channels gives an output without channels.
        size = kernels.output_size(x.shape[2:], w.shape[2:], stride, padding, dilation)
        out, bias = xp.zeros((x.shape[0], 0) + size, x.dtype), None
    else:
        out, columns = kernels.conv_forward(xp, x, w, None if bias is None else bias._data,
                                            stride, padding, dilation, groups)
    params = {"stride": stride, "padding": padding, "dilation": dilation,
              "transposed": transposed, "output_padding": output_padding, "groups": groups,
              "_input_shape": x.shape, "_weight_shape": w.shape, "_kernel": w.shape[2:],
              "_bias_size": bias_size}
    if columns is not None and weight._requires_grad and _grad_state.enabled:
        params["_columns"] = columns
    else:
        kernels.release_columns(columns)
    if out.__class__ is not MetaArray and (x.ndim < 5 or _onednn(input, weight, groups,
                                                                 stride, dilation)):
        # a channels-last input gives a channels-last output (torch's meta convolution is
        # row-major, and so are its own 3-d kernels' results; oneDNN's follow the input)
        out = _mf.follow(xp, out, x, w)
    return apply(Convolution, (input, weight, bias), out, params)


class ConvolutionWeight(Op):
    """The weight gradient of a convolution, d<conv(input, w), grad_output>/dw, as its own op
    so that it has gradients: both are convolutions with the incoming weight gradient."""
    inputs = ("input", "grad_output")
    saves = {"input": ("grad_output",), "grad_output": ("input",)}
    node_name = "ConvolutionBackwardBackward0"

    def backward(ctx, grad):
        input, grad_output = ctx.saved_tensors
        need_input, need_grad_output = ctx.needs_input_grad
        params = (ctx.stride, ctx.padding, ctx.dilation)
        grad_input = grad_grad_output = None
        if need_input:
            extra = _output_padding_for(ctx._input_shape[2:], grad_output.shape[2:],
                                        grad.shape[2:], *params)
            grad_input = convolution(grad_output, grad, None, *params, True, extra, ctx.groups)
        if need_grad_output:
            grad_grad_output = convolution(input, grad, None, *params, False, None, ctx.groups)
        return grad_input, grad_grad_output


def conv_weight(input, grad_output, kernel, stride, padding, dilation, groups, columns=None):
    """The weight gradient d<conv(input, w), grad_output>/dw (a ConvolutionWeight node)."""
    x, g = input._data, grad_output._data
    if x.__class__ is MetaArray:            # geometry only (NOTE [ The meta backend ])
        out = MetaArray((g.shape[1], x.shape[1] // groups) + tuple(kernel), x.dtype)
        return apply(ConvolutionWeight, (input, grad_output), out,
                     {"stride": stride, "padding": padding, "dilation": dilation,
                      "groups": groups, "_input_shape": x.shape})
    out = kernels.conv_weight(backend_of(x).xp, x, g, tuple(kernel), stride, padding, dilation,
                              groups, columns)
    params = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups,
              "_input_shape": x.shape}
    return apply(ConvolutionWeight, (input, grad_output), out, params)


# -- argument checks, as torch's ----------------------------------------------------------------

def _expand(value, k, name):
    """An int or a sequence as a k-tuple (a sequence of one value is repeated)."""
    if isinstance(value, int):
        return (value,) * k
    if isinstance(value, np.integer):   # (`env.action_space.n`: torch's parser takes it)
        return (int(value),) * k
    if type(value) is tuple and len(value) == k and all(type(v) is int for v in value):
        return value                    # the common case, already normalised
    if not all(map(is_int, value)):     # (the functions' callers word torch's TypeError)
        raise TypeError(f"{name} must be ints")
    value = tuple(int(v) for v in value)
    if len(value) == 1 and k != 1:
        return value * k
    if len(value) != k:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {k} "
                           f"values to match the convolution dimensions, but got "
                           f"{name}={list(value)}")
    return value


def _sizes(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _check(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """torch's checks of aten::convolution's arguments, in torch's order; returns them as
    tuples over the weight's spatial dims."""
    x_shape, w = input._data.shape, list(weight._data.shape)
    k = len(w) - 2
    _check_weight_dims_and_groups(w, groups)
    stride = _expand(stride, k, "stride")
    padding = _expand(padding, k, "padding")
    dilation = _expand(dilation, k, "dilation")
    output_padding = _expand(output_padding, k, "output_padding")
    if min(padding, default=0) < 0:
        raise RuntimeError("negative padding is not supported")
    if min(output_padding, default=0) < 0:
        raise RuntimeError("negative output_padding is not supported")
    if min(stride, default=1) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation, default=1) < 0:
        raise RuntimeError("dilation should be greater than zero")
    if len(x_shape) != len(w):
        raise RuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-"
                           f"dimensional weight {_sizes(w)}, but got {input.ndim}-dimensional "
                           f"input of size {_sizes(input.shape)} instead")
    if w[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at "
                           f"dimension 0, but got weight of size {_sizes(w)} instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{_sizes(w)}] instead")
    channels = w[0] if transposed else w[1] * groups
    if x_shape[1] != channels:
        given = f"transposed={int(transposed)}" if transposed else f"groups={groups}"
        raise RuntimeError(f"Given {given}, weight of size {_sizes(w)}, expected "
                           f"input{_sizes(input.shape)} to have {channels} channels, but got "
                           f"{input.shape[1]} channels instead")
    out_channels = w[1] * groups if transposed else w[0]
    if bias is not None and bias._data.shape != (out_channels,):
        given = "transposed=1, " if transposed else ""
        raise RuntimeError(f"Given {given}weight of size {_sizes(w)}, expected bias to be "
                           f"1-dimensional with {out_channels} elements, but got bias of size "
                           f"{_sizes(bias.shape)} instead")
    spatial = x_shape[2:]
    out = [(i - 1) * s - 2 * p + d * (kk - 1) + op + 1 for i, kk, s, p, d, op
           in zip(spatial, w[2:], stride, padding, dilation, output_padding)]
    if not transposed:
        padded = [i + 2 * p for i, p in zip(spatial, padding)]
        extent = [d * (kk - 1) + 1 for kk, d in zip(w[2:], dilation)]
        if any(p < e for p, e in zip(padded, extent)):
            raise RuntimeError(f"Calculated padded input size per channel: "
                               f"({' x '.join(map(str, padded))}). Kernel size: "
                               f"({' x '.join(map(str, extent))}). Kernel size can't be greater "
                               f"than actual input size")
    # NOTE: then torch picks a kernel. An empty batch (or no channels) goes to none (no
    # dilation or output_padding checks): it views a product of the input as the output's
    # shape, with view's errors (a 1-d convolution runs as a 2-d one of height 1); other
    # empty inputs are refused; the kernels check the rest.
    if x_shape[0] == 0 or x_shape[1] == 0:
        if transposed and x_shape[1] and min(out, default=0) < 0:
            input.view([0, w[1] * groups] + [1] * (k == 1) + out)
    elif 0 in spatial:
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got "
                           f"input shape: {_sizes(x_shape)}")
    else:
        onednn = _onednn(input, weight, groups)
        if min(dilation, default=1) == 0 and not transposed and onednn:
            raise RuntimeError("non-positive dilation is not supported")
        _check_zero_dilation(dilation, transposed, onednn)
        if transposed:
            _check_output_padding(output_padding, stride, dilation)
            if min(out, default=1) <= 0:
                _check_transposed_size(input, weight, groups, stride, dilation,
                                       output_padding, spatial, out)
    _check_dtypes(input, weight, bias, groups)
    return stride, padding, dilation, output_padding


def _check_weight_dims_and_groups(w, groups):
    """torch's first checks of a convolution (and of a 'same' one)."""
    if len(w) < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")


def _check_transposed_size(input, weight, groups, stride, dilation, output_padding, spatial,
                           out):
    """torch's error for a transposed convolution whose output would be empty: oneDNN makes
    an empty output and refuses a negative size; torch's own kernels refuse both (and run a
    1-d convolution as a 2-d one of height 1)."""
    if _onednn(input, weight, groups, stride, dilation) and all(
            op < s for op, s in zip(output_padding, stride)):
        if min(out) < 0:
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        return
    if len(spatial) == 1:
        spatial, out = (1,) + tuple(spatial), [1] + out
    raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, spatial))}). "
                       f"Calculated output size per channel: ({' x '.join(map(str, out))}). "
                       f"Output size is too small")


def _check_zero_dilation(dilation, transposed, onednn):
    """A zero dilation passes aten::convolution's checks (negative ones do not; oneDNN's own
    check refuses it early for a direct convolution) and is refused by torch's kernels, which
    word it differently (1-d convolutions run as 2-d ones)."""
    if min(dilation, default=1) > 0:
        return
    if onednn and len(dilation) == 3:
        raise RuntimeError("dimensions are invalid")
    if onednn:
        raise RuntimeError("could not create a primitive descriptor for the deconvolution "
                           "forward propagation primitive. Run workload with environment "
                           "variable ONEDNN_VERBOSE=all to get additional diagnostic "
                           "information.")
    if len(dilation) == 1:
        dilation = (1,) + tuple(dilation)
    if not transposed:
        raise RuntimeError(f"dilation should be greater than zero, but got {_sizes(dilation)}")
    names = ("depth", "height", "width")[-len(dilation):]
    raise RuntimeError("dilation should be greater than zero, but got " + ", ".join(
        f"dilation_{n}: {d}" for n, d in zip(names, dilation)))


def _check_output_padding(output_padding, stride, dilation):
    if all(op < s or op < d for op, s, d in zip(output_padding, stride, dilation)):
        return
    names = ("depth", "height", "width")[-len(stride):]
    values = output_padding, stride, dilation
    if len(stride) == 1:        # torch runs 1-d transposed convolutions as 2-d ones
        names = ("height", "width")
        values = tuple((v0,) + v for v0, v in zip((0, 1, 1), values))
    parts = [f"{label}_{n}: {v}" for label, vs in zip(("output_padding", "stride", "dilation"),
                                                      values) for n, v in zip(names, vs)]
    raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                       + " ".join(parts))


def _check_dtypes(input, weight, bias, groups):
    dtype = input._data.dtype
    if weight._data.dtype != dtype:
        # NOTE: torch words this after its own dispatch: bfloat16 inputs, and float32 inputs
        # its heuristic sends there, go to oneDNN, whose check names both legacy tensor types.
        if input.dtype._scalar_name == "BFloat16" or (
                input.dtype._scalar_name == "Float" and _onednn_float(input, weight, groups)):
            raise RuntimeError(f"Input type ({_legacy_type(input)}) and weight type "
                               f"({_legacy_type(weight)}) should be the same or input should "
                               f"be a MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found "
                           f"{weight.dtype._scalar_name}")
    _check_bias_dtype(input, bias)
    if dtype.kind == "b":
        raise NotImplementedError("\"slow_conv2d_cpu\" not implemented for 'Bool'")


def _onednn(input, weight, groups, stride=None, dilation=None):
    """Whether torch runs this convolution through oneDNN (bfloat16 always; float32 by its
    heuristic)."""
    name = input.dtype._scalar_name
    return name == "BFloat16" or (name == "Float" and _onednn_float(input, weight, groups,
                                                                    stride, dilation))


def _onednn_float(input, weight, groups, stride=None, dilation=None):
    """torch's choice of oneDNN for a float32 convolution: grouped, a kernel above 3x3, a batch
    above one, or a large first image; and, on one thread, not for an unstrided, undilated
    1x1 kernel on a small input (torch views 1-d convolutions as 2-d ones of height 1)."""
    x, w = input.shape, weight.shape
    if stride is not None and get_num_threads() == 1 and math.prod(w[2:]) == 1 and \
            max(stride) == 1 and max(dilation) == 1 and math.prod(x) < 16384:
        return False
    height = w[-2] if len(w) > 3 else 1
    return groups > 1 or (w[-1] > 3 and height > 3) or x[0] > 1 or math.prod(x[:4]) > 20480


def _check_bias_dtype(input, bias):
    if bias is not None and bias._data.dtype != input._data.dtype:
        raise RuntimeError(f"Input type ({_type_name(input)}) and bias type ({_type_name(bias)}) "
                           f"should be the same")


def _type_name(t):
    return t.dtype._cpp_name


def _legacy_type(t):
    name = t.dtype._scalar_name
    return "CPUBFloat16Type" if name == "BFloat16" else f"torch.{name}Tensor"


# -- the functions ------------------------------------------------------------------------------

def _conv(name, k, input, weight, bias, stride, padding, dilation, groups):
    numeric = not isinstance(padding, str)
    if numeric:     # NOTE: torch's conv1d/2d/3d check this first; the 'same'/'valid' path not
        _check_bias_dtype(input, bias)
    if input.ndim not in (k + 1, k + 2):
        raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to "
                           f"{name}, but got input of size: {_sizes(input.shape)}")
    batched = input.ndim == k + 2
    if not batched:
        input = input.unsqueeze(0)
    if not numeric:
        input, padding = _string_padding(input, weight, padding, stride, dilation, groups)
    # NOTE: as torch's bindings do, ints become k-lists for the function's k (conv2d: 2);
    # the core then checks them against the weight's dims.
    stride, padding, dilation = _ints(stride, k), _ints(padding, k), _ints(dilation, k)
    args = _check(input, weight, bias, stride, padding, dilation, False, 0, groups)
    out = convolution(input, weight, bias, *args[:3], False, args[3], groups)
    return out if batched else out.squeeze(0)


def _ints(value, k):
    if isinstance(value, np.integer):
        value = int(value)
    return (value,) * k if isinstance(value, int) else value


def _string_padding(input, weight, padding, stride, dilation, groups):
    """'valid' is no padding; 'same' pads (dilation * (kernel - 1)) in total per dim, the odd
    one on the right by padding the input itself first (after torch's own checks of a 'same'
    convolution, whose texts differ from the others')."""
    if padding not in ("same", "valid"):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if padding == "valid":
        return input, 0
    w = list(weight.shape)
    _check_weight_dims_and_groups(w, groups)
    k = len(w) - 2
    if input.ndim != len(w):
        raise RuntimeError(f"Expected {len(w)}-dimensional input for {len(w)}-dimensional "
                           f"weight{_sizes(w)}, but got {input.ndim}-dimensional input of size "
                           f"{_sizes(input.shape)} instead")
    stride, dilation = _ints(stride, k), _ints(dilation, k)
    for name, value in (("stride", stride), ("dilation", dilation)):
        if len(value) not in (1, k):
            raise RuntimeError(f"{name} cannot broadcast to {k} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dilation = _expand(dilation, k, "dilation")
    kernel = weight.shape[2:]
    totals = [d * (kk - 1) for d, kk in zip(dilation, kernel)]
    if any(t % 2 for t in totals):
        # (torch warns this once per process)
        warn_once("Using padding='same' with even kernel lengths and odd dilation may "
                  "require a zero-padded copy of the input be created", stacklevel=2)
        extra = []
        for t in reversed(totals):
            extra += [0, t % 2]
        input = constant_pad(input, extra, 0)
    return input, tuple(t // 2 for t in totals)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d cross-correlation over (N, C, L) or (C, L) inputs; padding may be an int, a tuple,
    'valid' or 'same'."""
    try:
        return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)
    except Exception:
        conv_refused("conv1d", (input, weight, bias, stride, padding, dilation, groups))
        raise


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d cross-correlation over (N, C, H, W) or (C, H, W) inputs.

    >>> conv2d(ember.ones(1, 1, 3, 3), ember.ones(1, 1, 2, 2)).flatten().tolist()
    [4.0, 4.0, 4.0, 4.0]
    """
    try:
        return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)
    except Exception:
        conv_refused("conv2d", (input, weight, bias, stride, padding, dilation, groups))
        raise


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d cross-correlation over (N, C, D, H, W) or (C, D, H, W) inputs."""
    try:
        return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)
    except Exception:
        conv_refused("conv3d", (input, weight, bias, stride, padding, dilation, groups))
        raise


def _conv_transpose(name, k, input, weight, bias, stride, padding, output_padding, groups,
                    dilation):
    """conv_transpose{k}d, with torch's argument-type errors made only once it has failed."""
    try:
        return _conv_transpose_nd(name, k, input, weight, bias, stride, padding,
                                  output_padding, groups, dilation)
    except Exception:
        conv_transpose_refused(name, (input, weight, bias, stride, padding, output_padding,
                                      groups, dilation))
        raise


def _conv_transpose_nd(name, k, input, weight, bias, stride, padding, output_padding, groups,
                       dilation):
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    if input.ndim not in (k + 1, k + 2):
        raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to "
                           f"{name}, but got input of size: {_sizes(input.shape)}")
    batched = input.ndim == k + 2
    if not batched:
        input = input.unsqueeze(0)
    stride, padding, dilation = _ints(stride, k), _ints(padding, k), _ints(dilation, k)
    output_padding = _ints(output_padding, k)
    args = _check(input, weight, bias, stride, padding, dilation, True, output_padding, groups)
    out = convolution(input, weight, bias, *args[:3], True, args[3], groups)
    return out if batched else out.squeeze(0)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The adjoint of conv1d (a "deconvolution"); weight is (in, out / groups, kernel)."""
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The adjoint of conv2d; weight is (in, out / groups, kH, kW)."""
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The adjoint of conv3d; weight is (in, out / groups, kD, kH, kW)."""
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)



# -- conv_tbc: the (time, batch, channels) 1-d convolution -------------------------------------

class ConvTbc(Op):
    """conv_tbc(input, weight, bias, pad). Its gradients are conv_tbc again: the input's with
    the weight flipped in time and transposed, the weight's with input and grad as kernels."""
    inputs = ("self", "weight", "bias")
    saves = {"self": ("weight",), "weight": ("self",)}

    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        need_input, need_weight, need_bias = ctx.needs_input_grad
        width = ctx._weight_shape[0]
        g_input = g_weight = g_bias = None
        if need_input:
            flipped = weight.flip(0).transpose(1, 2)
            g_input = conv_tbc(grad, flipped, grad.new_zeros(ctx._weight_shape[1]),
                               width - 1 - ctx.pad)
        if need_weight:
            g_weight = conv_tbc(input.transpose(1, 2), grad,
                                grad.new_zeros(ctx._weight_shape[2]), ctx.pad)
        if need_bias:
            g_bias = grad.sum((0, 1))
        return g_input, g_weight, g_bias


def _tbc_forward(xp, x, w, b, pad):
    """out[t] = bias + sum over k of x[t + k - pad] @ w[k], rows outside x counting as zero."""
    length, width = x.shape[0], w.shape[0]
    out_length = length + 2 * pad - width + 1
    out = xp.empty((out_length, x.shape[1], w.shape[2]), x.dtype)
    out[...] = b.astype(x.dtype, copy=False)
    for k in range(width):
        first = max(0, pad - k)                     # first output row whose input row exists
        count = min(out_length, length + pad - k) - first
        if count > 0:
            start = first + k - pad
            out[first:first + count] += xp.matmul(x[start:start + count], w[k])
    return out


def _check_tbc(input, weight, bias, pad):
    for arg, t, pos in (("self", input, 1), ("weight", weight, 2), ("bias", bias, 3)):
        if not hasattr(t, "_data"):
            raise TypeError(f"conv_tbc(): argument '{arg}' (position {pos}) must be Tensor, not "
                            f"{type_name(t)}")
    if isinstance(pad, bool) or not isinstance(pad, int):
        raise TypeError(f"conv_tbc(): argument 'pad' (position 4) must be int, not "
                        f"{type(pad).__name__}")
    if input.ndim != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.ndim != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if bias.ndim != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    out_length = input.shape[0] + 2 * pad - weight.shape[0] + 1
    if out_length < 0:
        sizes = [out_length, input.shape[1], weight.shape[2]]
        raise RuntimeError(f"Trying to create tensor with negative dimension {out_length}: "
                           f"[{', '.join(map(str, sizes))}]")
    if input.dtype != weight.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{input.dtype._scalar_name} and {weight.dtype._scalar_name}")
    if input.dtype.is_complex or input._data.dtype.kind == "b":
        raise NotImplementedError(f"\"addmm_impl_cpu_\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")


def conv_tbc(input, weight, bias, pad=0):
    """A 1-d convolution over (time, batch, channels) input with a (kernel width, in, out)
    weight and `pad` zero rows at each end of time (negative pads crop): the output has
    time + 2*pad - width + 1 rows, in input's dtype (bias is cast to it)."""
    _check_tbc(input, weight, bias, pad)
    x = input._data
    out = _tbc_forward(backend_of(x).xp, x, weight._data, bias._data, pad)
    return apply(ConvTbc, (input, weight, bias), out,
                 {"pad": pad, "_weight_shape": tuple(weight.shape)})
