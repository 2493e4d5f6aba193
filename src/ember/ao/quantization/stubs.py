"""QuantStub, DeQuantStub and QuantWrapper: where a float model's quantized part begins and
ends. Before `convert` they pass their input through (a QuantStub's observer watches it);
`convert` swaps them for `Quantize` and `DeQuantize`."""
from ...nn.modules.module import Module

__all__ = ["QuantStub", "DeQuantStub", "QuantWrapper"]


class _Stub(Module):
    """A marker that passes its input through, with an optional qconfig of its own."""

    def __init__(self, qconfig=None):
        super().__init__()
        if qconfig:
            self.qconfig = qconfig

    def forward(self, x):
        return x


class QuantStub(_Stub):
    """Marks where float values enter the quantized part (becomes `Quantize`).

        >>> torch.ao.quantization.QuantStub()
        QuantStub()
    """


class DeQuantStub(_Stub):
    """Marks where quantized values leave for float code (becomes `DeQuantize`)."""


class QuantWrapper(Module):
    """`module` between a QuantStub and a DeQuantStub (children `quant`, `dequant`,
    `module`), so that a whole float module can be quantized."""

    def __init__(self, module):
        super().__init__()
        qconfig = getattr(module, "qconfig", None)
        self.add_module("quant", QuantStub(qconfig))
        self.add_module("dequant", DeQuantStub(qconfig))
        self.add_module("module", module)
        self.train(module.training)

    def forward(self, X):
        return self.dequant(self.module(self.quant(X)))
