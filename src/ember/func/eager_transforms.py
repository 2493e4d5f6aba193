"""grad, grad_and_value, vjp, jvp, linearize, jacrev, jacfwd, hessian: torch.func's transforms,
built on ember.autograd.

NOTE [ Transform levels on one tape ]
torch.func gives each transform its own level; ember has one autograd tape, so a transform
runs `func` on stand-ins for the differentiated inputs: a fresh leaf (`x.detach()
.requires_grad_()`) when `x` is plain, or a view of `x` when `x` already requires grad (an
outer transform, or the user's own autograd, is watching it). Gradients are then taken with
`create_graph=True` exactly when something outside may differentiate them again (an input
requires grad, or this transform runs inside another one), so nested transforms
(`grad(grad(f))`, `jacfwd(jacrev(f))`) compose, and a plain call returns plain tensors.
Forward mode (jvp, jacfwd) is computed as reverse-over-reverse ("double vjp"): with
g(u) = J^T u, the jvp J t is the vjp of g with respect to u applied to t.
"""
import contextlib
import functools

from .._tensor import Tensor
from ..autograd import grad as _autograd_grad
from ..autograd.grad_mode import enable_grad
from ..autograd.function import _Transforms
from . import _captures
from ._pytree import pprint, spec_repr, tree_flatten, tree_unflatten

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd", "hessian"]

_depth = [0]        # transforms running now (see NOTE [ Transform levels on one tape ])


@contextlib.contextmanager
def _level(forward=False, batched=False):
    """One transform running: `forward` for forward-mode ones, `batched` for those torch
    builds on vmap (jacfwd). autograd.Function reads these (`function._Transforms`); the
    tensors it makes may be written in place, those from outside may not (NOTE [ Captured
    tensors ])."""
    _captures.enter()
    _depth[0] += 1
    T = _Transforms
    T.active += 1
    T.forward += forward
    if batched:
        T.vmaps.append(("error", ()))
    try:
        with enable_grad():
            yield
    finally:
        _depth[0] -= 1
        T.active -= 1
        T.forward -= forward
        if batched:
            T.vmaps.pop()
        _captures.leave()


def _stand_in(x):
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if x.requires_grad:
        return x.view_as(x)
    return x.detach().requires_grad_()


def _watched(*trees):
    """Whether gradients computed now may be differentiated again (see the NOTE)."""
    if _depth[0] > 1:
        return True
    leaves, _ = tree_flatten(trees)
    return any(isinstance(t, Tensor) and t.requires_grad for t in leaves)


def _reaches_outside(outputs, stand):
    """Whether the graph of `outputs` reaches a tensor that requires grad other than the
    stand-ins `stand`: a parameter `func` closes over (torch.func's results stay on the
    user's tape for those, so that a loss made of them trains the parameters)."""
    from ..autograd.graph import AccumulateGrad
    ours = {id(x) for x in stand}
    seen = set()
    todo = []
    for o in outputs:
        if not isinstance(o, Tensor) or not o.requires_grad:
            continue
        if o.grad_fn is None:
            if id(o) not in ours:
                return True
            continue
        todo.append(o.grad_fn)
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.__class__ is AccumulateGrad:
            leaf = node.variable
            if leaf is not None and id(leaf) not in ours:
                return True
            continue
        todo.extend(n for n, _ in node.next_functions if n is not None)
    return False


def _release(tree, keep_graph):
    if keep_graph:
        return tree
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([t.detach() if isinstance(t, Tensor) else t for t in leaves], spec)


def _vjp(outputs, inputs, cotangents, create_graph):
    """Gradients of `outputs` (weighted by `cotangents`) for each of `inputs`; zeros for an
    input the outputs do not depend on, as torch.func gives."""
    pairs = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    if not pairs:
        grads = [None] * len(inputs)
    else:
        grads = _autograd_grad([o for o, _ in pairs], inputs, [c for _, c in pairs],
                               retain_graph=True, create_graph=create_graph,
                               allow_unused=True)
    return [x.new_zeros(x.shape) if g is None else g for x, g in zip(inputs, grads)]


def _check_argnums(argnums, args):
    if isinstance(argnums, int):
        if not -len(args) <= argnums < len(args):
            raise RuntimeError(f"Got argnum={argnums}, but only {len(args)} positional inputs")
        return
    if not isinstance(argnums, tuple):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    for a in argnums:
        if not isinstance(a, int):
            raise RuntimeError(f"argnum must be int, got: {type(a)}")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    for a in argnums:
        _check_argnums(a, args)


