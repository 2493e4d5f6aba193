"""F.pad: constant padding (ConstantPadNdBackward0) and reflect / replicate / circular padding,
which read each output element from an input index along every padded dim."""
from .._device import backend_of
from .._ops._op import Op
from .._tensor import wrap
from .._ops.activations import apply


def _pairs(pad, ndim):
    """[(dim, before, after), ...] from torch's pad list (last dim first)."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


class ConstantPadNd(Op):
    """Pad with a constant value (negative pads crop)."""

    def backward(ctx, grad):
        return constant_pad(grad, [-p for p in ctx.pad], 0)


def constant_pad(input, pad, value):
    x = input._data
    xp = backend_of(x).xp
    shape = list(x.shape)
    src = [slice(None)] * x.ndim
    dst = [slice(None)] * x.ndim
    for d, before, after in _pairs(pad, x.ndim):
        size = shape[d] + before + after
        if size < 0:
            raise RuntimeError(f"The input size {shape[d]}, plus negative padding {before} and "
                               f"{after} resulted in a negative output size, which is invalid. "
                               f"Check dimension {d} of your input.")
        src[d] = slice(max(-before, 0), shape[d] - max(-after, 0))
        dst[d] = slice(max(before, 0), size - max(after, 0))
        shape[d] = size
    out = xp.full(shape, value, dtype=x.dtype)
    out[tuple(dst)] = x[tuple(src)]
    return apply(ConstantPadNd, (input,), out, {"pad": list(pad)})


def _source_index(xp, mode, size, before, after):
    i = xp.arange(-before, size + after)
    if mode == "reflect":
        i = xp.abs(i)
        return xp.where(i >= size, 2 * (size - 1) - i, i)
    if mode == "replicate":
        return xp.clip(i, 0, size - 1)
    return i % size


class _IndexPad(Op):
    """Each output element is read from an input index along each padded dim; the gradient adds
    each output element back at its source index (index_add, linear in the size)."""
    abstract = True

    def backward(ctx, grad):
        from .._creation import zeros
        for d, index, size in reversed(ctx.sources):
            shape = list(grad.shape)
            shape[d] = size
            grad = zeros(shape, dtype=grad.dtype, device=grad.device).index_add(d, index, grad)
        return grad


_INDEX_PADS = {(mode, k): type(f"{name}Pad{k}d", (_IndexPad,),
                               {"node_name": f"{name}Pad{k}DBackward0",
                                "__module__": __name__})
               for mode, name in (("reflect", "Reflection"), ("replicate", "Replication"),
                                  ("circular", "Circular"))
               for k in (1, 2, 3)}


def index_pad(input, pad, mode):
    x = input._data
    xp = backend_of(x).xp
    sources = []
    for d, before, after in _pairs(pad, x.ndim):
        size = x.shape[d]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding "
                               f"input dimension, but got: padding ({before}, {after}) at "
                               f"dimension {d} of input {list(input.shape)}")
        idx = _source_index(xp, mode, size, before, after)
        x = xp.take(x, idx, axis=d)
        sources.append((d, wrap(idx), size))
    op = _INDEX_PADS[(mode, len(pad) // 2)]
    return apply(op, (input,), x, {"sources": sources})


def pad(input, pad, mode="constant", value=None):
    """Pad the last len(pad) // 2 dims: pad = (last_before, last_after, prev_before, ...).

    Modes: 'constant' (with `value`, default 0), 'reflect', 'replicate', 'circular'."""
    pad = list(pad)
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
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    k = len(pad) // 2
    if k > 3 or input.ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            f"Supported combinations for non-constant padding:\n"
            f"  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            f"  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            f"  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    return index_pad(input, pad, mode)
