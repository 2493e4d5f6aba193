"""Dtypes: the twelve scalar types, torch's three "limited" unsigned types, their torch names,
and torch's type-promotion rules.

Pure data and arithmetic on types; no arrays are created here. "What dtype does int32 + float16
give?" is answered by `promote_types`; "what does `t + 2.5` give?" by `result_type`.
"""
import builtins
import math

import numpy as np
import ml_dtypes

__all__ = [
    "dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
    "float32", "float64", "complex64", "complex128", "uint16", "uint32", "uint64",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
    "promote_types", "result_type", "can_cast", "get_default_dtype", "set_default_dtype",
    "finfo", "iinfo",
]

_builtin_bool, _builtin_int, _builtin_float, _builtin_complex = bool, int, float, complex

# Categories order the kinds of number: a higher category always wins a promotion. (The
# quantized dtypes, _qdtype.py, have a category of their own and promote with nothing.)
_BOOL, _INT, _FLOAT, _COMPLEX, _QUANTIZED = 0, 1, 2, 3, 4


class dtype:
    """A tensor element type, such as `ember.float32`. Prints as torch does (`torch.float32`)."""

    __slots__ = ("_name", "_np", "_category", "itemsize", "is_signed", "_scalar_name",
                 "_cpp_name", "_legacy_name", "__weakref__")

    def __init__(self, name, np_dtype, category, signed, scalar_name, cpp_name, legacy_name):
        self._name = name
        self._np = np.dtype(np_dtype)
        self._category = category
        self.itemsize = self._np.itemsize
        self.is_signed = signed
        self._scalar_name = scalar_name      # c10 ScalarType name: "Float", "Long", ...
        self._cpp_name = cpp_name            # C++ type name used in some torch errors
        self._legacy_name = legacy_name      # "FloatTensor", as in `t.type()`

    @property
    def is_floating_point(self):
        return self._category == _FLOAT

    @property
    def is_complex(self):
        return self._category == _COMPLEX

    def to_real(self):
        """The real counterpart of a complex dtype (complex64 -> float32); others unchanged."""
        return _COMPLEX_TO_REAL.get(self, self)

    def to_complex(self):
        """The complex counterpart of a floating dtype (float32 -> complex64)."""
        if self._category == _COMPLEX:
            return self
        found = _REAL_TO_COMPLEX.get(self)
        if found is None:           # (integers, bool and the float8 types)
            raise RuntimeError(f"Unknown Complex ScalarType for {self._scalar_name}")
        return found

    @property
    def abbr(self):
        """torch's short name: 'f32', 'bf16', 'i64', 'u8', 'b8', 'c64', 'f8e4m3fn', ..."""
        name = self._name
        if name == "bool":
            return "b8"
        if name.startswith("float8_"):
            return "f8" + name[len("float8_"):]
        for prefix, short in (("bfloat", "bf"), ("float", "f"), ("complex", "c"),
                              ("uint", "u"), ("int", "i")):
            if name.startswith(prefix):
                return short + name[len(prefix):]
        return name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return (_dtype_by_name, (self._name,))


def _make(name, np_dtype, category, signed, scalar_name, cpp_name, legacy):
    return dtype(name, np_dtype, category, signed, scalar_name, cpp_name, legacy)


bool = _make("bool", np.bool_, _BOOL, False, "Bool", "bool", "BoolTensor")
uint8 = _make("uint8", np.uint8, _INT, False, "Byte", "unsigned char", "ByteTensor")
int8 = _make("int8", np.int8, _INT, True, "Char", "signed char", "CharTensor")
int16 = _make("int16", np.int16, _INT, True, "Short", "short int", "ShortTensor")
int32 = _make("int32", np.int32, _INT, True, "Int", "int", "IntTensor")
int64 = _make("int64", np.int64, _INT, True, "Long", "long int", "LongTensor")
float16 = _make("float16", np.float16, _FLOAT, True, "Half", "c10::Half", "HalfTensor")
bfloat16 = _make("bfloat16", ml_dtypes.bfloat16, _FLOAT, True, "BFloat16", "c10::BFloat16",
                 "BFloat16Tensor")
float32 = _make("float32", np.float32, _FLOAT, True, "Float", "float", "FloatTensor")
float64 = _make("float64", np.float64, _FLOAT, True, "Double", "double", "DoubleTensor")
complex64 = _make("complex64", np.complex64, _COMPLEX, True, "ComplexFloat",
                  "c10::complex<float>", "ComplexFloatTensor")
complex128 = _make("complex128", np.complex128, _COMPLEX, True, "ComplexDouble",
                   "c10::complex<double>", "ComplexDoubleTensor")

