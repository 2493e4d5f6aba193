"""Memory-overlap checks of writes, run under real torch and under ember: same exception (or
the same printed result) for each case."""
import pytest

pytest.importorskip("torch")

from differential import compare  # noqa: E402

pytestmark = pytest.mark.oracle

E = "x = torch.zeros(3).expand(2, 3)\n"
A = "a = torch.arange(6.)\n"
CASES = [
    E + "x.add_(1)", E + "x.neg_()", E + "x.clamp_(0, 1)", E + "x.fill_(1)\nprint(x)",
    E + "x.zero_()\nprint(x)", E + "x.copy_(torch.ones(2, 3))", E + "x.sub_(torch.ones(3), alpha=2)",
    E + "torch.add(torch.ones(2, 3), 1, out=x)", E + "x.masked_fill_(torch.tensor([True, False, True]), 5.)\nprint(x)",
    E + "x.index_add_(0, torch.tensor([0]), torch.ones(1, 3))", E + "x.scatter_(0, torch.tensor([[0, 1, 0]]), 1.)",
    E + "x.masked_scatter_(torch.tensor([True, False, True]), torch.ones(6))",
    E + "torch.stack([torch.ones(3), torch.ones(3)], out=x)", E + "x.copy_(x)\nprint(x)",
    "x = torch.zeros(1).expand(3)\nx.add_(1)", "x = torch.zeros(3, 1).expand(3, 1)\nx.add_(1)\nprint(x)",
    "x = torch.zeros(6).as_strided((2, 2), (2, 1))\nx.add_(1)\nprint(x)",
    "x = torch.zeros(3).expand(0, 3)\nx.add_(1)\nprint(x)",
    "a = torch.arange(6.).reshape(2, 3)\na.add_(a[0])", "a = torch.arange(6.).reshape(2, 3)\na.add_(a)\nprint(a)",
    "a = torch.arange(9.).reshape(3, 3)\na.add_(a.t())", "a = torch.arange(9.).reshape(3, 3)\na[1:].add_(a[:1])\nprint(a)",
    A + "a[1:].copy_(a[:-1])", A + "a[:3].copy_(a[3:])\nprint(a)", A + "a[::2].copy_(a[1::2])\nprint(a)",
    A + "a.view(2, 3).copy_(a.view(3, 2).t())", A + "a.copy_(a[0])", A + "a.data[1:].copy_(a[:-1])",
    A + "a[:3].copy_(a.view(torch.int32)[:3])\nprint(a)", A + "b = a.view(torch.int64)\nb.copy_(b[:1])",
    A + "torch.add(a[:5], torch.ones(5), out=a[1:])", A + "torch.mul(a[:2], 2, out=a[1:3])",
    A + "torch.add(a, a, out=a)\nprint(a)", A + "torch.exp(a[:5], out=a[1:])",
    A + "a[1:].clamp_(min=a[:5])", A + "a[1:].mul_(a[0])\nprint(a)", A + "a[:5] *= a[1]",
    A + "a[1:] = a[:5]", A + "a[1:] = a[0]\nprint(a)", A + "a[torch.tensor([0, 1])] = a[1:3]",
    A + "a.index_put_((torch.tensor([True] * 6),), a)", A + "a.index_put_((torch.tensor([0, 1]),), a[1:3], accumulate=True)",
    "a = torch.arange(6)\na.index_put_((a,), torch.tensor(9))", A + "a.masked_fill_(a > 2, 0.)\nprint(a)",
    A + "a.index_add_(0, torch.tensor([0, 1]), a[3:5])", A + "a.index_copy_(0, torch.tensor([0, 1]), a[1:3])",
    A + "a.index_fill_(0, torch.tensor([0, 1]), a[2])\nprint(a)", A + "a.scatter_add_(0, torch.tensor([0, 1]), a[1:3])",
    A + "a.scatter_reduce_(0, torch.tensor([0, 1]), a[1:3], 'sum')", "a = torch.arange(6)\na.scatter_(0, a[:2], 5)",
    A + "a.masked_scatter_(torch.tensor([True, False] * 3), a[1:])\nprint(a)",
    A + "torch.gather(a, 0, torch.tensor([1, 0]), out=a[:2])", A + "torch.take(a, torch.tensor([1, 0]), out=a[:2])",
    A + "a.put_(torch.tensor([0, 1]), a[1:3])", A + "torch.cat([a[:2], a[2:3]], out=a[1:4])",
    A + "torch.cat([a[:2], a[2:3]], out=a[3:6])\nprint(a)", A + "torch.cat([a[:3]], out=a[:3])",
    A + "torch.stack([a[:2], a[2:4]], out=a[2:6].view(2, 2))", A + "a[1:].fill_(a[0])\nprint(a)",
    "a = torch.tensor([])\na.add_(a)\nprint(a)",
]


@pytest.mark.parametrize("snippet", CASES)
def test_overlap_like_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected
