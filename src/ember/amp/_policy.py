"""The autocast hook: which public ops autocast touches, and the cast it applies to their inputs.

NOTE [ The autocast hook ]
torch decides in its dispatcher, per op, whether autocast casts the inputs to the lower
precision dtype, to float32, or to their widest type ("promote"). ember has no dispatcher, so the
listed ops (and only those) are wrapped once, when `ember.amp` is imported, at the public names
users and modules call: `ember.mm`, `Tensor.__matmul__`, `nn.functional.linear`, the shared
`convolution` that every conv function and module reaches, ... Each wrapper first reads one
module global (`_ACTIVE`, the number of autocast regions enabled in any thread): with autocast
off that is the whole cost, on a handful of ops, and no other op is touched. With autocast on
it casts the eligible tensors (floating, not float64, on the region's device) and runs the op
with autocast suspended, so the op's own inner calls are not cast again, as in torch.
"""
import functools
import importlib
import threading

from .. import _dtype
from .._ops import registry
from .._ops.argument_errors import call_error
from .._tensor import Tensor

LOWER, FP32, PROMOTE = "lower", "fp32", "promote"

_CONV = ["nn._conv.convolution"] + [f"nn.functional.{c}{d}" for c in ("conv", "conv_transpose")
                                    for d in ("1d", "2d", "3d")]
_MATMUL = ["mm", "bmm", "matmul", "addmm", "addbmm", "baddbmm", "chain_matmul", "einsum",
           "tensordot", "inner", "cov"]
# NOTE: einsum, tensordot, inner, cov, multi_dot and matrix_power are not in torch's list; they
# are composites that torch runs as bmm/mm, so their results come out in the lower dtype.
_CPU_LOWER = (_MATMUL + ["Tensor." + n for n in _MATMUL if n not in ("chain_matmul", "einsum",
                                                                     "tensordot")]
              + ["Tensor.__matmul__", "Tensor.__rmatmul__", "prelu", "Tensor.prelu",
                 "linalg.matmul", "linalg.multi_dot", "linalg.matrix_power", "linalg.vecdot",
                 "nn.functional.linear", "nn.functional.prelu",
                 "nn.functional.scaled_dot_product_attention"] + _CONV)
_LOSSES = ["binary_cross_entropy", "mse_loss", "cosine_embedding_loss", "nll_loss",
           "hinge_embedding_loss", "poisson_nll_loss", "smooth_l1_loss", "cross_entropy",
           "l1_loss", "huber_loss", "margin_ranking_loss", "soft_margin_loss",
           "triplet_margin_loss", "multi_margin_loss", "ctc_loss", "kl_div",
           "multilabel_margin_loss", "binary_cross_entropy_with_logits"]
_LINALG32 = ["cond", "matrix_rank", "solve", "cholesky", "svdvals", "eigvals", "eigvalsh", "inv",
             "householder_product", "tensorinv", "tensorsolve", "qr", "cholesky_ex", "svd",
             "eig", "eigh", "lstsq", "inv_ex"]
_FFT = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
        "rfftn", "irfftn", "hfft", "ihfft"]
_TOP32 = ["prod", "quantile", "nanquantile", "cdist", "trace", "view_as_complex", "cholesky",
          "cholesky_inverse", "cholesky_solve", "inverse", "pinverse", "polar", "qr", "svd",
          "triangular_solve", "geqrf", "orgqr", "ormqr", "lu_solve", "stft"]
_CPU_FP32 = (_TOP32 + ["Tensor." + n for n in _TOP32 if n not in ("cdist", "polar")]
             + ["nn.functional." + n for n in _LOSSES]
             + ["nn.functional." + n for n in ("avg_pool3d", "max_pool3d", "adaptive_avg_pool3d",
                                               "adaptive_max_pool3d", "fractional_max_pool2d",
                                               "fractional_max_pool3d", "max_unpool2d",
                                               "max_unpool3d", "grid_sample")]
             + ["linalg." + n for n in _LINALG32] + ["fft." + n for n in _FFT])
_CPU_PROMOTE = ["cat", "stack", "index_copy", "Tensor.index_copy"]
# torch's top-level spellings of nn.functional's ops (`ember.conv2d`, `ember.kl_div`, ...)
_CPU_LOWER += [c.rpartition(".")[2] for c in _CONV[1:]]
_CPU_FP32 += [n for n in _LOSSES if n not in ("cross_entropy", "l1_loss", "mse_loss",
                                              "smooth_l1_loss", "huber_loss", "nll_loss",
                                              "multilabel_margin_loss", "multi_margin_loss",
                                              "soft_margin_loss")]


