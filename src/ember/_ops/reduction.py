"""Reductions: sum, mean, prod, and the helpers all reductions share (max/min, amax/amin,
argmax/argmin, all/any are in reduction_extremes.py).

Integer and bool inputs sum and multiply in int64; half-precision inputs accumulate in float32
and round once, as torch's CPU kernels do. (This module defines `sum`; Python's builtins are
reached as `builtins.<name>`.)
"""
import builtins

import numpy as np

from .. import _dtype, _geometry as geo
from .._device import backend_of
from .._memory_format import row_major
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from . import _cascade_sum
from ._blocked import SPLIT, sum_last
from ._strided_sum import strided_sum, walk_order
from ._dispatch import check_out, write_out
from ._op import Op, dims_as_given, record
from .registry import function, method
from .int_arguments import check_int_varargs, is_int, refuse_non_int_dims


def reduction_dims(input, dim, in_order=False):
    """The dims to reduce as a tuple (None: all of them). Most reductions wrap every dim, then
    look for a repeat; `in_order` (nansum, std/var) wraps and checks one dim after the other,
    so that a repeat is named before a later dim out of range."""
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        if len(dim) == 0:
            return None
        if in_order:
            return geo.wrap_dims_in_turn(dim, input.ndim)
        return geo.wrap_dims(dim, input.ndim)
    if dim.__class__ is bool:       # an int to Python, not to torch's parser (argument_errors)
        raise TypeError("dim must be int, not bool")
    return (geo.wrap_dim(dim, input.ndim),)


def _refuse_non_bool(value, name="keepdim"):
    """torch's parser takes only a bool as keepdim (and as unbiased, descending, largest...);
    the registry words the error from the operator's signatures."""
    raise TypeError(f"{name} must be bool, not {type(value).__name__}")


def _axis(dims, ndim):
    """The NumPy axis argument; 0-dim tensors accept dim 0/-1 but have no axis."""
    if dims is None or ndim == 0:
        return None
    return dims


def _accumulate_dtype(np_dtype):
    return _dtype.float32._np if np_dtype.itemsize == 2 and np_dtype.kind in "fV" else np_dtype


def _cast_first(data, target, acc):
    """`data` as a reduction with dtype=`target` reads it: torch casts the input to a
    half-precision `target` first, then accumulates in float32 (`acc`)."""
    if acc is not target and data.dtype != target:
        return data.astype(target)
    return data


def _run(op, input, result, params, out, differentiable=True):
    xp = backend_of(input._data).xp
    if result.__class__ is not xp.ndarray:
        result = xp.asarray(result)
    result = row_major(xp, result)          # as torch allocates reductions' and scans' results
    requires_grad = differentiable and input._requires_grad
    if out is not None:
        check_out(getattr(op, "out_name", None) or op.__name__.lower(), out, result.dtype,
                  requires_grad)
        return write_out(out, result)
    t = wrap(result)
    if requires_grad and _grad_state.enabled:
        record(op, (input,), (t,), params)
    return t


def _restore_dims(grad, dims, keepdim, ndim):
    """Put back the reduced dims (size 1) so that `grad` broadcasts against the input."""
    if keepdim or ndim == 0:
        return grad
    if dims is None:
        return grad.reshape((1,) * ndim)
    for d in sorted(dims):
        grad = grad.unsqueeze(d)
    return grad


# -- sum ------------------------------------------------------------------------------------------

