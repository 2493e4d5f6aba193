"""The CuPy backend: the array module and helpers for tensors on NVIDIA GPUs."""
import os

from .._device import Backend, cuda_current_index, device

CUDA_UNAVAILABLE = (
    "Torch not compiled with CUDA enabled (ember computes on NVIDIA GPUs through CuPy: "
    "install it with `pip install ember[cuda]`, i.e. cupy-cuda13x, on a machine with a GPU)")

_cupy = None
_tried = False

# NOTE [ CUDA after fork ]: a process forked from one that had started CUDA cannot use CUDA
# (the driver's state does not survive a fork). As torch, such a child forgets the parent's
# CUDA backend, reports CUDA as not initialized, and refuses to start it with torch's error,
# while seeding (a DataLoader worker's `manual_seed`) stays a silent record.
_forked = False
FORKED = ("Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, "
          "you must use the 'spawn' start method")


def check_not_forked():
    """torch's error in a process forked after CUDA was started."""
    if _forked:
        raise RuntimeError(FORKED)


def _after_fork_in_child():
    global _forked
    from .. import _device
    if _device._cuda_backend is not None:
        _device._cuda_backend = None
        _forked = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def cupy_or_none():
    """CuPy, imported on first use; None if it is not installed."""
    global _cupy, _tried
    if not _tried:
        _tried = True
        try:
            import cupy
            _cupy = cupy
        except Exception:
            _cupy = None
    return _cupy


class CudaBackend(Backend):
    def __init__(self):
        check_not_forked()
        cp = cupy_or_none()
        if cp is None:
            raise AssertionError(CUDA_UNAVAILABLE)
        try:
            count = cp.cuda.runtime.getDeviceCount()
        except Exception:
            count = 0
        if count == 0:
            raise RuntimeError("No CUDA GPUs are available")
        super().__init__(cp, "cuda")
        self._runtime = cp.cuda.runtime
        from .memory import install_allocator
        install_allocator(cp)

    def make_current(self, index):
        """Make device `index` CuPy's current device (see NOTE [ Device guard ])."""
        runtime = self._runtime
        if runtime.getDevice() != index:
            runtime.setDevice(index)

    def device_of(self, array):
        return device("cuda", array.device.id)

    def strided(self, flat, dtype, shape, strides, offset):
        size = dtype.itemsize
        if 0 in shape:
            offset = 0
        return self.xp.ndarray(shape, dtype, memptr=flat.data + offset * size,
                               strides=tuple(s * size for s in strides))

    def span(self, array):
        size = array.itemsize
        extent = 1 + sum((n - 1) * s // size for n, s in zip(array.shape, array.strides)) \
            if array.size else 0
        return self.xp.ndarray((extent,), array.dtype, memptr=array.data)

    def data_ptr(self, array):
        return array.data.ptr

    def to_numpy(self, array):
        return array.get()

    def from_other(self, array, source, dev):
        self.make_current(cuda_current_index() if dev.index is None else dev.index)
        return self.xp.asarray(source.to_numpy(array))
