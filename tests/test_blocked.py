"""The blocked CPU kernels (NOTE [ Why blocked kernels ]) return exactly NumPy's answers.

Their fast paths start above a size threshold, so these inputs are large enough to take them;
ties, NaN, partial last blocks and several thread counts are the cases that could go wrong.
"""
import contextlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ember
from ember._ops import _blocked


@contextlib.contextmanager
def small_threshold():
    """Fast paths for small inputs too, so that hypothesis can explore many shapes quickly."""
    before = _blocked._LARGE
    _blocked._LARGE = 64
    try:
        yield
    finally:
        _blocked._LARGE = before


@pytest.fixture(params=[1, 2, 3])
def threads(request):
    before = ember.get_num_threads()
    ember.set_num_threads(request.param)
    yield request.param
    ember.set_num_threads(before)


def _data(rng, shape, dtype, nans=0):
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(shape).astype(dtype)
        if nans:
            x.flat[rng.integers(0, x.size, nans)] = np.nan
        return x
    return rng.integers(-3, 4, shape).astype(dtype)      # many ties


@settings(max_examples=25, deadline=None)
@given(outer=st.integers(1, 3), n=st.integers(1, 90), inner=st.integers(1, 40),
       dtype=st.sampled_from(["float32", "float64", "int64", "int8"]),
       nans=st.integers(0, 3), largest=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_arg_extreme_matches_numpy(outer, n, inner, dtype, nans, largest, seed):
    x = _data(np.random.default_rng(seed), (outer, n, inner), dtype, nans)
    want = (np.argmax if largest else np.argmin)(x, axis=1)
    with small_threshold():
        got = _blocked.arg_extreme(x, 1, largest)
    assert got.dtype == np.int64 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_argmax_and_max_along_dim0_of_a_large_matrix(threads):
    x = _data(np.random.default_rng(0), (1030, 517), "float32", nans=4)
    t = ember.from_numpy(x)
    np.testing.assert_array_equal(t.argmax(dim=0).numpy(), x.argmax(axis=0))
    np.testing.assert_array_equal(t.argmin(0, keepdim=True).numpy(),
                                  x.argmin(axis=0)[None])
    values, indices = t.max(dim=0)
    np.testing.assert_array_equal(indices.numpy(), x.argmax(axis=0))
    np.testing.assert_array_equal(values.numpy(), x.max(axis=0))


@settings(max_examples=15, deadline=None)
@given(shape=st.sampled_from([(300, 260), (3, 270, 40), (300, 2, 3)]),
       order=st.permutations([0, 1, 2]), step=st.integers(1, 2), seed=st.integers(0, 99))
def test_contiguous_copy_of_any_layout(shape, order, step, seed):
    x = np.random.default_rng(seed).standard_normal(shape)
    order = [d for d in order if d < len(shape)]
    view = x.transpose(order)[..., ::step]
    with small_threshold():
        got = _blocked.contiguous_copy(view)
    assert got.flags.c_contiguous
    np.testing.assert_array_equal(got, view)


def test_contiguous_of_a_transposed_tensor(threads):
    x = np.random.default_rng(1).standard_normal((600, 900)).astype(np.float32)
    t = ember.from_numpy(x).t()
    c = t.contiguous()
    assert c.is_contiguous() and c.stride() == (600, 1)
    np.testing.assert_array_equal(c.numpy(), x.T)
    assert not np.shares_memory(c.numpy(), x)


def test_sum_over_the_last_dim_matches_numpy(threads):
    # (the blocked kernel itself: Tensor.sum adds in torch's order below its size,
    # NOTE [ Summation order ])
    x = np.random.default_rng(2).standard_normal((2, 700, 500)).astype(np.float32)
    np.testing.assert_array_equal(_blocked.sum_last(x, None, False), np.add.reduce(x, axis=-1))
    np.testing.assert_array_equal(_blocked.sum_last(x, None, True),
                                  np.add.reduce(x, axis=2, keepdims=True))
    big = np.random.default_rng(3).standard_normal((4100, 512)).astype(np.float32)
    np.testing.assert_array_equal(ember.from_numpy(big).sum(-1).numpy(),
                                  np.add.reduce(big, axis=-1))


def test_a_failing_part_raises_in_the_caller(threads):
    from ember._parallel import run_parts

    def fail(i):
        if i == 3:
            raise ValueError("part 3")
    with pytest.raises(ValueError, match="part 3"):
        run_parts(fail, 5)


def test_set_num_threads_bounds_numpys_blas():
    # as torch.set_num_threads bounds its BLAS: NOTE [ BLAS threads ]
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def blas_threads():
        return {d["num_threads"] for d in threadpoolctl.threadpool_info()
                if d["user_api"] == "blas"}
    if not blas_threads():
        pytest.skip("NumPy's BLAS is not one threadpoolctl knows")
    before = ember.get_num_threads()
    try:
        ember.set_num_threads(1)
        assert blas_threads() == {1}
        ember.set_num_threads(3)
        assert blas_threads() == {3}
    finally:
        ember.set_num_threads(before)


def test_set_num_threads_refuses_non_positive():
    with pytest.raises(RuntimeError, match="set_num_threads expects a positive integer"):
        ember.set_num_threads(0)


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_one_dim_reductions_give_zero_dim_cpu_tensors(name):
    # NumPy answers a 1-D argmax with a scalar, not an array; the tensor must still be 0-dim,
    # live on the CPU and print
    x = ember.tensor([1.0, 3.0, 2.0])
    result = getattr(x, name)(0)
    index = result if name.startswith("arg") else result[1]
    assert index.shape == () and index.device.type == "cpu" and index.dtype == ember.int64
    assert int(index) == (1 if "max" in name else 0)
    assert repr(index) == f"tensor({int(index)})"


@contextlib.contextmanager
def one_thread():
    before = ember.get_num_threads()
    ember.set_num_threads(1)
    try:
        yield
    finally:
        ember.set_num_threads(before)


def _same(got, want):
    """Same values (bit for bit, NaN included), dtype, shape and strides."""
    assert got.dtype == want.dtype and got.shape == want.shape and got.stride() == want.stride()
    bits = lambda t: np.ascontiguousarray(t.detach().numpy()).view(np.uint8)  # noqa
    np.testing.assert_array_equal(bits(got), bits(want))


# (above the size from which kernels split: blocks of rows, a broadcast operand, too few rows)
SPLIT_CASES = [((2000, 1100), (2000, 1100)), ((2000, 1100), (1100,)), ((2000, 1100), (1, 1100)),
               ((997, 7, 330), (997, 1, 330)), ((5, 450000), (5, 450000)),
               ((3, 800000), (3, 800000)), ((1, 2200000), (1, 2200000))]


@pytest.mark.parametrize("shapes", SPLIT_CASES)
def test_large_elementwise_ops_split_over_threads_match_one_thread(threads, shapes,
                                                                   monkeypatch):
    splits = []
    run_parts = _blocked.run_parts
    monkeypatch.setattr(_blocked, "run_parts", lambda fn, n: splits.append(n) or run_parts(fn, n))
    rng = np.random.default_rng(3)
    a, b = (ember.from_numpy(_data(rng, s, "float32", nans=3)) for s in shapes)
    a.view(-1)[:5] = ember.tensor([np.inf, -np.inf, 0.0, -0.0, np.nan])
    results = lambda: [a + b, b * a, a - b, a / b, a * 2.5, 3.0 - a, ember.relu(a),  # noqa
                       ember.relu(a.t() if a.dim() == 2 else a), a.exp(), b.abs().sqrt()]
    got = results()
    if threads > 1 and shapes[0][0] >= 2 * threads:
        assert splits                   # (the case takes the split kernels)
    with one_thread():
        want = results()
    for g, w in zip(got, want):
        _same(g, w)
    np.testing.assert_array_equal(got[0].numpy(), a.numpy() + b.numpy())
    np.testing.assert_array_equal(got[6].numpy(), np.maximum(a.numpy(), 0))


def test_large_relu_and_threshold_gradients_split_over_threads(threads):
    rng = np.random.default_rng(4)
    x = ember.from_numpy(_data(rng, (1500, 1500), "float64", nans=5)).requires_grad_()
    g = ember.from_numpy(_data(rng, (1500, 1500), "float64", nans=5))
    g.view(-1)[:3] = ember.tensor([np.inf, -np.inf, -1.0])
    x.data.view(-1)[:3] = -0.5              # dropped by both: +0.0 whatever the gradient
    grads = lambda: ember.autograd.grad(  # noqa
        [ember.relu(x), ember.nn.functional.hardshrink(x, 0.7)], [x], [g, g])[0]
    got = grads()
    with one_thread():
        want = grads()
    _same(got, want)
    xn, gn = x.detach().numpy(), g.numpy()
    expected = np.where(xn <= 0, 0.0, gn) + np.where((xn >= -0.7) & (xn <= 0.7), 0.0, gn)
    np.testing.assert_array_equal(got.numpy(), expected)
    assert not np.signbit(got.numpy()[0, :3]).any()


@pytest.mark.parametrize("kernel, stride, padding", [(2, 2, 0), (3, 2, 1), (2, 1, 0)])
def test_large_max_pools_split_over_threads_match_one_thread(threads, kernel, stride, padding):
    rng = np.random.default_rng(5)
    x = rng.integers(-2, 3, (64, 48, 26, 26)).astype(np.float32)    # many ties
    x.flat[rng.integers(0, x.size, 7)] = np.nan
    t = ember.from_numpy(x).requires_grad_()

    def run():
        out, index = ember.nn.functional.max_pool2d(t, kernel, stride, padding,
                                                    return_indices=True)
        grad, = ember.autograd.grad(out, t, ember.ones_like(out))
        return out, index, grad
    got = run()
    with one_thread():
        want = run()
    for g, w in zip(got, want):
        _same(g, w)
    if (kernel, stride, padding) == (2, 2, 0):      # by hand: the first maximum of each window
        windows = x.reshape(64, 48, 13, 2, 13, 2).transpose(0, 1, 2, 4, 3, 5).reshape(
            64, 48, 13, 13, 4)
        first = np.where(np.isnan(windows).any(-1), np.nan, windows.max(-1))
        np.testing.assert_array_equal(got[0].detach().numpy(), first)
        assert got[2].sum().item() == got[0].numel()     # one input per window gets 1


def test_splits_nest_without_waiting_on_each_other(threads):
    from ember._parallel import run_parts
    seen = []

    def outer(i):
        run_parts(lambda j: seen.append((i, j)), 3)
    run_parts(outer, 4)
    assert sorted(seen) == [(i, j) for i in range(4) for j in range(3)]


def test_a_forked_worker_splits_kernels_with_its_own_threads():
    # the parent's helper threads exist before the fork and not in the child
    big = ember.randn(1500, 1500)
    ember.relu(big)
    data = ember.utils.data.TensorDataset(ember.randn(4, 1500, 1500))
    loader = ember.utils.data.DataLoader(data, batch_size=2, num_workers=1,
                                         collate_fn=lambda items: ember.relu(items[0][0]).sum())
    got = [float(s) for s in loader]
    want = [float(ember.relu(data[i][0]).sum()) for i in (0, 2)]
    assert got == pytest.approx(want, rel=1e-6)


# -- select: where() by bits -------------------------------------------------------------------

_OPERANDS = st.sampled_from(["full", "row", "column", "number", "negative zero", "nan",
                             "float64 number", "int"])


def _operand(kind, shape, dtype, rng):
    if kind == "full":
        x = rng.standard_normal(shape).astype(dtype)
        x.flat[::7] = -0.0
        x.flat[::11] = np.nan
        return x
    if kind == "row":
        return rng.standard_normal(shape[-1:]).astype(dtype)
    if kind == "column":
        return rng.standard_normal(shape[:1] + (1,)).astype(dtype)
    return {"number": 1.5, "negative zero": -0.0, "nan": float("nan"),
            "float64 number": np.float64(2.25), "int": 3}[kind]


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 90), cols=st.integers(1, 90), dtype=st.sampled_from(
    [np.float32, np.float64]), kind_a=_OPERANDS, kind_b=_OPERANDS,
    cond_kind=st.sampled_from(["full", "row", "column"]), seed=st.integers(0, 2 ** 16))
