"""ember.nn.functional: vision. interpolate (and the deprecated upsample functions),
pixel_shuffle / pixel_unshuffle, grid_sample and affine_grid: argument rules, warnings and
error texts as torch's; the kernels are in `_vision_ops.py` and `_grid_sample_ops.py`."""
import math

import numpy as np

from .. import _dtype
from . import _grid_sample_ops as grid_ops, _vision_ops as ops
from ._pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d
from .._tensor import Tensor
from ._argument_types import check_int, is_int, tensors, upsample_refused
from .. import _warn

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "pixel_shuffle",
           "pixel_unshuffle", "channel_shuffle", "native_channel_shuffle", "grid_sample",
           "affine_grid"]

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4}
_KERNELS = {"nearest": "nearest", "nearest-exact": "nearest", "linear": "linear",
            "bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}
_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False "
                  "since 1.3.0. Please specify align_corners=True if the old behavior is desired. "
                  "See the documentation of grid_sample for details.")


def _is_integer(n):
    """An int, a NumPy integer, or a tensor of an integral dtype (what torch accepts in a size
    tuple)."""
    if isinstance(n, Tensor):
        return not (n.dtype.is_floating_point or n.dtype.is_complex)
    return isinstance(n, (int, np.integer))


def _spatial_args(input, size, scale_factor, dim):
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    spatial = list(input.shape[2:])
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    f"Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {spatial} and output size of {size}. "
                    f"Please provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                    f"size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(n) for n in size):
                raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                f"or Tuple[int, int, int], but got size with types "
                                f"{[type(n) for n in size]}")
            return [int(n) if isinstance(n, np.integer) else n for n in size], None
        return [size] * dim, None
    if scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    f"Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {spatial} and scale_factor of shape "
                    f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                    f"format and scale_factor in (s1, s2, ...,sK) format.")
            return None, list(scale_factor)
        return None, [scale_factor] * dim
    raise ValueError("either size or scale_factor should be defined")


def _check_sizes(input, out):
    nd = len(out)
    spatial = list(input.shape[-nd:])
    if min(spatial) > 0 and min(out) > 0:
        return
    names = "DHW"[3 - nd:]
    given = ", ".join(f"{c}: {v}" for c, v in zip(names, spatial))
    wanted = ", ".join(f"{c}: {v}" for c, v in zip(names, out))
    joiner = " and output" if nd == 1 else " output"
    raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                       f"({given}){joiner} ({wanted})")


def _check_dtype(input, mode):
    dtype = input._data.dtype
    kernel = _KERNELS[mode]
    if dtype.kind in "fV" or (dtype == "uint8" and (kernel == "nearest" or input.ndim == 4)):
        return      # (uint8 images: NOTE [ torch's uint8 resampling ])
    name = f"compute_indices_weights_{kernel}"
    if input.ndim == 4 and kernel != "cubic":
        name = f"upsample_{'nearest' if kernel == 'nearest' else 'bilinear'}2d_channels_last"
    raise NotImplementedError(f'"{name}" not implemented for \'{input.dtype._scalar_name}\'')


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resizes the spatial dims of (N, C, *spatial) to `size` or by `scale_factor`.

    Modes: nearest, nearest-exact, linear (3-D input), bilinear / bicubic (4-D), trilinear
    (5-D), area (adaptive average pooling). align_corners (linear modes only) maps corner
    pixel centres onto each other; with a scale_factor and no recompute_scale_factor the
    coordinates use 1 / scale_factor, as in torch. antialias (bilinear / bicubic, 4-D) widens
    the filter when shrinking so that every input pixel contributes.
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.ndim - 2
    out, scales = _spatial_args(input, size, scale_factor, dim)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and out is None:
        recompute_scale_factor = True
    if out is None:
        out = [int(float(n * s)) for n, s in zip(input.shape[2:], scales)]
        if recompute_scale_factor:
            out = [math.floor(float(n * s)) for n, s in zip(input.shape[2:], scales)]
            scales = None
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        # NOTE: torch's text also names its lanczos mode, which ember does not have
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
                         "and requires a 4-D tensor as input")
    if input.ndim in (3, 4, 5) and mode == "area":
        pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[dim - 1]
        return pool(input, out if dim > 1 else out[0])
    needed = _NEEDS.get(mode)
    if needed is not None and mode != "bicubic" and input.ndim in (3, 4, 5) \
            and input.ndim != needed:
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {needed}D "
                                  f"input")
    if input.ndim not in (3, 4, 5) or mode not in _KERNELS or (needed and input.ndim != needed):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                                  f"{input.ndim}D) for the modes: {_MODES} (got {mode})")
    if size is not None and not is_int(out[0]):     # a float size, passed on as a list
        upsample_refused(input, mode, size, align_corners)
    _check_sizes(input, out)
    if antialias and input.dtype not in (_dtype.float32, _dtype.float64, _dtype.uint8):
        # (torch's anti-aliasing kernels compute their weights for float and double only;
        # uint8 images have a kernel of their own)
        raise NotImplementedError(f'"compute_index_ranges_weights" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    _check_dtype(input, mode)
    if 0 in input.shape[1:]:
        raise RuntimeError(f"Non-empty {input.ndim}D data tensor expected but got a tensor with "
                           f"sizes {list(input.shape)}")
    return ops.upsample(input, mode, out, scales or [None] * dim, align_corners, antialias)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of interpolate."""
    _warn.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
               "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='nearest')."""
    _warn.warn("`nn.functional.upsample_nearest` is deprecated. Use "
               "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='bilinear', align_corners=True)."""
    _warn.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
               "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# -- pixel shuffle -------------------------------------------------------------------------------

def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r): channel blocks become r x r pixel blocks."""
    r = upscale_factor
    if r.__class__ is not int:
        check_int("pixel_shuffle", "upscale_factor", 2, r)
    if input.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {input.ndim} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c = input.shape[-3]
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)={c} "
                           f"is not divisible by {r * r}")
    return ops.run_shuffle(input, r, ops.PixelShuffle, ops.shuffle)


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W): the inverse of pixel_shuffle."""
    r = downscale_factor
    if r.__class__ is not int:
        check_int("pixel_unshuffle", "downscale_factor", 2, r)
    if input.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {input.ndim} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    h, w = input.shape[-2:]
    if h % r:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by downscale_factor, "
                           f"but input.size(-2)={h} is not divisible by {r}")
    if w % r:
        raise RuntimeError(f"pixel_unshuffle expects width to be divisible by downscale_factor, "
                           f"but input.size(-1)={w} is not divisible by {r}")
    if input.numel() == 0:      # NOTE: torch's kernel returns a copy, its shape unchanged
        return ops.run_shuffle(input, r, ops.PixelUnshuffle, lambda x, _: x.copy())
    return ops.run_shuffle(input, r, ops.PixelUnshuffle, ops.unshuffle)


