"""`ember.ops`: the operators that `ember.library` defined, reached as torch reaches them,
`ops.<namespace>.<name>(...)` (or `.default(...)`, the one overload ember keeps).

NOTE [ What an operator is here ]
torch's dispatcher picks a kernel for each call by its "dispatch keys" (Autograd, CPU, CUDA,
Meta, ...). ember keeps what eager code can observe: an operator has a schema (its
arguments are checked against it, with torch's errors), kernels by device type ("cpu",
"cuda", or None for every device), maybe a kernel that handles autograd itself, maybe a fake
(meta) function, and, for `custom_op`s, a backward registered with `register_autograd`.
A call binds the arguments, picks the kernel by the device of the first tensor argument,
runs it, and for every argument the schema marks as written (`Tensor(a!)`) counts one more
write in its version counter for a `custom_op`, as torch's ADInplaceOrView kernel does.
"""
import types

from ._tensor import Tensor

__all__ = ["ops"]

# "ns::name" -> _OpEntry, for every operator defined so far
_REGISTRY = {}


class _OpEntry:
    """One operator: its schema and implementations (see the NOTE)."""

    def __init__(self, qualname, schema, custom=False):
        self.qualname = qualname                # "ns::name", or "ns::name.overload"
        self.namespace, full = qualname.split("::")
        self.name, _, self.overload = full.partition(".")
        self.schema = schema
        self.custom = custom           # made by custom_op: autograd through `generated`
        self.kernels = {}              # device type (None: any) -> function
        self.autograd_kernel = None    # Library.impl(..., "Autograd"/"CompositeImplicit...")
        self.fake = None
        self.backward = None
        self.setup_context = None
        self._generated = None

    # -- a call ------------------------------------------------------------------------------

    def call(self, args, kwargs):
        values = self.schema.bind(args, kwargs)
        positional, keywords = [], {}
        for a, v in zip(self.schema.arguments, values):
            if a.kwarg_only:
                keywords[a.name] = v
            else:
                positional.append(v)
        if self.custom:
            result = self._call_custom(values, positional, keywords)
        else:
            result = self.kernel_for(values)(*positional, **keywords)
        if self.custom:     # (a Library kernel's own writes are the only ones counted)
            for a, v in zip(self.schema.arguments, values):
                if a.mutable and isinstance(v, Tensor):
                    v._bump_version()
        return result

    def kernel_for(self, values):
        if self.autograd_kernel is not None:
            return self.autograd_kernel
        device = _first_device(values)
        kernel = self.kernels.get(device, self.kernels.get(None))
        if kernel is None:
            key = device.upper()
            raise NotImplementedError(
                f"Could not run '{self.qualname}' with arguments from the '{key}' backend. This "
                f"could be because the operator doesn't exist for this backend, or was omitted "
                f"during the selective/custom build process (if using custom build). If you are "
                f"a Facebook employee using PyTorch on mobile, please visit "
                f"https://fburl.com/ptmfixes for possible resolutions. '{self.qualname}' is only "
                f"available for these backends: "
                f"[{', '.join(k.upper() for k in self.kernels if k)}].")
        return kernel

    def _call_custom(self, values, positional, keywords):
        """A custom_op's kernel runs below autograd: its own ops are not recorded, and when an
        input requires grad, its outputs get the node of a generated Function, whose backward
        is the one given to `register_autograd`."""
        from .autograd.grad_mode import _state
        kernel = self.kernel_for(values)
        if _state.enabled and _needs_grad(values):
            # a list of tensors goes in as its tensors, so that each gets its gradient
            flat, layout = [], []
            for v in positional:
                if isinstance(v, (list, tuple)) and any(isinstance(t, Tensor) for t in v):
                    layout.append(len(v))
                    flat.extend(v)
                else:
                    layout.append(None)
                    flat.append(v)
            result = self.generated().apply(*flat, _KeywordOnly(kernel, keywords, layout))
        else:
            result = kernel(*positional, **keywords)
        self._check_aliasing(kernel, values, result)
        return self._checked_result(result)

    def _check_aliasing(self, kernel, values, result):
        """A custom_op's outputs must be new tensors: neither its inputs nor views of them."""
        import inspect
        outs = result if isinstance(result, (tuple, list)) else (result,)
        storages = [t._get_storage() for t in _tensors(values)]
        if not any(isinstance(o, Tensor) and any(o._get_storage() is s for s in storages)
                   for o in outs):
            return
        raise RuntimeError(
            f"{self.name} (with implementation in {inspect.getmodule(kernel)}): The output of "
            f"this custom operator (1) must not also be an input to this custom operator and "
            f"(2) may not alias any inputs to this custom operator or other returns. The most "
            f"common way to trigger this error is if we have y = custom_op(x) and y and x are "
            f"the same Tensor. Please instead return a clone of the offending output tensor(s) "
            f"(e.g. return x.clone()) or refactor the custom operator to not return y.")

    def _checked_result(self, result):
        returns = self.schema.returns
        if self.schema.returns_tuple:
            if not returns:
                return result
            if not isinstance(result, (tuple, list)):
                raise TypeError(f"Object of type '{type(result).__name__}' is not an instance "
                                f"of 'sequence'")
            return tuple(result)
        if returns[0].split()[0].split("(")[0] == "Tensor" and not isinstance(result, Tensor):
            raise RuntimeError(f"Unable to cast {result} to Tensor")
        return result

    def generated(self):
        """The autograd.Function a custom_op's calls that need gradients run through."""
        if self._generated is None:
            self._generated = _generated_function(self)
        return self._generated


