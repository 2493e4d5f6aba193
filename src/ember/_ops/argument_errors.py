"""torch's argument-parser errors, worded as torch words them, from each operator's signatures.

torch binds the arguments of a native operator against the operator's signatures (overloads)
and, when none fits, raises a TypeError in its own words:

    sum() received an invalid combination of arguments - got (str), but expected one of:
     * (*, torch.dtype dtype = None)
     * (tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)

    cumsum() missing 1 required positional arguments: "dim"
    cumsum(): argument 'dim' (position 1) must be int, not str

ember's operators are plain Python functions, which bind their arguments more loosely and
raise Python's own texts. When a call of an operator listed in `SIGNATURES` fails with a
TypeError or ValueError, `parser_error` checks the arguments against torch's signatures and,
if they fit none, gives torch's TypeError to raise instead. Only failing calls come here, from
the `except` clause of a wrapper (`call_error`): the registry wraps each listed operator
(registry.parser_errors) but the hot ones (`NO_WRAPPER`), whose signatures serve the wrappers
they have anyway (the in-place methods', the functions', autocast's); `view` catches its own.
Operators not listed get torch's texts for a call Python cannot bind (NOTE [ Arity errors ]).

NOTE [ Which text torch picks ]
(torch/csrc/utils/python_arg_parser.cpp, as observed on torch 2.13.) The number of arguments
given (positional plus keyword, `self` not counted) is compared with each visible signature's
least and greatest number of arguments. If exactly one signature is plausible that way, torch
reports what is wrong against that one: too many positional arguments, a missing one, an
unknown keyword, or the first argument of the wrong type. Otherwise it lists the visible
signatures ("received an invalid combination"), or names the only one ("but expected (...)")
when the others are hidden (deprecated overloads such as add(Number alpha, Tensor other)).
Under a listed signature whose printed text, split at ", ", has as many parts as arguments
were given ("*" is a part, "()" one empty part), it says why that signature did not match,
reading each part's last word as its name and the words before as its type, so that a
parameter with a default ("bool keepdim = False") fits no argument and no keyword. Keywords
are listed newest first: torch copies them into a std::unordered_map.
"""
import dis
import inspect
import numbers
import operator
import os
import sys

import numpy as np

from .signatures import HIDDEN, NUMBERS_AS_TENSORS, PYTHON_IN_TORCH, SIGNATURES, _NO_INPUT


class _Param:
    takes_numbers = False       # (a Tensor parameter of NUMBERS_AS_TENSORS)

    def __init__(self, text, keyword_only):
        typed, _, default = text.partition(" = ")
        kind, _, self_name = typed.rpartition(" ")
        self.nullable = kind.endswith("?") or default == "None"
        self.kind = kind.rstrip("?")
        self.name = self_name
        self.required = not default
        self.keyword_only = keyword_only
        self.text = text.replace("? ", " ")


class _Signature:
    def __init__(self, text, function, with_input=True):
        inner = text[1:-1]
        parts = [p for p in inner.split(", ") if p] if inner else []
        if function is None:    # (untyped parameters read from Python's signature, as given)
            pass
        elif function:
            # (a signature written with its first parameter is a function's only)
            if with_input and not inner.startswith(("Tensor input", "Number self")):
                parts.insert(0, "Tensor input")
        else:                   # a method takes no `out`
            parts = [p for p in parts if not p.endswith(" out = None")]
            if parts[-1:] == ["*"]:
                parts.pop()
        self.text = "(" + ", ".join(parts).replace("? ", " ") + ")"
        self.params, keyword_only = [], False
        for part in parts:
            if part == "*":
                keyword_only = True
            else:
                self.params.append(_Param(part, keyword_only))
        self.positional = [p for p in self.params if not p.keyword_only]
        self.min_args = sum(p.required for p in self.params)
        # how many arguments torch's explainer counts: it splits the text at ", " (so `*` is
        # one, and "()" is one empty one); it takes each part's last word for the name, which
        # for a parameter with a default is the default
        printed = [p.replace("? ", " ") for p in parts] or [""]
        self.parts = len(printed)
        self.explainer_names = [p.rpartition(" ")[2] for p in printed]
        self.explainer_types = [p.rpartition(" ")[0] for p in printed]


