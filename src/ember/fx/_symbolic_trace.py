"""torch.fx's symbolic tracer: `symbolic_trace(module_or_function)` runs the program once on
Proxies and records what it does as a Graph, wrapped in a GraphModule.

NOTE [ How tracing works ]
`Tracer.trace(root)` makes a placeholder node (and a Proxy of it) for each parameter of
`root.forward` and calls it with the proxies. Everything the program does then lands in the
graph by one of four routes:
- Python operators and attribute/method use on a Proxy: Proxy's own dunders (proxy.py) make
  `call_function operator.add`, `getattr` and `call_method` nodes;
- torch functions given a Proxy (`torch.relu(p)`, `F.relu(p)`, `torch.cat([p, t])`): the
  function dispatches to `Proxy.__torch_function__` (NOTE [ __torch_function__ ] in
  _torch_function.py; tensor-likes are dispatched while a trace runs, and on ops' argument-error
  paths otherwise), which records `call_function` (or `call_method` for Tensor methods);
- submodules: `Module.__call__` is patched for the trace, so that a call of a leaf module
  (`is_leaf_module`: ember's own layers) records a `call_module` node and any other module's
  forward is traced through; `Module.__getattr__` is patched too, so that reading a parameter
  records a `get_attr` node;
- functions named by `wrap("name")` and those of `autowrap_modules` (math) are swapped in
  their module's globals for the trace, so that a call given a Proxy records a
  `call_function` node instead of running.
The program's return value becomes the `output` node. Everything else runs as Python: a loop
over a constant unrolls, an `if` on a Proxy raises TraceError. All patches are undone when the
trace ends.
"""
import builtins
import functools
import inspect
import math

from .graph import Graph
from .graph_module import GraphModule
from .node import map_aggregate
from .proxy import Proxy, TracerBase

__all__ = ["Tracer", "symbolic_trace", "wrap", "PH"]

_wrapped_fns = {}       # (id(globals), name) -> globals: what `wrap` asked to patch


class _PH:
    def __repr__(self):
        return "PH"


PH = _PH()      # in concrete_args: "a placeholder here"


def wrap(fn_or_name):
    """Make the module-level function `fn_or_name` a leaf of tracing: calls of it given a
    Proxy are recorded as call_function nodes instead of being traced through. Call it at
    the top level of the module that defines (or imports) the function."""
    frame = inspect.currentframe().f_back
    if frame.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    name = fn_or_name if isinstance(fn_or_name, str) else fn_or_name.__code__.co_name
    if not isinstance(fn_or_name, str) and not callable(fn_or_name):
        raise AssertionError("Unsupported type for global function! Must be either a "
                             "callable or string name")
    f_globals = frame.f_globals
    _wrapped_fns[(id(f_globals), name)] = f_globals
    return fn_or_name


def _traced(orig_fn):
    """`orig_fn` recording a node when given a Proxy (a wrapped function's stand-in)."""
    @functools.wraps(orig_fn)
    def wrapped(*args, **kwargs):
        proxy = None

        def find(a):
            nonlocal proxy
            if isinstance(a, Proxy):
                proxy = a
        map_aggregate(args, find)
        map_aggregate(kwargs, find)
        if proxy is None:
            return orig_fn(*args, **kwargs)
        result = proxy.tracer.create_proxy("call_function", orig_fn, args, kwargs)
        result.node.meta["is_wrapped"] = True
        return result
    return wrapped


class _Patcher:
    """Attributes and globals swapped for one trace, all put back by `undo`."""

    def __init__(self):
        self._undo = []

    def set(self, owner, name, value, is_dict=False):
        if is_dict:
            had = name in owner
            self._undo.append((owner, name, owner.get(name), had, True))
            owner[name] = value
        else:
            had = name in vars(owner)
            self._undo.append((owner, name, vars(owner).get(name), had, False))
            setattr(owner, name, value)

    def undo(self):
        while self._undo:
            owner, name, old, had, is_dict = self._undo.pop()
            if is_dict:
                if had:
                    owner[name] = old
                else:
                    owner.pop(name, None)
            elif had:
                setattr(owner, name, old)
            else:
                delattr(owner, name)


