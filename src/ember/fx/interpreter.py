"""torch.fx.interpreter: run a GraphModule's graph node by node in Python (Interpreter), with
one overridable method per kind of node, or rebuild it into a new graph the same way
(Transformer), e.g. to swap one call for another."""
import inspect

from .graph import Graph
from .graph_module import GraphModule
from .node import map_aggregate, map_arg
from .proxy import Proxy

__all__ = ["Interpreter", "Transformer"]

# (the last line torch adds to an error raised while interpreting)
_TLPARSE = ("Use tlparse to see full graph. (https://github.com/pytorch/tlparse?tab=readme-ov-"
            "file#tlparse-parse-structured-pt2-logs)")


class Interpreter:
    """Runs `module.graph` on given inputs: `run(*args)` gives forward's result. Override
    `run_node` or the per-kind methods (`call_function`, `call_method`, `call_module`,
    `get_attr`, `placeholder`, `output`) to observe or change execution."""

    def __init__(self, module, garbage_collect_values=True, graph=None):
        self.module = module
        self.submodules = dict(module.named_modules())
        self.graph = graph if graph is not None else module.graph
        self.env = {}
        self.name = "Interpreter"
        self.garbage_collect_values = garbage_collect_values
        self.extra_traceback = True
        self.user_to_last_uses = {}
        if garbage_collect_values:
            seen = set()
            for node in reversed(self.graph.nodes):
                for n in node._input_nodes:
                    if n not in seen:
                        seen.add(n)
                        self.user_to_last_uses.setdefault(node, []).append(n)

    def run(self, *args, initial_env=None, enable_io_processing=True):
        """Run the graph with `args` as its placeholders' values; returns the output's."""
        self.env = initial_env if initial_env is not None else {}
        self.args_iter = iter(args)
        for node in self.graph.nodes:
            if node in self.env:
                continue
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                if self.extra_traceback and e.args and isinstance(e.args[0], str):
                    e.args = (f"{e.args[0]}\n\nWhile executing {node.format_node()}\n"
                              f"Original traceback:\nNone\n{_TLPARSE}", *e.args[1:])
                raise
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    del self.env[to_delete]
            if node.op == "output":
                return self.env[node]
        return None

    def boxed_run(self, args_list):
        args_iter = list(args_list)
        args_list.clear()
        return self.run(*args_iter)

    def run_node(self, n):
        """Run one node: its arguments fetched from the values computed so far, then the
        method named after its op."""
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    # -- one method per kind of node --------------------------------------------------------

    def placeholder(self, target, args, kwargs):
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration as si:
            if len(args) > 0:
                return args[0]
            raise RuntimeError(f"Expected positional argument for parameter {target}, but one "
                               f"was not passed in!") from si

    def get_attr(self, target, args, kwargs):
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target, args, kwargs):
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args, kwargs):
        return args[0]

    # -- helpers ----------------------------------------------------------------------------

    def fetch_attr(self, target):
        """The module's attribute at the dotted path `target`."""
        atoms = target.split(".")
        attr = self.module
        for i, atom in enumerate(atoms):
            if not hasattr(attr, atom):
                raise RuntimeError(f"Node referenced nonexistent target "
                                   f"{'.'.join(atoms[:i + 1])}")
            attr = getattr(attr, atom)
        return attr

    def fetch_args_kwargs_from_env(self, n):
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n):
        def load_arg(n_arg):
            if n_arg not in self.env:
                raise RuntimeError(f"Node {n} referenced nonexistent value {n_arg}! Run "
                                   f"Graph.lint() to diagnose such issues")
            return self.env[n_arg]
        return map_arg(args, load_arg)


class Transformer(Interpreter):
    """Rebuilds the module's graph through the Interpreter's methods, which here give
    Proxies of new nodes: `transform()` returns the new GraphModule. Override a method to
    record something else (`torch.neg(*args)` in place of a sigmoid, ...)."""

    def __init__(self, module):
        super().__init__(module)
        from ._symbolic_trace import Tracer
        self.new_graph = Graph()
        self.new_graph.set_codegen(module.graph._codegen)

        class TransformerTracer(Tracer):
            def __init__(self, graph):
                super().__init__()
                self.graph = graph
                self.tensor_attrs = {}

            def is_leaf_module(self, _, __):
                return True
        self.tracer = TransformerTracer(self.new_graph)
        self.tracer.root = module

    def placeholder(self, target, args, kwargs):
        default = next(iter(args)) if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default), self.tracer)

    def get_attr(self, target, args, kwargs):
        return self.tracer.create_proxy("get_attr", target, args, kwargs)

    def call_module(self, target, args, kwargs):
        submod = self.fetch_attr(target)
        return self.tracer.call_module(submod, submod.forward, args, kwargs)

    def call_function(self, target, args, kwargs):
        return self.tracer.create_proxy("call_function", target, args, kwargs)

    def run_node(self, n):
        # While it runs, torch's functions are wrappers that reach Proxy.__torch_function__:
        # a call_function's target is given as what the public name holds now, so that
        # `target == torch.sigmoid` holds in an override (nodes record the originals).
        if n.op == "call_function":
            from .. import _patch_ops
            args, kwargs = self.fetch_args_kwargs_from_env(n)
            return self.call_function(_patch_ops.installed(n.target), args, kwargs)
        return super().run_node(n)

    def transform(self):
        """The new GraphModule."""
        from .. import _torch_function
        _torch_function.tracing_started()
        try:
            result = super().run(enable_io_processing=False)
        finally:
            _torch_function.tracing_ended()
        if result is not None:
            self.new_graph.output(map_aggregate(
                result, lambda a: a.node if isinstance(a, Proxy) else a))
        return GraphModule(self.module, self.new_graph)
