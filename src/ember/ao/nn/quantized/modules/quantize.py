"""`Quantize` and `DeQuantize`: the layers that enter and leave the quantized part of a
converted model (what `convert` makes of QuantStub and DeQuantStub)."""
from ..... import _dtype
from .....nn.modules.module import Module

__all__ = ["Quantize", "DeQuantize"]


class Quantize(Module):
    """Quantizes its float input per tensor with its `scale` and `zero_point` (buffers).

        >>> torch.ao.nn.quantized.Quantize(0.1, 3, torch.quint8)
        Quantize(scale=tensor([0.1000]), zero_point=tensor([3]), dtype=torch.quint8)
    """

    def __init__(self, scale, zero_point, dtype, factory_kwargs=None):
        super().__init__()
        from ..... import tensor
        self.register_buffer("scale", tensor([scale]))
        self.register_buffer("zero_point", tensor([zero_point], dtype=_dtype.int64))
        self.dtype = dtype

    def forward(self, X):
        from ....._quantized import quantize_per_tensor
        return quantize_per_tensor(X, float(self.scale), int(self.zero_point), self.dtype)

    def extra_repr(self):
        return f"scale={self.scale}, zero_point={self.zero_point}, dtype={self.dtype}"

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        """The Quantize of an observed QuantStub: its observer's scale and zero point."""
        if not hasattr(mod, "activation_post_process"):
            raise AssertionError("Input float module must have activation_post_process")
        observer = mod.activation_post_process
        scale, zero_point = observer.calculate_qparams()
        return Quantize(float(scale.float().item()), int(zero_point.long().item()),
                        observer.dtype)


class DeQuantize(Module):
    """Gives the float32 values of its quantized input.

        >>> torch.ao.nn.quantized.DeQuantize()
        DeQuantize()
    """

    def forward(self, Xq):
        return Xq.dequantize()

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        return DeQuantize()


