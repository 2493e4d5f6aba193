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
           "triplet_margin_loss"]

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