def signatures(name, function):
    """The parsed signatures of `name`, as a method's or (with `input` first) a function's (one
    written with its first parameter is a function's only)."""
    sigs = [_Signature(s, function, name not in _NO_INPUT) for s in SIGNATURES[name]
            if function or not s.startswith(("(Tensor input", "(Number self"))]
    if name in NUMBERS_AS_TENSORS:
        for sig in sigs:
            for param in sig.params:
                param.takes_numbers = param.kind == "Tensor"
    return sigs


# -- a value that is no tensor where a Tensor is taken --------------------------------------------
# NOTE [ Positions in "must be Tensor" errors ]
# torch's parser numbers an argument by its place in the call as written: `torch.mm(a, 3)` says
# "argument 'mat2' (position 2)", `a.mm(3)` says "(position 1)" (self is not counted), and an
# argument given by keyword has no position. An operator's body cannot tell how it was called,
# so it raises the method's wording (`not_a_tensor`); the function's wrapper in the registry
# and the in-place methods' wrapper, which see the call, reword it (`reworded`). Neither costs
# a valid call anything: they act in an `except` clause. A plain method, which no wrapper
# sees, learns whether the argument was given by keyword (`a.mm(mat2=3)`) from the call
# its caller is making (`_keywords_of_call`), on the error path only.

def not_a_tensor(name, arg, index, value, expected="Tensor", function=False, by_position=False):
    """torch's TypeError for `value`, which is no tensor (or no `expected`: "bool"), given as
    `arg`, argument number `index` of `name`'s signature (`input` is 0; None: passed by
    keyword, as torch's Python functions pass it on), worded as a method call gives it (as a
    function call with `function`: an operator that has no method). `by_position`: torch's
    Python code (nn.functional) passes the argument on by position, however it was given."""
    by_keyword = index is None or not by_position and \
        arg in (_keywords_of_call(_caller()) or ())
    at = "" if by_keyword else f" (position {index + 1 if function else index or 1})"
    err = TypeError(f"{name}(): argument '{arg}'{at} must be {expected}, "
                    f"not {type_name(value)}")
    err.tensor_argument = (arg, index, value, expected)
    return err