class _KeywordOnly:
    """The last argument of a generated Function: the kernel, the keyword-only arguments
    (torch passes such metadata the same way, so the gradient counts match torch's) and
    where lists of tensors were flattened (`layout`: a length per list, None otherwise)."""

    def __init__(self, kernel, keywords, layout):
        self.kernel = kernel
        self.keywords = keywords
        self.layout = layout

    def regroup(self, flat):
        out, i = [], 0
        for n in self.layout:
            if n is None:
                out.append(flat[i])
                i += 1
            else:
                out.append(list(flat[i:i + n]))
                i += n
        return tuple(out)

    def flatten(self, grads):
        out = []
        for n, g in zip(self.layout, grads):
            if n is None:
                out.append(g)
            else:
                out.extend(g if g is not None else [None] * n)
        return tuple(out) + tuple(grads[len(self.layout):])


def _generated_function(entry):
    """torch's generated Function is an old-style one (forward takes ctx and runs the user's
    setup_context itself), so torch.func transforms refuse it, as torch does."""
    from .autograd.function import Function

    def forward(ctx, *args):
        meta = args[-1]
        inputs = meta.regroup(args[:-1])
        output = meta.kernel(*inputs, **meta.keywords)
        ctx.needs_input_grad = ctx.needs_input_grad[:-1]
        ctx._layout = meta
        if entry.setup_context is not None:
            import inspect
            params = inspect.signature(entry.setup_context).parameters
            if "keyword_only_inputs" in params:
                entry.setup_context(ctx=ctx, inputs=inputs, keyword_only_inputs=meta.keywords,
                                    output=output)
            else:
                entry.setup_context(ctx=ctx, inputs=inputs, output=output)
        return output

    def backward(ctx, *grads):
        if entry.backward is None:
            raise RuntimeError(f"Trying to backward through {entry.namespace}.{entry.name}."
                               f"default but no autograd formula was registered. Please use "
                               f"register_autograd to add one.")
        result = entry.backward(ctx, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        return ctx._layout.flatten(result) + (None,)

    name = f"GeneratedBackwardFor_{entry.namespace}_{entry.name}_default"
    return type(name, (Function,), {"forward": staticmethod(forward),
                                     "backward": staticmethod(backward)})


def _tensors(values):
    for v in values:
        if isinstance(v, Tensor):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from (t for t in v if isinstance(t, Tensor))


def _first_device(values):
    return next((t.device.type for t in _tensors(values)), "cpu")


def _needs_grad(values):
    return any(t.requires_grad for t in _tensors(values))


# -- the objects user code holds ---------------------------------------------------------------

class OpOverload:
    """`ops.ns.name.default` (or `.overload`): the operator itself."""

    def __init__(self, packet, entry):
        self.overloadpacket = packet
        self._entry = entry
        self.namespace = entry.namespace
        self._opname = entry.name
        self._overloadname = entry.overload or "default"
        self.__name__ = f"{entry.name}.{self._overloadname}"
        self.__qualname__ = entry.qualname

    @property
    def _schema(self):
        return self._entry.schema

    def name(self):
        return self._entry.qualname

    def __call__(self, *args, **kwargs):
        return self._entry.call(args, kwargs)

    def __repr__(self):
        return f"{self.namespace}.{self._opname}.{self._overloadname}"


class OpOverloadPacket:
    """`ops.ns.name`: its overloads as attributes (`default` for the one without a name);
    calling it calls the first overload whose schema accepts the arguments."""

    def __init__(self, entries):
        self._entries = entries
        first = entries[0]
        self._entry = next((e for e in entries if not e.overload), first)
        self._qualified_op_name = f"{first.namespace}::{first.name}"
        self.__name__ = first.name
        for e in entries:
            setattr(self, e.overload or "default", OpOverload(self, e))

    def overloads(self):
        return [e.overload or "default" for e in self._entries]

    def __call__(self, *args, **kwargs):
        if len(self._entries) == 1:
            return self._entry.call(args, kwargs)
        errors = []
        for e in self._entries:
            try:
                e.schema.bind(args, kwargs)
            except RuntimeError as exc:
                errors.append(str(exc))
                continue
            return e.call(args, kwargs)
        raise RuntimeError("Overloaded torch operator invoked from Python failed to match any "
                           "schema:\n" + "".join(f"{m}\n\n" for m in errors))

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"The underlying op of '{self}' has no overload name '{name}'")

    def __repr__(self):
        return f"{self._entry.namespace}.{self._entry.name}"


class _OpNamespace(types.ModuleType):
    """`ops.ns`: the operators of one namespace."""

    def __init__(self, ns):
        super().__init__(f"ember.ops.{ns}")
        self._ns = ns
        self._packets = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        base = f"{self._ns}::{name}"
        entries = [e for q, e in _REGISTRY.items() if q == base or q.startswith(base + ".")]
        if not entries:
            raise AttributeError(f"'_OpNamespace' '{self._ns}' object has no attribute "
                                 f"'{name}'")
        packet = self._packets.get(name)
        if packet is None or packet._entries != entries:
            packet = self._packets[name] = OpOverloadPacket(entries)
        return packet

    def __dir__(self):
        prefix = f"{self._ns}::"
        return sorted({q[len(prefix):].split(".")[0] for q in _REGISTRY
                       if q.startswith(prefix)})


class _Ops(types.ModuleType):
    """`ember.ops`: `ops.ns` is that namespace (any name is a namespace, maybe empty)."""

    def __init__(self):
        super().__init__("ember.ops")
        self._namespaces = {}

    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        space = self._namespaces.get(ns)
        if space is None:
            space = self._namespaces[ns] = _OpNamespace(ns)
        return space


ops = _Ops()


def lookup(qualname):
    """The OpOverload of "ns::name" or "ns::name.overload" (torch's error if there is none)."""
    ns, name = qualname.split("::")
    name, _, overload = name.partition(".")
    return getattr(getattr(getattr(ops, ns), name), overload or "default")
