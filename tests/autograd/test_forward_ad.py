"""autograd.forward_ad: levels, make_dual / unpack_dual and their errors, and tangents J t of
many ops checked against central finite differences (NumPy, float64) or values worked out by
hand; also that tangents are gone, and the operators unpatched, once the level is left."""
import re

import numpy as np
import pytest

import ember as torch

fw = torch.autograd.forward_ad
F = torch.nn.functional


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}$")


def jvp_of(f, *pairs):
    """(primal outputs, tangents) of `f` at dual inputs made of (primal, tangent) pairs."""
    with fw.dual_level():
        out = f(*[fw.make_dual(p, t) for p, t in pairs])
        outs = out if isinstance(out, (tuple, list)) else (out,)
        unpacked = [fw.unpack_dual(o) for o in outs]
    return [u.primal for u in unpacked], [u.tangent for u in unpacked]


def finite_difference(f, *pairs, eps=1e-6):
    """J t by central differences of `f` (run without any dual level) in float64."""
    plus = f(*[p + eps * t for p, t in pairs])
    minus = f(*[p - eps * t for p, t in pairs])
    plus = plus if isinstance(plus, (tuple, list)) else (plus,)
    minus = minus if isinstance(minus, (tuple, list)) else (minus,)
    return [(a.numpy() - b.numpy()) / (2 * eps) for a, b in zip(plus, minus)]


rng = np.random.default_rng(0)


def rand(*shape):
    return torch.tensor(rng.standard_normal(shape))


X, TX = rand(3, 4), rand(3, 4)
Y, TY = rand(3, 4), rand(3, 4)
M, TM = rand(4, 2), rand(4, 2)
P = torch.tensor(rng.uniform(0.5, 2.0, (3, 4)))          # positive, for log, sqrt, pow

