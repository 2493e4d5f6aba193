"""`SummaryWriter.add_graph`'s GraphDef: a model's `ember.jit.trace` record, inlined into
TensorBoard's nodes in the shape torch's writer gives them.

NOTE [ A trace as a TensorBoard graph ]
torch traces the model, inlines its submodules' graphs and writes one NodeDef per node of the
inlined graph; ember does the same from its trace record (NOTE [ What a trace records ]):
- an input is `input/<name>` and an output `output/output.<i>`, op "IO Node", fed by the
  node giving it (a tuple or list output through one prim::TupleConstruct / ListConstruct);
- every other node is named by its module scope and a number: `Net/Conv2d[conv1]/7` (the
  traced module's class, then each submodule's class with its attribute name), its op the
  recorded operator's `aten::` name (`aten::linear`, `aten::view`, `aten::size`);
- a parameter or buffer is a prim::GetAttr node `<scope>/<name>/<name>` (`.1`, `.2`, ...
  when that name is taken), an argument that is no tensor a prim::Constant (`{ value : 2}`)
  and a list or tuple of arguments a prim::ListConstruct of them, so that each edge of the
  graph is an input of its node, in argument order (keyword arguments last);
- a node's result that is a tensor gives it `_output_shapes` (torch writes no dtype); the
  items of a tuple result (`chunk`) are read through one prim::ListUnpack node each.
Submodule calls are replaced by their recorded graphs (a scripted submodule, which `trace`
keeps as it is, stays one prim::CallMethod node). The shapes come from replaying the record on
copies of the inputs, without autograd, as the inlining walks it.
Differences from torch's graph: ember records the public operator called (`aten::conv2d`
where torch writes `aten::_convolution` with its 13 arguments), names nodes by number where
torch uses its values' debug names (`Net/input.1`), and writes no dangling edge from a
GetAttr node to its module (torch's `.../weight/conv1`).
"""
from ...jit._graph import Attr, Value

__all__ = ["class_name", "graph_def", "run_metadata"]


class _Inliner:
    """Walks a traced module's record, writing NodeDefs (see the NOTE)."""

    def __init__(self):
        self.nodes = []
        self.count = 0
        self.taken = set()

    def fresh(self, scope):
        self.count += 1
        return f"{scope}/{self.count}"

    def unique(self, base):
        name, i = base, 0
        while name in self.taken:
            i += 1
            name = f"{base}.{i}"
        self.taken.add(name)
        return name

    def add(self, name, op, inputs=(), attr="{}", value=None):
        from tensorboardX.proto.attr_value_pb2 import AttrValue
        from tensorboardX.proto.node_def_pb2 import NodeDef
        attrs = {"attr": AttrValue(s=attr.encode("utf-8"))}
        shape = _shape(value)
        if shape is not None:
            attrs["_output_shapes"] = AttrValue(list=AttrValue.ListValue(shape=[shape]))
        self.nodes.append(NodeDef(name=name, op=op, input=list(inputs), attr=attrs))
        return name

    # -- arguments ---------------------------------------------------------------------------

    def argument(self, scope, sym, value, frame):
        """The node names (one per argument leaf or list) that feed a node: `sym` the recorded
        argument, `value` its value in the replay."""
        if isinstance(sym, (Value, Attr)):
            names = frame.resolve(sym)[0]
            if isinstance(names, str):
                return names
            return self.add(self.fresh(scope), "prim::TupleConstruct", list(_flat([names])))
        if isinstance(sym, (list, tuple)):
            inputs = [self.argument(scope, s, v, frame) for s, v in zip(sym, value)]
            return self.add(self.fresh(scope), "prim::ListConstruct", inputs)
        if isinstance(sym, dict):
            inputs = [self.argument(scope, s, value[k], frame) for k, s in sym.items()]
            return self.add(self.fresh(scope), "prim::DictConstruct", inputs)
        return self.add(self.fresh(scope), "prim::Constant", attr=_constant_text(value),
                        value=value)

    # -- graphs ------------------------------------------------------------------------------

    def inline(self, module, graph, scope, inputs):
        """Write the nodes of `graph` (the record of `module`'s forward) under `scope`;
        `inputs` are (name structure, value) pairs. Returns the output's pair."""
        frame = _Frame(self, module, scope, inputs)
        for node in graph.nodes:
            frame.results.append(self.node(frame, node))
        return frame.resolve_structure(graph.output)

    def node(self, frame, node):
        from ...jit._graph import _attribute, map_structure
        args = map_structure(node.args, frame.value)
        kwargs = map_structure(node.kwargs, frame.value)
        target = node.target
        if target.kind == "module":
            child = _attribute(frame.module, target.name)
            scope = frame.scope_of(target.name)
            graph = getattr(child, "_ember_graph", None)
            if graph is not None:
                syms = [self.argument(frame.scope, s, v, frame)
                        for s, v in zip(node.args, args)]
                ksyms = {k: self.argument(frame.scope, s, kwargs[k], frame)
                         for k, s in node.kwargs.items()}
                names = graph.bind(syms, ksyms)
                values = graph.bind(args, kwargs)
                return self.inline(child, graph, scope, list(zip(names, values)))
            value = child(*args, **kwargs)          # a scripted submodule: one node
            op = "prim::CallMethod"
        else:
            value = target.call(frame.module, args, kwargs)
            scope, op = frame.scope, _op_name(target)
        inputs = [self.argument(frame.scope, s, v, frame) for s, v in zip(node.args, args)]
        inputs += [self.argument(frame.scope, s, kwargs[k], frame)
                   for k, s in node.kwargs.items()]
        return self.add(self.fresh(scope), op, inputs, value=value), value


