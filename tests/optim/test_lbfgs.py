"""ember.optim.LBFGS: convergence, the first iteration by hand, state layout and errors."""
import numpy as np
import pytest

import ember
from ember import optim


def _rosenbrock(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def _closure(opt, loss_fn, *params):
    def closure():
        opt.zero_grad()
        loss = loss_fn(*params)
        loss.backward()
        return loss
    return closure


def test_first_iteration_by_hand():
    # One iteration: d = -g, t = min(1, 1 / |g|_1) * lr, x += t d.
    x = ember.tensor([3.0, -1.0], dtype=ember.float64, requires_grad=True)
    opt = optim.LBFGS([x], lr=0.5, max_iter=1)
    loss = opt.step(_closure(opt, lambda x: (x * x).sum(), x))
    assert loss.item() == 10.0
    g = np.array([6.0, -2.0])
    np.testing.assert_allclose(x.detach().numpy(), [3.0, -1.0] - 0.5 / 8 * g)


def test_solves_a_quadratic_exactly():
    A = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]])
    b = np.array([1.0, -2.0, 0.5])
    At, bt = ember.tensor(A), ember.tensor(b)
    x = ember.zeros(3, dtype=ember.float64, requires_grad=True)
    opt = optim.LBFGS([x], line_search_fn="strong_wolfe", tolerance_change=1e-15)
    opt.step(_closure(opt, lambda x: 0.5 * (x @ (At @ x)) - (bt * x).sum(), x))
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(A, b), rtol=1e-6)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_minimises_rosenbrock(line_search_fn):
    x = ember.tensor([-1.2, 1.0], dtype=ember.float64, requires_grad=True)
    lr = 1 if line_search_fn else 0.5
    opt = optim.LBFGS([x], lr=lr, max_iter=50, line_search_fn=line_search_fn)
    closure = _closure(opt, _rosenbrock, x)
    for _ in range(20):
        opt.step(closure)
    np.testing.assert_allclose(x.detach().numpy(), [1.0, 1.0], atol=1e-4)


def test_several_parameters_are_one_flat_vector():
    a = ember.tensor([[1.0, 2.0]], dtype=ember.float64, requires_grad=True)
    b = ember.tensor([3.0], dtype=ember.float64, requires_grad=True)
    unused = ember.tensor([7.0], dtype=ember.float64, requires_grad=True)
    opt = optim.LBFGS([a, unused, b], line_search_fn="strong_wolfe")
    opt.step(_closure(opt, lambda a, b: ((a - 1) ** 2).sum() + ((b + 2) ** 2).sum(), a, b))
    np.testing.assert_allclose(a.detach().numpy(), [[1.0, 1.0]], atol=1e-6)
    np.testing.assert_allclose(b.detach().numpy(), [-2.0], atol=1e-6)
    assert unused.item() == 7.0


def test_state_lives_on_the_first_parameter():
    x = ember.tensor([-1.2, 1.0], requires_grad=True)
    opt = optim.LBFGS([x], max_iter=3)
    opt.step(_closure(opt, _rosenbrock, x))
    state = opt.state_dict()["state"]
    assert list(state) == [0]
    assert list(state[0]) == ["func_evals", "n_iter", "al", "d", "t", "old_dirs", "old_stps",
                              "ro", "H_diag", "prev_flat_grad", "prev_loss"]
    # The third iteration is cut short (loss change below tolerance), as in torch.
    assert state[0]["n_iter"] == 2 and state[0]["func_evals"] == 3
    assert isinstance(state[0]["d"], ember.Tensor) and state[0]["d"].dtype is ember.float32
    assert len(state[0]["al"]) == 100


def test_stops_at_once_when_the_gradient_is_zero():
    x = ember.tensor([1.0, 1.0], requires_grad=True)
    opt = optim.LBFGS([x])
    opt.step(_closure(opt, _rosenbrock, x))
    assert opt.state[x]["func_evals"] == 1 and opt.state[x]["n_iter"] == 0
    assert x.tolist() == [1.0, 1.0]


def test_errors():
    x = ember.zeros(2, requires_grad=True)
    y = ember.zeros(1, requires_grad=True)
    with pytest.raises(ValueError, match="^LBFGS doesn't support per-parameter options "
                                         r"\(parameter groups\)$"):
        optim.LBFGS([{"params": [x]}, {"params": [y]}])
    with pytest.raises(ValueError, match="^Invalid learning rate: -1$"):
        optim.LBFGS([x], lr=-1)
    opt = optim.LBFGS([x], line_search_fn="backtracking")
    with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
        opt.step(_closure(opt, lambda x: ((x - 1) ** 2).sum(), x))


def test_steps_add_with_one_rounding():
    # x += t * d as torch's add_(d, alpha=t): one fused multiply-add. Here t = 1 / |g|_1 and
    # rounding the product first would give -0.05520954728126526 for the first coordinate.
    x = ember.tensor([0.42654311656951904, 0.9179862141609192], requires_grad=True)
    c = ember.tensor([2.626540422439575, 2.8255112171173096])
    opt = optim.LBFGS([x], max_iter=1)
    opt.step(_closure(opt, lambda x: (c * x).sum(), x))
    t = np.float32(1) / np.float32(2.626540422439575 + 2.8255112171173096)
    exact = [np.float32(float(v) - float(g) * float(t))
             for v, g in zip([0.42654311656951904, 0.9179862141609192], c.tolist())]
    assert x.tolist() == [float(v) for v in exact] == [-0.05520953610539436,
                                                      0.3997389078140259]


def test_two_loop_recursion_matches_torch_on_rosenbrock():
    # with fused multiply-adds in the two-loop recursion, as torch's add_(alpha=...), the run
    # takes torch 2.13's 41 iterations and 51 evaluations (it took 42 and 53 rounding twice)
    x = ember.tensor([-1.5, 2.0], requires_grad=True)
    opt = optim.LBFGS([x], max_iter=50, history_size=10, line_search_fn="strong_wolfe",
                      tolerance_grad=1e-9, tolerance_change=1e-12)
    opt.step(_closure(opt, lambda x: (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2, x))
    state = opt.state[x]
    assert (state["n_iter"], state["func_evals"]) == (41, 51)
    assert x.tolist() == [1.0, 1.0]


def test_first_step_length_sums_the_gradient_as_tensor_sum():
    # t = 1 / |g|_1, the sum in torch's order (as Tensor.sum adds), not NumPy's pairwise one
    c = np.random.default_rng(0).standard_normal(1000).astype(np.float32)
    total = ember.tensor(c).abs().sum().item()
    assert total != float(np.abs(c).sum())          # (the orders differ for this gradient)
    x = ember.zeros(1000, requires_grad=True)
    ct = ember.tensor(c)
    opt = optim.LBFGS([x], max_iter=1)
    opt.step(_closure(opt, lambda x: (ct * x).sum(), x))
    t = np.float32(1) / np.float32(total)
    expected = (-c.astype(np.float64) * np.float64(t)).astype(np.float32)   # one rounding
    np.testing.assert_array_equal(x.detach().numpy(), expected)