class Tracer(TracerBase):
    """Records programs as Graphs (see NOTE [ How tracing works ]). Subclass it to change
    which modules are leaves (`is_leaf_module`), how calls become nodes (`create_proxy`,
    `call_module`) or what arguments become (`create_arg`)."""

    def __init__(self, autowrap_modules=(math,), autowrap_functions=(),
                 param_shapes_constant=False):
        self._autowrap_ids = {id(v) for m in autowrap_modules for k, v in vars(m).items()
                              if not k.startswith("_") and callable(v)}
        self._autowrap_ids.update(id(f) for f in autowrap_functions)
        self._autowrap_search = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths = None
        self.root_module_name = ""
        self.tensor_attrs = {}

    # -- what becomes a node ----------------------------------------------------------------

    def create_arg(self, a):
        """Also: a parameter of the root becomes a get_attr node, as does any other tensor
        the root holds; a tensor it does not hold is stored on it as `_tensor_constantN`."""
        from .._tensor import Tensor
        from ..nn import Module, Parameter
        if isinstance(a, Proxy) or not isinstance(a, (Tensor, Module)):
            return super().create_arg(a)
        if isinstance(a, Parameter):
            for name, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", name, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, Module):
            for name, m in self.root.named_modules():
                if a is m:
                    return self.create_node("get_attr", name, (), {})
            raise NameError("module is not installed as a submodule")
        if isinstance(a, Tensor):
            qualname = self.tensor_attrs.get(id(a))
            if qualname is None:
                i = 0
                while hasattr(self.root, f"_tensor_constant{i}"):
                    i += 1
                qualname = f"_tensor_constant{i}"
                setattr(self.root, qualname, a)
                self.tensor_attrs[id(a)] = qualname
            return self.create_node("get_attr", qualname, (), {})
        return super().create_arg(a)

    def is_leaf_module(self, m, module_qualified_name):
        """Whether calls of `m` are recorded (call_module) rather than traced through: ember's
        own layers are leaves, except containers like Sequential."""
        from ..nn import Sequential
        return m.__module__.startswith("ember.nn") and not isinstance(m, Sequential)

    def path_of_module(self, mod):
        """The qualified name of `mod` in the root (`"sub.lin"`)."""
        path = self.submodule_paths.get(id(mod)) if self.submodule_paths else None
        if path is None:
            for name, m in self.root.named_modules():
                if m is mod:
                    return name
            raise NameError("module is not installed as a submodule")
        return path

    def call_module(self, m, forward, args, kwargs):
        """A call of submodule `m`: a call_module node for a leaf, else its forward traced."""
        module_qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, module_qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", module_qualified_name, args, kwargs)

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        """The value a module attribute read gives while tracing: a Proxy (get_attr) for a
        parameter of the root, else the value itself."""
        from ..nn import Parameter
        if isinstance(attr_val, Parameter):
            for name, p in self.root.named_parameters():
                if attr_val is p:
                    if name not in parameter_proxy_cache:
                        parameter_proxy_cache[name] = self.create_proxy("get_attr", name,
                                                                        (), {})
                    return parameter_proxy_cache[name]
        return attr_val

    # -- the trace --------------------------------------------------------------------------

    def create_args_for_root(self, root_fn, is_module, concrete_args=None):
        """Placeholders for `root_fn`'s parameters (after `self` for a module's forward):
        positional and keyword ones in order, then `*args` and `**kwargs`."""
        signature = inspect.signature(root_fn)
        params = list(signature.parameters.values())
        if is_module:
            params = params[1:]
        concrete = dict(concrete_args or {})
        args, var = [], []
        for p in params:
            if p.kind == p.VAR_POSITIONAL:
                var.append(("*" + p.name, p))
            elif p.kind == p.VAR_KEYWORD:
                var.append(("**" + p.name, p))
            else:
                args.append((p.name, p))
        values = []
        for target, p in args + var:
            if p.name in concrete and concrete[p.name] is not PH:
                values.append(self._concrete(p, concrete[p.name]))
                continue
            annotation = None if p.annotation is p.empty else p.annotation
            default = p.default
            proxy = self.create_proxy("placeholder", target, (), {}, type_expr=annotation)
            if default is not p.empty:
                proxy.node.args = (default,)
            values.append((target, proxy))
        return values

    def _concrete(self, param, value):
        """A concrete argument: a placeholder still, asserted to be `value` when run."""
        import ember
        name = param.name
        proxy = self.create_proxy("placeholder", f"{name}_1", (), {})
        if param.default is not param.empty:
            proxy.node.args = (param.default,)
        message = f"{name} has been specialized to have value {value} but got another value"
        if value is None:
            self.create_proxy("call_function", _assert_is_none, (proxy, message), {})
        else:
            self.create_proxy("call_function", ember._assert, (proxy == value, message), {})
        return (name, value)

    def trace(self, root, concrete_args=None):
        """The Graph of `root` (a Module, whose forward is traced, or a function)."""
        from .. import _torch_function
        from ..nn import Module
        if isinstance(root, Module):
            self.root = root
            fn = type(root).forward
            is_module = True
        else:
            self.root = Module()
            fn = root
            is_module = False
        self.graph = Graph(tracer_cls=getattr(self, "__class__", None))
        self.tensor_attrs = {}
        for name, value in _tensors_of(self.root):
            self.tensor_attrs.setdefault(id(value), name)
        self.submodule_paths = {id(m): name for name, m in self.root.named_modules()}
        values = self.create_args_for_root(fn, is_module, concrete_args)
        positional, keywords = _call_args(fn, is_module, values)
        patcher = _Patcher()
        _torch_function.tracing_started()
        try:
            self._patch(patcher, fn)
            call_args = (self.root, *positional) if is_module else tuple(positional)
            result = fn(*call_args, **keywords)
            self.create_node("output", "output", (self.create_arg(result),), {},
                             type_expr=fn.__annotations__.get("return", None))
        finally:
            patcher.undo()
            _torch_function.tracing_ended()
        self.submodule_paths = None
        return self.graph

    def _patch(self, patcher, fn):
        from ..nn import Module
        orig_getattr, orig_call = Module.__getattr__, Module.__call__
        parameter_proxy_cache = {}
        tracer = self

        def module_getattr(mod, attr):
            return tracer.getattr(attr, orig_getattr(mod, attr), parameter_proxy_cache)

        def module_call(mod, *args, **kwargs):
            def forward(*a, **k):
                return orig_call(mod, *a, **k)
            return tracer.call_module(mod, forward, args, kwargs)
        patcher.set(Module, "__getattr__", module_getattr)
        patcher.set(Module, "__call__", module_call)
        seen = set()
        for f_globals in (getattr(fn, "__globals__", {}), *[vars(m) for m in
                                                             self._autowrap_search]):
            self._autowrap(patcher, f_globals, seen)
        for (_, name), f_globals in _wrapped_fns.items():
            orig = f_globals.get(name, getattr(builtins, name, None))
            if orig is not None:
                patcher.set(f_globals, name, _traced(orig), is_dict=True)

    def _autowrap(self, patcher, f_globals, seen):
        if id(f_globals) in seen:
            return
        seen.add(id(f_globals))
        for name, value in list(f_globals.items()):
            if not name.startswith("_") and callable(value) and id(value) in self._autowrap_ids:
                patcher.set(f_globals, name, _traced(value), is_dict=True)


