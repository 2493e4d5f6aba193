"""The one list of public operators: every `ember.<fn>` and `Tensor.<method>` that an op family
exports is registered here, and `install` puts them in place.

Tests read `FUNCTIONS` and `METHODS` to check that every operator has a test entry.
"""
import functools

from ._dispatch import inplace_variant
from .argument_errors import call_error, parser_error
from .signatures import NO_WRAPPER, PYTHON_IN_TORCH, SIGNATURES
from .._torch_function import NOT_DISPATCHED, on_refusal

FUNCTIONS = {}      # name -> function, exported as ember.<name>
METHODS = {}        # name -> function taking the tensor first, installed as Tensor.<name>


def register(name, fn, *, method=True, inplace=False, function=True):
    """Export `fn` as `ember.<name>` and/or `Tensor.<name>`, plus `Tensor.<name>_`."""
    if function:
        FUNCTIONS[name] = _bound(fn, name, function=True)
    if method:
        METHODS[name] = _bound(fn, name, function=False)
    if inplace:
        METHODS[name + "_"] = inplace_variant(numpy_names(fn, name), name + "_")
    return fn


# NOTE [ NumPy's argument names ]
# torch's argument parser accepts NumPy's names for two arguments of every native operator:
# `axis` for `dim` and `keepdims` for `keepdim` (x.sum(axis=0, keepdims=True),
# torch.cat(ts, axis=1)). Operators torch writes in Python (Tensor.norm, torch.split,
# torch.unique, ...) do not, nor do those whose argument is `dims` (flip, roll).
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}


def _takes_numpy_names(fn, name):
    code = getattr(fn, "__code__", None)
    if code is None or name in PYTHON_IN_TORCH:
        return False
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return "dim" in params or "keepdim" in params


def _rename(name, kwargs):
    """`kwargs` with `axis`/`keepdims` under torch's names."""
    renamed = {_NUMPY_NAMES.get(k, k): v for k, v in kwargs.items()}
    if len(renamed) < len(kwargs):      # both names: torch knows only one of them
        extra = "axis" if "axis" in kwargs and "dim" in kwargs else "keepdims"
        raise TypeError(f"{name}() got an unexpected keyword argument '{extra}'")
    return renamed


def _bound(fn, name, *, function):
    """`fn` as the operator `name` binds its arguments: with NumPy's names where torch takes
    them, and with torch's argument-parser errors where `SIGNATURES` lists the operator. The
    wrapper costs a valid call a frame: the operators listed take a `dim` (and need one for
    NumPy's names anyway) or are slow enough (lerp, masked_fill); the hot ones (NO_WRAPPER:
    view, add, ...) get none, and their signatures serve the wrappers they have anyway."""
    if name in SIGNATURES and name not in NO_WRAPPER:
        return parser_errors(fn, name, function=function)
    if not _takes_numpy_names(fn, name):
        return tensor_input_errors(fn, name) if function else fn
    return numpy_names(fn, name, method=not function)


def tensor_input_errors(fn, name):
    """The function `fn`, raising torch's TypeError when its `input` is not a tensor
    (`torch.matmul([1, 2], t)`), where ember's code meets an AttributeError. Only functions
    whose first argument is `input` get it (not `cat(tensors)`, ...), and only on that error
    path: torch takes a number first in some (`pow(2, t)`, `bucketize(3, b)`)."""
    code = getattr(fn, "__code__", None)
    if code is None or not code.co_argcount or code.co_varnames[0] != "input" or \
            getattr(fn, "checks_operands", False):      # (element-wise ops check their own)
        return fn
    return _checking_input(fn, name, numpy_names=False)


def numpy_names(fn, name, method=False):
    """`fn`, accepting `axis=` and `keepdims=` where it takes `dim` and `keepdim`."""
    if not _takes_numpy_names(fn, name):
        return fn
    return _checking_input(fn, name, numpy_names=True, method=method)


