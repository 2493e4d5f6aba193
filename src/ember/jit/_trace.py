"""torch.jit.trace and trace_module: run an example, record its operators (`_recorder`), and
return a ScriptModule / ScriptFunction that replays them; TracerWarning and the checks."""
import contextlib
import sys
import warnings

from .. import _patch_ops
from ._graph import Graph, leaves, map_structure, type_text
from ._modules import ScriptFunction, build_traced
from ._recorder import _Frame, Recorder, input_names
from .. import _warn

__all__ = ["TracerWarning", "TracingCheckError", "trace", "trace_module"]


class TracerWarning(Warning):
    """What `trace` warns of: a value its record cannot follow."""

    @staticmethod
    def ignore_lib_warnings():
        """Hide tracer warnings raised inside the library (users' own code still warns)."""
        warnings.filterwarnings("ignore", category=TracerWarning, module="ember.(?!jit)")


class TracingCheckError(Exception):
    """`check_trace` found that tracing the check inputs recorded other operators."""

    def __init__(self, graph_diff_error, tensor_compare_error, extra_msg=None):
        self.message = "Tracing failed sanity checks!\n"
        if extra_msg is not None:
            self.message += extra_msg + "\n"
        if graph_diff_error is not None:
            self.message += "ERROR: Graphs differed across invocations!\n" + graph_diff_error
        if tensor_compare_error is not None:
            self.message += "ERROR: Traced function outputs do not match the Python function " \
                            "outputs.\n" + tensor_compare_error
        super().__init__(self.message)


def _deprecated(name):
    _warn.warn(f"`torch.jit.{name}` is deprecated. Please switch to `torch.compile` or "
               f"`torch.export`.", DeprecationWarning, stacklevel=4)


# Tensor methods that hand a tensor's data to Python, and torch's words for what they make.
_CONVERSIONS = {"__bool__": "a Python boolean", "item": "a Python number",
                "__int__": "a Python integer", "__float__": "a Python float",
                "tolist": "a Python list", "numpy": "a NumPy array"}


def _warning_method(original, what):
    def method(self, *args, **kwargs):
        caller = sys._getframe(1).f_globals.get("__name__") or ""
        if caller != "ember" and not caller.startswith("ember."):     # (ember's own: silent)
            _warn.warn(f"Converting a tensor to {what} might cause the trace to be "
                       f"incorrect. We can't record the data flow of Python values, so this "
                       f"value will be treated as a constant in the future. This means that "
                       f"the trace might not generalize to other inputs!", TracerWarning,
                       stacklevel=2)
        return original(self, *args, **kwargs)
    return method


class _TracerLayer(_patch_ops.Layer):
    """While `trace` runs its example, the conversions in _CONVERSIONS warn, as torch's tracer
    does: a layer of the patched operators (NOTE [ Patching the public operators ]), so that
    no other call pays for a check; outermost, so that the caller the wrapper looks at is the
    user's code."""
    priority = 100
    depth = 0           # traces running (one inside another's example)

    def wants(self, owner, name, original):
        from .._tensor import Tensor
        return owner is Tensor and name in _CONVERSIONS

    def wrap(self, owner, name, inner):
        return _warning_method(inner, _CONVERSIONS[name])


_tracer_layer = _TracerLayer()


@contextlib.contextmanager
def _warning_on_python_values():
    _tracer_layer.depth += 1
    _patch_ops.activate(_tracer_layer)
    try:
        yield
    finally:
        _tracer_layer.depth -= 1
        if not _tracer_layer.depth:
            _patch_ops.deactivate(_tracer_layer)


def _record(fn, module, args, kwargs, names):
    """Run `fn(*args, **kwargs)` once, recording it: (root Graph, submodules' Graphs, output).
    `module` is the module whose forward `fn` is (None for a function)."""
    _check_inputs_traceable(args, kwargs)
    root = _Frame(module, Graph([]), None)
    for name, value in zip(names, (*args, *kwargs.values())):
        root.add_input(name, value)
    recorder = Recorder(root)
    with _warning_on_python_values(), recorder:
        output = fn(*args, **kwargs)
    root.graph.output = root.recorded(output)
    root.graph.output_type = type_text(output)
    for graph in (root.graph, *recorder.graphs.values()):
        graph.eliminate_dead_code()
    return root.graph, recorder.graphs, output


def _has_dict(value):
    if isinstance(value, dict):
        return True
    return isinstance(value, (list, tuple)) and any(_has_dict(v) for v in value)


def _check_output(output, strict):
    if strict and _has_dict(output):
        raise RuntimeError(
            "Encountering a dict at the output of the tracer might cause the trace to be "
            "incorrect, this is only valid if the container structure does not change based on "
            "the module's inputs. Consider using a constant container instead (e.g. for `list`, "
            "use a `tuple` instead. for `dict`, use a `NamedTuple` instead). If you absolutely "
            "need this and know the side effects, pass strict=False to trace() to allow this "
            "behavior.")


