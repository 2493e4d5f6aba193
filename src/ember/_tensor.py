"""The Tensor: a window (shape, strides, offset) onto a shared flat storage, plus autograd state.

`_data` is the array-module view of exactly this window; `_storage` is the flat memory that
every view of it shares (made lazily). This file owns the class, its metadata (shape, dtype,
strides, storage, device) and views; the autograd-facing members are in _tensor_autograd.py,
the Python protocols and conversions in _tensor_protocols.py (NOTE [ Tensor's members in other
files ]), and every operator is installed from the op registry (`_ops`).
"""
import numpy as np

from . import _dtype
from ._device import MetaArray, backend_of
from ._size import make_size
from ._storage import InferenceStorage, Storage
from ._untyped_storage import UntypedStorage
from . import autograd as _autograd
from ._view_follow import note_view
from .autograd.grad_mode import _inference_listeners, _state as _grad_mode

_new = object.__new__

# NOTE [ Inference tensors ]
# A tensor made in inference mode (not a view of a normal tensor) is an inference tensor, as
# in torch: its memory is an `InferenceStorage`, which its views share, so `is_inference()`
# asks the storage. Making a tensor is the hottest code in ember, so `_init` looks at the
# thread's mode only while some thread is inside inference_mode() (`_inference_anywhere`, set
# by grad_mode); otherwise it pays one test of a module global. The checks that refuse what
# torch refuses sit where an inference tensor shows itself: its storage's version setter (an
# in-place write outside inference mode), a storage saved for backward for the first time
# (`_op._save`, `graph.watch`), and `requires_grad_`.
_inference_anywhere = False
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


# The serial number every tensor made now is stamped with (`_made_at`) while a torch.func
# transform runs, else None: NOTE [ Captured tensors ] in func/_captures.py.
_stamp = None


def _note_inference_anywhere(on):
    global _inference_anywhere
    _inference_anywhere = on


_inference_listeners.append(_note_inference_anywhere)


def new_storage(array):
    """A storage for fresh memory: an inference tensor's when made in inference mode."""
    return InferenceStorage(array) if _grad_mode.inference else Storage(array)