_EMBER = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _caller():
    """The frame of the code that called into ember: the innermost one outside the package."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_EMBER):
        frame = frame.f_back
    return frame


def _keywords_of_call(frame):
    """The keyword names of the call that `frame` is making (its current instruction): () for
    none, None when that cannot be told (`f(**kwargs)`, another Python's bytecode). CPython
    3.11 and 3.12 name them in a KW_NAMES instruction before the call, 3.13 loads them as a
    constant before CALL_KW."""
    if frame is None:
        return None
    code, previous, ins = frame.f_code, None, None
    for following in dis.get_instructions(code):
        if following.offset > frame.f_lasti:    # (f_lasti may point into the call's caches)
            break
        if following.opname != "PRECALL":
            previous, ins = ins, following
    if ins is None or ins.opname not in ("CALL", "CALL_KW") or previous is None:
        return None
    if previous.opname == "KW_NAMES":
        return code.co_consts[previous.arg]
    if ins.opname == "CALL_KW":
        return previous.argval if previous.opname == "LOAD_CONST" else None
    return ()


def not_an_element_tensor(index, element, value):
    """torch's TypeError for `value`, element number `element` of a tuple of tensors given as
    argument number `index` of the signature (`input` is 0), worded as a method call gives it
    (a method does not count `self`)."""
    err = TypeError(f"expected Tensor as element {element} in argument {index - 1}, but got "
                    f"{type(value).__name__}")
    err.tensor_element = (index, element, value)
    return err


def reworded(err, name, kwargs, method):
    """An error made by `not_a_tensor` (or `not_an_element_tensor`) as the call `name(...)`
    words it (None for another error): its position counts `input` in a function, not in a
    method, and a keyword argument has none."""
    element = getattr(err, "tensor_element", None)
    if element is not None:
        index, i, value = element
        return None if method else TypeError(f"expected Tensor as element {i} in argument "
                                             f"{index}, but got {type(value).__name__}")
    argument = getattr(err, "tensor_argument", None)
    if argument is None:
        return None
    arg, index, value, expected = argument
    if index is None:           # an inner call's words (`_unique2()`), not the caller's
        return None
    at = "" if arg in kwargs else f" (position {index if method else index + 1})"
    new = TypeError(f"{name}(): argument '{arg}'{at} must be {expected}, not {type_name(value)}")
    new.tensor_argument = argument
    return new


# -- int lists: sizes and dims -------------------------------------------------------------------
# torch's parser reads varargs whose first element is an int (`x.view(2, 3)`), or one sequence
# starting with an int, as an int list, and unpacks each element; a later element that is no
# int (`x.view(-1, n / 2)`, Python 3's true division) fails there. Python's int() would
# truncate it instead.

def unpack_error(name, arg, args):
    """torch's TypeError for an int list given as `args` (varargs or one sequence) with an
    element after the first that is no int; None when `args` are not like that."""
    values = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    if values and _is_int(values[0]):
        for i, value in enumerate(values):
            if not _is_int(value):
                return TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos "
                                 f"{i + 1} with error \"type must be tuple of ints,but got "
                                 f"{type(value).__name__}\"")
    return None


def ints(name, arg, args, values):
    """`values` (from `args`, as `name` received them) as Python ints, with torch's TypeError
    for one that is no int, for an operator whose one parameter `arg` is an int list."""
    try:
        return tuple(map(operator.index, values))
    except TypeError:
        error = unpack_error(name, arg, args)
        if error is None:
            if len(args) > 1:
                error = TypeError(f"{name}() takes 1 positional argument but {len(args)} were "
                                  f"given")
            elif isinstance(args[0], (list, tuple)):
                error = TypeError(f"{name}(): argument '{arg}' (position 1) must be tuple of "
                                  f"ints, but found element of type "
                                  f"{type(args[0][0]).__name__} at pos 0")
            else:
                error = TypeError(f"{name}(): argument '{arg}' (position 1) must be tuple of "
                                  f"ints, not {type_name(args[0])}")
        raise error from None


def check_bool(name, arg, index, value):
    """torch's parser takes only True or False for a bool argument (not 1, not a NumPy
    bool)."""
    if value is not True and value is not False:
        raise not_a_tensor(name, arg, index, value, "bool")


def keyword_memory_format(name, args, memory_format):
    """torch's TypeError for a method that takes only `memory_format=` (`x.float(3)`,
    `x.contiguous(memory_format=3)`); nothing for a valid call."""
    from .._memory_format import memory_format as memory_format_class
    no_positional(name, args)
    if memory_format is not None and memory_format.__class__ is not memory_format_class:
        raise TypeError(f"{name}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {type_name(memory_format)}")


def no_positional(name, args):
    """torch's TypeError for a method that takes its arguments by keyword only
    (`x.float(torch.float64)`)."""
    if args:
        raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} "
                        f"{'was' if len(args) == 1 else 'were'} given")


# -- what torch calls the type of a value ---------------------------------------------------------

def type_name(value):
    """The type's name as CPython's tp_name gives it: `Tensor`, `int`, `numpy.bool`."""
    cls = type(value)
    if cls.__name__ == "Size" and cls.__module__ == "ember":
        return "torch.Size"                     # a C type in torch
    c_name = getattr(cls, "_c_type_name", None)     # (a class standing for another C type)
    if c_name is not None:
        return c_name
    if cls.__module__ == "builtins" or cls.__flags__ & (1 << 9):    # Py_TPFLAGS_HEAPTYPE
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def _describe(value):
    """A value's type in the "got (...)" list: `float`, `tuple of (int, int)`."""
    if type(value) is tuple:
        return "tuple of (" + ", ".join(_describe(v) for v in value) + ")"
    if type(value) is list:
        return "list of [" + ", ".join(_describe(v) for v in value) + "]"
    return _short_name(value)


def _short_name(value):
    from .._tensor import Tensor
    from .._dtype import dtype
    if isinstance(value, Tensor):
        # (torch names a Parameter, or a subclass of the program's, by its class)
        cls = type(value)
        return cls.__name__ if cls is not Tensor and (
            not cls.__module__.startswith("ember") or "Parameter" in cls.__name__) else "Tensor"
    if isinstance(value, dtype):
        return "torch.dtype"
    import ember
    from .._device import device
    from .._generator import Generator
    # (torch's C types, named by their module)
    if isinstance(value, Generator):
        return "torch._C.Generator"
    if isinstance(value, (device, ember.layout)):
        return f"torch.{type(value).__name__}"
    return type_name(value)


def _keywords(kwargs):
    """The keywords in torch's order: it copies them into a std::unordered_map, whose few
    entries libstdc++ lists newest first."""
    return list(kwargs.items())[::-1]


