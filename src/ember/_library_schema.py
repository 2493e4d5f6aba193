"""Operator schemas for `ember.library`: what torch writes as
`ns::name(Tensor x, SymInt n=2, *, bool flag=False) -> (Tensor, Tensor)`.

A schema is read from that text (`Library.define`) or inferred from a function's type
annotations (`custom_op`); it prints as torch prints it, and it checks a call's arguments
with torch's errors before the kernel runs (`bind`).
"""
import inspect
import typing
from collections import abc

__all__ = ["Schema", "infer_schema", "parse_schema"]

_PYBIND = ("(#define PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")


class Argument:
    def __init__(self, name, type_, default=inspect.Parameter.empty, kwarg_only=False,
                 alias=None):
        self.name = name
        self.type = type_              # as written in the schema: "Tensor?", "SymInt[]", ...
        self.default = default
        self.kwarg_only = kwarg_only
        self.alias = alias             # "a0!" for an argument the op writes into

    def __str__(self):
        text = self.type if self.alias is None else \
            self.type.replace("Tensor", f"Tensor({self.alias})", 1)
        text = f"{text} {self.name}"
        if self.default is not inspect.Parameter.empty:
            text += f"={_default_text(self.default)}"
        return text

    @property
    def mutable(self):
        return self.alias is not None and self.alias.endswith("!")


def _default_text(value):
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, float):
        text = f"{value:.17g}"         # torch writes 17 digits, and 2.0 as "2."
        return text if "." in text or "e" in text or "n" in text else text + "."
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_default_text(v) for v in value) + "]"
    from ._dtype import dtype
    if isinstance(value, dtype):       # a ScalarType default is written as c10's number
        return str(_SCALAR_TYPES.index(str(value).split(".")[1]))
    return str(value)


_SCALAR_TYPES = ("uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
                 "complex32", "complex64", "complex128", "bool", "qint8", "quint8", "qint32",
                 "bfloat16")


class Schema:
    """One operator's signature: its name, arguments and returns."""

    def __init__(self, name, arguments, returns):
        self.name = name               # "ns::op" (an overload would follow a dot)
        self.arguments = arguments
        self.returns = returns         # type names; a 1-tuple prints without parentheses

    def __str__(self):
        args = []
        star = False
        for a in self.arguments:
            if a.kwarg_only and not star:
                args.append("*")
                star = True
            args.append(str(a))
        if len(self.returns) == 1 and not self.returns_tuple:
            rets = self.returns[0]
        else:
            rets = "(" + ", ".join(self.returns) + ")"
        return f"{self.name}({', '.join(args)}) -> {rets}"

    __repr__ = __str__
    returns_tuple = False

    # -- checking a call ---------------------------------------------------------------------

    def bind(self, args, kwargs):
        """The call's arguments, one per schema argument (defaults filled in), checked as
        torch's dispatcher checks them."""
        name = self.name.split(".")[0]     # torch's errors name it without the overload
        positional = [a for a in self.arguments if not a.kwarg_only]
        if len(args) > len(positional):
            if len(positional) < len(self.arguments):
                raise RuntimeError(f"{name}() takes {len(positional)} positional "
                                   f"argument(s) but {len(args)} was/were given.  Declaration: "
                                   f"{self}")
            raise RuntimeError(f"{name}() expected at most {len(positional)} argument(s) "
                               f"but received {len(args)} argument(s). Declaration: {self}")
        values = []
        for i, a in enumerate(self.arguments):
            if i < len(args):
                value = args[i]
            elif a.name in kwargs:
                value = kwargs[a.name]
            elif a.default is not inspect.Parameter.empty:
                value = a.default
            else:
                raise RuntimeError(f"{name}() is missing value for argument '{a.name}'. "
                                   f"Declaration: {self}")
            self._check(i, a, value)
            values.append(value)
        names = {a.name for a in self.arguments}
        for k in kwargs:
            if k not in names:
                raise RuntimeError(f"Unknown keyword argument '{k}' for operator "
                                   f"'{name}'. Schema: {self}")
        return values

    def _check(self, position, arg, value):
        problem = _type_problem(arg.type, value)
        if problem is None:
            return
        shown, details = problem
        raise RuntimeError(f"{self.name.split('.')[0]}() Expected a value of type '{shown}' for "
                           f"argument '{arg.name}' but instead found type "
                           f"'{type(value).__name__}'.\n"
                           f"Position: {position}\nValue: {value!r}\nDeclaration: {self}\n"
                           f"{details}")


