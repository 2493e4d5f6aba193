"""Dtypes: torch's promotion table, weak promotion of Python numbers and 0-dim tensors,
can_cast, aliases and attributes, the default dtype, finfo/iinfo and dtype conversions.

Every expected value below was written down from torch 2.13's rules (and confirmed with it).
"""
import pickle

import numpy as np
import pytest

import ember

ALL = [ember.bool, ember.uint8, ember.int8, ember.int16, ember.int32, ember.int64,
       ember.float16, ember.bfloat16, ember.float32, ember.float64, ember.complex64,
       ember.complex128]
CODE = dict(zip(["b1", "u1", "i1", "i2", "i4", "i8", "f2", "bf", "f4", "f8", "c8", "c16"], ALL))
CODES = list(CODE)


@pytest.fixture
def default_dtype():
    """Restore the default dtype whatever the test does."""
    before = ember.get_default_dtype()
    yield
    ember.set_default_dtype(before)


# -- promote_types ----------------------------------------------------------------------------

# torch.promote_types(row, column), all 144 pairs, written from torch's rules: the higher
# category wins (bool < integer < floating < complex); uint8 with int8 needs int16; float16 with
# bfloat16 meets at float32; float64 with complex64 widens to complex128.
PROMOTION = """
      b1   u1   i1   i2   i4   i8   f2   bf   f4   f8   c8  c16
b1    b1   u1   i1   i2   i4   i8   f2   bf   f4   f8   c8  c16
u1    u1   u1   i2   i2   i4   i8   f2   bf   f4   f8   c8  c16
i1    i1   i2   i1   i2   i4   i8   f2   bf   f4   f8   c8  c16
i2    i2   i2   i2   i2   i4   i8   f2   bf   f4   f8   c8  c16
i4    i4   i4   i4   i4   i4   i8   f2   bf   f4   f8   c8  c16
i8    i8   i8   i8   i8   i8   i8   f2   bf   f4   f8   c8  c16
f2    f2   f2   f2   f2   f2   f2   f2   f4   f4   f8   c8  c16
bf    bf   bf   bf   bf   bf   bf   f4   bf   f4   f8   c8  c16
f4    f4   f4   f4   f4   f4   f4   f4   f4   f4   f8   c8  c16
f8    f8   f8   f8   f8   f8   f8   f8   f8   f8   f8  c16  c16
c8    c8   c8   c8   c8   c8   c8   c8   c8   c8  c16   c8  c16
c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16
"""


def _promotion_cases():
    rows = [line.split() for line in PROMOTION.strip().splitlines()]
    header = rows[0]
    for row in rows[1:]:
        for column, result in zip(header, row[1:]):
            yield row[0], column, result


@pytest.mark.parametrize("a, b, expected", list(_promotion_cases()))
def test_promote_types(a, b, expected):
    assert ember.promote_types(CODE[a], CODE[b]) is CODE[expected]


def test_promotion_table_is_complete():
    assert len(list(_promotion_cases())) == 144


# -- result_type: dimensioned tensors > 0-dim tensors > Python numbers, by category ----------

def T(values, dtype):
    return ember.tensor(values, dtype=dtype)


@pytest.mark.parametrize("make_a, b, expected", [
    (lambda: T([1, 2], ember.int64), 2.5, ember.float32),
    (lambda: T([1, 2], ember.int64), 2, ember.int64),
    (lambda: T([1, 2], ember.int64), True, ember.int64),
    (lambda: T([1, 2], ember.int64), 1j, ember.complex64),
    (lambda: T([1, 2], ember.int8), 200, ember.int8),            # weak: the value is ignored
    (lambda: T([1, 2], ember.uint8), -5, ember.uint8),
    (lambda: T([1, 2], ember.int8), ember.tensor(5), ember.int8),
    (lambda: T([1, 2], ember.int8), ember.tensor(5.), ember.float32),
    (lambda: T([1, 2], ember.int8), T(5., ember.float64), ember.float64),
    (lambda: T([1, 2], ember.int32), T(1., ember.float64), ember.float64),
    (lambda: T([1., 2.], ember.float16), 2.5, ember.float16),
    (lambda: T([1., 2.], ember.float16), T(1., ember.float64), ember.float16),
    (lambda: T([1., 2.], ember.float16), T([1.], ember.float64), ember.float64),
    (lambda: T([1.], ember.bfloat16), T(1., ember.float16), ember.bfloat16),
    (lambda: T([1.], ember.float64), 1j, ember.complex128),
    (lambda: T([1.], ember.float32), T(1j, ember.complex128), ember.complex64),
    (lambda: T(1., ember.float64), ember.tensor(1j), ember.complex128),
    (lambda: T([True], ember.bool), 3, ember.int64),
    (lambda: T([True], ember.bool), 3.5, ember.float32),
    (lambda: T([True], ember.bool), T(5, ember.int16), ember.int16),
    (lambda: T(True, ember.bool), T(1, ember.uint8), ember.uint8),
    (lambda: T(2, ember.int16), T(5, ember.int32), ember.int32),
    (lambda: T(2, ember.int16), 5, ember.int16),
    (lambda: T(2., ember.float16), 5.0, ember.float16),
    (lambda: T(2, ember.int32), 5.0, ember.float32),
    (lambda: T([1], ember.uint8), T(-1, ember.int8), ember.uint8),
    (lambda: 2, 3.0, ember.float32),
    (lambda: True, 2, ember.int64),
    (lambda: True, False, ember.bool),
    (lambda: 1.0, 2j, ember.complex64),
])
def test_result_type(make_a, b, expected):
    assert ember.result_type(make_a(), b) is expected