ALL_DTYPES = (bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64,
              complex64, complex128)

# NOTE [ Limited dtypes ]
# torch (since 2.3) has uint16, uint32 and uint64 as "shell" dtypes with limited op support:
# tensors of them can be made (tensor, zeros, ones, full, empty, randint), printed, converted
# with .to() both ways, shared with NumPy, saved and loaded, viewed, reshaped, indexed by
# slices and by index tensors, sorted and joined, and a few kernels take them (mul, true
# division, eq/ne, bitwise and/or/xor, sum and prod into int64, where, copy, fill). Most other
# kernels raise NotImplementedError ('"add_stub" not implemented for 'UInt16''), and they promote
# only with themselves and with floating types. They are not in ALL_DTYPES: torch has no
# UInt16Tensor or UInt16Storage classes for them.
uint16 = _make("uint16", np.uint16, _INT, False, "UInt16", "short unsigned int",
               "UInt16Tensor")
uint32 = _make("uint32", np.uint32, _INT, False, "UInt32", "unsigned int", "UInt32Tensor")
uint64 = _make("uint64", np.uint64, _INT, False, "UInt64", "long unsigned int",
               "UInt64Tensor")
LIMITED_DTYPES = (uint16, uint32, uint64)
LIMITED_NP = frozenset(d._np for d in LIMITED_DTYPES)     # (their NumPy dtypes)

# NOTE [ Float8 dtypes ]
# torch's five 8-bit float formats (e4m3fn: 4 exponent bits, 3 mantissa bits, finite: no
# infinities; "uz": unsigned zero, a single NaN where -0 would be; e8m0fnu: powers of two only)
# are stored as ml_dtypes' NumPy types of the same bits. They are even more limited than the
# limited dtypes: torch's CPU kernels only make, fill, copy, convert, view, index and join them,
# compare them for equality and multiply two tensors of one of them (the table is in
# _ops/float8.py); anything else raises NotImplementedError, and they promote with nothing but
# themselves ("Promotion for Float8 Types is not supported"). Conversions into them follow
# torch's, not ml_dtypes' (see _float8.py). ml_dtypes gives four of them NumPy's kind "V" (as
# bfloat16) but float8_e5m2 kind "f": code that takes kind "f" for NumPy's float16/32/64 must
# not meet them (the element-wise float fast path tests the type code instead). torch gives
# them no legacy tensor classes, and NumPy has no type torch would map them to.
float8_e4m3fn = _make("float8_e4m3fn", ml_dtypes.float8_e4m3fn, _FLOAT, True, "Float8_e4m3fn",
                      "c10::Float8_e4m3fn", "Float8_e4m3fnTensor")
float8_e5m2 = _make("float8_e5m2", ml_dtypes.float8_e5m2, _FLOAT, True, "Float8_e5m2",
                    "c10::Float8_e5m2", "Float8_e5m2Tensor")
float8_e4m3fnuz = _make("float8_e4m3fnuz", ml_dtypes.float8_e4m3fnuz, _FLOAT, True,
                        "Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "Float8_e4m3fnuzTensor")
float8_e5m2fnuz = _make("float8_e5m2fnuz", ml_dtypes.float8_e5m2fnuz, _FLOAT, True,
                        "Float8_e5m2fnuz", "c10::Float8_e5m2fnuz", "Float8_e5m2fnuzTensor")
float8_e8m0fnu = _make("float8_e8m0fnu", ml_dtypes.float8_e8m0fnu, _FLOAT, False,
                       "Float8_e8m0fnu", "c10::Float8_e8m0fnu", "Float8_e8m0fnuTensor")
FLOAT8_DTYPES = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu)
FLOAT8_NP = frozenset(d._np for d in FLOAT8_DTYPES)

# torch's aliases: ember.float is ember.float32, ember.long is ember.int64, ...
ALIASES = {
    "float": float32, "double": float64, "half": float16, "cfloat": complex64,
    "cdouble": complex128, "short": int16, "int": int32, "long": int64,
}

_BY_NAME = {d._name: d for d in ALL_DTYPES + LIMITED_DTYPES + FLOAT8_DTYPES}
_BY_NAME.update(ALIASES)
_FROM_NUMPY = {d._np: d for d in ALL_DTYPES + LIMITED_DTYPES + FLOAT8_DTYPES}
_COMPLEX_TO_REAL = {complex64: float32, complex128: float64}
_REAL_TO_COMPLEX = {float16: complex64, bfloat16: complex64, float32: complex64,
                    float64: complex128}


