"""`make_tensor`: a random tensor of a given shape and dtype for tests, as torch.testing's."""
import collections.abc
import math

from .. import _dtype
from .. import _warn

# dtype kind -> default [low, high)
_DEFAULT_RANGE = {"bool": (0, 2), "unsigned": (0, 10), "signed": (-9, 10), "float": (-9, 9)}


def _kind(dtype):
    if dtype is _dtype.bool:
        return "bool"
    if dtype.is_floating_point or dtype.is_complex:
        return "float"
    return "unsigned" if dtype is _dtype.uint8 else "signed"


def _limits(dtype):
    """The dtype's representable interval [lowest, highest)."""
    if dtype is _dtype.bool:
        return 0, 2
    if dtype.is_floating_point or dtype.is_complex:
        info = _dtype.finfo(dtype.to_real() if dtype.is_complex else dtype)
        return info.min, info.max
    info = _dtype.iinfo(dtype)
    return info.min, info.max + 1


def _range(dtype, low, high):
    kind = _kind(dtype)
    default_low, default_high = _DEFAULT_RANGE[kind]
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    lowest, highest = _limits(dtype)
    if low == high and kind == "float":
        _warn.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                   "complex types is deprecated since 2.1 and will be removed in 2.3. Use "
                   "`torch.full(...)` instead.", FutureWarning, stacklevel=3)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), "
                         f"but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if kind != "float":
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of `shape` with values drawn uniformly from [low, high) (defaults by dtype:
    floats and complex [-9, 9), signed integers [-9, 10), uint8 [0, 10), bool [0, 2)).

    >>> make_tensor((3,), dtype=ember.float32, device="cpu", low=-1, high=1)
    """
    from .._creation import empty
    from .._ops.elementwise_extra import view_as_real
    from .._ops.sampling import randint
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got noncontiguous={noncontiguous} and "
                         f"memory_format={memory_format}")
    if requires_grad and _kind(dtype) in ("bool", "unsigned", "signed"):
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    full = (*shape[:-1], 2 * shape[-1]) if noncontiguous else shape
    low, high = _range(dtype, low, high)
    if dtype.is_complex:
        result = empty(full, dtype=dtype, device=device)
        view_as_real(result).uniform_(low, high)        # real and imaginary parts alike
    elif _kind(dtype) == "float":
        result = empty(full, dtype=dtype, device=device).uniform_(low, high)
    else:
        result = randint(low, high, full, device=device).to(dtype)
    if noncontiguous:
        result = result[..., ::2]
    elif memory_format is not None:
        result = result.contiguous(memory_format=memory_format)
    if exclude_zero:
        if _kind(dtype) == "float":
            tiny = _dtype.finfo(dtype.to_real() if dtype.is_complex else dtype).tiny
            result[result == 0] = complex(tiny, tiny) if dtype.is_complex else tiny
        else:
            result[result == 0] = 1
    if requires_grad:
        result.requires_grad_(True)
    return result
