"""The backward engine: runs graph nodes in dependency order and routes gradients.

It knows no ops. It owns traversal, summing gradients that meet at a node, hooks,
`retain_grad`, capturing gradients for `autograd.grad`, freeing saved tensors, and the one
place where gradients are fitted to their input (summed over broadcast dims, cast to its dtype).

NOTE [ Backward order ]
A node runs once every node that feeds it a gradient has run (its dependency count, counted
over the graph reachable from the roots, drops to zero). Among ready nodes the one created last
runs first (highest sequence number), as in torch, so hooks fire in torch's order.
AccumulateGrad nodes run as soon as they are ready. A node that becomes ready while no other
waits runs next without passing through the heap (the heap would return it first anyway).
"""
import heapq

from .. import _dtype
from .._memory_format import contiguous_format

from .graph import AccumulateGrad, _Extras, checked_hook_grad, checked_hook_grads, gradient_edge
from .grad_mode import _state as _grad_state

_ACCUMULATE_PRIORITY = float("inf")


def _priority(node):
    return _ACCUMULATE_PRIORITY if node.__class__ is AccumulateGrad else node._seq


def _dependencies(roots):
    """How many graph edges lead into each node reachable from `roots`."""
    deps = dict.fromkeys(roots, 0)
    stack = list(deps)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            count = deps.get(nxt)
            if count is None:           # first visit
                deps[nxt] = 1
                stack.append(nxt)
            else:
                deps[nxt] = count + 1
    return deps


def _needed(roots, targets):
    """Nodes that must run for gradients to reach the targets: those with a target (or a node
    that must run) among their inputs. A target's own node need not run: the gradient is
    captured on its way in."""
    reaches = {}
    stack = [(n, False) for n in roots]
    while stack:
        node, children_done = stack.pop()
        if node in reaches:
            continue
        if children_done:
            reaches[node] = any(n in targets or reaches.get(n, False)
                                for n, _ in node.next_functions if n is not None)
            continue
        stack.append((node, True))
        stack.extend((n, False) for n, _ in node.next_functions
                     if n is not None and n not in reaches)
    return {n for n, r in reaches.items() if r}


def _shared(grad):
    """Mark a gradient that now has several owners, so a leaf copies it before keeping it.

    A gradient that is part of a graph (create_graph=True) stays as it is: the view would cut
    it out of the graph, and a leaf copies such gradients anyway.
    """
    return grad if grad._requires_grad else grad._shared_view()


def fit_gradient(node, index, grad, meta):
    """Sum `grad` over the dims its input was broadcast along and cast it to the input's dtype.

    This is the one place gradients are un-broadcast.
    """
    shape, dtype = meta
    if grad._data.shape != shape:
        grad = _sum_to(node, index, grad, shape)
    if grad._data.dtype != dtype:
        if grad._data.dtype.kind == "c" and dtype.kind != "c":
            grad = grad.real
        grad = grad.to(_dtype._FROM_NUMPY[dtype])
    return grad


def _sum_to(node, index, grad, shape):
    gshape = tuple(grad._data.shape)
    lead = len(gshape) - len(shape)
    ok = lead >= 0 and all(s == g or s == 1 for s, g in zip(shape, gshape[lead:]))
    if not ok:
        raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index "
                           f"{index} - got [{', '.join(map(str, gshape))}] but expected shape "
                           f"compatible with [{', '.join(map(str, shape))}]")
    if not shape:           # as torch's sum_to: a 0-dim input's gradient is the whole sum
        return grad.sum()
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if s == 1 and gshape[lead + i] != 1)
    if dims:
        grad = grad.sum(dims, keepdim=True)
    if lead:
        grad = grad.reshape(shape)
    return grad


