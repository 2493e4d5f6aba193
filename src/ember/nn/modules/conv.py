"""Convolution layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d (torch.nn.modules.conv) and their
lazy forms; Fold and Unfold (in fold.py, as in torch) are exported from here too."""
import math
from collections.abc import Iterable

from ..._creation import empty
from ..._tensor import Tensor
from .._argument_types import conv_refused
from .. import functional as F, init
from ...autograd.grad_mode import no_grad
from ..parameter import Parameter, UninitializedParameter
from .fold import Fold, Unfold
from .lazy import LazyModuleMixin
from .module import Module
from ._named_init import own_init

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d", "Fold", "Unfold", "LazyConv1d", "LazyConv2d", "LazyConv3d",
           "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"]

# NOTE: sets, because torch prints its sets in these messages; their printed order depends on
# string hashes (random per process), so it matches torch's only as a set.
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}
_PADDING_STRINGS = {"same", "valid"}


def _ntuple(value, n):
    """A tuple of n copies of `value`, or `value` as a tuple when it is iterable."""
    if isinstance(value, Iterable) and not isinstance(value, str):
        return tuple(value)
    return (value,) * n


class _ConvNd(Module):
    """What every convolution layer shares: arguments, parameters, initialisation, repr."""

    _dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 transposed, output_padding, groups, bias, padding_mode, device=None,
                 dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        n = self._dims
        kernel_size, stride = _ntuple(kernel_size, n), _ntuple(stride, n)
        dilation = _ntuple(dilation, n)
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _ntuple(padding, n)
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = _reversed_padding(padding, kernel_size,
                                                                  dilation)
        if transposed:
            shape = (in_channels, out_channels // groups) + kernel_size
        else:
            shape = (out_channels, in_channels // groups) + kernel_size
        self.weight = Parameter(empty(shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """kaiming_uniform_(a=sqrt(5)) weights; bias uniform in +-1/sqrt(fan_in)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


def _reversed_padding(padding, kernel_size, dilation):
    """F.pad's argument for the non-zero padding modes (last dim first)."""
    if isinstance(padding, str):
        if padding == "valid":
            return [0, 0] * len(kernel_size)
        out = []
        for d, k in zip(reversed(dilation), reversed(kernel_size)):
            total = d * (k - 1)
            out += [total // 2, total - total // 2]
        return out
    return tuple(p for p in reversed(padding) for _ in range(2))


class _Conv(_ConvNd):
    # NOTE: the name of the functional form, looked up on each call (not bound when the class
    # is made), so that the autocast hook wrapped around `F.conv2d` & co. applies to modules.
    _function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, (0,) * self._dims, groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):
        if not isinstance(input, Tensor) and self.padding_mode == "zeros" and \
                not hasattr(type(input), "__torch_function__"):
            # (torch's module passes all seven arguments: its TypeError lists them all)
            conv_refused(self._function, (input, weight, bias, self.stride, self.padding,
                                          self.dilation, self.groups), all_given=True)
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return getattr(F, self._function)(padded, weight, bias, self.stride, 0, self.dilation,
                                        self.groups)
        return getattr(F, self._function)(input, weight, bias, self.stride, self.padding,
                                    self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1-d convolution over (N, C_in, L) inputs: weight (C_out, C_in / groups, k)."""
    _dims = 1
    _function = "conv1d"


class Conv2d(_Conv):
    """2-d convolution over (N, C_in, H, W) inputs: weight (C_out, C_in / groups, kH, kW).

    >>> Conv2d(1, 8, 3)
    Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1))
    """
    _dims = 2
    _function = "conv2d"


class Conv3d(_Conv):
    """3-d convolution over (N, C_in, D, H, W) inputs."""
    _dims = 3
    _function = "conv3d"


class _ConvTransposeNd(_ConvNd):
    _function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f'{type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         True, _ntuple(output_padding, self._dims), groups, bias, padding_mode,
                         device, dtype)

    def _output_padding(self, input, output_size, stride, padding, kernel_size, num_spatial_dims,
                        dilation=None):
        """The output_padding that makes the output `output_size` (None: self's)."""
        if output_size is None:
            return self.output_padding
        n = num_spatial_dims
        # the batch and channel dims (or the channel dim of an unbatched input) may lead;
        # output_size is kept as given (list, tuple, Size) since the errors show it so.
        lead = 2 if input.dim() == n + 2 else 1
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must "
                             f"have {n} or {lead + n} elements (got {len(output_size)})")
        dilation = self.dilation if dilation is None else dilation
        smallest, largest = [], []
        for d in range(n):
            size = ((input.size(d + lead) - 1) * stride[d] - 2 * padding[d]
                    + dilation[d] * (kernel_size[d] - 1) + 1)
            smallest.append(size)
            largest.append(size + stride[d] - 1)
        for d in range(n):
            if not smallest[d] <= output_size[d] <= largest[d]:
                # (torch shows the input's sizes from dim 2 on, batched or not)
                raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                                 f"range from {smallest} to {largest} (for an input of "
                                 f"{input.size()[2:]})")
        return tuple(output_size[d] - smallest[d] for d in range(n))

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, self.stride, self.padding,
                                              self.kernel_size, self._dims, self.dilation)
        return getattr(F, self._function)(input, self.weight, self.bias, self.stride, self.padding,
                                    output_padding, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """The adjoint of Conv1d: weight (C_in, C_out / groups, k)."""
    _dims = 1
    _function = "conv_transpose1d"


class ConvTranspose2d(_ConvTransposeNd):
    """The adjoint of Conv2d ("deconvolution"): weight (C_in, C_out / groups, kH, kW)."""
    _dims = 2
    _function = "conv_transpose2d"


class ConvTranspose3d(_ConvTransposeNd):
    """The adjoint of Conv3d: weight (C_in, C_out / groups, kD, kH, kW)."""
    _dims = 3
    _function = "conv_transpose3d"


# -- lazy forms: in_channels inferred from the first input ---------------------------------------

class _LazyConvMixin(LazyModuleMixin):
    """What the lazy convolutions share: uninitialized weight and bias until the first input
    gives in_channels, then the convolution's own initialisation."""

    def _make_lazy(self, out_channels, bias, device, dtype):
        self.out_channels = out_channels
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if not self.has_uninitialized_params():
            return
        self.in_channels = self._in_channels_of(input)
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, self.in_channels // self.groups)
        with no_grad():
            self.weight.materialize(shape + self.kernel_size)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _in_channels_of(self, input):
        unbatched = self._dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) "
                               f"input to {type(self).__name__}, but got input of size: "
                               f"{input.shape}")
        return input.shape[0 if input.dim() == unbatched else 1]


