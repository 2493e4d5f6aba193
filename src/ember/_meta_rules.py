"""The meta device's shape rules for NumPy functions (NOTE [ The meta backend ] in _meta.py):
what `MetaArray.__array_function__` answers for the functions whose geometry is written out,
the views it runs on ghosts, and the functions whose result's shape depends on values."""
import inspect
import math

import numpy as np

from ._meta import (NONZERO, MetaArray, MetaNumpy, _empty_like, _ghost, _reduced, _replace,
                    _shape_of, _stood_in, _zero_d, as_meta)

_signatures = {}


def _bound(func, args, kwargs):
    sig = _signatures.get(func)
    if sig is None:
        sig = _signatures[func] = inspect.signature(func)
    bound = sig.bind(*args, **kwargs)
    return bound.arguments


def _reduction_rule(func, *args, **kwargs):
    arguments = _bound(func, args, kwargs)
    a = arguments.pop(next(iter(arguments)))
    out = arguments.pop("out", None)
    extra = arguments.pop("kwargs", {})
    result = _reduced(lambda s, **k: func(s, **k), a, dict(arguments, **extra))
    return result if out is None else out


def _same_shape_rule(func, *args, **kwargs):
    """cumsum, sort, ...: the input's shape (flattened for axis=None where NumPy does)."""
    arguments = _bound(func, args, kwargs)
    a = arguments.pop(next(iter(arguments)))
    arguments.pop("out", None)
    small = np.zeros(tuple(min(n, 1) for n in a.shape), a.dtype)
    with np.errstate(all="ignore"):
        dt = func(small, **arguments).dtype
    flat = "axis" in arguments and arguments["axis"] is None
    return MetaArray((a.size,) if flat else a.shape, dt)


def _like_rule(func, a, *args, **kwargs):
    arguments = _bound(func, (a,) + args, kwargs)
    return _empty_like(a, arguments.get("dtype"), arguments.get("order", "K"),
                       shape=arguments.get("shape"))


def _copy_rule(func, a, *args, **kwargs):
    order = kwargs.get("order", args[0] if args else ("K" if func is np.copy else "C"))
    if func is np.ascontiguousarray:
        order = "C"
    dtype = kwargs.get("dtype")
    return _empty_like(a, dtype, order)


def _reshape_rule(func, a, *args, **kwargs):
    arguments = _bound(func, (a,) + args, kwargs)
    shape = arguments.get("shape", arguments.get("newshape"))
    order = arguments.get("order", "C")
    try:
        return as_meta(np.reshape(_ghost(a), shape, order=order, copy=False))
    except ValueError:
        if arguments.get("copy") is False:
            raise
        small = np.broadcast_to(np.zeros((), np.int8), a.shape)
        return MetaArray(np.reshape(small, shape, order=order).shape, a.dtype)


def _ravel_rule(func, a, order="C"):
    return _reshape_rule(np.reshape, a, -1, order=order)


