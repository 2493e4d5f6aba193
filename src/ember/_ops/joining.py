"""Joining tensors: cat (concat, concatenate) and stack."""
from .. import _dtype, _geometry as geo
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import check_out, write_out
from ._op import Op, record
from .elementwise import arrays_for
from .registry import function, register


class Cat(Op):
    """Tensors joined along an existing dim."""
    inputs = ()
    variadic = True

    def backward(ctx, grad):
        from .views import narrow
        grads, start = [], 0
        for size, skipped, needed in zip(ctx.sizes, ctx.skipped, ctx.needs_input_grad):
            if not needed:
                grads.append(None)
            elif skipped:           # a 1-D empty tensor that took no part in the join
                grads.append(grad.new_zeros((0,)))
            else:
                grads.append(narrow(grad, ctx.dim, start, size))
            start += size
        return tuple(grads)


class Stack(Op):
    """Tensors joined along a new dim."""
    inputs = ()
    variadic = True

    def backward(ctx, grad):
        return tuple(g if needed else None for g, needed in
                     zip(grad.unbind(ctx.dim), ctx.needs_input_grad))


def _tensor_list(tensors, name):
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not Tensor")
    tensors = list(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return tensors


def _finish_join(op, tensors, result, params, out, name):
    requires_grad = any(t._requires_grad for t in tensors)
    if out is not None:
        check_out(name, out, result.dtype, requires_grad)
        return write_out(out, result)
    t = wrap(result)
    if requires_grad and _grad_state.enabled:
        record(op, tuple(tensors), (t,), params)
    return t


@function(method=False)
def cat(tensors, dim=0, *, out=None):
    """Join tensors along an existing dim; all other sizes must match."""
    tensors = _tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    # NOTE: torch skips 1-D empty tensors whatever the other shapes are (legacy behaviour).
    real = [t for t in tensors if not (t.ndim == 1 and t.shape[0] == 0)] or tensors[:1]
    ref = real[0]
    d = geo.wrap_dim(dim, ref.ndim)
    for i, t in enumerate(tensors):
        if t.ndim == 1 and t.shape[0] == 0:
            continue
        if t.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} "
                               f"and {t.ndim}")
        for k in range(ref.ndim):
            if k != d and t.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref.shape[k]} but got size {t.shape[k]} for "
                                   f"tensor number {i} in the list.")
    common = _dtype.result_type_of([t.dtype for t in tensors], [], [])._np
    xp, arrays = arrays_for(real, common)
    result = xp.concatenate(arrays, axis=d)
    skipped = tuple(not any(t is r for r in real) for t in tensors)
    sizes = tuple(0 if s else t.shape[d] for t, s in zip(tensors, skipped))
    return _finish_join(Cat, tensors, result, {"dim": d, "sizes": sizes, "skipped": skipped},
                        out, "cat")


register("concat", cat, method=False)
register("concatenate", lambda tensors, axis=0, out=None: cat(tensors, axis, out=out),
         method=False)


@function(method=False)
def stack(tensors, dim=0, *, out=None):
    """Join equally shaped tensors along a new dim."""
    tensors = _tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0].shape
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"[{', '.join(map(str, first))}] at entry 0 and "
                               f"[{', '.join(map(str, t.shape))}] at entry {i}")
    d = geo.wrap_dim(dim, len(first) + 1)
    common = _dtype.result_type_of([t.dtype for t in tensors], [], [])._np
    xp, arrays = arrays_for(tensors, common)
    result = xp.stack(arrays, axis=d)
    return _finish_join(Stack, tensors, result, {"dim": d}, out, "stack")
