"""Last-bit agreement with torch where its kernels round in their own way: fused multiply-adds
(add/sub with alpha, lerp, addcmul) and float16/bfloat16 rules (a number at float32 precision in
mul/div, one rounding for formulas, a rounding per step in logit/xlogy). Values must be equal,
not close. Skipped when torch is not installed."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ember  # noqa: E402

pytestmark = pytest.mark.oracle

CASES = {
    "mul number": lambda m, x, y: x * 3.3,
    "number mul": lambda m, x, y: 3.3 * x,
    "div number": lambda m, x, y: x / 3.3,
    "number div": lambda m, x, y: 3.3 / x,
    "mul int": lambda m, x, y: x * 3001,
    "add number": lambda m, x, y: x + 0.1,
    "sub number": lambda m, x, y: 1.7 - x,
    "mul_ number": lambda m, x, y: x.clone().mul_(1.1),
    "div_ number": lambda m, x, y: x.clone().div_(1.1),
    "mul 0-dim": lambda m, x, y: x * m.tensor(3.3),
    "mul": lambda m, x, y: x * y,
    "div": lambda m, x, y: x / y,
    "floor_divide number": lambda m, x, y: m.floor_divide(x, 0.37),
    "lerp 0.3": lambda m, x, y: m.lerp(x, y, 0.3),
    "lerp 0.7": lambda m, x, y: m.lerp(x, y, 0.7),
    "lerp tensor": lambda m, x, y: m.lerp(x, y, m.full_like(x, 0.7)),
    "lerp_": lambda m, x, y: x.clone().lerp_(y, 0.3),
    "addcmul": lambda m, x, y: m.addcmul(x, x, y, value=0.3),
    "addcdiv": lambda m, x, y: m.addcdiv(x, x, y.abs() + 1, value=0.3),
    "logit": lambda m, x, y: m.logit((x.abs() / 4).clamp(0.01, 0.99)),
    "xlogy": lambda m, x, y: m.xlogy(x, y.abs() + 0.1),
}
# float32/float64 differ from a plain formula only where torch fuses
FUSED = {
    "add alpha": lambda m, x, y: m.add(x, y, alpha=0.3),
    "sub alpha": lambda m, x, y: m.sub(x, y, alpha=0.3),
    "add_ alpha": lambda m, x, y: x.clone().add_(y, alpha=-0.01),
    "lerp 0.3": CASES["lerp 0.3"], "lerp 0.7": CASES["lerp 0.7"],
    "lerp tensor": CASES["lerp tensor"], "addcmul": CASES["addcmul"],
    "addcdiv": CASES["addcdiv"],
}


def _inputs(module, dtype):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3000)).astype(np.float32)
    dt = getattr(module, dtype)
    return module.from_numpy(a).to(dt), module.from_numpy(b).to(dt)


def _compare(fn, dtype):
    got = [fn(m, *_inputs(m, dtype)) for m in (torch, ember)]
    assert str(got[1].dtype) == str(got[0].dtype)       # (ember prints torch.<dtype>)
    t, e = (g.double().numpy() for g in got)
    assert np.array_equal(t, e, equal_nan=True), \
        f"{np.sum(t != e)} of {t.size} elements differ"


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", list(CASES))
def test_reduced_floats_match_torch_bit_for_bit(name, dtype):
    _compare(CASES[name], dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(FUSED))
def test_fused_multiply_adds_match_torch_bit_for_bit(name, dtype):
    _compare(FUSED[name], dtype)
