"""torch.ao.nn.intrinsic.qat.LinearBn1d: a Linear layer with its BatchNorm1d folded into the
fake-quantized weight for quantization-aware training, as the ConvBn layers do (NOTE [
Training with BatchNorm folded into a fake-quantized weight ] in conv_fused.py):

    f = bn.weight / sqrt(bn.running_var + bn.eps)
    y = bn(linear(x, fake_quant(w * f[:, None]), 0) / f + b)

`convert` makes it a quantized Linear with the running statistics folded in. Unlike the
ConvBn layers, torch's `freeze_bn_stats` helper for `model.apply` passes it by; its own
`freeze_bn_stats()` method freezes it."""
from ......nn import functional as F
from ......nn import init
from ......nn.modules.batchnorm import BatchNorm1d
from ......nn.modules.linear import Linear
from ......nn.parameter import Parameter
from ......nn.utils.fusion import fuse_linear_bn_weights
from ...modules import fused as nni
from ...modules.fused import _FusedModule
from ....qat.modules.linear import check_qat_source
from .conv_fused import _BnFolded

__all__ = ["LinearBn1d"]


class LinearBn1d(_BnFolded, Linear, _FusedModule):
    """Linear then BatchNorm1d for quantization-aware training, BatchNorm folded into the
    fake-quantized weight; made by `prepare_qat` from a fused LinearBn1d."""

    _FLOAT_MODULE = nni.LinearBn1d

    def __init__(self, in_features, out_features, bias=True, eps=1e-05, momentum=0.1,
                 freeze_bn=False, qconfig=None):
        Linear.__init__(self, in_features, out_features, bias)
        if not qconfig:
            raise AssertionError("qconfig must be provided for QAT module")
        self.qconfig = qconfig
        self.bn = BatchNorm1d(out_features, eps, momentum, True, True)
        self.weight_fake_quant = self.qconfig.weight()
        self.reset_bn_parameters()
        self._start_bn(freeze_bn)

    def reset_bn_parameters(self):
        """Fresh running statistics, gamma uniform in [0, 1), beta 0."""
        self.reset_running_stats()
        init.uniform_(self.bn.weight)
        init.zeros_(self.bn.bias)

    def forward(self, input):
        from ...... import zeros
        factor = self._scale_factor()
        zero_bias = zeros(self.out_features, dtype=input.dtype)
        out = F.linear(input, self._scaled_weight(factor), zero_bias)
        return self._folded_output(factor, out)

    def folded_weight_bias(self):
        """(weight, bias) Parameters of the linear layer with `bn`'s running statistics
        folded in."""
        bn = self.bn
        return fuse_linear_bn_weights(self.weight, self.bias, bn.running_mean,
                                      bn.running_var, bn.eps, bn.weight, bn.bias)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The QAT layer of fused float `mod` (linear, bn) with `mod.qconfig`, sharing the
        Linear's and the BatchNorm's parameters and buffers."""
        check_qat_source(cls, mod, cls._FLOAT_MODULE, name_got=False)
        linear, bn = mod[0], mod[1]
        qat = cls(linear.in_features, linear.out_features, linear.bias is not None, bn.eps,
                  bn.momentum, False, mod.qconfig)
        qat._share_float_parts(linear, bn)
        return qat

    def to_float(self):
        """The float Linear with `bn` folded in (its running statistics)."""
        linear = Linear(self.in_features, self.out_features)
        linear.weight = Parameter(self.weight.detach())
        linear.bias = Parameter(self.bias.detach()) if self.bias is not None else None
        linear.weight, linear.bias = fuse_linear_bn_weights(
            linear.weight, linear.bias, self.bn.running_mean, self.bn.running_var,
            self.bn.eps, self.bn.weight, self.bn.bias)
        return linear
