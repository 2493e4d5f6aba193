"""Table entries: special functions, xlogy, logit, sinc, angle conversions, sign and float bit
ops, float_power, complex views and fill_diagonal_.

References are independent of ember: math.lgamma, plain series summed element by element in
Python (digamma, polygamma, i0), and NumPy.
"""
import math

import numpy as np

from op_table import (ALL, COMPLEX, FLOATS, NP, NUMERIC, REAL, Sample, _float_unary, as_float,
                      binary, category, dtype_name, fl, op, result_type, to_float, to_real,
                      unary)

# -- references for the special functions (scalar Python, float64) ---------------------------

_EULER = 0.5772156649015329


def _is_pole(x):
    return x <= 0 and x == math.floor(x)


def _lgamma1(x):
    if math.isinf(x) or _is_pole(x):
        return math.inf
    return math.lgamma(x)


def _digamma1(x):
    """psi by upward recurrence to x >= 30, then four terms of the asymptotic series."""
    if math.isnan(x):
        return math.nan
    if _is_pole(x):
        return -math.inf if x == 0 and math.copysign(1, x) > 0 else \
            (math.inf if x == 0 else math.nan)
    if x < 0:       # reflection
        return _digamma1(1 - x) - math.pi / math.tan(math.pi * x)
    acc = 0.0
    while x < 30:
        acc -= 1 / x
        x += 1
    w = 1 / (x * x)
    return acc + math.log(x) - 0.5 / x - w * (1 / 12 - w * (1 / 120 - w * (1 / 252 - w / 240)))


def _polygamma1(n, x):
    """(-1)^(n+1) n! zeta(n+1, x): the sum to x + k >= 60, then Euler-Maclaurin's tail."""
    if n == 0:
        return _digamma1(x)
    if math.isnan(x):
        return math.nan
    if _is_pole(x):
        return math.inf if n % 2 else -math.inf
    s = n + 1
    total = 0.0
    while x < 60:
        total += x ** -s
        x += 1
    total += x ** (1 - s) / (s - 1) + 0.5 * x ** -s + s * x ** (-s - 1) / 12 \
        - s * (s + 1) * (s + 2) * x ** (-s - 3) / 720
    return (-1) ** (n + 1) * math.factorial(n) * total


def _i01(x):
    """The power series of I0, summed until it stops changing."""
    if math.isinf(x):
        return math.nan
    q, term, total, k = x * x / 4, 1.0, 1.0, 0
    while term > 1e-18 * total:
        k += 1
        term *= q / (k * k)
        total += term
    return total


_lgamma = np.vectorize(_lgamma1, otypes=[np.float64])
_digamma = np.vectorize(_digamma1, otypes=[np.float64])
_polygamma = np.vectorize(_polygamma1, otypes=[np.float64])
_i0 = np.vectorize(_i01, otypes=[np.float64])

_POLES = (0, -1, -2, -3)

_TRIGAMMA = ("torch's trigamma (digamma's derivative, polygamma(1, x)) is accurate to ~5e-10 "
             "only, ember's to ~1e-16 (checked against a 40-digit Decimal sum): the oracle's "
             "1e-10 gradient comparison fails by design")
_float_unary("lgamma", _lgamma, avoid=_POLES, dtypes=REAL)
_float_unary("digamma", _digamma, avoid=_POLES, dtypes=REAL,
             xfail={"oracle-grad:float64": _TRIGAMMA})
_float_unary("i0", _i0, dtypes=REAL)


def _polygamma_samples(m):
    out = []
    for n, low, avoid in [(0, 0.2, ()), (1, -3.0, _POLES), (2, 0.2, ()), (3, -2.0, _POLES)]:
        out += [Sample(n, m(s, low, 4.0, avoid=avoid)) for s in [(3, 4), (5,), (), (0, 3)]]
    return out


op("polygamma", samples=_polygamma_samples, ref=fl(lambda n, x: _polygamma(n, x)),
   dtypes=REAL, result=lambda ops, args, kwargs: to_float(result_type(ops)), operands=(1,),
   inplace=True, out=True, gradgrad=True, xfail={"oracle-grad:float64": _TRIGAMMA},
   method_call=lambda n, x, **kw: x.polygamma(n, **kw),
   notes="polygamma_(n) is checked in test_elementwise_extra_errors.py: the table's in-place "
         "check needs the tensor first")

# -- logit, sinc, angle conversions ------------------------------------------------------------


def _logit(x, eps=None):
    if eps is not None and eps >= 0:
        x = np.clip(x, eps, 1 - eps)
    return np.log(x / (1 - x))


def _logit_samples(m):
    out = unary(0.05, 0.95)(m)
    # eps clamps; finite differences keep away from the clamp's kinks
    out += [Sample(m((3, 4), 0.02, 0.98, avoid=(0.2, 0.8)), 0.2),
            Sample(m((5,), 0.02, 0.98, avoid=(0.3, 0.7)), eps=0.3),
            Sample(m((5,), 0.05, 0.95), eps=-0.5)]
    return out


