"""Table entries for the activation functions torch exposes at top level: softmax, log_softmax,
selu, celu, threshold, hardshrink, prelu, rrelu (and the in-place function forms)."""
import numpy as np

from op_table import FLOATS, NUMERIC, Sample, op, unary

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946
_HALF_TOL = {"float16": (2e-3, 2e-3), "bfloat16": (2e-2, 2e-2)}


def _softmax_ref(x, dim):
    if x.ndim == 0:
        return np.ones_like(x)
    e = np.exp(x - x.max(axis=dim, keepdims=True)) if x.size else x
    return e / e.sum(axis=dim, keepdims=True) if x.size else x


def _log_softmax_ref(x, dim):
    if x.ndim == 0:
        return np.zeros_like(x)
    if not x.size:
        return x
    s = x - x.max(axis=dim, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=dim, keepdims=True))


def _dim_samples(m):
    return [Sample(m((3, 4)), 1), Sample(m((5,)), 0), Sample(m(()), 0),
            Sample(m((2, 3, 2)), -1), Sample(m((2, 3, 2)), 0), Sample(m((0, 3)), 1),
            Sample(m((3, 4), -30, 30), dim=1)]


op("softmax", samples=_dim_samples, ref=_softmax_ref, dtypes=FLOATS, gradgrad=True, out=True,
   tol=_HALF_TOL, notes="the large-range sample checks the max-shift stability")
op("log_softmax", samples=_dim_samples, ref=_log_softmax_ref, dtypes=FLOATS, gradgrad=True,
   out=True,
   tol=_HALF_TOL)


def _elu_ref(x, alpha=1.0, scale=1.0, input_scale=1.0):
    return scale * np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0) * input_scale))


op("selu", samples=unary(avoid=(0,)), ref=lambda x: _elu_ref(x, _SELU_ALPHA, _SELU_SCALE),
   dtypes=FLOATS, gradgrad=True, tol=_HALF_TOL)
op("selu_", samples=unary(), ref=lambda x: _elu_ref(x, _SELU_ALPHA, _SELU_SCALE),
   dtypes=FLOATS, mutates=True, grad=None, tol=_HALF_TOL)


def _celu_samples(m):
    return unary(avoid=(0,))(m) + [Sample(m((3, 4), avoid=(0,)), 2.0),
                                   Sample(m((3, 4), avoid=(0,)), alpha=0.5)]


def _celu_ref(x, alpha=1.0):
    return _elu_ref(x, alpha, 1.0, 1.0 / alpha)


op("celu", samples=_celu_samples, ref=_celu_ref, dtypes=FLOATS, gradgrad=True, tol=_HALF_TOL)
op("celu_", samples=_celu_samples, ref=_celu_ref, dtypes=FLOATS, mutates=True, grad=None,
   tol=_HALF_TOL)


def _threshold_samples(m):
    return [Sample(m(s, avoid=(1,)), 1, 20) for s in [(3, 4), (5,), (), (0, 3)]] + \
        [Sample(m((2, 3), avoid=(-1,)), -1, -7)]


def _threshold_ref(x, threshold, value):
    if x.dtype.kind in "iu":        # torch casts both numbers to the input's dtype (wrapping)
        threshold, value = (np.array(v).astype(np.int64).astype(x.dtype) for v in
                            (threshold, value))
    return np.where(x > threshold, x, value).astype(x.dtype)


op("threshold", samples=_threshold_samples, ref=_threshold_ref, dtypes=NUMERIC, upcast=False,
   out=True)
op("threshold_", samples=_threshold_samples, ref=_threshold_ref, dtypes=NUMERIC, upcast=False,
   mutates=True, grad=None)


def _hardshrink_samples(m):
    return unary(avoid=(-0.5, 0.5))(m) + [Sample(m((3, 4), avoid=(-1, 1)), 1.0)]


op("hardshrink", samples=_hardshrink_samples,
   ref=lambda x, lambd=0.5: np.where(np.abs(x) > lambd, x, 0), dtypes=FLOATS, out=True)


