"""Questions asked of a tensor (is_same_size, is_conj, is_neg, is_distributed, is_inference,
isreal, is_signed, is_nonzero, storage_type, is_pinned), the legacy `Tensor.new`, `pin_memory` (page-locked
copies, `_pinned.py`), and the Python-callable element loops `apply_`, `map_` and `map2_`
(CPU only, as in torch).
"""
import numbers
import operator

import numpy as np

from .._dtype import _FROM_NUMPY
from .._pinned import NO_ACCELERATOR, is_pinned_array, pinned_copy
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record
from .argument_errors import type_name
from .registry import function, method


def _check_tensor(name, x, arg, position):
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type_name(x)}")


@function()
def is_same_size(input, other):
    """Whether the two tensors have the same shape."""
    _check_tensor("is_same_size", input, "input", 1)
    _check_tensor("is_same_size", other, "other", 2)
    return tuple(input.shape) == tuple(other.shape)


@function()
def is_conj(input):
    """Whether the conjugate bit is set (ember conjugates eagerly: always False)."""
    _check_tensor("is_conj", input, "input", 1)
    return False


@function()
def is_neg(input):
    """Whether the negative bit is set (ember negates eagerly: always False)."""
    _check_tensor("is_neg", input, "input", 1)
    return False


@function()
def is_distributed(input):
    """Whether the tensor is spread over several processes (a legacy query): never."""
    _check_tensor("is_distributed", input, "input", 1)
    return False


@function()
def is_inference(input):
    """Whether the tensor is an inference tensor: made in inference mode, or a view of one
    (NOTE [ Inference tensors ] in _tensor.py)."""
    _check_tensor("is_inference", input, "input", 1)
    storage = input._storage
    return storage is not None and storage.inference


@function(method=False)
def is_signed(input):
    """Whether the tensor's dtype is signed (torch.is_signed; Tensor.is_signed exists)."""
    _check_tensor("is_signed", input, "input", 1)
    return input.dtype.is_signed


@method()
def is_nonzero(self):
    """The truth value of a one-element tensor (errors for more or fewer)."""
    from .. import is_nonzero as truth
    return truth(self)


@function()
def isreal(input):
    """True where the element has no imaginary part (every element of a real tensor)."""
    _check_tensor("isreal", input, "input", 1)
    if input.is_complex():
        return input.imag == 0
    return input.new_ones(tuple(input.shape), dtype=_FROM_NUMPY[np.dtype(bool)])


@method()
def storage_type(self):
    """The legacy typed storage class of this tensor's dtype (`torch.FloatStorage`)."""
    return _storage_class(self.dtype)


_STORAGE_CLASSES = {}


def _storage_class(dtype):
    name = dtype._legacy_name.replace("Tensor", "Storage")
    cls = _STORAGE_CLASSES.get(name)
    if cls is None:
        cls = _STORAGE_CLASSES[name] = type(name, (), {"__module__": "torch",
                                                       "dtype": dtype})
    return cls


class PinMemory(Op):
    """A copy into pinned memory: the gradient passes through unchanged (torch's
    PinMemoryBackward0)."""

    def backward(ctx, grad):
        return grad


@method()
def is_pinned(self, device=None):
    """Whether the tensor lives in page-locked host memory (`_pinned.py`)."""
    return is_pinned_array(self._data)


@method()
def pin_memory(self, device=None):
    """This tensor in page-locked host memory: itself if it is there already, else a copy.
    It needs an accelerator, as in torch, and pins CPU tensors only."""
    from .. import cuda
    from .._printing import legacy_type_name
    if not cuda.is_available():
        raise RuntimeError(NO_ACCELERATOR)
    if self.device.type != "cpu":
        raise RuntimeError(f"cannot pin '{legacy_type_name(self)}' only dense CPU tensors can "
                           f"be pinned")
    if is_pinned_array(self._data):
        return self
    out = wrap(pinned_copy(self._data))
    if self._requires_grad and _grad_state.enabled:
        record(PinMemory, (self,), (out,), {})
    return out