def _differentiable(args, argnums):
    """(stand-in args, the stand-ins' leaves, their spec) for the positions in `argnums`; the
    function may write the other args in place (NOTE [ Captured tensors ])."""
    _check_argnums(argnums, args)
    chosen = argnums if isinstance(argnums, int) else tuple(argnums)
    picked = args[chosen] if isinstance(chosen, int) else tuple(args[a] for a in chosen)
    leaves, spec = tree_flatten(picked)
    stand = [_stand_in(x) for x in leaves]
    new = tree_unflatten(stand, spec)
    args = list(args)
    if isinstance(chosen, int):
        args[chosen] = new
    else:
        for a, v in zip(chosen, new):
            args[a] = v
    _captures.allow(args)
    return tuple(args), stand, spec


def _check_aux(aux):
    for t in tree_flatten(aux)[0]:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(t)}")


def _split_aux(output, has_aux, api):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if "
                           f"has_aux is True")
    _check_aux(output[1])
    return output


def grad_and_value(func, argnums=0, has_aux=False):
    """`func`'s gradient with respect to the positional arguments `argnums`, and its value.

    `func` must return a scalar tensor (or `(scalar, aux)` with `has_aux=True`); the gradient
    has the structure of the chosen arguments (a tensor, a tuple, a dict of tensors, ...).

        >>> g, v = grad_and_value(lambda x: (x ** 2).sum())(ember.tensor([1., 2.]))
        >>> g, v
        (tensor([2., 4.]), tensor(5.))
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _level():
            new_args, stand, spec = _differentiable(args, argnums)
            keep = _watched(args, kwargs)
            output = func(*new_args, **kwargs)
            api = "grad_and_value(f)(*args)"
            output, aux = _split_aux(output, has_aux, api)
            if not isinstance(output, Tensor):
                raise RuntimeError(f"{api}: Expected f(*args) to return a Tensor, got "
                                   f"{type(output)}")
            if output.dim() != 0:
                raise RuntimeError(f"{api}: Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.dim()} dims. Maybe you wanted to use "
                                   f"the vjp or jacrev APIs instead?")
            keep = keep or _reaches_outside([output], stand)
            if output.requires_grad and output.is_complex():
                # torch seeds the backward pass as autograd.grad would, which refuses this
                raise RuntimeError(f"grad can be implicitly created only for real scalar "
                                   f"outputs but got {output.dtype}")
            grads = _vjp([output], stand, [output.new_ones(())], keep)
        grads = tree_unflatten(grads, spec)
        value = _release(output, keep)
        if has_aux:
            return grads, (value, _release(aux, keep))
        return grads, value
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """`func`'s gradient with respect to the positional arguments `argnums` (see
    `grad_and_value`); with `has_aux=True`, returns `(gradient, aux)`.

        >>> grad(lambda x: x.sin().sum())(ember.tensor([0.]))
        tensor([1.])
    """
    inner = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = inner(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


def _only_tensors(output, api):
    leaves, spec = tree_flatten(output)
    for t in leaves:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got "
                               f"unsupported type {type(t)}")
    if api.startswith("vjp"):       # (reverse mode: an integer output has no cotangent)
        for t in leaves:
            if not (t.is_floating_point() or t.is_complex()):
                raise RuntimeError(f"vjp(f, ...): All outputs of f must be floating-point or "
                                   f"complex Tensors, got Tensor with dtype {t.dtype}")
    return leaves, spec


def vjp(func, *primals, has_aux=False):
    """`(func(*primals), vjp_fn)`, where `vjp_fn(cotangents)` gives the vector-Jacobian
    product for each primal (a tuple, one entry per primal). `vjp_fn` may be called again."""
    with _level():
        keep = _watched(primals)
        leaves, in_spec = tree_flatten(primals)
        stand = [_stand_in(x) for x in leaves]
        output = func(*tree_unflatten(stand, in_spec))
        output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
        out_leaves, out_spec = _only_tensors(output, "vjp(f, *primals)")
        keep = keep or _reaches_outside(out_leaves, stand)

    def vjp_fn(cotangents, *, retain_graph=True, create_graph=None):
        ct_leaves, ct_spec = tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as "
                               f"pytree structure of outputs to the function. cotangents: "
                               f"{pprint(ct_spec)}, primal output: {pprint(out_spec)}")
        with _level():
            cg = keep or _watched(cotangents) if create_graph is None else create_graph
            grads = _vjp(out_leaves, stand, ct_leaves, cg)
        return tree_unflatten(grads, in_spec)

    result = (_release(output, keep), vjp_fn)
    return result + (_release(aux, keep),) if has_aux else result


def _jvp_columns(out_leaves, stand, keep):
    """A function t -> J t for the graph from `stand` to `out_leaves` (double vjp)."""
    dummies = [o.detach().new_zeros(o.shape).requires_grad_() if o.requires_grad
               and o.is_floating_point() else None for o in out_leaves]
    pairs = [(o, u) for o, u in zip(out_leaves, dummies) if u is not None]
    if pairs:
        g = _autograd_grad([o for o, _ in pairs], stand, [u for _, u in pairs],
                           retain_graph=True, create_graph=True, allow_unused=True)
    else:
        g = [None] * len(stand)

    def apply(tangents):
        live = [(gi, t) for gi, t in zip(g, tangents) if gi is not None and gi.requires_grad]
        us = [u for u in dummies if u is not None]
        if live and us:
            res = _autograd_grad([gi for gi, _ in live], us, [t for _, t in live],
                                 retain_graph=True, create_graph=keep, allow_unused=True)
        else:
            res = [None] * len(us)
        res = iter(res)
        out = []
        for o, u in zip(out_leaves, dummies):
            r = next(res) if u is not None else None
            out.append(o.detach().new_zeros(o.shape) if r is None else r)
        return out
    return apply


def _no_dual_level():
    """torch's forward-mode transforms refuse to run inside `autograd.forward_ad.dual_level`."""
    from ..autograd import forward_ad
    if forward_ad._current_level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")


