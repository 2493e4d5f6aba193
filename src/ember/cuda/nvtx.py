"""ember.cuda.nvtx: NVTX ranges and marks, the annotations profilers (Nsight Systems) show
on their timeline, through CuPy's NVTX bindings.

Without CUDA (or without NVTX in CuPy) the functions raise torch's error, as a torch built
without CUDA does. `range_start`/`range_end` (ranges that may overlap) are not in CuPy's
bindings: they raise the AttributeError torch raises without CUDA.
"""
import importlib
import threading
from contextlib import contextmanager

from ._backend import cupy_or_none
from ._utils import is_available

__all__ = ["range_push", "range_pop", "range_start", "range_end", "mark", "range"]

_NOT_INSTALLED = "NVTX functions not installed. Are you sure you have a CUDA build?"


class _NVTXStub:
    """NVTX without CUDA: each function raises torch's error."""

    @staticmethod
    def _fail(*args, **kwargs):
        raise RuntimeError(_NOT_INSTALLED)

    rangePushA = rangePop = markA = _fail


_depth = threading.local()      # open nested ranges, per thread (what push and pop return)


class _CupyNVTX:
    """CuPy's NVTX functions, with NVTX's depth count of nested ranges."""

    def __init__(self, nvtx):
        self.nvtx = nvtx

    def rangePushA(self, msg):
        depth = getattr(_depth, "n", 0)
        self.nvtx.RangePush(msg)
        _depth.n = depth + 1
        return depth

    def rangePop(self):
        depth = getattr(_depth, "n", 0) - 1
        if depth < 0:
            return -2           # (negative, as NVTX's answer when no range is open)
        self.nvtx.RangePop()
        _depth.n = depth
        return depth

    def markA(self, msg):
        self.nvtx.Mark(msg)


def _nvtx():
    """CuPy's NVTX where CUDA can be used and CuPy was built with NVTX, else the stub."""
    if not is_available():
        return _NVTXStub()
    nvtx = getattr(cupy_or_none().cuda, "nvtx", None)
    if nvtx is None:
        try:
            nvtx = importlib.import_module("cupy.cuda.nvtx")
        except ImportError:
            return _NVTXStub()
    return _CupyNVTX(nvtx) if getattr(nvtx, "available", True) else _NVTXStub()


def range_push(msg):
    """Open a nested range named `msg`; returns its zero-based depth."""
    return _nvtx().rangePushA(msg)


def range_pop():
    """Close the innermost open range; returns its depth."""
    return _nvtx().rangePop()


def range_start(msg):
    """Open a range that may overlap others (not nested); returns its id."""
    return _nvtx().rangeStartA(msg)


def range_end(range_id):
    """Close the range `range_start` opened with id `range_id`."""
    _nvtx().rangeEnd(range_id)


def mark(msg):
    """An instantaneous event named `msg`."""
    return _nvtx().markA(msg)


@contextmanager
def range(msg, *args, **kwargs):
    """A range around the `with` block, named `msg.format(*args, **kwargs)`."""
    range_push(msg.format(*args, **kwargs))
    try:
        yield
    finally:
        range_pop()
