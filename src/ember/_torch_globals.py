"""torch's global names in a checkpoint, both ways: what ember's pickler writes for its objects
(`torch._utils._rebuild_tensor_v2`, `torch.FloatStorage`, `torch.float16`), and the ember object
each name stands for when loading (see NOTE [ The checkpoint format ] in serialization.py).
Loading never imports torch."""
import collections
import functools
import pickle
import weakref

from . import _dtype, _qdtype
from ._device import backend_of, device
from ._storage import Storage
from ._untyped_storage import UntypedStorage
from ._tensor import Tensor, _new

STORAGE_NAMES = {d: d._legacy_name.replace("Tensor", "Storage") for d in _dtype.ALL_DTYPES}
# the quantized dtypes' storage classes (torch's 4- and 2-bit types are not saved: see
# _quantized.checkpoint_form)
STORAGE_NAMES.update({_qdtype.qint8: "QInt8Storage", _qdtype.quint8: "QUInt8Storage",
                      _qdtype.qint32: "QInt32Storage"})


class TorchGlobal:
    """A global of torch's that data.pkl names (`torch._utils._rebuild_tensor_v2`)."""

    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):
        # NOTE: never called; pickle's save_reduce only checks that a reduction is callable.
        raise TypeError(f"{self.module}.{self.name} is torch's, a name for data.pkl")


@functools.lru_cache(maxsize=None)
def global_named(module, name):
    """The (one) TorchGlobal for `module.name`, so that pickle memoizes it."""
    return TorchGlobal(module, name)


class StorageType:
    """What torch's storage class names (`torch.FloatStorage`) mean on loading: a dtype."""

    __slots__ = ("name", "dtype")

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype

    def __repr__(self):
        return f"StorageType(dtype={self.dtype})"


def _loaded(storage):
    """The storage a rebuild function got: the loader hands out TypedStorages, as torch's
    does; their `_LoadedStorage` (below them) knows whether the bytes were saved typed."""
    from ._typed_storage import TypedStorage
    return storage._untyped_storage if isinstance(storage, TypedStorage) else storage


def _tensor_on(storage, storage_offset, size, stride):
    storage = _loaded(storage)
    if not isinstance(storage, UntypedStorage) or getattr(storage, "dtype", None) is None:
        raise pickle.UnpicklingError(f"a tensor needs a typed storage, got "
                                     f"{type(storage).__name__}")
    array = storage._storage.array
    dtype = storage.dtype
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride) or any(n < 0 for n in size) or any(s < 0 for s in stride):
        raise RuntimeError(f"invalid tensor geometry: size {list(size)}, stride {list(stride)}")
    itemsize = dtype.itemsize
    needed = 0 if 0 in size else \
        (storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))) * itemsize
    if storage_offset < 0 or needed > array.nbytes:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
            f"{storage_offset}, and itemsize {itemsize} requiring a storage size of {needed} are "
            f"out of bounds for storage of size {array.nbytes}")
    data = backend_of(array).strided(array, dtype._np, size, stride, storage_offset)
    return _new(Tensor)._init(data, storage._storage, storage_offset)


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _tensor_on(storage, storage_offset, size, stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    t = _tensor_on(storage, storage_offset, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad=False):
    """A meta tensor, saved as its geometry alone (it has no storage to write)."""
    from ._creation import empty_strided
    if not isinstance(dtype, _dtype.dtype):
        raise pickle.UnpicklingError("_rebuild_meta_tensor_no_storage expects a dtype")
    return empty_strided(tuple(size), tuple(stride), dtype=dtype, device="meta",
                         requires_grad=requires_grad)


class _Typed(UntypedStorage):
    """Bytes read as elements of a dtype."""

    __slots__ = ("dtype",)

    def __init__(self, storage, dtype):
        super().__init__(storage)
        self.dtype = dtype


_REINTERPRETED = weakref.WeakKeyDictionary()     # storage of bytes -> {dtype: Storage}


def _reinterpreted(raw, dtype):
    """`raw`'s bytes as a Storage of `dtype`, one per (storage, dtype): the tensors that shared
    bytes in the file share one storage after loading, as the typed ones do."""
    views = _REINTERPRETED.setdefault(raw, {})
    typed = views.get(dtype)
    if typed is None:
        array = raw.array
        array = array[:array.nbytes // dtype.itemsize * dtype.itemsize].view(dtype._np)
        typed = views[dtype] = Storage(array)
    return typed


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       dtype, metadata=None):
    """torch's form for dtypes without a storage class (uint16, uint32, uint64): the storage
    is untyped (bytes), the dtype comes last."""
    storage = _loaded(storage)
    if not isinstance(storage, UntypedStorage) or not isinstance(dtype, _dtype.dtype):
        raise pickle.UnpicklingError("_rebuild_tensor_v3 expects an untyped storage and a dtype")
    if getattr(storage, "dtype", None) is None:
        storage = _Typed(_reinterpreted(storage._storage, dtype), dtype)
    return _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
                              backward_hooks, metadata)


def _rebuild_qtensor(storage, storage_offset, size, stride, quantizer_params, requires_grad,
                     backward_hooks):
    """A quantized tensor: its integers over the storage, and its quantizer's parameters
    `(scheme, scale, zero_point)` or `(scheme, scales, zero_points, axis)`."""
    from ._quantized import from_checkpoint
    ints = _tensor_on(storage, storage_offset, size, stride)
    return from_checkpoint(ints, _loaded(storage).dtype, quantizer_params)


