"""2-norms bit for bit against torch (NOTE [ The 2-norm's sum order ]): whole tensors, rows,
leading dims, transposes, F.normalize and clip_grad_norm_'s total, float32 and float64."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402
from differential import one_torch_thread  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

FORMS = {
    "vector_norm": lambda L, x: L.linalg.vector_norm(x),
    "norm": lambda L, x: x.norm(),
    "torch.norm": lambda L, x: L.norm(x),
    "transposed": lambda L, x: x.mT.norm() if x.ndim > 1 else x.norm(),
    "last dim": lambda L, x: x.norm(dim=-1),
    "last dim kept": lambda L, x: x.norm(dim=-1, keepdim=True),
    "first dim": lambda L, x: x.norm(dim=0),
    "middle dim": lambda L, x: x.norm(dim=1) if x.ndim == 3 else x.norm(dim=0),
    "last two": lambda L, x: x.norm(dim=(-2, -1)) if x.ndim > 1 else x.norm(),
    "normalize": lambda L, x: L.nn.functional.normalize(x, dim=-1),
    "linalg.norm": lambda L, x: L.linalg.norm(x),
}


def _clip(L, x):
    p, q = L.nn.Parameter(x.clone()), L.nn.Parameter(x.clone())
    p.grad, q.grad = x.clone(), x.clone() * 3
    return L.nn.utils.clip_grad_norm_([p, q], 0.5)


FORMS["clip_grad_norm_"] = _clip


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("form", sorted(FORMS))
def test_norm_bits(form, dtype):
    rng = np.random.default_rng(abs(hash(form)) % 1000)
    f = FORMS[form]
    for _ in range(40):
        shape = tuple(rng.integers(1, 40, rng.integers(1, 4)))
        a = rng.standard_normal(shape).astype(dtype)
        expected = f(torch, torch.from_numpy(a)).numpy()
        got = f(ember, ember.from_numpy(a)).numpy()
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected, err_msg=f"{form} of shape {shape}")
