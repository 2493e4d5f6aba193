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
if they fit none, gives torch's TypeError to raise instead. Only failing calls come here: the
registry's wrapper for NumPy's argument names catches the error for the operators it wraps
(those with a `dim` or `keepdim`, registry.parser_errors), and `view` catches its own; other
operators are not listed yet, as a new wrapper would cost each of their valid calls a frame.

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
import numbers
import operator

import numpy as np

# (signatures that several operators share)
_STD_VAR = ["(tuple of ints? dim, bool unbiased = True, bool keepdim = False, *, "
            "Tensor out = None)",
            "(tuple of ints? dim = None, *, Number? correction = None, bool keepdim = False, "
            "Tensor out = None)",
            "(bool unbiased = True)"]
_ALL_ANY = ["(*, Tensor out = None)",
            "(tuple of ints? dim = None, bool keepdim = False, *, Tensor out = None)",
            "(int dim, bool keepdim = False, *, Tensor out = None)"]
_QUANTILE = [f"({q} q, int? dim = None, bool keepdim = False, *, "
             f'str interpolation = "linear", Tensor out = None)' for q in ("Tensor", "float")]
# Each operator's visible signatures, as torch prints them for the function without its
# `Tensor input` (the method's form leaves out `out` too). A `?` after a type (not printed)
# marks a parameter that also takes None, as parameters with a default of None do.
SIGNATURES = {
    "sum": ["(*, torch.dtype dtype = None)",
            "(tuple of ints? dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)"],
    "mean": ["(*, torch.dtype dtype = None, Tensor out = None)",
             "(tuple of ints? dim, bool keepdim = False, *, torch.dtype dtype = None, "
             "Tensor out = None)"],
    "prod": ["(*, torch.dtype dtype = None)",
             "(int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"],
    "max": ["(*, Tensor out = None)", "(Tensor other, *, Tensor out = None)",
            "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "min": ["(*, Tensor out = None)", "(Tensor other, *, Tensor out = None)",
            "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "argmax": ["(int dim = None, bool keepdim = False)"],
    "argmin": ["(int dim = None, bool keepdim = False)"],
    "cumsum": ["(int dim, *, torch.dtype dtype = None)"],
    "cumprod": ["(int dim, *, torch.dtype dtype = None)"],
    "logsumexp": ["(tuple of ints dim, bool keepdim = False)"],
    "softmax": ["(int dim, torch.dtype dtype = None)"],
    "log_softmax": ["(int dim, torch.dtype dtype = None)"],
    "index_select": ["(int dim, Tensor index)"],
    "amax": ["(tuple of ints dim = (), bool keepdim = False, *, Tensor out = None)"],
    "amin": ["(tuple of ints dim = (), bool keepdim = False, *, Tensor out = None)"],
    "median": ["()", "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "nanmedian": ["()", "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "mode": ["(int dim = -1, bool keepdim = False, *, tuple of Tensors out = None)"],
    "kthvalue": ["(int k, int dim = -1, bool keepdim = False, *, tuple of Tensors out = None)"],
    "cummax": ["(int dim, *, tuple of Tensors out = None)"],
    "cummin": ["(int dim, *, tuple of Tensors out = None)"],
    "std": _STD_VAR,
    "var": _STD_VAR,
    "std_mean": [s.replace(", Tensor out = None", "").replace(", *)", ")") for s in _STD_VAR],
    "var_mean": [s.replace(", Tensor out = None", "").replace(", *)", ")") for s in _STD_VAR],
    "all": _ALL_ANY,
    "any": _ALL_ANY,
    "nansum": ["(tuple of ints? dim = None, bool keepdim = False, *, torch.dtype dtype = None, "
               "Tensor out = None)"],
    "nanmean": ["(tuple of ints? dim = None, bool keepdim = False, *, torch.dtype dtype = None, "
                "Tensor out = None)"],
    "aminmax": ["(*, int? dim = None, bool keepdim = False, tuple of Tensors out = None)"],
    "count_nonzero": ["(int? dim = None)", "(tuple of ints dim)"],
    "quantile": _QUANTILE,
    "nanquantile": _QUANTILE,
    "sort": ["(*, bool? stable, int dim = -1, bool descending = False, "
             "tuple of Tensors out = None)",
             "(int dim = -1, bool descending = False, *, tuple of Tensors out = None)"],
    "argsort": ["(*, bool? stable, int dim = -1, bool descending = False, Tensor out = None)",
                "(int dim = -1, bool descending = False)"],
    "topk": ["(int k, int dim = -1, bool largest = True, bool sorted = True, *, "
             "tuple of Tensors out = None)"],
    "squeeze": ["()", "(int dim)", "(tuple of ints dim)"],
    "unsqueeze": ["(int dim)"],
    # joining operators take no `input` (see signatures)
    "cat": ["(tuple of Tensors tensors, int dim = 0, *, Tensor out = None)"],
    "stack": ["(tuple of Tensors tensors, int dim = 0, *, Tensor out = None)"],
    "view": ["(torch.dtype dtype)", "(tuple of ints size)"],
    # factories whose first parameter is their own (no `Tensor input`: see _NO_INPUT)
    "normal": ["(Tensor mean, Tensor std, *, torch.Generator generator = None, "
               "Tensor out = None)",
               "(Tensor mean, float std = 1, *, torch.Generator generator = None, "
               "Tensor out = None)",
               "(float mean, Tensor std, *, torch.Generator generator = None, "
               "Tensor out = None)",
               "(float mean, float std, tuple of ints size, *, torch.Generator generator = None, "
               "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
               "torch.device device = None, bool pin_memory = False, "
               "bool requires_grad = False)"],
    # the legacy constructor: Tensor(...), FloatTensor(...)
    "new": ["(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
            "(tuple of ints size, *, torch.device device = None)",
            "(object data, *, torch.device device = None)"],
}
# Operators whose signatures take no `Tensor input` first: the joining operators (their
# tensors come first) and factories.
_NO_INPUT = {"cat", "stack", "normal", "new"}
# How many deprecated overloads torch accepts without listing them, by operator (add and sub
# have one, add(Number alpha, Tensor other), once they are listed).
HIDDEN = {}


class _Param:
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
        if function:
            if with_input:
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
    """The parsed signatures of `name`, as a method's or (with `input` first) a function's."""
    return [_Signature(s, function, name not in _NO_INPUT) for s in SIGNATURES[name]]


# -- a value that is no tensor where a Tensor is taken --------------------------------------------
# NOTE [ Positions in "must be Tensor" errors ]
# torch's parser numbers an argument by its place in the call as written: `torch.mm(a, 3)` says
# "argument 'mat2' (position 2)", `a.mm(3)` says "(position 1)" (self is not counted), and an
# argument given by keyword has no position. An operator's body cannot tell how it was called,
# so it raises the method's wording (`not_a_tensor`); the function's wrapper in the registry
# and the in-place methods' wrapper, which see the call, reword it (`reworded`). Neither costs
# a valid call anything: they act in an `except` clause. A plain method given the argument
# by keyword (`a.mm(mat2=3)`) keeps its position: no wrapper sees that call.

def not_a_tensor(name, arg, index, value, expected="Tensor"):
    """torch's TypeError for `value`, which is no tensor (or no `expected`: "bool"), given as
    `arg`, argument number `index` of `name`'s signature (`input` is 0; None: passed by
    keyword, as torch's Python functions pass it on), worded as a method call gives it."""
    at = "" if index is None else f" (position {index or 1})"
    err = TypeError(f"{name}(): argument '{arg}'{at} must be {expected}, "
                    f"not {type_name(value)}")
    err.tensor_argument = (arg, index, value, expected)
    return err


def reworded(err, name, kwargs, method):
    """An error made by `not_a_tensor` as the call `name(...)` words it (None for another
    error): its position counts `input` in a function, not in a method, and a keyword
    argument has none."""
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
    if cls.__name__ == "Size" and cls.__module__ == "ember._size":
        return "torch.Size"                     # a C type in torch
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
        return "Tensor"
    if isinstance(value, dtype):
        return "torch.dtype"
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
    if value is None:
        return param.nullable
    kind = param.kind
    if kind == "Tensor":
        return isinstance(value, Tensor)
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

def parser_error(name, args, kwargs, function):
    """torch's TypeError for calling operator `name` with `args`/`kwargs` (a method's `args`
    start with self), or None when they fit one of its sigs (the failure is elsewhere)
    or torch's text for them is not known here."""
    if not function:
        args = args[1:]
    sigs = signatures(name, function)
    for sig in sigs:
        if _bind(sig, args, kwargs) is None:
            return None
    count = len(args) + len(kwargs)
    plausible = [s for s in sigs
                 if s.min_args <= count <= len(s.params)]
    if len(plausible) == 1:
        return _single_error(name, plausible[0], args, kwargs)
    if len(sigs) == 1 and not HIDDEN.get(name):
        return _single_error(name, sigs[0], args, kwargs)
    got = _got(args, kwargs)
    if len(sigs) == 1:
        return TypeError(f"{name}() received an invalid combination of arguments - got {got}, "
                         f"but expected {sigs[0].text}")
    lines = [f"{name}() received an invalid combination of arguments - got {got}, "
             f"but expected one of:"]
    for sig in sigs:
        lines.append(f" * {sig.text}")
        if sig.parts == count:
            lines.append(_why_not(sig, args, kwargs))
    return TypeError("\n".join(lines) + "\n")


def _why_not(sig, args, kwargs):
    names = {p.name: p for p in sig.params}
    # a keyword matches a part at or after (parts - keywords) of the same (explainer) name
    known = sig.explainer_names[max(sig.parts - len(kwargs), 0):]
    unknown = [k for k, _ in _keywords(kwargs) if k not in known]
    if unknown:
        return "      didn't match because some of the keywords were incorrect: " + \
            ", ".join(unknown)
    marked = []
    for i, value in enumerate(args):
        text = _describe(value)
        marked.append(text if _explainer_fits(sig.explainer_types[i], value) else f"!{text}!")
    for key, value in _keywords(kwargs):
        text = f"{key}={_describe(value)}"
        marked.append(text if _fits(names[key], value) else f"!{text}!")
    desc = "(" + ", ".join(marked) + ")" if args else "(" + "".join(m + ", " for m in marked) + ")"
    return "      didn't match because some of the arguments have invalid types: " + desc


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
        lo = sum(p.required for p in positional)
        hi = len(positional)
        many = f"{hi}" if lo == hi else f"from {lo} to {hi}"
        noun = "argument" if hi == 1 else "arguments"
        were = "was" if len(args) == 1 else "were"
        return TypeError(f"takes {many} positional {noun} but {len(args)} {were} given")
    # then parameter by parameter, in order, as torch does; unknown keywords last
    aliases = set()         # NumPy's names taken for parameters not given otherwise
    for i, param in enumerate(sig.params):
        if i < len(args) and not param.keyword_only:
            if param.name in kwargs:
                return TypeError(f"got multiple values for argument '{param.name}'")
            where, value = f" (position {i + 1})", args[i]
        elif param.name in kwargs:
            where, value = "", kwargs[param.name]
        elif _NUMPY_ALIAS.get(param.name) in kwargs:        # x.sum(axis=0)
            aliases.add(_NUMPY_ALIAS[param.name])
            where, value = "", kwargs[_NUMPY_ALIAS[param.name]]
        elif param.required:
            missing = [p.name for p in sig.params[i:] if p.required and p.name not in kwargs]
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
    if any(key not in names and key not in aliases for key in kwargs):
        key = next(key for key in kwargs if key not in names)
        return TypeError(f"got an unexpected keyword argument '{key}'")
    return None


def _single_error(name, sig, args, kwargs):
    error = _bind(sig, args, kwargs)
    if not error:
        return None
    text = str(error)
    sep = "(): " if text.startswith("argument") else "() "
    return TypeError(name + sep + text)
