"""ember.library, as torch.library: define operators in Python and call them through
`ember.ops.<namespace>.<name>`.

    @ember.library.custom_op("mylib::scale", mutates_args=())
    def scale(x: ember.Tensor, k: float) -> ember.Tensor:
        return x * k

    scale.register_autograd(lambda ctx, g: (g * ctx.k, None),
                            setup_context=lambda ctx, inputs, output: setattr(ctx, "k", inputs[1]))
    ember.ops.mylib.scale(x, 2.0)

The older form, `Library("mylib", "DEF")` with `define("scale(Tensor x, float k) -> Tensor")`
and `impl("scale", fn, "CPU")`, is here too. What an operator is, and how a call is run, is in
NOTE [ What an operator is here ] (`_op_namespace.py`). ember compiles nothing, so a fake
(meta) function is kept for `opcheck`, which calls it on the real arguments and compares
what it returns with the operator's results.
"""
from ._library_schema import infer_schema, parse_schema
from ._op_namespace import _REGISTRY, OpOverload, _OpEntry, lookup

__all__ = ["Library", "CustomOpDef", "OpOverload", "custom_op", "define", "impl", "infer_schema",
           "opcheck", "register_autograd", "register_fake", "register_kernel", "get_ctx",
           "fallthrough_kernel"]

_KINDS = ("DEF", "IMPL", "FRAGMENT")
_DEFINED_NAMESPACES = {}     # namespace a "DEF" library claimed -> where ("file:line")
_ALIAS_ANALYSIS = ("", "FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION")
# dispatch keys whose kernel handles autograd itself (it runs with gradients recorded)
_AUTOGRAD_KEYS = ("CompositeImplicitAutograd", "Autograd", "AutogradCPU", "AutogradCUDA")
_DEVICE_KEYS = {"CPU": "cpu", "CUDA": "cuda", "CompositeExplicitAutograd": None, "": None}


def _caller():
    """"file:line" of the user code that called into this module."""
    import sys
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("ember."):
        frame = frame.f_back
    return "?" if frame is None else f"{frame.f_code.co_filename}:{frame.f_lineno}"


class Library:
    """A namespace's definitions ("DEF", or more of them: "FRAGMENT") or implementations
    ("IMPL") of operators."""

    def __init__(self, ns, kind, dispatch_key=""):
        if kind not in _KINDS:
            raise ValueError(f"Unsupported kind: {kind}")
        site = self._site = _caller()
        if kind == "DEF":
            if ns in _DEFINED_NAMESPACES:
                raise RuntimeError(
                    f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; "
                    f"please put all of your definitions in a single TORCH_LIBRARY block.  If "
                    f"you were trying to specify implementations, consider using "
                    f"TORCH_LIBRARY_IMPL (which can be duplicated).  If you really intended to "
                    f"define operators for a single namespace in a distributed way, you can use "
                    f"TORCH_LIBRARY_FRAGMENT to explicitly indicate this.  Previous "
                    f"registration of TORCH_LIBRARY was registered at "
                    f"{_DEFINED_NAMESPACES[ns]}; latest registration was registered at {site}")
            _DEFINED_NAMESPACES[ns] = site
        self.ns = ns
        self.kind = kind
        self.dispatch_key = dispatch_key

    def __repr__(self):
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema, alias_analysis="", *, tags=()):
        """Declare an operator: `schema` is "name(Tensor x, ...) -> Tensor"; returns the
        name."""
        if alias_analysis not in _ALIAS_ANALYSIS:
            raise RuntimeError(f"Invalid alias_analysis type {alias_analysis}")
        parsed = parse_schema(self.ns, schema)
        if self.kind == "IMPL":
            raise RuntimeError(f'def("{parsed.name.split("::")[1]}"): Cannot define an operator '
                               f'inside of a TORCH_LIBRARY_IMPL block.  All def()s should be '
                               f'placed in the (unique) TORCH_LIBRARY block for their '
                               f'namespace.  (Error occurred while processing '
                               f'TORCH_LIBRARY_IMPL block at {self._site})')
        _add(parsed)
        return parsed.name.split("::")[1].split(".")[0]     # (without the overload)

    def impl(self, op_name, fn, dispatch_key="", *, with_keyset=False):
        """Give operator `op_name` (of this namespace) the kernel `fn` for `dispatch_key`
        ("CPU", "CUDA", "CompositeExplicitAutograd", "CompositeImplicitAutograd", "Meta",
        ...; the library's own key when not given)."""
        if isinstance(op_name, OpOverload):
            qualname = op_name.name()
        else:
            qualname = op_name if "::" in op_name else f"{self.ns}::{op_name}"
        _set_kernel(qualname, fn, dispatch_key or self.dispatch_key)

    def _destroy(self):
        pass