def _concatenate_rule(func, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    arrays = list(arrays)
    if axis is None:
        arrays = [MetaArray((math.prod(_shape_of(x)),), x.dtype) for x in arrays]
        axis = 0
    small = [np.zeros(tuple(min(n, 1) for n in _shape_of(x)), x.dtype) for x in arrays]
    kw = {} if dtype is None else {"dtype": dtype, "casting": casting}
    shapes = [_shape_of(x) for x in arrays]
    dt = np.concatenate(small, axis=axis, **kw).dtype       # (also NumPy's shape errors)
    ax = np.lib.array_utils.normalize_axis_index(axis, len(shapes[0]))
    for s in shapes[1:]:
        if len(s) != len(shapes[0]) or any(m != n for d, (m, n) in enumerate(zip(s, shapes[0]))
                                            if d != ax):
            raise ValueError("all the input array dimensions except for the concatenation "
                             "axis must match exactly")
    shape = list(shapes[0])
    shape[ax] = sum(s[ax] for s in shapes)
    return out if out is not None else MetaArray(shape, dt)


def _stack_rule(func, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    arrays = list(arrays)
    shapes = {tuple(_shape_of(x)) for x in arrays}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    shape = shapes.pop()
    ax = np.lib.array_utils.normalize_axis_index(axis, len(shape) + 1)
    expanded = [MetaArray(shape[:ax] + (1,) + shape[ax:], x.dtype) for x in arrays]
    return _concatenate_rule(np.concatenate, expanded, ax, out, dtype, casting)


def _where_rule(func, condition, *values):
    if not values:
        raise NotImplementedError(NONZERO)
    shape = np.broadcast_shapes(*(_shape_of(x) for x in (condition,) + values))
    dt = np.where(True, *(_zero_d(x) for x in values)).dtype
    return MetaArray(shape, dt)


def _elementwise_rule(func, *args, **kwargs):
    """clip and the like: operands broadcast, NumPy's dtype for 0-dim stand-ins."""
    out = kwargs.pop("out", None)
    arrays = [x for x in args if x is not None]
    shape = np.broadcast_shapes(*(_shape_of(x) for x in arrays))
    with np.errstate(all="ignore"):
        dt = np.asarray(func(*(_zero_d(x) for x in args), **kwargs)).dtype
    return out if out is not None else MetaArray(shape, dt)


def _copyto_rule(func, dst, src, casting="same_kind", where=True):
    np.broadcast_shapes(dst.shape, _shape_of(src))
    return None


def _dot_rule(func, a, b, out=None):
    sa, sb = _shape_of(a), _shape_of(b)
    dt = np.dot(_zero_d(a), _zero_d(b)).dtype
    if not sa or not sb:
        shape = np.broadcast_shapes(sa, sb)
    elif len(sb) == 1:
        shape = sa[:-1]
    else:
        shape = sa[:-1] + sb[:-2] + sb[-1:]
    return MetaArray(shape, dt)


def _tensordot_rule(func, a, b, axes=2):
    sa, sb = _shape_of(a), _shape_of(b)
    if isinstance(axes, int):
        axa, axb = list(range(len(sa) - axes, len(sa))), list(range(axes))
    else:
        axa, axb = ([x] if isinstance(x, int) else list(x) for x in axes)
    axa = [x % len(sa) for x in axa]
    axb = [x % len(sb) for x in axb]
    for i, j in zip(axa, axb):
        if sa[i] != sb[j]:
            raise ValueError("shape-mismatch for sum")
    dt = np.result_type(_zero_d(a), _zero_d(b))
    shape = tuple(n for d, n in enumerate(sa) if d not in axa) + \
        tuple(n for d, n in enumerate(sb) if d not in axb)
    return MetaArray(shape, dt)


def _shape_only(func, *args, **kwargs):
    """Functions of geometry and dtype alone (result_type, ndim, shape ...): meta arrays
    stand in as ghosts."""
    return func(*_replace(args, _ghost), **_replace(kwargs, _ghost))


def _no_sharing(func, *args, **kwargs):
    return False


def _pad_rule(func, array, pad_width, mode="constant", **kwargs):
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.intp), (array.ndim, 2))
    return MetaArray(tuple(n + int(lo) + int(hi) for n, (lo, hi) in zip(array.shape, widths)),
                     array.dtype)


def _einsum_rule(func, subscripts, *operands, out=None, dtype=None, **kwargs):
    """einsum's result: each output letter takes its size from the operands, an ellipsis the
    broadcast of theirs; NumPy's dtype for 0-dim stand-ins."""
    if not isinstance(subscripts, str):
        return _stood_in(func, (subscripts,) + operands, dict(kwargs, out=out, dtype=dtype))
    spec = subscripts.replace(" ", "")
    inputs, arrow, output = spec.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError("more operands provided to einstein sum function than specified "
                         "in the subscripts string")
    sizes, ellipsis = {}, ()
    for term, x in zip(terms, operands):
        shape = _shape_of(x)
        letters = term.replace("...", "")
        if "..." in term:
            lead = term.index("...")
            n = len(shape) - len(letters)
            ellipsis = np.broadcast_shapes(ellipsis, shape[lead:lead + n])
            shape = shape[:lead] + shape[lead + n:]
        if len(shape) != len(letters):
            raise ValueError("operand has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
        for letter, n in zip(letters, shape):
            have = sizes.get(letter, 1)             # (a size of 1 broadcasts)
            if n != 1 and have != 1 and n != have:
                raise ValueError("operands could not be broadcast together with remapped "
                                 "shapes")
            sizes[letter] = n if have == 1 else have
    if not arrow:
        letters = inputs.replace(",", "").replace("...", "")
        output = ("..." if "..." in inputs else "") + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1))
    shape = []
    for part in output.partition("...")[::2] if "..." in output else (output,):
        shape.append(tuple(sizes[c] for c in part))
    shape = shape[0] + (ellipsis + shape[1] if "..." in output else ())
    dt = np.result_type(*(_zero_d(x) for x in operands)) if dtype is None else np.dtype(dtype)
    return out if out is not None else MetaArray(shape, dt)


def _take_rule(func, a, indices, axis=None, out=None, mode="raise"):
    ishape = _shape_of(indices)
    dt = a.dtype
    if axis is None:
        return MetaArray(ishape, dt)
    ax = np.lib.array_utils.normalize_axis_index(axis, a.ndim)
    return MetaArray(a.shape[:ax] + tuple(ishape) + a.shape[ax + 1:], dt)


