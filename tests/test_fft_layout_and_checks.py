"""torch.fft's result layouts and the order of its argument checks (found by a fuzzer against
torch): the transformed dims are innermost in memory, and the n-dim transforms check s and
dim before the input's dtype; an element-wise operand cast to the common dtype takes part in
the result's layout as torch's cast copy (complex gradients). Values are checked against
NumPy."""
import numpy as np
import pytest

import ember
import ember.fft as F


def _array(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("fn, ref, kwargs, strides", [
    # batch dims (1, 2) outermost, the transformed dim 0 innermost
    (F.fft, lambda a: np.fft.fft(a, axis=0), {"dim": 0}, (1, 8, 2)),
    (F.rfft, lambda a: np.fft.rfft(a, axis=0), {"dim": 0}, (1, 8, 2)),
    (F.ifft, lambda a: np.fft.ifft(a, n=2, axis=1), {"dim": 1, "n": 2}, (8, 1, 2)),
    # the transformed dims in stride order (0 then 2, whatever order dim gives), innermost
    (F.fftn, lambda a: np.fft.fftn(a, axes=(2, 0)), {"dim": (2, 0)}, (4, 8, 1)),
    (F.fftn, lambda a: np.fft.fftn(a, axes=(0, 1, 2)), {}, (12, 4, 1)),
])
def test_transforms_put_the_transformed_dims_innermost(fn, ref, kwargs, strides):
    a = _array((2, 3, 4))
    y = fn(ember.tensor(a), **kwargs)
    assert y.stride() == strides
    np.testing.assert_allclose(y.numpy(), ref(a), atol=1e-12)


def test_ihfftn_lays_out_its_second_stage_by_the_first():
    a = _array((3, 4))
    y = F.ihfftn(ember.tensor(a), s=(-1, 3))
    assert y.shape == (3, 2) and y.stride() == (1, 3)
    expected = np.fft.ifft(np.conj(np.fft.rfft(a[:, :3], axis=1)) / 3, axis=0) * 1
    np.testing.assert_allclose(y.numpy(), expected, atol=1e-12)


def test_complex_to_real_of_a_permuted_input_is_contiguous():
    a = _array((4, 3, 2)) + 1j * _array((4, 3, 2), 1)
    x = ember.tensor(a).permute(2, 1, 0)
    y = F.irfftn(x, s=(3, 5))
    assert y.shape == (2, 3, 5) and y.stride() == (15, 5, 1)
    np.testing.assert_allclose(y.numpy(), np.fft.irfftn(a.transpose(2, 1, 0), s=(3, 5),
                                                        axes=(1, 2)), atol=1e-12)


def test_a_size_one_transformed_dim_gets_a_fresh_stride():
    y = F.fft(ember.randn(3, 1, 4), dim=1)
    assert y.stride() == (4, 1, 1)


def test_gradients_keep_their_input_layout():
    x = ember.tensor(_array((2, 3, 4)), requires_grad=True)
    F.fft(x, dim=0).abs().sum().backward()
    assert x.grad.stride() == (12, 4, 1)


def _error(fn, *args, **kwargs):
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return type(info.value), str(info.value)


def test_n_dim_transforms_check_s_and_dim_before_the_dtype():
    half = ember.zeros(2, 3, 4, dtype=ember.float16)
    assert _error(F.fftn, half, s=(3, 3, 3), dim=(-2, -1)) == (
        RuntimeError, "When given, dim and shape arguments must have the same length")
    assert _error(F.rfft2, ember.zeros(3, 0, dtype=ember.float16)) == (
        RuntimeError, "Invalid number of data points (0) specified")
    # every size is checked first, before the complex-to-real output size 2 * (0 - 1)
    assert _error(F.hfftn, ember.zeros(3, 0, dtype=ember.int32)) == (
        RuntimeError, "Invalid number of data points (0) specified")
    # ... and the complex-to-real output size, 2 * (1 - 1) here
    assert _error(F.irfftn, ember.zeros(1, dtype=ember.float16)) == (
        RuntimeError, "Invalid number of data points (0) specified")
    assert _error(F.irfftn, ember.tensor(1.0, dtype=ember.float16)) == (
        RuntimeError, "irfftn must transform at least one axis")
    assert _error(F.fftn, half) == (RuntimeError, "Unsupported dtype Half")
    # the 1-dim transforms look at the dtype first
    assert _error(F.fft, half, dim=5) == (RuntimeError, "Unsupported dtype Half")


def test_real_input_checks_as_torch():
    z = ember.zeros(2, 3, dtype=ember.complex64)
    assert _error(F.rfftn, z, dim=(0, 0)) == (
        RuntimeError, "rfftn expects a real-valued input tensor, but got ComplexFloat")
    assert _error(F.rfft2, z) == (
        RuntimeError, "rfftn expects a real-valued input tensor, but got ComplexFloat")
    assert _error(F.ihfft2, z) == (
        RuntimeError, "Only supports floating-point dtypes, but found: ComplexFloat")
    assert _error(F.ihfftn, ember.zeros(0, dtype=ember.complex128)) == (
        RuntimeError, "Invalid number of data points (0) specified")
    assert _error(F.rfft, z) == (
        RuntimeError, "rfft expects a real input tensor, but got ComplexFloat")


def test_two_dim_transforms_refuse_dim_none():
    # (rfft2 too, before it looks at the input's dtype)
    assert _error(F.rfft2, ember.zeros(4, dtype=ember.complex128), dim=None) == (
        TypeError, "fft_rfft2(): argument 'dim' must be tuple of ints, not NoneType")
    assert _error(F.hfft2, ember.zeros(2, 3), dim=None) == (
        TypeError, "fft_hfft2(): argument 'dim' must be tuple of ints, not NoneType")


def test_an_operand_cast_to_the_common_dtype_takes_part_with_the_cast_copys_layout():
    # torch casts an expanded operand with .to(): a row-major copy, which then decides the
    # layout of a result against a permuted operand of the common dtype
    a = ember.ones(1).expand(3, 4, 2)
    b = ember.randn(2, 4, 3, dtype=ember.complex64).permute(2, 1, 0)
    assert (a * b).stride() == (8, 2, 1)
    np.testing.assert_allclose((a * b).numpy(), b.numpy())
    # a dense operand of another dtype keeps its own order (as before)
    c = ember.randn(2, 4, 3).permute(2, 1, 0)
    assert (c * b).stride() == (1, 3, 12)


def test_gradient_of_abs_of_a_permuted_complex_tensor_is_row_major():
    x = ember.randn(3, 4, 2, dtype=ember.complex64).transpose(0, -1).requires_grad_()
    g, = ember.autograd.grad(x.abs().sum(), x)
    assert g.stride() == (12, 3, 1)
    np.testing.assert_allclose(g.numpy(), x.detach().numpy() / np.abs(x.detach().numpy()),
                               rtol=1e-6)


def test_max_of_an_empty_complex_tensor_refuses_the_missing_dim_first():
    z = ember.zeros(2, 0, dtype=ember.complex64)
    assert _error(z.max) == (
        RuntimeError, "max(): Expected reduction dim to be specified for input.numel() == 0. "
        "Specify the reduction dim with the 'dim' argument.")
    assert _error(z.min, 1) == (
        IndexError, "min(): Expected reduction dim 1 to have non-zero size.")
    assert _error(z.max, 0) == (RuntimeError, "max(): does not support complex input")
