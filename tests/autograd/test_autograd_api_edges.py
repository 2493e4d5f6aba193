"""Edges of the autograd API found by the autograd-API oracle snippets: calling nodes by hand,
autograd.grad / backward argument handling, custom Function corner cases, error texts of
in-place modification, saved values, factories' requires_grad, node names of a few ops, and
autograd.functional's strict mode. Expected values are worked out by hand."""
import re

import pytest

import ember as torch


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}$")


def raises_start(exc, text):
    """As `raises`, for errors that carry a note after torch's text."""
    return pytest.raises(exc, match=f"^{re.escape(text)}")


# -- calling a node ----------------------------------------------------------------------------

def test_calling_a_node_unwraps_a_single_gradient_and_checks_its_arguments():
    x = torch.ones(3, requires_grad=True)
    g = x.sum().grad_fn(torch.tensor(1.))
    assert isinstance(g, torch.Tensor) and g.tolist() == [1., 1., 1.]
    pair = (x * 2).grad_fn(torch.ones(3))           # self and the number operand
    assert isinstance(pair, tuple) and pair[0].tolist() == [2., 2., 2.] and pair[1] is None
    assert torch.cat([x, x]).grad_fn(torch.ones(6))[1].tolist() == [1., 1., 1.]
    assert (x * 2).grad_fn.next_functions[0][0](torch.ones(3)) == ()
    with raises(TypeError, "expected 1 arguments, got 2 instead"):
        (x * 2).grad_fn(torch.ones(3), torch.ones(3))
    with raises(TypeError, "argument 0 is not a Variable"):
        (x * 2).grad_fn(3)
    a, _ = x.split([1, 2])
    with raises(TypeError, "expected 2 arguments, got 1 instead"):
        a.grad_fn(torch.ones(1))
    assert a.grad_fn(torch.ones(1), None).tolist() == [1., 0., 0.]
    # no gradient at all: None for each input
    w = torch.ones(3, requires_grad=True)
    assert x.exp().grad_fn(None) is None and a.grad_fn(None, None) is None
    assert (x * w).grad_fn(None) == (None, None)
    assert (x * 2).grad_fn.next_functions[0][0](None) == ()


# -- autograd.grad and backward arguments --------------------------------------------------------