def _set_state(obj, state):
    if isinstance(state, tuple):       # (dict, slots), as torch's _get_obj_state may write
        state = {**(state[0] or {}), **(state[1] or {})}
    for name, value in (state or {}).items():
        if name in Tensor.__slots__:
            raise pickle.UnpicklingError(f"refusing to set the tensor internal {name!r}")
        setattr(obj, name, value)
    return obj


def _rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _set_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_from_type_v2(func, new_type, args, state):
    t = func(*args)
    if not isinstance(t, Tensor):
        raise pickle.UnpicklingError(f"_rebuild_from_type_v2 expected a tensor from {func!r}")
    if type(t) is not new_type:
        if not (isinstance(new_type, type) and issubclass(new_type, Tensor)):
            raise pickle.UnpicklingError(f"expected a tensor class, got {new_type!r}")
        sub = _new(new_type)._init(t._data, t._get_storage(), t._offset)
        sub._requires_grad = t._requires_grad
        t = sub
    setstate = getattr(type(t), "__setstate__", None)
    if setstate is not None and setstate is not getattr(Tensor, "__setstate__", None):
        t.__setstate__(state)
        return t
    return _set_state(t, state)


def _get_layout(name):
    import ember
    if name not in ("torch.strided", "torch.sparse_coo", "torch.sparse_csr", "torch.sparse_csc",
                    "torch.sparse_bsr", "torch.sparse_bsc"):
        raise RuntimeError(f"ember has no layout {name}")
    return getattr(ember, name[len("torch."):])


def _rebuild_sparse_tensor(layout, data):
    """A sparse COO tensor from (indices, values, size[, is_coalesced]), or a compressed one
    (CSR, CSC, BSR, BSC) from (compressed_indices, plain_indices, values, size)."""
    if layout.name == "sparse_coo":
        from .sparse._coo import SparseCOO
        indices, values, size = data[:3]
        coalesced = bool(data[3]) if len(data) > 3 else False
        return _wrap(SparseCOO(indices._data, values._data, tuple(size), coalesced))
    from .sparse._compressed import RECORDS
    if layout.name in RECORDS:
        compressed, plain, values, size = data
        return _wrap(RECORDS[layout.name](compressed._data, plain._data, values._data,
                                          tuple(size)))
    raise pickle.UnpicklingError(f"ember cannot rebuild a sparse tensor of layout {layout}")


def _wrap(record):
    from ._tensor import wrap
    return wrap(record)


@functools.lru_cache(maxsize=1)
def torch_globals():
    """torch's global names that checkpoints use, as ember's objects: the weights-only
    allowlist (with `add_safe_globals`'), and the names `weights_only=False` maps too."""
    import codecs
    from . import _size
    from ._tensor_types import CPU_TYPES
    from .nn.parameter import Parameter
    names = {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "torch.nn.parameter.Parameter": Parameter,
        "torch.serialization._get_layout": _get_layout,
        "torch.Size": _size.Size,
        "torch.Tensor": Tensor,
        "torch.device": device,
        "_codecs.encode": codecs.encode,
        "builtins.bytearray": bytearray,
        "builtins.set": set,
        "builtins.complex": complex,
        "torch._utils._rebuild_tensor": _rebuild_tensor,
        "torch._utils._rebuild_sparse_tensor": _rebuild_sparse_tensor,
        "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
        "torch._utils._rebuild_tensor_v3": _rebuild_tensor_v3,
        "torch._utils._rebuild_qtensor": _rebuild_qtensor,
        "torch._utils._rebuild_parameter": _rebuild_parameter,
        "torch._utils._rebuild_meta_tensor_no_storage": _rebuild_meta_tensor_no_storage,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
        "torch.UntypedStorage": StorageType("UntypedStorage", None),
        "torch.storage.UntypedStorage": StorageType("UntypedStorage", None),   # (torch's own)
    }
    for d in _dtype.ALL_DTYPES:
        names[f"torch.{d._name}"] = d
        names[f"torch.{STORAGE_NAMES[d]}"] = StorageType(STORAGE_NAMES[d], d)
    for d in _dtype.LIMITED_DTYPES + _dtype.FLOAT8_DTYPES:  # (no storage classes: ..._v3)
        names[f"torch.{d._name}"] = d
    for d in _qdtype.QUANTIZED_DTYPES:
        names[f"torch.{d._name}"] = d
        if d in STORAGE_NAMES:
            names[f"torch.{STORAGE_NAMES[d]}"] = StorageType(STORAGE_NAMES[d], d)
    for scheme in _qdtype._SCHEMES.values():
        names[f"torch.{scheme.name}"] = scheme
    for name, cls in CPU_TYPES.items():
        names[f"torch.{name}"] = cls
    return names


def counterpart(module, name):
    """For `weights_only=False`: ember's object for a torch global outside `_torch_globals`
    (`torch.nn.modules.linear.Linear` -> `ember.nn.modules.linear.Linear`), None for others."""
    if module != "torch" and not module.startswith("torch."):
        return None
    import importlib
    ember_module = "ember" + module[len("torch"):]
    try:
        obj = importlib.import_module(ember_module)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise pickle.UnpicklingError(f"ember has no counterpart of torch's global "
                                     f"{module}.{name}") from None
    return obj
