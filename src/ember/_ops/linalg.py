"""Matrix products: matmul (`@`) with torch's 1-D/2-D/batched rules, mm, bmm, mv, dot.

Half-precision products accumulate in float32 and round once, as torch's CPU kernels do.
"""
import numpy as np

from .. import _dtype
from .._float8 import to_float8
from .._device import backend_of
from .._geometry import broadcast_shapes
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from . import _sdot
from ._dispatch import check_out, write_out
from ._op import Op, record
from .registry import FUNCTIONS, function


def _check_same_dtype(a, b):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{a.dtype._cpp_name} != {b.dtype._cpp_name}")


def _refuse_bool(input, other, kernel, always=False):
    """torch has no bool kernel, nor uint16/uint32/uint64 one, for products (mm and friends
    check only when there is work to do; dot always checks)."""
    dt = input._data.dtype
    # (of the float8 types, all but e8m0fnu have a matrix product, and nothing else)
    if (dt.kind == "b" or dt in _dtype.LIMITED_NP or dt in _dtype.FLOAT8_NP and (
            kernel != "addmm_impl_cpu_" or dt == _dtype.float8_e8m0fnu._np)) and (
            always or input._data.size and other._data.size):
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


def _product(xp, fn, a, b, batched=False):
    """Run `fn` (matmul/dot) on arrays, in float32 for half-precision inputs; `batched`: a
    product torch makes with bmm (NOTE [ Small batched products ])."""
    if a.dtype.itemsize == 2 and a.dtype.kind in "fV":
        if fn is xp.matmul and xp.__name__ != "numpy":    # NOTE [ Half products on the GPU ]
            from ..cuda._gemm import half_matmul
            result = half_matmul(xp, a, b)
            if result is not None:
                return result
        return _product(xp, fn, a.astype("float32"), b.astype("float32"),
                        batched).astype(a.dtype)
    if a.dtype in _dtype.FLOAT8_NP:         # in float32, rounded once as torch's conversion
        return to_float8(xp, fn(a.astype("float32"), b.astype("float32")), a.dtype)
    if batched and xp is np and a.dtype in _BLAS_FLOATS and a.dtype is b.dtype and \
            0 < a.shape[-1] and a.shape[-2] * a.shape[-1] * b.shape[-1] < _SMALL_BATCHED:
        return in_order_matmul(a, b)
    if fn is xp.matmul and (a.ndim > 2 or b.ndim > 2) and _loop_pays(xp, a, b):
        return _looped_matmul(xp, a, b)
    return fn(a, b)


_SMALL_BATCHED = 400     # rows * inner size * columns of torch's small bmm kernel


def in_order_matmul(a, b):
    """a @ b of NumPy arrays (matmul's broadcasting), each entry's products added one after
    another from +0.0, each product and sum rounded in the dtype.

    NOTE [ Small batched products ]: torch's bmm (so matmul of two batched operands, and
    baddbmm) multiplies matrices of fewer than 400 rows * inner size * columns with such a
    plain loop (observed on torch 2.13 for float32 and float64), and so do some of its other
    kernels (affine_grid's gradient). Attention weights of a few tokens and a few features
    are such products. This computes exactly that: the products, then a running sum from
    +0.0 over the inner dim (a lone entry's by add.accumulate, where NumPy's reduce would add
    pairwise; the +0.0 then turns a -0.0 into the +0.0 that a sum from +0.0 gives)."""
    # (the inner dim first: each addition is then one vector add over all the entries)
    d = max(a.ndim, b.ndim)     # (batch dims lined up, then each inner dim moved first)
    a = a.reshape((1,) * (d - a.ndim) + a.shape)
    b = b.reshape((1,) * (d - b.ndim) + b.shape)
    a_k = a.transpose((d - 1,) + tuple(range(d - 1)))[..., None]
    b_k = b.transpose((d - 2,) + tuple(range(d - 2)) + (d - 1,))[..., None, :]
    products = np.multiply(a_k, b_k, order="C")     # (NumPy would lay it out as the operands)
    k, shape = products.shape[0], products.shape[1:]                # (k, ..., m, n)
    flat = products.reshape(k, -1)
    if flat.shape[1] != 1:      # (NumPy adds along a leading axis one slice after another)
        return np.add.reduce(flat, axis=0, initial=0.0).reshape(shape)
    return (np.add.accumulate(flat[:, 0])[-1:] + a.dtype.type(0)).reshape(shape)


