"""Tensor-likes given to torch.nn.functional, torch.linalg, torch.special and torch.fft: the
refusal paths of their public functions (NOTE [ Tensor-likes ] in `_torch_function`).

ember's functions of these namespaces are Python functions that call one another and the
operators, with argument checks of their own; their public names get a wrapper whose `except`
clause hands a refused call to the tensor-likes among its arguments, with the public function
as `func` (torch's `F.linear(scalar_tensor_like, w)` reaches `__torch_function__` with
F.linear, not with the matmul inside it). It costs a valid call one frame (about 0.2 us, on
functions of several microseconds); the hot element-wise operators and those of the op
registry have such a path inside them instead, so they are left as they are.
"""
import functools
import types

from ._ops.argument_errors import not_a_tensor
from ._tensor import Tensor
from ._torch_function import (NOT_DISPATCHED, REFUSING_CODES, cached_signature, native_name,
                              on_refusal, python_in_torch)


def dispatch_refusals(namespace, skip=(), parsed=None, reads=None):
    """Wrap the public functions of the module dict `namespace` (see the module's docstring),
    except those in `skip` and the op registry's (which dispatch themselves). `parsed` maps
    the names of functions whose input torch's argument parser reads first to that native
    operator's name: a refused call whose input is no tensor gets the parser's TypeError
    ("elu(): argument 'input' (position 1) must be Tensor, not list", "elu_()" when called
    with inplace=True) in place of the error ember's own code met. `reads` maps the names of
    functions whose torch Python code first calls a method of its arguments to those
    (position, method) pairs, in torch's order: a refused call makes the same calls, so that
    a value that is no tensor fails as it does in torch (NOTE [ What torch's Python reads ])."""
    from ._ops.registry import FUNCTIONS
    registered = {id(fn) for fn in FUNCTIONS.values()}
    for name in [name for name in namespace if not name.startswith("_")]:
        fn = namespace.get(name)
        if name in skip or not isinstance(fn, types.FunctionType) or id(fn) in registered:
            continue
        namespace[name] = _refusing(fn, namespace, name, (parsed or {}).get(name),
                                    (reads or {}).get(name))


# NOTE [ What torch's Python reads ]
# Many of torch.nn.functional's functions are Python code that reads its input before any
# native operator sees it: `input.dim()` (group_norm, interpolate, dropout2d),
# `input.size()` (adaptive_avg_pool2d, binary_cross_entropy). Given a value that is no tensor,
# they fail there, with CPython's own error: an AttributeError for a list or None, but a
# TypeError "'int' object is not callable" for a NumPy array, whose `size` is an int. The
# refusal path makes the same calls on the arguments it was given, so the error is the same.

_REFUSED = (TypeError, ValueError, AttributeError, RuntimeError, NotImplementedError,
            IndexError)


def _refusing(fn, namespace, name, parsed=None, reads=None):
    """`fn`, the function `name` of the module dict `namespace`, dispatching the tensor-likes
    it refuses with what `namespace[name]` holds then (with autocast's wrapper, say)."""
    python = python_in_torch(namespace["__name__"], name)
    torch_name = None if python else native_name(namespace["__name__"], name)

    @functools.wraps(fn)
    def op(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except _REFUSED as exc:
            error = exc
        if not _binds(fn, args, kwargs):     # torch's parser refuses the call before
            raise error
        result = on_refusal(namespace[name], args, kwargs, torch_name, python=python)
        if result is NOT_DISPATCHED:
            if reads is not None:
                _read_as_torch(fn, args, kwargs, reads)
            if parsed is not None:
                operator, arg = parsed if isinstance(parsed, tuple) else (parsed, "input")
                value = args[0] if args else kwargs.get(arg)
                if not isinstance(value, Tensor):
                    shown = operator + "_" if _inplace(fn, args, kwargs) else operator
                    raise not_a_tensor(shown, arg, 0, value, by_position=True) from None
            raise error
        return result
    REFUSING_CODES.add(op.__code__)
    return op


def _bound(fn, args, kwargs):
    return cached_signature(fn).bind(*args, **kwargs).arguments


def _inplace(fn, args, kwargs):
    return bool(_bound(fn, args, kwargs).get("inplace", False))


def _read_as_torch(fn, args, kwargs, reads):
    """Call the methods torch's Python code calls first (NOTE [ What torch's Python reads ])
    on the arguments that are no tensors; their errors are torch's."""
    values = list(_bound(fn, args, kwargs).values())
    for position, method in reads:
        value = values[position] if position < len(values) else None
        if not isinstance(value, Tensor):
            getattr(value, method)()


def _binds(fn, args, kwargs):
    try:
        cached_signature(fn).bind(*args, **kwargs)
    except TypeError:
        return False
    return True
