"""Distances and statistics built on products: cdist (CdistBackward0), cov and corrcoef
(compositions of ember's differentiable ops, so their graphs end in torch's nodes).
"""
import builtins

from .. import _dtype
from .._device import backend_of
from .._geometry import broadcast_shapes
from .._memory_format import row_major
from .._tensor import Tensor
from ._op import Op
from .argument_errors import type_name
from .products import _emit
from .registry import function
from .. import _warn


class Cdist(Op):
    inputs = ("x1", "x2")
    saves = {"x1": ("x1", "x2", "result"), "x2": ("x1", "x2", "result")}

    def backward(ctx, grad):
        from .compare import where
        x1, x2, dist = ctx.saved_tensors
        p = ctx.p
        diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)          # (..., P, R, M)
        g, d = grad.unsqueeze(-1), dist.unsqueeze(-1)
        if p == 0:
            inner = diff * 0
        elif p == 1:
            inner = diff.sign()
        elif p == float("inf"):
            inner = diff.sign() * (diff.abs() == d)
        else:
            # (torch's kernel: no gradient where the distance is 0, nor, for p < 1, where a
            # coordinate's difference is; ones stand in there, so that no power divides by 0)
            zero = (d == 0) | (diff == 0) if p < 1 else d == 0
            size = where(zero, diff.abs() * 0 + 1, diff.abs())
            scaled = diff.sign() * size ** (p - 1) / where(d == 0, d * 0 + 1, d) ** (p - 1)
            inner = where(zero, diff * 0, scaled)
        term = g * inner
        need_1, need_2 = ctx.needs_input_grad
        return (term.sum(-2) if need_1 else None, -term.sum(-3) if need_2 else None)


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                "donot_use_mm_for_euclid_dist")


def _check_cdist_kernel(x1, x2, p, mode):
    """The errors of the kernel torch picks: matrix products (p = 2, asked for or more than
    25 rows) refuse two dtypes in mm's words (bmm's for batches); the direct kernel takes
    float and double only, then refuses a second dtype."""
    mm = p == 2 and (mode == "use_mm_for_euclid_dist" or mode == _CDIST_MODES[0] and (
        x1.shape[-2] > 25 or x2.shape[-2] > 25))
    if mm and x1.ndim == 2 and x2.ndim == 2:       # (batches go through bmm's check below)
        if x1.dtype != x2.dtype:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                               f"{x1.dtype._cpp_name} != {x2.dtype._cpp_name}")
        return
    if x1._data.dtype.itemsize < 4 and not mm:
        raise NotImplementedError(f'"cdist" not implemented for \'{x1.dtype._scalar_name}\'')
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype._scalar_name} but found "
                           f"{x2.dtype._scalar_name}")


@function(method=False)
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """p-norm distances between the rows of x1 (..., P, M) and of x2 (..., R, M).
    `compute_mode` must name one of torch's three modes (None included in the refusal);
    ember computes exact differences in every mode."""
    for arg, x, position in (("x1", x1, 1), ("x2", x2, 2)):
        if not isinstance(x, Tensor):      # (torch's Python cdist passes both by position)
            raise TypeError(f"cdist(): argument '{arg}' (position {position}) must be Tensor, "
                            f"not {type_name(x)}")
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X{1 if x1.ndim < 2 else 2}"
                           f" got: {x1.ndim if x1.ndim < 2 else x2.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    for i, x in ((1, x1), (2, x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, X{i} got: "
                               f"{x.dtype._scalar_name}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    xp = backend_of(x1._data).xp
    a, b = x1._data, x2._data
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])       # torch's text on a mismatch
    if 0 in batch + a.shape[-2:-1] + b.shape[-2:-1] or not a.shape[-1]:
        # (no distance to compute: torch's kernel never runs, whatever the dtypes)
        fill = xp.empty if 0 in batch + a.shape[-2:-1] + b.shape[-2:-1] else xp.zeros
        return _emit(Cdist, (x1, x2), fill(batch + (a.shape[-2], b.shape[-2]), a.dtype),
                     {"p": p}, None, "cdist")
    _check_cdist_kernel(x1, x2, p, compute_mode)
    a = xp.broadcast_to(a, batch + a.shape[-2:])
    b = xp.broadcast_to(b, batch + b.shape[-2:])
    if p == 2:
        # NOTE: exact differences (not the |a|^2 + |b|^2 - 2ab trick): small and accurate.
        diff = a[..., :, None, :] - b[..., None, :, :]
        result = xp.sqrt((diff * diff).sum(-1))
    else:
        diff = xp.abs(a[..., :, None, :] - b[..., None, :, :])
        if p == 0:
            result = (diff != 0).sum(-1).astype(a.dtype)
        elif p == float("inf"):
            result = diff.max(-1) if diff.shape[-1] else diff.sum(-1)
        elif p == 1:
            result = diff.sum(-1)
        else:
            result = (diff ** p).sum(-1) ** (1.0 / p)
    # (row-major whatever the inputs' layouts, as torch's kernel writes it)
    result = row_major(xp, result.astype(a.dtype, copy=False))
    return _emit(Cdist, (x1, x2), result, {"p": p}, None, "cdist")


