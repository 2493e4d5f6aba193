"""Array kernels of the convolutions (any number of spatial dims, NumPy or CuPy): forward,
transposed (the input gradient) and weight gradient, each a batched matmul plus strided copies.

NOTE [ Convolution kernels ]: a convolution is a batched matmul of the weight, viewed as
(groups, out/groups, in/groups * prod(kernel)), with the "columns" of the padded input: an
as_strided window view (batch, groups, in/groups, *kernel, *positions) copied to
(batch, groups, in/groups * prod(kernel), prod(positions)). The transposed convolution is the
adjoint: weight^T @ input gives columns, added back into the padded image one kernel offset at a
time (col2im). The weight gradient is the sum over the batch of grad_output @ columns^T.

Two layouts of the positions:
- exact: the output positions themselves. Copies run along the last output dim, which for
  small images is a handful of elements per NumPy inner loop.
- full rows: when every spatial stride but the first is 1, a window's element for output
  position (o1, r) sits at flat offset o1 * stride1 * row + r of the padded image, where
  row = prod(padded sizes after the first) and r runs over the whole row, past the last valid
  output position. Then each (channel, kernel offset) is one contiguous run of out1 * row
  elements (stride1 = 1), the matmul computes a few positions too many, and one copy crops them.
  A window of a position past the valid ones reads into the next row or image (a small zeroed
  slack follows the buffer), so its column holds values that belong elsewhere: forward crops
  those positions, and the gradients give them a zero grad_output, so they add nothing (unless
  the values are inf or nan: 0 * inf is nan).
`_full_rows` picks the layout with fewer estimated copy costs (elements moved, plus a fixed cost
per contiguous run).
"""
import math
import weakref

import numpy as np

_RUN_COST = 16      # a NumPy inner loop's fixed cost, in elements copied


class _Pool:
    """NOTE [ Scratch buffers ]: glibc gives large freed blocks back to the OS, so each fresh
    large array page-faults on its first touch; in a small CNN's training step that was about
    3,000 faults, a third of the step's time. The kernels' own temporaries (padded images,
    columns, full-row products) come from this pool of NumPy buffers instead, and go back to it
    where the code knows that nothing refers to them any more: the forward's columns after the
    weight gradient has used them, the others before the kernel returns. Arrays a kernel
    returns are ordinary arrays. CuPy has its own memory pool, so CuPy arrays bypass this."""

    def __init__(self, limit):
        self._free = {}         # nbytes -> [uint8 buffers]
        self._held = 0
        self._limit = limit
        self._mine = {}         # id -> weak reference, for each buffer this pool made

    def _new(self, nbytes):
        buf = np.empty(nbytes, np.uint8)
        key = id(buf)
        self._mine[key] = weakref.ref(buf, lambda _, key=key: self._mine.pop(key, None))
        return buf

    def empty(self, xp, shape, dtype):
        if xp is not np:
            return xp.empty(shape, dtype)
        dtype = np.dtype(dtype)
        nbytes = math.prod(shape) * dtype.itemsize
        try:
            buf = self._free[nbytes].pop()      # (pop is atomic: safe across threads)
            self._held -= nbytes
        except (KeyError, IndexError):
            buf = self._new(nbytes)
        return buf.view(dtype).reshape(shape)

    def zeros(self, xp, shape, dtype):
        out = self.empty(xp, shape, dtype)
        out.fill(0)
        return out

    def release(self, *arrays):
        """Take back pooled arrays (views of a pool buffer) no one will read again."""
        for array in arrays:
            buf = getattr(array, "base", None)
            mine = self._mine.get(id(buf))
            if mine is None or mine() is not buf or self._held + buf.nbytes > self._limit:
                continue
            self._free.setdefault(buf.nbytes, []).append(buf)
            self._held += buf.nbytes


_pool = _Pool(limit=256 << 20)


def release_columns(saved):
    """Give the forward's columns (see conv_forward) back to the pool."""
    if saved is not None:
        _pool.release(saved[1])


def output_size(in_size, kernel, stride, padding, dilation):
    return tuple((i + 2 * p - d * (k - 1) - 1) // s + 1
                 for i, k, s, p, d in zip(in_size, kernel, stride, padding, dilation))


