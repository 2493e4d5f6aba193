"""Observers: modules that watch the values passing through them (their running min and max)
and turn what they saw into a scale and zero point (`calculate_qparams`), as
`torch.ao.quantization.observer`'s. `with_args` makes the factories a qconfig holds.
"""
import functools
import warnings

from ... import _dtype, _qdtype
from ..._creation import tensor
from ...nn.modules.module import Module
from . import _histogram
from ... import _warn

__all__ = ["ObserverBase", "MinMaxObserver", "HistogramObserver", "MovingAverageMinMaxObserver",
           "MovingAveragePerChannelMinMaxObserver", "default_histogram_observer",
           "PerChannelMinMaxObserver", "PlaceholderObserver",
           "default_observer", "default_weight_observer", "default_dynamic_quant_observer",
           "default_per_channel_weight_observer", "default_placeholder_observer"]


class _PartialWrapper:
    """A factory of observers with some arguments fixed, printed as torch prints it
    (`functools.partial(<class '...MinMaxObserver'>, dtype=torch.qint8){}`)."""

    def __init__(self, p):
        self.p = p
        self.callable_args = {}

    def __call__(self, *args, **keywords):
        return self.p(*args, **keywords)

    def __repr__(self):
        return self.p.__repr__() + self.callable_args.__repr__()

    def with_args(self, **kwargs):
        return _with_args(self, **kwargs)


def _with_args(cls_or_self, **kwargs):
    return _PartialWrapper(functools.partial(cls_or_self, **kwargs))


class ObserverBase(Module):
    """The base of observers: a dtype, and `with_args` to make a factory of them."""

    def __init__(self, dtype, is_dynamic=False):
        super().__init__()
        self.dtype = dtype
        self.is_dynamic = is_dynamic

    with_args = classmethod(_with_args)


def _default_range(dtype, reduce_range):
    qmin, qmax = _qdtype.qrange(dtype) if _qdtype.is_quantized_dtype(dtype) else (0, 255)
    if reduce_range:
        return qmin // 2, qmax // 2
    return qmin, qmax


class _ObserverRange(ObserverBase):
    """What MinMax observers share: scheme, integer range, eps, and the qparams' arithmetic
    from the `min_val` and `max_val` buffers the subclasses keep."""

    def __init__(self, dtype=_qdtype.quint8, qscheme=_qdtype.per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None, factory_kwargs=None,
                 eps=None, is_dynamic=False):
        super().__init__(dtype, is_dynamic)
        if reduce_range and dtype is _qdtype.quint8 and qscheme in (
                _qdtype.per_tensor_symmetric, _qdtype.per_channel_symmetric):
            raise NotImplementedError("Cannot reduce range for symmetric" + " " * 40
                                      + "quantization for quint8")
        if reduce_range:
            _warn.warn("Please use quant_min and quant_max to specify the range for "
                       "observers.                     reduce_range will be deprecated in "
                       "a future release of PyTorch.", stacklevel=3)
        self.qscheme = qscheme
        self.reduce_range = reduce_range
        self.has_customized_qrange = quant_min is not None and quant_max is not None
        if not self.has_customized_qrange:
            quant_min, quant_max = _default_range(dtype, reduce_range)
        elif reduce_range:
            quant_min, quant_max = quant_min // 2, quant_max // 2
        self.quant_min, self.quant_max = quant_min, quant_max
        eps = _dtype.finfo(_dtype.float32).eps if eps is None else eps
        self.register_buffer("eps", tensor([eps]))

    def forward(self, x_orig):
        """Fold `x_orig`'s extremes (per tensor or per channel) into `min_val`/`max_val`."""
        if x_orig.numel() == 0:
            return x_orig
        low, high = self._extremes(x_orig.detach().to(self.min_val.dtype))
        if self._seen():
            low, high = self._merge(low, high)
        self.min_val.resize_(low.shape).copy_(low)
        self.max_val.resize_(high.shape).copy_(high)
        return x_orig

    def _merge(self, low, high):
        """The running range after one more input's extremes: their min and max."""
        from ... import maximum, minimum
        return minimum(low, self.min_val), maximum(high, self.max_val)

    def calculate_qparams(self):
        """(scale, zero_point) for the range seen so far (`min_val`, `max_val` buffers)."""
        return self._calculate_qparams(self.min_val, self.max_val)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}"

    def _symmetric(self):
        return self.qscheme in (_qdtype.per_tensor_symmetric, _qdtype.per_channel_symmetric)

    def _calculate_qparams(self, min_val, max_val):
        """scale and zero point (float32 and integer tensors) for ranges [min_val, max_val]:
        symmetric: max(|min|, |max|) over half the integer range (zero point 0, or for unsigned
        types 128, the middle of a range given); affine: the range over the integer range, the zero point
        rounded (half to even) and clamped."""
        from ... import clamp, round, zeros_like, maximum, minimum
        if min_val.numel() == 0 or bool((min_val == float("inf")).all()):
            warnings.warn("must run observer before calling calculate_qparams. "
                          "Returning default values.")
            return tensor([1.0]), tensor([0])
        quant_min, quant_max = self.quant_min, self.quant_max
        min_neg = minimum(min_val, zeros_like(min_val))
        max_pos = maximum(max_val, zeros_like(max_val))
        zero_point = zeros_like(min_neg, dtype=_dtype.int64)
        if self._symmetric():
            max_pos = maximum(-min_neg, max_pos)
            scale = maximum(max_pos / (float(quant_max - quant_min) / 2), self.eps)
            if self.dtype in (_qdtype.quint8, _dtype.uint8):
                middle = (quant_min + quant_max) // 2 if self.has_customized_qrange else 128
                zero_point = zero_point + middle
        else:
            scale = maximum((max_pos - min_neg) / float(quant_max - quant_min), self.eps)
            zero_point = quant_min - round(min_neg / scale).to(_dtype.int32)
            zero_point = clamp(zero_point, quant_min, quant_max)
        if scale.ndim == 0 or min_val.ndim == 0:
            scale = tensor([float(scale.reshape(-1)[0])], dtype=scale.dtype)
            zero_point = tensor([int(zero_point.reshape(-1)[0])], dtype=zero_point.dtype)
        return scale, zero_point