def channel_shuffle(input, groups):
    """(N, C, *) with C = groups * k: the channels regrouped so that each group's first channel
    comes first, then each group's second, ... (ShuffleNet)."""
    _check_channel_shuffle(input, groups, "channel_shuffle")
    return ops.run_shuffle(input, groups, ops.ChannelShuffle, ops.channel_shuffle)


def native_channel_shuffle(input, groups):
    """channel_shuffle's kernel itself: the same values and checks, no derivative."""
    _check_channel_shuffle(input, groups, "native_channel_shuffle")
    return ops.run_shuffle(input, groups, ops.NativeChannelShuffle, ops.channel_shuffle)


def _check_channel_shuffle(input, groups, name):
    if groups.__class__ is not int:
        check_int(name, "groups", 2, groups)
    if input.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes [{', '.join(map(str, input.shape))}]")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {groups} groups.")


# -- grid sampling -------------------------------------------------------------------------------

def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Samples input (N, C, H, W) at grid (N, Ho, Wo, 2) points, given as (x, y) in [-1, 1]
    (or (N, C, D, H, W) at (N, Do, Ho, Wo, 3) points (x, y, z)). mode: bilinear (trilinear
    for 5-D) or nearest; padding_mode: zeros, border or reflection."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        _warn.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not (isinstance(input, Tensor) and isinstance(grid, Tensor)):
        tensors("grid_sampler", (1, "input", input, False), (2, "grid", grid, False))
    shape, grid_shape = list(input.shape), list(grid.shape)
    if not shape or not grid_shape:     # (torch reads size(0) of both first)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if shape[0] != grid_shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got input with sizes {shape} and grid with sizes {grid_shape}")
    if grid_shape[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last "
                           f"dimension, but got grid with sizes {grid_shape}")
    if input.ndim != grid.ndim or input.ndim not in (4, 5):
        raise RuntimeError(f"grid_sampler(): expected {input.ndim}D input and grid with same "
                           f"number of dimensions, but got input with sizes {shape} and grid "
                           f"with sizes {grid_shape}")
    for d in range(2, input.ndim):
        if shape[d] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {shape} with dimension {d} "
                               f"being empty")
    if input._data.dtype.kind not in "fV":
        kernel = "grid_sampler_2d_cpu_kernel_impl" if input.ndim == 4 else "grid_sampler3d_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f'\'{input.dtype._scalar_name}\'')
    if grid.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found "
                           f"{grid.dtype._scalar_name}")
    if mode == "bicubic" and input.ndim == 5:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    data = grid_ops.grid_sample(input._data, grid._data, mode, padding_mode, align_corners)
    (result,) = grid_ops.apply(grid_ops.GRID_SAMPLERS[input.ndim - 2], (input, grid), (data,),
                          {"mode": mode, "padding_mode": padding_mode,
                           "align_corners": align_corners})
    return result


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) of the affine maps theta (N, 2, 3) for an output of
    `size` (N, C, H, W); (N, 3, 4) and a 5-D size give a 3-d grid (N, D, H, W, 3)."""
    if align_corners is None:
        _warn.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.ndim != 3 or tuple(theta.shape[-2:]) != (2, 3):
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {theta.shape}.")
        spatial = list(size[-2:])
    elif len(size) == 5:
        if theta.ndim != 3 or tuple(theta.shape[-2:]) != (3, 4):
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                             f"{size}. Got {theta.shape}.")
        spatial = list(size[-3:])
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        _warn.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids "
                   "when align_corners=True. This is not an intended use case of "
                   "affine_grid. See the documentation of affine_grid for details.",
                   stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if theta.shape[0] != size[0]:
        k = len(spatial)
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, {k + 1}] but got: [{theta.shape[0]}, {k + 1}].")
    return grid_ops.affine_grid(theta, spatial, align_corners)
