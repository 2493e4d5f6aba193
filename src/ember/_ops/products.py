"""Products beyond matmul: the add* family (addmm, addmv, addbmm, baddbmm, addr), vdot, inner,
outer/ger, tensordot, kron, cross, trace; einsum (`products_einsum.py`), cdist, cov and
corrcoef (`products_statistics.py`).

Ops with a node of their own in torch (AddmmBackward0, TraceBackward0, ...) are `Op` classes;
the others (inner, outer, tensordot, cov, ...) are compositions of ember's differentiable ops,
so their graphs end in the same nodes as torch's (ViewBackward0, MulBackward0, ...).
"""
import builtins

import numpy as np

from .. import _dtype
from .._config import warn_once
from .._device import MetaArray, backend_of
from .._tensor import Tensor
from . import _sdot
from ._dispatch import Inplace, check_inplace, check_out, finish, write_out
from ._op import Op, scalar
from .elementwise import check_limited
from .linalg import _product, _shape_x, check_vectors, dot, matrix_geometry, matrix_shows
from .argument_errors import not_a_tensor
from .registry import function


def _emit(op, inputs, result, params, out, name):
    """A kernel's `result` array as the op's output: fresh (recording the graph), `out=` or
    written in place (the `op_` methods)."""
    xp = backend_of(inputs[0]._data).xp
    result = xp.asarray(result)
    requires_grad = builtins.any(t._requires_grad for t in inputs)
    if out.__class__ is Inplace:
        check_inplace(out.target, result.dtype, result.shape)
        result = result.astype(out.target._data.dtype, copy=False)
    elif out is not None:
        check_out(name, out, result.dtype, requires_grad)
    return finish(op, inputs, result, params, out, requires_grad)


def _check_tensor(name, arg, index, x):
    """`x`, argument `arg` (number `index`, `input` being 0), is a tensor (or torch's TypeError)."""
    if not isinstance(x, Tensor):
        raise not_a_tensor(name, arg, index, x)


def _same_dtype(name, *tensors):
    dtypes = {t._data.dtype for t in tensors}
    if len(dtypes) > 1:
        names = [t.dtype._scalar_name for t in tensors]
        if name in ("addmm", "addbmm"):         # torch compares self with mat2 first
            if tensors[0]._data.dtype != tensors[2]._data.dtype:
                raise RuntimeError(f"self and mat2 must have the same dtype, but got {names[0]} "
                                   f"and {names[2]}")
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {names[1]} and "
                               f"{names[2]}")
        if name == "baddbmm":
            if tensors[0]._data.dtype != tensors[1]._data.dtype:
                cpp = [t.dtype._cpp_name for t in tensors]
                raise RuntimeError(f"Input dtypes must be the same, got: input {cpp[0]}, batch1: "
                                   f"{cpp[1]}, batch2: {cpp[2]}")
            raise RuntimeError(f"expected scalar type {names[1]} but found {names[2]}")
        if name == "addmv":
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                               f"{names[0]}, {names[1]}, and {names[2]}")
        raise RuntimeError(f"{name}: expected all arguments to have the same dtype, got "
                           f"{', '.join(names)}")


def _no_bool(kernel, *tensors):
    if tensors[0]._data.dtype.kind == "b":
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def _scale(t, s):
    return t if s == 1 else t * s


# -- the add* family: beta * input + alpha * (product) -------------------------------------------

class _AddProduct(Op):
    """beta * self + alpha * product(a, b); subclasses give the product's two gradients
    and torch's names of a and b (`inputs`), each saving the other for its gradient."""
    abstract = True
    shows = {"alpha": scalar("alpha"), "beta": scalar("beta")}

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_self, need_a, need_b = ctx.needs_input_grad
        # NOTE: torch's grad for self is grad * beta, zeros when beta == 0.
        g_self = _scale(grad, ctx.beta) if need_self else None
        g_a, g_b = ctx.product_grads(grad, a, b, need_a, need_b)
        return (g_self, _scale(g_a, ctx.alpha) if g_a is not None else None,
                _scale(g_b, ctx.alpha) if g_b is not None else None)


