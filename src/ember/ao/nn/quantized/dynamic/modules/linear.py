"""`DynamicQuantizedLinear` (torch.ao.nn.quantized.dynamic.Linear): a Linear layer with a
quantized weight whose input is quantized on the fly at each call (NOTE [ Dynamic quantized
linear ] in ao/nn/quantized/_linear_dynamic.py)."""
from ...... import _qdtype
from ..._linear_dynamic import linear_dynamic
from ...modules.linear import Linear as StaticLinear
from ...modules.utils import quantize_weight

__all__ = ["Linear"]


class Linear(StaticLinear):
    """y = x W^T + b with W quantized (qint8), x quantized dynamically per call (a static
    quantized Linear's weight, bias and state_dict; its scale and zero point go unused).

        >>> qlinear = torch.ao.nn.quantized.dynamic.Linear(4, 3)
        >>> qlinear
        DynamicQuantizedLinear(in_features=4, out_features=3, dtype=torch.qint8, qscheme=...)
    """

    _version = 4
    _NAME = "DynamicQuantizedLinear"

    def __init__(self, in_features, out_features, bias_=True, dtype=_qdtype.qint8):
        if dtype is not _qdtype.qint8:
            raise RuntimeError("Unsupported dtype specified for dynamic quantized Linear "
                               "(ember: qint8 only)")
        super().__init__(in_features, out_features, bias_, dtype)
        self.version = 4
        self.reduce_range = True

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"dtype={self._packed_params.dtype}, qscheme={self.weight().qscheme()}")

    def forward(self, x):
        weight, bias = self._packed_params._weight_bias()
        return linear_dynamic(x, weight, bias, reduce_range=self.reduce_range)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The dynamically quantized twin of float Linear `mod`, its weight quantized by its
        qconfig's weight observer (the default: per-tensor symmetric MinMax, qint8)."""
        from .....quantization.qconfig import default_dynamic_qconfig
        qconfig = getattr(mod, "qconfig", None) or default_dynamic_qconfig
        observer = qconfig.weight()
        if observer.dtype is not _qdtype.qint8:
            raise RuntimeError(f"ember: dynamic quantized Linear of weight dtype "
                               f"{observer.dtype} is not implemented (qint8 only)")
        observer(mod.weight)
        qlinear = cls(mod.in_features, mod.out_features, dtype=observer.dtype)
        qlinear.set_weight_bias(quantize_weight(mod.weight.float(), observer), mod.bias)
        return qlinear
