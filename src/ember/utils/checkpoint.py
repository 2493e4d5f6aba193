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
  graph from inside the outer backward. It cannot serve `autograd.grad` or
  `backward(inputs=...)` (the inner backward would fill `.grad` instead): torch refuses both.

NOTE [ Checking the recomputation ]
The non-reentrant variant relies on the recomputation saving the same tensors in the same
order. As torch does, it checks that: the forward records each saved tensor's shape, dtype and
device (`determinism_check="default"`), and the recomputation raises CheckpointError when a
saved tensor's metadata differs, when it saves fewer tensors, or (without early stop) more.
With early stop (the default; `set_checkpoint_early_stop(False)` turns it off for the
checkpoints made inside it), the recomputation ends as soon as it has saved as many tensors as
the forward did: what `fn` does after its last saving op is not run again, in torch and here.
`debug=True` is accepted; torch then dumps its dispatcher's operator log with C++ stack traces,
which ember does not have, so the errors read as without it.
"""
import contextlib
import enum

from .. import autograd
from ..autograd.graph import saved_tensors_hooks
from .. import _warn

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "get_device_states",
           "set_device_states", "noop_context_fn", "set_checkpoint_early_stop",
           "DefaultDeviceType", "set_checkpoint_debug_enabled", "CheckpointPolicy"]


class CheckpointError(RuntimeError):
    """The recomputation of a non-reentrant checkpoint did not save what the forward saved."""


_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""
_DETERMINISM_CHECKS = ("default", "none")
_early_stop = None          # set_checkpoint_early_stop's setting (None: each call's own)
_debug = None               # set_checkpoint_debug_enabled's setting


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Within this context, non-reentrant checkpoints made here stop (or, with False, do not
    stop) recomputing once every saved tensor is back, whatever their `early_stop` says."""
    global _early_stop
    previous, _early_stop = _early_stop, enable
    try:
        yield
    finally:
        _early_stop = previous


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    """Within this context, checkpoints run as with `debug=enabled` (None: as each says)."""
    global _debug
    previous, _debug = _debug, enabled
    try:
        yield
    finally:
        _debug = previous


class CheckpointPolicy(enum.Enum):
    """What selective activation checkpointing does with an op's output (torch's names)."""
    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


class DefaultDeviceType:
    """The device type whose RNG states reentrant checkpoints save besides the CPU's."""
    _default_device_type = "cpu"

    @staticmethod
    def set_device_type(device="cuda"):
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type():
        return DefaultDeviceType._default_device_type


def detach_variable(inputs):
    """`inputs` (a tuple) with each tensor detached, keeping its requires_grad."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    return tuple(x.detach().requires_grad_(x.requires_grad) if _is_tensor(x) else x
                 for x in inputs)


def check_backward_validity(inputs):
    """Warn, as torch does, when no tensor among `inputs` requires grad."""
    if not any(_is_tensor(x) and x.requires_grad for x in inputs):
        _warn.warn("None of the inputs have requires_grad=True. Gradients will be None",
                   UserWarning, stacklevel=2)


def get_device_states(*args):
    """The accelerator devices of the tensors in `args` and their RNG states: ([], []) for
    CPU tensors; CUDA tensors' devices and `ember.cuda.get_rng_state` of each."""
    devices = sorted({x.device.index or 0 for x in args if _is_tensor(x) and
                      x.device.type == "cuda"})
    if not devices:
        return [], []
    from .. import cuda
    return devices, [cuda.get_rng_state(d) for d in devices]


