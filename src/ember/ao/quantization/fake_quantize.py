"""Fake-quantize modules for quantization-aware training: an observer watches the values, and
the values are rounded to the grid of the scale and zero point it computes, in float, with
straight-through gradients (`FakeQuantize`, and `FusedMovingAvgObsFakeQuantize`, which the
default QAT qconfigs use).

NOTE [ Fused moving-average fake quantization ]
`FusedMovingAvgObsFakeQuantize` does in one operator (torch's C++
`fused_moving_avg_obs_fake_quant`) what FakeQuantize with a moving-average observer does in
Python, with one difference in the arithmetic: its scale and zero point come from the C++
range-to-parameters rule (`choose_qparams` of _qdtype.py, the symmetric schemes keeping zero
in the middle), not from the observer's `calculate_qparams`. The running min and max move as
`min + c * (x.min() - min)` in float32, starting at the first input's.
"""
import numpy as np

from ... import _dtype, _qdtype
from ..._creation import tensor
from ...nn.modules.module import Module
from .observer import (HistogramObserver, MovingAverageMinMaxObserver,
                       MovingAveragePerChannelMinMaxObserver, _with_args, resize_to_saved)

__all__ = ["FakeQuantizeBase", "FakeQuantize", "FusedMovingAvgObsFakeQuantize",
           "default_fake_quant", "default_weight_fake_quant",
           "default_per_channel_weight_fake_quant", "default_fused_act_fake_quant",
           "default_fused_wt_fake_quant", "default_fused_per_channel_wt_fake_quant",
           "default_histogram_fake_quant",
           "disable_fake_quant", "enable_fake_quant", "disable_observer", "enable_observer"]

_PER_CHANNEL = (_qdtype.per_channel_affine, _qdtype.per_channel_symmetric,
                _qdtype.per_channel_affine_float_qparams)


