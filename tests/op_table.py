"""The operator table: one declaration per public operator of `ember._ops.registry`.

Each `OpInfo` says how to make sample inputs (NumPy arrays, Python numbers), a NumPy reference
for the forward, which dtypes torch supports, the result dtype by torch's promotion rules, and
how the op differentiates. `tests/test_ops.py` runs one generic suite over the table and
`tests/oracle/test_ops_oracle.py` runs the same samples through real torch.

Nothing here imports ember: the table describes torch's behaviour, written down independently
(promotion, dtype support and references), so that every check can fail.
"""
import math
import zlib
from dataclasses import dataclass, field, replace
from typing import Callable

import ml_dtypes
import numpy as np

# -- dtypes -----------------------------------------------------------------------------------

BOOL = ("bool",)
INTS = ("uint8", "int8", "int16", "int32", "int64")
HALF = ("float16", "bfloat16")
FLOATS = HALF + ("float32", "float64")
COMPLEX = ("complex64", "complex128")
REAL = BOOL + INTS + FLOATS
ALL = REAL + COMPLEX
NUMERIC = INTS + FLOATS                 # what torch's arithmetic kernels take besides bool

NP = {"bool": np.dtype(np.bool_), "uint8": np.dtype(np.uint8), "int8": np.dtype(np.int8),
      "int16": np.dtype(np.int16), "int32": np.dtype(np.int32), "int64": np.dtype(np.int64),
      "float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16),
      "float32": np.dtype(np.float32), "float64": np.dtype(np.float64),
      "complex64": np.dtype(np.complex64), "complex128": np.dtype(np.complex128)}
_NAME_OF = {v: k for k, v in NP.items()}


def dtype_name(np_dtype):
    """The torch name of a NumPy dtype ('float32', 'bfloat16', ...)."""
    return _NAME_OF[np.dtype(np_dtype)]


class D:
    """A dtype argument (`x.to(D("float64"))`): the suites turn it into ember's or torch's."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"D({self.name!r})"


# -- torch's promotion rules, written down independently of ember ---------------------------

def category(name):
    """bool < integer < floating < complex: a higher category always wins a promotion."""
    return 0 if name == "bool" else 1 if name in INTS else 2 if name in FLOATS else 3


def promote_types(a, b):
    """torch.promote_types for two dtype names."""
    if a == b:
        return a
    ca, cb = category(a), category(b)
    if ca != cb:
        low, high = (a, b) if ca < cb else (b, a)
        if category(high) == 3 and low == "float64":
            return "complex128"
        return high
    if ca == 1:
        if "uint8" in (a, b):
            other = b if a == "uint8" else a
            return "int16" if other == "int8" else other
        return max(a, b, key=lambda n: NP[n].itemsize)
    if {a, b} == {"float16", "bfloat16"}:
        return "float32"
    return max(a, b, key=lambda n: NP[n].itemsize)


def _number_dtype(x):
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int64"
    if isinstance(x, float):
        return "float32"
    return "complex64"


def result_type(operands):
    """torch's three tiers: tensors with dims decide, unless 0-dim tensors or Python numbers
    are of a higher category (they then lend their category, not their width... except a 0-dim
    tensor, whose own dtype is used)."""
    tiers = [None, None, None]
    for x in operands:
        if x is None:
            continue
        if isinstance(x, np.ndarray):
            tier, name = (0 if x.ndim else 1), dtype_name(x.dtype)
        else:
            tier, name = 2, _number_dtype(x)
        tiers[tier] = name if tiers[tier] is None else promote_types(tiers[tier], name)
    result = None
    for name in tiers:
        if name is None:
            continue
        if result is None:
            result = name
        elif category(name) > category(result):
            if category(name) == 3 and category(result) == 2:
                result = "complex128" if result == "float64" else "complex64"
            else:
                result = name
    return result


def can_cast(src, dst):
    """Whether an in-place or out= op may write a `src` result into a `dst` tensor."""
    return category(src) <= category(dst) and not (dst == "bool" and src != "bool")


def to_float(name):
    """Integers and bools compute in the default float (float32)."""
    return "float32" if category(name) < 2 else name


def to_real(name):
    return {"complex64": "float32", "complex128": "float64"}.get(name, name)


# -- result-dtype rules: (operands, args, kwargs) -> dtype name (or a tuple for tuple results) --

def SAME(ops, args, kwargs):
    return result_type(ops)


def FLOAT(ops, args, kwargs):
    return to_float(result_type(ops))


def BOOL_RESULT(ops, args, kwargs):
    return "bool"


def REAL_PART(ops, args, kwargs):
    return to_real(result_type(ops))


def INT64(ops, args, kwargs):
    return "int64"


def ACCUMULATE(ops, args, kwargs):
    """sum/prod: the `dtype` argument, else integers and bools widen to int64."""
    if kwargs.get("dtype") is not None:
        return kwargs["dtype"].name
    name = result_type(ops)
    return "int64" if category(name) < 2 else name


def FIXED(name):
    def rule(ops, args, kwargs):
        return name
    return rule


def NOT_A_TENSOR(ops, args, kwargs):
    return None


# -- sample inputs --------------------------------------------------------------------------------

class Sample:
    """Positional and keyword arguments of one call; arrays become tensors."""

    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs
        self.grad = True            # usable for gradient checks (smooth at this point)
        self.variants = True        # also run as in-place, out=, method and strided forms
        self.out = True             # also run with out= (torch's overload takes one)

    def no_grad(self):
        self.grad = False
        return self

    def no_out(self):
        """A call form whose torch overload takes no out= (`var(x, True)`, `median(x)`)."""
        self.out = False
        return self

    def only_forward(self):
        """A call form with no in-place, out= or method variant (e.g. `where(cond)`)."""
        self.variants = False
        return self.no_grad()

    def __repr__(self):
        def show(a):
            if isinstance(a, np.ndarray):
                return f"{dtype_name(a.dtype)}{list(a.shape)}"
            if isinstance(a, (list, tuple)):
                return type(a)(show(x) for x in a)
            return repr(a)
        kw = ", ".join(f"{k}={show(v)}" for k, v in self.kwargs.items())
        return f"Sample({', '.join(str(show(a)) for a in self.args)}{', ' if kw else ''}{kw})"


class Maker:
    """Arrays of one dtype drawn from a value domain: `m(shape, low, high)`.

    Integer and bool dtypes take the integers of [low, high] (the nearest allowed values when
    the domain holds none); `avoid` lists points to keep away from (poles, kinks), `distinct`
    draws no repeated values (no ties for max/argmax), `grid` snaps to multiples, and
    `specials` plants nan, inf, -inf and -0.0 (floating dtypes).
    """

    def __init__(self, dtype, seed=0, rng=None):
        self.dtype = dtype
        self.rng = rng if rng is not None else np.random.default_rng(seed)

    def of(self, dtype):
        """A maker of another dtype drawing from the same stream."""
        return Maker(dtype, rng=self.rng)

    @property
    def kind(self):
        return ("bool", "int", "float", "complex")[category(self.dtype)]

    def __call__(self, shape, low=-3.0, high=3.0, *, avoid=(), distinct=False, grid=None,
                 specials=False):
        shape = tuple(shape)
        n = int(np.prod(shape))
        if self.kind in ("bool", "int"):
            values = self._integers(n, low, high, avoid, distinct)
        else:
            values = self._reals(n, low, high, avoid, distinct, grid)
            if self.kind == "complex":
                values = values + 1j * self._reals(n, low, high, (), False, grid)
            elif specials and n >= 4:
                picks = self.rng.choice(n, size=min(4, n), replace=False)
                planted = [np.nan, np.inf, -np.inf, -0.0]
                if specials == "no-nan":
                    planted[0] = -0.0
                values[picks] = planted[:len(picks)]
        with np.errstate(all="ignore"):
            return np.asarray(values.reshape(shape)).astype(NP[self.dtype])

    def _integers(self, n, low, high, avoid, distinct):
        if self.dtype == "bool":
            candidates = np.array([0, 1])
        else:
            info = np.iinfo(NP[self.dtype])
            candidates = np.arange(max(info.min, -20), min(info.max, 20) + 1)
        allowed = candidates[(candidates >= low) & (candidates <= high)
                             & ~np.isin(candidates, avoid)]
        if allowed.size == 0:
            distance = np.maximum(low - candidates, candidates - high)
            allowed = candidates[distance == distance.min()]
        if distinct and allowed.size >= n:
            return self.rng.choice(allowed, size=n, replace=False)
        return self.rng.choice(allowed, size=n)

    def _reals(self, n, low, high, avoid, distinct, grid):
        if distinct:
            # sorted slots with a random order: neighbours at least (high - low) / 2n apart
            slots = (self.rng.permutation(n) + self.rng.uniform(0.25, 0.75, n)) / max(n, 1)
            values = low + (high - low) * slots
        else:
            values = self.rng.uniform(low, high, n)
        if grid:
            values = np.round(values / grid) * grid
        margin = 0.05 * (high - low)
        for _ in range(100):
            bad = np.zeros(n, bool)
            for p in avoid:
                bad |= np.abs(values - p) < margin
            if not bad.any():
                break
            values[bad] = self.rng.uniform(low, high, int(bad.sum()))
            if grid:
                values = np.round(values / grid) * grid
        return values


# -- references ----------------------------------------------------------------------------------

def as_float(x):
    """An array as float64 (complex128 for complex ones); numbers are left alone."""
    if isinstance(x, np.ndarray):
        return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    return x


def fl(fn):
    """A reference computed in float64 whatever the input dtypes (torch's int -> float ops)."""
    def ref(*args, **kwargs):
        return fn(*(as_float(a) for a in args), **kwargs)
    ref.__name__ = getattr(fn, "__name__", "ref")
    return ref


_erf = np.vectorize(math.erf, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _erfinv(y):
    """Inverse of math.erf by bisection then Newton steps (hand-derived, float64)."""
    y = np.asarray(y, np.float64)
    out = np.full(y.shape, np.nan)
    inside = np.abs(y) < 1
    lo, hi = np.full(y.shape, -6.0), np.full(y.shape, 6.0)
    for _ in range(60):
        mid = (lo + hi) / 2
        below = _erf(mid) < y
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    x = (lo + hi) / 2
    for _ in range(3):
        x = x - (_erf(x) - y) / (2 / math.sqrt(math.pi) * np.exp(-x * x))
    out[inside] = x[inside]
    out[y == 1], out[y == -1] = np.inf, -np.inf
    return out


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _axis(x, dim):
    """NumPy's axis for torch's `dim` (0-dim tensors accept dim 0 / -1 and have no axes)."""
    if dim is None or x.ndim == 0:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(d % x.ndim for d in dim) if len(dim) else None
    return dim % x.ndim


def _trunc_div(a, b):
    if np.asarray(a).dtype.kind in "biu" and np.asarray(b).dtype.kind in "biu":
        q = np.abs(a) // np.abs(b)
        return np.where((np.asarray(a) < 0) != (np.asarray(b) < 0), -q, q)
    return np.trunc(np.true_divide(a, b))


def _floor_div(a, b):
    if np.asarray(a).dtype.kind in "biu" and np.asarray(b).dtype.kind in "biu":
        return np.floor_divide(a, b)
    return np.floor(np.true_divide(a, b))


# -- the table entries ---------------------------------------------------------------------------

@dataclass
class OpInfo:
    """One operator's declaration (see the module docstring)."""

    name: str
    samples: Callable                   # Maker -> [Sample]
    ref: Callable = None                # NumPy reference of the forward (None: random op)
    dtypes: tuple = REAL                # dtypes torch computes this op in
    result: Callable = SAME             # rule for the result dtype
    operands: tuple = (0,)              # positions / keyword names taking part in promotion
    form: str = "function"              # "function": ember.<name>(...); "method": x.<name>(...)
    call: Callable = None               # (module, *args, **kwargs) -> result, when not the name
    torch_call: Callable = None         # the same under real torch, when it differs
    method_call: Callable = None        # Tensor-method form, when it differs from (x, *rest)
    grad: object = True                 # True: floating results are checked by finite
    #                                     differences, others must not require grad;
    #                                     False: no graph at all; "raises": backward errors
    gradgrad: bool = False              # check double backward too
    inplace: bool = False               # Tensor.<name>_ exists and must agree
    inplace_refuses: tuple = ()         # input dtypes whose Tensor.<name>_ torch refuses
    #                                     (RuntimeError) though the result would fit
    out: bool = False                   # out= is accepted ("copy_": written as Tensor.copy_
    #                                     writes, without resizing or a dtype check;
    #                                     "own_dtype": out='s dtype is the result's;
    #                                     "casts": the input is cast to out's dtype first)
    out_error: type = RuntimeError      # what an out= of too narrow a dtype raises
    view: object = None                 # True: shares storage; False: a copy; "contiguous":
    #                                     a view exactly when the input is contiguous
    noncontig: object = True            # False + reason in `notes`: layout-dependent op
    upcast: bool = True                 # reference gets floating inputs as float64
    tol: dict = field(default_factory=dict)   # dtype -> (rtol, atol) overrides
    fd: dict = field(default_factory=dict)    # finite differences: eps, rtol, atol
    supports: Callable = None           # (operands, kwargs) -> bool, when not
    #                                     decided by the promoted dtype being in `dtypes`
    mutates: bool = False               # writes into its first argument and returns it
    returns_input: bool = False         # returns its first argument itself
    check: Callable = None              # extra property check (result, args, kwargs)
    random: bool = False                # sampled values: only properties are checked
    needs_cuda: bool = False
    xfail: dict = field(default_factory=dict)  # "check" or "check:dtype" -> "bug: ..."
    notes: str = ""

    def operand_values(self, args, kwargs):
        values = []
        for key in self.operands:
            if isinstance(key, int):
                if key < len(args):
                    values.append(args[key])
            elif key in kwargs:
                values.append(kwargs[key])
        flat = []
        for v in values:
            flat.extend(v if isinstance(v, (list, tuple)) else [v])
        return [v for v in flat if v is None or isinstance(v, (np.ndarray, bool, int, float,
                                                                complex))]

    def result_dtype(self, args, kwargs):
        return self.result(self.operand_values(args, kwargs), args, kwargs)

    def is_supported(self, args, kwargs):
        ops = [v for v in self.operand_values(args, kwargs) if v is not None]
        if self.supports is not None:
            return self.supports(ops, kwargs)
        return not ops or result_type(ops) in self.dtypes

    def run(self, module, args, kwargs, method=False):
        """Call the op under `module` (ember or torch) on already converted arguments."""
        if method and self.method_call is not None:
            return self.method_call(*args, **kwargs)
        if self.call is not None and not (module.__name__ == "torch" and self.torch_call):
            return self.call(module, *args, **kwargs)
        if self.torch_call is not None and module.__name__ == "torch":
            return self.torch_call(module, *args, **kwargs)
        if self.form == "method" or method:
            return getattr(args[0], self.name)(*args[1:], **kwargs)
        return lookup(module, self.name)(*args, **kwargs)


def lookup(module, name):
    """`module.<name>`, where a dotted name reaches into a submodule ('linalg.inv')."""
    obj = module
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


SUBMODULES = ("fft", "linalg", "special")  # public functions are entries as 'linalg.<fn>'

TABLE = {}


def op(name, **kwargs):
    TABLE[name] = OpInfo(name, **kwargs)
    return TABLE[name]


def alias(name, of, **overrides):
    """`name` is torch's alias of `of`: the same declaration under its own name."""
    TABLE[name] = replace(TABLE[of], name=name, call=None, **overrides)
    return TABLE[name]


# -- sample makers shared by families --------------------------------------------------------

SHAPES = [(3, 4), (5,), (), (0, 3), (2, 3, 2)]
PAIRS = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (3, 4)), ((2, 3), ()), ((), (2, 3)),
         ((0, 3), (1, 3)), ((2, 1, 3), (4, 1))]


