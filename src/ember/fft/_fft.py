"""torch.fft's transforms: each one checks its arguments with torch's texts, cuts or zero-pads
the signal to the requested sizes, and calls one of the primitives of `_ops.spectral`.

Integer and bool inputs compute in the default float dtype; float16/bfloat16 are refused as
torch's CPU kernels refuse them. Real inputs of the complex transforms take the real-to-complex
path (as torch: `fft` of a real tensor records FftR2CBackward0, `ifft` a ConjBackward0 over it).
"""
from .. import _dtype
from .._geometry import wrap_dim
from .._tensor import Tensor
from .._ops._dispatch import check_out, write_out
from .._ops.spectral import BY_N, BY_ROOT_N, NONE, fft_c2c, fft_c2r, fft_r2c
from .._ops.argument_errors import type_name


def _mode(norm, forward):
    """torch's normalization mode of a transform in direction `forward` for `norm`."""
    if norm is None or norm == "backward":
        return NONE if forward else BY_N
    if norm == "forward":
        return BY_N if forward else NONE
    if norm == "ortho":
        return BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _tensor(name, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"fft_{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(x)}")
    return x


def _input(name, x, real=False, complex=False):
    """x in a dtype the kernels take: ints to the default float; halves refused. `real`: refuse
    a complex x (a string: torch's text for it, followed by the dtype)."""
    _tensor(name, x)
    d = x.dtype
    if d.is_complex:
        if isinstance(real, str):
            raise RuntimeError(real + d._scalar_name)
        if real:
            raise RuntimeError(f"{name} expects a real input tensor, but got {d._scalar_name}")
        return x
    if d.is_floating_point:
        if d.itemsize < 4:
            raise RuntimeError(f"Unsupported dtype {d._scalar_name}")
    else:
        x = x.to(_dtype.get_default_dtype())
    if complex:
        x = x.to(_dtype.promote_types(x.dtype, _dtype.complex64))
    return x


def _int(name, arg, value):
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"fft_{name}(): argument '{arg}' must be int, not "
                        f"{type(value).__name__}")
    return value.__index__()


def _points(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return n


def _one_dim(name, x, dim):
    dim = _int(name, "dim", dim)
    if x.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, x.ndim)


def _dims(name, x, s, dim, two_dim=False):
    """(dims, sizes) of an n-dim transform, as torch resolves s and dim (-1 in s: keep).

    NOTE: as torch, the n-dim transforms resolve s and dim (and check every size) before
    they look at the input's dtype; the 1-dim ones look at the dtype first."""
    _tensor(name, x)
    if dim is None and two_dim:
        raise TypeError(f"fft_{name}(): argument 'dim' must be tuple of ints, not NoneType")
    if isinstance(dim, int):
        dim = (dim,)
    if isinstance(s, int):
        s = (s,)
    if dim is not None:
        dims = tuple(_one_dim(name, x, d) for d in dim)
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
        if s is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
    elif s is not None:
        if len(s) > x.ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has "
                               f"{x.ndim} dimensions.")
        dims = tuple(range(x.ndim - len(s), x.ndim))
    else:
        dims = tuple(range(x.ndim))
    if s is None:
        sizes = [x.shape[d] for d in dims]
    else:
        sizes = [x.shape[d] if _int(name, "s", n) == -1 else _int(name, "s", n)
                 for d, n in zip(dims, s)]
    for n in sizes:
        _points(n)
    if not dims and name[:2] in ("rf", "ih", "ir", "hf"):
        raise RuntimeError(f"{name} must transform at least one axis")
    return dims, sizes


def _resize(x, dims, sizes):
    """x cut (a slice) or zero-padded at the end (ConstantPadNd) to `sizes` along `dims`."""
    for d, n in zip(dims, sizes):
        if x.shape[d] > n:
            x = x.narrow(d, 0, n)
    widths = [0, 0] * x.ndim
    for d, n in zip(dims, sizes):
        if x.shape[d] < n:
            widths[2 * (x.ndim - 1 - d) + 1] = n - x.shape[d]
    if any(widths):
        from ..nn.functional import pad
        last = max(i for i, w in enumerate(widths) if w) + 1
        x = pad(x, widths[:last + last % 2])
    return x


