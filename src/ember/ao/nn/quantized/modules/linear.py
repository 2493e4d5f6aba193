"""`QuantizedLinear` (torch.ao.nn.quantized.Linear), and `LinearPackedParams`: the quantized
weight and float bias of a quantized linear layer, kept as torch keeps them (a child module
`_packed_params` whose state_dict entries are its `dtype` and the pair `_packed_params =
(weight, bias)`). torch packs them into FBGEMM's opaque layout; ember keeps the quantized
tensor itself."""
from ..... import _qdtype
from .....nn.modules.module import Module
from .utils import QuantizedOutputModule

__all__ = ["LinearPackedParams", "Linear"]


class LinearPackedParams(Module):
    """Holds a quantized linear layer's (weight, bias)."""

    _version = 3

    def __init__(self, dtype=_qdtype.qint8):
        super().__init__()
        self.dtype = dtype
        self._packed_params = (None, None)

    def set_weight_bias(self, weight, bias):
        self._packed_params = (weight, bias)

    def _weight_bias(self):
        return self._packed_params

    def forward(self, x):
        return x

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "dtype"] = self.dtype
        destination[prefix + "_packed_params"] = self._weight_bias()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        for name in ("dtype", "_packed_params"):
            key = prefix + name
            if key in state_dict:
                value = state_dict.pop(key)
                if name == "dtype":
                    self.dtype = value
                else:
                    self.set_weight_bias(*value)
            elif strict:
                missing_keys.append(key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys,
                                      unexpected_keys, error_msgs)

    def __repr__(self):
        return repr(self._weight_bias())


class Linear(QuantizedOutputModule):
    """A quantized Linear (quint8 in, qint8 weight, float bias, quint8 out), made by
    `convert` from an observed `nn.Linear` (`from_float`).

        >>> torch.ao.nn.quantized.Linear(4, 3)
        QuantizedLinear(in_features=4, out_features=3, scale=1.0, zero_point=0, qscheme=...)
    """

    _version = 3
    _NAME = "QuantizedLinear"
    _OP = "quantized::linear"
    _FUSED_RELU = False

    def __init__(self, in_features, out_features, bias_=True, dtype=_qdtype.qint8):
        super().__init__()
        if dtype is not _qdtype.qint8:
            raise RuntimeError("Unsupported dtype specified for quantized Linear!")
        from ..... import zeros
        from .utils import zero_weight
        self.in_features, self.out_features = in_features, out_features
        weight = zero_weight(out_features, in_features)
        self._packed_params = LinearPackedParams(dtype)
        self._packed_params.set_weight_bias(weight, zeros(out_features) if bias_ else None)
        self.scale, self.zero_point = 1.0, 0

    def _get_name(self):
        return self._NAME

    def __repr__(self):
        # (the `_packed_params` child is not shown, as in torch)
        return f"{self._get_name()}({self.extra_repr()})"

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"scale={self.scale}, zero_point={self.zero_point}, "
                f"qscheme={self.weight().qscheme()}")

    def forward(self, x):
        from .. import _kernels
        from .utils import check_quant_input, quantized_output
        check_quant_input(x, self._OP)
        weight, bias = self._packed_params._weight_bias()
        array = _kernels.linear(x, weight, bias, self.scale, self.zero_point,
                                self._FUSED_RELU)
        return quantized_output(array, self.scale, self.zero_point)

    def weight(self):
        return self._packed_params._weight_bias()[0]

    def bias(self):
        return self._packed_params._weight_bias()[1]

    def set_weight_bias(self, w, b):
        self._packed_params.set_weight_bias(w, b)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The quantized twin of observed float `mod` (an nn.Linear, or for the ReLU-fused
        class a LinearReLU; a QAT LinearBn1d gets its BatchNorm folded in)."""
        from ...intrinsic.modules.fused import LinearReLU
        from ...intrinsic.qat.modules.linear_fused import LinearBn1d
        from .utils import observed_params, quantize_weight, weight_observer
        scale, zero_point = observed_params(mod)
        if isinstance(mod, LinearBn1d):
            mod.weight, mod.bias = mod.folded_weight_bias()
        elif isinstance(mod, LinearReLU):
            inner = mod[0]
            if getattr(inner, "qconfig", None) is None:
                inner.qconfig = getattr(mod, "qconfig", None)
            mod = inner
        observer = weight_observer(mod)
        if observer.dtype is not _qdtype.qint8:
            raise AssertionError("Weight observer must have dtype torch.qint8")
        qlinear = cls(mod.in_features, mod.out_features, dtype=observer.dtype)
        qlinear.set_weight_bias(quantize_weight(mod.weight.float(), observer), mod.bias)
        qlinear.scale, qlinear.zero_point = scale, zero_point
        return qlinear
