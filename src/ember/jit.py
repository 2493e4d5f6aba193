"""ember.jit: torch.jit's decorators and wrappers as pass-throughs, so code that scripts,
traces or annotates models runs eagerly unchanged.

ember has no TorchScript compiler: `script` and `trace` return the function or module they are
given (torch returns a ScriptFunction or ScriptModule, which prints differently, has `.graph`
and `.code`, and can be saved with `torch.jit.save`); results are the same. `save` and `load`
raise NotImplementedError, as there is no TorchScript archive to write or read; save a model's
state_dict with `ember.save` instead. As torch 2.13 does, `script`, `trace`, `fork` and `wait`
warn that they are deprecated.

What they return is marked as scripted, so that `isinstance(m, jit.ScriptModule)` and
`jit.freeze` / `jit.optimize_for_inference` accept it, and reading a TorchScript-only attribute
(`.code`, `.graph`, `.save`, ...) of such a module raises an AttributeError that says why. While
`trace` runs its example, user code that turns a tensor into a Python value (`if t.sum() > 0:`,
`.item()`, `int(t)`, ...) gets torch's TracerWarning: torch's trace would freeze that value
(and the branch taken), while ember's traced module still runs that Python code on each call.
"""
import contextlib
import sys
import typing
import warnings

__all__ = ["Final", "Future", "ScriptFunction", "ScriptModule", "TracerWarning", "annotate",
           "export", "fork", "freeze", "ignore", "is_scripting", "is_tracing", "load",
           "optimize_for_inference", "save", "script", "script_method", "trace",
           "trace_module", "unused", "wait"]

Final = typing.Final

# torch's FunctionModifiers: the tags its decorators leave on a function.
_UNUSED = "unused (ignored and replaced with raising of an exception)"
_IGNORE = "ignore (leave as a call to Python, cannot be torch.jit.save'd)"
_EXPORT = "export (compile this function even if nothing calls it)"
_NO_TORCHSCRIPT = "ember has no TorchScript: {} cannot write or read TorchScript archives. " \
                  "Save the model's state_dict with ember.save and load it with ember.load."


def _deprecated(name, instead="Please switch to `torch.compile` or `torch.export`."):
    warnings.warn(f"`torch.jit.{name}` is deprecated. {instead}", DeprecationWarning,
                  stacklevel=3)


def is_scripting():
    """True inside TorchScript-compiled code; ember never compiles, so always False."""
    return False


def is_tracing():
    """True while torch's tracer records; ember records nothing, so always False (also
    inside `trace`)."""
    return False


def annotate(the_type, the_value):
    """A type hint for the TorchScript compiler: returns `the_value`."""
    return the_value


# What script and trace leave on the module or function they return (see the module's doc).
_MARK = "_ember_jit"


def _mark(obj):
    from .nn import Module
    kind = "module" if isinstance(obj, Module) else "function"
    try:
        object.__setattr__(obj, _MARK, kind)
    except (AttributeError, TypeError):     # a builtin or a bound method: nothing to mark
        pass
    return obj


class _MarkedType(type):
    """isinstance(x, cls) also holds for what script/trace marked as cls's kind."""

    def __instancecheck__(cls, obj):
        return type.__instancecheck__(cls, obj) or getattr(obj, _MARK, None) == cls._kind


def _module_base():
    from .nn import Module
    return Module


class ScriptModule(_module_base(), metaclass=_MarkedType):
    """torch's compiled module type. ember compiles nothing: a module that `script` or `trace`
    returned counts as one; subclassing it (torch's older API, with `script_method`) gives a
    plain module."""
    _kind = "module"


class ScriptFunction(metaclass=_MarkedType):
    """torch's compiled function type; a function that `script` or `trace` returned counts as
    one."""
    _kind = "function"


# attributes only TorchScript modules have: reading one on a scripted module says why it is not
# there (see nn.Module.__getattr__)
_SCRIPT_ONLY = frozenset({"code", "code_with_constants", "graph", "inlined_graph",
                          "original_name", "save", "save_to_buffer", "_c"})


