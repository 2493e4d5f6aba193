"""NOTE [ The CUDA fast path ] (ember/_ops/elementwise.py): float32/float64 element-wise ops of
one dtype on one GPU, possibly with a Python number, skip the general promotion and device
machinery. Each case here must give what the general path gives: the CPU's values, dtype,
device, layout and graph."""
import numpy as np
import pytest

import ember
from ember._ops import elementwise

CASES = {
    "a + b": lambda a, b: a + b,
    "a - b": lambda a, b: a - b,
    "a * b": lambda a, b: a * b,
    "a / b": lambda a, b: a / b,
    "a * 2.5": lambda a, b: a * 2.5,
    "a + 3": lambda a, b: a + 3,
    "a / 7": lambda a, b: a / 7,
    "a - 2**40": lambda a, b: a - 2**40,
    "exp": lambda a, b: a.exp(),
    "tanh": lambda a, b: ember.tanh(a),
    "relu": lambda a, b: ember.relu(a),
    "sqrt(abs)": lambda a, b: a.abs().sqrt(),
}


def _pair(dtype, shape=(3, 4)):
    rng = np.random.default_rng(0)
    return (rng.standard_normal(shape).astype(dtype),
            rng.uniform(0.5, 2.0, shape).astype(dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES)
def test_fast_path_matches_the_cpu(gpu, case, dtype):
    a, b = _pair(dtype)
    fn = CASES[case]
    want = fn(ember.tensor(a), ember.tensor(b))
    got = fn(ember.tensor(a, device="cuda"), ember.tensor(b, device="cuda"))
    assert got.device.type == "cuda" and got.dtype == want.dtype
    assert got.stride() == want.stride()
    np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-6)


def test_fast_path_is_taken_and_records_the_graph(gpu, monkeypatch):
    a, b = _pair("float32")
    x = ember.tensor(a, device="cuda", requires_grad=True)
    y = ember.tensor(b, device="cuda")
    taken = []
    real = elementwise._cuda_fast
    monkeypatch.setattr(elementwise, "_cuda_fast",
                        lambda *args: taken.append(1) or real(*args))
    z = (x * y + 1).exp()
    assert len(taken) == 3
    assert z.grad_fn.name() == "ExpBackward0"
    assert z.grad_fn.next_functions[0][0].name() == "AddBackward0"
    z.sum().backward()
    want = np.exp(a * b + 1) * b
    np.testing.assert_allclose(x.grad.cpu().numpy(), want, rtol=1e-5)


@pytest.mark.parametrize("make", [
    lambda a, b: (a, b.to(ember.float64)),                  # two dtypes: promotion
    lambda a, b: (a, b[0, 0].cpu()),                        # a CPU 0-dim tensor
    lambda a, b: (a.t(), b.t().contiguous()),               # a transposed operand
    lambda a, b: (a, True),                                 # a bool number
    lambda a, b: (a.half(), b.half()),                      # half: computed in float32
    lambda a, b: (a.to(ember.int64), b.to(ember.int64)),    # integers
], ids=["dtypes", "cpu-scalar", "transposed", "bool", "half", "ints"])
def test_other_cases_take_the_general_path_and_agree(gpu, make):
    a, b = _pair("float32")
    ca, cb = make(ember.tensor(a, device="cuda"), ember.tensor(b, device="cuda"))
    pa, pb = make(ember.tensor(a), ember.tensor(b))
    got, want = ca * cb, pa * pb
    assert got.device.type == "cuda" and got.dtype == want.dtype
    assert got.stride() == want.stride()
    np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-3)


def test_a_cpu_operand_is_still_refused(gpu):
    a = ember.ones(3, device="cuda")
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        a + ember.ones(3)


def test_fast_path_computes_on_the_operands_device(fake_cuda):
    # the device guard: with cuda:0 current, an op of tensors on cuda:1 runs and allocates there
    a = ember.ones(4, device="cuda:1")
    b = ember.ones(4, device="cuda:1")
    assert ember.cuda.current_device() == 0
    c = a + b
    assert c.device == ember.device("cuda:1") and c._data.data.device_id == 1
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        a + ember.ones(4, device="cuda:0")