class Sum(Op):
    """Sum of all elements."""
    shows = {"self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        return grad.expand(ctx.self_size)


class SumDim(Op):
    """Sum over some dims."""
    node_name = "SumBackward1"
    out_name = "sum"            # the name in torch's out= errors
    shows = {"dim": dims_as_given, "keepdim": "keepdim", "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        return _restore_dims(grad, ctx.dims, ctx.keepdim, len(ctx.self_size)).expand(
            ctx.self_size)


_SCAN_KERNELS = {"cumsum": "cumsum_out_cpu", "cumprod": "cumprod_out_cpu"}


def _sum_dtype(data, dtype, name):
    if dtype is not None:
        target = _dtype.as_dtype(dtype, name)._np   # Python's number types too: dtype=float
        if target in _dtype.LIMITED_NP:     # no kernel sums into these (integers sum in int64)
            raise NotImplementedError(
                f'"{_SCAN_KERNELS.get(name, name + "_cpu")}" not implemented for '
                f"'{_dtype._FROM_NUMPY[target]._scalar_name}'")
        return target
    # (no kernel sums the float8 types, NOTE [ Float8 dtypes ]; an empty tensor is answered
    # before torch looks for one)
    if data.dtype in _dtype.FLOAT8_NP and data.size:
        raise NotImplementedError(
            f'"{_FLOAT8_SUM_KERNELS.get(name, name + "_cpu")}" not implemented for '
            f"'{_dtype._FROM_NUMPY[data.dtype]._scalar_name}'")
    return _dtype.int64._np if data.dtype.kind in "biu" else data.dtype


_FLOAT8_SUM_KERNELS = {"prod": "prod_out_cpu", "cumsum": "cumsum_out_cpu",
                       "cumprod": "cumprod_out_cpu"}


def _out_dtype(name, dim, dtype, out):
    """The dtype of sum/prod with `out=`: out's (torch casts the input to it first)."""
    if not isinstance(out, Tensor):
        return dtype
    if dtype is None:
        return out.dtype
    dtype = _dtype.as_dtype(dtype, name)
    if dtype is not out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {dtype._cpp_name}, but got "
                           f"{out.dtype._cpp_name} instead")
    return dtype


def _float_sum(data, dims, keepdim):
    """A float32/float64 NumPy sum over every dim (`dims` None), the last one, leading ones or
    trailing ones, added in torch's order (NOTE [ Summation order ] in _cascade_sum.py), or None for other arrays and
    dims (NumPy's order). A result as NumPy's reduction gives it."""
    if data.__class__ is not np.ndarray or data.dtype not in _cascade_sum.LANES or \
            not data.size:
        return None
    if dims is None or len(dims) == data.ndim:
        total = _cascade_sum.sum_all(data)
        if total is None:
            return strided_sum(data, None, keepdim)
        if not keepdim:
            return total
        return total.reshape((1,) * data.ndim)
    if data.size >= SPLIT or not data.ndim:
        return None
    if not data.flags.c_contiguous:
        total = _permuted_sum(data, dims, keepdim)
        return strided_sum(data, dims, keepdim) if total is None else total
    if dims == (data.ndim - 1,):
        return _cascade_sum.sum_last(data, keepdim)
    if dims == tuple(range(len(dims))):             # leading dims, as a bias's gradient
        return _cascade_sum.sum_leading(data, len(dims), keepdim)
    # other dims: as torch's iterator merges neighbouring dims of one kind (NOTE [ Summation
    # order ]): kept-reduced (x.mean((2, 3)) of images), reduced-kept, kept-reduced-kept,
    # reduced-kept-reduced (x.sum((0, 2, 3)))
    runs = _merged_runs(data.shape, dims)
    kinds = tuple(reduced for reduced, _ in runs)
    sizes = [size for _, size in runs]
    if kinds == (False, True):
        total = _cascade_sum.contiguous_sum(data.reshape(sizes))
    elif kinds == (True, False):
        total = _cascade_sum.column_sums(data.reshape(sizes)) if sizes[1] > 1 else None
    elif kinds == (False, True, False):
        total = _cascade_sum.tables_column_sums(data.reshape(sizes))
    elif kinds == (True, False, True):
        inner = _cascade_sum.contiguous_sum(data.reshape(-1, sizes[2]))
        # (from +0.0, as torch's output starts: the sum is never -0.0)
        total = np.add.accumulate(inner.reshape(sizes[:2]), axis=0)[-1] + 0.0
    else:
        return None
    if total is None:
        return None
    kept_shape = [1 if d in dims else size for d, size in enumerate(data.shape)]
    return total.reshape(kept_shape if keepdim else
                         [size for d, size in enumerate(data.shape) if d not in dims])


