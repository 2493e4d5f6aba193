"""The training-step fast paths (F.linear in one kernel, relu's backward, cross_entropy's
backward, TBackward0 handing on its gradient) against NumPy references, the general paths and
numbers recorded from torch 2.13."""
import numpy as np
import pytest

import ember
import ember.nn.functional as F


def _rand(*shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_values_and_gradients_match_numpy(dtype, bias):
    x_np, w_np, b_np = _rand(5, 7, dtype=dtype), _rand(3, 7, dtype=dtype, seed=1), \
        _rand(3, dtype=dtype, seed=2)
    g_np = _rand(5, 3, dtype=dtype, seed=3)
    x = ember.from_numpy(x_np.copy()).requires_grad_()
    w = ember.from_numpy(w_np.copy()).requires_grad_()
    b = ember.from_numpy(b_np.copy()).requires_grad_() if bias else None
    y = F.linear(x, w, b)
    ref = x_np @ w_np.T + (b_np if bias else 0)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(y.detach().numpy(), ref, rtol=tol, atol=tol)
    y.backward(ember.from_numpy(g_np))
    np.testing.assert_allclose(x.grad.numpy(), g_np @ w_np, rtol=tol, atol=tol)
    np.testing.assert_allclose(w.grad.numpy(), g_np.T @ x_np, rtol=tol, atol=tol)
    # torch's layout: the weight's gradient is row-major like the weight, and no view
    assert w.grad.stride() == (7, 1) and w.grad._base is None
    if bias:
        np.testing.assert_allclose(b.grad.numpy(), g_np.sum(0), rtol=tol, atol=tol)
        assert b.grad.shape == (3,)


def test_linear_graph_names_as_torch():
    x = ember.randn(4, 6)
    w = ember.randn(2, 6, requires_grad=True)
    b = ember.randn(2, requires_grad=True)
    y = F.linear(x, w, b)
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    names = [type(n).__name__ if n is not None else None for n, _ in y.grad_fn.next_functions]
    assert names == ["AccumulateGrad", None, "TBackward0"]
    y = F.linear(x, w)
    assert type(y.grad_fn).__name__ == "MmBackward0"
    names = [type(n).__name__ if n is not None else None for n, _ in y.grad_fn.next_functions]
    assert names == [None, "TBackward0"]


@pytest.mark.parametrize("need", ["input", "weight", "bias"])
def test_linear_only_some_inputs_need_grad(need):
    x_np, w_np, b_np = _rand(4, 5), _rand(3, 5, seed=1), _rand(3, seed=2)
    x, w, b = (ember.from_numpy(a.copy()) for a in (x_np, w_np, b_np))
    {"input": x, "weight": w, "bias": b}[need].requires_grad_()
    F.linear(x, w, b).sum().backward()
    ones = np.ones((4, 3))
    expected = {"input": ones @ w_np, "weight": ones.T @ x_np, "bias": ones.sum(0)}[need]
    got = {"input": x, "weight": w, "bias": b}[need].grad.numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    for name, t in (("input", x), ("weight", w), ("bias", b)):
        if name != need:
            assert t.grad is None


@pytest.mark.parametrize("bias", [True, False])
def test_linear_gradcheck_and_double_backward(bias):
    x = ember.from_numpy(_rand(3, 4)).requires_grad_()
    w = ember.from_numpy(_rand(2, 4, seed=1)).requires_grad_()
    args = (x, w) + ((ember.from_numpy(_rand(2, seed=2)).requires_grad_(),) if bias else ())
    fn = (lambda x, w, b: F.linear(x, w, b).tanh()) if bias else \
        (lambda x, w: F.linear(x, w).tanh())
    assert ember.autograd.gradcheck(fn, args)
    assert ember.autograd.gradgradcheck(fn, args)


def test_linear_other_dtypes_keep_the_general_path():
    x = ember.arange(6).reshape(2, 3)
    w = ember.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(F.linear(x, w).numpy(),
                                  np.arange(6).reshape(2, 3) @ np.arange(6).reshape(2, 3).T)
    with pytest.raises(RuntimeError):
        F.linear(ember.randn(2, 3), ember.randn(4, 5))


def test_relu_backward_cuts_at_zero_and_lets_nan_through():
    # numbers recorded from torch 2.13: threshold_backward is `y <= 0 ? 0 : grad`
    for dtype in (ember.float32, ember.float64, ember.float16):
        x = ember.tensor([[-1.0, 0.0, 2.0, float("nan")], [3.0, -0.0, float("inf"), -2.0]],
                         dtype=dtype, requires_grad=True)
        g = ember.tensor([[1.0, float("nan"), float("-inf"), 5.0],
                          [-2.0, 7.0, -3.0, float("inf")]], dtype=dtype)
        x.relu().backward(g)
        got = x.grad.numpy().astype(np.float64)
        np.testing.assert_array_equal(got, [[0.0, 0.0, -np.inf, 5.0], [-2.0, 0.0, -3.0, 0.0]])
        assert not np.signbit(got[0, 0]) and not np.signbit(got[0, 1])  # +0.0, as torch
    x = ember.tensor(-2.0, requires_grad=True)
    x.relu().backward()
    assert x.grad.item() == 0.0
    x = ember.tensor(2.0, requires_grad=True)
    x.relu().backward()
    assert x.grad.item() == 1.0


def test_relu_double_backward():
    x = ember.from_numpy(_rand(3, 4)).requires_grad_()
    assert ember.autograd.gradgradcheck(lambda a: (a * a).relu(), (x,))


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_fast_path_equals_general_path(dtype, reduction):
    ember.manual_seed(0)
    x = ember.randn(32, 10, dtype=dtype, requires_grad=True)
    t = ember.randint(0, 10, (32,))
    loss = F.cross_entropy(x, t, reduction=reduction)
    loss.backward()
    # the general path (a weight of ones; create_graph=True keeps the backward on tensors)
    ref = F.cross_entropy(x, t, reduction=reduction, weight=ember.ones(10, dtype=dtype))
    (g_ref,) = ember.autograd.grad(ref, x, create_graph=True)
    np.testing.assert_array_equal(loss.detach().numpy(), ref.detach().numpy())
    if dtype is ember.float32:
        # the fast path is torch's vector kernel (SLEEF's exp of the output, the gradient's
        # row sums in lane order, one fused multiply-add); the graph's composition rounds
        # more often, within an ulp or so
        from ember._ops import _sleef
        from ember._ops._lane_sum import row_sums
        logp = F.log_softmax(x.detach(), 1).numpy()
        gin = np.zeros((32, 10), np.float32)
        gin[np.arange(32), t.numpy()] = -1 / 32 if reduction == "mean" else -1
        kernel = (gin.astype(np.float64) - _sleef.exp(logp).astype(np.float64)
                  * row_sums(gin).astype(np.float64)).astype(np.float32)
        np.testing.assert_array_equal(x.grad.numpy(), kernel)
        np.testing.assert_allclose(x.grad.numpy(), g_ref.detach().numpy(), rtol=1e-6,
                                   atol=1e-9)
    else:
        np.testing.assert_array_equal(x.grad.numpy(), g_ref.detach().numpy())
    # and against NumPy
    a = x.detach().numpy().astype(np.float64)
    logp = a - a.max(1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(1, keepdims=True))
    nll = -logp[np.arange(32), t.numpy()]
    expected = nll.mean() if reduction == "mean" else nll.sum()
    np.testing.assert_allclose(loss.item(), expected, rtol=1e-5)
    onehot = np.eye(10)[t.numpy()]
    grad = (np.exp(logp) - onehot) / (32 if reduction == "mean" else 1)
    np.testing.assert_allclose(x.grad.numpy(), grad, rtol=1e-4, atol=1e-6)
    assert type(loss.grad_fn).__name__ == "NllLossBackward0"
    assert type(loss.grad_fn.next_functions[0][0]).__name__ == "LogSoftmaxBackward0"


def test_nll_loss_gradient_is_plus_zero_off_target():
    # recorded from torch 2.13: F.nll_loss(x, [0, 2, 3]).backward() on a 3x4 input gives
    # -1/3 at each target and +0.0 (not -0.0) everywhere else
    x = ember.zeros(3, 4, requires_grad=True)
    F.nll_loss(x, ember.tensor([0, 2, 3])).backward()
    g = x.grad.numpy()
    expected = np.zeros((3, 4), np.float32)
    expected[[0, 1, 2], [0, 2, 3]] = -1 / 3
    np.testing.assert_allclose(g, expected, rtol=1e-6)
    assert np.signbit(g).sum() == 3


def test_cross_entropy_fast_path_double_backward_and_no_grad():
    x = ember.from_numpy(_rand(5, 4)).requires_grad_()
    t = ember.tensor([0, 3, 1, 1, 2])
    assert ember.autograd.gradgradcheck(lambda v: F.cross_entropy(v, t), (x,))
    assert ember.autograd.gradgradcheck(lambda v: F.cross_entropy(v, t, reduction="sum"), (x,))
    with ember.no_grad():
        loss = F.cross_entropy(x, t)
    assert loss.grad_fn is None and not loss.requires_grad
    assert loss.item() == F.cross_entropy(x, t).item()


def test_cross_entropy_ignored_and_bad_targets_keep_the_general_path():
    x = ember.from_numpy(_rand(4, 3)).requires_grad_()
    t = ember.tensor([0, 1, 2, 1])
    loss = F.cross_entropy(x, t, ignore_index=1)
    a = x.detach().numpy()
    logp = a - np.log(np.exp(a).sum(1, keepdims=True))
    np.testing.assert_allclose(loss.item(), -(logp[0, 0] + logp[2, 2]) / 2, rtol=1e-12)
    with pytest.raises(IndexError, match="Target 3 is out of bounds."):
        F.cross_entropy(x, ember.tensor([0, 1, 3, 1]))
    with pytest.raises(IndexError, match="Target -1 is out of bounds."):
        F.cross_entropy(x, ember.tensor([0, -1, 2, 1]))
    assert ember.autograd.gradgradcheck(lambda v: F.cross_entropy(v, t), (x,))


def test_transpose_backward_hands_on_gradients_safely():
    w = ember.from_numpy(_rand(3, 4)).requires_grad_()
    wt = w.t()
    wt.retain_grad()
    (wt * 2).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full((3, 4), 2.0))
    np.testing.assert_array_equal(wt.grad.numpy(), np.full((4, 3), 2.0))
    w.grad.zero_()              # the two gradients do not share memory
    np.testing.assert_array_equal(wt.grad.numpy(), np.full((4, 3), 2.0))
    # a caller's gradient is not taken over by the leaf
    w2 = ember.from_numpy(_rand(3, 4)).requires_grad_()
    g = ember.ones(4, 3)
    w2.t().backward(g)
    w2.grad.add_(1)
    np.testing.assert_array_equal(g.numpy(), np.ones((4, 3)))


