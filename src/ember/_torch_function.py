"""`__torch_function__`: Tensor subclasses and TorchFunctionModes see every torch call.

NOTE [ __torch_function__ ]
torch calls `type(arg).__torch_function__(func, types, args, kwargs)` for a call of a public
function or Tensor method/property when an argument's class defines one (every Tensor subclass
inherits `Tensor.__torch_function__`, except those that set `_disabled_torch_function_impl`,
as `nn.Parameter` does), and a TorchFunctionMode's `__torch_function__` for every call while it
is entered. `func` is the public object (`torch.add`, `torch.Tensor.add`; an operator passes
the method torch implements it with, `x + 1` passes `Tensor.add`; a property its
`__get__`/`__set__`), `types` the classes of the overloaded arguments. The default
`Tensor.__torch_function__` runs `func` with subclass dispatch disabled and gives tensor
results the subclass (`as_subclass`), which is why ops on a subclass instance return the
subclass.

ember does it with `_patch_ops` (NOTE [ Patching the public operators ]): the wrappers are
installed only while a Tensor subclass that dispatches exists (from Tensor.__init_subclass__
until the class is garbage collected; ember's own classes and those with the disabled impl do
not count), a mode is entered or a torch.fx trace runs, so ordinary programs pay nothing. A
wrapper with nothing to dispatch runs the original with dispatch off (`_state.off`), so that
ember's own operators, which call one another, are seen once, as torch's C++ operators are: a
mode sees `F.linear`, not the matmul inside it. Installed wrappers stand for the functions
they replace (NOTE [ Wrappers stand for their functions ]).

NOTE [ Wrappers stand for their functions ]
In torch, `torch.relu` is one object for the life of the process. In ember it is the original
function, or a `_Wrapper` while the wrappers are installed; code may hold either (a traced
node's target records the original, a user's table of handlers may be built before or after a
subclass is defined). So that both work as the one function, a wrapper compares and hashes
equal to the original it stands for (and to any other wrapper of it): `node.target ==
torch.relu`, `func in {torch.add: ...}`, `find_nodes(target=torch.relu)` hold whenever either
was taken. `__torch_function__` receives the public function as it is now (the wrapper while
installed, what `torch.add` evaluates to then), so `func is torch.add` holds too, and the
Tensor-likes' error paths pass the installed wrapper as well (`_patch_ops.installed`). A
wrapper copies and pickles as the public name it stands for, and reads any other attribute
(`__code__`, `__defaults__`) from the original. What cannot hold is identity across the
switch (`f is torch.relu` for an `f` taken while the originals were in place); a dispatch
check inside every function would keep it, at a frame or a test on every ordinary call.
torch.nn.functional's functions that are Python in torch hand the call over in torch's form
(`python_arguments`: `F.relu(x)` passes `inplace=False` too); its C++ ones, as the other
namespaces', pass the arguments as given.

NOTE [ Tensor-likes ]
A class that is no Tensor but has a `__torch_function__` (a tensor-like: torch's docs'
ScalarTensor, torch.fx's Proxy) cannot be seen being defined, so it cannot turn the wrappers
on. It is dispatched instead where an operator is about to refuse it: an operator given
something it cannot take ends on an error path (its argument check, the `except` clause of
its argument-error wrapper, a Python operator's NotImplemented), and there `on_refusal`
(`operator_refused` for the Python operators) hands the call to the tensor-likes among the
arguments, with the public function as `func`, before any error is raised. Valid calls never
reach those paths, so they pay nothing. The paths that do this: the registry's wrappers
(registry.py), the element-wise front ends (elementwise_export.py), the Tensor operators
(operators.py), F.relu, and a wrapper around each other public function of
torch.nn.functional, torch.linalg, torch.special and torch.fft (`_tensor_likes`, one frame per
call on functions of microseconds); an operator refusing on another path of its own raises its
error for a tensor-like (unless the wrappers are installed: while a subclass or mode is
active, or while torch.fx traces). Only the outermost refusal dispatches (`_outermost`): as
in torch, `F.relu6(p)` passes F.relu6, not the hardtanh that ember's relu6 calls. A function
that accepts a tensor-like without error (`F.dropout(p, training=False)` returns it) does not
dispatch it.
"""
import functools
import inspect
import sys
import types
import weakref

