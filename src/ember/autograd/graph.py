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
import collections
import itertools
import os
import re
import threading
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
    """Returned by `register_hook`; `remove()` unregisters the hook. `extra_dict` (a dict or
    set, or a list of them) holds more entries keyed by the handle's id that go with it, such
    as a module's record of which forward hooks take kwargs."""

    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        extras = [] if extra_dict is None else \
            extra_dict if isinstance(extra_dict, list) else [extra_dict]
        self.extra_dict_ref = tuple(_ref(d) for d in extras)

    def remove(self):
        hooks = self.hooks_dict_ref()
        if hooks is not None:
            hooks.pop(self.id, None)
        for ref in self.extra_dict_ref:
            extra = ref()
            if isinstance(extra, dict):
                extra.pop(self.id, None)
            elif extra is not None:
                extra.discard(self.id)

    # NOTE: a weak reference cannot be pickled or deep-copied: the handle travels with the
    # hook dict itself, so that a copied module's handle removes the copy's hook, as in torch.
    def __getstate__(self):
        if self.extra_dict_ref:
            return (self.hooks_dict_ref(), self.id, tuple(r() for r in self.extra_dict_ref))
        return (self.hooks_dict_ref(), self.id)

    def __setstate__(self, state):
        hooks, self.id = state[0], state[1]
        self.hooks_dict_ref = weakref.ref(hooks if hooks is not None else _HookDict())
        self.extra_dict_ref = tuple(_ref(d) for d in state[2] if d is not None) \
            if len(state) > 2 else ()
        # ids made in this process from now on must not collide with the loaded one
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _ref(obj):
    """A weak reference to `obj`, or a strong one where it takes none (a plain dict)."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


class _HookDict(dict):
    """A dict of hooks keyed by handle id (a subclass so that handles can weakly refer to it)."""
    __slots__ = ("__weakref__",)


def add_hook(hooks, fn):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


def new_hook_dict():
    """A module's, tensor's or optimizer's own hooks: an OrderedDict, as torch's (it prints as
    one), which handles can weakly refer to."""
    return collections.OrderedDict()


def hook_name(hook):
    """The name torch gives a hook in its errors: its __name__, or '<unknown>'."""
    return getattr(hook, "__name__", "<unknown>")


MULTI_OUTPUT_VIEW = (
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one.")
CUSTOM_FUNCTION_VIEW = (
    "This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function.")


def checked_hook_grad(hook, original, new):
    """A gradient a hook returned in place of `original`, refused as torch does when it is not
    a tensor, replaces a missing gradient, or changes the dtype, device or size."""
    from .._tensor import Tensor
    if original is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(new, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    if new.dtype != original.dtype or new.device != original.device:
        from .._printing import cpp_type_name
        raise RuntimeError(f"hook '{hook_name(hook)}' has changed the type of value (was "
                           f"{cpp_type_name(original)} got {cpp_type_name(new)})")
    if new.shape != original.shape:
        raise RuntimeError(f"hook '{hook_name(hook)}' has changed the size of value")
    return new


def checked_hook_grads(hook, new, originals):
    """A node hook's replacement gradients: a tuple as long as `originals`, each checked by
    `checked_hook_grad` (None keeps a slot as it was)."""
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != len(originals):
        raise RuntimeError(f"hook '{hook_name(hook)}' has returned an incorrect number of "
                           f"values (got {len(new)}, but expected {len(originals)})")
    return tuple(old if g is None else checked_hook_grad(hook, old, g)
                 for old, g in zip(originals, new))


# Nodes whose name() is their C++ class's full name (type(node).__name__ stays the short one)
_CPP_NAMES = {"NotImplemented": "torch::autograd::NotImplemented"}


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
    # Why views this node made may not be written in place (MULTI_OUTPUT_VIEW or
    # CUSTOM_FUNCTION_VIEW: torch's reason, ending its error), or None where they may.
    _view_ban = None
    num_outputs = 1

    def __init__(self):
        self._seq = next(_sequence)
        self._input_meta = ()
        self._saved = None
        self.needs_input_grad = ()

    def name(self):
        name = type(self).__name__
        return _CPP_NAMES.get(name, name)

    def _sequence_nr(self):
        return self._seq

    def __dir__(self):
        # (none of the attributes the saved values are kept in: a node lists torch's
        # `_saved_<name>` values only, see `Op.__dir__`)
        return sorted(n for n in object.__dir__(self) if not n.startswith("_saved"))

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
        # Calling a node by hand (not the engine's path): torch checks the gradients given and
        # returns a node of one input its single gradient, unwrapped.
        if len(grads) != self.num_outputs:
            raise TypeError(f"expected {self.num_outputs} arguments, got {len(grads)} instead")
        from .._tensor import Tensor
        from ._engine import _materialize
        for i, g in enumerate(grads):
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(f"argument {i} is not a Variable")
        if all(g is None for g in grads):       # nothing to pass on, as the engine skips it
            result = (None,) * len(self.next_functions)
        else:
            result = self.apply(tuple(_materialize(self, grads)))   # zeros for missing ones
        return result[0] if len(result) == 1 else result

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    # -- what the engine calls -------------------------------------------------------------

    def apply(self, grad_outputs):
        """Gradients for each input (a tuple), given gradients for each output (a tuple)."""
        raise NotImplementedError

    def release(self):
        """Free saved values (after a backward without retain_graph), and stop watching their
        storages for in-place writes (NOTE [ Where in-place writes happened ])."""
        saved = self._saved
        if saved is not None and saved is not _FREED:
            for value, info in zip(saved, self._saved_info):
                if info is not None and value.__class__ is not _Packed:
                    storage = value._storage
                    if storage is not None and storage.watch is True:
                        storage.watch = None
            self._saved = _FREED

    # -- saved tensors ---------------------------------------------------------------------

    def _unpack(self):
        """The saved values, checked against in-place modification since saving."""
        saved = self._saved
        if saved is _FREED:
            raise RuntimeError(FREED_ERROR)
        if saved is None:
            return ()
        if not _grad_state.enabled:
            # a backward without create_graph: nothing to re-attach, so the saved tuple itself
            # where no value was packed by a hook or written in place since (else below)
            for value, info in zip(saved, self._saved_info):
                if info is not None and (value.__class__ is _Packed or
                                         value._version != info[0]):
                    break
            else:
                return saved
        out = []
        packed = None
        for value, info in zip(saved, self._saved_info):
            if info is not None:
                version, out_nr = info
                if value.__class__ is _Packed:
                    packed = True           # unpacked below, in the order they were packed
                elif value._version != version:
                    raise self._first_modified_error()
                elif out_nr is not None and _grad_state.enabled:
                    value = value._attached_to(self, out_nr)
            out.append(value)
        if packed:
            self._unpack_hooked(out)
        return tuple(out)

    def _unpack_hooked(self, out):
        """Run the unpack hooks of the values in `out` that a pack hook kept, in pack order.
        NOTE: a packed tensor's memory may be elsewhere (save_on_cpu): its version cannot be
        checked, as the original is not kept. Its place in the graph is restored for double
        backward, as for an unpacked output."""
        for k in pack_order(self):
            packed = out[k]
            if packed.__class__ is not _Packed:
                continue
            out_nr = self._saved_info[k][1]
            value = packed.unpack(self, out_nr)
            if out_nr is None:
                edge = packed.edge
                if edge is not None and _grad_state.enabled and not (
                        edge[0].__class__ is AccumulateGrad and edge[0].variable is value):
                    value = value._attached_to(*edge)
            elif _grad_state.enabled:
                value = value._attached_to(self, out_nr)
            out[k] = value

    def _first_modified_error(self):
        """The error for the first saved tensor written in place since, in the order torch
        unpacks them (its pack order: of `x * x.mT` both written, it names `other`)."""
        for k in pack_order(self):
            value, info = self._saved[k], self._saved_info[k]
            if info is not None and value.__class__ is not _Packed and \
                    value._version != info[0]:
                return self._modified_error(value, info[0], info[1])

    def _modified_error(self, tensor, expected, out_nr):
        """torch's error; before it, a warning naming where the last in-place write happened
        and a note on the error naming it (see NOTE [ Where in-place writes happened ])."""
        site = write_site(tensor, expected)
        if site is not None:
            import warnings
            frame = _user_frame(2)
            warnings.warn_explicit(
                f"A tensor needed for gradient computation was modified in place (it is at "
                f"version {tensor._version}; backward expected version {expected}). The "
                f"in-place operation that changed it first ran at {site}",
                UserWarning, frame.f_code.co_filename if frame else "<ember>",
                frame.f_lineno if frame else 0)
        error = RuntimeError(self._modified_message(tensor, expected, out_nr))
        if site is not None and hasattr(error, "add_note"):
            # the message stays torch's; the traceback also shows where the write happened
            error.add_note(f"ember: the in-place operation that modified it first ran at {site}")
        return error

    def _modified_message(self, tensor, expected, out_nr):
        from .._printing import cpp_type_name
        producer, nr = (self, out_nr) if out_nr is not None else (tensor._grad_fn,
                                                                  tensor._output_nr)
        where = ""
        if producer is not None:
            # the node's name with a final Backward or Backward0 dropped, Backward<N> shortened
            # to <N> (PowBackward2 is Pow2); CopyBackwards keeps its name
            name = re.sub(r"Backward(?:0|(\d+))?$", r"\1", producer.name())
            if out_nr is None and tensor._base is not None:
                # a view written through since it was made: torch reads its grad_fn, by now
                # rebuilt as an AsStridedBackward0 node (or refused, for a multi-output view)
                if producer._view_ban is not None:
                    from .._ops._dispatch import view_ban_error
                    raise view_ban_error(tensor, "its base or another view of its base has "
                                                 "been modified inplace")
                name, nr = "AsStrided", 0
            elif out_nr is not None and getattr(self, "_view_node", None) is not None \
                    and self._view_node() is not None:
                # the output of an in-place op on a view: torch names the view's node made
                # right after the op (see rebase_view) while that node lives
                name, nr = "AsStrided", 0
            where = f", which is output {nr} of {name},"
        shape = ", ".join(str(s) for s in tensor.shape)
        return (f"one of the variables needed for gradient computation has been modified by "
                f"an inplace operation: [{cpp_type_name(tensor)} [{shape}]]{where} is at "
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
                    grad = checked_hook_grad(hook, grad, new)
        old = None if meta is None else meta.grad
        if not leaf._requires_grad:
            pass    # set to requires_grad_(False) since the forward pass: torch adds nothing
        elif old is None:
            # NOTE: the leaf keeps its own dense copy unless this gradient is a fresh tensor
            # that nothing else refers to. The engine hands over shared gradients (passed
            # through a node unchanged, or given by the caller) as views, so views and
            # expanded tensors are the ones copied here.
            if _grad_state.enabled:
                leaf._set_grad(_copy_like(leaf, grad))
            elif grad._base is not None or (
                    (grad._data.strides != leaf._data.strides
                     or grad._data.itemsize != leaf._data.itemsize)
                    and _grad_state.layout_enforced and not _obeys_layout_contract(grad, leaf)):
                # torch's layout contract: .grad has the leaf's strides (when the leaf is
                # dense), whatever layout the incoming gradient has
                leaf._set_grad(_copy_like(leaf, grad.detach()))
            elif meta is not None:
                meta.grad = grad.detach()
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
                _check_post_accumulate_result(hook, leaf, hook(leaf))
        return ()


AccumulateGrad.__module__ = "builtins"      # (as torch: <class 'AccumulateGrad'>)


def _check_post_accumulate_result(hook, leaf, result):
    """torch's errors for a post-accumulate-grad hook that returns something: such a hook may
    only act on the leaf (its `.grad`), never replace a gradient. It may return the leaf
    itself (`lambda p: p.add_(p.grad, alpha=-lr)`); anything else is checked as a hook's
    replacement value first (so a tensor of another dtype or size names that), then refused."""
    if result is None or result is leaf:
        return
    checked_hook_grad(hook, leaf, result)
    raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def _obeys_layout_contract(grad, leaf):
    """Whether a fresh gradient may become `leaf.grad` as it is (torch's layout contract): it
    has the leaf's strides, except along dims of size 1 (where any stride but 0 will do), if
    the leaf is dense; else it is contiguous."""
    from .. import _geometry as geo
    shape, strides, own = tuple(leaf._data.shape), leaf.stride(), grad.stride()
    if geo.storage_extent(shape, strides, 0) != leaf.numel() or 0 in strides:
        return grad.is_contiguous()
    return all(g == s if n != 1 else g != 0 for n, g, s in zip(shape, own, strides))


def _copy_like(leaf, grad):
    """A copy of `grad` laid out like `leaf` (contiguous when the leaf's memory overlaps or has
    gaps); under create_graph it stays in the graph. A sparse gradient, or any gradient of a
    sparse leaf, is kept in its own layout (NOTE [ Sparse tensors ])."""
    if getattr(type(grad._data), "layout", None) or getattr(type(leaf._data), "layout", None):
        return grad.clone()
    from .. import _geometry as geo
    from .._creation import empty_strided
    shape, strides = tuple(leaf._data.shape), leaf.stride()
    if geo.storage_extent(shape, strides, 0) != leaf.numel() or 0 in strides:
        strides = geo.contiguous_strides(shape)
    out = empty_strided(shape, strides, dtype=leaf.dtype, device=leaf.device)
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
        meta = tensor._meta
        if meta is not None and meta.view_version is not None:
            # a view with no node, of a base that requires grad (NOTE [ Views follow their
            # base ]): if written since it was made, its grad_fn is re-derived (or, for a view
            # made without grad, refused); else one requiring grad only through its base has
            # no edge, and one with a flag of its own is a leaf
            node = tensor.grad_fn
            if node is not None:
                return (node, tensor._output_nr)
            if meta.through_base:
                return (None, 0)
        return (accumulator_of(tensor), 0)
    if tensor._base is not None:
        node = tensor.grad_fn   # a view whose base was changed in place gets a fresh node
    return (node, tensor._output_nr)


# -- where in-place writes happened ------------------------------------------------------------
#
# NOTE [ Where in-place writes happened ]
# torch's "modified by an inplace operation" error gives only version numbers. ember also names
# the line of user code that made the first in-place write after the tensor was saved, which is
# the write that broke backward. `storage.watch` is None (not watched), True (armed: a tensor on
# it was saved for backward, by `_op._save` or `watch`, and not written since) or, after the
# first write while armed, (version, file, line, function) found by `note_write` walking out of
# ember's frames. Only that first write pays for the walk; `Node.release` (after backward)
# disarms what the node saved, so an optimizer's in-place updates of parameters after
# backward cost nothing. The site goes to a UserWarning issued just before the error, so the
# error's text stays torch's; a graph whose storage was disarmed by another graph's backward,
# or re-armed by a later save, just gets torch's error.

_EMBER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _user_frame(depth=2):
    """The innermost frame outside ember's package (None if there is none)."""
    import sys
    frame = sys._getframe(depth)
    while frame is not None and frame.f_code.co_filename.startswith(_EMBER_DIR):
        frame = frame.f_back
    return frame


def note_write(storage):
    """Remember where the in-place write that set `storage.version` happened (called by
    `Tensor._bump_version` while the storage is armed)."""
    frame = _user_frame(3)
    if frame is not None:
        code = frame.f_code
        storage.watch = (storage.version, code.co_filename, frame.f_lineno, code.co_name)
    else:
        storage.watch = None


def watch(tensor):
    """Arm the storage of a tensor saved for backward; returns its version."""
    storage = tensor._storage
    if storage is None:
        storage = tensor._get_storage()
    if storage.watch is not True:
        if storage.inference:
            from .._tensor import INFERENCE_SAVED
            raise RuntimeError(INFERENCE_SAVED)
        storage.watch = True
    return storage.version


def write_site(tensor, expected):
    """`File "...", line N, in f: code` of the in-place write that took `tensor`'s storage
    from version `expected` to the next, if it was recorded; else None."""
    storage = tensor._storage
    mark = None if storage is None else storage.watch
    if mark is None or mark is True or mark[0] != expected + 1:
        return None
    import linecache
    written, filename, line, name = mark
    text = linecache.getline(filename, line).strip()
    site = f'File "{filename}", line {line}, in {name}'
    return f"{site}: {text}" if text else site


# -- saved tensor hooks ------------------------------------------------------------------------

class _Extras:
    """Process-wide switches for rarely used work (anomaly mode, saved-tensor hooks, the
    profiler), read once per recorded node or backward call: while all are off, recording and
    backward do nothing extra."""
    anomaly = False
    check_nan = True
    hook_users = 0          # saved_tensors_hooks contexts open, in any thread
    profiling = False       # an ember.profiler.profile is active
    on = False              # recording a node has extra work (`on_record`)
    observe = False         # the engine runs each node through `_apply_observed`

    @classmethod
    def update(cls):
        cls.on = cls.anomaly or cls.hook_users > 0
        cls.observe = cls.anomaly or cls.profiling


def on_record(node):
    """Extra work for a node just recorded while anomaly mode or saved-tensor hooks are on."""
    if _Extras.anomaly:
        import traceback
        frame = _user_frame(3)
        node.metadata["traceback_"] = traceback.format_stack(frame) if frame else []
    if _hook_stack.stack:
        pack_saved(node)


def increment_version(tensor):
    """Mark `tensor` as modified in place (for writes autograd cannot see, such as through
    `.numpy()`): saved copies of it then fail torch's version check."""
    for t in tensor if isinstance(tensor, (tuple, list)) else (tensor,):
        t._bump_version()


class GradientEdge(tuple):
    """Where gradients for a tensor go: (node, output_nr). `autograd.grad` and `backward`
    accept one in `inputs` in place of the tensor."""
    __slots__ = ()

    def __new__(cls, node, output_nr, ownership_token=None):
        return super().__new__(cls, (node, output_nr, ownership_token))

    node = property(lambda self: self[0])
    output_nr = property(lambda self: self[1])
    ownership_token = property(lambda self: self[2])

    def __repr__(self):
        return (f"GradientEdge(node={self.node!r}, output_nr={self.output_nr}, "
                f"ownership_token={self.ownership_token!r})")


def get_gradient_edge(tensor):
    """The GradientEdge of `tensor` (its grad_fn, or a leaf's AccumulateGrad)."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    node, nr = gradient_edge(tensor)
    if node is None:        # (a view requiring grad only through its base has no edge)
        raise AssertionError("Expected gradient function to be set")
    return GradientEdge(node, nr)


class _MultiHandle:
    """The handle of a multi-grad hook: removes the hook from every tensor."""

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for handle in self.handles:
            handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call `fn` once per backward over several tensors.

    mode="all": after the gradients of all of `tensors` that this backward computes are
    ready, `fn(grads)` gets them as a tuple (None for the tensors it does not reach).
    mode="any": `fn(grad)` gets the first of them computed (its result replaces that gradient,
    as a tensor hook's does). Returns a handle whose `remove()` unregisters it."""
    from . import _engine
    supported = ("all", "any")
    if mode not in supported:
        raise ValueError(f"Expects mode to be one of {supported} but got {mode}")
    tensors = tuple(tensors)
    lock = threading.Lock()
    seen = weakref.WeakKeyDictionary()      # running backward -> its state for this hook

    def make_hook(i):
        def hook(grad):
            task = _engine.current_task()
            if task is None:                # a hook called outside backward
                return fn(grad) if mode == "any" else fn((grad,))
            with lock:
                state = seen.get(task)
                if mode == "any":
                    seen[task] = True
                    if state is not None:
                        return None
                else:
                    if state is None:
                        expected = sum(1 for t in tensors
                                       if task.will_run(gradient_edge(t)[0]))
                        state = seen[task] = [expected, [None] * len(tensors)]
                    state[1][i] = grad
                    state[0] -= 1
                    if state[0] > 0:
                        return None
            if mode == "any":
                return fn(grad)
            fn(tuple(state[1]))             # (its result is not a gradient)
            return None
        return hook
    return _MultiHandle([t.register_hook(make_hook(i)) for i, t in enumerate(tensors)])


# (saved-tensor hooks use the nodes and switches above; Node and on_record read them when
# called, and torch exports them from autograd.graph)
from ._saved_tensors import (  # noqa: E402,F401
    SavedTensor, _hook_stack, _Packed, allow_mutation_on_saved_tensors,
    disable_saved_tensors_hooks, pack_order, pack_saved, save_on_cpu, saved_tensors_hooks)
