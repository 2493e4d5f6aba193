"""ember.nn.functional: pooling. Argument parsing, torch's shape rules and error texts; the
kernels and their Ops are in `_pooling_ops.py`. 1-d pooling is 2-d pooling of the input
unsqueezed at -2, as in torch (so its graph is SqueezeBackward1 -> MaxPool2DWithIndices...)."""
import math

import numpy as np

from .. import _dtype
from .._device import MetaArray, backend_of
from . import _fractional_pool, _pooling_ops as ops
from .._tensor import Tensor
from ._argument_types import int_lists, is_int, tensors
from ._fractional_pool import *  # noqa: F401,F403

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
           "max_pool2d_with_indices", "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d",
           "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
           "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
           "adaptive_max_pool3d_with_indices", "lp_pool1d", "lp_pool2d", "lp_pool3d"]
__all__ += _fractional_pool.__all__      # (max_unpool*: _unpooling.py)

_COUNT = {2: "two", 3: "three"}


def _is_one(value):
    """Whether a size argument is one number: an int (a bool too: the checks refuse it), a
    NumPy integer (`env.action_space.n`) or a 0-dim integer tensor, as torch's parser takes."""
    return isinstance(value, int) or is_int(value)


def _int(value):
    """A one-number size as a Python int (a bool stays one, for the checks to refuse)."""
    return value if isinstance(value, int) else int(value)


def _ints(value, n, message, allow_empty=False):
    """An n-tuple from an int or a sequence of 1 or n ints (torch's _pair/_triple rules)."""
    if value is None and allow_empty:
        return None
    if _is_one(value):
        return (_int(value),) * n
    value = tuple(value)
    if allow_empty and not value:
        return None
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(message)
    return value


def _check_dtype(input, name, integers=True):
    """integers: True (all), "long" (int64 only, as avg_pool) or False."""
    kind = input._data.dtype.kind
    refused = not integers or (integers == "long" and input.dtype is not _dtype.int64)
    if kind in "bc" or (kind in "iu" and refused):
        raise NotImplementedError(f'"{name}" not implemented for \'{input.dtype._scalar_name}\'')


def _output_size(n, k, s, p, d, ceil_mode):
    """torch's pooling_output_shape, with its checks."""
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if p < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
    if p > int(((k - 1) * d + 1) / 2):     # (C division: toward zero)
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                           f"pad={p}, kernel_size={k} and dilation={d}")
    out = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _shape_check(input, nd, kernel, stride, padding, dilation, out, name):
    """torch's pool2d_shape_check / pool3d_shape_check."""
    letters = "HW" if nd == 2 else "THW"
    shape = list(input.shape)

    def listed(prefix, values):
        return " ".join(f"{prefix}{c}: {v}" for c, v in zip(letters, values))
    if min(kernel) <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got "
                           f"{listed('k', kernel)}")
    if min(stride) <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got {listed('d', stride)}")
    if min(dilation) <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got "
                           f"{listed('dilation', dilation)}")
    if 0 in shape[-nd - 1:] or (nd == 2 and input.ndim not in (3, 4)):
        if nd == 2:
            raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                               f"size for input, but got:{shape}")
        # NOTE: where torch's text names the dimension, it prints the size (always 0)
        raise RuntimeError(f"{name}(): Expected input's non-batch dimensions to have positive "
                           f"length, but input has a shape of {shape} and non-batch dimension "
                           f"0 has length zero!")
    if any(k // 2 < p for k, p in zip(kernel, padding)):
        if nd == 2:
            raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                               f"got padW = {padding[1]}, padH = {padding[0]}, "
                               f"kW = {kernel[1]}, kH = {kernel[0]}")
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got "
                           f"kT: {kernel[0]} kW: {kernel[2]} kH: {kernel[1]} padT: {padding[0]} "
                           f"padW: {padding[2]} padH: {padding[1]}")
    if min(out) < 1:
        given = "x".join(str(v) for v in shape[-nd - 1:])
        calculated = "x".join(str(v) for v in [shape[-nd - 1]] + list(out))
        raise RuntimeError(f"Given input size: ({given}). Calculated output size: "
                           f"({calculated}). Output size is too small")


