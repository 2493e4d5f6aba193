"""`torch._foreach_*`: one op applied to every tensor of a list.

torch fuses these into few kernel launches; ember runs the ordinary op on each tensor in turn,
which gives the same values, dtypes, errors and autograd. The out-of-place forms return a tuple
of new tensors; the in-place forms (trailing underscore) change the tensors and return the list
they were given. Libraries use them for EMA updates and optimizer steps
(`_foreach_mul_(ema, decay); _foreach_add_(ema, params, alpha=1 - decay)`).

The second operand of a binary op may be a number, a list of numbers (one per tensor), a
0-dim tensor, or a list of tensors (one per tensor, broadcasting as the op does).
"""
import numbers

from ._ops.argument_errors import _got, type_name
from ._tensor import Tensor

_UNARY = ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1",
          "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal",
          "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")

# name: (out-of-place op, in-place Tensor method)
_BINARY = {"add": ("add", "add_"), "sub": ("sub", "sub_"), "mul": ("mul", "mul_"),
           "div": ("div", "div_"), "pow": ("pow", "pow_"),
           "maximum": ("clamp_min", "clamp_min_"), "minimum": ("clamp_max", "clamp_max_"),
           "clamp_min": ("clamp_min", "clamp_min_"), "clamp_max": ("clamp_max", "clamp_max_")}
_WITH_ALPHA = ("add", "sub")
# torch accepts a 0-dim tensor as the scalar of these (and of pow, maximum, ...: any tensor
# operand broadcasts there, as the plain op does).
_SCALAR_TENSOR = ("add", "sub", "mul", "div")


def _bad_arguments(name, args, kwargs=None):
    """torch's TypeError for an argument combination no overload takes (its first line)."""
    return TypeError(f"{name}() received an invalid combination of arguments - got "
                     f"{_got(args, kwargs or {})}, but expected one of:")


def _is_number(x):
    return isinstance(x, numbers.Number) and not isinstance(x, Tensor)


