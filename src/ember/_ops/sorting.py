"""Sorting: sort, argsort, msort, topk. Sets and counting live in `sorting_sets` (unique,
unique_consecutive, isin) and `sorting_bins` (searchsorted, bucketize, histc, bincount).

NOTE [ Packed sort keys ]
Values of 32 bits or less become order-preserving unsigned keys (NaN largest, -0.0 == 0.0),
shifted up 32 bits and or-ed with their position: one `np.sort` of uint64 keys (NumPy's SIMD
sort) then gives a stable order, faster than `np.argsort`, and ties keep their input order as
torch's stable sort does. 64-bit values use `np.argsort` (stable when asked or small).

NOTE [ Unstable sort ties ]
torch's CPU sort with stable=False runs libstdc++'s std::sort (introsort) on (value, index)
pairs comparing values only, which leaves tied elements of rows longer than 16 in an order of
its own (its final insertion sort keeps shorter rows stable); 1-D integer tensors of at least
32768 elements sorted ascending take a radix sort instead, which is stable. The stable order is
computed first and only rows with a tie are replayed (`_libstdcxx_select.sort_positions`), up
to `_REPLAY_LONGEST` elements: longer rows keep the stable order.
"""
import numpy as np

from .._meta import META_NUMPY

from .. import _dtype, _geometry as geo, return_types
from .._device import backend_of
from .._memory_format import laid_out_like
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import check_out, write_out
from ._libstdcxx_select import sort_positions, topk_arrangement
from ._op import Op, record
from .elementwise import check_limited
from .int_arguments import check_ints
from .reduction import _refuse_non_bool
from .registry import function

_STABLE_BELOW = 4096     # 64-bit rows shorter than this always sort stably (as torch does)
_INSERTION_ONLY = 16     # std::sort leaves rows this short to its (stable) insertion sort
_RADIX_FROM = 32768      # 1-D integer rows this long sort ascending by torch's stable radix sort
_REPLAY_LONGEST = 100_000   # longer rows with ties keep the stable order (replay too slow)
_SHORT_ROW = 64          # rows this short sort by comparisons, not packed keys


def _refuse(name, input):
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):
        from ..sparse._coo import not_implemented      # NOTE [ Sparse tensors ]
        raise not_implemented("sort.stable" if name == "sort" else name)
    kind = input._data.dtype.kind
    if kind == "c":
        # (torch's texts start with a space)
        raise RuntimeError(f" {'Sort' if name == 'sort' else name} does not support complex "
                           f"dtypes on CPU")
    if kind == "b" and name == "topk":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if name == "topk":
        check_limited(input, "topk_cpu")
    elif input._data.dtype in _dtype.FLOAT8_NP:       # (NOTE [ Float8 dtypes ])
        raise NotImplementedError(f"\"sorting_kernel_method_name\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")


def _keys32(a, descending):
    """Order-preserving uint32 keys of `a` (bool, ints up to 32 bits, floats up to 32 bits)."""
    xp = backend_of(a).xp
    if a.dtype.kind in "fV":
        f = a.astype(np.float32)
        f += np.float32(0)                                   # -0.0 -> 0.0
        nan = xp.isnan(f)
        if nan.any():
            f[nan] = np.nan                                  # one NaN, the positive one
        u = f.view(np.uint32)
        u ^= (-(u >> np.uint32(31))) | np.uint32(0x80000000)
    elif a.dtype.kind == "u":
        u = a.astype(np.uint32)
    else:
        u = a.astype(np.int32).view(np.uint32) ^ np.uint32(0x80000000)
    return ~u if descending else u


def order(a, descending=False, stable=False):
    """Indices (int64) that sort `a` along its last axis; NaN is the largest value."""
    xp = backend_of(a).xp
    if xp is META_NUMPY:
        return xp.empty(a.shape, np.int64)
    n = a.shape[-1]
    if n <= _SHORT_ROW and a.dtype.kind in "biuf" and a.__class__ is np.ndarray:
        # a comparison sort of a short row costs less than making its keys: NumPy's stable
        # argsort orders as the keys do (NaN last and equal to NaN, -0.0 equal to 0.0)
        kind = "stable"
    elif a.dtype.itemsize <= 4 and n < 2 ** 32:
        keys = _keys32(a, descending).astype(np.uint64)
        keys <<= np.uint64(32)
        keys |= xp.arange(n, dtype=np.uint64)
        keys.sort(axis=-1)
        return (keys & np.uint64(0xFFFFFFFF)).astype(np.int64)
    else:
        kind = "stable" if stable or n < _STABLE_BELOW else None
    if not descending:
        return xp.argsort(a, axis=-1, kind=kind)
    # stable descending: sort the reversed row ascending, then reverse back
    return (n - 1) - xp.argsort(a[..., ::-1], axis=-1, kind=kind)[..., ::-1]


