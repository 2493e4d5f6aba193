"""QConfig: which observers (as factories) watch a layer's activation and its weight, and the
ready-made ones torch's tutorials pass (`default_dynamic_qconfig`, ...)."""
from collections import namedtuple

from ... import _dtype
from . import fake_quantize as fq
from .observer import (HistogramObserver, MovingAverageMinMaxObserver, PlaceholderObserver,
                       default_dynamic_quant_observer, default_observer,
                       default_per_channel_weight_observer, default_weight_observer)

__all__ = ["QConfig", "QConfigDynamic", "default_qconfig", "default_dynamic_qconfig",
           "per_channel_dynamic_qconfig", "float16_dynamic_qconfig",
           "float16_static_qconfig", "default_per_channel_qconfig", "get_default_qconfig",
           "default_qat_qconfig", "get_default_qat_qconfig", "default_qat_qconfig_v2",
           "default_weight_only_qconfig", "default_activation_only_qconfig"]


class QConfig(namedtuple("QConfig", ["activation", "weight"])):
    """The observer factories (classes or `with_args` partials) for a layer's activation and
    weight: `QConfig(activation=MinMaxObserver.with_args(...), weight=...)`."""

    __slots__ = ()

    def __new__(cls, activation, weight):
        from ...nn.modules.module import Module
        if isinstance(activation, Module) or isinstance(weight, Module):
            raise ValueError("QConfig received observer instance, please pass observer class "
                             "instead. Use MyObserver.with_args(x=1) to override arguments to "
                             "constructor if needed")
        return super().__new__(cls, activation, weight)


QConfigDynamic = QConfig

default_qconfig = QConfig(activation=default_observer, weight=default_weight_observer)
default_dynamic_qconfig = QConfig(activation=default_dynamic_quant_observer,
                                  weight=default_weight_observer)
per_channel_dynamic_qconfig = QConfig(activation=default_dynamic_quant_observer,
                                      weight=default_per_channel_weight_observer)
float16_dynamic_qconfig = QConfig(
    activation=PlaceholderObserver.with_args(dtype=_dtype.float16, is_dynamic=True),
    weight=PlaceholderObserver.with_args(dtype=_dtype.float16))
float16_static_qconfig = QConfig(activation=PlaceholderObserver.with_args(dtype=_dtype.float16),
                                 weight=PlaceholderObserver.with_args(dtype=_dtype.float16))
default_qat_qconfig = QConfig(activation=fq.default_fake_quant,
                              weight=fq.default_weight_fake_quant)
default_qat_qconfig_v2 = QConfig(activation=fq.default_fused_act_fake_quant,
                                 weight=fq.default_fused_wt_fake_quant)


def _identity():
    from ...nn.modules.linear import Identity
    return Identity


default_weight_only_qconfig = QConfig(activation=_identity(), weight=fq.default_weight_fake_quant)
default_activation_only_qconfig = QConfig(activation=fq.default_fake_quant, weight=_identity())
default_per_channel_qconfig = QConfig(activation=default_observer,
                                      weight=default_per_channel_weight_observer)

_BACKENDS = ["fbgemm", "x86", "qnnpack", "onednn"]


def get_default_qconfig(backend="x86", version=0):
    """The qconfig torch recommends for post-training static quantization on `backend`:
    HistogramObserver activations (`reduce_range` on x86/fbgemm, whose kernels sum pairs of
    products in 16 bits) and per-channel symmetric weights (per tensor for qnnpack).

        >>> torch.ao.quantization.get_default_qconfig("x86").activation
        functools.partial(<class '...HistogramObserver'>, reduce_range=True){}
    """
    if backend not in _BACKENDS:
        raise AssertionError(f"backend: {backend} not supported. backend must be one of "
                             f"{_BACKENDS}")
    if version != 0:
        return default_qconfig
    if backend in ("fbgemm", "x86"):
        return QConfig(activation=HistogramObserver.with_args(reduce_range=True),
                       weight=default_per_channel_weight_observer)
    if backend == "qnnpack":
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                       weight=default_weight_observer)
    return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                   weight=default_per_channel_weight_observer)


def get_default_qat_qconfig(backend="x86", version=1):
    """The qconfig torch recommends for quantization-aware training on `backend`: fused
    moving-average fake-quantizers (version 1) or FakeQuantize modules (version 0), with
    per-channel weights (per tensor for qnnpack).

        >>> model.qconfig = torch.ao.quantization.get_default_qat_qconfig("x86")
    """
    if backend not in _BACKENDS:
        raise AssertionError(f"backend: {backend} not supported. backend must be one of "
                             f"{_BACKENDS}")
    reduce_range = backend in ("fbgemm", "x86")
    if version == 0:
        activation = fq.FakeQuantize.with_args(observer=MovingAverageMinMaxObserver,
                                               quant_min=0, quant_max=255,
                                               reduce_range=reduce_range)
        weight = fq.default_weight_fake_quant if backend == "qnnpack" else \
            fq.default_per_channel_weight_fake_quant
        return QConfig(activation=activation, weight=weight)
    if version != 1:
        return default_qat_qconfig
    activation = fq.FusedMovingAvgObsFakeQuantize.with_args(
        observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255,
        reduce_range=reduce_range)
    weight = fq.default_fused_wt_fake_quant if backend == "qnnpack" else \
        fq.default_fused_per_channel_wt_fake_quant
    return QConfig(activation=activation, weight=weight)
