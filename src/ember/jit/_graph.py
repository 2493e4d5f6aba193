"""The record of one traced forward: the operators it called, in order, replayed for new inputs
(`Graph.run`) and shown as readable code (`code_text`) or an IR listing (`graph_text`).

NOTE [ What a trace records ]
A Graph holds its inputs (names, in call order), its nodes and its output. A node is one call of
a public operator (`Target`: an `ember` function by module and name, a Tensor method or
property by name, a submodule's forward by its dotted path, an `operator` function on traced
sizes, a custom autograd.Function's `apply`, or, failing those, the callable itself) with its
arguments, in which
- a `Value` stands for an input or an earlier node's result (`path` indexes into a tuple, list
  or dict: an input's parts, `chunk`'s pieces, a Size's items),
- an `Attr` for a parameter, buffer or submodule of the module the graph runs on (read when
  the graph runs, so parameters stay live: training either module trains both),
- anything else (a tensor made outside the trace, a number, a dtype) is a constant.
Python control flow is not recorded: a branch or loop ran once, on the example, and its
outcome is frozen in the nodes, as in torch's trace.
"""
import operator
import sys

from .._tensor import Tensor

__all__ = ["Attr", "Graph", "Node", "Target", "Value", "map_structure"]


class Value:
    """An input (`kind` "input") or a node's result (`kind` "node") of a graph, `index` in
    order, `path` the indices into a structured result."""

    __slots__ = ("kind", "index", "path")

    def __init__(self, kind, index, path=()):
        self.kind, self.index, self.path = kind, index, tuple(path)

    def __getstate__(self):
        return (self.kind, self.index, self.path)

    def __setstate__(self, state):
        self.kind, self.index, self.path = state


