"""index_reduce (and index_reduce_): rows of `source` reduced into `input` at `index` along
`dim` with prod, mean, amax or amin; scatter_reduce with the index spread along `dim`.

The node is torch's IndexReduceBackward0; its backward differentiates that scatter_reduce, on
the saved tensors themselves when a graph of the gradients is wanted (create_graph), so that
second derivatives follow scatter_reduce's.
"""
import warnings

from .. import _geometry as geo
from .._device import MetaArray
from .._tensor import Tensor
from ..autograd.grad_mode import _state as _grad_state, enable_grad, no_grad
from ._dispatch import Inplace, check_out, finish, prepare_inplace
from ._op import Op
from .registry import function
from .argument_errors import type_name

_REDUCTIONS = ("prod", "mean", "amax", "amin")
_warned = []


def _spread(index, source, dim):
    shape = [1] * source.ndim
    shape[dim] = -1
    return index.long().view(shape).expand(tuple(source.shape))


def _reduce(x, source, dim, index, reduce, include_self):
    return x.scatter_reduce(dim, _spread(index, source, dim), source, reduce,
                            include_self=include_self)


class IndexReduce(Op):
    inputs = ("self", "source")
    saves = {"self": ("self", "source", "index"), "source": ("self", "source", "index")}

    def backward(ctx, grad):
        x, source, index = ctx.saved_tensors
        graph = _grad_state.enabled         # create_graph: the gradients get their own graph
        with enable_grad():
            xs = x if graph and x.requires_grad else x.detach().requires_grad_()
            ss = source if graph and source.requires_grad else source.detach().requires_grad_()
            y = _reduce(xs, ss, ctx.dim, index, ctx.reduce, ctx.include_self)
            from ..autograd import grad as autograd_grad
            gx, gs = autograd_grad(y, (xs, ss), grad if graph else grad.detach(),
                                   allow_unused=True, create_graph=graph)
        need_x, need_s = ctx.needs_input_grad
        return (gx if need_x else None), (gs if need_s else None)


def _check(name, input, dim, index, source, reduce):
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    if index._data.dtype.kind not in "iu" or index._data.dtype.itemsize < 4:
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype._scalar_name}")
    count = index.numel()
    if source.ndim and count != source.shape[dim]:
        raise RuntimeError(f"{name}(): Number of indices ({count}) should be equal to "
                           f"source.size(dim): ({source.shape[dim]}), for dim: {dim}")
    if input._data.dtype != source._data.dtype:
        raise RuntimeError(f"{name}(): self ({input.dtype._scalar_name}) and source "
                           f"({source.dtype._scalar_name}) must have the same scalar type")
    size = input.shape[dim] if input.ndim else 1
    values = index._data
    if values.size and values.__class__ is not MetaArray and (int(values.min()) < 0 or
                                                              int(values.max()) >= size):
        raise IndexError("index out of range in self")       # NOTE: no negative indices


@function(inplace=True)
def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """input with the rows source[i] (along `dim`) reduced into input[index[i]] by `reduce`
    ('prod', 'mean', 'amax', 'amin'); include_self=False leaves input's own values out."""
    if not _warned:
        _warned.append(True)
        warnings.warn("index_reduce() is in beta and the API may change at any time.",
                      UserWarning, stacklevel=2)
    for arg, x in (("index", index), ("source", source)):
        if not isinstance(x, Tensor):
            raise TypeError(f"index_reduce(): argument '{arg}' must be Tensor, not "
                            f"{type_name(x)}")
    dim = geo.wrap_dim(dim, max(input.ndim, 1))
    inplace = out.__class__ is Inplace
    _check("index_reduce_" if inplace else "index_reduce", input, dim, index, source, reduce)
    if not include_self and input._data.dtype.kind in "bc":
        raise NotImplementedError(f'"index_reduce_func_exclude_input_init" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    wrapped = index
    with no_grad():
        result = _reduce(input.detach(), source.detach(), dim, wrapped, reduce, include_self)
    requires_grad = input.requires_grad or source.requires_grad
    params = {"dim": dim, "reduce": reduce, "include_self": include_self, "index": wrapped}
    inputs = (input, source)
    if inplace:
        inputs = prepare_inplace(IndexReduce, inputs, requires_grad)
    elif out is not None:
        check_out("index_reduce", out, result._data.dtype, requires_grad)
    return finish(IndexReduce, inputs, result._data, params, out, requires_grad)
