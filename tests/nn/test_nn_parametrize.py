"""nn.utils.parametrize and nn.utils.parametrizations: the class swap, state_dict names,
right_inverse, caching, removal, and the values and gradients of orthogonal, weight_norm and
spectral_norm against NumPy references and finite differences in float64."""
import copy
import pickle

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn.utils import parametrizations as PS
from ember.nn.utils import parametrize as P
from ember.nn.utils.weight_norm import _weight_norm, norm_except_dim

from nn_checks import check_gradients, check_second_derivatives


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).mT


class Scale(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c

    def forward(self, X):
        return X * self.c

    def right_inverse(self, Y):
        return Y / self.c


class Split(nn.Module):
    def forward(self, A, B):
        return A + B

    def right_inverse(self, X):
        return X / 2, X / 2


def _symmetric(a):
    return np.triu(a) + np.triu(a, 1).T


# -- parametrize ---------------------------------------------------------------------------------

def test_register_swaps_class_and_moves_the_parameter():
    m = nn.Linear(3, 3)
    w0 = m.weight
    a = w0.detach().numpy().copy()
    P.register_parametrization(m, "weight", Symmetric())
    assert type(m).__name__ == "ParametrizedLinear" and isinstance(m, nn.Linear)
    assert P.type_before_parametrizations(m) is nn.Linear
    assert m.parametrizations.weight.original is w0
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original"]
    np.testing.assert_array_equal(m.weight.detach().numpy(), _symmetric(a))
    assert repr(m) == ("ParametrizedLinear(\n  in_features=3, out_features=3, bias=True\n"
                       "  (parametrizations): ModuleDict(\n    (weight): ParametrizationList(\n"
                       "      (0): Symmetric()\n    )\n  )\n)")
    # the swapped class belongs to this module only
    assert type(nn.Linear(3, 3)) is nn.Linear


def test_gradient_flows_to_the_original():
    m = nn.Linear(3, 3).double()
    P.register_parametrization(m, "weight", Symmetric())
    x = np.random.default_rng(0).standard_normal((4, 3))
    m(ember.tensor(x)).sum().backward()
    # d sum(x W^T) / dW[i, j] = sum_b x[b, j]; W = sym(A) sends W[i, j] and W[j, i] to A[i, j]
    g = np.tile(x.sum(0), (3, 1))
    want = np.triu(g) + np.triu(g.T, 1)
    np.testing.assert_allclose(m.parametrizations.weight.original.grad.numpy(), want)


def test_a_list_of_parametrizations_and_right_inverse():
    m = nn.Linear(2, 2)
    P.register_parametrization(m, "weight", Scale(2.0))
    P.register_parametrization(m, "weight", Scale(3.0))
    assert "(0-1): 2 x Scale()" in repr(m)
    original = m.parametrizations.weight.original
    m.weight = ember.tensor([[6.0, 12.0], [18.0, 24.0]])
    np.testing.assert_allclose(original.detach().numpy(), [[1, 2], [3, 4]])
    np.testing.assert_allclose(m.weight.detach().numpy(), [[6, 12], [18, 24]])
    assert m.parametrizations.weight.original is original


def test_right_inverse_returning_a_sequence():
    m = nn.Linear(2, 2)
    w = m.weight.detach().numpy().copy()
    P.register_parametrization(m, "weight", Split())
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original0",
                                    "parametrizations.weight.original1"]
    np.testing.assert_allclose(m.parametrizations.weight.original0.detach().numpy(), w / 2)
    np.testing.assert_allclose(m.weight.detach().numpy(), w, rtol=1e-6)
    with pytest.raises(ValueError, match="Cannot leave unparametrized"):
        P.remove_parametrizations(m, "weight", leave_parametrized=False)
    P.remove_parametrizations(m, "weight")
    assert isinstance(m.weight, nn.Parameter) and type(m) is nn.Linear


