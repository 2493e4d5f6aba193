"""torch.fx.graph_module: a GraphModule is an nn.Module whose `forward` is generated from a
Graph. It holds what the graph's get_attr and call_module nodes name (copied from the root
module by reference), and recompiles its forward whenever its graph is set or `recompile()`
is called after an edit."""
import copy
import itertools
import linecache

from ..nn import Module
from .graph import Graph

__all__ = ["GraphModule"]

_keys = itertools.count()


def _exec_source(src, globals_):
    """Compile `src` (a `def forward`) under a unique file name that tracebacks can show."""
    key = f"<eval_with_key>.{next(_keys)}"
    linecache.cache[key] = (len(src), None, src.splitlines(True), key)
    namespace = dict(globals_)
    exec(compile(src, key, "exec"), namespace)
    return namespace["forward"]


def _copy_attr(from_module, to_module, target):
    """Put `from_module`'s attribute at `target` ("sub.lin") onto `to_module`, making empty
    Modules for the path's intermediate parts; a tensor that is not a Parameter becomes a
    buffer."""
    from .._tensor import Tensor
    from ..nn import Parameter
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:      # (a parent already copied whole)
            return
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, Tensor) and not isinstance(orig, Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(from_obj, to_module, target):
    from .._tensor import Tensor
    from ..nn import Parameter
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        to_module = t
    if isinstance(from_obj, Tensor) and not isinstance(from_obj, Parameter):
        to_module.register_buffer(field, from_obj)
    else:
        setattr(to_module, field, from_obj)


class GraphModule(Module):
    """A Module running a Graph (see the module's docstring).

        gm = torch.fx.GraphModule(root, graph)  # root: the Module (or dict) holding the
        gm(x)                                   # attributes the graph's nodes name
    """

    def __new__(cls, *args, **kwargs):
        # each instance gets its own class, so that its forward and name are its own
        for t in cls.__mro__:
            if t.__qualname__.split(".")[-1] != "GraphModuleImpl":
                cls = t
                break

        class GraphModuleImpl(cls):
            pass
        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name="GraphModule"):
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(f"Node {node} referenced target {node.target} but "
                                           f"that target was not provided in ``root``!")
                    _assign_attr(root[node.target], self, node.target)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph
        self.meta = {}

    @property
    def graph(self):
        """The Graph; setting it recompiles `forward`."""
        return self._graph

    @graph.setter
    def graph(self, g):
        assert isinstance(g, Graph), f"Expected a Graph instance, but got {type(g)}"
        self._graph = g
        g.owning_module = self
        self.recompile()

    @property
    def code(self):
        """The Python source of `forward`, as generated from the graph."""
        if not hasattr(self, "_code"):
            raise RuntimeError("Code has not been generated! Please report a bug to PyTorch")
        return self._code

    def recompile(self):
        """Regenerate `forward` from the graph (call it after editing the graph in place)."""
        python_code = self._graph.python_code(root_module="self")
        self._code = python_code.src
        self._lineno_map = python_code._lineno_map
        cls = type(self)
        cls.forward = _exec_source(self._code, python_code.globals)
        return python_code

    # -- submodules -------------------------------------------------------------------------

    def add_submodule(self, target, m):
        """Install `m` at `target` ("foo.bar"), making empty Modules on the way; False when a
        part of the path is something else than a Module."""
        *prefix, field = target.split(".")
        mod = self
        for item in prefix:
            submod = getattr(mod, item, None)
            if submod is None:
                submod = Module()
                setattr(mod, item, submod)
            if not isinstance(submod, Module):
                return False
            mod = submod
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target):
        """Remove the submodule at `target`; False when there is none."""
        atoms = target.split(".")
        path, target_submod = atoms[:-1], atoms[-1]
        mod = self
        for item in path:
            if not hasattr(mod, item):
                return False
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                return False
        if not hasattr(mod, target_submod):
            return False
        if not isinstance(getattr(mod, target_submod), Module):
            return False
        delattr(mod, target_submod)
        return True

    def delete_all_unused_submodules(self):
        """Remove the submodules no call_module or get_attr node uses."""
        used = []
        for node in self.graph.nodes:
            if node.op in ("call_module", "get_attr"):
                parts = node.target.split(".")
                used += [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
                if node.op == "call_module":
                    submod = self.get_submodule(node.target)
                    used += [f"{node.target}.{name}" for name, _ in submod.named_modules()
                             if name]
        to_delete = [name for name, _ in self.named_modules() if name and name not in used]
        for name in to_delete:
            self.delete_submodule(name)

    # -- printing and copying ---------------------------------------------------------------

    def print_readable(self, print_output=True, include_stride=False, include_device=False,
                       colored=False):
        """The generated forward as a class, as torch prints it (and prints it, unless
        `print_output` is False)."""
        lines = [line.rstrip() for line in self._code.strip("\n").rstrip().split("\n")]
        renamed = sum(1 for n in self.graph.nodes
                      if n.op == "placeholder" and n.name != n.target.replace("*", ""))
        if any(n.op not in ("placeholder", "output") for n in self.graph.nodes):
            at = next(i for i, line in enumerate(lines) if line.startswith("def ")) + 1
            note = "    # No stacktrace found for following nodes"
            lines[at + renamed:at + renamed] = ["", note] if renamed else [note]
        text = f"class {self._get_name()}(torch.nn.Module):\n" + \
            "\n".join("    " + line if line else "" for line in lines) + "\n"
        if print_output:
            print(text)
        return text

    def __str__(self):
        return "\n".join([super().__repr__(), self._code,
                          "# To see more debug info, please use "
                          "`graph_module.print_readable()`"])

    def __repr__(self):
        return super().__repr__()

    def __deepcopy__(self, memo):
        res = type(self).__new__(type(self))
        memo[id(self)] = res
        fake = Module()
        fake.__dict__ = copy.deepcopy(self.__dict__, memo)
        GraphModule.__init__(res, fake, fake.__dict__["_graph"])
        for name, child in fake.named_children():      # (those no node names, too)
            if not hasattr(res, name):
                setattr(res, name, child)
        for key in ("_forward_hooks", "_forward_pre_hooks", "meta"):
            if key in fake.__dict__:
                setattr(res, key, fake.__dict__[key])
        return res

    def __reduce__(self):
        from ._pickle import reduce_graph_module
        return reduce_graph_module(self)

    def __copy__(self):
        res = GraphModule(self, self.graph)
        res.meta = getattr(self, "meta", {})
        return res
