"""Scans along a dim: cumsum, cumprod, cummax/cummin, logcumsumexp; and diff.

Integer and bool inputs of cumsum/cumprod accumulate in int64 (the in-place forms keep the
input's dtype); floating inputs accumulate as torch's CPU scan kernel does, in its
accumulation type (half precision in float32, float32 in float64, complex64 in complex128),
each running value rounded once to the result's dtype (`_scan_dtype`).
"""
import numpy as np

from .. import _dtype, _geometry as geo, return_types
from .._creation import zeros, zeros_like
from .._device import backend_of
from .._memory_format import row_major
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import Inplace, check_inplace, check_out, finish_inplace, prepare_inplace, \
    write_out
from ._op import Op, record
from ._xp_compat import accumulate
from .elementwise import check_limited
from .indexing import _index_put
from .order_statistics import write_pair
from .reduction import _accumulate_dtype, _cast_first, _run, _sum_dtype
from .registry import FUNCTIONS, function
from .argument_errors import type_name
from .int_arguments import check_ints, int_argument


_WIDER = {np.dtype(np.float32): np.dtype(np.float64),
          np.dtype(np.complex64): np.dtype(np.complex128)}


def _scan_dtype(np_dtype):
    """The dtype torch's CPU cumsum/cumprod accumulate a `np_dtype` result in."""
    return _WIDER.get(np.dtype(np_dtype)) or _accumulate_dtype(np_dtype)


class ReverseCumsum(Op):
    """Sums from each position to the end of a dim (the adjoint of cumsum, and back)."""

    def backward(ctx, grad):
        return grad.cumsum(ctx.dim)


def _rev_cumsum(t, dim):
    """Sums from each position to the end of `dim`. NOTE: not sum - cumsum + t, which loses
    precision when the terms span many orders of magnitude (logcumsumexp's gradient)."""
    xp = backend_of(t._data).xp
    a = t._data
    # (accumulated as cumsum accumulates, rounding each sum once)
    dtype = _scan_dtype(a.dtype)
    if _by_slices(xp, a, dim, dtype):
        data = _scan_by_slices(np.add, a, dim, dtype, reverse=True)
    else:
        data = xp.flip(xp.cumsum(xp.flip(a, dim), axis=dim, dtype=dtype), dim)
    result = wrap(xp.ascontiguousarray(data).astype(a.dtype, copy=False))
    if t._requires_grad and _grad_state.enabled:
        record(ReverseCumsum, (t,), (result,), {"dim": dim})
    return result


# NOTE [ Scans by slices ]
# NumPy's cumsum and cumprod (ufunc.accumulate) run one element at a time, about 3.5 ns each
# along any axis. Along a dim with many rows across it, one ufunc call per position over
# all rows (out[k] = out[k - 1] + x[k]) does the same operations in the same order as long
# vector operations: the same bits (cumsum of 64x8x26x26 float32 along dim 3: 1.2 -> 0.7 ms,
# along dim 1: 1.7 -> 0.16 ms). Short scans across few rows keep NumPy's loop.
_SLICES_FROM_ROWS = 2048
_SCAN_UFUNCS = {"cumsum": "add", "cumprod": "multiply"}


def _by_slices(xp, x, axis, dtype):
    """Whether a scan of `x` along `axis` in `dtype` goes by slices (NOTE [ Scans by slices ])."""
    return x.size >= 2 * _SLICES_FROM_ROWS and xp is np and x.__class__ is np.ndarray and \
        np.dtype(dtype).kind == "f" and x.shape[axis] > 1 and \
        x.size >= _SLICES_FROM_ROWS * x.shape[axis]


def _scan_by_slices(ufunc, x, axis, dtype, reverse=False, plus_zero=False):
    """ufunc.accumulate(x, axis, dtype) (from the end with `reverse`; the first element plus
    0.0 with `plus_zero`) as one call of `ufunc` per position along `axis`, row-major."""
    out = np.empty(x.shape, dtype)
    xs, outs = np.moveaxis(x, axis, 0), np.moveaxis(out, axis, 0)
    order = range(x.shape[axis] - 1, -1, -1) if reverse else range(x.shape[axis])
    previous = order[0]
    if plus_zero:
        np.add(xs[previous], 0.0, out=outs[previous])
    else:
        outs[previous] = xs[previous]
    for k in order[1:]:
        ufunc(outs[previous], xs[k], out=outs[k])
        previous = k
    return out