def test_parametrizing_a_buffer():
    bn = nn.BatchNorm1d(3)
    bn.running_mean.copy_(ember.tensor([1.0, 2.0, 3.0]))
    P.register_parametrization(bn, "running_mean", Scale(10.0))
    assert "parametrizations.running_mean.original" in bn.state_dict()
    assert dict(bn.named_buffers())["parametrizations.running_mean.original"].tolist() == \
        pytest.approx([0.1, 0.2, 0.3])
    np.testing.assert_allclose(bn.running_mean.numpy(), [1, 2, 3], rtol=1e-6)


def test_checks_of_dtype_and_shape():
    class Double(nn.Module):
        def forward(self, X):
            return X.double()

    class Rows(nn.Module):
        def forward(self, X):
            return X[:1]

    with pytest.raises(ValueError, match="may not change the dtype of the tensor, unless "
                                         "`unsafe` flag is enabled"):
        P.register_parametrization(nn.Linear(2, 2), "weight", Double())
    with pytest.raises(ValueError, match="may not change the shape"):
        P.register_parametrization(nn.Linear(2, 2), "weight", Rows())
    m = P.register_parametrization(nn.Linear(2, 2), "weight", Double(), unsafe=True)
    assert m.weight.dtype == ember.float64
    m = P.register_parametrization(nn.Linear(2, 2), "weight", Symmetric())
    with pytest.raises(ValueError, match=r"module.weight.dtype: torch.float32\n"
                                         r"parametrization\(module.weight\).dtype"):
        P.register_parametrization(m, "weight", Double())
    with pytest.raises(RuntimeError, match="parametrization Symmetric does not implement "
                                           "right_inverse."):
        m.weight = ember.ones(2, 2)
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a "
                                         "parametrized element with name 'nope'"):
        P.register_parametrization(m, "nope", Symmetric())
    with pytest.raises(ValueError, match="requires one or more modules"):
        P.ParametrizationList([], ember.ones(2))


def test_remove_leaves_parametrized_or_original():
    m = nn.Linear(3, 3)
    a = m.weight.detach().numpy().copy()
    w0 = m.weight
    P.register_parametrization(m, "weight", Symmetric())
    P.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear and not hasattr(m, "parametrizations")
    assert m.weight is w0 and list(m.state_dict()) == ["bias", "weight"]     # torch's order
    np.testing.assert_array_equal(m.weight.detach().numpy(), _symmetric(a))
    P.register_parametrization(m, "weight", Scale(5.0))
    P.register_parametrization(m, "bias", Scale(5.0))
    P.remove_parametrizations(m, "weight", leave_parametrized=False)
    assert type(m).__name__ == "ParametrizedLinear" and P.is_parametrized(m, "bias")
    assert not P.is_parametrized(m, "weight")
    # the original is what Scale's right_inverse stored: the weight divided by 5
    np.testing.assert_allclose(m.weight.detach().numpy(), _symmetric(a) / 5, rtol=1e-6)
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        P.remove_parametrizations(m, "weight")


def test_cached_computes_once():
    calls = []

    class Counted(nn.Module):
        def forward(self, X):
            calls.append(1)
            return X + 1

    m = P.register_parametrization(nn.Linear(2, 2), "weight", Counted())
    assert len(calls) == 1      # registering checks the parametrized shape and dtype
    calls.clear()
    x = ember.randn(3, 2)
    with P.cached():
        first = m.weight
        m(x)
        m(x)
        assert m.weight is first
    assert len(calls) == 1
    m(x)
    assert len(calls) == 2


def test_pickle_refused_deepcopy_and_transfer_work():
    m = P.register_parametrization(nn.Linear(2, 2), "weight", Scale(2.0))
    with pytest.raises(RuntimeError, match="Serialization of parametrized modules is only "
                                           "supported through state_dict()"):
        pickle.dumps(m)
    c = copy.deepcopy(m)
    assert type(c) is type(m)
    assert c.parametrizations.weight.original is not m.parametrizations.weight.original
    np.testing.assert_array_equal(c.weight.detach().numpy(), m.weight.detach().numpy())
    other = P.transfer_parametrizations_and_params(m, nn.Linear(2, 2))
    assert other.parametrizations.weight.original is m.parametrizations.weight.original
    np.testing.assert_array_equal(other.weight.detach().numpy(), m.weight.detach().numpy())


