"""torch's TypeErrors for an int argument given something else (a bool, a float, a float tensor).

torch's argument parser takes for an `int` parameter a Python int, a NumPy integer or a 0-dim
integer tensor, and refuses a bool (an int subclass in Python), a float and anything else:

    x.unsqueeze(True)   TypeError: unsqueeze(): argument 'dim' (position 1) must be int, not bool
    x.tril(1.5)         TypeError: tril(): argument 'diagonal' (position 1) must be int, not float

ember's operators test `value.__class__ is int` (as cheap as a test gets) and come here only
when that fails; dims are refused by `_geometry.wrap_dim`, whose TypeError an operator rewords
in an `except` clause, which costs a valid call nothing. The errors are `not_a_tensor`'s, so
that the function's wrapper counts `input` in the position (`torch.tril(x, 1.5)` says
"position 2"; NOTE [ Positions in "must be Tensor" errors ]).
"""
import numpy as np

from .argument_errors import not_a_tensor, type_name


def is_int(value):
    """Whether torch's parser takes `value` for an int argument."""
    cls = value.__class__
    if cls is int:
        return True
    if cls is bool:
        return False
    if isinstance(value, np.integer):
        return True
    from .._tensor import Tensor
    return isinstance(value, Tensor) and value.ndim == 0 and value._data.dtype.kind in "iu"


def int_argument(name, arg, position, value):
    """`value` as an int, where the operator `name` takes it as its int argument `arg` (number
    `position` of the method's, self not counted); torch's TypeError when it is no int."""
    if not is_int(value):
        raise not_a_tensor(name, arg, position, value, "int")
    return int(value)


def check_ints(name, first, **values):
    """torch's TypeError for the first of `values` (the operator's int arguments by name, in
    the order of its signature, the first being its argument number `first`) which is no int;
    nothing when they all are (the failure was elsewhere: the caller re-raises it)."""
    for position, (arg, value) in enumerate(values.items(), first):
        if not is_int(value):
            raise not_a_tensor(name, arg, position, value, "int")



# NOTE [ Elements of a tuple of ints ]
# torch's parser checks the type of a tuple's first element only: `x.flip((True,))` says
# "must be tuple of ints, but found element of type bool at pos 0". It reads the others as
# indices, so a bool there counts as 0 or 1 (`x.flip((0, True))` flips dims 0 and 1) and a
# float fails "to unpack the object at pos 2". Varargs are sizes only when the first is an int
# (`x.repeat(2, True)` repeats (2, 1)); else they are too many arguments.

def check_int_list(name, arg, position, value, function=False):
    """torch's TypeError for `value` given as the `tuple of ints` argument `arg` (number
    `position` of the method's; None: given by keyword) of the operator `name`; nothing when
    it is one (an int, or a tuple or list of ints: NOTE [ Elements of a tuple of ints ]).
    `function`: called as a function, whose wrapper rewords only `not_a_tensor`'s errors."""
    if is_int(value):
        return
    if not isinstance(value, (tuple, list)):
        raise not_a_tensor(name, arg, position, value, "tuple of ints")
    if value and not is_int(value[0]):
        at = "" if position is None else f" (position {position + function})"
        raise TypeError(f"{name}(): argument '{arg}'{at} must be tuple of ints, but found "
                        f"element of type {type_name(value[0])} at pos 0")
    _check_unpacked(name, arg, value)


def check_int_varargs(name, arg, args):
    """torch's TypeError for sizes given to the method `name`, whose one parameter is the
    `tuple of ints` `arg`, as varargs (`x.repeat(2, 3)`) or one sequence (`x.repeat((2, 3))`),
    when they are no ints; nothing when they are (NOTE [ Elements of a tuple of ints ])."""
    if len(args) == 1:
        check_int_list(name, arg, 1, args[0])
    elif not is_int(args[0]):
        raise TypeError(f"{name}() takes 1 positional argument but {len(args)} were given")
    else:
        _check_unpacked(name, arg, args)


def _check_unpacked(name, arg, values):
    for i, value in enumerate(values):
        if not (is_int(value) or value.__class__ is bool):
            raise TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got "
                            f"{type_name(value)}\"")


def refuse_non_int_dims(dim):
    """A TypeError for `dim` that is no int, tuple of ints or None. torch's parser checks the
    arguments before the operator checks anything else (`argmax(True)` of a bool tensor is
    this TypeError, not the dtype's error); the operators listed in signatures.SIGNATURES
    call this first (where `dim.__class__ is not int`), and their wrapper words the error."""
    if dim is None or is_int(dim) or isinstance(dim, (tuple, list)) and \
            (not dim or is_int(dim[0])):
        return
    raise TypeError(f"dim must be int, not {type_name(dim)}")
