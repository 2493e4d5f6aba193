"""Saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks, save_on_cpu,
allow_mutation_on_saved_tensors, and `grad_fn._raw_saved_<name>.register_hooks`): a node's
saved tensors go through a pack hook when recorded and an unpack hook when backward reads them.
Exported from autograd.graph, as in torch."""
import contextlib
import threading

from .graph import _FREED, _Extras, gradient_edge


class _HookStack(threading.local):
    def __init__(self):
        self.stack = []
        self.disabled = None


_hook_stack = _HookStack()


class _Packed:
    """A saved tensor as its pack hook returned it, with the hook that unpacks it."""
    __slots__ = ("packed", "unpack_hook", "edge", "output")

    def __init__(self, packed, unpack_hook, edge, output=False):
        self.packed = packed
        self.unpack_hook = unpack_hook
        self.edge = edge        # where the original's gradient went (None: it needed none)
        self.output = output    # the hook kept the node's output itself (held detached here)

    def unpack(self, node=None, output_nr=None):
        from .._tensor import Tensor
        packed = self.packed._attached_to(node, output_nr) if self.output else self.packed
        value = self.unpack_hook(packed)
        if not isinstance(value, Tensor):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but "
                            f"got result of type {type(value).__name__}")
        return value


def pack_order(node):
    """The order in which torch packs (and unpacks) a node's saved tensors: its inputs by
    name, alphabetically (mul saves `other`, then `self`), then its outputs."""
    order = getattr(type(node), "_pack_order", None)
    return range(len(node._saved)) if order is None else order


def pack_saved(node):
    """Run the innermost pack hook on each tensor `node` saved (see `saved_tensors_hooks`)."""
    stack = _hook_stack.stack
    if not stack or node._saved is None:
        return
    pack_hook, unpack_hook = stack[-1]
    stored = list(node._saved)
    for i in pack_order(node):
        if node._saved_info[i] is not None:
            stored[i] = _packed(node, i, pack_hook, unpack_hook)
    node._saved = tuple(stored)


def _packed(node, k, pack_hook, unpack_hook):
    """Saved value `k` of `node` as `pack_hook` keeps it. The hook sees a saved output as the
    output (with this node as its grad_fn); kept as such, it is kept detached (no cycle)."""
    original = node._saved[k]
    out_nr = node._saved_info[k][1]
    if out_nr is not None:
        output = original._attached_to(node, out_nr)
        kept = pack_hook(output)
        if kept is output:
            return _Packed(original, unpack_hook, None, output=True)
        return _Packed(kept, unpack_hook, None)
    edge = gradient_edge(original) if original._requires_grad else None
    return _Packed(pack_hook(original), unpack_hook, edge)


class SavedTensor:
    """`grad_fn._raw_saved_<name>`: one tensor a node saved, on which a pair of hooks can be
    set; `pack_hook` runs now, `unpack_hook` when backward (or `_saved_<name>`) reads it."""
    __slots__ = ("_node", "_index")

    def __init__(self, node, index):
        self._node = node
        self._index = index

    def register_hooks(self, pack_hook, unpack_hook):
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise TypeError("register_hooks(): incompatible function arguments. The following "
                            "argument types are supported:")
        node, k = self._node, self._index
        saved = node._saved
        if saved is _FREED:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through "
                "the graph a second time or if you need to access saved variables after "
                "calling backward.")
        if saved is None or node._saved_info[k] is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        if saved[k].__class__ is _Packed:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have "
                               "already been set. Hint: only one pair of hooks is allowed at "
                               "a time.")
        stored = list(saved)
        stored[k] = _packed(node, k, pack_hook, unpack_hook)
        node._saved = tuple(stored)


class saved_tensors_hooks:
    """Context manager: every tensor saved for backward inside goes through
    `pack_hook(tensor)` when saved and `unpack_hook(packed)` when backward needs it.

    >>> with ember.autograd.graph.saved_tensors_hooks(lambda t: t.numpy(), ember.from_numpy):
    ...     y = x.exp()          # y's node keeps a NumPy array, made back into a tensor later
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hook_stack.disabled is not None:
            raise RuntimeError(_hook_stack.disabled)
        _hook_stack.stack.append((self.pack_hook, self.unpack_hook))
        _Extras.hook_users += 1
        _Extras.update()
        return self

    def __exit__(self, *exc):
        _hook_stack.stack.pop()
        _Extras.hook_users -= 1
        _Extras.update()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept on the CPU and moved back to their device for backward."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack(tensor):
            return (tensor.device, tensor.detach().to("cpu", copy=tensor.device.type != "cpu"))

        def unpack(packed):
            device, tensor = packed
            return tensor.to(device)
        super().__init__(pack, unpack)


class _AllowMutationOnSavedContext:
    """What `allow_mutation_on_saved_tensors` gives: whether its block is still running."""

    def __init__(self):
        self.running = True


_mutable_saves = [None]     # the allow_mutation_on_saved_tensors block running, if any


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager: a tensor saved for backward inside may be modified in place before
    backward, which sees it as it was when saved. Backward must run inside the block.

    NOTE: each saved tensor is kept as a copy (torch copies one only when it is modified);
    the gradients are the same.
    """
    if _mutable_saves[0] is not None:
        raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
    ctx = _mutable_saves[0] = _AllowMutationOnSavedContext()

    def pack(tensor):
        return ctx, tensor.detach().clone()

    def unpack(packed):
        block, tensor = packed
        if not block.running:
            raise AssertionError("Trying to backward outside of the "
                                 "'allow_mutation_on_saved_tensors' contextin which the graph "
                                 "was originally recorded.")
        return tensor
    try:
        with saved_tensors_hooks(pack, unpack):
            yield ctx
    finally:
        ctx.running = False
        _mutable_saves[0] = None


class disable_saved_tensors_hooks:
    """Context manager: using `saved_tensors_hooks` inside raises `RuntimeError(error_message)`,
    and so does entering it while such hooks are in use."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if _hook_stack.stack:
            raise RuntimeError(self.error_message)
        self._prev = _hook_stack.disabled
        _hook_stack.disabled = self.error_message

    def __exit__(self, *exc):
        _hook_stack.disabled = self._prev


for _cls in (SavedTensor, saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks):
    _cls.__module__ = "ember.autograd.graph"        # where they are public, as in torch