def _script_only_error(module, name):
    """The AttributeError for TorchScript-only attribute `name` of a scripted `module`, or None
    where the module was not scripted or the name is not one."""
    if name not in _SCRIPT_ONLY or module.__dict__.get(_MARK) != "module":
        return None
    return AttributeError(f"'{type(module).__name__}' object has no attribute '{name}': ember "
                          f"has no TorchScript; ember.jit.script and ember.jit.trace return the "
                          f"module itself, which runs eagerly and has no TorchScript code, graph "
                          f"or archive (save its state_dict with ember.save instead)")


def script_method(fn):
    """A method of a ScriptModule subclass to compile: returned unchanged."""
    return fn


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """Returns `obj` (function or module) unchanged and marked as scripted; torch compiles it
    to a ScriptFunction / ScriptModule that computes the same results."""
    _deprecated("script")
    return _mark(obj)


class TracerWarning(Warning):
    """What `trace` warns of: a value its record cannot follow."""

    @staticmethod
    def ignore_lib_warnings():
        """Hide tracer warnings raised inside the library (users' own code still warns)."""
        warnings.filterwarnings("ignore", category=TracerWarning, module="ember.(?!jit)")


# Tensor methods that hand a tensor's data to Python, and torch's words for what they make.
_CONVERSIONS = {"__bool__": "a Python boolean", "item": "a Python number",
                "__int__": "a Python integer", "__float__": "a Python float",
                "tolist": "a Python list", "numpy": "a NumPy array"}


def _warning_method(original, what):
    def method(self, *args, **kwargs):
        caller = sys._getframe(1).f_globals.get("__name__") or ""
        if caller != "ember" and not caller.startswith("ember."):     # (ember's own: silent)
            warnings.warn(f"Converting a tensor to {what} might cause the trace to be "
                          f"incorrect. We can't record the data flow of Python values, so this "
                          f"value will be treated as a constant in the future. This means that "
                          f"the trace might not generalize to other inputs!", TracerWarning,
                          stacklevel=2)
        return original(self, *args, **kwargs)
    return method


@contextlib.contextmanager
def _warning_on_python_values():
    """While tracing: the conversions in _CONVERSIONS warn, as torch's tracer does. (The
    methods are swapped only for the traced call, so that no other call pays for a check.)"""
    from ._tensor import Tensor
    own = {name: Tensor.__dict__.get(name) for name in _CONVERSIONS}
    for name, what in _CONVERSIONS.items():
        setattr(Tensor, name, _warning_method(getattr(Tensor, name), what))
    try:
        yield
    finally:
        for name, original in own.items():
            if original is None:
                delattr(Tensor, name)
            else:
                setattr(Tensor, name, original)


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None, _store_inputs=True):
    """Runs `func` (a function or module) once on `example_inputs` (a tensor or a tuple of
    arguments) and `example_kwarg_inputs`, as torch's tracer does, and returns `func`
    unchanged (torch returns the recorded ScriptFunction / ScriptModule)."""
    # NOTE: torch 2.13 warns twice per call (its wrapper and the tracer both do; a module's
    # tracer is trace_module's, which warns twice under that name); so does ember.
    from . import Tensor, no_grad
    from .nn import Module
    _deprecated("trace")
    if isinstance(func, Module):
        _deprecated("trace_method")
        _deprecated("trace_method")
    else:
        _deprecated("trace")
    if isinstance(example_inputs, Tensor):
        example_inputs = (example_inputs,)
    if example_kwarg_inputs is not None:
        args, kwargs = () if example_inputs is None else tuple(example_inputs), \
            dict(example_kwarg_inputs)
    else:
        args, kwargs = tuple(example_inputs), {}    # None: torch's "'NoneType' ... iterable"
    with no_grad(), _warning_on_python_values():
        func(*args, **kwargs)
    return _mark(func)


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None,
                 check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
                 _compilation_unit=None, example_inputs_is_kwarg=False, _store_inputs=True):
    """Runs each method of module `mod` named in dict `inputs` on its example (a tensor, a
    tuple of arguments, or with `example_inputs_is_kwarg` a dict of keyword arguments) as
    `trace` does, and returns `mod`, marked as traced."""
    # NOTE: torch 2.13 warns under this name, twice per call.
    _deprecated("trace_method")
    _deprecated("trace_method")
    from . import Tensor, no_grad
    from .nn import Module
    if not isinstance(mod, Module):
        raise AttributeError("expected torch.nn.Module as the first argument")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    for name, example in inputs.items():
        method = mod if name == "forward" else getattr(mod, name)
        if example_inputs_is_kwarg:
            args, kwargs = (), dict(example)
        else:
            args, kwargs = ((example,) if isinstance(example, Tensor) else tuple(example)), {}
        with no_grad(), _warning_on_python_values():
            method(*args, **kwargs)
    return _mark(mod)


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    """torch inlines a scripted module's parameters and attributes as constants; ember returns
    `mod` (it must be scripted or traced, and in eval mode, as torch requires)."""
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use "
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. "
                           "Please call .eval() on your module before freezing.")
    return mod