op("logit", samples=_logit_samples, ref=fl(_logit), dtypes=REAL,
   result=lambda ops, args, kwargs: to_float(result_type(ops)), inplace=True, out=True,
   gradgrad=True)


def _sinc(x):
    safe = np.where(x == 0, 1, x)
    return np.where(x == 0, 1, np.sin(np.pi * safe) / (np.pi * safe))


_float_unary("sinc", _sinc, avoid=(0,))
_float_unary("deg2rad", lambda x: x * (np.pi / 180), dtypes=REAL)
_float_unary("rad2deg", lambda x: x * (180 / np.pi), dtypes=REAL)


def _angle(x):
    if x.dtype.kind == "c":
        return np.angle(x)
    return np.where(np.isnan(x), x, np.where(x < 0, np.pi, 0.0))


op("angle", samples=unary(avoid=(0,), specials=True), ref=fl(_angle), dtypes=ALL,
   result=lambda ops, args, kwargs: to_real(to_float(result_type(ops))), out=True,
   notes="torch has no angle_; -0.0 gives 0 (NumPy's angle says pi)")

# -- binary: xlogy, copysign, heaviside, ldexp, nextafter --------------------------------------


def _xlogy(a, b):
    with np.errstate(all="ignore"):
        out = np.where(np.asarray(a) == 0, 0.0, a * np.log(b))
    return np.where(np.isnan(b), np.nan, out)


def _scalar_self(m):
    """Samples with zeros in input (xlogy's 0 * log(0) = 0) and a Python number first."""
    x = m((3, 4), -3, 3, grid=1.0)
    return [Sample(x, m((3, 4), 0.0, 3.0, grid=1.0)).no_grad(),
            Sample(2, m((3, 4), 0.2, 3.0)), Sample(-1.5, m((5,), 0.2, 3.0))]


_FLOAT_RESULT = dict(result=lambda ops, args, kwargs: to_float(result_type(ops)),
                     operands=(0, 1), inplace=True, out=True)

op("xlogy", samples=binary(b=(0.2, 3.0), specials=True, extra=_scalar_self), ref=fl(_xlogy),
   dtypes=REAL, gradgrad=True, **_FLOAT_RESULT)
op("copysign", samples=binary(scalars=(2, -0.5)), ref=fl(np.copysign), dtypes=REAL,
   gradgrad=True, **_FLOAT_RESULT)


def _heaviside(a, b):
    return np.where(a == 0, b, a > 0).astype(np.result_type(a, b))


def _heaviside_samples(m):
    # zeros in input pick values
    out = binary(scalars=())(m)
    out.append(Sample(m((3, 4), -2, 2, grid=1.0), m((3, 4))).no_grad())
    return out


def _same_dtype_real(ops, kwargs):
    names = {dtype_name(x.dtype) for x in ops}
    return len(names) == 1 and category(names.pop()) < 3


op("heaviside", samples=_heaviside_samples, ref=_heaviside, dtypes=REAL, operands=(0, 1),
   supports=_same_dtype_real, grad="raises", inplace=True, out=True,
   notes="operands must be tensors of one dtype; the backward node is NotImplemented")
def _ldexp(a, b):
    """torch's input * pow(2., other): the power is rounded to other's floating dtype (the
    default float for integers) first."""
    kind = category(dtype_name(b.dtype))
    wide = np.complex128 if kind == 3 else np.float64
    power = np.exp2(b.astype(wide)).astype(b.dtype if kind >= 2 else np.float32)
    return as_float(a) * power.astype(wide)


op("ldexp", samples=binary(scalars=()), ref=_ldexp, dtypes=ALL, upcast=False, gradgrad=True,
   tol={"float64": (5e-7, 1e-12), "complex128": (5e-7, 1e-12)}, **_FLOAT_RESULT,
   xfail={"oracle-grad:float64": "torch bug: for an integer `other` torch's gradient uses the "
                                 "integer pow(2, other), which is 0 for negative exponents; "
                                 "ember gives 2 ** other (finite differences agree)"},
   notes="a float32 other makes a float32 power: torch's pow(2., x) there is not always "
         "correctly rounded (and for complex input it is a complex64 power), so float64 "
         "results are compared to float32 precision")


def _nextafter(a, b):
    t = NP[result_type([a, b])]
    return np.nextafter(np.asarray(a).astype(t), np.asarray(b).astype(t)).astype(np.float64)


op("nextafter", samples=binary(scalars=(), specials=True), ref=_nextafter, dtypes=FLOATS,
   operands=(0, 1), upcast=False, inplace=True, out=True,
   tol={name: (0.0, 0.0) for name in FLOATS},
   notes="compared exactly: one ulp matters")

# -- float_power --------------------------------------------------------------------------------


def _float_power_result(ops, args, kwargs):
    return "complex128" if any(category(n) == 3 for n in _names(ops)) else "float64"


def _names(ops):
    out = []
    for x in ops:
        if isinstance(x, np.ndarray):
            out.append(dtype_name(x.dtype))
        elif isinstance(x, complex):
            out.append("complex64")
        else:
            out.append("float32")
    return out