def gemm(input, other):
    """input @ other (torch's matmul broadcasting) as BLAS multiplies it, without a graph and
    without torch's small-bmm loop: the products inside torch's fused kernels."""
    xp = backend_of(input._data).xp
    return wrap(_product(xp, xp.matmul, input._data, other._data))


def _loop_pays(xp, a, b):
    """Batched products of matrices big enough for one BLAS call each.

    NOTE: NumPy's stacked matmul was measured (benchmarks/bench_linalg.py, 64x128x128
    float32) 2-3x slower than one 2-D matmul per matrix into a preallocated output; tiny
    matrices still go to the stacked kernel, where the Python loop would dominate.
    """
    if xp.__name__ != "numpy" or a.ndim < 2 or b.ndim < 2 or a.dtype != b.dtype:
        return False
    if a.ndim > 2 and b.ndim > 2 and a.shape[:-2] != b.shape[:-2]:
        return False            # broadcast batch dims: leave them to NumPy
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    batch = (a if a.ndim > 2 else b).shape[:-2]
    count = 1
    for s in batch:
        count *= s
    return 2 <= count <= 4096 and m * k * n >= 32768


def _looped_matmul(xp, a, b):
    batch = (a if a.ndim > 2 else b).shape[:-2]
    m, n = a.shape[-2], b.shape[-1]
    out = xp.empty(batch + (m, n), dtype=xp.result_type(a, b))
    flat = out.reshape((-1, m, n))
    a3 = a.reshape((-1,) + a.shape[-2:]) if a.ndim > 2 else None
    b3 = b.reshape((-1,) + b.shape[-2:]) if b.ndim > 2 else None
    for i in range(flat.shape[0]):
        xp.matmul(a if a3 is None else a3[i], b if b3 is None else b3[i], out=flat[i])
    return out


def _run(op, a, b, result, params, out, name):
    xp = backend_of(a._data).xp
    if result.__class__ is not xp.ndarray:
        result = xp.asarray(result)
    requires_grad = a._requires_grad or b._requires_grad
    if out is not None:
        check_out(name, out, result.dtype, requires_grad)
        return write_out(out, result)
    t = wrap(result)
    if requires_grad and _grad_state.enabled:
        record(op, (a, b), (t,), params)
    return t


def _check_tensors(name, a, b, second="other"):
    """Both operands are tensors (torch's TypeError naming the other one `second`), on one
    device."""
    for index, (arg, x) in enumerate((("input", a), (second, b))):
        if not isinstance(x, Tensor):
            from .argument_errors import not_a_tensor
            raise not_a_tensor(name, arg, index, x)
    cls = a._data.__class__
    if cls is np.ndarray and b._data.__class__ is cls:
        return                                  # (both in CPU memory)
    if cls is not b._data.__class__ or a.device != b.device:
        from .elementwise import check_same_device
        check_same_device(a, b)


def matrix_geometry(a, b):
    """What a matrix product's node keeps of its operands' arrays `a` and `b` for torch's
    saved sizes and strides (`matrix_shows`)."""
    return (a.shape, a.strides, b.shape, b.strides, a.itemsize)


def matrix_shows(first, second, edges):
    """`Op.shows` of a matrix product whose operands, named `first` and `second` by torch,
    are its inputs number `edges`: torch saves both operands' sizes, and the strides of each
    one that needs grad (() for the other), for its gradient kernels."""
    def sizes(k):
        return lambda node: node.geometry[2 * k]

    def strides(k):
        def read(node):
            if node.next_functions[edges[k]][0] is None:
                return ()
            strides = tuple(s // node.geometry[4] for s in node.geometry[2 * k + 1])
            shape = node.geometry[2 * k]
            if not any(strides) and 0 in shape:     # (NumPy's empty arrays: as Tensor.stride)
                from .._geometry import contiguous_strides
                strides = contiguous_strides(shape)
            return strides
        return read
    return {f"{first}_sym_sizes": sizes(0), f"{first}_sym_strides": strides(0),
            f"{second}_sym_sizes": sizes(1), f"{second}_sym_strides": strides(1)}


class Mm(Op):
    """Matrix product of two 2-D tensors."""
    inputs = ("self", "mat2")
    saves = {"self": ("mat2",), "mat2": ("self",)}
    shows = matrix_shows("self", "mat2", (0, 1))

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad.mm(b.mH) if need_a else None, a.mH.mm(grad) if need_b else None)


