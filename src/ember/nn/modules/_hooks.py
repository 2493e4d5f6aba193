"""Full backward (pre-)hooks: a module's inputs and outputs pass through identity nodes
(`BackwardHookFunctionBackward`, as in torch) whose backward sees the module's gradients:
the output node runs the pre-hooks on grad_output, the input node runs the hooks on
(grad_input, grad_output). Also the deprecated non-full global backward hooks, which torch
puts on the grad_fn of the module's output."""
import types

from ..._tensor import Tensor, alias
from ...autograd.graph import CUSTOM_FUNCTION_VIEW, MULTI_OUTPUT_VIEW, RemovableHandle, \
    checked_hook_grad
from ...autograd.grad_mode import _state as _grad_state
from ..._ops._op import Op, record
from ... import _warn

_NO_INPUT_GRAD_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.")


class BackwardHookFunction(Op):
    """Identity on any number of tensors; its backward hands their gradients to `on_grads`."""
    node_name = "BackwardHookFunctionBackward"
    inputs = ()
    variadic = True

    def backward(ctx, *grads):
        return tuple(ctx.on_grads(grads))


def _hook_tensors(values, on_grads, materialize):
    """`values` with the tensors that require grad passed through one identity node whose
    backward calls `on_grads`, and their positions; (values, None) when none requires grad
    (or grad mode is off), as torch's BackwardHook._apply_on_tensors.

    torch reads the outputs' gradients in a hook that runs before its node, so an output that
    got no gradient shows None there; the inputs' gradients come out of the node, which fills
    in zeros for those that got none (`materialize`)."""
    hooked = [i for i, v in enumerate(values) if isinstance(v, Tensor) and v.requires_grad]
    if not (hooked and _grad_state.enabled):
        return values, None
    tensors = tuple(values[i] for i in hooked)
    # NOTE: as torch's (a custom Function returning its inputs), the node's outputs are views
    # of the tensors it was given, and may not be written in place (`ReLU(inplace=True)`
    # under a full backward hook is refused with torch's error).
    outputs = tuple(alias(t, t._data, t._offset) for t in tensors)
    node = record(BackwardHookFunction, tensors, outputs, {"on_grads": on_grads},
                  num_outputs=len(outputs))
    node._view_ban = MULTI_OUTPUT_VIEW if len(outputs) > 1 else CUSTOM_FUNCTION_VIEW
    node._view_version = outputs[0]._version
    if not materialize:
        node._output_meta = None        # the engine then passes missing gradients as None
    # (torch's BackwardHook registers a hook on that node, whose handle takes the next hook
    # id: ids printed later, `module._forward_pre_hooks` say, count it)
    RemovableHandle.next_id += 1
    values = list(values)
    for i, t in zip(hooked, outputs):
        values[i] = t
    return tuple(values), hooked


def _pack(positions, grads, size):
    """A tuple of `size` gradients: `grads` at `positions`, None elsewhere."""
    packed = [None] * size
    for i, g in zip(positions, grads):
        packed[i] = g
    return tuple(packed)


