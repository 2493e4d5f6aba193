"""Pickling tensors: a tensor pickles as its storage plus geometry, so views pickled together
stay views of one storage after unpickling (pickle keeps shared objects shared)."""
from ._device import backend_of


def reduce_tensor(t):
    """`__reduce_ex__` of a tensor (grad and graph are not pickled, as in torch)."""
    return (rebuild_tensor, (type(t), t._get_storage(), t._offset, tuple(t._data.shape),
                             t.stride(), t._requires_grad, dict(t.__dict__)))


def rebuild_tensor(cls, storage, offset, shape, strides, requires_grad, state):
    from ._tensor import Tensor
    data = backend_of(storage.array).strided(storage.array, shape, strides, offset)
    t = object.__new__(cls)._init(data, storage, offset)
    t._requires_grad = requires_grad
    if state:
        t.__dict__.update(state)
    return t if isinstance(t, Tensor) else t