def set_device_states(devices, states, *, device_type=None):
    """Restore the RNG states that `get_device_states` returned."""
    if devices:
        from .. import cuda
        for device, state in zip(devices, states):
            cuda.set_rng_state(state, device)

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
               determinism_check="default", debug=False, early_stop=True,
               preserve_rng_state=True, **kwargs):
    """`function(*args, **kwargs)`, storing no intermediate values for backward: they are
    recomputed when backward needs them. See NOTE [ Two checkpoint variants ].

    >>> y = checkpoint(block, x, use_reentrant=False)    # same values and gradients as block(x)
    """
    if use_reentrant is None:
        _warn.warn(_WARN_REENTRANT, UserWarning, stacklevel=2)
        use_reentrant = True
    if use_reentrant:
        if context_fn is not noop_context_fn or debug:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(f"determinism_check should be one of {list(_DETERMINISM_CHECKS)}, "
                         f"but got {determinism_check}")
    state = _Recomputation(function, args, kwargs, _rng_state(preserve_rng_state),
                           autograd.is_grad_enabled(),
                           early_stop if _early_stop is None else _early_stop,
                           determinism_check == "default")

    def pack(tensor):
        position = state.count
        state.count += 1
        if state.metadata is not None:
            state.metadata.append(_metadata(tensor))
        return position

    forward_context, _ = context_fn()
    with saved_tensors_hooks(pack, state.unpack), forward_context:
        return function(*args, **kwargs)


# -- non-reentrant -------------------------------------------------------------------------------

def _metadata(tensor):
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


class _StopRecomputation(Exception):
    """Raised from the recomputation's pack hook once every saved tensor is back."""


class _Recomputation:
    """The state shared by the placeholders of one checkpointed call."""

    def __init__(self, function, args, kwargs, rng_state, grad_enabled, early_stop, check):
        self.function = function
        self.args = args
        self.kwargs = kwargs
        self.rng_state = rng_state
        self.grad_enabled = grad_enabled
        self.early_stop = early_stop
        self.autocast_state = _autocast_state()
        self.count = 0              # tensors packed in the first run
        self.metadata = [] if check else None   # their shapes, dtypes and devices
        self.values = None          # position -> recomputed tensor

    def unpack(self, position):
        # NOTE: each recomputed value is handed out once and dropped, so memory goes back
        # down as backward proceeds; a second backward (retain_graph=True) recomputes again.
        if self.values is None or position not in self.values:
            self.recompute()
        return self.values.pop(position)

    def recompute(self):
        values = []

        def pack(tensor):
            if len(values) == self.count:
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors "
                                      "during recomputation than during the original forward "
                                      "pass.\n" + _TIP)
            values.append(tensor.detach())
            if self.early_stop and len(values) == self.count:
                raise _StopRecomputation
            return None

        try:
            with _fork_rng(self.rng_state), autograd.set_grad_enabled(self.grad_enabled), \
                    _autocast_context(self.autocast_state), \
                    saved_tensors_hooks(pack, _never_unpacked):
                self.function(*self.args, **self.kwargs)
        except _StopRecomputation:
            pass
        if len(values) != self.count:
            raise CheckpointError(f"torch.utils.checkpoint: A different number of tensors was "
                                  f"saved during the original forward and recomputation.\n"
                                  f"Number of tensors saved during forward: {self.count}\n"
                                  f"Number of tensors saved during recomputation: "
                                  f"{len(values)}.\n" + _TIP)
        if self.metadata is not None:
            self._check(values)
        self.values = dict(enumerate(values))

    def _check(self, values):
        mismatched = "".join(
            f"tensor at position {i}:\nsaved metadata: {saved}\nrecomputed metadata: {now}\n"
            for i, (saved, now) in enumerate(zip(self.metadata, map(_metadata, values)))
            if saved != now)
        if mismatched:
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following "
                                  "tensors have different metadata than during the forward "
                                  f"pass.\n{mismatched}.\n" + _TIP)


def _never_unpacked(_):
    raise RuntimeError("a tensor saved during checkpoint recomputation was unpacked")


# -- reentrant -----------------------------------------------------------------------------------

class CheckpointFunction(autograd.Function):
    """Reentrant checkpoint; its node is CheckpointFunctionBackward, as in torch."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        ctx.run_function = run_function
        ctx.rng_state = _rng_state(preserve_rng_state)
        ctx.autocast_state = _autocast_state()
        check_backward_validity(args)
        ctx.inputs = [None if _is_tensor(a) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if _is_tensor(a)]
        ctx.save_for_backward(*[a for a in args if _is_tensor(a)])
        return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if not autograd._is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
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
        _warn.warn(_WARN_SEQUENTIAL, UserWarning, stacklevel=2)
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
