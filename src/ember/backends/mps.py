"""torch.backends.mps: Apple's Metal backend, which ember does not have."""


def is_built():
    """Whether ember was built with MPS: no."""
    return False


def is_available():
    """Whether an MPS device can be used: never in ember."""
    return False