_SHOWN = {"SymInt": "int", "int": "int", "float": "float", "bool": "bool", "str": "str",
          "Tensor": "Tensor", "Scalar": "number", "ScalarType": "int", "Device": "Device"}


def _shown(type_):
    """How torch names a schema type in an argument error ("Optional[List[int]]")."""
    if type_.endswith("?"):
        return f"Optional[{_shown(type_[:-1])}]"
    if type_.endswith("[]"):
        return f"List[{_shown(type_[:-2])}]"
    return _SHOWN.get(type_, type_)


def _cast_error(value):
    return (f"Cast error details: Unable to cast Python instance of type {type(value)} to C++ "
            f"type '?' {_PYBIND}")


def _type_problem(type_, value, outer=None):
    """None if `value` fits `type_`, else (type as torch shows it, the details line)."""
    from ._tensor import Tensor
    shown = outer or _shown(type_)
    if type_.endswith("?"):
        if value is None:
            return None
        return _type_problem(type_[:-1], value, shown)
    if type_.endswith("[]"):
        if isinstance(value, Tensor) or not isinstance(value, (list, tuple)):
            if type_ != "Tensor[]" and not hasattr(value, "__iter__"):
                return shown, (f" Python error details: TypeError: '{type(value).__name__}' "
                               f"object is not iterable")
            return shown, _cast_error(value)
        for v in value:
            if _type_problem(type_[:-2], v, shown) is not None:
                return shown, _cast_error(value if type_ == "Tensor[]" else v)
        return None
    if type_ == "Tensor":
        if value is None or isinstance(value, Tensor):    # None: torch's undefined tensor
            return None
        return shown, f"Cast error details: Unable to cast {value} to Tensor"
    if type_ in ("SymInt", "int"):
        ok = isinstance(value, int) or isinstance(value, Tensor) and value.dim() == 0 and \
            not value.is_floating_point() and not value.is_complex()
    elif type_ == "float":
        ok = isinstance(value, (int, float)) or isinstance(value, Tensor) and value.dim() == 0
    elif type_ == "bool":
        ok = isinstance(value, (bool, int))
    elif type_ == "str":
        ok = isinstance(value, str)
    elif type_ == "Scalar":
        if isinstance(value, (int, float, complex)) or isinstance(value, Tensor):
            return None
        return shown, f"Cast error details: Cannot cast {value} to number"
    else:
        ok = True
    return None if ok else (shown, _cast_error(value))


# -- reading a schema ----------------------------------------------------------------------

def parse_schema(name, text):
    """`text` is "(Tensor x, float a=1.) -> Tensor" (the name given separately) or the whole
    "op(Tensor x) -> Tensor"."""
    text = text.strip()
    if not text.startswith("("):
        op, _, rest = text.partition("(")
        if not op.replace("_", "").replace(".", "").isalnum() or not rest:
            head, _, tail = text.partition(" ")
            start = len(head) + len(tail) - len(tail.lstrip()) + 1
            token = tail.split()[0] if tail.split() else ""
            raise RuntimeError(f"expected eof but found 'ident' here:\n{text}\n"
                               f"{' ' * start}{'~' * len(token)} <--- HERE\n")
        name = op if name is None else f"{name}::{op}"
        text = "(" + rest
    close = _matching(text, 0)
    inner, rest = text[1:close], text[close + 1:].strip()
    if not rest.startswith("->"):
        raise RuntimeError(f"expected '->' but found something else here:\n{text}")
    arguments = []
    kwarg_only = False
    for part in _split_top(inner):
        if part == "*":
            kwarg_only = True
            continue
        arguments.append(_parse_argument(part, kwarg_only))
    returns_text = rest[2:].strip()
    returns_tuple = returns_text.startswith("(")
    if returns_tuple:           # each "Type" or "Type name", as written
        returns = _split_top(returns_text[1:-1])
    else:
        returns = [returns_text]
    schema = Schema(name, arguments, returns)
    schema.returns_tuple = returns_tuple
    return schema


def _matching(text, start):
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i
    raise RuntimeError(f"expected ')' but found 'eof' here:\n{text}")


def _split_top(text):
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _strip_alias(type_text):
    """"Tensor(a!)" -> ("Tensor", "a!")."""
    if "(" in type_text:
        head, _, rest = type_text.partition("(")
        alias, _, tail = rest.partition(")")
        return head + tail, alias
    return type_text, None