def unary(low=-3.0, high=3.0, avoid=(), specials=False, extra=None, **kwargs):
    """Samples of one tensor over SHAPES (0-dim and empty included)."""
    def samples(m):
        out = [Sample(m(s, low, high, avoid=avoid), **kwargs) for s in SHAPES]
        if specials and m.kind == "float":
            out.append(Sample(m((4, 5), low, high, specials=specials), **kwargs).no_grad())
        if extra:
            out += extra(m)
        return out
    samples.domain = ((low, high, avoid),)
    return samples


def binary(a=(-3.0, 3.0), b=(-3.0, 3.0), avoid_b=(), scalars=(2, 0.5), mixed=True,
           specials=False, extra=None, **kwargs):
    """Samples of two operands: broadcasting pairs, Python numbers, and mixed dtypes."""
    def samples(m):
        out = [Sample(m(sa, *a), m(sb, *b, avoid=avoid_b), **kwargs) for sa, sb in PAIRS]
        out += [Sample(m((3, 4), *a), s, **kwargs) for s in scalars]
        if mixed:
            out += [Sample(m((3, 4), *a), m.of("float32")((3, 4), *b, avoid=avoid_b), **kwargs),
                    Sample(m((2, 3), *a), m.of("float64")((), *b, avoid=avoid_b), **kwargs),
                    Sample(m((2, 3), *a), m.of("int64")((2, 3), *b, avoid=avoid_b), **kwargs),
                    Sample(m((), *a), m.of("int32")((2, 3), *b, avoid=avoid_b), **kwargs)]
        if specials and m.kind == "float":
            out.append(Sample(m((4, 5), *a, specials=True), m((4, 5), *b, specials=True),
                              **kwargs).no_grad())
        if extra:
            out += extra(m)
        return out
    samples.domain = (a + ((),), b + (avoid_b,))
    return samples


# -- unary: floating math (integers and bools compute in float32) -------------------------------

def _float_unary(name, fn, low=-3.0, high=3.0, avoid=(), dtypes=ALL, gradgrad=True, **kw):
    op(name, samples=unary(low, high, avoid), ref=fl(fn), dtypes=dtypes, result=FLOAT,
       inplace=True, out=True, gradgrad=gradgrad, **kw)


_float_unary("exp", np.exp)
_float_unary("exp2", np.exp2)
_float_unary("expm1", np.expm1)
_float_unary("log", np.log, 0.5, 3.0)
_float_unary("log2", np.log2, 0.5, 3.0)
_float_unary("log10", np.log10, 0.5, 3.0)
_float_unary("log1p", np.log1p, -0.5, 3.0)
_float_unary("sqrt", np.sqrt, 0.5, 3.0)
_float_unary("rsqrt", lambda x: 1 / np.sqrt(x), 0.5, 3.0)
_float_unary("reciprocal", np.reciprocal, avoid=(0,))
_float_unary("sin", np.sin)
_float_unary("cos", np.cos)
_float_unary("tan", np.tan, -1.2, 1.2)
_float_unary("asin", np.arcsin, -0.9, 0.9)
_float_unary("acos", np.arccos, -0.9, 0.9)
_float_unary("atan", np.arctan)
_float_unary("sinh", np.sinh, -2.0, 2.0)
_float_unary("cosh", np.cosh, -2.0, 2.0)
_float_unary("tanh", np.tanh)
_float_unary("asinh", np.arcsinh)
_float_unary("acosh", np.arccosh, 1.2, 3.0)
_float_unary("atanh", np.arctanh, -0.9, 0.9)
_float_unary("sigmoid", _sigmoid)
_float_unary("erf", _erf, -2.0, 2.0, dtypes=REAL)
_float_unary("erfc", _erfc, -2.0, 2.0, dtypes=REAL)
_float_unary("erfinv", _erfinv, -0.9, 0.9, dtypes=REAL)
for _alias, _of in [("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"),
                    ("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh")]:
    alias(_alias, _of)

# -- unary: sign, magnitude, rounding (dtype kept) -----------------------------------------------

op("neg", samples=unary(), ref=np.negative, dtypes=NUMERIC + COMPLEX, inplace=True, out=True)
alias("negative", "neg")
op("abs", samples=unary(avoid=(0,)), ref=np.abs, dtypes=NUMERIC + COMPLEX, result=REAL_PART,
   inplace=True, inplace_refuses=COMPLEX, out=True)
alias("absolute", "abs")
def _sign(x):
    return x.copy() if x.dtype == bool else np.sign(x)


op("sign", samples=unary(), ref=_sign, dtypes=REAL, inplace=True, out=True)


def _sgn(x):
    if x.dtype.kind != "c":
        return _sign(x)
    mag = np.abs(x)
    return np.where(mag == 0, 0, x / np.where(mag == 0, 1, mag))


op("sgn", samples=unary(), ref=_sgn, dtypes=ALL, inplace=True, out=True)
for _name, _fn in [("floor", np.floor), ("ceil", np.ceil), ("trunc", np.trunc)]:
    op(_name, samples=unary(), ref=_fn, dtypes=NUMERIC, inplace=True, out=True)
alias("fix", "trunc")


def _round_samples(m):
    out = unary()(m)
    # halves (round half to even): finite differences would straddle the jumps there
    out.append(Sample(m((4, 5), -3, 3, grid=0.5)).no_grad())
    if m.kind == "float":
        out.append(Sample(m((3, 4), -3, 3), decimals=1))
        out.append(Sample(m((3, 4), -300, 300), decimals=-1))
    return out


def _round(x, decimals=0):
    if decimals == 0 or x.dtype.kind in "biu":
        return np.round(x)
    return np.round(x * 10.0 ** decimals) / 10.0 ** decimals


op("round", samples=_round_samples, ref=_round, dtypes=NUMERIC, inplace=True, out=True,
   tol={"float16": (2e-3, 0.2), "bfloat16": (1.6e-2, 2.0)},
   notes="decimals != 0 is floating only in torch; with decimals the scaled value may round "
         "differently in half precision, hence the loose absolute tolerance there")
op("frac", samples=unary(), ref=lambda x: x - np.trunc(x), dtypes=FLOATS, inplace=True,
   out=True)
op("relu", samples=unary(avoid=(0,)), ref=lambda x: np.maximum(x, 0).astype(x.dtype),
   dtypes=NUMERIC, inplace=True, out=False)


def _square_result(ops, args, kwargs):
    return result_type([ops[0], 2])         # torch computes pow(input, 2)


op("square", samples=unary(), ref=np.square, dtypes=ALL, result=_square_result, inplace=True,
   out=True, gradgrad=True, supports=lambda ops, kwargs: True)
op("positive", samples=unary(), ref=lambda x: x, dtypes=NUMERIC + COMPLEX, returns_input=True,
   view=True)


def _nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    if x.dtype.kind == "c":
        parts = (x.real, x.imag)
        return _nan_to_num(parts[0], nan, posinf, neginf) + 1j * _nan_to_num(
            parts[1], nan, posinf, neginf)
    if x.dtype.kind not in "fV":
        return x
    info = ml_dtypes.finfo(x.dtype) if x.dtype == NP["bfloat16"] else np.finfo(x.dtype)
    y = x.astype(np.float64)
    big = float(info.max)
    y[np.isnan(y)] = nan
    y[np.isposinf(y)] = big if posinf is None else posinf
    y[np.isneginf(y)] = -big if neginf is None else neginf
    return y


