"""The row sums of softmax and log_softmax along the last dim, added in torch's CPU order.

NOTE [ Softmax's row sums ]
torch's CPU kernels for softmax and log_softmax along the last (contiguous) dim add each row's
exponentials with its vector code's map-reduce, whose order differs from NumPy's pairwise sum
(observed on torch 2.13 with 256-bit vectors: L = 8 float32 or 4 float64 lanes):

- a row shorter than one vector is added element by element, left to right;
- otherwise the first L elements are the accumulator, each further full vector is added lane
  by lane, and the k leftover elements are added into lanes 0..k-1; then the accumulator's
  halves are added (lane i + lane i + L/2), and again, down to one lane.

With NumPy's order, about half of a float32 batch's log_softmax rows (and so of
cross_entropy's losses, which print with every digit through `.item()`) differed from torch's
in the last bit; with this one, a few in a hundred do, where the exponentials themselves
differ (torch's SLEEF functions are within one ulp, ember's correctly rounded). Along other
dims torch adds the rows one after another, which is what NumPy's reduction over a leading
axis does already.
"""
import numpy as np

LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def row_sums(e):
    """Sums of the last axis of float32/float64 NumPy array `e`, in torch's order (see the
    NOTE), keeping that axis (size 1)."""
    lanes = LANES[e.dtype]
    n = e.shape[-1]
    if not n or not e.size:
        return np.add.reduce(e, axis=-1, keepdims=True)
    # NOTE: the rows' elements are laid out column-major first (one copy), so that each step
    # below is one add over whole contiguous runs of rows; on the rows themselves, the lane
    # steps of a short row each cost NumPy a loop of a few elements per row (a 128x10 batch:
    # 17 -> 8 us, 4096x10: 289 -> 42 us). NumPy adds along a leading axis one slice after
    # another, as the NOTE's loops do.
    columns = np.ascontiguousarray(e.reshape(-1, n).T)      # (n, rows)
    if n < lanes:                       # element by element, left to right
        total = np.add.reduce(columns, axis=0)
    else:
        full = n // lanes * lanes
        acc = np.add.reduce(columns[:full].reshape(full // lanes, lanes, -1), axis=0) \
            if full > lanes else columns[:lanes]        # (lanes, rows)
        if full < n:
            acc = acc.copy() if full == lanes else acc
            acc[:n - full] += columns[full:]
        while lanes > 1:
            lanes //= 2
            acc = acc[:lanes] + acc[lanes:]
        total = acc[0]
    return total.reshape(e.shape[:-1] + (1,))
