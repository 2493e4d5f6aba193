"""ember.jit: torch.jit's tracer (`trace`, `trace_module`), its archives (`save`, `load`) and
its decorators and helpers for eager code.

`trace` runs an example, records the tensor operations it performs and returns a ScriptModule /
ScriptFunction that replays them for new inputs (`_trace`, `_recorder`, `_graph`): Python
control flow is frozen as the example took it, as in torch; parameters stay the original's.
`save` and `load` write and read ember's own archive (`_archive`), not torch's TorchScript.
ember has no TorchScript compiler: `script` returns the function or module it is given, marked
so that it counts as a ScriptFunction / ScriptModule (torch compiles it; results are the same).
As torch 2.13 does, `script`, `trace`, `fork` and `wait` warn that they are deprecated.
"""
import builtins
import contextlib
import functools
import typing

from ._archive import load, save
from ._modules import MARK as _MARK
from ._modules import (RecursiveScriptModule, ScriptFunction, ScriptModule,
                       TopLevelTracedModule, TracedModule)
from ._trace import TracerWarning, TracingCheckError, trace, trace_module
from .. import _warn

__all__ = ["Attribute", "CompilationUnit", "Error", "Final", "Future", "RecursiveScriptModule",
           "ScriptFunction", "ScriptModule", "TopLevelTracedModule", "TracedModule",
           "TracerWarning", "TracingCheckError", "annotate", "enable_onednn_fusion", "export",
           "export_opnames", "fork", "freeze", "ignore", "interface", "is_scripting",
           "is_tracing", "isinstance", "load", "onednn_fusion_enabled",
           "optimize_for_inference", "optimized_execution", "save", "script",
           "script_if_tracing", "script_method", "set_fusion_strategy", "strict_fusion",
           "trace", "trace_module", "unused", "wait"]

Final = typing.Final

# torch's FunctionModifiers: the tags its decorators leave on a function.
_UNUSED = "unused (ignored and replaced with raising of an exception)"
_IGNORE = "ignore (leave as a call to Python, cannot be torch.jit.save'd)"
_EXPORT = "export (compile this function even if nothing calls it)"


def _deprecated(name, instead="Please switch to `torch.compile` or `torch.export`."):
    _warn.warn(f"`torch.jit.{name}` is deprecated. {instead}", DeprecationWarning,
               stacklevel=3)


def is_scripting():
    """True inside TorchScript-compiled code; ember never compiles, so always False."""
    return False


def is_tracing():
    """True while `trace` records its example."""
    from ._recorder import Recorder
    return Recorder.active is not None


def annotate(the_type, the_value):
    """A type hint for the TorchScript compiler: returns `the_value`."""
    return the_value


def _mark(obj):
    """Mark what `script` returns (itself) as a ScriptModule / ScriptFunction."""
    from ..nn import Module
    kind = "module" if builtins.isinstance(obj, Module) else "function"
    try:
        object.__setattr__(obj, _MARK, kind)
    except (AttributeError, TypeError):     # a builtin or a bound method: nothing to mark
        pass
    return obj


# attributes only TorchScript modules have: reading one on a scripted module says why it is not
# there (see nn.Module.__getattr__); `save` and `original_name` it has
_SCRIPT_ONLY = frozenset({"code", "code_with_constants", "graph", "inlined_graph",
                          "save_to_buffer", "_c"})


def _script_only_attribute(module, name):
    """TorchScript-only attribute `name` of a scripted `module` (which is itself, not compiled):
    its `save` (`jit.save(module, f)`) and `original_name`, an AttributeError that says why for
    the others (`.code`, `.graph`), or None where the module was not scripted or the name is
    not one."""
    if module.__dict__.get(_MARK) != "module":
        return None
    if name == "save":
        from ._archive import write
        return functools.partial(write, module)
    if name == "original_name":
        return type(module).__name__
    if name not in _SCRIPT_ONLY:
        return None
    raise AttributeError(f"'{type(module).__name__}' object has no attribute '{name}': ember "
                         f"has no TorchScript; ember.jit.script returns the module itself, "
                         f"which runs eagerly and has no TorchScript code or graph (ember.jit."
                         f"trace records one)")


def script_method(fn):
    """A method of a ScriptModule subclass to compile: returned unchanged."""
    return fn


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """Returns `obj` (function or module) unchanged and marked as scripted; torch compiles it
    to a ScriptFunction / ScriptModule that computes the same results."""
    _deprecated("script")
    return _mark(obj)


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    """torch inlines a scripted module's parameters and attributes as constants; ember returns
    `mod` (it must be scripted or traced, and in eval mode, as torch requires)."""
    if not builtins.isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use "
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. "
                           "Please call .eval() on your module before freezing.")
    return mod