def _nan_to_num_samples(m):
    out = unary(specials=True)(m)
    if m.kind == "float":
        out.append(Sample(m((4, 5), specials=True), nan=1.5, posinf=9.0, neginf=-9.0).no_grad())
        out.append(Sample(m((4, 5), specials=True), 2.0).no_grad())
    return out


op("nan_to_num", samples=_nan_to_num_samples, ref=_nan_to_num, dtypes=ALL, upcast=False,
   inplace=True, out=True)

# -- unary: predicates and bitwise NOT (no gradient) -----------------------------------------------

for _name, _fn, _dtypes in [("isnan", np.isnan, ALL), ("isinf", np.isinf, ALL),
                            ("isfinite", np.isfinite, ALL), ("isposinf", np.isposinf, REAL),
                            ("isneginf", np.isneginf, REAL), ("signbit", np.signbit, REAL)]:
    # NaN's sign bit is not portable between conversions: signbit gets no NaN
    op(_name, samples=unary(specials="no-nan" if _name == "signbit" else True), ref=fl(_fn),
       dtypes=_dtypes, result=BOOL_RESULT,
       grad=False, out=_name in ("isposinf", "isneginf", "signbit"))
op("logical_not", samples=unary(specials=True), ref=np.logical_not, dtypes=ALL,
   result=BOOL_RESULT, grad=False, inplace=True, out=True)
op("bitwise_not", samples=unary(), ref=lambda x: np.logical_not(x) if x.dtype == bool
   else np.invert(x), dtypes=BOOL + INTS, grad=False, inplace=True, out=True)

# -- complex parts -------------------------------------------------------------------------------

op("conj", samples=unary(), ref=np.conj, dtypes=ALL,
   view=True, notes="a real tensor's conj is the tensor itself")
op("conj_physical", samples=unary(), ref=np.conj, dtypes=ALL, inplace=True, out=True,
   notes="a real input comes back as itself, a complex one as a copy")
op("resolve_conj", samples=unary(), ref=lambda x: x, dtypes=ALL, returns_input=True)
op("resolve_neg", samples=unary(), ref=lambda x: x, dtypes=ALL, returns_input=True)
op("real", samples=unary(), ref=np.real, dtypes=ALL, result=REAL_PART, view=True)
op("imag", samples=unary(), ref=np.imag, dtypes=COMPLEX, result=REAL_PART, view=True,
   notes="torch refuses real tensors")

# -- binary arithmetic ------------------------------------------------------------------------


def names_of(ops):
    return [dtype_name(v.dtype) if isinstance(v, np.ndarray) else _number_dtype(v) for v in ops]


def _no_bool(ops, kwargs):
    """Subtraction refuses bool operands outright, whatever the promoted dtype."""
    return "bool" not in names_of(ops) and result_type(ops) in NUMERIC + COMPLEX


def _add(a, b, alpha=1):
    return np.add(a, np.multiply(b, alpha) if alpha != 1 else b)


def _sub(a, b, alpha=1):
    return np.subtract(a, np.multiply(b, alpha) if alpha != 1 else b)


def _alpha(m):
    if m.kind != "float":
        return [Sample(m((3, 4)), m((3, 4)), alpha=2)] if m.kind == "int" else []
    return [Sample(m((3, 4)), m((1, 4)), alpha=2), Sample(m((3, 4)), m((3, 4)), alpha=0.5)]


op("add", samples=binary(scalars=(2, 0.5, True), extra=_alpha), ref=_add, dtypes=ALL,
   operands=(0, 1), inplace=True, out=True, gradgrad=True)
op("sub", samples=binary(extra=_alpha), ref=_sub, dtypes=NUMERIC + COMPLEX, operands=(0, 1),
   inplace=True, out=True, supports=_no_bool)
alias("subtract", "sub")
op("rsub", samples=binary(extra=_alpha), ref=lambda a, b, alpha=1: _sub(b, a, alpha),
   dtypes=NUMERIC + COMPLEX, operands=(0, 1), supports=_no_bool)
op("mul", samples=binary(scalars=(2, 0.5, True)), ref=np.multiply, dtypes=ALL,
   operands=(0, 1), inplace=True, out=True, gradgrad=True)
alias("multiply", "mul")


def _div(a, b, rounding_mode=None):
    if rounding_mode == "trunc":
        return _trunc_div(a, b)
    if rounding_mode == "floor":
        return _floor_div(a, b)
    return np.true_divide(as_float(a), as_float(b))


def _div_result(ops, args, kwargs):
    if kwargs.get("rounding_mode") is not None:
        return result_type(ops)
    return to_float(result_type(ops))


def _div_modes(m):
    a, b = m((3, 4), -6, 6), m((3, 4), -3, 3, avoid=(0,))
    return [Sample(a, b, rounding_mode="trunc"), Sample(a, b, rounding_mode="floor"),
            Sample(m((2, 1)), m((1, 3), avoid=(0,)), rounding_mode="floor"),
            Sample(m((3, 4), -6, 6), 2, rounding_mode="trunc"),
            Sample(m((3, 4), -6, 6), 2, rounding_mode="floor"),
            Sample(m(()), m((), avoid=(0,)), rounding_mode="trunc")]


def _div_supports(ops, kwargs):
    """True division takes every dtype; rounded division neither bool nor complex."""
    dtype = result_type(ops)
    return dtype in (ALL if kwargs.get("rounding_mode") is None else NUMERIC)


op("div", samples=binary(avoid_b=(0,), scalars=(2, 0.5), extra=_div_modes), ref=_div,
   dtypes=ALL, result=_div_result, operands=(0, 1), inplace=True, out=True, gradgrad=True,
   supports=_div_supports)
alias("divide", "div")
op("true_divide", samples=binary(avoid_b=(0,), scalars=(2, 0.5)), ref=_div, dtypes=ALL,
   result=FLOAT, operands=(0, 1), inplace=True, out=True)
op("floor_divide", samples=binary(a=(-6.0, 6.0), avoid_b=(0,), scalars=(2, 1.5)),
   ref=_floor_div, dtypes=NUMERIC, operands=(0, 1), inplace=True, out=True, grad="raises")


def _scalar_first(m):
    # (torch's remainder(Number self, Tensor other) has no out= and no in-place form)
    return [Sample(2.5, m((3, 4), avoid=(0,))).no_grad().only_forward(),
            Sample(3, m((2, 3), avoid=(0,))).no_grad().only_forward()]


op("remainder", samples=binary(a=(-6.0, 6.0), avoid_b=(0,), scalars=(2, 1.5),
                               extra=_scalar_first),
   ref=np.remainder, dtypes=NUMERIC, operands=(0, 1), inplace=True, out=True)
op("fmod", samples=binary(a=(-6.0, 6.0), avoid_b=(0,), scalars=(2, 1.5)), ref=np.fmod,
   dtypes=NUMERIC, operands=(0, 1), inplace=True, out=True)


def _pow(a, b):
    a_int = np.asarray(a).dtype.kind in "biu" or isinstance(a, int)
    b_int = np.asarray(b).dtype.kind in "biu" or isinstance(b, int)
    if a_int and b_int:
        a, b = np.asarray(a).astype(np.int64), np.asarray(b).astype(np.int64)
        at_neg = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
        return np.where(b < 0, at_neg, np.power(a, np.maximum(b, 0)))
    return np.power(as_float(a), as_float(b))


def _pow_extra(m):
    out = [Sample(2.0, m((3, 4), -2, 2)), Sample(2, m((2, 3), 0, 3)),
           Sample(m((3, 4), 0.5, 2.5), 0), Sample(m((3, 4), 0.5, 2.5), 3)]
    if m.kind in ("float", "complex"):
        out += [Sample(m((3, 4), 0.5, 2.5), -1), Sample(m((3, 4), 0.5, 2.5), -0.5)]
    return out


op("pow", samples=binary(a=(0.5, 2.5), b=(-2.0, 2.0), scalars=(2, 0.5), extra=_pow_extra),
   ref=_pow, dtypes=NUMERIC + COMPLEX, operands=(0, 1), inplace=True, out=True, gradgrad=True)
def _logaddexp(a, b):
    """max + log1p(exp(min - max)), ordered by real part as torch computes it (so complex
    results keep torch's branch of the logarithm)."""
    if np.iscomplexobj(a) or np.iscomplexobj(b):
        a, b = np.broadcast_arrays(a, b)
        first = a.real >= b.real
        high, low = np.where(first, a, b), np.where(first, b, a)
        return high + np.log1p(np.exp(low - high))
    return np.logaddexp(a, b)


op("atan2", samples=binary(avoid_b=(0,), scalars=()), ref=fl(np.arctan2), dtypes=REAL, result=FLOAT,
   operands=(0, 1), inplace=True, out=True)
alias("arctan2", "atan2")
op("hypot", samples=binary(avoid_b=(0,), scalars=()), ref=np.hypot, dtypes=FLOATS, operands=(0, 1),
   inplace=True, out=True)
op("logaddexp", samples=binary(scalars=()), ref=_logaddexp,
   dtypes=FLOATS + COMPLEX, operands=(0, 1), out=True)
op("logaddexp2", samples=binary(scalars=()), ref=np.logaddexp2, dtypes=FLOATS, operands=(0, 1),
   out=True)


def _lerp_samples(m):
    return [Sample(m((3, 4)), m((3, 4)), 0.3), Sample(m((3, 1)), m((1, 4)), 0.75),
            Sample(m((3, 4)), m((3, 4)), m((3, 4), 0, 1)),
            Sample(m((3, 4)), m((4,)), m((3, 1), 0, 1)), Sample(m(()), m(()), 0.5),
            Sample(m((0, 3)), m((0, 3)), 0.5)]


op("lerp", samples=_lerp_samples, ref=lambda a, b, w: a + w * (b - a), dtypes=FLOATS + COMPLEX,
   operands=(0, 1), inplace=True, out=True,
   supports=lambda ops, kwargs: len(set(names_of(ops))) == 1 and names_of(ops)[0] in
   FLOATS + COMPLEX,
   notes="no promotion: torch refuses start, end (and weight) of different dtypes")

# -- comparisons, selection ------------------------------------------------------------------


def _ties(m):
    a = m((3, 4))
    b = m((3, 4))
    b.flat[::2] = a.flat[::2]
    return [Sample(a, b), Sample(m((3, 4)), 1)]


for _name, _fn, _dtypes in [("eq", np.equal, ALL), ("ne", np.not_equal, ALL),
                            ("lt", np.less, REAL), ("le", np.less_equal, REAL),
                            ("gt", np.greater, REAL), ("ge", np.greater_equal, REAL)]:
    op(_name, samples=binary(scalars=(0.5, 1), specials=True, extra=_ties), ref=_fn,
       dtypes=_dtypes, result=BOOL_RESULT, operands=(0, 1), grad=False, inplace=True, out=True)
for _alias, _of in [("not_equal", "ne"), ("less", "lt"), ("less_equal", "le"),
                    ("greater", "gt"), ("greater_equal", "ge")]:
    alias(_alias, _of)
for _name, _fn in [("logical_and", np.logical_and), ("logical_or", np.logical_or),
                   ("logical_xor", np.logical_xor)]:
    op(_name, samples=binary(scalars=()), ref=_fn, dtypes=ALL, result=BOOL_RESULT,
       operands=(0, 1), grad=False, inplace=True, out=True)