def _axis(data, dim):
    d = geo.wrap_dim(dim, data.ndim)
    return d, (d if data.ndim else None)


def _scan(name, op, input, dim, dtype, out):
    """cumsum/cumprod: the accumulate kernel in the accumulation dtype, then out= or in place."""
    data = input._data
    d, axis = _axis(data, dim)
    inplace = out.__class__ is Inplace
    if dtype is None and out is not None and not inplace and isinstance(out, Tensor):
        dtype = out.dtype           # torch casts the input to out's dtype first
    if dtype is not None:
        dtype = _dtype.as_dtype(dtype, name)    # Python's number types too: dtype=float
        if isinstance(out, Tensor) and not inplace and out.dtype is not dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {dtype._cpp_name}, but got "
                               f"{out.dtype._cpp_name} instead")
        if dtype is _dtype.bool and (data.size == 0 or data.ndim == 0) and not inplace:
            # (no kernel runs: a 0-dim input is copied)
            return _run(op, input, data.astype(np.bool_), {"dim": d if data.ndim else None},
                        out, False)
        if dtype is _dtype.bool:
            raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')
    if inplace and data.dtype.kind == "b":
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')
    if inplace and dtype is not None and dtype._np != data.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {input.dtype._cpp_name} and "
                           f"output tensor dtype {dtype._cpp_name} should match")
    target = data.dtype if inplace else _sum_dtype(data, dtype, name)
    xp = backend_of(data).xp
    x = _cast_first(data, target, _accumulate_dtype(target)).astype(_scan_dtype(target),
                                                                    copy=False)
    if axis is not None and _by_slices(xp, x, axis, x.dtype):
        # (a running sum from +0.0: the first element plus 0.0, so no -0.0 comes out)
        result = _scan_by_slices(getattr(np, _SCAN_UFUNCS[name]), x, axis, x.dtype,
                                 plus_zero=name == "cumsum")
    else:
        result = getattr(xp, name)(x.reshape(-1) if axis is None else x, axis=axis or 0)
        if name == "cumsum" and result.dtype.kind in "fc":
            result += 0.0   # torch's running sum starts from +0.0, so no -0.0 comes out
    result = xp.asarray(result).reshape(data.shape).astype(target, copy=False)
    params = {"dim": d if data.ndim else None, "given_dim": dim}
    if not inplace:
        return _run(op, input, result, params, out)
    requires_grad = input._requires_grad
    check_inplace(input, result.dtype, result.shape)
    inputs = prepare_inplace(op, (input,), requires_grad)
    input._data[...] = result
    return finish_inplace(op, inputs, params, input, requires_grad)


class Cumsum(Op):
    shows = {"dim": "given_dim"}

    def backward(ctx, grad):
        return grad if ctx.dim is None else _rev_cumsum(grad, ctx.dim)


@function(inplace=True)
def cumsum(input, dim, *, dtype=None, out=None):
    """Running sums along `dim`."""
    return _scan("cumsum", Cumsum, input, dim, dtype, out)


class Cumprod(Op):
    """Running products. NOTE: exact with zeros: before the first zero of a row the gradient is
    revcumsum(g * out) / x; at the first zero it is revcumsum(g * cumprod(x with that zero set to
    1)); after it, zero. Everything is written with ember ops, so it differentiates again."""
    saves = {"self": ("self", "result")}
    shows = {"dim": "given_dim"}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        if ctx.dim is None or x.numel() <= 1 or x.shape[ctx.dim] == 1:
            return grad         # torch's cumprod_backward: grad itself, no graph of x
        d = ctx.dim
        if x.is_complex():
            x, result = x.conj(), result.conj()
        zero = x == 0
        seen = zero.cumsum(d)
        before = seen == 0
        first = zero & (seen == 1)
        where = FUNCTIONS["where"]
        part = _rev_cumsum(grad * result, d) / where(before, x, 1.0)
        grad_x = where(before, part, 0.0)
        if bool(first.any()):
            ones = where(first, 1.0, x).cumprod(d)
            grad_x = grad_x + where(first, _rev_cumsum(grad * ones, d), 0.0)
        return grad_x


@function(inplace=True)
def cumprod(input, dim, *, dtype=None, out=None):
    """Running products along `dim`."""
    return _scan("cumprod", Cumprod, input, dim, dtype, out)


# -- cummax / cummin ---------------------------------------------------------------------------

