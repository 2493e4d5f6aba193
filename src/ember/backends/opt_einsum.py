"""torch.backends.opt_einsum: contraction-order optimisation of einsum with the opt_einsum
package.

ember's einsum does not use the opt_einsum package, so `is_available()` is False, `enabled`
is False and `strategy` None, as in a torch without opt_einsum installed. As there, plain
assignment stores whatever is given; `flags()` checks its arguments with torch's messages.
"""
import contextlib

enabled = False
strategy = None


def is_available():
    """Whether einsum uses the opt_einsum package: not in ember."""
    return False


def get_opt_einsum():
    """The opt_einsum package torch would use; None in ember."""
    return None


def _set_enabled(value):
    global enabled
    if value:
        raise ValueError(
            f"opt_einsum is not available, so setting `enabled` to {value} will not reap the "
            "benefits of calculating an optimal path for einsum. torch.einsum will fall back to "
            "contracting from left to right. To enable this optimal path calculation, please "
            "install opt-einsum.")
    enabled = value


def _set_strategy(value):
    raise ValueError(
        f"opt_einsum is not available, so setting `strategy` to {value} will not be "
        "meaningful. torch.einsum will bypass path calculation and simply contract from left "
        "to right. Please install opt_einsum or unset `strategy`.")


def set_flags(_enabled=None, _strategy=None):
    """Set the flags (None: leave it) with torch's checks; the previous flags."""
    orig = (enabled, None)
    if _enabled is not None:
        _set_enabled(_enabled)
    if _strategy is not None:
        _set_strategy(_strategy)
    return orig


@contextlib.contextmanager
def flags(enabled=None, strategy=None):
    """Set the flags inside the block and restore them after."""
    orig = set_flags(enabled, strategy)
    try:
        yield
    finally:
        set_flags(*orig)
