"""torch's TypeErrors for nn.functional arguments of the wrong type.

Most of torch.nn.functional ends in a native operator (`torch.kl_div`, `torch.conv2d`,
`torch._C._nn.im2col`), whose argument parser refuses a value of the wrong type before the
operator runs, so before any shape check: `F.kl_div(x, 1)` raises "kl_div(): argument 'target'
(position 2) must be Tensor, not int". The text names the native operator and its parameter,
numbered as the Python function passes them on (`F.embedding(input, weight)` calls
`torch.embedding(weight, input)`, so its weight is position 1; `F.nll_loss` reaches
`nll_loss_nd`). ember's functions check with a cheap `isinstance` and build the error here,
on the failing path only.
"""
import numpy as np

from .._ops.argument_errors import not_a_tensor, parser_error, type_name
from .._ops.signatures import SIGNATURES
from .._tensor import Tensor

# The native operators with several overloads, whose refusal lists them (see
# argument_errors.parser_error), as torch prints them without their `Tensor input`.
_CONV = ["(Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
         "tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1)",
         "(Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
         'str padding = "valid", tuple of ints dilation = 1, int groups = 1)']
SIGNATURES.update({"conv1d": _CONV, "conv2d": _CONV, "conv3d": _CONV})


_CONV_DEFAULTS = (None, None, None, 1, 0, 1, 1)


def _is_default(value, default):
    return value is default or type(value) is type(default) and value == default


def tensors(name, *checks):
    """Raise torch's TypeError for the first of `checks`, (position, parameter, value,
    may be None), whose value is no tensor. Call it where a cheap test has failed."""
    for position, arg, value, optional in checks:
        if not isinstance(value, Tensor) and (value is not None or not optional):
            raise not_a_tensor(name, arg, position, value, by_position=True)


def is_int(value):
    """What torch's parser takes for an int: a Python or NumPy int (not a bool), or a 0-dim
    integer tensor."""
    if isinstance(value, (int, np.integer)):
        return not isinstance(value, bool)
    return isinstance(value, Tensor) and value.ndim == 0 and \
        not (value.dtype.is_floating_point or value.dtype.is_complex)


def check_int(name, arg, position, value):
    """torch's TypeError for an `int` parameter given anything else (`pixel_shuffle(x, 0.5)`)."""
    if not is_int(value):
        raise not_a_tensor(name, arg, position, value, "int", by_position=True)


def symint_argument(name, arg, position, value):
    """`value` as an int for a `SymInt` parameter (`ignore_index`): as an int parameter, and
    also an integer tensor of one element of any shape (torch reads it through __index__);
    torch's TypeError for anything else."""
    if isinstance(value, Tensor) and value.numel() == 1 and value._data.dtype.kind in "iu":
        return int(value.item())
    check_int(name, arg, position, value)
    return int(value)


def check_ints(name, arg, position, value):
    """torch's TypeError for an `int[]` parameter (`kernel_size`, `stride`...) given anything
    but an int or a sequence of ints, in its words: a wrong first element is "found element
    of type ... at pos 0", a later one "failed to unpack the object at pos <index + 1>"."""
    if is_int(value):
        return
    if not isinstance(value, (tuple, list)):
        raise not_a_tensor(name, arg, position, value, "tuple of ints",
                           by_position=True)
    for i, v in enumerate(value):
        if is_int(v):
            continue
        if i == 0:
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be tuple "
                            f"of ints, but found element of type {type_name(v)} at pos 0")
        raise TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos "
                        f"{i + 1} with error \"type must be tuple of ints,but got "
                        f"{type_name(v)}\"")


def conv_refused(name, args, all_given=False):
    """Raise torch's TypeError for conv1d/2d/3d called with `args` (input, weight, bias,
    stride, padding, dilation, groups) when its parser refuses them; return otherwise.
    Trailing arguments at their defaults count as not given (the call cannot tell; torch
    lists only those given), unless `all_given` (the conv modules pass all seven)."""
    args = list(args)
    while not all_given and len(args) > 2 and \
            _is_default(args[-1], _CONV_DEFAULTS[len(args) - 1]):
        args.pop()
    error = parser_error(name, tuple(args), {}, True)
    if error is not None:
        raise error from None


def conv_transpose_refused(name, args):
    """Raise torch's TypeError for conv_transpose1d/2d/3d called with `args` (input, weight,
    bias, stride, padding, output_padding, groups, dilation) when its parser refuses them."""
    input, weight, bias, stride, padding, output_padding, groups, dilation = args
    if isinstance(padding, str):    # (refused in its own words by _conv_transpose)
        return
    tensors(name, (1, "input", input, False), (2, "weight", weight, False),
            (3, "bias", bias, True))
    for position, arg, value in ((4, "stride", stride), (5, "padding", padding),
                                 (6, "output_padding", output_padding)):
        check_ints(name, arg, position, value)
    check_int(name, "groups", 7, groups)
    check_ints(name, "dilation", 8, dilation)


def int_lists(name, *checks):
    """Raise torch's TypeError for the first of `checks`, (position, parameter, value), whose
    value is no int or sequence of ints (None is left alone: the Python function fills it)."""
    for position, arg, value in checks:
        if value is not None:
            check_ints(name, arg, position, value)


def upsample_refused(input, mode, size, align_corners):
    """Raise torch's TypeError for interpolate's `size` holding a float: torch passes it on as
    a list to upsample_<mode><k>d(input, output_size, [align_corners,] scale_factors=None),
    which has two overloads (the second with one scale per spatial dim)."""
    k = input.ndim - 2
    sizes = list(size) if isinstance(size, (tuple, list)) else [size] * k
    if all(map(is_int, sizes)):
        return
    kind = {"nearest": "nearest", "nearest-exact": "_nearest_exact", "linear": "linear",
            "bilinear": "bilinear", "bicubic": "bicubic", "trilinear": "trilinear"}.get(mode)
    if kind is None or k not in (1, 2, 3):
        return
    name = f"upsample_{kind}{k}d".replace("upsample__", "_upsample_")
    scales = ", ".join(f"float scales{'_' + d if k > 1 else ''} = None" for d in "dhw"[3 - k:])
    corners = "" if kind in ("nearest", "_nearest_exact") else "bool align_corners, "
    SIGNATURES.setdefault(name, [
        f"(tuple of ints? output_size, {corners}tuple of floats? scale_factors)",
        f"(tuple of ints output_size, {corners}{scales}, *, Tensor out = None)"])
    args = (input, sizes) + ((bool(align_corners),) if corners else ()) + (None,)
    error = parser_error(name, args, {}, True)
    if error is not None:
        raise error from None


def attribute_error(value, attribute):
    """The AttributeError torch's own Python code raises where it reads `attribute` of a value
    that is no tensor (`F.binary_cross_entropy(x, 1)`: "'int' object has no attribute
    'size'"): torch refuses those calls so, before its parser sees them."""
    return AttributeError(f"'{type_name(value)}' object has no attribute '{attribute}'")