def optimize_for_inference(mod, other_methods=None):
    """torch freezes a scripted module and rewrites it for inference; ember switches it to eval
    mode and returns it (it must be scripted or traced)."""
    if not builtins.isinstance(mod, ScriptModule):
        raise RuntimeError("optimize_for_inference expects a ScriptModule as input. Please use "
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")
    return mod.eval()


def ignore(drop=False, **kwargs):
    """Leave a function to Python when scripting: returns it unchanged (as a decorator with or
    without arguments), tagged as torch tags it."""
    if callable(drop):
        drop._torchscript_modifier = _IGNORE
        return drop
    if not builtins.isinstance(drop, bool):
        raise RuntimeError(f"Argument to @torch.jit.ignore must be a bool or a function but "
                           f"got {drop}")
    drop_on_export = kwargs.pop("drop_on_export", None)
    if drop_on_export:
        _warn.warn("ignore(drop_on_export=True) has been deprecated. TorchScript will now "
                   "drop the function call on compilation. Use torch.jit.unused now. {}",
                   FutureWarning, stacklevel=2)
        drop = drop_on_export
    elif drop:
        _warn.warn("ignore(True) has been deprecated. TorchScript will now drop the "
                   "function call on compilation. Use torch.jit.unused now. {}",
                   FutureWarning, stacklevel=2)

    def decorator(fn):
        fn._torchscript_modifier = _UNUSED if drop else _IGNORE
        return fn
    return decorator


def unused(fn):
    """Skip a function (or property) when scripting: returns it unchanged, tagged."""
    if builtins.isinstance(fn, property):
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


# -- the rest of torch.jit's eager API ----------------------------------------------------------

class Attribute(typing.NamedTuple):
    """A value with its TorchScript type, for a ScriptModule's attribute: in eager code, the
    pair itself (as torch's)."""
    value: typing.Any
    type: typing.Any


class Error(Exception):
    """The exception TorchScript code raises (never raised by ember, which runs no script)."""


def interface(obj):
    """Mark a class or module as a TorchScript interface: returned unchanged."""
    _deprecated("interface", "Please use `torch.compile` instead.")
    return obj


def script_if_tracing(fn):
    """`fn`, scripted when called while tracing; ember never traces, so it just runs."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


def _contained(target):
    """What a parameterized container type holds, or torch's error for a bare one."""
    args = typing.get_args(target)
    if not args:
        name = getattr(target, "_name", None) or target.__name__
        if name in ("Dict", "dict"):
            raise RuntimeError(f"Attempted to use {name} without contained types. Please add "
                               f"contained type, e.g. {name}[int, int]")
        raise RuntimeError(f"Attempted to use {name} without a contained type. Please add a "
                           f"contained type, e.g. {name}[int]")
    return args


def _refines(obj, target_type):
    """torch.jit.isinstance (this module's other code calls the builtin as builtins.isinstance):
    TorchScript's refinement of containers, run on the value: `obj` is a `target_type`,
    where List[T], Dict[K, V], Tuple[...], Optional[T] and Union[...] are checked element by
    element (an empty container matches whatever it would hold, with torch's warning)."""
    origin = typing.get_origin(target_type)
    if target_type in (list, dict, tuple, typing.List, typing.Dict, typing.Tuple,
                       typing.Optional):
        _contained(target_type)
    if origin in (list, dict, tuple) and builtins.isinstance(obj, origin) and not obj:
        _warn.warn("The inner type of a container is lost when calling torch.jit.isinstance "
                   "in eager mode. For example, List[int] would become list and therefore "
                   "falsely return True for List[float] or List[str].", stacklevel=2)
    if origin is list:
        item, = _contained(target_type)
        return builtins.isinstance(obj, list) and all(_refines(x, item) for x in obj)
    if origin is dict:
        key, value = _contained(target_type)
        return builtins.isinstance(obj, dict) and all(
            _refines(k, key) and _refines(v, value) for k, v in obj.items())
    if origin is tuple:
        items = _contained(target_type)
        return builtins.isinstance(obj, tuple) and len(obj) == len(items) and all(
            _refines(x, t) for x, t in zip(obj, items))
    if origin is typing.Union:
        return any(_refines(obj, t) for t in typing.get_args(target_type))
    if target_type is None:
        return obj is None
    return builtins.isinstance(obj, target_type)


def isinstance(obj, target_type):
    """TorchScript's refinement of containers, run on the value (see `_refines`)."""
    return _refines(obj, target_type)


class strict_fusion:
    """Check that a scripted block fuses completely; outside TorchScript (always, in ember)
    torch only warns."""

    def __init__(self):
        _warn.warn("Only works in script mode", stacklevel=2)

    def __enter__(self):
        pass

    def __exit__(self, type, value, tb):
        pass


@contextlib.contextmanager
def optimized_execution(should_optimize):
    """Turn TorchScript's graph optimizations on or off in a block (nothing to turn here)."""
    yield


_fusion_strategy = [("STATIC", 2), ("DYNAMIC", 10)]
_onednn_fusion = False


def set_fusion_strategy(strategy):
    """TorchScript's fuser specializations (recorded only); returns the previous list."""
    global _fusion_strategy
    _deprecated("set_fusion_strategy", "Please use `torch.compile` instead.")
    for kind, _ in strategy:
        if kind not in ("STATIC", "DYNAMIC"):
            raise ValueError(f"FusionBehavior only supported 'STATIC' or 'DYNAMIC', got: {kind}")
    previous, _fusion_strategy = _fusion_strategy, [tuple(x) for x in strategy]
    return previous


def enable_onednn_fusion(enabled):
    """TorchScript's oneDNN fusion switch (recorded only)."""
    global _onednn_fusion
    _onednn_fusion = bool(enabled)


def onednn_fusion_enabled():
    return _onednn_fusion


class CompilationUnit:
    """TorchScript source compiled into functions: ember has no TorchScript compiler."""

    def __init__(self, lang=None, _frames_up=0):
        raise NotImplementedError("ember has no TorchScript: jit.CompilationUnit cannot compile "
                                  "TorchScript source; define the functions in Python instead.")


def export_opnames(m):
    """The operators a scripted module calls: ember has no TorchScript graph to list them from."""
    raise NotImplementedError("ember has no TorchScript: jit.export_opnames has no graph to "
                              "read the operator names from.")
