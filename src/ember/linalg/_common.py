"""Shared pieces of ember.linalg: argument checks with torch's texts, and turning kernel
results into tensors (one output, or several sharing one node)."""
import builtins
import contextlib

import numpy

from .._device import backend_of
from .._meta import META_NUMPY
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from .._ops._dispatch import check_out, write_out
from .._ops._op import record
from .._ops.argument_errors import type_name


class _LinAlgError(RuntimeError):
    """A matrix that cannot be factorized or inverted: torch.linalg.LinAlgError, whose class
    torch names `_LinAlgError` (as tracebacks and `type(e).__name__` show)."""


LinAlgError = _LinAlgError
_LinAlgError.__module__ = "ember._C"


# torch's schemas name the first argument `self` (printed "input") for these functions, `A`
# for the rest.
_INPUT_NAMED = frozenset({"cholesky", "cholesky_ex", "eigh", "eigvalsh", "eig", "eigvals",
                          "matrix_norm", "vector_norm", "norm", "matrix_power", "lstsq"})


def check_tensor(name, x, arg=None, position=1):
    if not isinstance(x, Tensor):
        if arg is None:
            arg = "input" if name in _INPUT_NAMED else "A"
        raise TypeError(f"linalg_{name}(): argument '{arg}' (position {position}) must be "
                        f"Tensor, not {type_name(x)}")


def check_float(name, x, complex_ok=True):
    """torch's linalg kernels take float32/float64 (and complex): ints and halves are refused."""
    kind, size = x._data.dtype.kind, x._data.dtype.itemsize
    empty = x._data.size == 0
    if size == 2 and kind in "fV":
        if name in ("vector_norm", "matrix_norm", "norm") or (
                empty and name in _UNCHECKED and name not in _KERNEL_EVEN_EMPTY):
            return
        if name in _UNCHECKED:
            raise NotImplementedError(f'"{_UNCHECKED[name]}" not implemented for '
                                      f"'{x.dtype._scalar_name}'")
        raise RuntimeError(f"linalg.{name}: Low precision dtypes not supported. Got "
                           f"{x.dtype._scalar_name}")
    if empty and name in ("eigh", "eigvalsh"):
        return          # NOTE: torch checks these kernels' dtypes only where there is work
    if not ((kind == "f" and size >= 4) or (kind == "c" and complex_ok)):
        if name in _INTEGER_REFUSALS:
            error, text = _INTEGER_REFUSALS[name]
            raise error(text.format(x.dtype._scalar_name))
        if complex_ok:
            raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as "
                               f"input. Got {x.dtype._scalar_name}")
        raise RuntimeError(f"linalg.{name}: Expected a floating point tensor as input. Got "
                           f"{x.dtype._scalar_name}")


# kernels that take half dtypes to their own (missing) kernel rather than refusing them upfront
_UNCHECKED = {"det": "lu_cpu", "eigh": "linalg_eigh_cpu", "eigvalsh": "linalg_eigh_cpu",
              "eig": "linalg_eig_out_cpu", "eigvals": "linalg_eig_out_cpu",
              "svd": "linalg_svd_cpu", "qr": "geqrf_cpu", "cholesky": "cholesky_cpu",
              "solve": "lu_cpu"}
# those whose kernel refuses a half-precision input even when it is empty (the others are
# not reached without elements)
_KERNEL_EVEN_EMPTY = {"qr", "eig", "eigvals"}
# what torch says of integer and bool inputs where its kernel, not a check, refuses them
_INTEGER_REFUSALS = {
    "eigh": (NotImplementedError, '"linalg_eigh_cpu" not implemented for \'{}\''),
    "eigvalsh": (NotImplementedError, '"linalg_eigh_cpu" not implemented for \'{}\''),
    "eig": (RuntimeError, "Unknown Complex ScalarType for {}"),
    "eigvals": (RuntimeError, "Unknown Complex ScalarType for {}"),
}


def check_square(name, x, arg="A", prefix="linalg."):
    """A batch of square matrices (torch's legacy functions name themselves without the
    `linalg.` prefix)."""
    shape = tuple(x.shape)
    if len(shape) < 2:
        raise RuntimeError(f"{prefix}{name}: The input tensor {arg} must have at least 2 "
                           f"dimensions.")
    if shape[-1] != shape[-2]:
        raise RuntimeError(f"{prefix}{name}: {arg} must be batches of square matrices, but "
                           f"they are {shape[-2]} by {shape[-1]} matrices")


def check_matrix(name, x, arg="A"):
    if x.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor {arg} must have at least 2 "
                           f"dimensions.")


def raising(xp):
    """Where `xp.linalg` must raise LinAlgError on a singular (not positive-definite) matrix.

    NumPy always does. CuPy's cholesky / inv / solve read cuSOLVER's status only inside
    cupyx.errstate(linalg='raise') (a wait for the device); by default they hand back invalid
    values without a word. ember needs the error (torch's messages and `info` outputs), so
    its calls that catch LinAlgError run inside this."""
    if xp is numpy or xp is META_NUMPY:         # (meta arrays have no values to check)
        return contextlib.nullcontext()
    import cupyx
    return cupyx.errstate(linalg="raise")


