"""Shared checks for the nn tests: gradients against central finite differences."""
import numpy as np

import ember


def check_gradients(fn, *arrays, eps=1e-6, rtol=1e-5, atol=1e-7):
    """Gradients of sum(g * fn(*tensors)) for every float64 input, against central
    differences (g a fixed random weighting of the output)."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    tensors = [ember.tensor(a, requires_grad=True) for a in arrays]
    out = fn(*tensors)
    weights = np.random.default_rng(1).standard_normal(tuple(out.shape))
    (out * ember.tensor(weights)).sum().backward()
    for k, (a, t) in enumerate(zip(arrays, tensors)):
        numeric = np.zeros(a.shape)
        for i in np.ndindex(a.shape):
            values = []
            for sign in (1, -1):
                moved = [b.copy() for b in arrays]
                moved[k][i] += sign * eps
                with ember.no_grad():
                    y = fn(*[ember.tensor(b) for b in moved]).detach().numpy()
                values.append(float(np.sum(y * weights)))
            numeric[i] = (values[0] - values[1]) / (2 * eps)
        analytic = t.grad.numpy() if t.grad is not None else np.zeros(a.shape)
        np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=atol,
                                   err_msg=f"gradient of input {k}")


def check_second_derivatives(fn, array, eps=1e-5, rtol=1e-4, atol=1e-6):
    """d/dx <grad(sum(g * fn(x))), v> with create_graph=True, against central differences of
    the first derivative."""
    array = np.asarray(array, dtype=np.float64)
    rng = np.random.default_rng(2)
    v = rng.standard_normal(array.shape)

    def first_derivative(a, create_graph=False):
        x = ember.tensor(a, requires_grad=True)
        out = fn(x)
        g = np.random.default_rng(1).standard_normal(tuple(out.shape))
        (grad,) = ember.autograd.grad((out * ember.tensor(g)).sum(), [x],
                                      create_graph=create_graph)
        return x, grad

    x, grad = first_derivative(array, create_graph=True)
    (second,) = ember.autograd.grad((grad * ember.tensor(v)).sum(), [x])
    numeric = np.zeros(array.shape)
    for i in np.ndindex(array.shape):
        values = []
        for sign in (1, -1):
            moved = array.copy()
            moved[i] += sign * eps
            values.append(float((first_derivative(moved)[1].detach().numpy() * v).sum()))
        numeric[i] = (values[0] - values[1]) / (2 * eps)
    np.testing.assert_allclose(second.numpy(), numeric, rtol=rtol, atol=atol)
