"""Gradients on the GPU (the real one where there is one, else the fake CuPy): for every differentiable entry of the operator table, backward
on 'cuda' gives the CPU's gradients (torch's own cross-device check), on the GPU."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ember  # noqa: E402
import op_table as T  # noqa: E402
import test_ops as S  # noqa: E402

from test_op_table_cuda import SKIP  # noqa: E402

# Known ember bugs in backward on CUDA, found by this suite (strict xfails).
GRAD_BUGS = {}


def _build(entry, sample, leaves, device):
    tensors = {p: ember.tensor(a, device=device, requires_grad=True) for p, a in leaves.items()}

    def make(arr, path):
        if path in tensors:
            t = tensors[path]
            return t.clone() if entry.mutates and path == ("a", 0) else t
        return T.tensor_of(arr, ember).to(device)
    args = T.convert(sample.args, ember, make, ("a",))
    kwargs = T.convert(sample.kwargs, ember, make, ("k",))
    return tensors, entry.run(ember, args, kwargs)


def _grads(entry, sample, leaves, device):
    tensors, result = _build(entry, sample, leaves, device)
    outs = S._float_outputs(result)
    if not outs or any(o.is_complex() for o in outs):
        return None
    rng = np.random.default_rng(0)
    gouts = [ember.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype, device=device)
             for o in outs]
    inputs = list(tensors.values())
    grads = ember.autograd.grad(outs, inputs, gouts, allow_unused=True)
    for g in grads:
        assert g is None or g.device == inputs[0].device, f"a gradient on {g.device}"
    return [None if g is None else g.cpu().numpy() for g in grads]


def _params():
    for name, entry in T.TABLE.items():
        if entry.grad is not True or entry.random or "float64" not in entry.dtypes \
                or entry.needs_cuda:
            continue
        marks = [pytest.mark.xfail(reason=GRAD_BUGS[name], strict=True)] \
            if name in GRAD_BUGS else []
        if name in SKIP:
            marks = [pytest.mark.skip(reason=SKIP[name])]
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_params()))
def test_gradients_on_cuda(gpu, name):
    entry = T.TABLE[name]
    checked = 0
    # The fake runs the CPU's NumPy code; a GPU's float64 kernels round differently (other
    # summation orders, their own transcendental functions).
    tol = 1e-9 if gpu.__name__.endswith("fake_cupy") else 1e-6
    for sample, leaves in S._grad_samples(entry):
        want = _grads(entry, sample, leaves, "cpu")
        got = _grads(entry, sample, leaves, "cuda")
        assert (want is None) == (got is None)
        for g, w in zip(got or (), want or ()):
            assert (g is None) == (w is None), f"{name}{sample}: unused on one device only"
            if g is not None:
                np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 1e-3,
                                           err_msg=f"{name}{sample}")
        checked += 1
    if not checked:
        pytest.skip("no real-valued float64 sample to differentiate")