def test_grad_with_an_input_given_twice_returns_its_gradient_twice():
    x = torch.ones(3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    gx1, gx2 = torch.autograd.grad((x * w * 2).sum(), [x, x])
    assert gx1.tolist() == gx2.tolist() == [2., 2., 2.]


def test_backward_with_an_input_given_twice_accumulates_once():
    x = torch.ones(2, requires_grad=True)
    (x * 2).sum().backward(inputs=[x, x])
    assert x.grad.tolist() == [2., 2.]


def test_gradient_arguments_are_iterated_and_must_hold_tensors():
    x = torch.ones(3, requires_grad=True)
    with raises(TypeError, "'float' object is not iterable"):
        torch.autograd.grad(x * 2, x, grad_outputs=5.)
    with raises(TypeError, "'int' object is not iterable"):
        torch.autograd.grad(5, x)
    with raises(TypeError, "'int' object is not iterable"):
        torch.autograd.grad((x * 2).sum(), 5)
    with raises(TypeError, "gradients can be either Tensors or None, but got list"):
        torch.autograd.grad(x * 2, x, grad_outputs=[[1., 1., 1.]])
    with raises(TypeError, "gradients can be either Tensors or None, but got str"):
        torch.autograd.grad((x * 2).sum(), x, "ab")
    with raises(TypeError, "gradients can be either Tensors or None, but got float"):
        torch.autograd.backward((x * 2).sum(), [5.])
    with raises(AssertionError, "Expected output to be a torch.Tensor"):
        torch.autograd.grad([(x * 2).sum(), 5], x)
    with raises(RuntimeError, "all inputs have to be Tensors or GradientEdges, but got int"):
        torch.autograd.grad((x * 2).sum(), [x, 5])
    assert torch.autograd.grad((x * 2).sum(), {x})[0].tolist() == [2., 2., 2.]


_BATCHED = ("If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
            "as the batch dimension. The sizes of the remaining dimensions are expected to match "
            "the shape of corresponding output, but a mismatch was detected: grad_output[0] has "
            "a shape of {} and output[0] has a shape of torch.Size([3]). If you only want some "
            "tensors in `grad_output` to be considered batched, consider using vmap.")


def test_batched_grad_checks_its_grad_outputs():
    x = torch.ones(3, requires_grad=True)
    g, = torch.autograd.grad((x * 2).sum(), x, torch.tensor([1., 2.]), is_grads_batched=True)
    assert g.tolist() == [[2., 2., 2.], [4., 4., 4.]]
    with raises(ValueError, "vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                            "but that input is a Tensor of dimensionality 0 so expected in_dim "
                            "to satisfy 0 <= in_dim < 0."):
        torch.autograd.grad((x * 2).sum(), x, is_grads_batched=True)
    with raises(RuntimeError, "invalid gradient at index 0 - got [] but expected shape "
                              "compatible with [1]"):
        torch.autograd.grad((x * 2).sum(0, keepdim=True), x, is_grads_batched=True)
    with raises(IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"):
        torch.autograd.grad((x * 2).sum(), x, torch.tensor(1.), is_grads_batched=True)
    # (torch's text names the shape less its first two dims)
    with raises(RuntimeError, _BATCHED.format("torch.Size([])")):
        torch.autograd.grad(x * 2, x, torch.ones(2, 4), is_grads_batched=True)
    with raises(RuntimeError, _BATCHED.format("torch.Size([3])")):
        torch.autograd.grad(x * 2, x, torch.ones(2, 1, 3), is_grads_batched=True)
    with raises(ValueError, "vmap: Expected all tensors to have the same size in the mapped "
                            "dimension, got sizes [2, 3] for the mapped dimension"):
        torch.autograd.grad([x * 2, x * 3], x, [torch.ones(2, 3), torch.ones(3, 3)],
                            is_grads_batched=True)


# -- custom Functions -------------------------------------------------------------------------

class _Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


def test_a_function_node_is_not_callable_and_has_no_public_materialize_flag():
    y = _Double.apply(torch.ones(2, requires_grad=True))
    with raises(TypeError, "'_DoubleBackward' object is not callable"):
        y.grad_fn(torch.ones(2))
    assert not hasattr(y.grad_fn, "materialize_grads")


def test_a_function_returning_a_number_as_gradient_is_refused():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return 1.0

    with raises(RuntimeError, "expected Variable or None (got float)"):
        F.apply(torch.ones(2, requires_grad=True)).sum().backward()


def test_integer_outputs_of_a_function_do_not_require_grad():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x.long()

        @staticmethod
        def backward(ctx, g, gi):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    y, i = F.apply(x)
    assert y.requires_grad and not i.requires_grad and i.grad_fn is None
    y.sum().backward()
    assert x.grad.tolist() == [2., 2.]


def test_marking_dirty_an_input_that_is_not_returned_is_refused():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with raises(RuntimeError, "Some elements marked as dirty during the forward method were "
                              "not returned as output. The inputs that are modified inplace "
                              "must all be outputs of the Function."):
        F.apply(torch.ones(2, requires_grad=True) * 1)


def test_once_differentiable_results_hang_from_an_error_node():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, g):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    g, = torch.autograd.grad((F.apply(x) ** 2).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "Error"
    assert g.grad_fn.name() == "torch::autograd::Error"


# -- in-place modification errors ---------------------------------------------------------------

_MODIFIED = ("one of the variables needed for gradient computation has been modified by an "
             "inplace operation: [torch.FloatTensor [{}]], which is output 0 of {}, is at "
             "version {}; expected version {} instead. Hint: enable anomaly detection to find "
             "the operation that failed to compute its gradient, with "
             "torch.autograd.set_detect_anomaly(True, check_nan=False).")


@pytest.mark.filterwarnings("ignore:A tensor needed for gradient computation")
def test_the_modified_error_names_the_producer_as_torch_does():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 1
    y.copy_(torch.zeros(2))
    z = y.sin()
    y.detach().add_(1)
    with raises_start(RuntimeError,
                      _MODIFIED.format(2, "torch::autograd::CopyBackwards", 2, 1)):
        z.sum().backward()
    # a saved view whose base was written since: torch's grad_fn of it is an AsStrided node
    y = x.clone()
    y[0] = y[1] * y[0]
    with raises_start(RuntimeError, _MODIFIED.format("", "AsStrided", 1, 0)):
        y.sum().backward()
    # ... and one of several views made together may not be used at all
    y = x * 1
    a, _ = y.split(1)
    z = a * a
    y.add_(2)
    with pytest.raises(RuntimeError, match="^Output 0 of Split is a view and its base "
                                           "or another view of its base has been modified "
                                           "inplace. This view is the output of a function"):
        z.sum().backward()


def test_copy_backwards_name():
    y = torch.ones(2, requires_grad=True) * 1
    y.copy_(torch.zeros(2))
    assert y.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert type(y.grad_fn).__name__ == "CopyBackwards"


# -- saved values ------------------------------------------------------------------------------

def test_saved_numbers_are_wrapped_tensors_and_unsaved_values_stay_none():
    x = torch.ones(2, requires_grad=True)
    saved = (x * 3).grad_fn._saved_other
    assert isinstance(saved, torch.Tensor) and saved.dtype == torch.int64 and saved.item() == 3
    assert (x * 3.5).grad_fn._saved_other.dtype == torch.float64
    assert (x * True).grad_fn._saved_other.dtype == torch.bool
    assert x.pow(2).grad_fn._saved_exponent == 2          # a Scalar argument stays a number
    y = x * 2
    y.sum().backward()
    assert y.grad_fn._saved_self is None        # never saved: other needs no grad
    y = x * x
    y.sum().backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
        y.grad_fn._saved_self


def test_data_of_a_tensor_requiring_grad_must_be_floating():
    x = torch.ones(3, requires_grad=True)
    with raises(RuntimeError, "data set to a tensor that requires gradients must be floating "
                              "point or complex dtype"):
        x.data = torch.zeros(3, dtype=torch.long)
    x.data = torch.zeros(3, dtype=torch.complex64)
    assert x.dtype == torch.complex64
    y = torch.ones(3)
    y.data = torch.zeros(3, dtype=torch.long)
    assert y.dtype == torch.int64


# -- grad mode, views, factories, node names ---------------------------------------------------

def test_set_grad_enabled_names_its_argument_as_torch():
    with raises(TypeError, "set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                           "not str"):
        torch.set_grad_enabled("yes")


def test_view_as_dtype_is_outside_autograd():
    x = torch.ones(2, 4, requires_grad=True)
    for dtype, shape in ((torch.float32, (2, 4)), (torch.int32, (2, 4)),
                         (torch.float16, (2, 8)), (torch.float64, (2, 2))):
        v = x.view(dtype)
        assert (v.requires_grad, v.grad_fn, v._base, v.is_leaf) == (False, None, None, True)
        assert tuple(v.shape) == shape
    y = x * 1
    v = y.view(torch.int32)
    v.add_(1)                   # shares the memory and the version counter
    assert y._version == 1 and y.grad_fn.name() == "MulBackward0"


def test_conjugate_transpose_is_a_transpose_node():
    z = torch.ones(2, 3, dtype=torch.complex64, requires_grad=True)
    assert z.H.grad_fn.name() == "ConjBackward0"
    assert z.H.grad_fn.next_functions[0][0].name() == "TransposeBackward0"


def test_in_place_samplers_name_their_overload():
    x = torch.ones(3, requires_grad=True)
    names = {}
    for call in ("random_()", "random_(5)", "random_(1, 5)", "random_(to=5)", "bernoulli_()",
                 "bernoulli_(torch.full((3,), 0.5))"):
        y = x * 1
        eval("y." + call)
        names[call] = y.grad_fn.name()
    assert names == {"random_()": "RandomBackward2", "random_(5)": "RandomBackward1",
                     "random_(1, 5)": "RandomBackward0", "random_(to=5)": "RandomBackward1",
                     "bernoulli_()": "BernoulliBackward2",
                     "bernoulli_(torch.full((3,), 0.5))": "BernoulliBackward1"}
    y = torch.zeros(100).random_(to=5)
    assert 0 <= y.min().item() and y.max().item() < 5


def test_integer_samplers_refuse_requires_grad_in_the_factories_text():
    text = "Only Tensors of floating point and complex dtype can require gradients"
    with raises(RuntimeError, text):
        torch.randint(0, 5, (2,), requires_grad=True)
    with raises(RuntimeError, text):
        torch.randperm(3, requires_grad=True)
    with raises(RuntimeError, text):
        torch.randint_like(torch.ones(2, dtype=torch.long), 5, requires_grad=True)
    assert torch.randint_like(torch.ones(2), 5, requires_grad=True).requires_grad


@pytest.mark.parametrize("call, name", [
    (lambda x: torch.sum(x, 0, out=torch.empty(())), "sum"),
    (lambda x: torch.mean(x, 0, out=torch.empty(())), "mean"),
    (lambda x: torch.prod(x, 0, out=torch.empty(())), "prod"),
    (lambda x: torch.max(x, out=torch.empty(())), "max"),
    (lambda x: torch.min(x, out=torch.empty(())), "min"),
    (lambda x: torch.norm(x, out=torch.empty(())), "linalg_vector_norm"),
    (lambda x: torch.nanmean(x, out=torch.empty(())), "nansum"),
])
def test_reductions_name_themselves_as_torch_when_refusing_out(call, name):
    x = torch.ones(3, requires_grad=True)
    with raises(RuntimeError, f"{name}(): functions with out=... arguments don't support "
                              f"automatic differentiation, but one of the arguments requires "
                              f"grad."):
        call(x)


# -- autograd.functional strict mode -----------------------------------------------------------

_NO_GRAD_OUTPUT = ("Output 0 of the user-provided function does not require gradients. The "
                   "outputs must be computed in a differentiable manner from the input when "
                   "running in strict mode.")


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_strict_mode_refuses_outputs_that_do_not_require_grad(name):
    fn = getattr(torch.autograd.functional, name)
    constant = (lambda x: torch.ones(2)) if name in ("vjp", "jvp") else \
        (lambda x: torch.ones(()).sum())
    with raises(RuntimeError, _NO_GRAD_OUTPUT):
        fn(constant, torch.ones(2), torch.ones(2), strict=True)


@pytest.mark.parametrize("name", ["vhp", "hvp"])
def test_strict_second_order_refuses_a_constant_jacobian(name):
    fn = getattr(torch.autograd.functional, name)
    with pytest.raises(RuntimeError, match="^While computing the hessian, found that the "
                                           "jacobian of the user-provided function with "
                                           "respect to input 0 is independent of the input."):
        fn(lambda x: (x * 2).sum(), torch.ones(2), torch.ones(2), strict=True)
    _, res = fn(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]), torch.ones(2), strict=True)
    assert res.tolist() == [6., 12.]


# -- hook order, resize_, anomaly mode -----------------------------------------------------------

def test_tensor_hooks_then_retain_grad_then_node_pre_hooks():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    order = []
    y.register_hook(lambda g: order.append("t1"))
    y.grad_fn.register_prehook(lambda go: order.append("pre"))
    y.register_hook(lambda g: order.append("t2"))
    y.grad_fn.register_hook(lambda gi, go: order.append("post"))
    y.sum().backward()
    assert order == ["t1", "t2", "pre", "post"]
    # retain_grad sees the tensor hooks' change, not the node pre-hook's
    y = x * 2
    y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
    y.register_hook(lambda g: g + 1)
    y.retain_grad()
    x.grad = None
    y.sum().backward()
    assert y.grad.tolist() == [2., 2.] and x.grad.tolist() == [40., 40.]


def test_resize_to_the_same_shape_changes_nothing():
    y = torch.ones(2, 3).t()
    y.resize_(3, 2)
    assert y._version == 0 and y.stride() == (1, 3)
    y.resize_(2, 3)
    assert y._version == 1 and y.stride() == (3, 1)


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_detect_anomaly_is_no_decorator():
    with raises(TypeError, "'detect_anomaly' object is not callable"):
        @torch.autograd.detect_anomaly()
        def f():
            pass
    assert not torch.is_anomaly_enabled()


# -- in-place writes through views of another dtype ----------------------------------------------

def test_in_place_through_real_and_imag_views_of_a_complex_tensor():
    z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    y = z * 1
    r = y.real
    r.mul_(2)                       # y = 2 re(z) + i im(z)
    assert r.grad_fn.name() == "AsStridedBackward0"
    (r * 3).sum().backward()        # d(6 re z)/dz, as torch's conjugate convention: 6
    assert z.grad.tolist() == [6 + 0j, 6 + 0j]
    z.grad = None
    y = z * 1
    y.imag.zero_()                  # y = re(z): d(sum re y)/dz = 1, d(sum im y)/dz = 0
    (y * torch.tensor([1, 1j])).real.sum().backward()
    assert z.grad.tolist() == [1 + 0j, 0j]


def test_in_place_through_view_as_real_and_view_as_complex():
    z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    y = z * 1
    torch.view_as_real(y).mul_(torch.tensor([2., 3.]))       # y = 2 re z + 3i im z
    (y * torch.tensor([1j, 1])).real.sum().backward()
    # re(i y0) = -3 im z0 -> grad -3i; re(y1) = 2 re z1 -> grad 2
    assert z.grad.tolist() == [-3j, 2 + 0j]
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = x * 1
    torch.view_as_complex(y).mul_(1j)        # (a, b) -> (-b, a)
    (y * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
    # sum = -b0 + 2 a0 - 3 b1 + 4 a1
    assert x.grad.tolist() == [[2., -1.], [4., -3.]]


def test_function_apply_passes_keywords_as_torch():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, k=2):
            return x * w * k

        @staticmethod
        def backward(ctx, g):
            return g, g, None

    x = torch.ones(2, requires_grad=True)
    w = torch.ones(2, requires_grad=True)
    y = F.apply(x, w=w, k=3)            # keywords take their parameters' places
    assert y.tolist() == [3., 3.] and y.grad_fn.needs_input_grad == (True, True, False)
    with raises(TypeError, "forward() got an unexpected keyword argument 'j'"):
        F.apply(x, w, j=1)

    class K(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, *, k=2):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g

    with raises(TypeError, "forward() got an unexpected keyword argument 'k'"):
        K.apply(x, k=3)                 # a keyword-only parameter cannot be reached

    seen = []

    class S(torch.autograd.Function):
        @staticmethod
        def forward(x, k=2):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append(inputs[1:])

        @staticmethod
        def backward(ctx, g):
            return g, None

    S.apply(x)
    S.apply(x, k=5)
    assert seen == [(2,), (5,)]         # setup_context's inputs include the defaults
