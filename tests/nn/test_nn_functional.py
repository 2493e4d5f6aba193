"""ember.nn.functional helpers (pad, one_hot, normalize, distances) and ember.nn.utils."""
import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F

from nn_checks import check_gradients

RNG = np.random.default_rng(0)
T = lambda a: ember.tensor(a)   # noqa: E731


@pytest.mark.parametrize("mode,np_mode", [("constant", "constant"), ("reflect", "reflect"),
                                          ("replicate", "edge"), ("circular", "wrap")])
def test_pad_modes(mode, np_mode):
    x = RNG.standard_normal((2, 3, 4))
    out = F.pad(T(x), (1, 2), mode=mode)
    np.testing.assert_allclose(out.numpy(), np.pad(x, ((0, 0), (0, 0), (1, 2)), np_mode))
    check_gradients(lambda t: F.pad(t, (1, 2), mode=mode), x)
    x4 = RNG.standard_normal((1, 2, 3, 4))
    out = F.pad(T(x4), (1, 0, 2, 1), mode=mode)
    np.testing.assert_allclose(out.numpy(), np.pad(x4, ((0, 0), (0, 0), (2, 1), (1, 0)),
                                                   np_mode))
    check_gradients(lambda t: F.pad(t, (1, 0, 2, 1), mode=mode), x4)
    from nn_checks import check_second_derivatives
    check_second_derivatives(lambda t: F.pad(t, (1, 2), mode=mode) ** 2, x)


def test_constant_pad_value_and_crop():
    x = RNG.standard_normal((2, 3))
    np.testing.assert_allclose(F.pad(T(x), (1, 1), value=7.0).numpy(),
                               np.pad(x, ((0, 0), (1, 1)), constant_values=7.0))
    np.testing.assert_allclose(F.pad(T(x), (-1, 0, 0, 1)).numpy(),
                               np.pad(x[:, 1:], ((0, 1), (0, 0))))
    check_gradients(lambda t: F.pad(t, (-1, 2)), x)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(T(x), (1,))


def test_one_hot():
    out = F.one_hot(ember.tensor([0, 2, 1]))
    assert out.dtype == ember.int64 and out.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert F.one_hot(ember.tensor([[1]]), 4).shape == (1, 1, 4)
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes."):
        F.one_hot(ember.tensor([3]), 2)


@pytest.mark.parametrize("shape", [(5,), (2, 3), (0,), (), (4, 1, 2)])
@pytest.mark.parametrize("num_classes", [-1, 7])
def test_one_hot_is_the_identity_matrixs_rows(shape, num_classes):
    values = RNG.integers(0, 7, shape)
    t = ember.tensor(values.tolist(), dtype=ember.int64)
    if num_classes == -1 and not values.size:
        with pytest.raises(RuntimeError, match="Can not infer total number of classes"):
            F.one_hot(t, num_classes)
        return
    out = F.one_hot(t, num_classes)
    classes = int(values.max()) + 1 if num_classes == -1 else num_classes
    expected = np.eye(classes, dtype=np.int64)[values]
    assert out.dtype == ember.int64 and out.shape == expected.shape and out.is_contiguous()
    assert np.array_equal(out.numpy(), expected)
    # a strided input (a view) gives the same rows
    wide = ember.from_numpy(np.stack([values, values], -1))
    assert np.array_equal(F.one_hot(wide[..., 0], num_classes).numpy(), expected)
    with pytest.raises(RuntimeError, match="Class values must be non-negative."):
        F.one_hot(ember.tensor([1, -1]), num_classes)


def test_normalize_and_distances():
    x, y = RNG.standard_normal((4, 5)), RNG.standard_normal((4, 5))
    np.testing.assert_allclose(F.normalize(T(x)).numpy(),
                               x / np.linalg.norm(x, axis=1, keepdims=True))
    np.testing.assert_allclose(F.normalize(T(x), p=1, dim=0).numpy(),
                               x / np.abs(x).sum(0, keepdims=True))
    cos = (x * y).sum(1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)
    np.testing.assert_allclose(F.cosine_similarity(T(x), T(y)).numpy(), cos)
    np.testing.assert_allclose(F.pairwise_distance(T(x), T(y), p=3).numpy(),
                               (np.abs(x - y + 1e-6) ** 3).sum(1) ** (1 / 3))
    check_gradients(lambda a, b: F.cosine_similarity(a, b), x, y)
    check_gradients(lambda a: F.normalize(a, p=3), x)
    zero = ember.zeros(3, requires_grad=True)
    F.normalize(zero, dim=0).sum().backward()
    assert np.isfinite(zero.grad.numpy()).all()


def test_clip_grad_norm_and_value():
    a = nn.Parameter(ember.zeros(3))
    b = nn.Parameter(ember.zeros(4))
    a.grad, b.grad = ember.full((3,), 3.0), ember.full((4,), 4.0)
    total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    expected = np.sqrt(9 * 3 + 16 * 4)
    np.testing.assert_allclose(total.item(), expected, rtol=1e-6)
    np.testing.assert_allclose(a.grad.numpy(), 3 / (expected + 1e-6), rtol=1e-6)
    a.grad = ember.tensor([1.0, -5.0, 0.5])
    total = nn.utils.clip_grad_norm_(a, 10.0, norm_type="inf")
    assert total.item() == 5.0 and a.grad.tolist() == [1.0, -5.0, 0.5]
    nn.utils.clip_grad_value_([a], 0.75)
    assert a.grad.tolist() == [0.75, -0.75, 0.5]
    a.grad = ember.tensor([float("nan"), 0, 0])
    with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
        nn.utils.clip_grad_norm_(a, 1.0, error_if_nonfinite=True)


