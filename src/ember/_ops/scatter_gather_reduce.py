"""scatter_reduce: src combined into self along a dim by sum, prod, mean, amax or amin."""
import numpy as np

from ..autograd.grad_mode import _state as _grad_state
from ._op import Op
from ._xp_compat import ufunc_at
from .registry import function
from .scatter_gather import check_index, coords, prepare, fitted, run, xp_of


_REDUCE = {"sum": "add", "prod": "multiply", "mean": "add", "amax": "maximum",
           "amin": "minimum"}
# NOTE: torch also takes "max" and "min" (its legacy names) without complaint.
_ALIASES = {"max": "amax", "min": "amin"}


def _identity(reduce, dtype):
    """The starting value of scattered positions when self is not included."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    if reduce == "amax":
        return info.min if info else -np.inf
    return info.max if info else np.inf


def _scatter_reduce(xp, xs, d, ids, s, reduce, include_self):
    out = xs.copy()
    if not ids.size:
        return out
    key = coords(xp, ids, d)
    if not include_self:
        out[key] = _identity(reduce, xs.dtype)
    ufunc_at(xp, _REDUCE[reduce], out, key, s)
    if reduce == "mean":
        count = xp.full(xs.shape, 1 if include_self else 0, "int64")
        ufunc_at(xp, "add", count, key, 1)
        count = xp.maximum(count, 1)
        if xs.dtype.kind in "iu":
            out = xp.floor_divide(out, count).astype(xs.dtype)
        else:
            out = (out / count.astype(xs.dtype)).astype(xs.dtype)
    return out


class ScatterReduce(Op):
    """`src` combined into `self` at `index` along `dim` by a reduction."""
    inputs = ("self", "src")
    saves = {"self": ("self", "src", "result", "index"),
             "src": ("self", "src", "result", "index")}

    def backward(ctx, grad):
        from .._creation import ones_like, zeros_like
        from .compare import where
        if ctx.alias is not None:     # (torch's derivative knows only the new names)
            raise RuntimeError(f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                               f"'amin' but got {ctx.alias}.")
        self, src, result, index = ctx.saved_tensors
        dim, reduce = ctx.dim, ctx.reduce
        if reduce == "sum":
            grad_self, grad_src = grad, grad.gather(dim, index)
        elif reduce == "mean":
            n = ones_like(grad) if ctx.include_self else zeros_like(grad)
            n = n.scatter_add(dim, index, ones_like(grad).gather(dim, index))
            n = n.masked_fill(n == 0, 1)
            grad_self, grad_src = grad / n, grad.gather(dim, index) / n.gather(dim, index)
        elif reduce == "prod":
            # products without the element itself, exact where some factors are zero
            masked_self = self.masked_fill(self == 0, 1)
            grad_self = grad * masked_self.scatter_reduce(dim, index, src, "prod",
                                                          include_self=ctx.include_self) \
                / masked_self
            src_zero = src == 0
            zeros = zeros_like(grad).scatter_add(dim, index, src_zero.to(grad.dtype))
            single = src_zero & (zeros.gather(dim, index) == 1)
            masked_src = self.scatter_reduce(dim, index, src.masked_fill(single, 1), "prod",
                                             include_self=ctx.include_self)
            grad_src = where(single, (grad * masked_src).gather(dim, index),
                             (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1))
        else:   # amax / amin: shared evenly among the elements equal to the result
            value = result.gather(dim, index)
            self_is = (self == result).to(grad.dtype)
            src_is = (src == value).to(grad.dtype)
            share = grad / self_is.scatter_add(dim, index, src_is)
            grad_self, grad_src = self_is * share, src_is * share.gather(dim, index)
        if not ctx.include_self:
            grad_self = grad_self.scatter(dim, index, 0)
        return fitted(ctx, grad.shape, grad_self, grad_src)


def _not_implemented(input, reduce):
    raise NotImplementedError(f'"scatter_gather_tensor_cpu_reduce_{reduce}" not implemented '
                              f"for '{input.dtype._scalar_name}'")


@function(inplace=True)
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True, out=None):
    """A copy of `input` with `src` reduced into it at `index` along `dim` ('sum', 'prod',
    'mean', 'amax' or 'amin'); `include_self=False` leaves self's values out of it."""
    if not isinstance(reduce, str) or include_self.__class__ is not bool:
        raise TypeError("scatter_reduce: reduce must be str, include_self bool")  # (worded
        #                                                    by the wrapper: argument_errors)
    alias = reduce if reduce in _ALIASES else None
    reduce = _ALIASES.get(reduce, reduce)
    if reduce not in _REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    xs, d, ids, s = prepare(input, dim, index, src, "scatter", check_values=False)
    kind = xs.dtype.kind
    # (torch's kernel does not run for an empty index, but the division of a mean does; it
    # fails before the index values are looked at, unless `include_self=False` first
    # scatters the reduction's identity, which checks them)
    unsupported = (reduce == "mean" and kind == "b") or (reduce in ("amax", "amin") and
                                                         kind == "c")
    if unsupported and not ids.size and reduce == "mean":
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    if unsupported and ids.size and include_self:
        _not_implemented(input, reduce)
    check_index(input, ids, d, xs, s)
    if unsupported and ids.size:
        _not_implemented(input, reduce)
    if kind == "c" and _grad_state.enabled and (input._requires_grad or src._requires_grad):
        raise RuntimeError("scatter_reduce does not support automatic differentiation for "
                           "outputs with complex dtype.")
    result = _scatter_reduce(xp_of(input), xs, d, ids, s, reduce, include_self)
    return run(ScatterReduce, "scatter_reduce", (input, src), result.reshape(input._data.shape),
               {"dim": d, "index": index, "reduce": reduce, "include_self": include_self,
                "alias": alias}, out,
               reads=(index, src))
