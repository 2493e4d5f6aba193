"""The Tensor: a window (shape, strides, offset) onto a shared flat storage, plus autograd state.

`_data` is the array-module view of exactly this window; `_storage` is the flat memory that
every view of it shares (made lazily). This file owns metadata, the autograd-facing attributes
and the Python protocols; every operator is installed from the op registry (`_ops`).
"""
import warnings

import numpy as np

from . import _dtype
from ._device import MetaArray, backend_of
from ._size import make_size
from ._storage import InferenceStorage, Storage, UntypedStorage
from . import autograd as _autograd
from .autograd.grad_mode import _inference_listeners, _state as _grad_mode
from .autograd.graph import add_hook, checked_hook_grad, new_hook_dict

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


def _note_inference_anywhere(on):
    global _inference_anywhere
    _inference_anywhere = on


_inference_listeners.append(_note_inference_anywhere)


def new_storage(array):
    """A storage for fresh memory: an inference tensor's when made in inference mode."""
    return InferenceStorage(array) if _grad_mode.inference else Storage(array)

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


class AutogradMeta:
    """Autograd state most tensors never need, allocated on first use (as in torch)."""

    __slots__ = ("grad", "retains_grad", "hooks", "post_accumulate_hooks", "accumulator",
                 "view_version", "name", "no_grad_view")

    def __init__(self):
        self.grad = None
        self.retains_grad = False
        self.hooks = None                    # tensor hooks of a leaf, run by AccumulateGrad
        self.post_accumulate_hooks = None
        self.accumulator = None              # the leaf's AccumulateGrad
        self.view_version = None             # storage version when a view's grad_fn was made
        self.name = None
        self.no_grad_view = False            # a view of a tensor requiring grad, made in
        #                                      no-grad mode (NOTE [ Views made without grad ])


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
        if dim is None:
            return make_size(self._data.shape)
        return self._data.shape[self._dim_index(dim)]

    def _dim_index(self, dim):
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
        return strides[self._dim_index(dim)]

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
        from ._storage import TypedStorage, warn_typed_storage_removal
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
    is_quantized = False
    is_mkldnn = False
    is_nested = False

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

    # -- autograd state --------------------------------------------------------------------

    def _autograd_meta(self):
        meta = self._meta
        if meta is None:
            meta = self._meta = AutogradMeta()
        return meta

    @property
    def is_leaf(self):
        return self._grad_fn is None

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        if not isinstance(flag, bool):
            raise RuntimeError("requires_grad must be a bool")
        if self._grad_fn is not None and flag:
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        self._set_requires_grad(flag, "only Tensors of floating point and complex dtype can "
                                      "require gradients")

    def requires_grad_(self, requires_grad=True):
        """Set `requires_grad` in place (leaves only) and return self; the flag must be a bool,
        as torch's argument parser insists (it names position 1; given by keyword, torch leaves
        the position out)."""
        if not isinstance(requires_grad, bool):
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        self._set_requires_grad(requires_grad,
                                "only Tensors of floating point dtype can require gradients")
        return self

    def _set_requires_grad(self, flag, dtype_error):
        if self._grad_fn is not None:
            if not flag:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require "
                    "differentiation use var_no_grad = var.detach().")
            return
        if flag and self._data.dtype.kind not in "fcV":
            raise RuntimeError(dtype_error)
        if flag and self._storage is not None and self._storage.inference \
                and not _grad_mode.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = bool(flag)

    @property
    def grad_fn(self):
        """The node that made this tensor (None for leaves)."""
        node = self._grad_fn
        if node is None and self._base is not None and self._requires_grad:
            check_no_grad_view(self)
        if node is not None and self._base is not None:
            made_at = getattr(node, "_view_version", None)
            if made_at is not None and made_at != self._get_storage().version:
                from ._ops.inplace import refresh_view_grad_fn
                refresh_view_grad_fn(self)      # the base was changed in place since
                return self._grad_fn
        return node

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def grad(self):
        """The gradient accumulated by backward (leaves, and non-leaves after retain_grad)."""
        meta = self._meta
        if self._grad_fn is not None and (meta is None or not meta.retains_grad):
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return None if meta is None else meta.grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                                f"of type {type(value).__name__}")
            if value.dtype != self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{value.dtype._cpp_name}' to a "
                    f"tensor with grad_dtype '{self.dtype._scalar_name}'. The gradient must match "
                    f"the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    f"tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    f"dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
                    f"its gradient may break downstream systems that assume they match.")
            if value.shape != self.shape:
                got = ", ".join(map(str, value.shape))
                raise RuntimeError(
                    f"attempting to assign a gradient of size '[{got}]'"
                    f" to a tensor of size '[{', '.join(map(str, self.shape))}]'. Please ensure "
                    f"that the gradient and the tensor are the same size")
            if value.device != self.device:
                raise RuntimeError("assigned grad has data located on a different device")
        self._set_grad(value)

    @grad.deleter
    def grad(self):
        self._set_grad(None)

    def grad_if_set(self):
        meta = self._meta
        return None if meta is None else meta.grad

    def _set_grad(self, value):
        self._autograd_meta().grad = value

    @property
    def retains_grad(self):
        meta = self._meta
        return self._grad_fn is not None and meta is not None and meta.retains_grad

    def retain_grad(self):
        """Keep `.grad` for this non-leaf tensor after backward (a no-op on leaves)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None:
            return
        meta = self._autograd_meta()
        if meta.retains_grad:
            return
        meta.retains_grad = True
        node = self.grad_fn
        if node._retained is None:
            node._retained = {}
        import weakref
        node._retained[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook):
        """`hook(grad)` runs when the gradient for this tensor is computed; it may return a
        replacement. Returns a handle whose `remove()` unregisters it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is None:
            meta = self._autograd_meta()
            if meta.hooks is None:
                meta.hooks = new_hook_dict()
            return add_hook(meta.hooks, hook)
        node = self.grad_fn
        nr = self._output_nr

        def prehook(grad_outputs):
            new = hook(grad_outputs[nr])
            if new is None:
                return None
            grads = list(grad_outputs)
            grads[nr] = checked_hook_grad(hook, grad_outputs[nr], new)
            return tuple(grads)
        prehook.tensor_hook = (hook, nr)     # so utils.hooks.warn_if_has_hooks can find it
        return node.register_prehook(prehook)

    def register_post_accumulate_grad_hook(self, hook):
        """`hook(tensor)` runs on a leaf after its `.grad` has been accumulated."""
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        meta = self._autograd_meta()
        if meta.post_accumulate_hooks is None:
            meta.post_accumulate_hooks = new_hook_dict()
        return add_hook(meta.post_accumulate_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute gradients of this tensor with respect to graph leaves (into their `.grad`)."""
        _autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """A tensor sharing this one's memory, cut off from the graph (outside inference mode,
        an inference tensor's detach gets a version counter of its own, as in torch)."""
        storage = self._get_storage()
        if storage.__class__ is InferenceStorage and not _grad_mode.inference:
            storage = storage.sharing_memory()
        return _new(Tensor)._init(self._data, storage, self._offset)

    def detach_(self):
        """Cut this tensor off from the graph, in place. torch refuses every view (whether or
        not its base requires grad): a view's autograd state is tied to its base's."""
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                               "using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views of "
                               "DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the "
                               "Optimizer.zero_grad() function in torch/optim/optimizer.py as "
                               "the solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    def _shared_view(self):
        """A view of this whole tensor (marks a gradient that several owners now share)."""
        return alias(self, self._data, self._offset)

    def _detached_alias(self):
        return _new(Tensor)._init(self._data, self._get_storage(), self._offset)

    def _attached_to(self, node, output_nr):
        t = _new(Tensor)._init(self._data, self._get_storage(), self._offset)
        t._grad_fn = node
        t._output_nr = output_nr
        t._requires_grad = True
        return t

    @property
    def data(self):
        """This tensor's values as a tensor outside the graph: shares memory, but not the
        version counter (writes through `.data` are invisible to autograd, as in torch)."""
        return _new(Tensor)._init(self._data, self._get_storage().sharing_memory(),
                                  self._offset)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and value._data.dtype.kind not in "fcV":
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data
        self._storage = value._get_storage()
        self._offset = value._offset

    # -- conversion to Python and NumPy ----------------------------------------------------

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               f"to Scalar")
        if self._data.__class__ is MetaArray:
            _no_value()
        return _to_python(self._data.reshape(()))

    def tolist(self):
        """Nested Python lists (a number for a 0-dim tensor)."""
        return _to_python(self._data)

    def __array__(self, dtype=None, copy=None):
        arr = self.numpy()
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """A NumPy ufunc's result on tensors comes back as a tensor over its memory, as in
        torch (`np.exp(loss)` is `tensor(...)`, a 0-dim one for a 0-dim input); torch turns
        bool results into uint8."""
        from ._creation import from_numpy
        array = np.asarray(array)
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return from_numpy(array)

    def __dlpack__(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule sharing this tensor's memory, for another library's `from_dlpack`.

        As in torch: refused (BufferError) for tensors that require grad; `stream` must be an
        int or None, and on the CPU None or -1; `max_version` (1, x) or above asks for a
        "dltensor_versioned" capsule, else a "dltensor" one."""
        if self._requires_grad:
            raise BufferError("Can't export tensors that require gradient, use "
                              "tensor.detach()")
        if stream is not None and type(stream) is not int:
            raise TypeError("stream must be ``int`` or ``none``")
        kwargs = {"dl_device": dl_device, "copy": copy}
        if self.device.type == "cpu":
            if stream is not None and stream != -1:
                raise AssertionError("stream should be None on cpu.")
        elif stream != -1:
            kwargs["stream"] = stream
        if max_version is not None and max_version[0] >= 1:
            kwargs["max_version"] = max_version
        return self._data.__dlpack__(**{k: v for k, v in kwargs.items() if v is not None})

    @property
    def __cuda_array_interface__(self):
        """The CUDA Array Interface (version 2) of a CUDA tensor, through which CuPy, Numba
        and others view its memory without a copy (`cupy.asarray(t)`).

        As in torch: an AttributeError for a CPU tensor (so `hasattr` says False), a
        RuntimeError for one that requires grad; `strides` (bytes) is None when contiguous,
        and an empty tensor's pointer is 0."""
        if self._data.__class__ is np.ndarray:
            from ._printing import legacy_type_name
            raise AttributeError(f"Can't get __cuda_array_interface__ on non-CUDA tensor type: "
                                 f"{legacy_type_name(self)} If CUDA data is required use "
                                 f"tensor.cuda() to copy tensor to device memory.")
        if self._requires_grad:
            raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires "
                               "grad. If gradients aren't required, use var.detach() to get "
                               "Variable that doesn't require grad.")
        data = self._data
        strides = None if data.flags.c_contiguous else tuple(data.strides)
        pointer = self.data_ptr() if data.size else 0
        # NOTE: NumPy's type string is torch's: '<f4', '|b1', '<V2' for bfloat16, ...
        return {"typestr": data.dtype.str, "shape": tuple(data.shape), "strides": strides,
                "data": (pointer, False), "version": 2}

    def __dlpack_device__(self):
        """(DLDeviceType, index) of this tensor's device: (kDLCPU, 0), (kDLCUDA, i)."""
        from .utils.dlpack import DLDeviceType
        kind, index = self._data.__dlpack_device__()
        return (DLDeviceType(kind), index)

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reversed__(self):
        """`reversed(t)`: the tensor flipped along its first dim (a 0-dim tensor itself)."""
        return self if self._data.ndim == 0 else self.flip(0)

    def __bool__(self):
        n = self._data.size
        if n == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if n > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        if self._data.__class__ is MetaArray:
            _no_value()
        return bool(self._data.reshape(()))

    def _one_scalar(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self._data.__class__ is MetaArray:
            _no_value()
        return _to_python(self._data.reshape(()))

    def __float__(self):
        return float(_real_part(self._one_scalar(), "double"))

    def __int__(self):
        return int(_real_part(self._one_scalar(), "int64_t"))

    def __complex__(self):
        return complex(self._one_scalar())

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        if self._data.__class__ is MetaArray:
            _no_value()
        return int(self._data.reshape(()))

    def __hash__(self):
        return id(self)

    def __repr__(self, *, tensor_contents=None):
        from ._printing import tensor_repr
        from .nn.parameter import Parameter
        cls = type(self)
        if cls is Tensor or cls is Parameter:
            return tensor_repr(self)
        return tensor_repr(self, prefix=cls.__name__ + "(")     # a subclass prints its name

    def __format__(self, spec):
        if self._data.ndim == 0 and type(self) is Tensor and not self.is_meta:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    # -- pickling and copying --------------------------------------------------------------

    def __reduce_ex__(self, protocol):
        from ._serialization import reduce_tensor
        return reduce_tensor(self)

    def __copy__(self):
        from ._tensor_copy import shallow_copy
        return shallow_copy(self)

    def __deepcopy__(self, memo):
        from ._tensor_copy import deep_copy
        return deep_copy(self, memo)

    def as_subclass(self, cls):
        """This tensor seen as an instance of `cls`, a subclass of Tensor (an alias: same
        memory, and the same graph through an AliasBackward0 node)."""
        from ._tensor_copy import as_subclass
        return as_subclass(self, cls)

def _real_part(value, c_type):
    """A complex value with no imaginary part converts to a real number, others don't."""
    if value.__class__ is complex:
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        return value.real
    return value


def _no_value():
    """torch's error where a meta tensor's value is asked for (`item()`, `bool()`, ...)."""
    from ._meta import ITEM_ERROR
    raise RuntimeError(ITEM_ERROR)


def _to_python(array):
    """Python numbers (nested lists) from an array of any module."""
    if array.__class__ is MetaArray:
        from ._meta import NO_DATA
        raise NotImplementedError(NO_DATA)
    array = backend_of(array).to_numpy(array)
    if array.dtype == _dtype.bfloat16._np:
        array = array.astype(np.float32)
    return array.tolist()


def wrap(array):
    """A fresh tensor owning `array` (the result of a kernel)."""
    return _new(Tensor)._init(array)


def is_sparse_data(data):
    """Whether `data`, a tensor's `_data` that is not an array, is a sparse tensor's layout
    record (NOTE [ Sparse tensors ] in sparse/_coo.py)."""
    return getattr(type(data), "layout", None) is not None


def alias(base, array, offset):
    """A view of `base` over the same storage: `array` is its window, `offset` its offset."""
    root = base._base if base._base is not None else base
    view = _new(Tensor)._init(array, base._get_storage(), offset, root)
    if base._requires_grad and not _grad_mode.enabled:
        mark_no_grad_view(view)
    return view


# NOTE [ Views made without grad ]
# As in torch, a view of a tensor that requires grad, made in no-grad mode, requires grad too
# (it prints `requires_grad=True`) but has no grad_fn and no gradient edge: an op in grad mode
# records a node with no edge to it, and backward gives it nothing. Writing into it in place
# in grad mode is refused, and so is using it (or reading its grad_fn) in grad mode once it or
# its base was written in place after it was made: torch cannot tell what the view's history
# should have been.

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


def mark_no_grad_view(view):
    """Make `view` a view made without grad (NOTE [ Views made without grad ])."""
    view._requires_grad = True
    meta = view._autograd_meta()
    meta.no_grad_view = "inference" if _grad_mode.inference else True
    meta.view_version = view._get_storage().version


def check_no_grad_view(view):
    """torch's error for a view made without grad whose memory was written since."""
    meta = view._meta
    if meta is not None and meta.no_grad_view and \
            meta.view_version != view._get_storage().version:
        raise RuntimeError(INFERENCE_VIEW_MODIFIED if meta.no_grad_view == "inference"
                           else NO_GRAD_VIEW_MODIFIED)
