"""Element-wise ops declared as classes become `ember.<name>`, `Tensor.<name>` and `<name>_`:
the generated front ends bind torch's argument names and defaults and pick among overloads,
then run the op through `elementwise.call`."""
import functools
import inspect

from .._tensor import Tensor
from .._torch_function import NOT_DISPATCHED, on_refusal
from .argument_errors import type_name
from .elementwise import _PLAIN_NUMBERS, as_operand, call
from .registry import FUNCTIONS, METHODS, register


# NOTE [ A number first ]
# torch's parser turns a Python number given for a Tensor parameter into a tensor only for a
# few operators (add, sub, mul, div and their aliases) and where a signature takes a Number
# first (pow, remainder, bitwise ops, xlogy, float_power). The comparisons, fmod, rsub and
# clamp_min/max have a Number overload for their second operand only, so a number first fits
# no signature: the parser's "invalid combination" error. remainder's and the bitwise ops'
# Number-first signatures have no `out`.
_TENSOR_OR_NUMBER = ("(Tensor input, Tensor other, *, Tensor out = None)",
                     "(Tensor input, Number other, *, Tensor out = None)")
_NUMBER_SELF = (_TENSOR_OR_NUMBER[0], "(Number self, Tensor other)", _TENSOR_OR_NUMBER[1])
# name -> (refused only with out=, torch's signatures)
_NUMBER_FIRST_REFUSED = dict.fromkeys(
    ["eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
     "not_equal", "fmod", "copysign"], (False, _TENSOR_OR_NUMBER))
_NUMBER_FIRST_REFUSED["rsub"] = (False, ("(Tensor input, Tensor other, *, Number alpha = 1)",
                                         "(Tensor input, Number other, Number alpha = 1)"))
_NUMBER_FIRST_REFUSED.update(dict.fromkeys(
    ["remainder", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
     "bitwise_right_shift"], (True, _NUMBER_SELF)))


def number_first_error(name, args, kwargs, out):
    """torch's TypeError for `name` called with a number first (see NOTE [ A number first ]),
    or None where torch takes it."""
    refused = _NUMBER_FIRST_REFUSED.get(name)
    if refused is None or refused[0] and out is None:
        return None
    from .argument_errors import _got
    if out is not None:
        kwargs = dict(kwargs, out=out)
    return TypeError(f"{name}() received an invalid combination of arguments - got "
                     f"{_got(args, kwargs)}, but expected one of:\n"
                     + "".join(f" * {sig}\n" for sig in refused[1]))


