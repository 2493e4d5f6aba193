"""ember.func against torch.func: values, shapes and structures of the transforms."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402


def _same(a, b):
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _same(a[k], b[k])
    else:
        assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype)
        tol = 1e-10 if a.dtype == ember.float64 else 1e-5
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


def f1(lib, x, y):
    return (x.sin() * y).sum() + (x * x * y).prod()


def f2(lib, x, y):
    return lib.stack([x @ y, (x - y).exp().sum()]), x * 2


CASES = {
    "grad": lambda F, lib, x, y: F.grad(lambda a, b: f1(lib, a, b))(x, y),
    "grad_argnums": lambda F, lib, x, y: F.grad(lambda a, b: f1(lib, a, b), argnums=(0, 1))(x, y),
    "grad_and_value_aux": lambda F, lib, x, y: F.grad_and_value(
        lambda a: (f1(lib, a, y), {"a": a.cos()}), has_aux=True)(x),
    "jacrev": lambda F, lib, x, y: F.jacrev(lambda a, b: f2(lib, a, b), argnums=(0, 1))(x, y),
    "jacfwd": lambda F, lib, x, y: F.jacfwd(lambda a, b: f2(lib, a, b), argnums=1)(x, y),
    "hessian": lambda F, lib, x, y: F.hessian(lambda a: f1(lib, a, y))(x),
    "jvp": lambda F, lib, x, y: F.jvp(lambda a: f2(lib, a, y), (x,), (y,)),
    "vjp": lambda F, lib, x, y: F.vjp(lambda a, b: f2(lib, a, b), x, y)[1]((y[:2], y)),
    "vmap": lambda F, lib, x, y: F.vmap(lambda a, b: (a * b).sum(), in_dims=(0, None))(
        lib.outer(x, y), y),
    "vmap_out_dims": lambda F, lib, x, y: F.vmap(lambda a: (a.cumsum(0), a[0]), in_dims=1,
                                                 out_dims=(1, 0))(lib.outer(x, y)),
    "per_sample_grad": lambda F, lib, x, y: F.vmap(F.grad(lambda a, b: (a * b).sin().sum()),
                                                   in_dims=(0, None))(lib.outer(x, y), y),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_transforms_match_torch(name):
    xs = np.array([0.3, -0.8, 1.1])
    ys = np.array([1.5, 0.2, -0.4])
    got = CASES[name](ember.func, ember, ember.tensor(xs), ember.tensor(ys))
    want = CASES[name](torch.func, torch, torch.tensor(xs), torch.tensor(ys))
    _same(got, want)


def test_ensemble_with_functional_call_matches_torch():
    def run(lib):
        lib.manual_seed(0)
        models = [lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1))
                  for _ in range(3)]
        params, buffers = lib.func.stack_module_state(models)
        x = lib.linspace(-1, 1, 6).reshape(2, 3)

        def loss(p, b):
            return lib.func.functional_call(models[0], (p, b), (x,)).pow(2).sum()
        return lib.func.vmap(lib.func.grad(loss), in_dims=(0, 0))(params, buffers)
    _same(run(ember), run(torch))
