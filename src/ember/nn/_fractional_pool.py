"""ember.nn.functional: fractional max pooling (Graham, 2014). Max over kernel-sized windows whose
starts advance by pseudo-random steps, chosen per plane from `_random_samples`, so that any
output size between 1 and input - kernel + 1 is reached. The interval rule, the order of the
argument checks and their texts are torch's; the gradient goes to the saved indices, through
max pooling's Ops (`_pooling_ops._MaxPool`)."""
import numpy as np

from .._device import backend_of
from .._ops.sampling import rand
from . import _pooling_ops as ops

__all__ = ["fractional_max_pool2d", "fractional_max_pool3d",
           "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices"]

_LETTERS = {2: ("height", "width"), 3: ("time", "height", "width")}


def _tuple(value, n):
    """torch's _pair / _triple: an iterable as a tuple, anything else repeated n times."""
    try:
        return tuple(value)
    except TypeError:
        return (value,) * n


def _sizes(value, nd, what):
    """kernel_size / output_size as the C++ op reads them: an int or exactly nd ints."""
    if isinstance(value, int):
        return (value,) * nd
    if isinstance(value, np.integer):
        return (int(value),) * nd
    value = tuple(value)
    for pos, v in enumerate(value):
        if not isinstance(v, (int, np.integer)):
            raise TypeError(f"fractional_max_pool{nd}d(): argument '{what}' (position "
                            f"{2 if what == 'kernel_size' else 3}) must be tuple of ints, but "
                            f"found element of type {type(v).__name__} at pos {pos}")
    if len(value) != nd:
        count = "" if nd == 2 else "three "
        raise RuntimeError(f"fractional_max_pool{nd}d: {what} must either be a single Int or "
                           f"tuple of {count}Ints")
    return tuple(int(v) for v in value)


# -- the interval sequence -----------------------------------------------------------------------

def intervals(samples, n_in, n_out, pool, dtype):
    """torch's generate_intervals, per plane: the window starts along one dim.

    With alpha = (n_in - pool) / (n_out - 1), start i = int((i + u) alpha) - int(u alpha) for
    i < n_out - 1, and the last window ends at the input's end. The arithmetic is done in the
    input's dtype, rounding after every operation as torch's scalar code does, and int() is a
    C cast to 32 bits (so NaN or huge samples behave as in torch on x86)."""
    samples = np.asarray(samples)
    compute = np.float64 if dtype == np.float64 else np.float32

    def rounded(v):
        return np.asarray(v, dtype=compute).astype(dtype).astype(compute)
    starts = np.empty(samples.shape + (n_out,), dtype=np.int64)
    if n_out > 1:
        u = rounded(samples)[..., None]
        alpha = rounded(rounded(n_in - pool) / rounded(n_out - 1))
        i = rounded(np.arange(n_out - 1))
        with np.errstate(invalid="ignore", over="ignore"):
            ends = rounded(rounded(i + u) * alpha).astype(np.int32)
            first = rounded(u * alpha).astype(np.int32)
            starts[..., :-1] = ends - first          # int32 arithmetic, as the C++ int
    if n_out > 0:
        starts[..., -1] = n_in - pool
    return starts


@ops.via_float32
def fractional_max_pool(x, samples, kernel, out, dtype):
    """(values, flat indices) of x (B, C, *spatial) over the windows that the samples (B, C, nd;
    NumPy, of the input's dtype `dtype`) choose. Ties keep the first element in row-major
    order and a NaN wins (the last one), as in torch; an empty window (kernel <= 0) gives -inf
    at its start."""
    xp = backend_of(x).xp
    nd = len(kernel)
    b, c = x.shape[:2]
    spatial = x.shape[2:]
    # NOTE: samples[..., 0] drives the width for 2-d pooling but the time for 3-d pooling
    # (torch's layout); below, dims are in (T,) H, W order.
    order = (1, 0) if nd == 2 else (0, 1, 2)
    starts = [intervals(samples[..., k], n, o, p, dtype)
              for k, n, o, p in zip(order, spatial, out, kernel)]
    plane = [int(np.prod(spatial[d + 1:])) for d in range(nd)]

    def grid(coords):
        """Per dim (B, C, o_d) coordinates -> (B, C, *out) flat indices."""
        flat = 0
        for d, v in enumerate(coords):
            shape = (b, c) + tuple(o if e == d else 1 for e, o in enumerate(out))
            flat = flat + v.reshape(shape) * plane[d]
        return xp.asarray(flat)
    index = xp.empty((b, c) + tuple(out), dtype=np.int64)
    index[...] = grid(starts)
    best = xp.full(index.shape, -np.inf, dtype=x.dtype)
    if best.size == 0:
        return best, index
    flat_x = x.reshape(b, c, -1)
    for offsets in np.ndindex(*[max(k, 0) for k in kernel]):
        # NOTE: starts outside the input (only from samples outside [0, 1)) are read clipped
        # where torch's kernel would read out of bounds.
        coords = [np.clip(s + j, 0, n - 1) for s, j, n in zip(starts, offsets, spatial)]
        flat = grid(coords)
        picked = xp.take_along_axis(flat_x, flat.reshape(b, c, -1), axis=2)
        values = picked.reshape(flat.shape)
        better = values > best
        if x.dtype.kind == "f":
            better |= xp.isnan(values)
        xp.copyto(best, values, where=better)
        xp.copyto(index, flat, where=better)
    return best, index