def _permuted_sum(data, dims, keepdim):
    """_float_sum of a dense array laid out in another dim order (a transposed table, a
    column-major NumPy array): torch's iterator walks the dims by their strides, so the sum
    is that of the C-contiguous permutation, its result put back in `data`'s dim order
    (where the kept dims lie in the result's order)."""
    order = walk_order(data, dims)
    permuted = None if order is None else data.transpose(order)
    if permuted is None or not permuted.flags.c_contiguous or data.ndim < 2:
        return None         # (not dense: NOTE [ Summation order of strided layouts ])
    total = _float_sum(permuted, tuple(sorted(order.index(d) for d in dims)), True)
    if total is None:
        return None
    total = total.transpose(np.argsort(order))
    return total if keepdim else total.reshape(
        [size for d, size in enumerate(data.shape) if d not in dims])


def _merged_runs(shape, dims):
    """[(reduced, size)]: `shape`'s dims (those of size 1 left out) merged into runs of
    neighbours that are all reduced (in `dims`) or all kept."""
    runs = []
    for d, size in enumerate(shape):
        if size == 1:
            continue
        reduced = d in dims
        if runs and runs[-1][0] == reduced:
            runs[-1][1] *= size
        else:
            runs.append([reduced, size])
    return runs


@function()
def sum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Sum of all elements, or over `dim` (an int or a tuple); ints and bools sum as int64."""
    data = input._data
    if dim is None and dtype is None and out is None and keepdim is False and \
            data.__class__ is np.ndarray and \
            data.dtype.kind == "f" and data.dtype.itemsize >= 4:
        # the common whole-tensor sum of float32/64 on the CPU, without the general path
        total = _float_sum(data, None, False)
        t = wrap(np.asarray(np.add.reduce(data, axis=None)) if total is None else total)
        if input._requires_grad and _grad_state.enabled:
            record(Sum, (input,), (t,), {"self_size": data.shape})
        return t
    if data.__class__ is not np.ndarray and is_sparse_data(data):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.sum(input, dim, keepdim, dtype=dtype)
    if isinstance(dim, _dtype.dtype):
        dim, dtype = None, dim
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    dims = reduction_dims(input, dim)       # (torch checks the dims before out's dtype)
    if out is not None:
        dtype = _out_dtype("sum", dim, dtype, out)
    target = _sum_dtype(data, dtype, "sum")
    xp = backend_of(data).xp
    acc = _accumulate_dtype(target)
    data = _cast_first(data, target, acc)
    result = _float_sum(data, dims, keepdim) if data.dtype == acc else None
    if result is None and dims is not None and data.ndim > 1 and dims == (data.ndim - 1,):
        result = sum_last(data.astype(acc, copy=False), None, keepdim)
    elif result is None:
        result = data.astype(acc, copy=False).sum(axis=_axis(dims, data.ndim),
                                                  keepdims=keepdim)
    result = xp.asarray(result).astype(target, copy=False)
    if dim is None:
        return _run(Sum, input, result, {"self_size": data.shape}, out)
    return _run(SumDim, input, result, {"self_size": data.shape, "dims": dims, "dim": dim,
                                        "keepdim": keepdim}, out)


@method()
def sum_to_size(self, *size):
    """Sum dims so that the result has `size` (which `self` must broadcast from)."""
    if not size:
        raise TypeError('sum_to_size() missing 1 required positional arguments: "size"')
    if len(size) == 1 and size[0].__class__ is not int:
        if not isinstance(size[0], (tuple, list)):
            check_int_varargs("sum_to_size", "size", size)      # (a bool or a float)
        size = (int(size[0]),) if is_int(size[0]) else tuple(size[0])
    shape = tuple(self._data.shape)
    if shape == size:
        return self
    lead = len(shape) - len(size)
    if lead < 0 or builtins.any(s != 1 and s != g for s, g in zip(size, shape[lead:])):
        raise RuntimeError(f"size {{[{', '.join(map(str, size))}]}} is not expandable to size "
                           f"{{[{', '.join(map(str, shape))}]}}.")
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and shape[lead + i] != 1)
    result = sum(self, dims, keepdim=True) if dims else self
    return result.view(size) if lead else result


# -- mean ------------------------------------------------------------------------------------------

class Mean(Op):
    """Mean of all elements."""
    shows = {"self_sym_numel": "count", "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        return grad.expand(ctx.self_size) / ctx.count


class MeanDim(Op):
    """Mean over some dims."""
    node_name = "MeanBackward1"
    out_name = "mean"
    shows = {"dim": dims_as_given, "keepdim": "keepdim",
             "self_sym_numel": lambda node: geo.numel(node.self_size),
             "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        return _restore_dims(grad, ctx.dims, ctx.keepdim, len(ctx.self_size)).expand(
            ctx.self_size) / ctx.count


@function()
def mean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The mean of all elements or over `dim`; needs a floating or complex dtype."""
    data = input._data
    if dim is None and out is None and dtype is None and keepdim is False \
            and input.__class__ is Tensor and data.__class__ is np.ndarray and data.size \
            and data.dtype in _cascade_sum.LANES:
        # (`x.mean()` of a float32/float64 tensor, a loss's or a metric's: the path below
        # without its checks, which such a call passes)
        total = _cascade_sum.sum_all(data)
        if total is not None:
            return _run(Mean, input, np.true_divide(total, data.dtype.type(data.size)),
                        {"self_size": data.shape, "count": data.size}, None)
    if isinstance(dim, _dtype.dtype):
        dim, dtype = None, dim
    if dim.__class__ is not int and dim is not None:
        refuse_non_int_dims(dim)
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    data = input._data
    target = input.dtype if dtype is None else _dtype.as_dtype(dtype, "mean")
    if target in _dtype.FLOAT8_DTYPES:          # (an empty sum is 0, then the division fails)
        kernel = "sum_cpu" if input._data.size else "div_cpu_reduced_float"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{target._scalar_name}'")
    if not (target.is_floating_point or target.is_complex):
        which = "Input" if dtype is None else "Optional"
        raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either "
                           f"a floating point or complex dtype. Got: {target._scalar_name}")
    dims = reduction_dims(input, dim)
    if isinstance(out, Tensor) and out.dtype is not target:
        if dtype is not None:
            raise RuntimeError(f"Expected out tensor to have dtype {target._cpp_name}, but got "
                               f"{out.dtype._cpp_name} instead")
        if not (out.dtype.is_floating_point or out.dtype.is_complex):
            # (torch's overload without dim words it so; with a dim, or for half precision,
            # its cast check names Float whatever the input's dtype)
            if dim is None and not (input.dtype.itemsize == 2 and
                                    input.dtype.is_floating_point):
                raise RuntimeError(f"mean.dtype_out(): input types can't be cast to the "
                                   f"desired output type {out.dtype._scalar_name}")
            raise RuntimeError(f"result type Float can't be cast to the desired output type "
                               f"{out.dtype._scalar_name}")
    xp = backend_of(data).xp
    acc = _accumulate_dtype(target._np)
    count = data.size if dims is None or data.ndim == 0 else \
        geo.numel([data.shape[d] for d in dims])
    total = _float_sum(data, dims, keepdim) if data.dtype == acc else None
    with np.errstate(invalid="ignore", divide="ignore"):    # (an empty mean is nan, silently)
        if total is not None:       # (torch's mean: the sum divided by the count)
            result = np.true_divide(total, acc.type(count))
        elif data.__class__ is np.ndarray:  # (NumPy's mean, without "Mean of empty slice")
            result = np.add.reduce(data.astype(acc, copy=False), axis=_axis(dims, data.ndim),
                                   keepdims=keepdim) / acc.type(count)
        else:                       # (the array's own: CuPy's, or a sparse layout's refusal)
            result = data.astype(acc, copy=False).mean(axis=_axis(dims, data.ndim),
                                                       keepdims=keepdim)
    result = xp.asarray(result).astype(target._np, copy=False)
    if dim is None:
        return _run(Mean, input, result, {"self_size": data.shape, "count": count}, out)
    return _run(MeanDim, input, result, {"self_size": data.shape, "dims": dims, "dim": dim,
                                         "keepdim": keepdim, "count": count}, out)