CASES = {
    "mul": (lambda x, y: x * y + x, (X, TX), (Y, TY)),
    "div": (lambda x, p: x / p, (X, TX), (P, TY)),
    "exp_sin": (lambda x: x.exp() * torch.sin(x), (X, TX)),
    "tanh_sigmoid": (lambda x: torch.tanh(x) + x.sigmoid(), (X, TX)),
    "log_sqrt": (lambda p: p.log() + p.sqrt(), (P, TX)),
    "pow_tensor": (lambda p, e: p ** e, (P, TX), (Y, TY)),
    "atan2": (lambda x, y: torch.atan2(x, y), (X, TX), (Y, TY)),
    "broadcast": (lambda x, b: x + b, (X, TX), (rand(4), rand(4))),
    "matmul": (lambda x, m: x @ m, (X, TX), (M, TM)),
    "einsum": (lambda x, y: torch.einsum("ij,kj->ik", x, y), (X, TX), (Y, TY)),
    "det": (lambda a: torch.linalg.det(a), (rand(3, 3), rand(3, 3))),
    "inv": (lambda a: torch.linalg.inv(a + 3 * torch.eye(3, dtype=torch.float64)),
            (rand(3, 3), rand(3, 3))),
    "sum_mean": (lambda x: (x.sum(0), x.mean(1, keepdim=True)), (X, TX)),
    "prod_norm": (lambda x: (x.prod(1), x.norm()), (X, TX)),
    "logsumexp_var": (lambda x: (x.logsumexp(1), x.var(0)), (X, TX)),
    "cumsum": (lambda x: x.cumsum(1), (X, TX)),
    "max": (lambda x: x.max(1).values, (X, TX)),
    "views": (lambda x: (x.T, x[1], x[:, 1:3], x.reshape(2, 6), x.flatten()), (X, TX)),
    "index": (lambda x: (x[torch.tensor([2, 0, 2])], x.gather(1, torch.tensor([[3], [0], [1]]))),
              (X, TX)),
    "cat_stack": (lambda x, y: (torch.cat([x, y]), torch.stack([x, y], 2)), (X, TX), (Y, TY)),
    "where": (lambda x, y: torch.where(x > 0, x * y, -y), (X, TX), (Y, TY)),
    "relu_softmax": (lambda x: (F.relu(x), F.softmax(x, 1), F.log_softmax(x, 0)), (X, TX)),
    "gelu_layer_norm": (lambda x: (F.gelu(x), F.layer_norm(x, (4,))), (X, TX)),
    "linear": (lambda x, w, b: F.linear(x, w, b), (X, TX), (rand(2, 4), rand(2, 4)),
               (rand(2), rand(2))),
    "conv2d": (lambda x, w: F.conv2d(x, w, padding=1), (rand(1, 2, 4, 4), rand(1, 2, 4, 4)),
               (rand(3, 2, 3, 3), rand(3, 2, 3, 3))),
    "mse": (lambda x, y: F.mse_loss(x, y), (X, TX), (Y, TY)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tangents_equal_finite_differences(name):
    f, *pairs = CASES[name]
    primals, tangents = jvp_of(f, *pairs)
    expected_primals = f(*[p for p, _ in pairs])
    expected_primals = expected_primals if isinstance(expected_primals, (tuple, list)) \
        else (expected_primals,)
    for got, want in zip(primals, expected_primals):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)
    for got, want in zip(tangents, finite_difference(f, *pairs)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_a_module_forward_carries_tangents():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.Tanh(),
                                torch.nn.Conv1d(1, 2, 3), torch.nn.Flatten())
    model = model.double()
    x, t = rand(2, 1, 4), rand(2, 1, 4)
    with torch.no_grad():
        (want,) = finite_difference(model, (x, t))
    (primal,), (tangent,) = jvp_of(model, (x, t))
    np.testing.assert_allclose(tangent.detach().numpy(), want, rtol=1e-5, atol=1e-7)
    assert primal.grad_fn is not None       # the weights require grad: reverse mode still works


def test_recurrent_modules_carry_tangents():
    torch.manual_seed(0)
    lstm, gru = torch.nn.LSTM(3, 4, batch_first=True).double(), torch.nn.GRU(3, 4).double()
    x, t = rand(2, 5, 3), rand(2, 5, 3)
    for f in (lambda x: lstm(x)[0], lambda x: gru(x)[1]):
        with torch.no_grad():
            (want,) = finite_difference(f, (x, t))
        _, (tangent,) = jvp_of(f, (x, t))
        np.testing.assert_allclose(tangent.detach().numpy(), want, rtol=1e-5, atol=1e-7)


def test_a_backward_that_cannot_be_differentiated_again_is_taken_row_by_row():
    # hardsigmoid's backward refuses to be differentiated again: J t is taken one output
    # element at a time (the slope is 1/6 inside (-3, 3), 0 outside)
    _, (tangent,) = jvp_of(lambda x: F.hardsigmoid(x), (torch.tensor([1., -4., 0.]),
                                                         torch.tensor([3., 1., -6.])))
    assert tangent.tolist() == [0.5, 0., -1.]


def test_a_custom_function_taken_before_the_level_still_uses_its_jvp():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            raise AssertionError("forward AD runs jvp, not backward")

        @staticmethod
        def jvp(ctx, t):
            return 10 * t                   # (wrong on purpose: it must be what comes out)

    square = Square.apply                   # (not the level's wrapper: taken before it)
    _, (tangent,) = jvp_of(square, (torch.tensor([1., -2.]), torch.tensor([3., 1.])))
    assert tangent.tolist() == [30., 10.]


def test_tangent_by_hand_and_its_printing():
    x = torch.tensor([1., 2., 3.])
    with fw.dual_level():
        d = fw.make_dual(x, torch.tensor([1., 0., 0.5]))
        y = d * d
        assert fw.unpack_dual(y).tangent.tolist() == [2., 0., 3.]
        assert repr(y) == "tensor([1., 4., 9.], tangent=tensor([2., 0., 3.]))"
        assert repr(d.sum()) == "tensor(6., tangent=1.5)"
        assert repr(fw.unpack_dual(y)) == ("UnpackedDualTensor(primal=tensor([1., 4., 9.]), "
                                           "tangent=tensor([2., 0., 3.]))")
    assert repr(y) == "tensor([1., 4., 9.])"


def test_complex_tangents():
    z, t = torch.tensor([1 + 1j, 2 - 1j]), torch.tensor([1j, 1 + 0j])
    (_,), (tangent,) = jvp_of(lambda z: z * z, (z, t))
    assert tangent.tolist() == [2 * (1 + 1j) * 1j, 2 * (2 - 1j)]
    (_,), (tangent,) = jvp_of(lambda z: z.abs(), (torch.tensor([3 + 4j]), torch.tensor([1j])))
    np.testing.assert_allclose(tangent.numpy(), [0.8])      # Re(conj(z) t) / |z|


def test_levels_and_their_errors():
    with fw.dual_level() as level:
        assert level == 0
        with raises(RuntimeError, "Nested forward mode AD is not supported at the moment"):
            fw.enter_dual_level()
        with raises(RuntimeError, "Trying to exit a forward AD level that was not the last "
                                  "one that was created. This is not supported."):
            fw.exit_dual_level(level=3)
        with raises(RuntimeError, "Nested forward mode AD is not supported at the moment"):
            torch.func.jvp(torch.sin, (torch.ones(2),), (torch.ones(2),))
    with raises(RuntimeError, "Dual level must be a positive number."):
        fw.exit_dual_level()
    assert fw.enter_dual_level() == 0
    fw.exit_dual_level()


def test_make_dual_errors():
    x = torch.ones(3)
    with raises(RuntimeError, "Trying to create a dual Tensor for forward AD but no level "
                              "exists, make sure to enter_dual_level() first."):
        fw.make_dual(x, x)
    with fw.dual_level():
        with raises(RuntimeError, "Trying to set a forward gradient that has a different size "
                                  "than that of the original Tensor, this is not supported. "
                                  "Tensor is of size [3] while the given forward gradient is "
                                  "of size [2]."):
            fw.make_dual(x, torch.ones(2))
        with raises(ValueError, "Expected tangent to be floating point or complex, but got: "
                                "torch.int64"):
            fw.make_dual(x, torch.ones(3, dtype=torch.int64))
        with raises(ValueError, "Expected primal to be floating point or complex, but got: "
                                "torch.int64"):
            fw.make_dual(torch.arange(3), x)
        d = fw.make_dual(x, x)
        with raises(RuntimeError, "Making a dual Tensor based on a Tensor that already has a "
                                  "forward gradient at the same level 0 is not supported."):
            fw.make_dual(d, x)
        with raises(NotImplementedError, "Trying to use forward AD with exp_out that does not "
                                         "support it because it is an out= function"):
            torch.exp(d, out=torch.empty(3))


def test_dual_and_primal_are_views_and_the_tangent_is_kept_as_given():
    x, t = torch.ones(3), torch.zeros(3)
    with fw.dual_level():
        d = fw.make_dual(x, t)
        assert d._base is x and not d.requires_grad and d.grad_fn is None
        primal, tangent = fw.unpack_dual(d)
        assert tangent is t and primal._base is x and primal.data_ptr() == d.data_ptr()
        assert fw.unpack_dual(primal).tangent is None
        assert fw.unpack_dual(x).tangent is None
        assert fw.unpack_dual(d.argmax()).tangent is None
        assert fw.unpack_dual(d.detach()).tangent is None
        assert fw.unpack_dual(torch.zeros_like(d)).tangent is None
    assert fw.unpack_dual(d) == (d, None)
    with fw.dual_level():
        assert fw.unpack_dual(d).tangent is None        # tangents die with their level


def test_in_place_ops_and_views_share_tangents():
    with fw.dual_level():
        d = fw.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
        d.mul_(3)
        assert fw.unpack_dual(d).tangent.tolist() == [3., 3.]
        a = torch.zeros(4)
        a[1:3] = d
        assert fw.unpack_dual(a).tangent.tolist() == [0., 3., 3., 0.]
        q = torch.zeros(4)
        w = q[1:3]
        w.add_(d)
        assert fw.unpack_dual(q).tangent.tolist() == [0., 3., 3., 0.]
        e = fw.make_dual(torch.ones(4), torch.arange(4.))
        v = e[0:2]
        assert fw.unpack_dual(v).tangent._base is not None
        v.mul_(3)
        assert fw.unpack_dual(e).tangent.tolist() == [0., 3., 2., 3.]
        c = e.clone()
        c.exp_()
        assert fw.unpack_dual(e).tangent.tolist() == [0., 3., 2., 3.]


def test_no_grad_still_propagates_tangents_and_reverse_mode_composes():
    x, t = torch.tensor([0., 1.]), torch.tensor([1., 2.])
    with fw.dual_level():
        with torch.no_grad():
            y = fw.make_dual(x, t).exp()
        np.testing.assert_allclose(fw.unpack_dual(y).tangent.numpy(), np.exp([0., 1.]) * [1, 2])
    p = x.clone().requires_grad_()
    with fw.dual_level():
        tangent = fw.unpack_dual((fw.make_dual(p, t) ** 2).sum()).tangent    # 2 p . t
        tangent.backward()
    assert p.grad.tolist() == [2., 4.]


def test_dropout_draws_one_mask_for_value_and_tangent():
    x = torch.ones(1000)
    torch.manual_seed(0)
    with fw.dual_level():
        y = F.dropout(fw.make_dual(x, x), 0.5)
        primal, tangent = fw.unpack_dual(y)
    assert primal.tolist() == tangent.tolist()


def test_custom_function_needs_jvp():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    with fw.dual_level():
        with raises(NotImplementedError, "You must implement the jvp function for custom "
                                         "autograd.Function to use it with forward mode AD."):
            Square.apply(fw.make_dual(torch.ones(2), torch.ones(2)))

    class WithJvp(Square):
        @staticmethod
        def jvp(ctx, t):
            return 2 * t

    (_,), (tangent,) = jvp_of(WithJvp.apply, (torch.tensor([3.]), torch.tensor([1.])))
    assert tangent.tolist() == [2.]                     # jvp's answer, as torch gives it


def test_leaving_the_level_puts_the_operators_back():
    originals = (torch.Tensor.__mul__, torch.Tensor.__dict__["T"], torch.exp,
                 F.relu, torch.nn.Conv2d.__dict__["_function"])
    with fw.dual_level():
        assert torch.Tensor.__mul__ is not originals[0]
    assert (torch.Tensor.__mul__, torch.Tensor.__dict__["T"], torch.exp, F.relu,
            torch.nn.Conv2d.__dict__["_function"]) == originals


def test_logcumsumexp_tangent_is_finite():
    # The backward works in log space through log|grad|; forward AD differentiates it with
    # respect to a zero cotangent, where that form has an infinite derivative (it gave NaN).
    # d out_i = sum over k <= i of exp(x_k - out_i) t_k.
    x = np.array([[0.3, -1.2, 2.0, 0.5], [1.0, 1.0, -3.0, 0.0]])
    t = np.array([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, 2.0, -1.0]])
    out = np.log(np.cumsum(np.exp(x), axis=1))
    expected = np.array([[sum(np.exp(x[r, k] - out[r, i]) * t[r, k] for k in range(i + 1))
                          for i in range(4)] for r in range(2)])
    with fw.dual_level():
        y = torch.logcumsumexp(fw.make_dual(torch.tensor(x), torch.tensor(t)), 1)
        tangent = fw.unpack_dual(y).tangent
    np.testing.assert_allclose(tangent.numpy(), expected, rtol=1e-12)
    _, jvp = torch.func.jvp(lambda a: a.logcumsumexp(0), (torch.tensor(x[0]),),
                            (torch.tensor(t[0]),))
    np.testing.assert_allclose(jvp.numpy(), expected[0], rtol=1e-12)
    # reverse mode and its double backward keep the log-space form
    xr = torch.tensor(x, requires_grad=True)
    g, = torch.autograd.grad(xr.logcumsumexp(1).sum(), xr, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [[sum(np.exp(x[r, k] - out[r, i])
                                                         for i in range(k, 4))
                                                     for k in range(4)] for r in range(2)])
