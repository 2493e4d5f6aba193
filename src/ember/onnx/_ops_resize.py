"""Translations of padding (F.pad), resizing (F.interpolate, nn.Upsample) and pixel_shuffle."""
import numpy as np

from ._registry import translates
from .errors import SymbolicValueError

# F.interpolate's modes as ONNX Resize's (mode, coordinate_transformation_mode) for
# align_corners False and True; torch's nearest takes the floor of the source coordinate.
_RESIZE = {"nearest": ("nearest", "asymmetric", "asymmetric"),
           "linear": ("linear", "pytorch_half_pixel", "align_corners"),
           "bilinear": ("linear", "pytorch_half_pixel", "align_corners"),
           "trilinear": ("linear", "pytorch_half_pixel", "align_corners"),
           "bicubic": ("cubic", "pytorch_half_pixel", "align_corners")}


@translates("pad")
def pad(g, input, pad, mode="constant", value=None):
    """torch's pad lists (start, end) pairs from the last dim back; ONNX's Pad all the starts
    then all the ends, for every dim."""
    modes = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}
    if mode not in modes:
        raise SymbolicValueError(f"pad mode {mode!r} is not supported by the exporter")
    rank = input.rank
    starts, ends = [0] * rank, [0] * rank
    for i in range(len(pad) // 2):
        starts[rank - 1 - i], ends[rank - 1 - i] = pad[2 * i], pad[2 * i + 1]
    fill = 0.0 if value is None else value
    if g.opset < 11:                    # (pads and value were attributes)
        return g.op("Pad", [input], mode=modes[mode], pads=starts + ends,
                    value=float(fill) if mode == "constant" else None)
    inputs = [input, g.ints(starts + ends)]
    if mode == "constant":
        inputs.append(g.cast(fill, input.np_dtype))
    return g.op("Pad", inputs, mode=modes[mode])


@translates("interpolate", "upsample")
def interpolate(g, input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode not in _RESIZE or antialias:
        raise SymbolicValueError(f"interpolate mode {mode!r} (antialias={antialias}) is not "
                                 "supported by the exporter")
    onnx_mode, half_pixel, corners = _RESIZE[mode]
    attrs = dict(mode=onnx_mode, coordinate_transformation_mode=corners if align_corners
                 else half_pixel)
    if onnx_mode == "nearest":
        attrs["nearest_mode"] = "floor"
    if onnx_mode == "cubic":
        attrs["cubic_coeff_a"] = -0.75
    spatial = input.rank - 2
    if g.opset < 11:
        return _resize_10(g, input, mode)
    if scale_factor is not None and not recompute_scale_factor:
        scales = scale_factor if isinstance(scale_factor, (tuple, list)) else [
            scale_factor] * spatial
        scales = g.const(np.array([1.0, 1.0] + [float(s) for s in scales], np.float32))
        return g.op("Resize", [input, _none(g), scales], **attrs)
    out = list(g.example.shape[2:])
    if g.dynamic:
        from ._ops_shape import getitem, size as shape_of
        lead = getitem(g, shape_of(g, input), slice(0, 2))
        sizes = g.op("Concat", [lead, g.ints(out)], example=tuple(g.example.shape), axis=0)
    else:
        sizes = g.ints(list(g.example.shape))
    return g.op("Resize", [input, _none(g), _none(g), sizes], **attrs)


def _resize_10(g, input, mode):
    """Opset 10's Resize: scales only, the asymmetric coordinates of torch's nearest mode."""
    if mode != "nearest":
        g.require(f"aten::upsample_{mode}", 11)
    in_shape, out_shape = input.example.shape, g.example.shape
    scales = [1.0, 1.0] + [o / i for i, o in zip(in_shape[2:], out_shape[2:])]
    return g.op("Resize", [input, g.const(np.array(scales, np.float32))], mode="nearest")


def _none(g):
    """An omitted optional input of Resize: "" from opset 13, an empty tensor before."""
    return "" if g.opset >= 13 else g.const(np.zeros(0, np.float32))


@translates("pixel_shuffle")
def pixel_shuffle(g, input, upscale_factor):
    """(N, C r^2, H, W) -> (N, C, H r, W r): ONNX's DepthToSpace in its CRD order."""
    if input.rank != 4:
        raise SymbolicValueError("pixel_shuffle exports for 4-D inputs only")
    r = int(upscale_factor)
    if g.opset >= 11:
        return g.op("DepthToSpace", [input], blocksize=r, mode="CRD")
    _, c, h, w = g.example.shape             # (before 11: DCR only; CRD is two reshapes)
    split = g.reshape(input, g.ints([0, c, r, r, h // r, w // r]))
    moved = g.op("Transpose", [split], perm=[0, 1, 4, 2, 5, 3])
    return g.reshape(moved, g.ints([0, c, h, w]))