class Addmm(_AddProduct):
    inputs = ("self", "mat1", "mat2")
    saves = {"mat1": ("mat2",), "mat2": ("mat1",)}
    shows = dict(_AddProduct.shows, **matrix_shows("mat1", "mat2", (1, 2)))

    def product_grads(ctx, g, a, b, need_a, need_b):
        return (g.mm(b.mH) if need_a else None, a.mH.mm(g) if need_b else None)


class Baddbmm(_AddProduct):
    inputs = ("self", "batch1", "batch2")
    saves = {"batch1": ("batch2",), "batch2": ("batch1",)}

    def product_grads(ctx, g, a, b, need_a, need_b):
        return (g.bmm(b.mH) if need_a else None, a.mH.bmm(g) if need_b else None)


class Addbmm(_AddProduct):
    inputs = ("self", "batch1", "batch2")
    saves = {"batch1": ("batch2",), "batch2": ("batch1",)}

    def product_grads(ctx, g, a, b, need_a, need_b):
        g = g.unsqueeze(0).expand(ctx.batch, *g.shape)
        return (g.bmm(b.mH) if need_a else None, a.mH.bmm(g) if need_b else None)


class Addmv(_AddProduct):
    inputs = ("self", "mat", "vec")
    saves = {"mat": ("vec",), "vec": ("mat",)}

    def product_grads(ctx, g, m, v, need_m, need_v):
        return (g.unsqueeze(1) * v.conj().unsqueeze(0) if need_m else None,
                m.mH.mv(g) if need_v else None)


class Addr(_AddProduct):
    inputs = ("self", "vec1", "vec2")
    saves = {"vec1": ("vec2",), "vec2": ("vec1",)}

    def product_grads(ctx, g, v1, v2, need_1, need_2):
        return (g.mv(v2.conj()) if need_1 else None, g.mT.mv(v1.conj()) if need_2 else None)


def _matmul(xp):
    return xp.matmul


def _summed_matmul(xp):
    return lambda a, b: xp.matmul(a, b).sum(0, dtype=a.dtype)


def _outer(xp):
    return xp.multiply.outer


def _add_product(op, name, kernel, input, a, b, beta, alpha, out, product, shape_check):
    """beta * input + alpha * product(a, b), checked as torch checks it; `product(xp)` gives
    the kernel of the array module."""
    for index, (arg, x) in enumerate(zip(("input",) + op.inputs[1:], (input, a, b))):
        _check_tensor(name, arg, index, x)
    for x in (a, b):
        if x._data.__class__ is not input._data.__class__ or (
                x._data.__class__ is not np.ndarray and x.device != input.device):
            from .elementwise import check_same_device
            check_same_device(input, x)
    shape_check(a._data, b._data)
    _same_dtype(name, input, a, b)
    if op is not Addr:
        _no_bool(kernel, a)
    xp = backend_of(a._data).xp
    product = product(xp)
    wide = op in _ROUNDED_ONCE and a._data.dtype.itemsize == 2 and a._data.dtype.kind in "fV"
    batched = op is Baddbmm             # (NOTE [ Small batched products ])
    if wide:
        # NOTE: torch's CPU kernels keep a half-precision product in float32 and round once,
        # after adding the input (rounding the product first can differ in the last bit).
        prod = _product(xp, product, a._data.astype("float32"), b._data.astype("float32"),
                        batched)
    else:
        prod = _product(xp, product, a._data, b._data, batched)
    shape = prod.shape
    try:
        base = xp.broadcast_to(input._data.astype("float32") if wide else input._data, shape)
    except ValueError:
        # NOTE: torch expands the input to the product's shape: expand's own words
        from .. import _geometry as geo
        geo.expand(tuple(input.shape), input.stride(), shape, input.type())
        raise
    if a._data.dtype.kind == "b":
        result = (prod & bool(alpha)) | (base & bool(beta))
    else:
        result = prod if alpha == 1 else prod * _as_scalar(xp, alpha, prod.dtype)
        if beta != 0:          # NOTE: beta == 0 ignores input entirely (nan and inf too)
            result = result + (base if beta == 1 else base * _as_scalar(xp, beta, prod.dtype))
        result = result.astype(a._data.dtype, copy=False)
    params = {"beta": beta, "alpha": alpha, "batch": a.shape[0] if a.ndim else 0}
    if op is Addmm:
        params["geometry"] = matrix_geometry(a._data, b._data)
    return _emit(op, (input, a, b), result, params, out, name)