class _LazyConv(_LazyConvMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        # NOTE: 0 channels in and out until the input is seen: no storage is made here.
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode, device, dtype)
        self._make_lazy(out_channels, bias, device, dtype)


class _LazyConvTranspose(_LazyConvMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None,
                 dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode, device, dtype)
        self._make_lazy(out_channels, bias, device, dtype)


class LazyConv1d(_LazyConv, Conv1d):
    """A Conv1d whose in_channels is inferred from its first input (then a Conv1d)."""
    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    """A Conv2d whose in_channels is inferred from its first input (then a Conv2d).

    >>> LazyConv2d(8, 3)
    LazyConv2d(0, 8, kernel_size=(3, 3), stride=(1, 1))
    """
    cls_to_become = Conv2d


class LazyConv3d(_LazyConv, Conv3d):
    """A Conv3d whose in_channels is inferred from its first input (then a Conv3d)."""
    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTranspose, ConvTranspose1d):
    """A ConvTranspose1d whose in_channels is inferred from its first input."""
    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTranspose, ConvTranspose2d):
    """A ConvTranspose2d whose in_channels is inferred from its first input."""
    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTranspose, ConvTranspose3d):
    """A ConvTranspose3d whose in_channels is inferred from its first input."""
    cls_to_become = ConvTranspose3d


# (argument errors name each layer's own __init__, as torch's: see _named_init.py)
own_init(Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, LazyConv1d,
         LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d)
