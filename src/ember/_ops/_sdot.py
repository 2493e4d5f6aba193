"""torch's float32 dot product on the CPU, bit for bit: BLAS's sdot as MKL computes it.

NOTE [ MKL's sdot ]
`torch.dot`, `vdot`, and `@`/`matmul`/`inner` of two vectors call BLAS's sdot, which torch's
x86 builds take from MKL. Observed on torch 2.13 (AVX2), for float32 vectors that start
16-byte aligned (a fresh tensor starts 64-byte aligned; a view at an offset that is a multiple
of four elements keeps that):
- each product is rounded to float32, then added with plain float32 adds (no fused step);
- there are four accumulators of four lanes each, from +0: in each block of 16 elements,
  element i goes to accumulator (i // 4) % 4, lane i % 4; after the last full block the
  remaining groups of four go to accumulators 0, 1, 0 in turn, and the last n % 4 products
  are added to lane 0 of accumulator 0 one after another;
- then ((acc0 + acc1) + acc2) + acc3 lane by lane, and the lanes as (l0 + l2) + (l1 + l3).
A vector starting elsewhere has its first elements peeled off in another order, and with more
than one thread MKL splits vectors of 8192 elements or more between threads: those (and other
dtypes) keep NumPy's dot.
"""
import numpy as np

from .._parallel import get_num_threads

_F32 = np.dtype(np.float32)
_SPLIT_AT = 8192        # the length from which MKL's threads share a vector


def applies(input, other):
    """Whether the dot of tensors `input` and `other` (1-D, the same length) follows the
    NOTE: float32 NumPy arrays, contiguous, starting 16-byte aligned in torch's layout."""
    a, b = input._data, other._data
    return a.__class__ is np.ndarray and b.__class__ is np.ndarray and a.dtype == _F32 and \
        b.dtype == _F32 and a.strides == b.strides == (4,) and \
        input._offset % 4 == 0 and other._offset % 4 == 0 and \
        (a.shape[0] < _SPLIT_AT or get_num_threads() == 1)


def sdot(a, b):
    """MKL's sdot of float32 NumPy vectors `a` and `b` (see the NOTE), a 0-d float32 array."""
    products = a * b
    n = products.shape[0]
    body = n - n % 16
    acc = np.add.reduce(products[:body].reshape(-1, 4, 4), axis=0, initial=_F32.type(0))
    rest = products[body:]
    for j in range(len(rest) // 4):
        acc[j % 2] += rest[4 * j:4 * j + 4]
    for value in rest[len(rest) // 4 * 4:]:
        acc[0, 0] += value
    lanes = ((acc[0] + acc[1]) + acc[2]) + acc[3]
    return np.asarray((lanes[0] + lanes[2]) + (lanes[1] + lanes[3]))
