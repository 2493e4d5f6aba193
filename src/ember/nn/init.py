"""ember.nn.init: in-place initialisers for parameters, drawing from the same distributions (and
with the same algorithms, so the same numbers for a seed) as torch.nn.init."""
import math
import warnings

import numpy as np

from ..autograd.grad_mode import no_grad
from .parameter import UninitializedTensorMixin, _uninitialized_error
from .. import _warn

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
           "zeros_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
           "kaiming_normal_", "orthogonal_", "sparse_", "uniform", "normal", "constant", "eye",
           "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal",
           "orthogonal", "sparse"]

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "conv_transpose3d")


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity: relu sqrt(2), tanh 5/3, selu 3/4, ...."""
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.size(1) * receptive, tensor.size(0) * receptive


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _refuse_uninitialized(tensor, function):
    """torch's uniform_, normal_, constant_ and kaiming_uniform_ dispatch through
    __torch_function__ first: given an uninitialized (lazy) parameter, the error names the
    init function itself, before anything reads the tensor's shape."""
    if isinstance(tensor, UninitializedTensorMixin):
        raise _uninitialized_error(type(tensor).__name__,
                                   f"<function {function.__name__} at {hex(id(function))}>")


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with samples of U(a, b)."""
    _refuse_uninitialized(tensor, uniform_)
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with samples of N(mean, std**2)."""
    _refuse_uninitialized(tensor, normal_)
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with N(mean, std**2) samples truncated to [a, b], by rejection sampling (torch's
    scheme, so the same seed gives the same numbers)."""
    if mean < a - 2 * std or mean > b + 2 * std:
        _warn.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                   "distribution of values may be incorrect.", stacklevel=2)
    if tensor.is_meta:          # (meta tensors have no values to draw: nothing to do)
        return tensor
    mass = _normal_cdf((b - mean) / std) - _normal_cdf((a - mean) / std)
    with no_grad():
        if mass > 0.3:
            _truncate_by_redrawing(tensor, mean, std, a, b, generator)
        else:
            _truncate_by_uniform_proposals(tensor, mean, std, a, b, generator)
    return tensor


def _normal_cdf(x):
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def _truncate_by_redrawing(tensor, mean, std, a, b, generator):
    """Most of the mass is inside [a, b]: draw normals and redraw the ones outside."""
    from .._ops.compare import where
    low, high = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < low) | (result > high)
        if not bool(outside.any()):
            break
        fresh = result.new_empty(tuple(result.shape)).normal_(mean, std, generator=generator)
        result = where(outside, fresh, result)
    if result is not tensor:
        tensor.copy_(result)


def _truncate_by_uniform_proposals(tensor, mean, std, a, b, generator):
    """Little mass inside [a, b]: uniform proposals on [a, b], each accepted when
    log(u) <= log(pdf / peak pdf) for a fresh uniform u."""
    from .._ops.compare import where
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    proposals = tensor.new_empty(tuple(tensor.shape))
    draws = tensor.new_empty(tuple(tensor.shape))

    def log_ratio(x):
        return ((x - mean) / std) ** 2 * -0.5 - log_peak

    tensor.uniform_(a, b, generator=generator)
    pending = draws.uniform_(generator=generator).log() > log_ratio(tensor)
    result = tensor
    while bool(pending.any()):
        proposals.uniform_(a, b, generator=generator)
        result = where(pending, proposals, result)
        rejected = draws.uniform_(generator=generator).log() > log_ratio(proposals)
        pending = where(pending, rejected, pending)
    if result is not tensor:
        tensor.copy_(result)


def constant_(tensor, val):
    """Fill with `val`."""
    _refuse_uninitialized(tensor, constant_)
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    with no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def eye_(tensor):
    """The identity matrix (2-D tensors only)."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    if tensor.is_meta:
        return tensor
    from .._creation import eye
    with no_grad():
        tensor.copy_(eye(*tensor.shape))
    return tensor


def dirac_(tensor, groups=1):
    """The Dirac delta (identity of a convolution) in a 3-, 4- or 5-D weight, per group."""
    dims = tensor.ndimension()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    if tensor.is_meta:
        return tensor
    per_group = sizes[0] // groups
    n = min(per_group, sizes[1])
    centres = tuple(s // 2 for s in sizes[2:])
    d = np.arange(n)
    rows = (np.arange(groups)[:, None] * per_group + d[None, :]).reshape(-1)
    cols = np.tile(d, groups)
    with no_grad():
        tensor.zero_()
        array = tensor._data
        array[(rows, cols) + centres] = 1
        tensor._bump_version()
    return tensor


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """U(-bound, bound) with bound = gain * sqrt(3 / fan) (He et al., 2015)."""
    _refuse_uninitialized(tensor, kaiming_uniform_)
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """N(0, std**2) with std = gain / sqrt(fan) (He et al., 2015)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix from the QR decomposition of a normal sample, scaled by
    `gain`; dims after the first are flattened."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0 or tensor.is_meta:
        return tensor
    from .._creation import tensor as make_tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flat = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    if flat.dtype._np.itemsize == 2:        # float16, bfloat16: torch's QR has no kernel
        raise NotImplementedError(f"\"geqrf_cpu\" not implemented for '{flat.dtype._scalar_name}'")
    if flat.is_complex():       # (torch's sign(diag(R)) after the QR refuses complex)
        from .. import sign
        sign(flat)
    a = flat.cpu().numpy().astype(np.float64)      # QR on the host; copied back below
    if rows < cols:
        a = a.T
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with no_grad():
        tensor.view_as(flat).copy_(make_tensor(q))
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """A 2-D sparse matrix (Martens, 2010): N(0, std**2) values with ceil(sparsity * rows)
    zeros in each column, at rows chosen by `randperm` (drawn from the default generator, as
    torch does)."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from .._ops.sampling import randperm
    rows, cols = tensor.shape
    if tensor.is_meta:
        return tensor
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[randperm(rows)[:num_zeros], col] = 0
    return tensor


def _make_deprecate(method):
    """The old name of an initialiser (`normal` for `normal_`), warning that it is
    deprecated."""
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        _warn.warn(f"`nn.init.{old_name}` is now deprecated in favor of "
                   f"`nn.init.{new_name}`.", FutureWarning, stacklevel=2)
        return method(*args, **kwargs)

    deprecated_init.__name__ = old_name
    deprecated_init.__doc__ = f"Deprecated: use `nn.init.{new_name}`."
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
