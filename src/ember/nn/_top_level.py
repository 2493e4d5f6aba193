"""torch's top-level forms of nn.functional's ops (`torch.conv2d`, `torch.layer_norm`, ...),
exported as `ember.<name>`.

torch exposes these ATen functions with ATen's signatures, which differ from nn.functional's
in places: reductions are ints (1 mean, 2 sum, anything else none; left out, torch's Python
binding gives none, not ATen's declared mean), `torch.embedding` takes the weight
first, `torch.batch_norm` takes every argument positionally, pooling returns indices from
`*_with_indices`. Each is a thin wrapper over the functional form; nothing is computed here.
"""
import warnings

from . import functional as F

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "conv_tbc", "max_pool1d", "max_pool2d", "max_pool3d",
           "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d",
           "adaptive_max_pool1d", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle",
           "native_channel_shuffle",
           "cosine_similarity", "pairwise_distance", "pdist", "bilinear", "layer_norm",
           "group_norm", "batch_norm", "instance_norm", "rms_norm", "embedding", "ctc_loss",
           "kl_div", "binary_cross_entropy_with_logits", "cosine_embedding_loss",
           "hinge_embedding_loss", "margin_ranking_loss", "poisson_nll_loss",
           "triplet_margin_loss", "constant_pad_nd", "convolution", "embedding_bag",
           "embedding_renorm_", "grid_sampler", "grid_sampler_2d", "grid_sampler_3d",
           "affine_grid_generator"]

# the same signatures as nn.functional's
conv1d, conv2d, conv3d = F.conv1d, F.conv2d, F.conv3d
conv_transpose1d, conv_transpose2d = F.conv_transpose1d, F.conv_transpose2d
conv_transpose3d, conv_tbc = F.conv_transpose3d, F.conv_tbc
avg_pool1d, adaptive_avg_pool1d = F.avg_pool1d, F.adaptive_avg_pool1d
pixel_shuffle, pixel_unshuffle, channel_shuffle = (F.pixel_shuffle, F.pixel_unshuffle,
                                                   F.channel_shuffle)
native_channel_shuffle = F.native_channel_shuffle
cosine_similarity, pairwise_distance, pdist = F.cosine_similarity, F.pairwise_distance, F.pdist
bilinear = F.bilinear


def _reduction(reduction):
    return {1: "mean", 2: "sum"}.get(reduction, "none")


def _stride(stride):
    return None if stride is None or (isinstance(stride, (tuple, list)) and not stride) \
        else stride


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool2d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool3d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1,
                            ceil_mode=False):
    """(values, indices) of a 1-d max pool."""
    return F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode,
                        return_indices=True)


def adaptive_max_pool1d(input, output_size):
    """(values, indices) of a 1-d adaptive max pool."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return F.rms_norm(input, normalized_shape, weight, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """Rows of `weight` picked by `indices` (note the order: weight first, as in ATen)."""
    return F.embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0,
             zero_infinity=False):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      _reduction(reduction), zero_infinity)


def kl_div(input, target, reduction=0, *, log_target=False):
    with warnings.catch_warnings():     # nn.functional's warning about 'mean'; torch's ATen
        warnings.simplefilter("ignore")  # function does not give it
        return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return F.binary_cross_entropy_with_logits(input, target, weight,
                                              reduction=_reduction(reduction),
                                              pos_weight=pos_weight)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False,
                        reduction=0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction(reduction))


def constant_pad_nd(input, pad, value=0):
    """F.pad's constant mode with ATen's own checks of `pad`."""
    from ._padding import _int_list, constant_pad
    if not isinstance(pad, (tuple, list)):
        raise TypeError(f"constant_pad_nd(): argument 'pad' (position 2) must be tuple of ints, "
                        f"not {type(pad).__name__}")
    pad = _int_list(pad)
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > input.ndim:
        # (torch's text has no spaces around the numbers)
        raise RuntimeError(f"Length of pad should be no more than twice the number of "
                           f"dimensions of the input. Pad length is {len(pad)}while the input "
                           f"has {input.ndim}dimensions.")
    return constant_pad(input, pad, value)


def _int_tuple(value, name, position, k):
    """ATen's `int[]` argument of a convolution: a list or tuple (a one-element list stands for
    every spatial dim); a bare int is refused, as torch's binding refuses it."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"convolution(): argument '{name}' (position {position}) must be tuple "
                        f"of ints, not {type(value).__name__}")
    return tuple(value) * k if len(value) == 1 else tuple(value)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    """ATen's one convolution: conv{1,2,3}d, or conv_transpose{1,2,3}d when `transposed`;
    the weight's dims give the spatial rank."""
    k = weight.ndim - 2
    stride = _int_tuple(stride, "stride", 4, k)
    padding = _int_tuple(padding, "padding", 5, k)
    dilation = _int_tuple(dilation, "dilation", 6, k)
    output_padding = _int_tuple(output_padding, "output_padding", 8, k)
    if transposed:
        fn = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[k - 1]
        return fn(input, weight, bias, stride, padding, output_padding, groups, dilation)
    fn = (F.conv1d, F.conv2d, F.conv3d)[k - 1]
    return fn(input, weight, bias, stride, padding, dilation, groups)


