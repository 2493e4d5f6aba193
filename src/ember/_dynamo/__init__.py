"""ember._dynamo: the parts of torch._dynamo that programs written for `torch.compile` call
(`torch._dynamo.reset()` between experiments, `config.cache_size_limit`, `mark_dynamic`, ...).

ember has no compiler (see `ember.compile`): these accept torch's arguments and change nothing
a program computes. The functions torch.compiler also has are ember.compiler's.
"""
from . import config, exc
from .._compile import OptimizedModule
from ..compiler import (allow_in_graph, assume_constant_result, disable, is_compiling,
                        list_backends, reset, set_stance, substitute_in_graph)

__all__ = ["OptimizedModule", "allow_in_graph", "assume_constant_result", "config", "disable",
           "exc", "explain", "graph_break", "is_compiling", "list_backends", "mark_dynamic",
           "mark_static", "maybe_mark_dynamic", "optimize", "reset", "set_stance",
           "substitute_in_graph"]


def _mark(t, index, attribute):
    """Record `index` (an int or a list/tuple of them) in the set `attribute` of tensor `t`,
    as torch does (a compiler would read it; ember only keeps it)."""
    indices = [index] if isinstance(index, int) else list(index)
    try:
        marked = getattr(t, attribute, None)
        setattr(t, attribute, (marked or set()) | set(indices))
    except AttributeError:
        raise AttributeError(f"'{type(t).__name__}' object has no attribute "
                             f"'{attribute}'") from None


def mark_dynamic(t, index, *, hint_override=None, min=None, max=None, specialize_on=None):
    """Mark dimension(s) `index` of `t` as varying between calls (no recompiles in torch)."""
    _mark(t, index, "_dynamo_dynamic_indices")


def maybe_mark_dynamic(t, index):
    """As `mark_dynamic`, as a hint only."""
    _mark(t, index, "_dynamo_weak_dynamic_indices")


def mark_static(t, index=None):
    """Mark dimension(s) `index` of `t` (None: the whole tensor) as fixed between calls."""
    if index is None:
        try:
            t._dynamo_static_input_type = "unguarded"
        except AttributeError:
            raise AttributeError(f"'{type(t).__name__}' object has no attribute "
                                 "'_dynamo_static_input_type'") from None
        return
    _mark(t, index, "_dynamo_static_indices")


def graph_break():
    """End the compiled graph here (ember runs eagerly: nothing to end)."""


def optimize(backend="inductor", *, nopython=False, **kwargs):
    """torch's older spelling of `compile(backend=...)`: a decorator that compiles what it is
    given (a function or a module), after torch's check of the backend's name."""
    from .._compile import compile
    compile(lambda: None, backend=backend)          # (refuses an unknown name now, as torch)
    return lambda fn: compile(fn, backend=backend, fullgraph=nopython)


def explain(f, *extra_args, **extra_kwargs):
    """torch's report of the graphs and graph breaks compiling `f` makes: ember compiles
    nothing, so there is nothing to report (NotImplementedError)."""
    raise NotImplementedError("ember has no compiler: torch._dynamo.explain has no graphs or "
                              "graph breaks to report (ember runs compiled code eagerly).")