def _check_cov_weights(name, w, n):
    """torch's checks of cov's fweights (integral) or aweights (floating): one or fewer
    dimensions, one weight per observation, none negative."""
    if name == "fweights":
        wrong_kind, wanted = w.dtype.is_floating_point or w.dtype.is_complex, "integral"
    else:
        wrong_kind, wanted = not w.dtype.is_floating_point, "floating point"
    if wrong_kind:
        raise RuntimeError(f"cov(): expected {name} to have {wanted} dtype but got {name} with "
                           f"{w.dtype._scalar_name} dtype")
    if w.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {w.ndim} dimensions")
    if w.numel() != n:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {n}")
    if bool((w < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")


@function()
def cov(input, *, correction=1, fweights=None, aweights=None):
    """Covariance of the rows (variables) of a 1-D or 2-D tensor of observations."""
    if input.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.ndim} dimensions")
    if input._data.dtype.kind == "b":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input if input.ndim == 2 else input.view(1, -1)
    if not x.dtype.is_floating_point and not x.dtype.is_complex:
        # integers are averaged in the default dtype, or in floating aweights' dtype
        weighted = isinstance(aweights, Tensor) and aweights.dtype.is_floating_point
        x = x.to(aweights.dtype if weighted else _dtype.get_default_dtype())
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_cov_weights("fweights", fweights, n)
        w = fweights
    if aweights is not None:
        _check_cov_weights("aweights", aweights, n)
        w = aweights if w is None else w * aweights
    if w is None:
        avg = x.mean(1)
        w_sum = n
        norm = n - correction
    else:
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
        if correction == 0:
            norm = w_sum
        elif aweights is None:
            norm = w_sum - correction
        else:
            norm = w_sum - correction * (w * aweights).sum() / w_sum
    if (norm <= 0).item() if isinstance(norm, Tensor) else norm <= 0:
        _warn.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                   "than the number of observations.", UserWarning, stacklevel=2)
    if isinstance(norm, Tensor):
        norm = norm.clamp_min(0)
    else:
        norm = builtins.max(norm, 0)
    xm = x - avg.unsqueeze(1)
    xw = xm if w is None else xm * w
    c = xw.mm(xm.mH)
    return (c / norm).squeeze()


@function()
def corrcoef(input):
    """Pearson correlation coefficients of the rows of a 1-D or 2-D tensor."""
    if input.ndim > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but "
                           f"got an input with {input.ndim} dimensions")
    c = cov(input)
    if c.ndim == 0:
        return c / c
    d = c.diagonal()
    std = d.real.sqrt() if c.dtype.is_complex else d.sqrt()
    c = c / std.unsqueeze(1)
    c = c / std.unsqueeze(0)
    return c if c.dtype.is_complex else c.clamp(-1, 1)