# torch's argument parser takes Python's number types where a dtype is expected:
# zeros(2, dtype=float) is float64, x.to(int) int64 (NumPy's meaning, not the default dtype).
_PYTHON_TYPES = {builtins.float: float64, builtins.int: int64, builtins.bool: bool,
                 builtins.complex: complex128}


def as_dtype(d, name):
    """`d` (a dtype, None, or one of Python's number types) as a dtype or None; a TypeError in
    torch's words for anything else."""
    if d is None or isinstance(d, dtype):
        return d
    found = _PYTHON_TYPES.get(d) if isinstance(d, type) else None
    if found is None:
        raise TypeError(f"{name}(): argument 'dtype' must be torch.dtype, not "
                        f"{type(d).__name__}")
    return found


def _dtype_by_name(name):
    return _BY_NAME[name]


def from_numpy_dtype(np_dtype):
    """The ember dtype of a NumPy dtype; TypeError for types torch has no counterpart of (the
    float8 types too: NOTE [ Float8 dtypes ])."""
    try:
        found = _FROM_NUMPY[np_dtype]
    except KeyError:
        found = None
    if found is None:
        try:
            found = _FROM_NUMPY[np.dtype(np_dtype)]
        except (KeyError, TypeError):
            raise TypeError(unsupported_numpy_type(np.dtype(np_dtype))) from None
    if found._np in FLOAT8_NP:
        raise TypeError(unsupported_numpy_type(found._np))
    return found


def unsupported_numpy_type(np_dtype):
    """torch's message for an array of a NumPy dtype it cannot hold, naming the scalar type as
    its module does (numpy.object_, numpy.str_, numpy.longdouble, ml_dtypes.float8_e5m2)."""
    module = np_dtype.type.__module__.split(".")[0]
    return (f"can't convert np.ndarray of type {module}.{np_dtype.type.__name__}. The only "
            "supported types are: float64, float32, float16, complex64, complex128, int64, "
            "int32, int16, int8, uint64, uint32, uint16, uint8, and bool.")


# ---------------------------------------------------------------------------------------------
# Promotion between two dtypes

def _promote_pair(a, b):
    if a is b:
        return a
    if a._category != b._category:
        low, high = (a, b) if a._category < b._category else (b, a)
        if high._category == _COMPLEX and low._category == _FLOAT:
            # float64 + complex64 -> complex128: the complex keeps the wider float's precision.
            return complex128 if low is float64 else high
        return high
    if a._category == _INT:
        if a.is_signed == b.is_signed:
            return a if a.itemsize > b.itemsize else b
        signed, unsigned = (a, b) if a.is_signed else (b, a)
        # uint8 mixed with a signed int needs a wider signed type when the signed one is int8.
        return signed if signed.itemsize > unsigned.itemsize else int16
    if {a, b} == {float16, bfloat16}:
        return float32
    return a if a.itemsize > b.itemsize else b


_PROMOTION_TABLE = {(a, b): _promote_pair(a, b) for a in ALL_DTYPES for b in ALL_DTYPES}
# The limited dtypes (NOTE [ Limited dtypes ]) promote only with themselves and with floating
# types (which win); other pairs are missing from the table, and promoting them is an error.
_PROMOTION_TABLE.update({(a, a): a for a in LIMITED_DTYPES})
_PROMOTION_TABLE.update({pair: f for u in LIMITED_DTYPES for f in ALL_DTYPES
                         if f._category == _FLOAT for pair in ((u, f), (f, u))})
# The float8 types (NOTE [ Float8 dtypes ]) promote only with themselves.
_PROMOTION_TABLE.update({(a, a): a for a in FLOAT8_DTYPES})


def _no_promotion(a, b):
    if _QUANTIZED in (a._category, b._category):
        return RuntimeError("promoteTypes with quantized numbers is not handled yet; figure "
                            "out what the correct rules should be, offending types: "
                            f"{a._scalar_name} {b._scalar_name}")
    kind = "Float8 Types" if a in FLOAT8_DTYPES or b in FLOAT8_DTYPES else \
        "uint16, uint32, uint64 types"
    return RuntimeError(f"Promotion for {kind} is not supported, "
                        f"attempted to promote {a._scalar_name} and {b._scalar_name}")


def promote_types(type1, type2):
    """The smallest dtype both `type1` and `type2` can be converted to, by torch's table."""
    try:
        return _PROMOTION_TABLE[type1, type2]
    except KeyError:
        if isinstance(type1, dtype) and isinstance(type2, dtype):
            raise _no_promotion(type1, type2) from None
        raise


# ---------------------------------------------------------------------------------------------
# The default dtype

_default_float = float32


def get_default_dtype():
    """The dtype new floating tensors get (float32 unless changed)."""
    return _default_float


