"""Statistics: aminmax, var/std (and with the mean), logsumexp, nansum/nanmean,
count_nonzero. `norm` lives in `statistics_norm`; order statistics (median, mode, kthvalue,
quantile) in `order_statistics`.

Half-precision inputs compute in float32 and round once, as in `reduction`.
"""
import math

import numpy as np

from .. import _dtype, _geometry as geo, return_types
from .._device import backend_of
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.graph import watch
from . import _rounded, _variance_order
from ._dispatch import check_out, write_out
from ._op import Op, dims_as_given, record, scalar
from .elementwise import check_limited
from .reduction import (_accumulate_dtype, _axis, _cast_first, _float_sum, _refuse_non_bool,
                        _restore_dims, _run, _sum_dtype, reduction_dims)
from .registry import FUNCTIONS, function
from .int_arguments import refuse_non_int_dims
from . import order_statistics  # registers median, mode, kthvalue, quantile; write_pair


_REAL = {np.dtype(np.complex64): np.dtype(np.float32),
         np.dtype(np.complex128): np.dtype(np.float64)}


def _count(data, dims):
    """How many elements each output element reduces."""
    if dims is None or data.ndim == 0:
        return data.size
    return geo.numel([data.shape[d] for d in dims])


def _record_pair(op, input, results, params):
    if input._requires_grad and _grad_state.enabled:
        record(op, (input,), results, params, num_outputs=2)


# -- aminmax ---------------------------------------------------------------------------------

class Aminmax(Op):
    """(min, max) over a dim or all; ties share each gradient (as amin/amax). torch saves both
    results: one written in place since is its "modified by an inplace operation" error."""
    saves = {"self": ("self",)}
    num_outputs = 2

    def backward(ctx, grad_min, grad_max):
        (x,) = ctx.saved_tensors
        for nr, (value, version) in enumerate(zip((ctx.lo, ctx.hi), ctx.versions)):
            if value._version != version:
                raise ctx._modified_error(value, version, nr)
        total = None
        for grad, value in ((grad_min, ctx.lo), (grad_max, ctx.hi)):
            grad = _restore_dims(grad, ctx.dims, ctx.keepdim, x.ndim)
            mask = x == _restore_dims(value, ctx.dims, ctx.keepdim, x.ndim)
            count = mask.sum(ctx.dims, keepdim=True) if ctx.dims is not None else mask.sum()
            part = grad * mask / count
            total = part if total is None else total + part
        return total


@function()
def aminmax(input, *, dim=None, keepdim=False, out=None):
    """(min, max) of all elements, or along `dim`."""
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    data = input._data
    if data.dtype.kind == "c":
        raise NotImplementedError(f'"aminmax_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    check_limited(input, "aminmax_cpu")
    dims = None if dim is None else (geo.wrap_dim(dim, data.ndim),)
    if dims is None and data.size == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    if dims is not None and data.ndim and data.shape[dims[0]] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {dims[0]} to have non-zero size.")
    xp = backend_of(data).xp
    axis = _axis(dims, data.ndim)
    keep = keepdim and dims is not None
    if dims is None and keepdim:        # torch keeps every dim as size 1
        axis, keep = None, True
    lo = wrap(xp.asarray(xp.min(data, axis=axis, keepdims=keep)))
    hi = wrap(xp.asarray(xp.max(data, axis=axis, keepdims=keep)))
    if input._requires_grad and _grad_state.enabled:
        record(Aminmax, (input,), (lo, hi), {"dims": dims, "keepdim": keep, "lo": lo.detach(),
                                             "hi": hi.detach(), "versions": (watch(lo), watch(hi))},
               num_outputs=2)
    if out is not None:
        return order_statistics.write_pair("aminmax", out, (lo, hi), input._requires_grad)
    return return_types.aminmax((lo, hi))


# -- var / std ---------------------------------------------------------------------------------

def _correction(name, dim, unbiased, correction, keepdim):
    """(dim, correction) from torch's three call forms: (dim, unbiased, keepdim),
    (unbiased) and (dim, *, correction)."""
    if isinstance(dim, bool):               # var(x, True): the `unbiased` overload
        if unbiased is not None:
            raise TypeError(f"{name}() received an invalid combination of arguments")
        dim, unbiased = None, dim
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    if unbiased is not None and unbiased.__class__ is not bool:
        _refuse_non_bool(unbiased, "unbiased")
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got both "
                        f"unbiased and correction")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    return dim, correction