class Tensor:
    """A multi-dimensional array with autograd, laid out over a flat storage like torch's."""

    __slots__ = ("_data", "_storage", "_offset", "_base", "_requires_grad", "_grad_fn",
                 "_output_nr", "_meta", "__dict__", "__weakref__")

    # NumPy defers its binary operators to ours (`ndarray + tensor` -> Tensor.__radd__).
    __array_priority__ = 1000

    def __new__(cls, *args, **kwargs):
        from ._creation import legacy_new
        return legacy_new(cls, args, kwargs)

    def __init__(self, *args, **kwargs):
        pass

    def _init(self, data, storage=None, offset=0, base=None):
        self._data = data
        if _inference_anywhere and storage is None and _grad_mode.inference:
            storage = InferenceStorage(data)        # NOTE [ Inference tensors ]
        self._storage = storage
        self._offset = offset
        self._base = base
        self._requires_grad = False
        self._grad_fn = None
        self._output_nr = 0
        self._meta = None
        if _stamp is not None:
            self._made_at = _stamp
        return self

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        from ._torch_function import note_subclass
        note_subclass(cls)      # NOTE [ __torch_function__ ]

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """Called for every torch function and Tensor method given an instance of a subclass:
        runs `func` and gives its tensor results the class `cls` (NOTE [ __torch_function__ ]).
        """
        from ._torch_function import default_torch_function
        return default_torch_function(cls, func, types, args, kwargs)

    @staticmethod
    def _make_subclass(cls, data, require_grad=False):
        """A `cls` instance sharing `data`'s memory (how `nn.Parameter` is made:
        `Tensor._make_subclass(cls, data, require_grad)`, as in torch)."""
        t = _new(cls)._init(data._data, data._get_storage(), data._offset)
        if require_grad:
            t._set_requires_grad(True, "only Tensors of floating point dtype can require "
                                       "gradients")
        return t

    # -- shape and memory ------------------------------------------------------------------

    @property
    def shape(self):
        return make_size(self._data.shape)

    def size(self, dim=None):
        """The shape as an `ember.Size`, or the size of one dim."""
        shape = self._data.shape
        if dim is None:
            return make_size(shape)
        if dim.__class__ is int and -len(shape) <= dim < len(shape):
            return shape[dim]
        return shape[self._dim_index(dim, "size")]

    def _dim_index(self, dim, name):
        if dim.__class__ is not int:
            from ._ops.int_arguments import int_argument
            dim = int_argument(name, "dim", 1, dim)
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        from ._geometry import wrap_dim
        return wrap_dim(dim, self._data.ndim)

    @property
    def dtype(self):
        return _dtype._FROM_NUMPY[self._data.dtype]

    @property
    def device(self):
        return backend_of(self._data).device_of(self._data)

    @property
    def ndim(self):
        return self._data.ndim

    def dim(self):
        return self._data.ndim

    ndimension = dim

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def nbytes(self):
        data = self._data
        if data.__class__ is not np.ndarray and is_sparse_data(data):
            raise RuntimeError(
                "nbytes is not defined for sparse tensors.  If you want the size of the "
                "constituent tensors, add the nbytes of the indices and values.  If you want the "
                "size of the  equivalent dense tensor, multiply numel() by element_size()")
        return data.size * data.itemsize

    def stride(self, dim=None):
        """Elements to step in storage for one step along each dim (a tuple), or along `dim`."""
        data = self._data
        size = data.itemsize
        strides = tuple(s // size for s in data.strides)
        if not data.size and data.ndim and not any(strides):
            # NumPy allocates an empty array with zero strides; torch's are contiguous
            # (empty(0, 2): (2, 1)). Views of one are made with explicit strides from these.
            from ._geometry import contiguous_strides
            strides = contiguous_strides(data.shape)
        if dim is None:
            return strides
        return strides[self._dim_index(dim, "stride")]

    def storage_offset(self):
        """Index in the storage of this tensor's first element."""
        return self._offset

    def is_contiguous(self, *args, memory_format=None):
        """Whether the elements are dense in row-major order (or in `memory_format`'s
        layout, such as `channels_last`)."""
        if args or memory_format is not None and not hasattr(memory_format, "name"):
            from ._ops.argument_errors import keyword_memory_format
            keyword_memory_format("is_contiguous", args, memory_format)
        if memory_format is None or memory_format.name != "channels_last" and \
                memory_format.name != "channels_last_3d":
            return self._data.flags.c_contiguous
        from ._memory_format import is_laid_out
        return is_laid_out(self._data, memory_format)

    def _get_storage(self):
        storage = self._storage
        if storage is None:
            storage = self._storage = Storage(self._data)
        return storage

    def untyped_storage(self):
        """The storage's bytes; views of one tensor share it (compare `data_ptr()`)."""
        data = self._data
        if data.__class__ is not np.ndarray and is_sparse_data(data):
            raise NotImplementedError("Cannot access storage of SparseTensorImpl")
        return UntypedStorage(self._get_storage())

    def storage(self):
        """The storage as a `TypedStorage` of this tensor's dtype (deprecated in torch 2, with
        its warning: prefer `untyped_storage()`)."""
        from ._typed_storage import TypedStorage, warn_typed_storage_removal
        warn_typed_storage_removal()
        return TypedStorage._over(self._get_storage(), self.dtype)

    def share_memory_(self):
        """Move the storage into shared memory (a no-op when it is there already, or on CUDA),
        so that it can be sent to other processes without a copy; returns self."""
        from ._shared_memory import share_storage
        share_storage(self)
        return self

    def is_shared(self):
        """Whether the storage lives in shared memory (see `share_memory_`)."""
        return self._get_storage().is_shared()

    def data_ptr(self):
        """Address of the first element."""
        data = self._data
        if data.__class__ is not np.ndarray and getattr(type(data), "layout", None):
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        if not data.size and not self._get_storage().nbytes():
            return 0                    # (torch allocates nothing for an empty storage)
        return backend_of(data).data_ptr(data)

    @property
    def _version(self):
        storage = self._storage
        if storage is None:
            return 0
        if storage.__class__ is InferenceStorage:
            raise RuntimeError("Inference tensors do not track version counter.")
        return storage.version

    def _bump_version(self):
        storage = self._get_storage()
        storage.version += 1
        if storage.watch is True:
            _autograd.graph.note_write(storage)

    def _is_view(self):
        return self._base is not None

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def is_cpu(self):
        return self.device.type == "cpu"

    @property
    def is_meta(self):
        return self._data.__class__ is MetaArray
    is_sparse = False
    is_quantized = False        # (a quantized tensor is a QuantizedTensor: _quantized.py)

    def dequantize(self):
        """A quantized tensor's real values; an ordinary tensor as float32 (itself if it is)."""
        return self.to(_dtype.float32)

    # (a quantized tensor's queries, answered by QuantizedTensor; torch's CPU kernels refuse
    # them for ordinary tensors)
    def int_repr(self):
        raise _not_quantized("int_repr")

    def q_scale(self):
        raise _not_quantized("q_scale")

    def q_zero_point(self):
        raise _not_quantized("q_zero_point")

    def qscheme(self):
        raise _not_quantized("qscheme")

    def q_per_channel_scales(self):
        raise _not_quantized("q_per_channel_scales")

    def q_per_channel_zero_points(self):
        raise _not_quantized("q_per_channel_zero_points")

    def q_per_channel_axis(self):
        raise _not_quantized("q_per_channel_axis")
    is_mkldnn = False
    is_nested = False
    # (backends ember, like a CPU/CUDA build of torch, does not have)
    is_xpu = is_ipu = is_mps = is_mtia = is_maia = is_vulkan = is_xla = False

    @property
    def name(self):
        """torch's named-tensor-free `name`: always None."""
        return None

    def xpu(self, device=None, non_blocking=False, memory_format=None):
        raise AssertionError("Torch not compiled with XPU enabled")

    def ipu(self, device=None, non_blocking=False, memory_format=None):
        raise RuntimeError("PyTorch is not linked with support for ipu devices")

    def mtia(self, device=None, non_blocking=False, memory_format=None):
        raise AssertionError(
            "Torch not compiled with MTIA enabled. Ensure you have `import "
            "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and "
            "include `//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!")

    @property
    def layout(self):
        from . import strided
        return strided

    def get_device(self):
        d = self.device
        return -1 if d.type == "cpu" or d.type == "meta" else d.index

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    def is_signed(self):
        return self.dtype.is_signed

    # The autograd-facing members and the Python protocols are attached below, from files of
    # their own (NOTE [ Tensor's members in other files ]).


def _not_quantized(name):
    """torch's missing-kernel error for a quantized tensor's query of an ordinary tensor."""
    from .nn._native import missing_kernel
    from .sparse._backends import _TAIL
    return missing_kernel(f"aten::{name}", f"[Meta, QuantizedCPU, {_TAIL}]")


def wrap(array):
    """A fresh tensor owning `array` (the result of a kernel)."""
    return _new(Tensor)._init(array)


def is_sparse_data(data):
    """Whether `data`, a tensor's `_data` that is not an array, is a sparse tensor's layout
    record (NOTE [ Sparse tensors ] in sparse/_coo.py)."""
    return getattr(type(data), "layout", None) is not None


def bare_alias(base, array, offset):
    """A view of `base` over the same storage (`array` its window, `offset` its offset) that
    its base does not remember (NOTE [ Views follow their base ]): alias's first half."""
    storage = base._get_storage()
    # (torch's view of an inference tensor is no view: no _base, _is_view() False)
    root = None if storage.inference else base._base if base._base is not None else base
    return _new(Tensor)._init(array, storage, offset, root)


def alias(base, array, offset):
    """A view of `base` over the same storage: `array` is its window, `offset` its offset."""
    view = bare_alias(base, array, offset)
    root, storage = view._base, view._storage
    if base._requires_grad:
        if not _grad_mode.enabled and root is not None:
            if root._requires_grad:
                mark_no_grad_view(view, base)
            else:       # (of a view with a requires_grad flag of its own)
                note_view(root, view, storage.version, base)
    elif root is not None:
        note_view(root, view, storage.version, base)    # NOTE [ Views follow their base ]
    return view


# NOTE [ Views made without grad ]
# As in torch, a view of a tensor that requires grad, made in no-grad mode, requires grad too
# when its base does (its base: not a leaf that is itself a view of a tensor needing no grad,
# but that tensor). It prints `requires_grad=True`, but has no grad_fn and no gradient edge:
# an op in grad mode records a node with no edge to it, and backward gives it nothing.
# Writing into it in place in grad mode is refused, and so is using it (or reading its
# grad_fn) in grad mode once it or its base was written in place after it was made: torch
# cannot tell what the view's history should have been.

NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked).")
NO_GRAD_VIEW_MODIFIED = (
    "A view was created in no_grad mode and its base or another view of its base has been "
    "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
    "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked).")

