"""ember.func: transforms checked against float64 finite differences and hand-worked values;
vmap against explicit loops; functional_call and stack_module_state; torch's error texts."""
import numpy as np
import pytest

import ember
from ember.func import (functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp,
                        linearize, stack_module_state, vjp, vmap)


def _t(values):
    return ember.tensor(np.asarray(values, dtype=np.float64))


def f_vec(x):                                   # R^3 -> R^2
    return ember.stack([(x[0] * x[1]).sin(), x[2] ** 3 + x[0].exp()])


def f_scalar(x):
    return (x.sin() * x ** 2).sum() + x[0] * x[1] * x[2]


def _fd_jacobian(fn, x, eps=1e-6):
    x = x.numpy().astype(np.float64)
    cols = []
    for k in range(x.size):
        d = np.zeros_like(x)
        d.reshape(-1)[k] = eps
        hi = fn(ember.tensor(x + d)).numpy()
        lo = fn(ember.tensor(x - d)).numpy()
        cols.append(((hi - lo) / (2 * eps)).reshape(-1))
    out_shape = fn(ember.tensor(x)).shape
    return np.stack(cols, -1).reshape(tuple(out_shape) + x.shape)


X = _t([0.3, -1.2, 0.7])


def test_grad_matches_finite_differences_and_returns_plain_tensors():
    g = grad(f_scalar)(X)
    np.testing.assert_allclose(g.numpy(), _fd_jacobian(f_scalar, X), rtol=1e-6, atol=1e-8)
    assert not g.requires_grad and g.grad_fn is None and g.dtype == ember.float64
    g2, v = grad_and_value(f_scalar)(X)
    assert v.item() == pytest.approx(f_scalar(X).item()) and g2.equal(g)


def test_jacobians_hessian_jvp_vjp_match_finite_differences():
    want = _fd_jacobian(f_vec, X)
    np.testing.assert_allclose(jacrev(f_vec)(X).numpy(), want, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(jacfwd(f_vec)(X).numpy(), want, rtol=1e-6, atol=1e-8)
    h = hessian(f_scalar)(X)
    np.testing.assert_allclose(h.numpy(), _fd_jacobian(grad(f_scalar), X), rtol=1e-5,
                               atol=1e-7)
    np.testing.assert_allclose(h.numpy(), h.numpy().T, atol=1e-12)
    t = _t([1.0, -2.0, 0.5])
    out, jt = jvp(f_vec, (X,), (t,))
    np.testing.assert_allclose(jt.numpy(), want @ t.numpy(), rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), f_vec(X).numpy())
    out, fn = vjp(f_vec, X)
    c = _t([0.5, -1.0])
    (vj,) = fn(c)
    np.testing.assert_allclose(vj.numpy(), c.numpy() @ want, rtol=1e-6)
    (vj2,) = fn(c)                                  # may be called again
    assert vj2.equal(vj)
    _, lin = linearize(f_vec, X)
    np.testing.assert_allclose(lin(t).numpy(), want @ t.numpy(), rtol=1e-6)


def test_nested_transforms_compose():
    # d/dx of d/dx x^4 at 2 = 12 x^2 = 48; third derivative 24 x = 48
    f = lambda x: x ** 4                            # noqa: E731
    assert grad(grad(f))(_t(2.0)).item() == pytest.approx(48.0)
    assert grad(grad(grad(f)))(_t(2.0)).item() == pytest.approx(48.0)
    np.testing.assert_allclose(jacrev(jacrev(f_scalar))(X).numpy(),
                               hessian(f_scalar)(X).numpy(), rtol=1e-10)
    # a user-level graph through the transform's result
    x = _t([1.0, 2.0]).requires_grad_()
    g = grad(lambda y: (y ** 3).sum())(x)           # 3 x^2
    assert g.requires_grad
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])