def run_backward(roots, root_grads, retain_graph, create_graph, capture=None,
                 accumulate=True):
    """Backpropagate `root_grads` from the tensors `roots` through the graph.

    `capture` maps (node, output_nr) -> slot index: the gradient arriving there is recorded
    (for `autograd.grad`) instead of, for leaves, being accumulated into `.grad`.
    Returns the captured gradients (a list indexed by slot).
    """
    buffers = {}
    root_nodes = []
    for tensor, grad in zip(roots, root_grads):
        node, nr = gradient_edge(tensor)
        _add_to_buffer(buffers, node, nr, grad)
        root_nodes.append(node)
    deps = _dependencies(root_nodes)
    captured = [None] * (len(capture) if capture else 0)
    capture_nodes = {n for n, _ in capture} if capture else None
    needed = _needed(root_nodes, capture_nodes) if capture is not None and not accumulate \
        else None

    task = _Task(deps, needed, capture_nodes)
    _running.append(task)
    ready = []
    for node in dict.fromkeys(root_nodes):
        if deps[node] == 0:
            heapq.heappush(ready, (-_priority(node), id(node), node))

    prev_mode = _grad_state.enabled
    _grad_state.enabled = create_graph
    plain = capture is None and accumulate and not _Extras.observe
    try:
        following = None    # a node that became ready while no other was: run next, unheaped
        while True:
            if following is not None:
                node, following = following, None
            elif ready:
                node = heapq.heappop(ready)[2]
            else:
                break
            grads = buffers.pop(node, None)
            if grads is None:
                grads = [None] * node.num_outputs
            if plain and not (node._pre_hooks or node._retained or node._hooks) \
                    and len(grads) == 1 and grads[0] is not None:
                # the common node: one gradient in, no hooks, nothing to capture
                grad = grads[0]
                inputs = node.apply((grad,))
                if not retain_graph:
                    node.release()
                if len(inputs) != 1:
                    inputs = _mark_shared(inputs, grads)
                elif inputs[0] is grad:         # passed through unchanged
                    inputs = (_shared(grad),)
            else:
                inputs = _run_node(node, grads, retain_graph, capture, captured, needed,
                                   accumulate)
            metas = node._input_meta
            count = len(inputs)
            for i, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                grad = inputs[i] if i < count else None
                if grad is not None:
                    meta = metas[i] if metas is not None else None
                    if meta is not None:
                        data = grad._data
                        if data.shape != meta[0] or (data.dtype is not meta[1] and
                                                     data.dtype != meta[1]):
                            grad = fit_gradient(node, i, grad, meta)
                    slots = buffers.get(nxt)
                    if slots is None:
                        slots = buffers[nxt] = [None] * nxt.num_outputs
                    old = slots[nr]
                    slots[nr] = grad if old is None else old + grad
                remaining = deps[nxt] - 1
                deps[nxt] = remaining
                if remaining == 0:
                    if nxt.__class__ is AccumulateGrad:
                        if plain and grad is not None and not (
                                nxt._pre_hooks or nxt._retained or nxt._hooks):
                            # a ready leaf would be popped next (it has the top priority):
                            # accumulate now, without the round trip through heap and buffer
                            nxt.apply(buffers.pop(nxt))
                            continue
                        priority = _ACCUMULATE_PRIORITY
                    else:
                        priority = nxt._seq
                    # (the heap would hand back a lone ready node at once: it skips the heap)
                    if following is None and not ready:
                        following = nxt
                        continue
                    if following is not None:
                        heapq.heappush(ready, (-_priority(following), id(following), following))
                        following = None
                    heapq.heappush(ready, (-priority, id(nxt), nxt))
    finally:
        _grad_state.enabled = prev_mode
        _running.pop()
    return captured


class _Task:
    """One running backward: which nodes it will run (for register_multi_grad_hook)."""
    __slots__ = ("deps", "needed", "captured", "__weakref__")

    def __init__(self, deps, needed, captured):
        self.deps, self.needed, self.captured = deps, needed, captured

    def will_run(self, node):
        """Whether gradients reach `node` in this backward (as torch's
        _will_engine_execute_node answers for a tensor's node)."""
        return node in self.deps and (self.needed is None or node in self.needed
                                      or (self.captured is not None and node in self.captured))


_running = []       # the backward calls in progress, innermost last


def current_task():
    """The innermost backward in progress (None outside backward)."""
    return _running[-1] if _running else None


def _add_to_buffer(buffers, node, nr, grad):
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node.num_outputs
    old = slots[nr]
    slots[nr] = grad if old is None else old + grad


