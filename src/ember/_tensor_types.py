"""The legacy typed tensor classes: `ember.FloatTensor`, `ember.LongTensor`, ...; the deprecated
`set_default_tensor_type` that takes them, and `typename`.

They are not subclasses: `FloatTensor(2, 3)` and `FloatTensor([1, 2])` make ordinary tensors of
that dtype, `isinstance(t, FloatTensor)` checks a tensor's dtype and device, and
`t.type(FloatTensor)` converts, as in torch.
"""
from . import _dtype
from . import _warn


class _LegacyType(type):
    _c_type_name = "torch.tensortype"      # (what torch's errors call the legacy types' type)

    def __instancecheck__(cls, obj):
        from ._tensor import Tensor
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and \
            obj.device.type == cls._device_type

    def __call__(cls, *args, **kwargs):
        from ._creation import legacy_new
        from ._tensor import Tensor
        device = None
        if cls._device_type == "cuda":
            from . import cuda
            if not cuda.is_available():
                raise TypeError(f"type torch.cuda.{cls.__name__} not available. Torch not "
                                f"compiled with CUDA enabled.")
            device = "cuda"
        return legacy_new(Tensor, args, kwargs, device, cls.dtype)

    def __repr__(cls):
        return f"<class '{cls.__module__}.{cls.__name__}'>"


def _make(d, device_type, module):
    return _LegacyType(d._legacy_name, (), {"dtype": d, "_dtype": d, "_device_type": device_type,
                                            "__module__": module})


CPU_TYPES = {d._legacy_name: _make(d, "cpu", "torch") for d in _dtype.ALL_DTYPES}
CUDA_TYPES = {d._legacy_name: _make(d, "cuda", "torch.cuda") for d in _dtype.ALL_DTYPES}


_warned = False
_cuda_by_type = False       # the default device is CUDA because of a torch.cuda.*Tensor type


def set_default_tensor_type(t):
    """Deprecated: set the default floating dtype from a legacy type (`ember.DoubleTensor`) or
    its name (`'torch.DoubleTensor'`)."""
    global _warned, _cuda_by_type
    if not _warned:                 # NOTE: torch warns once per process
        _warned = True
        _warn.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please "
                   "use torch.set_default_dtype() and torch.set_default_device() as "
                   "alternatives.", UserWarning, stacklevel=2)
    if isinstance(t, str):
        module, _, name = t.rpartition(".")
        if module == "torch.cuda" and name in CUDA_TYPES:
            t = CUDA_TYPES[name]
        elif module == "torch":
            if name not in CPU_TYPES:
                raise AttributeError(f"module 'torch' has no attribute '{name}'")
            t = CPU_TYPES[name]
        else:
            raise ModuleNotFoundError(f"No module named '{module or name}'")
    if not isinstance(t, _LegacyType):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    if t._device_type == "cuda":
        from . import cuda
        if not cuda.is_available():
            raise TypeError(f"type torch.cuda.{t.__name__} not available. Torch not compiled "
                            f"with CUDA enabled.")
        from ._device import set_default_device
        set_default_device("cuda")
        _cuda_by_type = True
    elif _cuda_by_type:             # a CPU type undoes the CUDA one (torch's default backend)
        from ._device import set_default_device
        set_default_device(None)
        _cuda_by_type = False
    _dtype.set_default_dtype(t.dtype)


def typename(obj):
    """A readable type name: `t.type()` for a tensor ('torch.FloatTensor'), else the module
    and qualified name of `obj` (a class or function) or of its class ('int')."""
    from ._tensor import Tensor
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if qualname is None:
        module, qualname = type(obj).__module__ or "", type(obj).__qualname__
    if module in ("", "builtins"):
        return qualname
    # NOTE: ember stands in for torch (`import ember as torch`), so it names itself torch
    if module == "ember" or module.startswith("ember."):
        module = "torch" + module[len("ember"):]
    return f"{module}.{qualname}"


def class_text(cls):
    """`str(cls)` as torch shows it in its messages: "<class 'torch.nn.modules.container.
    Sequential'>" for ember's own classes, "<class 'torch.Tensor'>" for its Tensor."""
    from ._tensor import Tensor
    return "<class 'torch.Tensor'>" if cls is Tensor else f"<class '{typename(cls)}'>"
