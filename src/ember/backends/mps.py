"""torch.backends.mps: Apple's Metal backend, which ember does not have."""


def is_available():
    """Whether an MPS device can be used: never in ember."""
    return False


def is_built():
    """Whether this build supports MPS: no."""
    return False