def _rnn_layer_policy(args, kwargs):
    # NOTE: torch runs LSTM (oneDNN, without projections) and RNN layers in the lower dtype
    # on the CPU. GRU, and LSTM with projections, are composites of autocast linear maps: an
    # LSTM's projection makes its output lower precision; a GRU's new state mixes the lower
    # precision gates with the old state, so it comes out in the state's dtype (the input's
    # when no state is given).
    mode, x, hx = args[0], args[1], args[2]
    if mode != "GRU":
        return LOWER
    state = x if hx is None else hx
    return FP32 if state.dtype == _dtype.float32 else LOWER


def _pad_policy(args, kwargs):
    # torch's CPU list holds reflection_pad1d/2d and replication_pad1d/2d/3d, the kernels
    # F.pad reaches for those modes with 1, 2 (or 3) padded dims
    pad = args[1] if len(args) > 1 else kwargs.get("pad", ())
    mode = args[2] if len(args) > 2 else kwargs.get("mode", "constant")
    dims = len(pad) // 2
    if mode == "reflect" and dims in (1, 2) or mode == "replicate" and dims in (1, 2, 3):
        return FP32
    return None


_CPU_LOWER += ["nn._rnn_ops.rnn_cell"]
_CPU_CALLABLE = {"nn._rnn_ops.run_layer": _rnn_layer_policy, "nn.functional.pad": _pad_policy}

# NOTE: torch's CUDA lists (float16 by default) send more ops to float32. Its pointwise ops and
# reductions there (exp, log, pow, sum, prod, cumsum, ...) are left out on purpose: wrapping them
# would put the hook's check on ember's hottest calls; under CUDA autocast they keep their
# input dtype (unlike torch).
_CUDA_LOWER = _CPU_LOWER + ["addmv", "addr", "mv", "Tensor.addmv", "Tensor.addr", "Tensor.mv"]
_CUDA_FP32 = (["nn.functional." + n for n in _LOSSES if n != "binary_cross_entropy"]
              + ["nn.functional." + n for n in ("softplus", "layer_norm", "group_norm",
                                                "cosine_similarity", "pdist", "softmax",
                                                "log_softmax", "interpolate")]
              + ["cdist", "dist", "renorm", "linalg.vector_norm", "linalg.matrix_norm"])
_CUDA_PROMOTE = ["addcdiv", "addcmul", "atan2", "cross", "dot", "tensordot", "index_put",
                 "scatter_add", "nn.functional.bilinear", "cat", "stack", "index_copy"]


def _table(lower, fp32, promote):
    table = dict.fromkeys(lower, LOWER)
    table.update(dict.fromkeys(fp32, FP32))
    table.update(dict.fromkeys(promote, PROMOTE))
    return table


POLICIES = {"cpu": {**_table(_CPU_LOWER, _CPU_FP32, _CPU_PROMOTE), **_CPU_CALLABLE},
            "cuda": {**_table(_CUDA_LOWER, _CUDA_FP32, _CUDA_PROMOTE),
                     "nn._rnn_ops.run_layer": _rnn_layer_policy}}


class _State(threading.local):
    """One thread's autocast settings (torch keeps them per thread too)."""

    def __init__(self):
        self.enabled = {}           # device type -> bool
        self.dtype = {}             # device type -> lower precision dtype
        self.cache_enabled = True
        self.nesting = 0
        self.cache = {}             # (id(leaf), dtype) -> (leaf, its cast copy)
        self.suspended = 0          # > 0 while a wrapped op runs


state = _State()
_ACTIVE = 0                         # autocast regions enabled now, over all threads
_lock = threading.Lock()


def count_active(delta):
    global _ACTIVE
    with _lock:
        _ACTIVE = max(0, _ACTIVE + delta)


def any_enabled():
    """Whether autocast is on for any device type in this thread (torch's
    `_is_any_autocast_enabled`)."""
    return _ACTIVE > 0 and any(state.enabled.values())


_ELIGIBLE = (_dtype.float16, _dtype.bfloat16, _dtype.float32)


def _first_device(values):
    for v in values:
        if isinstance(v, Tensor):
            return v.device.type
        if isinstance(v, (list, tuple)):
            found = _first_device(v)
            if found is not None:
                return found
    return None