_WIDER = {np.dtype(np.float32): np.dtype(np.float64),
          np.dtype(np.complex64): np.dtype(np.complex128)}


def _moments(name, input, dim, correction, keepdim, root=False):
    """(variance array, mean array, dims, count) in the input's dtype (variance real); with
    `root`, the standard deviation in place of the variance (its square root taken before a
    half-precision result is rounded, as torch takes it in float32)."""
    data = input._data
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        what = "std and var" if name in ("std", "var") else name
        raise RuntimeError(f"{what} only support floating point and complex dtypes")
    if data.dtype in _dtype.FLOAT8_NP:          # (NOTE [ Float8 dtypes ])
        if dim is None and name in ("std", "var"):
            raise RuntimeError(f"std_var_all: Unsupported dtype {input.dtype._scalar_name}")
        raise NotImplementedError(f"\"std_cpu\" not implemented for '{input.dtype._scalar_name}'")
    dims = reduction_dims(input, dim, in_order=True)
    xp = backend_of(data).xp
    axis = _axis(dims, data.ndim)
    # (torch's CPU kernel accumulates float32 in float64, half precision in float32)
    x = data.astype(_WIDER.get(data.dtype) or _accumulate_dtype(data.dtype), copy=False)
    count = _count(data, dims)
    if count - correction <= 0:
        _warn.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                   f"less than the reduction factor (input numel divided by output "
                   f"numel).", UserWarning, stacklevel=4)
    # (torch's own order where it is cheap to follow: NOTE [ torch's variance order ])
    mean, var = None, None
    if name in ("std", "var") and data.size == count:
        var = _variance_order.one_element_variance(data, correction)
        if var is not None:
            var = np.asarray(var).reshape((1,) * data.ndim if keepdim else
                                          () if dims is None else
                                          [n for a, n in enumerate(data.shape) if a not in dims])
            mean = var                      # (std and var return no mean)
    if var is None:
        var, mean = _variance_order.welford(data, dims, correction, keepdim) or (None, None)
    with np.errstate(all="ignore"):
        if var is None:
            mean = x.mean(axis=axis, keepdims=True) if x.size else xp.full(
                xp.sum(x, axis=axis, keepdims=True).shape, xp.nan, x.dtype)
            dev = x - mean
            sq = dev.real ** 2 + dev.imag ** 2 if x.dtype.kind == "c" else dev * dev
            dof = max(count - correction, 0)
            var = xp.asarray(sq.sum(axis=axis, keepdims=keepdim)) / x.real.dtype.type(dof)
        if root:
            var = xp.sqrt(var)
    if not keepdim:
        mean = mean.reshape(var.shape)
    real = _REAL.get(data.dtype, data.dtype)
    return (xp.asarray(var).astype(real, copy=False), xp.asarray(mean).astype(data.dtype),
            dims, count)


def _var_grad(grad, x, dims, keepdim, count, correction):
    """d var / dx, with `grad` the incoming gradient of the variance (ember ops)."""
    grad = _restore_dims(grad, dims, keepdim, x.ndim)
    mean = x.mean(dims, keepdim=True) if dims is not None else x.mean()
    dof = count - correction        # NOTE: not clamped at 0 here, as in torch's var_backward
    # (torch's order of operations, which shows in half precision)
    return (2.0 / dof if dof else math.inf) * grad * (x - mean)


def _std_to_var(grad, std):
    """The gradient of the variance given that of the std (0 where the std is 0)."""
    return _where(std == 0, 0.0, grad / (std * 2))


def _where(cond, a, b):
    return FUNCTIONS["where"](cond, a, b)


