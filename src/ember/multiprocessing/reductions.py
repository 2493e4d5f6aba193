"""Pickling that sends CPU tensors through shared memory (see NOTE [ Shared-memory lifetime ]
in `ember/_shared_memory.py`): registered with `multiprocessing`'s ForkingPickler, so every
`Queue`, `Pipe` and `Pool` of any context uses it, while plain `pickle` still copies."""
import io
import os
import threading
from multiprocessing.reduction import DupFd, ForkingPickler

import numpy as np

from .. import _shared_memory as shm
from .._storage import Storage
from .._tensor import Tensor

_MAX_FDS = 250                      # below the kernel's SCM_MAX_FD (253) per message
_outgoing = threading.local()       # .slots: fd -> slot, while `dumps_with_fds` runs
_incoming = threading.local()       # .fds: the received descriptors, while `loads_with_fds` runs


def _address(array):
    return array.__array_interface__["data"][0]


def reduce_tensor(t):
    """A tensor as (rebuild, args) naming its shared storage; the storage is moved into shared
    memory first, so the sender sees the receiver's writes and the other way round."""
    if t._grad_fn is not None and t._requires_grad:
        raise RuntimeError(
            "Cowardly refusing to serialize non-leaf tensor which requires_grad, since "
            "autograd does not support crossing process boundaries.  If you just want to "
            "transfer the data, call detach() on the tensor before serializing (e.g., putting "
            "it on the queue).")
    if not isinstance(t._data, np.ndarray):
        return t.__reduce_ex__(2)            # CUDA tensors travel as copies
    t.share_memory_()
    flat = t._get_storage().array
    m = shm.shared_map_of(flat)
    start = _address(np.frombuffer(m, dtype=np.uint8, count=1))
    where = (_address(flat) - start if flat.size else 0, flat.dtype.str, flat.size)
    return (rebuild_tensor, (type(t), _handle(m), len(m), where, t._data.dtype.str, t._offset,
                             tuple(t._data.shape), t.stride(), t._requires_grad,
                             dict(t.__dict__)))


def _handle(m):
    """How the receiver finds map `m`: a slot among the descriptors that travel with the
    message (`dumps_with_fds`), a descriptor lent by this process's resource sharer, or a name."""
    if m.fd is None:
        return ("name", m.name)
    slots = getattr(_outgoing, "slots", None)
    if slots is not None and (m.fd in slots or len(slots) < _MAX_FDS):
        _outgoing.maps.append(m)          # keeps the descriptor open until it is sent
        return ("slot", slots.setdefault(m.fd, len(slots)))
    return ("fd", DupFd(m.fd))


def _open(handle, map_len):
    """The shared map a handle names, and the file's identity."""
    kind, value = handle
    if kind == "slot":
        fd = _incoming.fds[value]
        st = os.fstat(fd)
        return (lambda: shm.map_fd(os.dup(fd), map_len)), (st.st_dev, st.st_ino), \
            (lambda: None)
    if kind == "fd":
        fd = value.detach()
        st = os.fstat(fd)
        return (lambda: shm.map_fd(fd, map_len)), (st.st_dev, st.st_ino), (lambda: os.close(fd))
    st = os.stat(os.path.join("/dev/shm", value))
    return (lambda: shm.map_name(value, map_len)), (st.st_dev, st.st_ino), (lambda: None)


def rebuild_tensor(cls, handle, map_len, where, dtype, offset, shape, strides, requires_grad,
                   state):
    make_map, file_id, discard = _open(handle, map_len)
    key = file_id + where
    storage = shm.known_storage(key)
    if storage is None:
        flat_offset, flat_dtype, count = where
        flat = np.frombuffer(make_map(), dtype=np.dtype(flat_dtype), count=count,
                             offset=flat_offset)
        storage = Storage(flat)
        shm.remember(storage, key)
    else:
        discard()
    flat = storage.array
    data = np.ndarray(shape, np.dtype(dtype), buffer=flat,
                      offset=offset * np.dtype(dtype).itemsize if 0 not in shape else 0,
                      strides=tuple(s * np.dtype(dtype).itemsize for s in strides))
    t = object.__new__(cls)._init(data, storage, offset)
    t._requires_grad = requires_grad
    if state:
        t.__dict__.update(state)
    return t


def _tensor_classes():
    seen, todo = [], [Tensor]
    while todo:
        cls = todo.pop()
        if cls not in seen and cls.__module__.startswith("ember"):
            seen.append(cls)
            todo.extend(cls.__subclasses__())
    return seen


def init_reductions():
    """Register the shared-memory pickling for ember's tensor classes (done on import)."""
    import ember.nn  # noqa: F401  (Parameter and Buffer are Tensor subclasses)
    for cls in _tensor_classes():
        ForkingPickler.register(cls, reduce_tensor)


class _SendingPickler(ForkingPickler):
    """Pickles every ember tensor (any subclass) through shared memory. A tensor whose memory
    is not shared yet is sent as a shared copy of its values (the sender's tensor stays as it
    is: meant for results a process hands over and drops, such as DataLoader batches)."""

    def reducer_override(self, obj):
        if isinstance(obj, Tensor) and isinstance(obj._data, np.ndarray) \
                and obj._grad_fn is None:
            if not obj.is_shared():
                copy = shm.new_shared_array(obj._data.dtype, obj._data.size)
                copy.reshape(obj._data.shape)[...] = obj._data
                shared = object.__new__(type(obj))._init(copy.reshape(obj._data.shape))
                shared._requires_grad = obj._requires_grad
                if obj.__dict__:
                    shared.__dict__.update(obj.__dict__)
                obj = shared
            return reduce_tensor(obj)
        return NotImplemented


def dumps_with_fds(obj):
    """`obj` pickled, the descriptors of the shared memory it names, to be sent together
    (`send_fds`), and the maps that keep those open until then; the receiver calls
    `loads_with_fds`. The sender may exit right after sending."""
    # NOTE: saved and restored, not reset: a garbage collection inside `dump` may run a
    # finalizer that sends a message of its own (a DataLoader iterator shutting down).
    outer = getattr(_outgoing, "slots", None), getattr(_outgoing, "maps", None)
    slots, maps = _outgoing.slots, _outgoing.maps = {}, []
    try:
        buf = io.BytesIO()
        _SendingPickler(buf, -1).dump(obj)
        return buf.getvalue(), list(slots), maps
    finally:
        _outgoing.slots, _outgoing.maps = outer


def loads_with_fds(data, fds):
    """Unpickle what `dumps_with_fds` made; closes the received descriptors (the maps that
    need them hold duplicates)."""
    outer, _incoming.fds = getattr(_incoming, "fds", None), fds
    try:
        return ForkingPickler.loads(data)
    finally:
        _incoming.fds = outer
        for fd in fds:
            os.close(fd)