def test_result_type_follows_the_default_dtype(default_dtype):
    ember.set_default_dtype(ember.float64)
    assert ember.result_type(ember.tensor([1]), 1.0) is ember.float64
    assert ember.result_type(1.0, 1j) is ember.complex128


def test_operator_result_dtypes_follow_result_type():
    i8 = T([1, 2], ember.int8)
    assert (i8 + 1000).dtype is ember.int8
    assert (i8 + 1.5).dtype is ember.float32
    assert (i8 + ember.tensor(7)).dtype is ember.int8
    assert (T([1.], ember.float16) * ember.tensor(2., dtype=ember.float64)).dtype is ember.float16
    assert (T([1], ember.uint8) + T([1], ember.int8)).dtype is ember.int16


# -- can_cast --------------------------------------------------------------------------------

# torch.can_cast(row, column): no casting down a category; nothing but bool casts to bool.
CAN_CAST = {
    "b1": CODES,
    "u1": CODES[1:], "i1": CODES[1:], "i2": CODES[1:], "i4": CODES[1:], "i8": CODES[1:],
    "f2": CODES[6:], "bf": CODES[6:], "f4": CODES[6:], "f8": CODES[6:],
    "c8": CODES[10:], "c16": CODES[10:],
}


@pytest.mark.parametrize("a", CODES)
def test_can_cast(a):
    allowed = [b for b in CODES if ember.can_cast(CODE[a], CODE[b])]
    assert allowed == CAN_CAST[a]


# -- aliases, attributes, reprs --------------------------------------------------------------

@pytest.mark.parametrize("alias, dtype", [
    ("float", "float32"), ("double", "float64"), ("half", "float16"), ("long", "int64"),
    ("int", "int32"), ("short", "int16"), ("cfloat", "complex64"), ("cdouble", "complex128"),
])
def test_aliases(alias, dtype):
    assert getattr(ember, alias) is getattr(ember, dtype)


# name, is_floating_point, is_complex, is_signed, itemsize
ATTRIBUTES = [
    ("bool", False, False, False, 1), ("uint8", False, False, False, 1),
    ("int8", False, False, True, 1), ("int16", False, False, True, 2),
    ("int32", False, False, True, 4), ("int64", False, False, True, 8),
    ("float16", True, False, True, 2), ("bfloat16", True, False, True, 2),
    ("float32", True, False, True, 4), ("float64", True, False, True, 8),
    ("complex64", False, True, True, 8), ("complex128", False, True, True, 16),
]


@pytest.mark.parametrize("name, floating, complex_, signed, itemsize", ATTRIBUTES)
def test_dtype_attributes(name, floating, complex_, signed, itemsize):
    d = getattr(ember, name)
    assert d.is_floating_point is floating
    assert d.is_complex is complex_
    assert d.is_signed is signed
    assert d.itemsize == itemsize
    assert repr(d) == str(d) == f"torch.{name}"
    assert ember.zeros(2, dtype=d).element_size() == itemsize


@pytest.mark.parametrize("name, real, complex_", [
    ("bfloat16", "bfloat16", "complex64"), ("float32", "float32", "complex64"),
    ("float64", "float64", "complex128"), ("complex64", "float32", "complex64"),
    ("complex128", "float64", "complex128"), ("int32", "int32", None), ("bool", "bool", None),
])
def test_to_real_and_to_complex(name, real, complex_):
    d = getattr(ember, name)
    assert d.to_real() is getattr(ember, real)
    if complex_ is None:
        with pytest.raises(RuntimeError):
            d.to_complex()
    else:
        assert d.to_complex() is getattr(ember, complex_)


