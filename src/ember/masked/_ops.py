"""torch.masked's functions on plain tensors: each fills the masked-out elements with its
reduction's identity (0 for sums, 1 for products, -inf for maxima, ...) and reduces with the
ordinary op, so autograd records the ordinary nodes.

NOTE [ Masked reductions ] (as torch.masked computes them): `mask` broadcasts to the input's
shape (None keeps every element). A slice whose elements are all masked out gives the
identity (sum 0, amax -inf, logsumexp -inf, norm 0) or nan where there is none (mean, var,
std, median, and softmax's whole slice). `dtype` converts the input first; argmax/argmin give
their indices in that dtype (the input's by default), as torch's do.
"""
import math

import ember

def _mask_of(input, mask):
    if mask is None:
        return ember.ones_like(input, dtype=ember.bool)
    return mask.to(ember.bool).expand(input.shape) if mask.shape != input.shape else \
        mask.to(ember.bool)


def _filled(input, mask, identity, dtype=None):
    """The input in `dtype`, its masked-out elements set to `identity`."""
    if dtype is not None and dtype is not input.dtype:
        input = input.to(dtype)
    return ember.where(_mask_of(input, mask), input, identity)


def _lowest(dtype):
    return -math.inf if dtype.is_floating_point else ember.iinfo(dtype).min


def _highest(dtype):
    return math.inf if dtype.is_floating_point else ember.iinfo(dtype).max


def _dims(input, dim):
    """`dim` as a tuple of dims (all of them for None or ())."""
    if dim is None:
        return tuple(range(input.ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return dims or tuple(range(input.ndim))


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The sum of the kept elements over `dim` (all dims by default)."""
    return _filled(input, mask, 0, dtype).sum(_dims(input, dim), keepdim=keepdim)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The product of the kept elements over `dim` (one dim at a time)."""
    result = _filled(input, mask, 1, dtype)
    for d in sorted((d % max(input.ndim, 1) for d in _dims(input, dim)), reverse=True):
        result = result.prod(d, keepdim=keepdim) if input.ndim else result
    return result


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The mean of the kept elements (nan where none is kept)."""
    if dtype is None and not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise ValueError(f"mean(): Could not infer output dtype. Input dtype must be either a "
                         f"floating point or complex dtype. Got: {input.dtype}")
    dims = _dims(input, dim)
    total = sum(input, dims, keepdim=keepdim, dtype=dtype, mask=mask)
    count = _mask_of(input, mask).sum(dims, keepdim=keepdim)
    return total / count.to(total.dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The largest kept element (-inf where none is kept)."""
    dtype = dtype or input.dtype
    return _filled(input, mask, _lowest(dtype), dtype).amax(_dims(input, dim), keepdim=keepdim)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The smallest kept element (inf where none is kept)."""
    dtype = dtype or input.dtype
    return _filled(input, mask, _highest(dtype), dtype).amin(_dims(input, dim), keepdim=keepdim)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Where the largest kept element is (0 where none is kept), in `dtype`."""
    dtype = dtype or input.dtype
    filled = _filled(input, mask, _lowest(dtype), dtype)
    return filled.argmax(dim, keepdim=keepdim).to(dtype)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Where the smallest kept element is (0 where none is kept), in `dtype`."""
    dtype = dtype or input.dtype
    filled = _filled(input, mask, _highest(dtype), dtype)
    return filled.argmin(dim, keepdim=keepdim).to(dtype)


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """log(sum(exp)) of the kept elements (-inf where none is kept)."""
    dtype = dtype or input.dtype
    filled = _filled(input, mask, _lowest(dtype), dtype)
    return filled.logsumexp(_dims(input, dim), keepdim=keepdim).to(dtype)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    """The (lower) median of the kept elements along `dim` (nan where none is kept)."""
    dtype = dtype or input.dtype
    if not dtype.is_floating_point:
        if not _mask_of(input, mask).any(dim).all():
            raise ValueError("masked median expects no fully masked out rows if dtype is not "
                             "floating point")
        return median(input.double(), dim, keepdim=keepdim, mask=mask).to(dtype)
    filled = _filled(input, mask, math.nan, dtype)
    return filled.nanmedian(dim, keepdim=keepdim).values


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The `ord`-norm of the kept elements (0 where none is kept)."""
    dtype = dtype or input.dtype
    if ord == -math.inf and not dtype.is_floating_point:       # (torch's identity needs inf)
        raise AssertionError(f"input must be floating point, got {dtype}")
    identity = math.inf if ord == -math.inf else 0
    filled = _filled(input, mask, identity, dtype)
    return ember.linalg.vector_norm(filled, ord, _dims(input, dim), keepdim=keepdim)


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None,
        mask=None):
    """The variance of the kept elements, divided by their count less `correction` (1,
    or 0 when `unbiased` is False); nan where none is kept."""
    if correction is None:
        correction = 0 if unbiased is False else 1
    dims = _dims(input, dim)
    kept = _mask_of(input, mask)
    if dtype is None and not (input.dtype.is_floating_point or input.dtype.is_complex):
        dtype = ember.get_default_dtype()       # (an integer input's variance is a float)
    centre = mean(input, dims, keepdim=True, dtype=dtype, mask=mask)
    values = input if dtype is None else input.to(dtype)
    squares = ember.where(kept, (values - centre).abs() ** 2, 0).sum(dims, keepdim=keepdim)
    count = kept.sum(dims, keepdim=keepdim).to(squares.dtype)
    return squares / (count - correction).clamp(min=0)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None,
        mask=None):
    """The square root of `var`."""
    return var(input, dim, unbiased, correction=correction, keepdim=keepdim, dtype=dtype,
               mask=mask).sqrt()


def cumsum(input, dim, *, dtype=None, mask=None):
    """Running sums along `dim`, masked-out elements adding nothing."""
    return _filled(input, mask, 0, dtype).cumsum(dim)


def cumprod(input, dim, *, dtype=None, mask=None):
    """Running products along `dim`, masked-out elements multiplying by one."""
    return _filled(input, mask, 1, dtype).cumprod(dim)


def _refuse_integers(input, dtype, kernel):
    """Run the plain kernel on an integer input without `dtype`, for its error."""
    if not (dtype or input.dtype).is_floating_point:
        kernel(input)


def softmax(input, dim, *, dtype=None, mask=None):
    """Softmax over the kept elements (0 at masked-out ones; nan for a slice without any)."""
    _refuse_integers(input, dtype, lambda x: x.softmax(dim))
    return _filled(input, mask, -math.inf, dtype).softmax(dim)


def log_softmax(input, dim, *, dtype=None, mask=None):
    """log_softmax over the kept elements (-inf at masked-out ones)."""
    _refuse_integers(input, dtype, lambda x: x.log_softmax(dim))
    return _filled(input, mask, -math.inf, dtype).log_softmax(dim)


def softmin(input, dim, *, dtype=None, mask=None):
    """Softmax of the negated kept elements."""
    _refuse_integers(input, dtype, lambda x: x.softmax(dim))
    return _filled(-input, mask, -math.inf, dtype).softmax(dim)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    """The kept elements divided by their `ord`-norm along `dim` (at least `eps`); 0 at
    masked-out ones."""
    total = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return _filled(input, mask, 0, dtype) / total.clamp(min=eps)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    """logaddexp of the two, each one's masked-out elements counting as -inf."""
    dtype = dtype or input.dtype
    _refuse_integers(input, dtype, lambda x: ember.logaddexp(x, other))
    return ember.logaddexp(_filled(input, input_mask, -math.inf, dtype),
                           _filled(other, other_mask, -math.inf, dtype))