def test_parameters_to_vector_round_trip():
    lin = nn.Linear(3, 2)
    vec = nn.utils.parameters_to_vector(lin.parameters())
    assert vec.shape == (8,)
    nn.utils.vector_to_parameters(ember.arange(8.0), lin.parameters())
    assert lin.weight.tolist() == [[0, 1, 2], [3, 4, 5]] and lin.bias.tolist() == [6, 7]


# -- pdist -----------------------------------------------------------------------------------

def _pdist_ref(x, p):
    rows = []
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            d = np.abs(x[i] - x[j])
            rows.append((d != 0).sum() if p == 0 else d.max(initial=0) if p == np.inf
                        else (d ** p).sum() ** (1 / p))
    return np.array(rows)


@pytest.mark.parametrize("p", [0, 1, 2, 3, np.inf, 1.5])
def test_pdist_values_and_gradients(p):
    from nn_checks import check_second_derivatives
    x = np.random.default_rng(3).standard_normal((5, 3))
    y = F.pdist(ember.tensor(x), p)
    assert type(F.pdist(ember.tensor(x, requires_grad=True), p).grad_fn).__name__ == \
        "PdistBackward0"
    np.testing.assert_allclose(y.numpy(), _pdist_ref(x, p), rtol=1e-12)
    if p not in (0,):
        check_gradients(lambda t: F.pdist(t, p), x)
    if p not in (0, 1, np.inf):
        check_second_derivatives(lambda t: F.pdist(t, p), x)


def test_pdist_edges_and_errors():
    # equal rows: distance 0, and torch's gradient 0 there (the other pairs still count)
    x = ember.tensor([[0., 0.], [0., 0.], [1., 1.]], requires_grad=True)
    F.pdist(x).sum().backward()
    h = 2 ** -0.5
    np.testing.assert_allclose(x.grad.numpy(), [[-h, -h], [-h, -h], [2 * h, 2 * h]])
    assert F.pdist(ember.zeros(1, 3)).shape == (0,)
    assert F.pdist(ember.zeros(3, 0)).tolist() == [0., 0., 0.]
    with pytest.raises(RuntimeError, match="pdist only supports 2D tensors, got: 3D"):
        F.pdist(ember.ones(2, 3, 4))
    with pytest.raises(RuntimeError, match="pdist only supports floating-point dtypes"):
        F.pdist(ember.ones(3, 2, dtype=ember.int64))
    with pytest.raises(RuntimeError, match="pdist only supports non-negative p values"):
        F.pdist(ember.ones(3, 2), -1)
    # torch's kernel has no 16-bit floats, but is not reached without pairs or columns
    for dtype, name in ((ember.bfloat16, "BFloat16"), (ember.float16, "Half")):
        with pytest.raises(NotImplementedError, match=f'"pdist" not implemented for \'{name}\''):
            F.pdist(ember.ones(3, 2, dtype=dtype))
        assert F.pdist(ember.ones(1, 2, dtype=dtype)).shape == (0,)
        assert F.pdist(ember.ones(3, 0, dtype=dtype)).tolist() == [0., 0., 0.]


@pytest.mark.parametrize("dtype, shown", [(ember.int64, "torch.LongTensor"),
                                          (ember.uint8, "torch.ByteTensor"),
                                          (ember.bool, "CPUBoolType"),
                                          (ember.complex64, "CPUComplexFloatType")])
def test_embedding_bag_takes_floating_weights_only(dtype, shown):
    with pytest.raises(RuntimeError) as info:
        F.embedding_bag(ember.tensor([0, 1]), ember.ones(3, 2, dtype=dtype), ember.tensor([0]))
    assert str(info.value) == (
        f"Expected tensor for argument #1 'weight' to have one of the following scalar types: "
        f"Half, BFloat16, Float, Double; but got {shown} instead (while checking arguments for "
        f"embedding_bag)")
    out = F.embedding_bag(ember.tensor([0, 2]), ember.arange(6.).reshape(3, 2).double(),
                          ember.tensor([0]), mode="sum")
    assert out.dtype is ember.float64 and out.tolist() == [[4., 6.]]


@pytest.mark.parametrize("dtype, dims, kernel", [
    (ember.int32, 3, "avg_pool2d"), (ember.int32, 4, "avg_pool3d_out_frame"),
    (ember.bool, 3, "avg_pool2d"), (ember.float16, 4, "avg_pool3d_out_frame")])
def test_local_response_norm_refuses_what_its_pool_kernel_lacks(dtype, dims, kernel):
    with pytest.raises(NotImplementedError, match=f'"{kernel}" not implemented'):
        F.local_response_norm(ember.ones(*(1, 2, 3, 3)[:dims], dtype=dtype), 2)
    # int64 has both kernels, and 16-bit floats avg_pool2d's
    assert F.local_response_norm(ember.ones(*(1, 2, 3, 3)[:dims], dtype=ember.int64),
                                 2).shape == (1, 2, 3, 3)[:dims]
    assert F.local_response_norm(ember.ones(1, 2, 3, dtype=ember.float16), 2).dtype is \
        ember.float16