INFERENCE_VIEW_INPLACE = (
    "A view was created in inference mode and is being modified inplace in normal mode. Given "
    "that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the inference_mode block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked).")
INFERENCE_VIEW_MODIFIED = (
    "A view was created in inference mode and its base or another view of its base has been "
    "modified inplace in normal mode. Given that this use case is ambiguous and error-prone, "
    "it is forbidden. You can clarify your code by moving both the view and the inplace "
    "either both inside the inference_mode block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked).")


def mark_no_grad_view(view, parent):
    """Make `view`, a view of `parent`, a view made without grad (NOTE [ Views made without
    grad ]). As torch, once made in inference mode, a view of a view keeps saying so."""
    view._requires_grad = True
    meta = view._autograd_meta()
    pmeta, pnode = parent._meta, parent._grad_fn
    meta.no_grad_view = "inference" if _grad_mode.inference or (
        pmeta is not None and pmeta.no_grad_view == "inference") or (
        pnode is not None and pnode._view_ban == "inference") else True
    meta.through_base = True        # (NOTE [ Views follow their base ])
    meta.view_version = version = view._get_storage().version
    root = view._base
    if root._grad_fn is not None:
        # remembered by a base that is no leaf (rare without grad), which detach_() can make
        # stop requiring grad; a leaf's (a parameter's, in every no_grad forward pass) are
        # not, and keep their flag
        note_view(root, view, version, parent)