def matmul(xp, a, b, out=None):
    """matmul in a dtype BLAS has: half precision computes in float32 and rounds once (and
    then ignores `out`; callers use the array returned)."""
    if a.dtype.kind in "iub" or a.dtype.itemsize >= 4:
        return xp.matmul(a, b, out=out)
    return xp.matmul(a.astype(xp.float32), b.astype(xp.float32)).astype(a.dtype)


def _copy_cost(elements, runs):
    return elements + _RUN_COST * runs


def _full_rows(batch, channels, out_channels, kernel, positions, padded, stride):
    """Whether the full-rows layout is cheaper (see the NOTE): `positions` are the valid
    output positions, `channels` the columns' channels, `out_channels` the other side's."""
    if len(positions) < 2 or any(s != 1 for s in stride):
        return False
    k = math.prod(kernel)
    lead = math.prod(positions[:-1])
    exact = _copy_cost(batch * channels * k * math.prod(positions), batch * channels * k * lead)
    row = math.prod(padded[1:])
    wasted = positions[0] * (row - math.prod(positions[1:]))     # positions computed in vain
    full = (_copy_cost(batch * channels * k * positions[0] * row, batch * channels * k)
            + _copy_cost(batch * out_channels * math.prod(positions), batch * out_channels * lead)
            + batch * out_channels * channels * k * wasted // 8)
    return full < exact


def _padded(xp, x, padding, slack):
    """A flat pooled buffer holding `x` padded with zeros by `padding`, with `slack` zeros
    after it, and the padded image as a view of it."""
    n, c = x.shape[:2]
    size = tuple(i + 2 * p for i, p in zip(x.shape[2:], padding))
    total = n * c * math.prod(size)
    if any(padding):
        buf = _pool.zeros(xp, (total + slack,), x.dtype)
    else:
        buf = _pool.empty(xp, (total + slack,), x.dtype)
        buf[total:] = 0
    image = buf[:total].reshape((n, c) + size)
    image[(slice(None), slice(None)) + tuple(slice(p, p + i) for i, p
                                             in zip(x.shape[2:], padding))] = x
    return buf, image


def _element_strides(size):
    strides = [1]
    for s in reversed(size[1:]):
        strides.insert(0, strides[0] * s)
    return strides


def _slack(padded, kernel, dilation):
    """How far the full-rows windows reach past the last image's end."""
    strides = _element_strides(padded)
    return sum((k - 1) * d * s for k, d, s in zip(kernel[1:], dilation[1:], strides[1:]))


def pad_zeros(xp, x, padding, pool=False):
    if not any(padding):
        return x
    shape = x.shape[:2] + tuple(n + 2 * p for n, p in zip(x.shape[2:], padding))
    out = _pool.zeros(xp, shape, x.dtype) if pool else xp.zeros(shape, dtype=x.dtype)
    out[(slice(None), slice(None)) + tuple(slice(p, p + n)
                                            for n, p in zip(x.shape[2:], padding))] = x
    return out


def exact_columns(xp, x, groups, kernel, positions, stride, dilation, pool=False):
    """(N, G, C/G * prod(kernel), prod(positions)) windows of the padded image `x` (in a
    pooled buffer if `pool`)."""
    n, c = x.shape[:2]
    sn, sc = x.strides[:2]
    spatial = x.strides[2:]
    shape = (n, groups, c // groups) + tuple(kernel) + tuple(positions)
    strides = ((sn, sc * (c // groups), sc) + tuple(s * d for s, d in zip(spatial, dilation))
               + tuple(s * st for s, st in zip(spatial, stride)))
    windows = xp.lib.stride_tricks.as_strided(x, shape, strides)
    target = (n, groups, (c // groups) * math.prod(kernel), math.prod(positions))
    if not pool:
        return windows.reshape(target)
    cols = _pool.empty(xp, target, x.dtype)
    xp.copyto(cols.reshape(shape), windows)
    return cols


def _row_columns(xp, buf, n, c, padded, groups, kernel, first, stride, dilation):
    """Full-rows windows of the flat padded buffer, copied to a pooled
    (N, G, C/G * prod(kernel), first * row)."""
    e = buf.itemsize
    plane, row = math.prod(padded), math.prod(padded[1:])
    steps = _element_strides(padded)
    shape = (n, groups, c // groups) + tuple(kernel) + (first, row)
    strides = ((c * plane * e, (c // groups) * plane * e, plane * e)
               + tuple(s * d * e for s, d in zip(steps, dilation)) + (stride[0] * row * e, e))
    windows = xp.lib.stride_tricks.as_strided(buf, shape, strides)
    cols = _pool.empty(xp, (n, groups, (c // groups) * math.prod(kernel), first * row),
                       buf.dtype)
    xp.copyto(cols.reshape(shape), windows)
    return cols


def _to_rows(xp, g, padded):
    """(N, C, o1, ..., ok) grad_output, zero-filled to full rows (N, C, o1 * row), pooled."""
    n, c, first = g.shape[:3]
    full = _pool.zeros(xp, (n, c, first) + tuple(padded[1:]), g.dtype)
    full[(slice(None),) * 3 + tuple(slice(0, o) for o in g.shape[3:])] = g
    return full.reshape(n, c, first * math.prod(padded[1:]))


def columns(xp, x, groups, kernel, positions, stride, padding, dilation, out_channels):
    """The columns of `x` for these output positions, in a pooled buffer: (full_rows, array)."""
    padded = tuple(i + 2 * p for i, p in zip(x.shape[2:], padding))
    n, c = x.shape[:2]
    if _full_rows(n, c, out_channels, kernel, positions, padded, stride[1:]):
        buf, _ = _padded(xp, x, padding, _slack(padded, kernel, dilation))
        cols = _row_columns(xp, buf, n, c, padded, groups, kernel, positions[0], stride,
                            dilation)
        _pool.release(buf)
        return True, cols
    image = pad_zeros(xp, x, padding, pool=True)
    cols = exact_columns(xp, image, groups, kernel, positions, stride, dilation, pool=True)
    if image is not x:
        _pool.release(image)
    return False, cols


def conv_forward(xp, x, w, bias, stride, padding, dilation, groups):
    """Cross-correlation of `x` (N, C, *in) with `w` (O, C/G, *k), plus `bias` (O,) or None:
    (N, O, *out), and the columns used (for the weight gradient). Half precision (as torch's
    CPU kernels) accumulates in float32, adds the bias there and rounds once."""
    n, o = x.shape[0], w.shape[0]
    kernel = w.shape[2:]
    positions = output_size(x.shape[2:], kernel, stride, padding, dilation)
    full, cols = columns(xp, x, groups, kernel, positions, stride, padding, dilation, o)
    weight = w.reshape(groups, o // groups, w.shape[1] * math.prod(kernel))
    half = _is_half(x.dtype)
    if bias is not None:
        bias = bias.reshape((o,) + (1,) * len(positions))
        if half:
            bias = bias.astype(xp.float32)
    if not full:
        y = _product(xp, weight, cols, half).reshape((n, o) + positions)
        if bias is not None:
            y += bias
        return (y.astype(x.dtype) if half else y), (full, cols)
    scratch = None if half else _pool.empty(xp, (n, groups, o // groups, cols.shape[-1]),
                                            x.dtype)
    y = _product(xp, weight, cols, half, out=scratch)
    padded = tuple(i + 2 * p for i, p in zip(x.shape[2:], padding))
    y = y.reshape((n, o, positions[0]) + padded[1:])
    if bias is None and tuple(positions[1:]) == padded[1:]:
        # nothing to crop: the product is the output, so its buffer stays out of the pool
        scratch = None
    else:
        y = y[(slice(None),) * 3 + tuple(slice(0, p) for p in positions[1:])]
        # the crop's copy (never a view of the pooled scratch: NumPy calls a crop of the
        # rows contiguous when the dims before it have size 1) adds the bias on the way
        y = y.copy() if bias is None else xp.add(y, bias)
    if scratch is not None:
        _pool.release(scratch)
    return (y.astype(x.dtype) if half else y), (full, cols)


def _is_half(dtype):
    """Whether `dtype` is a 2-byte float (float16, bfloat16), which BLAS does not have."""
    return not (dtype.kind in "iubc" or dtype.itemsize >= 4)


def _product(xp, a, b, half, out=None):
    """a @ b; for half precision the float32 product, not rounded yet."""
    if half:
        return xp.matmul(a.astype(xp.float32), b.astype(xp.float32))
    return xp.matmul(a, b, out=out)


def conv_weight(xp, x, g, kernel, stride, padding, dilation, groups, saved=None):
    """d<conv(x, w), g>/dw: sum over the batch of g @ columns(x)^T, shaped (O, C/G, *kernel).
    `saved` is the forward's (full_rows, columns), if kept."""
    n, o = g.shape[:2]
    if saved is None:
        saved = columns(xp, x, groups, kernel, g.shape[2:], stride, padding, dilation, o)
    full, cols = saved
    rows = None
    if full:
        padded = tuple(i + 2 * p for i, p in zip(x.shape[2:], padding))
        g = rows = _to_rows(xp, g, padded)
    grads = g.reshape(n, groups, o // groups, cols.shape[-1])
    # NOTE: one matmul over (batch * positions) would need transposed copies of both operands;
    # batched products summed over the batch read each operand once.
    w = matmul(xp, grads, cols.transpose(0, 1, 3, 2)).sum(axis=0)
    _pool.release(cols, rows)
    return w.reshape((o, x.shape[1] // groups) + tuple(kernel))


def conv_transpose(xp, x, w, stride, padding, dilation, groups, output_padding):
    """The adjoint of conv_forward in its input: `x` (N, Cin, *in), `w` (Cin, Cout/G, *k)."""
    n, cin = x.shape[:2]
    kernel, in_size = w.shape[2:], x.shape[2:]
    c = w.shape[1] * groups
    out_size = tuple((i - 1) * s - 2 * p + d * (k - 1) + op + 1 for i, k, s, p, d, op
                     in zip(in_size, kernel, stride, padding, dilation, output_padding))
    padded = tuple(o + 2 * p for o, p in zip(out_size, padding))
    if cin // groups < _NARROW and _as_forward(stride, padding, dilation, kernel,
                                                output_padding):
        return _transpose_as_forward(xp, x, w, padding, dilation, groups)
    if groups == 1 and all(s == 1 for s in stride) and \
            _full_rows(n, c, cin, kernel, in_size, padded, stride[1:]):
        return _transpose_by_planes(xp, x, w, padded, padding, dilation, out_size)
    weight = w.reshape(groups, cin // groups, w.shape[1] * math.prod(kernel))
    weight = xp.ascontiguousarray(weight.transpose(0, 2, 1))
    if not _full_rows(n, c, cin, kernel, in_size, padded, stride[1:]):
        cols = matmul(xp, weight, x.reshape(n, groups, cin // groups, math.prod(in_size)))
        cols = cols.reshape((n, c) + tuple(kernel) + tuple(in_size))
        return col2im(xp, cols, out_size, stride, padding, dilation)
    rows = _to_rows(xp, x, padded)
    scratch = _pool.empty(xp, (n, groups, weight.shape[1], rows.shape[-1]), x.dtype)
    cols = matmul(xp, weight, rows.reshape(n, groups, cin // groups, rows.shape[-1]),
                  out=scratch)
    _pool.release(rows)
    cols = cols.reshape(n, c, math.prod(kernel), rows.shape[-1])
    plane, row = math.prod(padded), math.prod(padded[1:])
    buf = xp.zeros(n * c * plane + _slack(padded, kernel, dilation), x.dtype)
    e = buf.itemsize
    # targets[offset] is where kernel offset `offset` adds its columns (one view for all)
    targets = xp.lib.stride_tricks.as_strided(
        buf, tuple(kernel) + (n, c, in_size[0], row),
        tuple(s * d * e for s, d in zip(_element_strides(padded), dilation))
        + (c * plane * e, plane * e, stride[0] * row * e, e))
    for index, offset in enumerate(_offsets(kernel)):
        targets[offset] += cols[:, :, index].reshape(n, c, in_size[0], row)
    _pool.release(scratch)
    image = buf[:n * c * plane].reshape((n, c) + padded)
    return _crop(xp, image, padding, out_size)


_NARROW = 8    # input channels per group below which conv_transpose runs as a forward


def _as_forward(stride, padding, dilation, kernel, output_padding):
    """Whether conv_transpose can run as a forward convolution (see _transpose_as_forward)."""
    return all(s == 1 for s in stride) and not any(output_padding) and \
        all(p <= d * (k - 1) for p, d, k in zip(padding, dilation, kernel))


def _transpose_as_forward(xp, x, w, padding, dilation, groups):
    """conv_transpose with stride 1 as the forward convolution it equals: the kernel flipped
    in every spatial dim, each group's in and out channels swapped, and padding
    dilation * (kernel - 1) - padding. NOTE: the other layouts multiply by the input's channels
    per group (the inner dim of their products), the forward by the output's times the kernel
    size; with few input channels per group (a depthwise convolution's input gradient has one,
    an image's three) the others are batches of near outer products that took 3-5x the
    forward's time (a depthwise 3x3 over 16x32x32x32: 17.5 ms against 3.8), with more of
    them the planes layout was as fast or faster (a small CNN's second layer)."""
    cin, c_per_group, kernel = w.shape[0], w.shape[1], w.shape[2:]
    weight = w.reshape((groups, cin // groups, c_per_group) + tuple(kernel))
    weight = weight.swapaxes(1, 2).reshape((groups * c_per_group, cin // groups) + tuple(kernel))
    weight = xp.ascontiguousarray(weight[(slice(None),) * 2 + (slice(None, None, -1),)
                                         * len(kernel)])
    pad = tuple(d * (k - 1) - p for p, d, k in zip(padding, dilation, kernel))
    out, columns = conv_forward(xp, x, weight, None, (1,) * len(kernel), pad, dilation, groups)
    release_columns(columns)
    return out


def _transpose_by_planes(xp, x, w, padded, padding, dilation, out_size):
    """conv_transpose for stride 1 and one group, by whole planes.

    NOTE [ Whole planes ]: with stride 1, kernel offset j adds weight_j^T @ x at a fixed flat
    shift of the padded image (its offset's place in a plane), for every position at once.
    So x is zero-filled to whole padded planes (N, Cin, plane), the product is laid out
    offset-major, (N, K, C * plane), and each offset is one add of long contiguous runs into
    the flat image buffer. (Row by row, each add is N * C runs of a few rows, and NumPy's
    per-run cost made the adds of a small CNN's input gradient take longer than its product.)
    Positions past the valid ones (the zero-filled rest of each plane) have a zero x, so
    their products add nothing there, unless the weight holds an inf or nan (0 * inf is nan),
    as in the full-rows layout (NOTE [ Convolution kernels ])."""
    n, cin = x.shape[:2]
    c, kernel = w.shape[1], w.shape[2:]
    count, plane = math.prod(kernel), math.prod(padded)
    planes = _pool.zeros(xp, (n, cin) + tuple(padded), x.dtype)
    planes[(slice(None),) * 2 + tuple(slice(0, i) for i in x.shape[2:])] = x
    # rows of the weight ordered (offset, out channel): (K * C, Cin)
    weight = xp.ascontiguousarray(w.reshape(cin, c, count).transpose(2, 1, 0)).reshape(
        count * c, cin)
    cols = _pool.empty(xp, (n, count * c, plane), x.dtype)
    cols = matmul(xp, weight, planes.reshape(n, cin, plane), out=cols)
    _pool.release(planes)
    steps = _element_strides(padded)
    shifts = [sum(j * d * s for j, d, s in zip(offset, dilation, steps))
              for offset in _offsets(kernel)]
    size = n * c * plane
    buf = xp.zeros(size + max(shifts), x.dtype)
    by_offset = cols.reshape(n, count, c * plane)
    for index, shift in enumerate(shifts):
        target = buf[shift:shift + size].reshape(n, c * plane)
        target += by_offset[:, index]
    _pool.release(cols)
    image = buf[:size].reshape((n, c) + tuple(padded))
    return _crop(xp, image, padding, out_size)


def _crop(xp, image, padding, size):
    """The unpadded part of `image`, a new row-major array (it is what a user sees; NumPy
    calls a crop contiguous when only size-1 dims keep the padded strides)."""
    if not any(padding):
        return image
    return image[(slice(None), slice(None))
                 + tuple(slice(p, p + s) for p, s in zip(padding, size))].copy()


def col2im(xp, cols, out_size, stride, padding, dilation):
    """Add columns (N, C, *kernel, *blocks) back into an (N, C, *out_size) image: the adjoint
    of taking the windows."""
    k = len(out_size)
    n, c = cols.shape[:2]
    kernel, blocks = cols.shape[2:2 + k], cols.shape[2 + k:]
    padded = xp.zeros((n, c) + tuple(o + 2 * p for o, p in zip(out_size, padding)), cols.dtype)
    lead = (slice(None), slice(None))
    for offset in _offsets(kernel):
        target = tuple(slice(i * d, i * d + s * (b - 1) + 1, s)
                       for i, d, s, b in zip(offset, dilation, stride, blocks))
        padded[lead + target] += cols[lead + offset]
    return _crop(xp, padded, padding, out_size)


def _offsets(kernel):
    offsets = [()]
    for k in kernel:
        offsets = [o + (i,) for o in offsets for i in range(k)]
    return offsets
