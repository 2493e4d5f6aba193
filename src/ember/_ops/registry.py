"""The one list of public operators: every `ember.<fn>` and `Tensor.<method>` that an op family
exports is registered here, and `install` puts them in place.

Tests read `FUNCTIONS` and `METHODS` to check that every operator has a test entry.
"""
from ._dispatch import inplace_variant

FUNCTIONS = {}      # name -> function, exported as ember.<name>
METHODS = {}        # name -> function taking the tensor first, installed as Tensor.<name>


def register(name, fn, *, method=True, inplace=False, function=True):
    """Export `fn` as `ember.<name>` and/or `Tensor.<name>`, plus `Tensor.<name>_`."""
    if function:
        FUNCTIONS[name] = fn
    if method:
        METHODS[name] = fn
    if inplace:
        METHODS[name + "_"] = inplace_variant(fn, name + "_")
    return fn


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
