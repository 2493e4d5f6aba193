"""Reductions, continued: max/min (whole or along a dim), amax/amin, argmax/argmin, all/any
(sum, mean and prod, and the helpers these share, are in reduction.py).

This module defines `max`, `min`, `all` and `any` (shadowing Python's builtins here).
"""
import ml_dtypes
import numpy as np

from .. import _dtype, _geometry as geo, return_types
from .._creation import zeros, zeros_like
from .._device import MetaArray, backend_of
from .._memory_format import row_major
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._blocked import arg_extreme
from ._dispatch import write_out
from ._op import Op, dims_as_given, record
from .elementwise import check_limited
from .registry import function
from .int_arguments import refuse_non_int_dims
from .reduction import _axis, _refuse_non_bool, _restore_dims, _run, reduction_dims

# -- max / min -------------------------------------------------------------------------------

def _evenly(grad, x, result):
    """Gradient of a whole-tensor max/min: shared evenly among the elements that attain it.
    As torch, written into zeros (masked_fill): an infinite or NaN gradient stays with those
    elements (a product with the mask would make the others 0 * inf = NaN)."""
    mask = (x == result) if not result.isnan().item() else x.isnan()
    return zeros_like(x, dtype=grad.dtype).masked_fill(mask, grad / mask.sum())


def to_index(grad, dim, indices, keepdim, self_size):
    """Gradient of a value picked along `dim` (max, min, median, kthvalue, mode): scattered
    into zeros at its index, as torch does (so an infinite gradient leaves the other
    elements 0)."""
    ndim = len(self_size)
    grad = _restore_dims(grad, (dim,), keepdim, ndim)
    if not ndim:
        return grad
    index = _restore_dims(indices, (dim,), keepdim, ndim)
    return zeros(self_size, dtype=grad.dtype, device=grad.device).scatter(dim, index, grad)


class MaxAll(Op):
    """The largest element."""
    node_name = "MaxBackward1"
    out_name = "max"
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return _evenly(grad, x, result)


class MinAll(MaxAll):
    node_name = "MinBackward1"
    out_name = "min"


class MaxDim(Op):
    """The largest element along a dim (the values output of `max(dim)`; `dim` as given)."""
    node_name = "MaxBackward0"
    frees = True                # (torch saves the indices)
    shows = {"dim": "dim", "indices": "indices", "keepdim": "keepdim",
             "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        return to_index(grad, ctx.dim, ctx.indices, ctx.keepdim, ctx.self_size)


class MinDim(MaxDim):
    node_name = "MinBackward0"


def _check_nonempty(name, input, dims):
    data = input._data
    if data.size == 0:
        if dims is None:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               f"input.numel() == 0. Specify the reduction dim with the 'dim' "
                               f"argument.")
        for d in dims:
            if data.ndim and data.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _check_given_dims(name, input, dim):
    """amax/amin of an empty (or 0-dim) tensor: `dim` as the caller wrote it (an int or a
    sequence; () or None for all dims), each dim checked against the input's dims, then for
    size 0 (named as given), one after the other as torch does."""
    data = input._data
    if dim is None or (not isinstance(dim, int) and len(dim) == 0):
        return _check_nonempty(name, input, None)
    for d in (dim,) if isinstance(dim, int) else tuple(dim):
        w = geo.wrap_dim(d, data.ndim)
        if data.size == 0 and data.ndim and data.shape[w] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _refuse_complex(name, input, kernel=None):
    kind = input._data.dtype.kind
    if kind == "c":
        if kernel is None:
            raise RuntimeError(f"{name}(): does not support complex input")
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


def _identity(np_dtype, name):
    """max's identity (the lowest value) or min's (the highest) in `np_dtype`."""
    if np_dtype.kind == "b":
        return np.asarray(name == "min")
    info = np.iinfo(np_dtype) if np_dtype.kind in "iu" else ml_dtypes.finfo(np_dtype) \
        if np_dtype.kind == "V" else None
    if info is None:
        return np.asarray(-np.inf if name == "max" else np.inf, np_dtype)
    if np_dtype.kind == "V":
        return np.asarray(-np.inf if name == "max" else np.inf).astype(np_dtype)
    return np.asarray(info.min if name == "max" else info.max, np_dtype)


