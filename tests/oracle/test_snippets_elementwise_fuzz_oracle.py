"""Element-wise ops under inputs found by a random fuzzer, run under real torch and under ember
(`import ember as torch`): what each snippet prints, including an exception's type and first
line, must be identical.

Minimized from the fuzzer's differences: the order of torch's TensorIterator checks (memory
overlap, broadcast, an in-place output's shape, the cast to the output, then the kernel), the
unary ops whose out= must have the input's dtype ("Found dtype ..."), the ops that take no
out= or a bool one only, numbers first (`torch.eq(2, t)` fits no signature), add/sub's alpha
checks, clamp's bounds (a number with a tensor, complex bounds, bool inputs, out= dtypes,
bounds beyond float range), addcmul/addcdiv's value, floor division by infinities, integer
division by zero of empty tensors, ldexp's own checks, and huge Python ints with bfloat16.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = """f = torch.tensor([0.5, -1.5, 2.0]); i = torch.tensor([1, 5, -3], dtype=torch.int32)
b = torch.tensor([True, False, True]); c = torch.tensor([1+1j, -2j, 0.5])
h = f.half(); bf = f.bfloat16(); d = f.double()
def show(r):
    print(r.dtype, tuple(r.shape), r)
"""

_UNARY_SAME_OUT = ["abs", "neg", "negative", "sign", "sgn", "floor", "ceil", "trunc", "fix", "frac",
                   "round", "bitwise_not", "conj_physical", "absolute"]

SNIPPETS = [SETUP + s for s in [
    # the order of torch's checks: overlap, broadcast, in-place shape, cast, kernel
    "c.expand(2, 3).floor_divide_(2)",
    "torch.tensor([1j]).expand(3).atan2_(torch.ones(3))",
    "c.atan2_(torch.ones(2, 1, dtype=torch.bool))",
    "torch.ones(3, 1, dtype=torch.complex64).hypot_(torch.ones(1, 2))",
    "torch.ones(2, dtype=torch.int8).clamp_(torch.ones(2, 2, dtype=torch.int8), torch.tensor([1j, 2j]))",
    "torch.ones(2, 1).mul_(torch.ones(2, 2, dtype=torch.complex128))",
    "torch.tensor(True).bitwise_or_(torch.ones(2, 1))",
    "torch.ones(2, 1, dtype=torch.bool).mul_(torch.ones(3, dtype=torch.int16))",
    "torch.ones(3, dtype=torch.int32).add_(torch.ones(2, 3))",
    "torch.ones(3, dtype=torch.uint8).sub_(torch.ones(1, 3, dtype=torch.float64))",
    "show(torch.ones(2, 3, dtype=torch.complex64) >> torch.ones(3, 1, dtype=torch.bool))",
    "show(torch.ones(3, dtype=torch.float16) & torch.ones(2, dtype=torch.float64))",
    "show(torch.gcd(torch.ones(2, 3, dtype=torch.uint8), torch.ones(0)))",
    "show(torch.bitwise_right_shift(torch.ones(3), torch.ones(0, dtype=torch.bool)))",
    "show(torch.ones(2, 3, dtype=torch.int8).greater(torch.ones(0, dtype=torch.complex128)))",
    "show(torch.div(torch.ones(2, 2, dtype=torch.bool), torch.ones(0, dtype=torch.complex128), rounding_mode='trunc'))",
    "show(torch.lt(torch.tensor([1j]), 1, out=torch.empty(1, dtype=torch.int8)))",
    "show(torch.le(c, f, out=torch.empty(3)))",
    "show(torch.erf(c, out=torch.empty(3, dtype=torch.int64)))",
    "show(torch.erf(c, out=torch.empty(3)))",
    "show(torch.digamma(c, out=torch.empty(2, 1, dtype=torch.int8)))",
    "show(torch.bitwise_and(f, torch.ones(2, 1, dtype=torch.int32), out=torch.empty(3, dtype=torch.int64)))",
    "x = torch.zeros(2, 3, dtype=torch.int64)\\nshow(torch.bitwise_and(x[:, :1].expand(2, 3), f, out=x[:, :1].expand(2, 3)))",
    # unary ops whose out= must have the input's dtype
    *(f"show(torch.{op}({x}, out=torch.empty(3, dtype=torch.{o})))"
      for op in _UNARY_SAME_OUT for x, o in (("i", "int64"), ("f", "float64"), ("b", "int32"),
                                              ("c", "complex128"), ("h", "float32"))),
    "show(torch.round(f, decimals=1, out=torch.empty(3, dtype=torch.float64)))",
    "show(torch.abs(c, out=torch.empty(3, dtype=torch.float64)))",
    "show(torch.abs(c, out=torch.empty(3, dtype=torch.int64)))",
    "show(torch.sign(c, out=torch.empty(3, dtype=torch.float64)))",
    "show(torch.floor(c, out=torch.empty(3, dtype=torch.int64)))",
    "show(torch.neg(b, out=torch.empty(3, dtype=torch.int64)))",
    "show(torch.floor(f, out=torch.empty(3)))",
    "show(torch.sqrt(i, out=torch.empty(3, dtype=torch.float64)))",
    "show(torch.sqrt(i, out=torch.empty(3, dtype=torch.int64)))",
    # ops without out=, or with bool outputs only
    *(f"show(torch.{op}(f, out=torch.empty(3, dtype=torch.bool)))" for op in (
        "isnan", "isinf", "isfinite", "isreal", "real", "imag")),
    *(f"show(torch.{op}({x}, out=torch.empty(3, dtype=torch.{o})))" for op in (
        "isposinf", "isneginf", "signbit") for x, o in (("f", "float64"), ("i", "bool"),
                                                        ("c", "float32"), ("h", "int8"))),
    *(f"show(torch.nan_to_num({x}, out=torch.empty(3, dtype=torch.{o})))"
      for x, o in (("i", "bfloat16"), ("f", "float64"), ("c", "complex64"), ("b", "float16"))),
    "x = torch.tensor([2], dtype=torch.int8).expand(2, 1)\\nshow(x.nan_to_num_())",
    # a number first: only add, sub, mul, div (and their aliases) and the ops with a Number
    # signature first take one
    *(f"show(torch.{op}({n}, f))" for op in (
        "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
        "not_equal", "fmod", "rsub", "copysign", "clamp_min", "clamp_max", "remainder",
        "bitwise_and", "add", "mul", "true_divide", "floor_divide", "pow", "xlogy",
        "float_power") for n in ("2", "2.5", "True")),
    *(f"show(torch.{op}(2.5, f, out=torch.empty(3)))" for op in (
        "remainder", "bitwise_or", "bitwise_left_shift", "copysign", "eq", "clamp_max", "pow",
        "sub")),
    "show(torch.bitwise_xor(3, i, out=torch.empty(3, dtype=torch.int32)))",
    *(f"show(torch.div({n}, {x}, rounding_mode={m!r}))" for n in ("200", "-0.0", "-7")
      for x in ("i", "f", "torch.tensor([52, 6, 9], dtype=torch.int16)")
      for m in ("trunc", "floor")),
    # add/sub's alpha
    *(f"show(torch.{op}({x}, {y}, alpha={a}))" for op in ("add", "sub") for x, y in (
        ("i", "i"), ("f", "1"), ("b", "b"), ("c", "f"), ("torch.tensor(7)", "i"))
      for a in ("True", "False", "1.5", "2j", "1.0")),
    "show(torch.rsub(i, i, alpha=1.5))",
    "show(torch.rsub(f, 2, alpha=True))",
    "show(i.add_(i, alpha=0.5))",
    "show(torch.add(torch.ones(3), torch.ones(0, dtype=torch.uint8), alpha=True))",
    "show(torch.add(torch.ones(0), torch.ones(2, 1), alpha=True))",
    "show(torch.add(torch.ones(2, 3), torch.ones(0), alpha=True))",
    # clamp: numbers and tensors, complex and bool inputs, out= and float range
    *(f"show(torch.{fn}({x}, {lo}, {hi}))" for fn in ("clamp", "clip") for x, lo, hi in (
        ("f", "1", "torch.tensor([2.0])"), ("f", "torch.tensor([1.0])", "2"),
        ("f", "1", "torch.tensor(2.0)"), ("i", "torch.tensor(1.5)", "3"),
        ("f", "None", "torch.tensor(2.0)"), ("b", "torch.tensor([0.5])", "torch.tensor([2])"),
        ("b", "torch.tensor([1])", "torch.tensor([2])"),
        ("b", "torch.tensor([True])", "torch.tensor([False])"),
        ("c", "torch.tensor([1.0])", "torch.tensor([2.0])"), ("c", "1", "2"),
        ("f", "torch.tensor([1+1j])", "torch.tensor([2.0])"), ("f", "1j", "2"),
        ("h", "1.5+0j", "None"), ("i", "1j", "2"), ("i", "0", "1e40"), ("b", "1e40", "None"),
        ("i", "-1e39", "None"), ("h", "0", "1e40"), ("d", "0", "1e300"),
        ("c", "torch.tensor([1.0, 2.0, 3.0])", "torch.tensor(2.0)"),
        ("f", "torch.tensor([1.0, 2.0])", "torch.tensor(2.0)"))),
    "show(torch.clamp(b, min=torch.tensor([2])))",
    "show(torch.clamp(b, max=torch.tensor([2.5])))",
    "show(torch.clamp(f, max=torch.tensor([2j])))",
    "show(torch.clamp(c, min=torch.tensor([2.0])))",
    "show(torch.clamp_min(c, torch.tensor([1.0])))",
    "show(torch.clamp_max(c, torch.tensor([1.0])))",
    "show(torch.clamp_min(c, 1))",
    "show(f.clamp_(1, torch.tensor([2.0, 3.0, 4.0])))",
    "show(f.clip_(torch.tensor([2.0, 3.0, 4.0]), 5.0))",
    "show(f.clip(torch.tensor(1.0), 2.0))",
    "show(f.clamp_(min=2j))",
    "show(i.clamp_(min=2j))",
    "show(torch.clamp(2, f))",
    *(f"show(torch.{fn}({x}, {bounds}, out=torch.empty(3, dtype=torch.{o})))" for fn, x, bounds, o in (
        ("clamp", "f", "0, 1", "float64"), ("clamp", "i", "0, 1.5", "float64"),
        ("clamp", "i", "0, 1", "int64"), ("clamp", "i", "0, 1.5", "float32"),
        ("clamp", "f", "torch.tensor([0.0]), torch.tensor([1.0])", "float64"),
        ("clamp", "f", "torch.tensor([0.0])", "float64"),
        ("clamp_min", "b", "2**63-1", "bool"), ("clamp_min", "f", "1", "float64"),
        ("clamp_max", "i", "1.5", "float64"), ("clip", "f", "None, 1", "float16"))),
    # addcmul / addcdiv's value, after the broadcast
    *(f"show(torch.{fn}({x}, {t1}, {t2}, value={v}))" for fn, x, t1, t2, v in (
        ("addcmul", "f", "f", "f", "1j"), ("addcmul", "h", "h", "h", "1e40"),
        ("addcmul", "d", "f", "f", "1e300"), ("addcdiv", "i", "i", "f", "1e40"),
        ("addcmul", "i", "i", "i", "1j"), ("addcmul", "c", "f", "f", "1e40"),
        ("addcmul", "f", "f", "f", "1e39+0j"), ("addcmul", "f", "f", "f", "2+0j"),
        ("addcdiv", "bf", "b", "bf", "1j"), ("addcdiv", "d", "f", "f", "2-1j"),
        ("addcmul", "f", "torch.ones(2, 1)", "torch.ones(4)", "1e40"),
        ("addcdiv", "f", "torch.ones(2)", "f", "1j"), ("addcmul", "i", "i", "i", "1.5"))),
    # floor division by infinities (torch's: as `//`)
    *(f"x = torch.tensor([0.8, -7.0, float('inf'), -float('inf'), 3.0, 0.0, -0.0], dtype=torch.{dt})\\n"
      f"show(torch.div(x, {y}, rounding_mode='floor'))\\nshow(torch.div(x, {y}, rounding_mode='trunc'))"
      for dt in ("float32", "bfloat16", "float64") for y in ("float('inf')", "-float('inf')", "2.0", "-2.0")),
    *(f"show(torch.div(torch.tensor([True]), torch.tensor([True]), rounding_mode={m!r}))"
      for m in ("trunc", "floor")),
    *(f"show(c.div_(c, rounding_mode={m!r}))" for m in ("trunc", "floor")),
    # integer division by zero: torch checks the elements it computes
    *(f"show(torch.{fn}(torch.empty(0, dtype=torch.int32), torch.tensor(0, dtype=torch.int32)))"
      for fn in ("remainder", "fmod", "floor_divide")),
    "show(torch.div(torch.empty(0, dtype=torch.uint8), torch.tensor(0), rounding_mode='floor'))",
    "show(torch.div(torch.empty(0, 3, dtype=torch.int64), torch.zeros(3, dtype=torch.int64), rounding_mode='trunc'))",
    "show(torch.remainder(torch.ones(2, dtype=torch.int64), torch.tensor(0)))",
    # ldexp's own checks
    *(f"show({x}.clone().ldexp_({e}))" for x in ("i", "b", "f", "d") for e in (
        "i", "f", "b", "c")),
    *(f"show(torch.ldexp({x}, {e}))" for x in ("i", "f", "d", "c") for e in ("b", "i")),
    "show(torch.tensor([3], dtype=torch.int8).expand(3).ldexp_(f))",
    "show(i.ldexp_(torch.ones(0, dtype=torch.int16)))",
    # huge Python ints meet bfloat16
    "show((2**63) >= bf)", "show(bf + 2**63)", "show(bf - 2**63)", "show(bf * 2**63)",
    "show(torch.where(b, bf, 2**63))",
    # where's number that makes an integer result float; signed zeros of erfinv; nan_to_num
    # of complex numbers part by part
    *(f"show(torch.where(b, {x}, {n}))" for x, n in (
        ("i", "1e40"), ("b", "1e40"), ("h", "1e6"), ("i", "1e300"),
        ("torch.tensor([1, 2, 3], dtype=torch.int8)", "300"), ("i", "2.5"))),
    "show(torch.where(b, 1e40, b))",
    *(f"show(torch.erfinv(torch.tensor([-0.0, 0.0, 1.0, -1.0, 2.0], dtype=torch.{dt})))"
      for dt in ("float16", "bfloat16", "float32", "float64")),
    "x = torch.tensor([complex(float('inf'), float('nan')), complex(-float('inf'), -float('inf')), 1j])\n"
    "show(torch.nan_to_num(x))\nshow(torch.nan_to_num(x, nan=1.5, posinf=2.0, neginf=-3.0))\n"
    "show(x.double().nan_to_num_(posinf=7.0))",
    # logit's eps: bounds of the input's dtype, below eps first
    *(f"x = torch.tensor([8.0, 0.95, 0.05, 0.5, -1.0, 0.3333, 0.9, 0.1, float('nan')], dtype=torch.{dt})\n"
      f"show(torch.logit(x, eps={eps}))"
      for dt in ("bfloat16", "float16", "float64") for eps in (0.1, 0.333, 0.7, 0.5, -1.0)),
    # an out= of another shape is resized to the layout of a fresh result
    *(f"import warnings\nwarnings.simplefilter('ignore')\nx = torch.arange(6.).reshape(3, 2).t()\n"
      f"o = {o}\nr = torch.{fn}(x, {y}, out=o)\nprint(r is o, tuple(o.shape), o.stride(), o)"
      for fn, y in (("add", "2.0"), ("mul", "torch.arange(6.).reshape(2, 3)"), ("eq", "x"),
                    ("remainder", "torch.ones(3)"), ("lerp", "x, 0.5"))
      for o in ("torch.empty(0)", "torch.empty(3, 4)", "torch.empty(2, 3).t()",
                "torch.empty(2, 3)", "torch.empty(0, dtype=torch.float64)")),
    "x = torch.arange(6.).reshape(3, 2).t()\no = torch.empty(0)\ntorch.neg(x, out=o)\nprint(o.stride())",
    # heaviside's out= must have the input's dtype; the broadcast before integer division by zero
    "show(torch.heaviside(torch.tensor(7.0, dtype=torch.float64), d, out=torch.empty(3, dtype=torch.uint8)))",
    "show(torch.heaviside(f, f, out=torch.empty(3, dtype=torch.float64)))",
    "show(torch.floor_divide(torch.zeros(2, 2, dtype=torch.bool), torch.tensor([9, 0, 35], dtype=torch.uint8)))",
    "show(torch.remainder(torch.ones(2, dtype=torch.int64), torch.zeros(3, dtype=torch.int64)))",
    # a number exponent converted to an integer or half tensor's dtype, checked
    *(f"x = torch.tensor([1.5, 2.0], dtype=torch.{dt})\nshow(x ** {e})\nshow(x.clone().pow_({e}))"
      for dt in ("bfloat16", "float16", "float32", "int32", "int8", "uint8")
      for e in ("1e40", "70000.0", "2**40", "300", "2.5")),
    "x = torch.tensor(5, dtype=torch.int8)\nx **= torch.tensor(4, dtype=torch.uint8)\nshow(x)",
    "x = torch.tensor([5], dtype=torch.int8)\nx *= torch.tensor(100, dtype=torch.int16)\nshow(x)",
    # where converts its number before it checks the condition
    *(f"show(torch.where(torch.tensor([1.5, 0.0]), {x}, {n}))" for x, n in (
        ("torch.tensor([1, 2])", "1e40"), ("torch.tensor([1, 2])", "2.5"),
        ("torch.tensor([1, 2], dtype=torch.int32)", "-2**63"),
        ("torch.tensor([1.0, 2.0])", "torch.tensor([1, 2])"))),
    *(f"x = torch.tensor([-0.0, 0.0, float('nan'), -2.0], dtype=torch.{dt})\n"
      f"show(torch.sign(x))\nshow(x.clone().sign_())\nshow(torch.sgn(x))"
      for dt in ("bfloat16", "float16", "float32")),
    # where's condition takes no part in the promotion
    *(f"import warnings\nwarnings.simplefilter('ignore')\nu = torch.tensor([1, 0], dtype=torch.uint8)\n"
      f"show(torch.where(u, {x}, {y}))" for x, y in (
          ("torch.tensor([True, False])", "-1"), ("torch.tensor([True, False])", "2.5"),
          ("torch.tensor([1, 2], dtype=torch.int8)", "torch.tensor(3)"), ("1.5", "2"),
          ("torch.empty(0, dtype=torch.bool)", "-1"))),
    # integer exponents beyond int64 and uint64
    *(f"show(torch.tensor([5], dtype=torch.{dt}) ** {e})" for dt in ("uint8", "int8", "int64", "float32")
      for e in ("2**63", "2**64", "-2**64", "-2**63")),
    # a Python number in add/sub with alpha of a half tensor is rounded to it first
    *(f"h = torch.tensor([-float('inf'), 1.0, 2.0], dtype=torch.{dt})\n"
      f"show(torch.sub(2**31, h, alpha=-1.5))\nshow(torch.add(70000, h, alpha=2))\n"
      f"show(torch.add(h, 70000, alpha=2))\nshow(torch.sub(h, 70000.0, alpha=0.5))"
      for dt in ("float16", "bfloat16")),
    # igamma / igammac / zeta at infinities and NaN: torch's special cases come first
    *(f"v = torch.tensor([0.0, 0.5, 1.0, 3.0, float('inf'), float('nan'), -1.0], dtype=torch.{dt})\n"
      f"a, x = v.repeat_interleave(7), v.repeat(7)\n"
      f"print(np.round(torch.{fn}(a, x).double().numpy(), 4).tolist())"
      for dt in ("float32", "float64") for fn in ("igamma", "igammac", "special.zeta")),
    "q = torch.tensor([1.0, 0.5, 2.0, -2.5, -2.0, 0.0, -float('inf'), float('inf'), float('nan')], dtype=torch.float64)\n"
    "for s in (float('inf'), float('nan'), 3.0, 1.0, 0.5):\n"
    "    print(np.round(torch.special.zeta(torch.full_like(q, s), q).numpy(), 6).tolist())",
    # isclose / allclose / equal: the tensors are checked before an unknown keyword
    *(f"print(torch.{fn}({a}, {b}, out=f))" for fn in ("isclose", "allclose", "equal")
      for a, b in (("f", "f"), ("f", "2"), ("2", "f"), ("f", "None"))),
    "print(f.isclose(f, out=f))", "print(f.allclose(2, out=f))", "print(torch.equal(None, None, out=1))",
    # lerp's number weight converted as addcmul's value; where's number checked for float32 and
    # float64 results; ldexp into an integer out=
    *(f"x = torch.ones(2, dtype=torch.{dt})\nshow(torch.lerp(x, x * 2, {w}))"
      for dt in ("float16", "bfloat16", "float32", "float64") for w in ("1j", "0.5+0j", "1e40", "0.3")),
    *(f"show(torch.where(torch.tensor([False, True]), {a}, {b}))" for a, b in (
        ("1e40", "torch.tensor(-2.0)"), ("h[:2]", "1e6"), ("bf[:2]", "1e40"), ("d[:2]", "1e300"),
        ("f[:2]", "1e39"), ("torch.tensor(2.0)", "1e40"))),
    *(f"show(torch.ldexp(f, i, out=torch.empty(3, dtype=torch.{o})))" for o in ("uint8", "bool", "int64")),
    # messages: mvlgamma and heaviside
    "show(torch.mvlgamma(c, 1))",
    "show(torch.heaviside(torch.tensor(0.2), torch.ones(3, dtype=torch.int16), out=torch.empty(3, dtype=torch.complex64)))",
    "show(torch.heaviside(f, f, out=torch.empty(3, dtype=torch.complex64)))",
    # broadcasting and non-contiguous operands still compute
    "x = torch.arange(6.).reshape(3, 2).t()\\nshow(torch.clamp(x, torch.tensor([1.0, 2.0, 3.0]), 4.0))",
    "x = torch.arange(12, dtype=torch.int16)[::2].reshape(2, 3)\\nshow(torch.div(x, -4, rounding_mode='floor'))",
    "x = torch.tensor([1.5, -2.5, 0.0]).expand(2, 3)\\nshow(torch.add(x, x.t().contiguous().t(), alpha=2))",
]]

BUGS = [
    ("addcdiv / addcmul of float16 with a 0-dim tensor of another float dtype: torch rounds it "
     "to float16 before its float32 arithmetic, ember computes from its unrounded value",
     SETUP + "show(torch.addcdiv(i, torch.tensor([-float('inf'), 10.0, float('inf')], "
     "dtype=torch.float16), torch.tensor(1e30, dtype=torch.bfloat16)))"),
    ("minimum of 0. and -0.: torch answers its first operand, NumPy the negative zero",
     SETUP + "show(torch.minimum(torch.tensor([0.0, -0.0]), torch.tensor([-0.0, 0.0])))"),
    ("strides of size-1 dims of an element-wise result of transposed inputs",
     SETUP + "x = torch.arange(3.).reshape(3, 1).t()\nprint((x + 1).stride())"),
    ("where of two numbers that do not fit the default float: torch's conversion error comes "
     "before the condition's",
     SETUP + "show(torch.where(torch.tensor([1.5, 0.0]), 1e40, 2.0))"),
    ("ember has no complex32: torch promotes float16 with a complex number to ComplexHalf",
     SETUP + "show(torch.add(h, 2-1j))"),
    ("ember has no complex32: torch's ComplexHalf has fewer kernels",
     SETUP + "show(torch.gt(h, 1j))"),
    ("a method's parser error lists the method's signatures in torch; ember words clamp's "
     "as the function's (only the in-place method is told apart)",
     SETUP + "show(f.clamp(1, torch.tensor([2.0, 3.0, 4.0])))"),
    ("a number meeting a uint8 tensor and 2**63: torch's promotion of uint64 is refused",
     SETUP + "show(torch.clamp(torch.ones(3, dtype=torch.uint8), torch.tensor(-2), 2**63))"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS,
                                                                            at_least=300)