def _last(data, d):
    if d == data.ndim - 1:
        return data
    return backend_of(data).xp.moveaxis(data, d, -1) if data.ndim else data.reshape(1)


def _back(result, d, ndim):
    if d == ndim - 1:
        return result
    return backend_of(result).xp.moveaxis(result, -1, d) if ndim else result.reshape(())


def _along(a, index):
    """take_along_axis of the last axis (a 1-D row indexed directly: a tenth of its cost)."""
    if a.ndim == 1 and a.__class__ is np.ndarray:
        return a[index]
    return backend_of(a).xp.take_along_axis(a, index, axis=-1)


class Sort(Op):
    """Values picked by sort/topk along a dim (as given): the gradient goes back to their
    indices."""
    frees = True                # (torch saves the indices)
    shows = {"dim": "dim", "indices": "indices", "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        if not ctx.self_size:
            return grad
        return grad.new_zeros(ctx.self_size).scatter(ctx.dim, ctx.indices, grad)


class SortStable(Sort):
    """sort called with `stable=` (torch's other overload)."""
    node_name = "SortBackward1"


class Topk(Sort):
    pass


def _c_order(array):
    """`array` (of any array module, or a NumPy scalar) as a C-contiguous array on its own
    device, 0-dim kept 0-dim."""
    xp = backend_of(array).xp if hasattr(array, "shape") and not isinstance(array, np.generic) \
        else np
    array = xp.asarray(array)
    return array if array.flags.c_contiguous else array.copy()


def _pair(name, op, input, values, index, dim, out):
    """Wrap (values, indices), record the graph (`dim` as given) and fill `out=` (values,
    indices)."""
    like = input._data if name == "sort" else None
    v, i = wrap(laid_out_like(values, like)), wrap(laid_out_like(index, like))
    if input._requires_grad and _grad_state.enabled and out is None:
        record(op, (input,), (v,), {"dim": dim, "self_size": input._data.shape, "indices": i})
    kind = getattr(return_types, name)
    if out is None:
        return kind((v, i))
    for o, r in zip(out, (v, i)):
        check_out(name, o, r._data.dtype, input._requires_grad)
        if o._data.dtype != r._data.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {r.dtype._cpp_name}, but got "
                               f"{o.dtype._cpp_name} instead")
        write_out(o, r._data)
    return getattr(return_types, name + "_out")(out)


def _sorted(input, dim, descending, stable):
    _refuse("sort", input)
    data = input._data
    d = geo.wrap_dim(dim, data.ndim)
    a = _last(data, d)
    index = order(a, descending, bool(stable) or _radix_sorted(a, descending))
    values = _along(a, index)
    if not stable and a.__class__ is np.ndarray and _std_sort_may_differ(a, descending):
        replayed = _as_std_sort(a, index, values, descending)
        if replayed is not None:
            index, values = replayed, _along(a, replayed)
    return d, _back(values, d, data.ndim), _back(index, d, data.ndim)


def _radix_sorted(a, descending):
    """Does torch's CPU sort take its (stable) radix sort for `a`? 1-D integers (not bool) of
    at least 32768 elements, ascending."""
    return a.ndim == 1 and a.dtype.kind in "iu" and a.shape[0] >= _RADIX_FROM and not descending


def _std_sort_may_differ(a, descending):
    """Can torch's unstable CPU sort of rows like `a`'s leave ties out of input order?"""
    n = a.shape[-1]
    return _INSERTION_ONLY < n <= _REPLAY_LONGEST and not _radix_sorted(a, descending)


