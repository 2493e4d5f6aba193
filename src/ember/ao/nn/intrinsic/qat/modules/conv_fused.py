"""torch.ao.nn.intrinsic.qat's convolutions with their BatchNorm (`ConvBn1d/2d/3d`,
`ConvBnReLU1d/2d/3d`): what `prepare_qat` makes of the fused ConvBn modules that
`fuse_modules_qat` builds, so that training sees the weight the quantized model will have,
BatchNorm folded in.

NOTE [ Training with BatchNorm folded into a fake-quantized weight ]
After `convert`, the quantized convolution's weight is the conv's weight with the BatchNorm
folded in, `w * gamma / sqrt(running_var + eps)` per output channel (and its bias
`(b - running_mean) * gamma / sqrt(running_var + eps) + beta`), quantized. So the QAT module
fake-quantizes exactly that scaled weight (`weight_fake_quant`), convolves without bias,
divides the scale back out per output channel, adds the conv's bias and applies its own
BatchNorm `bn`:

    f = bn.weight / sqrt(bn.running_var + bn.eps)
    y = bn(conv(x, fake_quant(w * f), 0) / f + b)

`bn` normalises with the batch's statistics (and updates its running ones) while the module
trains and its statistics are not frozen; with `freeze_bn_stats` (or in eval mode) it uses the
running statistics, and then `y` is (up to the rounding) the converted layer's output. A
frozen module's `train(mode)` sets its own flag only: `bn` stays in eval mode, and the
weight's fake-quantizer keeps its mode too. The parameters keep their float names (`weight`,
`bias`, `bn.weight`, `bn.bias`), as torch's state_dicts have them.
"""
import math

from ......nn import functional as F
from ......nn import init
from ......nn.modules.activation import ReLU
from ......nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from ......nn.modules.conv import Conv1d, Conv2d, Conv3d, _ConvNd
from ......nn.parameter import Parameter
from ......nn.utils.fusion import fuse_conv_bn_weights
from ...modules import fused as nni
from ...modules.fused import _FusedModule
from ....qat.modules.linear import check_qat_source

__all__ = ["ConvBn1d", "ConvBn2d", "ConvBn3d", "ConvBnReLU1d", "ConvBnReLU2d", "ConvBnReLU3d",
           "freeze_bn_stats", "update_bn_stats"]


class _BnFolded:
    """What the QAT layers with a BatchNorm folded in (ConvBn*, LinearBn1d) share: freezing
    and updating `bn`'s statistics, a `train()` that leaves a frozen `bn` alone, and the
    folded forward's steps (NOTE [ Training with BatchNorm folded into a fake-quantized
    weight ])."""

    def reset_running_stats(self):
        self.bn.reset_running_stats()

    def update_bn_stats(self):
        """Let `bn` normalise with batch statistics (and update its running ones)."""
        self.freeze_bn = False
        self.bn.training = True
        return self

    def freeze_bn_stats(self):
        """Let `bn` normalise with its running statistics, which stay as they are."""
        self.freeze_bn = True
        self.bn.training = False
        return self

    def train(self, mode=True):
        """Set training mode; the children follow unless the BatchNorm statistics are
        frozen."""
        self.training = mode
        if not self.freeze_bn:
            for module in self.children():
                module.train(mode)
        return self

    def _share_float_parts(self, layer, bn):
        """Take float `layer`'s weight and bias, and `bn`'s parameters and buffers (the
        objects themselves, as `from_float` does)."""
        self.weight, self.bias = layer.weight, layer.bias
        self.bn.weight, self.bn.bias = bn.weight, bn.bias
        self.bn.running_mean, self.bn.running_var = bn.running_mean, bn.running_var
        self.bn.num_batches_tracked = bn.num_batches_tracked

    def _start_bn(self, freeze_bn):
        """The initial mode: frozen when asked to, or when made in eval mode."""
        if self.training and not freeze_bn:
            self.update_bn_stats()
        else:
            self.freeze_bn_stats()

    def _scale_factor(self):
        """gamma / sqrt(running_var + eps), per output channel."""
        if self.bn.running_var is None:
            raise AssertionError("the folded BatchNorm needs running statistics")
        return self.bn.weight / (self.bn.running_var + self.bn.eps).sqrt()

    def _scaled_weight(self, factor):
        """The weight times `factor` per output channel, fake-quantized."""
        return self.weight_fake_quant(
            self.weight * factor.reshape([-1] + [1] * (self.weight.dim() - 1)))

    def _folded_output(self, factor, out):
        """`out` (computed with the scaled weight and no bias) with `factor` divided back
        out per output channel, the layer's bias added, and `bn` applied."""
        shape = [1, -1] + [1] * (self.weight.dim() - 2)
        out = out / factor.reshape(shape)
        if self.bias is not None:
            out = out + self.bias.reshape(shape)
        return self.bn(out)


