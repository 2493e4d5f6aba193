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
    'loss_nodes_saved_values': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 8), nn.GELU(approximate="tanh"), nn.Linear(8, 3))
x = torch.randn(6, 5); y = torch.randint(0, 3, (6,)); t = torch.rand(6, 3)
def saved(fn):
    return {k: (tuple(getattr(fn, k).shape) if hasattr(getattr(fn, k), "shape") else getattr(fn, k))
            for k in dir(fn) if k.startswith("_saved_")}
out = model(x)
losses = {
    "ce": F.cross_entropy(out, y, ignore_index=2),
    "nll": F.nll_loss(F.log_softmax(out, 1), y, reduction="sum"),
    "mse": F.mse_loss(out, t, reduction="none"),
    "huber": nn.HuberLoss(delta=0.3)(out, t),
    "sl1": nn.SmoothL1Loss(beta=2.0, reduction="sum")(out, t),
    "bce": nn.BCEWithLogitsLoss(pos_weight=torch.full((3,), 2.0))(out, t),
    "bce2": F.binary_cross_entropy(out.sigmoid(), t),
}
for name, loss in losses.items():
    fn = loss.grad_fn
    print(name, type(fn).__name__, saved(fn))
    print("   <-", [(type(f).__name__, saved(f)) for f, _ in fn.next_functions if f is not None])
total = sum(l.sum() for l in losses.values())
print(type(total.grad_fn).__name__, saved(total.grad_fn))
total.backward()
print([round(p.grad.norm().item(), 4) for p in model.parameters()])
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
