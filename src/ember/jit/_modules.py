"""What torch.jit's trace and load return: ScriptModule (and its traced and loaded kinds) and
ScriptFunction, which run a recorded Graph (`_graph`) and show it as `.code` and `.graph`."""
from ..nn import Module

__all__ = ["RecursiveScriptModule", "ScriptFunction", "ScriptModule", "TopLevelTracedModule",
           "TracedModule", "build_traced"]

# What script and trace leave on a module or function that stays itself (see `_MarkedType`).
MARK = "_ember_jit"


class _MarkedType(type):
    """isinstance(x, ScriptModule / ScriptFunction) also holds for what `script` marked as of
    that kind (not for their subclasses: a marked module is no traced one)."""

    def __instancecheck__(cls, obj):
        return type.__instancecheck__(cls, obj) or \
            "_kind" in vars(cls) and getattr(obj, MARK, None) == cls._kind


class IRGraph:
    """`.graph`: the recorded ops as an IR listing (its str; not TorchScript's exact text)."""

    def __init__(self, text):
        self._text = text

    def __str__(self):
        return self._text

    __repr__ = __str__


class ScriptModule(Module, metaclass=_MarkedType):
    """torch's compiled module type: what `trace` and `load` return are ScriptModules, and so
    is a module that `script` returned (itself, marked). Subclassing it (torch's older API, with
    `script_method`) gives a plain module."""
    _kind = "module"


class RecursiveScriptModule(ScriptModule):
    """A module whose forward is a recorded Graph (or None: never called while tracing). It
    holds the parameters and buffers of the module it was traced from (the same tensors) and
    its submodules as ScriptModules. Prints as `RecursiveScriptModule(original_name=Linear)`,
    as torch's loaded modules do."""

    def __init__(self, original_name, graph=None):
        super().__init__()
        self.original_name = original_name
        self._ember_graph = graph
        self._ember_methods = {}     # the other methods trace_module recorded, by name

    def __getattr__(self, name):
        methods = self.__dict__.get("_ember_methods")
        if methods and name in methods:
            graph = methods[name]
            return lambda *args, **kwargs: graph.run(self, args, kwargs)
        return super().__getattr__(name)

    def forward(self, *args, **kwargs):
        return self.run_recorded(args, kwargs)

    def run_recorded(self, args, kwargs):
        """Replay the recorded forward on `args` and `kwargs` (how a caller's record runs this
        submodule)."""
        graph = self._ember_graph
        if graph is None:           # a submodule the example never called
            raise RuntimeError("Trace submodules cannot be called.")
        return graph.run(self, args, kwargs)

    @property
    def code(self):
        """The recorded forward as readable Python in the shape of torch's `.code` (one line per
        recorded op; not TorchScript's exact text)."""
        if self._ember_graph is None:
            raise AttributeError("'RecursiveScriptModule' object has no attribute 'code'")
        return self._ember_graph.code_text()

    @property
    def graph(self):
        """The recorded forward as an IR listing in the shape of torch's `.graph`."""
        if self._ember_graph is None:
            raise AttributeError("'RecursiveScriptModule' object has no attribute 'graph'")
        return IRGraph(self._ember_graph.graph_text(f"__torch__.{self.original_name}"))

    @property
    def inlined_graph(self):
        return self.graph

    def save(self, f, _extra_files=None):
        """`ember.jit.save(self, f)` (without its deprecation warning, as torch's)."""
        from ._archive import write
        write(self, f, _extra_files)

    def extra_repr(self):
        return f"original_name={self.original_name}"

    def _get_name(self):
        return "RecursiveScriptModule"


class TracedModule(RecursiveScriptModule):
    """A submodule of a traced module: prints under its original class name and, as torch's,
    cannot be called itself (its parent's record runs it)."""

    def forward(self, *args, **kwargs):
        raise RuntimeError("Trace submodules cannot be called.")

    def _get_name(self):
        return self.original_name


class TopLevelTracedModule(TracedModule):
    """What `trace` returns for a module."""

    forward = RecursiveScriptModule.forward


def build_traced(original, graphs, root_graph, memo=None, top=True):
    """The traced ScriptModule of `original`: its graph, its own parameters, buffers and
    training flag, and its submodules built the same way (shared ones once; scripted ones kept
    as they are)."""
    memo = {} if memo is None else memo
    name = getattr(original, "original_name", None) if isinstance(original, ScriptModule) \
        else None
    module = (TopLevelTracedModule if top else TracedModule)(
        name or type(original).__name__, root_graph if top else graphs.get(id(original)))
    memo[id(original)] = module
    module._parameters.update(original._parameters)
    module._buffers.update(original._buffers)
    module._non_persistent_buffers_set.update(original._non_persistent_buffers_set)
    for name, child in original._modules.items():
        if child is not None and id(child) not in memo:
            if getattr(child, MARK, None) == "module":
                memo[id(child)] = child         # scripted: kept as it is (it runs eagerly)
            else:
                build_traced(child, graphs, None, memo, top=False)
        module._modules[name] = None if child is None else memo[id(child)]
    module.training = original.training
    return module


class ScriptFunction(metaclass=_MarkedType):
    """torch's compiled function: what `trace` returns for a function (it runs the recorded
    graph); a function that `script` returned (itself, marked) counts as one."""
    _kind = "function"

    def __init__(self, graph, name, qualified_name=None):
        self._ember_graph = graph
        self.name = name
        self.qualified_name = qualified_name or name

    def __call__(self, *args, **kwargs):
        return self._ember_graph.run(None, args, kwargs)

    @property
    def code(self):
        """The recorded ops as readable Python (see RecursiveScriptModule.code)."""
        return self._ember_graph.code_text(self.name, method=False)

    @property
    def graph(self):
        return IRGraph(self._ember_graph.graph_text())

    inlined_graph = graph

    def save(self, f, _extra_files=None):
        from ._archive import write
        write(self, f, _extra_files)

    def __repr__(self):
        return f"<torch.jit.ScriptFunction object at {hex(id(self))}>"
