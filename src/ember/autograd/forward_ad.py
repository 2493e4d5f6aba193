"""torch.autograd.forward_ad: dual tensors, whose tangents ride along through every op.

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)
        y = f(x)
        value, jvp = forward_ad.unpack_dual(y)      # jvp = J_f(primal) @ tangent

NOTE [ Forward AD by patching the operators while a level is open ]
ember has one mechanism of differentiation, the backward tape; forward mode is built on it,
and only while a dual level is open, so that ordinary ops pay nothing for it:

- Entering the level replaces every public operator (the functions of `ember`,
  `ember.nn.functional`, `ember.linalg`, `ember.special`, `ember.fft`, the methods, operators
  and view properties of `Tensor`, and `autograd.Function.apply`) by a wrapper; leaving it puts
  the originals back (see `_patch_ops`, NOTE [ Patching the public operators ]). A wrapper given no dual tensor calls the original at once.
- Given a dual tensor, the wrapper runs the operator itself once on the real arguments (so the
  result, its views, its in-place effects, its backward graph and its errors are exactly the
  plain operator's), and once more on copies: each dual argument becomes a fresh leaf that
  requires grad, every other tensor a clone (taken before the real call, since the
  call may write into it). Tangents of the results are then the Jacobian-vector products of
  that copy graph, computed as a double vjp: with g(u) = J^T u for a dummy cotangent u that
  requires grad, J t is the vjp of g with respect to u applied to t. The random generator is
  rewound for the copy run, so that dropout draws the same mask.
- Inside a wrapper, every other wrapper steps aside (`_state.busy`): a composite operator
  (`F.linear`, `F.softmax`, a custom Function) is differentiated as one operation.
- Results written in place (`x.mul_(2)`, `a[1:3] = dual`) get the tangent of what was
  written (`out=` is refused, as torch refuses it): a tensor already carrying a tangent has
  it overwritten in place, and a view without one writes into its base's tangent (created as
  zeros), as torch keeps tangents of views as views of the base's tangent. A fresh view of a
  dual tensor gets a view of its tangent.
- A dual tensor that requires grad is copied as `x.clone() + z`, z a zero leaf, so that the
  tangent (J with respect to z) stays differentiable in reverse mode along x's graph.

Tangents live in `_tangents` (keyed by the tensor's id, with a weak reference) and are dropped
when the level is left, as torch drops them. Computing a tangent costs one more forward and two
backward passes of the operator; forward AD here is for correctness, not speed.
"""
import functools
import weakref
from typing import NamedTuple

from .. import _patch_ops

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

_current_level = -1
_tangents = {}          # id(tensor) -> (weak reference to it, its tangent)


class _State:
    busy = False        # a wrapper is running: the others call their original at once


_state = _State()


class UnpackedDualTensor(NamedTuple):
    """What `unpack_dual` returns: the primal (a view of the dual tensor) and its tangent."""

    primal: object
    tangent: object


# -- levels -----------------------------------------------------------------------------------

def enter_dual_level():
    """Open the (single) forward AD level and return it (0); ops start carrying tangents."""
    global _current_level
    if _current_level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _install()
    _current_level = 0
    return _current_level


def exit_dual_level(*, level=None):
    """Close the level: every tangent made in it is dropped."""
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    _uninstall()
    _tangents.clear()
    _current_level = level - 1


