"""ember.jit: torch.jit's decorators and wrappers as pass-throughs, so code that scripts,
traces or annotates models runs eagerly unchanged.

ember has no TorchScript compiler: `script` and `trace` return the function or module they are
given (torch returns a ScriptFunction or ScriptModule, which prints differently, has `.graph`
and `.code`, and can be saved with `torch.jit.save`); results are the same. `save` and `load`
raise NotImplementedError, as there is no TorchScript archive to write or read; save a model's
state_dict with `ember.save` instead. As torch 2.13 does, `script`, `trace`, `fork` and `wait`
warn that they are deprecated.
"""
import typing
import warnings

__all__ = ["Final", "Future", "annotate", "export", "fork", "ignore", "is_scripting",
           "is_tracing", "load", "save", "script", "trace", "unused", "wait"]

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


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """Returns `obj` (function or module) unchanged; torch compiles it to a ScriptFunction /
    ScriptModule that computes the same results."""
    _deprecated("script")
    return obj


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None, _store_inputs=True):
    """Runs `func` (a function or module) once on `example_inputs` (a tensor or a tuple of
    arguments) and `example_kwarg_inputs`, as torch's tracer does, and returns `func`
    unchanged (torch returns the recorded ScriptFunction / ScriptModule)."""
    # NOTE: torch 2.13 warns twice per call (its wrapper and the tracer both do); so does ember.
    _deprecated("trace")
    _deprecated("trace")
    from . import Tensor, no_grad
    if isinstance(example_inputs, Tensor):
        example_inputs = (example_inputs,)
    if example_kwarg_inputs is not None:
        args, kwargs = () if example_inputs is None else tuple(example_inputs), \
            dict(example_kwarg_inputs)
    else:
        args, kwargs = tuple(example_inputs), {}    # None: torch's "'NoneType' ... iterable"
    with no_grad():
        func(*args, **kwargs)
    return func


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
