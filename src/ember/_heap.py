"""Keeping freed array memory in the process between training steps (glibc only).

NOTE [ Heap padding ]
Each step of a training loop allocates and frees the same large NumPy arrays (activations,
gradients, im2col columns). With glibc's defaults the memory freed at the top of the heap goes
back to the OS at once, so the next step's arrays page-fault on their first touch: about 1,200
faults per step of the small CNN in benchmarks/bench_nn.py, a third of its time (8.5 ms instead
of 5.8 ms in an ember-only process). torch hides most of this behind its own allocators.
Asking malloc to keep 64 MiB of padding at the top of the heap (M_TOP_PAD) removes those faults;
the process keeps up to that much freed memory for reuse instead of returning it.

The setting is process-wide. EMBER_HEAP_PAD (bytes; 0 leaves malloc alone) changes it, and
non-glibc systems are left alone.
"""
import ctypes
import os
import sys

_M_TOP_PAD = -2             # mallopt's parameter numbers in glibc's malloc.h
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 32 << 20  # glibc's largest (DEFAULT_MMAP_THRESHOLD_MAX on 64-bit)
_DEFAULT_PAD = 64 << 20


def pad_heap():
    """Set glibc's M_TOP_PAD once, at import (see the NOTE)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        pad = int(os.environ.get("EMBER_HEAP_PAD", _DEFAULT_PAD))
        libc = ctypes.CDLL(None)
        if pad > 0 and hasattr(libc, "gnu_get_libc_version"):
            # (setting either parameter turns off glibc's sliding mmap threshold, which would
            # otherwise rise to the size of the arrays freed: it is fixed at its maximum)
            libc.mallopt(_M_MMAP_THRESHOLD, ctypes.c_int(_MMAP_THRESHOLD))
            libc.mallopt(_M_TOP_PAD, ctypes.c_int(min(pad, 2**31 - 1)))
    except (OSError, ValueError, AttributeError):
        pass