def _assert_is_none(value, msg):
    assert value is None, msg


def _tensors_of(module):
    """(qualified name, tensor) of every tensor a module tree holds: parameters, buffers and
    plain tensor attributes."""
    from .._tensor import Tensor
    for prefix, m in module.named_modules():
        dot = prefix + "." if prefix else ""
        for name, value in vars(m).items():
            if isinstance(value, Tensor):
                yield dot + name, value
        for name, p in m._parameters.items():
            if p is not None:
                yield dot + name, p
        for name, b in m._buffers.items():
            if b is not None:
                yield dot + name, b


def _call_args(fn, is_module, values):
    """The values to call `fn` with: positional ones in order, `*args` spread, keywords."""
    signature = inspect.signature(fn)
    params = list(signature.parameters.values())[1 if is_module else 0:]
    by_name = dict(values)
    positional, keywords = [], {}
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            continue            # (a Proxy for *args is not spread: torch passes none)
        if p.kind == p.VAR_KEYWORD:
            continue
        value = by_name[p.name]
        if p.kind == p.KEYWORD_ONLY:
            keywords[p.name] = value
        else:
            positional.append(value)
    return positional, keywords


def symbolic_trace(root, concrete_args=None):
    """Trace a Module or a function into a GraphModule (see NOTE [ How tracing works ]).

        gm = torch.fx.symbolic_trace(model)
        print(gm.graph); print(gm.code); gm(x)  # the same values as model(x)
    """
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    from ..nn import Module
    name = root.__class__.__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