_PENDING = {}   # "ns::name" -> [(key, fn)]: kernels given before the operator was defined


def _add(schema):
    qualname = schema.name
    if qualname in _REGISTRY:
        raise RuntimeError(f"Tried to register an operator ({schema}) with the same name and "
                           f"overload name multiple times. Each overload's schema should only "
                           f"be registered with a single call to def().")
    entry = _OpEntry(qualname, schema)
    _REGISTRY[qualname] = entry
    for key, fn in _PENDING.pop(qualname, ()):
        _set_kernel(qualname, fn, key)
    return entry


def _set_kernel(qualname, fn, key):
    entry = _REGISTRY.get(qualname)
    if entry is None:       # torch lets implementations come first
        _PENDING.setdefault(qualname, []).append((key, fn))
        return
    if key in _AUTOGRAD_KEYS:
        entry.autograd_kernel = fn
    elif key == "Meta":
        entry.fake = fn
    elif key in _DEVICE_KEYS:
        entry.kernels[_DEVICE_KEYS[key]] = fn
    else:
        entry.kernels[_device_type(key)] = fn


def _device_type(name):
    from ._device import device
    if name is None:
        return None
    return device(name.lower() if name.isupper() else name).type


def _entry(op):
    """The registry entry of `op`: a CustomOpDef, an OpOverload(Packet) or "ns::name"."""
    if isinstance(op, CustomOpDef):
        return op._entry
    if hasattr(op, "_entry"):
        return op._entry
    entry = _REGISTRY.get(op)
    if entry is None:
        raise RuntimeError(f"operator {op} does not exist")
    return entry


def define(qualname, schema, *, lib=None, tags=()):
    """Declare operator "ns::name" with `schema` "(Tensor x) -> Tensor"."""
    parsed = parse_schema(None, qualname.split("::")[1] + schema)
    parsed.name = qualname
    _add(parsed)


def impl(qualname, types, func=None, *, lib=None):
    """Give "ns::name" the kernel `func` for device types (or dispatch keys) `types`; without
    `func`, a decorator."""
    def register(fn):
        for t in [types] if isinstance(types, str) else types:
            _set_kernel(qualname if isinstance(qualname, str) else qualname.name(), fn,
                        t if t in _DEVICE_KEYS or t in _AUTOGRAD_KEYS or t == "Meta"
                        else _device_type(t))
    # NOTE: as torch's, the decorator form returns None: the name it decorates is not the
    # kernel afterwards.
    return register if func is None else register(func)


def _device_types(device_types):
    if device_types is None:
        return [None]
    if isinstance(device_types, str):
        device_types = [device_types]
    return [_device_type(d) for d in device_types]


class CustomOpDef:
    """What `custom_op` returns: call it like the function it wraps."""

    def __init__(self, entry, fn):
        self._entry = entry
        self._namespace = entry.namespace
        self._name = entry.name
        self._qualname = entry.qualname
        self._init_fn = fn

    @property
    def _opoverload(self):
        return lookup(self._qualname)

    def __repr__(self):
        return f"<CustomOpDef({self._qualname})>"

    def __call__(self, *args, **kwargs):
        return self._entry.call(args, kwargs)

    def register_kernel(self, device_types, fn=None):
        """Use `fn` on these device types (a decorator without `fn`)."""
        def register(func):
            for d in _device_types(device_types):
                self._entry.kernels[d] = func
            return func
        return register if fn is None else register(fn)

    def register_fake(self, fn):
        self._entry.fake = fn
        return fn

    def register_autograd(self, backward, *, setup_context=None):
        """`backward(ctx, *grads)` gives one gradient per input; `setup_context(ctx, inputs,
        output)` (or with `keyword_only_inputs`) saves what it needs."""
        self._entry.backward = backward
        self._entry.setup_context = setup_context


