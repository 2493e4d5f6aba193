"""`torch.ao.nn.qat.Linear`: a Linear layer for quantization-aware training, whose weight
passes through its qconfig's weight fake-quantizer (`weight_fake_quant`) at each call."""
from .....nn import functional as F
from .....nn.modules.linear import Linear as FloatLinear

__all__ = ["Linear"]


def check_qat_source(cls, mod, float_class, name_got=True):
    """torch's checks of `cls.from_float(mod)`: `mod` of class `float_class`, with a qconfig
    (the fused ConvBn classes' message does not name the class they got)."""
    if type(mod) is not float_class:
        got = f", got {type(mod).__name__}" if name_got else ""
        raise AssertionError(f"qat.{cls.__name__}.from_float only works for "
                             f"{float_class.__name__}{got}")
    if not hasattr(mod, "qconfig"):
        raise AssertionError("Input float module must have qconfig defined")
    if not mod.qconfig:
        raise AssertionError("Input float module must have a valid qconfig")


class Linear(FloatLinear):
    """y = x W_fq^T + b, W_fq the fake-quantized weight."""

    _FLOAT_MODULE = FloatLinear

    def __init__(self, in_features, out_features, bias=True, qconfig=None, device=None,
                 dtype=None):
        super().__init__(in_features, out_features, bias, device=device, dtype=dtype)
        if not qconfig:
            raise AssertionError("qconfig must be provided for QAT module")
        self.qconfig = qconfig
        self.weight_fake_quant = qconfig.weight()

    def forward(self, input):
        return F.linear(input, self.weight_fake_quant(self.weight), self.bias)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The QAT twin of float `mod` (sharing its parameters), with `mod.qconfig`."""
        check_qat_source(cls, mod, cls._FLOAT_MODULE)
        inner = mod[0] if cls._FLOAT_MODULE is not FloatLinear else mod
        qat = cls(inner.in_features, inner.out_features, bias=inner.bias is not None,
                  qconfig=mod.qconfig)
        qat.weight, qat.bias = inner.weight, inner.bias
        return qat