def test_argnums_has_aux_and_structures():
    def f(a, b):
        return (a * b ** 2).sum(), {"b": b}
    a, b = _t([1.0, 2.0]), _t([3.0, -1.0])
    (ga, gb), aux = grad(f, argnums=(0, 1), has_aux=True)(a, b)
    np.testing.assert_allclose(ga.numpy(), [9.0, 1.0])
    np.testing.assert_allclose(gb.numpy(), [6.0, -4.0])
    assert aux["b"].equal(b)
    gd = grad(lambda p: (p["w"] * p["x"]).sum())({"w": a, "x": b})
    assert set(gd) == {"w", "x"} and gd["w"].equal(b) and gd["x"].equal(a)
    assert grad(lambda a, b: (a * 0).sum() + b.sum(), argnums=0)(a, b).equal(ember.zeros(2,
                                                                          dtype=ember.float64))
    jr = jacrev(lambda x, y: (x * y, x.sum()), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(jr[0][0].numpy(), np.diag(b.numpy()))
    np.testing.assert_allclose(jr[1][1].numpy(), [0.0, 0.0])


def test_transform_errors_have_torchs_texts():
    x = _t([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"grad_and_value\(f\)\(\*args\): Expected f\(\*args\)"
                                           r" to return a scalar Tensor, got tensor with 1 dims"):
        grad(lambda x: x * 2)(x)
    with pytest.raises(RuntimeError, match=r"Expected f\(\*args\) to return a Tensor, got "
                                           r"<class 'float'>"):
        grad(lambda x: 3.0)(x)
    with pytest.raises(RuntimeError, match="Got argnum=1, but only 1 positional inputs"):
        grad(lambda x: x.sum(), argnums=1)(x)
    with pytest.raises(RuntimeError, match=r"argnums must be int or Tuple\[int, ...\], got: "
                                           r"<class 'float'>"):
        grad(lambda x: x.sum(), argnums=1.5)(x)
    with pytest.raises(RuntimeError, match="argnums must be non-empty"):
        grad(lambda x: x.sum(), argnums=())(x)
    with pytest.raises(RuntimeError, match=r"output of function f should be a tuple: "
                                           r"\(output, aux\) if has_aux is True"):
        grad(lambda x: x.sum(), has_aux=True)(x)
    with pytest.raises(ValueError, match="Thing passed to transform API must be Tensor, got "
                                         "<class 'float'>"):
        grad(lambda x: x)(3.0)
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require"):
        grad(lambda x: x.sum())(ember.arange(3))
    with pytest.raises(RuntimeError, match=r"Expected pytree structure of cotangents to be the "
                                           r"same as pytree structure of outputs to the "
                                           r"function. cotangents: \(\*,\), primal output: \*"):
        vjp(lambda x: x * 2, x)[1]((x,))
    with pytest.raises(RuntimeError, match=r"jvp\(f, primals, tangents\): Expected primals to "
                                           r"be a tuple"):
        jvp(lambda x: x, x, x)
    with pytest.raises(RuntimeError, match=r"Tensor is of size \[2\] while the given forward "
                                           r"gradient is of size \[3\]"):
        jvp(lambda x: x, (x,), (ember.ones(3, dtype=ember.float64),))
    with pytest.raises(RuntimeError, match=r"Only allowed values for randomness are 'error', "
                                           r"'different', or 'same'. Got foo"):
        jacfwd(lambda x: x, randomness="foo")


def test_vmap_equals_a_loop_over_the_mapped_dims():
    rng = np.random.default_rng(0)
    a = ember.tensor(rng.standard_normal((4, 3)))
    b = ember.tensor(rng.standard_normal((3, 4)))
    w = ember.tensor(rng.standard_normal((3, 2)))
    out = vmap(lambda x, y, m: x @ m + y.sum(), in_dims=(0, 1, None))(a, b, w)
    want = np.stack([a.numpy()[i] @ w.numpy() + b.numpy()[:, i].sum() for i in range(4)])
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12)
    o1, o2 = vmap(lambda x: (x * 2, x.sum()), out_dims=(1, 0))(a)
    np.testing.assert_allclose(o1.numpy(), (a.numpy() * 2).T)
    np.testing.assert_allclose(o2.numpy(), a.numpy().sum(1))
    d = vmap(lambda p: p["u"] * 3, in_dims=({"u": 1},))({"u": b})
    np.testing.assert_allclose(d.numpy(), b.numpy().T * 3)
    assert vmap(lambda x: x)(ember.zeros(0, 3)).shape == (0, 3)
    # per-sample gradients: vmap over grad
    per = vmap(grad(lambda x, m: (x @ m).pow(2).sum()), in_dims=(0, None))(a, w)
    want = np.stack([2 * (a.numpy()[i] @ w.numpy()) @ w.numpy().T for i in range(4)])
    np.testing.assert_allclose(per.numpy(), want, rtol=1e-10)
    # gradients flow through the stacked result
    aa = a.clone().requires_grad_()
    vmap(lambda x: x.sin())(aa).sum().backward()
    np.testing.assert_allclose(aa.grad.numpy(), np.cos(a.numpy()), rtol=1e-12)


def test_vmap_randomness_and_errors():
    x = ember.zeros(3, 2)
    with pytest.raises(RuntimeError, match="vmap: called random operation while in randomness "
                                           "error mode"):
        vmap(lambda x: x + ember.rand(2))(x)
    same = vmap(lambda x: x + ember.rand(2), randomness="same")(x)
    assert same[0].equal(same[1]) and same[1].equal(same[2])
    diff = vmap(lambda x: x + ember.rand(2), randomness="different")(x)
    assert not diff[0].equal(diff[1])
    with pytest.raises(ValueError, match=r"vmap: Expected all tensors to have the same size in "
                                         r"the mapped dimension, got sizes \[3, 4\] for the "
                                         r"mapped dimension"):
        vmap(lambda a, b: a)(x, ember.zeros(4))
    with pytest.raises(ValueError, match=r"Got in_dim=2 for some input, but that input is a "
                                         r"Tensor of dimensionality 2 so expected in_dim to "
                                         r"satisfy -2 <= in_dim < 2."):
        vmap(lambda a: a, in_dims=2)(x)
    with pytest.raises(ValueError, match=r"expected `in_dims` to be int or a \(potentially "
                                         r"nested\) tuple matching the structure of inputs, "
                                         r"got: <class 'NoneType'>."):
        vmap(lambda a: a, in_dims=None)(x)
    with pytest.raises(ValueError, match=r"in_dims is not compatible with the structure of "
                                         r"`inputs`"):
        vmap(lambda a: a, in_dims=(0, 0))(x)
    with pytest.raises(ValueError, match="vmap: Expected at least one Tensor to vmap over"):
        vmap(lambda a: a, in_dims=(None,))(x)
    with pytest.raises(ValueError, match=r"`<lambda>` must only return Tensors, got type "
                                         r"<class 'int'>"):
        vmap(lambda a: 3)(x)
    with pytest.raises(ValueError, match="can not return a BatchedTensor when out_dim is None"):
        vmap(lambda a: a, out_dims=None)(ember.arange(3.))
    assert vmap(lambda a: ember.ones(2), out_dims=None)(x).equal(ember.ones(2))
    with pytest.raises(ValueError, match=r"vmap: chunk_size should be None or greater than 0. "
                                         r"\(got 0\)"):
        vmap(lambda a: a, chunk_size=0)


def test_functional_call_and_ensembles():
    lin = ember.nn.Linear(2, 1)
    w, b0 = ember.tensor([[1.0, 2.0]]), ember.tensor([0.5])
    y = functional_call(lin, {"weight": w, "bias": b0}, (ember.tensor([3.0, 4.0]),))
    assert y.tolist() == [11.5]
    assert lin.weight is not w and isinstance(lin.weight, ember.nn.Parameter)   # restored
    y = functional_call(lin, ({"weight": w}, {"bias": b0}), ember.tensor([1.0, 1.0]))
    assert y.tolist() == [3.5]
    g = grad(lambda p: functional_call(lin, p, (ember.tensor([3.0, 4.0]),)).sum())(
        {"weight": w, "bias": b0})
    assert g["weight"].tolist() == [[3.0, 4.0]] and g["bias"].tolist() == [1.0]
    with pytest.raises(RuntimeError, match="Error\\(s\\) in reparametrizing for Linear:\n\t"
                                           "Unexpected key\\(s\\): 'foo'.\n\tMissing key\\(s\\): "
                                           "'bias'."):
        functional_call(lin, {"weight": w, "foo": b0}, (w,), strict=True)
    with pytest.raises(ValueError, match=r"\['weight'\] appeared in multiple dictionaries"):
        functional_call(lin, ({"weight": w}, {"weight": w}), (w,))
    seq = ember.nn.Sequential(ember.nn.Linear(2, 2, bias=False), ember.nn.Linear(2, 2,
                                                                                bias=False))
    seq[1].weight = seq[0].weight
    out = functional_call(seq, {"0.weight": ember.eye(2) * 2}, (ember.ones(2),))
    assert out.tolist() == [4.0, 4.0]                       # tied: both layers use it
    out = functional_call(seq, {"0.weight": ember.eye(2) * 2}, (ember.ones(2),),
                          tie_weights=False)
    want = (seq[0].weight.detach() @ (ember.ones(2) * 2)).tolist()
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-6)
    with pytest.raises(ValueError, match=r"functional_call got multiple values for keys "
                                         r"\['0.weight', '1.weight'\], which are tied"):
        functional_call(seq, {"0.weight": ember.eye(2), "1.weight": ember.eye(2) * 3},
                        (ember.ones(2),))
    ember.manual_seed(0)
    models = [ember.nn.Linear(3, 2) for _ in range(4)]
    params, buffers = stack_module_state(models)
    assert params["weight"].shape == (4, 2, 3) and params["weight"].is_leaf
    assert params["weight"].requires_grad and buffers == {}
    x = ember.randn(5, 3)
    ens = vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)),
               in_dims=(0, 0, None))(params, buffers, x)
    want = np.stack([m(x).detach().numpy() for m in models])
    np.testing.assert_allclose(ens.detach().numpy(), want, rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="stack_module_state: Expected at least one model, "
                                           "got 0."):
        stack_module_state([])
    with pytest.raises(RuntimeError, match="Expected all models to have the same training/eval"):
        stack_module_state([ember.nn.Linear(1, 1), ember.nn.Linear(1, 1).eval()])
    with pytest.raises(RuntimeError, match="Expected weight from each model to have the same "
                                           ".requires_grad"):
        stack_module_state([ember.nn.Linear(1, 1), ember.nn.Linear(1, 1).requires_grad_(False)])