# The add* ops whose half-precision results torch rounds once (addbmm sums its products and
# addr adds an outer product elementwise: both round the product first, as ember does).
_ROUNDED_ONCE = (Addmm, Baddbmm, Addmv)


def _as_scalar(xp, value, dtype):
    """An int scalar in an integer dtype wraps around as torch's does (-1 in uint8 is 255)."""
    if dtype.kind in "iu":
        return xp.asarray(int(value)).astype(dtype)
    return value


def _mm_shapes(a, b):
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(f"{'mat1' if a.ndim != 2 else 'mat2'} must be a matrix, got "
                           f"{a.ndim if a.ndim != 2 else b.ndim}-D tensor")
    if a.shape[1] != b.shape[0]:
        if a.__class__ is MetaArray:        # (torch's meta kernel's words)
            raise RuntimeError(f"a and b must have same reduction dim, but got "
                               f"[{a.shape[0]}, {a.shape[1]}] X [{b.shape[0]}, {b.shape[1]}].")
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape_x(a.shape)} and "
                           f"{_shape_x(b.shape)})")


def _bmm_shapes(a, b):
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"{'batch1' if a.ndim != 3 else 'batch2'} must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, "
                           f"{b.shape[1]}].")


def _mv_shapes(a, b):
    if a.ndim != 2 or b.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({_shape_x(a.shape)}),"
                           f" vec ({b.shape[0]})")


def _outer_shapes(a, b):
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec{1 if a.ndim != 1 else 2}, but got "
                           f"{a.ndim if a.ndim != 1 else b.ndim}-D")


@function(inplace=True)
def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2)."""
    return _add_product(Addmm, "addmm", "addmm_impl_cpu_", input, mat1, mat2, beta, alpha, out,
                        _matmul, _mm_shapes)


@function(inplace=True)
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * bmm(batch1, batch2)."""
    return _add_product(Baddbmm, "baddbmm", "baddbmm", input, batch1, batch2, beta, alpha,
                        out, _matmul, _bmm_shapes)


@function(inplace=True)
def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (sum over the batch of batch1[i] @ batch2[i])."""
    return _add_product(Addbmm, "addbmm", "addbmm_impl_cpu_", input, batch1, batch2, beta,
                        alpha, out, _summed_matmul, _bmm_shapes)


@function(inplace=True)
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat @ vec)."""
    return _add_product(Addmv, "addmv", "addmv_impl_cpu", input, mat, vec, beta, alpha, out,
                        _matmul, _mv_shapes)


