"""Higher-level differentiation of whole functions, as torch.autograd.functional:
`jacobian`, `hessian`, `vjp`, `jvp`, `hvp`, `vhp`.

Each runs `func` on fresh copies of the inputs that require grad and differentiates with
`autograd.grad` (reverse mode; `jvp` uses the double-backward trick). Results are detached
unless `create_graph=True`. `vectorize` is accepted and computes the same result row by row.
"""
from .grad_mode import enable_grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _tensor_class():
    from .._tensor import Tensor
    return Tensor


def _as_tuple(x, arg_name, fn_name):
    Tensor = _tensor_class()
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or "
                                f"a tuple of Tensors but the value at index {i} has type "
                                f"{type(el)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the given {arg_name} has type {type(el)}.")
    return is_tuple, tuple(items)


def _tuple_postprocess(res, to_unpack):
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _prepare(inputs, create_graph, need_graph):
    """Fresh inputs that require grad: views when building a graph of graphs, else detached."""
    out = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            out.append(inp.view_as(inp))
        else:
            out.append(inp.detach().requires_grad_(need_graph))
    return tuple(out)


def _finish(items, create_graph):
    if create_graph:
        return items
    Tensor = _tensor_class()
    return tuple(_finish(x, False) if isinstance(x, tuple) else
                 (x.detach() if isinstance(x, Tensor) else x) for x in items)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got "
                               f"{len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but "
                               f"got {el_v.size()}.")


def _grad(outputs, inputs, grad_outputs, create_graph, retain_graph=None):
    """autograd.grad over the outputs that require grad; None where an input is unused."""
    from . import grad as autograd_grad
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return autograd_grad([o for o, _ in pairs], inputs, [g for _, g in pairs],
                         create_graph=create_graph, retain_graph=retain_graph, allow_unused=True)


def _fill_zeros(grads, refs, strict, create_graph, stage):
    from .._creation import zeros_like
    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_strict_message(stage, i))
            g = zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if stage.startswith("double_back") else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               f"create_graph=True.")
        out.append(g)
    return tuple(out)


def _strict_message(stage, i):
    if stage == "back":
        return (f"The output of the user-provided function is independent of input {i}. This "
                f"is not allowed in strict mode.")
    if stage == "back_trick":
        return (f"The gradient with respect to the input is independent of entry {i} in the "
                f"grad_outputs when using the double backward trick to compute forward mode "
                f"gradients. This is not allowed in strict mode.")
    if stage == "double_back":
        return (f"The jacobian of the user-provided function is independent of input {i}. This "
                f"is not allowed in strict mode.")
    return (f"The hessian of the user-provided function is independent of entry {i} in the "
            f"grad_jacobian. This is not allowed in strict mode as it prevents from using the "
            f"double backward trick to replace forward mode AD.")


def _default_v(outputs, fn_name):
    from .._creation import ones_like
    if len(outputs) != 1 or outputs[0].nelement() != 1:
        raise RuntimeError(f"The vector v can only be None if the user-provided function "
                           f"returns a single Tensor with a single element.")
    return (ones_like(outputs[0]),)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at `inputs`."""
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                              "vjp")
        _check_outputs_require_grad(outputs, strict, False)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _prepare(v, create_graph, False)
            _validate_v(v, outputs, is_outputs_tuple)
        else:
            v = _default_v(outputs, "vjp")
        grads = _grad(outputs, inputs, v, create_graph)
        result = _fill_zeros(grads, inputs, strict, create_graph, "back")
    outputs = _finish(outputs, create_graph)
    result = _finish(result, create_graph)
    return (_tuple_postprocess(outputs, is_outputs_tuple),
            _tuple_postprocess(result, is_inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick."""
    from .._creation import zeros_like
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
            v = _prepare(v, create_graph, False)
            _validate_v(v, inputs, is_inputs_tuple)
        else:
            if len(inputs) != 1 or inputs[0].nelement() != 1:
                raise RuntimeError("The vector v can only be None if the input to the "
                                   "user-provided function is a single Tensor with a single "
                                   "element.")
            v = (inputs[0].new_ones(inputs[0].shape).detach(),)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                              "jvp")
        _check_outputs_require_grad(outputs, strict, False)
        grad_outputs = tuple(zeros_like(o).requires_grad_() for o in outputs)
        grad_inputs = _grad(outputs, inputs, grad_outputs, create_graph=True)
        _fill_zeros(grad_inputs, inputs, strict, create_graph, "back")
        pairs = [(g, vi) for g, vi in zip(grad_inputs, v) if g is not None]
        if pairs and any(g.requires_grad for g, _ in pairs):
            from . import grad as autograd_grad
            kept = [(g, vi) for g, vi in pairs if g.requires_grad]
            result = autograd_grad([g for g, _ in kept], grad_outputs, [vi for _, vi in kept],
                                   create_graph=create_graph, allow_unused=True)
        else:
            result = (None,) * len(outputs)
        result = _fill_zeros(result, outputs, strict, create_graph, "back_trick")
    outputs = _finish(outputs, create_graph)
    result = _finish(result, create_graph)
    return (_tuple_postprocess(outputs, is_outputs_tuple),
            _tuple_postprocess(result, is_outputs_tuple))


