"""torch.fx.proxy: a Proxy stands for a value while a program is traced. Whatever the program
does with it (an operator, a method, an attribute, indexing, a torch function through
`__torch_function__`) records a node in the tracer's graph and gives a new Proxy back.
What a Proxy cannot stand for (its truth value, its length, iterating it) raises."""
import dis
import inspect
import operator

from .node import Node, map_aggregate

__all__ = ["TraceError", "Proxy", "Attribute", "TracerBase", "GraphAppendingTracer"]


class TraceError(ValueError):
    pass


class TracerBase:
    """What a Proxy needs of a tracer: making nodes and proxies of them, and the answers for
    control flow (refusals, unless a subclass decides)."""

    graph = None
    scope = None

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        if kind == "call_function":
            from .. import _patch_ops
            target = _patch_ops.original(target)    # (not a wrapper installed for a while)
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node):
        return Proxy(node, self)

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None,
                     proxy_factory_fn=None):
        """A node for the call (its arguments made graph arguments by `create_arg`) and a
        Proxy of it."""
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return self.proxy(node) if proxy_factory_fn is None else proxy_factory_fn(node)

    def create_arg(self, a):
        """`a` as a node argument: proxies become their nodes, containers are rebuilt."""
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, tuple) and hasattr(a, "_fields"):
            return type(a)(*(self.create_arg(e) for e in a))
        if isinstance(a, (tuple, list)):
            return type(a)(self.create_arg(e) for e in a)
        if isinstance(a, dict):
            out = {}
            for k, v in a.items():
                if isinstance(self.create_arg(k), Node):
                    raise RuntimeError("Keys for dictionaries used as an argument cannot "
                                       "contain a Node. Got key: {k}")
                out[k] = self.create_arg(v)
            return out
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop),
                         self.create_arg(a.step))
        if isinstance(a, range):
            return range(self.create_arg(a.start), self.create_arg(a.stop),
                         self.create_arg(a.step))
        if a is None or a is ... or isinstance(a, (str, int, float, bool, complex, Node)):
            return a
        from .. import _dtype, _device
        from .._tensor import Tensor
        from .._memory_format import memory_format
        if isinstance(a, (_dtype.dtype, _device.device, memory_format, Tensor)):
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj):
        raise TraceError("symbolically traced variables cannot be used as inputs to control "
                         "flow")

    def iter(self, obj):
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the "
                         "Proxy is used in a loop or as a *args or **kwargs function argument. "
                         "See the torch.fx docs on pytorch.org for a more detailed explanation "
                         "of what types of control flow can be traced, and check out the Proxy "
                         "docstring for help troubleshooting Proxy iteration errors")

    def keys(self, obj):
        return Attribute(obj, "keys")()


class GraphAppendingTracer(TracerBase):
    """The tracer of a Proxy made by hand around a node: it appends to the node's graph."""

    def __init__(self, graph):
        self.graph = graph


class Proxy:
    """A traced value (see the module's docstring); `proxy.node` is its node."""

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return f"Proxy({self.node.name})"

    def __getattr__(self, k):
        if k.startswith("__") and k.endswith("__"):    # (copy, pickle and friends probing)
            raise AttributeError(k)
        return Attribute(self, k)

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self):
        # `a, b = proxy` unpacks into indexing when the caller's bytecode says how many
        frame = inspect.currentframe().f_back
        for instruction in dis.get_instructions(frame.f_code):
            if instruction.offset == frame.f_lasti:
                if instruction.opname == "UNPACK_SEQUENCE":
                    return (self[i] for i in range(instruction.argval))
                break
        return self.tracer.iter(self)

    def __bool__(self):
        return self.tracer.to_bool(self)

    def keys(self):
        return self.tracer.keys(self)

    def __len__(self):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want "
                           "this call to be recorded, please call torch.fx.wrap('len') at "
                           "module scope")

    __hash__ = object.__hash__

    @classmethod
    def __torch_function__(cls, orig_method, types, args=None, kwargs=None):
        """A torch function called on proxies: a call_function node of torch's function, or a
        call_method node for a Tensor method."""
        from .. import _patch_ops
        args = args if args else ()
        kwargs = kwargs if kwargs else {}
        tracers = {}

        def find_tracer(a):
            if isinstance(a, cls):
                tracers[a.tracer] = None
        map_aggregate(args, find_tracer)
        map_aggregate(kwargs, find_tracer)
        if len(tracers) > 1:
            raise RuntimeError(f"Found multiple different tracers {list(tracers)} while "
                               f"trying to trace operations {orig_method}")
        tracer = next(iter(tracers))
        orig_method = _patch_ops.original(orig_method)
        name = getattr(orig_method, "__name__", "")
        if getattr(orig_method, "__qualname__", "").startswith("Tensor.") or name == "__get__":
            return tracer.create_proxy("call_method", name, args, kwargs)
        args, kwargs = _as_torch_passes(orig_method, args, kwargs)
        return tracer.create_proxy("call_function", orig_method, args, kwargs,
                                   name=tracer.graph._target_to_str(name))


def _as_torch_passes(func, args, kwargs):
    """The arguments as torch's Python functions (torch.nn.functional's) hand them to
    `__torch_function__`: the required ones by position, the others by keyword with their
    defaults filled in (`F.relu(x)` records `relu(x, inplace=False)`)."""
    from ._names import qualified_name
    try:
        if not qualified_name(func).startswith(("torch.nn.functional.", "torch.functional.")):
            return args, kwargs
        signature = inspect.signature(func)
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError, RuntimeError):
        return args, kwargs
    bound.apply_defaults()
    positional, keywords = [], {}
    for name, param in signature.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            return args, kwargs
        value = bound.arguments[name]
        if param.default is param.empty and param.kind != param.KEYWORD_ONLY and \
                not keywords:
            positional.append(value)
        else:
            keywords[name] = value
    return tuple(positional), keywords


class Attribute(Proxy):
    """`proxy.name`: a getattr node when used as a value, a call_method node when called."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr,
                                                  (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


_BINARY = ("add", "sub", "mul", "floordiv", "truediv", "mod", "pow", "lshift", "rshift",
           "and_", "or_", "xor", "matmul")


def _define_operators():
    def binary(fn):
        return lambda self, rhs: self.tracer.create_proxy("call_function", fn, (self, rhs), {})

    def reflected(fn):
        return lambda self, lhs: self.tracer.create_proxy("call_function", fn, (lhs, self), {})

    def unary(fn):
        return lambda self: self.tracer.create_proxy("call_function", fn, (self,), {})

    for name in _BINARY + ("getitem", "eq", "ne", "lt", "gt", "le", "ge"):
        setattr(Proxy, f"__{name.rstrip('_')}__", binary(getattr(operator, name)))
    for name in _BINARY:
        setattr(Proxy, f"__r{name.rstrip('_')}__", reflected(getattr(operator, name)))
    for name in ("neg", "pos", "invert", "abs"):
        setattr(Proxy, f"__{name}__", unary(getattr(operator, name)))


_define_operators()