def _parse_argument(part, kwarg_only):
    decl, eq, default = part.partition("=")
    type_text, _, arg_name = decl.strip().rpartition(" ")
    type_, alias = _strip_alias(type_text.strip())
    value = inspect.Parameter.empty
    if eq:
        value = _parse_default(default.strip())
    return Argument(arg_name, type_, value, kwarg_only, alias)


def _parse_default(text):
    if text == "None":
        return None
    if text in ("True", "False"):
        return text == "True"
    if text[:1] in "\"'":
        return text[1:-1]
    if text.startswith("["):
        return [_parse_default(t) for t in _split_top(text[1:-1])]
    try:
        return int(text)
    except ValueError:
        return float(text)


# -- inferring a schema from type annotations ----------------------------------------------

def _annotation_types():
    from ._tensor import Tensor
    from ._dtype import dtype
    from ._device import device
    number = typing.Union[int, float, bool]
    base = {Tensor: "Tensor", int: "SymInt", float: "float", bool: "bool", str: "str",
            number: "Scalar", dtype: "ScalarType", device: "Device"}
    table = {}
    for py, name in base.items():
        table[py] = name
        table[typing.Optional[py]] = name + "?"
        if py in (str, dtype, device):
            continue
        for seq in (typing.Sequence, typing.List, abc.Sequence, list):
            table[seq[py]] = name + "[]"
            if py is Tensor:
                table[seq[typing.Optional[py]]] = "Tensor?[]"
            else:
                table[typing.Optional[seq[py]]] = name + "[]?"
    return table


def _return_types():
    from ._tensor import Tensor
    return {Tensor: "Tensor", typing.List[Tensor]: "Tensor[]", list[Tensor]: "Tensor[]",
            int: "SymInt", float: "float", bool: "bool",
            typing.Union[int, float, bool]: "Scalar"}


def infer_schema(func, *, mutates_args, op_name=None):
    """The schema torch infers from `func`'s annotations (see `custom_op`)."""
    sig = inspect.signature(func)

    def error(what):
        return ValueError(f"infer_schema(func): {what} Got func with signature {sig})")

    hints = typing.get_type_hints(func) if hasattr(func, "__annotations__") else {}
    table = _annotation_types()
    arguments = []
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise error("We do not support positional-only args, varargs, or varkwargs.")
        if p.annotation is inspect.Parameter.empty:
            raise error(f"Parameter {p.name} must have a type annotation.")
        annotation = hints.get(p.name, p.annotation)
        type_ = table.get(annotation)
        if type_ is None:
            raise error(f"Parameter {p.name} has unsupported type {annotation}. The valid "
                        f"types are: {table.keys()}.")
        if p.default is not inspect.Parameter.empty and p.default is not None and \
                not isinstance(p.default, (int, float, bool, str)) and \
                type_ not in ("ScalarType", "Device"):
            raise error(f"Parameter {p.name} has an unsupported default value type "
                        f"{type(p.default)}. Please file an issue on GitHub so we can "
                        f"prioritize this.")
        arguments.append(Argument(p.name, type_, p.default, p.kind == p.KEYWORD_ONLY))
    names = [a.name for a in arguments]
    if mutates_args == "unknown":
        mutated = [a.name for a in arguments if a.type.startswith("Tensor")]
    else:
        mutated = list(mutates_args)
        missing = set(mutated) - set(names)
        if missing:
            raise error(f"{missing} in mutates_args were not found in the custom op's "
                        f"signature. mutates_args should contain the names of all args that "
                        f"the custom op mutates, or just the string 'unknown' if you don't "
                        f"know.")
    for i, a in enumerate(arguments):       # torch numbers the alias sets by position
        if a.name in mutated and a.type.startswith("Tensor"):
            a.alias = f"a{i}!"
    if sig.return_annotation is inspect.Signature.empty:
        raise error("No return type annotation was provided. Please add one.")
    returns, returns_tuple = _infer_returns(hints.get("return", sig.return_annotation), error)
    schema = Schema(op_name or "", arguments, returns)
    schema.returns_tuple = returns_tuple
    return schema


def _infer_returns(annotation, error):
    table = _return_types()
    if annotation is None or annotation is type(None):
        return [], True
    origin = typing.get_origin(annotation)
    if origin is tuple:
        names = []
        for a in typing.get_args(annotation):
            if a not in table:
                raise error(f"Return has unsupported type {a}. The valid types are: {table}.")
            names.append(table[a])
        return names, True
    if annotation not in table:
        raise error(f"Return has unsupported type {annotation}. The valid types are: "
                    f"{table}.")
    return [table[annotation]], False
