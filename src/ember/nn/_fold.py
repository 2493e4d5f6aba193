"""ember.nn.functional.unfold / fold: sliding blocks of an image as columns (torch's im2col,
Im2ColBackward0) and their adjoint, columns summed back into an image (col2im,
Col2ImBackward0). Each one's gradient is the other."""
import math

from .._device import MetaArray, backend_of
from .._ops._op import Op
from .._ops.activations import apply
from . import _conv_kernels as kernels
from ._argument_types import int_lists
class Im2Col(Op):
    """Sliding blocks of an (N, C, H, W) image as columns (N, C * kH * kW, L)."""
    saves = {}

    def backward(ctx, grad):
        return _col2im(grad, ctx._image_size, ctx.kernel_size, ctx.dilation, ctx.padding,
                       ctx.stride)


class Col2Im(Op):
    """The adjoint of Im2Col: columns summed back into an image."""
    saves = {}

    def backward(ctx, grad):
        return _im2col(grad, ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride)


def _floating(input, kernel):
    if input._data.dtype.kind not in "fcV":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


def _im2col(input, kernel_size, dilation, padding, stride):
    """Columns of a batched or unbatched image (torch records one node for both)."""
    _floating(input, "im2col_out_cpu")
    x = input._data
    xp = backend_of(x).xp
    batch = x.shape[:-3]
    x = x.reshape((math.prod(batch),) + x.shape[-3:])
    blocks = kernels.output_size(x.shape[2:], kernel_size, stride, padding, dilation)
    if x.__class__ is MetaArray:            # geometry only (NOTE [ The meta backend ])
        cols = MetaArray((x.shape[0], 1, x.shape[1] * math.prod(kernel_size),
                          math.prod(blocks)), x.dtype)
    else:
        cols = kernels.exact_columns(xp, kernels.pad_zeros(xp, x, padding), 1, kernel_size,
                                     blocks, stride, dilation)
    out = cols.reshape(batch + cols.shape[2:])
    if out.__class__ is not MetaArray and (out.strides != _row_major_strides(out) or
                                           xp.may_share_memory(out, input._data)):
        # (the columns can be a strided view of the image; torch's are a new row-major
        # tensor)
        out = out.copy()
    params = {"kernel_size": kernel_size, "dilation": dilation, "padding": padding,
              "stride": stride, "_image_size": x.shape[2:]}
    return apply(Im2Col, (input,), out, params)


def _row_major_strides(a):
    strides, step = [], a.itemsize
    for n in reversed(a.shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _col2im(input, output_size, kernel_size, dilation, padding, stride):
    _floating(input, "col2im_out_cpu")
    x = input._data
    xp = backend_of(x).xp
    batch = x.shape[:-2]
    blocks = kernels.output_size(output_size, kernel_size, stride, padding, dilation)
    c = x.shape[-2] // math.prod(kernel_size)
    cols = x.reshape((math.prod(batch), c) + tuple(kernel_size) + blocks)
    out = MetaArray(cols.shape[:2] + tuple(output_size), x.dtype) \
        if x.__class__ is MetaArray else \
        kernels.col2im(xp, cols, tuple(output_size), stride, padding, dilation)
    out = out.reshape(batch + out.shape[1:])
    params = {"kernel_size": kernel_size, "dilation": dilation, "padding": padding,
              "stride": stride}
    return apply(Col2Im, (input,), out, params)


def _pair(value, name):
    value = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(value) != 2:
        raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(value)}")
    return tuple(int(v) for v in value)


def _positive(values, what, label):
    if any(v <= 0 for v in values):
        raise RuntimeError(f"{what} should be greater than zero, but got {label}_height: "
                           f"{values[0]} {label}_width: {values[1]}")


def _non_negative_padding(padding):
    if any(p < 0 for p in padding):
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} "
                           f"pad_width: {padding[1]}")