def set_default_dtype(d):
    """Set the dtype of new floating tensors and Python floats in promotion."""
    global _default_float
    if not isinstance(d, dtype) or d._category != _FLOAT:
        raise TypeError("only floating-point types are supported as the default type")
    if d in FLOAT8_DTYPES:          # (torch looks for a legacy storage class, which they lack)
        raise TypeError(f"couldn't find storage object {d._scalar_name}Storage")
    _default_float = d


def default_complex_dtype():
    if _default_float is float64:
        return complex128
    if _default_float is float32:
        return complex64
    # torch pairs float16 with complex32, which ember does not have, and bfloat16 with none.
    raise RuntimeError("invalid default scalar type for complex")


def scalar_dtype(value):
    """The dtype a Python number takes in promotion: bool, int64, default float or complex."""
    cls = type(value)
    if cls is _builtin_float:
        return _default_float
    if cls is _builtin_int:
        return int64
    if cls is _builtin_bool:
        return bool
    if cls is _builtin_complex:
        return default_complex_dtype()
    if isinstance(value, _builtin_bool):
        return bool
    if isinstance(value, np.bool_):
        # torch's argument parser reads a NumPy bool as a Python float (it is neither an int
        # nor a bool to it): `bool_tensor + np.bool_(True)` is float32
        return _default_float
    if isinstance(value, (_builtin_int, np.integer)):
        return int64
    if isinstance(value, (_builtin_float, np.floating)):
        return _default_float
    if isinstance(value, (_builtin_complex, np.complexfloating)):
        return default_complex_dtype()
    raise TypeError(f"expected a number, got {type(value).__name__}")


# ---------------------------------------------------------------------------------------------
# Promotion among operands: tensors with dimensions, 0-dim tensors, Python numbers

def _combine(higher, lower):
    """Let a weaker participant (0-dim tensor, Python number) raise only the category."""
    if higher is None:
        return lower
    if lower is None or higher._category >= lower._category:
        return higher
    if lower._category == _COMPLEX and higher._category == _FLOAT:
        return higher.to_complex()
    return lower


def _promote_optional(a, b):
    if a is None:
        return b
    if b is None:
        return a
    try:
        return _PROMOTION_TABLE[a, b]
    except KeyError:
        raise _no_promotion(a, b) from None


def result_type_of(dim_dtypes, zero_dim_dtypes, scalar_dtypes):
    """torch's three-tier rule: dimensioned tensors decide unless a weaker tier is of a higher
    category (bool < integer < floating < complex)."""
    dim = zero = wrapped = None
    for d in dim_dtypes:
        dim = _promote_optional(dim, d)
    for d in zero_dim_dtypes:
        zero = _promote_optional(zero, d)
    for d in scalar_dtypes:
        wrapped = _promote_optional(wrapped, d)
    return _combine(dim, _combine(zero, wrapped))


def result_type(tensor1, tensor2):
    """The dtype of an arithmetic op between two tensors or numbers, by torch's rules."""
    from ._tensor import Tensor
    dims, zeros, scalars = [], [], []
    for x in (tensor1, tensor2):
        if isinstance(x, Tensor):
            (dims if x.ndim else zeros).append(x.dtype)
        else:
            scalars.append(scalar_dtype(x))
    return result_type_of(dims, zeros, scalars)


def can_cast(from_, to):
    """Whether torch's in-place and `out=` ops allow writing a `from_` result into `to`."""
    if from_._category > to._category:
        return False
    if to._category == _BOOL and from_._category != _BOOL:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# finfo / iinfo

def _short(x):
    return f"{x:.6g}"


