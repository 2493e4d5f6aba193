"""vmap: map a function over a dimension of its inputs.

NOTE [ vmap runs the function once per batch element ]
torch's vmap pushes one call through "batched" tensors. ember has no batched tensor type, so
`vmap` always takes the fallback: it calls `func` once per index of the mapped dimension (each
input sliced with `select`, a view) and stacks the results along `out_dims`. Results, dtypes,
gradients through the stacked output and the error texts are torch's; the cost is one Python
call of `func` per element, so batch-friendly code (matmul, broadcasting) is faster written
batched by hand. `chunk_size` is accepted and changes no result but random draws. Randomness
follows torch's three modes: 'different' (each element draws its own numbers: each random op
draws once for the whole batch, or chunk, as torch's batched ops do; NOTE [ Random draws under
vmap ] in _random_batch.py), 'same' (each element
sees the generator's state as it was at the start of the call) and 'error' (the default:
drawing random numbers raises torch's error, detected by the generator's state changing).

What torch's batched tensors refuse, ember refuses too: each element's slices are marked
batched (`_batched.mark`), and while any vmap runs, `_batched`'s layer of wrappers (NOTE [
Patching the public operators ]) marks every public operator's results batched when an
argument is, and raises torch's error where torch's vmap cannot go on: `.item()`, `float()`,
`bool()` (data-dependent control flow), `.tolist()`/`.numpy()` (no storage), a boolean-mask
index, `.data`, `allclose`/`equal`, batch norm computing a batched input's statistics while
the running statistics it would update are not batched (a BatchNorm layer in training mode
under per-sample gradients), and operators whose output shape depends on the values
(`nonzero`, `unique`, `masked_select` by a batched mask, one-argument `where`). Tensors not derived from the mapped
inputs (captured constants, `in_dims=None` inputs) stay unmarked and allow all of it, as in
torch. An operator's own calls pass unmarked and unchecked (`_batched._State.busy`), as do
backward formulas (ember's internals, not the user's code); grad-like transforms inside the
vmap are seen through their operators, so vmap(grad(f)) and nested vmaps refuse as torch
does (under grad, with torch's message for either). Outside vmap the originals are in place,
so ordinary calls pay nothing; each outermost vmap call pays about half a millisecond to put
the wrappers in and take them out, and one frame per operator call inside it.
"""
import functools

from .._tensor import Tensor
from . import _batched
from .._random_batch import batched_draws
from ._pytree import broadcast_prefix, spec_repr, tree_flatten, tree_unflatten
from ..autograd.function import _Transforms
from .eager_transforms import _RANDOM_IN_VMAP, _check_randomness

__all__ = ["vmap"]


def _name(func):
    return getattr(func, "__name__", repr(func))


def _in_spec_error(func, in_dims, args):
    prefix = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, tuple):
        return ValueError(f"{prefix}: expected `in_dims` to be int or a (potentially nested) "
                          f"tuple matching the structure of inputs, got: {type(in_dims)}.")
    return ValueError(f"{prefix}: in_dims is not compatible with the structure of `inputs`. "
                      f"in_dims has structure {spec_repr(tree_flatten(in_dims)[1])} but "
                      f"inputs has structure {spec_repr(tree_flatten(args)[1])}.")