def test_stateless_functional_call_is_deprecated_func_functional_call():
    model = ember.nn.Linear(2, 2)
    params = {"weight": ember.eye(2) * 2, "bias": ember.ones(2)}
    with pytest.warns(FutureWarning, match="`torch.nn.utils.stateless.functional_call` is "
                      "deprecated as of PyTorch 2.0"):
        out = ember.nn.utils.stateless.functional_call(model, params, (ember.ones(1, 2),))
    assert out.tolist() == [[3.0, 3.0]]
    assert model.weight.tolist() != params["weight"].tolist()      # the module is untouched


def test_jvp_error_texts_for_tangent_structures_and_empty_primals():
    api = "jvp(f, primals, tangents)"
    with pytest.raises(RuntimeError, match=r"tangents with structure TreeSpec\(list, None, \[\*\]\)$"):
        jvp(ember.sin, (_t([0.0]),), [_t([1.0])])
    with pytest.raises(RuntimeError, match=r"tangents with structure \*$"):
        jvp(ember.sin, (_t([0.0]),), _t([1.0]))
    with pytest.raises(RuntimeError) as info:
        jvp(ember.sin, (), ())
    assert str(info.value) == f"{api}: Expected primals to contain at least one Tensor."


def test_jacfwd_words_its_errors_as_jvp():
    with pytest.raises(RuntimeError) as info:
        jacfwd(lambda x: 3.0)(_t([1.0, 2.0]))
    assert str(info.value) == ("jvp(f, primals, tangents): expected f(*primals) to return only "
                               "tensors, got unsupported type <class 'float'>")
    with pytest.raises(RuntimeError, match=r"^jvp\(f, primals, tangents\): output of function f "
                                           r"should be a tuple"):
        jacfwd(lambda x: 3, has_aux=True)(_t([1.0]))


