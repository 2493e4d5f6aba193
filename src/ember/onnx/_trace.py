"""Capturing a model for export: ember.fx's symbolic trace, with the layers the exporter
translates whole as leaves and each node's module scope recorded, then one run on the example
inputs that leaves each node's result in `node.meta["example"]`."""
import inspect
import types

from ..fx import Graph, Interpreter, Tracer
from ..fx.graph_module import GraphModule
from ..fx.proxy import TraceError
from ._graph import scope_name

__all__ = ["capture"]


class _ExportTracer(Tracer):
    """A Tracer whose leaves are the layers with a translation (`is_leaf`), which records in
    `node.meta["scope"]` the scope names of the modules a node was made in: each module's
    `scope_name`, and for a module without submodules called again, "relu_1", "relu_2", ...
    as torch names the scopes of repeated calls."""

    def __init__(self, is_leaf):
        super().__init__()
        self._is_leaf = is_leaf
        self._scope = []
        self._calls = {}            # id(module without submodules) -> calls so far

    def is_leaf_module(self, m, module_qualified_name):
        return self._is_leaf(m)

    def call_module(self, m, forward, args, kwargs):
        name = scope_name(self.path_of_module(m))
        if not m._modules:
            calls = self._calls.get(id(m), 0)
            self._calls[id(m)] = calls + 1
            name = f"{name}_{calls}" if calls else name
        self._scope.append(name)
        try:
            return super().call_module(m, forward, args, kwargs)
        finally:
            self._scope.pop()

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        """Buffers are read as get_attr nodes too (torch.fx's proxy_buffer_attributes), so
        that `self.pe[:, :x.size(1)]` is recorded rather than run on the real buffer."""
        from .._tensor import Tensor
        if isinstance(attr_val, Tensor):
            for name, b in self.root.named_buffers():
                if attr_val is b:
                    if name not in parameter_proxy_cache:
                        parameter_proxy_cache[name] = self.create_proxy("get_attr", name, (),
                                                                        {})
                    return parameter_proxy_cache[name]
        return super().getattr(attr, attr_val, parameter_proxy_cache)

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        node = super().create_node(kind, target, args, kwargs, name, type_expr)
        node.meta["scope"] = tuple(self._scope)
        return node


class _ExampleRun(Interpreter):
    """Runs the graph once, keeping each node's result as `node.meta["example"]`."""

    def run_node(self, n):
        result = super().run_node(n)
        n.meta["example"] = result
        return result


def capture(model, args, kwargs, is_leaf):
    """A GraphModule of `model` whose nodes carry their scope and example result, and the
    model's result on the example inputs."""
    from .. import no_grad
    if is_leaf(model):
        return _capture_whole(model, args)
    tracer = _ExportTracer(is_leaf)
    concrete = _concrete_args(model, args, kwargs)
    try:
        graph = tracer.trace(model, concrete_args=concrete or None)
    except TraceError as e:
        raise TraceError(f"{e}\n(ember.onnx.export captures the model with ember.fx's symbolic "
                         "trace, which cannot follow a branch on a tensor's value)") from e
    gm = GraphModule(tracer.root, graph, type(model).__name__)
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    inputs = list(args) + [kwargs[n.target] for n in placeholders[len(args):]
                           if n.target in kwargs]
    with no_grad():
        result = _ExampleRun(gm, garbage_collect_values=False).run(*inputs)
    return gm, result


def _capture_whole(model, args):
    """A model that is itself a layer the exporter translates whole: a graph of one
    call_module node (the root's path is "")."""
    from .. import no_grad
    graph = Graph()
    names = list(inspect.signature(model.forward).parameters)[:len(args)]
    placeholders = [graph.placeholder(name) for name in names]
    call = graph.call_module("", tuple(placeholders))
    graph.output(call)
    with no_grad():
        result = model(*args)
    for node, example in zip(placeholders + [call], list(args) + [result]):
        node.meta["example"] = example
    return types.SimpleNamespace(graph=graph, get_submodule=model.get_submodule), result


def _concrete_args(model, args, kwargs):
    """The forward parameters given neither positionally nor by keyword, bound to their
    defaults so that the trace does not make placeholders of them."""
    params = list(inspect.signature(model.forward).parameters.values())
    concrete = {}
    for p in params[len(args):]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in kwargs:
            continue
        if p.default is not p.empty:
            concrete[p.name] = p.default
    return concrete
