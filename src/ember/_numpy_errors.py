"""NumPy's floating-point warnings, silenced for ember's own kernels.

NOTE [ Floating-point events ]
torch computes 1/0, log(0), sqrt(-1) and overflowing exps silently (inf, -inf, nan); NumPy
warns about each ("RuntimeWarning: divide by zero encountered in log"). A warnings filter on
ember's modules hides those warnings only until the user's own filters come first
(`warnings.simplefilter("always")`, `python -W error`, pytest's `-W error`): then ember's ops
would print NumPy's warnings, or raise them, where torch's ops do neither. So, at import,
NumPy's floating-point events that would warn are routed to `_event` instead
(`np.seterr(...="call")`, only for the kinds still at NumPy's default "warn"): an event raised
by a NumPy call made from ember's code (directly or through NumPy's own Python functions) is
ignored; any other, the user's NumPy code's, is warned as NumPy would, as a RuntimeWarning from
the line that called NumPy ("divide by zero encountered", without the ufunc's name, which
NumPy does not pass on). NumPy keeps this setting per thread (a context variable): ember's
worker threads install it too (`install`), and the module-level warnings filter remains for
other threads. A user who sets NumPy's error handling (`np.seterr`, `np.errstate`) keeps it.
"""
import sys

import numpy as np
from . import _warn

_KINDS = ("divide", "over", "invalid")      # (underflow is ignored by NumPy's default)


def _event(kind, flag):
    """NumPy's floating-point event `kind` ("divide by zero", ...): silent when an ember
    module made the NumPy call, else NumPy's RuntimeWarning."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("numpy"):
        frame = frame.f_back                # (through np.mean and other Python-level NumPy)
    module = "" if frame is None else frame.f_globals.get("__name__", "")
    if module == "ember" or module.startswith("ember."):
        return
    _warn.warn(f"{kind} encountered", RuntimeWarning, stacklevel=2)


def install():
    """Route this thread's NumPy floating-point warnings through `_event` (see the NOTE)."""
    state = np.geterr()
    routed = {k: "call" for k in _KINDS if state[k] == "warn"}
    if routed and np.geterrcall() is None:
        np.seterrcall(_event)
        np.seterr(**routed)