def _batch_size(func, in_dims, args):
    """The flattened inputs, each one's mapped dim (None: not mapped), and the batch size."""
    if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
        raise _in_spec_error(func, in_dims, args)
    dims = broadcast_prefix(in_dims, args)
    if dims is None:
        raise _in_spec_error(func, in_dims, args)
    leaves, spec = tree_flatten(args)
    prefix = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    sizes, norm = [], []
    for x, d in zip(leaves, dims):
        if d is None:
            norm.append(None)
            continue
        if not isinstance(d, int):
            raise _in_spec_error(func, in_dims, args)
        if not isinstance(x, Tensor):
            raise ValueError(f"{prefix}: Got in_dim={d} for an input but the input is of type "
                             f"{type(x)}. We cannot vmap over non-Tensor arguments, please use "
                             f"None as the respective in_dim")
        n = x.dim()
        if not -n <= d < n:
            raise ValueError(f"{prefix}: Got in_dim={d} for some input, but that input is a "
                             f"Tensor of dimensionality {n} so expected in_dim to satisfy "
                             f"-{n} <= in_dim < {n}.")
        d %= n
        norm.append(d)
        sizes.append(x.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return leaves, spec, norm, sizes[0]


def _rng_state():
    from ..random import get_rng_state
    return get_rng_state()


def _out_dims_for(func, out_dims, output):
    """The out dim of each leaf of `output`: `out_dims` is a prefix of its structure (a list
    and a tuple differ), except that one tensor also takes a 1-tuple."""
    if isinstance(out_dims, bool) or not (out_dims is None or isinstance(out_dims, (int, tuple,
                                                                                   list, dict))):
        raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an "
                         f"int, None or a python collection of ints representing where in the "
                         f"outputs the vmapped dimension should appear.")
    if isinstance(output, Tensor) and isinstance(out_dims, tuple) and len(out_dims) == 1 \
            and not isinstance(out_dims[0], (tuple, list, dict)):
        return list(out_dims)
    dims = broadcast_prefix(out_dims, output)
    if dims is None:
        raise ValueError(
            f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not "
            f"compatible with the structure of `outputs`. out_dims has structure "
            f"{spec_repr(tree_flatten(out_dims)[1])} but outputs has structure "
            f"{spec_repr(tree_flatten(output)[1])}.")
    return dims


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """`func` mapped over dimension `in_dims` of its inputs; results stacked at `out_dims`.

        >>> vmap(ember.dot)(ember.ones(4, 3), ember.ones(4, 3))
        tensor([3., 3., 3., 3.])

    `in_dims`: an int for every input, or a (nested) tuple matching the inputs, None for an
    input not mapped. See NOTE [ vmap runs the function once per batch element ] for how.
    """
    _check_randomness(randomness)
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got "
                         f"{chunk_size})")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from .._ops.joining import stack
        leaves, spec, dims, size = _batch_size(func, in_dims, args)
        start = _rng_state() if randomness != "different" else None
        results = []
        # (an autograd.Function called inside learns its rules from this; see function.py)
        unmapped = {id(x) for x, d in zip(leaves, dims) if d is None and isinstance(x, Tensor)}
        _Transforms.active += 1
        _Transforms.vmaps.append((randomness, unmapped))
        _batched.enter(size)
        try:
            with batched_draws(size if randomness == "different" else 0, chunk_size) as draws:
                _run_per_element(func, kwargs, leaves, spec, dims, size, randomness, start,
                                 results, draws)
        finally:
            _batched.leave()
            _Transforms.active -= 1
            _Transforms.vmaps.pop()
        out_leaves = [tree_flatten(r)[0] for r in results]
        odims = _out_dims_for(func, out_dims, results[0])
        first, out_spec = tree_flatten(results[0])
        stacked = []
        for k, (o, d) in enumerate(zip(first, odims)):
            column = [r[k] for r in out_leaves]
            if d is None:
                if isinstance(o, Tensor) and any(c is not o and not (
                        isinstance(c, Tensor) and c.shape == o.shape and c.equal(o))
                        for c in column):
                    raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` can not return "
                                     f"a BatchedTensor when out_dim is None")
                stacked.append(o)
                continue
            if not isinstance(o, Tensor):
                raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` must only return "
                                 f"Tensors, got type {type(o)}. Did you mean to set out_dims= "
                                 f"to None for output?")
            out = stack(column, d)
            if size == 0:
                out = out.narrow(d % out.dim(), 0, 0)
            stacked.append(out)
        if chunk_size is not None and isinstance(out_dims, tuple) and isinstance(results[0],
                                                                                 Tensor):
            # (torch's chunked path checks the 1-tuple against one tensor again, without the
            # exception for it)
            raise AssertionError("flat_out_dims must not be None")
        return tree_unflatten(stacked, out_spec)
    return wrapper


def _run_per_element(func, kwargs, leaves, spec, dims, size, randomness, start, results,
                     draws):
    """Call `func` once per batch element (see the NOTE), appending each result; `draws`
    makes random draws for the whole batch (NOTE [ Random draws under vmap ])."""
    from ..random import set_rng_state
    for b in range(max(size, 1)):
        if size == 0:       # NOTE: one call on zeros, only for the output's structure
            per = [x if d is None else x.new_zeros(x.shape[:d] + x.shape[d + 1:])
                   for x, d in zip(leaves, dims)]
        else:
            per = [x if d is None else x.select(d, b) for x, d in zip(leaves, dims)]
        _batched.mark([x for x, d in zip(per, dims) if d is not None])
        if randomness == "same":
            set_rng_state(start)
        draws.element(b)
        results.append(func(*tree_unflatten(per, spec), **kwargs))
        if randomness == "error" and not _rng_state().equal(start):
            set_rng_state(start)
            raise RuntimeError(_RANDOM_IN_VMAP)