def _batch_view(input, nd):
    """The input's array as (B, *spatial) and the leading shape to restore."""
    x = input._data
    lead = x.shape[:x.ndim - nd]
    return x.reshape((-1,) + x.shape[x.ndim - nd:]), lead


# -- max pooling ---------------------------------------------------------------------------------

_META_POOLS = {}


def _max_pool_op(op, x):
    """The op recorded for a max pool of array `x`: `op`, or for a meta array a subclass of
    it whose backward gives the input's geometry (NOTE [ The meta backend ]: no indices to
    scatter the gradient by)."""
    if x.__class__ is not MetaArray:
        return op
    meta = _META_POOLS.get(op)
    if meta is None:
        def backward(ctx, grad):
            lead = tuple(grad.shape[:grad.ndim - len(ctx.spatial)])
            return grad.new_zeros(lead + tuple(ctx.spatial))
        meta = _META_POOLS[op] = type(op.__name__, (op,), {
            "node_name": op.__dict__.get("node_name"), "backward": backward,
            "__module__": __name__})
    return meta


def _max_pool_nd(input, nd, kernel_size, stride, padding, dilation, ceil_mode,
                 with_indices=False):
    name = f"max_pool{nd}d"
    # (torch's parser reads the input first, in max_pool2d_with_indices when indices are asked)
    tensors(name + "_with_indices" * with_indices, (0, "input", input, False))
    count = _COUNT[nd]
    kernel = _ints(kernel_size, nd, f"{name}: kernel_size must either be a single int, or a "
                                    f"tuple of {count} ints")
    given_stride = _ints(stride, nd, f"{name}: stride must either be omitted, a single int, "
                                     f"or a tuple of {count} ints", allow_empty=True) or ()
    stride = given_stride or kernel
    padding = _ints(padding, nd, f"{name}: padding must either be a single int, or a tuple of "
                                 f"{count} ints")
    dilation = _ints(dilation, nd, f"{name}: dilation must be either a single int, or a tuple "
                                   f"of {count} ints")
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for "
                           f"input")
    out = [_output_size(n, k, s, p, d, ceil_mode) for n, k, s, p, d in
           zip(input.shape[-nd:], kernel, stride, padding, dilation)]
    _shape_check(input, nd, kernel, stride, padding, dilation, out,
                 "max_pool3d_with_indices_out_cpu_template")
    _check_dtype(input, name)
    x, lead = _batch_view(input, nd)
    if x.__class__ is MetaArray:            # geometry only (NOTE [ The meta backend ])
        values = MetaArray((x.shape[0],) + tuple(out), x.dtype)
        indices = MetaArray(values.shape, np.int64)
    else:
        values, indices = ops.max_pool(x, kernel, stride, padding, dilation, out)
    params = {"spatial": tuple(x.shape[1:]),
              "geometry": (kernel, stride, padding, dilation, tuple(out)),
              "ceil_mode": ceil_mode, "given_stride": given_stride}
    shape = lead + values.shape[1:]
    result, index = ops.apply(_max_pool_op(ops.MAX_POOLS["MaxPool", nd], x), (input,),
                              ops.laid_like(input, values.reshape(shape), indices.reshape(shape)),
                              params)
    if result._grad_fn is not None:
        result._grad_fn.indices = index
    return result, index


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """2-d max pooling over (N, C, H, W) or (C, H, W): (values, flat indices into H*W)."""
    return _max_pool_nd(input, 2, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """3-d max pooling over (N, C, D, H, W) or (C, D, H, W): (values, flat indices)."""
    return _max_pool_nd(input, 3, kernel_size, stride, padding, dilation, ceil_mode)


def _check_1d_dims(input, name):
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for {name})")


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """1-d max pooling over (N, C, L) or (C, L): (values, indices into L)."""
    tensors("max_pool1d_with_indices", (0, "input", input, False))
    try:
        return _max_pool1d_with_indices(input, kernel_size, stride, padding, dilation,
                                        ceil_mode)
    except Exception:
        _refused("max_pool1d_with_indices", kernel_size, stride, padding, dilation)
        raise


