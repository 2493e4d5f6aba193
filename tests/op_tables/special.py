"""Table entries: ember.special ('special.<fn>').

torch's aliases reuse the entries of the ops they alias; the new kernels get references
written here independently: math.erfc, power series summed in Python, and Bessel functions
by their integral representations (the trapezoidal rule is exponentially accurate for the
periodic and the rapidly decaying integrands used).
"""
import math

import numpy as np

from op_table import FLOATS, INTS, REAL, Sample, alias, binary, fl, op, result_type, \
    to_float, unary
from op_tables import activations, statistics  # noqa: F401  (entries aliased below)
from op_tables.elementwise_extra import _i0

# -- aliases --------------------------------------------------------------------------------------

for _name, _of in [("expit", "sigmoid"), ("erf", "erf"), ("erfc", "erfc"), ("erfinv", "erfinv"),
                   ("exp2", "exp2"), ("expm1", "expm1"), ("log1p", "log1p"),
                   ("gammaln", "lgamma"), ("digamma", "digamma"), ("psi", "digamma"),
                   ("polygamma", "polygamma"), ("multigammaln", "mvlgamma"), ("i0", "i0"),
                   ("sinc", "sinc"), ("round", "round"), ("logit", "logit"),
                   ("xlogy", "xlogy"), ("softmax", "softmax"), ("log_softmax", "log_softmax"),
                   ("logsumexp", "logsumexp")]:
    _extra = {}
    if _of in ("softmax", "log_softmax"):
        _extra = {"out": False}
    if _of == "round":
        _extra = {"dtypes": FLOATS}
    alias(f"special.{_name}", _of, inplace=False, method_call=None, **_extra)

# -- kernels with gradients -----------------------------------------------------------------------

_FULL = ("bool",) + INTS + ("float32", "float64")       # torch has no half kernels for these
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _special_unary(name, ref, low=-3.0, high=3.0, avoid=(), dtypes=REAL, **kw):
    op(f"special.{name}", samples=unary(low, high, avoid), ref=fl(ref), dtypes=dtypes,
       result=lambda ops, args, kwargs: to_float(result_type(ops)), out=True, **kw)


def _ndtr(x):
    return 0.5 * _erfc(-x / math.sqrt(2))


def _ndtri(p):
    edge = np.where(p <= 0, -np.inf, np.where(p >= 1, np.inf, 0.0))
    edge = np.where((p < 0) | (p > 1), np.nan, edge)
    return np.where((p > 0) & (p < 1), _bisect_ndtri(np.clip(p, 1e-300, 1)), edge)


def _bisect_ndtri(p):
    lo, hi = np.full(p.shape, -40.0), np.full(p.shape, 40.0)
    for _ in range(200):
        mid = (lo + hi) / 2
        below = _ndtr(mid) < p
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return (lo + hi) / 2


def _i11(x):
    """The power series of I1, summed until it stops changing."""
    q, term = x * x / 4, x / 2
    total, k = term, 0
    while abs(term) > 1e-18 * abs(total) and k < 500:
        k += 1
        term *= q / (k * (k + 1))
        total += term
    return total


_i1 = np.vectorize(_i11, otypes=[np.float64])

_special_unary("erfcx", lambda x: np.exp(x * x) * _erfc(x), dtypes=_FULL, gradgrad=True)
_special_unary("ndtr", _ndtr, gradgrad=True)
_special_unary("log_ndtr", lambda x: np.log(_ndtr(x)), -6.0, 3.0, dtypes=_FULL, gradgrad=True)
_special_unary("ndtri", _ndtri, 0.02, 0.98, dtypes=_FULL, gradgrad=True)
_special_unary("i0e", lambda x: np.exp(-np.abs(x)) * _i0(x), avoid=(0,), gradgrad=True)
_special_unary("i1", _i1, gradgrad=True)
_special_unary("i1e", lambda x: np.exp(-np.abs(x)) * _i1(x), avoid=(0,), gradgrad=True)


