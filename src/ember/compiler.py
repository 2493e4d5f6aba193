"""`torch.compiler`: the compiler's public switches, for code that asks about compilation.

ember runs everything eagerly, so nothing is ever being compiled, traced or exported:
`is_compiling()` is False, `disable` and `allow_in_graph` hand functions back to run as they
are, and `compile` is `ember.compile` (which wraps without changing results).
"""
import contextlib
import functools

from ._compile import compile  # noqa: F401 - torch.compiler.compile is torch.compile

__all__ = ["compile", "reset", "allow_in_graph", "assume_constant_result", "disable",
           "set_stance", "cudagraph_mark_step_begin", "is_compiling", "is_dynamo_compiling",
           "is_exporting", "list_backends"]


def is_compiling():
    """Whether the caller runs inside a compiled graph: never, in ember."""
    return False


def is_dynamo_compiling():
    return False


def is_exporting():
    return False


def reset():
    """Clears the compiler's caches; ember keeps none."""


def cudagraph_mark_step_begin():
    """Marks a new iteration for CUDA graphs; ember records none."""


def allow_in_graph(fn):
    """Marks `fn` to be kept whole in a graph; returned unchanged."""
    return fn


def assume_constant_result(fn):
    fn._dynamo_marked_constant = True
    return fn


def disable(fn=None, recursive=True, *, reason=None):
    """Runs `fn` without compiling it: in ember, `fn` itself (also as `@disable(...)`)."""
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)
    return fn


def list_backends(exclude_tags=("debug", "experimental")):
    """torch's backends listed by default (ember runs every one eagerly)."""
    return ["cudagraphs", "inductor", "openxla", "tvm"]


class set_stance(contextlib.ContextDecorator):
    """How compiled code should run from now on (a context manager or decorator as well);
    ember records the stance, which changes nothing since it always runs eagerly."""

    def __init__(self, stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
        self.stance = stance

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