def custom_op(name, fn=None, /, *, mutates_args, device_types=None, schema=None):
    """Make `fn` an operator "ns::name" (a decorator without `fn`): its schema comes from its
    type annotations (or `schema`), `mutates_args` names the arguments it writes into
    ("unknown": any tensor), `device_types` the devices it runs on (all, by default)."""
    def make(func):
        ns, op_name = name.split("::")
        qualname = f"{ns}::{op_name}"
        if schema is None:
            parsed = infer_schema(func, mutates_args=mutates_args, op_name=qualname)
        else:
            parsed = parse_schema(None, op_name + schema)
            parsed.name = qualname
        entry = _OpEntry(qualname, parsed, custom=True)
        for d in _device_types(device_types):
            entry.kernels[d] = func
        _REGISTRY[qualname] = entry
        return CustomOpDef(entry, func)
    return make if fn is None else make(fn)


def register_fake(op, fn=None, /, *, lib=None, _stacklevel=1):
    """Give `op` a fake (meta) function: from the inputs' shapes, outputs of the right
    shapes (a decorator without `fn`)."""
    entry = _entry(op)

    def register(func):
        entry.fake = func
        return func
    return register if fn is None else register(fn)


def register_autograd(op, backward, /, *, setup_context=None, lib=None):
    """See `CustomOpDef.register_autograd`; `op` may be "ns::name"."""
    entry = lookup(op)._entry if isinstance(op, str) else _entry(op)
    entry.backward = backward
    entry.setup_context = setup_context
    if not entry.custom:       # a Library operator gains the generated Function's autograd
        entry.custom = True


def register_kernel(op, device_types, func=None, /, *, lib=None):
    entry = _entry(op)

    def register(fn):
        for d in _device_types(device_types):
            entry.kernels[d] = fn
        return fn
    return register if func is None else register(func)


def get_ctx():
    """The fake-implementation context; ember runs no fake tensor tracing, so there is none."""
    return None


def fallthrough_kernel():
    raise NotImplementedError("fallthrough_kernel() should never be called.")


# -- opcheck --------------------------------------------------------------------------------

_TESTS = ("test_schema", "test_autograd_registration", "test_faketensor",
          "test_aot_dispatch_static", "test_aot_dispatch_dynamic")
_DEFAULT_TESTS = ("test_schema", "test_autograd_registration", "test_faketensor",
                  "test_aot_dispatch_dynamic")


class OpCheckError(Exception):
    pass


def opcheck(op, args, kwargs=None, *, test_utils=_DEFAULT_TESTS, raise_exception=True,
            atol=None, rtol=None):
    """Check that `op` is registered consistently, by calling it on `args`:

    - test_schema: arguments not declared as written into are left unchanged;
    - test_autograd_registration: a custom_op's gradients go through its generated Function
      (always so here); a Library operator with only device kernels cannot be differentiated;
    - test_faketensor: the fake function, called on the same arguments, returns outputs of
      the same shapes, dtypes and devices;
    - test_aot_dispatch_*: ember traces nothing ahead of time: the operator, called again
      (and differentiated, when an input requires grad), gives the same results.

    Returns {test: "SUCCESS"}; a failure raises OpCheckError (or, with
    raise_exception=False, is returned in the dict)."""
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    if not set(test_utils).issubset(_TESTS):
        raise ValueError(f"opcheck(op, ..., test_utils={test_utils}), expected test_utils to be "
                         f"subset of {_TESTS} but it was not")
    kwargs = kwargs or {}
    entry = _entry(op)
    results = {}
    for name in test_utils:
        try:
            _CHECKS[name](op, entry, args, kwargs)
            results[name] = "SUCCESS"
        except Exception as exc:       # noqa: BLE001 - reported as the test's failure
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {name} failed with {exc} (scroll up for "
                                   f"stack trace)") from exc
            results[name] = exc
    return results