def test_state_dict_round_trip():
    a = PS.spectral_norm(nn.Linear(4, 3))
    b = PS.spectral_norm(nn.Linear(4, 3))
    b.load_state_dict(a.state_dict())
    a.eval()
    b.eval()
    np.testing.assert_array_equal(a.weight.detach().numpy(), b.weight.detach().numpy())


# -- weight_norm ---------------------------------------------------------------------------------

def _np_weight_norm(v, g, dim):
    axes = tuple(d for d in range(v.ndim) if d != dim) if dim != -1 else None
    return v * g / np.sqrt((v * v).sum(axis=axes, keepdims=dim != -1))


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_weight_norm_values_and_gradients(dim):
    rng = np.random.default_rng(3)
    v = rng.standard_normal((3, 2, 4))
    g_shape = [1, 1, 1] if dim == -1 else [1 if d != dim else v.shape[d] for d in range(3)]
    g = rng.uniform(0.5, 2, g_shape if dim != -1 else ())
    out = _weight_norm(ember.tensor(v), ember.tensor(g), dim)
    np.testing.assert_allclose(out.numpy(), _np_weight_norm(v, g, dim))
    check_gradients(lambda a, b: _weight_norm(a, b, dim), v, g)
    check_second_derivatives(lambda a: _weight_norm(a, ember.tensor(g), dim), v)


def test_weight_norm_node_names_and_norm_except_dim():
    v = ember.randn(3, 4, 5, requires_grad=True)
    assert _weight_norm(v, ember.ones(3, 1, 1), 0).grad_fn.name() == \
        "WeightNormInterfaceBackward0"
    assert _weight_norm(v, ember.ones(1, 4, 1), 1).grad_fn.name() == "MulBackward0"
    assert norm_except_dim(v, 2, -1).shape == ()
    assert norm_except_dim(v, 2, 1).shape == (1, 4, 1)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        _weight_norm(v, ember.ones(3, 1, 1, dtype=ember.float64))


