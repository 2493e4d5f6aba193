"""The Python source of a Graph, as torch.fx writes it: `def forward(self, x):` and one line per
node (`add = x + 1;  x = None`), which GraphModule compiles into its `forward`.

NOTE [ Names in generated code ]
The source names torch's functions as torch prints them (`torch.relu(x)`,
`torch.nn.functional.relu(x, inplace = False)`, `torch._C._nn.linear(x, w, b)`), so that
`print(gm.code)` reads as torch's. Its globals bind `torch` to ember; a path that ember keeps
elsewhere (`torch._C._nn.linear` is ember's `nn.functional.linear`) is reached through a small
`_TorchPath` view of ember that knows the few paths the code uses, and only when there are
such paths. Other functions become globals named after their qualified name
(`math_sqrt`, `__main___my_helper`); the `fx.wrap`ped ones are listed as `wrap("...")`
statements above the function, as torch lists them.
"""
import builtins
import functools
import math

from ._names import Namespace, qualified_name
from .node import map_arg, type_repr

__all__ = ["CodeGen", "PythonCode"]

# operator.<name> written as Python operators
_MAGIC = {"add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}",
          "truediv": "{} / {}", "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}",
          "lshift": "{} << {}", "rshift": "{} >> {}", "and_": "{} & {}", "or_": "{} | {}",
          "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}", "eq": "{} == {}",
          "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}",
          "ge": "{} >= {}", "pos": "+{}", "neg": "-{}", "invert": "~{}"}
_INPLACE = {"iadd": "{} += {}", "iand": "{} &= {}", "ifloordiv": "{} //= {}",
            "ilshift": "{} <<= {}", "imod": "{} %= {}", "imul": "{} *= {}",
            "imatmul": "{} @= {}", "ior": "{} |= {}", "ipow": "{} **= {}",
            "irshift": "{} >>= {}", "isub": "{} -= {}", "itruediv": "{} /= {}",
            "ixor": "{} ^= {}", "setitem": "{}[{}] = {}"}


class PythonCode:
    """The generated source (`src`) and the globals (`globals`) it runs with."""

    def __init__(self, src, globals, _lineno_map=None):
        self.src = src
        self.globals = globals
        self._lineno_map = _lineno_map


def _format_target(base, target):
    """`self.sub.lin`, or `getattr(self.sub, "0")` for a part that is no identifier."""
    for part in target.split("."):
        base = f"{base}.{part}" if part.isidentifier() else f'getattr({base}, "{part}")'
    return base


class _TorchPath:
    """`torch` in generated code: ember, plus the paths torch keeps elsewhere (see the NOTE)."""

    def __init__(self, target, extra):
        self._target = target
        self._extra = extra

    def __getattr__(self, name):
        if name in self._extra:
            value = self._extra[name]
            return _TorchPath(getattr(self._target, name, None), value) \
                if isinstance(value, dict) else value
        return getattr(self._target, name)


def _resolves(path, obj):
    import ember
    try:
        return functools.reduce(getattr, path.split(".")[1:], ember) is obj
    except AttributeError:
        return False


class CodeGen:
    """Writes a graph as Python (torch.fx.graph.CodeGen)."""

    def gen_fn_def(self, free_vars, maybe_return_annotation):
        if not free_vars or free_vars[0] != "self":
            free_vars.insert(0, "self")
        return f"def forward({', '.join(free_vars)}){maybe_return_annotation}:"

    def generate_output(self, output_args):
        return f"return {output_args!r}"

    def generate(self, graph, root_module):
        """The PythonCode of `graph` (see the module's NOTE)."""
        return _Writer(self, graph, root_module).write()


