"""torch.gradient: a function's derivative along each dim, estimated from its samples by central
differences inside and one-sided differences of order 1 or 2 at the edges.

It is composed of ember's ops (slices, arithmetic, one `cat` per dim), so it differentiates
(through torch's node, CatBackward0) to any order.
"""
import numbers

from .. import _geometry as geo
from .._tensor import Tensor
from .registry import function


def _dims(input, dim):
    if dim is None:
        return list(range(input.ndim)), False
    dims = [dim] if isinstance(dim, int) else list(dim)
    wrapped = [geo.wrap_dim(d, input.ndim) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return wrapped, True


def _is_scalar(x):
    return isinstance(x, numbers.Number) or (isinstance(x, Tensor) and x.ndim == 0)


def _spacings(input, spacing, dims, dim_given):
    """One spacing per dim of `dims`: a number, or a 1-D tensor of coordinates."""
    if _is_scalar(spacing):
        return [spacing.item() if isinstance(spacing, Tensor) else spacing] * len(dims)
    spacing = list(spacing)
    if not dim_given and len(spacing) != input.ndim:
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a "
                           f"list of length equal to 'self.dim() = {input.ndim}', since dim "
                           f"argument was not given, but got a list of length {len(spacing)}")
    if dim_given and len(spacing) != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or "
                           f"it's spacing and dim arguments to have the same length, but got a "
                           f"spacing argument of length {len(spacing)} and a dim argument of "
                           f"length {len(dims)}.")
    for s in spacing:
        if isinstance(s, Tensor) and s.ndim != 1:
            raise RuntimeError(f"torch.gradient expected each element of spacing to have one "
                               f"dimension, but got an element with {s.ndim} dimensions!")
    if all(isinstance(s, numbers.Number) for s in spacing):
        return spacing
    for i, s in enumerate(spacing):     # NOTE: torch then reads it as a list of tensors
        if not isinstance(s, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got "
                            f"{type(s).__name__}")
    return spacing


@function(method=False)
def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """The derivative of the sampled function `input` along each dim (a tuple, one tensor per
    dim), with `spacing` a sample distance or 1-D coordinates per dim.

    >>> ember.gradient(ember.tensor([1., 4., 9., 16.]))
    (tensor([3., 4., 6., 7.]),)
    """
    if input.dtype._np.kind == "u":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    dims, dim_given = _dims(input, dim)
    spacings = _spacings(input, spacing, dims, dim_given)
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")
    return tuple(_along(input, d, h, edge_order) for d, h in zip(dims, spacings))


def _along(x, d, h, edge_order):
    from .joining import cat
    n = x.shape[d]

    def part(start, length=None):
        start = start + n if start < 0 else start
        return x.narrow(d, start, n - start if length is None else length)

    if isinstance(h, Tensor):
        return cat(_with_coordinates(x, d, h, edge_order, part), d)
    center = (part(2) - part(0, n - 2)) / (2 * h)
    if edge_order == 1:
        first = (part(1, 1) - part(0, 1)) / h
        last = (part(-1) - part(-2, 1)) / h
    else:
        first = (-1.5 * part(0, 1) + 2 * part(1, 1) - 0.5 * part(2, 1)) / h
        last = (0.5 * part(-3, 1) - 2 * part(-2, 1) + 1.5 * part(-1)) / h
    return cat([first, center, last], d)


def _with_coordinates(x, d, coords, edge_order, part):
    """The three pieces (first, interior, last) for samples at `coords` along dim `d`."""
    n = x.shape[d]
    shape = [1] * x.ndim
    shape[d] = -1
    dx = coords[1:] - coords[:-1]
    dx1, dx2 = dx[:-1].reshape(shape), dx[1:].reshape(shape)
    a = -dx2 / (dx1 * (dx1 + dx2))
    b = (dx2 - dx1) / (dx1 * dx2)
    c = dx1 / (dx2 * (dx1 + dx2))
    center = a * part(0, n - 2) + b * part(1, n - 2) + c * part(2)
    if edge_order == 1:
        first = (part(1, 1) - part(0, 1)) / dx[0]
        last = (part(-1) - part(-2, 1)) / dx[-1]
        return [first, center, last]
    h1, h2 = dx[0], dx[1]
    first = (-(2 * h1 + h2) / (h1 * (h1 + h2)) * part(0, 1) + (h1 + h2) / (h1 * h2) * part(1, 1)
             - h1 / (h2 * (h1 + h2)) * part(2, 1))
    h1, h2 = dx[-2], dx[-1]
    last = (h2 / (h1 * (h1 + h2)) * part(-3, 1) - (h1 + h2) / (h1 * h2) * part(-2, 1)
            + (2 * h2 + h1) / (h2 * (h1 + h2)) * part(-1))
    return [first, center, last]
