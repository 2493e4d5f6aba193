"""Sets of values: unique, unique_consecutive, isin.

unique always sorts (as torch's CPU kernel does, whatever `sorted` says); every NaN is a value
of its own. The values output of unique/unique_consecutive is in the graph with a node whose
backward raises, as in torch.
"""
import numpy as np

from .. import _dtype, _geometry as geo
from .._device import backend_of
from .._tensor import Tensor, wrap
from .argument_errors import check_bool
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import check_out, write_out
from ._op import Op, record
from .elementwise import common_dtype
from .registry import function
from .sorting import order


class Unique2(Op):
    """unique's values: torch has no derivative for them."""
    forward_name = "_unique2"

    def backward(ctx, grad):
        raise NotImplementedError(f"the derivative for '{ctx.forward_name}' is not implemented.")


class UniqueDim(Unique2):
    forward_name = "unique_dim"


class UniqueConsecutive(Unique2):
    forward_name = "unique_consecutive"


def _refuse_complex(input):
    if input._data.dtype.kind == "c":
        raise NotImplementedError(f"\"unique\" not implemented for '{input.dtype._scalar_name}'")


def _results(op, input, values, inverse, counts, return_inverse, return_counts):
    xp = backend_of(input._data).xp
    v = wrap(xp.asarray(values, order="C"))
    if input._requires_grad and _grad_state.enabled and v.dtype.is_floating_point:
        record(op, (input,), (v,), {})
    if not (return_inverse or return_counts):
        return v
    result = (v,)
    if return_inverse:
        result += (wrap(xp.asarray(inverse, dtype=np.int64, order="C")),)
    if return_counts:
        result += (wrap(xp.asarray(counts, dtype=np.int64)),)
    return result


def _rows(data, d):
    """`data` with dim d first, as (n, rest) rows; plus the moved shape."""
    xp = backend_of(data).xp
    moved = xp.moveaxis(data, d, 0)
    return moved.reshape(moved.shape[0], geo.numel(moved.shape[1:])), moved.shape


def _check_dim(data, d):
    if data.size == 0 and data.shape[d] != 0:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")


def _groups(starts, n):
    """(group id of each sorted position, counts) from a bool mask of group starts."""
    xp = backend_of(starts).xp
    ids = xp.cumsum(starts) - 1
    first = xp.flatnonzero(starts)
    if xp is not np:
        return ids, xp.diff(first, append=n)
    return ids, np.diff(np.append(first, n))


def _sortable(data):
    return data.astype(np.float32) if data.dtype.kind == "V" else data


def _keyword_bools(name, **flags):
    """torch's Python unique functions pass their flags to the native op by keyword: torch's
    TypeError (no position) for a flag that is not a bool."""
    for arg, value in flags.items():
        check_bool(name, arg, None, value)


@function()
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted), with the inverse indices and counts when asked."""
    _keyword_bools("_unique2" if dim is None else "unique_dim", sorted=sorted,
                   return_inverse=return_inverse, return_counts=return_counts)
    _refuse_complex(input)
    if input._data.dtype in _dtype.FLOAT8_NP:          # (NOTE [ Float8 dtypes ])
        raise NotImplementedError(f"\"unique\" not implemented for '{input.dtype._scalar_name}'")
    if input.is_meta:
        from .._meta import no_kernel
        raise no_kernel("_unique2" if dim is None else "unique_dim")
    data = input._data
    xp = backend_of(data).xp
    if dim is not None:
        d = geo.wrap_dim(dim, data.ndim) if data.ndim else _no_dims(dim)
        _check_dim(data, d)
        rows, shape = _rows(data, d)
        keys = _sortable(rows)
        perm = xp.lexsort(keys.T[::-1]) if rows.shape[1] else xp.arange(rows.shape[0])
        s = keys[perm]
        starts = xp.ones(len(s), bool)
        starts[1:] = (s[1:] != s[:-1]).any(axis=1)
        ids, counts = _groups(starts, len(s))
        inverse = xp.empty(len(s), np.int64)
        inverse[perm] = ids
        values = xp.moveaxis(rows[perm[starts]].reshape((-1,) + shape[1:]), 0, d)
        return _results(UniqueDim, input, values, inverse, counts, return_inverse,
                        return_counts)
    flat = data.reshape(-1)
    n = flat.shape[0]
    if return_inverse:
        perm = order(flat)
        s = flat[perm]
    else:
        perm, s = None, _sortable(flat).copy()
        s.sort()
        s = s.astype(data.dtype, copy=False)
    starts = xp.ones(n, bool)
    starts[1:] = s[1:] != s[:-1]             # NaN != NaN: every NaN stands alone
    ids, counts = _groups(starts, n)
    inverse = None
    if return_inverse:
        inverse = xp.empty(n, np.int64)
        inverse[perm] = ids
        inverse = inverse.reshape(data.shape)
    return _results(Unique2, input, s[starts], inverse, counts, return_inverse, return_counts)


def _no_dims(dim):
    raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


@function()
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse each run of equal consecutive values (or slices along `dim`) to one."""
    _keyword_bools("unique_consecutive", return_inverse=return_inverse,
                   return_counts=return_counts)
    _refuse_complex(input)
    if input.is_meta:
        from .._meta import no_kernel
        raise no_kernel("unique_consecutive")
    data = input._data
    xp = backend_of(data).xp
    if dim is None:
        rows, shape, d = data.reshape(-1, 1), None, None
    else:
        d = geo.wrap_dim(dim, data.ndim) if data.ndim else _no_dims(dim)
        _check_dim(data, d)
        rows, shape = _rows(data, d)
    n = rows.shape[0]
    starts = xp.ones(n, bool)
    starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    ids, counts = _groups(starts, n)
    if dim is None:
        values, inverse = rows[starts, 0], ids.reshape(data.shape)
    else:
        values = xp.moveaxis(rows[starts].reshape((-1,) + shape[1:]), 0, d)
        inverse = ids
    return _results(UniqueConsecutive, input, values, inverse, counts, return_inverse,
                    return_counts)


@function(method=False)
def isin(elements, test_elements, *, assume_unique=False, invert=False, out=None):
    """Whether each element of `elements` is in `test_elements` (either may be a number)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor) or \
            assume_unique.__class__ is not bool or invert.__class__ is not bool:
        raise TypeError("isin: arguments of no signature")  # (worded by the wrapper, from
        #                                                     signatures.SIGNATURES)
    for x in (elements, test_elements):
        if isinstance(x, Tensor) and x._data.dtype.kind in "bc":
            raise RuntimeError(f"Unsupported input type encountered for isin(): "
                               f"{x.dtype._scalar_name}")
    common = common_dtype((elements, test_elements))
    xp = backend_of((elements if isinstance(elements, Tensor) else test_elements)._data).xp

    def array(x):
        a = x._data if isinstance(x, Tensor) else xp.asarray(x)
        return _sortable(a.astype(common, copy=False))
    e, t = array(elements), array(test_elements)
    result = xp.isin(e, t, assume_unique=assume_unique, invert=invert)
    result = xp.asarray(result).reshape(e.shape)
    if out is not None:
        check_out("isin", out, result.dtype, False)
        return write_out(out, result)
    return wrap(result)
