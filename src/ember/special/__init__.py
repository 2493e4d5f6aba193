"""ember.special: torch.special. Where torch's function is an alias (expit is sigmoid, psi
is digamma, gammaln is lgamma, ...) it is ember's own op, with its node; the rest are kernels
of `_kernels` with torch's dtypes, errors and node names (`SpecialErfcxBackward0`, ...).

    >>> import ember as torch
    >>> torch.special.ndtr(torch.tensor([0.0, 1.0]))
    tensor([0.5000, 0.8413])
"""
import math

import numpy as np

from .._tensor_likes import dispatch_refusals as _dispatch_refusals
from .. import _ops  # noqa: F401  (registers the ops used below)
from .._ops import elementwise_extra as _extra
from .._ops.elementwise import Elementwise
from .._ops.elementwise import call as _call
from .._ops.elementwise import int_to_float as _int_to_float
from .._ops.elementwise import missing_kernel as _missing_kernel
from .._tensor import Tensor
from . import _kernels as K

__all__ = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
           "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
           "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2",
           "expit", "expm1", "gammainc", "gammaincc", "gammaln", "hermite_polynomial_h",
           "hermite_polynomial_he", "i0", "i0e", "i1", "i1e", "laguerre_polynomial_l",
           "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
           "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
           "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
           "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
           "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc", "softmax",
           "spherical_bessel_j0", "xlog1py", "xlogy", "zeta"]


def _ember():
    import ember
    return ember


# -- aliases of ember's own ops ------------------------------------------------------------------

def expit(input, *, out=None):
    """The logistic sigmoid 1 / (1 + exp(-input)) (torch.sigmoid)."""
    return _ember().sigmoid(input, out=out)


def erf(input, *, out=None):
    """The error function (torch.erf)."""
    return _ember().erf(input, out=out)


def erfc(input, *, out=None):
    """1 - erf(input) (torch.erfc)."""
    return _ember().erfc(input, out=out)


def erfinv(input, *, out=None):
    """The inverse of erf (torch.erfinv)."""
    return _ember().erfinv(input, out=out)


def exp2(input, *, out=None):
    """2 ** input (torch.exp2)."""
    return _ember().exp2(input, out=out)


def expm1(input, *, out=None):
    """exp(input) - 1, accurate near 0 (torch.expm1)."""
    return _ember().expm1(input, out=out)


def log1p(input, *, out=None):
    """log(1 + input), accurate near 0 (torch.log1p)."""
    return _ember().log1p(input, out=out)


def gammaln(input, *, out=None):
    """log|Gamma(input)| (torch.lgamma)."""
    return _ember().lgamma(input, out=out)


def digamma(input, *, out=None):
    """The logarithmic derivative of Gamma (torch.digamma)."""
    return _ember().digamma(input, out=out)


def psi(input, *, out=None):
    """digamma's other name."""
    return _ember().digamma(input, out=out)


def polygamma(n, input, *, out=None):
    """The n-th derivative of digamma (torch.polygamma)."""
    return _ember().polygamma(n, input, out=out)


