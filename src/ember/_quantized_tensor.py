"""The quantized tensor's class: what torch's CPU build lets one do with a quantized tensor
(NOTE [ Quantized tensors ] in _quantized.py), and torch's errors for the rest."""
import numpy as np

from . import _dtype, _qdtype
from ._ops import elementwise as _elementwise
from ._tensor import Tensor, wrap
from .sparse._backends import _TAIL

_new = object.__new__

# The arithmetic torch's CPU build has no quantized kernel for: its missing kernel's name, and
# the backends its error says the kernel exists for.
_CPU = "CPU, Meta"
_SPARSE = "CPU, Meta, SparseCPU"
_CSR = "CPU, Meta, SparseCPU, SparseCsrCPU, SparseCsrMeta"
_ADD = "CPU, Meta, MkldnnCPU, SparseCPU, SparseMeta, SparseCsrCPU, SparseCsrMeta"
_MUL = "CPU, Meta, MkldnnCPU, SparseCPU, SparseCsrCPU, SparseCsrMeta"
_MISSING = {
    "add": ("add.out", _ADD), "sub": ("sub.out", _SPARSE), "mul": ("mul.out", _MUL),
    "div": ("div.out", _SPARSE), "neg": ("neg.out", _CSR), "abs": ("abs.out", _CSR),
    "sqrt": ("sqrt.out", _CSR), "sin": ("sin.out", _CSR), "mm": ("mm.out", _CSR),
    "sum": ("sum.IntList_out", _CPU), "exp": ("exp.out", _CPU), "log": ("log.out", _CPU),
    "softmax": ("_softmax.out", _CPU), "log_softmax": ("_log_softmax.out", _CPU),
    "argmax": ("argmax.out", _CPU), "prod": ("prod", _CPU), "cumsum": ("cumsum.out", _CPU),
    "var": ("var.correction", _CPU), "pow": ("pow.Tensor_Scalar_out", _SPARSE),
    "pow_tensor": ("pow.Tensor_Tensor_out", _CPU), "clamp_": ("clamp.out", _CPU),
    "unique": ("_unique2", _CPU), "amax": ("amax.out", _CPU), "amin": ("amin.out", _CPU),
    "median": ("median", _CPU), "kthvalue": ("kthvalue.values", _CPU),
    "cummax": ("_cummax_helper", _CPU), "cummin": ("_cummin_helper", _CPU),
    "roll": ("roll", _CPU), "scatter": ("scatter.value_out", _CPU),
    "gather": ("gather.out", _CPU), "where": ("where.self", _CPU + ", NestedTensorCPU, "
                                                             "NestedTensorHPU"),
    "zero_": ("zero_", _ADD + ", NestedTensorCPU, NestedTensorHPU"),
}
# (add, sub, mul and div with a number first make an empty tensor like the quantized one)
_WITH_NUMBER = ("empty_strided not supported on quantized tensors yet see "
                "https://github.com/pytorch/pytorch/issues/74540")


def missing_kernel(name):
    """torch's NotImplementedError for an operator with no QuantizedCPU kernel."""
    return kernel_missing_for(*_MISSING[name])


def kernel_missing_for(op, backends=_CPU):
    """torch's NotImplementedError for aten operator `op` (as "exp.out") given a quantized
    tensor, with the backends that have it (for most element-wise operators, `_CPU`)."""
    return NotImplementedError(
        f"Could not run 'aten::{op}' with arguments from the 'QuantizedCPU' backend. This "
        "could be because the operator doesn't exist for this backend, or was omitted during "
        "the selective/custom build process (if using custom build). If you are a Facebook "
        "employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
        f"possible resolutions. 'aten::{op}' is only available for these backends: "
        f"[{backends}, {_TAIL}].")


def _refuse(name):
    def refused(self, *args, **kwargs):
        other = args[0] if args else None
        if name in ("add", "sub", "mul", "div") and not isinstance(other, Tensor):
            if isinstance(other, float):    # (torch 2.13 promotes first; an int, bool or
                raise _dtype._no_promotion(self.dtype, _dtype.float32)   # reflected one
            raise RuntimeError(_WITH_NUMBER)     # makes an empty tensor first)
        if isinstance(other, Tensor) and not other.is_quantized and name in (
                "add", "sub", "mul", "div"):
            raise _dtype._no_promotion(self.dtype, other.dtype)
        raise missing_kernel(name)
    refused.__name__ = name
    return refused


def _pow(self, exponent, *args, **kwargs):
    raise missing_kernel("pow_tensor" if isinstance(exponent, Tensor) else "pow")


