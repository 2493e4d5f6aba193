"""vmap refuses an in-place write of a mapped value into a tensor that is not mapped (a
captured accumulator, or one made inside the function), in torch's words for the op."""
import pytest

import ember as torch
from ember.func import vmap

TAIL = "is not possible because there exists a Tensor `other` in extra_args"


@pytest.mark.parametrize("write, message", [
    (lambda acc, x: acc.add_(x), r"^output with shape \[3\] doesn't match the broadcast "
                                 r"shape \[4, 3\]$"),
    (lambda acc, x: acc.__iadd__(x), r"broadcast shape \[4, 3\]"),
    (lambda acc, x: acc.mul_(x), rf"^vmap: inplace arithmetic\(self, \*extra_args\) {TAIL}"),
    (lambda acc, x: acc.copy_(x), "inplace arithmetic"),
    (lambda acc, x: acc.__setitem__(slice(0, 2), x[:2]), "inplace arithmetic"),
    (lambda acc, x: acc.__setitem__(torch.tensor([0]), x[0]), r"^vmap: index_put_\(self"),
    (lambda acc, x: acc.fill_(x[0]), r"^vmap: fill_\(self.* in a vmap\. .* instead of fill_\."),
    (lambda acc, x: acc.clamp_(x), r"^vmap: aten::clamp_\(self.* over at level 1\. Please"),
])
def test_a_mapped_value_is_not_written_into_an_unmapped_tensor(write, message):
    acc = torch.zeros(3)
    with pytest.raises(RuntimeError, match=message):
        vmap(lambda x: write(acc, x))(torch.ones(4, 3))
    with pytest.raises(RuntimeError, match="output with shape"):
        vmap(lambda x: torch.zeros(3).add_(x))(torch.ones(4, 3))    # (made inside: the same)


def test_what_torch_allows():
    acc = torch.zeros(3)
    out = vmap(lambda x: x.add_(acc).mul_(2))(torch.ones(2, 3))      # into the mapped value
    assert out.tolist() == [[2.0] * 3] * 2
    vmap(lambda x: (acc.zero_(), x)[1])(torch.ones(2, 3))           # no mapped value written
    assert vmap(lambda x: x.clone().sub_(1))(torch.ones(2, 3)).tolist() == [[0.0] * 3] * 2
