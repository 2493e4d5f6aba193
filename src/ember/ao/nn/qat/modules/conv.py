"""`torch.ao.nn.qat.Conv1d/Conv2d/Conv3d`: convolutions for quantization-aware training, whose
weight passes through their qconfig's weight fake-quantizer (`weight_fake_quant`) at each
call."""
from .....nn.modules.conv import Conv1d as FloatConv1d
from .....nn.modules.conv import Conv2d as FloatConv2d
from .....nn.modules.conv import Conv3d as FloatConv3d
from .linear import check_qat_source

__all__ = ["Conv1d", "Conv2d", "Conv3d"]


class _ConvNd:
    """What the QAT convolutions add to their float class: the qconfig, the weight's
    fake-quantizer, and `from_float`."""

    _FLOAT_MODULE = None
    _FLOAT_CONV_MODULE = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", qconfig=None,
                 device=None, dtype=None):
        self._FLOAT_CONV_MODULE.__init__(
            self, in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            dilation=dilation, groups=groups, bias=bias, padding_mode=padding_mode,
            device=device, dtype=dtype)
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
        conv = mod if cls._FLOAT_MODULE is cls._FLOAT_CONV_MODULE else mod[0]
        qat = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                  conv.padding, conv.dilation, conv.groups, conv.bias is not None,
                  conv.padding_mode, qconfig=mod.qconfig)
        qat.weight, qat.bias = conv.weight, conv.bias
        return qat


def _qat_conv(float_class):
    doc = f"A {float_class.__name__} with a fake-quantized weight."
    return type(float_class.__name__, (_ConvNd, float_class), {
        "__doc__": doc, "__module__": __name__, "_FLOAT_MODULE": float_class,
        "_FLOAT_CONV_MODULE": float_class})


Conv1d = _qat_conv(FloatConv1d)
Conv2d = _qat_conv(FloatConv2d)
Conv3d = _qat_conv(FloatConv3d)