def _extreme(name, input, dim, keepdim, other, out):
    if isinstance(dim, Tensor):
        dim, other = None, dim
    if other is not None:
        from .registry import FUNCTIONS
        return FUNCTIONS["maximum" if name == "max" else "minimum"](input, other, out=out)
    if not input._data.size and out is None and (dim is None or isinstance(dim, int)):
        # (torch: an empty input's missing reduction dim is refused before a complex dtype)
        _check_nonempty(name, input, None if dim is None else
                        (geo.wrap_dim(dim, input._data.ndim),))
    _refuse_complex(name, input, f"{name}_all" if dim is None else None)
    check_limited(input, f"{name}_all" if dim is None else f"{name}_cpu")
    data = input._data
    xp = backend_of(data).xp
    if data.__class__ is np.ndarray:    # (the ufunc's reduce: what np.max calls, without its
        #                                  wrapping; a sparse tensor's record takes np.max's)
        reduce = np.maximum.reduce if name == "max" else np.minimum.reduce
    else:
        reduce = xp.max if name == "max" else xp.min
    arg = xp.argmax if name == "max" else xp.argmin
    if dim is None:
        if isinstance(out, Tensor):     # (torch's max(x, out=t): a cast check, an identity)
            if not _dtype.can_cast(input.dtype, out.dtype):
                raise RuntimeError(
                    "Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType("
                    "out.dtype())) to be true, but got false.  (Could this error message be "
                    "improved?  If so, please report an enhancement request to PyTorch.)")
            if not data.size:
                return _run(MaxAll if name == "max" else MinAll, input,
                            xp.asarray(_identity(data.dtype, name)), {}, out)
        _check_nonempty(name, input, None)
        return _run(MaxAll if name == "max" else MinAll, input,
                    xp.asarray(reduce(data, axis=None)), {}, out)
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    d = geo.wrap_dim(dim, data.ndim)
    _check_nonempty(name, input, (d,))
    axis = d if data.ndim else None
    values = row_major(xp, xp.asarray(reduce(data, axis=axis, keepdims=keepdim)))
    if axis is None:
        index = xp.asarray(arg(data, axis=axis, keepdims=keepdim))
    else:
        index = arg_extreme(data, axis, name == "max")
        if values.dtype.kind not in "iub" and values.__class__ is not MetaArray \
                and (values == 0).any():
            # NOTE: torch's values are the elements at the indices, so of -0. and 0. the
            # first: max(tensor([-0., 0.]), 0) is -0.
            at = xp.take_along_axis(data, xp.expand_dims(index, axis), axis)
            values = row_major(xp, at if keepdim else xp.squeeze(at, axis))
        if keepdim:
            index = xp.expand_dims(index, axis)
    indices = wrap(index.astype("int64", copy=False))
    op = MaxDim if name == "max" else MinDim
    v = wrap(values)
    if input._requires_grad and _grad_state.enabled:
        given = d if dim >= 0 else d - (input.ndim or 1)
        record(op, (input,), (v,), {"dim": given, "keepdim": keepdim, "self_size": data.shape,
                                    "indices": indices})
    result = (return_types.max if name == "max" else return_types.min)((v, indices))
    if out is not None:
        values_out, indices_out = out
        if values_out.dtype is not input.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {input.dtype._cpp_name}, but "
                               f"got {values_out.dtype._cpp_name} instead")
        if indices_out.dtype is not _dtype.int64:
            raise RuntimeError(f"Expected out tensor to have dtype long int, but got "
                               f"{indices_out.dtype._cpp_name} instead")
        write_out(values_out, v._data)
        write_out(indices_out, indices._data)
        return (return_types.max_out if name == "max" else return_types.min_out)(out[:2])
    return result


@function()
def max(input, dim=None, keepdim=False, *, other=None, out=None):
    """The largest element; with `dim`, (values, indices) along it; with a tensor, `maximum`."""
    return _extreme("max", input, dim, keepdim, other, out)


@function()
def min(input, dim=None, keepdim=False, *, other=None, out=None):
    """The smallest element; with `dim`, (values, indices) along it; with a tensor, `minimum`."""
    return _extreme("min", input, dim, keepdim, other, out)


class Amax(Op):
    """Largest values over some dims (ties share the gradient)."""
    saves = {"self": ("self", "result")}
    shows = {"dim": dims_as_given, "keepdim": "keepdim"}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        result = _restore_dims(result, ctx.dims, ctx.keepdim, x.ndim)
        grad = _restore_dims(grad, ctx.dims, ctx.keepdim, x.ndim)
        mask = x == result
        count = mask.sum(ctx.dims if ctx.dims is not None else None, keepdim=True) \
            if ctx.dims is not None else mask.sum()
        return grad * mask / count


class Amin(Amax):
    pass