def test_weight_norm_parametrization():
    m = nn.Linear(4, 3)
    w = m.weight.detach().numpy().copy()
    PS.weight_norm(m)
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original0",
                                    "parametrizations.weight.original1"]
    g = m.parametrizations.weight.original0.detach().numpy()
    np.testing.assert_allclose(g, np.linalg.norm(w, axis=1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(m.weight.detach().numpy(), w, rtol=1e-5, atol=1e-7)
    # a state_dict of the hook-based weight_norm loads into the parametrized form
    m.load_state_dict({"weight_g": ember.full((3, 1), 2.0), "weight_v": ember.ones(3, 4),
                       "bias": ember.zeros(3)})
    np.testing.assert_allclose(m.weight.detach().numpy(), np.ones((3, 4)))


# -- spectral_norm -------------------------------------------------------------------------------

def test_spectral_norm_divides_by_the_largest_singular_value():
    m = nn.Linear(6, 5).double()
    PS.spectral_norm(m, n_power_iterations=30)
    w = m.parametrizations.weight.original.detach().numpy()
    sigma = np.linalg.svd(w, compute_uv=False)[0]
    np.testing.assert_allclose(m.weight.detach().numpy(), w / sigma, rtol=1e-8)
    sn = m.parametrizations.weight[0]
    u, v = sn._u.numpy(), sn._v.numpy()
    np.testing.assert_allclose(abs(u @ w @ v), sigma, rtol=1e-10)
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original",
                                    "parametrizations.weight.0._u",
                                    "parametrizations.weight.0._v"]


def test_spectral_norm_power_iteration_step_and_eval():
    m = nn.Linear(3, 2).double()
    PS.spectral_norm(m)
    sn = m.parametrizations.weight[0]
    u_buffer = sn._u
    with ember.no_grad():
        m.parametrizations.weight.original.copy_(ember.tensor([[1.0, 2, 0], [0, 1, 3]]))
    u0, v0 = sn._u.numpy().copy(), sn._v.numpy().copy()
    w = np.array([[1.0, 2, 0], [0, 1, 3]])
    got = m.weight.detach().numpy()
    u = w @ v0
    u /= np.linalg.norm(u)
    v = w.T @ u
    v /= np.linalg.norm(v)
    np.testing.assert_allclose(sn._u.numpy(), u)
    np.testing.assert_allclose(sn._v.numpy(), v)
    np.testing.assert_allclose(got, w / (u @ w @ v))
    assert sn._u is u_buffer and not np.allclose(u0, u)
    m.eval()
    before = sn._u.numpy().copy()
    np.testing.assert_allclose(m.weight.detach().numpy(), got)
    np.testing.assert_array_equal(sn._u.numpy(), before)


def test_spectral_norm_gradient_in_eval_mode():
    m = nn.Linear(3, 4).double()
    PS.spectral_norm(m)
    m.eval()
    sn = m.parametrizations.weight[0]
    check_gradients(lambda w: sn(w), m.parametrizations.weight.original.detach().numpy())


def test_spectral_norm_dims_and_errors():
    c = PS.spectral_norm(nn.ConvTranspose2d(3, 2, 3))
    assert c.parametrizations.weight[0].dim == 1
    assert c.parametrizations.weight[0]._u.shape == (2,)
    assert c.parametrizations.weight[0]._v.shape == (27,)
    c = PS.spectral_norm(nn.Conv2d(3, 2, 3), dim=-1)
    assert c.parametrizations.weight[0].dim == 3
    with pytest.raises(IndexError, match=r"expected to be in range of \[-2, 1\] but got 2"):
        PS.spectral_norm(nn.Linear(2, 2), dim=2)
    with pytest.raises(ValueError, match="n_power_iterations=0"):
        PS.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
    bias = PS.spectral_norm(nn.Linear(2, 2), "bias")
    b = bias.parametrizations.bias.original.detach().numpy()
    np.testing.assert_allclose(bias.bias.detach().numpy(), b / np.linalg.norm(b), rtol=1e-6)


# -- orthogonal ----------------------------------------------------------------------------------

@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 5)])
def test_orthogonal_maps_give_orthonormal_columns_or_rows(orthogonal_map, shape):
    m = nn.Linear(shape[1], shape[0]).double()
    PS.orthogonal(m, orthogonal_map=orthogonal_map)
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original",
                                    "parametrizations.weight.0.base"]
    w = m.weight.detach().numpy()
    small = w.T @ w if shape[0] >= shape[1] else w @ w.T
    np.testing.assert_allclose(small, np.eye(min(shape)), atol=1e-12)
    original = m.parametrizations.weight.original.detach().numpy()
    # NOTE: householder scales by int(diagonal), a step function at -1 (its value after
    # registration): move the diagonal off the step for finite differences.
    original = original - 0.5 * np.eye(*original.shape)
    check_gradients(lambda x: m.parametrizations.weight[0](x), original, atol=1e-6)


def test_householder_product_matches_the_product_of_reflectors():
    from ember.nn.utils.parametrizations import _householder_product
    rng = np.random.default_rng(7)
    a = rng.standard_normal((2, 5, 3))
    tau = rng.uniform(0.2, 1.5, (2, 3))
    want = np.empty((2, 5, 3))
    for b in range(2):
        q = np.eye(5)
        for i in range(3):
            v = np.zeros(5)
            v[i], v[i + 1:] = 1.0, a[b, i + 1:, i]
            q = q @ (np.eye(5) - tau[b, i] * np.outer(v, v))
        want[b] = q[:, :3]
    got = _householder_product(ember.tensor(a), ember.tensor(tau))
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)
    check_gradients(_householder_product, a, tau)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