for _name, _fn in [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                   ("bitwise_xor", np.bitwise_xor)]:
    op(_name, samples=binary(a=(-8, 8), b=(-8, 8), scalars=(3, True)), ref=_fn,
       dtypes=BOOL + INTS, operands=(0, 1), grad=False, inplace=True, out=True)
for _name, _fn in [("bitwise_left_shift", np.left_shift),
                   ("bitwise_right_shift", np.right_shift)]:
    op(_name, samples=binary(a=(-8, 8), b=(0, 3), scalars=(2,)), ref=_fn, dtypes=INTS,
       operands=(0, 1), grad=False, inplace=True, out=True)

def _tied(m):
    """Equal elements: no derivative there, but torch's choice of subgradient is compared
    by the oracle (maximum shares it, fmax gives it to the first operand)."""
    a = m((3, 4))
    b = m((3, 4))
    b.flat[::2] = a.flat[::2]
    return [Sample(a, b).no_grad()]


for _name, _fn in [("maximum", np.maximum), ("minimum", np.minimum), ("fmax", np.fmax),
                   ("fmin", np.fmin)]:
    op(_name, samples=binary(scalars=(), specials=True, extra=_tied), ref=_fn, dtypes=REAL,
       operands=(0, 1), out=True)


def _clamp(x, min=None, max=None):
    def wrap(bound):
        # torch casts an integer bound to an integer tensor's dtype (wrapping around)
        if isinstance(bound, int) and x.dtype.kind in "iu":
            return np.array(bound).astype(x.dtype)
        return bound
    min, max = wrap(min), wrap(max)
    if min is not None:
        x = np.maximum(x, min)
    if max is not None:
        x = np.minimum(x, max)
    return x


def _clamp_samples(m):
    lo, hi = (lambda s: m(s, -3, 0)), (lambda s: m(s, 0, 3))
    return [Sample(m((3, 4)), -1, 1), Sample(m((3, 4)), min=-1), Sample(m((3, 4)), max=1.5),
            Sample(m((3, 4)), lo((3, 4)), hi((3, 4))), Sample(m((3, 4)), lo((1, 4)), hi((3, 1))),
            Sample(m((3, 4)), lo((4,))), Sample(m((3, 4)), None, hi(())),
            Sample(m(()), -1, 1), Sample(m((0, 3)), -1, 1), Sample(m((3, 4)), 1, -1)]


def _clamp_supports(ops, kwargs):
    """Numeric dtypes; bool only with a single bound that is a bool tensor (torch's
    clamp_min/clamp_max tensor kernels take bool, its other clamp kernels do not)."""
    dtype = result_type(ops)
    return dtype in NUMERIC or (dtype == "bool" and len(ops) == 2 and
                                isinstance(ops[1], np.ndarray))


op("clamp", samples=_clamp_samples, ref=_clamp, dtypes=NUMERIC, operands=(0, 1, 2, "min", "max"),
   inplace=True, out=True, supports=_clamp_supports)
alias("clip", "clamp")
op("clamp_min", samples=lambda m: [Sample(m((3, 4)), -1), Sample(m((3, 4)), m((1, 4), -3, 0)),
                                   Sample(m(()), 0.5)],
   ref=lambda x, min: _clamp(x, min=min), dtypes=NUMERIC, operands=(0, 1), inplace=True,
   out=True, supports=_clamp_supports)
op("clamp_max", samples=lambda m: [Sample(m((3, 4)), 1), Sample(m((3, 4)), m((3, 1), 0, 3)),
                                   Sample(m(()), 0.5)],
   ref=lambda x, max: _clamp(x, max=max), dtypes=NUMERIC, operands=(0, 1), inplace=True,
   out=True, supports=_clamp_supports)


def _where_samples(m):
    rng = m.rng
    cond = (lambda s: np.asarray(rng.random(s) < 0.5))
    return [Sample(cond((3, 4)), m((3, 4)), m((3, 4))),
            Sample(cond((3, 1)), m((1, 4)), m((3, 4))),
            Sample(cond((3, 4)), m((3, 4)), 0.0 if m.kind != "int" else 0),
            Sample(cond(()), m(()), m((2,))), Sample(cond((0, 3)), m((0, 3)), m((0, 3))),
            Sample(cond((2, 3)), m((2, 3)), m.of("float64")(())),
            Sample(cond((3, 4))).only_forward()]


def _where(cond, x=None, y=None):
    if x is None and y is None:
        return tuple(np.nonzero(cond))
    return np.where(cond, x, y)


def _where_result(ops, args, kwargs):
    if len(args) == 1:
        return ("int64",) * max(args[0].ndim, 1)
    return result_type(ops)


SKIP = object()       # a method_call's answer when the sample has no method form
op("where", samples=_where_samples, ref=_where, dtypes=ALL, result=_where_result,
   operands=(1, 2), out=True,
   method_call=lambda cond, x=None, y=None: SKIP if x is None else x.where(cond, y),
   notes="where(cond) with one argument is nonzero(cond, as_tuple=True)")


def _close_samples(m):
    a = m((4, 5))
    if m.kind in ("float", "complex"):
        scale = m.rng.choice([0.0, 1e-7, 1e-2], size=a.shape)
        with np.errstate(all="ignore"):
            b = (as_float(a) * (1 + scale)).astype(a.dtype)
        out = [Sample(a, b), Sample(a, b, rtol=0.1, atol=0.0), Sample(a, b, 0.0, 0.5)]
        if m.kind == "float":
            c = m((4, 5), specials=True)
            out += [Sample(c, c.copy()), Sample(c, c.copy(), equal_nan=True)]
        return out
    b = a.copy()
    b.flat[::3] = m((a.size,)).flat[::3]
    return [Sample(a, b), Sample(m((3, 1)), m((1, 4))), Sample(a, b, atol=1.0)]


def _same_dtypes(ops, kwargs):
    return len(set(names_of(ops))) == 1


op("isclose", samples=_close_samples, ref=np.isclose, dtypes=ALL, result=BOOL_RESULT,
   operands=(0, 1), grad=False, supports=_same_dtypes, upcast=False)
op("allclose", samples=_close_samples, ref=lambda *a, **k: bool(np.allclose(*a, **k)),
   dtypes=ALL, result=NOT_A_TENSOR, operands=(0, 1), grad=False, supports=_same_dtypes,
   upcast=False)


def _equal_samples(m):
    a = m((3, 4))
    b = a.copy()
    b.flat[5] = m((1,), 5, 6)[0] if m.kind != "bool" else not b.flat[5]
    return [Sample(a, a.copy()), Sample(a, b), Sample(a, a[:2].copy()), Sample(m(()), m(()))]


op("equal", samples=_equal_samples,
   ref=lambda a, b: a.shape == b.shape and bool(np.all(a == b)), dtypes=ALL,
   result=NOT_A_TENSOR, operands=(0, 1), grad=False)

# -- reductions -------------------------------------------------------------------------------


def _in_dtype(x, dtype):
    """The input converted to the `dtype` argument first, as torch does (complex to real drops
    the imaginary part)."""
    if dtype is not None and x.dtype.kind == "c" and category(dtype.name) < 3:
        return x.real
    return x


def _sum(x, dim=None, keepdim=False, dtype=None):
    x = _in_dtype(x, dtype)
    return np.sum(as_float(x) if x.dtype.kind in "fc" else x.astype(np.int64), axis=_axis(x, dim),
                  keepdims=keepdim)


def _reduce_samples(m, low=-3.0, high=3.0, dtype_arg=None, multi_dim=True, out_needs_dim=False):
    def r(s):
        return m(s, low, high)
    out = [Sample(r((3, 4))), Sample(r((3, 4)), 1), Sample(r((3, 4)), -1, True),
           Sample(r((2, 3, 2)), 0), Sample(r(())), Sample(r(()), 0),
           Sample(r((0, 3))), Sample(r((0, 3)), 0), Sample(r((3, 4)), dim=0, keepdim=True)]
    if multi_dim:
        out += [Sample(r((2, 3, 2)), (0, 2), True), Sample(r((2, 3, 2)), [-1, 1])]
    if dtype_arg:
        out.append(Sample(r((3, 4)), dtype=D(dtype_arg)))
    if out_needs_dim:       # (torch's overload without dim takes no out=)
        for s in out:
            if len(s.args) == 1 and "dim" not in s.kwargs:
                s.no_out()
    return out


op("sum", samples=lambda m: _reduce_samples(m, dtype_arg="float64", out_needs_dim=True),
   ref=_sum, dtypes=ALL,
   result=ACCUMULATE, out="casts", gradgrad=True,
   notes="out= only with a dim (torch's sum.IntList_out)")


def _mean(x, dim=None, keepdim=False, dtype=None):
    with np.errstate(all="ignore"):
        return np.mean(x, axis=_axis(x, dim), keepdims=keepdim)


op("mean", samples=lambda m: _reduce_samples(m), ref=_mean, dtypes=FLOATS + COMPLEX, out=True)


def _prod(x, dim=None, keepdim=False, dtype=None):
    x = _in_dtype(x, dtype)
    x = as_float(x) if x.dtype.kind in "fc" else x.astype(np.int64)
    return np.prod(x, axis=_axis(x, dim), keepdims=keepdim)


def _prod_samples(m):
    out = _reduce_samples(m, -2.0, 2.0, dtype_arg="float64", multi_dim=False,
                          out_needs_dim=True)
    if m.kind == "float":
        one_zero = m((3, 4), -2, 2)
        one_zero[1, 2] = 0
        two_zeros = m((3, 4), -2, 2)
        two_zeros[0, 1] = two_zeros[2, 1] = 0
        out += [Sample(one_zero).no_out(), Sample(one_zero, 0), Sample(two_zeros).no_out(),
                Sample(two_zeros, 0)]
    return out


op("prod", samples=_prod_samples, ref=_prod, dtypes=ALL, result=ACCUMULATE, out="casts",
   gradgrad=True)


def _extreme_result(ops, args, kwargs):
    if len(args) > 1 and isinstance(args[1], np.ndarray):
        return result_type([args[0], args[1]])
    if len(args) > 1 or "dim" in kwargs:
        return (result_type(ops), "int64")
    return result_type(ops)


def _extreme(fn, arg):
    def ref(x, dim=None, keepdim=False, other=None):
        if isinstance(dim, np.ndarray):
            return (np.maximum if fn is np.max else np.minimum)(x, dim)
        if dim is None:
            return fn(x)
        axis = _axis(x, dim)
        return fn(x, axis=axis, keepdims=keepdim), np.asarray(
            arg(x, axis=axis, keepdims=keepdim) if x.ndim else np.asarray(0))
    return ref


def _extreme_samples(m):
    def d(s):
        return m(s, distinct=True)
    return [Sample(d((3, 4))), Sample(d((3, 4)), 1), Sample(d((3, 4)), 0, True),
            Sample(d((2, 3, 2)), -1), Sample(d(())), Sample(d(()), 0),
            Sample(d((0, 3)), 1), Sample(d((3, 4)), d((3, 4))), Sample(d((3, 4)), dim=1)]


op("max", samples=_extreme_samples, ref=_extreme(np.max, np.argmax), dtypes=REAL,
   result=_extreme_result, operands=(0,), out=True,
   notes="max(x), max(x, dim) -> (values, indices), max(x, other) -> maximum")
op("min", samples=_extreme_samples, ref=_extreme(np.min, np.argmin), dtypes=REAL,
   result=_extreme_result, operands=(0,), out=True)


