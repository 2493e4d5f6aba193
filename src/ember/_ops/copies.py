"""The copying ops of the memory model: clone (in the layout asked for, or keeping a dense
tensor's strides) and contiguous (itself when already laid out, else a clone). The views that
share memory are in `views.py`.
"""
import numpy as np

from .. import _memory_format as _mf
from .._device import backend_of
from .._memory_format import contiguous_format, preserve_format
from .._tensor import is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._blocked import contiguous_copy
from ._op import Op, record
from .argument_errors import keyword_memory_format
from .registry import function, method


class Clone(Op):
    """A copy with its own memory."""

    def backward(ctx, grad):
        return grad


@function()
def clone(input, *, memory_format=None):
    """A copy of `input`: with its strides where it is dense, else contiguous
    (`preserve_format`, the default), or in the layout asked for."""
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.clone(input, memory_format)
    xp = backend_of(input._data).xp
    data = input._data
    if memory_format is contiguous_format:
        array = contiguous_copy(data) if xp is np else xp.array(data, order="C", copy=True)
    elif memory_format is None or memory_format is preserve_format:
        array = _mf.copy_preserving(xp, data)
    else:
        _mf.check_rank(memory_format, data.ndim)
        array = _mf.lay_out(xp, data, memory_format)
    out = wrap(array)
    if input._requires_grad and _grad_state.enabled:
        record(Clone, (input,), (out,), {})
    return out


@method()
def contiguous(self, *args, memory_format=None):
    """This tensor if it is already contiguous (in `memory_format`, default row-major), else
    a copy that is."""
    if args or memory_format is not None and memory_format.__class__ is not _mf.memory_format:
        keyword_memory_format("contiguous", args, memory_format)
    if memory_format is None or memory_format is preserve_format:
        if self._data.flags.c_contiguous:
            return self
        if memory_format is preserve_format:    # (torch checks it only when a copy is due)
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        memory_format = contiguous_format
    _mf.check_rank(memory_format, self._data.ndim)
    if _mf.is_laid_out(self._data, memory_format):
        return self
    return clone(self, memory_format=memory_format)
