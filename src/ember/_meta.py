"""The meta device: tensors with a shape, a dtype and strides, but no data.

NOTE [ The meta backend ]
torch's 'meta' device runs every op for its result's geometry only, so that a model of any
size can be built (and traced) without memory, then materialised with `Module.to_empty`. In
ember a tensor's `_data` is an array of its device's array module, and op code computes with
`backend_of(data).xp`; the meta device is one more backend, whose arrays are `MetaArray`s:
a shape, a NumPy dtype and byte strides, like an `ndarray` without a buffer. Op code then
runs unchanged, and each array operation it asks for answers a `MetaArray` of the right
shape, dtype and layout, found in one of three ways:

1. a rule: element-wise ufuncs broadcast their operands and take the dtype NumPy gives
   0-dim stand-ins of the operands' dtypes (the size does not change a dtype); reductions,
   matmul, joins, creation and copies have their shape rules written out in _meta_rules.py.
2. views (slicing, transpose, reshape where NumPy can view, broadcast_to, diagonal ...) run on
   a "ghost": an ndarray with the meta array's shape and strides over one element of memory.
   NumPy computes a view's geometry without touching its elements, so a ghost gives exact
   shapes and strides for tensors of any size (NumPy is never asked to read it).
3. anything else runs in NumPy on stand-ins (arrays of the same shapes and strides, filled
   with harmless values: `_stand_in`) while they are small (`STAND_IN_LIMIT` elements), and
   only the geometry of the results is kept. Larger ones raise NotImplementedError ("Could
   not run '<function>' with arguments from the 'Meta' backend ...").

What must never give a wrong answer are the results that depend on values: the operations
whose result's shape does (nonzero, unique, a boolean mask ...) raise as torch does, and a
value a meta array would hand back to Python (`bool`, `int`, a Python number from a stand-in)
raises NotImplementedError, so op code that branches on values stops there instead of
deciding from stand-in values. Ops whose CPU kernels only check values (index bounds, a
target's range) skip the check on meta, as torch's meta kernels do; `Tensor.item()`,
`bool(t)`, `int(t)` of a meta tensor give torch's "cannot be called on meta tensors".
"""
import math
import operator
import types

import numpy as np

from ._device import Backend, device
from ._geometry import is_contiguous

STAND_IN_LIMIT = 1 << 16        # elements of meta operands that may be stood in for by zeros

ITEM_ERROR = "Tensor.item() cannot be called on meta tensors"
NO_DATA = "Cannot copy out of meta tensor; no data!"
READS_VALUES = ("Could not run this operator with arguments from the 'Meta' backend: ember's "
                "kernel for it reads the tensors' values, which meta tensors do not have "
                "(NOTE [ The meta backend ])")
NONZERO = ("The register_meta function for torch.nonzero() raises unimplemented by default, as "
           "a correct data-independent implementation does not exist. This implementation "
           "returns a fake value, assuming all elements of the tensor are non-zero. To enable "
           "this registration, please set "
           "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.")


def no_kernel(name):
    """torch's error for an operator without a meta kernel (`name` is aten's name)."""
    return NotImplementedError(
        f"aten::{name}: attempted to run this operator with Meta tensors, but there was no "
        f"fake impl or Meta kernel registered. You may have run into this message while using "
        f"an operator with PT2 compilation APIs (torch.compile/torch.export); in order to use "
        f"this operator with those APIs you'll need to add a fake impl. Please see the "
        f"following for next steps:  https://pytorch.org/tutorials/advanced/"
        f"custom_ops_landing_page.html")


def _too_large(name):
    return NotImplementedError(
        f"Could not run '{name}' with arguments from the 'Meta' backend: ember has no shape "
        f"rule for it on meta tensors of more than {STAND_IN_LIMIT} elements (NOTE [ The meta "
        f"backend ])")


# -- geometry ---------------------------------------------------------------------------------

def check_broadcast(shapes):
    """torch's meta kernels' broadcast error: operands joined in turn, each dim from the last,
    into a shape of the largest rank."""
    out = [1] * max(len(s) for s in shapes)
    for index, shape in enumerate(shapes):
        for d in range(-1, -len(shape) - 1, -1):
            n = shape[d]
            if n == 1:
                continue
            if out[d] == 1:
                out[d] = n
            elif out[d] != n:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {d}! Mismatching "
                    f"argument at index {index} had torch.Size([{', '.join(map(str, shape))}]); "
                    f"but expected shape should be broadcastable to "
                    f"[{', '.join(map(str, out))}]")