class _ConvBnNd(_BnFolded, _ConvNd, _FusedModule):
    """The convolution-with-BatchNorm QAT layer of any dimension (NOTE [ Training with
    BatchNorm folded into a fake-quantized weight ])."""

    _FLOAT_MODULE = None
    _FLOAT_CONV_MODULE = None
    _FLOAT_BN_MODULE = None
    _FLOAT_RELU_MODULE = None

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 transposed, output_padding, groups, bias, padding_mode, eps=1e-05,
                 momentum=0.1, freeze_bn=False, qconfig=None, dim=2):
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding,
                         dilation, transposed, output_padding, groups, False, padding_mode)
        if not qconfig:
            raise AssertionError("qconfig must be provided for QAT module")
        self.qconfig = qconfig
        self.bn = self._FLOAT_BN_MODULE(out_channels, eps, momentum, True, True)
        self.weight_fake_quant = self.qconfig.weight()
        if bias:
            from ...... import empty
            self.bias = Parameter(empty(out_channels))
        else:
            self.register_parameter("bias", None)
        self.reset_bn_parameters()
        self._start_bn(freeze_bn)

    def reset_bn_parameters(self):
        """Fresh running statistics, gamma uniform in [0, 1), beta 0, and the conv's bias
        uniform in +-1/sqrt(fan_in)."""
        self.reset_running_stats()
        init.uniform_(self.bn.weight)
        init.zeros_(self.bn.bias)
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in)
            init.uniform_(self.bias, -bound, bound)

    def _forward(self, input):
        from ...... import zeros
        factor = self._scale_factor()
        zero_bias = zeros(self.out_channels, dtype=input.dtype)
        out = self._conv_forward(input, self._scaled_weight(factor), zero_bias)
        return self._folded_output(factor, out)

    def forward(self, input):
        return self._forward(input)

    def folded_weight_bias(self):
        """(weight, bias) Parameters of the conv with `bn`'s running statistics folded in."""
        bn = self.bn
        if bn.running_var is None or bn.running_mean is None:
            raise AssertionError("ConvBn needs BatchNorm running statistics")
        return fuse_conv_bn_weights(self.weight, self.bias, bn.running_mean, bn.running_var,
                                    bn.eps, bn.weight, bn.bias)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The QAT layer of fused float `mod` (conv, bn[, relu]) with `mod.qconfig`, sharing
        the conv's and the BatchNorm's parameters and buffers."""
        check_qat_source(cls, mod, cls._FLOAT_MODULE, name_got=False)
        conv, bn = mod[0], mod[1]
        qat = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                  conv.padding, conv.dilation, conv.groups, conv.bias is not None,
                  conv.padding_mode, bn.eps, bn.momentum, False, mod.qconfig)
        qat._share_float_parts(conv, bn)
        return qat

    def to_float(self):
        """The float equivalent: the conv with `bn` folded in (its running statistics),
        inside the float ConvReLU module for the ReLU-fused classes."""
        conv = self._FLOAT_CONV_MODULE(self.in_channels, self.out_channels, self.kernel_size,
                                       self.stride, self.padding, self.dilation, self.groups,
                                       self.bias is not None, self.padding_mode)
        conv.weight = Parameter(self.weight.detach())
        if self.bias is not None:
            conv.bias = Parameter(self.bias.detach())
        conv.weight, conv.bias = fuse_conv_bn_weights(
            conv.weight, conv.bias, self.bn.running_mean, self.bn.running_var, self.bn.eps,
            self.bn.weight, self.bn.bias)
        if self._FLOAT_RELU_MODULE is None:
            return conv
        fused = _CONV_RELU[self._FLOAT_CONV_MODULE](conv, self._FLOAT_RELU_MODULE())
        fused.train(self.training)
        return fused


_CONV_RELU = {Conv1d: nni.ConvReLU1d, Conv2d: nni.ConvReLU2d, Conv3d: nni.ConvReLU3d}


def _conv_bn_class(name, conv, bn, fused):
    """The QAT ConvBn class `name` over float conv class `conv` and BatchNorm class `bn`."""
    dim = conv._dims

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=None, padding_mode="zeros", eps=1e-05,
                 momentum=0.1, freeze_bn=False, qconfig=None):
        _ConvBnNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding,
                           dilation, False, (0,) * dim, groups, bias, padding_mode, eps,
                           momentum, freeze_bn, qconfig, dim=dim)
    doc = (f"{conv.__name__} then {bn.__name__} for quantization-aware training, BatchNorm "
           "folded into the fake-quantized weight (NOTE [ Training with BatchNorm folded "
           f"into a fake-quantized weight ]); made by `prepare_qat` from a fused {name}.")
    return type(name, (_ConvBnNd, conv), {
        "__init__": __init__, "__doc__": doc, "__module__": __name__, "_FLOAT_MODULE": fused,
        "_FLOAT_CONV_MODULE": conv, "_FLOAT_BN_MODULE": bn})


def _conv_bn_relu_class(name, base, fused):
    """The QAT ConvBnReLU class `name`: QAT ConvBn class `base` followed by ReLU."""
    def forward(self, input):
        return F.relu(self._forward(input))
    doc = f"{base.__name__} followed by ReLU; made by `prepare_qat` from a fused {name}."
    return type(name, (base,), {"forward": forward, "__doc__": doc, "__module__": __name__,
                                "_FLOAT_MODULE": fused, "_FLOAT_RELU_MODULE": ReLU})


ConvBn1d = _conv_bn_class("ConvBn1d", Conv1d, BatchNorm1d, nni.ConvBn1d)
ConvBn2d = _conv_bn_class("ConvBn2d", Conv2d, BatchNorm2d, nni.ConvBn2d)
ConvBn3d = _conv_bn_class("ConvBn3d", Conv3d, BatchNorm3d, nni.ConvBn3d)
ConvBnReLU1d = _conv_bn_relu_class("ConvBnReLU1d", ConvBn1d, nni.ConvBnReLU1d)
ConvBnReLU2d = _conv_bn_relu_class("ConvBnReLU2d", ConvBn2d, nni.ConvBnReLU2d)
ConvBnReLU3d = _conv_bn_relu_class("ConvBnReLU3d", ConvBn3d, nni.ConvBnReLU3d)

_CONV_BN_CLASSES = (ConvBn1d, ConvBn2d, ConvBn3d, ConvBnReLU1d, ConvBnReLU2d, ConvBnReLU3d)


def freeze_bn_stats(mod):
    """`model.apply(freeze_bn_stats)`: freeze the BatchNorm statistics of each QAT ConvBn
    layer (they then normalise with their running statistics)."""
    if type(mod) in _CONV_BN_CLASSES:
        mod.freeze_bn_stats()


def update_bn_stats(mod):
    """`model.apply(update_bn_stats)`: let each QAT ConvBn layer's BatchNorm use (and
    update) batch statistics again."""
    if type(mod) in _CONV_BN_CLASSES:
        mod.update_bn_stats()