def _check_jvp_args(primals, tangents):
    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{api}: Expected primals to be a tuple. E.g. it should be valid to "
                           f"call f(*primals).")
    p_leaves, p_spec = tree_flatten(primals)
    t_leaves, t_spec = tree_flatten(tangents)
    if p_spec != t_spec or not isinstance(tangents, tuple):
        raise RuntimeError(f"{api}: Expected primals and tangents to have the same python "
                           f"structure. For example, if primals is a tuple of 3 tensors, "
                           f"tangents also must be. Got primals with structure "
                           f"{spec_repr(p_spec)} and tangents with structure "
                           f"{spec_repr(t_spec)}")
    for kind, leaves in (("primals", p_leaves), ("tangents", t_leaves)):
        for x in leaves:
            if not isinstance(x, Tensor):
                raise RuntimeError(f"{api}: Expected {kind} to only contain Tensors, got "
                                   f"{type(x)}")
    if not p_leaves:
        raise RuntimeError(f"{api}: Expected primals to contain at least one Tensor.")
    for p, t in zip(p_leaves, t_leaves):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError(f"Trying to set a forward gradient that has a different size "
                               f"than that of the original Tensor, this is not supported. "
                               f"Tensor is of size {list(p.shape)} while the given forward "
                               f"gradient is of size {list(t.shape)}.")
    return p_leaves, p_spec, t_leaves


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """`(func(*primals), J @ tangents)`: the Jacobian-vector product (forward mode).

    NOTE: computed as a double vjp on ember's tape (see the module's NOTE), so `func` must
    be differentiable in reverse mode; the results equal torch's forward-mode ones.
    """
    _no_dual_level()
    p_leaves, p_spec, t_leaves = _check_jvp_args(primals, tangents)
    with _level(forward=True):
        keep = _watched(primals, tangents)
        stand = [_stand_in(x) for x in p_leaves]
        output = func(*tree_unflatten(stand, p_spec))
        output, aux = _split_aux(output, has_aux, "jvp(f, primals, tangents)")
        out_leaves, out_spec = _only_tensors(output, "jvp(f, primals, tangents)")
        keep = keep or _reaches_outside(out_leaves, stand)
        tangent_out = _jvp_columns(out_leaves, stand, keep)(t_leaves)
    if keep:    # (torch unwraps its dual outputs into aliases: AliasBackward0)
        from .._ops.views import alias_of
        output = tree_unflatten([alias_of(o) if o.requires_grad else o for o in out_leaves],
                                out_spec)
    result = (_release(output, keep), tree_unflatten(tangent_out, out_spec))
    return result + (_release(aux, keep),) if has_aux else result


