"""torch.func's refusal to write a captured tensor in place under grad, vjp, jvp, jacrev,
jacfwd and hessian (NOTE [ Captured tensors ]).

NOTE [ Captured tensors ]
Under a grad-like transform torch refuses an in-place op on a tensor that the function neither
got as a positional argument (a leaf of its pytrees) nor made itself, nor on a view of one: a
tensor it "captured" from outside, or from an outer transform ("During a grad (vjp, jvp, grad,
etc) transform, the function provided attempted to call in-place operation (aten::add_.Tensor)
that would mutate a captured Tensor. ..."). ember tells them apart so:
- each transform level, when it starts, takes the next serial number, and keeps the
  arguments its function gets (the stand-ins of the differentiated ones, the others as given);
- while any level runs, `Tensor._init` stamps every tensor made with the newest serial
  (`_tensor._stamp`; a module global tested once per tensor made, None otherwise);
- a tensor may be written at a level if it is one of the level's arguments, or was stamped at
  or after the level started (inner levels that have ended included) and is no view of a
  tensor that may not.
The check wraps the in-place methods of Tensor (and `x[i] = v`, `x += v`, ...) only while a
level runs (NOTE [ Patching the public operators ]), so other programs pay nothing for it.
Where ember is more lenient than torch: `detach()` and `.data` of a captured tensor give a
tensor made here, which may be written.
"""
import itertools

from .. import _patch_ops, _tensor
from .._tensor import Tensor
from ._pytree import tree_flatten

_serials = itertools.count(1)
_levels = []            # [(serial at the start, {id: argument})], innermost last


def enter():
    """A transform level starts."""
    serial = next(_serials)
    _levels.append((serial, {}))
    _tensor._stamp = serial
    _patch_ops.activate(_layer)


def allow(args):
    """The innermost level's function gets `args` (pytrees): it may write their tensors."""
    allowed = _levels[-1][1]
    for t in tree_flatten(args)[0]:
        if isinstance(t, Tensor):
            allowed[id(t)] = t


def leave():
    _levels.pop()
    if _levels:
        _tensor._stamp = next(_serials)     # (later tensors are newer than the inner level's)
    else:
        _tensor._stamp = None
        _patch_ops.deactivate(_layer)


def _writable(t):
    start, args = _levels[-1]
    if args.get(id(t)) is t:
        return True
    base = t._base
    if base is not None and not (args.get(id(base)) is base or
                                 vars(base).get("_made_at", 0) >= start):
        return False
    return vars(t).get("_made_at", 0) >= start


# torch's overloads of in-place ops, for a tensor or a number as their last argument
_OVERLOADS = {
    "add_": (".Tensor", ".Tensor"), "sub_": (".Tensor", ".Tensor"),
    "mul_": (".Tensor", ".Tensor"), "div_": (".Tensor", ".Tensor"),
    "fill_": (".Tensor", ".Scalar"), "masked_fill_": (".Tensor", ".Scalar"),
    "pow_": (".Tensor", ".Scalar"), "clamp_": (".Tensor", ""), "lerp_": (".Tensor", ".Scalar"),
    "scatter_": (".src", ".value"), "index_fill_": (".int_Tensor", ".int_Scalar"),
    "bernoulli_": (".Tensor", ".float"), "set_": (".source_Tensor", ""),
}
_OPERATORS = {"__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_",
              "__itruediv__": "div_", "__setitem__": "copy_"}
# Tensor methods named as in-place ops that write no tensor values (vmap's checks use it too)
NOT_WRITES = frozenset(("requires_grad_", "share_memory_", "apply_", "map_", "map2_"))


def _op_name(name, args, kwargs):
    """torch's name of the in-place op that the method `name` runs (`aten::add_.Tensor`)."""
    if name == "__setitem__":
        key = args[0] if args else None
        keys = key if isinstance(key, tuple) else (key,)
        advanced = any(isinstance(k, (Tensor, list)) for k in keys)
        return "aten::index_put_" if advanced else "aten::copy_"
    name = _OPERATORS.get(name, name)
    overloads = _OVERLOADS.get(name)
    if overloads is None:
        return f"aten::{name}"
    last = args[-1] if args else next(iter(kwargs.values()), None)
    return f"aten::{name}{overloads[0] if isinstance(last, Tensor) else overloads[1]}"


def _refusal(name, args, kwargs):
    return RuntimeError(
        f"During a grad (vjp, jvp, grad, etc) transform, the function provided attempted to "
        f"call in-place operation ({_op_name(name, args, kwargs)}) that would mutate a "
        f"captured Tensor. This is not supported; please rewrite the function being "
        f"transformed to explicitly accept the mutated Tensor(s) as inputs.")


class _Layer(_patch_ops.Layer):
    """The wrappers of Tensor's in-place methods that refuse to write a captured tensor."""

    priority = 3        # inside __torch_function__'s and vmap's wrappers

    def wants(self, owner, name, original):
        import ember
        if not callable(original) or (owner is not Tensor and owner is not ember):
            return False        # (the methods, and torch.relu_ & co.)
        return name in _OPERATORS and owner is Tensor or (
            name.endswith("_") and not name.startswith("_") and name not in NOT_WRITES)

    def wrap(self, owner, name, inner):
        def method(*args, **kwargs):
            if _levels and args and isinstance(args[0], Tensor) and not _writable(args[0]):
                raise _refusal(name, args[1:], kwargs)
            return inner(*args, **kwargs)
        method.__name__ = name
        method.__qualname__ = f"Tensor.{name}" if owner is Tensor else name
        method.__wrapped__ = inner
        return method


_layer = _Layer()
