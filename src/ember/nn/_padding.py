"""F.pad: constant padding (ConstantPadNdBackward0), reflect / replicate padding, which read
each output element from an input index along every padded dim (ReflectionPad2DBackward0, ...),
and circular padding, which torch composes of slice copies (CopySlices). torch's checks and
error texts for each mode live next to it."""
import math
import operator

from .._device import backend_of
from .._dtype import _INT_OVERFLOW_NAMES
from .._ops._op import Op
from .._tensor import Tensor, wrap
from .._ops.activations import apply
from ._pooling_ops import laid_like


def _pairs(pad, ndim):
    """[(dim, before, after), ...] from torch's pad list (last dim first)."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


def _int_list(pad):
    """torch's argument parsing of `pad` (a tuple of ints), with its TypeError texts."""
    if not isinstance(pad, (tuple, list)):
        raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not "
                        f"{type(pad).__name__}")
    out = []
    for i, p in enumerate(pad):
        ok = not isinstance(p, bool) and (not isinstance(p, Tensor) or p.ndim == 0)
        try:
            out.append(operator.index(p) if ok else None)
        except TypeError:
            ok = False
        if not ok:
            # NOTE: torch words the first element's failure and the later ones' differently.
            if i == 0:
                raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but "
                                f"found element of type {type(p).__name__} at pos 0")
            raise TypeError(f"pad(): argument 'pad' failed to unpack the object at pos 2 with "
                            f"error \"type must be tuple of ints,but got {type(p).__name__}\"")
    return out


# -- constant ------------------------------------------------------------------------------------

def _fill_value(input, value):
    """`value` as torch converts it to the input's dtype: an error where it does not fit."""
    if isinstance(value, complex) or not isinstance(value, (int, float)):
        raise TypeError(f"pad(): argument 'value' (position 4) must be float, not "
                        f"{type(value).__name__}")
    from .._dtype import finfo, iinfo
    dtype = input.dtype
    kind = input._data.dtype.kind
    if kind in "bc":
        return value
    if kind in "iu":
        info = iinfo(dtype)
        fits = not math.isnan(value) and info.min <= value <= info.max
        name = _INT_OVERFLOW_NAMES[dtype._name]     # (the C++ names of the checked conversion)
    else:
        fits = not math.isfinite(value) or abs(value) <= finfo(dtype).max
        name = dtype._cpp_name
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    return int(value) if kind in "iu" else value


class ConstantPadNd(Op):
    """Pad with a constant value (negative pads crop)."""
    shows = {"pad": "pad"}

    def backward(ctx, grad):
        return constant_pad(grad, [-p for p in ctx.pad], 0)


def constant_pad(input, pad, value):
    x = input._data
    xp = backend_of(x).xp
    shape = list(x.shape)
    src = [slice(None)] * x.ndim
    dst = [slice(None)] * x.ndim
    for d, before, after in _pairs(pad, x.ndim):
        kept = shape[d] - max(-before, 0) - max(-after, 0)
        if kept < 0:
            # NOTE: torch crops with narrow before it pads, so over-cropping fails there.
            raise RuntimeError("narrow(): length must be non-negative.")
        size = kept + max(before, 0) + max(after, 0)
        src[d] = slice(max(-before, 0), shape[d] - max(-after, 0))
        dst[d] = slice(max(before, 0), size - max(after, 0))
        shape[d] = size
    out = xp.full(shape, _fill_value(input, value), dtype=x.dtype)
    out[tuple(dst)] = x[tuple(src)]
    return apply(ConstantPadNd, (input,), laid_like(input, out), {"pad": list(pad)})


# -- reflect and replicate -----------------------------------------------------------------------

def _source_index(xp, mode, size, before, after):
    i = xp.arange(-before, size + after)
    if mode == "reflect":
        i = xp.abs(i)
        return xp.where(i >= size, 2 * (size - 1) - i, i)
    return xp.clip(i, 0, size - 1)