def _take_along_rule(func, arr, indices, axis=-1):
    ishape = _shape_of(indices)
    if axis is None:
        return MetaArray(ishape, arr.dtype)
    ax = np.lib.array_utils.normalize_axis_index(axis, len(_shape_of(arr)))
    shape = list(np.broadcast_shapes(
        tuple(1 if d == ax else n for d, n in enumerate(_shape_of(arr))),
        tuple(1 if d == ax else n for d, n in enumerate(ishape))))
    shape[ax] = ishape[ax]
    return MetaArray(shape, arr.dtype)


def _in_place_rule(func, *args, **kwargs):
    """put, put_along_axis, fill_diagonal, ...: writes, which have nothing to do."""
    return None


def _same_geometry_rule(func, a, *args, **kwargs):
    """tril, triu, roll, partition ...: the input's shape and dtype (a fresh row-major array);
    argpartition: its indices."""
    a = a if a.__class__ is MetaArray else MetaNumpy.asarray(a)
    if func is np.argpartition:
        return MetaArray(a.shape if kwargs.get("axis", args[1] if len(args) > 1 else -1)
                         is not None else (a.size,), np.intp)
    return MetaArray(a.shape, a.dtype)


RULES = {}
for _f in (np.sum, np.prod, np.mean, np.max, np.min, np.amax, np.amin, np.any, np.all, np.std,
           np.var, np.nansum, np.nanprod, np.nanmean, np.nanmax, np.nanmin, np.nanstd,
           np.nanvar, np.argmax, np.argmin, np.nanargmax, np.nanargmin, np.ptp, np.median,
           np.nanmedian, np.count_nonzero, np.linalg.vector_norm):
    RULES[_f] = _reduction_rule
for _f in (np.sort, np.argsort, np.cumsum, np.cumprod, np.nancumsum, np.nancumprod):
    RULES[_f] = _same_shape_rule
for _f in (np.empty_like, np.zeros_like, np.ones_like):
    RULES[_f] = _like_rule
RULES[np.full_like] = lambda func, a, fill_value, *args, **kwargs: _like_rule(
    np.empty_like, a, *args, **kwargs)
for _f in (np.copy, np.ascontiguousarray, np.asfortranarray):
    RULES[_f] = _copy_rule
RULES[np.reshape] = _reshape_rule
RULES[np.ravel] = _ravel_rule
RULES[np.concatenate] = _concatenate_rule
RULES[np.stack] = _stack_rule
RULES[np.where] = _where_rule
RULES[np.clip] = _elementwise_rule
RULES[np.copyto] = _copyto_rule
RULES[np.dot] = _dot_rule
RULES[np.tensordot] = _tensordot_rule
RULES[np.pad] = _pad_rule
RULES[np.einsum] = _einsum_rule
RULES[np.take] = _take_rule
RULES[np.take_along_axis] = _take_along_rule
for _f in (np.put, np.put_along_axis, np.place, np.putmask, np.fill_diagonal):
    RULES[_f] = _in_place_rule
for _f in (np.tril, np.triu, np.roll, np.partition, np.argpartition):
    RULES[_f] = _same_geometry_rule
for _f in (np.result_type, np.can_cast, np.ndim, np.shape, np.size, np.iscomplexobj,
           np.isrealobj, np.broadcast_shapes):
    RULES[_f] = _shape_only
RULES[np.may_share_memory] = RULES[np.shares_memory] = _no_sharing
RULES[np.real] = lambda func, a: a.real if a.__class__ is MetaArray else np.real(a)
RULES[np.imag] = lambda func, a: a.imag if a.__class__ is MetaArray else np.imag(a)

# views: NumPy computes their geometry alone, so they run on ghosts
_VIEWS = {"transpose", "swapaxes", "moveaxis", "rollaxis", "squeeze", "expand_dims",
          "broadcast_to", "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d", "flip",
          "fliplr", "flipud", "diagonal", "split", "array_split", "hsplit",
          "vsplit", "dsplit", "sliding_window_view", "matrix_transpose", "permute_dims",
          "unstack"}
# the functions whose result's shape depends on values: aten's name for torch's error (None:
# nonzero's own words)
_DATA_DEPENDENT = {"nonzero": None, "argwhere": None, "flatnonzero": None, "compress": None,
                   "extract": None, "unique": "_unique2", "unique_values": "_unique2",
                   "unique_counts": "_unique2", "unique_inverse": "_unique2",
                   "unique_all": "_unique2", "bincount": "bincount", "array_equal": "equal",
                   "array_equiv": "equal", "allclose": "allclose", "trim_zeros": "nonzero"}
