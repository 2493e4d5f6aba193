"""Fractional max pooling against real torch: with the same _random_samples, ember's values,
indices, gradients and node names equal torch's exactly (every float dtype, 2-d and 3-d,
batched or not, ties and NaN); with the same seed and no samples, the drawn samples (and so
the outputs) are torch's too; the layers and torch's error texts. Skipped without torch."""
import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

DTYPES = ["float32", "float64", "float16", "bfloat16"]


def _case(seed):
    rng = np.random.default_rng(seed)
    nd = 2 + seed % 2
    spatial = tuple(int(v) for v in rng.integers(3, 11 if nd == 2 else 8, nd))
    kernel = tuple(int(rng.integers(1, min(spatial) // 2 + 1)) for _ in range(nd))
    # torch allows out + kernel - 1 <= n in 2-d, but < n in 3-d
    out = tuple(int(rng.integers(1, n - k + (2 if nd == 2 else 1)))
                for n, k in zip(spatial, kernel))
    lead = (2, 3) if seed % 3 else (3,)
    x = rng.standard_normal(lead + spatial)
    if seed % 5 == 0:
        x = np.round(x)                                 # ties
    if seed % 7 == 0:
        x[rng.uniform(size=x.shape) < 0.1] = np.nan
    samples = rng.uniform(0, 1, ((lead[0] if len(lead) == 2 else 1), lead[-1], nd))
    return nd, x, samples, kernel, out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(12))
def test_given_samples_match_torch_exactly(seed, dtype):
    nd, x, samples, kernel, out = _case(seed)
    results = []
    for lib in (torch, ember):
        kind = getattr(lib, dtype)
        t = lib.tensor(x).to(kind).requires_grad_()
        fn = getattr(lib.nn.functional, f"fractional_max_pool{nd}d")
        values, indices = fn(t, kernel, output_size=out, return_indices=True,
                             _random_samples=lib.tensor(samples).to(kind))
        w = lib.tensor(np.random.default_rng(1).standard_normal(tuple(values.shape))).to(kind)
        (values * w).sum().backward()
        results.append((values.detach().float().numpy(), indices.numpy(),
                        t.grad.float().numpy(), type(values.grad_fn).__name__))
    (tv, ti, tg, tn), (ev, ei, eg, en) = results
    assert en == tn == f"FractionalMaxPool{nd}DBackward0"
    np.testing.assert_array_equal(ei, ti)
    np.testing.assert_array_equal(ev, tv)
    np.testing.assert_array_equal(eg, tg)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nd", [2, 3])
def test_drawn_samples_match_torch(nd, dtype):
    """No _random_samples: both draw rand(N, C, nd) of the input's dtype from the seeded
    generator, and ember's generator reproduces torch's stream."""
    x = np.random.default_rng(nd).standard_normal((2, 3) + (9, 10, 11)[:nd])
    outs = []
    for lib in (torch, ember):
        lib.manual_seed(11)
        t = lib.tensor(x).to(getattr(lib, dtype))
        layer = getattr(lib.nn, f"FractionalMaxPool{nd}d")(2, output_ratio=0.55,
                                                          return_indices=True)
        values, indices = layer(t)
        again = getattr(lib.nn.functional, f"fractional_max_pool{nd}d")(
            t, 3, output_size=(4, 5, 6)[:nd], return_indices=True)
        outs.append([values.float().numpy(), indices.numpy(), again[0].float().numpy(),
                     again[1].numpy()])
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)


def _calls(lib):
    F, nn = lib.nn.functional, lib.nn
    x2, x3 = lib.zeros(2, 3, 7, 8), lib.zeros(2, 3, 5, 6, 7)
    s2, s3 = lib.rand(2, 3, 2), lib.rand(2, 3, 3)
    p2, p3 = F.fractional_max_pool2d, F.fractional_max_pool3d
    return [
        lambda: p2(x2, 2), lambda: p3(x3, 2), lambda: p2(x2, 2, output_ratio=0.5),
        lambda: p2(x2, 2, output_ratio=(0.5,) * 3), lambda: p2(x2, 2, output_ratio=[0.5]),
        lambda: p3(x3, 2, output_ratio=(0.5, 0.5)),
        lambda: p2(x2, [3], 3, _random_samples=s2), lambda: p2(x2, 3, [3, 3, 3]),
        lambda: p3(x3, (2, 2), 2), lambda: p3(x3, 2, [2]), lambda: p2(x2, (3.0, 3), 3),
        lambda: p2(x2, 2, (3.5, 3)), lambda: p2(x2[0, 0], 2, 3), lambda: p3(x3[0, 0], 2, 2),
        lambda: p2(x2[None], 2, 3, _random_samples=s2.double()),
        lambda: p3(x3[None], 2, 2, _random_samples=s3.double()),
        lambda: p2(x2[:, :, :0], 2, 2, _random_samples=s2[:, :2]),
        lambda: p3(x3[:, :, :, :0], 2, 2, _random_samples=s3.double()),
        lambda: p3(x3[0, :, :0], 2, 2, _random_samples=s3),
        lambda: p2(x2, 3, (6, 7)), lambda: p2(x2, (2, 3), (3, 7)), lambda: p2(x2, 2, 7),
        lambda: p3(x3, 2, (4, 5, 6)), lambda: p3(x3, 2, (3, 5, 6)), lambda: p3(x3, 2, (3, 5, 5)),
        lambda: p3(x3, (2, 2, 6), 4), lambda: p3(x3, 1, (5, 6, 7)),
        lambda: p2(x2, 2, (-1, 2), _random_samples=s2.double()),
        lambda: p3(x3, 2, (-1, 2, 2), _random_samples=s3[:, :, :2]),
        lambda: p2(x2, 2, 3, _random_samples=s2.double()),
        lambda: p2(x2, 2, 3, _random_samples=s2[0]),
        lambda: p2(x2, 2, 3, _random_samples=s2[:1]),
        lambda: p2(x2, 2, 3, _random_samples=s2[:, :2]),
        lambda: p2(x2, 2, 3, _random_samples=s3),
        lambda: p3(x3, 2, 2, _random_samples=s2),
        lambda: p2(x2[0], 2, 3, _random_samples=s2[:, :, :1]),
        lambda: p2(x2.long(), 2, 3, _random_samples=s2.long()),
        lambda: p2(x2.long(), 2, 9, _random_samples=s2.long()),
        lambda: p3(x3.bool(), 2, 2, _random_samples=s3.bool()),
        lambda: p2(x2.to(lib.complex64), 2, 3, _random_samples=s2.to(lib.complex64)),
        lambda: nn.FractionalMaxPool2d(2), lambda: nn.FractionalMaxPool3d(2),
        lambda: nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5),
        lambda: nn.FractionalMaxPool2d(2, output_ratio=1),
        lambda: nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0)),
        lambda: nn.FractionalMaxPool2d(2, output_ratio=(0.5,)),
        lambda: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 2, 0.5)),
        lambda: nn.FractionalMaxPool3d(0, output_ratio=0.5),
        lambda: nn.FractionalMaxPool3d((2, 0, 1), output_ratio=0.5),
        lambda: nn.FractionalMaxPool3d([2, 2, -1], output_size=2),
    ]