class MinMaxObserver(_ObserverRange):
    """Keeps the running min and max of everything it sees (per tensor)."""

    def __init__(self, dtype=_qdtype.quint8, qscheme=_qdtype.per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None, factory_kwargs=None,
                 eps=None, is_dynamic=False, **kwargs):
        if qscheme not in (_qdtype.per_tensor_affine, _qdtype.per_tensor_symmetric):
            raise NotImplementedError("MinMaxObserver's qscheme only support "
                                      "torch.per_tensor_symmetric                     and "
                                      "torch.per_tensor_affine.")
        super().__init__(dtype, qscheme, reduce_range, quant_min, quant_max, factory_kwargs,
                         eps, is_dynamic)
        self.register_buffer("min_val", tensor(float("inf")))
        self.register_buffer("max_val", tensor(float("-inf")))

    def _extremes(self, x):
        from ... import aminmax
        return aminmax(x)

    def _seen(self):
        return not (float(self.min_val) == float("inf")
                    and float(self.max_val) == float("-inf"))

    def reset_min_max_vals(self):
        self.min_val.copy_(tensor(float("inf")))
        self.max_val.copy_(tensor(float("-inf")))


class PerChannelMinMaxObserver(_ObserverRange):
    """Keeps the running min and max of each index along `ch_axis`."""

    def __init__(self, ch_axis=0, dtype=_qdtype.quint8, qscheme=_qdtype.per_channel_affine,
                 reduce_range=False, quant_min=None, quant_max=None, factory_kwargs=None,
                 eps=None, is_dynamic=False):
        super().__init__(dtype, qscheme, reduce_range, quant_min, quant_max, factory_kwargs,
                         eps, is_dynamic)
        self.ch_axis = ch_axis
        self.register_buffer("min_val", tensor([]))
        self.register_buffer("max_val", tensor([]))

    def _extremes(self, x):
        y = x.movedim(self.ch_axis, 0).flatten(1)
        return y.min(1).values, y.max(1).values

    def _seen(self):
        return self.min_val.numel() > 0

    def _load_from_state_dict(self, state_dict, prefix, *args):
        # (the buffers take the saved number of channels, as torch's do)
        resize_to_saved(self, state_dict, prefix, ("min_val", "max_val"))
        super()._load_from_state_dict(state_dict, prefix, *args)


def resize_to_saved(module, state_dict, prefix, names):
    """Resize `module`'s buffers `names` to the shapes `state_dict` saved for them (buffers
    whose length follows the data seen: per-channel ranges, scales, zero points)."""
    for name in names:
        value = state_dict.get(prefix + name)
        if value is not None:
            getattr(module, name).resize_(value.shape)


