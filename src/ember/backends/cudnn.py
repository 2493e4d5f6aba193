"""torch.backends.cudnn: cuDNN's switches. ember has no cuDNN: `is_available()` is False and
`version()` None, as in a CPU build of torch; the flags keep what is set."""
import contextlib

enabled = True
benchmark = False
benchmark_limit = None          # torch's value without cuDNN
deterministic = False
allow_tf32 = True


def is_available():
    """Whether cuDNN can be used: never in ember."""
    return False


def version():
    """cuDNN's version number, None without cuDNN."""
    return None


def is_acceptable(tensor):
    """Whether cuDNN would take `tensor`: never in ember."""
    return False


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True):
    """Set the flags for the block and restore them after."""
    names = ("enabled", "benchmark", "deterministic", "allow_tf32")
    saved = {name: globals()[name] for name in names}
    globals().update(enabled=enabled, benchmark=benchmark, deterministic=deterministic,
                     allow_tf32=allow_tf32)
    try:
        yield
    finally:
        globals().update(saved)