class dual_level:
    """Context manager (and decorator) entering a dual level and leaving it at the end."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)
        return wrapper


# -- dual tensors -----------------------------------------------------------------------------

def _tangent_of(t):
    entry = _tangents.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry[1]


def _set_tangent(t, tangent):
    key = id(t)
    _tangents[key] = (weakref.ref(t, lambda _ref, key=key: _forget(key, _ref)), tangent)


def _forget(key, ref):
    entry = _tangents.get(key)
    if entry is not None and entry[0] is ref:
        del _tangents[key]


def make_dual(tensor, tangent, *, level=None):
    """A view of `tensor` carrying `tangent` (kept as it is) as its forward gradient."""
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if _tangent_of(tensor) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    if tangent.shape != tensor.shape:
        raise RuntimeError(f"Trying to set a forward gradient that has a different size than "
                           f"that of the original Tensor, this is not supported. Tensor is of "
                           f"size {_dims(tensor)} while the given forward gradient is of size "
                           f"{_dims(tangent)}.")
    with _stepping_aside():
        dual = tensor.view_as(tensor)
    _set_tangent(dual, tangent)
    return dual


def _dims(t):
    return "[" + ", ".join(str(n) for n in t.shape) + "]"


def unpack_dual(tensor, *, level=None):
    """`(primal, tangent)` of `tensor`: a view of it without tangent, and its tangent (None
    when it has none). Outside a level, `(tensor, None)`."""
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    tangent = _tangent_of(tensor)
    from .._ops.views import as_view, record_view
    primal = as_view(tensor, tuple(tensor.shape), tensor.stride(), tensor.storage_offset())
    return UnpackedDualTensor(record_view(_identity_op(), tensor, primal, {}), tangent)


@functools.cache
def _identity_op():
    """The node of an unpacked primal, which torch names Identity."""
    from .._ops._op import Op

    class Identity(Op):
        node_name = "Identity"

        def name(self):
            return "torch::autograd::Identity"

        def backward(ctx, grad):
            return grad
    return Identity


class _stepping_aside:
    """Within it, the wrappers call their originals (see the module's NOTE)."""

    def __enter__(self):
        self.prev = _state.busy
        _state.busy = True

    def __exit__(self, *exc):
        _state.busy = self.prev


# -- the wrappers -----------------------------------------------------------------------------

def _is_dual(x):
    entry = _tangents.get(id(x))
    return entry is not None and entry[0]() is x


def _has_dual(args, kwargs):
    """Whether a dual tensor is among the arguments (or in a list or tuple of them)."""
    for a in (*args, *kwargs.values()):
        if _is_dual(a) or (a.__class__ is list or a.__class__ is tuple) and any(map(_is_dual, a)):
            return True
    return False


def _wrapped(fn):
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if _state.busy or not _tangents or not _has_dual(args, kwargs):
            return fn(*args, **kwargs)
        with _stepping_aside():
            return _dual_call(fn, args, kwargs)
    return op


def _dual_call(fn, args, kwargs):
    """Call `fn` and give its results the tangents they get from the dual arguments."""
    from .. import random
    from .._tensor import Tensor
    from .grad_mode import enable_grad, is_grad_enabled
    copies = {}             # id(tensor) -> (tensor, copy, version before the call)
    leaves, tangents = [], []

    def copy_of(x):
        if not isinstance(x, Tensor):
            if x.__class__ is list or x.__class__ is tuple:
                return x.__class__(copy_of(a) for a in x)
            return x
        entry = copies.get(id(x))
        if entry is None:
            tangent = _tangent_of(x)
            with enable_grad():
                # always a clone, as the op may write into its argument; one of a tensor that
                # requires grad stays linked to its graph, so that tangents can be
                # differentiated in reverse mode, as torch's can
                c = x.clone() if x._requires_grad else x.detach().clone()
                if tangent is not None:
                    if c.requires_grad:     # J with respect to x is J with respect to z at 0
                        leaf = c.detach().new_zeros(c.shape).requires_grad_()
                        c = c + leaf
                    else:
                        leaf = c.requires_grad_()
                        c = leaf.clone()    # not a leaf, so that in-place ops may write it
                    leaves.append(leaf)
                    tangents.append(tangent.to(c.dtype) if tangent.dtype != c.dtype
                                    else tangent)
                    graphs[0] = graphs[0] or tangent.requires_grad
                graphs[0] = graphs[0] or x._requires_grad
            entry = copies[id(x)] = (x, c, _version(x))
        return entry[1]

    if kwargs.get("out") is not None:
        name = getattr(fn, "__name__", "")
        raise NotImplementedError(f"Trying to use forward AD with {name}_out that does not "
                                  f"support it because it is an out= function")
    graphs = [False]        # whether tangents must be differentiable (some input has a graph)
    copy_args = copy_of(args)
    copy_kwargs = {k: copy_of(v) for k, v in kwargs.items() if k != "out"}
    rng = random.get_rng_state()
    result = fn(*args, **kwargs)        # the real call: its result and errors are the op's own
    written = [(x, c) for x, c, v in copies.values() if _version(x) != v]
    if not (written or any(_differentiable(r) for r in _leaves(result))):
        return result
    after = random.get_rng_state()
    random.set_rng_state(rng)
    try:
        with enable_grad():
            copy_result = fn(*copy_args, **copy_kwargs)
    finally:
        random.set_rng_state(after)
    inputs = {id(x) for x, _, _ in copies.values()}
    pairs = {id(r): (r, c) for r, c in zip(_leaves(result), _leaves(copy_result))
             if id(r) not in inputs}
    pairs.update((id(x), (x, c)) for x, c in written)
    pairs = [(r, c) for r, c in pairs.values() if _differentiable(r)
             and isinstance(c, Tensor) and c.requires_grad]
    if not pairs:
        return result
    products = _jvp([c for _, c in pairs], leaves, tangents, fn,
                    graphs[0] and is_grad_enabled())
    written_ids = {id(x) for x, _ in written}
    for (r, _), jt in zip(pairs, products):
        if id(r) in written_ids:
            _write_tangent(r, jt)
        else:
            view = _as_view_of_input(r, copies)
            _set_tangent(r, jt if view is None else view)
    return result


def _version(x):
    try:
        return x._version
    except RuntimeError:        # an inference tensor keeps no version
        return None


def _leaves(result):
    from .._tensor import Tensor
    if isinstance(result, Tensor):
        return [result]
    if isinstance(result, (list, tuple)):
        return [r for r in result if isinstance(r, Tensor)]
    return []


def _differentiable(r):
    from .._tensor import Tensor
    return isinstance(r, Tensor) and (r.is_floating_point() or r.is_complex())


def _jvp(outputs, leaves, tangents, fn, create_graph):
    """J t for the graph from `leaves` to `outputs`, as a double vjp (see the module's NOTE)."""
    from . import grad
    from .grad_mode import enable_grad
    with enable_grad():
        dummies = [o.detach().new_zeros(o.shape).requires_grad_() for o in outputs]
        g = grad(outputs, leaves, dummies, create_graph=True, allow_unused=True)
    live = [(gi, t) for gi, t in zip(g, tangents) if gi is not None]
    if any(not gi.requires_grad for gi, _ in live):
        return _jvp_by_rows(outputs, leaves, tangents, fn)
    if live:
        try:
            with enable_grad():
                res = grad([gi for gi, _ in live], dummies, [t for _, t in live],
                           create_graph=create_graph, allow_unused=True)
        except RuntimeError:        # a backward that refuses to be differentiated again
            return _jvp_by_rows(outputs, leaves, tangents, fn)
    else:
        res = [None] * len(outputs)
    # (cloned: the engine may hand back a tangent itself, which a later in-place op would write)
    return [o.detach().new_zeros(o.shape) if r is None else r.clone()
            for o, r in zip(outputs, res)]


_MAX_ROWS = 1 << 14


def _jvp_by_rows(outputs, leaves, tangents, fn):
    """J t one output element at a time, for an op whose backward cannot be differentiated
    again: element k of J t is <J^T e_k, t>."""
    from . import grad
    if sum(o.numel() for o in outputs) > _MAX_ROWS:
        name = getattr(fn, "__name__", repr(fn))
        raise NotImplementedError(f"forward AD through {name}: its backward is not "
                                  f"differentiable and its output is too large to take row "
                                  f"by row")

    def row_times_tangent(o, k, unit):
        e = o.detach().new_zeros(o.numel())
        e[k] = unit
        rows = grad([o], leaves, [e.reshape(o.shape)], retain_graph=True, allow_unused=True)
        # the real inner product Re(sum(conj(r) t)), as a complex number is a pair of reals
        return sum(float((r.conj() * t).sum().real if r.is_complex() else (r * t).sum())
                   for r, t in zip(rows, tangents) if r is not None)

    products = []
    for o in outputs:
        flat = o.detach().new_zeros(o.numel())
        for k in range(o.numel()):
            flat[k] = row_times_tangent(o, k, 1) if not o.is_complex() else \
                complex(row_times_tangent(o, k, 1), row_times_tangent(o, k, 1j))
        products.append(flat.reshape(o.shape))
    return products


# -- tangents of views and of tensors written in place ----------------------------------------

def _same_base(a, b):
    return (a._base if a._base is not None else a) is (b._base if b._base is not None else b)


def _view_in(tangent, owner, view):
    """The part of `owner`'s tangent that `view` (a view of the same memory) covers, as a view
    of it; None unless the tangent is laid out as `owner` is."""
    if tangent.shape != owner.shape or tangent.stride() != owner.stride() or \
            tangent.dtype != view.dtype:
        return None
    start = tangent.storage_offset() + view.storage_offset() - owner.storage_offset()
    if start < 0:
        return None
    return tangent.as_strided(view.shape, view.stride(), start)


def _as_view_of_input(r, copies):
    """A new view `r` of a dual argument gets a view of that argument's tangent."""
    if r._base is None:
        return None
    for x, _, _ in copies.values():
        tangent = _tangent_of(x)
        if tangent is not None and _same_base(r, x):
            return _view_in(tangent, x, r)
    return None


def _write_tangent(x, jt):
    """`x` was written in place: its tangent becomes `jt`, written into the tangent it had (or,
    for a view, into its base's tangent, made as zeros if needed) so that views share it."""
    from .grad_mode import no_grad
    tangent = _tangent_of(x)
    with no_grad():
        if tangent is None and x._base is not None:
            base = x._base
            tangent = _tangent_of(base)
            if tangent is None:
                tangent = base.detach().new_zeros(base.shape)
                if tangent.stride() != base.stride():
                    tangent = None
                else:
                    _set_tangent(base, tangent)
            if tangent is not None:
                tangent = _view_in(tangent, base, x)
                if tangent is not None:
                    _set_tangent(x, tangent)
        if tangent is None or tangent.shape != x.shape or tangent.dtype != jt.dtype:
            _set_tangent(x, jt)
        else:
            tangent.copy_(jt)


# -- installing the wrappers (NOTE [ Patching the public operators ]) -------------------------

# Tensor attributes that are not operators on its values (or must see the real tensor).
_NOT_WRAPPED = frozenset((
    "__init__", "__new__", "__repr__", "__str__", "__format__", "__hash__", "__len__",
    "__bool__", "__iter__", "__reversed__", "__contains__", "__index__", "__int__", "__float__",
    "__complex__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__copy__",
    "__deepcopy__", "__array__", "__array_wrap__", "__dir__", "__sizeof__", "__getattr__",
    "__setattr__", "__delattr__", "__init_subclass__", "__dlpack__", "__dlpack_device__",
    "__class_getitem__", "backward", "register_hook", "register_post_accumulate_grad_hook",
    "retain_grad", "numpy", "tolist", "item", "data_ptr", "untyped_storage", "storage",
    "size", "dim", "stride", "numel", "is_contiguous"))
_VIEW_PROPERTIES = frozenset(("T", "mT", "H", "mH", "real", "imag"))


class _Layer(_patch_ops.Layer):
    """Forward AD's wrappers: every public operator on values, and Function.apply."""

    priority = 0

    def wants(self, owner, name, original):
        from .._tensor import Tensor
        from . import function
        if owner is Tensor:
            if isinstance(original, property):
                return name in _VIEW_PROPERTIES
            return name not in _NOT_WRAPPED
        if owner is function.Function:
            return True
        return not owner.__name__.startswith("ember.autograd")

    def wrap(self, owner, name, inner):
        if isinstance(inner, property):
            return property(_wrapped(inner.fget), inner.fset, inner.fdel, inner.__doc__)
        if isinstance(inner, classmethod):          # Function.apply
            return classmethod(_custom_function(inner.__func__))
        return _wrapped(inner)


_layer = _Layer()


def _custom_function(apply):
    """Function.apply's wrapper (see `custom_apply`)."""
    @functools.wraps(apply)
    def op(cls, *args, **kwargs):
        return custom_apply(cls, args, kwargs)
    return op


def custom_apply(cls, args, kwargs):
    """Function.apply while tangents exist: torch needs a `jvp` staticmethod for forward AD
    through a custom Function, and the outputs' tangents are what it returns, given the
    context and one tangent per input (zeros for a tensor without one, None for anything
    else). `Function.apply` itself comes here too, for `fn = MyFunction.apply` taken before
    the level was opened (such a reference is not the wrapper)."""
    from .function import Function, _apply
    if _state.busy or not _tangents or not _has_dual(args, kwargs):
        return _apply(cls, args, kwargs)[0]
    if cls.jvp is Function.jvp:
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")
    with _stepping_aside():
        return _custom_jvp(cls, args, kwargs)


def _custom_jvp(cls, args, kwargs):
    from .._tensor import Tensor
    from .function import _apply
    result, ctx, inputs = _apply(cls, args, kwargs)
    tangents = []
    for a in inputs:
        if isinstance(a, Tensor):
            t = _tangent_of(a)
            tangents.append(a.detach().new_zeros(a.shape) if t is None else t)
        else:
            tangents.append(None)
    ctx._jvp_saved = tuple(getattr(ctx, "saved_for_forward", ()))
    try:
        out_tangents = cls.jvp(ctx, *tangents)     # (with grad mode as it is: as torch's, the
    finally:                                        # tangents may have a graph of their own)
        del ctx._jvp_saved
    outs = result if isinstance(result, tuple) else (result,)
    if not isinstance(out_tangents, tuple):
        out_tangents = (out_tangents,)
    for o, t in zip(outs, out_tangents):
        if isinstance(o, Tensor) and isinstance(t, Tensor) and _differentiable(o):
            _set_tangent(o, t)
    return result


def _install():
    _patch_ops.activate(_layer)


def _uninstall():
    _patch_ops.deactivate(_layer)
