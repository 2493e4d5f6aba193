"""Translations of reductions (mean, sum, max, argmax, cumsum, ...), softmax and normalize."""
import numpy as np

from ._graph import Value
from ._registry import translates
from .errors import SymbolicValueError


def _dim(dim, rank):
    return dim + rank if dim < 0 else dim


def _softmax(op_type):
    def translation(g, input, dim=None, _stacklevel=3, dtype=None):
        if dim is None:                 # (torch's implicit dim, deprecated)
            dim = 0 if input.rank in (0, 1, 3) else 1
        if dtype is not None:
            input = g.cast(input, dtype._np)
        rank = input.rank
        if g.opset >= 13:
            return g.op(op_type, [input], axis=dim)
        dim = _dim(dim, rank)
        if dim == rank - 1:
            return g.op(op_type, [input], axis=dim)
        perm = list(range(rank))
        perm[dim], perm[-1] = perm[-1], perm[dim]
        moved = g.op("Transpose", [input], perm=perm)
        return g.op("Transpose", [g.op(op_type, [moved], axis=rank - 1)], perm=perm)
    return translation


translates("softmax")(_softmax("Softmax"))
translates("log_softmax")(_softmax("LogSoftmax"))


def _reduction(op_type):
    """A reduction over `dim` (all dims when None), computed in its result's dtype (a bool
    mask's sum counts in int64, as torch's)."""
    def translation(g, input, dim=None, keepdim=False, *, dtype=None):
        if op_type != "ReduceMax" and op_type != "ReduceMin":
            input = g.cast(input, g.example.dtype._np)
        if dim is None or dim == () or dim == []:
            return g.reduce(op_type, input, None, False)
        dims = [dim] if isinstance(dim, int) else list(dim)
        return g.reduce(op_type, input, [_dim(d, input.rank) for d in dims], keepdim)
    return translation


translates("mean")(_reduction("ReduceMean"))
translates("sum")(_reduction("ReduceSum"))
translates("amax")(_reduction("ReduceMax"))
translates("amin")(_reduction("ReduceMin"))
translates("prod")(_reduction("ReduceProd"))


def _arg_reduction(op_type):
    def translation(g, input, dim=None, keepdim=False):
        if dim is None:
            flat = g.reshape(input, g.ints([-1]))
            return g.op(op_type, [flat], axis=0, keepdims=0)
        return g.op(op_type, [input], axis=dim, keepdims=int(keepdim))
    return translation


translates("argmax")(_arg_reduction("ArgMax"))
translates("argmin")(_arg_reduction("ArgMin"))


def _pairwise(op_type):
    """maximum(x, y) and minimum(x, y), in the promoted dtype."""
    def translation(g, input, other, *, out=None):
        dtype = g.example.dtype._np
        return g.op(op_type, [g.cast(input, dtype), g.cast(other, dtype)])
    return translation


def _max_or_min(reduce_op, arg_op, elementwise_op):
    """max(x), max(x, dim, keepdim) (values and indices) and max(x, other)."""
    def translation(g, input, dim=None, keepdim=False, *, out=None):
        if isinstance(dim, Value):                  # max(x, other)
            return _pairwise(elementwise_op)(g, input, dim)
        if dim is None:
            return g.reduce(reduce_op, input, None, False)
        values = g.reduce(reduce_op, input, [_dim(dim, input.rank)], keepdim)
        indices = g.op(arg_op, [input], axis=dim, keepdims=int(keepdim))
        return type(g.example)((values, indices))
    return translation


translates("max")(_max_or_min("ReduceMax", "ArgMax", "Max"))
translates("min")(_max_or_min("ReduceMin", "ArgMin", "Min"))
translates("maximum")(_pairwise("Max"))
translates("minimum")(_pairwise("Min"))


@translates("cumsum")
def cumsum(g, input, dim, *, dtype=None):
    g.require("aten::cumsum", 11)
    if dtype is not None:
        input = g.cast(input, dtype._np)
    return g.op("CumSum", [input, g.const(np.asarray(dim, np.int64))])


@translates("normalize")
def normalize(g, input, p=2.0, dim=1, eps=1e-12, out=None):
    """x / max(||x||_p over dim, eps), for p = 1 or 2."""
    if p not in (1, 2, 1.0, 2.0):
        raise SymbolicValueError(f"normalize with p={p} is not supported by the exporter")
    op_type = "ReduceL2" if p == 2 else "ReduceL1"
    norm = g.reduce(op_type, input, [_dim(dim, input.rank)], True)
    floor = g.const(np.asarray(eps, input.np_dtype))
    return g.op("Div", [input, g.op("Max", [norm, floor])])


def _count(g, input, dims):
    """How many elements a reduction over `dims` takes, as a float scalar (from the graph's
    sizes when they are dynamic)."""
    dtype = input.np_dtype
    if not g.dynamic:
        return g.const(np.asarray(np.prod([input.example.shape[d] for d in dims]), dtype))
    shape = g.op("Shape", [input], example=tuple(input.example.shape))
    sizes = g.op("Gather", [shape, g.ints(dims)], example=tuple(dims), axis=0)
    return g.cast(g.reduce("ReduceProd", sizes, None, False, example=0), dtype)


def _moment(take_root):
    """var and std: the mean squared deviation, times n / (n - correction)."""
    def translation(g, input, dim=None, unbiased=None, keepdim=False, *, correction=None,
                    out=None):
        if isinstance(dim, bool):               # var(x, unbiased)
            dim, unbiased = None, dim
        if correction is None:
            correction = 1 if unbiased is None or unbiased else 0
        dims = list(range(input.rank)) if dim is None else \
            [_dim(d, input.rank) for d in ([dim] if isinstance(dim, int) else dim)]
        mean = g.reduce("ReduceMean", input, dims, True)
        deviation = g.op("Sub", [input, mean])
        out = g.reduce("ReduceMean", g.op("Mul", [deviation, deviation]), dims, keepdim)
        if correction:
            n = _count(g, input, dims)
            less = g.op("Sub", [n, g.const(np.asarray(correction, input.np_dtype))])
            out = g.op("Mul", [out, g.op("Div", [n, less])])
        return g.op("Sqrt", [out]) if take_root else out
    return translation


translates("var")(_moment(False))
translates("std")(_moment(True))