def _cloned(values):
    from ._tensor import Tensor
    out = []
    for v in values:
        if isinstance(v, Tensor):
            v = v.detach().clone().requires_grad_(v.requires_grad)
        elif isinstance(v, (list, tuple)):
            v = type(v)(_cloned(v))
        out.append(v)
    return out


def _call(entry, args, kwargs):
    return entry.call(tuple(args), kwargs)


def _test_schema(op, entry, args, kwargs):
    from ._tensor import Tensor
    before = _cloned(args)
    work = _cloned(args)
    _call(entry, work, kwargs)
    mutable = {a.name for a in entry.schema.arguments if a.mutable}
    for a, old, new in zip(entry.schema.arguments, before, work):
        if isinstance(old, Tensor) and a.name not in mutable and not _same(old, new):
            raise RuntimeError(f"Argument {a.name} is not defined as mutable but was mutated")


def _same(a, b):
    if a.shape != b.shape:
        return False
    a, b = a.detach(), b.detach()
    equal = a == b
    if a.is_floating_point():
        equal = equal | (a.isnan() & b.isnan())
    return bool(equal.all())


def _test_autograd_registration(op, entry, args, kwargs):
    from ._tensor import Tensor
    if entry.custom or entry.autograd_kernel is not None:
        return
    if any(isinstance(a, Tensor) and a.requires_grad for a in args):
        raise RuntimeError(f"{entry.namespace}.{entry.name}.default: at least one input "
                           f"requires grad but the operator has no autograd registration "
                           f"(use register_autograd, or a CompositeImplicitAutograd kernel)")


def _test_faketensor(op, entry, args, kwargs):
    from ._tensor import Tensor
    if entry.fake is None:
        name = repr(op) if isinstance(op, CustomOpDef) else entry.qualname
        raise RuntimeError(f"There was no fake impl registered for {name}. This is necessary "
                           f"for torch.compile/export/fx tracing to work. Please use "
                           f"`{entry.name}.register_fake` to add an fake impl.")
    real = _call(entry, _cloned(args), kwargs)
    fake = entry.fake(*_cloned(args), **kwargs)
    reals = real if isinstance(real, (tuple, list)) else (real,)
    fakes = fake if isinstance(fake, (tuple, list)) else (fake,)
    for f, r in zip(fakes, reals):
        if not isinstance(r, Tensor):
            continue
        for what, a, b in (("Shapes", f.shape, r.shape), ("Dtypes", f.dtype, r.dtype),
                           ("Devices", f.device, r.device)):
            if a != b:
                raise RuntimeError(f"When comparing the output of {entry.namespace}."
                                   f"{entry.name}.default on FakeTensor and concrete Tensors, "
                                   f"found mismatched tensor metadata: {what} {b} and {a} are "
                                   f"not equal!")


def _test_aot_dispatch(op, entry, args, kwargs):
    from ._tensor import Tensor
    from .autograd import grad
    if entry.fake is None:      # tracing needs it
        _test_faketensor(op, entry, args, kwargs)
    first = _call(entry, _cloned(args), kwargs)
    inputs = _cloned(args)
    again = _call(entry, inputs, kwargs)
    firsts = first if isinstance(first, (tuple, list)) else (first,)
    agains = again if isinstance(again, (tuple, list)) else (again,)
    for a, b in zip(firsts, agains):
        if isinstance(a, Tensor) and not _same(a, b):
            raise RuntimeError("the operator's outputs differ between two calls")
    leaves = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    outs = [o for o in agains if isinstance(o, Tensor) and o.requires_grad]
    if leaves and outs:
        grad(outs, leaves, [o.detach().clone().fill_(1) for o in outs], allow_unused=True)


_CHECKS = {"test_schema": _test_schema, "test_autograd_registration": _test_autograd_registration,
           "test_faketensor": _test_faketensor, "test_aot_dispatch_static": _test_aot_dispatch,
           "test_aot_dispatch_dynamic": _test_aot_dispatch}
