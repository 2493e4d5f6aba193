"""torch.from_file: a 1-D tensor over the bytes of a file, mapped privately (copy-on-write)
or, with `shared=True`, so that writes to the tensor reach the file (which is created, or
extended with zeros, to the size asked for). The mapping is the storage's
(`UntypedStorage.from_file`, `_untyped_storage._mapped`): its `filename` names a shared file,
and it cannot be resized."""
from . import _dtype

__all__ = ["from_file"]


def from_file(filename, shared=None, size=0, *, dtype=None, layout=None, device=None,
              pin_memory=False, requires_grad=False):
    """The first `size` elements of `dtype` (the default dtype) stored in `filename`."""
    from ._untyped_storage import _mapped
    from ._tensor import Tensor
    dtype = _dtype.get_default_dtype() if dtype is None else dtype
    nbytes = size * dtype.itemsize
    if size < 0:
        raise RuntimeError(f"unable to mmap {nbytes} bytes from file <{filename}>: Cannot "
                           f"allocate memory (12)")
    storage = _mapped(filename, bool(shared), nbytes)
    result = Tensor.__new__(Tensor)._init(storage.array.view(dtype._np), storage, 0)
    if device is not None:
        result = result.to(device)
    return result.requires_grad_() if requires_grad else result
