"""Pickling a GraphModule (`pickle.dumps(gm)`, `torch.save(gm)`): its module state goes as any
Module's; its graph goes as a list of node records (their meta left out, but for fx.wrap's
mark), whose call_function targets are written by the names fx prints for them (`torch.relu`,
`operator.add`, `mymodule.helper`) and found again by those names when loaded, since ember's
operators cannot be pickled by reference."""
import builtins
import functools
import importlib

from .node import map_arg

__all__ = ["reduce_graph_module"]


class _NodeRef:
    """A node inside the records: the index of the record that made it."""

    def __init__(self, index):
        self.index = index


def _find(name):
    """The object fx's qualified name `name` stands for."""
    if "." not in name:
        return getattr(builtins, name)
    if name.startswith("torch."):
        from ._names import _public_names
        for obj, public in _public_names().values():
            if public == name:
                return obj
        import ember
        return functools.reduce(getattr, name.split(".")[1:], ember)
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        return functools.reduce(getattr, parts[i:], module)
    raise RuntimeError(f"cannot find {name} to unpickle a GraphModule's node")


def _records(graph):
    from ._names import qualified_name
    index = {}
    records = []
    for i, node in enumerate(graph.nodes):
        index[node] = i
        target = node.target
        if node.op == "call_function":
            target = qualified_name(target)
        args = map_arg(node.args, lambda n: _NodeRef(index[n]))
        kwargs = map_arg(node.kwargs, lambda n: _NodeRef(index[n]))
        records.append((node.op, node.name, target, _plain(args), _plain(kwargs), node.type,
                        node.meta.get("is_wrapped", False)))
    return records


def _plain(a):
    """Node arguments with fx's immutable containers as plain lists and dicts."""
    if isinstance(a, tuple) and not hasattr(a, "_fields"):
        return tuple(_plain(e) for e in a)
    if isinstance(a, list):
        return [_plain(e) for e in a]
    if isinstance(a, dict):
        return {k: _plain(v) for k, v in a.items()}
    return a


def _graph_of(records):
    from .graph import Graph
    graph = Graph()
    made = []

    def resolve(a):
        if isinstance(a, _NodeRef):
            return made[a.index]
        if isinstance(a, tuple) and not hasattr(a, "_fields"):
            return tuple(resolve(e) for e in a)
        if isinstance(a, list):
            return [resolve(e) for e in a]
        if isinstance(a, dict):
            return {k: resolve(v) for k, v in a.items()}
        if isinstance(a, slice):
            return slice(resolve(a.start), resolve(a.stop), resolve(a.step))
        return a
    for op, name, target, args, kwargs, type_expr, is_wrapped in records:
        if op == "call_function":
            target = _find(target)
        node = graph.create_node(op, target, resolve(args), resolve(kwargs), name, type_expr)
        if is_wrapped:
            node.meta["is_wrapped"] = True
        made.append(node)
    return graph


def _rebuild(state, records):
    from .graph_module import GraphModule
    gm = GraphModule.__new__(GraphModule)
    gm.__dict__.update(state)
    gm.__class__.__name__ = "GraphModule"      # (torch's loaded GraphModules are named so)
    gm.graph = _graph_of(records)
    return gm


def reduce_graph_module(gm):
    """GraphModule.__reduce__: rebuilt from its state and its graph's records."""
    state = {k: v for k, v in gm.__dict__.items() if k not in ("_graph", "_code",
                                                                 "_lineno_map")}
    return (_rebuild, (state, _records(gm.graph)))

