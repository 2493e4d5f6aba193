"""The tracer: a TorchFunctionMode that writes each public operator call of an example run
into a Graph (NOTE [ What a trace records ] in `_graph`), one Graph per module called.

NOTE [ How trace records ]
While the example runs, `Recorder` is the innermost TorchFunctionMode, so it sees each call of a
public operator once (ember's operators calling one another inside are not seen: a trace holds
`F.linear`, not the matmul inside it). Each call runs and becomes a node when it gives a tensor
or changes one in place; its tensor arguments are found by identity among the inputs, the
parameters and buffers (by name) and earlier results; other tensors are constants.
A global forward pre-hook and forward hook see each module call: a call of a submodule of the
module being recorded opens a `_Frame` of its own (its own Graph, kept for the submodule, the
first call's) and becomes one node of the caller's graph, as in torch's traced modules, whose
submodules each have a forward. A tensor a submodule reads from its caller without receiving it
as a positional argument (a keyword argument, a closure) becomes an extra input of its graph.
Sizes (`x.size(0)`, `x.shape`) come back as `TracedInt`s, ints that remember the node that
read them; an op given one records the reference, and `+ - * // %` on them are recorded too,
so `x.view(x.size(0), -1)` follows the batch size of new inputs as in torch. A size turned
into anything else (`int(n)`, `range(n)`, `n / 2`, a Python `if`) is a constant.
A submodule that `script` returned (itself, marked) is one node too, not recorded inside: its
Python code runs on each call, loops and branches included, as torch's scripted submodules do.
A custom `autograd.Function` is recorded as one node, its `apply` (replayed, it keeps its own
backward), not as the operators its forward calls: while recording, `_ApplyLayer` wraps
`Function.apply` (NOTE [ Patching the public operators ]) and pauses the recorder inside it.
"""
import functools
import inspect
import types

from .. import _patch_ops
from .._size import Size
from .._tensor import Tensor
from .._torch_function import DisableTorchFunction
from ..overrides import TorchFunctionMode
from ._modules import MARK
from ._graph import (SIZE_ARITHMETIC, Attr, Graph, Node, Target, Value, leaves, map_structure,
                     type_text)

_targets = None     # id(original public operator) -> (original, Target)


def _target(func):
    """The Target for a public operator as a mode receives it (a property as its __get__)."""
    global _targets
    if _targets is None:
        table = {}
        for owner, name, original in _patch_ops._build()[0]:
            if owner is Tensor:
                kind = "property" if isinstance(original, property) else "method"
                table[id(original)] = (original, Target(kind, None, name))
            elif isinstance(owner, types.ModuleType):
                table[id(original)] = (original, Target("function", owner.__name__, name))
        _targets = table
    owner = getattr(func, "__self__", None)
    key = _patch_ops.original(owner if isinstance(owner, property) else func)
    entry = _targets.get(id(key))
    if entry is not None and entry[0] is key:
        return entry[1]
    return Target("object", func, getattr(func, "__qualname__", None) or repr(func))


def _tensor_meta(result):
    """The IR listing's type of a result: `Float(4, 2, strides=[2, 1], ...)` for a tensor,
    `int`, `Tuple[Tensor, Tensor]` for others."""
    if not isinstance(result, Tensor):
        return type_text(result)
    with DisableTorchFunction():        # (the recorder must not see its own reads)
        return _meta_text(result)


def _meta_text(result):
    shape = ", ".join(str(s) for s in result.shape)
    return (f"{result.dtype._scalar_name}({shape}{', ' if shape else ''}strides="
            f"{list(result.stride())}, requires_grad={int(result.requires_grad)}, "
            f"device={result.device})")


