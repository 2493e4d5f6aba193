"""`gradcheck` and `gradgradcheck`: compare analytical gradients with finite differences.

The numerical Jacobian perturbs each input element by +-eps (central differences); the
analytical one runs backward once per output element. Both are laid out as torch's: one
(input numel) x (output numel) matrix per (input, output) pair.
"""
import itertools

from .. import _patch_ops
from .grad_mode import no_grad
from .. import _warn

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck and gradgradcheck when the gradients disagree."""


def _tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _is_tensor(x):
    from .._tensor import Tensor
    return isinstance(x, Tensor)


def _outputs(func, inputs):
    return tuple(o for o in _tuple(func(*inputs)))


def _detached(func, inputs):
    """func's outputs as copies (an output may be a view of an input, which moves on)."""
    return tuple(o.detach().clone() if _is_tensor(o) else o for o in _outputs(func, inputs))


def _numerical(func, inputs, diff, out_index, eps):
    """Central-difference Jacobians: [input][output] -> (input numel, output numel) tensor."""
    # NOTE: func runs with grad mode as it is (gradgradcheck's func differentiates inside);
    # the perturbations write through `.data`, which autograd does not see.
    from .._creation import zeros
    outs = _outputs(func, inputs)
    jac = [[zeros(inputs[i].numel(), outs[k].numel(), dtype=outs[k].dtype)
            for k in out_index] for i in diff]
    for a, i in enumerate(diff):
        data = inputs[i].data
        for j, index in enumerate(itertools.product(*(range(n) for n in data.shape))):
            orig = data[index].item()
            data[index] = orig + eps
            plus = _detached(func, inputs)
            data[index] = orig - eps
            minus = _detached(func, inputs)
            data[index] = orig
            with no_grad():
                for b, k in enumerate(out_index):
                    d = (plus[k].to(outs[k].dtype) - minus[k].to(outs[k].dtype)) / (2 * eps)
                    jac[a][b][j] = d.reshape(-1)
    return jac


def _analytical(func, inputs, diff, out_index):
    from .._creation import zeros, zeros_like
    from . import grad as autograd_grad
    outs = _outputs(func, inputs)
    jac = [[zeros(inputs[i].numel(), outs[k].numel(), dtype=outs[k].dtype)
            for k in out_index] for i in diff]
    diff_inputs = [inputs[i] for i in diff]
    for b, k in enumerate(out_index):
        out = outs[k]
        for m in range(out.numel()):
            v = zeros_like(out).reshape(-1)
            v[m] = 1
            grads = autograd_grad(out, diff_inputs, v.reshape(out.shape), retain_graph=True,
                                  allow_unused=True)
            for a, g in enumerate(grads):
                if g is not None:
                    jac[a][b][:, m] = g.detach().reshape(-1).to(out.dtype)
    return jac


def _now(func):
    """What stands for `func` now: an operator passed in (`ember.sin`) is the original, and
    while a dual level is open its forward-AD wrapper stands for it (ember.view_as_complex and
    the others used here are looked up when called, for the same reason)."""
    return _patch_ops.installed(_patch_ops.public(func))


def _forward_analytical(func, inputs, diff, out_index):
    """The Jacobians forward-mode AD gives: one jvp per input element (a unit tangent)."""
    from .._creation import zeros, zeros_like
    from . import forward_ad
    outs = _outputs(func, inputs)
    jac = [[zeros(inputs[i].numel(), outs[k].numel(), dtype=outs[k].dtype)
            for k in out_index] for i in diff]
    for a, i in enumerate(diff):
        for j in range(inputs[i].numel()):
            with forward_ad.dual_level():
                args = list(inputs)
                for c, m in enumerate(diff):
                    tangent = zeros_like(inputs[m], memory_format=_contiguous())
                    if c == a:
                        tangent.view(-1)[j] = 1
                    args[m] = forward_ad.make_dual(inputs[m], tangent)
                results = _tuple(_now(func)(*args))
                for b, k in enumerate(out_index):
                    tangent = forward_ad.unpack_dual(results[k]).tangent
                    if tangent is not None:
                        jac[a][b][j] = tangent.detach().reshape(-1).to(outs[k].dtype)
    return jac


def _contiguous():
    from .. import contiguous_format
    return contiguous_format