def _amax(fn):
    def ref(x, dim=(), keepdim=False):
        return fn(x, axis=_axis(x, dim if dim != () else None), keepdims=keepdim)
    return ref


def _amax_samples(m):
    def d(s):
        return m(s, distinct=True)
    return [Sample(d((3, 4))), Sample(d((3, 4)), 1), Sample(d((2, 3, 2)), (0, 2), True),
            Sample(d(())), Sample(d((3, 4)), -1, keepdim=True), Sample(d((0, 3)), 1)]


op("amax", samples=_amax_samples, ref=_amax(np.max), dtypes=REAL, out=True)
op("amin", samples=_amax_samples, ref=_amax(np.min), dtypes=REAL, out=True)


def _arg(fn):
    def ref(x, dim=None, keepdim=False):
        if dim is None:
            r = np.asarray(fn(x))
            return r.reshape((1,) * x.ndim) if keepdim else r
        return fn(x, axis=_axis(x, dim), keepdims=keepdim) if x.ndim else np.asarray(0)
    return ref


def _arg_samples(m):
    def d(s):
        return m(s, distinct=True)
    return [Sample(d((3, 4))), Sample(d((3, 4)), 1), Sample(d((3, 4)), 0, True),
            Sample(d(())), Sample(d((2, 3, 2)), -1), Sample(d((3, 4)), None, True)]


op("argmax", samples=_arg_samples, ref=_arg(np.argmax), dtypes=NUMERIC, result=INT64,
   grad=False, out=True)
op("argmin", samples=_arg_samples, ref=_arg(np.argmin), dtypes=NUMERIC, result=INT64,
   grad=False, out=True)

def _truth(fn):
    def ref(x, dim=None, keepdim=False):
        r = fn(x != 0, axis=_axis(x, dim), keepdims=keepdim)
        return np.asarray(r)
    return ref


def _truth_result(ops, args, kwargs):
    return "uint8" if dtype_name(args[0].dtype) == "uint8" else "bool"


def _truth_samples(m):
    x = m((3, 4), -1, 1)
    return [Sample(x), Sample(x, 1), Sample(x, -1, True), Sample(m((2, 3, 2), -1, 1), (0, 2)),
            Sample(m(())), Sample(m((0, 3))), Sample(m((0, 3)), 1), Sample(m((3, 4), 1, 3))]


for _name, _fn in [("all", np.all), ("any", np.any)]:
    op(_name, samples=_truth_samples, ref=_truth(_fn), dtypes=ALL, result=_truth_result,
       grad=False, out=True, notes="uint8 inputs give uint8 (torch's legacy rule)")


def _nonzero(x, as_tuple=False):
    if x.ndim == 0:
        found = int(x != 0)
        return (np.zeros(found, np.int64),) if as_tuple else np.zeros((found, 0), np.int64)
    return tuple(np.nonzero(x)) if as_tuple else np.argwhere(x)


def _nonzero_result(ops, args, kwargs):
    if kwargs.get("as_tuple"):
        return ("int64",) * max(args[0].ndim, 1)
    return "int64"


def _nonzero_samples(m):
    # as_tuple=True has no out= form (torch refuses it), hence only_forward()
    return [Sample(m((3, 4), -1, 1)), Sample(m((2, 3, 2), -1, 1)), Sample(m((5,), -1, 1)),
            Sample(m(())), Sample(m((0, 3))),
            Sample(m((3, 4), -1, 1), as_tuple=True).only_forward(),
            Sample(m((), 1, 2), as_tuple=True).only_forward(),
            Sample(m((4,), 1, 2), as_tuple=True).only_forward()]


op("nonzero", samples=_nonzero_samples, ref=_nonzero, dtypes=ALL, result=_nonzero_result,
   grad=False, out=True)
op("argwhere", samples=lambda m: _nonzero_samples(m)[:5], ref=_nonzero, dtypes=ALL,
   result=INT64, grad=False)

# -- matrix products ----------------------------------------------------------------------------

MATMUL_PAIRS = [((3,), (3,)), ((2, 3), (3, 4)), ((2, 3), (3,)), ((3,), (3, 4)),
                ((2, 2, 3), (3, 4)), ((2, 1, 2, 3), (3, 3, 2)), ((3,), (2, 3, 4)),
                ((2, 3, 4), (4,)), ((0, 3), (3, 2)), ((2, 0), (0, 3))]


def _pairs(pairs):
    def samples(m):
        return [Sample(m(a, -2, 2), m(b, -2, 2)) for a, b in pairs]
    return samples


def _matmul(a, b):
    if a.dtype.kind in "biu":
        return np.matmul(a.astype(np.int64), b.astype(np.int64))
    return np.matmul(a, b)


def _one_dtype(ops, kwargs):
    """No promotion: both operands must have the same dtype."""
    names = names_of(ops)
    return len(set(names)) == 1 and names[0] in NUMERIC + COMPLEX


_LINALG = dict(dtypes=NUMERIC + COMPLEX, operands=(0, 1), out=True, gradgrad=True,
               supports=_one_dtype, tol={"float16": (5e-3, 1e-2), "bfloat16": (2e-2, 5e-2)})
op("matmul", samples=_pairs(MATMUL_PAIRS), ref=_matmul, **_LINALG)
op("mm", samples=_pairs([((2, 3), (3, 4)), ((1, 1), (1, 1)), ((0, 2), (2, 3)),
                         ((2, 0), (0, 3))]), ref=_matmul, **_LINALG)
op("bmm", samples=_pairs([((2, 2, 3), (2, 3, 4)), ((1, 3, 1), (1, 1, 2)),
                          ((0, 2, 3), (0, 3, 1))]), ref=_matmul, **_LINALG)
op("mv", samples=_pairs([((2, 3), (3,)), ((0, 3), (3,)), ((2, 0), (0,))]), ref=_matmul,
   **_LINALG)
op("dot", samples=_pairs([((3,), (3,)), ((1,), (1,)), ((0,), (0,))]), ref=_matmul, **_LINALG)
alias("spmm", "mm")     # torch.spmm: mm under its old sparse name (a function only)

# -- joining ---------------------------------------------------------------------------------


def _cat(tensors, dim=0):
    kept = [t for t in tensors if not (t.ndim == 1 and t.shape[0] == 0)] or list(tensors[:1])
    return np.concatenate(kept, axis=dim)


def _cat_samples(m):
    return [Sample([m((2, 3)), m((1, 3))]), Sample([m((2, 3)), m((2, 2))], 1),
            Sample([m((2, 1, 3)), m((2, 2, 3)), m((2, 3, 3))], -2),
            Sample([m((2, 3)), m((0,))]), Sample([m((0, 3)), m((2, 3))], 0),
            Sample([m((4,))]), Sample([m((2, 3)), m.of("float64")((1, 3))])]


op("cat", samples=_cat_samples, ref=_cat, dtypes=ALL, out=True, out_error=TypeError)
alias("concat", "cat")
alias("concatenate", "cat")


def _stack_samples(m):
    return [Sample([m((2, 3)), m((2, 3))]), Sample([m((2, 3)), m((2, 3)), m((2, 3))], 1),
            Sample([m((2, 3)), m((2, 3))], -1), Sample([m(()), m(())]),
            Sample([m((0, 2)), m((0, 2))], 1), Sample([m((3,)), m.of("float64")((3,))])]


op("stack", samples=_stack_samples, ref=lambda tensors, dim=0: np.stack(tensors, axis=dim),
   dtypes=ALL, out=True, out_error=TypeError)     # (torch.cat's TypeError)

# -- views and copies (every dtype; the result keeps the input's) -------------------------------


def _shape_arg(shape):
    """view(2, 3) and view((2, 3)) alike."""
    return tuple(shape[0]) if len(shape) == 1 and not isinstance(shape[0], int) else shape


def _infer(shape, numel):
    shape = list(shape)
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1]))
        shape[shape.index(-1)] = numel // known if known else 0
    return tuple(shape)


def _flatten(x, start_dim=0, end_dim=-1):
    if x.ndim == 0:
        return x.reshape(1)
    s, e = start_dim % x.ndim, end_dim % x.ndim
    return x.reshape(x.shape[:s] + (-1,) + x.shape[e + 1:]) if x.size else \
        x.reshape(x.shape[:s] + (int(np.prod(x.shape[s:e + 1])),) + x.shape[e + 1:])


def _unflatten(x, dim, sizes):
    d = dim % x.ndim
    return x.reshape(x.shape[:d] + _infer(sizes, x.shape[d]) + x.shape[d + 1:])


def _squeeze(x, dim=None):
    if dim is None:
        return np.squeeze(x)
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    dims = tuple(d % max(x.ndim, 1) for d in dims if x.ndim and x.shape[d] == 1)
    return np.squeeze(x, axis=dims) if dims else x


def _narrow(x, dim, start, length):
    d = dim % x.ndim
    start = start % x.shape[d] if start < 0 else start
    return np.take(x, np.arange(start, start + length), axis=d)


def _as_strided(x, size, stride, storage_offset=0):
    flat = np.ascontiguousarray(x).reshape(-1)[storage_offset:]
    return np.lib.stride_tricks.as_strided(flat, size, [s * flat.itemsize for s in stride])


def _unfold(x, dimension, size, step):
    if x.ndim == 0:
        return x.reshape(1)
    d = dimension % x.ndim
    windows = np.lib.stride_tricks.sliding_window_view(x, size, axis=d)
    return np.take(windows, np.arange(0, windows.shape[d], step), axis=d)