class _Frame:
    """One inlined call of a recorded graph: its scope, inputs and results so far, each a
    (name structure, value) pair."""

    def __init__(self, inliner, module, scope, inputs):
        self.inliner, self.module, self.scope = inliner, module, scope
        self.inputs, self.results = inputs, []
        self.attrs = {}         # dotted name of a parameter or buffer -> (node name, value)
        self.unpacked = {}      # (node name, path) -> the node reading that item

    def scope_of(self, dotted):
        """The scope of the submodule at a dotted path: `Net/Sequential[seq]/Linear[0]`."""
        module, scope = self.module, self.scope
        for part in dotted.split(".") if dotted else ():
            module = getattr(module, part)
            scope += f"/{class_name(module)}[{part}]"
        return scope

    def value(self, sym):
        if isinstance(sym, (Value, Attr)):
            return self.resolve(sym)[1]
        return sym

    def resolve(self, sym):
        """(node name, value) of a Value or Attr (an item of a node's tuple result through a
        prim::ListUnpack node, written once)."""
        from ...jit._graph import _attribute
        if isinstance(sym, Attr):
            if sym.name not in self.attrs:
                owner, _, leaf = sym.name.rpartition(".")
                scope = self.scope_of(owner)
                value = _attribute(self.module, sym.name)
                name = self.inliner.add(f"{scope}/{leaf}/{self.inliner.unique(leaf)}",
                                        "prim::GetAttr", attr=f"{{ name :  {leaf} }}")
                self.attrs[sym.name] = (name, value)
            return self.attrs[sym.name]
        names, value = (self.inputs if sym.kind == "input" else self.results)[sym.index]
        for depth, i in enumerate(sym.path):
            value = value[i]
            if isinstance(names, (list, tuple, dict)):
                names = names[i]
                continue
            for j in sym.path[depth + 1:]:
                value = value[j]
            key = (names, sym.path[depth:])
            if key not in self.unpacked:
                self.unpacked[key] = self.inliner.add(self.inliner.fresh(self.scope),
                                                      "prim::ListUnpack", [names], value=value)
            names = self.unpacked[key]
            break
        return names, value

    def resolve_structure(self, sym):
        """The (name structure, value) of a graph's output."""
        if isinstance(sym, (Value, Attr)):
            return self.resolve(sym)
        if isinstance(sym, (list, tuple)):
            pairs = [self.resolve_structure(s) for s in sym]
            return type(sym)(p[0] for p in pairs), type(sym)(p[1] for p in pairs)
        if isinstance(sym, dict):
            pairs = {k: self.resolve_structure(s) for k, s in sym.items()}
            return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
        return self.inliner.add(self.inliner.fresh(self.scope), "prim::Constant",
                                attr=_constant_text(sym), value=sym), sym


def class_name(module):
    """The class name that scopes a module's nodes (a traced module's original class)."""
    return getattr(module, "original_name", None) or type(module).__name__


def _op_name(target):
    """The node's op: torch's `aten::` name of the operator (`aten::size` for `.shape`)."""
    if target.kind == "property":
        return "aten::size" if target.name == "shape" else f"aten::{target.name}"
    if target.kind == "apply":
        return "prim::PythonOp"
    return target.ir_name()


def _constant_text(value):
    """A prim::Constant's attr, as torch writes it: `{ value : 2}`, `{}` for None."""
    if value is None:
        return "{}"
    if isinstance(value, bool):
        value = int(value)
    return f"{{ value : {value!r}}}" if isinstance(value, str) else f"{{ value : {value}}}"


def _shape(value):
    """The TensorShapeProto of a tensor (None for anything else)."""
    from ... import Tensor
    if not isinstance(value, Tensor):
        return None
    from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in value.shape])


def _copy(value):
    from ... import Tensor
    from ...jit._graph import map_structure
    return map_structure(value, lambda v: v.detach().clone() if isinstance(v, Tensor) else v)


def graph_def(traced, root_name, args, kwargs=None):
    """The GraphDef of `traced` (what `jit.trace` returned for a module of class `root_name`)
    run on `args` (see the NOTE)."""
    from ... import no_grad
    from tensorboardX.proto.graph_pb2 import GraphDef
    from tensorboardX.proto.versions_pb2 import VersionDef
    graph = traced._ember_graph
    inliner = _Inliner()
    args, kwargs = _copy(tuple(args)), _copy(dict(kwargs or {}))
    values = graph.bind(args, kwargs)
    inputs = []
    for name, value in zip(graph.input_names, values):
        inputs.append((inliner.add(f"input/{name}", "IO Node", attr="", value=value), value))
    with no_grad():
        names, output = inliner.inline(traced, graph, root_name, inputs)
    if isinstance(names, (list, tuple, dict)):
        items = names.values() if isinstance(names, dict) else names
        op = "prim::DictConstruct" if isinstance(names, dict) else \
            "prim::ListConstruct" if isinstance(names, list) else "prim::TupleConstruct"
        names = inliner.add(inliner.fresh(root_name), op, list(_flat(items)))
    inliner.add("output/output.1", "IO Node", [names], attr="", value=output)
    return GraphDef(node=inliner.nodes, versions=VersionDef(producer=22))


def _flat(names):
    for n in names:
        if isinstance(n, (list, tuple)):
            yield from _flat(n)
        elif isinstance(n, dict):
            yield from _flat(n.values())
        else:
            yield n


def run_metadata():
    """torch's RunMetadata for the graph: step stats of one device, "/device:CPU:0" (the
    serialized protobuf, written by hand: tensorboardX has no RunMetadata class).
    RunMetadata.step_stats (field 1) holds StepStats.dev_stats (field 1) holds
    DeviceStepStats.device (field 1)."""
    device = b"/device:CPU:0"
    message = device
    for _ in range(3):
        message = bytes([0x0A, len(message)]) + message      # field 1, length-delimited
    return message
