"""grid_sample(mode='bicubic') against real torch: random images and grids (inside, near and far
outside the image) over every padding mode and align_corners, in float32 and float64: values,
gradients of input and grid, second derivatives and node names. Skipped without torch."""
import itertools

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

CASES = list(itertools.product(["zeros", "border", "reflection"], [False, True],
                               ["float32", "float64"], range(3)))
TOL = {"float32": dict(rtol=1e-5, atol=2e-5), "float64": dict(rtol=1e-11, atol=1e-11)}


def _run(lib, img, grid, weight, padding_mode, align_corners):
    a = lib.tensor(img, requires_grad=True)
    g = lib.tensor(grid, requires_grad=True)
    out = lib.nn.functional.grid_sample(a, g, mode="bicubic", padding_mode=padding_mode,
                                        align_corners=align_corners)
    gi, gg = lib.autograd.grad((out * lib.tensor(weight)).sum(), (a, g), create_graph=True)
    (second,) = lib.autograd.grad((gg * gg).sum() + (gi * gi).sum(), (g,))
    return (type(out.grad_fn).__name__,
            [t.detach().numpy() for t in (out, gi, gg, second)])


@pytest.mark.parametrize("padding_mode,align_corners,dtype,seed", CASES)
def test_bicubic_matches_torch(padding_mode, align_corners, dtype, seed):
    rng = np.random.default_rng(seed)
    n, c, h, w = 2, 3, int(rng.integers(1, 7)), int(rng.integers(1, 7))
    img = rng.standard_normal((n, c, h, w)).astype(dtype)
    grid = rng.uniform(-2.5, 2.5, (n, 4, 5, 2)).astype(dtype)
    weight = rng.standard_normal((n, c, 4, 5)).astype(dtype)
    want = _run(torch, img, grid, weight, padding_mode, align_corners)
    got = _run(ember, img, grid, weight, padding_mode, align_corners)
    assert got[0] == want[0] == "GridSampler2DBackward0"
    for name, a, b in zip(("output", "grad input", "grad grid"), got[1], want[1]):
        scale = max(1.0, float(np.abs(b).max()))
        np.testing.assert_allclose(a, b, rtol=TOL[dtype]["rtol"],
                                   atol=TOL[dtype]["atol"] * scale, err_msg=name)
    if dtype == "float64":      # second derivatives: float32 sums differ too much in order
        np.testing.assert_allclose(got[1][3], want[1][3], rtol=1e-9, atol=1e-9)


def test_bicubic_5d_error_matches_torch():
    for lib in (torch, ember):
        with pytest.raises(RuntimeError) as info:
            lib.nn.functional.grid_sample(lib.zeros(1, 1, 2, 2, 2), lib.zeros(1, 1, 1, 1, 3),
                                          mode="bicubic", align_corners=False)
        assert str(info.value) == "grid_sampler(): bicubic interpolation only supports 4D input"
