"""The end of every op call: a kernel's result becomes a fresh tensor, fills `out=`, or is
written in place, and the graph is recorded when needed.

The families (pointwise, reductions, ...) decide dtypes and shapes; this module owns what is
common to all of them, including torch's in-place and `out=` errors.
"""
import re
import warnings

from .. import _dtype
from .._device import backend_of
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import record


_new = object.__new__


class Inplace:
    """Passed as `out` by the `op_` variants: write the result into `target` itself."""

    __slots__ = ("target",)

    def __init__(self, target):
        self.target = target


def inplace_variant(fn, name):
    """The in-place method `op_` of a function `op(input, ..., out=None)`."""
    def method(self, *args, **kwargs):
        return fn(self, *args, out=Inplace(self), **kwargs)
    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = f"In-place version of :meth:`{name[:-1]}`."
    return method


def _shape_text(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def view_ban_error(view, how):
    """torch's refusal to let an output of split/chunk/unbind or of a custom Function (or a view
    of one) be written in place (`how`: "is being modified inplace", or "its base ... has
    been"), with the reason its node keeps."""
    name = re.sub(r"Backward\d*$", "", view._grad_fn.name())
    return RuntimeError(f"Output {view._output_nr} of {name} is a view and {how}. "
                        f"{view._grad_fn._view_ban}")


def check_inplace(target, result_dtype, result_shape):
    """torch's checks before an in-place op writes into `target` (nothing is written yet)."""
    if _grad_state.enabled:
        base = target._base
        if base is not None and target._grad_fn is not None \
                and target._grad_fn._view_ban is not None:
            raise view_ban_error(target, "is being modified inplace")
        if base is None:
            if target._requires_grad and target._grad_fn is None:
                raise RuntimeError("a leaf Variable that requires grad is being used in an "
                                   "in-place operation.")
        elif base._requires_grad and base._grad_fn is None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                               "an in-place operation.")
    target_dtype = target._data.dtype
    if result_dtype != target_dtype:
        res, tgt = _dtype._FROM_NUMPY[result_dtype], _dtype._FROM_NUMPY[target_dtype]
        if not _dtype.can_cast(res, tgt):
            raise RuntimeError(f"result type {res._scalar_name} can't be cast to the desired "
                               f"output type {tgt._scalar_name}")
    if result_shape != target._data.shape:
        raise RuntimeError(f"output with shape {_shape_text(target._data.shape)} doesn't match "
                           f"the broadcast shape {_shape_text(result_shape)}")


def check_out(name, out, result_dtype, requires_grad):
    """torch's checks for `out=`: no autograd through it, and a castable dtype."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if (requires_grad or out._requires_grad) and _grad_state.enabled:
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           f"differentiation, but one of the arguments requires grad.")
    if result_dtype != out._data.dtype:
        res, tgt = _dtype._FROM_NUMPY[result_dtype], _dtype._FROM_NUMPY[out._data.dtype]
        if not _dtype.can_cast(res, tgt):
            raise RuntimeError(f"result type {res._scalar_name} can't be cast to the desired "
                               f"output type {tgt._scalar_name}")


def write_out(out, result):
    """Copy `result` into `out`, resizing `out` (with torch's warning) if its shape differs."""
    if out._data.shape != result.shape:
        if out._data.size != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{_shape_text(out._data.shape)}, which does not match the required output shape "
                f"{_shape_text(result.shape)}. This behavior is deprecated, and in a future "
                f"PyTorch release outputs will not be resized unless they have zero elements. "
                f"You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                f"elements with t.resize_(0).", UserWarning, stacklevel=4)
        xp = backend_of(result).xp
        keep = out._requires_grad, out._grad_fn, out._output_nr, out._meta
        out._init(xp.empty(result.shape, out._data.dtype))
        out._requires_grad, out._grad_fn, out._output_nr, out._meta = keep
    out._data[...] = result
    out._bump_version()
    return out


def finish(op, inputs, result, params, out, requires_grad):
    """The op's output from its kernel's `result` array."""
    if out is None:
        t = _new(Tensor)._init(result)
        if requires_grad and _grad_state.enabled:
            record(op, inputs, (t,), params)
        return t
    if out.__class__ is Inplace:
        target = out.target
        if result is not target._data:
            target._data[...] = result
        return finish_inplace(op, inputs, params, target, requires_grad)
    return write_out(out, result)


def prepare_inplace(op, inputs, requires_grad):
    """Before an in-place kernel overwrites inputs[0]: keep what backward will need of it."""
    if not (requires_grad and _grad_state.enabled) or "self" not in op._saved_names:
        return inputs
    target = inputs[0]
    old = wrap(target._data.copy())
    old._grad_fn, old._output_nr, old._requires_grad = (
        target._grad_fn, target._output_nr, target._requires_grad)
    return (old,) + tuple(inputs[1:])


def finish_inplace(op, inputs, params, target, requires_grad):
    """Bump the version of `target` (already holding the result) and rebase its graph.

    NOTE: an operand that is `target` itself (`y.mul_(y)`) is recorded before the bump, as
    torch saves it before writing: its backward then reports the in-place modification
    instead of using the new values as if they were the old ones.
    """
    aliased = any(x is target for x in inputs[1:])
    if not aliased:
        target._bump_version()
    if requires_grad and _grad_state.enabled:
        if target._base is None:
            record(op, inputs, (target,), params)
        else:
            from .inplace import rebase_view
            rebase_view(op, inputs, params, target)
    if aliased:
        target._bump_version()
    return target