from . import _patch_ops


class _State:
    off = False                 # inside an operator, or DisableTorchFunction: no dispatch
    subclasses_off = False      # DisableTorchFunctionSubclass
    modes = []                  # the entered TorchFunctionModes, innermost last
    subclasses = False          # a dispatching Tensor subclass has been defined
    traces = 0                  # torch.fx traces running (their Proxies are tensor-likes)


_state = _State()


class _DisabledTorchFunctionImpl:
    """torch._C._disabled_torch_function_impl: as a class's `__torch_function__`, it turns
    dispatch off for that class (`nn.Parameter`). Not a descriptor, so it never binds."""

    __slots__ = ()

    def __call__(self, func, types, args=(), kwargs=None):
        with DisableTorchFunction():
            return func(*args, **(kwargs or {}))

    def __repr__(self):
        return "<built-in function _disabled_torch_function_impl>"


_disabled_torch_function_impl = _DisabledTorchFunctionImpl()


class DisableTorchFunctionSubclass:
    """Within it, subclasses' `__torch_function__` are not called (modes still are)."""

    def __enter__(self):
        self.prev = _state.subclasses_off
        _state.subclasses_off = True

    def __exit__(self, *exc):
        _state.subclasses_off = self.prev


class DisableTorchFunction:
    """Within it, no `__torch_function__` is called, neither subclasses' nor modes'."""

    def __enter__(self):
        self.prev = _state.off, _state.subclasses_off
        _state.off = _state.subclasses_off = True

    def __exit__(self, *exc):
        _state.off, _state.subclasses_off = self.prev


# -- which arguments are overloaded -----------------------------------------------------------

# class -> 0 (nothing to dispatch), 1 (dispatches), 2 (a list or tuple to scan); users'
# Tensor subclasses are left out, so that they can die (and the wrappers go with them).
_kinds = {}


def _kind(cls):
    kind = _kinds.get(cls)
    if kind is None:
        from ._tensor import Tensor
        if cls is list or cls is tuple:
            kind = 2
        else:
            impl = getattr(cls, "__torch_function__", None)
            kind = int(impl is not None and impl is not _disabled_torch_function_impl)
            if cls is Tensor:
                kind = 0
            elif issubclass(cls, Tensor):     # a user's (ember's are in _kinds as 0)
                return kind
        _kinds[cls] = kind
    return kind


def overloaded_args(values):
    """The arguments among `values` (and in lists or tuples of them) whose class dispatches,
    one per class, a subclass before its superclasses, else in order (as torch orders
    them)."""
    found = []
    for v in values:
        kind = _kind(v.__class__)
        if kind == 2:
            for item in v:
                if _kind(item.__class__) == 1:
                    _add(found, item)
        elif kind:
            _add(found, v)
    return found


def _add(found, arg):
    cls = arg.__class__
    if any(a.__class__ is cls for a in found):
        return
    for i, a in enumerate(found):
        if issubclass(cls, a.__class__):
            found.insert(i, arg)
            return
    found.append(arg)


# -- dispatching ------------------------------------------------------------------------------

NOT_DISPATCHED = object()       # on_refusal's answer when no argument is a tensor-like


def on_refusal(func, args, kwargs, torch_name=None, python=False):
    """On an operator's argument-error path (NOTE [ Tensor-likes ]): the result of the
    tensor-likes' `__torch_function__` for the call `func(*args, **kwargs)`, or
    NOT_DISPATCHED when there is none (or dispatch is off), for the caller to raise its
    error. `python`: torch's `func` is a Python function (see python_arguments)."""
    if _state.off or _state.subclasses_off:
        return NOT_DISPATCHED
    from ._tensor import Tensor
    values = (*args, *kwargs.values()) if kwargs else args
    overloaded = [a for a in overloaded_args(values) if not isinstance(a, Tensor)]
    if not overloaded or not _outermost(sys._getframe(2)):
        return NOT_DISPATCHED
    if python:
        args, kwargs = python_arguments(func, args, kwargs)
    # what `torch.cat` holds now: not the wrapper inside it, nor (while the wrappers are
    # installed) the function that the installed wrapper stands for
    func = _patch_ops.installed(_patch_ops.public(func))
    return dispatch(func, overloaded, tuple(args), kwargs or None, torch_name)