class finfo:
    """Machine limits of a floating dtype, as `torch.finfo`."""

    def __init__(self, type=None):
        type = _default_float if type is None else type
        if type._category == _COMPLEX:
            type = type.to_real()
        if type._category != _FLOAT:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = np.finfo(type._np) if type._np.char in "efd" else ml_dtypes.finfo(type._np)
        self.bits = info.bits
        # (torch's epsilon of e5m2fnuz is 2**-3, where ml_dtypes has 2**-2)
        self.eps = 0.125 if type is float8_e5m2fnuz else _builtin_float(info.eps)
        self.max = _builtin_float(info.max)
        self.min = _builtin_float(info.min)
        self.tiny = self.smallest_normal = _builtin_float(info.smallest_normal)
        # the number of decimal digits the type carries, as a power of ten
        self.resolution = 10.0 ** -_builtin_int(math.floor(-math.log10(self.eps)))
        self.dtype = type._name

    def _key(self):
        return (self.dtype, self.bits, self.eps, self.max, self.min, self.tiny)

    def __eq__(self, other):
        return isinstance(other, finfo) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"finfo(resolution={_short(self.resolution)}, min={_short(self.min)}, "
                f"max={_short(self.max)}, eps={_short(self.eps)}, "
                f"smallest_normal={_short(self.smallest_normal)}, tiny={_short(self.tiny)}, "
                f"dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype, as `torch.iinfo`."""

    def __init__(self, type):
        if type is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type._category == _QUANTIZED:
            raise NotImplementedError(f'"dtype" not implemented for \'{type._scalar_name}\'')
        if type._category != _INT:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        info = np.iinfo(type._np)
        self.bits, self.min, self.max = info.bits, _builtin_int(info.min), _builtin_int(info.max)
        self.dtype = type._name

    def __eq__(self, other):
        return isinstance(other, iinfo) and (self.dtype, self.min, self.max) == (
            other.dtype, other.min, other.max)

    def __hash__(self):
        return hash((self.dtype, self.min, self.max))

    def __repr__(self):
        return f"iinfo(min={_short(self.min)}, max={_short(self.max)}, dtype={self.dtype})"


# torch's aliases as module attributes (`ember.float is ember.float32`)
float = float32
double = float64
half = float16
cfloat = complex64
cdouble = complex128
short = int16
int = int32
long = int64


# ---------------------------------------------------------------------------------------------
# Numbers stored into tensors

# The C++ type torch names when a number does not fit an integer dtype.
_INT_OVERFLOW_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t",
                       "int32": "int", "int64": "int64_t", "uint16": "uint16_t",
                       "uint32": "uint32_t", "uint64": "uint64_t"}


_INT64_MIN, _UINT64_END = -(1 << 63), 1 << 64


def check_python_int(value):
    """torch reads a Python int given for a number as an int64, or as a uint64 when too big
    for int64; beyond both, its conversion raises Python's OverflowError."""
    if not _INT64_MIN <= value < _UINT64_END:
        raise OverflowError("can't convert negative int to unsigned" if value < 0 else
                            "int too big to convert")


def checked_scalar(value, d, half_range=True):
    """`value` (a Python or NumPy number) converted for storage in dtype `d`, as torch's
    checked scalar conversion (fill_, full, masked_fill, `x[i] = number`) does.

    torch raises "value cannot be converted to type T without overflow" where an integer
    type cannot hold the number (NaN and infinities included; unsigned types also take
    integers down to -max, which wrap, but no negative floating number), where a finite number is beyond a floating type's
    range, and where a complex number with a nonzero imaginary part goes to a real type (a
    zero imaginary part is dropped). Any number goes into bool.

    NOTE: torch skips the range check of float16 and bfloat16 (the number becomes inf) for
    `x[i] = number` and when it fills a single element; those callers pass `half_range=False`."""
    if value.__class__ is _builtin_int:
        check_python_int(value)
    if d._category == _BOOL:
        return _builtin_bool(value)
    if d._category == _COMPLEX:
        return value
    if isinstance(value, (_builtin_complex, np.complexfloating)):
        if value.imag != 0:
            raise _overflow(d)
        value = value.real
    if d._category == _FLOAT:
        value = _builtin_float(value)
        info = np.finfo(d._np) if d._np.char in "efd" else ml_dtypes.finfo(d._np)
        if d.itemsize <= 2 and not half_range:
            return value            # (the float8 types too: converted as `to` does)
        if d.itemsize == 1:
            # torch checks the float8 types' range with infinities included, and e8m0fnu's
            # from its smallest power of two (no zero, no negatives); NaN always fits
            if not (_builtin_float(info.min) <= value <= _builtin_float(info.max)
                    or value != value):
                raise _overflow(d)
            return value
        if math.isfinite(value) and abs(value) > _builtin_float(info.max):
            raise _overflow(d)
        return value
    floating = isinstance(value, (_builtin_float, np.floating))
    if floating and not math.isfinite(value):
        raise _overflow(d)
    info = np.iinfo(d._np)
    # (only integers wrap into an unsigned type; a floating number must be in its range)
    low = -info.max if info.min == 0 and not floating else info.min
    if not low <= value <= info.max:
        raise _overflow(d)
    value = _builtin_int(value)
    return value % (info.max + 1) if value < 0 and info.min == 0 else value


def _overflow(d):
    name = _INT_OVERFLOW_NAMES.get(d._np.name, d._cpp_name)
    return RuntimeError(f"value cannot be converted to type {name} without overflow")


dtype.__module__ = finfo.__module__ = iinfo.__module__ = "ember"   # (as torch.dtype, ...)