# -- prod ------------------------------------------------------------------------------------------

def _prod_of_others(input, dim):
    """For each element, the product of the other elements (along `dim`, or all), exact even
    when some elements are zero (a constant computed without the graph)."""
    data = input.detach()._data
    xp = backend_of(data).xp
    if dim is None:
        flat = data.reshape(-1)
        axis = 0
    else:
        flat, axis = data, dim
    ones_shape = list(flat.shape)
    ones_shape[axis] = 1
    one = xp.ones(ones_shape, flat.dtype)
    left = xp.cumprod(xp.concatenate([one, flat], axis=axis), axis=axis)
    left = xp.take(left, xp.arange(flat.shape[axis]), axis=axis)
    rev = xp.flip(flat, axis=axis)
    right = xp.cumprod(xp.concatenate([one, rev], axis=axis), axis=axis)
    right = xp.flip(xp.take(right, xp.arange(flat.shape[axis]), axis=axis), axis=axis)
    return wrap((left * right).reshape(data.shape))


def _prod_of_others_graph(input, dim):
    """`_prod_of_others` written with ember ops, so that it differentiates again (torch's
    prod_safe_zeros_backward: exclusive products from the left times those from the right)."""
    from .joining import cat
    flat, axis = (input.reshape(-1), 0) if dim is None else (input, dim)
    n = flat.shape[axis]
    if n == 0:
        return input
    ones_shape = list(flat.shape)
    ones_shape[axis] = 1
    ones = flat.new_ones(tuple(ones_shape))
    left = cat([ones, flat.narrow(axis, 0, n - 1)], axis).cumprod(axis)
    right = cat([ones, flat.narrow(axis, 1, n - 1).flip(axis)], axis).cumprod(axis).flip(axis)
    return (left * right).reshape(tuple(input.shape))