@method()
def new(self, *args, device=None, **kwargs):
    """The legacy constructor: sizes give an uninitialised tensor, data a copy, with this
    tensor's dtype and device."""
    from .._creation import empty, tensor
    from .._size import Size
    from .._tensor_data import legacy_alias
    if kwargs:
        got = ", ".join([type(a).__name__ for a in args] +
                        [f"{k}={type(v).__module__.replace('ember', 'torch')}."
                         f"{type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"new() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n * (*, torch.device device = None)\n      "
                        f"didn't match because some of the keywords were incorrect: "
                        f"{', '.join(kwargs)}\n * (torch.Storage storage)\n * (Tensor other)\n"
                        f" * (tuple of ints size, *, torch.device device = None)\n * (object "
                        f"data, *, torch.device device = None)\n")
    device = self.device if device is None else device
    if not args:
        return empty(0, dtype=self.dtype, device=device)
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        return empty(*args, dtype=self.dtype, device=device)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor):
            return legacy_alias(data, self.dtype)
        if isinstance(data, Size) or (isinstance(data, tuple) and
                                      all(isinstance(a, int) for a in data)):
            return empty(tuple(data), dtype=self.dtype, device=device)
        if isinstance(data, (int, float, complex, bool, np.number)):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        return tensor(data, dtype=self.dtype, device=device)
    raise TypeError("new() received an invalid combination of arguments - got ("
                    + ", ".join(type(a).__name__ for a in args) + ")")


def _check_loop(self, name):
    if self.device.type != "cpu":
        raise TypeError(f"{name} is only implemented on CPU tensors")
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")


def _as_int(v):
    # torch truncates a float, else asks for an integer (`__index__`)
    return int(v) if isinstance(v, float) else operator.index(v)


def _as_real(v):
    if isinstance(v, numbers.Real):
        return v
    raise TypeError(f"must be real number, not {type_name(v)}")


def _store(self, values):
    """Write Python results into self, converted as torch converts a Python number."""
    data = self._data
    out = np.asarray(values, dtype=object).reshape(data.shape)
    if data.dtype.kind in "iu":
        out = np.vectorize(_as_int, otypes=[np.int64])(out) if out.size else out
    elif data.dtype.kind == "b":
        out = np.vectorize(lambda v: bool(v), otypes=[bool])(out) if out.size else out
    elif data.dtype.kind in "fV" and out.size:
        out = np.vectorize(_as_real, otypes=[object])(out)
    data[...] = out.astype(data.dtype) if out.size else data
    self._bump_version()
    return self


@method()
def apply_(self, callable):
    """Replace every element x by callable(x), a Python number (slow: for tests and tools)."""
    _check_loop(self, "apply_")
    values = [callable(v) for v in self._data.ravel().tolist()]
    return _store(self, values)


@method()
def map_(self, tensor, callable):
    """Replace every element x by callable(x, y), y from `tensor` broadcast to self's shape."""
    _check_loop(self, "map_")
    _check_tensor("map_", tensor, "tensor", 1)
    if tensor.requires_grad:
        _check_loop(tensor, "map_")
    if tensor.dtype != self.dtype:
        raise TypeError(f"map_: expected torch.{self.dtype._legacy_name} for 'other' (got "
                        f"torch.{tensor.dtype._legacy_name})")
    other = tensor.expand(self._data.shape)._data       # torch's error where it can't
    pairs = zip(self._data.ravel().tolist(), other.ravel().tolist())
    return _store(self, [callable(a, b) for a, b in pairs])


@method()
def map2_(self, x, y, callable):
    """Replace every element a by callable(a, b, c), b and c from `x` and `y` broadcast to
    self's shape; all three tensors share self's dtype and none may require grad."""
    _check_tensor("map2_", x, "x", 1)
    _check_tensor("map2_", y, "y", 2)
    _check_loop(self, "map2_")
    for name, t in (("x", x), ("y", y)):
        if t.requires_grad:
            _check_loop(t, "map2_")
        if t.dtype != self.dtype:
            raise TypeError(f"map2_: expected torch.{self.dtype._legacy_name} for argument "
                            f"'{name}' (got torch.{t.dtype._legacy_name})")
    shape = tuple(self.shape)
    firsts = x.expand(shape)._data.ravel().tolist()
    seconds = y.expand(shape)._data.ravel().tolist()
    triples = zip(self._data.ravel().tolist(), firsts, seconds)
    return _store(self, [callable(a, b, c) for a, b, c in triples])


