"""Activation checkpointing: trade compute for memory by recomputing a segment in backward.

`checkpoint(fn, *args, use_reentrant=False)` runs `fn` keeping none of its intermediate
values; when backward needs one, `fn` runs again (with the RNG state of the first run, so
dropout draws the same mask) and its saved values are used instead.

NOTE [ Two checkpoint variants ]
- Non-reentrant (`use_reentrant=False`, recommended): `fn` runs normally under a
  `saved_tensors_hooks` whose pack hook keeps only a position number. The first unpack in
  backward re-runs `fn` under a second pack hook that collects the recomputed saved tensors by
  the same positions (ops save in the same order when run again). The graph is the real one,
  so `autograd.grad`, hooks and double backward work through it.
- Reentrant (`use_reentrant=True`, torch's default when not given): a custom Function runs `fn`
  under no_grad; its backward re-runs `fn` with grad on and calls backward on that recomputed
  graph from inside the outer backward.
"""
import warnings

from .. import autograd
from ..autograd.graph import saved_tensors_hooks

__all__ = ["checkpoint", "checkpoint_sequential"]

_WARN_REENTRANT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")
_WARN_SEQUENTIAL = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
    "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")


def _is_tensor(x):
    from .._tensor import Tensor
    return isinstance(x, Tensor)


def _rng_state(preserve):
    from .. import random
    return random.get_rng_state() if preserve else None


class _fork_rng:
    """Run with the RNG state `state` (if given), restoring the current one afterwards."""

    def __init__(self, state):
        self.state = state

    def __enter__(self):
        from .. import random
        if self.state is not None:
            self.saved = random.get_rng_state()
            random.set_rng_state(self.state)

    def __exit__(self, *exc):
        from .. import random
        if self.state is not None:
            random.set_rng_state(self.saved)


def _autocast_state():
    """The autocast settings in force now, per device: torch re-enters them around the
    recomputation, so the recomputed ops run in the dtypes of the first run."""
    from ..amp import autocast_mode as amp
    cache = amp.is_autocast_cache_enabled()
    return [(device, amp.is_autocast_enabled(device), amp.get_autocast_dtype(device), cache)
            for device in ("cpu", "cuda")]


def _autocast_context(state):
    """A context that runs under the autocast settings `state` (from `_autocast_state`)."""
    import contextlib
    from ..amp import autocast
    stack = contextlib.ExitStack()
    for device, enabled, dtype, cache in state:
        if enabled or device == "cpu":
            stack.enter_context(autocast(device, dtype=dtype, enabled=enabled,
                                         cache_enabled=cache))
    return stack


def noop_context_fn():
    import contextlib
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check="default", debug=False, preserve_rng_state=True, **kwargs):
    """`function(*args, **kwargs)`, storing no intermediate values for backward: they are
    recomputed when backward needs them. See NOTE [ Two checkpoint variants ].

    >>> y = checkpoint(block, x, use_reentrant=False)    # same values and gradients as block(x)
    """
    if use_reentrant is None:
        warnings.warn(_WARN_REENTRANT, UserWarning, stacklevel=2)
        use_reentrant = True
    if use_reentrant:
        if context_fn is not noop_context_fn or debug:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _checkpoint_without_reentrant(function, preserve_rng_state, context_fn, args, kwargs)


# -- non-reentrant -------------------------------------------------------------------------------

class _Recomputation:
    """The state shared by the placeholders of one checkpointed call."""

    def __init__(self, function, args, kwargs, rng_state, grad_enabled):
        self.function = function
        self.args = args
        self.kwargs = kwargs
        self.rng_state = rng_state
        self.grad_enabled = grad_enabled
        self.autocast_state = _autocast_state()
        self.count = 0              # tensors packed in the first run
        self.values = None          # position -> recomputed tensor

    def unpack(self, position):
        # NOTE: each recomputed value is handed out once and dropped, so memory goes back
        # down as backward proceeds; a second backward (retain_graph=True) recomputes again.
        if self.values is None or position not in self.values:
            self.recompute()
        return self.values.pop(position)

    def recompute(self):
        values = {}
        counter = [0]

        def pack(tensor):
            values[counter[0]] = tensor.detach()
            counter[0] += 1
            return None

        with _fork_rng(self.rng_state), autograd.set_grad_enabled(self.grad_enabled), \
                _autocast_context(self.autocast_state), \
                saved_tensors_hooks(pack, _never_unpacked):
            self.function(*self.args, **self.kwargs)
        if counter[0] != self.count:
            raise RuntimeError(f"torch.utils.checkpoint: A different number of tensors was "
                               f"saved during the original forward and recomputation.\nNumber "
                               f"of tensors saved during forward: {self.count}\nNumber of "
                               f"tensors saved during recomputation: {counter[0]}.")
        self.values = values


def _never_unpacked(_):
    raise RuntimeError("a tensor saved during checkpoint recomputation was unpacked")


def _checkpoint_without_reentrant(function, preserve_rng_state, context_fn, args, kwargs):
    state = _Recomputation(function, args, kwargs, _rng_state(preserve_rng_state),
                           autograd.is_grad_enabled())

    def pack(tensor):
        position = state.count
        state.count += 1
        return position

    forward_context, _ = context_fn()
    with saved_tensors_hooks(pack, state.unpack), forward_context:
        return function(*args, **kwargs)


# -- reentrant -----------------------------------------------------------------------------------

class CheckpointFunction(autograd.Function):
    """Reentrant checkpoint; its node is CheckpointFunctionBackward, as in torch."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        ctx.run_function = run_function
        ctx.rng_state = _rng_state(preserve_rng_state)
        ctx.autocast_state = _autocast_state()
        if not any(a.requires_grad for a in args if _is_tensor(a)):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          UserWarning, stacklevel=2)
        ctx.inputs = [None if _is_tensor(a) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if _is_tensor(a)]
        ctx.save_for_backward(*[a for a in args if _is_tensor(a)])
        return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t.detach().requires_grad_(t.requires_grad)
        with _fork_rng(ctx.rng_state), autograd.enable_grad(), \
                _autocast_context(ctx.autocast_state):
            outputs = ctx.run_function(*inputs)
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads) if _is_tensor(o) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(x.grad if _is_tensor(x) else None for x in inputs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run a sequence of modules (or functions) in `segments` chunks, checkpointing every
    chunk but the last."""
    if use_reentrant is None:
        warnings.warn(_WARN_SEQUENTIAL, UserWarning, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if hasattr(functions, "children") and not isinstance(functions, (list, tuple)):
        functions = list(functions.children())
    functions = list(functions)

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