def test_grad_refuses_a_complex_output():
    f = (lambda x: (x.to(ember.complex128) * 1j).sum())
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for real "
                                           "scalar outputs but got torch.complex128$"):
        grad(f)(_t([1.0, 2.0]))
    # the real part is fine: d/dx Re(i x) = 0
    assert grad(lambda x: f(x).real)(_t([1.0, 2.0])).tolist() == [0.0, 0.0]


def test_functional_call_refuses_values_that_are_not_tensors():
    lin = ember.nn.Linear(2, 1)
    for bad in (3, [1]):
        with pytest.raises(TypeError) as info:
            functional_call(lin, {"weight": bad}, (ember.ones(1, 2),))
        assert str(info.value) == f"{bad} is not an instance of torch.Tensor"
    with pytest.raises(TypeError, match="^3 is not"):
        functional_call(lin, {"foo": 3}, (ember.ones(1, 2),))
    assert not hasattr(lin, "foo") and lin.weight.shape == (1, 2)
    lin.bias.data.fill_(0)
    assert functional_call(lin, {"bias": None}, (ember.ones(1, 2),)).shape == (1, 1)


def test_functional_call_sets_a_parametrized_tensor_through_right_inverse():
    # torch sets names that are not parameters or buffers as attributes: a parametrized
    # weight goes through its right_inverse (refused without one); it was silently ignored
    P = ember.nn.utils.parametrize

    class Double(ember.nn.Module):
        def forward(self, X):
            return X * 2

    class Symmetric(ember.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()

    m = ember.nn.Linear(2, 2, bias=False)
    P.register_parametrization(m, "weight", Double())
    with pytest.raises(RuntimeError, match="^parametrization Double does not implement "
                                           "right_inverse.$"):
        ember.func.functional_call(m, {"weight": ember.ones(2, 2)}, ember.eye(2))
    s = ember.nn.Linear(2, 2, bias=False)
    P.register_parametrization(s, "weight", Symmetric())
    original = s.parametrizations.weight.original.detach().clone()
    out = ember.func.functional_call(s, {"weight": ember.tensor([[1., 2.], [3., 4.]])},
                                     ember.eye(2))
    assert out.tolist() == [[1., 2.], [2., 4.]]         # forward(right_inverse(X)), transposed
    assert ember.allclose(s.parametrizations.weight.original, original)

    class Plain(ember.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = ember.ones(1)
            self.flag = True

        def forward(self, x):
            return x * self.scale
    p = Plain()
    assert ember.func.functional_call(p, {"scale": ember.full((1,), 3.)}, ember.ones(2)).tolist() \
        == [3., 3.] and p.scale.tolist() == [1.]
    ember.func.functional_call(p, {"missing": ember.ones(1)}, ember.ones(2))
    assert not hasattr(p, "missing")
    with pytest.raises(TypeError, match="^attribute `flag`: True is not an instance of "
                                        "torch.Tensor$"):
        ember.func.functional_call(p, {"flag": ember.ones(1)}, ember.ones(2))