def _make_function(choose, name, arity, defaults, doc):
    names = ("input", "other", "third")[:arity]
    allowed = frozenset(defaults)

    def params_of(kwargs):
        if not kwargs:
            return defaults
        unknown = set(kwargs) - allowed
        if unknown:
            raise TypeError(f"{name}() got an unexpected keyword argument '{unknown.pop()}'")
        return dict(defaults, **kwargs)

    def operands_of(args):
        operands = [a if a.__class__ is Tensor else as_operand(a, names[i], i + 1, name)
                    for i, a in enumerate(args)]
        if operands[0].__class__ is not Tensor and not any(isinstance(x, Tensor)
                                                            for x in operands):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type_name(args[0])}")
        return operands

    def refused(args, kwargs, out):
        """The tensor-likes' answer for a call whose operands were refused, or None."""
        if out is not None:
            kwargs = dict(kwargs, out=out)
        result = on_refusal(fn, args, kwargs, f"torch.{name}")   # NOTE [ Tensor-likes ]
        if result is NOT_DISPATCHED:
            return None
        return (result,)

    # NOTE: one- and two-operand functions get explicit signatures and a direct path for the
    # common call (tensor operands, an op without overloads, no keywords): they are on every
    # hot path, the Python operators and the backward formulas included.
    fixed = getattr(choose, "op", None)
    if arity == 1:
        def fn(input, *, out=None, **kwargs):
            if fixed is not None and input.__class__ is Tensor and not kwargs:
                return call(fixed, (input,), defaults, out, name)
            try:
                op, operands = choose(operands_of((input,)))
            except TypeError:
                answer = refused((input,), kwargs, out)
                if answer is None:
                    raise
                return answer[0]
            return call(op, operands, params_of(kwargs), out, name)
    elif arity == 2:
        def fn(input, other, *, out=None, **kwargs):
            if fixed is not None and input.__class__ is Tensor and not kwargs and (
                    other.__class__ is Tensor or other.__class__ in _PLAIN_NUMBERS):
                return call(fixed, (input, other), defaults, out, name)
            if input.__class__ is not Tensor and input.__class__ in _PLAIN_NUMBERS:
                error = number_first_error(name, (input, other), kwargs, out)
                if error is not None:
                    raise error
            try:
                op, operands = choose(operands_of((input, other)))
            except TypeError:
                answer = refused((input, other), kwargs, out)
                if answer is None:
                    raise
                return answer[0]
            return call(op, operands, params_of(kwargs), out, name)
    else:
        def fn(*args, out=None, **kwargs):
            if len(args) != arity:
                args = _bind(name, names, args, kwargs)
            try:
                op, operands = choose(operands_of(args))
            except TypeError:
                answer = refused(args, kwargs, out)
                if answer is None:
                    raise
                return answer[0]
            return call(op, operands, params_of(kwargs), out, name)

    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names]
    params += [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=v)
               for k, v in defaults.items()]
    params.append(inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    fn.__signature__ = inspect.Signature(params)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    fn.choose = choose          # the Python operators reuse these (see operators.py)
    fn.defaults = defaults
    fn.checks_operands = True   # (registry: no wrapper to check a tensor `input`)
    return fn


def _bind(name, names, args, kwargs):
    args = list(args)
    for n in names[len(args):]:
        if n in kwargs:
            args.append(kwargs.pop(n))
        else:
            raise TypeError(f"{name}() missing required argument '{n}'")
    if len(args) > len(names):
        raise TypeError(f"{name}() takes {len(names)} positional arguments but {len(args)} "
                        f"were given")
    return args


def function_of(op, name, arity, defaults=None):
    """`op` as a function of `arity` operands (not registered: for hand-written front ends)."""
    fns = []
    export(op, [name], arity, defaults, choose=None, into=fns)
    return fns[0]


def export(op, names, arity, defaults=None, inplace=True, method=True, choose=None,
           into=None):
    """Make `op` callable as `ember.<name>`, `Tensor.<name>` and (if torch has it) `<name>_`.

    The first name is the op's own; the rest are torch's aliases (e.g. `absolute` for `abs`).
    `choose(operands) -> (op, operands)` picks among overloads (e.g. tensor or scalar
    exponent), which torch records as differently numbered nodes.
    """
    defaults = dict(defaults or {})
    _defaults_on_class(op, defaults)
    doc = inspect.getdoc(op) or ""
    if choose is None:
        def choose(operands):
            return op, operands
        choose.op = op          # no overloads: callers may skip choosing
    for name in names:
        fn = _make_function(choose, name, arity, defaults, doc)
        if into is not None:
            into.append(fn)
        else:
            register(name, fn, method=method, inplace=inplace)
    return op


def tensor_other(names, arg="other"):
    """Make the exported functions and methods `names` (and their `name_` variants) refuse a
    number as their second argument `arg`, as torch's signatures of maximum, atan2,
    logical_and, ... take only a Tensor there (`torch.maximum(x, 0)` is a TypeError;
    `torch.clamp(x, min=0)` is the way)."""
    for name in names:
        for table, key, position in ((FUNCTIONS, name, 2), (METHODS, name, 1),
                                     (METHODS, name + "_", 1)):
            if key in table:
                table[key] = _refusing_numbers(table[key], key, position, arg)


def _refusing_numbers(fn, name, position, arg):
    @functools.wraps(fn)
    def op(input, *args, **kwargs):
        other = args[0] if args else kwargs.get(arg, input)
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type_name(input)}")
        if not isinstance(other, Tensor):
            at = f" (position {position})" if args else ""
            raise TypeError(f"{name}(): argument '{arg}'{at} must be Tensor, not "
                            f"{type_name(other)}")
        return fn(input, *args, **kwargs)
    return op


def _defaults_on_class(op, defaults):
    """Keyword defaults become class attributes of the op, so a node recorded with the
    defaults needs no per-node copy of them (`ctx.alpha` then reads the class's)."""
    for k, v in defaults.items():
        setattr(op, k, v)
    op._default_params = defaults


def scalar_overload(tensor_op, scalar_op):
    """Choose `scalar_op` when the second operand is a Python number (torch's `.Scalar`)."""
    def choose(operands):
        if isinstance(operands[1], Tensor):
            return tensor_op, operands
        return scalar_op, operands
    return choose
