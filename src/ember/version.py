"""ember.version: what torch.version says about the build, for ember.

`__version__` is "2.13.0+ember.0.1.0": the PyTorch version ember follows, ember's release as
the local label (NOTE [ ember's version ] in torch_version.py). As in torch, it is a plain str
here and a `TorchVersion` (which compares as a version) as `ember.__version__`.

`cuda` is the CUDA runtime version CuPy runs on ('12.4') when `ember.cuda.is_available()`,
else None; it is looked up on first access, so `import ember` does not import CuPy.
`git_version` is 'Unknown' (torch's own value for a build made outside a git checkout): ember
is pure Python and records no commit when installed.
"""
__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu"]

# NOTE [ ember's version ] in torch_version.py: the PyTorch version ember follows, with
# ember's own release (the package's version) as the local label.
EMBER_RELEASE = "0.1.0"
__version__ = f"2.13.0+ember.{EMBER_RELEASE}"      # a str here; `ember.__version__` compares
debug = False
git_version = "Unknown"
hip = None
rocm = None
xpu = None


def _cuda_runtime_version():
    """'major.minor' of the CUDA runtime CuPy uses, or None without a usable GPU."""
    from . import cuda
    if not cuda.is_available():
        return None
    number = cuda.cupy_or_none().cuda.runtime.runtimeGetVersion()   # e.g. 12040
    return f"{number // 1000}.{number % 1000 // 10}"


def __getattr__(name):
    if name == "cuda":
        return _cuda_runtime_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