def _as_std_sort(a, index, values, descending):
    """`index` (a stable sort of `a` along its last axis) with each row holding a tie replaced
    by std::sort's order (NOTE [ Unstable sort ties ]); None when no row has a tie."""
    if a.dtype.kind == "V":                     # bfloat16: compare as float32
        a, values = a.astype(np.float32), values.astype(np.float32)
    redo = _equal(values[..., 1:], values[..., :-1]).any(-1)
    if not redo.any():
        return None
    n = a.shape[-1]
    rows = a.reshape(-1, n)
    index = index.copy()
    flat = index.reshape(-1, n)
    for r in np.flatnonzero(redo.reshape(-1)).tolist():
        flat[r] = sort_positions(rows[r], descending)
    return index


@function()
def sort(input, dim=-1, descending=False, *, stable=None, out=None):
    """(values, indices) sorted along `dim`; NaN sorts as the largest value."""
    if descending.__class__ is not bool:
        _refuse_non_bool(descending, "descending")
    d, values, index = _sorted(input, dim, descending, stable)
    return _pair("sort", Sort if stable is None else SortStable, input, values, index, dim,
                 out)


@function()
def argsort(input, dim=-1, descending=False, *, stable=False, out=None):
    """The indices that sort `input` along `dim`."""
    if descending.__class__ is not bool:
        _refuse_non_bool(descending, "descending")
    if out is not None and isinstance(out, Tensor) and out.dtype is not _dtype.int64:
        raise RuntimeError(f"Expected out tensor to have dtype long int, but got "
                           f"{out.dtype._cpp_name} instead")
    index = _sorted(input, dim, descending, stable)[2]
    if out is not None:
        check_out("argsort", out, index.dtype, False)
        return write_out(out, index)
    return wrap(laid_out_like(index, input._data))


@function()
def msort(input, *, out=None):
    """`sort(input, dim=0).values`."""
    if out is not None:
        if isinstance(out, Tensor) and out._data.dtype != input._data.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {input.dtype._cpp_name}, "
                               f"but got {out.dtype._cpp_name} instead")
        check_out("msort", out, input._data.dtype, input._requires_grad)
        return write_out(out, _sorted(input, 0, False, False)[1])
    return sort(input, 0).values