FRACTIONAL_MAX_POOLS = {}
for _nd in (2, 3):
    _node = f"FractionalMaxPool{_nd}D"
    _bw = ops._named(ops._MaxPoolBackward, f"FractionalMaxPool{_nd}dBackward",
                     _node + "BackwardBackward0")
    FRACTIONAL_MAX_POOLS[_nd] = type(f"FractionalMaxPool{_nd}d", (ops._MaxPool,),
                                     {"node_name": _node + "Backward0", "Backward": _bw,
                                      "__module__": __name__})


# -- the functions -------------------------------------------------------------------------------

def _check(input, nd, kernel, out, samples):
    """torch's checks, in torch's order (the shape's, then the samples')."""
    name = "fractional_max_pool2d()" if nd == 2 else "fractional_max_pool3d_out()"
    shape = list(input.shape)
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}: Expected {nd + 1}D or {nd + 2}D tensor, but got: {shape}")
    for dim in range(1, input.ndim):
        if shape[dim] <= 0:
            raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{shape} with dimension {dim} being empty.")
    spatial = shape[-nd:]
    # NOTE: torch checks 3-d sizes in the order time, width, height, and strictly (an output
    # reaching the input's last element is refused), 2-d ones as height, width, inclusively.
    dims = (0, 1) if nd == 2 else (0, 2, 1)
    for d in dims:
        fits = out[d] + kernel[d] - 1 <= spatial[d] if nd == 2 else \
            out[d] + kernel[d] - 1 < spatial[d]
        if not fits:
            what = _LETTERS[nd][d]
            raise RuntimeError(f"{name}: pool {what} {kernel[d]} too large relative to input "
                               f"{what} {spatial[d]}")
    result_shape = shape[:-nd] + list(out)
    if min(out) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                           f"{result_shape}")
    if samples.dtype is not input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.ndim}")
    batch, channels = (1, shape[0]) if input.ndim == nd + 1 else shape[:2]
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != channels:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != nd:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {nd}; got "
                           f"{samples.shape[2]}.")
    if input._data.dtype.kind not in "fV":
        frame = "fractional_max_pool2d_out_frame" if nd == 2 else \
            "fractional_max_pool3d_out_frame"
        raise NotImplementedError(f'"{frame}" not implemented for '
                                  f'\'{input.dtype._scalar_name}\'')
    return batch, channels


def _fractional_max_pool(input, nd, kernel_size, output_size, output_ratio, samples):
    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single "
                             "Int or tuple of Ints.")
        ratio = _tuple(output_ratio, nd)
        output_size = [int(input.size(d - nd) * ratio[d]) for d in range(nd)]
    if samples is None:
        batch = 1 if input.dim() == nd + 1 else input.size(0)
        samples = rand(batch, input.size(-nd - 1), nd, dtype=input.dtype, device=input.device)
    kernel = _sizes(kernel_size, nd, "kernel_size")
    out = _sizes(output_size, nd, "output_size")
    batch, channels = _check(input, nd, kernel, out, samples)
    x = input._data.reshape((batch, channels) + tuple(input.shape[-nd:]))
    chosen = backend_of(samples._data).to_numpy(samples._data)[:batch]
    values, indices = fractional_max_pool(x, chosen, kernel, out, chosen.dtype)
    shape = tuple(input.shape[:-nd]) + tuple(out)
    params = {"spatial": tuple(input.shape[-nd:]), "geometry": None}
    result, index = ops.apply(FRACTIONAL_MAX_POOLS[nd], (input,),
                              (values.reshape(shape), indices.reshape(shape)), params)
    if result._grad_fn is not None:
        result._grad_fn.indices = index
    return result, index


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """(values, flat indices into H*W) of fractional max pooling over (N, C, H, W) or
    (C, H, W); see fractional_max_pool2d."""
    return _fractional_max_pool(input, 2, kernel_size, output_size, output_ratio,
                                _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """(values, flat indices into T*H*W) of fractional max pooling over (N, C, T, H, W) or
    (C, T, H, W); see fractional_max_pool3d."""
    return _fractional_max_pool(input, 3, kernel_size, output_size, output_ratio,
                                _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Max over kernel_size windows of (N, C, H, W) or (C, H, W) whose starts advance by
    pseudo-random steps, to an output of output_size (or output_ratio of the input's size).
    _random_samples (N, C, 2), in [0, 1), fix the steps (default: drawn with ember.rand).

        >>> F.fractional_max_pool2d(torch.randn(1, 3, 10, 10), 3, output_size=4).shape
        torch.Size([1, 3, 4, 4])
    """
    result = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio,
                                                return_indices, _random_samples)
    return result if return_indices else result[0]


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Fractional max pooling of (N, C, T, H, W) or (C, T, H, W); _random_samples (N, C, 3)."""
    result = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio,
                                                return_indices, _random_samples)
    return result if return_indices else result[0]