_BAG_MODES = ("sum", "mean", "max")


def _grad_enabled():
    from ..autograd.grad_mode import is_grad_enabled
    return is_grad_enabled()


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """ATen's embedding_bag (weight first, `mode` 0 sum, 1 mean, 2 max): (output, offset2bag,
    bag_size, max_indices), the last three as torch's CPU kernel leaves them: offset2bag (the
    bag of each index) is empty for a sum without padding_idx; bag_size (indices per bag,
    padding left out) is zeros for a sum; max_indices is zeros for a sum, bag_size for a
    mean, and each bag's arg-max row per column (B, D) for a max."""
    import numpy as np
    from .._creation import tensor
    if mode not in (0, 1, 2):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    if per_sample_weights is not None and mode != 0:
        raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
    output = F.embedding_bag(indices, weight, offsets, None, 2, scale_grad_by_freq,
                             _BAG_MODES[mode], sparse, per_sample_weights, include_last_offset,
                             padding_idx)
    idx = np.asarray(indices.cpu().tolist(), dtype=np.int64).reshape(-1)
    starts = [int(s) for s in offsets.tolist()]
    bags = len(starts) - 1 if include_last_offset else len(starts)
    marks = np.zeros(len(idx), dtype=np.int64)
    for s in starts[1:bags]:
        if s < len(idx):
            marks[s] += 1
    offset2bag = np.cumsum(marks)
    padding = -1 if padding_idx is None else padding_idx % weight.shape[0]
    kept = idx != padding
    # (a sum leaves bag_size and max_indices as zeros: one per bag when the weight needs
    # grad, one per offset otherwise, as torch's two kernels do)
    grad = weight.requires_grad and _grad_enabled()
    bag_size = np.bincount(offset2bag[kept], minlength=bags)[:bags] if mode else \
        np.zeros(bags if grad else len(starts), dtype=np.int64)
    if mode == 2:
        # (with padding_idx, the last bag runs to the input's end: see F.embedding_bag)
        end = starts[-1] if include_last_offset and starts and padding_idx is None else \
            len(idx)
        rows = np.asarray(weight.detach().cpu().tolist(), dtype=np.float64)
        max_indices = np.zeros((bags, weight.shape[1]), dtype=np.int64)
        for b in range(bags):
            members = [j for j in range(end) if offset2bag[j] == b and kept[j]]
            if members:
                picked = rows[idx[members]]
                max_indices[b] = idx[members][picked.argmax(axis=0)]
    else:
        max_indices = bag_size.copy()
    if mode == 0 and padding_idx is None:
        offset2bag = offset2bag[:0]
    return (output,) + tuple(tensor(a.tolist(), dtype=indices.dtype, device=weight.device)
                             for a in (offset2bag, bag_size, max_indices))


def embedding_renorm_(input, indices, max_norm, norm_type):
    """Scale, in place, each row of `input` that `indices` names whose `norm_type`-norm
    exceeds max_norm, to max_norm / (norm + 1e-7); returns `input`."""
    from .._ops._dispatch import check_inplace
    from ._sparse import _check_indices, _renorm_
    _check_indices(indices, "embedding_renorm_", 2)
    check_inplace(input, input._data.dtype, input._data.shape)
    n = input.shape[0]
    for i in indices.reshape(-1).tolist():
        if not -n <= i < n:
            raise IndexError(f"select(): index {i} out of range for tensor of size "
                             f"{list(input.shape)} at dimension 0")
    _renorm_(input, indices, max_norm, norm_type)
    return input


_INTERPOLATION = ("bilinear", "nearest", "bicubic")
_PADDING_MODES = ("zeros", "border", "reflection")


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """F.grid_sample with ATen's integer modes: interpolation 0 bilinear, 1 nearest,
    2 bicubic; padding 0 zeros, 1 border, 2 reflection."""
    return F.grid_sample(input, grid, _INTERPOLATION[interpolation_mode],
                         _PADDING_MODES[padding_mode], align_corners)


def _sampler(k):
    def sampler(input, grid, interpolation_mode, padding_mode, align_corners):
        if grid.shape[-1] == input.ndim - 2 and (input.ndim != k + 2 or grid.ndim != k + 2):
            raise RuntimeError(f"grid_sampler(): expected {k + 2}D input and grid with same "
                               f"number of dimensions, but got input with sizes "
                               f"{list(input.shape)} and grid with sizes {list(grid.shape)}")
        return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)
    sampler.__name__ = sampler.__qualname__ = f"grid_sampler_{k}d"
    sampler.__doc__ = f"grid_sampler of {k + 2}-D input only."
    return sampler


grid_sampler_2d, grid_sampler_3d = _sampler(2), _sampler(3)


def affine_grid_generator(theta, size, align_corners):
    """The sampling grid of affine maps `theta` for an output of `size` (4 or 5 dims)."""
    from . import _grid_sample_ops as grid_ops
    size = list(size)
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    if theta.shape[0] != size[0]:
        k = len(size) - 2
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, {k + 1}] but got: [{theta.shape[0]}, {k + 1}].")
    return grid_ops.affine_grid(theta, size[2:], align_corners)
