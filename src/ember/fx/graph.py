"""torch.fx.graph: a Graph is the list of Nodes of one traced program, with the methods that
build it (placeholder, get_attr, call_function, call_method, call_module, output), edit it
(inserting_before/after, erase_node, node_copy, graph_copy, eliminate_dead_code), check it
(lint) and print it (`print(graph)`, print_tabular, python_code)."""
import copy
import inspect

from . import _codegen
from ._names import Namespace, snake_case
from .node import Node, map_arg

__all__ = ["Graph", "PythonCode", "CodeGen"]

PythonCode = _codegen.PythonCode
CodeGen = _codegen.CodeGen


class _NodeList:
    """`graph.nodes`: a live view of the nodes in order (reversible, with a length)."""

    def __init__(self, graph, direction="_next"):
        self._graph = graph
        self._direction = direction

    def __len__(self):
        return self._graph._len

    def __iter__(self):
        root = self._graph._root
        node = getattr(root, self._direction)
        while node is not root:
            following = getattr(node, self._direction)
            if not node._erased:
                yield node
            node = following

    def __reversed__(self):
        return _NodeList(self._graph, "_prev" if self._direction == "_next" else "_next")

    def __repr__(self):
        return f"<torch.fx.graph._node_list object at {hex(id(self))}>"


