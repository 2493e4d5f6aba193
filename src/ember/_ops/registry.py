"""The one list of public operators: every `ember.<fn>` and `Tensor.<method>` that an op family
exports is registered here, and `install` puts them in place.

Tests read `FUNCTIONS` and `METHODS` to check that every operator has a test entry.
"""
import functools

from ._dispatch import inplace_variant

FUNCTIONS = {}      # name -> function, exported as ember.<name>
METHODS = {}        # name -> function taking the tensor first, installed as Tensor.<name>


def register(name, fn, *, method=True, inplace=False, function=True):
    """Export `fn` as `ember.<name>` and/or `Tensor.<name>`, plus `Tensor.<name>_`."""
    fn = numpy_names(fn, name)
    if function:
        FUNCTIONS[name] = fn
    if method:
        METHODS[name] = fn
    if inplace:
        METHODS[name + "_"] = inplace_variant(fn, name + "_")
    return fn


# NOTE [ NumPy's argument names ]
# torch's argument parser accepts NumPy's names for two arguments of every native operator:
# `axis` for `dim` and `keepdims` for `keepdim` (x.sum(axis=0, keepdims=True),
# torch.cat(ts, axis=1)). Operators torch writes in Python (Tensor.norm, torch.split,
# torch.unique, ...) do not, nor do those whose argument is `dims` (flip, roll).
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}
_PYTHON_IN_TORCH = {"norm", "split", "unique", "unique_consecutive", "stft", "istft",
                    "lu", "chain_matmul", "cdist", "tensordot", "einsum", "meshgrid",
                    "broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d"}


def numpy_names(fn, name):
    """`fn`, accepting `axis=` and `keepdims=` where it takes `dim` and `keepdim`."""
    code = getattr(fn, "__code__", None)
    if code is None or name in _PYTHON_IN_TORCH:
        return fn
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    if "dim" not in params and "keepdim" not in params:
        return fn

    @functools.wraps(fn)
    def op(*args, **kwargs):
        if "axis" in kwargs or "keepdims" in kwargs:
            renamed = {_NUMPY_NAMES.get(k, k): v for k, v in kwargs.items()}
            if len(renamed) < len(kwargs):      # both names: torch knows only one of them
                extra = "axis" if "axis" in kwargs and "dim" in kwargs else "keepdims"
                raise TypeError(f"{name}() got an unexpected keyword argument '{extra}'")
            kwargs = renamed
        return fn(*args, **kwargs)
    return op


def function(name=None, *, method=True, inplace=False, function=True):
    """Decorator form of `register` for hand-written functions."""
    def deco(fn):
        register(name or fn.__name__, fn, method=method, inplace=inplace, function=function)
        return fn
    return deco


def method(name=None, *, inplace=False):
    """Decorator: a Tensor method only (no `ember.<name>` function)."""
    return function(name, method=True, inplace=inplace, function=False)


def install(namespace, tensor_class):
    """Put every registered operator on `namespace` (a module's dict) and on the Tensor class."""
    for name, fn in FUNCTIONS.items():
        namespace.setdefault(name, fn)
    for name, fn in METHODS.items():
        if name not in tensor_class.__dict__:
            setattr(tensor_class, name, fn)