def test_sgd_training_step_matches_numpy():
    x_np, w_np, b_np = _rand(8, 5, dtype=np.float32), _rand(3, 5, dtype=np.float32, seed=1), \
        _rand(3, dtype=np.float32, seed=2)
    labels = np.array([0, 1, 2, 1, 0, 2, 2, 1])
    w = ember.nn.Parameter(ember.from_numpy(w_np.copy()))
    b = ember.nn.Parameter(ember.from_numpy(b_np.copy()))
    opt = ember.optim.SGD([w, b], lr=0.5)
    loss = F.cross_entropy(F.linear(ember.from_numpy(x_np), w, b).relu(),
                           ember.from_numpy(labels))
    loss.backward()
    opt.step()
    h = x_np.astype(np.float64) @ w_np.T + b_np
    z = np.maximum(h, 0)
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    dz = (p - np.eye(3)[labels]) / 8
    dh = dz * (h > 0)
    np.testing.assert_allclose(w.detach().numpy(), w_np - 0.5 * dh.T @ x_np, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(b.detach().numpy(), b_np - 0.5 * dh.sum(0), rtol=1e-5,
                               atol=1e-6)


def test_linear_of_a_batch_of_sequences():
    x_np, w_np, b_np = _rand(2, 3, 5), _rand(4, 5, seed=1), _rand(4, seed=2)
    x = ember.from_numpy(x_np.copy()).requires_grad_()
    w = ember.from_numpy(w_np.copy()).requires_grad_()
    b = ember.from_numpy(b_np.copy()).requires_grad_()
    y = F.linear(x, w, b)
    assert type(y.grad_fn).__name__ == "ViewBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "AddmmBackward0"
    np.testing.assert_allclose(y.detach().numpy(), x_np @ w_np.T + b_np, rtol=1e-12)
    g = _rand(2, 3, 4, seed=3)
    y.backward(ember.from_numpy(g))
    np.testing.assert_allclose(x.grad.numpy(), g @ w_np, rtol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), g.reshape(6, 4).T @ x_np.reshape(6, 5),
                               rtol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), g.sum((0, 1)), rtol=1e-12)