class Var(Op):
    """Variance over some dims with a correction."""
    saves = {"self": ("self",)}
    shows = {"correction": scalar("given_correction"), "dim": dims_as_given, "keepdim": "keepdim"}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _var_grad(grad, x, ctx.dims, ctx.keepdim, ctx.count, ctx.correction)


class Std(Op):
    """Standard deviation over some dims with a correction."""
    saves = {"self": ("self", "result")}
    shows = Var.shows

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return _var_grad(_std_to_var(grad, result), x, ctx.dims, ctx.keepdim, ctx.count,
                         ctx.correction)


def _var_std(name, input, dim, unbiased, keepdim, correction, out):
    if dim.__class__ is not int and dim is not None and dim.__class__ is not bool:
        refuse_non_int_dims(dim)        # (a lone bool is `unbiased`: x.std(False))
    # (torch's node keeps no correction for a call with neither dim nor correction)
    given = None if dim is None and unbiased is None and correction is None else 0
    dim, correction = _correction(name, dim, unbiased, correction, keepdim)
    result, _, dims, count = _moments(name, input, dim, correction, keepdim, name == "std")
    params = {"dims": dims, "keepdim": keepdim, "count": count, "correction": correction,
              "dim": dim, "given_correction": None if given is None else correction}
    return _run(Std if name == "std" else Var, input, result, params, out)


@function()
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """Variance over `dim` (all by default), dividing by N - correction (default 1)."""
    return _var_std("var", input, dim, unbiased, keepdim, correction, out)


@function()
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """Standard deviation over `dim` (all by default), with Bessel's correction by default."""
    return _var_std("std", input, dim, unbiased, keepdim, correction, out)


class VarMean(Op):
    """(variance, mean): the two gradients add."""
    saves = {"self": ("self",)}
    num_outputs = 2

    def backward(ctx, grad_var, grad_mean):
        (x,) = ctx.saved_tensors
        return _var_grad(grad_var, x, ctx.dims, ctx.keepdim, ctx.count, ctx.correction) + \
            _restore_dims(grad_mean, ctx.dims, ctx.keepdim, x.ndim).expand(x.shape) / ctx.count


class StdMean(VarMean):
    saves = {"self": ("self", "result")}

    def backward(ctx, grad_std, grad_mean):
        x, result = ctx.saved_tensors
        return _var_grad(_std_to_var(grad_std, result), x, ctx.dims, ctx.keepdim, ctx.count,
                         ctx.correction) + \
            _restore_dims(grad_mean, ctx.dims, ctx.keepdim, x.ndim).expand(x.shape) / ctx.count


def _welford_mean(xp, data, dims, mean):
    """The mean as torch's std_mean/var_mean computes it, by Welford's running update: once
    the running mean is infinite, the next element makes it NaN (inf - inf), so an infinity
    anywhere but last leaves NaN."""
    if data.dtype.kind == "c" or not data.size or mean.__class__ is not np.ndarray or \
            not np.isinf(mean).any():
        return mean
    axes = tuple(range(data.ndim)) if dims is None or not data.ndim else dims
    rows = np.moveaxis(data, axes, tuple(range(data.ndim - len(axes), data.ndim)))
    rows = rows.reshape(rows.shape[:data.ndim - len(axes)] + (-1,))
    early = np.isinf(_sortable_float(rows[..., :-1])).any(axis=-1).reshape(mean.shape)
    return np.where(early & np.isinf(mean), mean.dtype.type(np.nan), mean)


def _sortable_float(a):
    return a.astype(np.float32) if a.dtype.kind == "V" else a


def _with_mean(name, input, dim, unbiased, keepdim, correction):
    dim, correction = _correction(name, dim, unbiased, correction, keepdim)
    first, mean, dims, count = _moments(name, input, dim, correction, keepdim,
                                        name == "std_mean")
    xp = backend_of(first).xp
    mean = _welford_mean(xp, input._data, dims, mean)
    first = wrap(xp.asarray(first))
    second = wrap(mean)
    params = {"dims": dims, "keepdim": keepdim, "count": count, "correction": correction}
    _record_pair(StdMean if name == "std_mean" else VarMean, input, (first, second), params)
    return first, second