def _run_node(node, grads, retain_graph, capture, captured, needed, accumulate):
    """Run one node: hooks, retained grads, captures, then its backward. Returns input grads."""
    if node._pre_hooks or node._retained or capture:
        grads = _before_node(node, grads, capture, captured)
    if needed is not None and node not in needed:
        return ()
    if node.__class__ is AccumulateGrad and (not accumulate or (
            capture and (node, 0) in capture)):
        return ()
    if len(grads) == 1:
        if grads[0] is None:
            return _skip(node, retain_graph)
    elif all(g is None for g in grads):
        return _skip(node, retain_graph)
    else:
        grads = _materialize(node, grads)
    if _Extras.observe:
        outputs = _apply_observed(node, grads)
    else:
        outputs = node.apply(tuple(grads))
    if node._hooks:
        for hook in tuple(node._hooks.values()):
            new = hook(outputs, tuple(grads))
            if new is not None:
                outputs = checked_hook_grads(hook, new, outputs)
    if not retain_graph:
        node.release()
    return _mark_shared(outputs, grads)


def _apply_observed(node, grads):
    """Run `node` under the profiler's clock and anomaly mode's checks, whichever are on."""
    if _Extras.profiling:
        from ..profiler.profiler import time_node
        outputs = time_node(node, grads, lambda: _apply_checked(node, grads))
    else:
        outputs = _apply_checked(node, grads)
    return outputs


def _apply_checked(node, grads):
    """Anomaly mode: on an error or a NaN gradient, show where `node` was made in forward."""
    if not _Extras.anomaly:
        return node.apply(tuple(grads))
    from .anomaly_mode import check_outputs, report_forward
    try:
        outputs = node.apply(tuple(grads))
    except Exception:
        report_forward(node)
        raise
    check_outputs(node, outputs)
    return outputs


def _skip(node, retain_graph):
    """A node that received no gradient at all passes none on (and still frees its saves)."""
    if not retain_graph:
        node.release()
    return ()


def _run_pre_hook(hook, grads):
    new = hook(tuple(grads))
    return grads if new is None else list(checked_hook_grads(hook, new, tuple(grads)))


def _before_node(node, grads, capture, captured):
    """Tensor hooks, retain_grad, node pre-hooks (in torch's order, whatever the order they
    were registered in), and captures for `autograd.grad`."""
    hooks = tuple(node._pre_hooks.values()) if node._pre_hooks else ()
    for hook in hooks:
        if hasattr(hook, "tensor_hook"):        # a non-leaf's Tensor.register_hook
            grads = _run_pre_hook(hook, grads)
    if node._retained:
        _retain(node, grads)
    for hook in hooks:
        if not hasattr(hook, "tensor_hook"):
            grads = _run_pre_hook(hook, grads)
    if capture:
        for nr in range(len(grads)):
            slot = capture.get((node, nr))
            if slot is not None:
                g = grads[nr]
                if g is not None and node.__class__ is AccumulateGrad:
                    g = _leaf_hooks(node.variable, g)
                captured[slot] = g
    return grads


def _leaf_hooks(leaf, grad):
    meta = leaf._meta
    if meta is not None and meta.hooks:
        for hook in tuple(meta.hooks.values()):
            new = hook(grad)
            if new is not None:
                grad = checked_hook_grad(hook, grad, new)
    return grad


def _materialize(node, grads):
    """Zeros for the outputs of a multi-output node that received no gradient."""
    from .._creation import zeros
    metas = getattr(node, "_output_meta", None)
    if metas is None:
        return grads
    out = list(grads)
    for i, g in enumerate(out):
        if g is None:
            shape, dtype, device = metas[i]
            out[i] = zeros(shape, dtype=_dtype._FROM_NUMPY[dtype], device=device)
    return out


def _mark_shared(outputs, grads):
    """Gradients passed through unchanged or sent to several inputs become shared views."""
    if len(outputs) == 1:
        g = outputs[0]
        return outputs if g is None or g is not grads[0] else (_shared(g),)
    result = None
    for i, g in enumerate(outputs):
        if g is None:
            continue
        shared = False
        for other in grads:
            if g is other:
                shared = True
                break
        else:
            for j in range(i):
                if outputs[j] is g:
                    shared = True
                    break
        if shared:
            if result is None:
                result = list(outputs)
            result[i] = _shared(g)
    return outputs if result is None else result


def _retain(node, grads):
    for nr, ref in node._retained.items():
        tensor = ref()
        g = grads[nr] if nr < len(grads) else None
        if tensor is None or g is None:
            continue
        # torch's retain_grad hook: a contiguous copy first, then `grad + g` (never in place),
        # both recorded under create_graph (CloneBackward0, AddBackward0)
        meta = tensor._autograd_meta()
        if meta.grad is None:
            meta.grad = g.clone(memory_format=contiguous_format)
        else:
            meta.grad = meta.grad + g