def _top_candidates(a, k, largest):
    """For one long row: positions that surely hold the top k (None: no shortcut).
    NOTE: a threshold from a strided sample keeps only the few elements beyond it; `~(a < t)`
    keeps NaN too (the largest value). Correct whenever at least k elements pass."""
    n = a.shape[0]
    if n < 65536 or k > n // 64:
        return None
    sample = a[::n // 8192]
    s = sample.shape[0]
    r = min(s - 1, (4 * k * s) // n + 16)
    if largest:
        t = np.partition(sample, s - 1 - r)[s - 1 - r]
        cand = np.flatnonzero(~(a < t))
    else:
        t = np.partition(sample, r)[r]
        cand = np.flatnonzero(~(a > t))
    return cand if k <= cand.shape[0] <= n // 4 else None


def _select(a, k, largest):
    """Positions of the k largest (or smallest) along the last axis, unordered, and the part
    of `a` that holds every element equal to one of them (`a` itself, or a 1-D subset)."""
    n = a.shape[-1]
    xp = backend_of(a).xp
    if k == n:
        return xp.broadcast_to(xp.arange(n), a.shape).copy(), a
    if a.ndim == 1 and a.__class__ is np.ndarray:
        cand = _top_candidates(a, k, largest)
        if cand is not None:
            pool = a[cand]
            return cand[_select(pool, k, largest)[0]], pool
    if largest:
        return xp.argpartition(a, n - k, axis=-1)[..., n - k:], a
    return xp.argpartition(a, k - 1, axis=-1)[..., :k], a


def _equal(x, y):
    """x == y with NaN equal to NaN (-0.0 equals 0.0 already)."""
    same = x == y
    if x.dtype.kind == "f":
        same |= np.isnan(x) & np.isnan(y)
    return same


def _tied(values, pool):
    """Per row: do the selected `values` (sorted) tie among themselves, or with an element of
    `pool` left out (at the cut)? Only then can torch's arrangement differ from the sorted one."""
    kth = values[..., -1:]
    inside = _equal(values[..., 1:], values[..., :-1]).any(-1)
    cut = _equal(pool, kth).sum(-1) > _equal(values, kth).sum(-1)
    return inside | cut


def _as_torch_cpu(a, index, values, pool, k, largest, sorted):
    """`index` (the k selected of each row, sorted) with the rows whose order torch's CPU
    kernel decides (ties; with sorted=False and k * 64 > n every order) replaced by a replay of
    its libstdc++ algorithms, see _libstdcxx_select.py."""
    n = a.shape[-1]
    if not sorted and 1 < k and k * 64 > n:
        redo = np.ones(index.shape[:-1], bool)
    else:
        redo = _tied(values, pool)
    if not redo.any():
        return index
    index = index.copy()
    rows, flat = a.reshape(-1, n), index.reshape(-1, k)
    for r in np.flatnonzero(redo.reshape(-1)).tolist():
        flat[r] = topk_arrangement(rows[r], k, largest, sorted)
    return flat.reshape(index.shape)


def _untied_top(a, k, largest):
    """NOTE [ Untied short rows ]
    The k largest (smallest) of each short NumPy row of `a` and their positions, in order,
    when no row holds two equal values or a NaN; else None. Without ties the top k and their
    order are unique, so torch's kernel and the general path below give exactly these; a row
    that ties (-0.0 and 0.0 included) goes the general way, which replays torch's choice."""
    index = a.argsort(axis=-1)
    values = _along(a, index) if a.ndim == 1 else np.sort(a, axis=-1)   # (alike when untied)
    if not (values[..., 1:] > values[..., :-1]).all():    # (false beside a NaN too)
        return None
    if largest:
        index, values = index[..., ::-1], values[..., ::-1]
    return values[..., :k].copy(), index[..., :k].astype(np.int64)


@function()
def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    """The k largest (or smallest) elements along `dim` and their indices. torch's CPU kernel
    sorts them (NaN the largest) unless sorted=False and k * 64 > n; where elements tie, its
    libstdc++ algorithms decide which come and in what order, and ours follow them."""
    if k.__class__ is not int or dim is not None and dim.__class__ is not int:
        check_ints("topk", 1, k=k, dim=-1 if dim is None else dim)
        k = int(k)
    if largest.__class__ is not bool or sorted.__class__ is not bool:
        _refuse_non_bool(largest if largest.__class__ is not bool else sorted, "largest/sorted")
    data = input._data
    d = geo.wrap_dim(-1 if dim is None else dim, data.ndim)
    if not 0 <= k <= (data.shape[d] if data.ndim else 1):
        raise RuntimeError("selected index k out of range")
    _refuse("topk", input)          # (torch checks the dtype after dim and k)
    if data.__class__ is np.ndarray and data.ndim and d == data.ndim - 1 and k and sorted \
            and data.shape[d] <= _SHORT_ROW and data.dtype.kind in "iuf":
        found = _untied_top(data, k, largest)
        if found is not None:
            return _pair("topk", Topk, input, found[0], found[1], -1 if dim is None else dim,
                         out)
    a = _last(data, d)
    if a.dtype.kind == "V":                     # bfloat16: NumPy cannot partition it
        a = a.astype(np.float32)
    xp = backend_of(a).xp
    if k:
        index, pool = _select(a, k, largest)
        values = _along(a, index)
        if k > 1:
            o = order(values, descending=largest, stable=True)
            index, values = _along(index, o), _along(values, o)
        if a.__class__ is np.ndarray:
            fixed = _as_torch_cpu(a, index, values, pool, k, largest, sorted)
            if fixed is not index:
                index, values = fixed, _along(a, fixed)
    elif not data.ndim:         # torch: a 0-dim tensor's top 0 is its element all the same
        return topk(input, 1, dim, largest, sorted, out=out)
    else:
        index = xp.zeros(a.shape[:-1] + (0,), np.int64)
        values = xp.take_along_axis(a, index, axis=-1)
    values = values.astype(data.dtype, copy=False)
    index = index.astype(np.int64, copy=False)
    return _pair("topk", Topk, input, _back(values, d, data.ndim), _back(index, d, data.ndim),
                 -1 if dim is None else dim, out)


from . import sorting_bins, sorting_sets  # noqa: E402,F401  (register their ops)
