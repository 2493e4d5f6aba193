"""index_reduce (and index_reduce_): rows of `source` reduced into `input` at `index` along
`dim` with prod, mean, amax or amin; scatter_reduce with the index spread along `dim`.

The node is torch's IndexReduceBackward0; its backward differentiates that scatter_reduce, on
the saved tensors themselves when a graph of the gradients is wanted (create_graph), so that
second derivatives follow scatter_reduce's.
"""

from .. import _geometry as geo
from .._device import MetaArray
from .._tensor import Tensor
from ..autograd.grad_mode import _state as _grad_state, enable_grad, no_grad
from ._dispatch import Inplace, check_out, finish, prepare_inplace
from ._op import Op
from .registry import function
from .argument_errors import type_name
from .._config import warn_once

_REDUCTIONS = ("prod", "mean", "amax", "amin")


def _spread(index, source, dim):
    if not source.ndim:                 # (a 0-dim source takes a one-element index)
        return index.long().reshape(())
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


def _check(input, dim, index, source, reduce, include_self):
    from .scatter_gather_index import check_index_func
    # (torch names the in-place form, whichever is called)
    check_index_func("index_reduce_", input, dim, index, source)
    # (torch's kernel for a vector takes no bool or complex; the one for more dims takes
    # them, but its first fill of the slices without self does not)
    if input._data.dtype.kind in "bc" and (input.ndim <= 1 or not include_self):
        kernel = "index_func_" if include_self else "index_reduce_func_exclude_input_init"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    if input._data.dtype.kind == "b" and reduce == "mean":
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    if not include_self:
        from .scatter_gather_index import _check_restride
        _check_restride(input, dim, index.numel())
    if input._data.dtype.kind == "c" and reduce in ("amax", "amin") and index.numel():
        kernel = "maximum_cpu" if reduce == "amax" else "minimum_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    size = input.shape[dim] if input.ndim else 1
    values = index._data
    if values.size and values.__class__ is not MetaArray and (int(values.min()) < 0 or
                                                              int(values.max()) >= size):
        # NOTE: no negative indices; without self, torch first fills the indexed slices
        # (an index_fill_, which takes negative ones and names a positive one)
        wrong = (values < -size) | (values >= size)
        if not include_self and wrong.any():
            bad = int(values[wrong].reshape(-1)[0])
            raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size "
                             f"{size}")
        if not size and input.ndim > 1:     # (torch's kernel selects the first slice)
            raise IndexError(f"select(): index 0 out of range for tensor of size "
                             f"{list(input.shape)} at dimension {dim}")
        raise IndexError("index out of range in self")


@function(inplace=True)
def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """input with the rows source[i] (along `dim`) reduced into input[index[i]] by `reduce`
    ('prod', 'mean', 'amax', 'amin'); include_self=False leaves input's own values out."""
    warn_once("index_reduce() is in beta and the API may change at any time.")
    for arg, x in (("index", index), ("source", source)):
        if not isinstance(x, Tensor):
            raise TypeError(f"index_reduce(): argument '{arg}' must be Tensor, not "
                            f"{type_name(x)}")
    if not isinstance(reduce, str) or include_self.__class__ is not bool:
        raise TypeError("index_reduce: reduce must be str, include_self bool")   # (worded by
        #                                                      the wrapper: argument_errors)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    dim = geo.wrap_dim(dim, max(input.ndim, 1))
    inplace = out.__class__ is Inplace
    _check(input, dim, index, source, reduce, include_self)
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