@function(inplace=True)
def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * outer(vec1, vec2); unlike addmm, torch promotes the three
    dtypes here."""
    tensors = (input, vec1, vec2)
    if all(isinstance(t, Tensor) for t in tensors) and \
            len({t.dtype for t in tensors}) > 1:
        common = _dtype.promote_types(_dtype.promote_types(input.dtype, vec1.dtype), vec2.dtype)
        input, vec1, vec2 = (t.to(common) for t in tensors)
    return _add_product(Addr, "addr", "addr", input, vec1, vec2, beta, alpha, out, _outer,
                        _outer_shapes)


# -- vector products ---------------------------------------------------------------------------

class Vdot(Op):
    inputs = ("self", "other")
    saves = {"self": ("other",), "other": ("self",)}

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad.conj() * b if need_a else None, grad * a if need_b else None)


@function()
def vdot(input, other, *, out=None):
    """sum(conj(input) * other) of two 1-D tensors."""
    _check_tensor("vdot", "input", 0, input)
    _check_tensor("vdot", "other", 1, other)
    a, b = input._data, other._data
    check_vectors(a, b)
    if a.dtype != b.dtype:
        raise RuntimeError(f"vdot : expected both vectors to have same dtype, but found "
                           f"{input.dtype._scalar_name} and {other.dtype._scalar_name}")
    _no_bool("dot", input)
    xp = backend_of(a).xp
    value = _sdot.sdot(a, b) if _sdot.applies(input, other) else _product(xp, xp.vdot, a, b)
    return _emit(Vdot, (input, other), value, {}, out, "vdot")


@function()
def inner(input, other, *, out=None):
    """Sum over the last dims: result[i..., j...] = sum_k input[i..., k] * other[j..., k]."""
    _check_tensor("inner", "input", 0, input)
    _check_tensor("inner", "other", 1, other)
    if input.ndim == 0 or other.ndim == 0:
        result = input * other
    else:
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError(f"inner() the last dimension must match on both input tensors but"
                               f" got shapes {list(input.shape)} and {list(other.shape)}")
        if input._data.dtype.kind == "b":      # (two vectors: a dot, else an mm)
            kernel = "dot" if input.ndim == other.ndim == 1 else "addmm_impl_cpu_"
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
        result = tensordot(input, other, ([-1], [-1]))
    return result if out is None else _copy_out("inner", out, result)


def _copy_out(name, out, result):
    check_out(name, out, result._data.dtype, result.requires_grad)
    return write_out(out, result._data)


@function()
def outer(input, vec2, *, out=None):
    """input[i] * vec2[j] of two 1-D tensors."""
    _check_tensor("outer", "input", 0, input)
    _check_tensor("outer", "vec2", 1, vec2)
    if input.ndim != 1 or vec2.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.ndim}-D"
                           if input.ndim != 1 else
                           f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
    result = input.reshape(input.shape[0], 1) * vec2     # (torch's nodes: a reshape, a mul)
    return result if out is None else _copy_out("outer", out, result)


@function()
def ger(input, vec2, *, out=None):
    """Alias of outer."""
    return outer(input, vec2, out=out)


# -- tensordot, kron, trace, cross -------------------------------------------------------------

@function(method=False)
def tensordot(a, b, dims=2, out=None):
    """Contract `dims` (a count of trailing/leading dims, or two lists of dims) of a and b."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a.dim() or dims > b.dim():     # (torch's Python code: a number has no dim)
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    for da, db in zip(dims_a, dims_b):      # torch names the dims as given
        # a contracted dim of size 1 broadcasts: the other operand's dim is summed at once
        if b.shape[db] == 1:
            a = a.sum(da, keepdim=True, dtype=a.dtype)
        elif a.shape[da] == 1:
            b = b.sum(db, keepdim=True, dtype=b.dtype)
        elif a.shape[da] != b.shape[db]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size "
                               f"{a.shape[da]} in dim {da} and second has size {b.shape[db]} "
                               f"in dim {db}")
    given_a, given_b = dims_a, dims_b       # (torch permutes by the dims as given)
    dims_a = [d % builtins.max(a.ndim, 1) for d in dims_a]
    dims_b = [d % builtins.max(b.ndim, 1) for d in dims_b]
    free_a = [d for d in range(a.ndim) if d not in dims_a]
    free_b = [d for d in range(b.ndim) if d not in dims_b]
    k = m = n = 1
    for d in dims_a:
        k *= a.shape[d]
    for d in free_a:
        m *= a.shape[d]
    for d in free_b:
        n *= b.shape[d]
    shape = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]
    left, right = a.permute(*free_a, *given_a), b.permute(*given_b, *free_b)
    if m == 1 and n == 1:       # (as torch: one number, a dot of the operands flattened)
        result = dot(left.flatten(), right.flatten()).view(shape)
    else:       # (sizes spelled out: with no elements, -1 would be ambiguous)
        result = left.reshape(m, k).mm(right.reshape(k, n)).view(shape)
    return result if out is None else _copy_out("tensordot", out, result)


class Kron(Op):
    node_name = "UnsafeViewBackward0"
    inputs = ("self", "other")
    saves = {"self": ("other",), "other": ("self",)}

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        n = ctx.ndim
        a_shape = tuple(a.shape) if a is not None else ctx.a_shape
        b_shape = tuple(b.shape) if b is not None else ctx.b_shape
        g = grad.reshape([s for pair in zip(a_shape, b_shape) for s in pair])
        dims_a, dims_b = tuple(range(1, 2 * n, 2)), tuple(range(0, 2 * n, 2))
        need_a, need_b = ctx.needs_input_grad
        ga = (g * _interleave(b.conj(), n, 0)).sum(dims_a) if need_a else None
        gb = (g * _interleave(a.conj(), n, 1)).sum(dims_b) if need_b else None
        return ga, gb


def _interleave(t, n, slot):
    """t with a size-1 dim inserted before (slot 0) or after (slot 1) each of its n dims."""
    shape = []
    for s in t.shape:
        shape += [1, s] if slot == 0 else [s, 1]
    return t.reshape(shape)


