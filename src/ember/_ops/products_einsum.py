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
            tensors.append(t.conj().to(grad.dtype))    # (operands may differ in dtype)
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
    """(input subscripts, output subscript): explicit letters, no ellipsis, no spaces. The
    checks are torch's, in its order: the left side character by character, the number of
    operands, each operand's dims, then the output."""
    lhs, arrow, rhs = equation.partition("->")
    terms, ellipsis = [[]], False
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if ellipsis:
                raise RuntimeError(f"einsum(): found '.' for operand {len(terms) - 1} for "
                                   f"which an ellipsis was already found")
            if not lhs.startswith("...", i):
                raise RuntimeError(f"einsum(): found '.' for operand {len(terms) - 1} that is "
                                   f"not part of any ellipsis")
            terms[-1].append("...")
            ellipsis = True
            i += 2
        elif c == ",":
            terms.append([])
            if len(terms) > len(ndims):
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            ellipsis = False
        elif c != " ":
            if c not in string.ascii_letters:
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   f"equation string, subscripts must be in [a-zA-Z]")
            terms[-1].append(c)
        i += 1
    if len(terms) != len(ndims):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    n_ell = 0
    for i, (term, nd) in enumerate(zip(terms, ndims)):
        n = len(term) - ("..." in term)
        if "..." in term:
            if n > nd:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) "
                                   f"is more than the number of dimensions ({nd}) for operand "
                                   f"{i}")
            n_ell = max(n_ell, nd - n)
        elif n != nd:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) does "
                               f"not match the number of dimensions ({nd}) for operand {i} and "
                               f"no ellipsis was given")
    used = set(equation)
    ell = "".join([c for c in string.ascii_letters if c not in used][:n_ell])
    subs = []
    for term, nd in zip(terms, ndims):
        k = nd - (len(term) - ("..." in term))
        subs.append("".join(ell[n_ell - k:] if c == "..." else c for c in term))
    if arrow:
        out = _parse_output(rhs, len(lhs), "".join(subs), ell)
    else:
        joined = "".join(subs)
        out = ell + "".join(sorted(c for c in set(joined) if joined.count(c) == 1
                                   and c not in ell))
    return subs, out


def _parse_output(rhs, at, inputs, ell):
    """The explicit output subscript, checked as torch checks it (`at`: where it starts)."""
    out, ellipsis = [], False
    i = 0
    while i < len(rhs):
        c = rhs[i]
        if c == ".":
            if ellipsis:
                raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                   "already found")
            if not rhs.startswith("...", i):
                raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                   "ellipsis (...)")
            out.append(ell)
            ellipsis = True
            i += 2
        elif c != " ":
            if c not in string.ascii_letters:
                raise RuntimeError(f"einsum(): invalid subscript given at index {at + 2 + i} "
                                   f"in the equation string, subscripts must be in [a-zA-Z]")
            if c in out:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in "
                                   f"the output")
            if c not in inputs:
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                                   f"equation for any input operand")
            out.append(c)
        i += 1
    return "".join(out)


def _mixed_dtype(subs, out, operands):
    """The dtype of an einsum of operands of several dtypes, as torch's pairwise contraction
    (left to right) finds it: a pair that sums over a letter both operands have (not of size
    1) is a bmm, which takes one dtype; any other pair is a product, which promotes."""
    from .. import _dtype
    dtype, letters = operands[0].dtype, dict(zip(subs[0], operands[0].shape))
    for j in range(1, len(operands)):
        t, later = operands[j], set(out).union(*subs[j + 1:])
        summed = [c for c, n in zip(subs[j], t.shape)
                  if c in letters and c not in later and n != 1 and letters[c] != 1]
        if summed:
            if dtype == _dtype.bool:
                raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
            if t.dtype != dtype:
                raise RuntimeError(f"expected scalar type {dtype._scalar_name} but found "
                                   f"{t.dtype._scalar_name}")
        else:
            dtype = _dtype.promote_types(dtype, t.dtype)
        for c, n in zip(subs[j], t.shape):
            letters[c] = max(letters.get(c, 1), n)
        for c in summed:
            del letters[c]
    return dtype


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


def _subscript_sizes(subs, operands, ell=""):
    """Each subscript's size, after torch's checks: a subscript repeated within an operand has
    one size there, and across operands sizes broadcast (1 against n). `ell`: the letters
    that stand for ellipsis dims (torch words their mismatch by the operand's dim)."""
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
                if c in ell:
                    raise RuntimeError(f"einsum(): dimension {s.index(c)} covered by ellipsis in "
                                       f"operand {i}has size {n} which does not broadcast with "
                                       f"previously seen ellipsis with size {prev} for the "
                                       f"respective dimension")
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
    if not operands:        # (torch's Python einsum refuses this before its native op)
        raise ValueError("einsum(): must specify the equation string and at least one "
                         "operand, or at least one operand and its subscripts list")
    subs, out = _parse(equation, [t.ndim for t in operands])
    sizes = _subscript_sizes(subs, operands, set("".join(subs)) - set(equation))
    dtype = operands[0]._data.dtype
    if any(t._data.dtype != dtype for t in operands):
        dtype = _mixed_dtype(subs, out, operands)._np
    node = _node(subs, out)
    if dtype.kind == "b" and node is EinsumView:
        _mixed_dtype(subs, out, operands)       # (refuses a bool bmm: letters of size 1 need none)
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
    if compute != dtype or any(a.dtype != compute for a in arrays):
        arrays = [a.astype(compute) for a in arrays]
    spec = ",".join(subs) + "->" + out
    result = xp.einsum(spec, *arrays, optimize=len(arrays) > 1)
    if len(arrays) > 1:
        result = _torch_layout(xp, result, subs, out, operands)
    result = xp.asarray(result).astype(dtype, copy=False)
    params = {"subs": tuple(subs), "out_sub": out, "sizes": sizes, "operands": operands}
    if _grad_state.enabled and any(t._requires_grad for t in operands):
        from .einsum_graph import einsum_graph      # NOTE [ einsum's graph ]
        composed = einsum_graph(subs, out, operands, result)
        if composed is not None:
            return composed
        params["versions"] = tuple([watch(t) for t in operands])
    return _emit(node, operands, result, params, None, "einsum")
