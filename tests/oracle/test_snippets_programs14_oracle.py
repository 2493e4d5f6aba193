"""Whole programs of the kinds people write, run under real torch and under ember (`import
ember as torch`): what they print must be identical. Inspecting autograd graphs (the saved
values of common nodes, `dir(grad_fn)`, walking `next_functions`), ...
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    'graph_walk_saved_values': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(2, 3, 4, requires_grad=True)
h = F.leaky_relu(x.permute(0, -1, 1), 0.2).unsqueeze(-1).squeeze(-1)
h = torch.cat([h, h.transpose(-1, -2).reshape(2, 4, 3)], dim=-1)
att = torch.softmax((h.unsqueeze(1) * h.unsqueeze(2)).sum(-1) / 3 ** 0.5, dim=-1)
out = torch.log_softmax(att.sum(-2), -1).mean(dim=(0,), keepdim=True)
loss = out.max(-1).values.select(0, -1)
def walk(fn, depth=0):
    if fn is None or depth > 12:
        return
    saved = {k: (tuple(getattr(fn, k).shape) if hasattr(getattr(fn, k), "shape") else getattr(fn, k))
             for k in dir(fn) if k.startswith("_saved_")}
    print("  " * depth + type(fn).__name__, saved)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)
walk(loss.grad_fn)
loss.backward()
print(x.grad.shape, round(x.grad.abs().sum().item(), 4))
print(torch.stack([x, x], -1).grad_fn._saved_dim, x.expand(3, 2, 3, 4).grad_fn._saved_self_sym_sizes)
print(x.diagonal(0, -1, -2).grad_fn._saved_dim1, x.view(6, 4).grad_fn._saved_self_sym_sizes)
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