def multigammaln(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p (torch.mvlgamma)."""
    return _ember().mvlgamma(input, p, out=out)


def i0(input, *, out=None):
    """The modified Bessel function of the first kind, order 0 (torch.i0)."""
    return _ember().i0(input, out=out)


def sinc(input, *, out=None):
    """sin(pi x) / (pi x), 1 at 0 (torch.sinc)."""
    return _ember().sinc(input, out=out)


def round(input, *, decimals=0, out=None):
    """Round half to even (torch.round with its `decimals` overload, which refuses integer
    tensors)."""
    return _ember().round(input, decimals=decimals, out=out)


def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)) (torch.logit)."""
    return _ember().logit(input, eps, out=out)


def xlogy(input, other, *, out=None):
    """input * log(other), 0 where input is 0 (torch.xlogy)."""
    return _ember().xlogy(input, other, out=out)


def softmax(input, dim, *, dtype=None):
    """exp(input) normalized along `dim` (torch.softmax)."""
    return _ember().softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    """log(softmax(input)) along `dim`, computed stably (torch.log_softmax)."""
    return _ember().log_softmax(input, dim, dtype=dtype)


def logsumexp(input, dim, keepdim=False, *, out=None):
    """log(sum(exp(input))) over `dim`, computed stably (torch.logsumexp)."""
    return _ember().logsumexp(input, dim, keepdim, out=out)


# -- kernels with gradients ---------------------------------------------------------------------

def _float_rule(kernel):
    return _missing_kernel(kernel, "c", _int_to_float)


def _full_only(kernel):
    """torch has only float32/float64 kernels for these: halves and complex are refused."""
    return _missing_kernel(kernel, "cV", _no_half(kernel, _int_to_float))


def _no_half(kernel, rule):
    def checked(common):
        if common.kind == "f" and common.itemsize == 2:
            raise NotImplementedError(f'"{kernel}" not implemented for \'Half\'')
        return rule(common)
    return checked


def _float64(fn):
    """A kernel of float64 arrays as a forward on the compute dtype's arrays."""
    def forward(xp, *arrays):
        dtype = next(a.dtype for a in arrays if hasattr(a, "dtype"))
        wide = [xp.asarray(a, dtype=np.float64) for a in arrays]
        return xp.asarray(fn(xp, *wide)).astype(dtype, copy=False)
    return staticmethod(forward)


def _unary(op, name):
    def fn(input, *, out=None):
        _check(name, input)
        return _call(op, [input], {}, out, f"special_{name}")
    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = op.__doc__
    return fn


def _check(name, *tensors):
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            arg = ("input", "other")[i]
            raise TypeError(f"special_{name}(): argument '{arg}' (position {i + 1}) must be "
                            f"Tensor, not {type(t).__name__}")


class SpecialErfcx(Elementwise):
    """The scaled complementary error function exp(x^2) erfc(x)."""
    rule = _full_only("erfcx_cpu")
    saves = {"self": ("self", "result")}
    forward = _float64(K.erfcx)

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return grad * (2 * x * result - 2 / math.sqrt(math.pi))


class SpecialNdtri(Elementwise):
    """The inverse of the standard normal CDF."""
    rule = _full_only("ndtri_cpu")
    saves = {"self": ("result",)}
    forward = _float64(K.ndtri)

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * math.sqrt(2 * math.pi) * (result * result / 2).exp()


class SpecialLogNdtr(Elementwise):
    """log of the standard normal CDF, accurate far in the lower tail."""
    rule = _full_only("log_ndtr_cpu")
    saves = {"self": ("self", "result")}
    forward = _float64(K.log_ndtr)

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return grad * (-x * x / 2 - 0.5 * math.log(2 * math.pi) - result).exp()


class SpecialI0E(Elementwise):
    """exp(-|x|) I0(x)."""
    rule = _float_rule("i0e_cpu")
    saves = {"self": ("self", "result")}
    forward = _float64(lambda xp, x: K.bessel_i_scaled(xp, x, 0))

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return grad * (i1e(x) - x.sgn() * result)


class SpecialI1E(Elementwise):
    """exp(-|x|) I1(x)."""
    rule = _float_rule("i1e_cpu")
    saves = {"self": ("self", "result")}
    forward = _float64(lambda xp, x: K.bessel_i_scaled(xp, x, 1))

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        # d/dx e^-|x| I1 = e^-|x| (I0 - I1 / x) - sgn(x) e^-|x| I1; 1/2 at 0
        slope = i0e(x) - result / x.where(x != 0, 1.0) - x.sgn() * result
        return grad * slope.where(x != 0, 0.5)


class SpecialEntr(Elementwise):
    """-x log x: 0 at 0, -inf for negative x."""
    rule = _float_rule("entr_cpu")
    saves = {"self": ("self",)}
    forward = _float64(K.entr)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -(1 + x.log())


erfcx = _unary(SpecialErfcx, "erfcx")
ndtri = _unary(SpecialNdtri, "ndtri")
log_ndtr = _unary(SpecialLogNdtr, "log_ndtr")
i0e = _unary(SpecialI0E, "i0e")
i1e = _unary(SpecialI1E, "i1e")
entr = _unary(SpecialEntr, "entr")


def i1(input, *, out=None):
    """The modified Bessel function of the first kind, order 1."""
    _check("i1", input)
    return _call(_extra.I1, [input], {}, out, "special_i1")


class _MulNumber(Elementwise):
    """tensor * number inside a composite op, recorded as torch's C++ records it
    (MulBackward1)."""
    node_name = "MulBackward1"

    def forward(xp, a, number):
        return a * number

    def backward(ctx, grad):
        return _call(_MulNumber, (grad,), {"number": ctx.number}, None, "mul")


class _AddNumber(Elementwise):
    """tensor + number inside a composite op (AddBackward1)."""
    node_name = "AddBackward1"

    def forward(xp, a, number):
        return a + number

    def backward(ctx, grad):
        return grad


def ndtr(input, *, out=None):
    """The standard normal CDF, (1 + erf(x / sqrt 2)) / 2."""
    _check("ndtr", input)
    if input._data.dtype.kind == "c":
        raise NotImplementedError(f'"erf_vml_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    # NOTE: composed as torch composes it, (erf(x * sqrt 1/2) + 1) * 0.5, so the values (0 far
    # in the lower tail) and the graph (MulBackward1 <- AddBackward1 <- ErfBackward0 <-
    # MulBackward1) are torch's.
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        from .._dtype import get_default_dtype
        input = input.to(get_default_dtype())
    scaled = _call(_MulNumber, (input,), {"number": math.sqrt(0.5)}, None, "mul")
    shifted = _call(_AddNumber, (erf(scaled),), {"number": 1.0}, None, "add")
    result = _call(_MulNumber, (shifted,), {"number": 0.5}, None, "mul")
    if out is not None:
        from .._ops._dispatch import check_out, write_out
        check_out("special_ndtr", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    return result


# -- two inputs ---------------------------------------------------------------------------------

class SpecialXlog1py(Elementwise):
    """input * log1p(other), 0 where input is 0 (unless other is NaN)."""
    node_name = "SpecialXlog1PyBackward0"
    inputs = ("self", "other")
    rule = _float_rule("xlog1py_cpu")
    saves = {"self": ("self", "other"), "other": ("self", "other")}

    @staticmethod
    def forward(xp, x, y):
        dtype = x.dtype if hasattr(x, "dtype") else y.dtype
        with np.errstate(all="ignore"):
            out = xp.where(x == 0, 0.0, x * xp.log1p(y))
        return xp.asarray(xp.where(xp.isnan(y), y, out)).astype(dtype, copy=False)

    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            # torch's: xlog1py(grad, other), 0 where input is 0 and other <= -1 (where log1p
            # is -inf or NaN); where input is 0 and other > -1 it is log1p(other), not 0
            other = y.to(grad.dtype) if isinstance(y, Tensor) else y
            gx = xlog1py(grad, other).masked_fill((x == 0) & (other <= -1), 0.0)
        if ctx.needs_input_grad[1]:
            gy = grad * x / (y + 1)
        return gx, gy


def xlog1py(input, other, *, out=None):
    """input * log1p(other), 0 where input is 0."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special_xlog1py(): at least one of 'input' and 'other' must be a "
                        "Tensor")
    return _call(_overload(SpecialXlog1py, input, other), [input, other], {}, out,
                 "special_xlog1py")


def _overload(op, input, other):
    """torch numbers the node by which operand is a Python number (Backward1: input,
    Backward2: other)."""
    if not isinstance(input, Tensor):
        return op.Scalar1
    if not isinstance(other, Tensor):
        return op.Scalar2
    return op


def _scalar_variants(op, base):
    op.Scalar1 = type(op.__name__ + "Scalar1", (op,), {"node_name": base + "Backward1",
                                                      "__module__": __name__})
    op.Scalar2 = type(op.__name__ + "Scalar2", (op,), {"node_name": base + "Backward2",
                                                      "__module__": __name__})


class SpecialZeta(Elementwise):
    """The Hurwitz zeta function sum_k (q + k)^-x."""
    inputs = ("self", "other")
    rule = _full_only("zeta_cpu")
    saves = {"other": ("self", "other")}
    forward = _float64(K.zeta)

    def backward(ctx, grad):
        x, q = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        return None, grad * -x * zeta(x + 1, q)


def zeta(input, other, *, out=None):
    """The Hurwitz zeta function of input (x) and other (q)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special_zeta(): at least one of 'input' and 'other' must be a Tensor")
    return _call(_overload(SpecialZeta, input, other), [input, other], {}, out,
                 "special_zeta")


_scalar_variants(SpecialXlog1py, "SpecialXlog1Py")
_scalar_variants(SpecialZeta, "SpecialZeta")


class Igamma(Elementwise):
    """The regularized lower incomplete gamma function P(a, x)."""
    inputs = ("self", "other")
    rule = _missing_kernel("igamma_cpu", "biuc")
    saves = {"other": ("self", "other")}
    forward = _float64(K.gammainc)
    sign = 1.0
    kernel_name = "igamma"

    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            raise NotImplementedError(f"the derivative for '{type(ctx).__mro__[1].kernel_name}:"
                                      f" input' is not implemented.")
        density = ((a - 1) * x.log() - x - a.lgamma()).exp()
        return None, grad * density * type(ctx).__mro__[1].sign


class Igammac(Igamma):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    rule = _missing_kernel("igammac_cpu", "biuc")
    forward = _float64(K.gammaincc)
    sign = -1.0
    kernel_name = "igammac"


def _gamma_pair(name, op):
    def fn(input, other, *, out=None):
        _check(name, input, other)
        return _call(op, [input, other], {}, out, f"special_{name}")
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = op.__doc__
    return fn


gammainc = _gamma_pair("gammainc", Igamma)
gammaincc = _gamma_pair("gammaincc", Igammac)


# -- kernels without gradients (as in torch) ---------------------------------------------------

class _NoGrad(Elementwise):
    abstract = True
    differentiable = False


def _plain(name, kernel, doc):
    op = type(name, (_NoGrad,), {"rule": _full_only(f"{name}_cpu"), "__doc__": doc,
                                 "forward": _float64(kernel), "__module__": __name__})
    return _unary(op, name)


bessel_j0 = _plain("bessel_j0", lambda xp, x: K.bessel_j(xp, x, 0),
                   "The Bessel function of the first kind, order 0.")
bessel_j1 = _plain("bessel_j1", lambda xp, x: K.bessel_j(xp, x, 1),
                   "The Bessel function of the first kind, order 1.")
bessel_y0 = _plain("bessel_y0", lambda xp, x: K.bessel_y(xp, x, 0),
                   "The Bessel function of the second kind, order 0.")
bessel_y1 = _plain("bessel_y1", lambda xp, x: K.bessel_y(xp, x, 1),
                   "The Bessel function of the second kind, order 1.")
modified_bessel_i0 = _plain("modified_bessel_i0", lambda xp, x: _special_i(xp, x, 0),
                            "The modified Bessel function of the first kind, order 0.")
modified_bessel_i1 = _plain("modified_bessel_i1", lambda xp, x: _special_i(xp, x, 1),
                            "The modified Bessel function of the first kind, order 1.")
modified_bessel_k0 = _plain("modified_bessel_k0",
                            lambda xp, x: K.bessel_k_scaled(xp, x, 0) * np.exp(-x),
                            "The modified Bessel function of the second kind, order 0.")
modified_bessel_k1 = _plain("modified_bessel_k1",
                            lambda xp, x: K.bessel_k_scaled(xp, x, 1) * np.exp(-x),
                            "The modified Bessel function of the second kind, order 1.")
scaled_modified_bessel_k0 = _plain("scaled_modified_bessel_k0",
                                   lambda xp, x: K.bessel_k_scaled(xp, x, 0),
                                   "exp(x) K0(x).")
scaled_modified_bessel_k1 = _plain("scaled_modified_bessel_k1",
                                   lambda xp, x: K.bessel_k_scaled(xp, x, 1),
                                   "exp(x) K1(x).")
spherical_bessel_j0 = _plain("spherical_bessel_j0",
                             lambda xp, x: xp.where(xp.isinf(x), 0.0, xp.where(
                                 x == 0, 1.0, xp.sin(x) / xp.where(x == 0, 1.0, x))),
                             "sin(x) / x, 1 at 0.")
airy_ai = _plain("airy_ai", K.airy_ai, "The Airy function Ai.")


def _special_i(xp, x, nu):
    from .._ops import _special
    with np.errstate(all="ignore"):
        out = _special.bessel_i(xp, x, nu)
    return out          # NaN at +-inf, as torch


# -- orthogonal polynomials ------------------------------------------------------------------

class _Polynomial(_NoGrad):
    abstract = True
    inputs = ("self", "n")


def _polynomial(kind):
    name = f"{kind.replace('_', '_polynomial_', 1)}" if not kind.startswith("shifted") else \
        "shifted_" + kind[len("shifted_"):].replace("_", "_polynomial_", 1)
    kernel = f"{name}_cpu"
    op = type(name, (_Polynomial,), {
        "rule": _full_only(kernel), "__module__": __name__,
        "forward": _float64(lambda xp, x, n: K.polynomial(xp, kind, x, n))})

    def fn(input, n, *, out=None):
        if not isinstance(input, Tensor) and not isinstance(n, Tensor):
            raise TypeError(f"special_{name}(): at least one of 'input' and 'n' must be a "
                            f"Tensor")
        return _call(op, [input, n], {}, out, f"special_{name}")
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The {name.replace('_', ' ')} of degree n at input (n < 0 gives 0)."
    return fn


chebyshev_polynomial_t = _polynomial("chebyshev_t")
chebyshev_polynomial_u = _polynomial("chebyshev_u")
chebyshev_polynomial_v = _polynomial("chebyshev_v")
chebyshev_polynomial_w = _polynomial("chebyshev_w")
shifted_chebyshev_polynomial_t = _polynomial("shifted_chebyshev_t")
shifted_chebyshev_polynomial_u = _polynomial("shifted_chebyshev_u")
shifted_chebyshev_polynomial_v = _polynomial("shifted_chebyshev_v")
shifted_chebyshev_polynomial_w = _polynomial("shifted_chebyshev_w")
hermite_polynomial_h = _polynomial("hermite_h")
hermite_polynomial_he = _polynomial("hermite_he")
laguerre_polynomial_l = _polynomial("laguerre_l")
legendre_polynomial_p = _polynomial("legendre_p")


_dispatch_refusals(globals())     # NOTE [ Tensor-likes ]