# -- layout questions and identities --------------------------------------------------------------

_AMBIGUITY_CHECK_TYPE = "The ambiguity_check argument must be a bool or a list of memory formats."


@method()
def dim_order(self, *, ambiguity_check=False):
    """The dims from outermost to innermost in memory, as torch orders an element-wise
    result's dims: row-major or channels-last where the tensor is exactly one of them, else
    by stride (`_memory_format.preserved_order`, reversed).

    `ambiguity_check` (True, or a list of memory formats) refuses an order that is not the only
    one: see NOTE [ dim_order's ambiguity checks ]."""
    from .. import _memory_format as mf
    if self.is_sparse:
        raise AttributeError(f"Can't get dim order on sparse type: {self.type()} Use "
                             f"Tensor.to_dense() to convert to a dense tensor first.")
    if not isinstance(ambiguity_check, bool) and not (
            isinstance(ambiguity_check, list) and
            all(isinstance(f, mf.memory_format) for f in ambiguity_check)):
        raise TypeError(_AMBIGUITY_CHECK_TYPE)
    shape, strides = tuple(self.shape), self.stride()
    if ambiguity_check is not False and _may_have_other_orders(shape, strides):
        formats = ambiguity_check if isinstance(ambiguity_check, list) else []
        if sum(self.is_contiguous(memory_format=f) for f in formats) != 1:
            raise RuntimeError("The tensor does not have unique dim order, or cannot map to "
                               "exact one of the given memory formats.")
    ndim = self.ndim
    if ndim < 2:
        return tuple(range(ndim))
    row_major = self.is_contiguous()
    channels_last = ndim == 4 and self.is_contiguous(memory_format=mf.channels_last)
    if row_major != channels_last:
        return tuple(range(ndim)) if row_major else (0, *range(2, ndim), 1)
    order = tuple(reversed(mf.preserved_order(shape, strides)))
    if ambiguity_check and not _strictly_nested(order, shape, strides):
        raise RuntimeError("The tensor does not have unique dim order.")
    return order


dim_order.__qualname__ = "Tensor.dim_order"     # (a Python method in torch: its errors say so)


# NOTE [ dim_order's ambiguity checks ]
# torch runs two checks, with two messages. First (for True or any list): a tensor with a dim
# of size 1 or two neighbouring dims of equal strides may have several orders; it passes only
# if it is contiguous in exactly one of the listed formats (True lists none). Then (for True or
# a non-empty list), unless the tensor is row-major or channels-last and not both, every dim
# of the order must have a nonzero stride smaller than the one before it, ties in stride
# counting as ambiguous unless the inner dim is the longer one.

def _may_have_other_orders(shape, strides):
    return 1 in shape or any(a == b for a, b in zip(strides, strides[1:]))


def _strictly_nested(order, shape, strides):
    """Whether each dim of `order` (outermost first) is unambiguously inside the one before."""
    for outer, inner in zip(order, order[1:]):
        a, b = strides[inner], strides[outer]
        if a == 0 or b == 0 or (a == b and shape[outer] >= shape[inner]) or a > b:
            return False
    return True


@method()
def const_data_ptr(self):
    """`data_ptr()`, for read-only use."""
    return self.data_ptr()


@method()
def to_dense(self, dtype=None, *, masked_grad=None):
    """The tensor itself (it is already dense), or a copy in `dtype`."""
    return self if dtype is None or dtype == self.dtype else self.to(dtype)


@method()
def is_set_to(self, tensor):
    """Whether both tensors view the same memory the same way: storage, offset, shape and
    strides."""
    _check_tensor("is_set_to", tensor, "tensor", 1)
    return (self.untyped_storage().data_ptr() == tensor.untyped_storage().data_ptr()
            and self.storage_offset() == tensor.storage_offset()
            and tuple(self.shape) == tuple(tensor.shape) and self.stride() == tensor.stride())


@method()
def module_load(self, other, assign=False):
    """How `nn.Module.load_state_dict` turns the state-dict value `other` into this parameter's
    new value when parameters are swapped: `other` detached (assign) or copied into this."""
    if assign:
        return other.detach()
    return self.copy_(other).detach()
