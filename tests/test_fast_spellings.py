"""Kernels rewritten in faster NumPy spellings keep their values bit for bit: checked against
values worked out by hand, on arrays large and small, with -0.0, NaN, inf and subnormals."""
import pytest

import ember

SIGNED = [-0.0, 0.0, float("nan"), float("-nan"), float("inf"), float("-inf"), 1e-45, -1e-45,
          2.5, -3.0, 1e-40, -1e-40]


@pytest.mark.parametrize("dtype", [ember.float16, ember.bfloat16, ember.float32, ember.float64])
@pytest.mark.parametrize("repeat", [1, 5000])
def test_sign_is_zero_for_nan_and_minus_zero(dtype, repeat):
    x = ember.tensor(SIGNED * repeat, dtype=ember.float64).to(dtype)
    s = x.sign()
    assert s.dtype == dtype
    want = [0.0, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0] * repeat
    got = s.double()
    if dtype in (ember.float16, ember.bfloat16):      # (their subnormals flush to zero)
        tiny = (x == 0).numpy()
        want = [0.0 if z else w for z, w in zip(tiny, want)]
    assert got.tolist() == want
    assert not got[got == 0].signbit().any()        # +0., never -0.
    assert ember.sign(ember.tensor(-0.0, dtype=dtype)).signbit().item() is False


def running(values, dtype, reverse=False, times=False):
    """Sequential running sums (or products) of a 1-d list, each step rounded to `dtype`."""
    order = range(len(values) - 1, -1, -1) if reverse else range(len(values))
    out, total = [None] * len(values), None
    for k in order:
        v = dtype(values[k])
        total = (dtype(0.0) + v if not times else v) if total is None else \
            (total * v if times else total + v)
        out[k] = total
    return out


@pytest.mark.parametrize("shape, dim", [((4096, 3), 1), ((3, 4096), 0), ((2, 5, 2048), 1),
                                        ((2, 2048, 5), 2), ((5, 3), 1)])
def test_cumsum_cumprod_and_cumsum_gradient_run_in_order(shape, dim):
    import numpy as np
    rng = np.random.default_rng(len(shape) + dim)
    x = rng.standard_normal(shape).astype(np.float32) * np.float32(1e3)
    x.reshape(-1)[::7] = -0.0
    x.reshape(-1)[::13] = 1e-42
    t = ember.from_numpy(x).requires_grad_(True)
    sums, prods = t.cumsum(dim), t.cumprod(dim)
    g = rng.standard_normal(shape).astype(np.float32)
    (grad,) = ember.autograd.grad(sums, t, ember.from_numpy(g))
    lines = np.moveaxis(x, dim, -1).reshape(-1, shape[dim])
    glines = np.moveaxis(g, dim, -1).reshape(-1, shape[dim])
    # (torch's CPU scan accumulates float32 in float64: each running value rounded once)
    want_sums = np.array([running(r, np.float64) for r in lines]).astype(np.float32)
    want_prods = np.array([running(r, np.float64, times=True) for r in lines]).astype(np.float32)
    want_grad = np.array([running(r, np.float64, reverse=True) for r in glines]).astype(
        np.float32)
    for got, want in ((sums, want_sums), (prods, want_prods), (grad, want_grad)):
        got = np.moveaxis(got.detach().numpy(), dim, -1).reshape(want.shape)
        assert got.tobytes() == want.tobytes()
    assert not np.signbit(sums.detach().numpy()[sums.detach().numpy() == 0]).any()


@pytest.mark.parametrize("dim, size, step", [(3, 3, 1), (2, 2, 3), (0, 2, 1)])
def test_unfold_gradient_adds_each_window_in_order(dim, size, step):
    import numpy as np
    rng = np.random.default_rng(dim + size)
    x = ember.from_numpy(rng.standard_normal((2, 3, 5, 6)).astype(np.float32))
    x.requires_grad_(True)
    view = x.unfold(dim, size, step)
    g = (rng.standard_normal(tuple(view.shape)) * 10.0 ** rng.integers(-6, 6, tuple(view.shape))
         ).astype(np.float32)
    (grad,) = ember.autograd.grad(view, x, ember.from_numpy(g))
    want = np.zeros((2, 3, 5, 6), np.float32)
    for idx in np.ndindex(*g.shape):                  # the view's elements in row-major order
        src = list(idx[:-1])
        src[dim] = idx[dim] * step + idx[-1]
        want[tuple(src)] += g[idx]
    assert grad.numpy().tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", [ember.float16, ember.float32, ember.float64])
@pytest.mark.parametrize("dim", [0, 1, 2])
@pytest.mark.parametrize("repeats", [False, True])
def test_index_add_adds_each_source_element_once_in_order(dtype, dim, repeats):
    import numpy as np
    rng = np.random.default_rng(dim)
    shape = [9, 10, 70]
    x = rng.standard_normal(shape)
    x.reshape(-1)[::5] = -0.0
    n = shape[dim]
    ids = np.array([4, 0, 7, 4, 2] if repeats else [4, 0, 7, 2, 8][:min(5, n)])
    src_shape = list(shape)
    src_shape[dim] = len(ids)
    src = rng.standard_normal(src_shape)
    src.reshape(-1)[::3] = -0.0
    src.reshape(-1)[7] = np.nan
    xt, st = ember.from_numpy(x).to(dtype), ember.from_numpy(src).to(dtype)
    got = xt.index_add(dim, ember.from_numpy(ids), st).numpy()
    want = xt.numpy().copy()
    s = st.numpy()
    for j, i in enumerate(ids):                       # each slice added in the index's order
        key = (slice(None),) * dim + (i,)
        want[key] = want[key] + s[(slice(None),) * dim + (j,)]
    assert got.tobytes() == want.tobytes()
    # index_select's gradient: index_add into zeros (0.0 + -0.0 is +0.0)
    t = ember.from_numpy(x).to(dtype).requires_grad_(True)
    (g,) = ember.autograd.grad(t.index_select(dim, ember.from_numpy(ids)), t, st)
    want = np.zeros(shape, s.dtype)
    for j, i in enumerate(ids):
        key = (slice(None),) * dim + (i,)
        want[key] = want[key] + s[(slice(None),) * dim + (j,)]
    assert g.numpy().tobytes() == want.tobytes()
