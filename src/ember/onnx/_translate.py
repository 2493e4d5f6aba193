"""Translating a captured fx graph into ONNX nodes, node by node, through the table in
_registry.py (NOTE [ Values and folded values ] in _graph.py says what a translation gives)."""
from ..fx.node import map_arg, map_aggregate
from . import _modules, _modules_attention, _modules_rnn  # noqa: F401 (they fill the table)
from . import _ops_math, _ops_nn, _ops_norm, _ops_reduce, _ops_resize, _ops_shape  # noqa: F401
from ._graph import Value
from ._registry import MODULES, function_translation, module_translation

__all__ = ["translate", "is_leaf"]

# Results that never depend on sizes the exporter leaves dynamic.
_STATIC_METHODS = {"dim", "ndimension", "is_floating_point", "is_complex"}


def is_leaf(module):
    """Whether the tracer should record calls of `module` whole (it has a translation)."""
    return type(module) in MODULES


def translate(gm, g, inputs):
    """Add the nodes of `gm.graph` to builder `g`; `inputs` maps each placeholder's name to
    its Value (or its folded value). Gives the translation of the graph's output."""
    env = {}
    for node in gm.graph.nodes:
        g.scope = node.meta.get("scope", ())
        g.example = node.meta.get("example")
        if node.op == "placeholder":
            env[node] = inputs[node.name]
        elif node.op == "get_attr":
            env[node] = _attribute(g, gm, node.target)
        elif node.op == "output":
            return map_arg(node.args[0], env.__getitem__)
        else:
            args = map_arg(node.args, env.__getitem__)
            kwargs = dict(map_arg(node.kwargs, env.__getitem__))
            if _foldable(g, node, args, kwargs):
                env[node] = _plain(g.example)
            elif node.op == "call_module":
                module = gm.get_submodule(node.target)
                fn = module_translation(module, g.opset)
                env[node] = fn(g, module, node.target, *args, **kwargs)
            elif _known(args, kwargs):
                env[node] = _constants(g, g.example)
            else:
                env[node] = function_translation(node, g.opset)(g, *args, **kwargs)
            _take_examples(env[node], g.example)
    return None


def _take_examples(result, example):
    """Give the translation's Values the fx node's examples (the truth, where a translation
    made stand-ins)."""
    from .._tensor import Tensor
    if isinstance(result, Value) and isinstance(example, Tensor):
        result.example = example
    elif isinstance(result, (tuple, list)) and isinstance(example, (tuple, list)) and len(
            result) == len(example):
        for r, e in zip(result, example):
            _take_examples(r, e)


def _attribute(g, gm, target):
    """A get_attr node: a tensor (parameter, buffer, constant) is an initializer under its
    qualified name; anything else is its value."""
    value = gm
    for part in target.split("."):
        value = getattr(value, part)
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        return g.initializer(target, value)
    return value


def _foldable(g, node, args, kwargs):
    """Whether the node's result is known now: it is no tensor, and either sizes are not
    dynamic or no graph value goes in (NOTE [ Values and folded values ])."""
    if _holds_tensor(g.example):
        return False
    if node.op == "call_method" and node.target in _STATIC_METHODS:
        return True
    return not g.dynamic or _known(args, kwargs)


def _known(args, kwargs):
    """Whether no graph value goes into a call (`torch.zeros(n, 3)` with n a folded size)."""
    found = []
    map_aggregate((args, kwargs), lambda a: found.append(a) if isinstance(a, Value) else a)
    return not found


def _constants(g, example):
    """A call of known inputs, as Constants of what it gave."""
    from .._tensor import Tensor
    return map_aggregate(example, lambda t: g.value(t) if isinstance(t, Tensor) else t)


def _holds_tensor(x):
    from .._tensor import Tensor
    found = []
    map_aggregate(x, lambda a: found.append(a) if isinstance(a, Tensor) else a)
    return bool(found)


def _plain(x):
    """An example as plain Python data (an ember.Size as a tuple)."""
    return tuple(x) if isinstance(x, tuple) and not hasattr(x, "_fields") else x