@function()
def kron(input, other, *, out=None):
    """Kronecker product (dims padded on the left to the same count)."""
    _check_tensor("kron", "input", 0, input)
    _check_tensor("kron", "other", 1, other)
    given = input, other
    if input.dtype != other.dtype:
        from .._dtype import promote_types
        dt = promote_types(input.dtype, other.dtype)
        input, other = input.to(dt), other.to(dt)
    n = builtins.max(input.ndim, other.ndim)
    a = input.reshape((1,) * (n - input.ndim) + tuple(input.shape))
    b = other.reshape((1,) * (n - other.ndim) + tuple(other.shape))
    # NOTE: torch's composition, for its layout: a as (a0, 1, a1, 1, ...) times b as
    # (1, b0, 1, b1, ...), then a view of the product as (a0 * b0, a1 * b1, ...). The product
    # takes its inputs' order, so its view may be refused (a transposed `a` with a row-major b).
    from ..autograd.grad_mode import no_grad
    with no_grad():
        product = _interleave(given[0].reshape(a.shape), n, 1) * \
            _interleave(given[1].reshape(b.shape), n, 0)
        shape = tuple(x * y for x, y in zip(a.shape, b.shape))
        result = (product.view(shape) if out is None else product.reshape(shape))._data
    params = {"ndim": n, "a_shape": tuple(a.shape), "b_shape": tuple(b.shape)}
    return _emit(Kron, (a, b), result, params, out, "kron")


class Trace(Op):
    def backward(ctx, grad):
        from .._creation import eye
        n, m = ctx.self_size
        return grad * eye(n, m, dtype=grad.dtype, device=grad.device)


@function()
def trace(input):
    """Sum of the main diagonal of a 2-D tensor (integers sum as int64)."""
    check_limited(input, "trace")     # (torch looks for a kernel first: bool has none)
    if input._data.dtype.kind == "b":
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if input.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " f"{input.ndim}")
    data = input._data
    dtype = "int64" if data.dtype.kind in "iu" else data.dtype
    xp = backend_of(data).xp
    result = xp.trace(data, dtype="float32" if data.dtype.itemsize == 2 and
                      data.dtype.kind in "fV" else dtype).astype(dtype)
    return _emit(Trace, (input,), result, {"self_size": tuple(data.shape)}, None, "trace")


class LinalgCross(Op):
    inputs = ("self", "other")
    saves = {"self": ("other",), "other": ("self",)}

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (_cross(b.conj(), grad, ctx.dim) if need_a else None,
                _cross(grad, a.conj(), ctx.dim) if need_b else None)


def _cross(a, b, dim):
    return cross(a, b, dim=dim)


def _check_cross_dim(input, other, dim):
    ndim = input.ndim
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-ndim}, {ndim - 1}], but got {dim})")
    if input.shape[dim] != 3 or other.shape[dim] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[dim]} and {other.shape[dim]}")


@function()
def cross(input, other, dim=None, *, out=None):
    """Cross product of 3-vectors along `dim` (default: the first dim of size 3)."""
    from .._geometry import broadcast_shapes
    if not isinstance(other, Tensor):
        raise not_a_tensor("cross", "other", 1, other)
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if dim is None:
        warn_once("Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                  "either pass the dim explicitly or simply use torch.linalg.cross.\nThe "
                  "default value of dim will change to agree with that of linalg.cross in a "
                  "future release.", UserWarning, stacklevel=2)     # (once, as torch's)
        # (the first dim of size 3 in input's own shape: torch picks it before broadcasting)
        dim = next((i for i, s in enumerate(input.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    _check_cross_dim(input, other, dim)     # (torch checks the lengths before broadcasting)
    shape = broadcast_shapes(tuple(input.shape), tuple(other.shape))
    dim = dim % len(shape)
    _same_dtype("linalg.cross", input, other)
    _no_bool("cross", input)
    xp = backend_of(input._data).xp
    a, b = xp.broadcast_to(input._data, shape), xp.broadcast_to(other._data, shape)
    result = xp.cross(a, b, axis=dim).astype(a.dtype, copy=False)
    return _emit(LinalgCross, (input, other), result, {"dim": dim}, out, "linalg.cross")


from .products_statistics import cdist, corrcoef, cov  # noqa: E402,F401  (registered there)
from .products_einsum import einsum  # noqa: E402,F401  (registered there)
