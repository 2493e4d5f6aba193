"""Converting the weights of convolution layers to a memory format (channels_last: the channel
dim innermost in memory), keeping the parameters' identity."""
from ..._ops.views import channels_last, contiguous_format, preserve_format

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _restrided(weight, memory_format):
    """A copy of `weight` laid out in `memory_format`."""
    weight = weight.detach()
    if memory_format is channels_last:
        if weight.dim() != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        # NOTE: (N, H, W, C) made contiguous, then viewed back as (N, C, H, W): the strides of
        # channels_last, e.g. (60, 1, 15, 3) for shape (2, 3, 4, 5).
        return weight.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    if memory_format is contiguous_format:
        return weight.clone().contiguous()
    if memory_format is preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    raise RuntimeError(f"Unsupported memory format {memory_format}")


def _convert(module, memory_format, kinds):
    if isinstance(module, kinds):
        module.weight.data = _restrided(module.weight, memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """Lay out the weight of every Conv2d / ConvTranspose2d in `module` (recursively) in
    `memory_format`; returns `module`.

        model = nn.utils.convert_conv2d_weight_memory_format(model, torch.channels_last)
    """
    from ..modules.conv import Conv2d, ConvTranspose2d
    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))


def convert_conv3d_weight_memory_format(module, memory_format):
    """Lay out the weight of every Conv3d / ConvTranspose3d in `module` (recursively) in
    `memory_format`; returns `module`. (ember has no channels_last_3d format yet: only
    contiguous_format converts a 5-D weight.)"""
    from ..modules.conv import Conv3d, ConvTranspose3d
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))