def _prelu_samples(m):
    return [Sample(m((2, 3, 4), avoid=(0,)), m((3,))), Sample(m((3, 4), avoid=(0,)), m((1,))),
            Sample(m((5,), avoid=(0,)), m((1,))), Sample(m((2, 3), avoid=(0,)), m((3,))),
            Sample(m((), avoid=(0,)), m((1,))),
            Sample(m((0, 3)), m((3,)))]


def _prelu_ref(x, w):
    wb = w.reshape(()) if w.size == 1 else w.reshape((-1,) + (1,) * (x.ndim - 2))
    return np.where(x > 0, x, wb * x)


op("prelu", samples=_prelu_samples, ref=_prelu_ref, dtypes=FLOATS, operands=(0, 1),
   gradgrad=True)

_RRELU_SLOPE = (1.0 / 8 + 1.0 / 3) / 2


def _rrelu_samples(m):
    return unary(avoid=(0,))(m) + [Sample(m((3, 4), avoid=(0,)), 0.1, 0.3)]


def _rrelu_ref(x, lower=1.0 / 8, upper=1.0 / 3):
    return np.where(x > 0, x, x * (lower + upper) / 2)


op("rrelu", samples=_rrelu_samples, ref=_rrelu_ref, dtypes=FLOATS,
   notes="evaluation mode (training=False): the mean slope; training draws random slopes")
op("rrelu_", samples=_rrelu_samples, ref=_rrelu_ref, dtypes=FLOATS, mutates=True, grad=None)


# -- dropout (random: values are checked as properties, and against torch's stream by the
# oracle, which seeds both alike) ------------------------------------------------------------------

def _dropout_samples(m):
    return [Sample(m((3, 4), 0.5, 2.0), 0.5, True), Sample(m((2, 3, 4), 0.5, 2.0), 0.25, True),
            Sample(m((3, 4), 0.5, 2.0), 0.5, False), Sample(m((3, 4), 0.5, 2.0), 0.0, True),
            Sample(m((0, 3)), 0.5, True)]


_ALPHA_PRIME = 1.7580993408473766      # -scale * alpha of SELU


def _dropout_check(alpha, feature):
    """Each element is kept (scaled) or dropped; whole channels share one fate for feature
    dropout. In-place forms overwrite their input, so only out-of-place ones are checked."""
    def check(result, args, kwargs):
        from op_table import to_numpy
        if result is args[0]:
            return True
        x, p, train = to_numpy(args[0]).astype(np.float64), args[1], args[2]
        y = to_numpy(result).astype(np.float64)
        if not train or p == 0:
            return bool(np.array_equal(y, x))
        if alpha:
            a = 1 / np.sqrt((_ALPHA_PRIME ** 2 * p + 1) * (1 - p))
            kept = np.isclose(y, a * x + _ALPHA_PRIME * a * p, rtol=1e-2, atol=1e-2)
            dropped = np.isclose(y, _ALPHA_PRIME * a * (p - 1), rtol=1e-2, atol=1e-2)
        else:
            kept = np.isclose(y, x / (1 - p), rtol=1e-2)
            dropped = y == 0
        if not np.all(kept | dropped):
            return False
        if feature and x.ndim > 2:
            spatial = tuple(range(2, x.ndim))
            return bool(np.all(kept.all(axis=spatial) | dropped.all(axis=spatial)))
        return True
    return check


def _dropout_shape(x, p, train):
    return np.empty_like(x)


for _name, _alpha, _feature in [("dropout", False, False), ("feature_dropout", False, True),
                                ("alpha_dropout", True, False),
                                ("feature_alpha_dropout", True, True)]:
    for _suffix, _mutates in (("", False), ("_", True)):
        op(_name + _suffix, samples=_dropout_samples, ref=_dropout_shape, dtypes=FLOATS,
           random=True, grad=None, mutates=_mutates, check=_dropout_check(_alpha, _feature),
           notes="train=False and p=0 return the input itself")