def test_linear_forward_reads_its_parameters_as_attribute_lookup_does():
    # Linear.forward reads a plain Linear's parameters from their table; every other way of
    # providing `weight` must still be the one the forward uses
    x_np = _rand(4, 3, dtype=np.float32)
    x = ember.from_numpy(x_np)
    lin = ember.nn.Linear(3, 2)
    b_np = lin.bias.detach().numpy().copy()
    # functional_call swaps tensors into the table
    out = ember.func.functional_call(lin, {"weight": ember.zeros(2, 3), "bias": ember.ones(2)},
                                     (x,))
    assert (out.numpy() == 1).all()
    # a parametrization (the module's class becomes a subclass with a property)
    import ember.nn.utils.parametrize as P

    class Double(ember.nn.Module):
        def forward(self, w):
            return w * 2
    w_np = lin.weight.detach().numpy().copy()
    P.register_parametrization(lin, "weight", Double())
    np.testing.assert_allclose(lin(x).detach().numpy(), x_np @ (2 * w_np).T + b_np,
                               rtol=1e-6, atol=1e-6)
    # an instance attribute (as prune and weight_norm leave one) wins over the table
    plain = ember.nn.Linear(3, 2)
    b_np = plain.bias.detach().numpy().copy()
    del plain.weight
    plain.weight = ember.full((2, 3), 0.5)
    assert "weight" in plain.__dict__
    np.testing.assert_allclose(plain(x).detach().numpy(), x_np @ np.full((3, 2), 0.5) + b_np,
                               rtol=1e-6, atol=1e-6)
    # an instance attribute beside a registered parameter of that name: lookup finds it first
    shadowed = ember.nn.Linear(3, 2)
    b_np = shadowed.bias.detach().numpy().copy()
    shadowed.__dict__["weight"] = ember.full((2, 3), -1.0)
    np.testing.assert_allclose(shadowed(x).detach().numpy(), x_np @ np.full((3, 2), -1.0) + b_np,
                               rtol=1e-6, atol=1e-6)
    # no bias: the table holds None for it
    nobias = ember.nn.Linear(3, 2, bias=False)
    np.testing.assert_allclose(nobias(x).detach().numpy(),
                               x_np @ nobias.weight.detach().numpy().T, rtol=1e-6, atol=1e-6)
    assert type(nobias(x).grad_fn).__name__ == "MmBackward0"


