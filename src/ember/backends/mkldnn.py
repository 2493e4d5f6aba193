"""torch.backends.mkldnn: oneDNN's switches (ember's CPU kernels are NumPy's)."""
enabled = True
deterministic = False


def is_available():
    """Whether oneDNN can be used: never in ember."""
    return False
