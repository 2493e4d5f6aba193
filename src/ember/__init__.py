"""ember: PyTorch's programming model in readable Python, on NumPy (CPU) and CuPy (CUDA).

    import ember as torch
    x = torch.tensor([[1., 2.], [3., 2.]], requires_grad=True)
    (x ** 3 + 3).mean().backward()
    print(x.grad)
"""
import builtins as _builtins
import math as _math
import warnings as _warnings

from . import _dtype
from ._dtype import (bfloat16, bool, can_cast, cdouble, cfloat, complex64, complex128, double,
                     dtype, finfo, float, float16, float32, float64, get_default_dtype, half,
                     iinfo, int, int8, int16, int32, int64, long, promote_types, result_type,
                     set_default_dtype, short, uint8, uint16, uint32, uint64,
                     float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz,
                     float8_e8m0fnu)
from ._size import Size
from ._device import device
from ._tensor import Tensor
from ._untyped_storage import UntypedStorage, is_storage
from ._typed_storage import TypedStorage
from ._device import get_default_device, get_device_module, set_default_device
from ._creation import (arange, as_tensor, asarray, empty, empty_like, empty_strided, eye,
                        from_numpy, full, full_like, linspace, logspace, ones, ones_like, tensor,
                        zeros, zeros_like)
from . import autograd
from .autograd import enable_grad, inference_mode, is_grad_enabled, \
    is_inference_mode_enabled, no_grad, set_grad_enabled
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, \
    set_anomaly_enabled
from . import random
from .random import Generator, default_generator, get_rng_state, initial_seed, manual_seed, \
    seed, set_rng_state
from ._printing import set_printoptions
from . import _tensor_str        # (torch._tensor_str.PRINT_OPTS & co.)
from ._parallel import get_num_threads, set_num_threads
from . import return_types, cuda
from . import accelerator, mps, xpu  # noqa: F401
from .cuda.memory import OutOfMemoryError
from . import _ops
from ._memory_format import channels_last, channels_last_3d, contiguous_format, memory_format, \
    preserve_format

from .torch_version import TorchVersion as _TorchVersion
from .version import __version__
__version__ = _TorchVersion(__version__)

# NOTE: NumPy warns about floating-point events (divide by zero, overflow, invalid) that torch
# computes silently (1/0 is inf, sqrt(-1) is nan). Silence them only when they come from
# ember's own modules; the user's NumPy code keeps its warnings (NOTE [ Floating-point events ]
# in _numpy_errors.py; this filter serves threads that did not install its routing).
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"ember(\.|$)")
from . import _numpy_errors  # noqa: E402
_numpy_errors.install()

_ops.install(globals(), Tensor)

from . import fft, linalg, nn, optim, testing, utils  # noqa: E402
from .utils.dlpack import from_dlpack, to_dlpack  # noqa: E402
from . import special  # noqa: E402
from . import distributions  # noqa: E402
from ._compile import compile  # noqa: E402
from ._foreach import _all_ops as _foreach_ops  # noqa: E402
globals().update(_foreach_ops())
from .nn._top_level import *  # noqa: E402,F401,F403
from .nn._native import *  # noqa: E402,F401,F403
from .nn._sync_batch_norm import *  # noqa: E402,F401,F403
from .nn._rnn_functional import *  # noqa: E402,F401,F403
from ._sym import *  # noqa: E402,F401,F403
from ._config import (are_deterministic_algorithms_enabled,  # noqa: E402
                      get_deterministic_debug_mode, get_float32_matmul_precision,
                      get_num_interop_threads, is_deterministic_algorithms_warn_only_enabled,
                      is_warn_always_enabled, set_deterministic_debug_mode,
                      set_float32_matmul_precision, set_num_interop_threads, set_warn_always,
                      use_deterministic_algorithms)
from . import profiler  # noqa: E402
from .amp.autocast_mode import *  # noqa: E402,F401,F403  (ember.autocast, ...)
from . import func  # noqa: E402
from .serialization import load, save  # noqa: E402

from ._tensor_types import CPU_TYPES as _CPU_TYPES  # noqa: E402
globals().update(_CPU_TYPES)
from ._tensor_types import set_default_tensor_type, typename  # noqa: E402
from ._typed_storage import LEGACY_CLASSES as _LEGACY_STORAGES  # noqa: E402
globals().update(_LEGACY_STORAGES)
from .func import vmap  # noqa: E402
from .nn.utils.weight_norm import _weight_norm, norm_except_dim  # noqa: E402
from . import backends, compiler, distributed, hub, jit, multiprocessing, storage  # noqa: E402
from . import _dynamo  # noqa: E402,F401 - torch._dynamo, reached as an attribute
from . import version  # noqa: E402
from ._lowrank import pca_lowrank, svd_lowrank  # noqa: E402
from ._lobpcg import lobpcg  # noqa: E402
from . import cpu, functional  # noqa: E402
from ._stream import Event, Stream  # noqa: E402
from .amp import GradScaler  # noqa: E402
from . import _C, overrides  # noqa: E402
from . import library  # noqa: E402
from . import __future__  # noqa: E402
from ._op_namespace import ops  # noqa: E402