def test_to_complex_error_text():
    with pytest.raises(RuntimeError, match="^Unknown Complex ScalarType for Int$"):
        ember.int32.to_complex()


def test_dtype_equality_hash_and_pickle():
    assert ember.float32 == ember.float and hash(ember.float32) == hash(ember.float)
    assert ember.float32 != ember.float64
    for d in ALL:
        assert pickle.loads(pickle.dumps(d)) is d


# -- the default dtype ----------------------------------------------------------------------

def test_default_dtype_is_float32():
    assert ember.get_default_dtype() is ember.float32


def test_set_default_dtype_float64_changes_creation(default_dtype):
    ember.set_default_dtype(ember.float64)
    assert ember.get_default_dtype() is ember.float64
    assert ember.tensor([1.]).dtype is ember.float64
    assert ember.tensor(1.5).dtype is ember.float64
    assert ember.tensor([1]).dtype is ember.int64
    assert ember.tensor([1j]).dtype is ember.complex128
    assert ember.tensor(np.float32(1)).dtype is ember.float32     # NumPy scalars keep theirs
    for t in [ember.zeros(2), ember.ones(2), ember.empty(1), ember.full((2,), 1.5),
              ember.arange(1.), ember.linspace(0, 1, 2), ember.logspace(0, 1, 2), ember.eye(2),
              ember.Tensor(2)]:
        assert t.dtype is ember.float64
    quotient = ember.tensor([1, 2]) / ember.tensor([2, 2])
    assert quotient.dtype is ember.float64
    assert quotient.tolist() == [0.5, 1.0]


def test_set_default_dtype_float16(default_dtype):
    ember.set_default_dtype(ember.float16)
    assert ember.tensor([1.5]).dtype is ember.float16
    assert ember.ones(2).dtype is ember.float16
    assert (ember.tensor([3]) / ember.tensor([2])).dtype is ember.float16


