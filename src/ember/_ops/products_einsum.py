"""einsum: Einstein summation on NumPy's einsum, differentiable through einsum itself.

The equation is first normalized: '...' becomes explicit letters, the implicit output (letters
seen once, in alphabetical order, after the ellipsis dims) is spelled out. The gradient of an
operand is the einsum of the output gradient with the other operands (conjugated), plus ones
for letters only that operand has and identity matrices for its repeated letters (diagonals).
"""
import string

from .._device import backend_of
from .._tensor import Tensor
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.graph import watch
from ._op import Op
from .products import _emit
from .registry import function


class Einsum(Op):
    """Base of the einsum nodes; torch's graph ends in a node that depends on the equation."""
    abstract = True
    inputs = ()
    variadic = True

    def backward(ctx, grad):
        subs, out, sizes = ctx.subs, ctx.out_sub, ctx.sizes
        operands = ctx.operands
        needs = ctx.needs_input_grad
        for j, (t, version) in enumerate(zip(operands, ctx.versions)):
            # (an operand's gradient reads the others, which torch saves, as views)
            if t._version != version and any(n for k, n in enumerate(needs) if k != j):
                raise ctx._modified_error(t, version, None)
        grads = []
        for k, needed in enumerate(ctx.needs_input_grad):
            if not needed:
                grads.append(None)
                continue
            grads.append(_operand_grad(grad, operands, subs, out, sizes, k))
        return tuple(grads)


class EinsumView(Einsum):
    node_name = "ViewBackward0"


class EinsumMul(Einsum):
    node_name = "MulBackward0"


class EinsumSum(Einsum):
    node_name = "SumBackward1"


class EinsumPermute(Einsum):
    node_name = "PermuteBackward0"


def _operand_grad(grad, operands, subs, out, sizes, k):
    from .._creation import eye, ones
    used = set("".join(subs) + out)
    fresh = (c for c in string.ascii_letters if c not in used)
    terms, tensors = [out], [grad]
    for j, (s, t) in enumerate(zip(subs, operands)):
        if j != k:
            terms.append(s)
            tensors.append(t.conj())
    available = set("".join(terms))
    target = []
    for c in subs[k]:
        if c in target:         # a repeated letter: the gradient lives on the diagonal
            f = next(fresh)
            terms.append(c + f)
            tensors.append(eye(sizes[c], dtype=grad.dtype, device=grad.device))
            target.append(f)
            continue
        if c not in available:  # summed in this operand only: the gradient is broadcast
            terms.append(c)
            tensors.append(ones(sizes[c], dtype=grad.dtype, device=grad.device))
            available.add(c)
        target.append(c)
    return einsum(",".join(terms) + "->" + "".join(target), *tensors)


def _parse(equation, ndims):
    """(input subscripts, output subscript): explicit letters, no ellipsis, no spaces."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation" if len(ndims) > len(terms) else
                           "einsum(): fewer operands were provided than specified in the "
                           "equation")
    for c in eq:
        if c not in string.ascii_letters and c not in ".,->":
            raise RuntimeError(f"einsum(): invalid subscript given at index {eq.index(c)} in "
                               f"the equation string, subscripts must be in [a-zA-Z]")
    free = [c for c in string.ascii_letters if c not in eq]
    n_ell = max([nd - (len(t) - 3) for t, nd in zip(terms, ndims) if "..." in t] or [0])
    ell = "".join(free[:n_ell])
    subs = []
    for i, (term, nd) in enumerate(zip(terms, ndims)):
        if "..." in term:
            k = nd - (len(term) - 3)
            if k < 0:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                                   f"({len(term) - 3}) is more than the number of dimensions "
                                   f"({nd}) for operand {i}")
            term = term.replace("...", ell[n_ell - k:])
        elif len(term) != nd:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(term)}) does not match the number of dimensions ({nd}) "
                               f"for operand {i} and no ellipsis was given")
        subs.append(term)
    if arrow:
        out = rhs.replace("...", ell)
        for c in out:
            if out.count(c) > 1:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in "
                                   f"the output")
            if c not in "".join(subs):
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                                   f"equation for any input operand")
    else:
        joined = "".join(subs)
        out = ell + "".join(sorted(c for c in set(joined) if joined.count(c) == 1
                                   and c not in ell))
    return subs, out


def _node(subs, out):
    """torch's outermost node for this equation."""
    if len(subs) == 1:
        return EinsumSum if set(subs[0]) - set(out) else EinsumPermute
    for c in set("".join(subs)) - set(out):
        if sum(c in s for s in subs) > 1:
            return EinsumView
    return EinsumMul