REFUSING_CODES = set()      # the code of `_tensor_likes`' wrappers


def _outermost(frame):
    """Whether the refusal seen by the function called from `frame` is the outermost: no
    public function up the stack will refuse the same tensor-like (torch dispatches at the
    call the program made: `F.relu6(p)` reaches `__torch_function__` with F.relu6, not with the
    hardtanh it calls). The walk stops at a `dispatch`: a call made by a `__torch_function__`
    is a program's own call."""
    while frame is not None:
        code = frame.f_code
        if code is _DISPATCH_CODE:
            return True
        if code in REFUSING_CODES:
            return False
        frame = frame.f_back
    return True


def operator_refused(operator, self, other):
    """A Tensor operator (`operator`, named after its dunder) given an operand it cannot
    take: the operand's `__torch_function__` answers if it has one, with the method torch
    passes (`Tensor.add` for `t + x`); else NotImplemented, for Python to try the reflected
    operator."""
    if _state.off or _state.subclasses_off or _kind(other.__class__) != 1:
        return NotImplemented
    from ._tensor import Tensor
    name = operator.__name__
    func = vars(Tensor).get(_OPERATOR_FUNCS.get(name, _OPERATOR_NAMES.get(name, name)))
    return dispatch(func if func is not None else operator, [other], (self, other), None,
                    declined=NotImplemented)


def dispatch(func, overloaded, args, kwargs, torch_name=None, declined=None):
    """Call the innermost mode's, then each overloaded argument's `__torch_function__`, until
    one returns something other than NotImplemented (torch's handle_torch_function). When all
    decline: `declined` if given (NotImplemented for a binary operator), else torch's error
    for its C++ functions (named `torch_name`), or else for its Python ones."""
    classes = tuple(a.__class__ for a in overloaded)
    if _state.modes and not _state.off:
        mode = _state.modes.pop()       # the mode runs with itself popped, as in torch
        try:
            result = mode.__torch_function__(func, classes, args, kwargs)
        finally:
            _state.modes.append(mode)
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        result = arg.__class__.__torch_function__(func, classes, args, kwargs)
        if result is not NotImplemented:
            return result
    if declined is not None:
        return declined
    if torch_name is not None:
        handlers = "".join(f"  - tensor subclass {a.__class__}\n" for a in overloaded)
        raise TypeError(f"Multiple dispatch failed for '{torch_name}'; all __torch_function__ "
                        f"handlers returned NotImplemented:\n\n{handlers}\nFor more "
                        f"information, try re-running with TORCH_LOGS=not_implemented")
    module = str(getattr(func, "__module__", None))
    if module.startswith("ember."):
        module = "torch" + module[5:]
    name = f"{module}.{getattr(func, '__name__', func)}"
    msg = (f"no implementation found for '{name}' on types that implement "
           f"__torch_function__: {[a.__class__ for a in overloaded]}")
    if _state.modes:
        msg += f" nor in mode {_state.modes[-1]}"
    raise TypeError(msg)


_DISPATCH_CODE = dispatch.__code__


