"""ember.cuda.amp: torch's deprecated spellings `cuda.amp.autocast` and `cuda.amp.GradScaler`."""

from .. import amp as _amp
from .. import _warn

__all__ = ["autocast", "GradScaler"]


class autocast(_amp.autocast):
    """Deprecated: `ember.amp.autocast("cuda", ...)`."""

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        _warn.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                   "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning,
                   stacklevel=2)
        dtype = _amp.autocast_mode.get_autocast_dtype("cuda") if dtype is None else dtype
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_amp.GradScaler):
    """Deprecated: `ember.amp.GradScaler("cuda", ...)`."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        _warn.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                   "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning,
                   stacklevel=2)
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval,
                         enabled=enabled)