class FakeQuantizeBase(Module):
    """The switches every fake-quantize module has: `fake_quant_enabled`, `observer_enabled`
    (one-element buffers)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("fake_quant_enabled", tensor([1], dtype=_dtype.uint8))
        self.register_buffer("observer_enabled", tensor([1], dtype=_dtype.uint8))

    def enable_fake_quant(self, enabled=True):
        self.fake_quant_enabled[0] = 1 if enabled else 0
        return self

    def disable_fake_quant(self):
        return self.enable_fake_quant(False)

    def enable_observer(self, enabled=True):
        self.observer_enabled[0] = 1 if enabled else 0
        return self

    def disable_observer(self):
        return self.enable_observer(False)

    with_args = classmethod(_with_args)


class FakeQuantize(FakeQuantizeBase):
    """Observes its input (`observer`, built with `observer_kwargs`), then rounds it to the
    observed scale and zero point's grid (per tensor, or per channel along `ch_axis`).

        >>> fq = torch.ao.quantization.FakeQuantize()
        >>> fq(torch.tensor([0.0, 0.3, 1.0]))
    """

    def __init__(self, observer=MovingAverageMinMaxObserver, quant_min=None, quant_max=None,
                 is_dynamic=False, **observer_kwargs):
        super().__init__()
        if quant_min is not None and quant_max is not None:
            if quant_min > quant_max:
                raise AssertionError("quant_min must be less than or equal to quant_max")
            observer_kwargs["quant_min"], observer_kwargs["quant_max"] = quant_min, quant_max
        observer_kwargs["is_dynamic"] = is_dynamic
        self.activation_post_process = observer(**observer_kwargs)
        self.quant_min = self.activation_post_process.quant_min
        self.quant_max = self.activation_post_process.quant_max
        self.is_dynamic = self.activation_post_process.is_dynamic
        self.register_buffer("scale", tensor([1.0]))
        self.register_buffer("zero_point", tensor([0], dtype=_dtype.int32))
        self.dtype = self.activation_post_process.dtype
        self.qscheme = self.activation_post_process.qscheme
        self.ch_axis = getattr(self.activation_post_process, "ch_axis", -1)
        self.is_per_channel = self.qscheme in _PER_CHANNEL

    def calculate_qparams(self):
        return self.activation_post_process.calculate_qparams()

    def forward(self, X):
        if int(self.observer_enabled[0]) == 1:
            self.activation_post_process(X.detach())
            scale, zero_point = self.calculate_qparams()
            self._set_qparams(scale, zero_point)
        if int(self.fake_quant_enabled[0]) == 1:
            X = self._fake_quantize(X)
        return X

    def _set_qparams(self, scale, zero_point):
        if self.scale.shape != scale.shape:
            self.scale.resize_(scale.shape)
            self.zero_point.resize_(zero_point.shape)
        self.scale.copy_(scale)
        self.zero_point.copy_(zero_point)

    def _fake_quantize(self, X):
        from ... import fake_quantize_per_channel_affine, fake_quantize_per_tensor_affine
        if self.is_per_channel:
            return fake_quantize_per_channel_affine(X, self.scale, self.zero_point,
                                                    self.ch_axis, self.quant_min,
                                                    self.quant_max)
        return fake_quantize_per_tensor_affine(X, self.scale, self.zero_point, self.quant_min,
                                               self.quant_max)

    def extra_repr(self):
        return (f"fake_quant_enabled={self.fake_quant_enabled}, observer_enabled="
                f"{self.observer_enabled}, quant_min={self.activation_post_process.quant_min},"
                f" quant_max={self.activation_post_process.quant_max}, dtype={self.dtype}, "
                f"qscheme={self.qscheme}, ch_axis={self.ch_axis}, scale={self.scale}, "
                f"zero_point={self.zero_point}")

    def _load_from_state_dict(self, state_dict, prefix, *args):
        resize_to_saved(self, state_dict, prefix, ("scale", "zero_point"))
        super()._load_from_state_dict(state_dict, prefix, *args)


class FusedMovingAvgObsFakeQuantize(FakeQuantize):
    """FakeQuantize with a moving-average observer, run as one operator (NOTE [ Fused
    moving-average fake quantization ]): the default of `get_default_qat_qconfig`."""

    def __init__(self, observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255,
                 **observer_kwargs):
        super().__init__(observer, quant_min, quant_max, **observer_kwargs)
        if not isinstance(self.activation_post_process, (
                MovingAverageMinMaxObserver, MovingAveragePerChannelMinMaxObserver)):
            raise AssertionError("Fused observer+fake_quant module only works with "
                                 "MovingAverageMinMaxObserver")
        self.register_buffer("fake_quant_enabled", tensor([1]))
        self.register_buffer("observer_enabled", tensor([1]))
        self.is_symmetric_quant = self.qscheme in (_qdtype.per_tensor_symmetric,
                                                   _qdtype.per_channel_symmetric)

    def extra_repr(self):
        observer = self.activation_post_process
        return (f"fake_quant_enabled={self.fake_quant_enabled}, observer_enabled="
                f"{self.observer_enabled}, scale={self.scale}, zero_point={self.zero_point}, "
                f"dtype={self.dtype}, quant_min={observer.quant_min}, quant_max="
                f"{observer.quant_max}, qscheme={self.qscheme}, reduce_range="
                f"{observer.reduce_range}")

    def forward(self, X):
        if int(self.observer_enabled[0]) == 1 and X.numel():
            self.activation_post_process(X.detach())
            self._set_qparams(*self._choose_qparams())
        if int(self.fake_quant_enabled[0]) == 1:
            X = self._fake_quantize(X)
        return X

    def _choose_qparams(self):
        """scale (float32) and zero point (int32) tensors from the running range, by the
        C++ rule (NOTE [ Fused moving-average fake quantization ])."""
        observer = self.activation_post_process
        lows = np.atleast_1d(observer.min_val._data)
        highs = np.atleast_1d(observer.max_val._data)
        pairs = [_qdtype.choose_qparams(float(lo), float(hi), self.quant_min, self.quant_max,
                                        preserve_sparsity=self.is_symmetric_quant)
                 for lo, hi in zip(lows, highs)]
        return (tensor([p[0] for p in pairs], dtype=_dtype.float32),
                tensor([p[1] for p in pairs], dtype=_dtype.int32))


def _toggle(name, *args):
    def apply(mod):
        if isinstance(mod, FakeQuantizeBase):
            getattr(mod, name)(*args)
    apply.__name__ = name
    return apply


disable_fake_quant = _toggle("disable_fake_quant")
enable_fake_quant = _toggle("enable_fake_quant")
disable_observer = _toggle("disable_observer")
enable_observer = _toggle("enable_observer")

default_fake_quant = FakeQuantize.with_args(
    observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255, dtype=_qdtype.quint8,
    qscheme=_qdtype.per_tensor_affine, reduce_range=True)
default_weight_fake_quant = FakeQuantize.with_args(
    observer=MovingAverageMinMaxObserver, quant_min=-128, quant_max=127, dtype=_qdtype.qint8,
    qscheme=_qdtype.per_tensor_symmetric, reduce_range=False)
default_per_channel_weight_fake_quant = FakeQuantize.with_args(
    observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128, quant_max=127,
    dtype=_qdtype.qint8, qscheme=_qdtype.per_channel_symmetric, reduce_range=False, ch_axis=0)
default_fused_act_fake_quant = FusedMovingAvgObsFakeQuantize.with_args(
    observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255, dtype=_qdtype.quint8)
default_fused_wt_fake_quant = FusedMovingAvgObsFakeQuantize.with_args(
    observer=MovingAverageMinMaxObserver, quant_min=-128, quant_max=127, dtype=_qdtype.qint8,
    qscheme=_qdtype.per_tensor_symmetric)
default_fused_per_channel_wt_fake_quant = FusedMovingAvgObsFakeQuantize.with_args(
    observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128, quant_max=127,
    dtype=_qdtype.qint8, qscheme=_qdtype.per_channel_symmetric)
default_histogram_fake_quant = FakeQuantize.with_args(
    observer=HistogramObserver, quant_min=0, quant_max=255, dtype=_qdtype.quint8,
    qscheme=_qdtype.per_tensor_affine, reduce_range=True)
