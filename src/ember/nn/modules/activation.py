"""Activation modules: each calls its `ember.nn.functional` counterpart."""

import ember as _ember

from ..._creation import empty
from .. import functional as F
from ..parameter import Parameter
from .module import Module
from ._named_init import own_init
from ... import _warn


def _inplace_suffix(inplace):
    return ", inplace=True" if inplace else ""


class _Inplace(Module):
    """An activation whose only setting is `inplace` (printed when True)."""

    fn = None
    show_inplace = True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self).fn(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace and self.show_inplace else ""


class ReLU(_Inplace):
    """max(x, 0)."""
    fn = F.relu


class SELU(_Inplace):
    """scale * elu(x, alpha) with SELU's fixed constants."""
    fn = F.selu


class SiLU(_Inplace):
    """x * sigmoid(x)."""
    fn = F.silu


class Mish(_Inplace):
    """x * tanh(softplus(x))."""
    fn = F.mish


class Hardswish(_Inplace):
    """x * relu6(x + 3) / 6."""
    fn = F.hardswish
    show_inplace = False


class Hardsigmoid(_Inplace):
    """relu6(x + 3) / 6."""
    fn = F.hardsigmoid
    show_inplace = False


class _Stateless(Module):
    """An activation without settings."""

    fn = None

    def forward(self, input):
        return type(self).fn(input)


class Sigmoid(_Stateless):
    """1 / (1 + exp(-x))."""

    def forward(self, input):
        # (torch's module calls torch.sigmoid, whose parser refuses a non-tensor: F.sigmoid
        # would read an attribute of it instead; the public name carries the wrappers of
        # forward AD and __torch_function__)
        return _ember.sigmoid(input)


class Tanh(_Stateless):
    """tanh(x)."""

    def forward(self, input):
        return _ember.tanh(input)


class Softsign(_Stateless):
    """x / (1 + |x|)."""
    fn = F.softsign


class Tanhshrink(_Stateless):
    """x - tanh(x)."""
    fn = F.tanhshrink


class LogSigmoid(_Stateless):
    """log(sigmoid(x))."""
    fn = F.logsigmoid


class Hardtanh(Module):
    """x clamped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None,
                 max_value=None):
        super().__init__()
        # (torch's old keyword names, still accepted with a FutureWarning)
        if min_value is not None:
            _warn.warn("keyword argument `min_value` is deprecated and renamed to `min_val`",
                       FutureWarning, stacklevel=2)
            min_val = min_value
        if max_value is not None:
            _warn.warn("keyword argument `max_value` is deprecated and renamed to `max_val`",
                       FutureWarning, stacklevel=2)
            max_val = max_value
        if max_val <= min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_suffix(self.inplace)}"


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x for x > 0, else negative_slope * x."""

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}{_inplace_suffix(self.inplace)}"


class PReLU(Module):
    """x for x > 0, else a * x, with `num_parameters` learned slopes `a` (one per channel, or
    one shared), starting at `init`."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        from .. import init
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """Leaky ReLU with random slopes in [lower, upper] while training, their mean in eval."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}{_inplace_suffix(self.inplace)}"


class ELU(Module):
    """x for x > 0, else alpha * (exp(x) - 1)."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}{_inplace_suffix(self.inplace)}"


class CELU(ELU):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class GELU(Module):
    """x * Phi(x) (approximate='none') or its tanh approximation ('tanh')."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, linear above `threshold`."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Threshold(Module):
    """x where x > threshold, else value."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}{_inplace_suffix(self.inplace)}"


class _Shrink(Module):
    fn = None

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return type(self).fn(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Hardshrink(_Shrink):
    """x where |x| > lambd, else 0."""
    fn = F.hardshrink


class Softshrink(_Shrink):
    """x shrunk toward 0 by lambd (0 inside [-lambd, lambd])."""
    fn = F.softshrink


class _DimModule(Module):
    fn = None

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return type(self).fn(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_DimModule):
    """exp(x) / sum(exp(x)) along `dim`."""
    fn = F.softmax


class Softmin(_DimModule):
    """softmax(-x) along `dim`."""
    fn = F.softmin


class LogSoftmax(_DimModule):
    """log(softmax(x)) along `dim`."""
    fn = F.log_softmax


class GLU(Module):
    """First half of `dim` times the sigmoid of the second half."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    """softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W) input."""

    def forward(self, input):
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D "
                             f"instead")
        return F.softmax(input, -3, _stacklevel=5)


# (argument errors name each layer's own __init__, as torch's: see _named_init.py)
own_init(CELU, Hardshrink, Softshrink, Hardsigmoid, Hardswish, Mish, ReLU, SELU, SiLU, LogSoftmax,
         Softmax, Softmin)
