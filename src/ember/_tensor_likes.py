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


def dispatch_refusals(namespace, skip=(), parsed=None):
    """Wrap the public functions of the module dict `namespace` (see the module's docstring),
    except those in `skip` and the op registry's (which dispatch themselves). `parsed` maps
    the names of functions whose input torch's argument parser reads first to that native
    operator's name: a refused call whose input is no tensor gets the parser's TypeError
    ("elu(): argument 'input' (position 1) must be Tensor, not list") in place of the error
    ember's own code met."""
    from ._ops.registry import FUNCTIONS
    registered = {id(fn) for fn in FUNCTIONS.values()}
    for name in [name for name in namespace if not name.startswith("_")]:
        fn = namespace.get(name)
        if name in skip or not isinstance(fn, types.FunctionType) or id(fn) in registered:
            continue
        namespace[name] = _refusing(fn, namespace, name, (parsed or {}).get(name))


def _refusing(fn, namespace, name, parsed=None):
    """`fn`, the function `name` of the module dict `namespace`, dispatching the tensor-likes
    it refuses with what `namespace[name]` holds then (with autocast's wrapper, say)."""
    python = python_in_torch(namespace["__name__"], name)
    torch_name = None if python else native_name(namespace["__name__"], name)

    @functools.wraps(fn)
    def op(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError, AttributeError) as exc:
            error = exc
        if not _binds(fn, args, kwargs):     # torch's parser refuses the call before
            raise error
        result = on_refusal(namespace[name], args, kwargs, torch_name, python=python)
        if result is NOT_DISPATCHED:
            if parsed is not None:
                value = args[0] if args else kwargs.get("input")
                if not isinstance(value, Tensor):
                    raise not_a_tensor(parsed, "input", 0, value, by_position=True) from None
            raise error
        return result
    REFUSING_CODES.add(op.__code__)
    return op


def _binds(fn, args, kwargs):
    try:
        cached_signature(fn).bind(*args, **kwargs)
    except TypeError:
        return False
    return True
