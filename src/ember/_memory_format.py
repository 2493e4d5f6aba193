"""Memory formats: torch's names for the layouts of a dense tensor.

`contiguous_format` is row-major; `channels_last` stores an NCHW tensor as NHWC (the channel
innermost) and `channels_last_3d` an NCDHW one as NDHWC; `preserve_format` asks a copy to keep
its input's layout. A layout is only strides: the shape and the indexing stay NCHW, which is
why `x.contiguous(memory_format=channels_last)` prints as `x` does but has other `stride()`.
"""
import functools

import numpy as np

from ._device import backend_of


class memory_format:
    """One of `ember.contiguous_format`, `channels_last`, `channels_last_3d`,
    `preserve_format`."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):               # pickles as the module-level constant it is
        return self.name


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

# The dims of each channels-last layout from the outermost in memory to the innermost.
_ORDER = {channels_last: (0, 2, 3, 1), channels_last_3d: (0, 2, 3, 4, 1)}


def check_rank(fmt, ndim):
    """torch's error for a channels-last layout asked of a tensor of the wrong rank."""
    order = _ORDER.get(fmt)
    if order is not None and ndim != len(order):
        raise RuntimeError(f"required rank {len(order)} tensor to use {fmt.name} format")


def is_laid_out(array, fmt):
    """Whether `array` (a NumPy or CuPy array) is dense in layout `fmt`; as in torch, the
    stride of a dim of size 1 does not matter."""
    order = _ORDER.get(fmt)
    if order is None:
        return array.flags.c_contiguous
    if array.ndim != len(order):
        return False
    expected = array.itemsize
    for d in reversed(order):
        size = array.shape[d]
        if size != 1:
            if array.strides[d] != expected:
                return False
            expected *= size
    return True


def memory_order(array):
    """The dims of `array` from the largest stride to the smallest (the order torch's element
    loops walk it in), where that is not their index order; else None."""
    if array.flags.c_contiguous or array.ndim < 2:
        return None
    perm = sorted(range(array.ndim), key=lambda d: -array.strides[d])
    return None if perm == list(range(array.ndim)) else perm


def lay_out(xp, array, fmt):
    """A copy of `array` dense in layout `fmt` (contiguous_format or a channels-last one)."""
    order = _ORDER.get(fmt)
    if order is None:
        return xp.array(array, order="C", copy=True)
    if not array.size:
        # torch's formula multiplies the sizes as they are, so a dim of size 0 makes the
        # strides outside it 0 ((1, 0, 2, 4) channels-last: 0, 1, 0, 0); NumPy gives an empty
        # array zero strides in every dim, which Tensor.stride reads as row-major
        strides, step = [0] * array.ndim, 1
        for d in reversed(order):
            strides[d] = step
            step *= array.shape[d]
        return backend_of(array).strided(xp.empty(0, array.dtype), array.dtype, array.shape,
                                         strides, 0)
    inverse = [order.index(d) for d in range(len(order))]
    # NOTE: a fresh array, even where NumPy would call the transposed view contiguous already
    # (a dim of size 1): torch's channels-last strides are its formula's (2x1x4x5: 20, 1, 5, 1)
    out = xp.empty(tuple(array.shape[d] for d in order), dtype=array.dtype)
    out[...] = array.transpose(order)
    return out.transpose(inverse)


def format_strides(shape, fmt):
    """torch's (element) strides of a dense tensor of `shape` in layout `fmt`."""
    order = _ORDER.get(fmt)
    if order is None:
        from ._geometry import contiguous_strides
        return tuple(contiguous_strides(tuple(shape)))
    strides, step = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


def laid_out_exactly(xp, array, fmt):
    """`array` if it has exactly torch's strides of layout `fmt` (those of size-1 dims
    included), else a copy that has them."""
    order = _ORDER.get(fmt)
    if order is None:
        return row_major(xp, array)
    step = array.itemsize
    for d in reversed(order):
        if array.strides[d] != step:
            return lay_out(xp, array, fmt)
        step *= array.shape[d]
    return array


