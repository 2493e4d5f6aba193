"""Converting the weights of convolution layers to a memory format (channels_last: the channel
dim innermost in memory), keeping the parameters' identity."""
from ..._memory_format import channels_last, channels_last_3d, contiguous_format, \
    preserve_format

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _restrided(weight, memory_format):
    """A copy of `weight` laid out in `memory_format` (torch's errors for other layouts and
    ranks)."""
    if memory_format is preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    if memory_format is not contiguous_format and memory_format is not channels_last and \
            memory_format is not channels_last_3d:
        raise RuntimeError(f"Unsupported memory format {memory_format}")
    return weight.detach().clone(memory_format=memory_format)


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
    `memory_format` (channels_last_3d or contiguous_format); returns `module`."""
    from ..modules.conv import Conv3d, ConvTranspose3d
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))
