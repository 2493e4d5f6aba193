"""torch's float32 dot product (NOTE [ MKL's sdot ] in `_ops/_sdot.py`): against the NOTE's
order written element by element in plain float32 arithmetic, and values recorded from torch
2.13 (one thread)."""
import numpy as np
import pytest

import ember
from ember._ops import _sdot

F32 = np.float32


def _reference(a, b):
    """The NOTE's order, one float32 operation at a time."""
    n = len(a)
    acc = [[F32(0)] * 4 for _ in range(4)]
    body = n - n % 16
    for i in range(body):
        k, lane = (i // 4) % 4, i % 4
        acc[k][lane] = F32(acc[k][lane] + F32(a[i] * b[i]))
    groups = (n - body) // 4
    for j in range(groups):
        for lane in range(4):
            i = body + 4 * j + lane
            acc[j % 2][lane] = F32(acc[j % 2][lane] + F32(a[i] * b[i]))
    for i in range(body + 4 * groups, n):
        acc[0][0] = F32(acc[0][0] + F32(a[i] * b[i]))
    lanes = [F32(F32(F32(acc[0][x] + acc[1][x]) + acc[2][x]) + acc[3][x]) for x in range(4)]
    return F32(F32(lanes[0] + lanes[2]) + F32(lanes[1] + lanes[3]))


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 9, 12, 16, 17, 28, 31, 47, 64, 101])
def test_sdot_follows_the_note(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(F32)
    b = rng.standard_normal(n).astype(F32)
    assert _sdot.sdot(a, b).item() == _reference(a, b)
    assert _sdot.sdot(a, b).dtype == F32


# torch.dot of a = (arange(n) * 0.37) % 3 - 1.4, b = (arange(n) * 0.71) % 2 - 0.9, float32;
# NumPy's dot gives 1.3309999704360962, 2.8942012786865234, 1.6649951934814453,
# 2.8992438316345215 for n = 5, 37, 100, 1001
TORCH_DOT = {3: 1.1124999523162842, 5: 1.3310000896453857, 13: 2.488999843597412,
             37: 2.894200563430786, 100: 1.6649956703186035, 1001: 2.899247646331787}


@pytest.mark.parametrize("n", sorted(TORCH_DOT))
def test_dot_inner_matmul_vdot_tensordot_are_torchs(n):
    a = (ember.arange(float(n)) * 0.37) % 3 - 1.4
    b = (ember.arange(float(n)) * 0.71) % 2 - 0.9
    for value in (ember.dot(a, b), a @ b, ember.inner(a, b), ember.vdot(a, b),
                  ember.tensordot(a, b, 1), ember.matmul(a, b)):
        assert value.item() == TORCH_DOT[n]


def test_views_at_other_alignments_keep_numpys_dot():
    base = (ember.arange(40.) * 0.37) % 3 - 1.4
    other = (ember.arange(40.) * 0.71) % 2 - 0.9
    a, b = base[1:38], other[1:38]         # (offset one element: MKL peels; not followed)
    assert not _sdot.applies(a, b)
    assert ember.dot(a, b).item() == float(np.dot(a.numpy(), b.numpy()))
    assert _sdot.applies(base[4:20], other[8:24])


def test_tensordot_of_one_number_is_a_dot():
    a = ember.randn(2, 3, requires_grad=True)
    b = ember.randn(3, 2, requires_grad=True)
    out = ember.tensordot(a, b.t(), 2)
    assert out.grad_fn.name() == "ViewBackward0"
    assert out.grad_fn.next_functions[0][0].name() == "DotBackward0"
    out.backward()
    assert ember.equal(a.grad, b.t()) and ember.equal(b.grad, a.t())
    v = ember.randn(4, requires_grad=True)
    node = ember.inner(v, v.detach()).grad_fn.next_functions[0][0]
    assert node.name() == "DotBackward0" and node.next_functions[0][0].name() == \
        "PermuteBackward0"
