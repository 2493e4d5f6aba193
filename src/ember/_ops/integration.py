"""The trapezoidal rule: trapezoid (and its old name trapz) and cumulative_trapezoid, composed
of ember's ops so that torch's nodes (MulBackward1, CumsumBackward0) and gradients follow."""
from .. import _geometry as geo
from .._tensor import Tensor
from .registry import function


def _check_spacing(name, y, x, dx, dim=-1):
    if (x is not None and not isinstance(x, Tensor)) or (x is not None and dx is not None):
        given = ", ".join(type(a).__name__.replace("Tensor", "Tensor") for a in (y, x))
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({given}), but expected one of:\n * (Tensor y, Tensor x, *, int dim "
                        f"= -1)\n * (Tensor y, *, Number dx = 1, int dim = -1)\n")
    empty = name == "trapezoid" and y.ndim and not y.shape[dim]    # (answered before)
    if x is not None and not empty and (y._data.dtype.kind == "b" or
                                        x._data.dtype.kind == "b"):
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not "
                           f"supported")
    if y._data.dtype.kind == "b" and not empty:
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")


def _check_dim(name, y, x, dim):
    """torch's dim errors, which come before the dtype checks: dim is wrapped (for a 0-dim
    y too when x is a tensor), then a 0-dim y has no dim."""
    if isinstance(x, Tensor) or y.ndim:
        dim = geo.wrap_dim(dim, y.ndim)
    elif y.ndim == 0 and name == "cumulative_trapezoid":
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if y.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


def _parts(y, dim):
    n = y.shape[dim]
    return y.narrow(dim, 1, n - 1), y.narrow(dim, 0, n - 1)


def _spacing(x, y, dim):
    """The differences of the sample points, shaped to broadcast against y's intervals."""
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        d = x[1:] - x[:-1]
        view = [1] * y.ndim
        view[dim] = d.shape[0]
        return d.view(view)
    n = x.shape[dim]
    return x.narrow(dim, 1, n - 1) - x.narrow(dim, 0, n - 1)


@function(method=False)
def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The integral of y along `dim` by the trapezoidal rule, with sample points x (a tensor)
    or a constant spacing dx (default 1)."""
    if y.ndim == 0 or not -y.ndim <= dim < y.ndim:
        _check_dim("trapezoid", y, x, dim)
    _check_spacing("trapezoid", y, x, dx, dim)
    dim = dim % y.ndim if y.ndim else dim
    if y.shape[dim] == 0:       # NOTE: zeros of y's own dtype, as torch (no promotion)
        return y.new_zeros(tuple(s for d, s in enumerate(y.shape) if d != dim))
    if isinstance(x, Tensor):
        upper, lower = _parts(y, dim)
        return ((upper + lower) * _spacing(x, y, dim)).sum(dim) / 2
    spacing = 1 if dx is None else dx
    ends = y.select(dim, 0) + y.select(dim, -1)
    return (y.sum(dim) - ends * 0.5) * spacing


@function(method=False)
def trapz(y, x=None, *, dx=None, dim=-1):
    """trapezoid's older name."""
    return trapezoid(y, x, dx=dx, dim=dim)


@function(method=False)
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoidal integral of y along `dim` (one fewer element than y)."""
    _check_spacing("cumulative_trapezoid", y, x, dx, dim)     # (bool before the dim)
    if y.ndim == 0 or not -y.ndim <= dim < y.ndim:
        _check_dim("cumulative_trapezoid", y, x, dim)
    dim = dim % y.ndim if y.ndim else dim
    upper, lower = _parts(y, dim) if y.shape[dim] else (y, y)
    if isinstance(x, Tensor):
        return ((upper + lower) * _spacing(x, y, dim)).cumsum(dim) / 2
    spacing = 1 if dx is None else dx
    return ((upper + lower) * (spacing / 2)).cumsum(dim)
