"""`torch.ao.nn.qat.Conv2d`: a Conv2d for quantization-aware training, whose weight passes
through its qconfig's weight fake-quantizer (`weight_fake_quant`) at each call."""
from .....nn.modules.conv import Conv2d as FloatConv2d
from .linear import check_qat_source

__all__ = ["Conv2d"]


class Conv2d(FloatConv2d):
    """A 2-d convolution with a fake-quantized weight."""

    _FLOAT_MODULE = FloatConv2d

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", qconfig=None,
                 device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride=stride,
                         padding=padding, dilation=dilation, groups=groups, bias=bias,
                         padding_mode=padding_mode, device=device, dtype=dtype)
        if not qconfig:
            raise AssertionError("qconfig must be provided for QAT module")
        self.qconfig = qconfig
        self.weight_fake_quant = qconfig.weight()

    def forward(self, input):
        return self._conv_forward(input, self.weight_fake_quant(self.weight), self.bias)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The QAT twin of float `mod` (sharing its parameters), with `mod.qconfig`."""
        check_qat_source(cls, mod, cls._FLOAT_MODULE)
        conv = mod[0] if cls._FLOAT_MODULE is not FloatConv2d else mod
        qat = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                  conv.padding, conv.dilation, conv.groups, conv.bias is not None,
                  conv.padding_mode, qconfig=mod.qconfig)
        qat.weight, qat.bias = conv.weight, conv.bias
        return qat