@pytest.mark.parametrize("path", ["plain", "weighted", "spatial"])
def test_nll_saves_its_target_as_torch(path):
    """NllLossBackward0 saves self, target, total_weight (and weight) as torch does: hooks
    pack them in torch's order, and a target written in place before backward raises torch's
    error instead of giving the gradient of other targets."""
    x = ember.tensor(_rand(*((4, 3, 2) if path == "spatial" else (4, 3))),
                     requires_grad=True)
    t = ember.tensor([[0, 1], [2, 1], [1, 1], [0, 2]] if path == "spatial" else [0, 1, 2, 1])
    weight = ember.tensor([1.0, 2.0, 0.5], dtype=ember.float64) if path == "weighted" else None
    packed = []

    def pack(v):
        packed.append((tuple(v.shape), v.dtype))
        return v

    with ember.autograd.graph.saved_tensors_hooks(pack, lambda v: v):
        loss = F.cross_entropy(x, t, weight=weight)
    # (a 3-D input is viewed as 4-D for nll_loss2d, its target as 3-D, as in torch)
    spatial = path == "spatial"
    want = [(tuple(x.shape), ember.float64), ((4, 3, 1, 2) if spatial else (4, 3), ember.float64),
            ((4, 1, 2) if spatial else (4,), ember.int64), ((), ember.float64)]
    if weight is not None:
        want.insert(3, ((3,), ember.float64))
    assert [(s, d) for s, d in packed] == want
    loss = F.cross_entropy(x, t, weight=weight)
    if path == "plain":
        assert loss.grad_fn._saved_target is t and loss.grad_fn._saved_weight is None
    t.add_(0)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation: "
                       r"\[torch\.LongTensor \[" + ("4, 1, 2" if spatial else "4") + r"\]\] is at "
                       r"version 1; expected version 0 instead"):
        loss.backward()