def _entr(x):
    with np.errstate(all="ignore"):
        out = np.where(x > 0, -x * np.log(np.where(x > 0, x, 1.0)), 0.0)
    return np.where(x < 0, -np.inf, np.where(np.isnan(x), np.nan, out))


def _entr_samples(m):
    out = unary(0.1, 3.0)(m)
    out.append(Sample(m((4, 5), -2, 2, grid=1.0)).no_grad())    # zeros and negatives
    return out


op("special.entr", samples=_entr_samples, ref=fl(_entr), dtypes=REAL,
   result=lambda ops, args, kwargs: to_float(result_type(ops)), out=True, gradgrad=True)


def _xlog1py(a, b):
    with np.errstate(all="ignore"):
        out = np.where(np.asarray(a) == 0, 0.0, a * np.log1p(b))
    return np.where(np.isnan(b), np.nan, out)


op("special.xlog1py", samples=binary(b=(-0.5, 3.0)), ref=fl(_xlog1py), dtypes=REAL,
   operands=(0, 1), result=lambda ops, args, kwargs: to_float(result_type(ops)), out=True)


def _zeta1(s, q):
    """Hurwitz zeta by direct summation to N = 2000 and the integral tail plus a half term."""
    if s <= 1:
        return math.inf if s == 1 else math.nan
    n = 2000
    total = sum((q + k) ** -s for k in range(n))
    return total + (q + n) ** (1 - s) / (s - 1) + 0.5 * (q + n) ** -s \
        + s * (q + n) ** (-s - 1) / 12


_zeta = np.vectorize(_zeta1, otypes=[np.float64])


def _zeta_samples(m):
    # x (the exponent) as a Python number where gradients are checked: torch has no gradient
    # for it
    out = [Sample(m((3, 4), 1.5, 4.0), m((3, 4), 0.5, 3.0)).no_grad(),
           Sample(m((3, 1), 1.5, 4.0), m((1, 4), 0.5, 3.0)).no_grad(),
           Sample(2.5, m((3, 4), 0.5, 3.0)), Sample(3, m((5,), 0.5, 3.0)),
           Sample(m((2, 3), 1.5, 4.0), 2.0).no_grad()]
    return out


op("special.zeta", samples=_zeta_samples, ref=fl(_zeta), dtypes=_FULL, operands=(0, 1),
   result=lambda ops, args, kwargs: to_float(result_type(ops)), out=True,
   tol={"float32": (1e-5, 1e-5)})


def _gammainc1(a, x):
    """P(a, x) by its series in exact-ish float64 steps (x <= 6 here)."""
    term = 1.0 / a
    total = term
    for n in range(1, 500):
        term *= x / (a + n)
        total += term
    return total * math.exp(a * math.log(x) - x - math.lgamma(a)) if x > 0 else 0.0


_gammainc = np.vectorize(_gammainc1, otypes=[np.float64])


def _gamma_samples(m):
    ints = m.of("int64")
    return [Sample(m((3, 4), 0.5, 5.0), m((3, 4), 0.1, 6.0)).no_grad(),
            Sample(m((3, 1), 0.5, 5.0), m((1, 4), 0.1, 6.0)).no_grad(),
            # integer shapes: only x is a floating leaf (torch has no gradient for a)
            Sample(ints((3, 4), 1, 5), m((3, 4), 0.1, 6.0))]


def _gamma_supports(ops, kwargs):
    return result_type(ops) in FLOATS


op("special.gammainc", samples=_gamma_samples, ref=fl(_gammainc), dtypes=FLOATS,
   operands=(0, 1), supports=_gamma_supports, out=True,
   tol={"float16": (5e-3, 5e-3), "bfloat16": (3e-2, 3e-2)})
op("special.gammaincc", samples=_gamma_samples, ref=fl(lambda a, x: 1 - _gammainc(a, x)),
   dtypes=FLOATS, operands=(0, 1), supports=_gamma_supports, out=True,
   tol={"float16": (5e-3, 5e-3), "bfloat16": (3e-2, 3e-2)})

