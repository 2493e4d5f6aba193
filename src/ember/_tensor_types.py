"""The legacy typed tensor classes: `ember.FloatTensor`, `ember.LongTensor`, ...

They are not subclasses: `FloatTensor(2, 3)` and `FloatTensor([1, 2])` make ordinary tensors of
that dtype, `isinstance(t, FloatTensor)` checks a tensor's dtype and device, and
`t.type(FloatTensor)` converts, as in torch.
"""
from . import _dtype


class _LegacyType(type):
    def __instancecheck__(cls, obj):
        from ._tensor import Tensor
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and \
            obj.device.type == cls._device_type

    def __call__(cls, *args, **kwargs):
        from ._creation import legacy_new
        from ._tensor import Tensor
        device = "cuda" if cls._device_type == "cuda" else None
        return legacy_new(Tensor, args, dict(kwargs, device=device)).to(cls.dtype)

    def __repr__(cls):
        return f"<class '{cls.__module__}.{cls.__name__}'>"


def _make(d, device_type, module):
    return _LegacyType(d._legacy_name, (), {"dtype": d, "_dtype": d, "_device_type": device_type,
                                            "__module__": module})


CPU_TYPES = {d._legacy_name: _make(d, "cpu", "torch") for d in _dtype.ALL_DTYPES}
CUDA_TYPES = {d._legacy_name: _make(d, "cuda", "torch.cuda") for d in _dtype.ALL_DTYPES}
