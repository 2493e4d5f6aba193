"""ember.autograd: reverse-mode automatic differentiation, as torch.autograd.

`backward` accumulates gradients into leaves' `.grad`; `grad` returns them instead.
The graph itself is in `graph.py`, the traversal in `_engine.py`, grad mode in `grad_mode.py`.
"""
import numpy as np

from .._device import backend_of
from . import graph
from ._engine import run_backward
from .grad_mode import enable_grad, enforce_grad_layout_policy, inference_mode, \
    is_grad_enabled, is_inference_mode_enabled, no_grad, set_grad_enabled
from .graph import gradient_edge
from . import function
from .function import Function, once_differentiable
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from . import forward_ad, functional, profiler
from .explain import explain
from .variable import Variable
from .. import _warn

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "graph", "Function", "once_differentiable", "detect_anomaly",
           "set_detect_anomaly", "gradcheck", "gradgradcheck", "GradcheckError", "functional",
           "explain", "Variable", "forward_ad", "enforce_grad_layout_policy"]


_Tensor = None


def _tensor_class():
    # NOTE: `_tensor.py` imports this package, so the class is looked up on first use.
    global _Tensor
    if _Tensor is None:
        from .._tensor import Tensor
        _Tensor = Tensor
    return _Tensor


def _as_tuple(x):
    """An argument of tensors as a tuple: as torch, anything but a tensor or a GradientEdge
    (or None) is iterated, so a lone number is a TypeError."""
    if x is None:
        return None
    if x.__class__ is graph.GradientEdge or isinstance(x, _tensor_class()):
        return (x,)
    return tuple(x)


_new = object.__new__