def _widest(values, device, current):
    """The dtype a "promote" op casts to: starting from the region's lower precision dtype,
    float32 once an eligible float32 input is met.

    NOTE: as torch's `prioritize`, while the dtype is still the lower precision one, an
    eligible input of the other 16-bit dtype (float16 in a bfloat16 region, or the reverse)
    is an error; after a float32 input any 16-bit input is accepted."""
    for v in values:
        if isinstance(v, Tensor):
            if v.dtype in _ELIGIBLE and v.device.type == device and current != v.dtype \
                    and current != _dtype.float32:
                if v.dtype != _dtype.float32:
                    raise RuntimeError("Unexpected floating ScalarType in "
                                       "at::autocast::prioritize")
                current = v.dtype
        elif isinstance(v, (list, tuple)):
            current = _widest(v, device, current)
    return current


def _cast_one(t, device, dtype):
    if not (isinstance(t, Tensor) and t.dtype in _ELIGIBLE and t.dtype != dtype
            and t.device.type == device):
        return t
    st = state
    # NOTE: as torch, only float32 leaves that require grad (parameters) cast to the lower
    # precision dtype are cached: they are cast once per outermost autocast region.
    if not (st.cache_enabled and t.is_leaf and t.requires_grad and t._base is None
            and t.dtype == _dtype.float32 and dtype == st.dtype.get(device)):
        return t.to(dtype)
    key = (id(t), dtype)
    hit = st.cache.get(key)
    if hit is None or hit[0] is not t:
        hit = st.cache[key] = (t, t.to(dtype))
    return hit[1]


def cast(value, device, dtype):
    """`value` with its eligible tensors (also inside lists, tuples, dicts) cast to `dtype`."""
    if isinstance(value, Tensor):
        return _cast_one(value, device, dtype)
    if isinstance(value, (list, tuple)):
        return type(value)(cast(v, device, dtype) for v in value)
    if isinstance(value, dict):
        return {k: cast(v, device, dtype) for k, v in value.items()}
    return value


def _call(fn, key, args, kwargs):
    st = state
    if st.suspended or kwargs.get("out") is not None:
        return fn(*args, **kwargs)
    device = _first_device(args) or _first_device(tuple(kwargs.values()))
    if device is None or not st.enabled.get(device):
        return fn(*args, **kwargs)
    policy = POLICIES.get(device, {}).get(key)
    if callable(policy):
        policy = policy(args, kwargs)
    if policy is None:
        return fn(*args, **kwargs)
    if policy == LOWER:
        dtype = st.dtype[device]
    elif policy == FP32:
        dtype = _dtype.float32
    else:
        dtype = _widest(tuple(args) + tuple(kwargs.values()), device, st.dtype[device])
    args = cast(args, device, dtype)
    kwargs = cast(kwargs, device, dtype)
    st.suspended += 1
    try:
        return fn(*args, **kwargs)
    finally:
        st.suspended -= 1


def _wrap(fn, key):
    path, _, name = key.rpartition(".")
    operator = path in ("", "Tensor") and not name.startswith("__")    # (the registry's)

    @functools.wraps(fn)
    def autocast_op(*args, **kwargs):
        try:
            if _ACTIVE:
                return _call(fn, key, args, kwargs)
            return fn(*args, **kwargs)
        except TypeError as exc:
            # a wrong call of a plain method fails in this frame: torch's parser texts for it
            # (NOTE [ Arity errors ]); the `try` costs a valid call nothing
            new = call_error(exc, fn, name, args, kwargs, path == "Tensor") if operator else None
            if new is None:
                raise
            raise new from None
    autocast_op._autocast_key = key
    return autocast_op


def install():
    """Wrap every listed op once (see NOTE [ The autocast hook ])."""
    keys = sorted(set().union(*POLICIES.values()))
    for key in keys:
        path, _, name = key.rpartition(".")
        if path == "Tensor":
            owner = Tensor
        else:
            owner = importlib.import_module("ember." + path if path else "ember")
        fn = getattr(owner, name, None)
        if fn is None or hasattr(fn, "_autocast_key"):
            continue
        wrapped = _wrap(fn, key)
        setattr(owner, name, wrapped)
        # NOTE: the registry stays the one list of what ember exports (the profiler reads it).
        table = {"": registry.FUNCTIONS, "Tensor": registry.METHODS}.get(path)
        if table is not None and table.get(name) is fn:
            table[name] = wrapped
