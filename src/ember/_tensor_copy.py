"""copy.copy and copy.deepcopy of a tensor (Tensor.__copy__ and __deepcopy__).

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
