"""torch's memory-overlap checks of writes: an expanded written-to tensor, and an input that
partly shares the written-to tensor's memory, are refused with torch's texts; the very same
memory is fine for element-wise ops, and layouts torch cannot judge pass."""
import numpy as np
import pytest

import ember as torch

INTERNAL = ("unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")
PARTIAL = ("unsupported operation: some elements of the input tensor and the written-to tensor "
           "refer to a single memory location. Please clone() the tensor before performing the "
           "operation.")


def _expanded():
    return torch.zeros(3).expand(2, 3)


@pytest.mark.parametrize("write", [
    lambda x: x.add_(1), lambda x: x.mul_(torch.ones(2, 3)), lambda x: x.neg_(),
    lambda x: x.exp_(), lambda x: x.clamp_(0, 1), lambda x: x.copy_(torch.ones(3)),
    lambda x: torch.add(torch.ones(2, 3), 1, out=x), lambda x: torch.neg(torch.ones(2, 3), out=x),
    lambda x: x.index_add_(0, torch.tensor([0]), torch.ones(1, 3)),
    lambda x: x.scatter_(0, torch.tensor([[0, 1, 0]]), 1.),
    lambda x: x.masked_scatter_(torch.tensor([True, False, True]), torch.ones(6)),
    lambda x: torch.cat([torch.ones(1, 3), torch.ones(1, 3)], out=x),
])
def test_expanded_target_is_refused(write):
    x = _expanded()
    with pytest.raises(RuntimeError) as info:
        write(x)
    assert str(info.value) == INTERNAL
    np.testing.assert_array_equal(x.numpy(), np.zeros((2, 3)))


def test_fill_and_zero_may_write_an_expanded_tensor():
    x = _expanded()
    x.fill_(2.)
    np.testing.assert_array_equal(x.numpy(), np.full((2, 3), 2.))
    x.zero_()
    np.testing.assert_array_equal(x.numpy(), np.zeros((2, 3)))


def test_index_put_on_expanded_tensor_warns():
    x = _expanded()
    with pytest.warns(UserWarning, match="Use of index_put_ on expanded tensors is deprecated"):
        x[torch.tensor([0])] = 1.


@pytest.mark.parametrize("write", [
    lambda a: a.view(2, 3).add_(a.view(2, 3)[0]), lambda a: a[1:].copy_(a[:-1]),
    lambda a: torch.add(a[:5], torch.ones(5), out=a[1:]),
    lambda a: torch.mul(a[:2], 2, out=a[1:3]), lambda a: a[1:].lerp_(a[:5], 0.5),
    lambda a: a[1:].addcmul_(a[:5], a[:5]), lambda a: a[:5].mul_(a[1]),
    lambda a: a.view(2, 3).copy_(a.view(3, 2).t()), lambda a: a.detach()[1:].copy_(a[:-1]),
    lambda a: a.__setitem__(slice(1, None), a[:5]),
    lambda a: a.index_put_((torch.tensor([0, 1]),), a[2:4]),
    lambda a: a.index_put_((torch.tensor([True] * 6),), a),
    lambda a: a.index_add_(0, torch.tensor([0, 1]), a[3:5]),
    lambda a: a.scatter_(0, torch.tensor([0, 1]), a[1:3]),
    lambda a: a.put_(torch.tensor([0, 1]), a[1:3]),
    lambda a: torch.cat([a[:2], a[2:3]], out=a[1:4]), lambda a: torch.cat([a[:3]], out=a[:3]),
    lambda a: torch.index_select(a, 0, torch.tensor([1, 0]), out=a[:2]),
])
def test_partly_shared_input_is_refused(write):
    a = torch.arange(6.)
    with pytest.raises(RuntimeError) as info:
        write(a)
    assert str(info.value) == PARTIAL
    np.testing.assert_array_equal(a.numpy(), np.arange(6.))


def test_the_same_memory_and_disjoint_ranges_are_fine():
    a = torch.arange(6.)
    a.add_(a)
    torch.mul(a, a.view(6), out=a)
    np.testing.assert_array_equal(a.numpy(), (2 * np.arange(6.)) ** 2)
    b = torch.arange(6.)
    b[:3].copy_(b[3:])
    b[3:].add_(b[0])                    # a 0-dim input outside the written range
    np.testing.assert_array_equal(b.numpy(), [3., 4., 5., 6., 7., 8.])
    c = torch.arange(6.)
    c.copy_(c)
    torch.cat([c[:2], c[2:3]], out=c[3:6])
    np.testing.assert_array_equal(c.numpy(), [0., 1., 2., 0., 1., 2.])


def test_layouts_torch_cannot_judge_pass():
    a = torch.arange(6.)
    a[::2].copy_(a[1::2])               # not dense: torch does not check
    np.testing.assert_array_equal(a.numpy(), [1., 1., 3., 3., 5., 5.])
    x = torch.zeros(6).as_strided((2, 2), (2, 1))
    x.add_(1)
    np.testing.assert_array_equal(x.numpy(), np.ones((2, 2)))
    y = torch.zeros(3).expand(0, 3)     # nothing to write
    y.add_(1)
    assert y.shape == (0, 3)