def test_select_picks_the_same_bits_as_np_where(rows, cols, dtype, kind_a, kind_b, cond_kind,
                                                seed):
    rng = np.random.default_rng(seed)
    shape = (rows, cols)
    a, b = _operand(kind_a, shape, dtype, rng), _operand(kind_b, shape, dtype, rng)
    cond_shape = {"full": shape, "row": (cols,), "column": (rows, 1)}[cond_kind]
    cond = rng.random(cond_shape) < 0.5
    before = _blocked._SELECT_FROM
    _blocked._SELECT_FROM = 1           # the bit path for every size
    try:
        got = _blocked.select(np, cond, a, b)
    finally:
        _blocked._SELECT_FROM = before
    want = np.where(cond, a, b)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def test_where_and_leaky_relu_on_large_tensors_keep_torchs_values():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((70, 80)).astype(np.float32)
    x[0, :3] = [-0.0, np.nan, -np.inf]
    t = ember.from_numpy(x)
    np.testing.assert_array_equal(ember.where(t > 0, t, t * 2).numpy(),
                                  np.where(x > 0, x, x * np.float32(2)))
    got = ember.nn.functional.leaky_relu(t, 0.1).numpy()
    assert got.tobytes() == np.where(x > 0, x, x * np.float32(0.1)).tobytes()
    assert np.signbit(got[0, 0]) and np.isnan(got[0, 1])
    got = ember.nn.functional.threshold(t, 0.5, -7.0).numpy()
    assert got.tobytes() == np.where(x <= 0.5, np.float32(-7), x).tobytes()