def _prod_grad(grad, x, result, dim):
    """grad * (product of the other elements): `result / x` when no element is zero (so that
    it can be differentiated again), else exactly: with ember ops when a graph of the
    gradients is wanted, else as a constant. A 0-dim input's
    gradient is grad itself, as torch's prod_backward returns it."""
    if not x.ndim:
        return grad
    if bool((x != 0).all()):
        return grad * (result / x).conj()
    if _grad_state.enabled:     # a graph of the gradients: torch's formula, differentiable
        return grad * _prod_of_others_graph(x, dim).conj()
    return grad * _prod_of_others(x, dim).conj()


class Prod(Op):
    """Product of all elements."""
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return _prod_grad(grad, x, result, None)


class ProdDim(Op):
    """Product along one dim."""
    shows = {"dim": "given_dim", "keepdim": "keepdim"}
    node_name = "ProdBackward1"
    out_name = "prod"
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        grad = _restore_dims(grad, (ctx.dim,), ctx.keepdim, x.ndim)
        result = _restore_dims(result, (ctx.dim,), ctx.keepdim, x.ndim)
        return _prod_grad(grad, x, result, ctx.dim if x.ndim else None)


def _product(xp, data, axis, keepdims):
    """The product over `axis` (None: all). NOTE: torch multiplies half precision in that
    precision, each product rounded, where NumPy's reduce keeps a float32 product: a running
    product's last element."""
    if data.dtype.itemsize != 2 or data.dtype.kind not in "fV":
        return xp.prod(data, axis=axis, keepdims=keepdims)
    flat = axis is None
    a, ax = (data.reshape(-1), 0) if flat else (data, axis)
    if a.shape[ax] == 0:
        return xp.prod(data, axis=axis, keepdims=keepdims)
    last = xp.take(xp.cumprod(a, axis=ax), [-1], axis=ax)
    if flat:
        return last.reshape((1,) * data.ndim if keepdims else ())
    return last if keepdims else last.squeeze(ax)


@function()
def prod(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Product of all elements, or along one dim; ints and bools multiply as int64."""
    if isinstance(dim, _dtype.dtype):
        dim, dtype = None, dim
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    data = input._data
    if dim is not None:         # (torch checks the dim before out's dtype)
        geo.wrap_dim(dim, data.ndim)
    if out is not None:
        dtype = _out_dtype("prod", dim, dtype, out)
    target = _sum_dtype(data, dtype, "prod")
    xp = backend_of(data).xp
    data = data.astype(target, copy=False)
    if dim is None:
        result = xp.asarray(_product(xp, data, None, False)).astype(target)
        return _run(Prod, input, result, {}, out)
    d = geo.wrap_dim(dim, data.ndim)
    result = _product(xp, data, d if data.ndim else None, keepdim)
    result = xp.asarray(result).astype(target, copy=False)
    return _run(ProdDim, input, result, {"dim": d, "keepdim": keepdim, "given_dim": dim}, out)