def _refused(name, kernel_size, stride, padding, dilation=None):
    """torch's parser checks the int[] arguments before any shape check (see
    _argument_types); a failing pooling call asks whether that is why."""
    int_lists(name, (2, "kernel_size", kernel_size), (3, "stride", stride),
              (4, "padding", padding), (5, "dilation", dilation))


def _max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode):
    _check_1d_dims(input, "max_pool1d")

    def widen(value, lead):     # a wrong length is left for the 2-d checks to refuse
        value = (_int(value),) if _is_one(value) else tuple(value)
        return (lead,) + value if len(value) == 1 else value
    kernel = widen(kernel_size, 1)
    empty = stride is None or (not _is_one(stride) and not tuple(stride))
    stride = kernel if empty else widen(stride, 1)
    values, indices = _max_pool_nd(input.unsqueeze(-2), 2, kernel, stride, widen(padding, 0),
                                   widen(dilation, 1), ceil_mode)
    return values.squeeze(-2), indices.squeeze(-2)


def _one(value, what, allow_none=False):
    if value is None and allow_none:
        return None
    if _is_one(value):
        return _int(value)
    value = tuple(value)
    if allow_none and not value:
        return None
    if len(value) != 1:
        raise RuntimeError(f"max_pool1d() {what} but got size {len(value)}")
    return value[0]


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """1-d max pooling over (N, C, L) or (C, L); with return_indices, also the indices."""
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    tensors("max_pool1d", (0, "input", input, False))
    try:
        return _max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    except Exception:
        _refused("max_pool1d", kernel_size, stride, padding, dilation)
        raise


