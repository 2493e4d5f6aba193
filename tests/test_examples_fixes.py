"""Fixes found by running programs written like pytorch/examples and d2l.ai under ember
(tests/oracle/test_snippets_examples_oracle.py compares them with torch); checked here against
values worked out by hand or with NumPy, so that runs without torch cover them."""
import numpy as np

import ember as torch


def test_float32_log10_and_log2_are_exact_at_powers_of_their_base():
    # PSNR = 10 * log10(1 / mse) printed 20.0000 for mse 0.01: NumPy's float32 log10 of 100 is
    # 2.0000002, torch's is 2.
    powers = torch.tensor([1e-3, 0.01, 1., 10., 100., 1000., 1e5])
    assert torch.log10(powers).tolist() == [-3., -2., 0., 1., 2., 3., 5.]
    assert (10 * torch.log10(1 / torch.tensor(0.01))).item() == 20.0
    assert torch.log2(torch.tensor([0.25, 8., 1024.])).tolist() == [-2., 3., 10.]
    # any float32 input: the float64 value rounded once
    x = np.random.default_rng(0).random(1000).astype(np.float32) * 50
    for name in ("log10", "log2"):
        expected = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
        assert np.array_equal(getattr(torch, name)(torch.from_numpy(x)).numpy(), expected)
    out = torch.tensor([100., 1000.]).log10_()
    assert out.dtype == torch.float32 and out.tolist() == [2., 3.]


def test_spmm_is_mm_for_sparse_and_dense_operands():
    i = torch.tensor([[0, 1, 1], [2, 0, 2]])
    s = torch.sparse_coo_tensor(i, torch.tensor([3., 4., 5.]), (2, 3))
    assert torch.spmm(s, torch.eye(3)).tolist() == [[0., 0., 3.], [4., 0., 5.]]
    x = torch.ones(2, 2, requires_grad=True)
    y = torch.spmm(x, torch.full((2, 2), 2.))
    assert y.tolist() == [[4., 4.], [4., 4.]] and type(y.grad_fn).__name__ == "MmBackward0"
    try:
        torch.spmm(torch.ones(2, 3), torch.ones(2, 2))
    except RuntimeError as e:
        assert str(e) == "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)"
    else:
        raise AssertionError("no error")
    assert not hasattr(torch.Tensor, "spmm")