def test_int_division_gives_the_default_float():
    i, j = ember.tensor([7, 2]), ember.tensor([2, 4])
    assert (i / j).dtype is ember.float32
    assert (i / j).tolist() == [3.5, 0.5]
    assert (i // j).dtype is ember.int64
    i32 = ember.tensor([1, 2], dtype=ember.int32)
    assert (i32 / i32).dtype is ember.float32
    assert (ember.tensor([True, False]) / ember.tensor([True, True])).tolist() == [1.0, 0.0]


def test_bfloat16_default_has_no_complex_counterpart(default_dtype):
    ember.set_default_dtype(ember.bfloat16)
    assert ember.tensor([1.5]).dtype is ember.bfloat16
    with pytest.raises(RuntimeError, match="^invalid default scalar type for complex$"):
        ember.tensor([1j])


@pytest.mark.parametrize("bad", [ember.int64, ember.bool, ember.complex64])
def test_set_default_dtype_rejects_non_floating(bad, default_dtype):
    with pytest.raises(TypeError, match="^only floating-point types are supported as the "
                                        "default type$"):
        ember.set_default_dtype(bad)
    assert ember.get_default_dtype() is ember.float32


# -- finfo / iinfo ------------------------------------------------------------------------------

# bits, eps, max, tiny (== smallest_normal), as torch.finfo reports them
FINFO = {
    "float16": (16, 2.0 ** -10, 65504.0, 2.0 ** -14),
    "bfloat16": (16, 2.0 ** -7, 3.3895313892515355e+38, 2.0 ** -126),
    "float32": (32, 2.0 ** -23, 3.4028234663852886e+38, 2.0 ** -126),
    "float64": (64, 2.0 ** -52, 1.7976931348623157e+308, 2.0 ** -1022),
}


@pytest.mark.parametrize("name", list(FINFO))
def test_finfo_values(name):
    bits, eps, max_, tiny = FINFO[name]
    f = ember.finfo(getattr(ember, name))
    assert (f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal) == \
        (bits, eps, max_, -max_, tiny, tiny)
    assert type(f.eps) is float and f.dtype == name


def test_finfo_defaults_and_complex(default_dtype):
    assert ember.finfo().dtype == "float32"
    assert ember.finfo(ember.complex64).dtype == "float32"
    assert ember.finfo(ember.complex128).dtype == "float64"
    ember.set_default_dtype(ember.float64)
    assert ember.finfo().dtype == "float64"


FINFO_REPR = {
    "float16": "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, "
               "smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)",
    "bfloat16": "finfo(resolution=0.01, min=-3.38953e+38, max=3.38953e+38, eps=0.0078125, "
                "smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=bfloat16)",
    "float32": "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, "
               "smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=float32)",
    "float64": "finfo(resolution=1e-15, min=-1.79769e+308, max=1.79769e+308, eps=2.22045e-16, "
               "smallest_normal=2.22507e-308, tiny=2.22507e-308, dtype=float64)",
}


@pytest.mark.parametrize("name", ["float16",
                                  "bfloat16",
                                  "float32", "float64"])
def test_finfo_repr(name):
    assert repr(ember.finfo(getattr(ember, name))) == FINFO_REPR[name]


def test_finfo_resolution_is_a_power_of_ten():
    got = [ember.finfo(getattr(ember, n)).resolution for n in FINFO]
    assert got == [0.001, 0.01, 1e-06, 1e-15]


def test_finfo_equality():
    assert ember.finfo(ember.float32) == ember.finfo(ember.float32)


IINFO = [
    ("uint8", 8, 0, 255, "iinfo(min=0, max=255, dtype=uint8)"),
    ("int8", 8, -128, 127, "iinfo(min=-128, max=127, dtype=int8)"),
    ("int16", 16, -32768, 32767, "iinfo(min=-32768, max=32767, dtype=int16)"),
    ("int32", 32, -2 ** 31, 2 ** 31 - 1,
     "iinfo(min=-2.14748e+09, max=2.14748e+09, dtype=int32)"),
    ("int64", 64, -2 ** 63, 2 ** 63 - 1,
     "iinfo(min=-9.22337e+18, max=9.22337e+18, dtype=int64)"),
]


@pytest.mark.parametrize("name, bits, min_, max_, text", IINFO)
def test_iinfo(name, bits, min_, max_, text):
    i = ember.iinfo(getattr(ember, name))
    assert (i.bits, i.min, i.max, i.dtype) == (bits, min_, max_, name)
    assert type(i.max) is int
    assert repr(i) == text


def test_finfo_and_iinfo_reject_the_wrong_kind():
    with pytest.raises(TypeError, match=r"^torch\.finfo\(\) requires a floating point input "
                                        r"type\. Use torch\.iinfo to handle"):
        ember.finfo(ember.int32)
    with pytest.raises(TypeError, match=r"^torch\.iinfo\(\) requires an integer input type\. "
                                        r"Use torch\.finfo to handle"):
        ember.iinfo(ember.float32)


def test_finfo_iinfo_error_text_ends_like_torch():
    with pytest.raises(TypeError) as info:
        ember.finfo(ember.int32)
    assert str(info.value) == ("torch.finfo() requires a floating point input type. Use "
                               "torch.iinfo to handle 'torch.finfo'")


def test_iinfo_bool_is_an_error():
    with pytest.raises(TypeError, match=r"^torch\.bool is not supported by torch\.iinfo$"):
        ember.iinfo(ember.bool)


# -- conversions ------------------------------------------------------------------------------

VALUES = [1.7, -1.7, 2.5, -2.5, 0.4]


@pytest.mark.parametrize("method, dtype, np_type, expected", [
    ("half", ember.float16, np.float16, [1.7001953125, -1.7001953125, 2.5, -2.5,
                                         0.39990234375]),
    ("bfloat16", ember.bfloat16, None, [1.703125, -1.703125, 2.5, -2.5, 0.400390625]),
    ("double", ember.float64, np.float64, [1.7000000476837158, -1.7000000476837158, 2.5, -2.5,
                                           0.4000000059604645]),
    ("int", ember.int32, np.int32, [1, -1, 2, -2, 0]),          # toward zero
    ("long", ember.int64, np.int64, [1, -1, 2, -2, 0]),
    ("short", ember.int16, np.int16, [1, -1, 2, -2, 0]),
    ("char", ember.int8, np.int8, [1, -1, 2, -2, 0]),
    ("bool", ember.bool, np.bool_, [True, True, True, True, True]),
])
def test_dtype_methods(method, dtype, np_type, expected):
    x = ember.tensor(VALUES)
    y = getattr(x, method)()
    assert y.dtype is dtype
    assert y.tolist() == expected
    if np_type is not None:
        np.testing.assert_array_equal(y.numpy(), np.array(VALUES, np.float32).astype(np_type))
        assert y.numpy().dtype == np_type


def test_integer_conversions_wrap_like_c():
    assert ember.tensor([255, 256, -1]).byte().tolist() == [255, 0, 255]
    assert ember.tensor([127, 128, -129]).char().tolist() == [127, -128, 127]
    assert ember.tensor([70000]).short().tolist() == [4464]
    assert ember.tensor([2 ** 31]).int().tolist() == [-2 ** 31]
    assert ember.tensor([-3.99]).to(ember.int64).tolist() == [-3]
    assert ember.tensor([0.5, 0., -1.]).bool().tolist() == [True, False, True]
    assert ember.tensor([True, False]).float().tolist() == [1.0, 0.0]


@pytest.mark.parametrize("convert", [
    lambda x: x.float(), lambda x: x.to(ember.float32), lambda x: x.to(dtype=ember.float32),
    lambda x: x.to("cpu"), lambda x: x.to(x), lambda x: x.type(ember.float32),
    lambda x: x.type("torch.FloatTensor"), lambda x: x.type_as(x), lambda x: x.cpu(),
])
def test_conversion_that_changes_nothing_returns_self(convert):
    x = ember.tensor([1., 2.])
    assert convert(x) is x


def test_conversions_that_change_something_copy():
    x = ember.tensor([1., 2.])
    y = x.to(ember.float32, copy=True)
    assert y is not x and y.data_ptr() != x.data_ptr()
    z = x.to(ember.float64)
    z[0] = 9
    assert x.tolist() == [1., 2.]
    assert x.to("cpu", ember.float64).dtype is ember.float64
    assert ember.tensor([1, 2]).to(ember.tensor([1.], dtype=ember.float16)).dtype is ember.float16


def test_type_names_and_conversion_by_name():
    assert ember.tensor([1.5]).type() == "torch.FloatTensor"
    assert ember.tensor([1]).type() == "torch.LongTensor"
    names = {"bool": "BoolTensor", "uint8": "ByteTensor", "int8": "CharTensor",
             "int16": "ShortTensor", "int32": "IntTensor", "int64": "LongTensor",
             "float16": "HalfTensor", "bfloat16": "BFloat16Tensor", "float32": "FloatTensor",
             "float64": "DoubleTensor"}
    for name, legacy in names.items():
        assert ember.zeros(1, dtype=getattr(ember, name)).type() == f"torch.{legacy}"
    x = ember.tensor([1.7, -1.7])
    assert x.type(ember.int64).tolist() == [1, -1]
    y = x.type("torch.DoubleTensor")
    assert y.dtype is ember.float64
    assert x.type("torch.IntTensor").dtype is ember.int32
    assert x.type("torch.ByteTensor").tolist() == [1, 255]
    for bad in ["torch.FooTensor", "foo"]:
        with pytest.raises(ValueError, match=f"^invalid type: '{bad}'$"):
            x.type(bad)


def test_type_with_a_legacy_class():
    x = ember.tensor([1.7, -1.7])
    assert x.type(ember.IntTensor).dtype is ember.int32
    assert x.type(ember.IntTensor).tolist() == [1, -1]


def test_legacy_classes():
    assert isinstance(ember.ones(2), ember.FloatTensor)
    assert not isinstance(ember.ones(2), ember.LongTensor)
    assert isinstance(ember.arange(2), ember.LongTensor)
    assert ember.FloatTensor(2, 3).shape == (2, 3)
    assert ember.FloatTensor(2, 3).dtype is ember.float32
    t = ember.LongTensor([1, 2])
    assert t.dtype is ember.int64 and t.tolist() == [1, 2]
    assert ember.DoubleTensor([1]).dtype is ember.float64
    assert ember.BoolTensor([1, 0]).tolist() == [True, False]
    assert repr(ember.FloatTensor) == "<class 'torch.FloatTensor'>"


@pytest.mark.parametrize("call", [
    lambda v: ember.zeros(2).fill_(v), lambda v: ember.zeros(2, dtype=ember.bool).fill_(v),
    lambda v: ember.zeros(2, dtype=ember.int64).fill_(v), lambda v: ember.full((2,), v),
    lambda v: ember.zeros(2).masked_fill(ember.tensor([True, False]), v),
    lambda v: ember.zeros(2).index_fill(0, ember.tensor([0]), v),
])
def test_a_python_int_beyond_int64_and_uint64_is_python_overflow_as_torch(call):
    # torch reads a Python int number as int64 (uint64 when too big for it), whatever the
    # tensor's dtype: beyond both, the conversion's OverflowError, before any range check
    with pytest.raises(OverflowError, match="^int too big to convert$"):
        call(2**64)
    with pytest.raises(OverflowError, match="^can't convert negative int to unsigned$"):
        call(-2**63 - 1)


def test_python_ints_at_the_ends_of_the_readable_range_still_fill():
    assert ember.zeros(1).fill_(2**64 - 1).item() == float(2**64)
    assert ember.zeros(1, dtype=ember.int64).fill_(-2**63).item() == -2**63
    with pytest.raises(RuntimeError, match="cannot be converted to type int64_t"):
        ember.zeros(1, dtype=ember.int64).fill_(2**63)