def _max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode):
    shape = list(input.shape)
    if input.ndim not in (2, 3) or 0 in shape[-2:]:
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{shape}")
    k = _one(kernel_size, "kernel_size must be an int, list of ints or tuple of ints of size 1")
    s = _one(stride, "stride must be None, an int, list of ints, or tuple of ints of size 1",
             allow_none=True)
    p = _one(padding, "padding must be an int, list of ints, or tuple of ints of size 1")
    d = _one(dilation, "dilation must be an int, list of ints or tuple of ints of size 1")
    s = k if s is None else s
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={p} and kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = _output_size(shape[-1], k, s, p, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    _check_dtype(input, "max_pool1d_impl", integers=False)
    return max_pool1d_with_indices(input, k, s, p, d, ceil_mode)[0]


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """2-d max pooling over (N, C, H, W) or (C, H, W); with return_indices, also the flat
    indices into H*W. ceil_mode keeps a last window that starts inside the input or its left
    padding.

        >>> F.max_pool2d(ember.arange(16.).view(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    if getattr(input, "is_quantized", False) is True:
        from .._quantized_ops import max_pool2d as quantized_max_pool2d
        return quantized_max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode,
                                    return_indices)
    try:
        result = _max_pool_nd(input, 2, kernel_size, stride, padding, dilation, ceil_mode,
                              return_indices)
    except Exception:
        _refused("max_pool2d_with_indices" if return_indices else "max_pool2d", kernel_size,
                 stride, padding, dilation)
        raise
    return result if return_indices else result[0]


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """3-d max pooling over (N, C, D, H, W) or (C, D, H, W); with return_indices, also the
    flat indices into D*H*W."""
    result = _max_pool_nd(input, 3, kernel_size, stride, padding, dilation, ceil_mode)
    return result if return_indices else result[0]


# -- average pooling -----------------------------------------------------------------------------

def _avg_pool_nd(input, nd, kernel_size, stride, padding, ceil_mode, count_include_pad,
                 divisor_override):
    name = f"avg_pool{nd}d"
    tensors(name, (0, "input", input, False))
    count = _COUNT[nd]
    must = "must either be" if nd == 2 else "must be"
    kernel = _ints(kernel_size, nd, f"{name}: kernel_size {must} a single int, or a tuple of "
                                    f"{count} ints")
    given_stride = _ints(stride, nd, f"{name}: stride {must} omitted, a single int, or a "
                                     f"tuple of {count} ints", allow_empty=True) or ()
    stride = given_stride or kernel
    padding = _ints(padding, nd, f"{name}: padding {must} a single int, or a tuple of {count} "
                                 f"ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    shape = list(input.shape)
    if nd == 2 and input.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(input.ndim, 1)}, {max(input.ndim, 1) - 1}], but got -3)")
    if nd == 3 and input.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    # (the output sizes first: they refuse a pad above half the kernel)
    out = [_output_size(n, k, s, p, 1, ceil_mode) for n, k, s, p in
           zip(shape[-nd:], kernel, stride, padding)]
    if nd == 3 and any(n < k for n, k in zip(shape[-3:], kernel)) and 0 not in shape[-4:]:
        raise RuntimeError(f"input image (T: {shape[-3]} H: {shape[-2]} W: {shape[-1]}) "
                           f"smaller than kernel size (kT: {kernel[0]} kH: {kernel[1]} "
                           f"kW: {kernel[2]})")
    _shape_check(input, nd, kernel, stride, padding, (1,) * nd, out, name)
    if nd == 3 and input.dtype in (_dtype.float16, _dtype.bfloat16):
        raise NotImplementedError(f'"avg_pool3d_out_frame" not implemented for '
                                  f'\'{input.dtype._scalar_name}\'')
    _check_dtype(input, name if nd == 2 else "avg_pool3d_out_frame", integers="long")
    args = (tuple(shape[-nd:]), kernel, stride, padding, out, count_include_pad,
            divisor_override)
    return ops.run_avg_pool(input, args, ops.AVG_POOLS["AvgPool", nd],
                            {"ceil_mode": ceil_mode, "given_stride": given_stride})


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """1-d average pooling over (N, C, L) or (C, L)."""
    tensors("avg_pool1d", (0, "input", input, False))
    try:
        return _avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad)
    except Exception:
        _refused("avg_pool1d", kernel_size, stride, padding)
        raise


def _avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad):
    _check_1d_dims(input, "avg_pool1d")

    def one(value, what):
        if _is_one(value):
            return _int(value)
        value = tuple(value)
        if len(value) != 1:
            raise RuntimeError(f"avg_pool1d() argument '{what}' should contain one int "
                               f"(got {len(value)})")
        return value[0]
    k = one(kernel_size, "kernel_size")
    s = k if stride is None or (not _is_one(stride) and not tuple(stride)) \
        else one(stride, "stride")
    p = one(padding, "padding")
    out = _avg_pool_nd(input.unsqueeze(-2), 2, (1, k), (1, s), (0, p), ceil_mode,
                       count_include_pad, None)
    return out.squeeze(-2)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """2-d average pooling over (N, C, H, W) or (C, H, W). count_include_pad counts the zero
    padding in each window's divisor; divisor_override replaces the divisor."""
    try:
        return _avg_pool_nd(input, 2, kernel_size, stride, padding, ceil_mode,
                            count_include_pad, divisor_override)
    except Exception:
        _refused("avg_pool2d", kernel_size, stride, padding)
        raise


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """3-d average pooling over (N, C, D, H, W) or (C, D, H, W)."""
    return _avg_pool_nd(input, 3, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override)


# -- adaptive pooling ----------------------------------------------------------------------------

def _with_default(output_size, input, nd):
    """torch's _list_with_default: None entries take the input's size."""
    if isinstance(output_size, int):
        return (output_size,) * nd
    len(output_size)        # (torch's wrapper measures what is no int: a NumPy int has no len)
    sizes = tuple(output_size)
    if input.ndim <= len(sizes):
        raise ValueError(f"Input dimension should be at least {len(sizes) + 1}")
    return tuple(input.shape[input.ndim - len(sizes) + i] if v is None else v
                 for i, v in enumerate(sizes))


def _adaptive_checks(input, nd, name, got_colon):
    shape = list(input.shape)
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got"
                           f"{':' if got_colon else ''} {shape}")
    # torch lets the leading dim (batch, or channels unbatched) be empty; adaptive_avg_pool2d
    # (which adaptive_avg_pool1d goes through) checks only the two spatial dims.
    first = input.ndim - 2 if name == "adaptive_avg_pool2d" else 1
    for dim in range(first, input.ndim):
        if shape[dim] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {shape} with dimension {dim} "
                               f"being empty")


