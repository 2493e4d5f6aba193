"""Triangles and diagonals: tril, triu, tril_indices, triu_indices, diag, diag_embed,
diagflat."""
from .. import _dtype, _geometry as geo, _memory_format as _mf
from .._creation import _backend, zeros
from .._device import backend_of
from .._tensor import Tensor, wrap
from ._dispatch import Inplace, check_out
from ._op import Op
from .elementwise import check_limited
from .int_arguments import check_ints, int_argument
from .registry import function
from .shaping import run_copy


# -- tril / triu -------------------------------------------------------------------------------

class Tril(Op):
    """The lower triangle of the last two dims (the rest zeroed)."""

    def backward(ctx, grad):
        return grad.tril(ctx.diagonal)


class Triu(Op):
    """The upper triangle of the last two dims (the rest zeroed)."""

    def backward(ctx, grad):
        return grad.triu(ctx.diagonal)


def _triangle(op, name, input, diagonal, out):
    if diagonal.__class__ is not int:
        diagonal = int_argument(name, "diagonal", 1, diagonal)
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    check_limited(input, name)
    if out is not None and out.__class__ is not Inplace and isinstance(out, Tensor) and \
            out.dtype != input.dtype:
        check_out(name, out, out._data.dtype, input._requires_grad)   # (autograd is refused first)
        raise RuntimeError(f"Expected out tensor to have dtype {input.dtype._cpp_name}, but got "
                           f"{out.dtype._cpp_name} instead")
    data = input._data
    xp = backend_of(data).xp
    # (torch's result is row-major whatever the input's layout)
    result = _mf.row_major(xp, getattr(xp, name)(data, diagonal))
    return run_copy(op, input, result, {"diagonal": diagonal}, out, name)


@function(inplace=True)
def tril(input, diagonal=0, *, out=None):
    """Elements on and below diagonal `diagonal` of the last two dims; zeros elsewhere."""
    return _triangle(Tril, "tril", input, diagonal, out)


@function(inplace=True)
def triu(input, diagonal=0, *, out=None):
    """Elements on and above diagonal `diagonal` of the last two dims; zeros elsewhere."""
    return _triangle(Triu, "triu", input, diagonal, out)


def _indices(name, row, col, offset, dtype, device):
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    dtype = dtype or _dtype.int64
    if dtype._np.kind != "i" or dtype.itemsize < 4:
        raise NotImplementedError(f"\"{name}\" not implemented for '{dtype._scalar_name}'")
    xp = _backend(device).xp
    rows, cols = getattr(xp, name)(row, offset, col)
    return wrap(xp.stack([rows, cols]).astype(dtype._np))


@function(method=False)
def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, col) coordinates of the lower triangle of a row x col matrix, as 2 x N."""
    return _indices("tril_indices", row, col, offset, dtype, device)


@function(method=False)
def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, col) coordinates of the upper triangle of a row x col matrix, as 2 x N."""
    return _indices("triu_indices", row, col, offset, dtype, device)


# -- diagonals ---------------------------------------------------------------------------------

class DiagEmbed(Op):
    """The last dim laid on a diagonal of two new dims."""

    def backward(ctx, grad):
        return grad.diagonal(ctx.offset, ctx.dim1, ctx.dim2)


@function()
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonal `offset` of dims (dim1, dim2) holds the last dim of `input`
    (zeros elsewhere)."""
    if offset.__class__ is not int or dim1.__class__ is not int or dim2.__class__ is not int:
        check_ints("diag_embed", 1, offset=offset, dim1=dim1, dim2=dim2)
        offset = int(offset)
    ndim = input.ndim + 1
    d1, d2 = geo.wrap_dim(dim1, ndim), geo.wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    data = input._data
    xp = backend_of(data).xp
    n = data.shape[-1] if data.ndim else 1
    m = n + abs(offset)
    result = xp.zeros(data.shape[:-1] + (m, m), data.dtype)
    i = xp.arange(n)
    rows, cols = (i, i + offset) if offset >= 0 else (i - offset, i)
    result[..., rows, cols] = data
    # NOTE: built with the diagonal's dims last, then moved to (dim1, dim2)
    result = xp.moveaxis(result, (-2, -1), (d1, d2)).copy()
    return run_copy(DiagEmbed, input, result, {"offset": offset, "dim1": d1, "dim2": d2})


class DiagonalCopy(Op):
    """A diagonal of a matrix, copied (torch.diag of a 2-D tensor)."""
    node_name = "DiagonalBackward0_copy"

    def backward(ctx, grad):
        result = zeros(ctx.self_size, dtype=grad.dtype, device=grad.device)
        result.diagonal(ctx.offset).copy_(grad)
        return result


@function()
def diag(input, diagonal=0, *, out=None):
    """1-D: a square matrix with `input` on diagonal `diagonal`; 2-D: that diagonal, copied."""
    if diagonal.__class__ is not int:
        diagonal = int_argument("diag", "diagonal", 1, diagonal)
    if input.ndim == 1:
        if out is not None:
            result = diag_embed(input.detach(), diagonal, 0, 1)._data
            return run_copy(DiagEmbed, input, result, {}, out, "diag")
        return diag_embed(input, diagonal, 0, 1)
    if input.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    data = input._data
    xp = backend_of(data).xp
    result = xp.diagonal(data, diagonal).copy()
    return run_copy(DiagonalCopy, input, result, {"self_size": data.shape, "offset": diagonal},
                    out, "diag")


@function()
def diagflat(input, offset=0):
    """A square matrix with the flattened `input` on diagonal `offset`."""
    if offset.__class__ is not int:
        offset = int_argument("diagflat", "offset", 1, offset)
    return diag_embed(input.reshape(-1), offset, 0, 1)
