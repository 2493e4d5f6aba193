"""ember's own vectorised CUDA element-wise kernels (ember/cuda/_kernels.py).

On the fake CuPy (CI) these check the dispatch: which calls launch ember's kernel and which
stay on CuPy's ufunc, and that results, dtypes, layouts, `out=`, in-place ops and autograd
come out as before. On a real GPU (`gpu` fixture) they compare each kernel, bit for bit,
with CuPy's own ufunc on random data, at sizes and offsets around the 16-byte packs.
"""
import numpy as np
import pytest

import ember
from ember.cuda import _kernels


@pytest.fixture
def small(monkeypatch):
    """Kernels for every size (the size threshold is only about speed)."""
    monkeypatch.setattr(_kernels, "MIN_SIZE", 1)


def _launches(fake):
    return [name for name, *_ in fake.kernel_launches]


def _cuda(a):
    return ember.as_tensor(a).cuda()


def _host(t):
    return t.cpu().numpy()


BINARY = [("add", lambda a, b: a + b), ("subtract", lambda a, b: a - b),
          ("multiply", lambda a, b: a * b), ("true_divide", lambda a, b: a / b),
          ("maximum", ember.maximum), ("minimum", ember.minimum)]
UNARY = [("negative", lambda a: -a), ("absolute", ember.abs), ("exp", ember.exp),
         ("log", ember.log), ("sqrt", ember.sqrt), ("tanh", ember.tanh),
         ("relu", ember.relu), ("sigmoid", ember.sigmoid)]


@pytest.mark.parametrize("op,fn", BINARY)
def test_binary_ops_take_the_kernel(fake_cuda, small, op, fn):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3, 5)).astype(np.float32)
    a[0, 0], b[1, 1] = np.nan, np.nan
    result = fn(_cuda(a), _cuda(b))
    assert _launches(fake_cuda) == [f"ember_{op}_tt_float32_v"]
    expected = fn(ember.as_tensor(a), ember.as_tensor(b))
    assert result.dtype == ember.float32 and result.shape == (3, 5)
    np.testing.assert_array_equal(_host(result), expected.numpy())


@pytest.mark.parametrize("op,fn", UNARY)
def test_unary_ops_take_the_kernel(fake_cuda, small, op, fn):
    a = np.random.default_rng(1).standard_normal((4, 6))
    a = np.abs(a) if op in ("log", "sqrt") else a
    result = fn(_cuda(a))
    assert _launches(fake_cuda) == [f"ember_{op}_t_float64_v"]
    np.testing.assert_allclose(_host(result), fn(ember.as_tensor(a)).numpy(), rtol=1e-15)
    assert result.dtype == ember.float64


def test_scalar_operand_half_and_misaligned(fake_cuda, small):
    a = np.arange(1, 11, dtype=np.float16)
    x = _cuda(a)
    np.testing.assert_array_equal(_host(x + 2.5), a + np.float16(2.5))
    np.testing.assert_array_equal(_host(x[1:] - 1), a[1:] - np.float16(1))
    assert _launches(fake_cuda) == ["ember_add_ts_float16_v", "ember_subtract_ts_float16_s"]
    # float16 mul/div compute in float32 (opmath): the float32 kernel, then one rounding
    np.testing.assert_array_equal(_host(x * 3.3), (a.astype(np.float32) * np.float32(3.3))
                                  .astype(np.float16))
    assert _launches(fake_cuda)[-1] == "ember_multiply_ts_float32_v"


def test_what_stays_on_cupys_ufunc(fake_cuda, small):
    rng = np.random.default_rng(2)
    a = _cuda(rng.standard_normal((4, 6)).astype(np.float32))
    cases = [lambda: a + _cuda(rng.standard_normal(6).astype(np.float32)),     # broadcasting
             lambda: a.t() + a.t(),                                             # not C-order
             lambda: a + 2j,                                                    # complex
             lambda: ember.add(a, a, alpha=2),                                  # alpha
             lambda: _cuda(np.arange(24).reshape(4, 6)) + 1,                    # integers
             lambda: ember.exp(a.half()),                                       # float16 exp
             lambda: a + _cuda(np.float32(1.5)),                                # a 0-dim tensor
             lambda: ember.pow(a, 2)]                                           # no kernel
    for case in cases:
        fake_cuda.kernel_launches.clear()
        case()
        assert _launches(fake_cuda) == [], case
    _kernels.ENABLED = False
    try:
        a + a
    finally:
        _kernels.ENABLED = True
    assert _launches(fake_cuda) == []