def _adaptive_avg_nd(input, nd, output_size):
    name = f"adaptive_avg_pool{nd}d"
    out = _with_default(output_size, input, nd) if not isinstance(output_size, int) \
        else (output_size,) * nd
    if len(out) != nd:
        raise RuntimeError(f"{name}: output_size must be {nd}")
    if all(o == 1 for o in out):
        # (over dims -1, -2, ... as torch: a 1-D input's error names -2)
        result = input.mean(tuple(range(-1, -nd - 1, -1)), keepdim=True)
        # (a fresh tensor that nothing refers to yet: laid out as torch's pooling result)
        result._data = ops.laid_like(input, result._data)
        return result
    if any(o < 0 for o in out):
        received = ", ".join(str(o) for o in out) if nd == 2 else ",".join(
            [f"{out[0]}, {out[1]}", str(out[2])])
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to "
                           f"0 but received {{{received}}}")
    _adaptive_checks(input, nd, name, got_colon=False)
    _check_dtype(input, name if nd == 2 else name + "_cpu", integers=False)
    if nd == 3 and input._data.dtype.itemsize == 2 and input.device.type == "cpu":
        data = ops.adaptive_avg_pool3d_reduced(input._data, out)
    else:
        data = ops.adaptive_avg_pool(input._data, out)
    (result,) = ops.apply(ops.AVG_POOLS["AdaptiveAvgPool", nd], (input,),
                          (ops.laid_like(input, data, channels_last_3d=nd < 3),),
                          {"spatial": tuple(input.shape[-nd:])})
    return result


def _adaptive_max_nd(input, nd, output_size):
    name = f"adaptive_max_pool{nd}d"
    out = _with_default(output_size, input, nd)
    if len(out) != nd:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {nd}")
    _adaptive_checks(input, nd, name, got_colon=True)
    if any(o < 0 for o in out):
        shape = list(input.shape[:-nd]) + list(out)
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{min(out)}: {shape}")
    _check_dtype(input, name if nd == 2 else name + "_cpu", integers=False)
    x, lead = _batch_view(input, nd)
    if 0 in out or x.shape[0] == 0 or x.__class__ is MetaArray:
        xp = backend_of(x).xp
        values = xp.empty((x.shape[0],) + tuple(out), dtype=x.dtype)
        indices = xp.empty(values.shape, dtype=xp.int64)
    else:
        values, indices = ops.adaptive_max_pool(x, out)
    shape = lead + tuple(out)
    params = {"spatial": tuple(x.shape[1:]), "geometry": None}
    result, index = ops.apply(_max_pool_op(ops.MAX_POOLS["AdaptiveMaxPool", nd], x), (input,),
                              ops.laid_like(input, values.reshape(shape), indices.reshape(shape),
                                            channels_last_3d=nd < 3),
                              params)
    if result._grad_fn is not None:
        result._grad_fn.indices = index
    return result, index