class Mv(Op):
    """Matrix-vector product."""
    inputs = ("self", "vec")
    saves = {"self": ("vec",), "vec": ("self",)}

    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        need_m, need_v = ctx.needs_input_grad
        return (grad.unsqueeze(1) * v.conj().unsqueeze(0) if need_m else None,
                m.mH.mv(grad) if need_v else None)


class Dot(Op):
    """Inner product of two 1-D tensors."""
    inputs = ("self", "tensor")
    saves = {"self": ("tensor",), "tensor": ("self",)}

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad * b.conj() if need_a else None, grad * a.conj() if need_b else None)


class Bmm(Op):
    """Batched matrix product of two 3-D tensors."""
    inputs = ("self", "mat2")
    saves = {"self": ("mat2",), "mat2": ("self",)}

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad.bmm(b.mH) if need_a else None, a.mH.bmm(grad) if need_b else None)


def _shape_x(shape):
    return "x".join(str(s) for s in shape)


_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


@function()
def matmul(input, other, *, out=None):
    """Matrix product with torch's rules for 1-D, 2-D and batched (broadcast) operands."""
    _check_tensors("matmul", input, other)
    a, b = input._data, other._data
    if a.__class__ is not np.ndarray and is_sparse_data(a):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.mm(input, other, "matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.ndim}D and {b.ndim}D")
    xp = backend_of(a).xp
    if a.ndim == 1 and b.ndim == 1:
        return dot(input, other, out=out)
    if a.ndim == 2 and b.ndim == 1:
        return mv(input, other, out=out)
    if a.ndim == 2 and b.ndim == 2:
        return mm(input, other, out=out)
    _matmul_checks(input, other)
    if a.ndim == 1 and b.ndim == 2 and out is None:
        # torch makes the vector a one-row matrix: its graph reads SqueezeBackward4 (an
        # in-place squeeze_), then MmBackward0, then UnsqueezeBackward0 for the vector
        if (a.__class__ is np.ndarray and b.__class__ is np.ndarray and a.dtype is b.dtype
                and a.dtype in _BLAS_FLOATS and not (_grad_state.enabled and (
                    input._requires_grad or other._requires_grad))):
            # (no graph: that one-row product, squeezed, in a fresh tensor whose version
            # counts the squeeze_, without the three ops' dispatch)
            result = wrap(np.matmul(a[None, :], b)[0])
            result._bump_version()
            return result
        return mm(input.unsqueeze(0), other).squeeze_(0)
    result = _product(xp, xp.matmul, a, b, batched=a.ndim > 2 and b.ndim > 2)
    if out is None and (input._requires_grad or other._requires_grad) and _grad_state.enabled:
        from .matmul_graph import matmul_graph      # NOTE [ matmul's graph ]
        return matmul_graph(input, other, result)
    return _run(None, input, other, result, {}, out, "matmul")     # (no node to record)


def _matmul_checks(input, other):
    """torch's checks, in its order, for the products matmul makes of its operands: 1-D @ 2-D
    is a (1, k) mm, a batched left operand with a 1-D/2-D right one is folded into one
    mv/mm, and anything else is a bmm over the broadcast batch."""
    a, b = input.shape, other.shape
    k = a[-1]
    rows = 1
    for n in a[:-1]:
        rows *= n
    if len(b) == 1:
        _check_mv(input, other, (rows, k))
    elif len(b) == 2:
        _check_mm(input, other, (rows, k), b)
    else:
        batch = broadcast_shapes(tuple(a[:-2]), tuple(b[:-2]))
        size = 1
        for n in batch:
            size *= n
        _check_bmm(input, other, (size, 1 if len(a) == 1 else a[-2], k), (size, *b[-2:]))


