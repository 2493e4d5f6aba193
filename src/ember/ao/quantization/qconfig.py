"""QConfig: which observers (as factories) watch a layer's activation and its weight, and the
ready-made ones torch's tutorials pass (`default_dynamic_qconfig`, ...)."""
from collections import namedtuple

from ... import _dtype
from .observer import (PlaceholderObserver, default_dynamic_quant_observer, default_observer,
                       default_per_channel_weight_observer, default_weight_observer)

__all__ = ["QConfig", "QConfigDynamic", "default_qconfig", "default_dynamic_qconfig",
           "per_channel_dynamic_qconfig", "float16_dynamic_qconfig",
           "float16_static_qconfig"]


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