class Cummax(Op):
    """Each gradient goes to the index its running extreme came from (summed). torch saves
    the input, which the gradient does not read: writing it in place before backward is an
    error all the same."""
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        ctx.saved_tensors               # (checks that the input is as it was)
        if ctx.key is None:
            return grad
        base = zeros(ctx.self_size, dtype=grad.dtype, device=grad.device)
        return _index_put(base, ctx.key, grad, accumulate=True)


class Cummin(Cummax):
    pass


def _index_key(xp, index, axis):
    """An advanced-indexing key putting each element at `index` along `axis`."""
    grids = list(xp.ogrid[tuple(slice(n) for n in index.shape)])
    grids[axis] = index
    return tuple(grids)


def _cumextreme(name, input, dim, out):
    data = input._data
    if data.dtype.kind == "c" and data.ndim and data.size:   # torch returns these early
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    check_limited(input, f"{name}_cpu")
    # (torch returns an empty result before it looks at dim)
    if data.ndim == 0 and dim not in (0, -1):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    d, axis = _axis(data, dim) if data.size else (None, None)
    xp = backend_of(data).xp
    x = data.reshape(-1) if axis is None else data
    axis = axis or 0
    ufunc = "maximum" if name == "cummax" else "minimum"
    values = accumulate(xp, ufunc, x, axis) if x.size else x.copy()
    # NOTE: torch moves the index on ties (>=) and to every NaN: the last position so far
    # holding the running value.
    hit = (x == values) | ((x != x) & (values != values))
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    pos = xp.arange(x.shape[axis]).reshape(shape)
    index = accumulate(xp, "maximum", xp.where(hit, pos, 0), axis) if x.size else \
        xp.zeros(x.shape, np.int64)
    values = row_major(xp, values.reshape(data.shape))             # as torch allocates them
    index = row_major(xp, index.astype(np.int64).reshape(data.shape))
    v, i = wrap(values), wrap(index)
    if input._requires_grad and _grad_state.enabled:
        key = _index_key(xp, index, axis) if data.ndim and data.size else None
        record(Cummax if name == "cummax" else Cummin, (input,), (v,),
               {"key": key, "self_size": data.shape})
    if out is None:
        return getattr(return_types, name)((v, i))
    return write_pair(name, out, (v, i), input._requires_grad)


@function()
def cummax(input, dim, *, out=None):
    """(values, indices) of the running maximum along `dim`."""
    return _cumextreme("cummax", input, dim, out)


@function()
def cummin(input, dim, *, out=None):
    """(values, indices) of the running minimum along `dim`."""
    return _cumextreme("cummin", input, dim, out)


# -- logcumsumexp ------------------------------------------------------------------------------

class Flip(Op):
    """Reversed along one dim (for the reverse scans of backward formulas)."""

    def backward(ctx, grad):
        return _flip(grad, ctx.dim)


def _flip(t, dim):
    xp = backend_of(t._data).xp
    result = wrap(xp.ascontiguousarray(xp.flip(t._data, dim)))
    if t._requires_grad and _grad_state.enabled:
        record(Flip, (t,), (result,), {"dim": dim})
    return result


class Logcumsumexp(Op):
    """d out_i / d x_k = exp(x_k - out_i) for i >= k.

    NOTE: in log space, so that nothing overflows: the positive and negative parts of the
    gradient are summed with a reverse logcumsumexp (log 0 replaced by the dtype's lowest
    finite value, so that no inf - inf appears). That form goes through log|grad|, whose
    derivative with respect to grad is infinite at 0: where grad itself is differentiated
    (forward AD differentiates this backward with respect to a zero cotangent), the plain
    linear form is used instead, scaled by the last output (the largest) so that no term
    exp(x_k - out_i) is taken apart into an overflowing product except when the outputs span
    more than the dtype's exponent range."""
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        d = ctx.dim
        if d is None or grad.numel() == 0:
            return grad         # torch's logcumsumexp_backward: grad itself, no graph of x
        if x.is_complex():
            return x.exp() * _rev_cumsum(grad * (-result).exp(), d)
        if grad.requires_grad:
            last = result.narrow(d, result.shape[d] - 1, 1)
            return (x - last).exp() * _rev_cumsum(grad * (last - result).exp(), d)
        where = FUNCTIONS["where"]
        lowest = _dtype.finfo(x.dtype).min
        log_abs = grad.abs().log()
        parts = []
        for mask in (grad > 0, grad < 0):
            logs = where(mask, log_abs, lowest) - result
            rev = _flip(logcumsumexp(_flip(logs, d), d), d)
            parts.append((rev + x).exp())
        return parts[0] - parts[1]