Storage = FloatStorage  # noqa: F821 - torch.Storage is the legacy float storage class


class layout:
    """A tensor's memory layout: `strided` (dense over a storage), or a sparse one
    (`sparse_coo`, `sparse_csr`, `sparse_csc`, `sparse_bsr`, `sparse_bsc`: see ember.sparse)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")
from . import types  # noqa: E402,F401 - torch.types, reached as an attribute
from . import futures  # noqa: E402,F401

from . import sparse  # noqa: E402
from . import masked  # noqa: E402,F401
from .sparse._tensor_api import sparse_coo_tensor  # noqa: E402,F401
from .sparse._compressed import (  # noqa: E402,F401
    crow_indices_copy, col_indices_copy, ccol_indices_copy, row_indices_copy, values_copy,
    indices_copy)
from .sparse._compressed_factories import (  # noqa: E402,F401
    sparse_bsc_tensor, sparse_bsr_tensor, sparse_compressed_tensor, sparse_csc_tensor,
    sparse_csr_tensor)

from . import quasirandom  # noqa: E402,F401
from ._control_flow import cond, while_loop  # noqa: E402,F401
from ._from_file import from_file  # noqa: E402,F401
from . import signal  # noqa: E402  (its windows' default layout is `strided`)
from ._qdtype import *  # noqa: E402,F401,F403  (qint8, ..., per_tensor_affine, ...)
from ._quantized import *  # noqa: E402,F401,F403
from ._quantized_functions import function_forms as _quantized_function_forms  # noqa: E402
_quantized_forms = _quantized_function_forms(globals())
globals().update(_quantized_forms)
_ops.registry.FUNCTIONS.update(                 # (the operators ember exports are these)
    {n: f for n, f in _quantized_forms.items() if n in _ops.registry.FUNCTIONS})
for _name in set(_quantized_forms) & set(functional.__all__):   # (torch.functional.split
    setattr(functional, _name, _quantized_forms[_name])        # is torch.split)
from ._quantized_functions import functional_forms as _quantized_functional  # noqa: E402
vars(nn.functional).update(_quantized_functional(nn.functional))
from ._fake_quantize import *  # noqa: E402,F401,F403
from . import ao, quantization  # noqa: E402
from . import fx  # noqa: E402,F401
from . import onnx  # noqa: E402,F401 - torch.onnx (writing ONNX needs the onnx extra)


def _assert(condition, message):
    """torch._assert: `assert condition, message` that survives `python -O` and tracing."""
    if not condition:
        raise AssertionError(message)


def is_tensor(obj):
    """Whether `obj` is an ember Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    return input.is_complex()


def is_nonzero(input):
    """The truth value of a one-element tensor."""
    if input.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous"
                           if input.numel() else
                           "Boolean value of Tensor with no values is ambiguous")
    return _builtins.bool(input.item())


def numel(input):
    if not isinstance(input, Tensor):
        from ._ops.argument_errors import type_name
        raise TypeError("numel(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    return input.numel()


def get_device(input):
    """The device index of `input`: -1 on the CPU, the GPU's index on CUDA."""
    if not isinstance(input, Tensor):
        from ._ops.argument_errors import type_name
        raise TypeError("get_device(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    return input.get_device()


def detach_(input):
    """`input.detach_()`: cut `input` off from the graph, in place (views are refused)."""
    if not isinstance(input, Tensor):
        from ._ops.argument_errors import type_name
        raise TypeError("detach_(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    return input.detach_()


def set_flush_denormal(mode):
    """Ask the CPU to flush subnormal floats to zero; returns whether that is supported.

    torch sets the x86 FTZ/DAZ bits and returns True on CPUs with SSE3. NumPy offers no way to
    set them, so ember changes nothing and returns False (subnormals keep their values), which
    torch's contract allows: False means "not supported". `mode` must be a bool, as in torch.
    """
    if not isinstance(mode, _builtins.bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    return False


def init_num_threads():
    """torch sets up OpenMP and MKL for the calling thread; ember's thread pool needs no setup
    (a no-op returning None, as torch's)."""


# What the build offers, as ember truthfully answers it: LAPACK (NumPy's linalg) and FFTs
# (numpy.fft) yes; MKL and OpenMP, which torch's CPU builds link, no (backends.mkl and
# backends.openmp say the same).
has_lapack = True
has_spectral = True
has_mkl = False
has_openmp = False

# torch's constants: plain Python floats (torch.pi is math.pi), and None as NumPy's newaxis.
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
newaxis = None

from ._heap import pad_heap as _pad_heap  # noqa: E402
_pad_heap()     # NOTE [ Heap padding ]
