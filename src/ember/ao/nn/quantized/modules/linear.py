"""`LinearPackedParams`: the quantized weight and float bias of a quantized linear layer, kept
as torch keeps them (a child module `_packed_params` whose state_dict entries are its `dtype`
and the pair `_packed_params = (weight, bias)`). torch packs them into FBGEMM's opaque layout;
ember keeps the quantized tensor itself."""
from ..... import _qdtype
from .....nn.modules.module import Module

__all__ = ["LinearPackedParams"]


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