def input_names(fn, count):
    """The names of `fn`'s first `count` positional parameters (`input_i` past them)."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params]
    return [names[i] if i < len(names) else f"input_{i}" for i in range(count)]


class _Frame:
    """The recording of one call: a module's forward (or the traced function) into `graph`."""

    def __init__(self, module, graph, parent):
        self.module, self.graph, self.parent = module, graph, parent
        self.known = {}         # id(tensor) -> its Value or Attr
        self.keep = []          # the tensors known, alive, so that their ids stay theirs
        self.captured = []      # tensors read from the caller's frame (extra inputs)
        self._paths = None
        if module is not None:
            for name, t in (*module.named_parameters(remove_duplicate=False),
                            *module.named_buffers(remove_duplicate=False)):
                self._know(t, Attr(name))

    def _know(self, tensor, ref):
        self.known[id(tensor)] = ref
        self.keep.append(tensor)

    def submodule_path(self, module):
        """The dotted path of `module` under this frame's module, or None."""
        if self.module is None:
            return None
        if self._paths is None:
            self._paths = {id(m): name for name, m in self.module.named_modules(
                remove_duplicate=False) if m is not self.module}
        return self._paths.get(id(module))

    def lookup(self, tensor):
        ref = self.known.get(id(tensor))
        if ref is None and self.parent is not None and self.parent.lookup(tensor) is not None:
            ref = Value("input", len(self.graph.input_names))
            self.graph.input_names.append(f"captured_{len(self.captured)}")
            self.graph.input_types.append("Tensor")
            self.captured.append(tensor)
            self._know(tensor, ref)
        return ref

    def recorded(self, value):
        """`value` (arguments, an output) with tensors and sizes replaced by references."""
        def leaf(v):
            if isinstance(v, Tensor):
                ref = self.lookup(v)
                if ref is None and v.requires_grad:
                    raise RuntimeError("Cannot insert a Tensor that requires grad as a "
                                       "constant. Consider making it a parameter or input, or "
                                       "detaching the gradient")
                return v if ref is None else ref
            if isinstance(v, TracedInt):
                return v.ref if v.frame is self else int(v)
            return v
        return map_structure(value, leaf)

    def add_input(self, name, value):
        index = len(self.graph.input_names)
        self.graph.input_names.append(name)
        self.graph.input_types.append(type_text(value))
        for path, leaf in leaves(value):
            if isinstance(leaf, Tensor):
                self._know(leaf, Value("input", index, path))

    def add_node(self, target, args, kwargs, result):
        node = Node(target, self.recorded(tuple(args)), self.recorded(kwargs),
                    _tensor_meta(result))
        index = len(self.graph.nodes)
        self.graph.nodes.append(node)
        for path, leaf in leaves(result):
            if isinstance(leaf, Tensor):
                self._know(leaf, Value("node", index, path))
        return index


class TracedInt(int):
    """A size read while tracing (NOTE [ How trace records ])."""

    def __new__(cls, value, frame, ref):
        self = int.__new__(cls, value)
        self.frame, self.ref = frame, ref
        return self

    def __repr__(self):
        return int.__repr__(self)

    def __reduce__(self):
        return (int, (int(self),))


def _arithmetic(name, reflected):
    fn = SIZE_ARITHMETIC[name]

    def method(self, *other):
        if other and not isinstance(other[0], int):
            return NotImplemented           # (a float: Python's own arithmetic, a constant)
        operands = (other[0], self) if reflected else (self, *other)
        result = fn(*(int(o) for o in operands))
        frame = self.frame
        if Recorder.active is None or Recorder.active.frame is not frame:
            return result
        index = frame.add_node(Target("function", "operator", name), operands, {}, result)
        return TracedInt(result, frame, Value("node", index))
    return method


for _name in SIZE_ARITHMETIC:
    setattr(TracedInt, f"__{_name}__", _arithmetic(_name, False))
    if _name != "neg":
        setattr(TracedInt, f"__r{_name}__", _arithmetic(_name, True))


def _is_effect(target, kwargs):
    name = target.name
    return "out" in kwargs or name == "__setitem__" or (
        target.kind == "method" and name.endswith("_") and not name.endswith("__"))


