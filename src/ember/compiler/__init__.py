"""ember.compiler: torch.compiler's API, for code written to be compiled.

ember has no compiler: it runs every program eagerly (see `ember.compile`). So the functions
here that only steer a compiler (`reset`, `allow_in_graph`, `set_stance`, ...) accept torch's
arguments, check what torch checks, and change nothing observable; the decorators return
functions that run the original code; and the queries answer as torch does outside a compiled
region (`is_compiling()` is False).
"""
import functools

import numpy as np

from . import config
from .._compile import compile  # noqa: F401 - torch.compiler.compile is torch.compile

__all__ = ["compile", "config", "assume_constant_result", "reset", "allow_in_graph",
           "substitute_in_graph", "list_backends", "disable", "set_default_backend",
           "get_default_backend", "set_stance", "set_enable_guard_collectives",
           "cudagraph_mark_step_begin", "wrap_numpy", "is_compiling", "is_dynamo_compiling",
           "is_exporting", "save_cache_artifacts", "load_cache_artifacts",
           "nested_compile_region"]

# torch's registered backend names, with the tags that `list_backends` filters on: the names
# `compile(backend=...)` is usually given (ember runs all of them eagerly).
_BACKENDS = {
    "aot_eager": "debug", "aot_eager_decomp_partition": "debug",
    "aot_eager_decomp_partition_crossref": "debug",
    "aot_eager_decomp_partition_with_mode": "debug",
    "aot_eager_default_partitioner": "debug", "aot_ts": "debug", "cudagraphs": "",
    "dynamo_accuracy_minifier_backend": "debug", "dynamo_minifier_backend": "debug",
    "eager": "debug", "eager_debug": "debug", "eager_noexcept": "debug", "inductor": "",
    "invoke_subgraph": "debug", "non_leaf_compile_error_TESTING_ONLY": "debug",
    "openxla": "", "openxla_eval": "experimental", "pre_dispatch_eager": "debug",
    "relu_accuracy_error_TESTING_ONLY": "debug", "relu_compile_error_TESTING_ONLY": "debug",
    "relu_runtime_error_TESTING_ONLY": "debug", "ts": "debug", "tvm": "",
}

_default_backend = None         # set_default_backend's record (None: "inductor")
_guard_collectives = False


def reset():
    """Forget compiled code and caches (ember keeps none)."""


def list_backends(exclude_tags=("debug", "experimental")):
    """The backend names torch registers, less those tagged with any of `exclude_tags`
    (None or (): all of them), sorted."""
    exclude = () if exclude_tags is None else tuple(exclude_tags)
    return sorted(name for name, tag in _BACKENDS.items() if not tag or tag not in exclude)


def set_default_backend(backend):
    """The backend `compile` uses when given none (None: torch's, "inductor"). Recorded only."""
    global _default_backend
    _default_backend = backend


def get_default_backend():
    return "inductor" if _default_backend is None else _default_backend


def set_enable_guard_collectives(enabled):
    """Recorded only (a distributed compiler setting); returns the previous value."""
    global _guard_collectives
    previous, _guard_collectives = _guard_collectives, enabled
    return previous


def cudagraph_mark_step_begin():
    """Mark the start of a training step for CUDA graphs (ember records no graphs)."""


def is_compiling():
    """Whether the code runs inside a compiled region: never, in ember."""
    return False


def is_dynamo_compiling():
    """Whether the code is being traced by torch's Dynamo: never, in ember."""
    return False


def is_exporting():
    """Whether the code is being traced by `torch.export`: never, in ember."""
    return False


def save_cache_artifacts():
    """The compiler's cache as bytes: None, as torch gives when nothing was compiled."""
    return None


def load_cache_artifacts(serialized_artifacts):
    """Load a compiler cache (ember has none to fill): None, as torch for unusable bytes."""
    return None