def linearize(func, *primals):
    """`(func(*primals), jvp_fn)`: `jvp_fn(*tangents)` gives J @ tangents at `primals`."""
    _no_dual_level()
    output = func(*primals)

    def jvp_fn(*tangents):
        # (torch's jvp_fn checks the tangents against the primals in its own words)
        t_leaves, t_spec = tree_flatten(tangents)
        p_leaves, p_spec = tree_flatten(primals)
        if t_spec != p_spec:
            raise RuntimeError(f"Expected the tangents {t_spec!r} to have the same argspec as "
                               f"the primals {p_spec!r}")
        for i, (t, p) in enumerate(zip(t_leaves, p_leaves)):
            for what in ("shape", "dtype"):
                if getattr(t, what) != getattr(p, what):
                    raise RuntimeError(f"tangent:{i} with {what} {getattr(t, what)} in flattened "
                                       f"pytree doesn't match the {what} {getattr(p, what)} of "
                                       f"the corresponding primal.")
        return jvp(func, primals, tangents)[1]
    return output, jvp_fn


def _jacobian(func, argnums, has_aux, forward, randomness="different"):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from .._ops.joining import stack
        if forward:
            _no_dual_level()
        with _level(forward=forward, batched=forward):
            new_args, stand, in_spec = _differentiable(args, argnums)
            keep = _watched(args, kwargs)
            start = _rng_state() if randomness == "error" else None
            output = func(*new_args, **kwargs)
            if start is not None and not _rng_state().equal(start):
                raise RuntimeError(_RANDOM_IN_VMAP)     # (torch's jacfwd runs on vmap)
            # torch's jacfwd runs through jvp and words its errors as jvp's
            api = "jvp(f, primals, tangents)" if forward else "vjp(f, *primals)"
            output, aux = _split_aux(output, has_aux, api)
            out_leaves, out_spec = _only_tensors(output, api)
            keep = keep or _reaches_outside(out_leaves, stand)
            blocks = [[None] * len(stand) for _ in out_leaves]      # [output][input]
            if forward:
                columns = _jvp_columns(out_leaves, stand, keep)
                for j, x in enumerate(stand):
                    cols = []
                    for k in range(x.numel()):
                        basis = [s.detach().new_zeros(s.shape) for s in stand]
                        basis[j].view(-1)[k] = 1
                        cols.append(columns(basis))
                    for i, o in enumerate(out_leaves):
                        per = [c[i].reshape(-1) for c in cols]
                        mat = stack(per, 1) if per else o.new_zeros((o.numel(), 0))
                        blocks[i][j] = mat.reshape(tuple(o.shape) + tuple(x.shape))
            else:
                for i, o in enumerate(out_leaves):
                    rows = []
                    for k in range(o.numel()):
                        basis = o.detach().new_zeros(o.shape)
                        basis.view(-1)[k] = 1
                        rows.append(_vjp([o], stand, [basis], keep))
                    for j, x in enumerate(stand):
                        per = [r[j].reshape(-1) for r in rows]
                        mat = stack(per, 0) if per else x.new_zeros((0, x.numel()))
                        blocks[i][j] = mat.reshape(tuple(o.shape) + tuple(x.shape))
        jac = tree_unflatten([tree_unflatten(row, in_spec) for row in blocks], out_spec)
        jac = _release(jac, keep)
        return (jac, _release(aux, keep)) if has_aux else jac
    return wrapper


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of `func` with respect to `argnums`, by reverse mode: one vjp per output
    element. Shapes: output.shape + input.shape, nested as the outputs, then the inputs.

        >>> jacrev(lambda x: x ** 2)(ember.tensor([1., 3.]))
        tensor([[2., 0.],
                [0., 6.]])
    """
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")
    return _jacobian(func, argnums, has_aux, forward=False)


_RANDOM_IN_VMAP = ("vmap: called random operation while in randomness error mode. Please "
                   "either use the 'same' or 'different' randomness flags on vmap or perform "
                   "the randomness operation out of vmap")


def _rng_state():
    from ..random import get_rng_state
    return get_rng_state()


def _check_randomness(randomness):
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of `func` with respect to `argnums`, by forward mode: one jvp per input
    element (each a double vjp on ember's tape). Same layout as `jacrev`."""
    _check_randomness(randomness)
    return _jacobian(func, argnums, has_aux, forward=True, randomness=randomness)


def hessian(func, argnums=0):
    """The Hessian of scalar `func` with respect to `argnums`: jacfwd(jacrev(func))."""
    return jacfwd(jacrev(func, argnums), argnums)
