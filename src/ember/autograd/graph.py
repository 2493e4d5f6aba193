"""The backward graph: `Node` (what `t.grad_fn` is), saved tensors, and `AccumulateGrad`.

A node knows its inputs' nodes (`next_functions`), what it saved for backward, and its hooks.
It knows nothing of traversal order; that is the engine's (`_engine.py`).

NOTE [ Saved tensors and freeing ]
An op saves what its backward needs when it records a node (`_ops/_op.py`, `_save`): the
values are `node._saved`, and `node._saved_info` holds (version, output_nr) for each tensor
among them. A saved *input* is kept as the tensor itself; a saved *output* is kept as a
detached alias, because the output already holds this node as its grad_fn and keeping the
output itself would make a reference cycle (which, with gc disabled, would never be freed).
Unpacking a saved output while grad mode is on (`create_graph=True`) re-attaches this node as
its grad_fn, so double backward sees it. Each
saved tensor remembers its storage's version at save time; unpacking one modified in place
since then raises torch's error. After a backward without `retain_graph`, `release()` drops
every saved value and later unpacking raises torch's "backward through the graph a second
time" error.
"""
import itertools
import weakref

from .grad_mode import _state as _grad_state

_sequence = itertools.count()

FREED_ERROR = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")

_HINT = (" Hint: enable anomaly detection to find the operation that failed to compute its "
         "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")

_FREED = ("<freed>",)


class RemovableHandle:
    """Returned by `register_hook`; `remove()` unregisters the hook."""

    _ids = itertools.count()

    def __init__(self, hooks_dict):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._ids)

    def remove(self):
        hooks = self.hooks_dict_ref()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class _HookDict(dict):
    """A dict of hooks keyed by handle id (a subclass so that handles can weakly refer to it)."""
    __slots__ = ("__weakref__",)


def add_hook(hooks, fn):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


def new_hook_dict():
    return _HookDict()


