"""Arguments of the wrong type: torch's argument parser refuses them with a TypeError that names
the argument, and numbers it by its place in the call as written (a method does not count
`self`; an argument given by keyword has no position). ember must refuse them too, never
compute with them. The texts are torch 2.13's."""
import numpy as np
import pytest

import ember as torch

A = torch.ones(2, 2)
L = torch.ones(3, dtype=torch.long)
B = torch.ones(2, 3, 4, 5)

CASES = [
    # keyword-only methods given a positional argument
    (lambda: A.float(3), "float() takes 0 positional arguments but 1 was given"),
    (lambda: A.int(torch.contiguous_format), "int() takes 0 positional arguments but 1 was given"),
    (lambda: A.double(3, 4), "double() takes 0 positional arguments but 2 were given"),
    (lambda: A.half(memory_format=3),
     "half(): argument 'memory_format' must be torch.memory_format, not int"),
    (lambda: A.contiguous(3), "contiguous() takes 0 positional arguments but 1 was given"),
    (lambda: A.contiguous(memory_format=3),
     "contiguous(): argument 'memory_format' must be torch.memory_format, not int"),
    (lambda: A.is_contiguous(3), "is_contiguous() takes 0 positional arguments but 1 was given"),
    # numbers where only a tensor is taken: method, function, keyword
    (lambda: A.logaddexp(3), "logaddexp(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.logaddexp2(A, 3),
     "logaddexp2(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: torch.nextafter(A, other=3), "nextafter(): argument 'other' must be Tensor, not int"),
    (lambda: A.heaviside(3), "heaviside(): argument 'values' (position 1) must be Tensor, not int"),
    (lambda: torch.gcd(L, 3), "gcd(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: A.dist(3), "dist(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.dist(A, other=3), "dist(): argument 'other' must be Tensor, not int"),
    (lambda: A.isclose(3), "isclose(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.allclose(A, 3), "allclose(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: torch.equal(A, other=3), "equal(): argument 'other' must be Tensor, not int"),
    (lambda: A.gather(0, 3), "gather(): argument 'index' (position 2) must be Tensor, not int"),
    (lambda: torch.gather(A, 0, 3), "gather(): argument 'index' (position 3) must be Tensor, not int"),
    (lambda: torch.gather(A, 0, index=3), "gather(): argument 'index' must be Tensor, not int"),
    (lambda: A.take_along_dim(3),
     "take_along_dim(): argument 'indices' (position 1) must be Tensor, not int"),
    (lambda: torch.take(A, 3), "take(): argument 'index' (position 2) must be Tensor, not int"),
    (lambda: A.index_add(0, 3, A), "index_add(): argument 'index' (position 2) must be Tensor, not int"),
    (lambda: torch.masked_select(A, 3),
     "masked_select(): argument 'mask' (position 2) must be Tensor, not int"),
    (lambda: A.masked_scatter(3, A),
     "masked_scatter(): argument 'mask' (position 1) must be Tensor, not int"),
    (lambda: A.cross(3), "cross(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.cross(A, 3), "cross(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: torch.cdist(A, x2=3), "cdist(): argument 'x2' (position 2) must be Tensor, not int"),
    (lambda: A.prelu(3), "prelu(): argument 'weight' (position 1) must be Tensor, not int"),
    (lambda: L.bincount(3), "bincount(): argument 'weights' (position 1) must be Tensor, not int"),
    (lambda: torch.bincount(L, weights=3), "bincount(): argument 'weights' must be Tensor, not int"),
    (lambda: A.cholesky_solve(3),
     "cholesky_solve(): argument 'input2' (position 1) must be Tensor, not int"),
    (lambda: torch.triangular_solve(A, 3),
     "triangular_solve(): argument 'A' (position 2) must be Tensor, not int"),
    (lambda: A.lerp(3, 0.5), "lerp(): argument 'end' (position 1) must be Tensor, not int"),
    # ints (and NumPy bools) where only a bool is taken
    (lambda: A.qr(1), "qr(): argument 'some' (position 1) must be bool, not int"),
    (lambda: torch.svd(A, 0), "svd(): argument 'some' (position 2) must be bool, not int"),
    (lambda: A.qr(np.bool_(True)), "qr(): argument 'some' (position 1) must be bool, not numpy.bool"),
    (lambda: A.cholesky(3), "cholesky(): argument 'upper' (position 1) must be bool, not int"),
    (lambda: A.cholesky_inverse(1),
     "cholesky_inverse(): argument 'upper' (position 1) must be bool, not int"),
    (lambda: A.unique(3), "_unique2(): argument 'sorted' must be bool, not int"),
    (lambda: torch.unique(A, 3), "_unique2(): argument 'sorted' must be bool, not int"),
    (lambda: A.unique(dim=0, return_counts=1),
     "unique_dim(): argument 'return_counts' must be bool, not int"),
    (lambda: A.unique_consecutive(1),
     "unique_consecutive(): argument 'return_inverse' must be bool, not int"),
]


@pytest.mark.parametrize("call, message", CASES, ids=[m.split("(")[0] + str(i)
                                                       for i, (_, m) in enumerate(CASES)])
def test_wrong_argument_types_raise_torchs_type_error(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


def test_conversions_keep_taking_a_memory_format_by_keyword():
    assert B.double(memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert B.permute(0, 2, 3, 1).double().stride() == B.permute(0, 2, 3, 1).stride()
    assert B.permute(0, 2, 3, 1).double(memory_format=torch.contiguous_format).stride() == \
        (60, 15, 3, 1)
    assert B.contiguous(memory_format=torch.channels_last).is_contiguous(
        memory_format=torch.channels_last)


def test_valid_calls_still_compute():
    np.testing.assert_allclose(torch.logaddexp(A, A).numpy(), 1 + np.log(2), rtol=1e-6)
    assert A.lerp(torch.zeros(2, 2), 0.25).tolist() == [[0.75, 0.75], [0.75, 0.75]]
    assert A.qr(True).R.shape == (2, 2) and A.unique(sorted=True).tolist() == [1.0]
    assert torch.isclose(A, A).all() and A.allclose(A) and A.equal(A)


def test_bucketize_and_searchsorted_with_numbers():
    with pytest.raises(TypeError, match=r"^bucketize\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, int\), but expected one of:"):
        torch.bucketize(A, 3)
    with pytest.raises(RuntimeError, match=r"input value can be a scalar only when boundaries "
                                           r"tensor dimension is 1, but we got boundaries tensor "
                                           r"dim\(2\)"):
        torch.searchsorted(A, 3)
    assert torch.searchsorted(torch.tensor([1.0, 2.0]), 1.5).item() == 1


def test_to_dense_converts_a_dense_tensor_and_refuses_a_dtype_for_sparse_ones():
    x = torch.arange(6.0).reshape(2, 3)
    assert x.to_dense() is x and x.to_dense(torch.float64).dtype == torch.float64
    with pytest.raises(RuntimeError, match="^dtype argument is not supported by sparse_to_dense$"):
        x.to_sparse().to_dense(torch.float64)
    with pytest.raises(TypeError, match=r"^to_dense\(\): argument 'dtype' \(position 1\) must be "
                                        r"torch.dtype, not int$"):
        x.to_dense(3)