def _tensor_list(name, tensors, position=0):
    """`tensors` checked to be a non-empty list or tuple of tensors."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'self' (position 1) must be tuple of Tensors, "
                        f"not {type_name(tensors)}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {position}, "
                            f"but got {type_name(t)}")
    if not tensors:
        raise RuntimeError("Tensor list must have at least one tensor.")
    return tensors


def _same_length(tensors, others):
    if len(tensors) != len(others):
        raise RuntimeError(f"Tensor lists must have the same number of tensors, got "
                           f"{len(tensors)} and {len(others)}")


def _same_length_scalars(tensors, scalars):
    if len(tensors) != len(scalars):
        raise RuntimeError("Tensor list must have same number of elements as scalar list.")


def _operands(name, full, tensors, other, alpha):
    """One second operand per tensor, from a number, numbers, a 0-dim tensor or tensors
    (`full` is the function's name for error texts)."""
    args, kwargs = (tensors, other), ({} if alpha is None else {"alpha": alpha})
    if not isinstance(tensors, (list, tuple)):
        raise _bad_arguments(full, args, kwargs)
    _tensor_list(full, tensors)
    if _is_number(other):
        if alpha is not None:
            raise _bad_arguments(full, args, kwargs)
        return [other] * len(tensors)
    if isinstance(other, Tensor):
        if name in _SCALAR_TENSOR and other.dim() != 0:
            raise RuntimeError(f"scalar tensor expected to be 0 dim but it has {other.dim()} "
                               f"dimensions and {other.numel()} elements.")
        return [other] * len(tensors)
    if not isinstance(other, (list, tuple)):
        raise _bad_arguments(full, args, kwargs)
    if alpha is None and other and all(_is_number(s) for s in other):
        _same_length_scalars(tensors, other)
        return list(other)
    if alpha is not None and name not in _WITH_ALPHA:
        raise _bad_arguments(full, args, kwargs)
    _tensor_list(full, other, position=1)
    _same_length(tensors, other)
    return list(other)


def _binary(name):
    op, method = _BINARY[name]

    def out_of_place(self, other, *, alpha=None):
        from . import pow as _pow
        if _is_number(self) and name == "pow":      # _foreach_pow(scalar, exponents)
            return tuple(_pow(self, e) for e in _tensor_list("_foreach_pow", other))
        pairs = zip(self, _operands(name, f"_foreach_{name}", self, other, alpha))
        if alpha is None:
            return tuple(getattr(t, op)(o) for t, o in pairs)
        return tuple(getattr(t, op)(o, alpha=alpha) for t, o in pairs)

    def in_place(self, other, *, alpha=None):
        pairs = zip(self, _operands(name, f"_foreach_{name}_", self, other, alpha))
        for t, o in pairs:
            if alpha is None:
                getattr(t, method)(o)
            else:
                getattr(t, method)(o, alpha=alpha)
        return self
    return out_of_place, in_place


def _unary(name):
    def out_of_place(self):
        return tuple(getattr(t, name)() for t in _tensor_list(f"_foreach_{name}", self))

    def in_place(self):
        for t in _tensor_list(f"_foreach_{name}_", self):
            getattr(t, name + "_")()
        return self
    return out_of_place, in_place


def _pointwise_values(name, tensors, value):
    """addcmul/addcdiv's `value`: a number, a list of numbers, or a 1-D tensor of them."""
    if _is_number(value):
        return [value] * len(tensors)
    if isinstance(value, Tensor):
        if value.dim() != 1:
            raise RuntimeError(f"Expected packed scalar Tensor to be of dimension 1. "
                               f"Got {value.dim()} instead.")
        value = value.tolist()
        if len(value) != len(tensors):
            raise RuntimeError(f"Expected length of scalars to match input of length "
                               f"{len(tensors)} but got {len(value)} instead.")
        return value
    if isinstance(value, (list, tuple)) and all(_is_number(v) for v in value):
        _same_length_scalars(tensors, value)
        return list(value)
    raise _bad_arguments(f"_foreach_{name}", (tensors, tensors, tensors, value))


def _pointwise(name):
    def triples(full, self, tensor1, tensor2):
        _tensor_list(full, self)
        for other in (tensor1, tensor2):
            _tensor_list(full, other, position=1)
            _same_length(self, other)
        return zip(self, tensor1, tensor2)

    def out_of_place(self, tensor1, tensor2, value=1):
        values = _pointwise_values(name, self, value)
        return tuple(getattr(t, name)(a, b, value=v) for (t, a, b), v in
                     zip(triples(f"_foreach_{name}", self, tensor1, tensor2), values))

    def in_place(self, tensor1, tensor2, value=1):
        values = _pointwise_values(name + "_", self, value)
        for (t, a, b), v in zip(triples(f"_foreach_{name}_", self, tensor1, tensor2), values):
            getattr(t, name + "_")(a, b, value=v)
        return self
    return out_of_place, in_place


def _lerp_weights(self, tensors1, weight, name):
    _tensor_list(name, self)
    _tensor_list(name, tensors1, position=1)
    _same_length(self, tensors1)
    if _is_number(weight) or isinstance(weight, Tensor):
        return [weight] * len(self)
    if isinstance(weight, (list, tuple)) and weight and all(_is_number(w) for w in weight):
        _same_length_scalars(self, weight)
        return list(weight)
    if isinstance(weight, (list, tuple)):
        _tensor_list(name, weight, position=2)
        _same_length(self, weight)
        return list(weight)
    raise _bad_arguments(name, (self, tensors1, weight))


def _foreach_lerp(self, tensors1, weight):
    weights = _lerp_weights(self, tensors1, weight, "_foreach_lerp")
    return tuple(t.lerp(e, w) for t, e, w in zip(self, tensors1, weights))


def _foreach_lerp_(self, tensors1, weight):
    weights = _lerp_weights(self, tensors1, weight, "_foreach_lerp_")
    for t, e, w in zip(self, tensors1, weights):
        t.lerp_(e, w)
    return self


def _foreach_copy_(self, src, non_blocking=False):
    _tensor_list("_foreach_copy_", self)
    _tensor_list("_foreach_copy_", src, position=1)
    _same_length(self, src)
    for t, s in zip(self, src):
        t.copy_(s, non_blocking=non_blocking)
    return self


def _foreach_zero_(self):
    for t in _tensor_list("_foreach_zero_", self):
        t.zero_()
    return self


def _foreach_clone(self):
    return tuple(t.clone() for t in _tensor_list("_foreach_clone", self))


def _foreach_norm(self, ord=2, dtype=None):
    """The vector norm of each tensor (over all its elements)."""
    from .linalg import vector_norm
    if not _is_number(ord):
        raise TypeError(f"_foreach_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type_name(ord)}")
    return tuple(vector_norm(t, ord, dtype=dtype) for t in _tensor_list("_foreach_norm", self))


def _foreach_powsum(self, exponent):
    """sum(|x| ** exponent) of each tensor: a p-norm before its root."""
    return tuple(t.abs().pow(exponent).sum() for t in _tensor_list("_foreach_powsum", self))


def _foreach_max(self):
    """The largest element of each tensor."""
    out = []
    for t in _tensor_list("_foreach_max", self):
        if t.numel() == 0:
            raise RuntimeError("_foreach_max cannot compute the maximum of an empty tensor; "
                               "max over zero elements is undefined.")
        out.append(t.max())
    return tuple(out)


def _foreach_mm(self, mat2):
    _tensor_list("_foreach_mm", self)
    _tensor_list("_foreach_mm", mat2, position=1)
    _same_length(self, mat2)
    return tuple(a.mm(b) for a, b in zip(self, mat2))


def _all_ops():
    """Every `_foreach_*` function by name, for the top-level namespace."""
    ops = {name: fn for name, fn in globals().items()
           if name.startswith("_foreach_") and callable(fn)}
    families = [(_UNARY, _unary), (tuple(_BINARY), _binary), (("addcmul", "addcdiv"),
                                                              _pointwise)]
    for names, make in families:
        for name in names:
            ops[f"_foreach_{name}"], ops[f"_foreach_{name}_"] = make(name)
    for name, fn in ops.items():
        fn.__name__ = fn.__qualname__ = name
    return ops