class Attr:
    """A parameter, buffer or submodule of the module a graph runs on, by dotted name."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __getstate__(self):
        return self.name

    def __setstate__(self, state):
        self.name = state


class Target:
    """What a node calls: `kind` is "function" (`where` a module's name), "method" or
    "property" (of Tensor), "module" (`name` a submodule's dotted path), "apply" (`where` a
    custom autograd.Function) or "object" (`where` the callable itself)."""

    __slots__ = ("kind", "where", "name")

    def __init__(self, kind, where, name):
        self.kind, self.where, self.name = kind, where, name

    def __getstate__(self):
        return (self.kind, self.where, self.name)

    def __setstate__(self, state):
        self.kind, self.where, self.name = state

    def call(self, module, args, kwargs):
        if self.kind == "function":
            return getattr(sys.modules[self.where], self.name)(*args, **kwargs)
        if self.kind == "method":
            return getattr(Tensor, self.name)(*args, **kwargs)
        if self.kind == "property":
            return getattr(args[0], self.name)
        if self.kind == "apply":
            return self.where.apply(*args, **kwargs)
        if self.kind == "module":
            child = _attribute(module, self.name)
            run = getattr(child, "run_recorded", None)      # a ScriptModule's record
            return run(args, kwargs) if run is not None else child(*args, **kwargs)
        return self.where(*args, **kwargs)

    def text(self):
        """How the code listing names it: `torch.nn.functional.linear`, `torch.mul`."""
        if self.kind == "function":
            where = "torch" + self.where[len("ember"):] if self.where.startswith("ember") \
                else self.where
            return f"{where}.{self.name}"
        if self.kind == "method":
            name = self.op_name()
            return f"torch.{name}" if name else None
        if self.kind == "apply":
            return f"{self.where.__qualname__}.apply"
        return getattr(self.where, "__qualname__", repr(self.where))

    def op_name(self):
        """torch's name for a Tensor method: itself, or for an operator dunder the function it
        is (`__neg__`: `neg`, `__truediv__`: `div`); None for a dunder with none."""
        name = self.name
        if not name.startswith("__"):
            return name
        plain = name.strip("_")
        plain = _DUNDER_FUNCTIONS.get(plain, plain)
        return plain if plain in vars(Tensor) and plain not in ("setitem", "getitem") else None

    def ir_name(self):
        """Its name in the IR listing: `aten::mul`, `prim::CallMethod[name="forward"]`."""
        if self.kind == "module":
            return 'prim::CallMethod[name="forward"]'
        if self.kind == "property":
            return f'prim::GetAttr[name="{self.name}"]'
        if self.kind == "apply":
            return f"prim::PythonOp[name={self.where.__qualname__}]"
        if self.kind == "method":
            return f"aten::{self.op_name() or self.name}"
        return f"aten::{self.name}" if self.kind != "object" else f"python::{self.text()}"


# operator dunders whose torch function has another name
_DUNDER_FUNCTIONS = {"truediv": "div", "floordiv": "floor_divide", "mod": "remainder",
                     "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
                     "invert": "bitwise_not", "lshift": "bitwise_left_shift",
                     "rshift": "bitwise_right_shift"}


class Node:
    """One recorded call: `target(*args, **kwargs)` (see NOTE [ What a trace records ]);
    `meta` describes its tensor result for the IR listing."""

    __slots__ = ("target", "args", "kwargs", "meta")

    def __init__(self, target, args, kwargs, meta=None):
        self.target, self.args, self.kwargs, self.meta = target, args, kwargs, meta

    def __getstate__(self):
        return (self.target, self.args, self.kwargs, self.meta)

    def __setstate__(self, state):
        self.target, self.args, self.kwargs, self.meta = state


def map_structure(value, fn):
    """`value` with `fn` applied to each leaf inside its lists, tuples, dicts and slices."""
    if isinstance(value, (list, tuple)):
        items = [map_structure(v, fn) for v in value]
        if type(value) in (list, tuple):
            return type(value)(items)
        if hasattr(value, "_fields"):                   # a named tuple
            return type(value)(*items)
        return tuple.__new__(type(value), items) if isinstance(value, tuple) \
            else type(value)(items)
    if isinstance(value, dict):
        return {k: map_structure(v, fn) for k, v in value.items()}
    if isinstance(value, slice):
        return slice(*(map_structure(v, fn) for v in (value.start, value.stop, value.step)))
    return fn(value)


def leaves(value):
    """The leaves of `value` with their paths (indices into lists and tuples, keys of dicts)."""
    if isinstance(value, (list, tuple, dict)):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for i, v in items:
            for path, leaf in leaves(v):
                yield (i, *path), leaf
    else:
        yield (), value


def type_text(value):
    """TorchScript's name for the type of an example value: `Tensor`, `Tuple[int, Tensor]`."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, (tuple, list)):
        if isinstance(value, list):
            return f"List[{type_text(value[0]) if value else 'Tensor'}]"
        return f"Tuple[{', '.join(type_text(v) for v in value)}]"
    if isinstance(value, dict):
        inner = type_text(next(iter(value.values()))) if value else "Tensor"
        return f"Dict[str, {inner}]"
    return type(value).__name__


def _attribute(module, dotted):
    for part in dotted.split("."):
        module = getattr(module, part)
    return module


class Graph:
    """The recorded forward of one module or function (NOTE [ What a trace records ])."""

    def __init__(self, input_names):
        self.input_names = list(input_names)
        self.input_types = ["Tensor"] * len(self.input_names)     # for `.code`
        self.nodes = []
        self.output = None
        self.output_type = "Tensor"

    # -- running -------------------------------------------------------------------------------

    def bind(self, args, kwargs, name="forward"):
        """The inputs from a call's arguments, in order (torch's errors for a wrong call)."""
        names = self.input_names
        if len(args) > len(names):
            raise RuntimeError(f"{name}() expected at most {len(names)} argument(s) but "
                               f"received {len(args)} argument(s).")
        inputs = list(args) + [None] * (len(names) - len(args))
        given = [True] * len(args) + [False] * (len(names) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise RuntimeError(f"{name}() got an unexpected keyword argument '{key}'.")
            inputs[names.index(key)], given[names.index(key)] = value, True
        for n, ok in zip(names, given):
            if not ok:
                raise RuntimeError(f"{name}() is missing value for argument '{n}'.")
        return inputs

    def run(self, module, args, kwargs):
        """Replay the nodes on new inputs; `module` holds the attributes (None for a
        function)."""
        inputs, results = self.bind(args, kwargs), []

        def resolve(leaf):
            if isinstance(leaf, Value):
                value = inputs[leaf.index] if leaf.kind == "input" else results[leaf.index]
                for i in leaf.path:
                    value = value[i]
                return value
            if isinstance(leaf, Attr):
                return _attribute(module, leaf.name)
            return leaf
        for node in self.nodes:
            args = map_structure(node.args, resolve)
            kwargs = map_structure(node.kwargs, resolve)
            results.append(node.target.call(module, args, kwargs))
        return map_structure(self.output, resolve)

    def signature(self):
        """The ops in order, to compare two traces of one function (check_trace)."""
        return [(n.target.kind, n.target.name) for n in self.nodes]

    def eliminate_dead_code(self):
        """Drop nodes whose results nothing uses, unless they change a tensor in place (a name
        ending in `_`, `__setitem__`, an `out=`) or call a submodule or unknown callable."""
        used = set()

        def note(leaf):
            if isinstance(leaf, Value) and leaf.kind == "node":
                used.add(leaf.index)
            return leaf
        map_structure(self.output, note)
        keep = []
        for i in range(len(self.nodes) - 1, -1, -1):
            node = self.nodes[i]
            t = node.target
            effect = t.kind in ("module", "object", "apply") or "out" in node.kwargs or \
                t.name.endswith("_") and not t.name.endswith("__") or t.name == "__setitem__"
            if i in used or effect:
                keep.append(i)
                map_structure((node.args, node.kwargs), note)
        keep.reverse()
        renumber = {old: new for new, old in enumerate(keep)}

        def move(leaf):
            if isinstance(leaf, Value) and leaf.kind == "node":
                return Value("node", renumber[leaf.index], leaf.path)
            return leaf
        self.nodes = [Node(n.target, map_structure(n.args, move), map_structure(n.kwargs, move),
                           n.meta) for n in (self.nodes[i] for i in keep)]
        self.output = map_structure(self.output, move)

    # -- showing -------------------------------------------------------------------------------

    def constants(self):
        """The tensor constants, in order of use (`CONSTANTS.c0`, ...)."""
        found = []

        def note(leaf):
            if isinstance(leaf, Tensor) and not any(leaf is c for c in found):
                found.append(leaf)
            return leaf
        for node in self.nodes:
            map_structure((node.args, node.kwargs), note)
        map_structure(self.output, note)
        return found

    def _names(self, leaf_text):
        def text(value):
            if isinstance(value, (list, tuple)):
                inner = ", ".join(text(v) for v in value)
                return f"[{inner}]" if isinstance(value, list) else \
                    f"({inner}{',' if len(value) == 1 else ''})"
            if isinstance(value, dict):
                return "{" + ", ".join(f"{k!r}: {text(v)}" for k, v in value.items()) + "}"
            if isinstance(value, slice):
                return f"slice({text(value.start)}, {text(value.stop)}, {text(value.step)})"
            return leaf_text(value)
        return text

    def code_text(self, name="forward", method=True):
        """Readable Python for the recorded forward, in the shape of torch's `.code` (not
        TorchScript's exact text: one line per recorded call)."""
        constants = self.constants()
        attrs = {}          # dotted name -> the local it is read into

        def attribute(dotted):
            local = dotted.replace(".", "_")
            attrs.setdefault(dotted, local if local.isidentifier() else f"m_{local}")
            return attrs[dotted]

        def leaf(value):
            if isinstance(value, Value):
                base = self.input_names[value.index] if value.kind == "input" \
                    else f"_{value.index}"
                return base + "".join(f"[{i!r}]" for i in value.path)
            if isinstance(value, Attr):
                return attribute(value.name)
            if isinstance(value, Tensor):
                return f"CONSTANTS.c{next(i for i, c in enumerate(constants) if c is value)}"
            return repr(value)
        text = self._names(leaf)

        def index(key):
            if isinstance(key, tuple):
                return ", ".join(index(k) for k in key)
            if isinstance(key, slice):
                parts = [("" if v is None else text(v)) for v in (key.start, key.stop, key.step)]
                return ":".join(parts[:2] if key.step is None else parts)
            return "..." if key is Ellipsis else text(key)
        body = []
        for i, node in enumerate(self.nodes):
            t, args = node.target, [text(a) for a in node.args]
            args += [f"{k}={text(v)}" for k, v in node.kwargs.items()]
            if t.kind == "module":
                call = f"({attribute(t.name)}).forward({', '.join(args)}, )"
            elif t.kind == "property":
                call = f"({args[0]}).{t.name}"
            elif t.name in ("__getitem__", "__setitem__") and t.kind == "method":
                where = f"{args[0]}[{index(node.args[1])}]"
                if t.name == "__setitem__":
                    body.append(f"  {where} = {args[2]}")
                    continue
                call = where
            elif t.kind == "method" and t.op_name() is None:
                call = f"({args[0]}).{t.name}({', '.join(args[1:])})"
            else:
                call = f"{t.text()}({', '.join(args)})"
            body.append(f"  _{i} = {call}")
        body.append(f"  return {text(self.output)}")
        head = [f"  {local} = self.{dotted}" if all(p.isidentifier() for p in dotted.split("."))
                else f"  {local} = self.get_submodule({dotted!r})" for dotted, local in
                attrs.items()] if method else []
        params = (["self"] if method else []) + [
            f"{n}: {t}" for n, t in zip(self.input_names, self.input_types)]
        sep = ",\n    " if method or len(params) > 1 else ", "
        signature = f"def {name}({sep.join(params)}) -> {self.output_type}:\n"
        return signature + "\n".join(head + body) + "\n"

    def graph_text(self, self_type=None):
        """An IR listing in the shape of torch's `.graph` (not TorchScript's exact text)."""
        def leaf(value):
            if isinstance(value, Value):
                base = f"%{self.input_names[value.index]}" if value.kind == "input" \
                    else f"%{value.index}"
                return base + "".join(f".{i}" for i in value.path)
            if isinstance(value, Attr):
                return f"%{value.name}"
            if isinstance(value, Tensor):
                return f"prim::Constant[value=<Tensor {tuple(value.shape)}>]"
            return repr(value)
        text = self._names(leaf)
        params = ([f"%self : {self_type}"] if self_type else []) + \
            [f"%{n} : Tensor" for n in self.input_names]
        lines = ["graph(" + ",\n      ".join(params) + "):"]
        for i, node in enumerate(self.nodes):
            args = [text(a) for a in node.args] + \
                [f"{k}={text(v)}" for k, v in node.kwargs.items()]
            if node.target.kind == "module":
                args.insert(0, f"%{node.target.name}")
            lines.append(f"  %{i} : {node.meta or 'Tensor'} = {node.target.ir_name()}"
                         f"({', '.join(args)})")
        lines.append(f"  return ({text(self.output)})")
        return "\n".join(lines) + "\n"


# the `operator` functions a traced size may go through (see _recorder._TracedInt)
SIZE_ARITHMETIC = {name: getattr(operator, name) for name in (
    "add", "sub", "mul", "floordiv", "mod", "neg")}