def _got(args, kwargs):
    """The "got (...)" list: plain type names (`tuple`), keywords after the positionals."""
    given = [_short_name(a) for a in args]
    named = [f"{k}={_short_name(v)}" for k, v in _keywords(kwargs)]
    if given:
        return "(" + ", ".join(given + named) + ")"
    return "(" + "".join(n + ", " for n in named) + ")"


# NumPy's names that torch's parser takes for two parameters (see registry.numpy_names)
_NUMPY_ALIAS = {"dim": "axis", "keepdim": "keepdims"}


# -- whether a value fits a parameter -------------------------------------------------------------

def _is_int(value):
    """An int argument: a Python or NumPy int (not a bool), or a 0-dim integer tensor."""
    from .._tensor import Tensor
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    return isinstance(value, Tensor) and value.ndim == 0 and \
        not (value.dtype.is_floating_point or value.dtype.is_complex)


def _fits(param, value):
    from .._tensor import Tensor
    from .._dtype import dtype
    kind = param.kind
    if not kind:                # an untyped parameter (see arity_error)
        return True
    if value is None:
        return param.nullable
    if kind == "Tensor":
        return isinstance(value, Tensor) or param.takes_numbers and \
            isinstance(value, (numbers.Number, np.generic))
    if kind == "torch.Generator":
        from .._generator import Generator
        return isinstance(value, Generator)
    if kind == "int":
        return _is_int(value)
    if kind == "bool":
        return value.__class__ is bool
    if kind == "tuple of Tensors":      # (its elements are checked by the operator)
        return isinstance(value, (tuple, list))
    if kind == "float":
        return isinstance(value, (numbers.Real, np.floating, np.integer))
    if kind == "Number":
        return isinstance(value, (numbers.Number, np.generic)) and not isinstance(value, str) \
            or isinstance(value, Tensor) and value.ndim == 0
    if kind == "str":
        return isinstance(value, str)
    if kind == "torch.dtype":
        return isinstance(value, dtype) or any(value is t for t in (float, int, bool, complex))
    if kind == "tuple of ints":
        # a lone int is a dim (`int[1] dim`), never a size (`int[] size`), unless it is
        # the only argument (x.view(6), see _bind)
        return _is_int(value) and param.name != "size" or \
            isinstance(value, (tuple, list)) and all(map(_is_int, value))
    return True


def _element_problem(param, value):
    """A list or tuple whose elements are wrong: torch words that differently; not handled."""
    return param.kind == "tuple of ints" and isinstance(value, (tuple, list))


# -- the errors -----------------------------------------------------------------------------------

def parser_error(name, args, kwargs, function, shown=None):
    """torch's TypeError for calling operator `name` with `args`/`kwargs` (a method's `args`
    start with self), or None when they fit one of its sigs (the failure is elsewhere)
    or torch's text for them is not known here. `shown`: the name the text gives (an in-place
    method `name_` has the signatures of `name`)."""
    if not function:
        args = args[1:]
    sigs, hidden = signatures(name, function), HIDDEN.get(name)
    name = shown or name
    for sig in sigs:
        if _bind(sig, args, kwargs) is None:
            return None
    # sizes as varargs (rand(2, None)) fail in the unpacking, whatever the overloads
    if len(args) > 1 and all(len(s.positional) == 1 and s.positional[0].kind == "tuple of ints"
                             for s in sigs):
        error = unpack_error(name, sigs[0].positional[0].name, args)
        if error is not None:
            return error
    count = len(args) + len(kwargs)
    plausible = [s for s in sigs
                 if s.min_args <= count <= len(s.params)]
    if len(plausible) == 1:
        return _single_error(name, plausible[0], args, kwargs)
    if len(sigs) == 1 and not hidden:
        return _single_error(name, sigs[0], args, kwargs)
    got, head = _got(args, kwargs), f"{name}() received an invalid combination of arguments"
    if len(sigs) == 1:          # (the others are hidden) the reason is in the "got" list
        if sigs[0].parts == count:
            unknown, got = _why_not(sigs[0], args, kwargs)
            if unknown:
                return TypeError(f"{head} - got unrecognized keyword arguments: {unknown}")
        return TypeError(f"{head} - got {got}, but expected {sigs[0].text}")
    lines = [f"{head} - got {got}, but expected one of:"]
    for sig in sigs:
        lines.append(f" * {sig.text}")
        if sig.parts == count:
            unknown, marked = _why_not(sig, args, kwargs)
            lines.append("      didn't match because some of the keywords were incorrect: "
                         + unknown if unknown else "      didn't match because some of the "
                         "arguments have invalid types: " + marked)
    return TypeError("\n".join(lines) + "\n")


