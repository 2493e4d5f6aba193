"""randperm: 0..n-1 shuffled as torch's CPU kernel shuffles it (NOTE [ Torch's CPU random
streams ] in `_random.py`), and the checks of its size against the result's dtype."""
import operator

import numpy as np

from ._random import (_F16, _F32, _F64, _LIMITED, _NAMES, _REAL_OF, _as_int64, _cast, _gen,
                      _is_float, _scalar_name)

# NOTE: from this size torch switches to an "inside-out" shuffle with 64-bit draws, so that the
# modulo bias of 32-bit words stays negligible.
_RANDPERM_64BIT_FROM = (2 ** 32 - 1) // 20


def _check_randperm(n, dtype):
    if n < 0:       # (torch makes the result first, then dispatches on its dtype)
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if dtype == np.bool_ or dtype in _REAL_OF or dtype not in _NAMES or dtype in _LIMITED:
        raise NotImplementedError(f"\"randperm\" not implemented for '{_scalar_name(dtype)}'")
    if dtype == _F16 and n > (1 << 11) + 1:
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if dtype == _F32 and n > (1 << 24) + 1:
        raise RuntimeError("n cannot be greater than 2^24+1 for Float type.")
    if dtype == _F64 and n > (1 << 53) + 1:
        raise RuntimeError("n cannot be greater than 2^53+1 for Double type.")
    if not _is_float(dtype) and n - 1 > np.iinfo(dtype).max:
        raise RuntimeError(
            f"value cannot be converted to type {_NAMES[dtype][2]} without overflow")


def randperm(gen, n, dtype=np.int64):
    """A random permutation of 0..n-1, as `torch.randperm(n)` shuffles it."""
    gen, dtype = _gen(gen), np.dtype(dtype)
    n = _as_int64(operator.index(n))
    _check_randperm(n, dtype)
    return _cast(np.asarray(_shuffled(gen, n), np.int64), dtype)


def randperm_list(gen, n):
    """`randperm(gen, n).tolist()`, without the array in between (a sampler's epoch order)."""
    perm = _shuffled(_gen(gen), n)
    return perm if perm.__class__ is list else perm.tolist()


def _shuffled(gen, n):
    """0..n-1 shuffled as torch's CPU randperm does: a list below 2^32 / 20 elements (a Fisher-
    Yates shuffle over 32-bit draws), else an int64 array (the 64-bit variant)."""
    if n < _RANDPERM_64BIT_FROM:
        perm = list(range(n))
        if n > 1:
            counts = np.arange(n - 1, dtype=np.uint64)
            targets = (gen._words32(n - 1) % (np.uint64(n) - counts) + counts).tolist()
            for i, j in enumerate(targets):
                perm[i], perm[j] = perm[j], perm[i]
        return perm
    perm = np.empty(n, np.int64)
    for start in range(0, n, 1 << 20):
        stop = min(start + (1 << 20), n)
        bounds = np.arange(start + 1, stop + 1, dtype=np.uint64)
        for i, j in enumerate((gen._words64(stop - start) % bounds).tolist(), start):
            perm[i] = perm[j]
            perm[j] = i
    return perm