def check_no_grad_view(view):
    """torch's error for a view made without grad whose memory was written since."""
    meta = view._meta
    if meta is not None and meta.no_grad_view and \
            meta.view_version != view._get_storage().version:
        raise RuntimeError(INFERENCE_VIEW_MODIFIED if meta.no_grad_view == "inference"
                           else NO_GRAD_VIEW_MODIFIED)


# NOTE [ Tensor's members in other files ]
# Tensor's autograd-facing members (requires_grad, grad, grad_fn, hooks, backward, detach,
# .data: _tensor_autograd.py) and its Python protocols and conversions (item, tolist,
# __array__, DLPack, len/iter/bool, repr, pickling and copying: _tensor_protocols.py) are
# written in files of their own and attached here as Tensor's own attributes, named as if
# written in the class body above (`Tensor.item.__qualname__` is 'Tensor.item', its
# `__module__` this file's). They must be in `vars(Tensor)`, where _patch_ops and
# `__torch_function__` find the members to wrap, and a base class would change
# `Tensor.__mro__`. Those files import from this one, so they are imported last.

def _attach(members):
    for name, member in members.items():
        parts = (member.fget, member.fset, member.fdel) if isinstance(member, property) \
            else (member,)
        for fn in parts:
            if fn is not None:
                fn.__name__, fn.__qualname__, fn.__module__ = name, f"Tensor.{name}", __name__
        setattr(Tensor, name, member)


from . import _tensor_autograd, _tensor_protocols  # noqa: E402
_attach(_tensor_autograd.MEMBERS)
_attach(_tensor_protocols.MEMBERS)


Tensor.__module__ = "ember"       # (printed as torch prints its own: <class 'torch.Tensor'>)