def _why_not(sig, args, kwargs):
    """Why torch's explainer says `sig` did not match: the unknown keywords (a text), or else
    the arguments' types with those that do not fit marked `!int!`."""
    names = {p.name: p for p in sig.params}
    # a keyword matches a part at or after (parts - keywords) of the same (explainer) name
    known = sig.explainer_names[max(sig.parts - len(kwargs), 0):]
    unknown = [k for k, _ in _keywords(kwargs) if k not in known]
    if unknown:
        return ", ".join(unknown), None
    marked = []
    for i, value in enumerate(args):
        text = _describe(value)
        marked.append(text if _explainer_fits(sig.explainer_types[i], value) else f"!{text}!")
    for key, value in _keywords(kwargs):
        text = f"{key}={_describe(value)}"
        marked.append(text if _fits(names[key], value) else f"!{text}!")
    desc = "(" + ", ".join(marked) + ")" if args else "(" + "".join(m + ", " for m in marked) + ")"
    return None, desc


def _explainer_fits(kind, value):
    """Whether torch's explainer marks `value` as fitting a part whose text before the name is
    `kind`: it compares type names, so a part with a default ("int dim =") fits nothing."""
    name = _short_name(value)
    if kind == "float":
        return name in ("float", "int")
    if kind == "int":
        return name == "int"
    return name == kind


def _bind(sig, args, kwargs):
    """None when `args`/`kwargs` fit `sig`, else a TypeError (or False: no known text)."""
    positional = sig.positional
    first = positional[0] if positional else None
    if args and first is not None and first.kind == "tuple of ints" and first.required and \
            len(positional) == 1 and all(map(_is_int, args)):
        args = (tuple(args),)                       # sizes as varargs: x.view(2, 3)
    if len(args) > len(positional):
        lo = sig.min_args           # (torch counts required keyword-only ones too: "from 2 to 1")
        hi = len(positional)
        many = f"{hi}" if lo == hi else f"from {lo} to {hi}"
        noun = "argument" if lo == hi == 1 else "arguments"
        were = "was" if len(args) == 1 and lo == hi else "were"    # ("from 1 to 0 ... were")
        return TypeError(f"takes {many} positional {noun} but {len(args)} {were} given")
    # then parameter by parameter, in order, as torch does; keywords it did not use last
    aliases = set()         # NumPy's names taken for parameters not given otherwise
    for i, param in enumerate(sig.params):
        if i < len(args) and not param.keyword_only:
            where, value = f" (position {i + 1})", args[i]
        elif param.name in kwargs:
            where, value = "", kwargs[param.name]
        elif _NUMPY_ALIAS.get(param.name) in kwargs:        # x.sum(axis=0)
            aliases.add(_NUMPY_ALIAS[param.name])
            where, value = "", kwargs[_NUMPY_ALIAS[param.name]]
        elif param.required:
            missing = [p.name for p in sig.params[i:] if p.required]   # (keywords too)
            # torch's text says "arguments" for one and "argument" for several
            return TypeError(f"missing {len(missing)} required positional argument"
                             f"{'s' if len(missing) == 1 else ''}: "
                             + ", ".join(f'"{m}"' for m in missing))
        else:
            continue
        if not _fits(param, value):
            if _element_problem(param, value):
                return False
            return TypeError(f"argument '{param.name}'{where} must be {param.kind}, "
                             f"not {type_name(value)}")
    # torch takes NumPy's names as aliases, but an unknown keyword among them makes it report
    # the first keyword that is no parameter's own name (x.sum(axis=0, foo=1) names 'axis')
    names = {p.name for p in sig.params}
    given = {p.name for p in sig.params[:len(args)]}
    if any(key not in names and key not in aliases or key in given for key in kwargs):
        key = next(key for key in kwargs if key not in names or key in given)
        if key in given:
            return TypeError(f"got multiple values for argument '{key}'")
        return TypeError(f"got an unexpected keyword argument '{key}'")
    return None


def _single_error(name, sig, args, kwargs):
    error = _bind(sig, args, kwargs)
    if not error:
        return None
    text = str(error)
    sep = "(): " if text.startswith("argument") else "() "
    return TypeError(name + sep + text)