def _amax(name, op, input, dim, keepdim, out):
    if isinstance(out, Tensor) and out.dtype is not input.dtype:      # (checked first)
        raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                           f"{input.dtype._scalar_name} for input's dtype and "
                           f"{out.dtype._scalar_name} for out's dtype.")
    if input.numel():           # torch checks the dtype only where a kernel runs
        _refuse_complex(name, input, f"{name[1:]}_values_cpu")
        check_limited(input, f"{name[1:]}_values_cpu")
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    data = input._data
    if data.size and data.ndim:
        dims = reduction_dims(input, dim)
    else:   # (torch names an empty dim as given, before looking for repeated dims)
        _check_given_dims(name, input, dim)
        dims = reduction_dims(input, dim)
    xp = backend_of(data).xp
    reduce = xp.max if name == "amax" else xp.min
    result = xp.asarray(reduce(data, axis=_axis(dims, data.ndim), keepdims=keepdim))
    return _run(op, input, result, {"dims": dims, "keepdim": keepdim, "dim": dim}, out)


@function()
def amax(input, dim=(), keepdim=False, *, out=None):
    """The largest values over `dim` (all dims by default)."""
    return _amax("amax", Amax, input, dim, keepdim, out)


@function()
def amin(input, dim=(), keepdim=False, *, out=None):
    """The smallest values over `dim` (all dims by default)."""
    return _amax("amin", Amin, input, dim, keepdim, out)


def _arg(name, input, dim, keepdim, out):
    if dim.__class__ is not int and dim is not None:
        refuse_non_int_dims(dim)
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):
        from ..sparse._coo import not_implemented      # NOTE [ Sparse tensors ]
        raise not_implemented(name)
    kind = input._data.dtype.kind
    if kind in "bc":
        raise RuntimeError(f"{name}(): does not support {'bool' if kind == 'b' else 'complex'} "
                           f"input")
    check_limited(input, f"{name}_cpu")
    data = input._data
    xp = backend_of(data).xp
    fn = xp.argmax if name == "argmax" else xp.argmin
    if dim is None:
        if data.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             f"input.numel() == 0.")
        result = fn(data.reshape(-1))
        if keepdim:
            result = xp.asarray(result).reshape((1,) * data.ndim)
    else:
        d = geo.wrap_dim(dim, data.ndim)
        _check_nonempty(name, input, (d,))
        if data.ndim == 0:
            result = fn(data)
        else:
            result = arg_extreme(data, d, name == "argmax")
            if keepdim:
                result = xp.expand_dims(result, d)
    result = xp.asarray(result).astype("int64", copy=False)
    if out is not None:
        if out.dtype is not _dtype.int64:
            raise RuntimeError(f"Expected out tensor to have dtype long int, but got "
                               f"{out.dtype._cpp_name} instead")
        return write_out(out, result)
    return wrap(result)


@function()
def argmax(input, dim=None, keepdim=False, *, out=None):
    """Index of the largest element (of the flattened tensor, or along `dim`)."""
    return _arg("argmax", input, dim, keepdim, out)


@function()
def argmin(input, dim=None, keepdim=False, *, out=None):
    """Index of the smallest element (of the flattened tensor, or along `dim`)."""
    return _arg("argmin", input, dim, keepdim, out)



# -- all / any ------------------------------------------------------------------------------

def _truth(name, input, dim, keepdim, out):
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    if isinstance(out, Tensor) and out.dtype is not _dtype.bool and \
            out.dtype is not _dtype.uint8:          # (checked before the dims)
        raise RuntimeError(f"{name} only supports bool tensor for result, got: "
                           f"{out.dtype._scalar_name}")
    data = input._data
    if data.__class__ is not np.ndarray and is_sparse_data(data):     # NOTE [ Sparse tensors ]
        from ..sparse._coo import not_implemented
        if name == "all" or dim is not None or data.layout != "sparse_coo":
            raise not_implemented(name if dim is None else f"{name}.dim")
        return wrap(np.asarray(data.values.any()))     # (its zeros are not "some element")
    dims = reduction_dims(input, dim)
    xp = backend_of(data).xp
    if dims is None and dim is not None:
        # NOTE: unlike sum's, all's and any's empty dim list reduces nothing: each element's truth
        result = xp.asarray(data != 0)
    else:
        fn = xp.all if name == "all" else xp.any
        result = xp.asarray(fn(data, axis=_axis(dims, data.ndim), keepdims=keepdim))
    if data.dtype == "uint8":          # torch keeps uint8 for uint8 inputs
        result = result.astype("uint8")
    if out is not None:
        return write_out(out, result)
    return wrap(result)


@function()
def all(input, dim=None, keepdim=False, *, out=None):
    """Whether every element (over `dim`, or all) is non-zero."""
    return _truth("all", input, dim, keepdim, out)


@function()
def any(input, dim=None, keepdim=False, *, out=None):
    """Whether some element (over `dim`, or all) is non-zero."""
    return _truth("any", input, dim, keepdim, out)