def _sublist_equation(args):
    """The equation of torch's sublist form einsum(a, [0, 1], b, [1, 2], [0, 2]): subscripts
    are integers in [0, 52) (letters a-z, then A-Z) or Ellipsis."""
    def letters(sublist):
        out = []
        for s in sublist:
            if s is Ellipsis:
                out.append("...")
            elif not 0 <= s < 52:
                raise ValueError("einsum(): subscript in subscript list is not within the "
                                 "valid range [0, 52)")
            else:
                out.append(chr(ord("a") + s) if s < 26 else chr(ord("A") + s - 26))
        return "".join(out)
    pairs = len(args) // 2
    operands = args[0:2 * pairs:2]
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {2 * i} in argument 1, but got "
                            f"{type(t).__name__}")
    equation = ",".join(letters(s) for s in args[1:2 * pairs:2])
    if len(args) % 2:
        equation += "->" + letters(args[-1])
    return equation, operands


def _subscript_sizes(subs, operands):
    """Each subscript's size, after torch's checks: a subscript repeated within an operand has
    one size there, and across operands sizes broadcast (1 against n)."""
    for i, (s, t) in enumerate(zip(subs, operands)):
        first = {}
        for c, n in zip(s, t.shape):
            if first.setdefault(c, n) != n:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {i} but the "
                                   f"sizes don't match, {n} != {first[c]}")
    sizes = {}
    for i, (s, t) in enumerate(zip(subs, operands)):
        for c, n in zip(s, t.shape):
            prev = sizes.get(c)
            if prev is None or prev == 1:
                sizes[c] = n
            elif n != 1 and n != prev:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {i} which "
                                   f"does not broadcast with previously seen size {prev}")
    return sizes


def _torch_layout(xp, result, subs, out, operands):
    """`result` (NumPy's layout, which may be transposed) laid out as torch's: of two
    operands, the output letters both have (a size other than 1: a bmm's batch) outermost,
    then the others, each group in output order; for more, contiguous."""
    order = list(range(len(out)))
    if len(subs) == 2:
        (left, right), (a, b) = subs, operands
        batch = [i for i, c in enumerate(out) if c in left and c in right
                 and a.shape[left.index(c)] != 1 and b.shape[right.index(c)] != 1]
        order = batch + [i for i in order if i not in batch]
    moved = result.transpose(order)
    # (from one dim, so that size-1 dims get torch's strides too)
    laid = xp.ascontiguousarray(moved).reshape(-1).reshape(moved.shape)
    return laid.transpose([order.index(i) for i in range(len(order))])


@function(method=False)
def einsum(equation, *operands):
    """Einstein summation: einsum('ij,jk->ik', a, b), einsum('ij,jk', [a, b]), or the sublist
    form einsum(a, [0, 1], b, [1, 2], [0, 2])."""
    if isinstance(equation, Tensor):
        equation, operands = _sublist_equation((equation,) + operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, but found "
                            f"element of type {type(t).__name__} at pos {i}")
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    subs, out = _parse(equation, [t.ndim for t in operands])
    sizes = _subscript_sizes(subs, operands)
    dtypes = {t._data.dtype for t in operands}
    if len(dtypes) > 1:
        other = next(t for t in operands if t._data.dtype != operands[0]._data.dtype)
        raise RuntimeError(f"expected scalar type {operands[0].dtype._scalar_name} but found "
                           f"{other.dtype._scalar_name}")
    dtype = operands[0]._data.dtype
    node = _node(subs, out)
    if dtype.kind == "b" and node is EinsumView:
        raise RuntimeError("\"bmm\" not implemented for 'Bool'")
    xp = backend_of(operands[0]._data).xp
    arrays = []
    for s, t in zip(subs, operands):
        a = t._data
        shape = tuple(sizes[c] for c in s)
        if a.shape != shape:
            a = xp.broadcast_to(a, shape)
        arrays.append(a)
    compute = "float32" if dtype.itemsize == 2 and dtype.kind in "fV" else dtype
    if node is EinsumSum and dtype.kind in "biu":
        compute = dtype = xp.dtype("int64")    # NOTE: torch sums one operand with sum()
    if compute != dtype or arrays[0].dtype != compute:
        arrays = [a.astype(compute) for a in arrays]
    spec = ",".join(subs) + "->" + out
    result = xp.einsum(spec, *arrays, optimize=len(arrays) > 1)
    if len(arrays) > 1:
        result = _torch_layout(xp, result, subs, out, operands)
    result = xp.asarray(result).astype(dtype, copy=False)
    params = {"subs": tuple(subs), "out_sub": out, "sizes": sizes, "operands": operands}
    if _grad_state.enabled and any(t._requires_grad for t in operands):
        params["versions"] = tuple([watch(t) for t in operands])
    return _emit(node, operands, result, params, None, "einsum")