# -- wrong numbers of arguments -------------------------------------------------------------------
# NOTE [ Arity errors ]
# A call that Python cannot bind to an operator's parameters fails with Python's texts ("abs()
# takes 1 positional argument but 2 were given", counting self); torch's parser words them its
# own way, without self. The wrappers that already catch an operator's errors (the registry's
# for functions and for methods with a `dim`, the in-place methods', autocast's for the matmul
# family) translate them with `arity_error`: it reads the Python signature on that error path
# only. A method that no wrapper sees (x.abs(1), x.transpose(0)) keeps Python's text: its call
# fails before any of ember's code runs, and a wrapper would cost every valid call a frame.

def call_error(exc, fn, name, args, kwargs, method):
    """torch's TypeError for the call `name(*args, **kwargs)` of `fn` that failed with `exc`
    (a method's `args` start with self), or None to let `exc` through: a wrapper calls it in
    its `except` clause. An operator listed in `SIGNATURES` (an in-place `op_` has `op`'s) gets
    torch's parser text when its arguments fit none of them; another, a not-a-tensor error
    numbered as the call was written (`reworded`), or torch's text for a call Python could not
    bind (`arity_error`)."""
    listed = name if name in SIGNATURES else name[:-1] if name[-1:] == "_" else None
    if listed in SIGNATURES:
        return parser_error(listed, args, kwargs, not method, shown=name)
    if exc.__class__ is not TypeError:
        return None
    if name in PYTHON_IN_TORCH:         # (Python's own arity texts, as in torch)
        if name in _DISPATCHED and not method and "unexpected keyword" in str(exc):
            return TypeError(str(exc).replace(f"{name}()", _DISPATCHED[name](args, kwargs) +
                                              "()", 1))
        return reworded(exc, name, kwargs, method)
    return reworded(exc, name, kwargs, method) or arity_error(fn, name, args, kwargs, method)


def _flag(args, kwargs, name, index):
    """An argument as torch's boolean_dispatch reads it: by keyword, else at `index`."""
    return bool(kwargs[name] if name in kwargs else args[index] if index < len(args) else False)


def _unique_target(prefix, inverse_index, counts_index):
    """The name of the function torch.unique (unique_consecutive) hands a call to, by its
    return_inverse and return_counts flags (torch's boolean_dispatch, its indices as given)."""
    def target(args, kwargs):
        inverse = _flag(args, kwargs, "return_inverse", inverse_index)
        counts = _flag(args, kwargs, "return_counts", counts_index)
        return prefix + ("return_inverse_and_counts" if inverse and counts else
                         "return_inverse" if inverse else
                         "return_counts" if counts else "return_output")
    return target


# torch functions in Python that hand a call to another by boolean flags: an unknown keyword
# is refused in that one's name (`_return_inverse() got an unexpected keyword argument`)
_DISPATCHED = {"unique": _unique_target("_", 2, 3),
               "unique_consecutive": _unique_target("_consecutive_", 2, 1)}


def arity_error(fn, name, args, kwargs, method):
    """torch's TypeError for calling `fn` (operator `name`) with `args`/`kwargs` (a method's
    start with self), when Python cannot bind them; None when it can (the TypeError came from
    inside) or the parameters are too loose to tell (`*args`, `**kwargs`)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    if method:
        args, params = args[1:], [p for p in params[1:] if p.name != "out"]
    if any(p.kind is p.VAR_KEYWORD for p in params):
        # (a `**unknown` that the operator words itself: Python failed on the named ones)
        params = [p for p in params if p.kind is not p.VAR_KEYWORD]
        kwargs = {k: v for k, v in kwargs.items() if any(p.name == k for p in params)}
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return None
    parts = []
    for p in params:
        if p.kind is p.KEYWORD_ONLY and "*" not in parts:
            parts.append("*")
        parts.append(p.name if p.default is p.empty else f"{p.name} = None")
    sig = _Signature("(" + ", ".join(parts) + ")", None)
    error = _bind(sig, args, kwargs)
    if not error:
        return None
    if method and not params:
        # torch binds a method without parameters as a C method taking none (METH_NOARGS):
        # CPython's text then names its class
        if args:
            return TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
        return TypeError(f"TensorBase.{name}() takes no keyword arguments")
    return _single_error(name, sig, args, kwargs)