def _check_mm(input, mat2, a, b):
    """mm's checks of (a)x(b) matrices: shapes, then dtypes, then bool."""
    if a[1] != b[0]:
        if input.is_meta:                   # (torch's meta kernel's words)
            raise RuntimeError(f"a and b must have same reduction dim, but got [{a[0]}, {a[1]}] "
                               f"X [{b[0]}, {b[1]}].")
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape_x(a)} and "
                           f"{_shape_x(b)})")
    _check_same_dtype(input, mat2)
    _refuse_bool(input, mat2, "addmm_impl_cpu_")


def _check_bmm(input, mat2, a, b):
    """bmm's checks of (B, n, k) and (B, k', m) batches: shapes, then dtypes, then bool."""
    if b[0] != a[0] or b[1] != a[2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a[0]}, {a[2]}] but got: [{b[0]}, {b[1]}].")
    if input._data.dtype != mat2._data.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found "
                           f"{mat2.dtype._scalar_name}")
    _refuse_bool(input, mat2, "bmm")


def _check_mv(input, vec, a):
    """mv's checks of an (a) matrix and a vector: sizes, then dtypes, then bool."""
    if a[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a[0]}), mat ({_shape_x(a)}),"
                           f" vec ({vec.shape[0]})")
    if input._data.dtype != vec._data.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{vec.dtype._scalar_name}, {input.dtype._scalar_name}, and "
                           f"{vec.dtype._scalar_name}")
    _refuse_bool(input, vec, "addmv_impl_cpu")


@function()
def mm(input, mat2, *, out=None):
    """Product of two matrices."""
    _check_tensors("mm", input, mat2, "mat2")
    a, b = input._data, mat2._data
    if a.__class__ is not np.ndarray and is_sparse_data(a):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.mm(input, mat2, "mm")
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    _check_mm(input, mat2, a.shape, b.shape)
    xp = backend_of(a).xp
    return _run(Mm, input, mat2, _product(xp, xp.matmul, a, b),
                {"geometry": matrix_geometry(a, b)}, out, "mm")


# torch.spmm is mm under its old sparse name: either operand may be sparse or dense, the node
# is MmBackward0 and its argument errors name mm().
FUNCTIONS["spmm"] = FUNCTIONS["mm"]


@function()
def bmm(input, mat2, *, out=None):
    """Batched product of two 3-D tensors (no broadcasting)."""
    _check_tensors("bmm", input, mat2, "mat2")
    a, b = input._data, mat2._data
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    _check_bmm(input, mat2, a.shape, b.shape)
    xp = backend_of(a).xp
    return _run(Bmm, input, mat2, _product(xp, xp.matmul, a, b, batched=True), {}, out, "bmm")


@function()
def mv(input, vec, *, out=None):
    """Product of a matrix and a vector."""
    _check_tensors("mv", input, vec, "vec")
    a, b = input._data, vec._data
    if a.ndim != 2 or b.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {a.ndim}, {a.ndim}, "
                           f"{b.ndim}")
    _check_mv(input, vec, a.shape)
    xp = backend_of(a).xp
    return _run(Mv, input, vec, _product(xp, xp.matmul, a, b), {}, out, "mv")


def check_vectors(a, b):
    """torch's checks that dot/vdot get two 1-D arrays of one length."""
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements, but got "
                           f"{a.shape[0]} and {b.shape[0]} elements respectively")


@function()
def dot(input, tensor, *, out=None):
    """Inner product of two 1-D tensors with the same number of elements."""
    _check_tensors("dot", input, tensor, "tensor")
    a, b = input._data, tensor._data
    if a.ndim == 1 and b.ndim == 1 and a.dtype != b.dtype:     # torch checks before sizes
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{input.dtype._scalar_name} and {tensor.dtype._scalar_name}")
    check_vectors(a, b)
    _refuse_bool(input, tensor, "dot", always=True)
    xp = backend_of(a).xp
    value = _sdot.sdot(a, b) if _sdot.applies(input, tensor) else \
        xp.asarray(_product(xp, xp.dot, a, b))      # (NOTE [ MKL's sdot ])
    return _run(Dot, input, tensor, value, {}, out, "dot")