@function(method=False)
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(variance, mean) over `dim`, as `var` and `mean`."""
    return _with_mean("var_mean", input, dim, unbiased, keepdim, correction)


@function(method=False)
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(standard deviation, mean) over `dim`, as `std` and `mean`."""
    return _with_mean("std_mean", input, dim, unbiased, keepdim, correction)


# -- logsumexp ---------------------------------------------------------------------------------

class Logsumexp(Op):
    saves = {"self": ("self", "result")}
    shows = {"dim": dims_as_given, "keepdim": "keepdim"}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        grad = _restore_dims(grad, ctx.dims, ctx.keepdim, x.ndim)
        result = _restore_dims(result, ctx.dims, ctx.keepdim, x.ndim)
        return grad * (x - result).exp()


@function()
def logsumexp(input, dim, keepdim=False, *, out=None):
    """log(sum(exp(x))) over `dim`, computed stably; integers give float32."""
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    if isinstance(out, Tensor):     # (checked first; the input is taken in out's dtype)
        if not (out.dtype.is_floating_point or out.dtype.is_complex):
            raise RuntimeError(f"logsumexp(): Expected floating point type for result tensor, "
                               f"but got: {out.dtype._scalar_name}")
        if out.dtype is not input.dtype:
            input = input.to(out.dtype)
    data = input._data
    if data.dtype in _dtype.FLOAT8_NP:          # (NOTE [ Float8 dtypes ]: its amax is missing)
        raise NotImplementedError(f"\"max_values_cpu\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")
    dims = reduction_dims(input, dim)
    if dim is not None and dim.__class__ in (tuple, list) and not dim and not keepdim and \
            data.ndim and data.size:
        # NOTE: torch's logsumexp over no dims sums over all of them but adds back a maximum
        # kept over all of them with their dims, which fails
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                           f"[{', '.join(['1'] * data.ndim)}]")
    xp = backend_of(data).xp
    floating = input.dtype.is_floating_point or input.dtype.is_complex
    target = data.dtype if floating else _dtype.float32._np
    x = data.astype(_accumulate_dtype(target), copy=False)
    axis = _axis(dims, data.ndim)
    with np.errstate(all="ignore"):
        if x.size:
            shift = xp.max(x.real, axis=axis, keepdims=True)
            shift = xp.where(xp.isfinite(shift), shift, 0)
        else:
            shift = xp.zeros(xp.sum(x.real, axis=axis, keepdims=True).shape, x.real.dtype)
        if target.itemsize == 2 and target.kind in "fV":
            # NOTE: torch runs logsumexp on half precision as ops in that dtype, each result
            # rounded: (x - max), exp, sum (in float32), log, + max.
            def r(a):
                return a.astype(target).astype(x.dtype)
            result = r(r(xp.log(r(r(xp.exp(r(x - shift))).sum(axis=axis, keepdims=True))))
                       + shift)
        else:
            # (the exponentials added as torch's sum adds them: NOTE [ Summation order ])
            e = _rounded.exp(xp, x - shift)
            total = _float_sum(e, dims, True)
            if total is None:
                total = e.sum(axis=axis, keepdims=True)
            result = _rounded.log(xp, total) + shift
    if not keepdim:
        result = result.reshape(xp.sum(x.real, axis=axis, keepdims=False).shape)
    result = xp.asarray(result).astype(target, copy=False)
    return _run(Logsumexp, input, result, {"dims": dims, "keepdim": keepdim, "dim": dim}, out)


# -- nansum / nanmean / count_nonzero ---------------------------------------------------------

class Nansum(Op):
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        # NOTE: a product, not a select, so that an inf or NaN gradient stays NaN at NaN inputs
        # (nanmean of an all-NaN row), as in torch
        return _restore_dims(grad, ctx.dims, ctx.keepdim, x.ndim) * x.isnan().logical_not()


