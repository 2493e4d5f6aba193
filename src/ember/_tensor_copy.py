"""copy.copy and copy.deepcopy of a tensor (Tensor.__copy__ and __deepcopy__), and
`Tensor.as_subclass`.

A shallow copy shares memory, as torch's does through its storage. A deep copy copies each
storage once per `memo` (so views copied together still share their new storage) and keeps the
tensor's window over it, its requires_grad, its .grad (deep-copied) and its attributes; only
leaves can be deep-copied, as in torch.
"""
import copy

from ._device import backend_of
from ._tensor import new_storage

_new = object.__new__

_NOT_A_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")


def shallow_copy(t):
    new = _new(type(t))._init(t._data, t._get_storage(), t._offset)
    new._requires_grad = t._requires_grad
    if t.__dict__:
        new.__dict__.update(t.__dict__)
    return new


def deep_copy(t, memo):
    if t._grad_fn is not None:
        raise RuntimeError(_NOT_A_LEAF)
    if id(t) in memo:
        return memo[id(t)]
    storage = t._get_storage()
    copied = memo.get(id(storage))
    if copied is None:
        copied = memo[id(storage)] = new_storage(storage.array.copy())
    data = backend_of(t._data).strided(copied.array, t._data.dtype, t._data.shape, t.stride(),
                                       t._offset)
    new = _new(type(t))._init(data, copied, t._offset)
    new._requires_grad = t._requires_grad
    grad = t.grad_if_set()
    if grad is not None:
        new._set_grad(copy.deepcopy(grad, memo))
    if t.__dict__:
        new.__dict__.update(copy.deepcopy(t.__dict__, memo))
    memo[id(t)] = new
    return new


_SLOTS = ("_data", "_storage", "_offset", "_base", "_requires_grad", "_grad_fn", "_output_nr",
          "_meta")


def as_subclass(tensor, cls):
    """`tensor.as_subclass(cls)`: an alias of `tensor` (a view of it, AliasBackward0 when it
    requires grad) whose class is `cls` (ops on it give `cls` back through
    `Tensor.__torch_function__`, NOTE [ __torch_function__ ])."""
    from ._tensor import Tensor
    from ._ops.views import alias_of
    if not isinstance(cls, type):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    if not issubclass(cls, Tensor):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from "
                        "Tensor is not possible. Make sure your class inherits from Tensor.")
    from ._torch_function import DisableTorchFunction
    with DisableTorchFunction():        # (torch's as_subclass calls nothing a mode could see)
        view = alias_of(tensor)
    if cls is Tensor:
        return view
    # NOTE: a fresh `cls` object given the view's fields, rather than `view.__class__ = cls`,
    # which Python refuses for a subclass with __slots__ of its own.
    result = _new(cls)
    for name in _SLOTS:
        setattr(result, name, getattr(view, name))
    return result
