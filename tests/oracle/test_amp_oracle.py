"""ember.amp against torch's CPU build: result dtypes and values under autocast, GradScaler."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402

CASES = {
    "matmul": lambda T, F, a, b: a @ b,
    "mm": lambda T, F, a, b: T.mm(a, b),
    "bmm": lambda T, F, a, b: T.bmm(a[None], b[None]),
    "addmm": lambda T, F, a, b: T.addmm(a, a, b),
    "baddbmm": lambda T, F, a, b: T.baddbmm(a[None], a[None], b[None]),
    "linear": lambda T, F, a, b: F.linear(a, b, a[0]),
    "einsum": lambda T, F, a, b: T.einsum("ij,jk->ik", a, b),
    "conv2d": lambda T, F, a, b: F.conv2d(a[None, None], b[None, None, :2, :2]),
    "mse_loss": lambda T, F, a, b: F.mse_loss(a, b),
    "cross_entropy": lambda T, F, a, b: F.cross_entropy(a, T.tensor([0, 1, 2, 3])),
    "prod": lambda T, F, a, b: a.prod(),
    "cdist": lambda T, F, a, b: T.cdist(a, b),
    "softmax": lambda T, F, a, b: a.softmax(-1),
    "exp": lambda T, F, a, b: a.exp(),
    "cat": lambda T, F, a, b: T.cat([a, b]),
    "stack": lambda T, F, a, b: T.stack([a, b]),
    "add": lambda T, F, a, b: a + b,
    "layer_norm": lambda T, F, a, b: F.layer_norm(a, (4,)),
    "inv": lambda T, F, a, b: T.linalg.inv(a + 4 * T.eye(4)),
}


def _run(lib, fn, dtype, da, db):
    F = lib.nn.functional
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal((4, 4)).astype(np.float32)).to(getattr(lib, da))
    b = lib.tensor(rng.standard_normal((4, 4)).astype(np.float32)).to(getattr(lib, db))
    with lib.autocast("cpu", dtype=getattr(lib, dtype)):
        return fn(lib, F, a, b)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("da,db", [("float32", "float32"), ("bfloat16", "float32"),
                                   ("float64", "float64")])
def test_dtypes_and_values_match_torch(name, dtype, da, db):
    fn = CASES[name]
    try:
        want = _run(torch, fn, dtype, da, db)
    except RuntimeError:
        pytest.skip("torch rejects these dtypes")
    got = _run(ember, fn, dtype, da, db)
    assert str(got.dtype) == str(want.dtype)
    tol = 1e-5 if want.dtype in (torch.float32, torch.float64) else 2e-2
    np.testing.assert_allclose(got.double().numpy(), want.double().numpy(), rtol=tol, atol=tol)


def test_model_training_step_with_grad_scaler_matches_torch():
    def train(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 2))
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        scaler = lib.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
        x = lib.linspace(-1, 1, 12).reshape(3, 4)
        y = lib.tensor([0, 1, 1])
        scales = []
        for step in range(4):
            opt.zero_grad()
            with lib.autocast("cpu"):
                out = model(x)
                loss = lib.nn.functional.cross_entropy(out, y)
                if step == 2:
                    loss = loss * float("inf")
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            scales.append(scaler.get_scale())
        return [p.detach().double().numpy() for p in model.parameters()], scales, out.dtype
    (pe, se, de), (pt, st, dt) = train(ember), train(torch)
    assert se == st and str(de) == str(dt)
    for a, b in zip(pe, pt):
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("kind", ["LSTM", "RNN", "GRU", "MultiheadAttention", "ConvTranspose1d",
                                  "TransformerEncoderLayer"])
def test_module_output_dtypes_and_values_match_torch(kind):
    def run(lib):
        lib.manual_seed(0)
        x = lib.linspace(-2, 2, 80).reshape(2, 5, 8)
        make = {"LSTM": lambda: lib.nn.LSTM(8, 4, batch_first=True),
                "RNN": lambda: lib.nn.RNN(8, 4, batch_first=True),
                "GRU": lambda: lib.nn.GRU(8, 4, batch_first=True),
                "MultiheadAttention": lambda: lib.nn.MultiheadAttention(8, 2, batch_first=True),
                "ConvTranspose1d": lambda: lib.nn.ConvTranspose1d(5, 3, 2),
                "TransformerEncoderLayer": lambda: lib.nn.TransformerEncoderLayer(
                    8, 2, 16, dropout=0.0, batch_first=True)}[kind]()
        with lib.autocast("cpu"):
            out = make(x, x, x) if kind == "MultiheadAttention" else make(x)
        return out[0] if isinstance(out, tuple) else out
    got, want = run(ember), run(torch)
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_allclose(got.detach().float().numpy(), want.detach().float().numpy(),
                               rtol=3e-2, atol=3e-2)