def _checking_input(fn, name, numpy_names, method=False):
    """`fn` raising torch's TypeError for an `input` that is no tensor (see
    `_check_tensor_input`), and taking NumPy's argument names where `numpy_names`; `method`:
    `fn` is bound as a method (NOTE [ Positions in "must be Tensor" errors ])."""
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if numpy_names and ("axis" in kwargs or "keepdims" in kwargs):
            kwargs = _rename(name, kwargs)
        try:
            return fn(*args, **kwargs)
        except (AttributeError, TypeError) as exc:  # (the `try` costs a valid call nothing)
            result = on_refusal(op, args, kwargs, _torch_name(name, method))
            if result is not NOT_DISPATCHED:    # NOTE [ Tensor-likes ]
                return result
            if isinstance(exc, AttributeError):
                _check_tensor_input(fn, name, args)
                raise
            # NOTE [ Positions in "must be Tensor" errors ] and NOTE [ Arity errors ]
            new = call_error(exc, fn, name, args, kwargs, method)
            if new is None:
                raise
            raise new from None
    return op


def _torch_name(name, method):
    """How torch's dispatch errors name the operator `name`."""
    return f"torch.Tensor.{name}" if method else f"torch.{name}"


def _check_tensor_input(fn, name, args):
    """torch's TypeError for a function given something else than a tensor as its input
    (`torch.sum([1, 2])`), which ember's code meets as an AttributeError."""
    from .._tensor import Tensor
    from .argument_errors import type_name
    if args and not isinstance(args[0], Tensor):
        first = fn.__code__.co_varnames[0] if hasattr(fn, "__code__") else "input"
        raise TypeError(f"{name}(): argument '{first}' (position 1) must be Tensor, not "
                        f"{type_name(args[0])}") from None


# NOTE [ Arguments checked first ]
# Operators whose Python signature binds calls that torch's parser refuses, which a failing
# call never shows: `sort(x, 0, stable=True)` (stable's overload takes dim by keyword only), an
# `out=` tensor where torch takes a tuple (max(x, 0, out=t)) or where an overload has no out
# (std(x, True, out=t), argsort(x, out=t) without stable, sum(x, out=t) without dim). Their
# functions check a call with `out=` or `stable=` against torch's signatures before running
# it (such calls are rare).
PRECHECKED = {"max", "min", "median", "nanmedian", "mode", "kthvalue", "cummax", "cummin",
              "aminmax", "sort", "argsort", "topk", "std", "var", "sum", "prod"}


def parser_errors(fn, name, *, function):
    """`fn` with NumPy's names (see numpy_names), raising torch's argument-parser TypeError
    (see argument_errors) when a call fails because its arguments fit none of torch's
    signatures of `name`. The `try` costs a valid call nothing (CPython 3.11+)."""
    numpy_names = _takes_numpy_names(fn, name)
    precheck = name in PRECHECKED

    @functools.wraps(fn)
    def op(*args, **kwargs):
        given = kwargs
        if precheck and kwargs and ("out" in kwargs or "stable" in kwargs):
            error = parser_error(name, args, kwargs, True)
            if error is not None:
                raise error
        if numpy_names and ("axis" in kwargs or "keepdims" in kwargs):
            kwargs = _rename(name, kwargs)
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError, AttributeError) as exc:     # e.g. dtype=<a Tensor>
            result = on_refusal(op, args, given, _torch_name(name, False))
            if result is not NOT_DISPATCHED:    # NOTE [ Tensor-likes ]
                return result
            error = parser_error(name, args, given, function)
            if error is None:
                raise
            raise error from exc

    @functools.wraps(fn)
    def method_op(*args, **kwargs):
        if "out" in kwargs:     # torch's methods take no out= (NumPy's np.mean(t) passes one)
            raise parser_error(name, args, kwargs, False) or \
                TypeError(f"{name}() got an unexpected keyword argument 'out'")
        if precheck and "stable" in kwargs:
            error = parser_error(name, args, kwargs, False)
            if error is not None:
                raise error
        given = kwargs
        if numpy_names and ("axis" in kwargs or "keepdims" in kwargs):
            kwargs = _rename(name, kwargs)
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError, AttributeError) as exc:
            result = on_refusal(method_op, args, given, _torch_name(name, True))
            if result is not NOT_DISPATCHED:    # NOTE [ Tensor-likes ]
                return result
            error = parser_error(name, args, given, False)
            if error is None:
                raise
            raise error from exc
    return op if function else method_op


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
