"""torch.backends.cpu."""


def get_cpu_capability():
    """The vector instruction set torch's CPU kernels were picked for; ember's run through
    NumPy, which picks its own: "DEFAULT"."""
    return "DEFAULT"