# -- kernels without gradients -------------------------------------------------------------------

_TAU = np.linspace(0, np.pi, 4001)
_T = np.linspace(0, 12, 24001)


def _trapezoid(values, grid):
    """The trapezoidal rule, Richardson-extrapolated from steps h and 2h (error O(h^4))."""
    def rule(v, h):
        return h * (v.sum(-1) - 0.5 * (v[..., 0] + v[..., -1]))
    h = grid[1] - grid[0]
    return (4 * rule(values, h) - rule(values[..., ::2], 2 * h)) / 3


def _j(n):
    def ref(x):
        x = np.asarray(x, np.float64)[..., None]
        return _trapezoid(np.cos(n * _TAU - x * np.sin(_TAU)), _TAU) / np.pi
    return ref


def _y(n):
    def ref(x):
        x = np.asarray(x, np.float64)
        safe = np.where(x > 0, x, 1.0)[..., None]
        first = _trapezoid(np.sin(safe * np.sin(_TAU) - n * _TAU), _TAU) / np.pi
        with np.errstate(all="ignore"):
            second = _trapezoid((np.exp(n * _T) + (-1) ** n * np.exp(-n * _T))
                                * np.exp(-safe * np.sinh(_T)), _T) / np.pi
        out = first - second
        return np.where(x > 0, out, np.where(x == 0, -np.inf, np.nan))
    return ref


def _k(n, scaled=False):
    def ref(x):
        x = np.asarray(x, np.float64)
        safe = np.where(x > 0, x, 1.0)[..., None]
        with np.errstate(all="ignore"):
            out = _trapezoid(np.exp(-safe * (np.cosh(_T) - 1)) * np.cosh(n * _T), _T)
        out = out if scaled else out * np.exp(-safe[..., 0])
        return np.where(x > 0, out, np.where(x == 0, np.inf, np.nan))
    return ref


def _airy1(x):
    """Ai by its two Maclaurin series, summed in Python floats (|x| <= 3 here)."""
    c1, c2 = 0.355028053887817239, 0.258819403792806798
    f = g = 1.0
    tf, tg = 1.0, x
    g = x
    for k in range(1, 60):
        tf *= x ** 3 / ((3 * k - 1) * (3 * k))
        tg *= x ** 3 / ((3 * k) * (3 * k + 1))
        f += tf
        g += tg
    return c1 * f - c2 * g


_TORCH_BESSEL = ("torch's bessel_j0/j1/y0/y1 are off by up to ~1e-7 for 5 < |x| < 8 (checked "
                 "against mpmath); ember's agree with it to ~1e-15")
_TORCH_AIRY = ("torch's airy_ai is off by up to ~1e-6 for -3 < x < -2 (checked against "
               "mpmath); ember's agrees with it to ~1e-15")


def _no_grad_unary(name, ref, low=-3.0, high=3.0, avoid=(), torch_off=None):
    xfail = {}
    if torch_off:
        checks = ("table", "oracle")
        dtypes = ("float64", "float32") if name == "airy_ai" else ("float64",)
        xfail = {f"{c}:{d}": torch_off for c in checks for d in dtypes}
    op(f"special.{name}", samples=unary(low, high, avoid), ref=fl(ref), dtypes=_FULL,
       result=lambda ops, args, kwargs: to_float(result_type(ops)), out=True, grad=False,
       tol={"float64": (1e-9, 1e-11)}, xfail=xfail)


