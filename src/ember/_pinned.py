"""Pinned (page-locked) host memory: CPU tensors the GPU can copy from and to asynchronously.

A pinned tensor is an ordinary CPU tensor whose NumPy array views a buffer that CuPy allocated
with `cudaHostAlloc` (`cupy.cuda.alloc_pinned_memory`, from CuPy's pinned memory pool). The
buffer object stays the base of every view of that array, so `is_pinned()` needs no registry:
it follows the array's bases down to the buffer and asks whether CuPy pinned it. Memory that
someone else pinned through CuPy (`cupyx.empty_pinned` arrays given to `from_numpy`) counts too.

As in torch, pinning needs an accelerator: without a GPU `pin_memory()` and the factories'
`pin_memory=True` raise, and nothing here imports CuPy.
"""
import math

import numpy as np

NO_ACCELERATOR = "Cannot access accelerator device when none is available."
NO_ALLOCATOR = ("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
                "allocator is available on this system.")


def _cupy():
    from .cuda._backend import cupy_or_none
    return cupy_or_none()


def _buffer_of(array):
    """The object at the bottom of a NumPy array's chain of bases (None: it owns its memory)."""
    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):       # np.frombuffer keeps a memoryview of the buffer
        base = base.obj
    return base


def is_pinned_array(array):
    """Whether `array` is a NumPy array over pinned host memory."""
    if not isinstance(array, np.ndarray):
        return False
    buffer = _buffer_of(array)
    if buffer is None:                     # NumPy's own memory: the common case, asked cheaply
        return False
    cp = _cupy()
    kind = getattr(getattr(cp, "cuda", None), "PinnedMemoryPointer", None)
    return kind is not None and isinstance(buffer, kind)


def empty_pinned(shape, dtype):
    """An uninitialised C-contiguous NumPy array of `shape` and `dtype` in pinned memory."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    # NOTE: one byte at least, so that an empty tensor still has a (pinned) buffer under it.
    memory = _cupy().cuda.alloc_pinned_memory(max(nbytes, 1))
    raw = np.frombuffer(memory, np.uint8, count=max(nbytes, 1))[:nbytes]
    return raw.view(dtype).reshape(shape)


def pinned_copy(array):
    """A copy of the NumPy array `array` in pinned memory, laid out as `array` is (its dims in
    the order of their strides, as torch keeps a dense tensor's strides when it pins it)."""
    order = sorted(range(array.ndim), key=lambda i: -array.strides[i])
    out = empty_pinned(tuple(array.shape[i] for i in order), array.dtype)
    out = out.transpose(np.argsort(order)) if array.ndim else out
    out[...] = array
    return out


def check_can_pin(device=None):
    """torch's refusals for `pin_memory=True` in a factory: it needs a GPU (RuntimeError
    without one) and makes CPU tensors only."""
    from . import cuda
    if not cuda.is_available():
        raise RuntimeError(NO_ALLOCATOR)
    if device is not None and device.type != "cpu":
        raise RuntimeError("Only dense CPU tensors can be pinned")


def pin_factory_result(t, pin_memory):
    """A factory's fresh tensor `t`, moved into pinned memory when `pin_memory` is true (it
    has no views yet, so its array and storage are simply replaced)."""
    if not pin_memory:
        return t
    check_can_pin(t.device)
    t._data = pinned_copy(t._data)
    if t._storage is not None:
        t._storage = type(t._storage)(t._data)
    return t


# -- copies between pinned memory and the GPU ------------------------------------------------
# NOTE [ Non-blocking copies ]
# `.to(device, non_blocking=True)` from pinned memory to the GPU, or from the GPU into pinned
# memory (the CPU copy is then pinned, as torch makes it), is queued on the current stream and
# returns at once: the values are there once the stream has run it (`ember.cuda.synchronize()`,
# or later work on the same stream). Any other non_blocking copy (pageable memory, a strided
# source, a change of dtype on the way) is the ordinary synchronous copy. Until its copy has
# run, the source and destination arrays are kept alive here, so that dropping a tensor cannot
# hand its memory back to a pool while the GPU still reads or writes it.
_in_flight = []                   # (event recorded after the copy, arrays it touches)


def _keep_until_done(cp, arrays):
    _in_flight[:] = [(e, a) for e, a in _in_flight if not e.done]
    event = cp.cuda.Event(disable_timing=True)
    event.record(cp.cuda.get_current_stream())
    _in_flight.append((event, arrays))


def _async_ok(array):
    return array.flags.c_contiguous and array.dtype.kind in "biufc"


def copy_async(array, source, target, dev):
    """`array` (held by backend `source`) copied to device `dev` of backend `target` on the
    current stream without waiting, where NOTE [ Non-blocking copies ] allows; else None."""
    if source.device_type == "cpu" and target.device_type == "cuda":
        if not (is_pinned_array(array) and _async_ok(array)):
            return None
        cp = target.xp
        with cp.cuda.Device(dev.index or 0):
            out = cp.empty(array.shape, array.dtype)
            out.set(array, stream=cp.cuda.get_current_stream())
            _keep_until_done(cp, (array, out))
        return out
    if source.device_type == "cuda" and target.device_type == "cpu":
        if not _async_ok(array):
            return None
        cp = source.xp
        out = empty_pinned(array.shape, array.dtype)
        with cp.cuda.Device(array.device.id):
            cp.asnumpy(array, stream=cp.cuda.get_current_stream(), out=out, blocking=False)
            _keep_until_done(cp, (array, out))
        return out
    return None
