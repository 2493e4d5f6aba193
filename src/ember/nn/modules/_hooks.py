"""Full backward (pre-)hooks: a module's inputs and outputs pass through identity nodes
(`BackwardHookFunctionBackward`, as in torch) whose backward sees the module's gradients:
the output node runs the pre-hooks on grad_output, the input node runs the hooks on
(grad_input, grad_output)."""
from ..._tensor import Tensor, wrap
from ...autograd.grad_mode import _state as _grad_state
from ..._ops._op import Op, record


class BackwardHookFunction(Op):
    """Identity on any number of tensors; its backward hands their gradients to `on_grads`."""
    node_name = "BackwardHookFunctionBackward"
    inputs = ()
    variadic = True

    def backward(ctx, *grads):
        return tuple(ctx.on_grads(grads))


def _identity(tensors, on_grads):
    outputs = tuple(wrap(t._data) for t in tensors)
    record(BackwardHookFunction, tuple(tensors), outputs, {"on_grads": on_grads},
           num_outputs=len(outputs))
    return outputs


def _replace(values, positions, new):
    values = list(values)
    for i, t in zip(positions, new):
        values[i] = t
    return tuple(values)


def call_with_backward_hooks(module, args, kwargs):
    """Run `module.forward` so that its full backward hooks see (grad_input, grad_output)."""
    state = {"grad_output": None}
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    inputs_need_grad = _grad_state.enabled and any(args[i].requires_grad for i in positions)

    def run_hooks(grad_input):
        for hook in list(module._backward_hooks.values()):
            new = hook(module, grad_input, state["grad_output"])
            if new is not None:
                new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
                if len(new) != len(grad_input):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                       f"got {len(new)}, but expected {len(grad_input)}")
                grad_input = new
        return grad_input

    def on_output_grads(grads):
        for hook in list(module._backward_pre_hooks.values()):
            new = hook(module, grads)
            if new is not None:
                grads = tuple(new) if isinstance(new, (tuple, list)) else (new,)
        state["grad_output"] = grads
        if not inputs_need_grad:
            run_hooks((None,) * len(positions))
        return grads

    if inputs_need_grad:
        hooked = _identity([args[i] for i in positions], run_hooks)
        args = _replace(args, positions, hooked)
    result = module.forward(*args, **kwargs)
    single = isinstance(result, Tensor)
    outs = (result,) if single else result
    if not isinstance(outs, tuple) or not _grad_state.enabled:
        return result
    out_pos = [i for i, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
    if not out_pos:
        return result
    hooked = _identity([outs[i] for i in out_pos], on_output_grads)
    outs = _replace(outs, out_pos, hooked)
    return outs[0] if single else outs