def _arguments(example, is_kwargs):
    """(args, kwargs) from an example: a tensor, a tuple of arguments or a dict of keywords."""
    from .. import Tensor
    if is_kwargs:
        return (), dict(example)
    if isinstance(example, Tensor):
        return (example,), {}
    return tuple(example), {}       # (None: torch's "'NoneType' object is not iterable")


def _check_inputs_traceable(args, kwargs):
    from .. import Tensor
    values = (*args, *kwargs.values())
    for _, leaf in leaves(values):
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"Type '{type_text(tuple(args) if args else kwargs)}' cannot "
                               f"be traced. Only Tensors and (possibly nested) Lists, Dicts, "
                               f"and Tuples of Tensors can be traced")


def _names(fn, args, kwargs):
    """The input names of a trace (positional, then keyword in `fn`'s order) and the keyword
    arguments in that order."""
    names = input_names(fn, len(args))
    if kwargs:
        import inspect
        try:
            order = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            order = []
        ranked = sorted(kwargs, key=lambda k: order.index(k) if k in order else len(order))
        kwargs = {k: kwargs[k] for k in ranked}
    return names + list(kwargs), kwargs


def _check(fn, module, build, graph, graphs, checks, tolerance, names_of):
    """check_trace, as torch's (without grad): for each check input, trace again (warnings
    again), run the trace and the Python function (on copies of the inputs) and compare their
    results; if they match, run the second trace too and compare. A TracingCheckError if the
    second trace recorded other ops. (These are torch's runs, in its order, so that random
    draws and running statistics after `trace` are torch's too.)"""
    from .. import no_grad
    traced = build(graph, graphs)
    warned = []
    for args, kwargs in checks:
        names, kwargs = names_of(args, kwargs)
        with no_grad():
            again, again_graphs, _ = _record(fn, module, args, kwargs, names)
            got = _run(traced, args, kwargs, "trace")
            if _compare(got, _run(fn, args, kwargs, "Python function"), "Python function",
                        tolerance, graph, graphs, warned):
                _compare(got, _run(build(again, again_graphs), args, kwargs, "repeated trace"),
                         "repeated trace", tolerance, graph, graphs, warned)
        pairs = [(graph, again)] + [(graphs[k], again_graphs[k]) for k in graphs
                                    if k in again_graphs]
        for first, second in pairs:
            if first.signature() != second.signature():
                diff = "\tFirst trace:\n\t\t" + "\n\t\t".join(
                    first.code_text().splitlines()) + "\n\tSecond trace:\n\t\t" + \
                    "\n\t\t".join(second.code_text().splitlines()) + "\n"
                raise TracingCheckError(diff, None)


def _run(fn, args, kwargs, what):
    """The tensors `fn` returns for copies of the inputs (TracingCheckError if it raises)."""
    from .. import Tensor

    def copy(value):
        if isinstance(value, Tensor):
            return value.detach().clone().requires_grad_(value.requires_grad)
        return value
    try:
        result = fn(*map_structure(args, copy), **map_structure(kwargs, copy))
    except Exception as e:
        raise TracingCheckError(None, None, extra_msg=f"encountered an exception while running "
                                                      f"the {what} with test inputs.\nException:"
                                                      f"\n\t{e}") from e
    result = result if isinstance(result, tuple) else (result,)
    return [r for r in result if isinstance(r, Tensor)]


# the operators whose results are random (torch's nondeterministic nodes)
_RANDOM = frozenset(("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
                     "feature_alpha_dropout", "rand", "randn", "randint", "rand_like",
                     "randn_like", "randint_like", "randperm", "bernoulli", "multinomial",
                     "normal", "poisson", "rrelu", "bernoulli_", "uniform_", "normal_",
                     "exponential_", "geometric_", "cauchy_", "log_normal_", "random_"))


def _compare(got, expected, what, tolerance, graph, graphs, warned):
    """Whether the results match; a TracerWarning for each that does not (after torch's
    warning on random operators, once)."""
    ok = True
    for i, (a, b) in enumerate(zip(got, expected)):
        if _close(a, b, tolerance):
            continue
        if not warned:
            warned.append(True)
            random = [f"  {node.target.ir_name()}" for g in (graph, *graphs.values())
                      for node in g.nodes if node.target.name in _RANDOM]
            if random:
                _warn.warn("Trace had nondeterministic nodes. Did you forget call .eval() on "
                           "your model? Nodes:\n" + "\n".join(random[:20]) + "\nThis may "
                           "cause errors in trace checking. To disable trace checking, pass "
                           "check_trace=False to torch.jit.trace()", TracerWarning,
                           stacklevel=5)
        _warn.warn(f"Output nr {i + 1}. of the traced function does not match the "
                   f"corresponding output of the {what}. Detailed error:\nTensor-likes are "
                   f"not close!", TracerWarning, stacklevel=5)
        ok = False
    return ok