class _ApplyLayer(_patch_ops.Layer):
    """While a trace records, `Function.apply` records one node (see the module's NOTE)."""
    priority = 90
    users = 0           # recorders running

    def wants(self, owner, name, original):
        from ..autograd.function import Function
        return owner is Function

    def wrap(self, owner, name, inner):
        apply = inner.__func__

        @functools.wraps(apply)
        def recorded_apply(cls, *args, **kwargs):
            recorder = Recorder.active
            if recorder is None or recorder.paused:
                return apply(cls, *args, **kwargs)
            recorder.paused += 1
            try:
                result = apply(cls, *args, **kwargs)
            finally:
                recorder.paused -= 1
            recorder.frame.add_node(Target("apply", cls, "apply"), args, kwargs, result)
            return result
        return classmethod(recorded_apply)


_apply_layer = _ApplyLayer()


class Recorder(TorchFunctionMode):
    """Records the calls of an example run into `root`'s graph and its submodules' graphs
    (NOTE [ How trace records ])."""

    active = None       # the recorder running now (sizes' arithmetic records into it)

    def __init__(self, root):
        super().__init__()
        self.frame = root
        self.calls = []         # per module call running: (caller frame, its frame, path, args)
        self.graphs = {}        # id(submodule) -> its first recorded Graph
        self.paused = 0         # inside a custom Function's apply: record nothing

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        result = func(*args, **kwargs)
        if self.paused:
            return result
        target = _target(func)
        if target.kind == "method" and target.name == "size" or \
                target.kind == "property" and target.name == "shape":
            index = self.frame.add_node(target, args, kwargs, result)
            if isinstance(result, tuple):
                return tuple.__new__(Size, [TracedInt(s, self.frame, Value("node", index, (i,)))
                                            for i, s in enumerate(result)])
            return TracedInt(result, self.frame, Value("node", index))
        if _is_effect(target, kwargs) or any(isinstance(leaf, Tensor)
                                             for _, leaf in leaves(result)):
            self.frame.add_node(target, args, kwargs, result)
        return result

    # the global module hooks (see the NOTE)
    def _pre_hook(self, module, args):
        path = None if self.paused else self.frame.submodule_path(module)
        if path is None:
            self.calls.append(None)
            return
        if getattr(module, MARK, None) == "module":       # scripted: called as it is
            self.paused += 1
            self.calls.append((self.frame, None, path, args))
            return
        child = _Frame(module, Graph([]), self.frame)
        for name, value in zip(input_names(module.forward, len(args)), args):
            child.add_input(name, value)
        self.calls.append((self.frame, child, path, args))
        self.frame = child

    def _hook(self, module, args, kwargs, output):
        entry = self.calls.pop()
        if entry is None:
            return
        caller, child, path, args = entry
        if child is None:
            self.paused -= 1
            caller.add_node(Target("module", None, path), args, kwargs, output)
            return
        passed = {}
        for i, tensor in enumerate(child.captured):
            index = len(child.graph.input_names) - len(child.captured) + i
            key = next((k for k, v in kwargs.items() if v is tensor), None)
            if key is not None and key not in child.graph.input_names:
                child.graph.input_names[index] = key
            passed[child.graph.input_names[index]] = tensor
        child.graph.output = child.recorded(output)
        child.graph.output_type = type_text(output)
        self.graphs.setdefault(id(module), child.graph)
        self.frame = caller
        caller.add_node(Target("module", None, path), args, passed, output)

    def __enter__(self):
        from ..nn.modules.module import (register_module_forward_hook,
                                         register_module_forward_pre_hook)
        self._handles = [register_module_forward_pre_hook(self._pre_hook),
                         register_module_forward_hook(self._hook, with_kwargs=True)]
        self._previous, Recorder.active = Recorder.active, self
        _ApplyLayer.users += 1
        _patch_ops.activate(_apply_layer)
        return super().__enter__()

    def __exit__(self, *exc):
        super().__exit__(*exc)
        Recorder.active = self._previous
        _ApplyLayer.users -= 1
        if not _ApplyLayer.users:
            _patch_ops.deactivate(_apply_layer)
        for handle in self._handles:
            handle.remove()
