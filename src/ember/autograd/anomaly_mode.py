"""Anomaly mode: find the forward line behind a failing backward.

While it is on, each recorded node keeps the forward traceback that made it
(`node.metadata["traceback_"]`), and the engine checks every gradient a node returns: NaN
raises torch's "Function 'SqrtBackward0' returned nan values in its 0th output.", after a
warning that shows where that node was created. Off, it costs one flag test per recorded node.
"""

from .graph import _Extras
from .. import _warn

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled", "set_anomaly_enabled"]

_ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime "
                    "and should only be enabled for debugging.")


def is_anomaly_enabled():
    return _Extras.anomaly


def is_anomaly_check_nan_enabled():
    return _Extras.check_nan


def set_anomaly_enabled(enabled, check_nan=True):
    """Turn anomaly mode on or off (torch.set_anomaly_enabled)."""
    _set(enabled, check_nan)


def _set(mode, check_nan):
    _Extras.anomaly = bool(mode)
    _Extras.check_nan = bool(check_nan)
    _Extras.update()


class detect_anomaly:
    """Context manager turning anomaly mode on (as torch's, it is no decorator).

    >>> with ember.autograd.detect_anomaly():
    ...     x.sqrt().sum().backward()    # NaN in SqrtBackward0's gradient: an error naming it
    """

    def __init__(self, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        _warn.warn(_ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self):
        _set(True, self.check_nan)

    def __exit__(self, *exc):
        _set(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Turn anomaly mode on or off: as a call, or as a context manager restoring the old mode."""

    def __init__(self, mode, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        _set(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set(self.prev, self.prev_check_nan)


def check_outputs(node, outputs):
    """Called by the engine in anomaly mode after `node` ran: raise on NaN gradients."""
    if not _Extras.check_nan:
        return
    for i, g in enumerate(outputs):
        if g is None:
            continue
        data = g._data
        if data.dtype.kind in "fc" and bool(data.size) and bool((data != data).any()):
            report_forward(node)
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                               f"output.")


def report_forward(node):
    """Warn with the forward traceback of `node`, if anomaly mode recorded one."""
    meta = node._metadata
    trace = meta.get("traceback_") if meta else None
    if trace:
        _warn.warn(f"Error detected in {node.name()}. Traceback of forward call that caused "
                   f"the error:\n{''.join(trace)}", UserWarning, stacklevel=4)