def _float_power_samples(m):
    out = binary(a=(0.5, 2.5), b=(-2.0, 2.0), scalars=(2, 0.5, 1.5 - 0.5j))(m)
    out += [Sample(2, m((3, 4), -2.0, 2.0)), Sample(0.5 + 1j, m((5,), -2.0, 2.0))]
    if m.dtype not in ("float64", "complex128"):
        # NOTE: in-place and out= need the tensor to be float64 (complex128) already, so the
        # table's generic variant checks (which expect any float dtype to do) run on those.
        out = [s.only_forward() for s in out]
    return out


op("float_power", samples=_float_power_samples, ref=fl(np.power), dtypes=ALL,
   result=_float_power_result, operands=(0, 1), inplace=True, out=True, gradgrad=True,
   notes="always float64 or complex128; in-place needs a self of that dtype")

# -- frexp -------------------------------------------------------------------------------------


op("frexp", samples=unary(avoid=(-2, -1, 0, 1, 2), specials=True),
   ref=lambda x: np.frexp(x), dtypes=FLOATS,
   result=lambda ops, args, kwargs: (result_type(ops), "int32"),
   notes="out=(mantissa, exponent) is checked in test_elementwise_extra_errors.py (the "
         "table's out= checks take one tensor)", out=True)

# -- complex views -----------------------------------------------------------------------------

op("view_as_real", samples=unary(), ref=lambda x: np.stack([x.real, x.imag], axis=-1),
   dtypes=COMPLEX, result=lambda ops, args, kwargs: to_real(result_type(ops)), view=True)


def _pairs(m):
    if m.dtype == "float16":
        return []           # torch gives complex32, which the table (and ember) lack
    # NOTE: no empty sample: tensors made from empty NumPy arrays have strides (0, 0) (in
    # torch too), which view_as_complex refuses
    return [Sample(m(s)) for s in [(3, 2), (2, 3, 2), (2,), (1, 1, 2)]]


op("view_as_complex", samples=_pairs, ref=lambda x: x[..., 0] + 1j * x[..., 1],
   dtypes=("float32", "float64"),
   result=lambda ops, args, kwargs: {"float32": "complex64", "float64": "complex128"}[
       result_type(ops)], view=True, noncontig=False,
   notes="torch raises unless the last dim has stride 1 (errors in "
         "test_elementwise_extra_errors.py); float16 would give complex32")

# -- small methods -------------------------------------------------------------------------------

def _fill_diagonal_samples(m):
    return [Sample(m((3, 3)), 2), Sample(m((3, 5)), 1), Sample(m((5, 3)), 1, wrap=True),
            Sample(m((7, 3)), 1, True), Sample(m((7, 3)), 1), Sample(m((2, 2, 2)), 1),
            Sample(m((0, 3)), 1)] + \
        ([Sample(m((3, 4)), 1.5)] if m.kind in ("float", "complex") else [])


def _fill_diagonal(x, value, wrap=False):
    out = x.astype(np.float64 if x.dtype == NP["bfloat16"] else x.dtype)
    if x.ndim == 2:
        # NumPy's fill_diagonal follows torch's wrap rule for tall matrices
        np.fill_diagonal(out, value, wrap=wrap)
    else:
        np.fill_diagonal(out, value)
    return out


op("fill_diagonal_", form="method", samples=_fill_diagonal_samples, ref=_fill_diagonal,
   dtypes=ALL, mutates=True, upcast=False)


# -- addcmul, addcdiv ----------------------------------------------------------------------------

def _addc_samples(m):
    away = dict(avoid=(0,)) if m.kind == "float" else {}
    return [Sample(m((3, 4)), m((3, 4)), m((3, 4), 1, 3)),
            Sample(m((3, 1)), m((1, 4)), m((4,), 1, 3), value=2),
            Sample(m((2, 3)), m(()), m((3,), 1, 3), value=-0.5 if m.kind != "int" else -1),
            Sample(m(()), m(()), m((), 1, 3)),
            Sample(m((0, 3)), m((0, 3)), m((1, 3), 1, 3), value=3),
            Sample(m((3, 4)), m((3, 4)), m((3, 4), -2, 2, **away), value=1.5)]


def _addc_ref(combine):
    def ref(a, t1, t2, value=1):
        dtype = np.result_type(a, t1, t2)
        if dtype.kind in "iu":          # torch casts value to the result dtype (wrapping)
            value = np.array(int(value)).astype(dtype)
        return a + value * combine(t1, t2)
    return ref


op("addcmul", samples=_addc_samples, ref=_addc_ref(np.multiply), dtypes=NUMERIC + COMPLEX,
   operands=(0, 1, 2), inplace=True, out=True, gradgrad=True,
   notes="an integer result truncates a float value, as torch casts value to the result dtype")
op("addcdiv", samples=_addc_samples, ref=_addc_ref(np.true_divide), dtypes=FLOATS + COMPLEX,
   operands=(0, 1, 2), inplace=True, out=True, gradgrad=True,
   supports=lambda ops, kwargs: not all(np.asarray(o).dtype.kind in "biu" for o in ops[1:])
   and result_type(ops) in FLOATS + COMPLEX,
   notes="torch refuses integer tensor1 and tensor2 (integer division is no longer supported)")