def _fail(message, raise_exception):
    if raise_exception:
        raise GradcheckError(message)
    return False


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """Check the gradients of `func` at `inputs` against finite differences (use float64).

    Returns True, or raises `GradcheckError` (False with `raise_exception=False`).

    >>> x = ember.randn(3, dtype=ember.float64, requires_grad=True)
    >>> ember.autograd.gradcheck(ember.sin, (x,))
    True
    """
    inputs = _tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    for n, i in enumerate(diff):
        if inputs[i].dtype.is_floating_point and inputs[i].dtype.itemsize < 8 or \
                inputs[i].dtype.is_complex and inputs[i].dtype.itemsize < 16:
            _warn.warn(f"Input #{n} requires gradient and is not a double precision floating "
                       f"point or complex. This check will likely fail if all the inputs are "
                       f"not of double precision floating point or complex. ", UserWarning,
                       stacklevel=2)
    outs = _outputs(func, inputs)
    out_index = [k for k, o in enumerate(outs) if _is_tensor(o) and o.requires_grad]
    modes = [m for m, on in (("backward", check_backward_ad), ("forward", check_forward_ad))
             if on]
    if not modes or not out_index:
        return True
    if any(inputs[i].is_complex() for i in diff):
        func, inputs = _real_inputs(func, inputs, diff)
    complex_outs = [b for b, k in enumerate(out_index) if outs[k].is_complex()]
    parts = [(func, {})] if not complex_outs else [
        (_output_part(func, part), {b: f"While considering the {word} part of complex "
                                       f"outputs only, " for b in complex_outs})
        for part, word in (("imag", "imaginary"), ("real", "real"))]
    for part_func, prefixes in parts:
        for mode in modes:
            if not _compare(part_func, inputs, diff, out_index, eps, atol, rtol, nondet_tol,
                            raise_exception, prefixes, mode):
                return False
    return True


def _real_inputs(func, inputs, diff):
    """NOTE [ Complex gradcheck ]: a complex input is checked as the real tensor of its real
    and imaginary parts (`view_as_real`), and a complex output as its imaginary part, then its
    real part (as torch checks them, and with torch's "While considering the ... part of
    complex outputs only" in a failure's message); this gives (func, inputs) with the complex
    inputs in `diff` replaced by such real leaves, which `func` views as complex again."""
    import ember
    complex_at = {i for i in diff if inputs[i].is_complex()}
    with no_grad():
        reals = tuple(ember.view_as_real(x.detach().clone()).requires_grad_() if i in complex_at
                      else x for i, x in enumerate(inputs))

    def on_real_inputs(*args):
        return _now(func)(*(ember.view_as_complex(x) if i in complex_at else x
                            for i, x in enumerate(args)))
    return on_real_inputs, reals


def _output_part(func, part):
    """func with each complex output replaced by its `part` ("real" or "imag")."""
    def one_part(*args):
        return tuple(getattr(o, part) if _is_tensor(o) and o.is_complex() else o
                     for o in _tuple(_now(func)(*args)))
    return one_part


def _compare(func, inputs, diff, out_index, eps, atol, rtol, nondet_tol, raise_exception,
             prefixes, mode):
    """True where the Jacobians of func that `mode` ("backward" or "forward") AD computes match
    the numerical ones (and backward is reentrant); else _fail's answer (a failing output's
    message opens with its prefix)."""
    numerical = _numerical(func, inputs, diff, out_index, eps)
    computed = _analytical if mode == "backward" else _forward_analytical
    analytical = computed(func, inputs, diff, out_index)
    what = "Jacobian" if mode == "backward" else "Jacobian computed with forward mode"
    for a in range(len(diff)):
        for b in range(len(out_index)):
            n, g = numerical[a][b], analytical[a][b]
            if not g.to(n.dtype).allclose(n, rtol=rtol, atol=atol):
                return _fail(f"{prefixes.get(b, '')}{what} mismatch for output {b} with "
                             f"respect to input {a},\nnumerical:{n}\nanalytical:{g}\n",
                             raise_exception)
    if mode == "forward":
        return True
    again = _analytical(func, inputs, diff, out_index)
    for a in range(len(diff)):
        for b in range(len(out_index)):
            if (again[a][b] - analytical[a][b]).abs().max().item() > nondet_tol:
                return _fail(f"Backward is not reentrant, i.e., running backward with same input "
                             f"and grad_output multiple times gives different values, although "
                             f"analytical gradient matches numerical gradient.The tolerance for "
                             f"nondeterminism was {nondet_tol}.", raise_exception)
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """Check second derivatives: gradcheck of the function (inputs, v) -> grad(func, inputs, v),
    with random `grad_outputs` v in [-1, 1) unless given."""
    from .. import rand
    from . import grad as autograd_grad
    inputs = _tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    if grad_outputs is None:
        outs = [o for o in _outputs(func, inputs) if _is_tensor(o) and o.requires_grad]
        with no_grad():
            grad_outputs = tuple((rand(o.shape, dtype=o.dtype) * 2 - 1).requires_grad_()
                                 for o in outs)
    grad_outputs = _tuple(grad_outputs)
    count = len(inputs)

    def first_derivative(*args):
        ins, vs = args[:count], args[count:]
        outs = [o for o in _outputs(func, ins) if _is_tensor(o) and o.requires_grad]
        grads = autograd_grad(outs, [ins[i] for i in diff], vs, create_graph=True,
                              allow_unused=True)
        return tuple(g for g in grads if g is not None)

    if not check_rev_over_rev:
        return True
    return gradcheck(first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol)