class BackwardHook:
    """One module call's full backward hooks and pre-hooks (torch's utils.hooks.BackwardHook):
    `setup_input` before forward, `setup_output` after the forward hooks. grad_input and
    grad_output hold one entry per positional argument / output, None where it is not a tensor
    that requires grad."""

    def __init__(self, module, hooks, pre_hooks):
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = 0
        self.input_positions = self.output_positions = None

    def setup_input(self, args):
        self.n_inputs = len(args)
        # torch passes every tensor argument through its node and marks those that need no
        # grad non-differentiable, so their grad_input is zeros (not None) when any input
        # requires grad; ember passes only the latter through and fills in the zeros.
        self.zero_inputs = [(i, a.shape, a.dtype, a.device) for i, a in enumerate(args)
                            if isinstance(a, Tensor) and not a.requires_grad]
        args, self.input_positions = _hook_tensors(args, self._on_input_grads, True)
        self.tensor_inputs = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        return args

    def setup_output(self, result):
        single = not isinstance(result, tuple)
        outs = (result,) if single else result
        self.n_outputs = len(outs)
        outs, self.output_positions = _hook_tensors(outs, self._on_output_grads, False)
        return outs[0] if single else outs

    def _on_input_grads(self, grads):
        if self.grad_outputs is None:       # reached without passing the outputs (double backward)
            return grads
        grad_input = _pack(self.input_positions, grads, self.n_inputs)
        if self.zero_inputs:
            from ..._creation import zeros
            grad_input = list(grad_input)
            for i, shape, dtype, device in self.zero_inputs:
                grad_input[i] = zeros(shape, dtype=dtype, device=device)
            grad_input = tuple(grad_input)
        given = grad_input
        for hook in self.hooks:
            new = hook(self.module, grad_input, self.grad_outputs)
            if new is None:
                continue
            if len(new) != len(grad_input):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                   f"got {len(new)}, but expected {len(grad_input)}")
            grad_input = new
        if grad_input is not given:
            grad_input = _checked(grad_input, given, self.tensor_inputs)
        self.grad_outputs = None
        return tuple(grad_input[i] for i in self.input_positions)

    def _on_output_grads(self, grads):
        self.grad_outputs = given = _pack(self.output_positions, grads, self.n_outputs)
        for hook in self.pre_hooks:
            new = hook(self.module, self.grad_outputs)
            if new is None:
                continue
            if len(new) != len(self.grad_outputs):
                raise RuntimeError(f"Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(new)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = new
        if self.grad_outputs is not given:
            self.grad_outputs = _checked(self.grad_outputs, given, self.output_positions)
        grad_outputs = self.grad_outputs
        if self.input_positions is None:    # no input requires grad: the hooks run now
            _warn.warn(_NO_INPUT_GRAD_WARNING, stacklevel=2)
            grad_input = (None,) * self.n_inputs
            for hook in self.hooks:
                new = hook(self.module, grad_input, self.grad_outputs)
                if new is not None and not (isinstance(new, tuple)
                                            and all(g is None for g in new)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        return tuple(grad_outputs[i] for i in self.output_positions)


# torch runs a module's backward hooks inside one hook of its own, named `hook`, on the
# identity node; the gradients that one returns are checked as any node hook's, so the errors
# name 'hook'
_TORCHS_HOOK = types.SimpleNamespace(__name__="hook")


def _checked(new, originals, positions):
    """The gradients module backward (pre-)hooks returned in place of `originals`, each at
    one of `positions` (the tensors') checked (once all the hooks ran, as torch) against the
    one it replaces: a tensor of the same type and size, or None; an output that got no
    gradient may be given one. What they return for other arguments is never used."""
    new = tuple(new)
    for i in positions:
        if new[i] is not None and originals[i] is not None:
            checked_hook_grad(_TORCHS_HOOK, originals[i], new[i])
    return new


def add_non_full_backward_hooks(module, hooks, args, result):
    """The deprecated `register_module_backward_hook` hooks: each becomes a hook of the
    grad_fn of the first tensor in `result`, called as hook(module, grad_input, grad_output)
    with that node's gradients; torch warns when these are not the module's own."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) \
            else var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for hook in hooks:
        grad_fn.register_hook(_BoundHook(hook, module))
    message = _non_full_hook_problem(args, result, grad_fn)
    if message is not None:
        _warn.warn(message, FutureWarning, stacklevel=3)


class _BoundHook:
    """hook(module, grad_input, grad_output) as a node hook, named as the hook (torch's errors
    about its result show the name), as torch's _WrappedHook."""

    def __init__(self, hook, module):
        self.hook, self.module = hook, module
        name = getattr(hook, "__name__", None)
        if name is not None:
            self.__name__ = name

    def __call__(self, grad_input, grad_output):
        return self.hook(self.module, grad_input, grad_output)


_FULL_HINT = " Please use register_full_backward_hook to get the documented behavior."


def _non_full_hook_problem(inputs, result, grad_fn):
    """What torch warns of when a non-full backward hook will miss gradients (or None)."""
    def all_tensors(values):
        return isinstance(values, tuple) and all(isinstance(v, Tensor) for v in values)
    if not (isinstance(result, Tensor) or all_tensors(result)):
        return ("Using non-full backward hooks on a Module that does not return a single Tensor "
                "or a tuple of Tensors is deprecated and will be removed in future versions. "
                "This hook will be missing some of the grad_output." + _FULL_HINT)
    if not (isinstance(inputs, Tensor) or all_tensors(inputs)):
        return ("Using non-full backward hooks on a Module that does not take as input a single "
                "Tensor or a tuple of Tensors is deprecated and will be removed in future "
                "versions. This hook will be missing some of the grad_input." + _FULL_HINT)
    result = (result,) if isinstance(result, Tensor) else result
    inputs = (inputs,) if isinstance(inputs, Tensor) else inputs
    out_fns = {r.grad_fn for r in result if r.grad_fn is not None}
    if not out_fns or (len(out_fns) == 1 and grad_fn not in out_fns):
        return ("Using a non-full backward hook when outputs are nested in python data "
                "structure is deprecated and will be removed in future versions. This hook "
                "will be missing some grad_output.")
    if len(out_fns) > 1:
        return ("Using a non-full backward hook when outputs are generated by different "
                "autograd Nodes is deprecated and will be removed in future versions. This hook "
                "will be missing some grad_output." + _FULL_HINT)
    input_fns = {i.grad_fn for i in inputs if i.grad_fn is not None}
    if input_fns != {fn for fn, _ in grad_fn.next_functions}:
        return ("Using a non-full backward hook when the forward contains multiple autograd "
                "Nodes is deprecated and will be removed in future versions. This hook will be "
                "missing some grad_input." + _FULL_HINT)
    return None