def svd_arrays(xp, a, full_matrices):
    """LAPACK's SVD of the arrays `a` (u, s, vh), failing on a NaN with torch's error."""
    try:
        with raising(xp):
            return xp.linalg.svd(a, full_matrices=full_matrices)
    except xp.linalg.LinAlgError:
        # NOTE: torch names the call linalg.svd for svdvals, pinv, cond and matrix norms too
        raise LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                          "matrix contained non-finite values.") from None


def xp_of(x):
    return backend_of(x._data).xp


# torch's out= dtype rules differ by function: its linalg kernels want `out` of the result's
# dtype exactly, while functions composed of other ops (and eigvals) first check only that the
# result casts safely ("same kind") to it. Keyed by the name after "linalg_".
_EXACT_OUT = "Expected out tensor to have dtype {rc}, but got {gc} instead"
_OUT_DTYPE_RULES = {
    **dict.fromkeys(("inv", "inv_ex", "det", "slogdet", "eigvalsh", "svdvals", "cholesky",
                     "solve", "solve_ex", "lu_solve", "cross", "matrix_power", "eigh", "svd",
                     "qr", "lu", "lu_factor", "lu_factor_ex", "cholesky_ex", "ldl_factor",
                     "ldl_factor_ex"), _EXACT_OUT),
    "solve_triangular": "expected scalar type {r} but found {g}",
    "vecdot": "linalg.vecdot: Expected out of dtype{r} but found {g}",
    "multi_dot": "multi_dot(): expected out tensor to have dtype {rc} but got {gc}",
}
_CASTABLE_OUT = {"cond": "linalg.cond", "pinv": "linalg.pinv", "matrix_power": "matrix_power",
                 "householder_product": "torch.linalg.householder_product",
                 "tensorinv": "tensorinv", "tensorsolve": "tensorsolve",
                 "eigvals": "torch.linalg.eigvals", "eig": "torch.linalg.eig"}
# the older top-level functions (torch.cholesky, torch.cholesky_inverse) only check castability
_LEGACY_CASTABLE_OUT = {"cholesky": "cholesky", "cholesky_inverse": "cholesky_inverse"}


def check_linalg_out(name, out, dtype, requires_grad, legacy=False, index=0):
    """check_out for linalg's `out=` with torch's dtype rule for `name` (see above); `dtype`
    is the result's array dtype; `legacy` for the older top-level functions; `index`: which
    of the function's outputs `out` is."""
    if (isinstance(out, Tensor) and out._data.dtype != dtype
            and not ((requires_grad or out._requires_grad) and _grad_state.enabled)):
        from .. import _dtype
        res, got = _dtype._FROM_NUMPY[dtype], _dtype._FROM_NUMPY[out._data.dtype]
        castable = _LEGACY_CASTABLE_OUT if legacy else _CASTABLE_OUT
        if name in castable and not _dtype.can_cast(res, got):
            what = ("result" if not name.startswith("eig") else
                    "eigenvectors" if index else "eigenvalues")
            raise RuntimeError(f"{castable[name]}: Expected {what} to be safely castable "
                               f"from {res._scalar_name} dtype, but got {what} with dtype "
                               f"{got._scalar_name}")
        if name in _OUT_DTYPE_RULES and not legacy:
            raise RuntimeError(_OUT_DTYPE_RULES[name].format(
                r=res._scalar_name, g=got._scalar_name, rc=res._cpp_name, gc=got._cpp_name))
    check_out(f"linalg_{name}", out, dtype, requires_grad)


def emit(op, inputs, results, params, out=None, name="", grad_outputs=1):
    """Kernel arrays `results` (one, or a tuple) as tensors; the first `grad_outputs` of them
    carry `op`'s node when an input requires grad. `out=` takes a tensor or a tuple."""
    single = not isinstance(results, tuple)
    arrays = (results,) if single else results
    xp = xp_of(inputs[0])
    arrays = tuple(xp.asarray(a) for a in arrays)
    requires_grad = builtins.any(t._requires_grad for t in inputs)
    if out is not None:
        outs = (out,) if single else tuple(out)
        legacy = op is not None and not op.__name__.startswith("Linalg")
        for i, (o, a) in enumerate(zip(outs, arrays)):
            check_linalg_out(name, o, a.dtype, requires_grad, legacy, i)
        written = tuple(write_out(o, a) for o, a in zip(outs, arrays))
        return written[0] if single else written
    tensors = tuple(wrap(a) for a in arrays)
    if requires_grad and _grad_state.enabled and grad_outputs:
        record(op, inputs, tensors, params, num_outputs=grad_outputs)
    return tensors[0] if single else tensors


def tril_mask(t, diagonal=0):
    """t with the elements above `diagonal` zeroed (a product with a constant mask)."""
    xp = xp_of(t)
    mask = xp.tril(xp.ones(tuple(t.shape[-2:]), dtype=t._data.dtype), diagonal)
    return t * wrap(mask)


def diag_embed(v):
    """A batch of diagonal matrices from a batch of vectors (differentiable)."""
    from .._creation import eye
    n = v.shape[-1]
    return v.unsqueeze(-1) * eye(n, dtype=v.dtype, device=v.device)


def eye_like(t):
    from .._creation import eye
    return eye(t.shape[-1], dtype=t.dtype, device=t.device)