def test_size_threshold(fake_cuda):
    small = _cuda(np.ones(_kernels.MIN_SIZE - 1, np.float32))
    large = _cuda(np.ones(_kernels.MIN_SIZE, np.float32))
    small + small
    assert _launches(fake_cuda) == []
    np.testing.assert_array_equal(_host(large + large), 2)
    assert _launches(fake_cuda) == ["ember_add_tt_float32_v"]
    name, grid, block, args = fake_cuda.kernel_launches[0]
    assert block == (256,) and grid == (_kernels.MIN_SIZE // 4 // 256,)
    assert int(args[-1]) == _kernels.MIN_SIZE


def test_out_and_inplace(fake_cuda, small):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 8, 3))
    x, y = _cuda(a), _cuda(b)
    out = ember.empty(8, 3, dtype=ember.float64, device="cuda")
    ember.mul(x, y, out=out)
    np.testing.assert_array_equal(_host(out), a * b)
    x.add_(y)                                   # the target is an operand: read, then written
    np.testing.assert_array_equal(_host(x), a + b)
    x.relu_()
    np.testing.assert_array_equal(_host(x), np.maximum(a + b, 0))
    assert _launches(fake_cuda) == ["ember_multiply_tt_float64_v", "ember_add_tt_float64_v",
                                    "ember_relu_t_float64_v"]
    # an output shifted over an operand's memory is refused (element i would read another's
    # result)
    z = fake_cuda.arange(10.0)
    assert _kernels.run(fake_cuda, "add", [z[:-1], z[:-1]], {}, out=z[1:]) is None
    assert _kernels.run(fake_cuda, "add", [z[1:], z[1:]], {}, out=z[1:]) is not None
    assert _launches(fake_cuda)[-1] == "ember_add_tt_float64_s"


def test_autograd_unchanged(fake_cuda, small):
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((2, 5, 4)).astype(np.float32)
    results = []
    for make in (_cuda, ember.as_tensor):
        x = make(a).requires_grad_()
        w = make(b).requires_grad_()
        y = (x * w + x).relu().sigmoid().sum()
        y.backward()
        results.append([t.detach().cpu().numpy() for t in (y, x.grad, w.grad)])
    for gpu_value, cpu_value in zip(*results):
        np.testing.assert_allclose(gpu_value, cpu_value, rtol=1e-6)
    assert "ember_threshold_backward_tt_float32_v" in _launches(fake_cuda)


def test_cuda_sources_name_their_kernel():
    for op, spec in _kernels.OPS.items():
        for dtype in spec.dtypes:
            for form in (("t",) if spec.arity == 1 else ("tt", "ts")):
                for vector in (True, False):
                    name = _kernels.kernel_name(op, form, dtype, vector)
                    code = _kernels.source(op, form, dtype, vector)
                    assert f'extern "C" __global__ void {name}(' in code
                    assert _kernels.parse_name(name) == (op, form, dtype, vector)


# -- on a real GPU: each kernel against CuPy's own ufunc, bit for bit ----------------------------

SIZES = [1, 3, 4, 5, 8, 9, 2**16 + 3]


def _ufunc(cp, op):
    if op == "relu":
        return lambda x: cp.maximum(x, 0)
    if op == "sigmoid":
        return lambda x: cp.reciprocal(1 + cp.exp(-x))
    if op == "threshold_backward":
        return lambda g, y: cp.where(y <= 0, 0, g).astype(g.dtype)
    return getattr(cp, op)


def _random(cp, n, dtype, seed, positive=False):
    x = np.random.default_rng(seed).standard_normal(n + 1) * 3
    if positive:
        x = np.abs(x)
    x[:: 7] = 0.0
    if n > 12:
        x[5], x[6], x[7] = np.nan, np.inf, -np.inf
    return cp.asarray(x.astype(dtype))


@pytest.mark.parametrize("op", sorted(_kernels.OPS))
def test_kernels_equal_cupys_ufunc(gpu, small, op):
    cp = gpu
    spec = _kernels.OPS[op]
    positive = op in ("log", "sqrt")
    for dtype in sorted(spec.dtypes, key=str):
        for n in SIZES:
            for shift in (0, 1):            # a[1:] breaks the 16-byte alignment
                a = _random(cp, n, dtype, n, positive)[shift:shift + n]
                b = _random(cp, n, dtype, n + 1)[shift:shift + n]
                b[b == 0] = 1
                inputs = (a,) if spec.arity == 1 else (a, b)
                expected = _ufunc(cp, op)(*inputs)
                out = cp.full(n, np.nan if dtype != np.float16 else 7, dtype)
                got = _kernels.run(cp, op, list(inputs), {}, out=out)
                assert got is out, (op, dtype, n, shift)
                _same_bits(cp, got, expected, (op, dtype, n, shift))
                if spec.arity == 2:
                    expected = _ufunc(cp, op)(a, dtype.type(0.7))
                    got = _kernels.run(cp, op, [a, 0.7], {})
                    if op != "threshold_backward":
                        _same_bits(cp, got, expected, (op, dtype, n, shift, "scalar"))


def _same_bits(cp, got, expected, where):
    got, expected = cp.asnumpy(got), cp.asnumpy(expected)
    assert got.dtype == expected.dtype, where
    both_nan = np.isnan(got) & np.isnan(expected)
    np.testing.assert_array_equal(np.where(both_nan, 0, got).view(f"u{got.itemsize}"),
                                  np.where(both_nan, 0, expected).view(f"u{got.itemsize}"),
                                  err_msg=str(where))