def row_major(xp, array):
    """`array` if it is row-major with torch's strides, else a row-major copy: the layout of
    the results that torch's kernels allocate contiguous whatever their input's layout
    (reductions, scans, softmax). NOTE: NumPy keeps its input's order in such results and
    calls an array contiguous whatever the stride of a dim of size 1."""
    if array.flags.c_contiguous and (array.ndim < 2 or 1 not in array.shape):
        return array
    expected, step = [], array.itemsize
    for size in reversed(array.shape):
        expected.append(step)
        step *= max(size, 1)
    if array.flags.c_contiguous and tuple(reversed(expected)) == array.strides:
        return array
    out = xp.empty(array.shape, dtype=array.dtype)
    out[...] = array
    return out


def suggested(array):
    """torch's `suggest_memory_format`: the layout of the result of a layout-aware op
    (convolution, pooling, `.to(memory_format=...)`'s aliasing) on `array`. Channels-last where
    the strides grow from the channel dim outwards as that layout's do (torch's
    `is_channels_last_strides_2d`/`_3d`, which ambiguous cases such as one channel, or N x 1 x 1
    x 1, leave row-major), else row-major."""
    if array.ndim not in (4, 5):
        return contiguous_format
    item = array.itemsize
    return suggested_by(array.shape, [s // item for s in array.strides])


def suggested_by(shape, strides):
    """`suggested` for a tensor of `shape` and (element) `strides`."""
    fmt = {4: channels_last, 5: channels_last_3d}.get(len(shape))
    if fmt is None:
        return contiguous_format
    if strides[1] == 0:
        return contiguous_format
    smallest = 0
    for d in reversed(_ORDER[fmt]):               # innermost first: C, W, H, (D,) N
        if shape[d] == 0 or strides[d] < smallest or (d == 0 and smallest == strides[1]):
            return contiguous_format
        smallest = strides[d] * (shape[d] if shape[d] > 1 else 1)
    return fmt


def follow(xp, out, *arrays):
    """`out` laid out channels-last where one of the op's `arrays` suggests it, else itself."""
    for array in arrays:
        fmt = suggested(array)
        if fmt is not contiguous_format:
            return lay_out(xp, out, fmt)
    return out


@functools.lru_cache(maxsize=256)
def preserved_order(shape, strides):
    """The dims of a tensor from the innermost in memory to the outermost, as torch lays out a
    copy that preserves its layout (`preserve_format`): by increasing stride, a dim of equal
    stride and smaller size further in, and a dim of stride 0 (expanded) left where its index
    puts it (row-major relative to its neighbours)."""
    order = list(range(len(shape) - 1, -1, -1))

    def inner_first(a, b):
        """-1 when dim `a` belongs inside dim `b`, 1 when outside, 0 when either will do."""
        if strides[a] == 0 or strides[b] == 0:
            return 0
        if strides[a] != strides[b]:
            return -1 if strides[a] < strides[b] else 1
        return 1 if shape[a] > shape[b] else 0

    return tuple(_sorted_dims(order, inner_first))


def _sorted_dims(order, verdict):
    """`order` (dims, innermost first) insertion-sorted as torch's TensorIterator sorts dims:
    `verdict(a, b)` is 1 where dim `a` belongs outside dim `b` (they swap), -1 where inside
    (the scan stops), 0 where either will do (the scan goes on past it)."""
    for i in range(1, len(order)):
        j = i
        for k in range(i - 1, -1, -1):
            v = verdict(order[k], order[j])
            if v > 0:
                order[k], order[j] = order[j], order[k]
                j = k
            elif v < 0:
                break
    return order


def empty_preserving(xp, array, dtype):
    """An uninitialised array of `array`'s shape and `dtype` laid out as torch's
    `preserve_format` copy of it: its strides where it is non-overlapping and dense (strides of
    size-1 dims included: arange(4.)[::2][:1] copies with stride 2), else dense in its dims'
    order (an expanded or sliced tensor copies to a dense one)."""
    if array.flags.c_contiguous and 1 not in array.shape and array.size or \
            array.ndim == 1 and array.shape[0] > 1 and array.strides[0] != array.itemsize:
        return xp.empty_like(array, dtype=dtype, order="K")
    item = array.itemsize
    strides = tuple(s // item for s in array.strides)
    # (torch calls every empty tensor non-overlapping and dense: its copy keeps the strides,
    # unless they are NumPy's zeros of a fresh empty array, which read as row-major)
    if non_overlapping_dense(array) and array.size or not array.size and any(strides):
        extent = 1 + sum((n - 1) * s for n, s in zip(array.shape, strides)) if array.size else 0
        return backend_of(array).strided(xp.empty(extent, dtype), np.dtype(dtype), array.shape,
                                         strides, 0)
    if array.ndim < 2 or array.size == 0:
        return xp.empty_like(array, dtype=dtype, order="K")
    order = preserved_order(array.shape, strides)
    outer = order[::-1]
    block = xp.empty([array.shape[d] for d in outer], dtype=dtype)
    return block.transpose([outer.index(d) for d in range(array.ndim)])


def copy_preserving(xp, array, dtype=None):
    """A copy of `array` (as `dtype`) laid out as torch's `preserve_format` copy."""
    if array.flags.c_contiguous and 1 not in array.shape and array.size or array.ndim == 0:
        return xp.array(array, dtype=dtype, copy=True)
    out = empty_preserving(xp, array, array.dtype if dtype is None else dtype)
    out[...] = array
    return out


def _iterator_strides(array, shape):
    """`array`'s strides against the broadcast `shape` as torch's TensorIterator sees them:
    missing leading dims and broadcast dims of size 1 have stride 0."""
    lead = len(shape) - array.ndim
    strides = [0] * lead
    for d, (size, stride) in enumerate(zip(array.shape, array.strides)):
        strides.append(0 if size == 1 and shape[lead + d] != 1 else stride)
    return strides


def iterator_order(shape, arrays):
    """The dims of an element-wise result from the innermost in memory to the outermost, as
    torch's TensorIterator orders them: an insertion sort where the first operand whose strides
    of two dims differ (neither 0) decides, equal strides put the smaller dim inside, and
    nothing decided keeps row-major order. So the first operand's layout wins (a channels-last
    tensor plus a row-major one is channels-last, the other way round row-major)."""
    all_strides = [_iterator_strides(a, shape) for a in arrays]

    def should_swap(d0, d1):
        for strides in all_strides:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    return _sorted_dims(list(range(len(shape) - 1, -1, -1)), should_swap)


def iterator_layout(xp, result, arrays):
    """`result` of an element-wise op on `arrays` laid out as torch lays out that op's result
    (see `iterator_order`): NumPy keeps row-major order wherever its operands disagree, torch
    follows the first operand. Only needed where some operand is not row-major."""
    shape = result.shape
    perm = iterator_order(shape, arrays)
    expected, step = [0] * len(shape), result.itemsize
    for d in perm:
        expected[d] = step
        step *= max(shape[d], 1)
    if tuple(expected) == result.strides:
        return result
    outer = perm[::-1]
    out = xp.empty([shape[d] for d in outer], dtype=result.dtype)
    out = out.transpose([outer.index(d) for d in range(len(shape))])
    out[...] = result
    return out


def laid_out_like(array, like=None):
    """`array` in a fresh layout: `like`'s strides where `like` is non-overlapping and dense
    (torch's results allocated with empty_like(input): sort's, the CPU flash attention's),
    else row-major, size-1 dims included (topk, and sort of a sliced or expanded input)."""
    if isinstance(array, np.generic):           # (NumPy answers some 0-dim results so)
        return np.asarray(array)
    backend = backend_of(array)
    xp = backend.xp
    if like is not None and like.ndim > 1 and like.size and non_overlapping_dense(like):
        strides = [s // like.itemsize for s in like.strides]
        if list(array.strides) == [s * array.itemsize for s in strides]:
            return array                        # (already so: no copy)
        out = backend.strided(xp.empty(array.size, array.dtype), array.dtype, array.shape,
                              strides, 0)
        out[...] = array
        return out
    if array.ndim > 1 and 1 in array.shape or not array.flags.c_contiguous:
        out = xp.empty(array.shape, array.dtype)
        out[...] = array
        return out
    return array


def non_overlapping_dense(array):
    """torch's is_non_overlapping_and_dense: the dims of size > 1, ordered by stride, are laid
    out like a contiguous tensor's."""
    item = array.itemsize
    expected = 1
    for stride, n in sorted((s // item if s % item == 0 else -1, n)
                            for n, s in zip(array.shape, array.strides) if n > 1):
        if stride != expected:
            return False
        expected *= n
    return True


memory_format.__module__ = "ember"       # (printed as torch prints its own: <class 'torch.memory_format'>)
