"""Names in fx's printed forms: the qualified name of a call's target as torch prints it
(`torch.relu`, `torch.nn.functional.relu`, `operator.add`, `builtins.getattr`), and the names
a graph gives its nodes (`add`, `add_1`, `sum_1`, `sub_lin`)."""
import builtins
import keyword
import re
import types

from ._torch_names import QUALIFIED_NAMES

# The public namespaces whose functions print under torch's name, in the order looked in (a
# function both in `torch` and in `torch.nn.functional` prints as torch's).
_NAMESPACES = (("ember", "torch"), ("ember.nn.functional", "torch.nn.functional"),
               ("ember.linalg", "torch.linalg"), ("ember.special", "torch.special"),
               ("ember.fft", "torch.fft"))
_public = None          # id(function) -> (function, its torch name)


def _public_names():
    global _public
    if _public is None:
        import importlib
        from .._tensor import Tensor
        from .. import _patch_ops
        table = {}
        for module_name, torch_name in _NAMESPACES:
            for name, obj in vars(importlib.import_module(module_name)).items():
                obj = _patch_ops.original(obj)
                if not name.startswith("_") and callable(obj) and id(obj) not in table:
                    full = f"{torch_name}.{name}"
                    table[id(obj)] = (obj, QUALIFIED_NAMES.get(full, full))
        for name, obj in vars(Tensor).items():
            obj = _patch_ops.original(obj)
            if isinstance(obj, types.FunctionType) and id(obj) not in table:
                table[id(obj)] = (obj, f"torch.Tensor.{name}")
        _public = table
    return _public


def qualified_name(func):
    """The name torch.fx prints for the callable `func`: a builtin's own name (`getattr`),
    ember's public functions under torch's modules, others `module.name`."""
    from .. import _patch_ops
    func = _patch_ops.original(func)
    name = getattr(func, "__name__", None)
    if name is not None and getattr(builtins, name, None) is func:
        return name
    entry = _public_names().get(id(func))
    if entry is not None and entry[0] is func:
        return entry[1]
    if name == "<lambda>":
        raise RuntimeError(f"Unable to represent lambda {func}")
    module = getattr(func, "__module__", None)
    if module is None:
        raise RuntimeError(f"cannot find module for {func}")
    if module.startswith("ember.") or module == "ember":
        module = "torch" + module[5:]
    return f"{module}.{name}"


def pretty_target(target):
    """A call_function's target as a node's line prints it: `builtins.getattr`, `torch.relu`."""
    if isinstance(target, str):
        return target
    name = qualified_name(target)
    if name.startswith("_operator."):
        return name[1:]
    return "builtins." + name if "." not in name else name


_ILLEGAL = re.compile(r"[^0-9a-zA-Z_]+")
_SUFFIX = re.compile(r"(.*)_(\d+)$")
# names the generated code uses for itself, besides Python's builtins and keywords
_RESERVED = frozenset(("inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree",
                       "math"))


class Namespace:
    """The names given so far in one graph (or one generated function): each candidate becomes
    a legal identifier, unique, `base_N` counting up from the last number used for `base`."""

    def __init__(self):
        self._used = set()
        self._counts = {}
        self._of_object = {}

    def create_name(self, candidate, obj=None):
        if obj is not None and id(obj) in self._of_object:
            return self._of_object[id(obj)]
        candidate = _ILLEGAL.sub("_", candidate) or "_unnamed"
        if candidate[0].isdigit():
            candidate = "_" + candidate
        match = _SUFFIX.match(candidate)
        base, num = (candidate, None) if match is None else (match[1], int(match[2]))
        if not num:
            num = self._counts.get(base, 0)
        while candidate in self._used or self._illegal(candidate):
            num += 1
            candidate = f"{base}_{num}"
        self._used.add(candidate)
        self._counts[base] = num
        if obj is not None:
            self._of_object[id(obj)] = candidate
        return candidate

    def associate(self, name, obj):
        self._of_object[id(obj)] = name

    def forget(self, name, obj=None):
        """Make `name` free again (an erased node's)."""
        self._used.discard(name)
        if obj is not None:
            self._of_object.pop(id(obj), None)

    @staticmethod
    def _illegal(name):
        return name in keyword.kwlist or name in _RESERVED or hasattr(builtins, name)


def snake_case(name):
    """`MyModule` -> `my_module`, as the names of call targets given by class name."""
    chars, prev_lower = [], False
    for c in name:
        if c.isupper() and prev_lower:
            chars.append("_")
        chars.append(c.lower())
        prev_lower = c.islower()
    return "".join(chars)