class _IndexPad(Op):
    """Each output element is read from an input index along each padded dim. The gradient
    takes the middle (where output j reads input j - before) as a slice and adds only the
    padded ends back at their source indices (index_add)."""
    abstract = True

    def backward(ctx, grad):
        for d, index, size, before, after in reversed(ctx.sources):
            grad = _unpad_dim(grad, d, index, size, before, after)
        return grad


def _unpad_dim(grad, d, index, size, before, after):
    """The gradient of reading input[index] along dim `d` (padding by before / after)."""
    from .._creation import zeros
    out = grad.shape[d]
    lo, hi = max(before, 0), max(after, 0)
    kept = out - lo - hi
    if kept <= 0:               # replicate cropped past the end: every element is an end
        shape = list(grad.shape)
        shape[d] = size
        return zeros(shape, dtype=grad.dtype, device=grad.device).index_add(d, wrap(index),
                                                                            grad)
    crop = [0] * (2 * (grad.ndim - d))
    crop[-2:] = [max(-before, 0), max(-after, 0)]
    result = constant_pad(grad.narrow(d, lo, kept), crop, 0)
    if lo:
        result = result.index_add(d, wrap(index[:lo]), grad.narrow(d, 0, lo))
    if hi:
        result = result.index_add(d, wrap(index[out - hi:]), grad.narrow(d, out - hi, hi))
    return result


_INDEX_PADS = {(mode, k): type(f"{name}Pad{k}d", (_IndexPad,),
                               {"node_name": f"{name}Pad{k}DBackward0",
                                "__module__": __name__})
               for mode, name in (("reflect", "Reflection"), ("replicate", "Replication"))
               for k in (1, 2, 3)}


def _check_index_pad(input, pad, mode):
    """torch's checks of reflection_pad{k}d / replication_pad{k}d, in its order and words."""
    k = len(pad) // 2
    shape = list(input.shape)
    inner = shape[1:] if input.ndim == k + 2 else shape
    if 0 in inner:
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 "
                           f"batch size and other non-zero dimensions for input, but got: "
                           f"{shape}")
    pairs = _pairs(pad, input.ndim)
    if mode == "reflect":
        for i, (d, before, after) in enumerate(pairs):
            if before >= shape[d] or after >= shape[d]:
                raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                                   f"corresponding input dimension, but got: padding ({before}, "
                                   f"{after}) at dimension {d} of input {shape}")
    sizes = [shape[d] for d, _, _ in reversed(pairs)]                  # D, H, W order
    outs = [shape[d] + b + a for d, b, a in reversed(pairs)]
    if all(o < 1 for o in outs):
        names = "DHW"[3 - k:]
        sep = " )" if k == 2 and mode == "replicate" else ")"
        given = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        if k == 3:
            given = f"D: {sizes[0]} H: {sizes[1]}, W: {sizes[2]}"
        got = " ".join(f"{n}: {o}" for n, o in zip(names, outs))
        raise RuntimeError(f"input ({given}{sep} is too small. Calculated output {got}")
    if any(o < 0 for o in outs):
        # NOTE: torch's kernels check only that some output size is positive; a negative one
        # then fails where the result is allocated, with these texts.
        if mode == "reflect" and k == 2:
            raise RuntimeError("numel: integer multiplication overflow")
        full = shape[:input.ndim - k] + outs
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{min(o for o in outs if o < 0)}: {full}")
    if input._data.dtype.kind == "b":
        name = "reflection" if mode == "reflect" else "replication"
        raise NotImplementedError(f"\"{name}_pad{k}d\" not implemented for 'Bool'")