def _finish(result, out, name, primitive):
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError(f"fft_{name}(): argument 'out' must be Tensor, not "
                        f"{type_name(out)}")
    if result.is_complex() and not out.is_complex():
        raise RuntimeError(f"{name} expects a complex output tensor, but got "
                           f"{out.dtype._scalar_name}")
    if not result.is_complex() and not out.dtype.is_floating_point:
        raise RuntimeError(f"{name} expects a floating point output tensor, but got "
                           f"{out.dtype._scalar_name}")
    check_out(primitive, out, result._data.dtype, result.requires_grad)
    return write_out(out, result._data)


# -- complex-to-complex ---------------------------------------------------------------------

def _c2c(name, x, dims, sizes, norm, forward, out, one_dim=False):
    for n in sizes:
        _points(n)
    if not one_dim and not x.is_complex():
        # NOTE: as torch: only the 1-D transforms take the real-to-complex path
        x = x.to(_dtype.promote_types(x.dtype, _dtype.complex64))
    x = _resize(x, dims, sizes)
    mode = _mode(norm, forward)
    if x.is_complex():
        return _finish(fft_c2c(x, dims, mode, forward), out, name, "_fft_c2c")
    result = fft_r2c(x, dims, mode, False)
    return _finish(result if forward else result.conj(), out, name, "_fft_r2c")


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    """The 1-D discrete Fourier transform along `dim` (signal cut or zero-padded to `n`).

    >>> ember.fft.fft(ember.tensor([1., 0., 0., 0.]))
    tensor([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    x = _input("fft", input)
    d = _one_dim("fft", x, dim)
    n = x.shape[d] if n is None else _int("fft", "n", n)
    return _c2c("fft", x, (d,), [n], norm, True, out, one_dim=True)


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    """The 1-D inverse discrete Fourier transform along `dim`."""
    x = _input("ifft", input)
    d = _one_dim("ifft", x, dim)
    n = x.shape[d] if n is None else _int("ifft", "n", n)
    return _c2c("ifft", x, (d,), [n], norm, False, out, one_dim=True)


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional DFT over `dim` (default: the last len(s) dims, or all)."""
    dims, sizes = _dims("fftn", input, s, dim)
    x = _input("fftn", input)
    return _c2c("fftn", x, dims, sizes, norm, True, out)


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional inverse DFT over `dim`."""
    dims, sizes = _dims("ifftn", input, s, dim)
    x = _input("ifftn", input)
    return _c2c("ifftn", x, dims, sizes, norm, False, out)


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The 2-D DFT over `dim` (the last two dims)."""
    dims, sizes = _dims("fft2", input, s, dim, two_dim=True)
    x = _input("fft2", input)
    return _c2c("fft2", x, dims, sizes, norm, True, out)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The 2-D inverse DFT over `dim` (the last two dims)."""
    dims, sizes = _dims("ifft2", input, s, dim, two_dim=True)
    x = _input("ifft2", input)
    return _c2c("ifft2", x, dims, sizes, norm, False, out)


# -- real-to-complex: rfft, ihfft -------------------------------------------------------------

def _r2c(name, x, dims, sizes, norm, forward, out):
    for n in sizes:
        _points(n)
    x = _resize(x, dims, sizes)
    mode = _mode(norm, forward)
    if forward:
        return _finish(fft_r2c(x, dims, mode, True), out, name, "_fft_r2c")
    # ihfftn: the last dim's one-sided transform, conjugated, then the others' inverse ones
    result = fft_r2c(x, dims[-1:], mode, True)
    if len(dims) == 1:
        return _finish(result.conj(), out, name, "_fft_r2c")
    result = fft_c2c(result.conj_physical(), dims[:-1], mode, False)
    return _finish(result, out, name, "_fft_c2c")


def _real_valued(x, name="rfftn", dim=()):
    """rfftn and rfft2 refuse a complex input before they look at s and dim (torch's text
    names rfftn for both), after rfft2's argument parser refuses dim=None."""
    if dim is None:
        raise TypeError(f"fft_{name}(): argument 'dim' must be tuple of ints, not NoneType")
    if isinstance(x, Tensor) and x.is_complex():
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got "
                           f"{x.dtype._scalar_name}")


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The DFT of a real signal: bins 0..n//2 (the rest are their conjugates)."""
    x = _input("rfft", input, real=True)
    d = _one_dim("rfft", x, dim)
    n = x.shape[d] if n is None else _int("rfft", "n", n)
    return _r2c("rfft", x, (d,), [n], norm, True, out)


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of hfft: the one-sided inverse DFT of a real signal."""
    x = _input("ihfft", input, real=True)
    d = _one_dim("ihfft", x, dim)
    n = x.shape[d] if n is None else _int("ihfft", "n", n)
    return _r2c("ihfft", x, (d,), [n], norm, False, out)


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional DFT of a real signal, one-sided along the last of `dim`."""
    _real_valued(input)
    dims, sizes = _dims("rfftn", input, s, dim)
    x = _input("rfftn", input, real=True)
    return _r2c("rfftn", x, dims, sizes, norm, True, out)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The 2-D DFT of a real signal, one-sided along the last dim."""
    _real_valued(input, "rfft2", dim)
    dims, sizes = _dims("rfft2", input, s, dim, two_dim=True)
    x = _input("rfft2", input, real=True)
    return _r2c("rfft2", x, dims, sizes, norm, True, out)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional inverse of hfftn."""
    dims, sizes = _dims("ihfftn", input, s, dim)
    x = _input("ihfftn", input, real="Only supports floating-point dtypes, but found: ")
    return _r2c("ihfftn", x, dims, sizes, norm, False, out)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The 2-D inverse of hfft2."""
    dims, sizes = _dims("ihfft2", input, s, dim, two_dim=True)
    x = _input("ihfft2", input, real="Only supports floating-point dtypes, but found: ")
    return _r2c("ihfft2", x, dims, sizes, norm, False, out)


# -- complex-to-real: irfft, hfft -------------------------------------------------------------

def _c2r(name, x, dims, sizes, last_size, norm, forward, out):
    """`last_size`: the real output's size along dims[-1] (None: 2 * (m - 1))."""
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")
    if last_size is None:
        last_size = 2 * (x.shape[dims[-1]] - 1)
    _points(last_size)
    sizes = list(sizes[:-1]) + [last_size // 2 + 1]
    for n in sizes:
        _points(n)
    x = _resize(x, dims, sizes)
    mode = _mode(norm, forward)
    if forward:
        # hfftn: the forward DFT of a Hermitian signal is real; the leading dims first, then
        # the conjugate's inverse real transform along the last
        if len(dims) > 1:
            x = fft_c2c(x, dims[:-1], mode, True)
        return _finish(fft_c2r(x.conj(), dims[-1:], mode, last_size), out, name, "_fft_c2r")
    return _finish(fft_c2r(x, dims, mode, last_size), out, name, "_fft_c2r")


def _last_size(name, s, dims, x):
    """The real output's size along dims[-1]: given in `s`, else (absent or -1)
    2 * (m - 1); checked, as torch, before the input's dtype."""
    n = -1 if s is None else _int(name, "s", s[-1] if not isinstance(s, int) else s)
    return _points(2 * (x.shape[dims[-1]] - 1) if n == -1 else n)


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of rfft: a real signal of length n (default 2 * (m - 1))."""
    x = _input("irfft", input, complex=True)
    d = _one_dim("irfft", x, dim)
    n = None if n is None else _int("irfft", "n", n)
    return _c2r("irfft", x, (d,), [x.shape[d]], n, norm, False, out)


def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The DFT of a Hermitian-symmetric signal given by its first half: a real result."""
    x = _input("hfft", input, complex=True)
    d = _one_dim("hfft", x, dim)
    n = None if n is None else _int("hfft", "n", n)
    return _c2r("hfft", x, (d,), [x.shape[d]], n, norm, True, out)


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The inverse of rfftn."""
    dims, sizes = _dims("irfftn", input, s, dim)
    last = _last_size("irfftn", s, dims, input)
    x = _input("irfftn", input, complex=True)
    return _c2r("irfftn", x, dims, sizes, last, norm, False, out)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The inverse of rfft2."""
    dims, sizes = _dims("irfft2", input, s, dim, two_dim=True)
    last = _last_size("irfft2", s, dims, input)
    x = _input("irfft2", input, complex=True)
    return _c2r("irfft2", x, dims, sizes, last, norm, False, out)


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional DFT of a Hermitian-symmetric signal given by its half: real."""
    dims, sizes = _dims("hfftn", input, s, dim)
    last = _last_size("hfftn", s, dims, input)
    x = _input("hfftn", input, complex=True)
    return _c2r("hfftn", x, dims, sizes, last, norm, True, out)


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The 2-D DFT of a Hermitian-symmetric signal given by its half: real."""
    dims, sizes = _dims("hfft2", input, s, dim, two_dim=True)
    last = _last_size("hfft2", s, dims, input)
    x = _input("hfft2", input, complex=True)
    return _c2r("hfft2", x, dims, sizes, last, norm, True, out)
