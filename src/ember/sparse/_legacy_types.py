"""The legacy sparse tensor types: `torch.sparse.FloatTensor`, `LongTensor`, ... (old GCN code
builds its adjacency with `torch.sparse.FloatTensor(indices, values, shape)`).

As the dense legacy types (`_tensor_types.py`) they are not subclasses: calling one makes an
ordinary sparse COO tensor (with torch's deprecation warning, once per form), and
`isinstance(t, torch.sparse.FloatTensor)` checks for a float32 sparse COO tensor on the CPU.
Given values, the tensor keeps the values' dtype, as torch's constructor does.
"""
from .. import _dtype
from .._config import warn_once

_NAMES = ("BFloat16Tensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
          "HalfTensor", "IntTensor", "LongTensor", "ShortTensor")
_SIGNATURES = ("\n * (*, torch.device device = None)"
               "\n * (Tensor indices, Tensor values, *, torch.device device = None)"
               "\n * (Tensor indices, Tensor values, tuple of ints size, *, torch.device device "
               "= None)"
               "\n * (tuple of ints size, *, torch.device device = None)\n")
_DEPRECATED = ("torch.sparse.SparseTensor({}) is deprecated.  Please use "
               "torch.sparse_coo_tensor({}).")


class _SparseLegacyType(type):
    def __instancecheck__(cls, obj):
        from .._tensor import Tensor
        return isinstance(obj, Tensor) and obj.is_sparse and obj.dtype is cls.dtype and \
            obj.device.type == "cpu"

    def __call__(cls, *args, device=None, **kwargs):
        from .._tensor import Tensor
        from ._tensor_api import sparse_coo_tensor
        if kwargs:
            raise TypeError(f"new() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if device is not None and str(device).split(":")[0] != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: "
                               f"{str(device).split(':')[0]} was passed")
        if len(args) > 3:
            raise TypeError(f"new() takes 3 positional arguments but {len(args)} were given")
        if args and isinstance(args[0], Tensor):
            if len(args) < 2 or not isinstance(args[1], Tensor) or len(args) == 3 and not \
                    _is_size(args[2]):
                raise _invalid(args)
            if args[0].dtype is not _dtype.int64:
                raise RuntimeError("indices must be an int64 tensor")
            if len(args) == 3:
                warn_once(_DEPRECATED.format("indices, values, shape, *, device=",
                                             "indices, values, shape, dtype=, device="))
                return sparse_coo_tensor(args[0], args[1], tuple(args[2]),
                                         check_invariants=False)
            warn_once(_DEPRECATED.format("indices, values, *, device=",
                                         "indices, values, dtype=, device="))
            return sparse_coo_tensor(args[0], args[1], check_invariants=False)
        if not args:
            warn_once(_DEPRECATED.format("", "(0,), dtype="))
            size = (0,)
        else:
            size = tuple(args[0]) if len(args) == 1 and _is_size(args[0]) else args
            if not all(isinstance(n, int) and not isinstance(n, bool) for n in size):
                raise _invalid(args)
            warn_once(_DEPRECATED.format("shape, *, device=", "shape, dtype=, device="))
        return sparse_coo_tensor(size=size, dtype=cls.dtype, check_invariants=False)

    def __repr__(cls):
        return f"<class 'torch.sparse.{cls.__name__}'>"


def _is_size(x):
    return isinstance(x, (tuple, list)) and all(isinstance(n, int) for n in x)


def _invalid(args):
    got = ", ".join(type(a).__name__ for a in args)
    return TypeError(f"new() received an invalid combination of arguments - got ({got}), but "
                     f"expected one of:{_SIGNATURES}")


_BY_NAME = {d._legacy_name: d for d in _dtype.ALL_DTYPES}
TYPES = {name: _SparseLegacyType(name, (), {"dtype": _BY_NAME[name], "is_sparse": True,
                                            "__module__": "torch.sparse"}) for name in _NAMES}
