"""ember.masked (torch.masked's functions on plain tensors), checked against NumPy's masked
arrays and numbers worked out by hand."""
import math

import numpy as np
import pytest

import ember as torch

X = np.array([[-3., -2., -1., 7.], [0., 1., 2., 3.], [4., 5., 6., -8.]])
M = np.array([[True, False, True, True], [False, False, False, False],
              [True, True, False, True]])


def _masked():
    return torch.from_numpy(X.copy()), torch.from_numpy(M.copy())


def test_reductions_are_numpys_masked_reductions_with_identities_for_empty_rows():
    x, m = _masked()
    ma = np.ma.masked_array(X, ~M)
    assert torch.masked.sum(x, 1, mask=m).tolist() == ma.sum(1).filled(0).tolist()
    assert torch.masked.prod(x, 1, mask=m).tolist() == ma.prod(1).filled(1).tolist()
    assert torch.masked.amax(x, 1, mask=m).tolist() == ma.max(1).filled(-math.inf).tolist()
    assert torch.masked.amin(x, 0, mask=m).tolist() == ma.min(0).filled(math.inf).tolist()
    mean = torch.masked.mean(x, 1, mask=m).tolist()
    assert mean[0] == ma.mean(1)[0] and math.isnan(mean[1]) and mean[2] == ma.mean(1)[2]
    var = torch.masked.var(x, 1, mask=m)
    np.testing.assert_allclose(var[[0, 2]].numpy(), ma.var(1, ddof=1)[[0, 2]])
    assert math.isnan(var[1].item())
    np.testing.assert_allclose(torch.masked.std(x, 1, False, mask=m)[[0, 2]].numpy(),
                               ma.std(1)[[0, 2]])
    assert torch.masked.sum(x, mask=m).item() == ma.sum()
    assert torch.masked.argmax(x, 1, mask=m).tolist() == [3., 0., 1.]   # in the input's dtype
    assert torch.masked.median(x, 1, mask=m)[[0, 2]].tolist() == [-1., 4.]


def test_normalizations_leave_masked_elements_out():
    x, m = _masked()
    soft = torch.masked.softmax(x, 1, mask=m)
    row = np.exp(X[0, M[0]]) / np.exp(X[0, M[0]]).sum()
    np.testing.assert_allclose(soft[0][m[0]].numpy(), row)
    assert soft[0, 1].item() == 0 and torch.isnan(soft[1]).all()
    assert torch.masked.log_softmax(x, 1, mask=m)[0, 1].item() == -math.inf
    assert torch.masked.cumsum(x, 1, mask=m)[0].tolist() == [-3., -3., -4., 3.]
    assert torch.masked.norm(x, 2.0, 1, mask=m).tolist()[1] == 0.
    np.testing.assert_allclose(torch.masked.norm(x, 2.0, 1, mask=m)[0].item(),
                               math.sqrt(9 + 1 + 49))
    unit = torch.masked.normalize(x, 2.0, 1, mask=m)
    np.testing.assert_allclose(unit[0].numpy(), np.where(M[0], X[0], 0) / math.sqrt(59))
    both = torch.masked.logaddexp(x[0], x[2], input_mask=m[0], other_mask=m[2])
    np.testing.assert_allclose(both.numpy(), [np.logaddexp(-3, 4), 5., -1., np.logaddexp(7, -8)])


def test_a_mask_broadcasts_and_integer_inputs_follow_torch():
    x, m = _masked()
    assert torch.masked.sum(x, 1, mask=torch.tensor([True, False, True, False])).tolist() == \
        [-4., 2., 10.]
    ints = x.long()
    assert torch.masked.sum(ints, 1, mask=m).dtype is torch.int64
    assert torch.masked.var(ints, 1, mask=m).dtype is torch.float32
    with pytest.raises(ValueError, match="Could not infer output dtype"):
        torch.masked.mean(ints, 1, mask=m)
    with pytest.raises(ValueError, match="no fully masked out rows"):
        torch.masked.median(ints, 1, mask=m)


def test_gradients_reach_the_kept_elements_only():
    x, m = _masked()
    x.requires_grad_()
    torch.masked.sum(x, 1, mask=m).sum().backward()
    assert x.grad.tolist() == M.astype(float).tolist()