class MovingAverageMinMaxObserver(MinMaxObserver):
    """Keeps a moving average of the min and max it sees: the first input's, then
    `min + averaging_constant * (x.min() - min)` (and the same for max), as QAT uses."""

    def __init__(self, averaging_constant=0.01, dtype=_qdtype.quint8,
                 qscheme=_qdtype.per_tensor_affine, reduce_range=False, quant_min=None,
                 quant_max=None, eps=None, is_dynamic=False, **kwargs):
        self.averaging_constant = averaging_constant
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range,
                         quant_min=quant_min, quant_max=quant_max, eps=eps,
                         is_dynamic=is_dynamic, **kwargs)

    def _merge(self, low, high):
        return _moving_average(self, low, high)


class MovingAveragePerChannelMinMaxObserver(PerChannelMinMaxObserver):
    """The per-channel moving average of the min and max along `ch_axis`."""

    def __init__(self, averaging_constant=0.01, ch_axis=0, dtype=_qdtype.quint8,
                 qscheme=_qdtype.per_channel_affine, reduce_range=False, quant_min=None,
                 quant_max=None, eps=None, is_dynamic=False, **kwargs):
        super().__init__(ch_axis=ch_axis, dtype=dtype, qscheme=qscheme,
                         reduce_range=reduce_range, quant_min=quant_min, quant_max=quant_max,
                         eps=eps, is_dynamic=is_dynamic)
        self.averaging_constant = averaging_constant

    def _merge(self, low, high):
        return _moving_average(self, low, high)


def _moving_average(observer, low, high):
    """`min + c * (low - min)` and the same for max, c the averaging constant."""
    c = observer.averaging_constant
    return (observer.min_val + c * (low - observer.min_val),
            observer.max_val + c * (high - observer.max_val))


class HistogramObserver(_ObserverRange):
    """Keeps a running histogram (`bins` counts) of what it sees and chooses the range that
    minimizes the estimated quantization error (NOTE [ The histogram observer ] in
    _histogram.py): torch's default activation observer for static quantization."""

    def __init__(self, bins=2048, dtype=_qdtype.quint8, qscheme=_qdtype.per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None, factory_kwargs=None,
                 eps=None, is_dynamic=False, **kwargs):
        if qscheme not in (_qdtype.per_tensor_affine, _qdtype.per_tensor_symmetric):
            raise NotImplementedError("HistogramObserver's qscheme only support "
                                      "torch.per_tensor_symmetric                     and "
                                      "torch.per_tensor_affine.")
        if is_dynamic:
            raise NotImplementedError("HistogramObserver doesn't support dynamic quantization")
        super().__init__(dtype, qscheme, reduce_range, quant_min, quant_max, factory_kwargs,
                         eps, is_dynamic)
        _histogram._register(self, bins)

    def forward(self, x_orig):
        return _histogram.observe(self, x_orig)

    def calculate_qparams(self):
        return _histogram.calculate_qparams(self)


class PlaceholderObserver(ObserverBase):
    """Observes nothing: it only carries a dtype (and range) for dynamic quantization, which
    computes the input's parameters at run time."""

    def __init__(self, dtype=_dtype.float32, custom_op_name="", compute_dtype=None,
                 quant_min=None, quant_max=None, qscheme=None, eps=None, is_dynamic=False):
        super().__init__(dtype, is_dynamic)
        self.qscheme = _qdtype.per_tensor_affine if qscheme is None else qscheme
        self.quant_min, self.quant_max, self.eps = quant_min, quant_max, eps
        self.custom_op = custom_op_name

    def forward(self, x):
        return x

    def extra_repr(self):
        return f"dtype={self.dtype}, is_dynamic={self.is_dynamic}"

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for PlaceholderObserver")


default_observer = MinMaxObserver.with_args(quant_min=0, quant_max=127)
default_placeholder_observer = PlaceholderObserver
default_weight_observer = MinMaxObserver.with_args(dtype=_qdtype.qint8,
                                                   qscheme=_qdtype.per_tensor_symmetric)
default_dynamic_quant_observer = PlaceholderObserver.with_args(
    dtype=_qdtype.quint8, quant_min=0, quant_max=255, is_dynamic=True)
default_per_channel_weight_observer = PerChannelMinMaxObserver.with_args(
    dtype=_qdtype.qint8, qscheme=_qdtype.per_channel_symmetric)
default_histogram_observer = HistogramObserver.with_args(quant_min=0, quant_max=127)