def _close(a, b, tolerance):
    """torch's check: values within `tolerance` (relative) and the dtype's absolute tolerance."""
    from .. import allclose, cdouble, complex128, float64
    if a.shape != b.shape:
        return False
    atol = 1e-7 if a.dtype in (float64, complex128) else 1e-5 if a.dtype.is_floating_point \
        or a.is_complex() else 0.0
    if a.is_complex() or b.is_complex():
        a, b = a.to(cdouble), b.to(cdouble)
    else:
        a, b = a.double(), b.double()
    return bool(allclose(a.detach(), b.detach(), rtol=tolerance, atol=atol, equal_nan=True))


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None, _store_inputs=True):
    """Run `func` (a function or module) once on `example_inputs` (a tensor or a tuple of
    arguments) and/or `example_kwarg_inputs` (a dict), record the tensor operations it
    performs, and return a ScriptFunction / ScriptModule that replays them for new inputs.
    Python control flow is frozen as the example took it (TracerWarning where a tensor became a
    Python value), as in torch:

        traced = torch.jit.trace(model, torch.randn(1, 3))
        traced(torch.randn(8, 3))
    """
    from ..nn import Module
    _deprecated("trace")
    owner = getattr(func, "__self__", None)
    if isinstance(owner, Module) and getattr(func, "__name__", None) == "forward":
        func = owner                # a module's bound forward: trace the module, as torch does
    if isinstance(func, Module):
        if example_inputs is None and not isinstance(example_kwarg_inputs, dict):
            raise RuntimeError("example_kwarg_inputs should be a dict")
        if example_kwarg_inputs is not None:
            return trace_module(func, {"forward": example_kwarg_inputs}, None, check_trace,
                                _wrap_checks(check_inputs), check_tolerance, strict,
                                example_inputs_is_kwarg=True)
        return trace_module(func, {"forward": example_inputs}, None, check_trace,
                            _wrap_checks(check_inputs), check_tolerance, strict)
    if example_kwarg_inputs is not None:
        args, kwargs = tuple(example_inputs or ()), dict(example_kwarg_inputs)
    else:
        args, kwargs = _arguments(example_inputs, False)

    def names_of(a, k):
        return _names(func, a, k)
    names, kwargs = names_of(args, kwargs)
    graph, graphs, output = _record(func, None, args, kwargs, names)
    _check_output(output, strict)
    name = getattr(func, "__name__", "forward").replace("<lambda>", "_lambda")

    def build(graph, graphs):
        return ScriptFunction(graph, name, getattr(func, "__qualname__", name))
    if check_trace:
        checks = [(args, kwargs)] if check_inputs is None else \
            [_arguments(c, False) for c in check_inputs]
        _deprecated("trace")
        _check(func, None, build, graph, graphs, checks, check_tolerance, names_of)
    return build(graph, graphs)


def _wrap_checks(check_inputs):
    return None if check_inputs is None else [{"forward": c} for c in check_inputs]


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None,
                 check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
                 _compilation_unit=None, example_inputs_is_kwarg=False, _store_inputs=True):
    """Trace the methods of module `mod` named in dict `inputs` on their examples (a tensor, a
    tuple of arguments, or with `example_inputs_is_kwarg` a dict of keyword arguments) and
    return a ScriptModule whose forward replays the recorded `forward`. Methods other than
    forward are run (torch compiles them too; ember records only forward)."""
    from ..nn import Module
    _deprecated("trace_method")
    if not isinstance(mod, Module):
        raise AttributeError("expected torch.nn.Module as the first argument")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    graph, graphs, methods = None, None, {}
    for method_name, example in inputs.items():
        method = mod.forward if method_name == "forward" else getattr(mod, method_name)
        args, kwargs = _arguments(example, example_inputs_is_kwarg)

        def names_of(a, k, method=method):
            return _names(method, a, k)
        names, kwargs = names_of(args, kwargs)
        call = mod if method_name == "forward" else method
        recorded, recorded_graphs, output = _record(call, mod, args, kwargs, names)
        _check_output(output, strict)
        if method_name != "forward":
            methods[method_name] = recorded
            continue
        graph, graphs = recorded, recorded_graphs
        if check_trace:
            checks = [(args, kwargs)] if check_inputs is None else \
                [_arguments(c["forward"], example_inputs_is_kwarg) for c in check_inputs]
            _deprecated("trace_method")
            _check(call, mod, lambda g, gs: build_traced(mod, gs, g), graph, graphs, checks,
                   check_tolerance, names_of)
    traced = build_traced(mod, graphs or {}, graph)
    traced._ember_methods.update(methods)
    return traced