def _one_size(output_size, name, check_length=True):
    """The one output size of a 1-d adaptive pool: the binding refuses None, torch's kernel
    (after its input dims check) another length than one."""
    if _is_one(output_size):
        return _int(output_size)
    if output_size is None:
        raise TypeError(f"{name}(): argument 'output_size' (position 2) must be tuple of ints, "
                        f"not NoneType")
    sizes = tuple(output_size)
    if not check_length:
        return None
    if len(sizes) != 1:
        raise RuntimeError(f"{name}() argument 'output_size' should contain one int "
                           f"(got {len(sizes)})")
    return sizes[0]


def adaptive_avg_pool1d(input, output_size):
    """Averages over output_size windows spanning L of (N, C, L) or (C, L)."""
    _one_size(output_size, "adaptive_avg_pool1d", check_length=False)
    _check_1d_dims(input, "adaptive_avg_pool1d")
    size = _one_size(output_size, "adaptive_avg_pool1d")
    return _adaptive_avg_nd(input.unsqueeze(-2), 2, (1, size)).squeeze(-2)


def adaptive_avg_pool2d(input, output_size):
    """Averages over windows [floor(i H / h), ceil((i + 1) H / h)) (and the same along W), for
    (N, C, H, W) or (C, H, W); None in output_size keeps that size."""
    if getattr(input, "is_quantized", False) is True:
        from .._quantized_ops import adaptive_avg_pool2d as quantized_adaptive_avg_pool2d
        return quantized_adaptive_avg_pool2d(input, output_size)
    return _adaptive_avg_nd(input, 2, output_size)


def adaptive_avg_pool3d(input, output_size):
    """Adaptive averages over (N, C, D, H, W) or (C, D, H, W)."""
    return _adaptive_avg_nd(input, 3, output_size)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    _one_size(output_size, "adaptive_max_pool1d", check_length=False)
    _check_1d_dims(input, "adaptive_max_pool1d")
    size = _one_size(output_size, "adaptive_max_pool1d")
    _adaptive_checks(input, 1, "adaptive_max_pool1d", got_colon=True)
    values, indices = _adaptive_max_nd(input.unsqueeze(-2), 2, (1, size))
    return values.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_nd(input, 2, output_size)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_nd(input, 3, output_size)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Maxima over adaptive windows of (N, C, L) or (C, L); with return_indices, also the
    indices."""
    result = adaptive_max_pool1d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Maxima over adaptive windows of (N, C, H, W) or (C, H, W)."""
    result = _adaptive_max_nd(input, 2, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Maxima over adaptive windows of (N, C, D, H, W) or (C, D, H, W)."""
    result = _adaptive_max_nd(input, 3, output_size)
    return result if return_indices else result[0]


# -- power-average pooling -----------------------------------------------------------------------

def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, nd, pool):
    if nd > 1 and not _is_one(kernel_size):
        # torch's lp_pool2d/3d unpack kernel_size first (kw, kh = _pair(kernel_size)):
        # Python's ValueError for another length
        if nd == 2:
            _, _ = tuple(kernel_size)
        else:
            _, _, _ = tuple(kernel_size)
    if isinstance(norm_type, (int, float)) and math.isinf(norm_type):
        # torch's limits: p = inf is the largest |x| of each window, p = -inf the smallest.
        max_pool = (max_pool1d, max_pool2d, max_pool3d)[nd - 1]
        if norm_type > 0:
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    kernel = _ints(kernel_size, nd, "") if nd > 1 else kernel_size
    out = pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    if nd == 1 and not _is_one(kernel):
        # NOTE: torch's lp_pool1d multiplies by kernel_size itself, which only a number passes
        raise TypeError(f"mul(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(kernel).__name__}")
    size = math.prod(kernel) if nd > 1 else kernel
    return (out.sign() * out.abs().relu()).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each window of x ** p) ** (1 / p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1, avg_pool1d)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each 2-d window of x ** p) ** (1 / p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2, avg_pool2d)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each 3-d window of x ** p) ** (1 / p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3, avg_pool3d)