def c_strides(shape, itemsize):
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def k_strides(shape, strides, itemsize):
    """Dense strides in the order of `strides` (NumPy's order='K': dims sorted by stride,
    largest outside, ties kept in order)."""
    order = sorted(range(len(shape)), key=lambda d: -abs(strides[d]))
    out, step = [0] * len(shape), itemsize
    for d in reversed(order):
        out[d] = step
        step *= max(shape[d], 1)
    return tuple(out)


def _is_c_contiguous(shape, strides, itemsize):
    """geometry's row-major test, for strides in bytes."""
    return all(s % itemsize == 0 for n, s in zip(shape, strides) if n != 1) and \
        is_contiguous(shape, [s // itemsize for s in strides])


class _Flags:
    __slots__ = ("c_contiguous", "f_contiguous")
    writeable = aligned = True
    owndata = writebackifcopy = False

    def __init__(self, array):
        shape, strides, size = array.shape, array.strides, array.itemsize
        self.c_contiguous = _is_c_contiguous(shape, strides, size)
        self.f_contiguous = _is_c_contiguous(shape[::-1], strides[::-1], size)

    @property
    def contiguous(self):
        return self.c_contiguous

    def __getitem__(self, name):
        return getattr(self, {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous",
                              "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous",
                              "WRITEABLE": "writeable"}.get(name, name.lower()))


def _ghost(a):
    """An ndarray with `a`'s shape, dtype and strides over one element: only for NumPy calls
    that compute a view's geometry (see NOTE [ The meta backend ]); read-only as a guard."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, a.dtype), a.shape, a.strides,
                                           writeable=False)


def _stand_in(a):
    """A small array with `a`'s shape, dtype and strides: zeros of integers and bools (in
    range as indices), and of floating types values spread over [0.5, 1.5), which make no
    matrix singular and no logarithm infinite."""
    if not a.size:
        return np.zeros(a.shape, a.dtype)
    extent = 1 + sum((n - 1) * abs(s) // a.itemsize for n, s in zip(a.shape, a.strides))
    if a.dtype.kind in "fcV":
        flat = (np.arange(1, extent + 1) * 0.6180339887 % 1 + 0.5).astype(a.dtype)
    else:
        flat = np.zeros(extent, a.dtype)
    start = sum((n - 1) * -s // a.itemsize for n, s in zip(a.shape, a.strides) if s < 0)
    return np.lib.stride_tricks.as_strided(flat[start:], a.shape, a.strides)


def as_meta(x):
    """A NumPy result (array, scalar, or a tuple/list of them) as meta arrays."""
    if isinstance(x, np.ndarray):
        return MetaArray(x.shape, x.dtype, x.strides)
    if isinstance(x, np.generic):
        return MetaArray((), x.dtype)
    if isinstance(x, (tuple, list)):
        return type(x)(as_meta(v) for v in x) if type(x) in (tuple, list) else \
            type(x)(*(as_meta(v) for v in x))       # (a named tuple: NumPy's results)
    if isinstance(x, (bool, int, float, complex)):
        raise NotImplementedError(READS_VALUES)     # a value, which meta tensors do not have
    return x


class MetaArray:
    """An array without data: shape, dtype and (byte) strides, as an ndarray has them."""

    __slots__ = ("shape", "dtype", "strides", "__weakref__")
    __array_priority__ = 2000

    def __init__(self, shape, dtype, strides=None):
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self.strides = c_strides(self.shape, self.dtype.itemsize) if strides is None else \
            tuple(strides)

    # -- geometry --------------------------------------------------------------------------

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))
    itemsize = property(lambda self: self.dtype.itemsize)
    nbytes = property(lambda self: self.size * self.dtype.itemsize)
    flags = property(_Flags)
    base = None

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self):
        return f"MetaArray(shape={self.shape}, dtype={self.dtype}, strides={self.strides})"

    def _view(self, fn, *args, **kwargs):
        return as_meta(fn(_ghost(self), *args, **kwargs))

    def __getitem__(self, key):
        if _basic_index(key):
            return self._view(operator.getitem, key)
        return _advanced_index(self, key)

    def __setitem__(self, key, value):
        if not _basic_index(key):
            _advanced_index(self, key)          # (its errors: a mask, an index out of range)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    T = property(lambda self: self._view(np.transpose))
    mT = property(lambda self: self._view(np.swapaxes, -1, -2))
    @property
    def real(self):
        return self._view(np.real)

    @real.setter
    def real(self, value):
        pass                        # (a write: nothing to do)

    @property
    def imag(self):
        if self.dtype.kind != "c":
            return MetaArray(self.shape, self.dtype)
        return self._view(np.imag)

    @imag.setter
    def imag(self, value):
        pass

    def transpose(self, *axes):
        return self._view(np.transpose, axes[0] if len(axes) == 1 else (axes or None))

    def swapaxes(self, a, b):
        return self._view(np.swapaxes, a, b)

    def squeeze(self, axis=None):
        return self._view(np.squeeze, axis)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return self._view(np.diagonal, offset, axis1, axis2)

    def reshape(self, *shape, order="C", copy=None):
        shape = shape[0] if len(shape) == 1 and not isinstance(shape[0], int) else shape
        return np.reshape(self, shape, order=order, copy=copy)

    def ravel(self, order="C"):
        return np.ravel(self, order)

    def flatten(self, order="C"):
        return np.reshape(self, -1).copy()

    def view(self, dtype=None, type=None):
        if dtype is None or dtype is MetaArray:
            return MetaArray(self.shape, self.dtype, self.strides)
        return self._view(lambda g: g.view(dtype))

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        dtype = np.dtype(dtype)
        if not copy and dtype == self.dtype:
            return self
        return _empty_like(self, dtype, order)

    def copy(self, order="C"):
        return _empty_like(self, self.dtype, order)

    def fill(self, value):
        pass

    # -- values: none ----------------------------------------------------------------------

    def __bool__(self):
        raise NotImplementedError(READS_VALUES)    # (an op's code: Tensor.item() says torch's)

    __int__ = __float__ = __complex__ = __index__ = item = __bool__

    def tolist(self):
        raise NotImplementedError(NO_DATA)

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(NO_DATA)

    tobytes = __dlpack__ = __array__

    # -- NumPy's protocols -----------------------------------------------------------------

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        rule = RULES.get(func)
        if rule is not None:
            return rule(func, *args, **kwargs)
        name = func.__name__
        if name in _DATA_DEPENDENT:
            raise no_kernel(_DATA_DEPENDENT[name]) if _DATA_DEPENDENT[name] else \
                NotImplementedError(NONZERO)
        if name in _VIEWS:
            return as_meta(func(*_replace(args, _ghost), **_replace(kwargs, _ghost)))
        return _stood_in(func, args, kwargs)


def _method(name):
    fn = getattr(np, name)

    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = name
    return method


for _name in ("sum", "prod", "mean", "max", "min", "any", "all", "std", "var", "argmax",
              "argmin", "cumsum", "cumprod", "clip", "round", "conj", "conjugate", "dot",
              "repeat", "take", "trace", "ptp", "searchsorted", "argsort", "partition",
              "argpartition", "nonzero", "compress"):
    setattr(MetaArray, _name, _method(_name))
MetaArray.sort = lambda self, axis=-1, kind=None, order=None: None     # (in place: nothing)

for _name, _ufunc_name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                           ("truediv", "true_divide"), ("floordiv", "floor_divide"),
                           ("mod", "remainder"), ("pow", "power"), ("matmul", "matmul"),
                           ("and", "bitwise_and"), ("or", "bitwise_or"),
                           ("xor", "bitwise_xor"), ("lshift", "left_shift"),
                           ("rshift", "right_shift")):
    _u = getattr(np, _ufunc_name)
    setattr(MetaArray, f"__{_name}__", lambda self, other, _u=_u: _u(self, other))
    setattr(MetaArray, f"__r{_name}__", lambda self, other, _u=_u: _u(other, self))
    setattr(MetaArray, f"__i{_name}__", lambda self, other, _u=_u: _u(self, other, out=self))
for _name, _ufunc_name in (("eq", "equal"), ("ne", "not_equal"), ("lt", "less"),
                           ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
    _u = getattr(np, _ufunc_name)
    setattr(MetaArray, f"__{_name}__", lambda self, other, _u=_u: _u(self, other))
for _name, _ufunc_name in (("neg", "negative"), ("pos", "positive"), ("abs", "absolute"),
                           ("invert", "invert")):
    _u = getattr(np, _ufunc_name)
    setattr(MetaArray, f"__{_name}__", lambda self, _u=_u: _u(self))
MetaArray.__hash__ = None


# -- indexing ---------------------------------------------------------------------------------

def _basic_index(key):
    parts = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer))
               and not isinstance(k, (bool, np.bool_)) for k in parts)


def _advanced_index(a, key):
    """Advanced indexing's geometry by NumPy's rule: the broadcast shape of the index arrays
    (integers among them count as 0-dim ones) replaces the dims they index, in place when they
    are next to each other, else in front; slices and None keep their dims. A boolean index
    depends on values."""
    parts = list(key) if isinstance(key, tuple) else [key]
    for k in parts:
        if isinstance(k, (bool, np.bool_)) or isinstance(k, (MetaArray, np.ndarray, list)) and \
                (k.dtype if isinstance(k, (MetaArray, np.ndarray)) else
                 np.asarray(k).dtype) == np.bool_:
            raise NotImplementedError(NONZERO)
    consumed = sum(1 for k in parts if k is not None and k is not Ellipsis)
    if consumed > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but "
                         f"{consumed} were indexed")
    for i, k in enumerate(parts):
        if k is Ellipsis:                   # (which parts advanced indices even when empty)
            parts[i + 1:i + 1] = [slice(None)] * (a.ndim - consumed)
            break
    else:
        parts += [slice(None)] * (a.ndim - consumed)
    shapes, where, out, dim = [], [], [], 0
    for position, k in enumerate(parts):
        if k is Ellipsis:
            continue
        if k is None:
            out.append(1)
            continue
        n = a.shape[dim]
        dim += 1
        if isinstance(k, slice):
            out.append(len(range(*k.indices(n))))
            continue
        shape = _shape_of(k)
        if not shape and not -n <= int(k) < n:
            raise IndexError(f"index {int(k)} is out of bounds for axis {dim - 1} with size {n}")
        shapes.append(shape)
        where.append(position)
        out.append(None)                    # (where the broadcast dims go, when together)
    try:
        block = list(np.broadcast_shapes(*shapes))
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                         "shapes " + " ".join(str(s).replace(" ", "") for s in shapes)) from None
    together = where == list(range(where[0], where[-1] + 1))
    kept = [n for n in out if n is not None]
    if together:
        first = next(i for i, n in enumerate(out) if n is None)
        shape = kept[:first] + block + kept[first:]
    else:
        shape = block + kept
    return MetaArray(shape, a.dtype)


# -- running NumPy on stand-ins ---------------------------------------------------------------

def _replace(x, fn):
    """`x` (arguments: arrays, sequences, dicts of them) with each MetaArray replaced by
    fn(it)."""
    if x.__class__ is MetaArray:
        return fn(x)
    if isinstance(x, (list, tuple)) and x.__class__ in (list, tuple):
        return x.__class__(_replace(v, fn) for v in x)
    if isinstance(x, dict):
        return {k: _replace(v, fn) for k, v in x.items()}
    return x


def _metas(x, found):
    if x.__class__ is MetaArray:
        found.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _metas(v, found)
    elif isinstance(x, dict):
        for v in x.values():
            _metas(v, found)
    return found


def _stood_in(func, args, kwargs):
    """`func` run on zero-filled stand-ins of small meta arrays; only the geometry of what it
    returns is kept."""
    metas = _metas((args, kwargs), [])
    if sum(m.size for m in metas) > STAND_IN_LIMIT:
        raise _too_large(getattr(func, "__name__", str(func)))
    with np.errstate(all="ignore"):
        out = func(*_replace(args, _stand_in), **_replace(kwargs, _stand_in))
    return as_meta(out)         # (NumPy's layout on stand-ins: what ember's CPU kernels get)


def _zero_d(x):
    """A 0-dim stand-in of an operand, for the dtype NumPy gives a result."""
    if x.__class__ is MetaArray or isinstance(x, np.ndarray):
        return np.zeros((), x.dtype)
    return x


def _one_by_one(x):
    return np.zeros((1, 1), x.dtype) if x.__class__ is MetaArray or isinstance(x, np.ndarray) \
        else x


def _shape_of(x):
    return x.shape if x.__class__ is MetaArray or isinstance(x, (np.ndarray, np.generic)) \
        else np.shape(x)


def _ufunc(ufunc, method, inputs, kwargs):
    out = kwargs.pop("out", None)
    if method == "at":
        return None
    if kwargs.get("where") is not None and not isinstance(kwargs["where"], bool):
        kwargs["where"] = True
    if method == "__call__":
        stand = _zero_d
        if ufunc.signature:                             # matmul, vecdot, ...
            shape = _gufunc_shape(ufunc, [_shape_of(x) for x in inputs])
            stand = _one_by_one
        else:
            shape = np.broadcast_shapes(*(_shape_of(x) for x in inputs))
        with np.errstate(all="ignore"):
            probe = ufunc(*(stand(x) for x in inputs), **kwargs)
        dtypes = [r.dtype for r in probe] if ufunc.nout > 1 else [np.asarray(probe).dtype]
        like = next((x for x in inputs if x.__class__ is MetaArray and x.shape == shape), None)
        results = tuple(_empty_like(like, d) if like is not None and not ufunc.signature
                        else MetaArray(shape, d) for d in dtypes)   # (NumPy's order='K')
    elif method == "reduce":
        results = (_reduced(lambda s, **k: ufunc.reduce(s, **k), inputs[0], kwargs),)
    elif method == "accumulate":
        a = inputs[0]
        small = np.zeros(tuple(min(n, 1) for n in a.shape), a.dtype)
        with np.errstate(all="ignore"):
            dt = ufunc.accumulate(small, **kwargs).dtype
        results = (MetaArray(a.shape, dt),)
    elif method == "outer":
        a, b = inputs
        with np.errstate(all="ignore"):
            dt = np.asarray(ufunc(_zero_d(a), _zero_d(b), **kwargs)).dtype
        results = (MetaArray(_shape_of(a) + _shape_of(b), dt),)
    else:
        return _stood_in(getattr(ufunc, method), inputs, dict(kwargs, out=out))
    if out is not None:
        outs = out if isinstance(out, tuple) else (out,)
        for o, r in zip(outs, results):
            if o is not None and np.broadcast_shapes(o.shape, r.shape) != o.shape:
                raise ValueError(f"non-broadcastable output operand with shape {o.shape} "
                                 f"doesn't match the broadcast shape {r.shape}")
        results = tuple(o if o is not None else r for o, r in zip(outs, results))
    return results if len(results) > 1 else results[0]


def _gufunc_shape(ufunc, shapes):
    """matmul's result shape (NumPy's rules, 1-d operands included)."""
    if ufunc is not np.matmul:
        raise _too_large(ufunc.__name__)
    a, b = shapes
    if not a or not b:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    a2 = (1,) + a if len(a) == 1 else a
    b2 = b + (1,) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {b2[-2]} is "
                         f"different from {a2[-1]})")
    shape = np.broadcast_shapes(a2[:-2], b2[:-2]) + (a2[-2], b2[-1])
    if len(b) == 1:
        shape = shape[:-1]
    if len(a) == 1:
        shape = shape[:-2] + shape[-1:] if len(b) > 1 else shape[:-1]
    return shape


def _reduced_shape(shape, axis, keepdims):
    if axis is None:
        return (1,) * len(shape) if keepdims else ()
    axes = np.lib.array_utils.normalize_axis_tuple(axis, len(shape))
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


def _reduced(run, a, kwargs):
    """A reduction's result: its shape from axis/keepdims, its dtype from running it on a
    stand-in of at most one element per dim."""
    kwargs = _replace(dict(kwargs), lambda m: True)
    kwargs.pop("out", None)
    small = np.zeros(tuple(min(n, 1) for n in a.shape), a.dtype)
    with np.errstate(all="ignore"):
        dt = np.asarray(run(small, **kwargs)).dtype
    return MetaArray(_reduced_shape(a.shape, kwargs.get("axis"), kwargs.get("keepdims", False)),
                     dt)


def _empty_like(a, dtype=None, order="K", subok=True, shape=None, device=None):
    dtype = a.dtype if dtype is None else np.dtype(dtype)
    if shape is not None:
        return MetaArray((shape,) if isinstance(shape, int) else shape, dtype)
    if order == "F" or order in ("A", "K") and a.flags.f_contiguous and not a.flags.c_contiguous:
        return MetaArray(a.shape, dtype, c_strides(a.shape[::-1], dtype.itemsize)[::-1])
    if order == "K" and a.ndim > 1 and not a.flags.c_contiguous:
        return MetaArray(a.shape, dtype, k_strides(a.shape, a.strides, dtype.itemsize))
    return MetaArray(a.shape, dtype)


# -- the array module -------------------------------------------------------------------------

def _making_meta(func):
    """NumPy's `func` for the meta module: a host array it makes from numbers alone
    (`tril_indices(3)`) comes out as a meta array (meta arguments reach the rules above)."""
    def on_meta(*args, **kwargs):
        return _host_to_meta(func(*args, **kwargs))
    on_meta.__name__ = func.__name__
    return on_meta


def _host_to_meta(x):
    if x.__class__ is np.ndarray:
        return MetaArray(x.shape, x.dtype)
    if x.__class__ in (tuple, list):
        return x.__class__(_host_to_meta(v) for v in x)
    return x


def _shape_arg(shape):
    return (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)


class MetaNumpy:
    """The array module of meta tensors: NumPy's names, with the functions that make arrays
    making meta arrays (the others reach `MetaArray.__array_function__` through NumPy)."""

    ndarray = MetaArray

    def __getattr__(self, name):
        attr = getattr(np, name)
        if isinstance(attr, (types.FunctionType, types.BuiltinFunctionType)):
            attr = self.__dict__[name] = _making_meta(attr)
        return attr

    @staticmethod
    def empty(shape, dtype=float, order="C", **kwargs):
        a = MetaArray(_shape_arg(shape), dtype)
        return _empty_like(a, order=order) if order == "F" else a

    zeros = ones = empty

    @staticmethod
    def full(shape, fill_value, dtype=None, order="C", **kwargs):
        if dtype is None:
            dtype = np.asarray(fill_value).dtype if not isinstance(fill_value, MetaArray) \
                else fill_value.dtype
        return MetaNumpy.empty(shape, dtype, order)

    empty_like = staticmethod(lambda a, *args, **kw: RULES[np.empty_like](np.empty_like, a,
                                                                           *args, **kw))
    zeros_like = ones_like = empty_like

    @staticmethod
    def full_like(a, fill_value, *args, **kwargs):
        return RULES[np.empty_like](np.empty_like, a, *args, **kwargs)

    @staticmethod
    def asarray(x, dtype=None, order=None, copy=None, **kwargs):
        if x.__class__ is MetaArray:
            return x if dtype is None or np.dtype(dtype) == x.dtype else x.astype(dtype)
        a = np.asarray(x, dtype=dtype)          # (numbers and host arrays: only their geometry)
        return MetaArray(a.shape, a.dtype)

    @staticmethod
    def array(x, dtype=None, copy=True, order="K", **kwargs):
        if x.__class__ is MetaArray:
            return _empty_like(x, dtype, order)
        return MetaNumpy.asarray(x, dtype)

    @staticmethod
    def ascontiguousarray(x, dtype=None, **kwargs):
        return MetaNumpy.array(x, dtype, order="C")

    @staticmethod
    def arange(*args, dtype=None, **kwargs):
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
        n = max(0, math.ceil((stop - start) / step))        # (NumPy's length)
        if dtype is None:
            dtype = np.result_type(*args) if args else np.int64
        return MetaArray((n,), dtype)

    @staticmethod
    def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
        return MetaArray((num,), np.float64 if dtype is None else dtype)

    @staticmethod
    def eye(n, m=None, k=0, dtype=float, **kwargs):
        return MetaArray((n, n if m is None else m), dtype)

    @staticmethod
    def identity(n, dtype=float, **kwargs):
        return MetaArray((n, n), dtype)

    @staticmethod
    def tri(n, m=None, k=0, dtype=float, **kwargs):
        return MetaArray((n, n if m is None else m), dtype)


META_NUMPY = MetaNumpy()


class MetaBackend(Backend):
    """The meta device's backend: its arrays carry geometry only."""

    def __init__(self):
        super().__init__(META_NUMPY, "meta")
        self._device = device("meta")

    def device_of(self, array):
        return self._device

    def strided(self, flat, dtype, shape, strides, offset):
        return MetaArray(shape, dtype, tuple(s * dtype.itemsize for s in strides))

    def span(self, array):
        size = array.itemsize
        extent = 1 + sum((n - 1) * s // size for n, s in zip(array.shape, array.strides)) \
            if array.size else 0
        return MetaArray((extent,), array.dtype)

    def data_ptr(self, array):
        return 0

    def to_numpy(self, array):
        raise NotImplementedError(NO_DATA)

    def from_other(self, array, source, dev):
        """A meta array with the geometry of another device's `array` (nothing is read)."""
        if array.ndim > 1 and not array.flags.c_contiguous:
            return MetaArray(array.shape, array.dtype,
                             k_strides(array.shape, array.strides, array.itemsize))
        return MetaArray(array.shape, array.dtype)


META_BACKEND = MetaBackend()


# (the rules use the classes above; MetaArray and MetaNumpy look them up when called)
from ._meta_rules import RULES, _DATA_DEPENDENT, _VIEWS  # noqa: E402
