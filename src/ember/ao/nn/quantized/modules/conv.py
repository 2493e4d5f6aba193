"""`QuantizedConv1d/2d/3d` (torch.ao.nn.quantized.Conv1d/Conv2d/Conv3d): convolutions
on quint8 inputs with a qint8 weight and float bias, giving quint8 outputs of their own scale
and zero point (NOTE [ Static quantized kernels ] in ao/nn/quantized/_kernels.py). FBGEMM
runs a 1-d convolution as the 2-d one over a height of 1, which is what the kernel computes
for one spatial dim."""
from ..... import _qdtype
from .....nn.modules.utils import _pair, _single, _triple
from .. import _kernels
from .utils import (QuantizedOutputModule, check_quant_input, observed_params,
                    quantize_weight, quantized_output, weight_observer, zero_weight)

__all__ = ["Conv1d", "Conv2d", "Conv3d"]


class Conv2d(QuantizedOutputModule):
    """A quantized Conv2d, made by `convert` from an observed `nn.Conv2d` (`from_float`).

        >>> torch.ao.nn.quantized.Conv2d(1, 8, 3)
        QuantizedConv2d(1, 8, kernel_size=(3, 3), stride=(1, 1), scale=1.0, zero_point=0)
    """

    _NAME = "QuantizedConv2d"
    _OP = "quantized::conv2d.new"
    _FUSED_RELU = False
    _TUPLE = staticmethod(_pair)
    _SHAPE = "(N, C, H, W)"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", device=None,
                 dtype=None):
        super().__init__()
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise NotImplementedError("ember: quantized Conv2d supports padding_mode='zeros' "
                                      "only")
        from ..... import zeros
        self.in_channels, self.out_channels = in_channels, out_channels
        n = self._TUPLE
        self.kernel_size, self.stride = n(kernel_size), n(stride)
        self.padding, self.dilation = n(padding), n(dilation)
        self.transposed, self.output_padding = False, n(0)
        self.groups, self.padding_mode = groups, padding_mode
        weight = zero_weight(out_channels, in_channels // groups, *self.kernel_size)
        self._packed_params = (weight, zeros(out_channels) if bias else None)
        self.scale, self.zero_point = 1.0, 0

    def _get_name(self):
        return self._NAME

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}, scale={self.scale}, zero_point={self.zero_point}")
        if self.padding != self._TUPLE(0):
            s += f", padding={self.padding}"
        if self.dilation != self._TUPLE(1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias() is None:
            s += ", bias=False"
        return s

    def weight(self):
        return self._packed_params[0]

    def bias(self):
        return self._packed_params[1]

    def set_weight_bias(self, w, b):
        self._packed_params = (w, b)

    def forward(self, input):
        if input.dim() != len(self._SHAPE.split(",")):
            raise ValueError(f"Input shape must be `{self._SHAPE}`!")
        check_quant_input(input, self._OP)
        array = self._compute(input, *self._packed_params)
        return quantized_output(array, self.scale, self.zero_point)

    def _compute(self, input, weight, bias):
        return _kernels.conv(input, weight, bias, self.stride, self.padding, self.dilation,
                             self.groups, self.scale, self.zero_point, self._FUSED_RELU)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        destination[prefix + "weight"] = self.weight()
        destination[prefix + "bias"] = self.bias()
        super()._save_to_state_dict(destination, prefix, keep_vars)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        for name in ("weight", "bias"):
            if prefix + name not in state_dict and strict:
                missing_keys.append(prefix + name)
        self.set_weight_bias(state_dict.pop(prefix + "weight", self.weight()),
                             state_dict.pop(prefix + "bias", self.bias()))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The quantized twin of observed float `mod` (an nn.Conv2d, or for the ReLU-fused
        class a ConvReLU2d): its weight quantized by its qconfig's weight observer, its
        output parameters from its `activation_post_process`."""
        scale, zero_point = observed_params(mod)
        conv = _float_conv(mod, cls)
        observer = weight_observer(conv)
        if observer.dtype is not _qdtype.qint8:
            raise AssertionError("Weight observer must have a dtype of qint8")
        qconv = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                    conv.padding, conv.dilation, conv.groups, conv.bias is not None,
                    conv.padding_mode)
        qconv.set_weight_bias(quantize_weight(conv.weight.float(), observer), conv.bias)
        qconv.scale, qconv.zero_point = scale, zero_point
        return qconv


def _float_conv(mod, cls):
    """The float convolution inside `mod` (a fused ConvReLU's first part, with its qconfig);
    a QAT ConvBn layer gets its BatchNorm folded into its weight and bias (NOTE [ Training
    with BatchNorm folded into a fake-quantized weight ])."""
    from ...intrinsic.modules import fused
    from ...intrinsic.qat.modules.conv_fused import _ConvBnNd
    from .....nn.modules import conv as float_conv
    if isinstance(mod, _ConvBnNd):
        mod.weight, mod.bias = mod.folded_weight_bias()
        return mod
    if isinstance(mod, (fused.ConvReLU1d, fused.ConvReLU2d, fused.ConvReLU3d)):
        conv = mod[0]
        if getattr(conv, "qconfig", None) is None:
            conv.qconfig = getattr(mod, "qconfig", None)
        return conv
    float_class = {_single: float_conv.Conv1d, _pair: float_conv.Conv2d,
                   _triple: float_conv.Conv3d}[cls._TUPLE]
    if type(mod) is not float_class and not hasattr(mod, "weight_fake_quant"):
        raise AssertionError(f"nnq.{cls.__name__}.from_float only works for "
                             f"{float_class.__name__} but got: {type(mod)}")
    return mod


class Conv1d(Conv2d):
    """A quantized Conv1d, made by `convert` from an observed `nn.Conv1d` (or a QAT ConvBn1d).

        >>> torch.ao.nn.quantized.Conv1d(2, 4, 3)
        QuantizedConv1d(2, 4, kernel_size=(3,), stride=(1,), scale=1.0, zero_point=0)
    """

    _NAME = "QuantizedConv1d"
    _OP = "quantized::conv1d"
    _TUPLE = staticmethod(_single)
    _SHAPE = "(N, C, L)"


class Conv3d(Conv2d):
    """A quantized Conv3d, made by `convert` from an observed `nn.Conv3d` (or a QAT Conv3d or
    ConvBn3d).

        >>> torch.ao.nn.quantized.Conv3d(2, 4, 3)
        QuantizedConv3d(2, 4, kernel_size=(3, 3, 3), stride=(1, 1, 1), scale=1.0, zero_point=0)
    """

    _NAME = "QuantizedConv3d"
    _OP = "quantized::conv3d.new"
    _TUPLE = staticmethod(_triple)
    _SHAPE = "(N, C, D, H, W)"
