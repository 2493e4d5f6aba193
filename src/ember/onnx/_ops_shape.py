"""Translations of shape queries (size, shape), views and reshapes, joins, indexing and dtype
conversions."""
import numpy as np

from ._graph import Value, stand_in
from ._registry import translates
from .errors import SymbolicValueError


def _dim(dim, rank):
    return dim + rank if dim < 0 else dim


def _sizes(args):
    """`view(2, 3)` and `view((2, 3))` alike: the list of sizes."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Value)):
        return args[0]
    return list(args)


def _shape_tensor(g, sizes):
    """A 1-D int64 shape from sizes (Python ints, 0-d size Values or a whole shape Value)."""
    if isinstance(sizes, Value):
        return sizes
    return g.ints(list(sizes))


# -- size queries (reached only with dynamic axes: NOTE [ Values and folded values ]) ------------

@translates("size")
def size(g, input, dim=None):
    shape = g.op("Shape", [input], example=tuple(input.example.shape))
    if dim is None:
        return shape
    index = g.const(np.asarray(_dim(dim, input.rank), np.int64))
    return g.op("Gather", [shape, index], example=int(input.example.shape[dim]), axis=0)


@translates("getattr")
def getattr_(g, obj, name):
    if not isinstance(obj, Value):         # (max(x, 1).values)
        return getattr(obj, name)
    if name == "shape":
        return size(g, obj)
    if name == "T" and isinstance(obj, Value):
        return g.op("Transpose", [obj], perm=list(range(obj.rank))[::-1])
    return g.example


@translates("getitem")
def getitem(g, obj, index):
    if isinstance(obj, Value) and isinstance(obj.example, tuple):
        return _getitem_shape(g, obj, index)
    if isinstance(obj, Value):
        return _getitem_tensor(g, obj, index)
    return obj[index]


def _getitem_shape(g, shape, index):
    """An item or slice of a shape Value."""
    if isinstance(index, int):
        i = g.const(np.asarray(_dim(index, len(shape.example)), np.int64))
        return g.op("Gather", [shape, i], example=int(shape.example[index]), axis=0)
    if isinstance(index, slice) and index.step in (None, 1):
        n = len(shape.example)
        start, stop, _ = index.indices(n)
        return g.op("Slice", [shape, g.ints([start]), g.ints([stop])],
                    example=tuple(shape.example[index]))
    raise SymbolicValueError(f"indexing a shape with {index!r} is not supported by the exporter")


def _getitem_tensor(g, x, index):
    """Basic indexing: ints, slices with a positive step, None and Ellipsis; bounds may be
    sizes of the graph (ONNX's Slice and Gather count negative ones from the end, as torch)."""
    index = index if isinstance(index, tuple) else (index,)
    if any(not isinstance(i, (int, slice, Value, type(None), type(Ellipsis))) for i in index):
        raise SymbolicValueError(f"indexing with {index!r} is not supported by the exporter "
                                 "(only ints, slices, None and ...)")
    used = sum(1 for i in index if i is not None and i is not Ellipsis)
    if Ellipsis in index:
        at = index.index(Ellipsis)
        index = index[:at] + (slice(None),) * (x.rank - used) + index[at + 1:]
    starts, ends, axes, steps, picks, new = [], [], [], [], [], []
    dim = out_dim = 0
    for i in index:
        if i is None:
            new.append(out_dim)
            out_dim += 1
            continue
        if isinstance(i, slice) and i != slice(None):
            if isinstance(i.step, int) and i.step < 1:
                raise SymbolicValueError("slices with a step below 1 are not supported")
            starts.append(0 if i.start is None else i.start)
            ends.append(_INT64_MAX if i.stop is None else i.stop)
            axes.append(dim)
            steps.append(1 if i.step is None else i.step)
        if isinstance(i, slice):
            out_dim += 1
        else:
            picks.append((dim, i))
        dim += 1
    out = x
    if axes:
        out = g.op("Slice", [x, g.ints(starts), g.ints(ends), g.ints(axes), g.ints(steps)])
    for dim, i in reversed(picks):
        if g.opset < 11 and isinstance(i, int) and i < 0:     # (Gather's negatives came in 11)
            i += x.example.shape[dim]
        i = i if isinstance(i, Value) else g.const(np.asarray(i, np.int64))
        out = g.op("Gather", [out, i], axis=dim)
    if new:
        out = g.unsqueeze(out, new)
    return out


_INT64_MAX = 2 ** 63 - 1


# -- views and reshapes ------------------------------------------------------------------------

@translates("view", "reshape")
def reshape(g, input, *shape):
    return g.reshape(input, _shape_tensor(g, _sizes(shape)))


@translates("view_as", "reshape_as")
def reshape_as(g, input, other):
    return g.reshape(input, g.op("Shape", [other], example=tuple(other.example.shape)))


@translates("flatten")
def flatten(g, input, start_dim=0, end_dim=-1):
    rank = input.rank
    start, end = _dim(start_dim, rank), _dim(end_dim, rank)
    if rank == 0:
        return g.unsqueeze(input, [0])
    if end == rank - 1 and start == 1:
        return g.op("Flatten", [input], axis=1)
    if not g.dynamic:
        return g.reshape(input, g.ints(list(g.example.shape)))
    shape = size(g, input)
    sizes = [getitem(g, shape, d) for d in range(start)] + [-1]
    sizes += [getitem(g, shape, d) for d in range(end + 1, rank)]
    return g.reshape(input, g.ints(sizes))


@translates("unflatten")
def unflatten(g, input, dim, sizes):
    """Dim `dim` split into `sizes` (one may be -1)."""
    d = _dim(dim, input.rank)
    if not g.dynamic:
        return g.reshape(input, g.ints(list(g.example.shape)))
    shape = size(g, input)
    kept = [getitem(g, shape, i) for i in range(input.rank)]
    return g.reshape(input, g.ints(kept[:d] + list(sizes) + kept[d + 1:]))


@translates("permute")
def permute(g, input, *dims):
    dims = _sizes(dims)
    return g.op("Transpose", [input], perm=[_dim(d, input.rank) for d in dims])


@translates("transpose")
def transpose(g, input, dim0, dim1):
    perm = list(range(input.rank))
    a, b = _dim(dim0, input.rank), _dim(dim1, input.rank)
    perm[a], perm[b] = perm[b], perm[a]
    return g.op("Transpose", [input], perm=perm)


@translates("t")
def t(g, input):
    return input if input.rank < 2 else transpose(g, input, 0, 1)


@translates("contiguous", "clone", "detach")
def identity(g, input, *args, **kwargs):
    return input


@translates("unsqueeze")
def unsqueeze(g, input, dim):
    return g.unsqueeze(input, [_dim(dim, input.rank + 1)])


@translates("squeeze")
def squeeze(g, input, dim=None):
    shape = input.example.shape
    dims = range(input.rank) if dim is None else [dim] if isinstance(dim, int) else dim
    dims = [_dim(d, input.rank) for d in dims]
    dims = [d for d in dims if shape[d] == 1]
    return g.squeeze(input, dims) if dims else input


@translates("cat")
def cat(g, tensors, dim=0):
    tensors = [t for t in tensors if not (isinstance(t, Value) and t.example.shape == (0,))]
    dtype = g.example.dtype._np
    return g.op("Concat", [g.cast(t, dtype) for t in tensors],
                axis=_dim(dim, g.example.dim()))


@translates("stack")
def stack(g, tensors, dim=0):
    axis = _dim(dim, g.example.dim())
    return g.op("Concat", [g.unsqueeze(t, [axis]) for t in tensors], axis=axis)


@translates("expand")
def expand(g, input, *sizes):
    """ONNX's Expand broadcasts both ways, so torch's -1 ("keep this size") is a 1 there."""
    sizes = [1 if isinstance(s, int) and s == -1 else s for s in _sizes(sizes)]
    return g.op("Expand", [input, g.ints(sizes)])


@translates("expand_as")
def expand_as(g, input, other):
    return g.op("Expand", [input, g.op("Shape", [other], example=tuple(other.example.shape))])


# -- dtype conversions -------------------------------------------------------------------------

def _cast_to_example(g, input, *args, **kwargs):
    return g.cast(input, g.example.dtype._np)


for _name in ("to", "type", "float", "double", "half", "long", "int", "bool", "type_as"):
    translates(_name)(_cast_to_example)


# -- splitting and repeating -------------------------------------------------------------------

def _split(g, input, sizes, dim):
    axis = _dim(dim, input.rank)
    n = len(sizes)
    if g.opset >= 13:
        parts = g.op("Split", [input, g.ints(sizes)], n_outputs=n, axis=axis)
    else:
        parts = g.op("Split", [input], n_outputs=n, axis=axis, split=list(sizes))
    parts = parts if n > 1 else (parts,)
    for part, size in zip(parts, sizes):
        shape = list(input.example.shape)
        shape[axis] = size
        part.example = stand_in(shape, input.np_dtype)
    return tuple(parts)


@translates("split")
def split(g, input, split_size_or_sections, dim=0):
    return _split(g, input, [int(p.shape[dim]) for p in g.example], dim)


@translates("chunk")
def chunk(g, input, chunks, dim=0):
    return _split(g, input, [int(p.shape[dim]) for p in g.example], dim)


@translates("unbind")
def unbind(g, input, dim=0):
    parts = _split(g, input, [1] * input.example.shape[dim], dim)
    return tuple(g.squeeze(p, [_dim(dim, input.rank)]) for p in parts)


@translates("repeat")
def repeat(g, input, *sizes):
    sizes = list(_sizes(sizes))
    if len(sizes) > input.rank:
        input = g.unsqueeze(input, list(range(len(sizes) - input.rank)))
    return g.op("Tile", [input, g.ints(sizes)])


# -- making tensors of graph sizes (made of known sizes, a call is folded to a Constant) -------

def _filled(g, sizes, fill):
    value = g.onnx.numpy_helper.from_array(np.array([fill], dtype=g.example.dtype._np))
    return g.op("ConstantOfShape", [_shape_tensor(g, _sizes(sizes))], value=value)


@translates("zeros")
def zeros(g, *size, out=None, dtype=None, layout=None, device=None, pin_memory=False,
          requires_grad=False):
    return _filled(g, size, 0)


@translates("ones")
def ones(g, *size, out=None, dtype=None, layout=None, device=None, pin_memory=False,
         requires_grad=False):
    return _filled(g, size, 1)


@translates("full")
def full(g, size, fill_value, *, out=None, dtype=None, layout=None, device=None,
         pin_memory=False, requires_grad=False):
    return _filled(g, [size] if isinstance(size, Value) else size, fill_value)


def _like(fill):
    def translation(g, input, *args, **kwargs):
        value = fill if fill is not None else (args[0] if args else kwargs["fill_value"])
        shape = g.op("Shape", [input], example=tuple(input.example.shape))
        return _filled(g, [shape], value)
    return translation


translates("zeros_like")(_like(0))
translates("ones_like")(_like(1))
translates("full_like")(_like(None))


@translates("arange")
def arange(g, start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False):
    g.require("aten::arange", 11)
    if end is None:
        start, end = 0, start
    dtype = g.example.dtype._np
    return g.op("Range", [g.cast(start, dtype), g.cast(end, dtype), g.cast(step, dtype)])
