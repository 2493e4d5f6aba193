"""`FloatFunctional` and `QFunctional`: modules standing for the operations (add, mul, cat,
add_relu) a model does between its layers, so that `prepare` can observe their outputs and
`convert` can swap in the quantized operators (NOTE [ Static quantized kernels ])."""
from ..... import _qdtype
from .....nn.modules.linear import Identity
from .....nn.modules.module import Module
from .. import _kernels
from .utils import (QuantizedOutputModule, check_quant_input, observed_params,
                    quantized_output)

__all__ = ["FloatFunctional", "FXFloatFunctional", "QFunctional"]

_NOT_FORWARD = ("{} is not intended to use the 'forward'. Please use the underlying "
                "operation")


class FloatFunctional(Module):
    """The float operations, each followed by the (observer) `activation_post_process`.

        >>> ff = torch.ao.nn.quantized.FloatFunctional()
        >>> ff.add(torch.ones(2), torch.ones(2))
        tensor([2., 2.])
    """

    def __init__(self):
        super().__init__()
        self.activation_post_process = Identity()

    def forward(self, x):
        raise RuntimeError(_NOT_FORWARD.format("FloatFunctional"))

    def add(self, x, y):
        from ..... import add
        return self.activation_post_process(add(x, y))

    def add_scalar(self, x, y):
        from ..... import add
        return add(x, y)        # (not observed: the quantized op keeps the input's scale)

    def mul(self, x, y):
        from ..... import mul
        return self.activation_post_process(mul(x, y))

    def mul_scalar(self, x, y):
        from ..... import mul
        return mul(x, y)

    def cat(self, x, dim=0):
        from ..... import cat
        return self.activation_post_process(cat(x, dim=dim))

    def add_relu(self, x, y):
        from ..... import add, relu
        return self.activation_post_process(relu(add(x, y)))

    def matmul(self, x, y):
        from ..... import matmul
        return self.activation_post_process(matmul(x, y))


class FXFloatFunctional(FloatFunctional):
    """FloatFunctional for FX graph mode quantization: the operations without observers."""

    def forward(self, x):
        raise RuntimeError(_NOT_FORWARD.format("FloatFunctional"))

    def add(self, x, y):
        from ..... import add
        return add(x, y)

    def mul(self, x, y):
        from ..... import mul
        return mul(x, y)

    def cat(self, x, dim=0):
        from ..... import cat
        return cat(x, dim=dim)

    def add_relu(self, x, y):
        from ..... import add, relu
        return relu(add(x, y))

    def matmul(self, x, y):
        from ..... import matmul
        return matmul(x, y)


def _check_both(x, y):
    """torch's error when a float tensor meets a quantized operator (it asks its qscheme)."""
    for t in (x, y):
        check_quant_input(t, "aten::qscheme")


class QFunctional(QuantizedOutputModule):
    """The quantized operations, giving outputs of this module's `scale` and `zero_point`."""

    def __init__(self):
        super().__init__()
        self.scale, self.zero_point = 1.0, 0
        self.activation_post_process = Identity()

    def _get_name(self):
        return "QFunctional"

    def extra_repr(self):
        return f"scale={self.scale}, zero_point={self.zero_point}"

    def forward(self, x):
        raise RuntimeError(_NOT_FORWARD.format("Functional"))

    def _out(self, array):
        return self.activation_post_process(quantized_output(array, self.scale,
                                                             self.zero_point))

    def add(self, x, y):
        _check_both(x, y)
        return self._out(_kernels.add(x, y, self.scale, self.zero_point))

    def add_relu(self, x, y):
        _check_both(x, y)
        return self._out(_kernels.add(x, y, self.scale, self.zero_point, relu=True))

    def mul(self, x, y):
        if getattr(x, "is_quantized", False) and not getattr(y, "is_quantized", False):
            raise RuntimeError("Mul operands should have same data type.")
        _check_both(x, y)
        return self._out(_kernels.mul(x, y, self.scale, self.zero_point))

    def cat(self, x, dim=0):
        """The inputs joined along `dim`: their integers as they are where every input has
        the output's parameters, else their real values quantized again."""
        from ..... import cat
        from ....._quantized import quantize_per_tensor
        if len({t.dtype for t in x}) > 1:
            raise RuntimeError("All dtypes must be the same.")
        if all(t.q_scale() == self.scale and t.q_zero_point() == self.zero_point for t in x):
            joined = cat([t.int_repr() for t in x], dim=dim)
            return self._out(joined._data)
        real = cat([t.dequantize() for t in x], dim=dim)
        return self.activation_post_process(
            quantize_per_tensor(real, self.scale, self.zero_point, _qdtype.quint8))

    def add_scalar(self, x, y):
        raise NotImplementedError("ember: QFunctional.add_scalar is not implemented")

    def mul_scalar(self, x, y):
        raise NotImplementedError("ember: QFunctional.mul_scalar is not implemented")

    def matmul(self, x, y):
        raise NotImplementedError("ember: QFunctional.matmul is not implemented")

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        if type(mod) is not FloatFunctional:
            raise AssertionError("QFunctional.from_float expects an instance of "
                                 "FloatFunctional")
        new = cls()
        new.scale, new.zero_point = observed_params(mod)
        return new