@pytest.mark.parametrize("k", range(len(_calls(ember))))
def test_errors_match_torch(k):
    outcomes = []
    for lib in (torch, ember):
        try:
            result = _calls(lib)[k]()
            outcomes.append(("ok", repr(result) if isinstance(result, lib.nn.Module)
                             else tuple(result.shape)))
        except Exception as error:  # noqa: BLE001 - compared below
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[1] == outcomes[0]


def test_layers_match_torch():
    for lib in (torch, ember):
        assert repr(lib.nn.FractionalMaxPool2d(3, output_size=5)) == "FractionalMaxPool2d()"
        layer = lib.nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.6, 0.7),
                                           _random_samples=lib.zeros(1, 2, 3))
        assert repr(layer) == "FractionalMaxPool3d()"
        assert list(layer.state_dict()) == ["_random_samples"]
        assert layer.kernel_size == (2, 2, 2) and layer.output_ratio == (0.5, 0.6, 0.7)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nd", [2, 3])
def test_adaptive_max_pool_gradients_match_torch_exactly(nd, dtype):
    """Adaptive max pooling shares the ordered gradient sum (overlapping windows)."""
    rng = np.random.default_rng(nd)
    x = rng.standard_normal((3, 5) + (13, 11, 9)[:nd])
    out = (9, 7, 5)[:nd]
    w = rng.standard_normal((3, 5) + out)
    grads = []
    for lib in (torch, ember):
        t = lib.tensor(x).to(getattr(lib, dtype)).requires_grad_()
        o = getattr(lib.nn.functional, f"adaptive_max_pool{nd}d")(t, out)
        (o * lib.tensor(w).to(getattr(lib, dtype))).sum().backward()
        grads.append(t.grad.float().numpy())
    np.testing.assert_array_equal(grads[1], grads[0])
