"""`ember.autograd.explain(t)`: why `t.grad` is (or will be) None, in plain sentences.

torch leaves a user to guess why a gradient never arrived; this reads the same state the
engine reads (requires_grad, grad_fn, retain_grad, freed saved tensors, the edges from an
output) and says which rule applies.
"""
from .graph import _FREED

__all__ = ["explain"]


def _node_name(node):
    return node.name() if node is not None else "None"


def _reaches(output, target):
    """Whether backward from `output` reaches the node where `target`'s gradient arrives."""
    from .graph import gradient_edge
    goal = gradient_edge(target)[0]
    start = output.grad_fn
    if goal is None or start is None:
        return False
    seen = set()
    stack = [start]
    while stack:
        node = stack.pop()
        if node is goal:
            return True
        if node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return False


def _freed(start):
    """The first node reachable from `start` whose saved tensors were freed, or None."""
    seen = set()
    stack = [start] if start is not None else []
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node._saved is _FREED:
            return node
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return None


def explain(t, output=None):
    """A few plain sentences on whether backward will fill `t.grad`, and why not.

    With `output`, also whether `output.backward()` can reach `t` at all.

    >>> x = ember.ones(2, requires_grad=True)
    >>> print(ember.autograd.explain(x * 2))
    This tensor is not a leaf (it was made by MulBackward0) and retain_grad() was not called: ...
    """
    from .._tensor import Tensor
    from .grad_mode import is_grad_enabled
    if not isinstance(t, Tensor):
        raise TypeError(f"explain() expects a Tensor, but got {type(t).__name__}")
    lines = []
    if not t.requires_grad:
        if not (t.dtype.is_floating_point or t.dtype.is_complex):
            lines.append(f"This tensor has dtype {t.dtype}: only floating point and complex "
                         f"tensors can require gradients, so its .grad stays None.")
        else:
            lines.append("This tensor does not require grad, so backward never reaches it: it "
                         "is a leaf made without requires_grad=True, or it was computed under "
                         "no_grad() or inference_mode(), or it came from .detach() or .data. "
                         "Call .requires_grad_() on a leaf you want gradients for.")
        if not is_grad_enabled():
            lines.append("Grad mode is off right now (no_grad): ops run here record no graph.")
        return "\n".join(lines)
    node = t._grad_fn
    if node is None:
        if t.grad_if_set() is not None:
            lines.append("This tensor is a leaf that requires grad, and backward has already "
                         "accumulated a gradient into its .grad.")
        else:
            lines.append("This tensor is a leaf that requires grad: backward will accumulate "
                         "into its .grad once an output computed from it is backpropagated.")
    elif t.retains_grad:
        lines.append(f"This tensor is not a leaf (it was made by {_node_name(t.grad_fn)}), but "
                     f"retain_grad() was called, so backward will keep its gradient in .grad.")
    else:
        lines.append(f"This tensor is not a leaf (it was made by {_node_name(t.grad_fn)}) and "
                     f"retain_grad() was not called: backward computes its gradient on the way "
                     f"to the leaves but does not keep it. Call .retain_grad() before backward, "
                     f"or read .grad on the leaves it was computed from.")
        freed = _freed(node)
        if freed is not None:
            lines.append(f"Its graph was already used by a backward without retain_graph=True "
                         f"({freed.name()} freed its saved tensors): a second backward through "
                         f"it raises an error.")
    if output is not None:
        if not isinstance(output, Tensor):
            raise TypeError(f"explain() expects output to be a Tensor, but got "
                            f"{type(output).__name__}")
        if not output.requires_grad:
            lines.append("The output does not require grad, so output.backward() cannot run.")
        elif output is not t and not _reaches(output, t):
            lines.append("The output was not computed from this tensor through recorded ops, "
                         "so output.backward() does not reach it (its .grad stays as it is).")
        else:
            freed = _freed(output.grad_fn)
            if freed is not None and node is None:
                lines.append(f"The output's graph was already used by a backward without "
                             f"retain_graph=True ({freed.name()} freed its saved tensors): "
                             f"calling output.backward() again raises an error.")
    return "\n".join(lines)