def _complex_logcumsumexp(xp, x, axis):
    """NOTE: torch adds one term at a time, max + log1p(exp(min - max)) (by real part), so the
    imaginary parts add up without wrapping to (-pi, pi]; a loop along the dim does the same."""
    x = xp.moveaxis(x, axis, 0)
    result = xp.empty_like(x)
    if len(x):
        result[0] = x[0]
    for i in range(1, len(x)):
        a, b = result[i - 1], x[i]
        first = a.real >= b.real
        hi, lo = xp.where(first, a, b), xp.where(first, b, a)
        result[i] = hi + xp.log1p(xp.exp(lo - hi))
    return xp.moveaxis(result, 0, axis)


@function()
def logcumsumexp(input, dim, *, out=None):
    """log(cumsum(exp(x))) along `dim`, computed stably."""
    if dim.__class__ is not int:
        dim = int_argument("logcumsumexp", "dim", 1, dim)
    data = input._data
    # (torch's order: out's dtype, dim, then the kernel's dtypes)
    if isinstance(out, Tensor) and out._data.dtype != data.dtype:
        raise RuntimeError(f"expected scalar_type {input.dtype._scalar_name} but found "
                           f"{out.dtype._scalar_name}")
    d, axis = _axis(data, dim)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    xp = backend_of(data).xp
    # (torch's running value is its accumulation type's, float64 for float32; each rounded)
    x = data.astype(np.float64 if data.dtype == np.float32 else
                    _accumulate_dtype(data.dtype), copy=False)
    x = x.reshape(-1) if axis is None else x
    with np.errstate(all="ignore"):
        if x.dtype.kind == "f":
            result = accumulate(xp, "logaddexp", x, axis or 0) if x.size else x.copy()
        else:
            result = _complex_logcumsumexp(xp, x, axis or 0)
    result = xp.asarray(result).reshape(data.shape).astype(data.dtype, copy=False)
    return _run(Logcumsumexp, input, result, {"dim": d if data.ndim else None}, out)


# -- diff ---------------------------------------------------------------------------------------

@function()
def diff(input, n=1, dim=-1, prepend=None, append=None, *, out=None):
    """The n-th forward difference along `dim` (after concatenating prepend/append); bools
    give logical xor. A composite of narrow and sub, as in torch."""
    if n.__class__ is not int or dim.__class__ is not int:
        check_ints("diff", 1, n=n, dim=dim)
        n = int(n)
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for extra in (prepend, append):
        if extra is not None and not isinstance(extra, Tensor):
            raise TypeError(f"diff(): argument 'prepend' must be Tensor, not "
                            f"{type_name(extra)}")
        if extra is not None:
            d = geo.wrap_dim(dim, input.ndim)
            if extra.ndim != input.ndim:
                raise RuntimeError("diff expects prepend or append to be the same dimension "
                                   "as input")
            for i, (a, b) in enumerate(zip(input.shape, extra.shape)):
                if i != d and a != b:
                    raise RuntimeError(
                        f"diff expects the shape of tensor to prepend or append to match that "
                        f"of input except along the differencing dimension; input.size({i}) = "
                        f"{a}, but got tensor.size({i}) = {b}")
    if n == 0:          # torch's copy of the input (no dim looked at, nothing added)
        if out is None:
            return zeros_like(input).copy_(input)
        if isinstance(out, Tensor) and out.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar_type {input.dtype._scalar_name} but found "
                               f"{out.dtype._scalar_name}")
        check_out("diff", out, input._data.dtype, input.requires_grad)
        return write_out(out, input._data)
    d = geo.wrap_dim(dim, input.ndim)
    parts = [t for t in (prepend, input, append) if t is not None]
    x = FUNCTIONS["cat"](parts, d) if len(parts) > 1 else input
    step = FUNCTIONS["logical_xor"] if x.dtype is _dtype.bool else FUNCTIONS["sub"]
    for _ in range(n):
        length = x.shape[d]
        if length == 0:
            break
        x = step(x.narrow(d, 1, length - 1), x.narrow(d, 0, length - 1))
    if out is not None:
        check_out("diff", out, x._data.dtype, x.requires_grad)
        return write_out(out, x._data)
    return x