def _split(x, split_size_or_sections, dim=0):
    d = dim % x.ndim
    n = x.shape[d]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        sizes = [size] * (n // size) + ([n % size] if n % size else []) if size else [0]
    else:
        sizes = list(split_size_or_sections)
    bounds = np.cumsum([0] + sizes)
    return tuple(np.take(x, np.arange(a, b), axis=d) for a, b in zip(bounds[:-1], bounds[1:]))


def _chunk(x, chunks, dim=0):
    n = x.shape[dim % x.ndim]
    if n == 0:          # torch keeps the number of chunks when they are all empty
        return _split(x, [0] * chunks, dim)
    return _split(x, -(-n // chunks), dim)


def _expand(x, *sizes):
    sizes = _shape_arg(sizes)
    lead = len(sizes) - x.ndim
    full = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    return np.broadcast_to(x, full)


def _sum_to_size(x, *size):
    size = _shape_arg(size)
    lead = x.ndim - len(size)
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and x.shape[lead + i] != 1)
    return np.sum(x, axis=dims, keepdims=True).reshape(size) if dims else x


def _sum_to_size_result(ops, args, kwargs):
    size = _shape_arg(args[1:])
    name = result_type(ops)
    return name if tuple(size) == args[0].shape else ACCUMULATE(ops, args, {})


def _v(*pairs):
    """Samples from (shape, *args) tuples."""
    def samples(m):
        return [Sample(m(shape), *args) for shape, *args in pairs]
    return samples


_VIEW = dict(dtypes=ALL, view=True)
op("reshape", samples=_v(((3, 4), (2, 6)), ((3, 4), (-1,)), ((2, 3, 2), (3, -1)), ((), (1,)),
                         ((0, 3), (3, 0)), ((5,), (5, 1))),
   ref=lambda x, *shape: x.reshape(_shape_arg(shape)), dtypes=ALL, view="contiguous")
op("view", form="method",
   samples=_v(((3, 4), 2, 6), ((3, 4), (-1,)), ((3, 4), 4, 3), ((), 1), ((2, 3, 2), (6, 2)),
              ((0, 3), (3, 0))),
   ref=lambda x, *shape: x.reshape(_shape_arg(shape)), noncontig=False,
   notes="whether a view exists depends on the strides; see test_view_of_strided", **_VIEW)
op("view_as", form="method", samples=lambda m: [Sample(m((3, 4)), m((2, 6))),
                                                Sample(m(()), m((1, 1)))],
   ref=lambda x, other: x.reshape(other.shape), noncontig=False, **_VIEW)
op("reshape_as", form="method", samples=lambda m: [Sample(m((3, 4)), m((2, 6))),
                                                   Sample(m((2, 3)), m((6,)))],
   ref=lambda x, other: x.reshape(other.shape), dtypes=ALL, view="contiguous")
op("flatten", samples=_v(((2, 3, 2),), ((2, 3, 2), 1), ((2, 3, 2), 0, 1), ((),),
                         ((3, 4), 1, 1), ((0, 3),)),
   ref=_flatten, dtypes=ALL, view="contiguous")
op("ravel", samples=_v(((3, 4),), ((),), ((2, 3, 2),)), ref=np.ravel, dtypes=ALL,
   view="contiguous")
op("unflatten", samples=_v(((3, 4), 1, (2, 2)), ((6,), 0, (2, -1)), ((2, 6, 2), -2, (3, 2))),
   ref=_unflatten, dtypes=ALL, view="contiguous")
op("squeeze", samples=_v(((3, 1, 4, 1),), ((3, 1, 4, 1), 1), ((3, 1, 4, 1), (1, 3)),
                         ((3, 4), 0), ((),), ((1, 1),), ((3, 1, 4, 1), -1)),
   ref=_squeeze, inplace=True, **_VIEW)
op("unsqueeze", samples=_v(((3, 4), 0), ((3, 4), -1), ((), 0), ((3, 4), 1)),
   ref=lambda x, dim: np.expand_dims(x, dim % (x.ndim + 1)), inplace=True, **_VIEW)
op("permute", samples=_v(((2, 3, 4), (2, 0, 1)), ((3, 4), (-1, 0)),
                         ((), ())),
   ref=lambda x, *dims: np.transpose(x, _shape_arg(dims)), **_VIEW)
op("transpose", samples=_v(((2, 3, 4), 0, 2), ((3, 4), -1, -2), ((3, 4), 0, 0), ((5,), 0, -1)),
   ref=lambda x, d0, d1: np.swapaxes(x, d0, d1), inplace=True, **_VIEW)
alias("swapaxes", "transpose")
alias("swapdims", "transpose")
op("t", samples=_v(((3, 4),), ((5,),), ((),)), ref=lambda x: x.T, inplace=True, **_VIEW)
op("adjoint", samples=_v(((3, 4),), ((2, 3, 4),)), ref=lambda x: np.conj(np.swapaxes(x, -1, -2)),
   **_VIEW)
op("movedim", samples=_v(((2, 3, 4), 0, 2), ((2, 3, 4), (0, 1), (2, 0)), ((3, 4), -1, 0)),
   ref=np.moveaxis, **_VIEW)
alias("moveaxis", "movedim")
op("narrow", samples=_v(((5, 4), 0, 1, 3), ((5, 4), -1, 2, 2), ((5, 4), 0, -3, 2),
                        ((5,), 0, 0, 0)),
   ref=_narrow, **_VIEW)
op("select", samples=_v(((3, 4), 1, 2), ((3, 4), 0, -1), ((5,), 0, 3), ((2, 3, 2), -1, 1)),
   ref=lambda x, dim, index: np.take(x, index, axis=dim), **_VIEW)
op("diagonal", samples=_v(((3, 4),), ((3, 4), 1), ((4, 3), -1), ((2, 3, 4), 0, 1, 2),
                          ((3, 4), 0, -1, -2), ((3, 3), 5)),
   ref=lambda x, offset=0, dim1=0, dim2=1: np.diagonal(x, offset, dim1, dim2), **_VIEW)
op("broadcast_to", samples=_v(((3, 1), (2, 3, 4)), ((), (2, 2)), ((4,), (3, 4)), ((3, 1), (-1, 2))),
   ref=_expand, **_VIEW)
op("expand", form="method",
   samples=_v(((3, 1), 3, 4), ((3, 1), (2, 3, 5)), ((3, 1), -1, 4), ((), 2), ((0, 1), 0, 3)),
   ref=_expand, **_VIEW)
op("expand_as", form="method", samples=lambda m: [Sample(m((3, 1)), m((2, 3, 4))),
                                                  Sample(m(()), m((2,)))],
   ref=lambda x, other: np.broadcast_to(x, other.shape), **_VIEW)
op("as_strided", samples=_v(((3, 4), (2, 2), (1, 2)), ((3, 4), (3,), (5,), 1),
                            ((12,), (2, 3, 2), (6, 2, 1)), ((6,), (3, 3), (1, 1)),
                            ((3, 4), (2, 2), (0, 1), 2)),
   ref=_as_strided, noncontig=False, gradgrad=True,
   notes="storage-relative: a strided input's window is a different set of elements",
   **_VIEW)
op("as_strided_", form="method", samples=TABLE["as_strided"].samples, ref=_as_strided,
   dtypes=ALL, mutates=True, noncontig=False,
   notes="in place: with a storage offset the tensor's data_ptr moves, so it has its own entry")
op("unfold", form="method",
   samples=_v(((7,), 0, 3, 2), ((3, 5), 1, 2, 1), ((4, 3), 0, 2, 2), ((), 0, 1, 1)),
   ref=_unfold, gradgrad=True, **_VIEW)
op("chunk", samples=_v(((7, 4), 3), ((7, 4), 2, 1), ((3, 4), 5), ((0, 2), 2)), ref=_chunk,
   **_VIEW)
op("split", samples=_v(((7, 4), 3), ((7, 4), (2, 5)), ((7, 4), 2, 1), ((3, 4), [1, 1, 2], -1),
                       ((4,), 4)),
   ref=_split, **_VIEW)
op("split_with_sizes", samples=_v(((7, 4), (2, 5)), ((3, 4), (1, 3), 1), ((3, 4), (3, 0))),
   ref=_split, **_VIEW)
op("unbind", samples=_v(((3, 4),), ((3, 4), 1), ((2, 3, 2), -1), ((0, 2), 1)),
   ref=lambda x, dim=0: tuple(np.moveaxis(x, dim, 0)), **_VIEW)
op("clone", samples=unary(), ref=lambda x: x.copy(), dtypes=ALL, view=False)
op("contiguous", form="method", samples=unary(), ref=lambda x: x, dtypes=ALL,
   check=lambda result, args, kwargs: result.is_contiguous(),
   notes="the input itself when contiguous (see test_contiguous_returns_self)")
op("sum_to_size", form="method",
   samples=_v(((3, 4), (1, 4)), ((2, 3, 4), (3, 1)), ((3, 4), 3, 1), ((3, 4), (3, 4)),
              ((2, 3), 3)),
   ref=_sum_to_size, dtypes=ALL, result=_sum_to_size_result)

# -- conversions ----------------------------------------------------------------------------

_LEGACY = {"bool": "BoolTensor", "uint8": "ByteTensor", "int8": "CharTensor",
           "int16": "ShortTensor", "int32": "IntTensor", "int64": "LongTensor",
           "float16": "HalfTensor", "bfloat16": "BFloat16Tensor", "float32": "FloatTensor",
           "float64": "DoubleTensor", "complex64": "ComplexFloatTensor",
           "complex128": "ComplexDoubleTensor"}


def _cast(x, name):
    """x converted as torch converts: complex to real drops the imaginary part (bool tests
    both), floats to integers truncate."""
    with np.errstate(all="ignore"):
        if name == "bool":
            return x != 0
        if x.dtype.kind == "c" and category(name) < 3:
            x = x.real
        return x.astype(NP[name] if name != "bfloat16" else np.float64)


def _conversion_samples(low):
    def samples(m):
        out = [Sample(m(s, low, 3.0, grid=0.125)) for s in SHAPES]
        if m.kind == "complex":     # purely imaginary and zero elements
            out.append(Sample(np.array([1j, 0, 2, -0.5j, 1 + 1j], NP[m.dtype])))
        return out
    return samples


# Values on a 1/8 grid and steps of 1/4 keep finite differences exact in every precision.
_EXACT_FD = {"eps": 0.25}
for _name, _target in [("float", "float32"), ("double", "float64"), ("half", "float16"),
                       ("bfloat16", "bfloat16"), ("int", "int32"), ("long", "int64"),
                       ("short", "int16"), ("char", "int8"), ("byte", "uint8"),
                       ("bool", "bool"), ("cfloat", "complex64"), ("cdouble", "complex128")]:
    op(_name, form="method", samples=_conversion_samples(0.0 if _target == "uint8" else -3.0),
       ref=(lambda target: lambda x: _cast(x, target))(_target), dtypes=ALL,
       result=FIXED(_target), upcast=False, fd=_EXACT_FD,
       notes="negative floats to uint8 are undefined behaviour in torch: not sampled")


def _to_result(ops, args, kwargs):
    for a in list(args[1:]) + list(kwargs.values()):
        if isinstance(a, D):
            return a.name
        if isinstance(a, np.ndarray):
            return dtype_name(a.dtype)
    return dtype_name(args[0].dtype)


def _to_ref(x, *args, **kwargs):
    return _cast(x, _to_result(None, (x,) + args, kwargs))


def _to_samples(m):
    x = m((3, 4), grid=0.125)
    return [Sample(x, D("float64")), Sample(x, D("float32")), Sample(x, dtype=D("int32")),
            Sample(x, "cpu"), Sample(x, "cpu", D("float16")), Sample(x, m.of("int64")((2,))),
            Sample(x, D(m.dtype)), Sample(m((), grid=0.125), D("float64")),
            Sample(m((0, 3)), D("float32"))]


op("to", form="method", samples=_to_samples, ref=_to_ref, dtypes=ALL, result=_to_result,
   upcast=False, fd=_EXACT_FD,
   check=lambda result, args, kwargs: (result is args[0]) == (
       result.dtype == args[0].dtype and "copy" not in kwargs))


def _type_ref(x, dtype=None):
    if dtype is None:
        return "torch." + _LEGACY[dtype_name(x.dtype)]
    name = dtype.name if isinstance(dtype, D) else next(
        k for k, v in _LEGACY.items() if "torch." + v == dtype)
    return _cast(x, name)


def _type_result(ops, args, kwargs):
    if len(args) == 1:
        return None
    dtype = args[1]
    return dtype.name if isinstance(dtype, D) else next(
        k for k, v in _LEGACY.items() if "torch." + v == dtype)


op("type", form="method",
   samples=lambda m: [Sample(m((3, 4), grid=0.125)), Sample(m((3, 4), grid=0.125), D("float64")),
                      Sample(m((2,), grid=0.125), "torch.IntTensor"),
                      Sample(m((2,), grid=0.125), "torch.DoubleTensor")],
   ref=_type_ref, dtypes=ALL, result=_type_result, upcast=False, fd=_EXACT_FD)
op("type_as", form="method",
   samples=lambda m: [Sample(m((3, 4), grid=0.125), m.of("float64")((1,))),
                      Sample(m((3, 4), grid=0.125), m.of("int32")((2, 2))),
                      Sample(m((3,), grid=0.125), m((1,)))],
   ref=lambda x, other: _cast(x, dtype_name(other.dtype)), dtypes=ALL,
   result=lambda ops, args, kwargs: dtype_name(args[1].dtype), upcast=False, fd=_EXACT_FD)
op("cpu", form="method", samples=unary(), ref=lambda x: x, dtypes=ALL, returns_input=True)
op("cuda", form="method", samples=unary(), ref=lambda x: x, dtypes=ALL, needs_cuda=True,
   notes="needs a CUDA device (runs where ember.cuda.is_available())")

# -- in-place writes ----------------------------------------------------------------------------


def _copy_samples(m):
    return [Sample(m((3, 4)), m((3, 4))), Sample(m((3, 4)), m((4,))), Sample(m(()), m(())),
            Sample(m((3, 4)), m.of("float64")((3, 4), 0.0, 3.0)),
            Sample(m((3, 4)), m.of("int32")((1, 4), 0, 3)), Sample(m((0, 3)), m((0, 3)))]


def _copy_(dst, src, non_blocking=False):
    return _cast(np.broadcast_to(src, dst.shape), dtype_name(dst.dtype))


op("copy_", form="method", samples=_copy_samples, ref=_copy_, dtypes=ALL, mutates=True,
   upcast=False, notes="the destination's dtype wins; float sources are non-negative because "
                       "negative floats to uint8 are undefined in torch")


def _fill_samples(m):
    out = [Sample(m((3, 4)), 2), Sample(m(()), 1), Sample(m((3, 4)), m(())),
           Sample(m((0, 3)), 1), Sample(m((3, 4)), True)]
    if m.kind in ("float", "complex"):
        out.append(Sample(m((3, 4)), 1.5))
    return out


def _fill_(x, value):
    return np.full(x.shape, value.astype(x.dtype) if isinstance(value, np.ndarray) else value,
                   dtype=x.dtype if x.dtype != NP["bfloat16"] else np.float64)


op("fill_", form="method", samples=_fill_samples, ref=_fill_, dtypes=ALL, mutates=True,
   upcast=False)
op("zero_", form="method", samples=unary(), ref=np.zeros_like, dtypes=ALL, mutates=True)


def _resize_(x, *shape, memory_format=None):
    """The first prod(shape) elements of x's memory in order, then zeros (ember's fill for
    grown storage; torch leaves it uninitialised, so samples only grow integer-free dtypes)."""
    shape = _shape_arg(shape)
    flat = np.ascontiguousarray(x).reshape(-1)
    n = int(np.prod(shape))
    out = np.zeros(n, x.dtype)
    out[:min(n, flat.size)] = flat[:n]
    return out.reshape(shape)


op("resize_", form="method",
   samples=lambda m: [Sample(m((3, 4)), 2, 6), Sample(m((3, 4)), (12,)), Sample(m((3, 4)), 5),
                      Sample(m((6,)), 2, 2), Sample(m(()), 1, 1), Sample(m((2, 3)), 0)],
   ref=_resize_, dtypes=ALL, mutates=True, grad=None, upcast=False, noncontig=False,
   notes="storage-relative: a strided input is resized over its storage, not its elements; "
         "tensors that require grad are refused (tests/test_views_inplace.py)")
op("resize_as_", form="method",
   samples=lambda m: [Sample(m((3, 4)), m((2, 6))), Sample(m((3, 4)), m((5,))),
                      Sample(m((4,)), m((2, 2)))],
   ref=lambda x, other, memory_format=None: _resize_(x, other.shape), dtypes=ALL,
   mutates=True, grad=None, upcast=False, noncontig=False, operands=(0,),
   notes="as resize_, to the other tensor's shape")
op("set_", form="method",
   samples=lambda m: [Sample(m((3, 4)), m((2, 6))), Sample(m((3,)), m((2, 2, 2))),
                      Sample(m((3, 4)))],
   ref=lambda x, source=None: np.zeros(0, x.dtype) if source is None else source,
   dtypes=ALL, mutates=True, grad=None, upcast=False, operands=(0,),
   notes="the tensor takes over the source's storage and geometry; resize_ and set_ refuse "
         "tensors that require grad (tests/test_views_inplace.py)")

# -- indexing (dunders, declared all the same: they are ops with nodes) -----------------------


def _index_samples(m):
    x = (lambda: m((4, 5)))
    idx = np.array([0, 2, 3])
    return [Sample(x(), (1,)), Sample(x(), (slice(None), slice(1, 4))),
            Sample(x(), (Ellipsis, None)), Sample(x(), (idx,)),
            Sample(x(), (m.rng.random((4, 5)) < 0.5,)), Sample(x(), (slice(1, None), idx)),
            Sample(x(), (np.array([0, 0, 1]), np.array([1, 1, 4]))),
            Sample(x(), (-1, slice(None, None, 2))), Sample(m((3,)), (np.array([2, 2, 0]),))]


def _setitem_samples(m):
    x = (lambda: m((4, 5)))
    return [Sample(x(), (1,), m((5,))), Sample(x(), (slice(None), slice(1, 3)), m((4, 1))),
            Sample(x(), (np.array([0, 2]),), m((2, 5))), Sample(x(), (1, 2), 1),
            Sample(x(), (m.rng.random((4, 5)) < 0.5,), m(()))]


def _setitem(module, x, key, value):
    x[key] = value
    return x


def _setitem_ref(x, key, value):
    x = x.copy()
    x[key] = value
    return x


op("__getitem__", form="method", samples=_index_samples, ref=lambda x, key: x[key], dtypes=ALL,
   call=lambda module, x, key: x[key])
op("__setitem__", form="method", samples=_setitem_samples, ref=_setitem_ref, dtypes=ALL,
   call=_setitem, mutates=True, notes="values take the destination's dtype")

# -- random sampling: values are not reproducible by NumPy, so properties are checked ---------


def _shape_of(*size, **kwargs):
    """The `ref` of a sampler: an array of the result's shape (values unused)."""
    return np.empty(_shape_arg(size) if size else ())


def _default(name):
    def rule(ops, args, kwargs):
        dtype = kwargs.get("dtype")
        if dtype is not None:
            return dtype.name
        tensors = [a for a in args if isinstance(a, np.ndarray)]
        return dtype_name(tensors[0].dtype) if tensors else name
    return rule


def _within(low, high, integral=False):
    def check(result, args, kwargs):
        v = to_numpy(result)
        ok = bool(np.all((v >= low) & (v < high)))
        return ok and (not integral or bool(np.all(v == np.round(v))))
    return check


def _normal_stats(result, args, kwargs):
    v = to_numpy(result).astype(np.float64)
    if not np.all(np.isfinite(v)):
        return False
    return v.size < 1000 or (abs(v.mean()) < 0.15 and abs(v.std() - 1) < 0.15)


_RANDOM = dict(random=True, grad=None, operands=())
op("rand", samples=lambda m: [Sample(2, 3), Sample((2, 3), dtype=D("float64")), Sample(0),
                              Sample(()), Sample(1000)],
   ref=_shape_of, dtypes=("float32",), result=_default("float32"), check=_within(0, 1),
   **_RANDOM)
op("randn", samples=lambda m: [Sample(2, 3), Sample((2, 3), dtype=D("float64")), Sample(0),
                               Sample(()), Sample(2000)],
   ref=_shape_of, dtypes=("float32",), result=_default("float32"), check=_normal_stats,
   **_RANDOM)


def _randint_check(result, args, kwargs):
    low, high = (0, args[0]) if len(args) + ("size" in kwargs) == 2 else args[:2]
    v = to_numpy(result)
    covered = v.size < 200 or set(np.unique(v)) == set(range(low, high))
    return _within(low, high, True)(result, args, kwargs) and covered


op("randint", samples=lambda m: [Sample(0, 5, (3, 4)), Sample(5, (200,)),
                                 Sample(-3, 3, (50,), dtype=D("int32")),
                                 Sample(3, 10, size=(4,)), Sample(2, (0,))],
   ref=lambda *args, **kw: np.empty(kw.get("size", args[-1])), dtypes=("int64",),
   result=_default("int64"), check=_randint_check, **_RANDOM)
op("randperm", samples=lambda m: [Sample(7), Sample(0), Sample(5, dtype=D("int32")),
                                  Sample(1)],
   ref=lambda n, **kw: np.empty(n), dtypes=("int64",), result=_default("int64"),
   check=lambda result, args, kwargs: bool(np.all(np.sort(to_numpy(result)) == np.arange(args[0]))),
   **_RANDOM)


def _normal_samples(m):
    return [Sample(m((3, 4)), m((3, 4), 0.5, 2)), Sample(2.0, 0.0, (3,)),
            Sample(0.0, 1.0, (2000,)), Sample(m((2, 3)), 0.0), Sample(1.0, m((5,), 0.5, 2)),
            Sample(m((3, 1)), m((1, 4), 0, 0))]


def _normal_ref(mean, std, size=None, **kwargs):
    if size is not None:
        return np.empty(size)
    return np.broadcast_to(np.empty(()), np.broadcast_shapes(np.shape(mean), np.shape(std)))


def _normal_check(result, args, kwargs):
    v = to_numpy(result).astype(np.float64)
    mean, std = args[0], args[1]
    mean = to_numpy(mean) if not isinstance(mean, float) else mean
    std = to_numpy(std) if not isinstance(std, float) else std
    exact = np.broadcast_to(np.asarray(std) == 0, v.shape)
    expected = np.broadcast_to(np.asarray(mean, np.float64), v.shape)
    return bool(np.all(np.isfinite(v)) and np.all(v[exact] == expected[exact])) and (
        v.size < 1000 or abs(v.mean()) < 0.15 and abs(v.std() - 1) < 0.15)


op("normal", samples=_normal_samples, ref=_normal_ref, dtypes=("float32", "float64"),
   result=_default("float32"), check=_normal_check, **_RANDOM)


def _p(m, shape):
    return m.rng.choice([0.0, 1.0, 0.5], size=shape).astype(NP[m.dtype])


def _bernoulli_check(result, args, kwargs):
    """0/1 samples; certain where the probability is 0 or 1 (`input`, or the number `p`)."""
    v = to_numpy(result)
    p = kwargs.get("p", args[1] if len(args) > 1 else None)
    probs = to_numpy(args[0]) if p is None else np.full(v.shape, p)
    return bool(np.all((v == 0) | (v == 1)) and np.all(v[probs == 0] == 0)
                and np.all(v[probs == 1] == 1))


op("bernoulli", samples=lambda m: [Sample(_p(m, (4, 5))), Sample(_p(m, (3,)), 0.0),
                                   Sample(_p(m, (3,)), p=1.0), Sample(_p(m, ()))],
   ref=lambda x, p=None: x, dtypes=("float32", "float64"), result=SAME,
   check=_bernoulli_check, **dict(_RANDOM, operands=(0,)))


def _weights(m, shape):
    w = m(shape, 0.5, 2.0)
    w[..., 1] = 0
    return w


def _multinomial_check(result, args, kwargs):
    v, w = to_numpy(result), to_numpy(args[0])
    n = args[1]
    replacement = args[2] if len(args) > 2 else kwargs.get("replacement", False)
    rows = v.reshape(-1, n)
    weights = w.reshape(-1, w.shape[-1])
    for row, wr in zip(rows, weights):
        if not (np.all((row >= 0) & (row < wr.size)) and np.all(wr[row] > 0)):
            return False
        if not replacement and len(set(row.tolist())) != n:
            return False
    return True


op("multinomial", samples=lambda m: [Sample(_weights(m, (3, 5)), 2),
                                     Sample(_weights(m, (5,)), 10, True),
                                     Sample(_weights(m, (5,)), 3)],
   ref=lambda w, n, replacement=False: np.empty(w.shape[:-1] + (n,)),
   dtypes=("float32", "float64"), result=INT64, check=_multinomial_check,
   **dict(_RANDOM, operands=(0,)))


def _like_ref(x, *args, **kwargs):
    return np.empty(x.shape)


_LIKE = dict(_RANDOM, operands=(0,), ref=_like_ref)
op("rand_like", samples=unary(), dtypes=("float32", "float64"), result=_default(None),
   check=_within(0, 1), **_LIKE)
op("randn_like", samples=unary(), dtypes=("float32", "float64"), result=_default(None),
   check=lambda result, args, kwargs: bool(np.all(np.isfinite(to_numpy(result)))), **_LIKE)
op("randint_like", samples=lambda m: [Sample(m((3, 4)), 5), Sample(m((3, 4)), 2, 6),
                                      Sample(m(()), 3), Sample(m((50,)), -2, 2)],
   dtypes=("float32", "int64", "int16"), result=_default(None),
   check=lambda result, args, kwargs: _within(*((0, args[1]) if len(args) == 2 else args[1:]),
                                              integral=True)(result, args, kwargs), **_LIKE)

_SAMPLER = dict(_RANDOM, operands=(0,), mutates=True, form="method", ref=_like_ref)
op("uniform_", samples=lambda m: [Sample(m((3, 4)), -2, 3), Sample(m((50,))), Sample(m(()))],
   dtypes=("float32", "float64"),
   check=lambda result, args, kwargs: _within(*(args[1:] or (0, 1)))(result, args, kwargs),
   **_SAMPLER)
op("normal_", samples=lambda m: [Sample(m((3, 4)), 2.0, 0.0), Sample(m((2000,)))],
   dtypes=("float32", "float64"),
   check=lambda result, args, kwargs: _normal_check(result, (args[1], args[2]) if len(args) > 1
                                                    else (0.0, 1.0), kwargs), **_SAMPLER)
op("random_", samples=lambda m: [Sample(m((3, 4)), 0, 5), Sample(m((3, 4)), 7),
                                 Sample(m((3, 4)), 2, 4)],
   dtypes=("float32", "int64", "int32", "float64"),
   check=lambda result, args, kwargs: _within(*((0, args[1]) if len(args) == 2 else args[1:]),
                                              integral=True)(result, args, kwargs),
   **_SAMPLER)
op("exponential_", samples=lambda m: [Sample(m((100,)), 2.0), Sample(m((3, 4)))],
   dtypes=("float32", "float64"),
   check=lambda result, args, kwargs: bool(np.all(to_numpy(result) >= 0)), **_SAMPLER)


def _bernoulli_fill_check(result, args, kwargs):
    p = args[1] if len(args) > 1 else 0.5
    v = to_numpy(result)
    if isinstance(p, float):
        return bool(np.all((v == 0) | (v == 1)) and (p not in (0.0, 1.0) or np.all(v == p)))
    probs = np.broadcast_to(to_numpy(p), v.shape)
    return bool(np.all(v[probs == 0] == 0) and np.all(v[probs == 1] == 1))


op("bernoulli_", samples=lambda m: [Sample(m((3, 4)), 0.0), Sample(m((3, 4)), 1.0),
                                    Sample(m((3, 4)), _p(m.of("float32"), (3, 4))),
                                    Sample(m((3, 4)))],
   dtypes=("float32", "float64", "int64"), check=_bernoulli_fill_check, **_SAMPLER)

# -- registered names that are not operators ------------------------------------------------

EXCLUDED = {
    # Factories: they read only self's dtype and device, and make new data from Python values
    # (covered with the creation functions), so no value of self reaches the result.
    "new_tensor": "factory", "new_zeros": "factory", "new_ones": "factory",
    "new_empty": "factory", "new_full": "factory", "new_empty_strided": "factory",
    # A NumPy array, not a tensor, comes back (covered in test_tensor_api and test_interop).
    "numpy": "conversion to NumPy",
    # A uint64 result, a dtype the table's machinery does not make (tests/test_small_functions).
    "hash_tensor": "uint64 hash",
}


# -- turning samples into tensors (shared by the ember suite and the torch oracle) -------------

def samples_of(entry, dtype):
    """An entry's samples in `dtype`, the same on every run (seeded by entry and dtype)."""
    return entry.samples(Maker(dtype, seed=zlib.crc32(f"{entry.name}/{dtype}".encode())))


LAYOUTS = ("contiguous", "strided", "transposed")


def junk_like(arr):
    """A value that must never show up in a result (elements between a strided view's)."""
    return np.full(arr.shape, 7).astype(arr.dtype)


def tensor_of(arr, module, layout="contiguous"):
    """`arr` as a tensor of `module` (ember or torch), laid out as asked:
    "strided": every other element of a larger storage, at a storage offset of 1;
    "transposed": the first and last dims swapped in memory (strided for < 2 dims)."""
    def make(a):
        if a.dtype == NP["bfloat16"]:
            return module.tensor(a.astype(np.float32)).to(module.bfloat16)
        return module.tensor(a)
    if layout == "transposed" and arr.ndim >= 2:
        return make(np.ascontiguousarray(np.swapaxes(arr, 0, -1))).transpose(0, -1)
    if layout in ("strided", "transposed"):
        return make(np.stack([junk_like(arr), arr], axis=-1)).select(-1, 1)
    return make(arr)


def convert(obj, module, make=None, path=()):
    """Sample arguments as `module` objects: arrays become tensors (`make(array, path)` when
    given), D(...) becomes the module's dtype; containers are walked."""
    if isinstance(obj, np.ndarray):
        return make(obj, path) if make else tensor_of(obj, module)
    if isinstance(obj, D):
        return getattr(module, obj.name)
    if isinstance(obj, list):
        return [convert(x, module, make, path + (i,)) for i, x in enumerate(obj)]
    if isinstance(obj, tuple):
        return tuple(convert(x, module, make, path + (i,)) for i, x in enumerate(obj))
    if isinstance(obj, dict):
        return {k: convert(v, module, make, path + (k,)) for k, v in obj.items()}
    return obj


def arrays_in(obj, path=()):
    """{path: array} for every array inside `obj` (paths as `convert` passes them)."""
    if isinstance(obj, np.ndarray):
        return {path: obj}
    found = {}
    if isinstance(obj, (list, tuple)):
        for i, x in enumerate(obj):
            found.update(arrays_in(x, path + (i,)))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found.update(arrays_in(v, path + (k,)))
    return found


def to_numpy(t):
    """A tensor's values as a NumPy array (bfloat16 widened to float32, exactly)."""
    t = t.detach().resolve_conj().resolve_neg()
    if str(t.dtype).endswith("bfloat16"):
        t = t.float()
    return np.asarray(t.cpu().numpy(force=True))    # force: torch's zero gradients are lazy


def upcast(obj):
    """Floating arrays as float64 (complex128) for references; the rest as they are."""
    if isinstance(obj, np.ndarray):
        name = dtype_name(obj.dtype)
        if name in FLOATS:
            return obj.astype(np.float64)
        if name in COMPLEX:
            return obj.astype(np.complex128)
        return obj
    if isinstance(obj, list):
        return [upcast(x) for x in obj]
    if isinstance(obj, tuple):
        return tuple(upcast(x) for x in obj)
    return obj


def reference(entry, sample):
    """The reference result of `sample` (NumPy arrays, a tuple of them, or a Python value)."""
    args, kwargs = sample.args, sample.kwargs
    if entry.upcast:
        args, kwargs = upcast(args), {k: upcast(v) for k, v in kwargs.items()}
    with np.errstate(all="ignore"):
        return entry.ref(*args, **kwargs)


def as_expected(value, name):
    """A reference value rounded into dtype `name`, as a float64/complex128/int/bool array."""
    value = np.asarray(value)
    with np.errstate(all="ignore"):
        if name == "bool":
            return value.astype(bool)
        if name in INTS:
            if value.dtype.kind in "fc":
                value = np.trunc(value.real)
            return value.astype(np.int64).astype(NP[name]).astype(np.int64)
        if name in COMPLEX:
            return value.astype(NP[name]).astype(np.complex128)
        if value.dtype.kind == "c":
            value = value.real
        return value.astype(NP[name]).astype(np.float64)


# (rtol, atol) by result dtype: references are float64; half precisions are compared loosely
TOLERANCE = {"float64": (1e-9, 1e-12), "float32": (1e-5, 1e-6), "float16": (2e-3, 1e-2),
             "bfloat16": (1.6e-2, 5e-2), "complex64": (1e-5, 1e-6),
             "complex128": (1e-9, 1e-12)}


def outputs_of(result):
    """A result as a list (tuples, lists and named tuples are flattened one level)."""
    return list(result) if isinstance(result, (tuple, list)) else [result]


def assert_values(actual, expected, name, tol=None, where=""):
    """Arrays compared for dtype `name`: exactly for integers and bools, else within `tol`
    (default: TOLERANCE[name]); `expected` is already rounded by `as_expected`."""
    if name == "bool" or name in INTS:
        np.testing.assert_array_equal(actual.astype(expected.dtype), expected, err_msg=where)
        return
    rtol, atol = tol or TOLERANCE[name]
    np.testing.assert_allclose(actual.astype(expected.dtype), expected, rtol=rtol, atol=atol,
                               equal_nan=True, err_msg=where)


# -- known ember bugs: strict xfails ------------------------------------------------------------
# Each bug once: a one-line summary, a minimal reproduction with torch's and ember's answers,
# and the checks it fails, as {entry: "check[:variant] ..."}. Checks of tests/test_ops.py:
# forward:<dtype>, noncontig:<layout>, method, inplace, out, grad, gradgrad, hypothesis; of
# tests/oracle/test_ops_oracle.py: oracle:<dtype>, oracle-grad:float64. Fixing a bug turns its
# xfails into XPASS failures: delete the bug here then.

@dataclass
class Bug:
    summary: str
    repro: str
    torch_gives: str
    ember_gives: str
    cases: dict


# The later op families keep their entries in tests/op_tables/, one module each.
from op_tables import (activations, elementwise_extra, fft, linalg, misc,  # noqa: E402,F401
                       products, scans, scatter_gather, shaping, sorting, special, statistics)
from op_tables import extras  # noqa: E402,F401

_C = "forward:complex64 forward:complex128 oracle:complex64 oracle:complex128"
_BOOL = "forward:bool oracle:bool"
_INTS = " ".join(f"forward:{d} oracle:{d}" for d in BOOL + INTS)
_EVERY = " ".join(f"forward:{d} oracle:{d}" for d in ALL)
_NO_ZEROS_LIKE = "grad oracle-grad:float64"

BUGS = [
    Bug("conj (and adjoint) of a complex tensor copies; torch returns a view of the same "
        "storage (the conjugate bit)",
        "x = torch.tensor([1 + 1j, 2 - 1j]); x.conj().untyped_storage().data_ptr() == "
        "x.untyped_storage().data_ptr()",
        "True", "False",
        {"conj": "forward:complex64 forward:complex128",
         "adjoint": "forward:complex64 forward:complex128"}),
]


def _merge_bug_cases():
    for bug in BUGS:
        for name, keys in bug.cases.items():
            for key in keys.split():
                previous = TABLE[name].xfail.get(key)
                summary = "bug: " + bug.summary
                TABLE[name].xfail[key] = summary if previous is None else \
                    previous + "; " + summary


_merge_bug_cases()