class Node:
    """A backward function in the graph; `t.grad_fn` is one.

    `next_functions` pairs each differentiable input with the node that produced it (or
    `(None, 0)`); `name()` is torch's name for it, such as `MulBackward0`.
    """

    __slots__ = ("next_functions", "needs_input_grad", "_saved", "_saved_info", "_input_meta",
                 "_seq", "__dict__", "__weakref__")

    # NOTE: rarely used state is a class-level default; a node gets its own value (in its
    # __dict__) only when a hook is registered, which keeps recording a node cheap.
    _pre_hooks = None
    _hooks = None
    _retained = None
    _metadata = None
    num_outputs = 1

    def __init__(self):
        self._seq = next(_sequence)
        self._input_meta = ()
        self._saved = None
        self.needs_input_grad = ()

    def name(self):
        return type(self).__name__

    def _sequence_nr(self):
        return self._seq

    @property
    def metadata(self):
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def register_hook(self, fn):
        """`fn(grad_inputs, grad_outputs)` runs after this node; it may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = new_hook_dict()
        return add_hook(self._hooks, fn)

    def register_prehook(self, fn):
        """`fn(grad_outputs)` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = new_hook_dict()
        return add_hook(self._pre_hooks, fn)

    def __call__(self, *grads):
        return self.apply(grads)

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    # -- what the engine calls -------------------------------------------------------------

    def apply(self, grad_outputs):
        """Gradients for each input (a tuple), given gradients for each output (a tuple)."""
        raise NotImplementedError

    def release(self):
        """Free saved values (after a backward without retain_graph)."""
        if self._saved is not None:
            self._saved = _FREED

    # -- saved tensors ---------------------------------------------------------------------

    def _unpack(self):
        """The saved values, checked against in-place modification since saving."""
        saved = self._saved
        if saved is _FREED:
            raise RuntimeError(FREED_ERROR)
        if saved is None:
            return ()
        out = []
        for value, info in zip(saved, self._saved_info):
            if info is not None:
                version, out_nr = info
                if value._version != version:
                    raise RuntimeError(self._modified_message(value, version, out_nr))
                if out_nr is not None and _grad_state.enabled:
                    value = value._attached_to(self, out_nr)
            out.append(value)
        return tuple(out)

    def _modified_message(self, tensor, expected, out_nr):
        from .._printing import legacy_type_name
        producer, nr = (self, out_nr) if out_nr is not None else (tensor._grad_fn,
                                                                  tensor._output_nr)
        where = ""
        if producer is not None:
            name = producer.name()
            cut = name.find("Backward")
            where = f", which is output {nr} of {name[:cut] if cut > 0 else name},"
        shape = ", ".join(str(s) for s in tensor.shape)
        return (f"one of the variables needed for gradient computation has been modified by "
                f"an inplace operation: [{legacy_type_name(tensor)} [{shape}]]{where} is at "
                f"version {tensor._version}; expected version {expected} instead.{_HINT}")


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: adds each arriving gradient into `leaf.grad`.

    NOTE: the leaf owns its AccumulateGrad (so it is made once, not at every forward pass)
    and the node refers back to the leaf weakly, so the two make no reference cycle. A leaf
    that nobody can reach any more receives no gradient, which nobody could observe.
    """

    __slots__ = ("_variable",)

    def __init__(self, variable):
        super().__init__()
        self._variable = weakref.ref(variable)
        self.next_functions = ()

    @property
    def variable(self):
        """The leaf tensor this node accumulates into."""
        return self._variable()

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad_outputs):
        leaf = self._variable()
        if leaf is None:
            return ()
        grad = grad_outputs[0]
        meta = leaf._meta
        if meta is not None and meta.hooks:
            for hook in tuple(meta.hooks.values()):
                new = hook(grad)
                if new is not None:
                    grad = new
        old = leaf.grad_if_set()
        if old is None:
            # NOTE: the leaf keeps its own dense copy unless this gradient is a fresh tensor
            # that nothing else refers to. The engine hands over shared gradients (passed
            # through a node unchanged, or given by the caller) as views, so views and
            # expanded tensors are the ones copied here.
            if _grad_state.enabled:
                leaf._set_grad(_copy_like(leaf, grad))
            elif grad._base is not None or not grad.is_contiguous():
                leaf._set_grad(grad.detach().clone())
            else:
                leaf._set_grad(grad.detach())
        elif _grad_state.enabled:
            leaf._set_grad(old + grad)
        else:
            # The gradient was fitted to the leaf's shape and dtype by the engine: add it in
            # place directly, without the checks of a user-facing `add_`.
            old._data += grad._data
            old._bump_version()
        if meta is not None and meta.post_accumulate_hooks:
            for hook in tuple(meta.post_accumulate_hooks.values()):
                hook(leaf)
        return ()


def _copy_like(leaf, grad):
    """A copy of `grad` laid out like `leaf` that stays in the graph (create_graph=True)."""
    from .._creation import empty_strided
    out = empty_strided(tuple(leaf._data.shape), leaf.stride(), dtype=leaf.dtype,
                        device=leaf.device)
    return out.copy_(grad)


def accumulator_of(leaf):
    """The leaf's AccumulateGrad (made on first use, then kept by the leaf)."""
    meta = leaf._meta
    if meta is None:
        meta = leaf._autograd_meta()
    acc = meta.accumulator
    if acc is None:
        acc = meta.accumulator = AccumulateGrad(leaf)
    return acc


def gradient_edge(tensor):
    """The (node, output_nr) where gradients for `tensor` go; `(None, 0)` if it needs none."""
    if not tensor._requires_grad:
        return (None, 0)
    node = tensor._grad_fn
    if node is None:
        return (accumulator_of(tensor), 0)
    if tensor._base is not None:
        node = tensor.grad_fn   # a view whose base was changed in place gets a fresh node
    return (node, tensor._output_nr)