class Graph:
    """The nodes of a program in order; see the module's docstring.

        graph = torch.fx.Graph()
        x = graph.placeholder("x")
        graph.output(graph.call_function(torch.relu, (x,)))
    """

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None):
        self._root = Node(self, "", "root", "", (), {})
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = Namespace()
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._tracer_extras = tracer_extras
        self._codegen = CodeGen()

    @property
    def owning_module(self):
        return self._owning_module

    @owning_module.setter
    def owning_module(self, module):
        self._owning_module = module

    @property
    def nodes(self):
        """The nodes, in program order (`reversed(graph.nodes)` walks back)."""
        return _NodeList(self)

    def find_nodes(self, *, op, target=None, sort=True):
        return [n for n in self.nodes if n.op == op and (target is None or n.target == target)]

    # -- building ---------------------------------------------------------------------------

    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        """A new node at the insertion point (the end, unless inside inserting_before/after),
        named `name` or after its target, made unique (`add`, `add_1`, ...)."""
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        node = Node(self, name, op, target, args or (), kwargs or {}, type_expr)
        self._graph_namespace.associate(name, node)
        self._insert(node)
        self._len += 1
        return node

    def placeholder(self, name, type_expr=None, default_value=inspect.Signature.empty):
        """An input of the program (`default_value`: the argument's default, if it has one)."""
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        """A read of the owning module's attribute `qualified_name` (`"sub.weight"`)."""
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        """A call of the owning module's submodule `module_name`."""
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        """A call of the method `method_name` of `args[0]`."""
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None):
        """A call of the function `the_function` (torch.relu, operator.add, ...)."""
        return self.create_node("call_function", the_function, args, kwargs,
                                type_expr=type_expr)

    def output(self, result, type_expr=None):
        """The program's result (one output node per graph, last)."""
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def _target_to_str(self, target):
        if callable(target):
            op = target.__name__
        else:
            assert isinstance(target, str)
            op = target
            if op.isidentifier() and not op.islower():  # (`MyModule` -> `my_module`)
                op = snake_case(op)
        return op

    # -- editing ----------------------------------------------------------------------------

    def inserting_before(self, n=None):
        """Within `with graph.inserting_before(n):`, new nodes go right before `n` (the
        graph's start when None)."""
        if n is None:
            return self.inserting_after(self._root)
        assert n.graph is self, "Node to insert before is not in graph."
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n=None):
        """Within `with graph.inserting_after(n):`, new nodes go after `n`, in order (the
        graph's end when None)."""
        if n is None:
            return self.inserting_before(self._root)
        assert n.graph is self, "Node to insert after is not in graph."
        return _InsertPoint(self, n.append)

    def erase_node(self, to_erase):
        """Remove a node that nothing uses any more."""
        if len(to_erase.users) > 0:
            raise RuntimeError(f"Tried to erase Node {to_erase} but it still had "
                               f"{len(to_erase.users)} users in the graph: {to_erase.users}!")
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        self._graph_namespace.forget(to_erase.name, to_erase)
        to_erase._update_args_kwargs((), {})

    def eliminate_dead_code(self, is_impure_node=None):
        """Erase every node whose value nobody uses and that has no side effect, last first;
        returns whether anything was erased."""
        self.lint()
        changed = False
        for node in reversed(self.nodes):
            impure = is_impure_node(node) if is_impure_node else node.is_impure()
            if not impure and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed

    def node_copy(self, node, arg_transform=lambda x: x):
        """A copy of `node` (from any graph) at the insertion point, its input nodes mapped
        through `arg_transform`."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result.meta = copy.copy(node.meta)
        return result

    def graph_copy(self, g, val_map, return_output_node=False):
        """Copy the nodes of `g` into this graph (`val_map`: g's node -> this graph's, filled
        in), returning the value its output node would return."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                result = map_arg(node.args[0], lambda n: val_map[n])
                return (result, node) if return_output_node else result
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo=None):
        memo = memo if memo is not None else {}
        g = Graph(tracer_cls=self._tracer_cls)
        output_vals = g.graph_copy(self, val_map=memo, return_output_node=True)
        g._codegen = copy.deepcopy(self._codegen)
        if output_vals is not None:
            result, old_output = output_vals
            new_output = g.output(result, type_expr=getattr(old_output, "type", None))
            new_output.meta = copy.copy(old_output.meta)
        return g

    def lint(self):
        """Check the graph is well formed: each node belongs to it, uses only nodes defined
        before it, and has a unique name; call targets exist on the owning module."""
        seen_names, seen = set(), set()
        for node in self.nodes:
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            for arg in node._input_nodes:
                if arg.graph is not self:
                    raise RuntimeError(f"Arg {arg} of Node '{node}' does not belong to this "
                                       f"Graph!")
                if arg not in seen:
                    raise RuntimeError(f"Argument '{arg}' of Node '{node}' was used before it "
                                       f"has been defined! Please check that Nodes in the graph "
                                       f"are topologically ordered\n{self}")
            if node.name in seen_names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen_names.add(node.name)
            seen.add(node)
        if self.owning_module is not None:
            for node in self.nodes:
                if node.op in ("get_attr", "call_module"):
                    self._check_target(node)

    def _check_target(self, node):
        m_itr = self.owning_module
        path = []
        for atom in node.target.split("."):
            if not hasattr(m_itr, atom):
                raise RuntimeError(f"Node {node} target {node.target} references nonexistent "
                                   f"attribute {atom} of {'.'.join(path) or 'root'}")
            m_itr = getattr(m_itr, atom)
            path.append(atom)

    # -- printing and code ------------------------------------------------------------------

    def __str__(self):
        lines = [n.format_node([]) for n in self.nodes]
        text = "graph():"
        for line in lines:
            if line:
                text += "\n    " + line
        return text

    def print_tabular(self):
        """Print the nodes as a table (opcode, name, target, args, kwargs), as torch does
        with the `tabulate` package, which it needs (an optional dependency here too)."""
        try:
            from tabulate import tabulate
        except ImportError:
            print("`print_tabular` relies on the library `tabulate`, which could not be found "
                  "on this machine. Run `pip install tabulate` to install the library.")
            raise
        rows = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(tabulate(rows, headers=["opcode", "name", "target", "args", "kwargs"]))

    def python_code(self, root_module, *, verbose=False, include_stride=False,
                    include_device=False, colored=False):
        """The Python source of the graph as a `forward` method (PythonCode: `src` and the
        `globals` it needs), `root_module` naming the module (usually "self")."""
        return self._codegen.generate(self, root_module)

    def set_codegen(self, codegen):
        self._codegen = codegen

    def on_generate_code(self, make_transformer):
        raise NotImplementedError("Graph.on_generate_code is not available in ember")


class _InsertPoint:
    def __init__(self, graph, insert):
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, insert

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        self.graph._insert = self.orig_insert