@function()
def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Sum treating NaN as zero; integers and bools sum as int64."""
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    data = input._data
    if data.dtype.kind in "biu":        # (no NaN: torch sums, into out= of any dtype)
        reduction_dims(input, dim, in_order=True)
        return FUNCTIONS["sum"](input, dim, keepdim, dtype=dtype, out=out)
    if data.dtype.kind == "c":
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if isinstance(out, Tensor):         # torch sums into out's dtype (checked before the dims)
        given = None if dtype is None else _dtype.as_dtype(dtype, "nansum")
        if given is None:
            if not out.dtype.is_floating_point and data.size:    # (no kernel: no refusal)
                raise NotImplementedError(f"\"nansum_cpu\" not implemented for "
                                          f"'{out.dtype._scalar_name}'")
            dtype = out.dtype
        elif given is not out.dtype:
            if not (given.is_floating_point or given.is_complex):
                raise RuntimeError(f"Expected out tensor to have dtype {given._cpp_name}, but "
                                   f"got {out.dtype._cpp_name} instead")
            raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got "
                               f"{out.dtype._scalar_name} and {given._scalar_name}.")
    dims = reduction_dims(input, dim, in_order=True)
    target = _sum_dtype(data, dtype, "nansum")
    xp = backend_of(data).xp
    acc = _accumulate_dtype(target)
    data = _cast_first(data, target, acc).astype(acc, copy=False)
    # NOTE: torch's nansum is its sum with a NaN read as 0, added in the same order (NOTE [
    # Summation order ]); x + 0 is x, so zeroing the NaNs first gives the same bits
    data = xp.where(xp.isnan(data), data.dtype.type(0), data)
    result = _float_sum(data, dims, keepdim)
    if result is None:
        result = data.sum(axis=_axis(dims, data.ndim), keepdims=keepdim)
    result = xp.asarray(result).astype(target, copy=False)
    return _run(Nansum, input, result, {"dims": dims, "keepdim": keepdim}, out)


@function()
def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Mean of the non-NaN elements (a composite: nansum / count, as in torch)."""
    if dim.__class__ is not int and dim is not None:
        refuse_non_int_dims(dim)
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    out_given = isinstance(out, Tensor)
    if out_given and not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError("nanmean(): integral types and 'Bool' are not supported for "
                           "nanmean, even for empty tensors.")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype "
                           f"but got {input.dtype._scalar_name}")
    if dtype is not None:
        target = _dtype.as_dtype(dtype, "nanmean")
        if not (target.is_floating_point or target.is_complex):
            raise RuntimeError(f"nanmean(): could not infer output dtype. Optional dtype must be "
                               f"either a floating point or complex dtype. Got: "
                               f"{target._scalar_name}")
        if out_given and out.dtype is not target:
            raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got "
                               f"{out.dtype._scalar_name} and {target._scalar_name}.")
    elif out_given:
        if not out.dtype.is_floating_point:     # (torch sums into out)
            raise NotImplementedError(f"\"nansum_cpu\" not implemented for "
                                      f"'{out.dtype._scalar_name}'")
        dtype = out.dtype
    count = input.isnan().logical_not().sum(dim, keepdim)
    result = nansum(input, dim, keepdim, dtype=dtype) / count
    if out is not None:
        check_out("nansum", out, result._data.dtype, result.requires_grad)   # as torch
        return write_out(out, result._data)
    return result


@function()
def count_nonzero(input, dim=None, *more):
    """How many elements are non-zero (over `dim`, an int or a tuple, or all; the dims may
    also come one by one, as torch's parser takes them)."""
    if more:
        dim = (dim,) + more
    check_limited(input, "nonzero_count_cpu")
    data = input._data
    dims = reduction_dims(input, dim)
    xp = backend_of(data).xp
    result = xp.count_nonzero(data, axis=_axis(dims, data.ndim))
    return wrap(xp.asarray(result).astype(np.int64))


from . import statistics_norm  # noqa: E402,F401  (registers norm; uses the helpers above)
from .. import _warn