class QuantizedTensor(Tensor):
    """A quantized tensor (NOTE [ Quantized tensors ] in _quantized.py)."""

    __slots__ = ("_quantizer",)
    is_quantized = True

    # -- what it is --------------------------------------------------------------------------

    @property
    def dtype(self):
        return self._quantizer.dtype

    def is_floating_point(self):
        return False

    def qscheme(self):
        return self._quantizer.scheme

    def q_scale(self):
        self._expect(per_channel=False)
        return self._quantizer.scale

    def q_zero_point(self):
        self._expect(per_channel=False)
        return self._quantizer.zero_point

    def q_per_channel_scales(self):
        self._expect(per_channel=True)
        return self._quantizer.scales.clone()

    def q_per_channel_zero_points(self):
        self._expect(per_channel=True)
        return self._quantizer.zero_points.clone()

    def q_per_channel_axis(self):
        self._expect(per_channel=True)
        return self._quantizer.axis

    def _expect(self, per_channel):
        if self._quantizer.per_channel != per_channel:
            wanted = ("qscheme() == kPerChannelAffine || quantizer->qscheme() == "
                      "kPerChannelAffineFloatQParams") if per_channel else \
                "qscheme() == kPerTensorAffine"
            raise RuntimeError(f"Expected quantizer->{wanted} to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report "
                               "an enhancement request to PyTorch.)")

    def type(self, dtype=None, non_blocking=False, **kwargs):
        if dtype is None:
            return "torch." + self.dtype._legacy_name
        return self.to(dtype)

    # -- its values --------------------------------------------------------------------------

    def int_repr(self):
        """The stored integers as an integer tensor (quint4x2 and quint2x4: packed bytes, low
        bits first, as torch stores them)."""
        array = self._data.copy()
        per_byte = {_qdtype.quint4x2: 2, _qdtype.quint2x4: 4}.get(self.dtype)
        if per_byte is not None:
            flat = array.reshape(-1).astype(np.uint8)
            flat = np.concatenate([flat, np.zeros(-flat.size % per_byte, np.uint8)])
            bits = 8 // per_byte
            groups = flat.reshape(-1, per_byte) << (np.arange(per_byte, dtype=np.uint8) * bits)
            array = np.bitwise_or.reduce(groups, axis=1).astype(np.uint8)
        return wrap(array)

    def dequantize(self):
        """The float32 tensor of the real values `(q - zero_point) * scale`."""
        scale, zero_point = self._quantizer.params_for(self._data.ndim)
        return wrap(_qdtype.dequantize(self._data, scale, zero_point,
                                       in_double=self._quantizer.per_channel))

    def item(self):
        return self.dequantize().item()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __bool__(self):
        return bool(self.dequantize())

    def tolist(self):
        raise RuntimeError("load_scalar: invalid type")

    def numpy(self, *, force=False):
        raise TypeError(f"Got unsupported ScalarType {self.dtype._scalar_name}")

    def __repr__(self, *, tensor_contents=None):
        from ._printing import format_values, wrap_suffixes
        q = self._quantizer
        body = format_values(self.dequantize()._data, _dtype.float32)
        suffixes = [f"size={tuple(self.shape)}", f"dtype={q.dtype}",
                    f"quantization_scheme={q.scheme}"]
        if q.per_channel:
            suffixes += [f"scale={q.scales!r}", f"zero_point={q.zero_points!r}",
                         f"axis={q.axis}"]
        else:
            suffixes += [f"scale={q.scale!r}", f"zero_point={q.zero_point}"]
        text = "tensor(" + body
        return text + wrap_suffixes(suffixes, len("tensor("), len(text) - text.rfind("\n") + 1)

    __str__ = __repr__

    # -- copies and pickling keep the parameters ---------------------------------------------

    def __copy__(self):
        new = Tensor.__copy__(self)
        new._quantizer = self._quantizer
        return new

    def __deepcopy__(self, memo):
        import copy
        new = Tensor.__deepcopy__(self, memo)
        new._quantizer = copy.deepcopy(self._quantizer, memo)
        return new

    def __reduce_ex__(self, protocol):
        rebuild, args = Tensor.__reduce_ex__(self, protocol)
        return (_rebuilt_with, (rebuild, args, self._quantizer))

    # -- comparisons see the real values -----------------------------------------------------

    def _real(self, other):
        return other.dequantize() if isinstance(other, QuantizedTensor) else other

    def __eq__(self, other):
        return self.dequantize() == self._real(other)

    def __ne__(self, other):
        return self.dequantize() != self._real(other)

    def __lt__(self, other):
        return self.dequantize() < self._real(other)

    def __le__(self, other):
        return self.dequantize() <= self._real(other)

    def __gt__(self, other):
        return self.dequantize() > self._real(other)

    def __ge__(self, other):
        return self.dequantize() >= self._real(other)

    __hash__ = Tensor.__hash__
    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    # -- kernels on the integers -------------------------------------------------------------

    def relu(self):
        """max(x, 0): the integers below the zero point become the zero point."""
        self._expect(per_channel=False)
        zero_point = self._quantizer.zero_point
        return _like(self, np.maximum(self._data, np.asarray(zero_point, self._data.dtype)))

    def relu_(self):
        self._expect(per_channel=False)
        np.maximum(self._data, self._quantizer.zero_point, out=self._data)
        return self

    def max(self, *args, **kwargs):
        if args or kwargs:
            raise _not_implemented("max with a dim")
        self._expect(per_channel=False)
        return _like(self, np.asarray(self._data.max()))

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        """The mean with this tensor's scale and zero point (NOTE [ Quantized pooling ])."""
        from ._quantized_ops import mean
        return mean(self, dim, keepdim, dtype=dtype)

    def min(self, *args, **kwargs):
        if args or kwargs:
            raise _not_implemented("min with a dim")
        self._expect(per_channel=False)
        return _like(self, np.asarray(self._data.min()))

    def clamp(self, min=None, max=None):
        """The integers clamped to the bounds quantized with this tensor's parameters (as
        torch's quantized clamp: `clamp(q, -1.0, 0.7)` keeps scale and zero point)."""
        self._expect(per_channel=False)
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            raise _not_implemented("clamp with tensor bounds")
        ints = self._data
        for bound, limit in ((min, np.maximum), (max, np.minimum)):
            if bound is not None:
                ints = limit(ints, self._quantized_number(bound))
        return _like(self, ints)

    clip = clamp

    def _quantized_number(self, x):
        """The number `x` quantized with this tensor's scale and zero point."""
        quantizer = self._quantizer
        qmin, qmax = _qdtype.qrange(quantizer.dtype)
        return _qdtype.quantize(np.asarray(x, np.float32), quantizer.scale,
                                quantizer.zero_point, qmin, qmax, self._data.dtype, qmax)

    def sigmoid(self):
        """sigmoid of the values, requantized to torch's fixed output parameters (1/256, and
        zero point 0 for quint8, -128 for qint8)."""
        return self._fixed_output(1 / 256, {_qdtype.quint8: 0, _qdtype.qint8: -128}, "sigmoid")

    def tanh(self):
        """tanh of the values, requantized to torch's fixed output parameters (2/256, and zero
        point 128 for quint8, 0 for qint8)."""
        return self._fixed_output(2 / 256, {_qdtype.quint8: 128, _qdtype.qint8: 0}, "tanh")

    def _fixed_output(self, scale, zero_points, name):
        from ._quantized import make, Quantizer
        dtype = self._quantizer.dtype
        zero_point = zero_points.get(dtype)
        if zero_point is None or self._quantizer.per_channel:
            raise _not_implemented(f"Tensor.{name} of this quantized dtype or scheme")
        values = getattr(self.dequantize(), name)()
        qmin, qmax = _qdtype.qrange(dtype)
        ints = _qdtype.quantize(values._data, scale, zero_point, qmin, qmax, self._data.dtype,
                                qmax)
        return make(ints, Quantizer(dtype, _qdtype.per_tensor_affine, scale, zero_point))

    def sort(self, *args, **kwargs):
        """Sorted by the integers (the values' order), parameters kept."""
        return self._ordered("sort", args, kwargs)

    def topk(self, *args, **kwargs):
        return self._ordered("topk", args, kwargs)

    def _ints(self):
        """A plain tensor over this tensor's integers (the same memory), for kernels that
        only move or order elements."""
        return _new(Tensor)._init(self._data, self._storage, self._offset, self._base)

    def _ordered(self, name, args, kwargs):
        from ._quantized import wrap_as
        self._expect(per_channel=False)
        result = getattr(Tensor, name)(self._ints(), *args, **kwargs)  # ((values, indices))
        return type(result)((wrap_as(result[0], self._quantizer), result[1]))

    # -- what is not there -------------------------------------------------------------------

    def requires_grad_(self, requires_grad=True):
        if requires_grad:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        return self

    def to(self, *args, **kwargs):
        target = kwargs.get("dtype", next((a for a in args if isinstance(a, _dtype.dtype)),
                                          None))
        if target is None or target is self.dtype:
            return self
        if _qdtype.is_quantized_dtype(target):
            raise RuntimeError(f"Expected self.scalar_type() == src.scalar_type() to be true, "
                               f"but got false.  (Could this error message be improved?  If "
                               f"so, please report an enhancement request to PyTorch.)")
        raise RuntimeError("Creation of quantized tensor requires quantized dtype like "
                           "torch.quint8")

    def _to_plain(self, *args, **kwargs):
        raise RuntimeError("Creation of quantized tensor requires quantized dtype like "
                           "torch.quint8")

    float = double = half = bfloat16 = long = int = short = char = byte = bool = _to_plain

    add = __add__ = __radd__ = __iadd__ = add_ = _refuse("add")
    sub = __sub__ = __rsub__ = __isub__ = sub_ = _refuse("sub")
    mul = __mul__ = __rmul__ = __imul__ = mul_ = _refuse("mul")
    div = __truediv__ = __rtruediv__ = __itruediv__ = div_ = _refuse("div")
    neg = __neg__ = _refuse("neg")
    abs = __abs__ = _refuse("abs")
    mm = matmul = __matmul__ = _refuse("mm")
    pow = __pow__ = _pow
    sum, exp, log, sqrt, sin = (_refuse(n) for n in ("sum", "exp", "log", "sqrt", "sin"))
    softmax, log_softmax, argmax = (_refuse(n) for n in ("softmax", "log_softmax", "argmax"))
    prod, cumsum, var, zero_ = (_refuse(n) for n in ("prod", "cumsum", "var", "zero_"))
    clamp_, unique, amax, amin, median, kthvalue = (_refuse(n) for n in (
        "clamp_", "unique", "amax", "amin", "median", "kthvalue"))
    cummax, cummin, roll, scatter, gather, where = (_refuse(n) for n in (
        "cummax", "cummin", "roll", "scatter", "gather", "where"))