_no_grad_unary("bessel_j0", _j(0), -8.0, 8.0, torch_off=_TORCH_BESSEL)
_no_grad_unary("bessel_j1", _j(1), -8.0, 8.0, torch_off=_TORCH_BESSEL)
_no_grad_unary("bessel_y0", _y(0), 0.2, 8.0, torch_off=_TORCH_BESSEL)
_no_grad_unary("bessel_y1", _y(1), 0.2, 8.0, torch_off=_TORCH_BESSEL)
_no_grad_unary("modified_bessel_i0", fl(_i0))
_no_grad_unary("modified_bessel_i1", fl(_i1))
_no_grad_unary("modified_bessel_k0", _k(0), 0.2, 6.0)
_no_grad_unary("modified_bessel_k1", _k(1), 0.2, 6.0)
_no_grad_unary("scaled_modified_bessel_k0", _k(0, True), 0.2, 6.0)
_no_grad_unary("scaled_modified_bessel_k1", _k(1, True), 0.2, 6.0)
_no_grad_unary("spherical_bessel_j0", lambda x: np.sinc(x / np.pi), avoid=(0,))
_no_grad_unary("airy_ai", np.vectorize(_airy1, otypes=[np.float64]), torch_off=_TORCH_AIRY)

# -- orthogonal polynomials ---------------------------------------------------------------------


def _poly_ref(values):
    """Reference polynomials from NumPy's polynomial classes (Chebyshev, Hermite, ...)."""
    def ref(x, n):
        x, n = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(n))
        out = np.zeros(x.shape)
        for idx in np.ndindex(x.shape):
            k = int(n[idx])
            out[idx] = values(float(x[idx]), k) if k >= 0 else 0.0
        return out
    return ref


def _basis(cls, shift=False, scale=None):
    def value(x, k):
        coef = np.zeros(k + 1)
        coef[k] = 1
        arg = 2 * x - 1 if shift else x
        v = cls(coef)(arg)
        return v * scale(k) if scale else v
    return value


def _cheb_u(x, k, shift=False):
    x = 2 * x - 1 if shift else x
    p0, p1 = 1.0, 2 * x
    if k == 0:
        return p0
    for _ in range(k - 1):
        p0, p1 = p1, 2 * x * p1 - p0
    return p1


def _cheb_vw(first):
    def value(x, k, shift=False):
        x = 2 * x - 1 if shift else x
        p0, p1 = 1.0, 2 * x + first
        if k == 0:
            return p0
        for _ in range(k - 1):
            p0, p1 = p1, 2 * x * p1 - p0
        return p1
    return value


_P = np.polynomial
_POLY = {
    "chebyshev_polynomial_t": _basis(_P.chebyshev.Chebyshev),
    "chebyshev_polynomial_u": _cheb_u,
    "chebyshev_polynomial_v": _cheb_vw(-1),
    "chebyshev_polynomial_w": _cheb_vw(1),
    "shifted_chebyshev_polynomial_t": _basis(_P.chebyshev.Chebyshev, shift=True),
    "shifted_chebyshev_polynomial_u": lambda x, k: _cheb_u(x, k, True),
    "shifted_chebyshev_polynomial_v": lambda x, k: _cheb_vw(-1)(x, k, True),
    "shifted_chebyshev_polynomial_w": lambda x, k: _cheb_vw(1)(x, k, True),
    "hermite_polynomial_h": _basis(_P.hermite.Hermite),
    "hermite_polynomial_he": _basis(_P.hermite_e.HermiteE),
    "laguerre_polynomial_l": _basis(_P.laguerre.Laguerre),
    "legendre_polynomial_p": _basis(_P.legendre.Legendre),
}


def _poly_samples(m):
    n = m.of("int64")
    return [Sample(m((3, 4), -1, 1), 3), Sample(m((5,), -1, 1), n((5,), 0, 5)),
            Sample(m((2, 3), -1, 1), 0), Sample(m((2, 3), -1, 1), -1), Sample(0.5, n((4,), 0, 4)),
            Sample(m((3, 1), -1, 1), n((1, 3), 1, 4))]


for _name, _value in _POLY.items():
    op(f"special.{_name}", samples=_poly_samples, ref=_poly_ref(_value), dtypes=_FULL,
       operands=(0, 1), result=lambda ops, args, kwargs: to_float(result_type(ops)),
       grad=False, out=True)