def test_orthogonal_batches_of_matrices(orthogonal_map):
    class Batched(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(ember.randn(2, 5, 3, dtype=ember.float64))

    m = PS.orthogonal(Batched(), "w", orthogonal_map=orthogonal_map)
    w = m.w.detach().numpy()
    np.testing.assert_allclose(np.swapaxes(w, -1, -2) @ w, np.broadcast_to(np.eye(3),
                                                                           (2, 3, 3)),
                               atol=1e-12)


def test_orthogonal_default_maps_and_initial_value():
    square = PS.orthogonal(nn.Linear(3, 3))
    tall = PS.orthogonal(nn.Linear(3, 5))
    assert square.parametrizations.weight[0].orthogonal_map.name == "matrix_exp"
    assert tall.parametrizations.weight[0].orthogonal_map.name == "householder"
    # registering keeps the weight when it is orthogonal already
    q = np.linalg.qr(np.random.default_rng(0).standard_normal((4, 4)))[0]
    m = nn.Linear(4, 4, bias=False).double()
    with ember.no_grad():
        m.weight.copy_(ember.tensor(q))
    PS.orthogonal(m)
    np.testing.assert_allclose(m.weight.detach().numpy(), q, atol=1e-12)


def test_orthogonal_matrix_exp_matches_scipy_free_reference():
    m = nn.Linear(3, 3, bias=False).double()
    PS.orthogonal(m, use_trivialization=False)
    x = m.parametrizations.weight.original.detach().numpy()
    a = np.tril(x) - np.tril(x).T
    # exp(A) by its power series, A skew-symmetric and small enough to converge fast
    expo, term = np.eye(3), np.eye(3)
    for k in range(1, 40):
        term = term @ a / k
        expo = expo + term
    np.testing.assert_allclose(m.weight.detach().numpy(), expo, atol=1e-12)


def test_householder_without_trivialization_reproduces_the_weight():
    m = nn.Linear(3, 5, bias=False).double()
    q = np.linalg.qr(np.random.default_rng(1).standard_normal((5, 3)))[0]
    with ember.no_grad():
        m.weight.copy_(ember.tensor(q))
    PS.orthogonal(m, orthogonal_map="householder", use_trivialization=False)
    assert list(m.state_dict()) == ["parametrizations.weight.original"]
    np.testing.assert_allclose(m.weight.detach().numpy(), q, atol=1e-12)


def test_orthogonal_errors():
    with pytest.raises(ValueError, match='orthogonal_map has to be one of "matrix_exp", '
                                         '"cayley", "householder". Got: qr'):
        PS.orthogonal(nn.Linear(2, 2), orthogonal_map="qr")
    with pytest.raises(ValueError, match="Expected a matrix or batch of matrices. Got a "
                                         "tensor of 1 dimensions."):
        PS.orthogonal(nn.Linear(2, 2), "bias")
    m = PS.orthogonal(nn.Linear(2, 2), use_trivialization=False)
    with pytest.raises(NotImplementedError, match="use_trivialization=False"):
        m.weight = ember.eye(2)
    m = PS.orthogonal(nn.Linear(2, 2))
    with pytest.raises(ValueError, match="Expected a matrix or batch of matrices of shape"):
        m.weight = ember.eye(3)


def test_training_keeps_constraints():
    ember.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 3))
    PS.orthogonal(model[0])
    PS.weight_norm(model[2])
    opt = ember.optim.SGD(model.parameters(), lr=0.1)
    x, y = ember.randn(16, 4), ember.randn(16, 3)
    losses = []
    for _ in range(20):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.8 * losses[0]
    w = model[0].weight.detach().numpy()
    np.testing.assert_allclose(w.T @ w, np.eye(4), atol=1e-5)
    g = model[2].parametrizations.weight.original0.detach().numpy()
    np.testing.assert_allclose(np.linalg.norm(model[2].weight.detach().numpy(), axis=1),
                               np.abs(g[:, 0]), rtol=1e-5)