# What torch has quantized kernels for and ember does not (yet): refused rather than run on
# the integers as if they were the values.
_NOT_YET = ("std", "argsort", "fill_", "copy_", "__setitem__", "index_select", "masked_fill",
            "repeat", "index_put_")


def _not_implemented(what):
    return NotImplementedError(f"ember: {what} of a quantized tensor is not implemented (torch "
                               "has a quantized kernel for it)")


def _refuse_for_now(name):
    def refused(self, *args, **kwargs):
        raise _not_implemented(f"Tensor.{name}")
    refused.__name__ = name
    return refused


for _name in _NOT_YET:
    if hasattr(Tensor, _name):
        setattr(QuantizedTensor, _name, _refuse_for_now(_name))

_elementwise.QUANTIZED[0] = QuantizedTensor     # (element-wise operators refuse it)


def _rebuilt_with(rebuild, args, quantizer):
    """Unpickling: the tensor `rebuild(*args)` makes, with its quantizer back."""
    t = rebuild(*args)
    t._quantizer = quantizer
    return t


def _like(q, array):
    """A fresh quantized tensor of `array`'s integers with `q`'s parameters."""
    from ._quantized import make
    return make(array, q._quantizer)


# Views and copies: Tensor's own on the integers, the parameters kept. A per-channel tensor
# keeps them only where its channels stay where they are.
_VIEWS = ("view", "view_as", "reshape", "reshape_as", "flatten", "__getitem__", "transpose",
          "t", "permute", "squeeze", "unsqueeze", "expand", "expand_as", "narrow", "select",
          "flip", "contiguous", "clone", "detach", "unflatten", "movedim", "swapaxes",
          "swapdims", "moveaxis")
_SPLITS = ("chunk", "split", "unbind", "tensor_split")     # (several views)
_CHANNELS_KEPT = ("contiguous", "clone", "detach")


def _keeping_parameters(name):
    inner = getattr(Tensor, name)

    def method(self, *args, **kwargs):
        from ._quantized import wrap_as
        if self._quantizer.per_channel and name not in _CHANNELS_KEPT:
            raise NotImplementedError(f"ember: {name} of a per-channel quantized tensor is not "
                                      "supported (only clone, detach and contiguous)")
        result = inner(self, *args, **kwargs)
        if name in _SPLITS:
            return tuple(wrap_as(t, self._quantizer) for t in result)
        return wrap_as(result, self._quantizer)
    method.__name__ = name
    method.__doc__ = inner.__doc__
    return method


for _name in _VIEWS + _SPLITS:
    setattr(QuantizedTensor, _name, _keeping_parameters(_name))