def _blocks(size, kernel, dilation, padding, stride):
    """torch's count of sliding blocks along each dim (its division rounds down, so a kernel
    past the padded size counts 0 blocks, not 1)."""
    return tuple((s + 2 * p - (d * (k - 1) + 1)) // st + 1
                 for s, k, d, p, st in zip(size, kernel, dilation, padding, stride))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of a batched (N, C, H, W) or unbatched (C, H, W) image as columns:
    (N, C * prod(kernel_size), L), L the number of blocks."""
    if not (kernel_size.__class__ is int and dilation.__class__ is int
            and padding.__class__ is int and stride.__class__ is int):
        # (torch's F.unfold calls im2col(input, _pair(kernel_size), _pair(dilation), ...))
        int_lists("im2col", *((i, arg, v if isinstance(v, (tuple, list)) else [v, v])
                              for i, arg, v in ((2, "kernel_size", kernel_size),
                                                (3, "dilation", dilation),
                                                (4, "padding", padding), (5, "stride", stride))))
    kernel_size, dilation = _pair(kernel_size, "kernel_size"), _pair(dilation, "dilation")
    padding, stride = _pair(padding, "padding"), _pair(stride, "stride")
    _positive(kernel_size, "kernel size", "kernel")
    _positive(dilation, "dilation", "dilation")
    _non_negative_padding(padding)
    _positive(stride, "stride", "stride")
    if input.ndim == 0:
        raise IndexError("Dimension specified as 1 but tensor has no dimensions")
    if input.ndim < 3 and not (input.ndim == 2 and input.shape[1] == 0):
        # (torch reads size(1), then size(2) only when size(1) is not 0)
        n = input.ndim
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {n})")
    if input.ndim not in (3, 4) or any(s == 0 for s in input.shape[-3:]):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    size = tuple(input.shape[-2:])
    blocks = _blocks(size, kernel_size, dilation, padding, stride)
    if any(b < 1 for b in blocks):
        raise RuntimeError(f"Given input with spatial size {size}, kernel_size={kernel_size}, "
                           f"dilation={dilation}, padding={padding}, calculated shape of the "
                           f"array of sliding blocks as {blocks}, but its components must be "
                           f"at least one.")
    return _im2col(input, kernel_size, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The adjoint of unfold: columns (N, C * prod(kernel_size), L) summed into an
    (N, C, *output_size) image (overlapping blocks add up)."""
    if not (output_size.__class__ is int and kernel_size.__class__ is int
            and dilation.__class__ is int and padding.__class__ is int
            and stride.__class__ is int):
        int_lists("col2im", *((i, arg, v if isinstance(v, (tuple, list)) else [v, v])
                              for i, arg, v in ((2, "output_size", output_size),
                                                (3, "kernel_size", kernel_size),
                                                (4, "dilation", dilation),
                                                (5, "padding", padding), (6, "stride", stride))))
    output_size = _pair(output_size, "output_size")
    kernel_size, dilation = _pair(kernel_size, "kernel_size"), _pair(dilation, "dilation")
    padding, stride = _pair(padding, "padding"), _pair(stride, "stride")
    _positive(kernel_size, "kernel size", "kernel")
    _positive(stride, "stride", "stride")
    _positive(dilation, "dilation", "dilation")
    _non_negative_padding(padding)
    if input.ndim not in (2, 3) or any(s == 0 for s in input.shape[-2:]):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    columns = input.shape[-2]
    if columns % math.prod(kernel_size):
        # NOTE: torch names the dims of the batched form, unbatched input too
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={columns} and "
                           f"kernel_size={kernel_size}.")
    blocks = _blocks(output_size, kernel_size, dilation, padding, stride)
    if input.shape[-1] != blocks[0] * blocks[1] or any(b < 1 for b in blocks):
        raise RuntimeError(f"Given output_size={output_size}, kernel_size={kernel_size}, "
                           f"dilation={dilation}, padding={padding}, stride={stride}, expected "
                           f"size of input's dimension 2 to match the calculated "
                           f"number of sliding blocks {blocks[0]} * {blocks[1]} = "
                           f"{blocks[0] * blocks[1]}, but got input.size(2)="
                           f"{input.shape[-1]}.")
    return _col2im(input, output_size, kernel_size, dilation, padding, stride)
