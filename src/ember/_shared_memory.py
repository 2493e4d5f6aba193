"""Shared memory for CPU storages: allocating it, moving a storage into it (`share_memory_`),
and mapping it again in another process. The pickling that sends it is in
`ember.multiprocessing.reductions`.

NOTE [ Shared-memory lifetime ]
A shared storage's memory is an mmap of a shared-memory file, held by a `SharedMap` that the
storage's arrays keep alive (it is the base of their buffer).
- Under the default strategy, "file_descriptor", the file is an anonymous memfd: it never has
  a name, so no process death, however abrupt, can leave it behind.
- The memory lives exactly as long as something refers to it: a mapping (the arrays of some
  process) or an open descriptor. A `SharedMap` keeps its fd open so that the storage can be
  sent on (before Python 3.13 the mmap holds a second, duplicate one), so the first share
  raises the soft RLIMIT_NOFILE to the hard limit.
- Sending through `multiprocessing` queues and pipes (`reductions.py`): the descriptor is lent
  by the sender's resource sharer until the receiver takes it. As in torch, the sender must
  live until its tensors are received, and a descriptor never claimed stays with the sender
  until it exits.
- DataLoader workers instead pass the descriptors inside their messages (`_channel.py`): a
  batch can be read after its worker died, and a batch never read is freed with the socket.
- When the last array in the last process is freed, the kernel frees the memory; a process
  killed by SIGKILL drops its share with it.
- Under "file_system" the file has a name in /dev/shm: the creator unlinks it when its own
  storage is freed (receivers must map it before that), and a creator killed by SIGKILL leaves
  it behind. Prefer "file_descriptor".
"""
import itertools
import mmap
import os
import sys
import weakref

import numpy as np

_STRATEGIES = ("file_descriptor", "file_system")
_strategy = "file_descriptor"
_names = itertools.count()
_limits_raised = False
# NOTE: before Python 3.13 an mmap keeps its own duplicate of the descriptor: two per storage.
_NO_DUP = {"trackfd": False} if sys.version_info >= (3, 13) else {}
# (st_dev, st_ino) of a shared file -> the Storage over it in this process, so that a storage
# sent back and forth is mapped once and views sent apart stay views of one storage.
_storages = weakref.WeakValueDictionary()


def get_sharing_strategy():
    return _strategy


def set_sharing_strategy(new_strategy):
    global _strategy
    if new_strategy not in _STRATEGIES:
        raise AssertionError(f"invalid sharing strategy: {new_strategy!r}")
    _strategy = new_strategy


def get_all_sharing_strategies():
    return set(_STRATEGIES)


class SharedMap(mmap.mmap):
    """An mmap of a shared-memory file; `fd` (kept open) or `name` say how to send it on."""

    fd = None
    name = None


def _raise_fd_limit():
    global _limits_raised
    if _limits_raised:
        return
    _limits_raised = True
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def _anonymous_fd():
    if hasattr(os, "memfd_create"):
        return os.memfd_create("ember_shared", os.MFD_CLOEXEC)
    # NOTE: no memfd: a file opened then unlinked at once is just as anonymous.
    import tempfile
    fd, path = tempfile.mkstemp(prefix="ember_", dir="/dev/shm" if os.path.isdir("/dev/shm")
                                else None)
    os.unlink(path)
    return fd


def map_fd(fd, nbytes):
    """A `SharedMap` over the shared file `fd`, which it now owns (closed with the map)."""
    m = SharedMap(fd, max(nbytes, 1), **_NO_DUP)
    m.fd = fd
    weakref.finalize(m, os.close, fd)
    return m


def map_name(name, nbytes, owner=False):
    """A `SharedMap` over /dev/shm/`name`; its creator (`owner`) unlinks the name when the
    map is freed."""
    path = os.path.join("/dev/shm", name)
    fd = os.open(path, os.O_RDWR | (os.O_CREAT | os.O_EXCL if owner else 0), 0o600)
    try:
        if owner:
            os.ftruncate(fd, max(nbytes, 1))
        m = SharedMap(fd, max(nbytes, 1))
    finally:
        os.close(fd)
    m.name = name
    if owner:
        weakref.finalize(m, _unlink_quietly, path)
    return m


def _unlink_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def new_map(nbytes):
    """Fresh zeroed shared memory of `nbytes` bytes under the current strategy."""
    _raise_fd_limit()
    if _strategy == "file_system":
        return map_name(f"ember_{os.getpid()}_{next(_names)}", nbytes, owner=True)
    fd = _anonymous_fd()
    os.ftruncate(fd, max(nbytes, 1))
    return map_fd(fd, nbytes)


def file_key(m):
    """(st_dev, st_ino) of the file under a map."""
    st = os.fstat(m.fd) if m.fd is not None else os.stat(os.path.join("/dev/shm", m.name))
    return st.st_dev, st.st_ino


def shared_map_of(array):
    """The `SharedMap` under a NumPy array, or None when its memory is not shared."""
    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):
        base = base.obj
    return base if isinstance(base, SharedMap) else None


def new_shared_array(dtype, count):
    """A zeroed 1-D NumPy array of `count` elements in fresh shared memory."""
    dtype = np.dtype(dtype)
    m = new_map(count * dtype.itemsize)
    return np.frombuffer(m, dtype=dtype, count=count)


def remember(storage, key):
    """Note `storage` as this process's storage over a shared file window: `key` is the
    file's (st_dev, st_ino) plus (byte offset, dtype string, element count)."""
    _storages[key] = storage


def known_storage(key):
    return _storages.get(key)


def share_storage(tensor):
    """Move `tensor`'s storage into shared memory, in place (`move_to_shared`)."""
    move_to_shared(tensor._get_storage())


def move_to_shared(storage):
    """Move `storage` (a `Storage`) into shared memory, in place: every tensor over that
    memory in this process (views, `.data` aliases) is re-pointed at the copy, as torch swaps
    the data pointer under its storage. A storage already shared, or on CUDA, is left alone."""
    from ._storage import swap_memory
    old = storage.array
    if not isinstance(old, np.ndarray) or shared_map_of(old) is not None:
        return
    new = new_shared_array(old.dtype, old.size)
    new[...] = old
    swap_memory(storage, new)
    remember(storage, file_key(shared_map_of(new)) + (0, new.dtype.str, new.size))
