"""ember.backends: torch.backends' switches and questions about the libraries behind the math.

torch uses these to steer its C++ kernels (cuDNN, cuBLAS, oneDNN, MKL, OpenMP). ember computes
with NumPy (CPU) and CuPy (CUDA) and has none of those kernels to steer, so its flags record the
user's choice, readable back and checked as torch checks them, without changing results; the
`is_available()` questions answer for ember's own build (see each submodule).

    import ember as torch
    torch.backends.cudnn.benchmark = True     # accepted, remembered, changes nothing
"""
import contextlib
import sys
import types

_allow_nonbracketed_mutation_flag = True


def disable_global_flags():
    """Forbid plain assignment to the flags (torch's test-suite guard); `flags()` still works."""
    global _allow_nonbracketed_mutation_flag
    _allow_nonbracketed_mutation_flag = False


def flags_frozen():
    """Whether `disable_global_flags()` was called."""
    return not _allow_nonbracketed_mutation_flag


@contextlib.contextmanager
def _allow_mutation():
    global _allow_nonbracketed_mutation_flag
    old = _allow_nonbracketed_mutation_flag
    _allow_nonbracketed_mutation_flag = True
    try:
        yield
    finally:
        _allow_nonbracketed_mutation_flag = old


def check_bool(value, setter):
    """torch's C++ setters take exactly a bool: 'set_benchmark_cudnn expects a bool, but got
    int'."""
    if not isinstance(value, bool):
        raise RuntimeError(f"{setter} expects a bool, but got {type(value).__name__}")
    return value


def flag(state, key, setter, doc):
    """A module property reading `state[key]`; setting it checks for a bool (torch's `setter`
    message) and refuses after `disable_global_flags()`."""
    def get(module):
        return state[key]

    def set_(module, value):
        if flags_frozen():
            raise RuntimeError(f"not allowed to set {module.__name__} flags after "
                               f"disable_global_flags; please use flags() context manager "
                               f"instead")
        state[key] = check_bool(value, setter)
    return property(get, set_, doc=doc)


def install_properties(module_name, **properties):
    """Give module `module_name` the properties (torch swaps the module for an object)."""
    module = sys.modules[module_name]
    module.__class__ = type(type(module).__name__, (types.ModuleType,), properties)


from . import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp, opt_einsum, quantized  # noqa: E402

__all__ = ["cpu", "cuda", "cudnn", "disable_global_flags", "flags_frozen", "mkl", "mkldnn",
           "mps", "openmp", "opt_einsum", "quantized"]
