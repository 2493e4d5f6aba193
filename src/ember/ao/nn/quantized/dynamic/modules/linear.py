"""`DynamicQuantizedLinear` (torch.ao.nn.quantized.dynamic.Linear): a Linear layer with a
quantized weight whose input is quantized on the fly at each call (NOTE [ Dynamic quantized
linear ] in ao/nn/quantized/_linear_dynamic.py)."""
from ...... import _qdtype
from ......_quantized import quantize_per_tensor
from ......nn.modules.module import Module
from ..._linear_dynamic import linear_dynamic
from ...modules.linear import LinearPackedParams
from ...modules.utils import quantize_weight

__all__ = ["Linear"]


class Linear(Module):
    """y = x W^T + b with W quantized (qint8), x quantized dynamically per call.

        >>> qlinear = torch.ao.nn.quantized.dynamic.Linear(4, 3)
        >>> qlinear
        DynamicQuantizedLinear(in_features=4, out_features=3, dtype=torch.qint8, qscheme=...)
    """

    _version = 4

    def __init__(self, in_features, out_features, bias_=True, dtype=_qdtype.qint8):
        super().__init__()
        if dtype is not _qdtype.qint8:
            raise RuntimeError("Unsupported dtype specified for dynamic quantized Linear "
                               "(ember: qint8 only)")
        from ...... import zeros
        self.in_features, self.out_features = in_features, out_features
        weight = quantize_per_tensor(zeros(out_features, in_features), 1.0, 0, _qdtype.qint8)
        bias = zeros(out_features) if bias_ else None
        self._packed_params = LinearPackedParams(dtype)
        self._packed_params.set_weight_bias(weight, bias)
        self.scale, self.zero_point = 1.0, 0
        self.version = 4
        self.reduce_range = True

    def _get_name(self):
        return "DynamicQuantizedLinear"

    def __repr__(self):
        # (the `_packed_params` child is not shown, as in torch)
        return f"{self._get_name()}({self.extra_repr()})"

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"dtype={self._packed_params.dtype}, qscheme={self.weight().qscheme()}")

    def forward(self, x):
        weight, bias = self._packed_params._weight_bias()
        return linear_dynamic(x, weight, bias, reduce_range=self.reduce_range)

    def weight(self):
        return self._packed_params._weight_bias()[0]

    def bias(self):
        return self._packed_params._weight_bias()[1]

    def set_weight_bias(self, w, b):
        self._packed_params.set_weight_bias(w, b)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        from ...... import tensor
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "scale"] = tensor(self.scale)
        destination[prefix + "zero_point"] = tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        for name in ("scale", "zero_point"):
            value = state_dict.pop(prefix + name, None)
            if value is not None:
                setattr(self, name, value.item())
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys,
                                      unexpected_keys, error_msgs)

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