def index_pad(input, pad, mode):
    _check_index_pad(input, pad, mode)
    x = input._data
    xp = backend_of(x).xp
    sources = []
    for d, before, after in _pairs(pad, x.ndim):
        size = x.shape[d]
        idx = _source_index(xp, mode, size, before, after)
        x = xp.take(x, idx, axis=d)
        sources.append((d, idx, size, before, after))
    op = _INDEX_PADS[(mode, len(pad) // 2)]
    if mode != "circular":                  # (torch's circular pad gives row-major results)
        x = laid_like(input, x)
    return apply(op, (input,), x, {"sources": sources})


# -- circular ------------------------------------------------------------------------------------

def circular_pad(input, pad):
    """Circular padding as torch composes it: the (cropped) input copied into the middle of a new
    tensor, then each padded dim's ends copied from the other end of what is already there.

    NOTE: the ends wrap the cropped input, not the original one: pad (-1, 2) of [0, 1, 2, 3, 4]
    gives [1, 2, 3, 4, 1, 2]. Autograd records the copies into slices (CopySlices)."""
    from .._creation import empty
    shape = list(input.shape)
    pairs = _pairs(pad, input.ndim)
    for d, before, after in reversed(pairs):        # (torch checks the first padded dim first)
        if before > shape[d] or after > shape[d]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if shape[d] + before + after < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out_shape = list(shape)
    for d, before, after in pairs:
        out_shape[d] = shape[d] + before + after
    out = empty(out_shape, dtype=input.dtype, device=input.device)
    middle, source = out, input
    for d, before, after in pairs:
        # NOTE: cropping more than the dim holds leaves nothing (torch's clamped slices).
        kept = max(shape[d] - max(-before, 0) - max(-after, 0), 0)
        middle = middle.narrow(d, min(max(before, 0), out_shape[d] - kept), kept)
        source = source.narrow(d, min(max(-before, 0), shape[d] - kept), kept)
    middle.copy_(source)
    for d, before, after in pairs:
        size = out_shape[d]
        kept = size - max(before, 0) - max(after, 0)
        overlapping = 0 < kept < max(before, after)
        if overlapping and all(n == 1 for n in out_shape[:d]):
            # NOTE: the end to copy overlaps the slice it is copied from; where both are
            # contiguous blocks torch's overlap check sees it and refuses.
            raise RuntimeError("unsupported operation: some elements of the input tensor and the "
                               "written-to tensor refer to a single memory location. Please "
                               "clone() the tensor before performing the operation.")
        if size == 0:
            continue
        if before > 0:      # (its source lies after it: a copy in order reads no new value)
            end = size - max(after, 0)
            out.narrow(d, 0, before).copy_(out.narrow(d, end - before, before))
        if after > 0:
            start = max(before, 0)
            out.narrow(d, size - after, after).copy_(out.narrow(d, start, after))
            if overlapping:
                # NOTE: torch's copy runs in order, each position reading one it has just
                # written, so the kept values repeat (its gradient is a plain copy's, as
                # recorded above)
                data = out._data
                for j in range(after):
                    data[(slice(None),) * d + (size - after + j,)] = \
                        data[(slice(None),) * d + (start + j,)]
    return out


# -- F.pad ---------------------------------------------------------------------------------------

_MODES = ("constant", "reflect", "replicate", "circular")


def pad(input, pad, mode="constant", value=None):
    """Pad the last len(pad) // 2 dims: pad = (last_before, last_after, prev_before, ...).
    Negative pads crop.

    Modes: 'constant' (with `value`, default 0), 'reflect', 'replicate', 'circular'; the
    last three pad 1 to 3 trailing dims of a batched or unbatched input.

        >>> F.pad(torch.arange(3.), (1, 2), mode="reflect")
        tensor([1., 0., 1., 2., 1., 0.])
    """
    pad = _int_list(pad)
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           "dimension but got padding length {} and input of dimension {}"
                           .format(len(pad), input.ndim))
    if mode == "constant":
        return constant_pad(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if not 1 <= k <= 3 or input.ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            f"Supported combinations for non-constant padding:\n"
            f"  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            f"  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            f"  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return circular_pad(input, pad)
    return index_pad(input, pad, mode)