def _check_forward_mode(inputs, create_graph, strict, vectorize):
    """torch's refusals for jacobian(strategy="forward-mode"); with vectorize=True, forward
    mode gives the same Jacobian, which ember computes in reverse mode."""
    if create_graph:
        raise NotImplementedError(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-'
            'mode"` are not supported together (yet). Please either set `create_graph=False` '
            'or `strategy="reverse-mode"`.')
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` '
            'are not supported together (yet). Please either set `strict=False` or '
            '`strategy="reverse-mode"`.')
    _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        # NOTE: torch's text lacks the space in "isonly".
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")


def _forward_jacobian(func, inputs):
    """jacobian(strategy="forward-mode"): one jvp per input element, each a column of the
    Jacobian (so its zeros carry the signs forward mode gives them, as torch's do)."""
    from .. import stack
    from .._creation import zeros_like
    from ..func import jvp
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    columns = [[] for _ in inputs]              # [input][element] -> output tangents
    outputs = None
    for k, inp in enumerate(inputs):
        for j in range(inp.numel()):
            tangents = [zeros_like(x) for x in inputs]
            tangents[k].view(-1)[j] = 1
            outputs, out_tangents = jvp(func, inputs, tuple(tangents))
            columns[k].append(out_tangents)
    if outputs is None:
        outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                          "jacobian")
    jac = []
    for i, out in enumerate(outputs):
        per_input = []
        for k, inp in enumerate(inputs):
            shape = tuple(out.shape) + tuple(inp.shape)
            if not columns[k]:
                per_input.append(out.new_zeros(shape))
                continue
            cols = [c[i] if isinstance(c, tuple) else c for c in columns[k]]
            per_input.append(stack([c.reshape(-1) for c in cols], -1).reshape(shape))
        jac.append(per_input)
    # (torch's forward mode nests lists, where reverse mode nests tuples)
    return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _check_outputs_require_grad(outputs, strict, vectorize):
    """In strict mode torch wants every output computed differentiably from the inputs, and
    refuses vectorize=True."""
    if not strict:
        return
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require "
                               f"gradients. The outputs must be computed in a differentiable "
                               f"manner from the input when running in strict mode.")
    if vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                           "`vectorized=True` are not supported together. Please either set "
                           "`strict=False` or `vectorize=False`.")


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of `func` at `inputs`: for each (output, input) pair a tensor of shape
    output.shape + input.shape; nested as tuples when `func` takes or returns tuples.

    >>> jacobian(lambda x: x ** 2, ember.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    from .. import stack
    from .._creation import zeros_like
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                             'Hint: If your function has more outputs than inputs, '
                             '"forward-mode" tends to be more performant. Otherwise, prefer to '
                             'use "reverse-mode".')
    if strategy == "forward-mode":
        _check_forward_mode(inputs, create_graph, strict, vectorize)
        return _forward_jacobian(func, inputs)
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                              "jacobian")
        _check_outputs_require_grad(outputs, strict, vectorize)
        jac = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(flat.nelement()):
                if out.requires_grad:
                    v = zeros_like(flat)
                    v[j] = 1
                    grads = _grad((flat,), inputs, (v,), create_graph, retain_graph=True)
                else:
                    grads = (None,) * len(inputs)
                for k, (g, inp) in enumerate(zip(grads, inputs)):
                    if g is not None and strict and create_graph and not g.requires_grad:
                        # NOTE: torch's text names the output's index, as "input {i}"
                        raise RuntimeError(f"The jacobian of the user-provided function is "
                                           f"independent of input {i}. This is not allowed "
                                           f"in strict mode when create_graph=True.")
                    if g is None:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is "
                                               f"independent of input {k}. This is not allowed "
                                               f"in strict mode.")
                        g = zeros_like(inp)
                    rows[k].append(g)
            per_input = []
            for k, inp in enumerate(inputs):
                if rows[k]:
                    block = stack(rows[k]).reshape(tuple(out.shape) + tuple(inp.shape))
                else:
                    block = out.new_zeros(tuple(out.shape) + tuple(inp.shape))
                per_input.append(block)
            jac.append(tuple(per_input))
    jac = _finish(tuple(jac), create_graph)
    return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: for each pair of inputs, input.shape + input.shape."""
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def ensure_single_output(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function",
                                        "hessian")
        _check_outputs_require_grad(t_out, strict, False)
        if is_out_tuple or not isinstance(out, _tensor_class()):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        with enable_grad():
            prepared = tuple(x if x.requires_grad else x.detach().requires_grad_() for x in inp)
            out = ensure_single_output(*prepared)
            grads = _grad((out,), prepared, (out.new_ones(()),), create_graph=True)
            jac = _fill_zeros(grads, prepared, False, create_graph, "double_back")
            _check_jacobian_requires_grad(jac, strict)
            return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _check_jacobian_requires_grad(jac, strict):
    """In strict mode, the first derivatives a Hessian is taken of must depend on the inputs."""
    if not strict:
        return
    for i, g in enumerate(jac):
        if g is None:
            raise RuntimeError(_strict_message("back", i))
        if not g.requires_grad:
            raise RuntimeError(
                f"While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is not "
                f"allowed in strict mode. You should ensure that your function is twice "
                f"differentiable and that the jacobian depends on the inputs (this would be "
                f"violated by a linear function for example).")


def _second_order(func, inputs, v, create_graph, strict, fn_name):
    """(func(inputs), v^T H) for a scalar function: grad of <grad func, v>."""
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
        inputs = _prepare(inputs, create_graph, True)
        if v is not None:
            _, v = _as_tuple(v, "v", fn_name)
            v = _prepare(v, create_graph, False)
            _validate_v(v, inputs, is_inputs_tuple)
        elif len(inputs) != 1 or inputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided "
                               "function is a single Tensor with a single element.")
        else:
            v = (inputs[0].new_ones(inputs[0].shape).detach(),)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                              fn_name)
        _check_outputs_require_grad(outputs, strict, False)
        if is_outputs_tuple or not isinstance(outputs[0], _tensor_class()):
            raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
        if outputs[0].nelement() != 1:
            raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                               f"contain a single element")
        jac = _grad(outputs, inputs, (outputs[0].new_ones(outputs[0].shape),),
                    create_graph=True)
        _check_jacobian_requires_grad(jac, strict)
        jac = _fill_zeros(jac, inputs, False, create_graph, "double_back")
        kept = [(g, vi) for g, vi in zip(jac, v) if g.requires_grad]
        if fn_name == "hvp" and strict:
            res = _double_back_trick(jac, inputs, v, create_graph)
        elif kept:
            from . import grad as autograd_grad
            res = autograd_grad([g for g, _ in kept], inputs, [vi for _, vi in kept],
                                create_graph=create_graph, allow_unused=True)
        else:
            res = (None,) * len(inputs)
        res = _fill_zeros(res, inputs, strict, create_graph,
                          "double_back" if fn_name == "vhp" else "double_back_trick")
    outputs = _finish(outputs, create_graph)
    res = _finish(res, create_graph)
    return (_tuple_postprocess(outputs, is_outputs_tuple),
            _tuple_postprocess(res, is_inputs_tuple))


def _double_back_trick(jac, inputs, v, create_graph):
    """H v as torch's hvp computes it: d/du <d/dx <jac, u>, v> for a dummy u. In strict mode
    an entry of the result that does not depend on u is torch's error, so hvp takes this
    route there (elsewhere H v = v^T H, one backward less)."""
    from . import grad as autograd_grad
    from .._creation import zeros_like
    u = tuple(zeros_like(t, requires_grad=True) for t in inputs)
    pairs = [(g, ui) for g, ui in zip(jac, u) if g.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    double_back = autograd_grad([g for g, _ in pairs], inputs, [ui for _, ui in pairs],
                                create_graph=True, allow_unused=True)
    kept = [(d, vi) for d, vi in zip(double_back, v) if d is not None and d.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return autograd_grad([d for d, _ in kept], u, [vi for _, vi in kept],
                         create_graph=create_graph, allow_unused=True)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function returning a single-element tensor."""
    return _second_order(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function returning a single-element tensor (H is symmetric,
    so this equals v^T H)."""
    return _second_order(func, inputs, v, create_graph, strict, "hvp")