def optimize_for_inference(mod, other_methods=None):
    """torch freezes a scripted module and rewrites it for inference; ember switches it to eval
    mode and returns it (it must be scripted or traced)."""
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("optimize_for_inference expects a ScriptModule as input. Please use "
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")
    return mod.eval()


def ignore(drop=False, **kwargs):
    """Leave a function to Python when scripting: returns it unchanged (as a decorator with or
    without arguments), tagged as torch tags it."""
    if callable(drop):
        drop._torchscript_modifier = _IGNORE
        return drop
    if not isinstance(drop, bool):
        raise RuntimeError(f"Argument to @torch.jit.ignore must be a bool or a function but "
                           f"got {drop}")
    drop_on_export = kwargs.pop("drop_on_export", None)
    if drop_on_export:
        warnings.warn("ignore(drop_on_export=True) has been deprecated. TorchScript will now "
                      "drop the function call on compilation. Use torch.jit.unused now. {}",
                      FutureWarning, stacklevel=2)
        drop = drop_on_export
    elif drop:
        warnings.warn("ignore(True) has been deprecated. TorchScript will now drop the "
                      "function call on compilation. Use torch.jit.unused now. {}",
                      FutureWarning, stacklevel=2)

    def decorator(fn):
        fn._torchscript_modifier = _UNUSED if drop else _IGNORE
        return fn
    return decorator


def unused(fn):
    """Skip a function (or property) when scripting: returns it unchanged, tagged."""
    if isinstance(fn, property):
        fn.fget._torchscript_modifier = _UNUSED
        if fn.fset:
            fn.fset._torchscript_modifier = _UNUSED
        return fn
    fn._torchscript_modifier = _UNUSED
    return fn


def export(fn):
    """Compile a method even if forward does not call it: returns it unchanged, tagged."""
    fn._torchscript_modifier = _EXPORT
    return fn


class Future:
    """torch.Future for `fork`: the call already ran, so it is always done."""

    def __init__(self, value):
        self._value = value

    def done(self):
        return True

    def wait(self):
        return self._value

    def value(self):
        return self._value


def fork(func, *args, **kwargs):
    """Run `func(*args, **kwargs)` now (torch runs it now too outside TorchScript) and return a
    Future holding the result; an exception propagates from `fork` itself."""
    _deprecated("fork", "Please use `torch.compile` instead.")
    return Future(func(*args, **kwargs))


def wait(future):
    """The result of a `fork`."""
    _deprecated("wait", "Please use `torch.compile` instead.")
    return future.wait()


def save(m, f, _extra_files=None):
    """Not available: ember has no TorchScript (NotImplementedError)."""
    raise NotImplementedError(_NO_TORCHSCRIPT.format("ember.jit.save"))


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """Not available: ember has no TorchScript (NotImplementedError)."""
    raise NotImplementedError(_NO_TORCHSCRIPT.format("ember.jit.load"))
