"""The one table of translations: each torch function or Tensor method (by name) and each layer
class the exporter translates, and the lookup that names what it cannot translate."""
from .errors import SymbolicValueError, UnsupportedOperatorError

__all__ = ["translates", "translates_module", "function_translation", "module_translation",
           "op_name"]

FUNCTIONS = {}      # "relu" (torch.relu, F.relu, Tensor.relu, operator ...) -> fn(g, *args)
MODULES = {}        # nn.Linear -> fn(g, module, qualified_name, *args)

# Names of Python operators, aliases and functions that differ from the torch function they
# equal.
_ALIASES = {"truediv": "div", "concat": "cat", "concatenate": "cat", "true_divide": "div",
            "multiply": "mul", "subtract": "sub", "absolute": "abs", "negative": "neg",
            "swapaxes": "transpose", "swapdims": "transpose", "clip": "clamp",
            "greater": "gt", "less": "lt", "greater_equal": "ge", "less_equal": "le",
            "not_equal": "ne", "divide": "div", "ravel": "flatten",
            "_celu": "celu"}    # (F.celu's function is named _celu)


def translates(*names):
    """Register the decorated `fn(g, *args, **kwargs)` as the translation of `names`."""
    def register(fn):
        for name in names:
            FUNCTIONS[name] = fn
        return fn
    return register


def translates_module(*classes):
    """Register the decorated `fn(g, module, qualified_name, *args)` for layer `classes`."""
    def register(fn):
        for cls in classes:
            MODULES[cls] = fn
        return fn
    return register


def op_name(node):
    """The name a call_function/call_method node is translated by (`torch.add`, `x.add` and
    `operator.add` are all "add")."""
    name = node.target if node.op == "call_method" else getattr(node.target, "__name__", "")
    name = name.strip("_") if name.startswith("__") else name
    return _ALIASES.get(name, name)


def function_translation(node, opset):
    """The translation of a call_function/call_method node, or UnsupportedOperatorError.
    An in-place op (`x.relu_()`) is translated as its out-of-place twin when the tensor it
    changes is not read afterwards (the trace records no mutation, so a later read of `x`
    would see the old value)."""
    name = op_name(node)
    if name not in FUNCTIONS and name.endswith("_") and name[:-1] in FUNCTIONS:
        changed = node.args[0] if node.args else None
        if _read_after(node, changed):
            raise SymbolicValueError(f"{name} changes a tensor that is read again afterwards; "
                                     f"the exporter follows only the result (use {name[:-1]} "
                                     "and the value it returns)")
        name = name[:-1]
    if name not in FUNCTIONS:
        raise UnsupportedOperatorError(f"aten::{name}", opset, None)
    return FUNCTIONS[name]


def _read_after(node, value):
    """Whether a node after `node` uses `value` (an fx Node)."""
    users = getattr(value, "users", {})
    later = node.next
    while later.op != "root":
        if later in users:
            return True
        later = later.next
    return False


def module_translation(module, opset):
    fn = MODULES.get(type(module))
    if fn is None:
        raise UnsupportedOperatorError(type(module).__name__, opset, None)
    return fn
