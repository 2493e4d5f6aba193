"""torch.from_file: a 1-D tensor over the bytes of a file, read into private memory or, with
`shared=True`, mapped so that writes to the tensor reach the file (which is created, or
extended with zeros, to the size asked for)."""
import mmap
import os

import numpy as np

from . import _dtype

__all__ = ["from_file"]


def from_file(filename, shared=None, size=0, *, dtype=None, layout=None, device=None,
              pin_memory=False, requires_grad=False):
    """The first `size` elements of `dtype` (the default dtype) stored in `filename`."""
    from ._tensor import wrap
    dtype = _dtype.get_default_dtype() if dtype is None else dtype
    np_dtype = np.dtype(dtype._np)
    nbytes = size * np_dtype.itemsize
    if size < 0:
        raise RuntimeError(f"unable to mmap {nbytes} bytes from file <{filename}>: Cannot "
                           f"allocate memory (12)")
    if shared:
        fd = os.open(filename, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if os.fstat(fd).st_size < nbytes:
                os.ftruncate(fd, nbytes)
            memory = mmap.mmap(fd, nbytes) if nbytes else bytearray()
        finally:
            os.close(fd)
        array = np.frombuffer(memory, np_dtype, count=size)
    else:
        try:
            with open(filename, "rb") as f:
                data = f.read(nbytes)
        except FileNotFoundError:
            raise RuntimeError(f"unable to open file <{filename}> in read-only mode: No such "
                               f"file or directory (2)") from None
        if len(data) < nbytes:
            raise RuntimeError(f"file <{filename}> size <{os.path.getsize(filename)}> is "
                               f"smaller than the required mapping size <{nbytes}>")
        array = np.frombuffer(bytearray(data), np_dtype, count=size)
    result = wrap(array)
    return result.requires_grad_() if requires_grad else result