class _Writer:
    def __init__(self, codegen, graph, root_module):
        import ember
        self.codegen = codegen
        self.graph = graph
        self.root = root_module
        self.namespace = Namespace()
        for node in graph.nodes:
            self.namespace.create_name(node.name, node)
        self.globals = {}
        self.torch_extra = {}
        for name, obj in (("inf", math.inf), ("nan", math.nan), ("NoneType", type(None)),
                          ("torch", ember), ("device", ember.device)):
            self.globals[name] = obj
        self.body = []
        self.free_vars = []
        self.wrapped = {}
        self.return_annotation = ""

    def add_global(self, name_hint, obj):
        """The name generated code reaches `obj` by (torch's functions by their path)."""
        import ember
        if name_hint.startswith("torch.") and obj is not ember.device:
            if not _resolves(name_hint, obj):
                *parents, last = name_hint.split(".")[1:]
                tree = self.torch_extra
                for part in parents:
                    tree = tree.setdefault(part, {})
                tree[last] = obj
            return name_hint
        if getattr(builtins, name_hint, None) is obj:
            return name_hint
        for name, value in self.globals.items():
            if value is obj:
                return name
        name = self.namespace.create_name(name_hint, obj)
        self.globals[name] = obj
        return name

    def type_text(self, t):
        if t is None:
            return ""
        text = type_repr(t)
        if isinstance(t, type) and t.__module__ not in ("builtins",) and \
                not t.__module__.startswith("ember"):
            text = self.add_global(text, t)
        elif not isinstance(t, type) and "typing." in text:
            import typing
            self.globals["typing"] = typing
        return f" : {text}"

    def repr_arg(self, arg):
        if isinstance(arg, tuple) and hasattr(arg, "_fields"):
            cls = type(arg)
            return f"{self.add_global(qualified_name(cls), cls)}{tuple(arg)!r}"
        return repr(arg)

    def format_args(self, args, kwargs):
        parts = [self.repr_arg(a) for a in args]
        parts += [f"{k} = {self.repr_arg(v)}" for k, v in kwargs.items()]
        return ", ".join(parts)

    def write(self):
        nodes = list(self.graph.nodes)
        last_uses = self._last_uses(nodes)
        for node in nodes:
            self.emit(node)
            self.free_unused(node, last_uses)
        body = self.body or ["pass\n"]
        if self.wrapped:
            wrap_name = self._wrap_name()
            wrap_stmts = "\n".join(f'{wrap_name}("{name}")' for name in self.wrapped)
        else:
            wrap_stmts = ""
        code = "".join(body).lstrip("\n")
        code = "\n".join("    " + line for line in code.split("\n"))
        prologue = self.codegen.gen_fn_def(self.free_vars, self.return_annotation)
        if self.torch_extra:
            self.globals["torch"] = _TorchPath(self.globals["torch"], self.torch_extra)
        return PythonCode(f"\n{wrap_stmts}\n\n{prologue}\n{code}", self.globals)

    def _wrap_name(self):
        from ._symbolic_trace import wrap
        return self.add_global("torch.fx._symbolic_trace.wrap", wrap)

    @staticmethod
    def _last_uses(nodes):
        """node -> the nodes whose value it is the last to use."""
        seen, last_uses = set(), {}

        def note(n, user):
            if n not in seen:
                seen.add(n)
                last_uses.setdefault(user, []).append(n)
        for node in reversed(nodes):
            map_arg(node.args, lambda n: note(n, node))
            map_arg(node.kwargs, lambda n: note(n, node))
        return last_uses

    def free_unused(self, node, last_uses):
        if node.op == "placeholder":
            return
        if node.op == "output":
            self.body.append("\n")
            return
        to_delete = list(last_uses.get(node, []))
        if not node.users:
            to_delete.append(node)
        if to_delete:
            self.body.append(";  " + " = ".join([repr(n) for n in to_delete] + ["None"]) + "\n")
        else:
            self.body.append("\n")

    def emit(self, node):
        annotation = self.type_text(node.type)
        name, op, body = repr(node), node.op, self.body
        if op == "placeholder":
            default = f" = {self.repr_arg(node.args[0])}" if node.args else ""
            self.free_vars.append(f"{node.target}{annotation}{default}")
            raw = node.target.replace("*", "")
            if raw != name:
                body.append(f"{name} = {raw}\n")
        elif op == "call_method":
            target = _format_target(repr(node.args[0]), node.target)
            args = self.format_args(node.args[1:], node.kwargs)
            body.append(f"{name}{annotation} = {target}({args})")
        elif op == "call_function":
            self.emit_call(node, name, annotation)
        elif op == "call_module":
            target = _format_target(self.root, node.target)
            args = self.format_args(node.args, node.kwargs)
            body.append(f"{name}{annotation} = {target}({args})")
        elif op == "get_attr":
            body.append(f"{name}{annotation} = {_format_target(self.root, node.target)}")
        elif op == "output":
            if node.type is not None:
                self.return_annotation = f" -> {type_repr(node.type)}"
            body.append(self.codegen.generate_output(node.args[0]))
        else:
            raise NotImplementedError(f"node: {op} {node.target}")

    def emit_call(self, node, name, annotation):
        target, args = node.target, node.args
        short = getattr(target, "__name__", None)
        if getattr(target, "__module__", "") == "_operator":
            if short in _MAGIC:
                text = _MAGIC[short].format(*(self.repr_arg(a) for a in args))
                self.body.append(f"{name}{annotation} = {text}")
                return
            if short in _INPLACE:
                text = _INPLACE[short].format(*(self.repr_arg(a) for a in args))
                self.body.append(f"{text};  {name}{annotation} = {self.repr_arg(args[0])}")
                return
        global_name = self.add_global(qualified_name(target), target)
        if global_name == "getattr" and len(args) == 2 and isinstance(args[1], str) and \
                args[1].isidentifier():
            self.body.append(f"{name}{annotation} = "
                             f"{_format_target(self.repr_arg(args[0]), args[1])}")
            return
        self.body.append(f"{name}{annotation} = "
                         f"{global_name}({self.format_args(args, node.kwargs)})")
        if node.meta.get("is_wrapped", False):
            self.wrapped.setdefault(global_name)
