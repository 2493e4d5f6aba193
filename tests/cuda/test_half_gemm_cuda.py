"""float16/bfloat16 matrix products on the GPU through cuBLAS GemmEx (NOTE [ Half products
on the GPU ] in src/ember/cuda/_gemm.py): every operand layout cuBLAS reads in place
(row-major, transposed views), layouts it cannot (copied first), batched and broadcast
batches, and a Linear layer's forward and backward, against the float32 product rounded once
to the dtype, computed on the CPU. On a real GPU this is cuBLAS; on the fake CuPy, its
emulation of GemmEx's column-major contract, which checks ember's layout mapping in CI."""
import numpy as np
import pytest

import ember

DTYPES = [ember.float16, ember.bfloat16]


def _pair(shape_a, shape_b, dtype, seed):
    g = ember.Generator().manual_seed(seed)
    a = ember.randn(*shape_a, generator=g).to(dtype)
    b = ember.randn(*shape_b, generator=g).to(dtype)
    return a, b


def _check(got, a, b, dtype):
    want = ember.matmul(a.float(), b.float()).to(dtype)      # float32 product, one rounding
    assert got.dtype is dtype and got.is_cuda and got.shape == want.shape
    got, want = got.cpu().float().numpy(), want.float().numpy()
    # equal up to the float32 summation order: at most one rounding step of the half dtype
    step = 2.0 ** -7 if dtype is ember.bfloat16 else 2.0 ** -10
    np.testing.assert_allclose(got, want, rtol=step, atol=step)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("layout", ["rows", "a.T", "b.T", "both.T", "strided", "batched",
                                    "broadcast-2d", "broadcast-1", "bmm", "mm"])
def test_products(gpu, dtype, layout):
    shapes = {"batched": ((4, 33, 17), (4, 17, 20)), "broadcast-2d": ((33, 17), (4, 17, 20)),
              "broadcast-1": ((1, 33, 17), (4, 17, 20)), "bmm": ((3, 8, 5), (3, 5, 7))}
    a, b = _pair(*shapes.get(layout, ((33, 17), (17, 20))), dtype, 0)
    if layout in ("a.T", "both.T"):
        a = a.t().contiguous().t()                  # column-major a
    if layout in ("b.T", "both.T"):
        b = b.t().contiguous().t()
    if layout == "strided":
        a = ember.cat([a, a], 1)[:, ::2]            # neither row- nor column-major
    da, db = a.cuda(), b.cuda()
    if layout in ("a.T", "both.T"):
        assert da.stride() == (1, 33)
    calls = len(getattr(gpu, "gemm_calls", ()))
    got = {"bmm": lambda: ember.bmm(da, db), "mm": lambda: ember.mm(da, db)}.get(
        layout, lambda: da @ db)()
    _check(got, a, b, dtype)
    if hasattr(gpu, "gemm_calls"):                  # the fake: GemmEx did the product
        assert len(gpu.gemm_calls) == calls + 1


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_linear_forward_and_backward(gpu, dtype):
    ember.manual_seed(0)
    layer = ember.nn.Linear(64, 48, bias=False).to(dtype)
    x = ember.randn(32, 64).to(dtype)
    want = layer(x)
    cuda_layer = ember.nn.Linear(64, 48, bias=False).to(dtype)
    cuda_layer.load_state_dict(layer.state_dict())
    cuda_layer.cuda()
    xc = x.cuda().requires_grad_()
    got = cuda_layer(xc)
    step = 2.0 ** -7 if dtype is ember.bfloat16 else 2.0 ** -10
    np.testing.assert_allclose(got.detach().cpu().float().numpy(),
                               want.detach().float().numpy(), rtol=4 * step, atol=4 * step)
    g = ember.randn(32, 48).to(dtype)
    got.backward(g.cuda())
    want_w = (g.float().t() @ x.float()).to(dtype)
    want_x = (g.float() @ layer.weight.detach().float()).to(dtype)
    np.testing.assert_allclose(cuda_layer.weight.grad.cpu().float().numpy(),
                               want_w.float().numpy(), rtol=4 * step, atol=4 * step)
    np.testing.assert_allclose(xc.grad.cpu().float().numpy(), want_x.float().numpy(),
                               rtol=4 * step, atol=4 * step)