def default_torch_function(cls, func, types, args=(), kwargs=None):
    """Tensor.__torch_function__: run `func` with subclass dispatch off, and give tensor
    results the class `cls` (but not `.grad`, see get_default_nowrap_functions)."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        result = func(*args, **kwargs)
        if func in default_nowrap_functions():
            return result
        return _convert(result, cls)


def default_nowrap_functions():
    """torch.overrides.get_default_nowrap_functions: what the default `__torch_function__`
    hands back unconverted."""
    from ._tensor import Tensor
    return {Tensor.grad.__get__}


def _convert(result, cls):
    from ._tensor import Tensor
    if cls is Tensor:
        return result
    if isinstance(result, Tensor) and not isinstance(result, cls):
        # through the public method, with dispatch off, so that forward AD's wrapper (if
        # installed) gives the alias the result's tangent
        prev, _state.off = _state.off, True
        try:
            return result.as_subclass(cls)
        finally:
            _state.off = prev
    if isinstance(result, (tuple, list)):
        items = [_convert(r, cls) for r in result]
        return result.__class__(*items) if hasattr(result, "_fields") \
            else result.__class__(items)
    return result


# -- the wrappers -----------------------------------------------------------------------------

# The method torch passes as `func` for an operator (`x + 1` is `Tensor.add(x, 1)`); the
# other operators pass themselves (`__rtruediv__` is torch's `__rdiv__`, the same function).
_OPERATOR_FUNCS = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub",
    "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_",
    "__truediv__": "div", "__itruediv__": "div_", "__ifloordiv__": "floor_divide_",
    "__mod__": "remainder", "__imod__": "remainder_", "__matmul__": "matmul",
    "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rtruediv__": "__rdiv__",
    "__rxor__": "bitwise_xor", "__neg__": "neg", "__pos__": "positive", "__abs__": "abs",
    "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__ne__": "ne",
}
# Operators that pass themselves under another name: torch's `Tensor.__pow__` is its C `pow`.
_OPERATOR_NAMES = {"__pow__": "pow", "__ipow__": "pow_"}

# Binary operators, which answer NotImplemented when no __torch_function__ implements them
# (Python then raises its "unsupported operand type(s)").
_BINARY = frozenset(f"__{p}{op}__" for op in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor",
    "lshift", "rshift") for p in ("", "r", "i"))


# Tensor attributes torch does not dispatch (or ember keeps its own way of doing).
NOT_DISPATCHED_ATTRIBUTES = frozenset((
    "__init__", "__new__", "__hash__", "__iter__", "__init_subclass__", "__getattr__",
    "__setattr__", "__delattr__", "__class_getitem__", "__sizeof__", "__array_wrap__",
    "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__",
    "__dlpack__", "__dlpack_device__", "__cuda_array_interface__",
    # (torch's as_subclass is a plain C method: `x.as_subclass(Tensor)` unwraps a subclass)
    "as_subclass"))


def _overloaded(values):
    if (_state.subclasses or _state.traces) and not _state.subclasses_off:
        return overloaded_args(values)
    return ()


class _Wrapper:
    """The stand-in installed for a public operator while the wrappers are on: called, it
    hands the call to `__torch_function__` or runs the operator (`__wrapped__`) with dispatch
    off; compared, hashed, copied or pickled, it is the public function it stands for (NOTE [
    Wrappers stand for their functions ])."""

    def __init__(self, owner, attr, inner, name, qualname, torch_name, operator_of=None,
                 modes_only=False, binary=False, python=False):
        self.__wrapped__ = inner
        self.__name__ = name
        self.__qualname__ = qualname
        self.__module__ = getattr(inner, "__module__", None)
        self.__doc__ = getattr(inner, "__doc__", None)
        self._original = _patch_ops.original(inner)
        self._torch_name = torch_name
        self._operator_of = operator_of
        self._modes_only = modes_only
        self._binary = binary
        self._python = python       # torch's is a Python function (see python_arguments)
        self._where = (f"{owner.__module__}:{owner.__name__}" if isinstance(owner, type)
                       else owner.__name__, attr)

    def __call__(self, *args, **kwargs):
        if _state.off:
            return self.__wrapped__(*args, **kwargs)
        overloaded = () if self._modes_only else \
            _overloaded((*args, *kwargs.values()) if kwargs else args)
        if overloaded or _state.modes:
            if self._python:
                args, kwargs = python_arguments(self._original, args, kwargs)
            return dispatch(self._func(), overloaded, args, kwargs or None, self._torch_name,
                            declined=NotImplemented if self._binary else None)
        _state.off = True
        try:
            return self.__wrapped__(*args, **kwargs)
        finally:
            _state.off = False

    def _func(self):
        """What `__torch_function__` receives: the public function, which is this wrapper
        while installed (`torch.add`), or for an operator the method torch passes
        (`Tensor.add` for `__add__`)."""
        if self._operator_of is not None:
            from ._tensor import Tensor
            return vars(Tensor)[self._operator_of]
        return self

    def __get__(self, instance, owner=None):
        return self if instance is None else types.MethodType(self, instance)

    def __getattr__(self, name):        # __code__, __defaults__, ...: the original's
        if name == "_original":
            raise AttributeError(name)
        return getattr(self._original, name)

    def __eq__(self, other):
        return self is other or self._original is _patch_ops.original(other)

    def __hash__(self):
        return hash(self._original)

    def __repr__(self):
        return repr(self._original)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _public_named, self._where


@functools.cache
def cached_signature(fn):
    """inspect.signature(fn), once per function (on dispatch and refusal paths only)."""
    return inspect.signature(fn)


def python_arguments(fn, args, kwargs):
    """The arguments (args, kwargs) with which torch's Python function `fn` (most of
    torch.nn.functional) hands the call `fn(*args, **kwargs)` to `__torch_function__`: its
    parameters without a default by position, the others, defaults filled in, by keyword
    (`F.relu(x)` passes `(x,), {"inplace": False}`). As given if they do not bind."""
    try:
        bound = cached_signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    bound.apply_defaults()
    positional, named = [], {}
    for param in bound.signature.parameters.values():
        value = bound.arguments[param.name]
        if param.kind is param.VAR_POSITIONAL:
            positional.extend(value)
        elif param.kind is param.VAR_KEYWORD:
            named.update(value)
        elif param.default is param.empty:
            positional.append(value)
        else:
            named[param.name] = value
    return tuple(positional), named


def _public_named(owner, name):
    """What the public name `owner.name` holds (how a pickled wrapper is loaded)."""
    import importlib
    owner_name, _, cls = owner.partition(":")
    value = importlib.import_module(owner_name)
    return getattr(getattr(value, cls) if cls else value, name)


def _property(inner, name):
    get_name, set_name = f"torch.Tensor.{name}.__get__", f"torch.Tensor.{name}.__set__"

    def fget(self):
        if _state.off:
            return inner.fget(self)
        overloaded = _overloaded((self,))
        if overloaded or _state.modes:
            return dispatch(prop.__get__, overloaded, (self,), None, get_name)
        _state.off = True
        try:
            return inner.fget(self)
        finally:
            _state.off = False

    def fset(self, value):
        if _state.off:
            return inner.fset(self, value)
        overloaded = _overloaded((self, value))
        if overloaded or _state.modes:
            return dispatch(prop.__set__, overloaded, (self, value), None, set_name)
        _state.off = True
        try:
            return inner.fset(self, value)
        finally:
            _state.off = False

    prop = property(fget, fset if inner.fset is not None else None, inner.fdel, inner.__doc__)
    return prop


# Functions of `torch` that torch never dispatches: settings and queries, not operators.
NOT_DISPATCHED_FUNCTIONS = frozenset((
    "are_deterministic_algorithms_enabled", "can_cast", "compile", "from_dlpack", "from_numpy",
    "get_default_device", "get_default_dtype", "get_deterministic_debug_mode",
    "get_float32_matmul_precision", "get_num_interop_threads", "get_num_threads",
    "get_rng_state", "initial_seed", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
    "is_grad_enabled", "is_inference_mode_enabled", "is_storage", "is_tensor",
    "is_deterministic_algorithms_warn_only_enabled", "is_warn_always_enabled", "load",
    "manual_seed", "promote_types", "result_type", "save", "seed", "set_anomaly_enabled",
    "set_default_device", "set_default_dtype", "set_default_tensor_type",
    "set_deterministic_debug_mode", "set_float32_matmul_precision", "set_flush_denormal",
    "set_grad_enabled", "set_num_interop_threads", "set_num_threads", "set_printoptions",
    "set_rng_state", "set_warn_always", "to_dlpack", "typename", "use_deterministic_algorithms",
    "vmap"))
# torch.nn.functional's functions that do not dispatch themselves: `F.sigmoid(x)` is
# `x.sigmoid()`, which does.
_NOT_DISPATCHED_FUNCTIONAL = frozenset(("sigmoid", "tanh"))
# torch.nn.functional's functions that are torch's C++ operators, which pass
# `__torch_function__` the arguments as given; the others are Python functions in torch, which
# pass them in its form (see `python_arguments`).
_NATIVE_FUNCTIONAL = frozenset((
    "adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "bilinear", "celu_",
    "channel_shuffle", "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d",
    "conv_transpose2d", "conv_transpose3d", "cosine_similarity", "elu_", "gelu", "hardshrink",
    "hardtanh_", "leaky_relu_", "linear", "logsigmoid", "native_channel_shuffle", "one_hot",
    "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle", "prelu", "relu_",
    "rrelu_", "scaled_dot_product_attention", "selu_", "softplus", "softshrink",
    "threshold_"))
# ... and those that modes see but a subclass argument does not dispatch (torch.tensor(sub)
# is a plain Tensor).
_MODES_ONLY = frozenset(("tensor", "as_tensor", "asarray"))


class _Layer(_patch_ops.Layer):
    priority = 10       # outside forward AD's wrappers

    def wants(self, owner, name, original):
        import ember
        from ._tensor import Tensor
        from .autograd.function import Function
        if owner is Tensor:
            return name not in NOT_DISPATCHED_ATTRIBUTES
        if owner is ember:
            return name not in NOT_DISPATCHED_FUNCTIONS
        if owner.__name__ == "ember.nn.functional":
            return name not in _NOT_DISPATCHED_FUNCTIONAL
        return owner is not Function

    def wrap(self, owner, name, inner):
        import ember
        from ._tensor import Tensor
        if isinstance(inner, property):
            return _property(inner, name)
        if owner is Tensor:
            target = _OPERATOR_FUNCS.get(name)
            shown = _OPERATOR_NAMES.get(name, name)
            return _Wrapper(owner, name, inner, shown, f"Tensor.{shown}",
                            f"torch.Tensor.{target or name}", target, binary=name in _BINARY)
        if python_in_torch(owner.__name__, name):
            return _Wrapper(owner, name, inner, name, name, None, python=True)
        return _Wrapper(owner, name, inner, name, name, native_name(owner.__name__, name),
                        modes_only=owner is ember and name in _MODES_ONLY)


_layer = _Layer()


def python_in_torch(module, name):
    """Whether torch's function `name` of ember's `module` is a Python function (most of
    torch.nn.functional), which hands calls to `__torch_function__` in its own form
    (`python_arguments`) and names itself in its dispatch errors (`func.__module__`)."""
    return module == "ember.nn.functional" and name not in _NATIVE_FUNCTIONAL


def native_name(module, name):
    """How torch's dispatch errors name its C++ operator `name` of ember's `module`: after
    the C module that holds it (`torch._C._nn.linear` is `torch.nn.linear`,
    `torch._C._linalg.linalg_inv` is `torch.linalg.linalg_inv`)."""
    short = module.rpartition(".")[2]
    if module == "ember.nn.functional":
        return f"torch.nn.{name}"
    if module in ("ember.linalg", "ember.special", "ember.fft"):
        return f"torch.{short}.{short}_{name}"
    return f"{module.replace('ember', 'torch', 1)}.{name}"


_subclasses = set()     # weak references to the users' Tensor subclasses that dispatch


def note_subclass(cls):
    """Tensor.__init_subclass__: a user's subclass that dispatches turns the wrappers on, until
    it (and every other) is garbage collected; ember's own never dispatch."""
    if cls.__module__.startswith("ember."):
        _kinds[cls] = 0
    elif _kind(cls) == 1:
        _subclasses.add(weakref.ref(cls, _subclass_died))
        _state.subclasses = True
        _patch_ops.activate(_layer)


def _subclass_died(ref):
    _subclasses.discard(ref)
    _state.subclasses = bool(_subclasses)
    _maybe_retire()


def tracing_started():
    """A torch.fx trace begins: its Proxies must reach `__torch_function__` from every
    operator, so the wrappers are installed until it ends."""
    _state.traces += 1
    _patch_ops.activate(_layer)


def tracing_ended():
    _state.traces -= 1
    _maybe_retire()


def _maybe_retire():
    if not _state.modes and not _state.subclasses and not _state.traces:
        _patch_ops.deactivate(_layer)


def push_mode(mode):
    _state.modes.append(mode)
    _patch_ops.activate(_layer)


def pop_mode():
    mode = _state.modes.pop()
    _maybe_retire()
    return mode