def allow_in_graph(fn):
    """Mark `fn` (or a list or tuple of functions) to be kept as one call in a compiled graph;
    returns it (a list for a list or tuple), as torch."""
    if isinstance(fn, (list, tuple)):
        return [allow_in_graph(x) for x in fn]
    if not callable(fn):
        raise AssertionError("allow_in_graph expects a callable")
    return fn


def assume_constant_result(fn):
    """Mark `fn`'s result as a constant for the compiler; returns `fn` itself."""
    try:
        fn._dynamo_marked_constant = True
    except AttributeError:
        raise AttributeError(f"'{type(fn).__name__}' object has no attribute "
                             "'_dynamo_marked_constant'") from None
    return fn


def disable(fn=None, recursive=True, *, reason=None):
    """Run `fn` without compiling it: a wrapper that calls it (a module is wrapped as
    `compile` wraps one). Without `fn`, a decorator."""
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)
    if not callable(fn):
        raise AssertionError("fn must be callable")
    from ..nn import Module
    if isinstance(fn, Module):
        from .._compile import OptimizedModule
        return OptimizedModule(fn)

    @functools.wraps(fn)
    def run_eagerly(*args, **kwargs):
        return fn(*args, **kwargs)
    return run_eagerly


def nested_compile_region(fn=None, *, options=None, max_reuse_entries=8, reuse_hash_fn=None):
    """Mark `fn` as a region compiled once and reused; here a wrapper that calls it."""
    if fn is None:
        return functools.partial(nested_compile_region, options=options,
                                 max_reuse_entries=max_reuse_entries,
                                 reuse_hash_fn=reuse_hash_fn)
    if not callable(fn):
        raise AttributeError(f"'{type(fn).__name__}' object has no attribute "
                             "'__marked_compile_region_config__'")

    def inner(*args, **kwargs):      # (torch's wrapper is a plain function of this name)
        return fn(*args, **kwargs)
    return inner


def substitute_in_graph(original_fn, *, can_constant_fold_through=False,
                        skip_signature_check=False):
    """Register a Python stand-in for `original_fn` that a compiler can trace; the function
    the decorator returns calls `original_fn`. (ember does not compare the signatures.)"""
    import inspect
    if not (inspect.isfunction(original_fn) or inspect.isbuiltin(original_fn)):
        raise TypeError(f"substitute_in_graph expects a function but got {type(original_fn)!r}")

    def decorator(traceable_fn):
        if not (inspect.isfunction(traceable_fn) or inspect.isbuiltin(traceable_fn)):
            raise TypeError("@substitute_in_graph(...) expects a function but got "
                            f"{type(traceable_fn)!r}")

        @functools.wraps(traceable_fn)
        def substituted(*args, **kwargs):
            return original_fn(*args, **kwargs)
        return substituted
    return decorator


def wrap_numpy(fn):
    """`fn`, written for NumPy arrays, called with tensors: tensor arguments (also inside lists,
    tuples and dicts) reach it as arrays, and the arrays it returns come back as tensors."""
    from .._tensor import Tensor
    from .._creation import from_numpy

    def convert(value, kind, to):
        if isinstance(value, kind):
            return to(value)
        if isinstance(value, (list, tuple)):
            return type(value)(convert(v, kind, to) for v in value)
        if isinstance(value, dict):
            return {k: convert(v, kind, to) for k, v in value.items()}
        return value

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        args, kwargs = convert((args, kwargs), Tensor, lambda t: t.numpy(force=True))
        return convert(fn(*args, **kwargs), np.ndarray, from_numpy)
    return wrapped


class set_stance:
    """Set how compiled code behaves ("default", "force_eager", "eager_on_recompile",
    "fail_on_recompile", ...): used as a call, a context manager or a decorator. ember runs
    everything eagerly, so a stance changes nothing; torch's check on `force_backend` stays."""

    def __init__(self, stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
        if force_backend is not None and stance != "default":
            raise RuntimeError("non-default stance cannot have force_backend set")
        self.stance = stance
        self.skip_guard_eval_unsafe = skip_guard_eval_unsafe
        self.force_backend = force_backend

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def with_stance(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return with_stance
