"""Pickling tensors, as torch's `pickle` does: each tensor carries a copy of its storage (views
pickled together come back as separate tensors), its geometry and `requires_grad`.
`ember.save`/`ember.load` (serialization.py), which keep views sharing, write torch's format."""
from ._device import backend_of


def reduce_tensor(t):
    """`__reduce_ex__` of a tensor (grad and graph are not pickled, as in torch)."""
    return (rebuild_tensor, (type(t), t._get_storage().array.copy(), t._offset,
                             tuple(t._data.shape), t.stride(), t._requires_grad,
                             dict(t.__dict__)))


def rebuild_tensor(cls, flat, offset, shape, strides, requires_grad, state):
    from ._tensor import new_storage
    storage = new_storage(flat)
    data = backend_of(flat).strided(flat, flat.dtype, shape, strides, offset)
    t = object.__new__(cls)._init(data, storage, offset)
    t._requires_grad = requires_grad
    if state:
        t.__dict__.update(state)
    return t
