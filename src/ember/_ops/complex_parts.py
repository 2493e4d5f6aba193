"""Complex parts: the conjugate (`conj`, `conj_physical`), the `real` and `imag` views and
their assignment (`t.real = ...`).

ember has no lazy conjugate bit: `conj()` of a complex tensor is a copy (a real tensor is
returned as it is), and `resolve_conj`/`resolve_neg` have nothing to resolve.
"""
from .._tensor import Tensor, alias
from ._dispatch import Inplace
from .elementwise import Elementwise, call


class Conj(Elementwise):
    """The complex conjugate (a copy; real tensors are returned as they are)."""
    kernel = "conjugate"

    def backward(ctx, grad):
        return grad.conj()


class ConjPhysical(Conj):
    node_name = "ConjPhysicalBackward0"
    out_like_input = "biufVc"       # (see Elementwise.out_like_input)

    def backward(ctx, grad):
        return grad.conj_physical()


class ConjPhysicalInplace(ConjPhysical):
    node_name = "ConjPhysicalBackward1"


def conj(input):
    """The complex conjugate; for real tensors, `input` itself."""
    if input._data.dtype.kind != "c":
        return input
    return call(Conj, (input,), {}, None, "conj")


def _conj_physical(input, *, out=None):
    if input._data.dtype.kind != "c" and out is None:
        return input
    if out.__class__ is Inplace and input._data.dtype.kind != "c":
        input._bump_version()          # still an in-place op (a no-op on real values)
        return input
    op = ConjPhysicalInplace if out.__class__ is Inplace else ConjPhysical
    return call(op, [input], {}, out, "conj_physical")


def _real(self):
    """The real part, a view (for real tensors, the tensor itself)."""
    if self._data.dtype.kind != "c":
        return self
    return _complex_part(self, 0)


def _imag(self):
    """The imaginary part of a complex tensor, a view."""
    if self._data.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _complex_part(self, 1)


def _set_real(self, value):
    """`t.real = value`: written into the real part (all of a real tensor), as torch does."""
    _assign_part(_real(self), value)


def _set_imag(self, value):
    _assign_part(_imag(self), value)


def _assign_part(part, value):
    from numbers import Number
    if not isinstance(value, (Tensor, Number)):
        from .._printing import legacy_type_name
        from .argument_errors import type_name
        raise TypeError(f"can't assign a {type_name(value)} to a {legacy_type_name(part)}")
    part.copy_(value)


def _complex_part(self, index):
    # NOTE: as torch does, `view_as_real(self).select(-1, index)`: a view whose gradient flows
    # back (SelectBackward0, then ViewAsRealBackward0).
    from .elementwise_extra import view_as_real
    if not self._requires_grad and self._data.size:     # (NumPy's empty arrays: 0 strides)
        data = self._data.real if index == 0 else self._data.imag
        return alias(self, data, self._offset * 2 + index)
    return view_as_real(self).select(-1, index)


def _register_complex():
    from .registry import register
    register("conj", conj)
    register("resolve_conj", lambda input: input)
    register("resolve_neg", lambda input: input)
    register("conj_physical", _conj_physical, inplace=True)
    register("real", real, method=False)
    register("imag", imag, method=False)


# (named as torch's functions, whose Python errors name them: `torch.real(x, out=y)`)
def real(input):
    """The real part, a view (for real tensors, the tensor itself)."""
    return _real(input)


def imag(input):
    """The imaginary part of a complex tensor, a view."""
    return _imag(input)


_register_complex()