def _root_grads(outputs, grad_outputs, create_graph):
    """Check outputs and their gradients, making implicit ones for scalar outputs."""
    Tensor = _tensor_class()
    grads = []
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    # NOTE: torch pairs outputs with gradients as zip() does: extra gradients are ignored, and
    # too few are refused only after the pairs were checked.
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(out, Tensor):
            raise AssertionError("Expected output to be a torch.Tensor")
        if not out._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have "
                               f"a grad_fn")
        if g is None:
            data = out._data
            if data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if data.dtype.kind not in "fV":      # complex outputs need a gradient
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs "
                                   f"but got {out.dtype}")
            if data.__class__ is np.ndarray:    # (ones_like's copy costs more for one element)
                ones = np.ones(data.shape, data.dtype)
            else:
                ones = backend_of(data).xp.ones_like(data)
            g = _new(Tensor)._init(ones)
        else:
            if not isinstance(g, Tensor):
                raise TypeError(f"gradients can be either Tensors or None, but got "
                                f"{type(g).__name__}")
            if g.shape != out.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                                   f"{g.shape} and output[{i}] has a shape of {out.shape}.")
            if g.dtype.is_complex != out.dtype.is_complex:
                raise RuntimeError(f"For complex Tensors, both grad_output and output are "
                                   f"required to have the same dtype. Mismatch in dtype: "
                                   f"grad_output[{i}] has a dtype of {g.dtype} and output[{i}] "
                                   f"has a dtype of {out.dtype}.")
            if g.dtype is not out.dtype:
                g = g.to(out.dtype)
            if not create_graph:
                g = g.detach()
            # NOTE: the caller keeps its tensor; a leaf must copy it before making it .grad.
            from ._engine import _shared
            g = _shared(g)
        grads.append(g)
    if len(grads) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    return tuple(grads)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Accumulate into leaves' `.grad` the gradients of `tensors` (weighted by `grad_tensors`)."""
    tensors = _as_tuple(tensors)
    grad_tensors = grad_tensors if grad_tensors is not None else grad_variables
    grad_tensors = _as_tuple(grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    roots = _root_grads(tensors, grad_tensors, create_graph)
    if inputs is not None:
        inputs = _backward_inputs(inputs)
        grads = _capture(tensors, roots, inputs, retain_graph, create_graph, allow_unused=True,
                         accumulate=False)
        done = set()
        for t, g in zip(inputs, grads):
            if t.__class__ is graph.GradientEdge:       # a leaf's edge: its AccumulateGrad
                t = getattr(t.node, "variable", None)
                if t is None:
                    continue
            if g is None or t._grad_fn is not None or id(t) in done:
                continue            # non-leaves are kept by retain_grad; a leaf given twice
            done.add(id(t))         # gets its gradient once
            old = t.grad_if_set()
            if old is None:
                t._set_grad(g if create_graph else g.detach().clone())
            elif create_graph:
                t._set_grad(old + g)
            else:
                old.add_(g)
        return
    run_backward(tensors, roots, retain_graph, create_graph)


def _backward_inputs(inputs):
    """Check `backward(inputs=...)`; non-leaf inputs retain their grad, as in torch."""
    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _check_inputs(inputs)
    for t in inputs:
        if t.__class__ is graph.GradientEdge:
            continue
        if not t._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if t._grad_fn is not None:
            t.retain_grad()
    return inputs


def _is_checkpoint_valid():
    """False inside a backward that serves `autograd.grad` or `backward(inputs=...)` (the
    gradients go to chosen inputs), where a reentrant checkpoint cannot run its own
    backward; True otherwise."""
    from ._engine import current_task
    task = current_task()
    return task is None or task.captured is None


def _check_inputs(inputs):
    Tensor = _tensor_class()
    for t in inputs:
        if not isinstance(t, Tensor) and t.__class__ is not graph.GradientEdge:
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got "
                               f"{type(t).__name__}")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs`, returned (not accumulated)."""
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        _warn.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                   "To accumulate gradient for other parts of the graph, please use "
                   "torch.autograd.backward.", FutureWarning, stacklevel=2)
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads"
                         "=True, but got: allow_unused=False.")
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                             allow_unused, materialize_grads)
    roots = _root_grads(outputs, grad_outputs, create_graph)
    _check_inputs(inputs)
    for t in inputs:
        if t.__class__ is not graph.GradientEdge and not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = _capture(outputs, roots, inputs, retain_graph, create_graph, allow_unused,
                     accumulate=False)
    if materialize_grads:
        from .._creation import zeros_like
        # (with create_graph the zeros require grad, like every other result would)
        grads = [zeros_like(t, requires_grad=create_graph) if g is None else g
                 for t, g in zip(inputs, grads)]
    return tuple(grads)


def _capture(outputs, roots, inputs, retain_graph, create_graph, allow_unused, accumulate):
    capture = {}
    edges = [(t[0], t[1]) if t.__class__ is graph.GradientEdge else gradient_edge(t)
             for t in inputs]
    for edge in edges:
        capture.setdefault(edge, len(capture))     # an input given twice has one slot
    slots = run_backward(outputs, roots, retain_graph, create_graph, capture=capture,
                         accumulate=accumulate)
    result = [slots[capture[edge]] for edge in edges]
    for i, g in enumerate(result):
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been "
                               f"used in the graph. Set allow_unused=True if this is the desired "
                               f"behavior.")
    if not create_graph:
        result = [g if g is None else g.detach() for g in result]
    return result


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """`is_grads_batched=True`: the first dim of each grad_output indexes independent vector-
    Jacobian products; their results are stacked along a new first dim."""
    from .. import stack
    from .._creation import zeros_like
    if grad_outputs is None:
        # torch makes ones for scalar outputs, as without batching, then maps over their dim 0
        # with vmap: a 0-dim one is refused, and any other leaves rows that do not fit
        for i, one in enumerate(_root_grads(outputs, None, create_graph)):
            if one.dim() == 0:
                raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some "
                                 "input, but that input is a Tensor of dimensionality 0 so "
                                 "expected in_dim to satisfy 0 <= in_dim < 0.")
            raise RuntimeError(f"invalid gradient at index {i} - got "
                               f"[{', '.join(map(str, one.shape[1:]))}] but expected shape "
                               f"compatible with [{', '.join(map(str, one.shape))}]")
    _check_batched(outputs, grad_outputs)
    count = grad_outputs[0].shape[0]
    rows = []
    for b in range(count):
        last = b == count - 1
        rows.append(grad(outputs, inputs, tuple(g[b] for g in grad_outputs),
                         retain_graph=retain_graph if last else True,
                         create_graph=create_graph, allow_unused=allow_unused,
                         materialize_grads=materialize_grads))
    result = []
    for i, t in enumerate(inputs):
        col = [r[i] for r in rows]
        if all(g is None for g in col):
            result.append(None)
        else:
            result.append(stack([zeros_like(t) if g is None else g for g in col]))
    return tuple(result)


def _check_batched(outputs, grad_outputs):
    """torch's checks of batched grad_outputs: each is a batch (dim 0) of gradients of its
    output's shape, all batches of one size."""
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:
            continue
        if g.dim() == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        if g.shape[1:] != out.shape:
            # NOTE: torch's text names the grad_output's shape less its first two dims
            raise RuntimeError(
                f"If `is_grads_batched=True`, we interpret the first dimension of each "
                f"grad_output as the batch dimension. The sizes of the remaining dimensions are "
                f"expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{i}] has a shape of {g.shape[2:]} and output[{i}] has "
                f"a shape of {out.shape}. If you only want some tensors in `grad_output` to be "
                f"considered batched, consider using vmap.")
    sizes = [g.shape[0] for g in grad_outputs if g is not None]
    if len(set(sizes)) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
